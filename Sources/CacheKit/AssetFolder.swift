import CacheKitSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A page's own folder of the files it shows (`page_files/`, as browsers' "save page"
/// makes): each cached body a page is pointed at is placed there once, under a readable,
/// unique, sanitised name taken from its URL — as a clone of the cache's body where the file
/// system can make one (btrfs, XFS: a file of its own whose blocks are shared until either is
/// changed), else as a hard link when they share a file system (the same file: its bytes
/// outlive a prune of the cache), else as a copy. So the saved page no longer depends on the
/// cache.
public final class AssetFolder: CopyPlacer {
    let directory: RawPath
    private var placed: [RawPath: RawPath] = [:]
    /// The names given, ASCII letters lower-cased: two that differ only in case would be one
    /// file once the folder is copied to a file system that ignores case (macOS's, FAT).
    private var names: Set<RawPath> = []
    /// Names of the files `placeBytes` wrote, by URL.
    private var written: [String: [UInt8]] = [:]
    /// Bodies hard-linked into the folder (sharing the cache's bytes).
    public private(set) var linked = 0
    /// Bodies copied into the folder (where a link is not possible).
    public private(set) var copied = 0
    /// Bodies cloned into the folder (their blocks shared with the cache's until either changes).
    public private(set) var cloned = 0
    /// URLs whose bodies could not be placed (the folder cannot be made or written, or no
    /// free name): the page points at the cache for them.
    public private(set) var unplaced: [String] = []
    /// Whether clones are still tried: until the folder's file system says it cannot make one.
    private var canClone = true
    /// Whether something was placed since the last `flush`, and whether as a copy written here.
    private var unflushed = (names: false, bytes: false)

    /// A folder to place copies in (created when the first copy is placed).
    public init(_ directory: RawPath) { self.directory = directory }

    /// The folder, made on first use: its absolute path without symlinks (local references
    /// are computed from absolute paths), and open, for placing files by name in it.
    private var made: (path: RawPath, fd: FileDescriptor, new: Bool)?
    private func madeFolder() -> (path: RawPath, fd: FileDescriptor)? {
        if let made { return (made.path, made.fd) }
        let new = !directory.exists
        guard (try? FileIO.makeDirectories(directory)) != nil else { return nil }
        let path = directory.canonical
        guard case .success(let raw) = Sys.open(path, Sys.openDirectoryFlags) else { return nil }
        made = (path, FileDescriptor(adopting: raw), new)
        unflushed.names = unflushed.names || new
        return (path, made!.fd)
    }

    /// The asset for `body` (the cached file) fetched from `url`; nil when it cannot be
    /// placed (then the page points at the cache, as without assets).
    public func place(_ body: RawPath, url: String) -> RawPath? {
        if let known = placed[body] { return known }
        guard let placed = placeOnce(body, url: url) else {
            unplaced.append(url)
            return nil
        }
        return placed
    }

    private func placeOnce(_ body: RawPath, url: String) -> RawPath? {
        guard let folder = madeFolder() else { return nil }
        let (stem, ext) = Self.readableName(for: url)
        for attempt in Self.attempts {
            let name = Self.name(stem, ext, url: url, attempt: attempt)
            guard !names.contains(Self.folded(name)) else { continue }
            switch place(body, as: name, in: folder.fd) {
            case .placed:
                let target = folder.path.appending(name)
                names.insert(Self.folded(name))
                placed[body] = target
                return target
            case .taken: continue
            case .failed, .cannotClone: return nil
            }
        }
        return nil
    }

    private enum Placement { case placed, taken, failed, cannotClone }

    /// The names tried for a URL, in order (see `name`).
    private static let attempts = 1..<1004

    /// The name of an attempt for a URL whose readable name is `stem` and `ext`: `stem`,
    /// `stem-2` … `stem-999`, then names told apart by a hash of the URL (a page naming
    /// thousands of `pic.png?n=N`).
    private static func name(_ stem: String, _ ext: String?, url: String, attempt: Int) -> [UInt8] {
        let suffix = attempt == 1 ? "" : attempt < 1000 ? "-\(attempt)" : "-\(Self.hash(url, attempt))"
        return Array((stem + suffix).utf8) + (ext.map { Array(".\($0)".utf8) } ?? [])
    }

    /// Places many bodies as `place` would one by one, in order, under the same names (unless
    /// the folder already holds other files under them), with the links, or the copies where
    /// links cannot be made, made on two threads: the folder's lock serializes much of each
    /// `linkat`, not all (18,000 links into one folder, in C: 272 → 243 ms), and copies onto
    /// another file system go faster still (660 → 475 ms). Bodies are placed one at a time
    /// until one is linked or copied (the first makes the folder and finds whether clones can
    /// be made: clones stay one at a time); a body not placed here (a link or copy that failed,
    /// a name not found, a folder that cannot be made) is placed by `place` when asked for.
    public func placeAll(_ requests: [(file: RawPath, url: String)]) {
        var batch: [(body: RawPath, url: String, name: [UInt8])] = []
        var inBatch = Set<RawPath>()
        var claimed = Set<RawPath>()
        for (body, url) in requests where placed[body] == nil && !inBatch.contains(body) {
            guard !canClone, linked + copied > 0 else {
                // One that cannot be placed ends the batch: `place`, asked for it, says so.
                guard placeOnce(body, url: url) != nil else { return }
                continue
            }
            let (stem, ext) = Self.readableName(for: url)
            let name = Self.attempts.lazy.map { Self.name(stem, ext, url: url, attempt: $0) }.first {
                let folded = Self.folded($0)
                return !names.contains(folded) && !claimed.contains(folded)
            }
            guard let name else { continue }
            claimed.insert(Self.folded(name))
            inBatch.insert(body)
            batch.append((body, url, name))
        }
        guard let folder = madeFolder(), !batch.isEmpty else { return }
        let links = linked > 0
        let outcomes = WorkerPool.map(batch.count, workers: 2, chunk: links ? 256 : 64) { i -> Written in
            guard links else { return Self.written(batch[i].body, as: batch[i].name, in: folder.fd, clone: false) }
            switch Sys.link(batch[i].body, to: batch[i].name, in: folder.fd.raw) {
            case .success: return .wrote
            case .failure(let error) where error.code == EEXIST:
                return Self.holds(batch[i].name, in: folder.fd, sameAs: batch[i].body) ? .there : .taken
            case .failure: return .failed
            }
        }
        for (request, outcome) in zip(batch, outcomes) {
            switch outcome {
            case .wrote:
                if links { linked += 1 } else { copied += 1 }
                unflushed = (true, unflushed.bytes || !links)
            case .there: break
            // A name another file holds, or no link or copy: left for `place`, which tries
            // the next names, or a copy.
            case .taken, .failed, .cannotClone: continue
            }
            names.insert(Self.folded(request.name))
            placed[request.body] = folder.path.appending(request.name)
        }
    }

    /// `name` with ASCII letters lower-cased (as a path: hashed in one call).
    private static func folded(_ name: [UInt8]) -> RawPath {
        RawPath(bytes: name.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 })
    }

    /// 16 hex digits from `url` and `salt` (FNV-1a): a name no counter gave.
    private static func hash(_ url: String, _ salt: Int) -> String {
        let hash = FNV1a.hash(String(salt).utf8, into: FNV1a.hash(url.utf8))
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// `body` under `name` in the folder: a clone of it where the file system can make one
    /// (its blocks shared until either file is changed), else a hard link (the same file),
    /// else a copy. A file already there is kept when it is this very body (a link to it
    /// from an earlier run, or the same bytes); another file of that name is never replaced.
    private func place(_ body: RawPath, as name: [UInt8], in folder: FileDescriptor) -> Placement {
        if canClone {
            let cloned = write(body, as: name, in: folder, clone: true)
            if cloned != .cannotClone { return cloned }
        }
        switch Sys.link(body, to: name, in: folder.raw) {
        case .success:
            linked += 1
            unflushed.names = true
            return .placed
        case .failure(let error) where error.code == EEXIST:
            return Self.holds(name, in: folder, sameAs: body) ? .placed : .taken
        case .failure:
            // Another file system (EXDEV), or one without hard links.
            return write(body, as: name, in: folder, clone: false)
        }
    }

    /// A new file `name` in the folder with `body`'s bytes: cloned (`cannotClone` where the
    /// file system cannot, and nothing left behind), or copied by the kernel where it can.
    /// Flushed with the others by `flush` (Linux), else here.
    private func write(_ body: RawPath, as name: [UInt8], in folder: FileDescriptor, clone: Bool) -> Placement {
        switch Self.written(body, as: name, in: folder, clone: clone) {
        case .wrote:
            if clone { cloned += 1 } else { copied += 1 }
            unflushed = (true, true)
            return .placed
        case .there: return .placed
        case .taken: return .taken
        case .failed: return .failed
        case .cannotClone:
            canClone = false
            return .cannotClone
        }
    }

    /// What writing a file gave: written, found there already (this body's bytes), a name
    /// taken by another file, failed, or no clone on this file system.
    private enum Written { case wrote, there, taken, failed, cannotClone }

    /// `write`'s work, with nothing of the folder's own touched (several threads may write at
    /// once; the caller counts what was written).
    private static func written(_ body: RawPath, as name: [UInt8], in folder: FileDescriptor, clone: Bool) -> Written {
        // Non-blocking: a body swapped for a FIFO since it was looked up must not hang the run.
        guard case .success(let input) = Sys.open(body, O_RDONLY | O_NONBLOCK | O_CLOEXEC) else { return .failed }
        defer { Sys.close(input) }
        guard case .success(let st) = Sys.fstat(input), st.isRegular else { return .failed }
        let output: Int32
        switch Sys.openat(folder.raw, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode: 0o644) {
        case .success(let fd): output = fd
        case .failure(let error) where error.code == EEXIST:
            return holds(name, in: folder, sameAs: body) ? .there : .taken
        case .failure: return .failed
        }
        defer { Sys.close(output) }
        var outcome =
            clone ? Sys.cloneFile(input, to: output) : Sys.copyContents(from: input, to: output).map { _ in () }
        if case .success = outcome, !Sys.canSyncFileSystem { outcome = Sys.fsync(output) }
        switch outcome {
        case .success:
            return .wrote
        case .failure(let error):
            // Made here and not filled: removed while the name is still this file.
            if case .success(let identity) = Sys.fstat(output) {
                _ = Deleter.removeOwnFile(name, in: folder, identity: identity)
            }
            guard clone, [EOPNOTSUPP, EINVAL, ENOTTY, ENOSYS, EXDEV, EPERM].contains(error.code) else { return .failed }
            // Not on this file system, or not from the cache's (EXDEV): not tried again.
            return .cannotClone
        }
    }

    /// Makes what was placed since the last call durable, before a page pointing at it is
    /// committed: one `syncfs` of the folder's file system when copies were written here (their
    /// bytes and names), else an fsync of the folder (the new names), and of its parent when
    /// the folder was made here. Throws `StoreError.cannotWrite` naming the folder.
    public func flush() throws {
        guard let made, unflushed.names else { return }
        var outcome: Result<Void, Errno>
        if unflushed.bytes && Sys.canSyncFileSystem {
            outcome = Sys.syncFileSystem(made.fd.raw)
        } else {
            outcome = Sys.fsync(made.fd.raw)
            if case .success = outcome, made.new,
                case .success(let parent) = Sys.open(
                    made.path.parentDirectory, Sys.openDirectoryFlags)
            {
                outcome = Sys.fsync(parent)
                Sys.close(parent)
            }
        }
        if case .failure(let error) = outcome {
            throw StoreError.cannotWrite(made.path, "cannot flush the page's files to disk: \(error)")
        }
        unflushed = (false, false)
    }

    /// Writes `bytes` (a rewritten stylesheet) under a readable unique name from `url`, with
    /// the extension `ext`; a file of that name with the same bytes is reused.
    public func placeBytes(_ bytes: [UInt8], url: String, ext: String) -> RawPath? {
        guard let directory = madeFolder()?.path else { return nil }
        if let name = written[url] {
            // Written by this folder before (an earlier pass): replaced with the newer bytes.
            let target = directory.appending(name)
            return (try? FileIO.writeAtomically(target, bytes, mode: 0o644)) != nil ? target : nil
        }
        let stem = Self.readableName(for: url).stem
        for attempt in 1..<1000 {
            let name = Array((attempt == 1 ? stem : "\(stem)-\(attempt)").utf8) + Array(".\(ext)".utf8)
            guard !names.contains(Self.folded(name)) else { continue }
            let target = directory.appending(name)
            if case .success(let existing) = Sys.lstat(path: target) {
                guard existing.isRegular, (try? FileIO.readAll(target)) == bytes else { continue }
            } else {
                guard (try? FileIO.writeAtomically(target, bytes, mode: 0o644)) != nil else { return nil }
                copied += 1
            }
            names.insert(Self.folded(name))
            written[url] = name
            return target
        }
        return nil
    }

    /// The URL's last path segment, percent-decoded, with every character other than letters
    /// and digits (of any script: `画像` stays), `-` and `_` made `_` (bytes that are not UTF-8
    /// too), at most 80 bytes, never hidden; its extension (ASCII letters and digits, at most
    /// 8) kept apart.
    static func readableName(for url: String) -> (stem: String, ext: String?) {
        url.withBytes(plainReadableName) ?? readableNameParsed(for: url)
    }

    /// `readableName` for the common URL, without parsing it: an http(s) URL as the standard
    /// serializes it, whose last path segment is ASCII letters, digits, `-`, `_` and `.` only
    /// (nothing to decode, every byte a character); nil for any other. (Parsing each URL
    /// again, and splitting its path by Characters, was 1.5 µs of each of 18,000 files placed.)
    static func plainReadableName(_ url: UnsafeBufferPointer<UInt8>) -> (stem: String, ext: String?)? {
        guard StandardURL.isOwnHTTPSerialization(bytes: url),
            let colon = url.firstIndex(of: UInt8(ascii: ":")),
            let pathStart = url[(colon + 3)...].firstIndex(of: UInt8(ascii: "/"))
        else { return nil }
        let pathEnd = url[pathStart...].firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? url.count
        // The last segment that is not empty.
        var end = pathEnd
        while end > pathStart && url[end - 1] == UInt8(ascii: "/") { end -= 1 }
        var start = end
        while start > pathStart && url[start - 1] != UInt8(ascii: "/") { start -= 1 }
        let segment = url[start..<end]
        let plain: (UInt8) -> Bool = { isLetterOrDigit($0) || $0 == UInt8(ascii: "-") }
        guard segment.allSatisfy({ plain($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") }) else {
            return nil
        }
        var ext: String?
        var stem = segment
        if let dot = segment.lastIndex(of: UInt8(ascii: ".")), dot > segment.startIndex {
            let candidate = segment[(dot + 1)...]
            if !candidate.isEmpty, candidate.count <= 8, candidate.allSatisfy(isLetterOrDigit) {
                ext = String(decoding: candidate.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
                stem = segment[..<dot]
            }
        }
        let kept = stem.prefix(80).map { plain($0) ? $0 : UInt8(ascii: "_") }
        let name = String(decoding: kept, as: UTF8.self)
        return (kept.allSatisfy { $0 == UInt8(ascii: "_") } ? "file" + name : name, ext)
    }

    /// `readableName` for any URL: parsed, its last segment decoded.
    static func readableNameParsed(for url: String) -> (stem: String, ext: String?) {
        let parsed = StandardURL(url)
        let segment =
            parsed.flatMap { $0.hasOpaquePath ? nil : $0.path.split(separator: "/").last.map(String.init) } ?? ""
        let decoded = HostParser.percentDecode(Array(segment.utf8))
        var ext: String?
        var stemBytes = decoded[...]
        if let dot = decoded.lastIndex(of: UInt8(ascii: ".")), dot > 0 {
            let candidate = decoded[(dot + 1)...]
            if !candidate.isEmpty, candidate.count <= 8, candidate.allSatisfy({ isLetterOrDigit($0) }) {
                ext = String(decoding: candidate.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
                stemBytes = decoded[..<dot]
            }
        }
        var stem = readableStem(stemBytes)
        if stem.isEmpty || stem.allSatisfy({ $0 == "_" }) { stem = "file" + (stem.isEmpty ? "" : stem) }
        return (stem, ext ?? parsed.flatMap { $0.pathExtension })
    }

    /// `bytes` as a file name's stem: letters and digits of any script, `-`, and `_` for
    /// anything else (a byte that is not UTF-8 included); at most 80 bytes, whole characters.
    private static func readableStem(_ bytes: ArraySlice<UInt8>) -> String {
        var out = ""
        var count = 0
        func add(_ text: String) -> Bool {
            guard count + text.utf8.count <= 80 else { return false }
            out += text
            count += text.utf8.count
            return true
        }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                let keep =
                    scalar.isASCII
                    ? isLetterOrDigit(UInt8(scalar.value)) || scalar == "-"
                    : (scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                        || [.nonspacingMark, .spacingMark, .enclosingMark].contains(scalar.properties.generalCategory))
                        && !scalar.properties.isWhitespace
                guard add(keep ? String(scalar) : "_") else { break loop }
            case .error: guard add("_") else { break loop }
            case .emptyInput: break loop
            }
        }
        return out
    }

    private static func isLetterOrDigit(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c | 0x20 >= 0x61 && c | 0x20 <= 0x7A)
    }

    /// Whether `name` in `folder` is a regular file that is `body` itself or holds its bytes.
    private static func holds(_ name: [UInt8], in folder: FileDescriptor, sameAs body: RawPath) -> Bool {
        guard case .success(let existing) = Sys.lstat(at: folder.raw, name), existing.isRegular,
            case .success(let original) = Sys.stat(path: body)
        else { return false }
        if existing.device == original.device && existing.inode == original.inode { return true }
        guard existing.size == original.size,
            case .success(let fd) = Sys.openat(folder.raw, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        else { return false }
        defer { Sys.close(fd) }
        guard case .success(let x) = AnchoredDirectory.read(fd, upTo: Int.max), let y = try? FileIO.readAll(body)
        else { return false }
        return x == y
    }
}
