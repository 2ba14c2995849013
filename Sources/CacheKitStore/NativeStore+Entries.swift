#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The store's entries with their states, read through the root's descriptor.

extension NativeStore {
    /// Every entry with its state: rows (fresh, expired, incomplete, corrupted, outside),
    /// `tmp/` leftovers (incomplete) and unindexed bodies (orphan).
    public func entries(_ context: InspectionContext) throws -> [CacheEntry] {
        let rows = try records()
        let pinned = (try? livePins()) ?? [:]
        var referenced = Set<[UInt8]>()
        var result: [CacheEntry] = []
        result.reserveCapacity(rows.count)
        let directories = DirectoryCache(anchor, limit: 1024)
        for row in rows {
            let relative = Array(row.bodyPath.utf8)
            var entry = CacheEntry(
                url: row.url, path: root.appending(relative), relativePath: relative, allocatedBytes: 0,
                apparentBytes: row.apparentBytes, modified: nil, lastAccess: FileTime(timeInterval: row.lastAccess),
                expires: row.expires.map(FileTime.init(timeInterval:)), state: .fresh, reason: "fresh",
                indexKey: row.url)
            entry.contentType = row.contentType
            entry.etag = row.etag
            guard Self.isSafeRelativePath(row.bodyPath) else {
                entry.relativePath = nil
                (entry.state, entry.reason) = (
                    .outside, "indexed body path \(RawPath(row.bodyPath).quoted) leads outside the cache"
                )
                result.append(entry)
                continue
            }
            let st: StatInfo?
            switch directories.status(of: relative) {
            case .success(let info): st = info
            case .failure(let error) where error.code == ELOOP || error.code == EXDEV || error.code == ENOTDIR:
                // A symlink or a mount on the way: what it names is not the cache's.
                entry.relativePath = nil
                (entry.state, entry.reason) = (
                    .outside,
                    "indexed body path \(RawPath(row.bodyPath).quoted) leads outside the cache "
                        + "(through a symlink or another file system)"
                )
                result.append(entry)
                continue
            case .failure: st = nil
            }
            referenced.insert(relative)
            entry.allocatedBytes = st?.allocatedBytes ?? 0
            entry.modified = st?.modified
            entry.identity = st.map(FileIdentity.init)
            (entry.state, entry.reason, entry.inGracePeriod) = state(of: row, body: st, context)
            if let pages = pinned[row.url], entry.state == .fresh || entry.state == .expired {
                entry.pinnedBy = pages
                entry.reason += "; pinned by \(pages.count == 1 ? pages[0] : "\(pages.count) saved pages")"
            }
            result.append(entry)
        }
        for file in FileTree.files(in: anchor, under: Array("tmp".utf8)) {
            result.append(
                Self.unindexedEntry(
                    file, context, pastGrace: (.incomplete, "leftover of an interrupted write"),
                    withinGrace: "being written (within the grace period)"))
        }
        for file in FileTree.files(in: anchor, under: Array("objects".utf8))
        where !referenced.contains(file.anchorRelative) {
            result.append(
                Self.unindexedEntry(
                    file, context, pastGrace: (.orphan, "no index entry refers to this body"),
                    withinGrace: "unindexed body within the grace period"))
        }
        return result
    }

    /// A row's state and reason, from its body's status (nil: missing) and the clock;
    /// whether it is a download still within the grace period.
    private func state(of row: NativeRecord, body st: StatInfo?, _ context: InspectionContext)
        -> (EntryState, String, Bool)
    {
        if row.downloadCompleted == nil {
            // Grace counts from the body's last write, else from the start of the download.
            let lastWrite = st?.lastWritten ?? FileTime(timeInterval: row.downloadStarted)
            if context.isOlderThanGrace(lastWrite) {
                return (.incomplete, "download last written \(Self.age(lastWrite, context)) ago never completed", false)
            }
            return (.fresh, "download in progress (within the grace period)", true)
        }
        guard let st else { return (.corrupted, "body missing", false) }
        if !st.isRegular { return (.corrupted, "body is not a regular file", false) }
        if st.size != row.apparentBytes {
            return (.corrupted, "body is \(st.size) bytes, index says \(row.apparentBytes)", false)
        }
        if context.verify, !bodyMatches(row) { return (.corrupted, "body checksum does not match the index", false) }
        if let expires = row.expires, context.now.timeInterval >= expires {
            return (.expired, "expired \(Self.age(FileTime(timeInterval: expires), context)) ago", false)
        }
        let reason =
            row.expires == nil
            ? "complete, no expiry" : "complete, expires in \(Self.span(row.expires! - context.now.timeInterval))"
        return (.fresh, reason, false)
    }

    /// Whether the row's body hashes to the recorded SHA-256.
    func bodyMatches(_ row: NativeRecord) -> Bool {
        guard case .success(let body) = openBody(row) else { return false }
        return (try? FileIO.sha256(body.raw, path: root.appending(row.bodyPath))) == row.sha256
    }

    /// A file no index row names (a temporary or an orphaned body): `pastGrace` once it was
    /// last written longer ago than the grace period, else fresh and kept (a live writer may
    /// still own it).
    private static func unindexedEntry(
        _ file: FileTree.File, _ context: InspectionContext,
        pastGrace: (EntryState, String), withinGrace: String
    ) -> CacheEntry {
        let old = context.isOlderThanGrace(file.lastWritten)
        var entry = CacheEntry(
            url: nil, path: file.path, relativePath: file.anchorRelative, allocatedBytes: file.allocatedBytes,
            apparentBytes: file.apparentBytes, modified: file.modified, state: old ? pastGrace.0 : .fresh,
            reason: old ? pastGrace.1 : withinGrace)
        entry.inGracePeriod = !old
        entry.identity = file.identity
        return entry
    }
}
