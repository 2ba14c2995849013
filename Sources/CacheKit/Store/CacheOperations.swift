/// A body ready to be read, already checked against what the cache recorded.
public struct CachedBody: Sendable {
    public var path: RawPath
    public var entry: CacheEntry

    /// Streams the body in chunks.
    public func write(_ sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        try FileIO.stream(path, sink)
    }
}

/// Reading entries for `cat` (and later `localize`), in any recognised format.
public enum CacheReader {
    /// The body cached for `url` under `root`: fresh, or expired with `allowStale`.
    /// Native bodies are checked against the recorded size and SHA-256 first, and a hit is
    /// recorded (last access; sliding expiry moves).
    public static func body(url: String, root: RawPath, allowStale: Bool, now: FileTime = .now) throws -> CachedBody {
        guard URLKey(url) != nil else { throw StoreError.notAURL(url) }
        guard root.exists else { throw StoreError.cannotRead(root, "No such file or directory (no cache here)") }
        let kind = CacheFormats.detect(root)
        if kind == .native {
            let store = try NativeStore.open(root, create: false)
            guard let hit = try store.lookup(url: url, now: now) else { throw StoreError.notFound(url) }
            if !hit.isFresh && !allowStale { throw StoreError.stale(url, expired: hit.record.expires.map(FileTime.init(timeInterval:))) }
            guard case .success(let st) = Sys.lstat(path: hit.bodyPath), st.isRegular else {
                throw StoreError.cannotRead(hit.bodyPath, "cached body is missing (corrupted entry for \(url))")
            }
            guard st.size == hit.record.apparentBytes, try FileIO.sha256(of: hit.bodyPath) == hit.record.sha256 else {
                throw StoreError.cannotRead(hit.bodyPath, "cached body does not match its recorded size and checksum (corrupted entry for \(url))")
            }
            try store.recordHit(url: url, now: now)
            let entry = CacheEntry(url: hit.record.url, path: hit.bodyPath, allocatedBytes: st.allocatedBytes, apparentBytes: st.size,
                                   modified: st.modified, state: hit.isFresh ? .fresh : .expired, reason: hit.isFresh ? "fresh" : "expired",
                                   indexKey: hit.record.url)
            return CachedBody(path: hit.bodyPath, entry: entry)
        }
        let format = try CacheFormats.open(root, as: kind)
        guard let entry = try format.locate(url: url, InspectionContext(now: now)) else { throw StoreError.notFound(url) }
        switch entry.state {
        case .fresh: break
        case .expired where allowStale: break
        case .expired: throw StoreError.stale(url, expired: entry.expires)
        default: throw StoreError.cannotRead(entry.path, "\(entry.state.rawValue) entry for \(url): \(entry.reason)")
        }
        return CachedBody(path: entry.path, entry: entry)
    }
}

/// What `clear` did.
public struct ClearOutcome: Sendable {
    public var removed = 0
    public var freedBytes: Int64 = 0
    /// Entries indexed outside the cache: reported, never deleted.
    public var keptOutside: [CacheEntry] = []
}

/// Emptying a cache in any recognised format.
public enum CacheClearer {
    /// Removes every entry under `root`, keeping the root, its tag and an empty index.
    public static func clear(_ root: RawPath, as kind: CacheFormatKind? = nil) throws -> ClearOutcome {
        guard root.exists else { throw StoreError.cannotRead(root, "No such file or directory") }
        let format = try CacheFormats.open(root, as: try DeletableRoot.check(root, as: kind))
        let entries = try format.entries(InspectionContext(graceSeconds: 0))
        var outcome = ClearOutcome()
        outcome.keptOutside = entries.filter { $0.state == .outside }
        let removable = entries.filter { $0.state != .outside }
        outcome.removed = removable.count
        outcome.freedBytes = removable.reduce(0) { $0 + $1.allocatedBytes }
        switch format {
        case let native as NativeFormat:
            try native.store.clear()
        case let plist as PlistDownloadCache:
            let keep = Set(outcome.keptOutside.compactMap(\.indexKey))
            _ = try plist.removingItems(Set(plist.items.keys).subtracting(keep))
            for entry in removable { FileIO.removeFile(entry.path) }
        default:
            for entry in removable where entry.path.bytes.starts(with: root.bytes) { FileIO.removeFile(entry.path) }
        }
        return outcome
    }
}
