import GRDB
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One row of the native index.
public struct NativeRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    public static let databaseTableName = "entries"

    /// The normalized URL (the key).
    public var url: String
    /// Body path relative to the store root (`objects/ab/<sha256>[.ext]`).
    public var bodyPath: String
    public var allocatedBytes: Int64
    public var apparentBytes: Int64
    /// SHA-256 of the body, lower-case hex.
    public var sha256: String
    public var contentType: String?
    public var etag: String?
    public var lastModified: String?
    /// Seconds since the epoch.
    public var downloadStarted: Double
    /// Nil while the download has not completed.
    public var downloadCompleted: Double?
    /// Nil when it never expires.
    public var expires: Double?
    public var lifetimeSeconds: Double?
    /// Whether each hit moves the expiry to now + lifetime.
    public var sliding: Bool
    public var lastAccess: Double

    enum CodingKeys: String, CodingKey {
        case url, bodyPath = "body_path", allocatedBytes = "allocated_bytes", apparentBytes = "apparent_bytes"
        case sha256, contentType = "content_type", etag, lastModified = "last_modified"
        case downloadStarted = "download_started", downloadCompleted = "download_completed"
        case expires, lifetimeSeconds = "lifetime_seconds", sliding, lastAccess = "last_access"
    }

    /// The columns in the order `init(row:)` reads them (GRDB selects these for this type).
    public static var databaseSelection: [any SQLSelectable] {
        [Column("url"), Column("body_path"), Column("allocated_bytes"), Column("apparent_bytes"), Column("sha256"),
         Column("content_type"), Column("etag"), Column("last_modified"), Column("download_started"),
         Column("download_completed"), Column("expires"), Column("lifetime_seconds"), Column("sliding"), Column("last_access")]
    }
    static let selectSQL = "SELECT url, body_path, allocated_bytes, apparent_bytes, sha256, content_type, etag, last_modified, "
        + "download_started, download_completed, expires, lifetime_seconds, sliding, last_access FROM entries"

    public func isFresh(at now: FileTime) -> Bool {
        downloadCompleted != nil && (expires.map { now.timeInterval < $0 } ?? true)
    }
}

extension NativeRecord {
    /// Reads a row by position (`databaseSelection`'s order): several times faster than
    /// decoding by name, which localize and prune feel on 100,000s of rows.
    public init(row: Row) throws {
        url = row[0]
        bodyPath = row[1]
        allocatedBytes = row[2]
        apparentBytes = row[3]
        sha256 = row[4]
        contentType = row[5]
        etag = row[6]
        lastModified = row[7]
        downloadStarted = row[8]
        downloadCompleted = row[9]
        expires = row[10]
        lifetimeSeconds = row[11]
        sliding = row[12]
        lastAccess = row[13]
    }
}

/// Metadata to store with a body.
public struct PutOptions: Sendable {
    /// Lifetime in seconds; nil means it never expires.
    public var lifetime: Double?
    /// Move the expiry to now + lifetime on each hit. Default false.
    public var sliding = false
    public var contentType: String?
    public var etag: String?
    public var lastModified: String?
    /// When the download began (defaults to the start of `put`).
    public var downloadStarted: FileTime?

    public init(lifetime: Double? = nil, sliding: Bool = false, contentType: String? = nil) {
        self.lifetime = lifetime
        self.sliding = sliding
        self.contentType = contentType
    }
}

/// cachectl's own cache store: a tagged directory with an SQLite index (WAL mode), bodies
/// named by the SHA-256 of the normalized URL under `objects/`, and `tmp/` for bodies being
/// written.
///
/// ```swift
/// let store = try NativeStore.open(RawPath("/home/me/.cache/cachectl"), create: true)
/// try store.put(url: "https://example.com/a.png", bytes: data, options: PutOptions(lifetime: 7 * 86400))
/// if let hit = try store.lookup(url: "https://example.com/a.png") { print(hit.bodyPath) }
/// ```
///
/// Writing is crash-safe: body to `tmp/`, flushed, renamed into place, then the row is
/// committed. Several processes may use one store at once; SQLite's locking orders the
/// index, and an advisory lock (`.lock`) keeps whole-store operations apart from writers.
public final class NativeStore: @unchecked Sendable {
    public static let indexName = "index.sqlite"
    public static let lockName = ".lock"
    static let applicationID: Int32 = 0x4343_544C // "CCTL"
    static let schemaVersion: Int32 = 1

    public let root: RawPath
    let database: DatabaseQueue

    var indexPath: RawPath { root.appending(Self.indexName) }
    var tmpDirectory: RawPath { root.appending("tmp") }
    var lockPath: RawPath { root.appending(Self.lockName) }

    /// A private copy of the index, removed with the store (see `openSnapshot`).
    private var snapshotDirectory: RawPath?

    private init(root: RawPath, database: DatabaseQueue) {
        self.root = root
        self.database = database
    }

    deinit {
        if let snapshotDirectory { try? FileTree.removeContents(of: snapshotDirectory); _ = snapshotDirectory.withCString { rmdir($0) } }
    }

    /// Opens a read-only view of the store at `root` from a private copy of its index (and
    /// write-ahead log), read without updating access times: nothing in the store changes,
    /// not even a journal file or a timestamp.
    public static func openSnapshot(_ root: RawPath) throws -> NativeStore {
        let index = root.appending(indexName)
        guard index.exists else { throw StoreError.cannotRead(index, "No such file or directory (no cache store here)") }
        var template = Array("/tmp/cachectl-snapshot-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw StoreError.cannotWrite(RawPath("/tmp"), Errno(errno).description)
        }
        let directory = RawPath(bytes: template.dropLast().map { UInt8(bitPattern: $0) })
        let copy = directory.appending(indexName)
        try FileIO.writeAtomically(copy, try FileIO.readAll(index))
        let wal = root.appending(indexName + "-wal")
        if wal.exists { try FileIO.writeAtomically(directory.appending(indexName + "-wal"), try FileIO.readAll(wal)) }
        var configuration = Configuration()
        configuration.label = "cachectl.index.snapshot"
        let database: DatabaseQueue
        do { database = try DatabaseQueue(path: copy.description, configuration: configuration) } catch {
            throw StoreError.corruptIndex(index, describe(error))
        }
        let store = NativeStore(root: root, database: database)
        store.snapshotDirectory = directory
        do {
            let appID = try database.read { try Int32.fetchOne($0, sql: "PRAGMA application_id") } ?? 0
            if appID != applicationID { throw StoreError.notACacheIndex(index, "a foreign SQLite database") }
        } catch let error as StoreError { throw error } catch { throw StoreError.corruptIndex(index, describe(error)) }
        return store
    }

    /// True when `root` holds a cachectl index (checked without changing anything).
    public static func isStore(_ root: RawPath) -> Bool {
        let index = root.appending(indexName)
        guard case .success(let st) = Sys.lstat(path: index), st.isRegular else { return false }
        guard let bytes = try? FileIO.readPrefix(index, count: 100), bytes.count == 100,
              bytes.starts(with: Array("SQLite format 3\0".utf8)) else { return false }
        // The application id sits big-endian at offset 68 of the header.
        let id = bytes[68..<72].reduce(Int32(0)) { ($0 << 8) | Int32($1) }
        if id == applicationID { return true }
        // A header change may still sit in the write-ahead log: ask SQLite, read-only.
        guard root.appending(indexName + "-wal").exists else { return false }
        var configuration = Configuration()
        configuration.readonly = true
        guard let queue = try? DatabaseQueue(path: index.description, configuration: configuration) else { return false }
        return (try? queue.read { try Int32.fetchOne($0, sql: "PRAGMA application_id") }) == applicationID
    }

    /// True when cachectl made `root` (its `CACHEDIR.TAG` is the one cachectl writes) and an
    /// index file is there, readable or not. Such a directory is a store even when its index
    /// is damaged: opening it then reports the damage, where treating it as a plain folder
    /// would let `prune` delete the index and the bodies as loose files.
    static func isTaggedStore(_ root: RawPath) -> Bool {
        guard case .success = Sys.lstat(path: root.appending(indexName)) else { return false }
        let tag = Array(CacheDirTag.contents.utf8)
        let tagPath = root.appending(CacheDirTag.fileName)
        guard case .success(let st) = Sys.lstat(path: tagPath), st.isRegular, st.size == tag.count else { return false }
        guard let bytes = try? FileIO.readPrefix(tagPath, count: tag.count) else { return false }
        return bytes == tag
    }

    /// Opens the store at `root`. With `create`, makes the directory, its `CACHEDIR.TAG`
    /// and an empty index as needed; without, a missing store is an error. A file that is
    /// not a cachectl index is never modified.
    public static func open(_ root: RawPath, create: Bool) throws -> NativeStore {
        let index = root.appending(indexName)
        let exists = index.exists
        if !exists {
            guard create else { throw StoreError.cannotRead(index, "No such file or directory (no cache store here)") }
            try refuseForeignContents(root)
            try FileIO.makeDirectories(root)
            try FileIO.makeDirectories(root.appending("objects"))
            try FileIO.makeDirectories(root.appending("tmp"))
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        configuration.label = "cachectl.index"
        // SQLite's default page cache (2 MiB) is smaller than the index of a store with tens of
        // thousands of entries; batch lookups then re-read the same pages from the file.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA cache_size = -32768") }
        let database: DatabaseQueue
        do {
            database = try DatabaseQueue(path: index.description, configuration: configuration)
        } catch {
            throw StoreError.corruptIndex(index, describe(error))
        }
        let store = NativeStore(root: root, database: database)
        try store.prepareSchema(allowCreate: !exists || create)
        // Tag only a directory whose index is ours (never a foreign one we refused).
        if create && !CacheDirTag.isTagged(root) {
            try FileIO.writeAtomically(root.appending(CacheDirTag.fileName), Array(CacheDirTag.contents.utf8))
        }
        return store
    }

    /// Names a new store may find in its directory: its own, left by an interrupted creation.
    private static let ownNames: Set<[UInt8]> = Set([CacheDirTag.fileName, lockName, "objects", "tmp",
                                                      indexName + "-wal", indexName + "-shm", indexName + "-journal"].map { Array($0.utf8) })

    /// A store is made only in a new or empty directory: made in a folder of other files (a
    /// mistyped `--cache ~`), its `CACHEDIR.TAG` would make backup tools skip that folder.
    private static func refuseForeignContents(_ root: RawPath) throws {
        let names = FileTree.files(under: root, recursive: false).map(\.relative) + FileTree.subdirectories(of: root).map(\.lastComponent)
        guard let other = names.first(where: { !ownNames.contains($0) }) else { return }
        throw StoreError.cannotWrite(root, "not a cachectl store and not empty (it holds \(RawPath(bytes: other).quoted)); "
                                     + "a store is made only in a new or empty directory")
    }

    private func prepareSchema(allowCreate: Bool) throws {
        let (appID, version, tables): (Int32, Int32, Int) = try readIndex { db in
            (try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0,
             try Int32.fetchOne(db, sql: "PRAGMA user_version") ?? 0,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0)
        }
        if appID == Self.applicationID {
            if version > Self.schemaVersion {
                throw StoreError.notACacheIndex(indexPath, "schema version \(version) is newer than this cachectl understands (\(Self.schemaVersion))")
            }
            return
        }
        guard appID == 0 && tables == 0 && allowCreate else {
            throw StoreError.notACacheIndex(indexPath, appID == 0 && tables == 0 ? "empty database" : "a foreign SQLite database")
        }
        try writeIndex { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
        }
        try writeIndex { db in
            try db.inTransaction {
                try db.execute(sql: """
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
                        last_access REAL NOT NULL
                    );
                    CREATE INDEX entries_last_access ON entries(last_access);
                    PRAGMA user_version = \(Self.schemaVersion);
                    PRAGMA application_id = \(Self.applicationID);
                    """)
                return .commit
            }
        }
        // Move the new header (application id) from the WAL into the main file now, so
        // detection by header works while this connection stays open.
        try writeIndex { db in _ = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    // MARK: Writing

    /// Stores the content of a local file for `url`.
    @discardableResult
    public func put(url: String, file: RawPath, options: PutOptions = PutOptions()) throws -> NativeRecord {
        guard case .success(let st) = Sys.lstat(path: file) else {
            throw StoreError.cannotRead(file, Errno(errno == 0 ? ENOENT : errno).description)
        }
        if st.isDirectory { throw StoreError.cannotRead(file, "Is a directory") }
        return try put(url: url, options: options) { sink in
            try FileIO.stream(file) { try sink($0) }
        }
    }

    /// Stores `bytes` for `url`.
    @discardableResult
    public func put(url: String, bytes: [UInt8], options: PutOptions = PutOptions()) throws -> NativeRecord {
        try put(url: url, options: options) { sink in try bytes.withUnsafeBytes { try sink($0) } }
    }

    /// Stores what `produce` writes for `url`: body to `tmp/`, flushed, renamed into place,
    /// then the row committed.
    @discardableResult
    public func put(url: String, options: PutOptions, produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws -> NativeRecord {
        let body = try beginBody(url: url, started: options.downloadStarted)
        do {
            try produce { try body.append($0) }
        } catch {
            body.discard()
            throw error
        }
        return try body.commit(options)
    }

    /// Starts a body for `url` in `tmp/`, to be fed chunk by chunk (a download) and then
    /// committed or discarded. Until the commit nothing about `url` changes: readers keep
    /// seeing the previous entry, and a crash leaves only the temporary file, which prune
    /// removes as a never-completed download.
    public func beginBody(url: String, started: FileTime? = nil) throws -> PendingBody {
        guard let key = URLKey(url) else { throw StoreError.notAURL(url) }
        let lock = try FileLock(lockPath, exclusive: false)
        try FileIO.makeDirectories(tmpDirectory)
        return PendingBody(store: self, key: key, temp: try TempFile(in: tmpDirectory), lock: lock, started: started ?? .now)
    }

    /// A body being written for a URL (see `beginBody`).
    public final class PendingBody: @unchecked Sendable {
        let store: NativeStore
        let key: URLKey
        let temp: TempFile
        private var lock: FileLock?
        let started: FileTime

        init(store: NativeStore, key: URLKey, temp: TempFile, lock: FileLock, started: FileTime) {
            (self.store, self.key, self.temp, self.lock, self.started) = (store, key, temp, lock, started)
        }

        /// Bytes written so far.
        public var length: Int64 { temp.length }

        public func append(_ chunk: UnsafeRawBufferPointer) throws { try temp.write(chunk) }

        /// Removes the temporary file; the store is as before.
        public func discard() {
            temp.discard()
            lock = nil
        }

        /// Closes the body and leaves it in `tmp/` without an entry (a response the server
        /// said not to store, kept for one use); returns its path. The caller removes it.
        public func keepUncommitted() -> RawPath? {
            defer { lock = nil }
            do { _ = try temp.finish() } catch { temp.discard(); return nil }
            return temp.path
        }

        /// Flushes the body, renames it into place and commits the row; returns the row.
        @discardableResult
        public func commit(_ options: PutOptions) throws -> NativeRecord {
            defer { lock = nil }
            let sha256: String
            do { sha256 = try temp.finish() } catch { temp.discard(); throw error }
            CrashPoint.reach("put.afterTempWrite")
            return try store.install(temp, sha256: sha256, key: key, started: started, options: options)
        }
    }

    /// Renames a finished temporary body into place and commits its row.
    private func install(_ temp: TempFile, sha256: String, key: URLKey, started: FileTime, options: PutOptions) throws -> NativeRecord {
        let relative = key.bodyRelativePath
        let final = root.appending(relative)
        let directory = RawPath(bytes: Array(final.bytes[..<final.bytes.lastIndex(of: UInt8(ascii: "/"))!]))
        do {
            try FileIO.makeDirectories(directory)
            try FileIO.rename(temp.path, final)
        } catch {
            temp.discard()
            throw error
        }
        FileIO.syncDirectory(directory)
        CrashPoint.reach("put.afterRename")
        guard case .success(let st) = Sys.lstat(path: final) else { throw StoreError.cannotWrite(final, "vanished after rename") }
        let now = FileTime.now.timeInterval
        let record = NativeRecord(
            url: key.normalized, bodyPath: relative, allocatedBytes: st.allocatedBytes, apparentBytes: temp.length,
            sha256: sha256, contentType: options.contentType, etag: options.etag, lastModified: options.lastModified,
            downloadStarted: started.timeInterval, downloadCompleted: now,
            expires: options.lifetime.map { now + $0 }, lifetimeSeconds: options.lifetime, sliding: options.sliding,
            lastAccess: now)
        let previous: NativeRecord? = try writeIndex { db in
            let old = try NativeRecord.fetchOne(db, key: key.normalized)
            try record.save(db)
            return old
        }
        CrashPoint.reach("put.afterCommit")
        // A previous body under another name (other extension) is garbage now.
        if let previous, previous.bodyPath != relative, Self.isSafeRelativePath(previous.bodyPath) {
            FileIO.removeFile(root.appending(previous.bodyPath))
        }
        return record
    }

    /// A revalidated entry (`304 Not Modified`): fresh again for `lifetime` seconds from
    /// now, with the validators the response carried (the old ones otherwise). False when
    /// the row is gone.
    @discardableResult
    public func renew(url: String, lifetime: Double?, etag: String?, lastModified: String?, now: FileTime = .now) throws -> Bool {
        guard let key = URLKey(url) else { throw StoreError.notAURL(url) }
        return try writeIndex { db in
            try db.execute(sql: """
                UPDATE entries SET expires = ?, lifetime_seconds = ?, last_access = ?,
                  etag = COALESCE(?, etag), last_modified = COALESCE(?, last_modified)
                WHERE url = ? AND download_completed IS NOT NULL
                """, arguments: [lifetime.map { now.timeInterval + $0 }, lifetime, now.timeInterval, etag, lastModified, key.normalized])
            return db.changesCount == 1
        }
    }

    /// A hit with a sliding expiry: last access now and expiry now + `lifetime` (the
    /// entry's own lifetime when nil).
    public func slide(url: String, lifetime: Double?, now: FileTime = .now) throws {
        guard let key = URLKey(url) else { throw StoreError.notAURL(url) }
        try writeIndex { db in
            try db.execute(sql: """
                UPDATE entries SET last_access = ?, expires = ? + COALESCE(?, lifetime_seconds),
                  lifetime_seconds = COALESCE(?, lifetime_seconds)
                WHERE url = ? AND (? IS NOT NULL OR lifetime_seconds IS NOT NULL)
                """, arguments: [now.timeInterval, now.timeInterval, lifetime, lifetime, key.normalized, lifetime])
        }
    }

    // MARK: Reading

    /// A looked-up entry and where its body is.
    public struct Hit: Sendable {
        public var record: NativeRecord
        public var bodyPath: RawPath
        public var isFresh: Bool
    }

    /// The complete entry for `url`, fresh or not; nil when absent or never completed.
    /// Does not touch the entry (see `recordHit`).
    public func lookup(url: String, now: FileTime = .now) throws -> Hit? {
        guard let key = URLKey(url) else { throw StoreError.notAURL(url) }
        guard let record = try readIndex({ db in try NativeRecord.fetchOne(db, key: key.normalized) }),
              record.downloadCompleted != nil, Self.isSafeRelativePath(record.bodyPath) else { return nil }
        return Hit(record: record, bodyPath: root.appending(record.bodyPath), isFresh: record.isFresh(at: now))
    }

    /// Notes a use: last access becomes now and, for sliding entries, expiry now + lifetime.
    public func recordHit(url: String, now: FileTime = .now) throws {
        guard let key = URLKey(url) else { throw StoreError.notAURL(url) }
        try writeIndex { db in
            try db.execute(sql: """
                UPDATE entries SET last_access = ?,
                  expires = CASE WHEN sliding = 1 AND lifetime_seconds IS NOT NULL THEN ? + lifetime_seconds ELSE expires END
                WHERE url = ?
                """, arguments: [now.timeInterval, now.timeInterval, key.normalized])
        }
    }

    /// Every row of the index.
    public func records() throws -> [NativeRecord] {
        try readIndex { db in try NativeRecord.order(Column("url")).fetchAll(db) }
    }

    // MARK: Removing

    /// Removes the entry for `url`: row and body in one transaction (the body is unlinked
    /// only once the row's deletion is certain to commit). False when there was none.
    @discardableResult
    public func remove(url: String) throws -> Bool {
        guard let key = URLKey(url) else { throw StoreError.notAURL(url) }
        return try removeRows([key.normalized]) == 1
    }

    /// Removes the rows with these keys and their bodies; returns how many rows went.
    @discardableResult
    public func removeRows(_ urls: [String]) throws -> Int {
        let lock = try FileLock(lockPath, exclusive: false)
        defer { withExtendedLifetime(lock) {} }
        let bodies: [String] = try writeIndex { db in
            var bodies: [String] = []
            try db.inTransaction {
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
        // orphans (which prune removes), never a row whose body is missing.
        CrashPoint.reach("remove.afterCommit")
        let remover = try SafeRemover(root: root)
        for body in bodies where Self.isSafeRelativePath(body) {
            if case .failure(let error) = remover.remove(root.appending(body)), error != .noEntry {
                throw StoreError.cannotWrite(root.appending(body), error.description)
            }
        }
        return bodies.count
    }

    /// Deletes index rows only, in one transaction; the caller removes their bodies after
    /// (prune), so a crash in between leaves orphans, never rows without bodies.
    func deleteRows(_ urls: [String]) throws {
        guard !urls.isEmpty else { return }
        try writeIndex { db in
            try db.inTransaction {
                for start in stride(from: 0, to: urls.count, by: 500) {
                    let part = Array(urls[start..<min(start + 500, urls.count)])
                    try db.execute(sql: "DELETE FROM entries WHERE url IN (\(part.map { _ in "?" }.joined(separator: ",")))",
                                   arguments: StatementArguments(part))
                }
                return .commit
            }
        }
    }

    /// Removes every entry; keeps the root, its tag and an empty index.
    public func clear() throws {
        let lock = try FileLock(lockPath, exclusive: true)
        defer { withExtendedLifetime(lock) {} }
        try writeIndex { db in try db.execute(sql: "DELETE FROM entries") }
        for sub in ["objects", "tmp"] {
            try FileTree.removeContents(of: root.appending(sub))
        }
    }

    // MARK: States

    /// Every entry with its state: rows (fresh, expired, incomplete, corrupted, outside),
    /// `tmp/` leftovers (incomplete) and unindexed bodies (orphan).
    public func entries(_ context: InspectionContext) throws -> [CacheEntry] {
        let rows = try records()
        var referenced = Set<[UInt8]>()
        var result: [CacheEntry] = []
        for row in rows {
            let body = root.appending(row.bodyPath)
            var entry = CacheEntry(url: row.url, path: body, allocatedBytes: 0, apparentBytes: row.apparentBytes,
                                   modified: nil, lastAccess: FileTime(timeInterval: row.lastAccess),
                                   expires: row.expires.map(FileTime.init(timeInterval:)), state: .fresh, reason: "fresh", indexKey: row.url)
            guard Self.isSafeRelativePath(row.bodyPath), !FileTree.hasSymlinkComponent(root: root, relative: row.bodyPath) else {
                entry.state = .outside
                entry.reason = "indexed body path '\(row.bodyPath)' leads outside the cache"
                result.append(entry)
                continue
            }
            referenced.insert(body.bytes)
            let st: StatInfo?
            if case .success(let info) = Sys.lstat(path: body) { st = info } else { st = nil }
            entry.allocatedBytes = st?.allocatedBytes ?? 0
            entry.modified = st?.modified
            entry.identity = st.map(FileIdentity.init)
            if row.downloadCompleted == nil {
                let started = FileTime(timeInterval: row.downloadStarted)
                if context.isOlderThanGrace(started) {
                    (entry.state, entry.reason) = (.incomplete, "download started \(Self.age(started, context)) ago never completed")
                } else {
                    entry.reason = "download in progress (within the grace period)"
                    entry.inGracePeriod = true
                }
            } else if st == nil {
                (entry.state, entry.reason) = (.corrupted, "body missing")
            } else if let st, !st.isRegular {
                (entry.state, entry.reason) = (.corrupted, "body is not a regular file")
            } else if let st, st.size != row.apparentBytes {
                (entry.state, entry.reason) = (.corrupted, "body is \(st.size) bytes, index says \(row.apparentBytes)")
            } else if context.verify, (try? FileIO.sha256(of: body)) != row.sha256 {
                (entry.state, entry.reason) = (.corrupted, "body checksum does not match the index")
            } else if let expires = row.expires, context.now.timeInterval >= expires {
                (entry.state, entry.reason) = (.expired, "expired \(Self.age(FileTime(timeInterval: expires), context)) ago")
            } else {
                entry.reason = row.expires == nil ? "complete, no expiry" : "complete, expires in \(Self.span(row.expires! - context.now.timeInterval))"
            }
            result.append(entry)
        }
        for file in FileTree.files(under: tmpDirectory) {
            result.append(Self.unindexedEntry(file, context, pastGrace: (.incomplete, "leftover of an interrupted write"),
                                              withinGrace: "being written (within the grace period)"))
        }
        for file in FileTree.files(under: root.appending("objects")) where !referenced.contains(file.path.bytes) {
            result.append(Self.unindexedEntry(file, context, pastGrace: (.orphan, "no index entry refers to this body"),
                                              withinGrace: "unindexed body within the grace period"))
        }
        return result
    }

    /// A file no index row names (a temporary or an orphaned body): `pastGrace` once it is
    /// older than the grace period, else fresh and kept (a live writer may still own it).
    private static func unindexedEntry(_ file: FileTree.File, _ context: InspectionContext,
                                       pastGrace: (EntryState, String), withinGrace: String) -> CacheEntry {
        let old = context.isOlderThanGrace(file.stat.modified)
        var entry = CacheEntry(url: nil, path: file.path, allocatedBytes: file.stat.allocatedBytes, apparentBytes: file.stat.apparentBytes,
                               modified: file.stat.modified, state: old ? pastGrace.0 : .fresh,
                               reason: old ? pastGrace.1 : withinGrace)
        entry.inGracePeriod = !old
        entry.identity = file.identity
        return entry
    }

    // MARK: Helpers

    private let verifiedLock = ConditionLock()
    private var verifiedDirectories = Set<String>()

    /// Whether a directory on the way to a body is a symlink; directories found plain are
    /// remembered for this store's lifetime (the final component is lstat-ed by callers).
    func bodyPathCrossesSymlink(_ relative: String) -> Bool {
        guard let slash = relative.utf8.lastIndex(of: UInt8(ascii: "/")) else { return false }
        let directory = String(relative[..<slash])
        if verifiedLock.withLock({ verifiedDirectories.contains(directory) }) { return false }
        if FileTree.hasSymlinkComponent(root: root, relative: directory) { return true }
        verifiedLock.withLock { _ = verifiedDirectories.insert(directory) }
        return false
    }

    /// A body path must be relative, stay below the root and have no `.`/`..` parts.
    static func isSafeRelativePath(_ path: String) -> Bool {
        path.withBytes { isSafeRelativePath(bytes: $0) }
    }

    /// `isSafeRelativePath` on the path's bytes.
    static func isSafeRelativePath(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Every segment non-empty and not `.` or `..`; no NUL anywhere.
        guard !bytes.isEmpty, !bytes.contains(0) else { return false }
        var start = 0
        while true {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.count
            let length = end - start
            if length == 0 { return false }
            if length <= 2 && bytes[start..<end].allSatisfy({ $0 == UInt8(ascii: ".") }) { return false }
            if end == bytes.count { return true }
            start = end + 1
        }
    }

    static func age(_ time: FileTime, _ context: InspectionContext) -> String { span(context.now.timeInterval - time.timeInterval) }

    static func span(_ seconds: Double) -> String {
        let s = max(0, seconds)
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

    private func writeIndex<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try database.writeWithoutTransaction(body) } catch let error as StoreError { throw error } catch {
            throw StoreError.corruptIndex(indexPath, Self.describe(error))
        }
    }

    static func describe(_ error: Error) -> String {
        if let db = error as? DatabaseError { return db.message ?? "\(db.resultCode)" }
        return "\(error)"
    }
}

extension FileIO {
    /// The first `count` bytes of a file (fewer if it is shorter).
    static func readPrefix(_ path: RawPath, count: Int) throws -> [UInt8] {
        let fd = try openForReading(path)
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, count - filled) }
            if n <= 0 { break }
            filled += n
        }
        return Array(buffer[0..<filled])
    }
}
