#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SQLite databases among a listing's files, each made one entry with its companions.
package enum DatabaseUnits {
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
            allocatedBytes: main.allocatedBytes.saturatingPlus(
                companions.reduce(0) { $0.saturatingPlus($1.allocatedBytes) }),
            apparentBytes: main.apparentBytes.saturatingPlus(
                companions.reduce(0) { $0.saturatingPlus($1.apparentBytes) }),
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
    package static func lockHolder(_ relative: [UInt8], in anchor: AnchoredDirectory) -> Int32? {
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
