import CacheKitSystem
import GRDB
import GRDBSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Batch lookups of bodies for localize: tens of thousands of URLs per page. This file and
// the pins' (`NativeStore+Pins.swift`) are the places that speak SQLite's C API (on GRDB's
// connection, inside GRDB's read transaction): decoding whole rows through GRDB and stat-ing
// each body by absolute path were most of localize's time. The statement is finalised before
// the file's function returns.

extension NativeStore {
    /// A body the index holds for a URL, checked on disk.
    public struct Body: Sendable {
        /// Where the body is.
        public var path: RawPath
        /// `.fresh`, `.expired`, or `.corrupted` (body missing, not a regular file, reached
        /// through a symlink, or not the size the index records).
        public var state: EntryState
        /// Why it is not fresh, in words.
        public var reason: String
    }

    /// Runs `body` with a function that looks up many URLs at once, answering in their order
    /// (nil: no completed entry, or not a URL), from one read transaction. Each body is
    /// checked as `NativeFormat.entry(for:)` checks it: a regular file, no symlink on the
    /// way from the root, the index's size. The index is read on the calling thread; the
    /// bodies are checked through the given `LoopRunner` (on more threads, if it has them).
    /// (The function must not be kept past `body`: it reads inside the transaction.)
    func withBodyLookups<T>(
        now: FileTime, wholeIndex: Bool? = nil,
        _ body: (@escaping ([String], LoopRunner) -> [Body?]) -> T
    ) throws -> T {
        try readIndex { db in
            guard let connection = db.sqliteConnection else {
                throw StoreError.corruptIndex(indexPath, "connection closed")
            }
            let rootPrefix = root.bytes + [UInt8(ascii: "/")]
            guard
                let index = IndexRows(
                    connection, pathPrefix: rootPrefix, contentOnly: hasResponseColumns, now: now.timeInterval)
            else {
                throw StoreError.corruptIndex(indexPath, String(cString: sqlite3_errmsg(connection)))
            }
            defer { index.finalize() }
            let directories = BodyDirectories(anchor: anchor)
            defer { directories.close() }
            return body { urls, loop in
                // What the index says, in the URLs' order.
                var keys = urls.map { URLKey($0)?.normalized }
                var rows = index.rows(keys, wholeIndex: wholeIndex)
                defer { Self.drop(&rows, &keys) }
                Trace.mark("index rows")
                // Then the bodies on disk: their directories opened here, each row's found once
                // (the loop below then shares no object between its threads: the directories'
                // reference counts, touched by both for every body, cost more than the stat),
                // the files checked in blocks, each answer written to its own slot.
                let directoryOf = rows.map { row in
                    row.map { $0.relative(after: rootPrefix.count) { directories.prepare(directoryOf: $0) } }
                        ?? BodyDirectories.elsewhere
                }
                Trace.mark("directories opened")
                return [Body?](unsafeUninitializedCapacity: rows.count) { buffer, initialized in
                    let answers = buffer.baseAddress!
                    // Each row read in place, through a pointer: a copy of it retained and
                    // released its path, 18,000 times on two threads.
                    rows.withUnsafeBufferPointer { rows in
                        loop.run(rows.count) { range in
                            for i in range {
                                (answers + i).initialize(
                                    to: Self.body(
                                        rows.baseAddress! + i, prefix: rootPrefix.count, directory: directoryOf[i],
                                        directories))
                            }
                        }
                    }
                    initialized = rows.count
                }
            }
        }
    }

    /// Hands a lookup's rows and keys to `WorkerPool.drop` (not inlined: see `Droppable`):
    /// freed where the lookup ends, their 20,000 paths and keys were released one by one on
    /// the thread deciding the page's references.
    @inline(never)
    private static func drop(_ rows: inout [Row?], _ keys: inout [String?]) {
        let held = Droppable((rows, keys))
        (rows, keys) = ([], [])
        WorkerPool.drop(held)
    }

    /// The answer for the row at `row` (nil: none): its body checked in `directory`, which
    /// `BodyDirectories.prepare` gave, else found by `directories`.
    fileprivate static func body(
        _ row: UnsafePointer<Row?>, prefix: Int, directory: Int32, _ directories: BodyDirectories
    ) -> Body? {
        guard row.pointee != nil else { return nil }
        let status = row.pointee!.relative(after: prefix) {
            directory == BodyDirectories.elsewhere
                ? directories.status(of: $0) : BodyDirectories.status(of: $0, in: directory)
        }
        return status.body(path: row.pointee!.path, size: row.pointee!.size, isFresh: row.pointee!.isFresh)
    }

    /// An index row for a body: where it is, how large the index says it is, whether fresh.
    fileprivate struct Row {
        var path: RawPath
        var size: Int64
        var isFresh: Bool

        /// The path below the root (which is `prefix` bytes long, slash included).
        func relative<R>(after prefix: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            path.bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[prefix...])) }
        }
    }
}

extension BodyDirectories.Status {
    /// The answer for a row (its body at `path`, `size` bytes by the index) whose body on disk
    /// is this.
    fileprivate func body(path: RawPath, size: Int64, isFresh: Bool) -> NativeStore.Body {
        switch self {
        case .regular(let actual) where actual == size:
            return .init(path: path, state: isFresh ? .fresh : .expired, reason: isFresh ? "fresh" : "expired")
        case .regular:
            return .init(path: path, state: .corrupted, reason: "body size does not match the index")
        case .missing:
            return .init(path: path, state: .corrupted, reason: "body missing")
        }
    }
}

/// Index rows for many keys at once, on SQLite's C API: one query per key, or, when the keys
/// are many for the size of the index, one pass over the whole index (measured on 22,000
/// keys against 18,000 rows: 22 ms by queries, 14 ms by a pass). A step that fails reads
/// as no row: the reference stays remote, as for a URL the index does not have.
private final class IndexRows {
    private let pathPrefix: [UInt8]
    /// Now, in seconds since 1970: a row that expires later is fresh.
    private let now: Double
    private let connection: OpaquePointer
    private let query: OpaquePointer
    private let pass: OpaquePointer
    private let top: OpaquePointer
    /// max(rowid): at least the row count, for one descent of the table; read once.
    private lazy var topRowID: Int64 = {
        defer { sqlite3_reset(top) }
        return sqlite3_step(top) == SQLITE_ROW ? sqlite3_column_int64(top, 0) : Int64.max
    }()

    /// Nil when a statement cannot be prepared (the message is on the connection).
    /// With `contentOnly`, stored responses whose status is not content (a kept 404) are
    /// not found: a page cannot use them.
    init?(_ connection: OpaquePointer, pathPrefix: [UInt8], contentOnly: Bool, now: Double) {
        func prepare(_ sql: String) -> OpaquePointer? {
            var statement: OpaquePointer?
            return sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK ? statement : nil
        }
        let content = contentOnly ? " AND status IN (200, 203)" : ""
        let statements = [
            prepare(
                """
                SELECT body_path, apparent_bytes, expires FROM entries WHERE url = ? AND download_completed IS \
                NOT NULL
                """
                    + content),
            prepare(
                "SELECT url, body_path, apparent_bytes, expires FROM entries WHERE download_completed IS NOT NULL"
                    + content),
            prepare("SELECT max(rowid) FROM entries")
        ]
        guard let query = statements[0], let pass = statements[1], let top = statements[2] else {
            for case let statement? in statements { sqlite3_finalize(statement) }
            return nil
        }
        (self.query, self.pass, self.top, self.pathPrefix, self.now) = (query, pass, top, pathPrefix, now)
        self.connection = connection
    }

    func finalize() {
        for statement in [query, pass, top] { sqlite3_finalize(statement) }
    }

    /// The completed entry for each key (nil keys: nil); `wholeIndex` forces the way.
    func rows(_ keys: [String?], wholeIndex: Bool?) -> [NativeStore.Row?] {
        (wholeIndex ?? (topRowID <= 2 * Int64(keys.count))) ? byPass(keys) : byQuery(keys)
    }

    private func byQuery(_ keys: [String?]) -> [NativeStore.Row?] {
        keys.map { key -> NativeStore.Row? in
            guard var key else { return nil }
            return key.withUTF8 { keyBytes -> NativeStore.Row? in
                sqlite3_reset(query)
                // SQLITE_STATIC (nil): the key outlives the step below.
                sqlite3_bind_text(
                    query, 1, UnsafeRawPointer(keyBytes.baseAddress!).assumingMemoryBound(to: CChar.self),
                    Int32(keyBytes.count), nil)
                guard sqlite3_step(query) == SQLITE_ROW else { return nil }
                return found(query, from: 0)
            }
        }
    }

    private func byPass(_ keys: [String?]) -> [NativeStore.Row?] {
        // Where each key is wanted, by a seeded hash of its bytes (so that a row's URL is
        // matched without making a String of it: that was most of the pass): the first index
        // with that hash, then a chain through `nextSame` (equal keys, and any other with the
        // same hash: each is compared byte for byte).
        var first: [Int: Int] = Dictionary(minimumCapacity: keys.count)
        var nextSame = [Int](repeating: -1, count: keys.count)
        for (i, key) in keys.enumerated() {
            guard var key else { continue }
            let hash = key.withUTF8 { Self.hash(UnsafeRawBufferPointer($0)) }
            if let f = first[hash] {
                nextSame[i] = nextSame[f]
                nextSame[f] = i
            } else {
                first[hash] = i
            }
        }
        var out = [NativeStore.Row?](repeating: nil, count: keys.count)
        guard !first.isEmpty else { return out }
        // Each page is read once: SQLite's cache (32 MiB for the store's lookups) would take a
        // fresh allocation for every page of the table (1,003 pages, 4.3 MB of new memory on
        // the bench's store, faulted in page by page); at 2 MiB it reuses the oldest's memory.
        // The connection's own size is back once the pass is done.
        let cacheSize = Self.cacheSize(connection)
        if let cacheSize, cacheSize < -2048 || cacheSize > 512 { Self.setCacheSize(connection, -2048) }
        defer {
            sqlite3_reset(pass)
            if let cacheSize { Self.setCacheSize(connection, cacheSize) }
        }
        while sqlite3_step(pass) == SQLITE_ROW {
            guard let text = sqlite3_column_text(pass, 0) else { continue }
            let url = UnsafeRawBufferPointer(start: text, count: Int(sqlite3_column_bytes(pass, 0)))
            guard var i = first[Self.hash(url)] else { continue }
            var found: NativeStore.Row??
            while i >= 0 {
                if Self.equal(keys[i]!, url) {
                    if found == nil { found = .some(self.found(pass, from: 1)) }
                    out[i] = found!
                }
                i = nextSame[i]
            }
        }
        return out
    }

    /// The connection's `cache_size` (negative: KiB; positive: pages), nil when unreadable.
    private static func cacheSize(_ connection: OpaquePointer) -> Int64? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(connection, "PRAGMA cache_size", -1, &statement, nil) == SQLITE_OK else { return nil }
        defer { sqlite3_finalize(statement) }
        return sqlite3_step(statement) == SQLITE_ROW ? sqlite3_column_int64(statement, 0) : nil
    }

    private static func setCacheSize(_ connection: OpaquePointer, _ size: Int64) {
        _ = sqlite3_exec(connection, "PRAGMA cache_size = \(size)", nil, nil, nil)
    }

    /// Whether `key`'s UTF-8 is `bytes`, compared as memory: comparing a String's UTF-8 view
    /// element by element took about a tenth of the pass (measured 10.9 → 10.1 ms, 18,000 rows).
    private static func equal(_ key: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var key = key
        return key.withUTF8 { key in
            key.count == bytes.count && (key.isEmpty || memcmp(key.baseAddress!, bytes.baseAddress!, key.count) == 0)
        }
    }

    private static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: bytes)
        return hasher.finalize()
    }

    /// The row of body_path, apparent_bytes and expires from column `start` on; nil when
    /// body_path is not a safe relative path (the row is then as good as absent).
    private func found(_ statement: OpaquePointer, from start: Int32) -> NativeStore.Row? {
        guard let text = sqlite3_column_text(statement, start) else { return nil }
        let relative = UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, start)))
        guard NativeStore.isSafeRelativePath(bytes: relative) else { return nil }
        let expires = start + 2
        let isFresh =
            sqlite3_column_type(statement, expires) == SQLITE_NULL || now < sqlite3_column_double(statement, expires)
        return NativeStore.Row(
            path: RawPath(bytes: pathPrefix + relative), size: sqlite3_column_int64(statement, start + 1),
            isFresh: isFresh)
    }
}

/// Directories of a store opened once each, below the root's descriptor (never through a
/// symlink or mount), so each body is a single `fstatat` of its file name. Directories are
/// opened by `prepare(directoryOf:)` on one thread; `status(of:)` only reads what was opened,
/// and may run on several threads at once.
private final class BodyDirectories {
    enum Status {
        case regular(Int64)
        case missing
    }

    private let anchor: AnchoredDirectory
    /// Open directories by a hash of their relative path (checked byte for byte on a hit): an
    /// open-addressing table of indices (-1: empty) and the hashes at those indices. (A
    /// dictionary hashed the hash again, for each of 18,000 bodies.)
    private var slots = [Int32](repeating: -1, count: 2048)
    private var hashes: [UInt64] = []
    /// Each open directory's relative path, descriptor, and raw descriptor (-1: unreachable),
    /// at the index `slots` gives. (An index, where a tuple of the path and descriptor was
    /// copied out for every body: a retain and a release of each.)
    private var paths: [[UInt8]] = []
    private var descriptors: [FileDescriptor?] = []
    private var raw: [Int32] = []
    /// Beyond this many open directories, bodies are checked component by component.
    private let limit = 1024

    init(anchor: AnchoredDirectory) {
        self.anchor = anchor
    }

    func close() {
        (hashes, paths, descriptors, raw) = ([], [], [], [])
        // Empty again, not gone: a `prepare` after `close` opens its directory afresh.
        slots = [Int32](repeating: -1, count: slots.count)
    }

    /// `prepare`'s answer for a body whose directory it did not open (or that is at the root):
    /// `status(of:)` then finds its way.
    static let elsewhere: Int32 = -2
    /// `prepare`'s answer for a body whose directory cannot be opened: the body is missing.
    static let unreachable: Int32 = -1

    /// Opens (once) the directory a relative body path is in, while fewer than `limit` are
    /// open; returns its descriptor (valid until `close`), `unreachable`, or `elsewhere`.
    func prepare(directoryOf relative: UnsafeBufferPointer<UInt8>) -> Int32 {
        guard let slash = Self.lastSlash(relative) else { return Self.elsewhere }
        let path = UnsafeBufferPointer(rebasing: relative[..<slash])
        let hash = Self.hash(path)
        let slot = find(path, hash: hash)
        if slots[slot] >= 0 { return raw[Int(slots[slot])] }
        guard paths.count < limit else { return Self.elsewhere }
        let fd = try? anchor.openDirectory(Array(path)).get()
        slots[slot] = Int32(paths.count)
        hashes.append(hash)
        paths.append(Array(path))
        descriptors.append(fd)
        raw.append(fd?.raw ?? Self.unreachable)
        return fd?.raw ?? Self.unreachable
    }

    /// `status(of:)` for a body whose directory `prepare` opened as `directory` (or found
    /// `unreachable`): one `fstatat` of its file name.
    static func status(of relative: UnsafeBufferPointer<UInt8>, in directory: Int32) -> Status {
        guard directory >= 0 else { return .missing }
        let slash = Self.lastSlash(relative)
        return statName(UnsafeBufferPointer(rebasing: relative[(slash.map { $0 + 1 } ?? 0)...]), in: directory)
    }

    /// A regular file (with its size) reached from the root without symlinks, or missing.
    func status(of relative: UnsafeBufferPointer<UInt8>) -> Status {
        let slash = Self.lastSlash(relative)
        let name = UnsafeBufferPointer(rebasing: relative[(slash.map { $0 + 1 } ?? 0)...])
        var directory: FileDescriptor? = anchor.descriptor
        if let slash {
            let path = UnsafeBufferPointer(rebasing: relative[..<slash])
            if case let known = slots[find(path, hash: Self.hash(path))], known >= 0 {
                directory = descriptors[Int(known)]
            } else {
                directory = try? anchor.openDirectory(Array(path)).get()
            }
        }
        guard let directory else { return .missing }
        return Self.statName(name, in: directory.raw)
    }

    /// The file `name` in the open directory `directory`, not followed if a symlink.
    private static func statName(_ name: UnsafeBufferPointer<UInt8>, in directory: Int32) -> Status {
        let statted = withUnsafeTemporaryAllocation(of: CChar.self, capacity: name.count + 1) {
            buffer -> Result<StatInfo, Errno> in
            if let bytes = name.baseAddress {
                UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(from: bytes, byteCount: name.count)
            }
            buffer[name.count] = 0
            return Sys.lstat(at: directory, buffer.baseAddress!)
        }
        guard case .success(let st) = statted, st.isRegular else { return .missing }
        return .regular(st.size)
    }

    private static func hash(_ path: UnsafeBufferPointer<UInt8>) -> UInt64 { FNV1a.hash(path) }

    /// The slot holding `path` (its index), else the empty one where it goes. (The table,
    /// twice the most directories opened, always has an empty slot.)
    private func find(_ path: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int {
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
        while slots[i] >= 0 {
            let index = Int(slots[i])
            if hashes[index] == hash && Self.equal(paths[index], path) { return i }
            i = (i + 1) & mask
        }
        return i
    }

    /// The last `/` of a relative path, found from its end by `memrchr`.
    private static func lastSlash(_ path: UnsafeBufferPointer<UInt8>) -> Int? {
        Sys.lastIndex(of: UInt8(ascii: "/"), in: path)
    }

    private static func equal(_ a: [UInt8], _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        a.count == b.count
            && (b.isEmpty || a.withUnsafeBufferPointer { memcmp($0.baseAddress!, b.baseAddress!, b.count) == 0 })
    }
}
