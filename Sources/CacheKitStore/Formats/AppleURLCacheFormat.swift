import Foundation
import GRDB

/// Apple's URLCache (CFNetwork; what URLSession's default configuration — and so most apps —
/// writes): `Cache.db` (SQLite, WAL) with `cfurl_cache_response` (entry_ID, request_key = the
/// URL, time_stamp UTC text), `cfurl_cache_blob_data` (response_object: a binary plist
/// `{Version, Array}` whose `Array[3]` is the status and `Array[4]` the response headers) and
/// `cfurl_cache_receiver_data` (isDataOnFS; receiver_data: the body inline, or the name of a
/// file in `fsCachedData/`). Facts: shared/reference/cache-layouts.md §1 (mac_apt
/// plugins/cfurl_cache.py:99-111 for the response layout; mvt ios/modules/fs/cache_files.py
/// for the schema).
///
/// An entry is one entry_ID across the three tables plus its `fsCachedData` file: the rows go
/// in one write transaction, refused while another process holds the database (the app is
/// running), then the file. Its state comes from the stored response's headers by RFC 9111
/// (Cache-Control, Expires, Date, Last-Modified; a response without explicit or heuristic
/// freshness is stale). `Cache.db` and its `-wal`/`-shm` are bookkeeping: never entries.
package struct AppleURLCacheFormat: CacheFormat {
    package static let databaseName = "Cache.db"
    static let dataFolder = "fsCachedData"
    package let anchor: AnchoredDirectory
    package var kind: CacheFormatKind { .urlcache }
    private var database: SQLiteFile { SQLiteFile(anchor, Self.databaseName) }

    /// Whether the anchored directory holds a `Cache.db` that is a SQLite file.
    static func recognises(_ anchor: AnchoredDirectory) -> Bool {
        guard case .success(let head) = anchor.readPrefix(Array(databaseName.utf8), count: 16) else { return false }
        return head == FileKind.sqliteHeader
    }

    /// One row of the three tables.
    private struct Stored {
        var id: Int64
        var url: String
        var storedAt: Double?
        var response: PlistValue?
        var onFileSystem: Bool
        /// The fsCachedData name, or the inline body's length.
        var fileName: [UInt8]?
        var inlineLength: Int64
    }

    private func rows(_ where: String = "", _ arguments: StatementArguments = []) throws -> [Stored] {
        let connection = try database.reader()
        return try connection.read(database.path) { db in
            let cursor = try Row.fetchCursor(
                db,
                sql: """
                    SELECT r.entry_ID, r.request_key, r.time_stamp, b.response_object, d.isDataOnFS, d.receiver_data
                    FROM cfurl_cache_response r
                    LEFT JOIN cfurl_cache_blob_data b ON b.entry_ID = r.entry_ID
                    LEFT JOIN cfurl_cache_receiver_data d ON d.entry_ID = r.entry_ID
                    \(`where`) ORDER BY r.entry_ID
                    """, arguments: arguments)
            var out: [Stored] = []
            while let row = try cursor.next() {
                let bytes = row.bytes(at: 5)
                // Each column read without GRDB's subscripts, which stop the process on a value
                // that does not convert (an app's Cache.db can hold anything SQLite accepts).
                guard let id = row.optionalValue(at: 0, as: Int64.self) else { continue }
                let onFS = row.optionalValue(at: 4, as: Int64.self) ?? 0 != 0
                let response = row.bytes(at: 3)
                out.append(
                    Stored(
                        id: id, url: row.optionalValue(at: 1, as: String.self) ?? "",
                        storedAt: row.optionalValue(at: 2, as: String.self).flatMap(Self.timestamp),
                        response: response.flatMap(BinaryPlist.parse), onFileSystem: onFS,
                        fileName: onFS ? bytes : nil, inlineLength: onFS ? 0 : Int64(bytes?.count ?? 0)))
            }
            return out
        }
    }

    package func entries(_ context: InspectionContext) throws -> [CacheEntry] {
        var referenced = Set<[UInt8]>()
        var result = try rows().map { entry(for: $0, context, referenced: &referenced) }
        let folder = Array(Self.dataFolder.utf8)
        for file in FileTree.files(in: anchor, under: folder) where !referenced.contains(file.anchorRelative) {
            let old = context.isOlderThanGrace(file.lastWritten)
            var entry = CacheEntry(
                url: nil, path: file.path, relativePath: file.anchorRelative, allocatedBytes: file.allocatedBytes,
                apparentBytes: file.apparentBytes, modified: file.modified, state: old ? .orphan : .fresh,
                reason: old ? "no row of Cache.db names this file" : "unnamed file within the grace period")
            entry.inGracePeriod = !old
            entry.identity = file.identity
            result.append(entry)
        }
        return result
    }

    private func entry(for row: Stored, _ context: InspectionContext, referenced: inout Set<[UInt8]>) -> CacheEntry {
        let headers = Self.headers(row.response)
        var entry = CacheEntry(
            url: row.url, path: anchor.path.appending(Self.databaseName), allocatedBytes: row.inlineLength,
            apparentBytes: row.inlineLength, modified: row.storedAt.map(FileTime.init(timeInterval:)),
            state: .fresh, reason: "", indexKey: String(row.id))
        if row.onFileSystem {
            guard let name = row.fileName, !name.isEmpty, !name.contains(UInt8(ascii: "/")),
                AnchoredDirectory.isValidRelative(name)
            else {
                (entry.state, entry.reason) = (.corrupted, "receiver_data names no file")
                return entry
            }
            let relative = Array(Self.dataFolder.utf8) + [UInt8(ascii: "/")] + name
            referenced.insert(relative)
            entry.path = anchor.path(of: relative)
            entry.relativePath = relative
            guard case .success(let st) = anchor.status(of: relative), st.isRegular else {
                (entry.state, entry.reason) = (.corrupted, "body missing from fsCachedData/")
                return entry
            }
            entry.allocatedBytes = st.allocatedBytes
            entry.apparentBytes = st.apparentBytes
            entry.identity = FileIdentity(st)
        } else {
            entry.inlineBody = true
        }
        guard row.response != nil else {
            (entry.state, entry.reason) = (.corrupted, "response_object is not a readable property list")
            return entry
        }
        let stored = row.storedAt ?? context.now.timeInterval
        let (fresh, lifetime, why) = Self.freshness(headers, storedAt: stored, now: context.now.timeInterval)
        entry.expires = lifetime.map { FileTime(timeInterval: stored + $0) }
        (entry.state, entry.reason) = (fresh ? .fresh : .expired, why)
        return entry
    }

    /// Freshness of a stored response by RFC 9111 (§4.2): lifetime from `max-age`, else
    /// `Expires − Date`, else 10 % of `Date − Last-Modified`; no lifetime at all (or
    /// `no-cache`, `no-store`) is stale. Age: the apparent age (`Date` before the stored time)
    /// plus the time since it was stored, plus `Age`.
    static func freshness(_ headers: [String: String], storedAt: Double, now: Double) -> (Bool, Double?, String) {
        let directives = CacheControl(headers["cache-control"] ?? "")
        if directives.has("no-store") || directives.has("no-cache") {
            return (false, 0, "the response says \(directives.has("no-store") ? "no-store" : "no-cache")")
        }
        let date = headers["date"].flatMap(HTTPDate.parse) ?? storedAt
        let lifetime: Double?
        let source: String
        if let maxAge = directives.seconds("max-age") {
            (lifetime, source) = (maxAge, "max-age=\(Int(min(maxAge, 9e15)))")
        } else if let expires = headers["expires"] {
            (lifetime, source) = (max(0, (HTTPDate.parse(expires) ?? 0) - date), "Expires")
        } else if let modified = headers["last-modified"].flatMap(HTTPDate.parse), modified < date {
            (lifetime, source) = ((date - modified) * 0.1, "10 % of its age at Last-Modified")
        } else {
            return (false, nil, "no explicit or heuristic freshness: revalidated before use")
        }
        let ageHeader = headers["age"].flatMap { Double($0.trimmingCharacters(in: .whitespaces)) } ?? 0
        let age = max(0, storedAt - date, ageHeader) + max(0, now - storedAt)
        let span = NativeStore.span(abs(lifetime! - age))
        return lifetime! > age
            ? (true, lifetime, "fresh by \(source) for another \(span)")
            : (false, lifetime, "stale by \(source) since \(span)")
    }

    /// The response headers (`Array[4]`), names lower-cased.
    static func headers(_ response: PlistValue?) -> [String: String] {
        guard let fields = response?["Array"]?[4]?.dictionary else { return [:] }
        var out: [String: String] = [:]
        for (name, value) in fields { if let text = value.string { out[name.lowercased()] = text } }
        return out
    }

    /// `YYYY-MM-DD HH:MM:SS` (UTC) as seconds since the epoch.
    static func timestamp(_ text: String) -> Double? {
        let parts = text.split(whereSeparator: { $0 == "-" || $0 == " " || $0 == ":" || $0 == "T" }).compactMap {
            Int($0)
        }
        guard parts.count >= 6 else { return nil }
        let (y, m, d) = (parts[0], parts[1], parts[2])
        guard (1...12).contains(m), (1...31).contains(d), (0...9999).contains(y), (0...23).contains(parts[3]),
            (0...59).contains(parts[4]), (0...60).contains(parts[5])
        else { return nil }
        let days = CivilDate.daysSinceEpoch(year: y, month: m, day: d)
        return Double(days * 86_400 + parts[3] * 3600 + parts[4] * 60 + parts[5])
    }

    package func locate(url: String, _ context: InspectionContext) throws -> CacheEntry? {
        guard URLKey(url) != nil else { throw StoreError.notAURL(url) }
        var referenced = Set<[UInt8]>()
        // The key is the URL as the app requested it: as written, then normalized.
        for key in [url, URLKey(url)!.normalized] {
            if let row = try rows("WHERE r.request_key = ?", [key]).last {
                return entry(for: row, context, referenced: &referenced)
            }
        }
        return nil
    }

    /// The body held inside `Cache.db` for an entry whose body is inline.
    package func inlineBody(_ entry: CacheEntry) throws -> [UInt8]? {
        guard entry.inlineBody, let id = entry.indexKey.flatMap(Int64.init) else { return nil }
        let connection = try database.reader()
        return try connection.read(database.path) { db in
            (try Data.fetchOne(
                db, sql: "SELECT receiver_data FROM cfurl_cache_receiver_data WHERE entry_ID = ?", arguments: [id]))
                .map(Array.init)
        }
    }

    /// The rows of these entries, all three tables, in one write transaction — only where the
    /// response row still holds the URL that was inspected; refused while the app holds the
    /// database.
    package func forgetIndexed(_ entries: [CacheEntry]) throws -> [Bool] {
        guard !entries.isEmpty else { return [] }
        return try database.write { db in
            try entries.map { entry -> Bool in
                guard let id = entry.indexKey.flatMap(Int64.init), let url = entry.url else { return false }
                try db.execute(
                    sql: "DELETE FROM cfurl_cache_response WHERE entry_ID = ? AND request_key = ?", arguments: [id, url]
                )
                guard db.changesCount == 1 else { return false }
                try db.execute(sql: "DELETE FROM cfurl_cache_blob_data WHERE entry_ID = ?", arguments: [id])
                try db.execute(sql: "DELETE FROM cfurl_cache_receiver_data WHERE entry_ID = ?", arguments: [id])
                return true
            }
        }
    }

    /// Files of `fsCachedData/` no row names, deleted inside a write transaction that checked
    /// so (the app, were it to start, could not name one meanwhile).
    package func removeUnindexed(_ entries: [CacheEntry], _ remove: ([CacheEntry]) -> [DeletionResult]) throws
        -> [DeletionResult]
    {
        guard !entries.isEmpty else { return [] }
        return try database.write { db in
            var named = Set<[UInt8]>()
            let cursor = try Row.fetchCursor(
                db, sql: "SELECT receiver_data FROM cfurl_cache_receiver_data WHERE isDataOnFS != 0")
            while let row = try cursor.next() {
                if let name = row.bytes(at: 0) { named.insert(name) }
            }
            var free: [CacheEntry] = []
            var freeAt: [Int] = []
            var results = [DeletionResult](repeating: .changed, count: entries.count)
            for (i, entry) in entries.enumerated() {
                guard let relative = entry.relativePath else { continue }
                if !named.contains(AnchoredDirectory.split(relative).name) {
                    free.append(entry)
                    freeAt.append(i)
                }
            }
            for (i, result) in zip(freeAt, remove(free)) { results[i] = result }
            return results
        }
    }

    package var keptDirectories: Set<[UInt8]> { [Array(Self.dataFolder.utf8)] }
}
