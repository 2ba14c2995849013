#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading entries for `cat` (and later `localize`), in any recognised format.
public enum CacheReader {
    /// The body cached for `url` under `root`: fresh, or expired with `allowStale`.
    /// Native bodies are checked against the recorded size and SHA-256 first, and a hit is
    /// recorded (last access; sliding expiry moves) unless the store is read-only.
    public static func body(url: String, root: RawPath, allowStale: Bool, now: FileTime = .now) throws -> CachedBody {
        guard let key = URLKey(url)?.normalized else { throw StoreError.notAURL(url) }
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
            // The row, its status and where it came from, in one read.
            guard let stored = try store.storedEntries([key], now: now)[key] else { throw StoreError.notFound(url) }
            let hit = stored.hit
            if stored.status != 200, stored.status != 203 {
                throw StoreError.notFound(url + " (the stored response is HTTP \(stored.status), not content)")
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
            return CachedBody(
                path: hit.bodyPath, entry: entry, anchor: anchor, contentType: hit.record.contentType,
                responseURL: stored.validatorsURL)
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
