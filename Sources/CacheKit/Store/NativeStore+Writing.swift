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
        guard case .success(let st) = Sys.fstat(source.raw) else { throw StoreError.cannotRead(file, Errno.current.description) }
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
    public func beginBody(url: String, started: FileTime? = nil) throws -> PendingBody {
        guard let key = URLKey(url) else { throw StoreError.notAURL(url) }
        let lock = try lockWriters(exclusive: false)
        let tmp: FileDescriptor
        switch anchor.makeDirectories(Array("tmp".utf8)) {
        case .success(let fd): tmp = fd
        case .failure(let error): throw StoreError.cannotWrite(root.appending("tmp"), StoreError.explainWrite(error))
        }
        return PendingBody(store: self, key: key, temp: try TempFile(in: tmp, path: root.appending("tmp")), lock: lock, started: started ?? .now)
    }

    /// What a partial download kept in `tmp/` was a part of: enough to ask for the rest
    /// with `Range` and `If-Range`.
    public struct PartialDownload: Codable, Sendable {
        /// The URL key.
        public var url: String
        /// The response's strong ETag, if it had one.
        public var etag: String?
        public var lastModified: String?
        /// The whole body's length, when the response said.
        public var total: Int64?

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

    /// Takes the partial download kept for `url`, if there is one: a body to append the rest
    /// to (its bytes so far already hashed) and what it was a part of. Of several processes
    /// only one gets it.
    public func claimPartial(url: String) throws -> (body: PendingBody, partial: PartialDownload)? {
        guard let key = URLKey(url) else { throw StoreError.notAURL(url) }
        guard case .success(let tmp) = anchor.openDirectory(Array("tmp".utf8)) else { return nil }
        let names = Self.partialNames(for: key)
        guard case .success(let fd) = Sys.openat(tmp.raw, names.meta, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) else { return nil }
        let meta = try? FileIO.readAll(fd, path: root.appending("tmp"))
        Sys.close(fd)
        _ = Sys.unlinkat(tmp.raw, names.meta)
        guard let meta, let partial = try? JSONDecoder().decode(PartialDownload.self, from: Data(meta)), partial.url == key.normalized,
              partial.validator != nil else { return nil }
        let lock = try lockWriters(exclusive: false)
        guard let temp = TempFile(resuming: names.part, in: tmp, path: root.appending("tmp")) else { return nil }
        return (PendingBody(store: self, key: key, temp: temp, lock: lock, started: .now), partial)
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

        /// Keeps the bytes written so far in `tmp/` for a later `claimPartial`, with what they
        /// are a part of; false (and nothing kept) when that cannot be written.
        @discardableResult
        public func keepForResume(_ partial: PartialDownload) -> Bool {
            defer { lock = nil }
            let names = NativeStore.partialNames(for: key)
            guard let meta = try? JSONEncoder().encode(partial),
                  (try? FileIO.writeAtomically(in: temp.directory, directoryPath: store.root.appending("tmp"), names.meta, mode: 0o600, {
                      sink in try Array(meta).withUnsafeBytes { try sink($0) }
                  })) != nil else {
                temp.discard()
                return false
            }
            return temp.keepAs(names.part)
        }

        /// Closes the body and leaves it in `tmp/` without an entry (a response the server
        /// said not to store, kept for one use); returns its path. The caller removes it
        /// (`FileIO.removeTemporary`).
        public func keepUncommitted() -> RawPath? {
            defer { lock = nil }
            do { _ = try temp.finish() } catch { temp.discard(); return nil }
            temp.keep()
            return temp.path
        }

        /// Flushes the body, renames it into place and commits the row; returns the row.
        @discardableResult
        public func commit(_ options: PutOptions) throws -> NativeRecord {
            defer { lock = nil }
            let sha256: String
            do { sha256 = try temp.finish() } catch { temp.discard(); throw error }
            TestPoint.reach("put.afterTempWrite")
            return try store.install(temp, sha256: sha256, key: key, started: started, options: options)
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

    /// Renames a finished temporary body into place and commits its row, both inside one
    /// write transaction (so a prune deleting unindexed bodies, which checks in a write
    /// transaction of its own, never sees it between the two); then removes the body the
    /// previous row named.
    private func install(_ temp: TempFile, sha256: String, key: URLKey, started: FileTime, options: PutOptions) throws -> NativeRecord {
        var (directoryPath, name) = Self.newBodyName(for: key)
        let directory: FileDescriptor
        switch anchor.makeDirectories(directoryPath) {
        case .success(let fd): directory = fd
        case .failure(let error):
            temp.discard()
            throw StoreError.cannotWrite(root.appending(directoryPath), StoreError.explainWrite(error))
        }
        guard let st = temp.status() else {
            temp.discard()
            throw StoreError.cannotWrite(temp.path, "the temporary body vanished before it was installed (removed by a prune?)")
        }
        var relative = directoryPath + [UInt8(ascii: "/")] + name
        var renamed = false
        let record: NativeRecord
        let previous: NativeRecord?
        do {
            (record, previous) = try writeIndex { db -> (NativeRecord, NativeRecord?) in
                var installed: (NativeRecord, NativeRecord?)!
                try db.inTransaction(.immediate) {
                    TestPoint.reach("put.beforeRename")
                    // Unique by construction; a collision (2^-64) draws another name. (A retry
                    // after a full disk finds the body already in place.)
                    while !renamed {
                        do {
                            try temp.install(as: name, in: directory, replacing: false)
                            renamed = true
                        } catch StoreError.cannotWrite(_, let text) where text == Errno.exists.description {
                            (directoryPath, name) = Self.newBodyName(for: key)
                            relative = directoryPath + [UInt8(ascii: "/")] + name
                        }
                    }
                    _ = Sys.fsync(directory.raw)
                    TestPoint.reach("put.afterRename")
                    let now = FileTime.now.timeInterval
                    let row = NativeRecord(
                        url: key.normalized, bodyPath: String(decoding: relative, as: UTF8.self), allocatedBytes: st.allocatedBytes,
                        apparentBytes: temp.length, sha256: sha256, contentType: options.contentType, etag: options.etag,
                        lastModified: options.lastModified, downloadStarted: started.timeInterval, downloadCompleted: now,
                        expires: options.lifetime.map { now + $0 }, lifetimeSeconds: options.lifetime, sliding: options.sliding,
                        lastAccess: now)
                    let old = try NativeRecord.fetchOne(db, key: key.normalized)
                    try row.save(db)
                    if hasResponseColumns {
                        try db.execute(sql: "UPDATE entries SET status = ?, vary = ? WHERE url = ?",
                                       arguments: [options.status, options.vary, key.normalized])
                    }
                    installed = (row, old)
                    return .commit
                }
                return installed
            }
        } catch {
            // Not committed: the new body is nobody's; the old entry is untouched.
            if renamed { _ = Deleter(anchor).remove(relative, expecting: nil) } else { temp.discard() }
            throw error
        }
        TestPoint.reach("put.afterCommit")
        // The previous body is garbage now; its name was its row's alone.
        if let previous, previous.bodyPath != record.bodyPath, Self.isSafeRelativePath(previous.bodyPath) {
            _ = Deleter(anchor).remove(Array(previous.bodyPath.utf8), expecting: nil)
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

    /// Notes a use: last access becomes now and, for sliding entries, expiry now + lifetime.
    /// A read-only store, a full disk or a busy index skips it: reading must not fail for
    /// want of it. (Throws only for a string that is not a URL.)
    public func recordHit(url: String, now: FileTime = .now) throws {
        guard let key = URLKey(url) else { throw StoreError.notAURL(url) }
        guard readOnlyReason == nil else { return }
        do {
            try writeIndex { db in
                try db.execute(sql: """
                    UPDATE entries SET last_access = ?,
                      expires = CASE WHEN sliding = 1 AND lifetime_seconds IS NOT NULL THEN ? + lifetime_seconds ELSE expires END
                    WHERE url = ?
                    """, arguments: [now.timeInterval, now.timeInterval, key.normalized])
            }
        } catch {
            return // the body was served; a hit not noted costs only some recency
        }
    }

    // MARK: The reserve

    /// Keeps `.reserve` (`reserveBytes`, 128 KiB of real blocks) when there is room to spare
    /// (four times that): with the disk full, SQLite cannot grow its write-ahead log to delete
    /// a single row, and giving this file back lets a prune start freeing space (a batch of
    /// row deletions needs a few pages of log; each batch's bodies then free more).
    func keepReserve() {
        guard readOnlyReason == nil, !anchor.exists(Array(Self.reserveName.utf8)),
              case .success(let available) = Sys.availableBytes(anchor.fd), available > 4 * Int64(Self.reserveBytes) else { return }
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
