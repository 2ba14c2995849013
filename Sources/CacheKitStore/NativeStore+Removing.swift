import GRDB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Removing entries: a row goes only where it still names the body that was inspected, its
// body only after the row's deletion committed; a body no row names goes only inside a write
// transaction that checked so (a put renames its body into place inside one too).

extension NativeStore {
    /// Removes the entry for `url`: row and body (the body unlinked only once the row's
    /// deletion committed). False when there was none.
    @discardableResult
    public func remove(url: String) throws -> Bool {
        guard let key = URLKey(url) else { throw StoreError.notAURL(url) }
        return try removeRows([key.normalized]) == 1
    }

    /// Removes the rows with these keys and their bodies; returns how many rows went.
    @discardableResult
    public func removeRows(_ urls: [String]) throws -> Int {
        let bodies: [String] = try writeIndex(freeingSpace: true) { db in
            var bodies: [String] = []
            try db.inTransaction(.immediate) {
                for url in urls {
                    guard let record = try NativeRecord.fetchOne(db, key: url) else { continue }
                    try record.delete(db)
                    bodies.append(record.bodyPath)
                }
                return .commit
            }
            return bodies
        }
        // Bodies go only after the rows are gone for sure: a crash in between leaves
        // orphans (which prune removes), never a row whose body is missing. A body's name is
        // its row's alone, so no later row can name it.
        TestPoint.reach("remove.afterCommit")
        let deleter = Deleter(anchor)
        for body in bodies where Self.isSafeRelativePath(body) {
            if case .failed(let error, _) = deleter.remove(Array(body.utf8), expecting: nil) {
                throw StoreError.cannotWrite(root.appending(body), DeletionResult.explain(error))
            }
        }
        releaseAndKeepReserve()
        return bodies.count
    }

    /// Deletes, in one write transaction, the rows of these entries that still name the body
    /// they named when inspected; says, in order, which went. A row a writer replaced since
    /// (same URL, a new body) stays, and so does its body.
    func deleteRows(naming entries: [CacheEntry]) throws -> [Bool] {
        guard !entries.isEmpty else { return [] }
        return try writeIndex(freeingSpace: true) { db in
            var went: [Bool] = []
            went.reserveCapacity(entries.count)
            try db.inTransaction(.immediate) {
                went.removeAll(keepingCapacity: true)
                let statement = try db.makeStatement(sql: "DELETE FROM entries WHERE url = ? AND body_path = ?")
                for entry in entries {
                    guard let url = entry.indexKey, let body = entry.relativePath else {
                        went.append(false)
                        continue
                    }
                    try statement.execute(arguments: [url, String(decoding: body, as: UTF8.self)])
                    went.append(db.changesCount == 1)
                }
                return .commit
            }
            return went
        }
    }

    /// Deletes unindexed files (orphaned bodies, temporaries) inside one write transaction
    /// that first checks no row names them, by path or by file name: a put renames its body
    /// into place and commits its row inside a write transaction too, so the two never
    /// interleave.
    func removeUnindexed(_ entries: [CacheEntry], _ remove: ([CacheEntry]) -> [DeletionResult]) throws
        -> [DeletionResult]
    {
        guard !entries.isEmpty else { return [] }
        guard readOnlyReason == nil else {
            return entries.map { _ in .failed(.readOnlyFileSystem) }
        }
        return try writeIndex(freeingSpace: true) { db in
            var results: [DeletionResult] = []
            try db.inTransaction(.immediate) {
                // What the rows name now, read inside the transaction: by path, and by file name
                // (a body's name is its own: found under another folder, it was moved, and is
                // kept).
                var paths = Set<[UInt8]>()
                var names = Set<[UInt8]>()
                let cursor = try String.fetchCursor(db, sql: "SELECT body_path FROM entries")
                while let body = try cursor.next() {
                    let bytes = Array(body.utf8)
                    paths.insert(bytes)
                    names.insert(AnchoredDirectory.split(bytes).name)
                }
                var free: [CacheEntry] = []
                var freeAt: [Int] = []
                results = Array(repeating: .changed, count: entries.count)
                for (i, entry) in entries.enumerated() {
                    guard let body = entry.relativePath else {
                        results[i] = .failed(.invalid)
                        continue
                    }
                    if !paths.contains(body) && !names.contains(AnchoredDirectory.split(body).name) {
                        free.append(entry)
                        freeAt.append(i)
                    }
                }
                for (i, result) in zip(freeAt, remove(free)) { results[i] = result }
                return .commit
            }
            return results
        }
    }

    /// After deleting: keep the reserve again if the space is there.
    func releaseAndKeepReserve() { keepReserve() }
}
