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
        WorkerPool.map(files.count, workers: min(4, files.count / 1024 + 1), chunk: 256) { of(files[$0], in: anchor) }
    }

    /// The kinds of a table's regular files (see `CacheEntries.Flags.regular`) that are not
    /// `other`, by position, in order; looked at by up to four threads as `of(_:in:)` does.
    static func of(_ table: CacheEntries, in anchor: AnchoredDirectory) -> [(position: Int, kind: FileKind)] {
        let workers = min(4, table.count / 1024 + 1)
        let chunk = 256
        let next = WorkerPool.Chunks()
        let found = Locked([(position: Int, kind: FileKind)]())
        WorkerPool.run(workers) { _ in
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
