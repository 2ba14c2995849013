/// Localizes pages against caches on disk, in any recognised format.
public final class Localizer {
    private let caches: [any CacheFormat]
    private var memo: [String: CachedCopy?] = [:]
    private let now: FileTime

    /// Opens each cache root once.
    public init(caches roots: [RawPath], now: FileTime = .now) throws {
        self.caches = try roots.map { root in
            guard root.exists else { throw StoreError.cannotRead(root, "No such file or directory (no cache here)") }
            return try CacheFormats.open(PageRewriter.absolute(root))
        }
        self.now = now
    }

    /// The canonical absolute path (symlinks resolved), or the path itself.
    public static func absolutePath(_ path: RawPath) -> RawPath { PageRewriter.absolute(path) }

    /// Localizes one page: the first fresh copy in the caches, in order, wins; else an
    /// expired one (used with `allowStale`).
    public func localize(_ page: [UInt8], options: LocalizeOptions) -> LocalizeResult {
        withLocators(0, []) { locators in
            PageRewriter().rewrite(page, options: options) { url in
                if let hit = memo[url] { return hit }
                var stale: CachedCopy?
                for locate in locators {
                    guard let entry = locate(url) else { continue }
                    if entry.state == .fresh {
                        let copy = CachedCopy(path: entry.path, isFresh: true)
                        memo[url] = copy
                        return copy
                    }
                    if entry.state == .expired && stale == nil { stale = CachedCopy(path: entry.path, isFresh: false, note: entry.reason) }
                }
                memo[url] = stale
                return stale
            }
        }
    }

    /// One locate function per cache; native stores answer inside one read transaction.
    private func withLocators(_ index: Int, _ locators: [(String) -> CacheEntry?], _ body: ([(String) -> CacheEntry?]) -> LocalizeResult) -> LocalizeResult {
        guard index < caches.count else { return body(locators) }
        let cache = caches[index]
        let context = InspectionContext(now: now)
        if let native = cache as? NativeFormat,
           let result = try? native.store.withLookups(now: now, { lookup in
               withLocators(index + 1, locators + [{ url in lookup(url).map(native.entry(for:)) }], body)
           }) {
            return result
        }
        return withLocators(index + 1, locators + [{ url in try? cache.locate(url: url, context) }], body)
    }
}
