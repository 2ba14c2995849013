import GRDB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension NativeRecord {
    /// Reads a row by position (`databaseSelection`'s order): several times faster than
    /// decoding by name, which localize and prune feel on 100,000s of rows.
    /// A value of another type is read as SQLite would give it (`SQLiteCoercible`); only NULL
    /// where a value must be throws, which reads of the index report as a corrupt index.
    public init(row: Row) throws {
        url = try row.value(at: 0)
        bodyPath = try row.value(at: 1)
        allocatedBytes = try row.value(at: 2)
        apparentBytes = try row.value(at: 3)
        sha256 = try row.value(at: 4)
        contentType = row.optionalValue(at: 5)
        etag = row.optionalValue(at: 6)
        lastModified = row.optionalValue(at: 7)
        downloadStarted = try row.value(at: 8)
        downloadCompleted = row.optionalValue(at: 9)
        expires = row.optionalValue(at: 10)
        lifetimeSeconds = row.optionalValue(at: 11)
        sliding = try row.value(at: 12)
        lastAccess = try row.value(at: 13)
    }
}

/// cachectl's own cache store: a tagged directory with an SQLite index (WAL mode), bodies
/// under `objects/`, each in a file of its own, and `tmp/` for bodies being written.
///
/// ```swift
/// let store = try NativeStore.open(RawPath("/home/me/.cache/cachectl"), create: true)
/// try store.put(url: "https://example.com/a.png", bytes: data, options: PutOptions(lifetime: 7 * 86400))
/// if let hit = try store.lookup(url: "https://example.com/a.png") { print(hit.bodyPath) }
/// ```
///
/// Consistency under concurrent writers, prunes and kills (see README, *Crash safety*):
/// - a body is written to `tmp/`, flushed, then renamed — inside the index's write
///   transaction — to a name no other body ever had, and the row that names exactly that
///   body is committed; only then is the body the old row named removed. Killed at any
///   point, the old entry or the new one is readable, never neither;
/// - rows are deleted only where they still name the body that was inspected, and a body
///   no row names is deleted only inside a write transaction that checked so; a put that
///   races a prune never ends as a row without its body;
/// - with the disk full, reads still work (SQLite then keeps its shared-memory index in the
///   process) and deletions first give back `.reserve`, a small file kept for that purpose;
/// - a read-only store is listed and read; a write says "read-only".
///
/// Everything in the store is reached through its root's descriptor (`anchor`).
public final class NativeStore: @unchecked Sendable {
    // @unchecked Sendable: its `var`s are set while it is opened, before it is shared; the index is reached only
    // through GRDB's `DatabaseQueue`, which serializes every access.
    /// The index's file name.
    public static let indexName = "index.sqlite"
    /// The writers' lock file's name.
    public static let lockName = ".lock"
    /// Bytes kept allocated so that a full disk can still be freed (see `releaseReserve`).
    public static let reserveName = ".reserve"
    static let reserveBytes = 128 * 1024
    static let applicationID: Int32 = 0x4343_544C  // "CCTL"
    /// 1: the first index. 2: keys are URL Standard serializations (`URLKey`); opening a
    /// version 1 index that can be written re-keys its rows (`migrateKeys`).
    static let schemaVersion: Int32 = 2

    /// The store's root, as given.
    public let root: RawPath
    /// The root, opened once: every file of the store is reached through it.
    public let anchor: AnchoredDirectory
    let database: DatabaseQueue
    /// Why writing is refused (read-only file system, permissions); nil when it is not.
    public let readOnlyReason: String?
    /// The connection keeps SQLite's shared-memory index in the process (the disk could not
    /// hold the `-shm` file): other processes wait while this store is open.
    let exclusiveLocking: Bool
    /// Whether the index has the `status` and `vary` columns (schema 2; a version-1 index
    /// that could not be migrated, being read-only, has not).
    private(set) var hasResponseColumns = false
    /// Whether the index has the `validators_url` column (added after schema 2's first
    /// releases; an index that could not be written since has not).
    private(set) var hasValidatorsColumn = false

    var indexPath: RawPath { root.appending(Self.indexName) }
    static let indexBytes = Array(indexName.utf8)

    /// A private copy of the index, removed with the store (see `openSnapshot`).
    private var snapshotDirectory: RawPath?

    private init(anchor: AnchoredDirectory, database: DatabaseQueue, readOnlyReason: String?, exclusiveLocking: Bool) {
        self.root = anchor.path
        self.anchor = anchor
        self.database = database
        self.readOnlyReason = readOnlyReason
        self.exclusiveLocking = exclusiveLocking
    }

    deinit {
        if let snapshotDirectory, case .success(let temp) = AnchoredDirectory.open(snapshotDirectory) {
            Deleter.removeTemporaryDirectory(temp)
        }
    }

    // MARK: Opening

    /// Opens the store at `root`. With `create`, makes the directory, its `CACHEDIR.TAG`
    /// and an empty index as needed; without, a missing store is an error. A file that is
    /// not a cachectl index is never modified, and a store is made only in a new or empty
    /// directory.
    public static func open(_ root: RawPath, create: Bool) throws -> NativeStore {
        if create && !root.exists { try FileIO.makeDirectories(root) }
        let anchor: AnchoredDirectory
        switch AnchoredDirectory.open(root) {
        case .success(let opened): anchor = opened
        case .failure(let error):
            let index = root.appending(indexName)
            throw StoreError.cannotRead(
                error.code == ENOENT ? index : root,
                error.code == ENOENT ? "No such file or directory (no cache store here)" : error.description)
        }
        return try open(anchor, create: create)
    }

    /// Opens the store anchored at `anchor` (see `open(_:create:)`).
    public static func open(_ anchor: AnchoredDirectory, create: Bool) throws -> NativeStore {
        let index = anchor.path.appending(indexName)
        let existing: StatInfo? = try? anchor.status(of: indexBytes).get()
        let ours = existing != nil && isStore(anchor)
        if !ours {
            guard create else {
                if existing == nil {
                    throw StoreError.cannotRead(index, "No such file or directory (no cache store here)")
                }
                return try connect(anchor, allowCreate: false)
            }
            // A new store only where nothing but a store's own names is: an index.sqlite left
            // among a user's files (empty or another program's) does not make a store.
            try refuseForeignContents(anchor)
            if let refusal = anchor.writeRefusal {
                throw StoreError.readOnly(anchor.path, StoreError.explainWrite(refusal))
            }
        }
        let store = try connect(anchor, allowCreate: create && !ours)
        if create {
            if let reason = store.readOnlyReason { throw StoreError.readOnly(anchor.path, reason) }
            for sub in ["objects", "tmp"] {
                if case .failure(let error) = anchor.makeDirectories(Array(sub.utf8)) {
                    throw StoreError.cannotWrite(anchor.path.appending(sub), StoreError.explainWrite(error))
                }
            }
            // Tag only a directory whose index is ours (never a foreign one we refused).
            do { try CacheDirTag.write(in: anchor) } catch let error as StoreError { throw error }
            store.keepReserve()
        }
        return store
    }

    /// How a connection to the index is made.
    private enum Connection {
        /// SQLite's default: WAL with a shared-memory `-shm` file beside the index.
        case shared
        /// `locking_mode=EXCLUSIVE` before the first access: the WAL index lives in this
        /// process's memory, so a full disk (no room for `-shm`) can still be read and freed.
        case exclusive
        /// Read-only and `immutable=1`: a store on a read-only mount, where SQLite can create
        /// neither `-wal` nor `-shm`.
        case immutable
    }

    /// Connects to the index, by the first way that works: shared, exclusive (a full disk),
    /// immutable (a read-only store); then checks (or, with `allowCreate`, makes) the schema.
    private static func connect(_ anchor: AnchoredDirectory, allowCreate: Bool) throws -> NativeStore {
        let refusal = anchor.writeRefusal
        var failure: Error?
        for way in [Connection.shared, .exclusive, .immutable] {
            if way == .immutable && refusal == nil && failure.map(isSpaceOrOpenFailure) != true { break }
            let database: DatabaseQueue
            do { database = try makeQueue(anchor, way) } catch {
                failure = error
                continue
            }
            let readOnly =
                way == .immutable
                ? "the index can only be read here" + (refusal.map { " (\(StoreError.explainWrite($0)))" } ?? "")
                : refusal.map(StoreError.explainWrite)
            let store = NativeStore(
                anchor: anchor, database: database, readOnlyReason: readOnly, exclusiveLocking: way == .exclusive)
            do {
                try store.prepareSchema(allowCreate: allowCreate)
                return store
            } catch let error as StoreError {
                // A foreign or newer index is an answer, not a failure of this way of opening.
                if case .notACacheIndex = error { throw error }
                failure = error
            } catch {
                failure = error
            }
        }
        if let failure = failure as? StoreError { throw failure }
        throw StoreError.corruptIndex(anchor.path.appending(indexName), failure.map(describe) ?? "cannot open")
    }

    /// Whether an error looks like SQLite failing to make or grow its files (a full disk, a
    /// read-only mount) rather than a damaged index.
    private static func isSpaceOrOpenFailure(_ error: Error) -> Bool {
        let code: ResultCode
        if let db = error as? DatabaseError {
            code = db.resultCode
        } else if case StoreError.corruptIndex(_, let text) = error {
            return text.contains("disk") || text.contains("unable to open") || text.contains("readonly")
                || text.contains("full")
        } else {
            return false
        }
        return [.SQLITE_IOERR, .SQLITE_CANTOPEN, .SQLITE_FULL, .SQLITE_READONLY].contains(code)
    }

    private static func makeQueue(_ anchor: AnchoredDirectory, _ way: Connection) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        configuration.label = "cachectl.index"
        let path = anchor.systemPath(of: indexBytes)
        let location: String
        switch way {
        case .shared:
            location = path.description
            // SQLite's default page cache (2 MiB) is smaller than the index of a store with
            // tens of thousands of entries; batch lookups then re-read the same pages.
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA cache_size = -32768") }
        case .exclusive:
            location = path.description
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE")
                try db.execute(sql: "PRAGMA cache_size = -32768")
            }
        case .immutable:
            configuration.readonly = true
            location = "file:" + uriEscaped(path) + "?mode=ro&immutable=1"
        }
        return try DatabaseQueue(path: location, configuration: configuration)
    }

    /// A path for a `file:` URI: bytes other than unreserved ones and `/` percent-encoded.
    static func uriEscaped(_ path: RawPath) -> String {
        var out = ""
        for byte in path.bytes {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(2)
            }
        }
        return out
    }

    /// Opens a read-only view of the store from a private copy of its index (and write-ahead
    /// log), read without updating access times: nothing in the store changes, not even a
    /// journal file or a timestamp (for dry runs). The copy goes where `TMPDIR` says (`/tmp`).
    public static func openSnapshot(_ anchor: AnchoredDirectory) throws -> NativeStore {
        let index = anchor.path.appending(indexName)
        guard anchor.exists(indexBytes) else {
            throw StoreError.cannotRead(index, "No such file or directory (no cache store here)")
        }
        let directory = try PrivateCopy.ofDatabase(indexBytes, in: anchor)
        var cleanup = true
        defer {
            if cleanup, case .success(let copies) = AnchoredDirectory.open(directory) {
                Deleter.removeTemporaryDirectory(copies)
            }
        }
        var configuration = Configuration()
        configuration.label = "cachectl.index.snapshot"
        let database: DatabaseQueue
        do {
            database = try DatabaseQueue(path: directory.appending(indexName).description, configuration: configuration)
        } catch {
            throw StoreError.corruptIndex(index, describe(error))
        }
        let store = NativeStore(
            anchor: anchor, database: database, readOnlyReason: "a dry run changes nothing", exclusiveLocking: false)
        store.snapshotDirectory = directory
        cleanup = false
        do {
            let appID = try database.read { try Int32.fetchOne($0, sql: "PRAGMA application_id") } ?? 0
            if appID != applicationID { throw StoreError.notACacheIndex(index, "a foreign SQLite database") }
        } catch let error as StoreError { throw error } catch { throw StoreError.corruptIndex(index, describe(error)) }
        return store
    }

    // MARK: Recognising a store

    /// True when the anchored directory holds a cachectl index (checked without changing
    /// anything: the header is read with O_NOATIME).
    public static func isStore(_ anchor: AnchoredDirectory) -> Bool {
        guard case .success(let st) = anchor.status(of: indexBytes), st.isRegular else { return false }
        guard case .success(let bytes) = anchor.readPrefix(indexBytes, count: 100), bytes.count == 100,
            bytes.starts(with: Array("SQLite format 3\0".utf8))
        else { return false }
        // The application id sits big-endian at offset 68 of the header.
        let id = bytes[68..<72].reduce(Int32(0)) { ($0 << 8) | Int32($1) }
        if id == applicationID { return true }
        // A header change may still sit in the write-ahead log: ask SQLite, read-only.
        guard anchor.exists(Array((indexName + "-wal").utf8)), !anchor.mustPreserveAccessTimes else { return false }
        var configuration = Configuration()
        configuration.readonly = true
        guard
            let queue = try? DatabaseQueue(
                path: anchor.systemPath(of: indexBytes).description, configuration: configuration)
        else { return false }
        return (try? queue.read { try Int32.fetchOne($0, sql: "PRAGMA application_id") }) == applicationID
    }

    /// True when cachectl made the anchored directory (its `CACHEDIR.TAG` is the one cachectl
    /// writes) and an index file is there, readable or not. Such a directory is a store even
    /// when its index is damaged: opening it then reports the damage, where treating it as a
    /// plain folder would let `prune` delete the index and the bodies as loose files.
    static func isTaggedStore(_ anchor: AnchoredDirectory) -> Bool {
        guard anchor.exists(indexBytes) else { return false }
        let tag = Array(CacheDirTag.contents.utf8)
        let tagName = Array(CacheDirTag.fileName.utf8)
        guard case .success(let st) = anchor.status(of: tagName), st.isRegular, st.size == tag.count else {
            return false
        }
        guard case .success(let bytes) = anchor.readPrefix(tagName, count: tag.count) else { return false }
        return bytes == tag
    }

    /// Names a new store may find in its directory: its own, left by an interrupted creation.
    private static let ownNames: Set<[UInt8]> = Set(
        [
            CacheDirTag.fileName, lockName, reserveName, "objects", "tmp", indexName,
            indexName + "-wal", indexName + "-shm", indexName + "-journal"
        ].map { Array($0.utf8) })

    /// A store is made only in a new or empty directory: made in a folder of other files (a
    /// mistyped `--cache ~`), its `CACHEDIR.TAG` would make backup tools skip that folder.
    private static func refuseForeignContents(_ anchor: AnchoredDirectory) throws {
        let names = FileTree.names(in: anchor)
        guard let other = names.first(where: { !ownNames.contains($0) }) else { return }
        throw StoreError.cannotWrite(
            anchor.path,
            "not a cachectl store and not empty (it holds \(RawPath(bytes: other).quoted)); "
                + "a store is made only in a new or empty directory")
    }

    // MARK: Schema

    private func prepareSchema(allowCreate: Bool) throws {
        let (appID, version, tables): (Int32, Int32, Int) = try readIndex { db in
            (
                try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0,
                try Int32.fetchOne(db, sql: "PRAGMA user_version") ?? 0,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
            )
        }
        if appID == Self.applicationID {
            if version > Self.schemaVersion {
                throw StoreError.notACacheIndex(
                    indexPath,
                    "schema version \(version) is newer than this cachectl understands (\(Self.schemaVersion))")
            }
            try upgrade(from: version)
            return
        }
        guard appID == 0 && tables == 0 && allowCreate else {
            throw StoreError.notACacheIndex(
                indexPath, appID == 0 && tables == 0 ? "empty database" : "a foreign SQLite database")
        }
        try createSchema()
    }

    /// An index of this store's own written by an earlier version brought up to date where it
    /// can be written: version-1 keys re-keyed, the pins table and the response columns added.
    private func upgrade(from version: Int32) throws {
        // A store that cannot be written now keeps its version-1 keys and is re-keyed
        // by the first open that can write.
        if version < 2 && readOnlyReason == nil { try? migrateKeys() }
        hasResponseColumns = try readIndex { db in try Self.responseColumnsExist(db) }
        // Pins came with schema 2 after its first commits: made when missing (checked by
        // a read first, so an ordinary open never writes).
        if readOnlyReason == nil, (try? readIndex({ db in try db.tableExists("pins") })) == false {
            try? writeIndex { db in
                try db.execute(
                    sql:
                        """
                        CREATE TABLE IF NOT EXISTS pins (page TEXT NOT NULL, url TEXT NOT NULL, PRIMARY KEY \
                        (page, url))
                        """
                )
            }
        }
        if !hasResponseColumns && version >= 2 && readOnlyReason == nil {
            // A schema-2 index made before the status and Vary columns existed.
            try? writeIndex { db in
                try db.inTransaction(.immediate) {
                    if !(try Self.responseColumnsExist(db)) {
                        try db.execute(sql: "ALTER TABLE entries ADD COLUMN status INTEGER NOT NULL DEFAULT 200")
                        try db.execute(sql: "ALTER TABLE entries ADD COLUMN vary TEXT")
                    }
                    return .commit
                }
            }
            hasResponseColumns = try readIndex { db in try Self.responseColumnsExist(db) }
        }
        hasValidatorsColumn = try readIndex { db in try Self.validatorsColumnExists(db) }
        if !hasValidatorsColumn && hasResponseColumns && readOnlyReason == nil {
            try? writeIndex { db in
                try db.inTransaction(.immediate) {
                    if !(try Self.validatorsColumnExists(db)) {
                        try db.execute(sql: "ALTER TABLE entries ADD COLUMN validators_url TEXT")
                    }
                    return .commit
                }
            }
            hasValidatorsColumn = try readIndex { db in try Self.validatorsColumnExists(db) }
        }
    }

    /// A new, empty index: the schema of this version, in WAL mode unless locking exclusively.
    private func createSchema() throws {
        if !exclusiveLocking {
            try writeIndex { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
        }
        try writeIndex { db in
            try db.inTransaction {
                try db.execute(
                    sql: """
                        CREATE TABLE entries (
                            url TEXT PRIMARY KEY NOT NULL,
                            body_path TEXT NOT NULL,
                            allocated_bytes INTEGER NOT NULL,
                            apparent_bytes INTEGER NOT NULL,
                            sha256 TEXT NOT NULL,
                            content_type TEXT,
                            etag TEXT,
                            last_modified TEXT,
                            download_started REAL NOT NULL,
                            download_completed REAL,
                            expires REAL,
                            lifetime_seconds REAL,
                            sliding INTEGER NOT NULL DEFAULT 0,
                            last_access REAL NOT NULL,
                            status INTEGER NOT NULL DEFAULT 200,
                            vary TEXT,
                            validators_url TEXT
                        );
                        CREATE INDEX entries_last_access ON entries(last_access);
                        CREATE TABLE pins (page TEXT NOT NULL, url TEXT NOT NULL, PRIMARY KEY (page, url));
                        PRAGMA user_version = \(Self.schemaVersion);
                        PRAGMA application_id = \(Self.applicationID);
                        """)
                return .commit
            }
        }
        hasResponseColumns = true
        hasValidatorsColumn = true
        // Move the new header (application id) from the WAL into the main file now, so
        // detection by header works while this connection stays open.
        try writeIndex { db in _ = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    /// Version 1 → 2: every key becomes its URL Standard serialization, in one write
    /// transaction (re-checked inside it, so two processes opening at once migrate once).
    /// A row whose key changes keeps its body (`body_path` is unchanged). Rows whose keys
    /// become the same keep the one completed last; a row whose key the standard refuses
    /// (`http://256.256.256.256/`) can be named by no request and goes. The bodies of the
    /// rows that go become orphans, which `prune` removes after the grace period.
    func migrateKeys() throws {
        try writeIndex { db in
            try db.inTransaction(.immediate) {
                guard (try Int32.fetchOne(db, sql: "PRAGMA user_version") ?? 0) < 2 else { return .commit }
                if !(try Self.responseColumnsExist(db)) {
                    try db.execute(sql: "ALTER TABLE entries ADD COLUMN status INTEGER NOT NULL DEFAULT 200")
                    try db.execute(sql: "ALTER TABLE entries ADD COLUMN vary TEXT")
                }
                let rows = try Row.fetchAll(db, sql: "SELECT url, download_completed FROM entries")
                var groups: [String: [(url: String, completed: Double)]] = [:]
                for row in rows {
                    let url: String = try row.value(at: 0)
                    guard let key = URLKey(url)?.normalized else {
                        try db.execute(sql: "DELETE FROM entries WHERE url = ?", arguments: [url])
                        continue
                    }
                    groups[key, default: []].append((url, (row.optionalValue(at: 1, as: Double.self)) ?? -1))
                }
                var moves: [(from: String, to: String)] = []
                for (key, members) in groups {
                    let keeper = members.max { $0.completed < $1.completed }!
                    for other in members where other.url != keeper.url {
                        try db.execute(sql: "DELETE FROM entries WHERE url = ?", arguments: [other.url])
                    }
                    if keeper.url != key { moves.append((keeper.url, key)) }
                }
                // Through temporary keys, so a key that is still another row's old key is
                // never taken twice.
                for (i, move) in moves.enumerated() {
                    try db.execute(
                        sql: "UPDATE entries SET url = ? WHERE url = ?", arguments: ["\u{1}migrating \(i)", move.from])
                }
                for (i, move) in moves.enumerated() {
                    try db.execute(
                        sql: "UPDATE entries SET url = ? WHERE url = ?", arguments: [move.to, "\u{1}migrating \(i)"])
                }
                try db.execute(sql: "PRAGMA user_version = 2")
                return .commit
            }
        }
    }

    // MARK: Pins

    /// The keys of the entries whose bodies are these files (paths relative to the root, as
    /// the index names them): what a page that already points into the store (localized
    /// before) shows. One pass over the index: a page may show tens of thousands.
    public func keys(ofBodies bodies: Set<String>) throws -> [String] {
        guard !bodies.isEmpty else { return [] }
        return try readIndex { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT url, body_path FROM entries")
            var keys: [String] = []
            while let row = try rows.next() {
                if bodies.contains(row[1] as String) { keys.append(row[0]) }
            }
            return keys
        }
    }

    /// Replaces what `change.page` pins by `change.keys`, in one transaction.
    public func apply(_ change: PinChange) throws {
        try writeIndex { db in
            try db.inTransaction(.immediate) {
                try db.execute(sql: "DELETE FROM pins WHERE page = ?", arguments: [change.page])
                // One prepared statement for every row (a page may pin tens of thousands).
                let insert = try db.makeStatement(sql: "INSERT OR IGNORE INTO pins (page, url) VALUES (?, ?)")
                for key in change.keys { try insert.execute(arguments: [change.page, key]) }
                return .commit
            }
        }
    }

    /// Releases what `page` pinned; returns how many entries it pinned.
    @discardableResult
    public func unpin(page: String) throws -> Int {
        try writeIndex { db in
            try db.execute(sql: "DELETE FROM pins WHERE page = ?", arguments: [page])
            return db.changesCount
        }
    }

    /// Key → the pages pinning it, for pages still on disk (a page deleted since pins
    /// nothing; `releaseDeletedPages` forgets it).
    func livePins() throws -> [String: [String]] {
        let rows: [(String, String)] = try readIndex { db in
            guard try db.tableExists("pins") else { return [] }
            // A row with a NULL names no page or no entry: it pins nothing.
            return try Row.fetchAll(db, sql: "SELECT page, url FROM pins").compactMap { row in
                guard let page = try? row.value(at: 0, as: String.self),
                    let url = try? row.value(at: 1, as: String.self)
                else { return nil }
                return (page, url)
            }
        }
        var exists: [String: Bool] = [:]
        var out: [String: [String]] = [:]
        for (page, url) in rows {
            let live =
                exists[page]
                ?? {
                    let e = RawPath(page).exists
                    exists[page] = e
                    return e
                }()
            if live { out[url, default: []].append(page) }
        }
        return out
    }

    /// Forgets the pins of pages no longer on disk; returns how many pages.
    @discardableResult
    public func releaseDeletedPages() throws -> Int {
        let pages: [String] = try readIndex { db in
            guard try db.tableExists("pins") else { return [] }
            return try String.fetchAll(db, sql: "SELECT DISTINCT page FROM pins")
        }
        let gone = pages.filter { !RawPath($0).exists }
        for page in gone { try unpin(page: page) }
        return gone.count
    }

    static func responseColumnsExist(_ db: Database) throws -> Bool {
        try Row.fetchAll(db, sql: "PRAGMA table_info(entries)").contains { ($0["name"] as String?) == "status" }
    }

    static func validatorsColumnExists(_ db: Database) throws -> Bool {
        try Row.fetchAll(db, sql: "PRAGMA table_info(entries)").contains {
            ($0["name"] as String?) == "validators_url"
        }
    }

    // MARK: Reading

    /// The stored response's status and `Vary` lines for `url` (200 and nil in an index
    /// without those columns); nil when there is no completed entry.
    public func response(url: String) throws -> (status: Int, vary: String?)? {
        guard let key = URLKey(url) else { throw StoreError.notAURL(url) }
        guard hasResponseColumns else { return try lookup(url: url) == nil ? nil : (200, nil) }
        return try readIndex { db in
            try Row.fetchOne(
                db, sql: "SELECT status, vary FROM entries WHERE url = ? AND download_completed IS NOT NULL",
                arguments: [key.normalized]
            ).map { row in ((row.optionalValue(at: 0, as: Int.self)) ?? 200, row.optionalValue(at: 1)) }
        }
    }

    /// A looked-up entry and where its body is.
    public struct Hit: Sendable {
        /// The index row.
        public var record: NativeRecord
        /// Where the body is.
        public var bodyPath: RawPath
        /// Whether it had not expired when looked up.
        public var isFresh: Bool
    }

    /// The complete entry for `url`, fresh or not; nil when absent or never completed.
    /// Does not touch the entry (see `recordHit`).
    public func lookup(url: String, now: FileTime = .now) throws -> Hit? {
        guard let key = URLKey(url) else { throw StoreError.notAURL(url) }
        guard let record = try readIndex({ db in try NativeRecord.fetchOne(db, key: key.normalized) }),
            record.downloadCompleted != nil, Self.isSafeRelativePath(record.bodyPath)
        else { return nil }
        return Hit(record: record, bodyPath: root.appending(record.bodyPath), isFresh: record.isFresh(at: now))
    }

    /// A complete entry with its stored response's status and `Vary` lines.
    public struct StoredEntry: Sendable {
        /// The entry and its body.
        public var hit: Hit
        /// The stored response's status (200 in an index without the column).
        public var status: Int
        /// The stored response's `Vary` request headers, one `name: value` per line; nil without `Vary`.
        public var vary: String?
        /// The URL the stored response, and so its validators, came from when a redirect led
        /// there from the key's URL; nil when it is the key's own.
        public var validatorsURL: String?
    }

    /// `lookup` and `response` for many keys (`URLKey.normalized`) in one read transaction
    /// with one prepared statement; keys without a complete entry are absent.
    public func storedEntries(_ keys: [String], now: FileTime = .now) throws -> [String: StoredEntry] {
        let columns =
            NativeRecord.columnList + (hasResponseColumns ? ", status, vary" : ", 200, NULL")
            + (hasValidatorsColumn ? ", validators_url" : ", NULL")
        return try readIndex { db in
            let statement = try db.cachedStatement(sql: "SELECT \(columns) FROM entries WHERE url = ?")
            var found: [String: StoredEntry] = [:]
            for key in keys where found[key] == nil {
                guard let row = try Row.fetchOne(statement, arguments: [key]) else { continue }
                let record = try NativeRecord(row: row)
                guard record.downloadCompleted != nil, Self.isSafeRelativePath(record.bodyPath) else { continue }
                found[key] = StoredEntry(
                    hit: Hit(
                        record: record, bodyPath: root.appending(record.bodyPath), isFresh: record.isFresh(at: now)),
                    status: (row.optionalValue(at: 14)) ?? 200, vary: row.optionalValue(at: 15),
                    validatorsURL: row.optionalValue(at: 16))
            }
            return found
        }
    }

    /// Every row of the index.
    public func records() throws -> [NativeRecord] {
        try readIndex { db in try NativeRecord.order(Column("url")).fetchAll(db) }
    }

    /// Opens a row's body for reading, below the root (never through a symlink or mount).
    func openBody(_ record: NativeRecord) -> Result<FileDescriptor, Errno> {
        anchor.open(Array(record.bodyPath.utf8), O_RDONLY | O_NONBLOCK)
    }

    // MARK: Helpers

    /// A body path must be relative, stay below the root and have no `.`/`..` parts.
    static func isSafeRelativePath(_ path: String) -> Bool {
        path.withBytes { isSafeRelativePath(bytes: $0) }
    }

    /// `isSafeRelativePath` on the path's bytes.
    static func isSafeRelativePath(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        AnchoredDirectory.isValidRelative(bytes: bytes)
    }

    static func age(_ time: FileTime, _ context: InspectionContext) -> String {
        span(context.now.timeInterval - time.timeInterval)
    }

    static func span(_ seconds: Double) -> String {
        let s = seconds.isFinite ? max(0, min(seconds, 9e15)) : 0
        if s < 120 { return "\(Int(s))s" }
        if s < 7200 { return "\(Int(s / 60))m" }
        if s < 172_800 { return "\(Int(s / 3600))h" }
        return "\(Int(s / 86_400))d"
    }

    func readIndex<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try database.read(body) } catch let error as StoreError { throw error } catch {
            throw StoreError.corruptIndex(indexPath, Self.describe(error))
        }
    }

    /// Runs a write; a read-only store refuses it. With `freeingSpace` (deletions only: the
    /// reserve is for freeing space, never for adding entries), a full disk (SQLITE_FULL)
    /// gives back the reserve and tries once more.
    func writeIndex<T>(freeingSpace: Bool = false, _ body: (Database) throws -> T) throws -> T {
        if let readOnlyReason { throw StoreError.readOnly(root, readOnlyReason) }
        do { return try database.writeWithoutTransaction(body) } catch let error as StoreError { throw error } catch {
            if freeingSpace, let db = error as? DatabaseError, db.resultCode == .SQLITE_FULL, releaseReserve() {
                do { return try database.writeWithoutTransaction(body) } catch let error as StoreError {
                    throw error
                } catch {
                    throw StoreError.cannotWrite(indexPath, Self.describe(error))
                }
            }
            if let db = error as? DatabaseError, db.resultCode == .SQLITE_READONLY {
                throw StoreError.readOnly(root, Self.describe(error))
            }
            if let db = error as? DatabaseError, db.resultCode == .SQLITE_FULL {
                throw StoreError.cannotWrite(indexPath, Self.describe(error))
            }
            throw StoreError.corruptIndex(indexPath, Self.describe(error))
        }
    }

    static func describe(_ error: Error) -> String {
        if let db = error as? DatabaseError { return db.message ?? "\(db.resultCode)" }
        return "\(error)"
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
