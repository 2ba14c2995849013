#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a loose file in a cache is, judged from one read of its beginning: a SQLite database
/// (a unit with its `-wal`, `-shm` and `-journal`, never deleted apart from them), an image
/// (whole, cut short or malformed — see `ImageSignature`), or something else.
enum FileKind {
    case database
    case image(ImageSignature.Verdict)
    case other

    static let sqliteHeader: [UInt8] = Array("SQLite format 3\0".utf8)
    static let companionSuffixes: [[UInt8]] = ["-wal", "-shm", "-journal"].map { Array($0.utf8) }

    /// Each file's kind, looked at by up to four threads at once (one open and one read per
    /// file: on a large cache this was a third of a prune's system time, done one by one).
    static func of(_ files: [FileTree.File], in anchor: AnchoredDirectory) -> [FileKind] {
        let workers = min(4, files.count / 1024 + 1)
        if workers == 1 { return files.map { of($0, in: anchor) } }
        let chunk = 256
        let next = ChunkCounter()
        return [FileKind](unsafeUninitializedCapacity: files.count) { buffer, initialized in
            // nonisolated(unsafe): each index is initialized by exactly one thread (the
            // counter hands out disjoint chunks), and read only after the threads have joined.
            nonisolated(unsafe) let out = buffer
            runThreads(workers) { _ in
                while true {
                    let start = next.take(chunk)
                    guard start < files.count else { return }
                    for i in start..<min(start + chunk, files.count) {
                        (out.baseAddress! + i).initialize(to: of(files[i], in: anchor))
                    }
                }
            }
            initialized = files.count
        }
    }

    /// The kinds of a table's regular files (see `CacheEntries.Flags.regular`) that are not
    /// `other`, by position, in order; looked at by up to four threads as `of(_:in:)` does.
    static func of(_ table: CacheEntries, in anchor: AnchoredDirectory) -> [(position: Int, kind: FileKind)] {
        let workers = min(4, table.count / 1024 + 1)
        let chunk = 256
        let next = ChunkCounter()
        let found = Locked([(position: Int, kind: FileKind)]())
        runThreads(workers) { _ in
            var mine: [(position: Int, kind: FileKind)] = []
            while true {
                let start = next.take(chunk)
                guard start < table.count else { break }
                for position in start..<min(start + chunk, table.count)
                where table.isMarkedRegular(position) {
                    let kind = of(table.relativePath(position)!, size: table.apparentBytes(position), in: anchor)
                    if case .other = kind { continue }
                    mine.append((position, kind))
                }
            }
            found.withLock { $0 += mine }
        }
        return found.withLock { $0 }.sorted { $0.position < $1.position }
    }

    /// Opens the file once below `anchor` and looks.
    static func of(_ file: FileTree.File, in anchor: AnchoredDirectory) -> FileKind {
        guard file.isRegular else { return .other }
        return of(file.anchorRelative, size: file.apparentBytes, in: anchor)
    }

    /// Opens the regular file at `relative`, `size` bytes long, once and looks.
    static func of(_ relative: [UInt8], size: Int64, in anchor: AnchoredDirectory) -> FileKind {
        guard size > 0, case .success(let fd) = anchor.open(relative, O_RDONLY | O_NONBLOCK) else { return .other }
        return withExtendedLifetime(fd) {
            var head = [UInt8](repeating: 0, count: 16)
            guard case .success(let n) = head.withUnsafeMutableBytes({ Sys.pread(fd.raw, $0.baseAddress!, 16, at: 0) })
            else { return .other }
            head = Array(head[0..<n])
            if head == sqliteHeader && size >= 512 { return .database }
            guard ImageSignature.kind(ofPrefix: head) != nil else { return .other }
            return .image(ImageSignature.verdict(fd.raw, size: size))
        }
    }
}

/// SQLite databases among a listing's files, each made one entry with its companions.
enum DatabaseUnits {
    /// The files split into databases (with their companions, found by name in the same
    /// folder) and the rest. A companion whose database is not there stays a loose file.
    static func split(_ files: [FileTree.File], in anchor: AnchoredDirectory, kinds: [FileKind])
        -> (databases: [(main: FileTree.File, companions: [FileTree.File])], rest: [(FileTree.File, FileKind)])
    {
        var byPath: [[UInt8]: Int] = [:]
        for (i, file) in files.enumerated() { byPath[file.anchorRelative] = i }
        var taken = Set<Int>()
        var databases: [(FileTree.File, [FileTree.File])] = []
        for (i, file) in files.enumerated() {
            guard case .database = kinds[i] else { continue }
            var companions: [FileTree.File] = []
            for suffix in FileKind.companionSuffixes {
                if let j = byPath[file.anchorRelative + suffix], files[j].isRegular {
                    companions.append(files[j])
                    taken.insert(j)
                }
            }
            taken.insert(i)
            databases.append((file, companions))
        }
        let rest = files.indices.filter { !taken.contains($0) }.map { (files[$0], kinds[$0]) }
        return (databases, rest)
    }

    /// The entry for a database and its companions: kept by prune, removed only by an
    /// explicit `clear --format`.
    static func entry(_ main: FileTree.File, _ companions: [FileTree.File]) -> CacheEntry {
        func asEntry(_ file: FileTree.File) -> CacheEntry {
            var entry = CacheEntry(
                url: nil, path: file.path, relativePath: file.anchorRelative, allocatedBytes: file.allocatedBytes,
                apparentBytes: file.apparentBytes, modified: file.modified, state: .fresh, reason: "")
            entry.identity = file.identity
            return entry
        }
        return entry(asEntry(main), companions.map(asEntry))
    }

    /// The same, from the files' entries (each with its relative path and identity).
    static func entry(_ main: CacheEntry, _ companions: [CacheEntry]) -> CacheEntry {
        let names = companions.map { String(decoding: AnchoredDirectory.split($0.relativePath!).name, as: UTF8.self) }
        var entry = CacheEntry(
            url: nil, path: main.path, relativePath: main.relativePath,
            allocatedBytes: main.allocatedBytes + companions.reduce(0) { $0 + $1.allocatedBytes },
            apparentBytes: main.apparentBytes + companions.reduce(0) { $0 + $1.apparentBytes },
            modified: ([main.modified] + companions.map(\.modified)).compactMap { $0 }.max(), state: .fresh,
            reason: "a SQLite database" + (names.isEmpty ? "" : " with \(names.joined(separator: ", "))")
                + ": its owner's data, one unit; removed only by clear with --format")
        entry.identity = main.identity
        entry.companions = companions.map {
            CacheEntry.Companion(relativePath: $0.relativePath!, identity: $0.identity!)
        }
        entry.isDatabase = true
        entry.removedOnlyWhenNamed = true
        return entry
    }

    /// Whether another process holds a lock on the database at `relative` (SQLite's lock
    /// bytes in the database file, or any lock in its `-shm`): its pid (0 when unknown).
    static func lockHolder(_ relative: [UInt8], in anchor: AnchoredDirectory) -> Int32? {
        // SQLite's locks: PENDING_BYTE 0x40000000, then RESERVED and the 510 SHARED bytes.
        if case .success(let db) = anchor.open(relative, O_RDONLY | O_NONBLOCK),
            case .success(let holder?) = Sys.lockHolder(db.raw, start: 0x4000_0000, length: 512)
        {
            return holder
        }
        if case .success(let shm) = anchor.open(relative + Array("-shm".utf8), O_RDONLY | O_NONBLOCK),
            case .success(let holder?) = Sys.lockHolder(shm.raw, start: 0, length: 0)
        {
            return holder
        }
        return nil
    }
}
