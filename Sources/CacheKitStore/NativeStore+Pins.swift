import GRDB
import GRDBSQLite

// Which entries a saved page pins. Working the change out is on localize's last step (it runs
// while the page is written, and a page may pin tens of thousands of entries): the URLs are
// made distinct by their bytes, and the page's pins are read on SQLite's C API and compared
// as bytes, without a String for each (Set<String> and a GRDB cursor took 12 ms on the bench's
// synthetic page, longer than the write they run beside).

extension NativeStore {
    /// Records that the saved page at `page` (an absolute path) points at the bodies of
    /// `urls`, replacing what was recorded for it; `prune` keeps those entries while the
    /// page exists.
    public func pin(page: String, urls: [String]) throws {
        if let change = try pinChange(page: page, urls: urls) { try apply(change) }
    }

    /// What pinning `urls` (resolved URLs: a `#fragment` is dropped, and a URL that is not a
    /// key, `data:` or `file:`, pins nothing) for `page` would write; nil when the page
    /// already pins exactly those entries (localizing the same page again). Reads only: a
    /// caller can work this out while the page is still being written, and apply it once the
    /// page is there.
    public func pinChange(page: String, urls: [String]) throws -> PinChange? {
        var keys = PinKeys(capacity: urls.count)
        for url in urls { keys.insert(url) }
        return try pinChange(page: page, keys: keys)
    }

    /// `pinChange(page:urls:)` for keys made distinct already.
    package func pinChange(page: String, keys: PinKeys) throws -> PinChange? {
        // The same set when every pin of the page is one of `keys` and there are as many
        // ((page, url) is the table's primary key: no row twice).
        let same = try readIndex { db -> Bool in
            guard let connection = db.sqliteConnection else {
                throw StoreError.corruptIndex(indexPath, "connection closed")
            }
            var statement: OpaquePointer?
            guard
                sqlite3_prepare_v2(connection, "SELECT url FROM pins WHERE page = ?", -1, &statement, nil) == SQLITE_OK,
                let statement
            else {
                throw StoreError.corruptIndex(indexPath, String(cString: sqlite3_errmsg(connection)))
            }
            defer { sqlite3_finalize(statement) }
            var page = page
            return try page.withUTF8 { pageBytes in
                // SQLITE_STATIC (nil): the page's bytes outlive the steps below.
                sqlite3_bind_text(
                    statement, 1, UnsafeRawPointer(pageBytes.baseAddress!).assumingMemoryBound(to: CChar.self),
                    Int32(pageBytes.count), nil)
                var count = 0
                while true {
                    switch sqlite3_step(statement) {
                    case SQLITE_ROW:
                        guard let text = sqlite3_column_text(statement, 0),
                            keys.contains(
                                UnsafeRawBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, 0))))
                        else { return false }
                        count += 1
                    case SQLITE_DONE:
                        return count == keys.count
                    default:
                        throw StoreError.corruptIndex(indexPath, String(cString: sqlite3_errmsg(connection)))
                    }
                }
            }
        }
        return same ? nil : PinChange(page: page, keys: keys.sorted())
    }

    /// The pins a page is to have (`pinChange`), applied by `apply`.
    public struct PinChange: Sendable {
        /// The saved page, an absolute path.
        public let page: String
        /// The keys of the entries it points at, sorted.
        public let keys: [String]
    }
}
