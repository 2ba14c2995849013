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

    /// Opens the file once below `anchor` and looks.
    static func of(_ file: FileTree.File, in anchor: AnchoredDirectory) -> FileKind {
        guard file.isRegular, file.apparentBytes > 0,
            case .success(let fd) = anchor.open(file.anchorRelative, O_RDONLY | O_NONBLOCK)
        else { return .other }
        return withExtendedLifetime(fd) {
            var head = [UInt8](repeating: 0, count: 16)
            guard case .success(let n) = head.withUnsafeMutableBytes({ Sys.pread(fd.raw, $0.baseAddress!, 16, at: 0) })
            else { return .other }
            head = Array(head[0..<n])
            if head == sqliteHeader && file.apparentBytes >= 512 { return .database }
            guard ImageSignature.kind(ofPrefix: head) != nil else { return .other }
            return .image(ImageSignature.verdict(fd.raw, size: file.apparentBytes))
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
        let names = companions.map { String(decoding: AnchoredDirectory.split($0.anchorRelative).name, as: UTF8.self) }
        var entry = CacheEntry(
            url: nil, path: main.path, relativePath: main.anchorRelative,
            allocatedBytes: main.allocatedBytes + companions.reduce(0) { $0 + $1.allocatedBytes },
            apparentBytes: main.apparentBytes + companions.reduce(0) { $0 + $1.apparentBytes },
            modified: ([main.modified] + companions.map(\.modified)).max(), state: .fresh,
            reason: "a SQLite database" + (names.isEmpty ? "" : " with \(names.joined(separator: ", "))")
                + ": its owner's data, one unit; removed only by clear with --format")
        entry.identity = main.identity
        entry.companions = companions.map {
            CacheEntry.Companion(relativePath: $0.anchorRelative, identity: $0.identity)
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
