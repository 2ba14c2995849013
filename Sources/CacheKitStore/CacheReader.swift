#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading entries for `cat`, `localize` and `localize --styles`, in any recognised format.
public enum CacheReader {
    /// The body cached for `url` under `root`: fresh, or expired with `allowStale`.
    /// Native bodies are checked against the recorded size and SHA-256 first, and a hit is
    /// recorded (last access; sliding expiry moves) unless the store is read-only.
    public static func body(url: String, root: RawPath, allowStale: Bool, now: FileTime = .now) throws -> CachedBody {
        guard URLKey(url) != nil else { throw StoreError.notAURL(url) }  // before the cache is opened
        return try Opened(root).body(url: url, allowStale: allowStale, now: now)
    }

    /// A cache opened once for many reads: its root, its format, and (cachectl's store) its
    /// index. `localize --styles` reads a body for each reference of a stylesheet, and opening
    /// the cache for each (its format detected, its index connected and checked) took 1.3 ms:
    /// 26 s for a sheet of 20,000 `url()`s. With `batchingHits`, the hits on cachectl's store
    /// are recorded together by `recordHits()` (one transaction, one flush) instead of one
    /// transaction each; `prefetch` reads many rows in one query.
    public final class Opened {
        let anchor: AnchoredDirectory
        let kind: CacheFormatKind
        private let store: NativeStore?
        private let format: (any CacheFormat)?
        private let batchingHits: Bool
        /// Hits waiting for `recordHits()`.
        private var hits: [String] = []
        /// Rows read ahead by `prefetch`, by key; a key read ahead and absent maps to nil.
        private var prefetched: [String: NativeStore.StoredEntry?] = [:]

        /// Opens the cache at `root`; throws when there is none, or its index cannot be read.
        /// `batchingHits` (default false): see the type.
        public init(_ root: RawPath, batchingHits: Bool = false) throws {
            self.batchingHits = batchingHits
            switch AnchoredDirectory.open(root) {
            case .success(let opened): anchor = opened
            case .failure(let error) where error.code == ENOENT:
                throw StoreError.cannotRead(root, "No such file or directory (no cache here)")
            case .failure(let error): throw StoreError.cannotRead(root, error.description)
            }
            kind = CacheFormats.detect(anchor)
            if kind == .native {
                store = try NativeStore.open(anchor, create: false)
                format = nil
            } else {
                store = nil
                format = try CacheFormats.open(anchor, as: kind)
            }
        }

        /// Reads the rows of cachectl's store for `urls` in one query, for the `body` calls
        /// that follow (other formats: nothing). Rows read so are what those calls answer from.
        public func prefetch(_ urls: [String], now: FileTime = .now) {
            guard let store else { return }
            let keys = Array(Set(urls.compactMap { URLKey($0)?.normalized }).filter { prefetched[$0] == nil })
            guard !keys.isEmpty, let found = try? store.storedEntries(keys, now: now) else { return }
            for key in keys { prefetched[key] = .some(found[key]) }
        }

        /// Records the hits `body` left waiting (`batchingHits`), in one transaction.
        public func recordHits(now: FileTime = .now) {
            guard let store, !hits.isEmpty else { return }
            try? store.recordHits(urls: hits, now: now)
            hits = []
        }

        /// The body cached for `url`: fresh, or expired with `allowStale` (see
        /// `CacheReader.body(url:root:allowStale:now:)`).
        public func body(url: String, allowStale: Bool, now: FileTime = .now) throws -> CachedBody {
            guard let key = URLKey(url)?.normalized else { throw StoreError.notAURL(url) }
            if let store { return try nativeBody(store, url: url, key: key, allowStale: allowStale, now: now) }
            guard let format, let entry = try format.locate(url: url, InspectionContext(now: now)) else {
                throw StoreError.notFound(url)
            }
            switch entry.state {
            // Past its own expiry though its owner keeps it (a browser revalidates it): stale.
            case .fresh where !allowStale && entry.expires.map({ $0 <= now }) ?? false:
                throw StoreError.stale(url, expired: entry.expires)
            case .fresh: break
            case .expired where allowStale: break
            case .expired: throw StoreError.stale(url, expired: entry.expires)
            default:
                throw StoreError.cannotRead(entry.path, "\(entry.state.rawValue) entry for \(url): \(entry.reason)")
            }
            if entry.inlineBody {
                guard let bytes = try format.inlineBody(entry) else {
                    throw StoreError.cannotRead(entry.path, "the body for \(url) cannot be read")
                }
                return CachedBody(path: entry.path, entry: entry, anchor: anchor, inline: bytes)
            }
            return CachedBody(path: entry.path, entry: entry, anchor: anchor)
        }

        private func nativeBody(_ store: NativeStore, url: String, key: String, allowStale: Bool, now: FileTime) throws
            -> CachedBody
        {
            // The row, its status and where it came from, in one read (or read ahead).
            let row = try prefetched[key] ?? store.storedEntries([key], now: now)[key]
            guard let stored = row else { throw StoreError.notFound(url) }
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
            if batchingHits { hits.append(url) } else { try store.recordHit(url: url, now: now) }
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
    }
}
