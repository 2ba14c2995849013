#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A body ready to be read, already checked against what the cache recorded.
public struct CachedBody: Sendable {
    /// Where the body is.
    public var path: RawPath
    /// The entry it belongs to.
    public var entry: CacheEntry
    /// The cache's root, through which the body is read.
    let anchor: AnchoredDirectory
    /// A body held inside the cache's own database (Apple's URLCache, corelibs' archives).
    var inline: [UInt8]? = nil

    /// Streams the body in chunks (opened below the cache's root, never through a symlink).
    public func write(_ sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        if let inline { return try inline.withUnsafeBytes { try sink($0) } }
        guard let relative = entry.relativePath else { throw StoreError.cannotRead(path, "outside the cache") }
        switch anchor.open(relative, O_RDONLY | O_NONBLOCK) {
        case .success(let fd): try FileIO.stream(fd.raw, path: path, sink)
        case .failure(let error): throw StoreError.cannotRead(path, error.description)
        }
    }
}

/// Reading entries for `cat` (and later `localize`), in any recognised format.
public enum CacheReader {
    /// The body cached for `url` under `root`: fresh, or expired with `allowStale`.
    /// Native bodies are checked against the recorded size and SHA-256 first, and a hit is
    /// recorded (last access; sliding expiry moves) unless the store is read-only.
    public static func body(url: String, root: RawPath, allowStale: Bool, now: FileTime = .now) throws -> CachedBody {
        guard URLKey(url) != nil else { throw StoreError.notAURL(url) }
        let anchor: AnchoredDirectory
        switch AnchoredDirectory.open(root) {
        case .success(let opened): anchor = opened
        case .failure(let error) where error.code == ENOENT:
            throw StoreError.cannotRead(root, "No such file or directory (no cache here)")
        case .failure(let error): throw StoreError.cannotRead(root, error.description)
        }
        let kind = CacheFormats.detect(anchor)
        if kind == .native {
            let store = try NativeStore.open(anchor, create: false)
            guard let hit = try store.lookup(url: url, now: now) else { throw StoreError.notFound(url) }
            if let status = try store.response(url: url)?.status, status != 200, status != 203 {
                throw StoreError.notFound(url + " (the stored response is HTTP \(status), not content)")
            }
            if !hit.isFresh && !allowStale {
                throw StoreError.stale(url, expired: hit.record.expires.map(FileTime.init(timeInterval:)))
            }
            guard case .success(let body) = store.openBody(hit.record), case .success(let st) = Sys.fstat(body.raw),
                st.isRegular
            else {
                throw StoreError.cannotRead(hit.bodyPath, "cached body is missing (corrupted entry for \(url))")
            }
            guard st.size == hit.record.apparentBytes,
                try FileIO.sha256(body.raw, path: hit.bodyPath) == hit.record.sha256
            else {
                throw StoreError.cannotRead(
                    hit.bodyPath,
                    "cached body does not match its recorded size and checksum (corrupted entry for \(url))")
            }
            try store.recordHit(url: url, now: now)
            var entry = CacheEntry(
                url: hit.record.url, path: hit.bodyPath, relativePath: Array(hit.record.bodyPath.utf8),
                allocatedBytes: st.allocatedBytes, apparentBytes: st.size, modified: st.modified,
                state: hit.isFresh ? .fresh : .expired, reason: hit.isFresh ? "fresh" : "expired",
                indexKey: hit.record.url)
            entry.identity = FileIdentity(st)
            return CachedBody(path: hit.bodyPath, entry: entry, anchor: anchor)
        }
        let format = try CacheFormats.open(anchor, as: kind)
        guard let entry = try format.locate(url: url, InspectionContext(now: now)) else {
            throw StoreError.notFound(url)
        }
        switch entry.state {
        case .fresh: break
        case .expired where allowStale: break
        case .expired: throw StoreError.stale(url, expired: entry.expires)
        default: throw StoreError.cannotRead(entry.path, "\(entry.state.rawValue) entry for \(url): \(entry.reason)")
        }
        if entry.inlineBody {
            guard let bytes = try format.inlineBody(entry) else {
                throw StoreError.cannotRead(entry.path, "the body for \(url) cannot be read")
            }
            return CachedBody(path: entry.path, entry: entry, anchor: anchor, inline: bytes)
        }
        return CachedBody(path: entry.path, entry: entry, anchor: anchor)
    }
}

/// Emptying a cache in any recognised format.
public enum CacheClearer {
    /// Removes every entry under `root`, keeping the root, its tag and an empty index;
    /// entries indexed outside the cache are kept and reported. The same engine as `prune`:
    /// the root opened once and checked (`DeletableRoot`), its lock taken, every file
    /// deleted through its descriptor after being checked again. A native store's writers'
    /// lock is taken exclusively first, so no body is being written meanwhile. An application's
    /// own databases found in the cache are removed only when `kind` is given (`--format`).
    /// - Parameters:
    ///   - root: the cache's root.
    ///   - kind: its format; nil (the default) to recognise it.
    ///   - dryRun: plan only; nothing changes, not even an access time. Default false.
    public static func clear(_ root: RawPath, as kind: CacheFormatKind? = nil, dryRun: Bool = false) throws
        -> PruneReport
    {
        let anchor = try DeletableRoot.anchor(root, dryRun: dryRun)
        let named = kind != nil
        let kind = try DeletableRoot.check(anchor, as: kind)
        let lock = dryRun ? nil : try Pruner.lockRoot(anchor, onWait: {})
        let format = try CacheFormats.open(anchor, as: kind, snapshot: dryRun, declaredPlain: named && kind == .plain)
        let writers = dryRun ? nil : try format.excludeWriters()
        defer { withExtendedLifetime((lock, writers)) {} }
        TestPoint.reach("clear.locked")
        let entries = try format.entries(InspectionContext(graceSeconds: 0))
        let plan = PrunePolicy.planClear(entries, named: named)
        TestPoint.reach("clear.planned")
        if dryRun { return PruneReport(root: root, format: format.kind, plan: plan, outcome: nil) }
        return PruneReport(
            root: root, format: format.kind, plan: plan, outcome: PruneExecutor.execute(plan, on: format))
    }
}
