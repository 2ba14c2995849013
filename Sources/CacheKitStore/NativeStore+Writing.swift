import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Writing entries: bodies to `tmp/`, renamed inside the index's write transaction to a name
// of their own, the row committed naming exactly that body, the previous body removed last.

extension NativeStore {
    /// Stores the content of a local file for `url`.
    @discardableResult
    public func put(url: String, file: RawPath, options: PutOptions = PutOptions()) throws -> NativeRecord {
        let source = try FileIO.openForReading(file)
        guard case .success(let st) = Sys.fstat(source.raw) else {
            throw StoreError.cannotRead(file, Errno.current.description)
        }
        if st.isDirectory { throw StoreError.cannotRead(file, "Is a directory") }
        return try put(url: url, options: options) { sink in
            try FileIO.stream(source.raw, path: file) { try sink($0) }
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
    public func put(url: String, options: PutOptions, produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void)
        throws -> NativeRecord
    {
        let body = try beginBody(url: url, started: options.downloadStarted)
        do {
            try produce { try body.append($0) }
        } catch {
            body.discard()
            throw error
        }
        return try body.commit(options)
    }

    /// The writers' lock (`.lock`, flock): shared for writers of entries, exclusive for
    /// `clear`, which must not run while a body is being written.
    func lockWriters(exclusive: Bool, wait: Bool = true) throws -> FileLock {
        if let readOnlyReason { throw StoreError.readOnly(root, readOnlyReason) }
        let lockPath = root.appending(Self.lockName)
        let file: FileDescriptor
        switch anchor.open(Array(Self.lockName.utf8), O_RDWR | O_CREAT, mode: 0o644) {
        case .success(let fd): file = fd
        case .failure(let error): throw StoreError.cannotWrite(lockPath, StoreError.explainWrite(error))
        }
        switch FileLock.take(file, exclusive: exclusive, wait: wait) {
        case .success(let lock): return lock
        case .failure(let error) where error.code == EWOULDBLOCK: throw StoreError.busy(lockPath)
        case .failure(let error): throw StoreError.cannotWrite(lockPath, error.description)
        }
    }

    /// Starts a body for `url` in `tmp/`, to be fed chunk by chunk (a download) and then
    /// committed or discarded. Until the commit nothing about `url` changes: readers keep
    /// seeing the previous entry, and a crash leaves only the temporary file, which prune
    /// removes as a never-completed download.
    ///
    /// With `inMemoryUpTo`, a body of at most that many bytes stays in memory and is written
    /// straight to its place by the commit (no temporary file, no rename): what a batch of
    /// small downloads wants. A longer one moves to `tmp/` when it outgrows the limit.
    public func beginBody(url: String, started: FileTime? = nil, inMemoryUpTo limit: Int = 0) throws -> PendingBody {
        guard let key = URLKey(url) else { throw StoreError.notAURL(url) }
        if limit > 0 {
            if let readOnlyReason { throw StoreError.readOnly(root, readOnlyReason) }
            return PendingBody(store: self, key: key, memoryLimit: limit, started: started ?? .now)
        }
        let lock = try lockWriters(exclusive: false)
        let tmp: FileDescriptor
        switch anchor.makeDirectories(Array("tmp".utf8)) {
        case .success(let fd): tmp = fd
        case .failure(let error): throw StoreError.cannotWrite(root.appending("tmp"), StoreError.explainWrite(error))
        }
        return PendingBody(
            store: self, key: key, temp: try TempFile(in: tmp, path: root.appending("tmp")), lock: lock,
            started: started ?? .now)
    }

    /// What a partial download kept in `tmp/` was a part of: enough to ask for the rest
    /// with `Range` and `If-Range`.
    public struct PartialDownload: Codable, Sendable {
        /// The URL key.
        public var url: String
        /// The response's strong ETag, if it had one.
        public var etag: String?
        /// The response's `Last-Modified`, if it had one.
        public var lastModified: String?
        /// The whole body's length, when the response said.
        public var total: Int64?

        /// A partial download's record.
        public init(url: String, etag: String?, lastModified: String?, total: Int64?) {
            (self.url, self.etag, self.lastModified, self.total) = (url, etag, lastModified, total)
        }

        /// The `If-Range` value: the strong ETag, else the Last-Modified date.
        public var validator: String? { etag ?? lastModified }
    }

    /// `tmp/resume-<sha256 of the key>.part` and its `.json`: a partial download kept for a
    /// resume (a `tmp/` leftover like any other for `prune`, removed after the grace period).
    static func partialNames(for key: URLKey) -> (part: [UInt8], meta: [UInt8]) {
        let hash = Digest.sha256(key.normalized)
        return (Array("resume-\(hash).part".utf8), Array("resume-\(hash).json".utf8))
    }

    /// Whether `tmp/` holds any partial download kept for a resume (`claimPartial` finds
    /// nothing otherwise; a run of downloads asks once instead of once per URL).
    public func hasPartials() -> Bool {
        guard case .success(let tmp) = anchor.openDirectory(Array("tmp".utf8)),
            case .success(let names) = DirectoryListing.names(tmp.raw)
        else { return false }
        return names.contains { $0.starts(with: Array("resume-".utf8)) }
    }

    /// Takes the partial download kept for `url`, if there is one: a body to append the rest
    /// to (its bytes so far already hashed) and what it was a part of. Of several processes
    /// only one gets it.
    public func claimPartial(url: String) throws -> (body: PendingBody, partial: PartialDownload)? {
        guard let key = URLKey(url) else { throw StoreError.notAURL(url) }
        guard case .success(let tmp) = anchor.openDirectory(Array("tmp".utf8)) else { return nil }
        let names = Self.partialNames(for: key)
        guard case .success(let fd) = Sys.openat(tmp.raw, names.meta, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) else {
            return nil
        }
        let meta = try? FileIO.readAll(fd, path: root.appending("tmp"))
        let opened = try? Sys.fstat(fd).get()
        Sys.close(fd)
        if let opened { _ = Deleter.removeOwnFile(names.meta, in: tmp, identity: opened) }
        guard let meta, let partial = try? JSONDecoder().decode(PartialDownload.self, from: Data(meta)),
            partial.url == key.normalized,
            partial.validator != nil
        else { return nil }
        let lock = try lockWriters(exclusive: false)
        guard let temp = TempFile(resuming: names.part, in: tmp, path: root.appending("tmp")) else { return nil }
        return (PendingBody(store: self, key: key, temp: temp, lock: lock, started: .now), partial)
    }

    /// A body being written for a URL (see `beginBody`): in memory while it is small enough
    /// (when asked), else in a temporary file of `tmp/`, which holds the writers' lock.
    public final class PendingBody: @unchecked Sendable {
        // @unchecked Sendable: used by one task at a time (the download, then the commit queue).
        let store: NativeStore
        let key: URLKey
        private(set) var temp: TempFile?
        private var memory: [UInt8] = []
        private var memoryHash = StreamingSHA256()
        private let memoryLimit: Int
        private var lock: FileLock?
        let started: FileTime
        /// The SHA-256 once `seal` has run; whether the bytes are on disk already.
        fileprivate var sealed: (sha256: String, flushed: Bool)?

        init(store: NativeStore, key: URLKey, temp: TempFile, lock: FileLock, started: FileTime) {
            (self.store, self.key, self.temp, self.lock, self.started, memoryLimit) = (
                store, key, temp, lock, started, 0
            )
        }

        init(store: NativeStore, key: URLKey, memoryLimit: Int, started: FileTime) {
            (self.store, self.key, self.memoryLimit, self.started) = (store, key, memoryLimit, started)
        }

        /// Bytes written so far.
        public var length: Int64 { temp?.length ?? Int64(memory.count) }

        /// The bytes, while they are in memory (nil once in a file).
        var bytesInMemory: [UInt8]? { temp == nil ? memory : nil }

        /// Whether the body is held in memory (no temporary file, no descriptor of its own).
        public var isInMemory: Bool { temp == nil }

        /// Appends the next bytes of the body (spilling to a temporary file past the memory limit).
        public func append(_ chunk: UnsafeRawBufferPointer) throws {
            if temp == nil && memory.count + chunk.count <= memoryLimit {
                memoryHash.update(chunk)
                memory.append(contentsOf: chunk)
                return
            }
            try spill().write(chunk)
        }

        /// The temporary file, made (with the writers' lock) and given the bytes so far when
        /// the body was in memory.
        private func spill() throws -> TempFile {
            if let temp { return temp }
            let lock = try store.lockWriters(exclusive: false)
            let directory: FileDescriptor
            switch store.anchor.makeDirectories(Array("tmp".utf8)) {
            case .success(let fd): directory = fd
            case .failure(let error):
                throw StoreError.cannotWrite(store.root.appending("tmp"), StoreError.explainWrite(error))
            }
            let file = try TempFile(in: directory, path: store.root.appending("tmp"))
            try memory.withUnsafeBytes { try file.write($0) }
            memory = []
            (self.temp, self.lock) = (file, lock)
            return file
        }

        /// Removes the temporary file; the store is as before.
        public func discard() {
            temp?.discard()
            memory = []
            lock = nil
        }

        /// Keeps the bytes written so far in `tmp/` for a later `claimPartial`, with what they
        /// are a part of; false (and nothing kept) when that cannot be written.
        @discardableResult
        public func keepForResume(_ partial: PartialDownload) -> Bool {
            defer { lock = nil }
            let names = NativeStore.partialNames(for: key)
            guard let temp = try? spill(), let meta = try? JSONEncoder().encode(partial),
                (try? PrewrittenFile(in: temp.directory, directoryPath: store.root.appending("tmp"), names.meta)
                    .commit(keeping: 0, mode: 0o600) { sink in try Array(meta).withUnsafeBytes { try sink($0) } })
                    != nil
            else {
                discard()
                return false
            }
            return temp.keepAs(names.part)
        }

        /// Closes the body and leaves it in `tmp/` without an entry (a response the server
        /// said not to store, kept for one use); returns its path. The caller removes it
        /// (`FileIO.removeTemporary`).
        public func keepUncommitted() -> RawPath? {
            defer { lock = nil }
            guard let temp = try? spill() else {
                discard()
                return nil
            }
            do { _ = try temp.finish() } catch {
                temp.discard()
                return nil
            }
            temp.keep()
            return temp.path
        }

        /// Ends the writing: hashes and closes the body, ready for `NativeStore.commit`.
        /// Without `flush` the bytes are not forced to disk here: the batch commit flushes
        /// the file system once for all its bodies before any row names them. (Where there is
        /// no `syncfs`, a file is flushed here regardless.)
        public func seal(flush: Bool = true) throws {
            guard sealed == nil else { return }
            guard let temp else {
                sealed = (memoryHash.finalize(), false)
                return
            }
            let flushNow = flush || !Sys.canSyncFileSystem
            do { sealed = (try temp.finish(flush: flushNow), flushNow) } catch {
                discard()
                throw error
            }
            TestPoint.reach("put.afterTempWrite")
        }

        fileprivate func release() { lock = nil }

        /// Flushes the body, renames it into place and commits the row; returns the row.
        @discardableResult
        public func commit(_ options: PutOptions) throws -> NativeRecord {
            try seal()
            return try store.commit([(self, options)])[0].get()
        }
    }

    /// Where a new body for `key` goes: `objects/ab/<sha256 of the key>-<generation>[.ext]`,
    /// a name no body had before (the generation is random; the rename refuses to replace).
    static func newBodyName(for key: URLKey) -> (directory: [UInt8], name: [UInt8]) {
        let hash = Digest.sha256(key.normalized)
        let generation = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let name = "\(hash)-\(generation)" + (key.sanitizedExtension.map { ".\($0)" } ?? "")
        return (Array("objects/\(hash.prefix(2))".utf8), Array(name.utf8))
    }

    /// The directory `newBodyName` puts `key`'s bodies in.
    static func bodyDirectory(for key: URLKey) -> [UInt8] {
        Array("objects/\(Digest.sha256(key.normalized).prefix(2))".utf8)
    }

    /// One body of a batch on its way in.
    private struct Installing {
        let body: PendingBody
        let options: PutOptions
        /// Its directory below the root and its name there, once placed.
        var directory: [UInt8] = []
        var name: [UInt8] = []
        var placed = false
        var record: NativeRecord?
        var previousBodyPath: String?
        var failure: Error?

        var relative: [UInt8] { directory + [UInt8(ascii: "/")] + name }

        mutating func fail(_ error: Error) {
            body.discard()
            failure = error
        }
    }

    /// Commits finished bodies (sealed or not; see `PendingBody.seal`) in one write
    /// transaction: each body is put in place under a name of its own (a temporary file
    /// renamed, a body held in memory written there), then — where bodies are not on disk
    /// yet — the file system is flushed once (`syncfs`: every body and directory entry of the
    /// batch), and only then are the rows written, so no row ever names a body that a crash
    /// could lose. A prune deleting unindexed bodies checks in a write transaction of its
    /// own, so it never sees a body between its placing and its row. The bodies the previous
    /// rows named are removed last. One result per body: a body that cannot be placed fails
    /// alone; a flush or a transaction that fails fails them all, every previous entry as it
    /// was. Many downloads committed together cost one flush and one transaction, not one each.
    public func commit(_ batch: [(body: PendingBody, options: PutOptions)]) -> [Result<NativeRecord, Error>] {
        var items = batch.map { Installing(body: $0.body, options: $0.options) }
        defer { for item in items { item.body.release() } }
        for i in items.indices {
            do { try items[i].body.seal(flush: false) } catch { items[i].failure = error }
        }
        // Bodies in memory have no temporary file holding the writers' lock: one for them all.
        var batchLock: FileLock?
        if items.contains(where: { $0.failure == nil && $0.body.bytesInMemory != nil }) {
            do { batchLock = try lockWriters(exclusive: false) } catch {
                for i in items.indices where items[i].failure == nil && items[i].body.bytesInMemory != nil {
                    items[i].fail(error)
                }
            }
        }
        defer { withExtendedLifetime(batchLock) {} }
        // The bodies' directories, opened (made, in a new store) on two threads when many.
        let paths = items.map { $0.failure == nil ? Self.bodyDirectory(for: $0.body.key) : nil }
        let wanted = Array(Set(paths.compactMap { $0 }))
        let opened = WorkerPool.map(wanted.count, workers: 2, chunk: 16) { anchor.makeDirectories(wanted[$0]) }
        var directories: [[UInt8]: FileDescriptor] = [:]
        var failed: [[UInt8]: Errno] = [:]
        for (path, result) in zip(wanted, opened) {
            switch result {
            case .success(let fd): directories[path] = fd
            case .failure(let error): failed[path] = error
            }
        }
        for i in items.indices {
            if let path = paths[i], let error = failed[path] {
                items[i].fail(StoreError.cannotWrite(root.appending(path), StoreError.explainWrite(error)))
            }
        }
        do {
            try writeIndex { db in
                try db.inTransaction(.immediate) {
                    try place(&items, directories: directories)
                    try installRows(&items, directories: directories, db)
                    return .commit
                }
            }
            TestPoint.reach("put.afterCommit")
        } catch {
            // Not committed: the new bodies are nobody's; the old entries are untouched.
            for i in items.indices where items[i].failure == nil {
                if items[i].placed { _ = Deleter(anchor).remove(items[i].relative, expecting: nil) }
                items[i].fail(error)
            }
        }
        // The previous bodies are garbage now; each name was its row's alone.
        for item in items where item.failure == nil {
            if let previous = item.previousBodyPath, previous != item.record?.bodyPath,
                Self.isSafeRelativePath(previous)
            {
                _ = Deleter(anchor).remove(Array(previous.utf8), expecting: nil)
            }
        }
        return items.map { item in
            if let failure = item.failure { return .failure(failure) }
            return .success(item.record!)
        }
    }

    /// Inside the write transaction: puts each body in place, then makes them all durable
    /// (one `syncfs` when any is not on disk yet, else an fsync of each directory touched).
    private func place(_ items: inout [Installing], directories: [[UInt8]: FileDescriptor]) throws {
        TestPoint.reach("put.beforeRename")
        var touched: Set<[UInt8]> = []
        var unflushed = false
        let created = Self.createInMemory(items, directories: directories)
        for i in items.indices where items[i].failure == nil {
            // Unique by construction; a collision (2^-64) draws another name.
            while !items[i].placed && items[i].failure == nil {
                let (directoryPath, name) =
                    created[i].map { ($0.directory, $0.name) } ?? Self.newBodyName(for: items[i].body.key)
                guard let directory = directories[directoryPath] else {
                    items[i].fail(
                        StoreError.cannotWrite(root.appending(directoryPath), "the body directory is not open"))
                    break
                }
                var outcome: Result<Void, Errno>
                if let made = created[i] {
                    outcome = made.result
                    // A file made but not filled goes through the deletion engine.
                    if made.created, case .failure = made.result {
                        _ = Deleter(anchor).remove(directoryPath + [UInt8(ascii: "/")] + name, expecting: nil)
                    }
                    unflushed = unflushed || Sys.canSyncFileSystem
                } else {
                    outcome = items[i].body.temp!.rename(to: name, in: directory)
                    unflushed = unflushed || items[i].body.sealed?.flushed == false
                }
                switch outcome {
                case .success:
                    (items[i].directory, items[i].name, items[i].placed) = (directoryPath, name, true)
                    touched.insert(directoryPath)
                case .failure(let error) where error == .exists:
                    continue
                case .failure(let error):
                    items[i].fail(
                        StoreError.cannotWrite(
                            root.appending(directoryPath + [UInt8(ascii: "/")] + name),
                            StoreError.explainWrite(error)))
                }
            }
        }
        if unflushed, let any = touched.first, case .failure(let error) = Sys.syncFileSystem(directories[any]!.raw) {
            throw StoreError.cannotWrite(
                root.appending(any), "cannot flush the new bodies to disk: " + StoreError.explainWrite(error))
        } else if !unflushed {
            for directoryPath in touched { _ = Sys.fsync(directories[directoryPath]!.raw) }
        }
        TestPoint.reach("put.afterRename")
    }

    /// A body held in memory, written to a new file of its own: where, and how that went.
    private struct Creation {
        var directory: [UInt8]
        var name: [UInt8]
        /// Whether the file was made (and, when `result` is a failure, is to be removed).
        var created: Bool
        var result: Result<Void, Errno>
    }

    /// Writes each body of the batch that is held in memory to a new file under a name of its
    /// own (drawing another name on a collision), on two threads when there are many: making
    /// the files is most of a batch's commit, all of it in the kernel, and it ran on the
    /// commit thread alone while the downloads' threads stood idle at the end of a run.
    /// By item index; a body whose directory is not open is left out (`place` fails it).
    private static func createInMemory(_ items: [Installing], directories: [[UInt8]: FileDescriptor]) -> [Creation?] {
        let flush = !Sys.canSyncFileSystem
        func make(_ item: Installing) -> Creation? {
            guard item.failure == nil, let bytes = item.body.bytesInMemory else { return nil }
            while true {
                let (directoryPath, name) = newBodyName(for: item.body.key)
                guard let directory = directories[directoryPath] else { return nil }
                let made = create(name, in: directory, bytes, flush: flush)
                if case .failure(.exists) = made.result { continue }
                return Creation(directory: directoryPath, name: name, created: made.created, result: made.result)
            }
        }
        return WorkerPool.map(items.count, workers: 2, chunk: 32) { make(items[$0]) }
    }

    /// A new file `name` in `directory` holding `bytes` (mode 0644), never replacing one;
    /// `created` says whether the file was made (the caller removes it if filling it failed).
    private static func create(_ name: [UInt8], in directory: FileDescriptor, _ bytes: [UInt8], flush: Bool)
        -> (created: Bool, result: Result<Void, Errno>)
    {
        switch Sys.openat(directory.raw, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode: 0o644) {
        case .failure(let error): return (false, .failure(error))
        case .success(let fd):
            var outcome = bytes.withUnsafeBytes { Sys.writeAll(fd, $0) }
            if case .success = outcome, flush { outcome = Sys.fsync(fd) }
            Sys.close(fd)
            return (true, outcome)
        }
    }

    /// Inside the write transaction, after `place`: the rows, each naming its placed body.
    private func installRows(_ items: inout [Installing], directories: [[UInt8]: FileDescriptor], _ db: Database) throws
    {
        let now = FileTime.now.timeInterval
        let previous = try db.cachedStatement(sql: "SELECT body_path FROM entries WHERE url = ?")
        // The optional columns, where this index has them.
        var optional: [String] = []
        if hasResponseColumns { optional += ["status", "vary"] }
        if hasValidatorsColumn { optional.append("validators_url") }
        let names = optional.map { ", " + $0 }.joined()
        let values = String(repeating: ", ?", count: optional.count)
        let updates = optional.map { ", \($0) = excluded.\($0)" }.joined()
        let upsert = try db.cachedStatement(
            sql: """
                INSERT INTO entries (url, body_path, allocated_bytes, apparent_bytes, sha256, content_type, etag, \
                last_modified, download_started, download_completed, expires, lifetime_seconds, sliding, \
                last_access\(names))
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?\(values))
                ON CONFLICT(url) DO UPDATE SET body_path = excluded.body_path, \
                allocated_bytes = excluded.allocated_bytes, apparent_bytes = excluded.apparent_bytes, \
                sha256 = excluded.sha256, content_type = excluded.content_type, etag = excluded.etag, \
                last_modified = excluded.last_modified, download_started = excluded.download_started, \
                download_completed = excluded.download_completed, expires = excluded.expires, \
                lifetime_seconds = excluded.lifetime_seconds, sliding = excluded.sliding, \
                last_access = excluded.last_access\(updates)
                """)
        for i in items.indices where items[i].failure == nil {
            let item = items[i]
            guard item.placed, let sealed = item.body.sealed, let directory = directories[item.directory],
                case .success(let st) = Sys.lstat(at: directory.raw, item.name)
            else {
                if item.placed { _ = Deleter(anchor).remove(item.relative, expecting: nil) }
                items[i].fail(
                    StoreError.cannotWrite(
                        root.appending(item.relative), "the new body vanished before its row was written"))
                continue
            }
            let options = item.options
            let row = NativeRecord(
                url: item.body.key.normalized, bodyPath: String(decoding: item.relative, as: UTF8.self),
                allocatedBytes: st.allocatedBytes,
                apparentBytes: st.size, sha256: sealed.sha256, contentType: options.contentType, etag: options.etag,
                lastModified: options.lastModified, downloadStarted: item.body.started.timeInterval,
                downloadCompleted: now,
                expires: options.lifetime.map { now + $0 }, lifetimeSeconds: options.lifetime, sliding: options.sliding,
                lastAccess: now)
            items[i].previousBodyPath = try String.fetchOne(previous, arguments: [row.url])
            var arguments: StatementArguments = [
                row.url, row.bodyPath, row.allocatedBytes, row.apparentBytes, row.sha256,
                row.contentType, row.etag, row.lastModified, row.downloadStarted,
                row.downloadCompleted, row.expires, row.lifetimeSeconds, row.sliding, row.lastAccess
            ]
            if hasResponseColumns { arguments += [options.status, options.vary] }
            if hasValidatorsColumn { arguments += [options.validatorsURL] }
            try upsert.execute(arguments: arguments)
            items[i].record = row
        }
    }

    /// A revalidated entry (`304 Not Modified`): fresh again for `lifetime` seconds from
    /// now, with the validators and Content-Type the response carried (the old ones
    /// otherwise). False when the row is gone.
    @discardableResult
    public func renew(
        url: String, lifetime: Double?, etag: String?, lastModified: String?, contentType: String? = nil,
        now: FileTime = .now
    ) throws -> Bool {
        guard let key = URLKey(url) else { throw StoreError.notAURL(url) }
        return try writeIndex { db in
            try db.execute(
                sql: """
                    UPDATE entries SET expires = ?, lifetime_seconds = ?, last_access = ?,
                      etag = COALESCE(?, etag), last_modified = COALESCE(?, last_modified),
                      content_type = COALESCE(?, content_type)
                    WHERE url = ? AND download_completed IS NOT NULL
                    """,
                arguments: [
                    lifetime.map { now.timeInterval + $0 }, lifetime, now.timeInterval, etag, lastModified, contentType,
                    key.normalized
                ])
            return db.changesCount == 1
        }
    }

    /// A hit with a sliding expiry: last access now and expiry now + `lifetime` (the
    /// entry's own lifetime when nil).
    public func slide(url: String, lifetime: Double?, now: FileTime = .now) throws {
        guard let key = URLKey(url) else { throw StoreError.notAURL(url) }
        try writeIndex { db in
            try db.execute(
                sql: """
                    UPDATE entries SET last_access = ?, expires = ? + COALESCE(?, lifetime_seconds),
                      lifetime_seconds = COALESCE(?, lifetime_seconds)
                    WHERE url = ? AND (? IS NOT NULL OR lifetime_seconds IS NOT NULL)
                    """, arguments: [now.timeInterval, now.timeInterval, lifetime, lifetime, key.normalized, lifetime])
        }
    }

    /// Notes a use: last access becomes now and, for sliding entries, expiry now + lifetime.
    /// A read-only store, a full disk or a busy index skips it: reading must not fail for
    /// want of it. (Throws only for a string that is not a URL.)
    public func recordHit(url: String, now: FileTime = .now) throws {
        guard URLKey(url) != nil else { throw StoreError.notAURL(url) }
        try recordHits(urls: [url], now: now)
    }

    /// `recordHit` for many URLs, in one transaction (one flush); URLs that are not URLs are
    /// passed over.
    public func recordHits(urls: [String], now: FileTime = .now) throws {
        let keys = urls.compactMap { URLKey($0)?.normalized }
        guard readOnlyReason == nil, !keys.isEmpty else { return }
        do {
            try writeIndex { db in
                try db.inTransaction {
                    let update = try db.cachedStatement(
                        sql: """
                            UPDATE entries SET last_access = ?,
                              expires = CASE WHEN sliding = 1 AND lifetime_seconds IS NOT NULL \
                            THEN ? + lifetime_seconds ELSE expires END
                            WHERE url = ?
                            """)
                    for key in keys { try update.execute(arguments: [now.timeInterval, now.timeInterval, key]) }
                    return .commit
                }
            }
        } catch {
            return  // the bodies were served; a hit not noted costs only some recency
        }
    }

    // MARK: The reserve

    /// Keeps `.reserve` (`reserveBytes`, 128 KiB of real blocks) when there is room to spare
    /// (four times that): with the disk full, SQLite cannot grow its write-ahead log to delete
    /// a single row, and giving this file back lets a prune start freeing space (a batch of
    /// row deletions needs a few pages of log; each batch's bodies then free more).
    func keepReserve() {
        guard readOnlyReason == nil, !anchor.exists(Array(Self.reserveName.utf8)),
            case .success(let available) = Sys.availableBytes(anchor.fd), available > 4 * Int64(Self.reserveBytes)
        else { return }
        guard let temp = try? TempFile(in: anchor.descriptor, path: root, hashing: false) else { return }
        let zeros = [UInt8](repeating: 0, count: 64 * 1024)
        do {
            for _ in 0..<(Self.reserveBytes / zeros.count) { try zeros.withUnsafeBytes { try temp.write($0) } }
            _ = try temp.finish(mode: 0o600)
            try temp.install(as: Array(Self.reserveName.utf8), in: anchor.descriptor, replacing: false)
        } catch {
            temp.discard()
        }
    }

    /// Gives `.reserve` back to the file system; true when there was one.
    @discardableResult
    func releaseReserve() -> Bool {
        Deleter(anchor).remove(Array(Self.reserveName.utf8), expecting: nil) == .removed
    }
}
