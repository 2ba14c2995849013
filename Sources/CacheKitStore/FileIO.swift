#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Small, careful file operations the store is built from, on the system layer's calls.
public enum FileIO {
    /// `mkdir -p`, byte-exact (for a new store's directory and output folders the user names).
    public static func makeDirectories(_ path: RawPath, mode: mode_t = 0o755) throws {
        var prefix: [UInt8] = []
        for (index, byte) in path.bytes.enumerated() {
            if byte == UInt8(ascii: "/") && index > 0 {
                _ = Sys.mkdir(RawPath(bytes: prefix), mode: mode)
            }
            prefix.append(byte)
        }
        if case .failure(let error) = Sys.mkdir(path, mode: mode), error.code != EEXIST {
            throw StoreError.cannotWrite(path, error.description)
        }
        guard case .success(let st) = Sys.lstat(path: path), st.isDirectory else {
            throw StoreError.cannotWrite(path, "not a directory")
        }
    }

    /// Opens for reading, refusing symlinks.
    static func openForReading(_ path: RawPath) throws -> FileDescriptor {
        switch Sys.openWithoutAtime(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) {
        case .success(let fd): return FileDescriptor(adopting: fd)
        case .failure(let error): throw StoreError.cannotRead(path, error.description)
        }
    }

    /// Reads a whole file a user named (a page, a configuration file) as `cat` would: through
    /// a symlink, and from a pipe (`<(…)`) or device too. Files the store or a cache hold are
    /// read with `readAll`, which refuses symlinks.
    /// `limit`, when given, is the most it reads (see `readAll(_:path:limit:)`).
    public static func readNamed(_ path: RawPath, limit: Limit? = nil) throws -> [UInt8] {
        switch Sys.openWithoutAtime(path, O_RDONLY | O_CLOEXEC) {
        case .success(let raw):
            let fd = FileDescriptor(adopting: raw)
            return try withExtendedLifetime(fd) { try readAll(fd.raw, path: path, limit: limit) }
        case .failure(let error): throw StoreError.cannotRead(path, error.description)
        }
    }

    /// Reads a whole file, refusing a symlink.
    public static func readAll(_ path: RawPath, limit: Limit? = nil) throws -> [UInt8] {
        let fd = try openForReading(path)
        return try withExtendedLifetime(fd) { try readAll(fd.raw, path: path, limit: limit) }
    }

    /// The most a read of a whole input takes, and what the input is, for the message when it
    /// holds more (a page is parsed in memory: `/dev/zero` or an endless pipe must not take
    /// all of it).
    public struct Limit: Sendable {
        /// The most bytes read.
        public var bytes: Int
        /// What the input is, as in "larger than 1 GiB, the most <what> may be".
        public var what: String
        /// A limit of `bytes` on an input that is `what`.
        public init(bytes: Int, what: String) { (self.bytes, self.what) = (bytes, what) }
    }

    /// Reads a whole open file (`path` names it in messages); refuses one that holds more than
    /// `limit`, without reading it when its size says so, else once a byte more is read.
    static func readAll(_ fd: Int32, path: RawPath, limit: Limit? = nil) throws -> [UInt8] {
        // Sized from fstat up front (then read straight into it): a 100 MB page is not
        // copied through a buffer and regrown. A file that grows meanwhile is read on.
        let most = min(limit?.bytes ?? Int.max, Int.max - 1)
        func tooLarge() -> StoreError {
            .cannotRead(
                path,
                "larger than \(most % (1 << 30) == 0 ? "\(most >> 30) GiB" : "\(most) bytes"), the most "
                    + "\(limit?.what ?? "an input") may be")
        }
        let expected: Int
        if case .success(let st) = Sys.fstat(fd), st.isRegular {
            expected = Int(clamping: st.size)
        } else {
            expected = 0
        }
        if expected > most { throw tooLarge() }
        var failure: Errno?
        var asked = expected + 1
        var out = [UInt8](unsafeUninitializedCapacity: asked) { buffer, count in
            count = Sys.prefaulting(UnsafeMutableRawBufferPointer(buffer)) {
                readFully(fd, into: UnsafeMutableRawBufferPointer(buffer), failure: &failure)
            }
        }
        var full = out.count == asked
        while failure == nil && full {
            if out.count > most { throw tooLarge() }
            asked = min(max(out.count, 1 << 16), most + 1 - out.count)
            let more = [UInt8](unsafeUninitializedCapacity: asked) { buffer, count in
                count = readFully(fd, into: UnsafeMutableRawBufferPointer(buffer), failure: &failure)
            }
            full = more.count == asked
            out += more
        }
        if let failure { throw StoreError.cannotRead(path, failure.description) }
        if out.count > most { throw tooLarge() }
        return out
    }

    /// Reads until `buffer` is full or the end of the file; the byte count read.
    private static func readFully(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, failure: inout Errno?) -> Int
    {
        var filled = 0
        while filled < buffer.count {
            switch Sys.read(fd, buffer.baseAddress! + filled, buffer.count - filled) {
            case .success(0): return filled
            case .success(let n): filled += n
            case .failure(let error):
                failure = error
                return filled
            }
        }
        return filled
    }

    /// Writes the file at `source` to an output the user named, as `writeOutput` does, a block
    /// at a time: a body of gigabytes is copied, never held in memory.
    public static func copyToOutput(_ source: RawPath, _ path: RawPath, mode: mode_t? = nil) throws {
        let fd = try openForReading(source)
        try PrewrittenFile(userOutput: path).commit(keeping: 0, mode: mode) { sink in
            try stream(fd.raw, path: source, sink)
        }
    }

    /// What `body` makes of the regular file at `relative` below `anchor` (opened never through
    /// a symlink), given its size and a reader of its bytes at an offset (`read(_:at:count:)`),
    /// so that a format reads only the parts it needs; a failure when the file cannot be
    /// opened or read, or is not a regular file.
    static func withRegularFile<T>(
        _ relative: [UInt8], in anchor: AnchoredDirectory,
        _ body: (_ size: Int, _ read: (_ at: Int, _ count: Int) throws -> [UInt8]) throws -> T
    ) -> Result<T, Errno> {
        anchor.open(relative, O_RDONLY | O_NONBLOCK).flatMap { file in
            guard case .success(let st) = Sys.fstat(file.raw) else { return .failure(Errno.current) }
            guard st.isRegular else { return .failure(.invalid) }
            do {
                return .success(try body(Int(clamping: st.size)) { try read(file.raw, at: $0, count: $1) })
            } catch let error as Errno {
                return .failure(error)
            } catch {
                return .failure(.invalid)
            }
        }
    }

    /// Hands `body` the regular file at `relative` below `anchor` (opened never through a
    /// symlink) from its start to its end, 64 KiB at a time, never holding it whole (a checksum
    /// of a large cache file); a failure when it cannot be opened or read.
    static func forEachChunk(
        of relative: [UInt8], in anchor: AnchoredDirectory, _ body: ([UInt8]) -> Void
    ) -> Result<Void, Errno> {
        withRegularFile(relative, in: anchor) { _, read in
            var offset = 0
            while true {
                let chunk = try read(offset, 1 << 16)
                if chunk.isEmpty { return }
                body(chunk)
                offset += chunk.count
            }
        }
    }

    /// `count` bytes of the open file `fd` from `at` (fewer where it ends); the errno of a read
    /// that fails.
    static func read(_ fd: Int32, at: Int, count: Int) throws(Errno) -> [UInt8] {
        guard count > 0 else { return [] }
        var out = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let read = out.withUnsafeMutableBytes {
                Sys.pread(fd, $0.baseAddress! + filled, count - filled, at: Int64(at + filled))
            }
            switch read {
            case .success(0): return Array(out[..<filled])
            case .success(let n): filled += n
            case .failure(let error): throw error
            }
        }
        return out
    }

    /// Streams a file in chunks; returns the byte count.
    @discardableResult
    public static func stream(_ path: RawPath, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Int64 {
        let fd = try openForReading(path)
        return try stream(fd.raw, path: path, body)
    }

    /// Streams an open file in chunks from where it stands; returns the byte count.
    @discardableResult
    static func stream(_ fd: Int32, path: RawPath, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Int64 {
        var total: Int64 = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n: Int
            switch buffer.withUnsafeMutableBytes({ Sys.read(fd, $0.baseAddress!, $0.count) }) {
            case .success(let count): n = count
            case .failure(let error): throw StoreError.cannotRead(path, error.description)
            }
            if n == 0 { break }
            try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            total += Int64(n)
        }
        return total
    }

    /// SHA-256 of a file's content.
    static func sha256(of path: RawPath) throws -> String {
        var hasher = StreamingSHA256()
        try stream(path) { hasher.update($0) }
        return hasher.finalize()
    }

    /// SHA-256 of an open file's content.
    static func sha256(_ fd: Int32, path: RawPath) throws -> String {
        var hasher = StreamingSHA256()
        try stream(fd, path: path) { hasher.update($0) }
        return hasher.finalize()
    }

    /// Removes a body a fetch kept uncommitted (`FetchResult.unstoredBody`): through the
    /// deletion engine, anchored at its folder.
    public static func removeTemporary(_ path: RawPath) {
        guard case .success(let folder) = AnchoredDirectory.open(path.parentDirectory) else { return }
        _ = Deleter(folder).remove(path.lastComponent, expecting: nil)
    }

    /// Reads standard input to its end.
    public static func readStandardInput(limit: Limit? = nil) throws -> [UInt8] {
        try readAll(0, path: RawPath("-"), limit: limit)
    }

    /// Writes a whole file atomically: temporary file in the same directory, flushed, then
    /// renamed over `path` (with `mode` when given), so readers see the old file or the new
    /// one, never a part.
    public static func writeAtomically(_ path: RawPath, _ contents: [UInt8], mode: mode_t? = nil) throws {
        try writeAtomically(path, mode: mode) { sink in try contents.withUnsafeBytes { try sink($0) } }
    }

    /// Writes a whole file atomically from pieces `write` hands to its sink, in order.
    public static func writeAtomically(
        _ path: RawPath, mode: mode_t? = nil,
        _ write: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws {
        try PrewrittenFile(path).commit(keeping: 0, mode: mode, write)
    }

    /// Writes an output the user named (`-o`, `--in-place`): as `writeAtomically`, but through
    /// a symlink and into a device or FIFO (`PrewrittenFile(userOutput:)`).
    public static func writeOutput(_ path: RawPath, _ contents: [UInt8], mode: mode_t? = nil) throws {
        try PrewrittenFile(userOutput: path).commit(keeping: 0, mode: mode) { sink in
            try contents.withUnsafeBytes { try sink($0) }
        }
    }

    /// Writes `name` in an anchored directory atomically (the plist index, a tag).
    static func writeAtomically(in anchor: AnchoredDirectory, _ name: [UInt8], _ contents: [UInt8]) throws {
        try PrewrittenFile(in: anchor.descriptor, directoryPath: anchor.path, name).commit(keeping: 0) { sink in
            try contents.withUnsafeBytes { try sink($0) }
        }
    }
}

extension FileIO {
    /// The permission bits of a file, nil when it cannot be examined.
    public static func mode(of path: RawPath) -> mode_t? {
        guard case .success(let st) = Sys.lstat(path: path) else { return nil }
        return mode_t(st.mode & 0o7777)
    }

    /// Throws unless `path` is a directory.
    public static func requireDirectory(_ path: RawPath) throws {
        guard case .success(let st) = Sys.lstat(path: path), st.isDirectory else {
            throw StoreError.cannotWrite(path, "not a directory")
        }
    }
}
