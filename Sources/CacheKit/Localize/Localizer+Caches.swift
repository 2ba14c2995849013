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

    /// A resolved reference as caches key it: without its `#fragment`.
    public static func cacheKey(_ resolved: String) -> String {
        resolved.firstIndex(of: "#").map { String(resolved[..<$0]) } ?? resolved
    }

    /// The canonical absolute path (symlinks resolved), or the path itself.
    public static func absolutePath(_ path: RawPath) -> RawPath { PageRewriter.absolute(path) }

    /// Localizes one page: the first fresh copy in the caches, in order, wins; else an
    /// expired one (used with `allowStale`).
    public func localize(_ page: [UInt8], options: LocalizeOptions) -> LocalizeResult {
        withLocators(0, []) { locators in
            PageRewriter().rewrite(page, options: options, lookupMany: { urls in
                let unknown = Array(Set(urls.filter { memo[$0] == nil }))
                var found: [[CacheEntry?]] = locators.map { _ in [] }
                if !unknown.isEmpty {
                    for (i, locate) in locators.enumerated() { found[i] = locate(unknown) }
                }
                for (j, url) in unknown.enumerated() {
                    var stale: CachedCopy?
                    var fresh: CachedCopy?
                    for entries in found {
                        guard let entry = entries[j] else { continue }
                        if entry.state == .fresh { fresh = CachedCopy(path: entry.path, isFresh: true); break }
                        if entry.state == .expired && stale == nil { stale = CachedCopy(path: entry.path, isFresh: false, note: entry.reason) }
                    }
                    memo[url] = .some(fresh ?? stale)
                }
                return urls.map { memo[$0] ?? nil }
            })
        }
    }

    /// Looks up many URLs in one cache, answering in their order.
    private typealias Locator = ([String]) -> [CacheEntry?]

    /// One locator per cache; native stores answer inside one read transaction.
    private func withLocators(_ index: Int, _ locators: [Locator], _ body: ([Locator]) -> LocalizeResult) -> LocalizeResult {
        guard index < caches.count else { return body(locators) }
        let cache = caches[index]
        let context = InspectionContext(now: now)
        if let native = cache as? NativeFormat,
           let result = try? native.store.withLookups(now: now, { lookup in
               withLocators(index + 1, locators + [{ urls in lookup(urls).map { $0.map(native.entry(for:)) } }], body)
           }) {
            return result
        }
        return withLocators(index + 1, locators + [{ urls in urls.map { try? cache.locate(url: $0, context) } }], body)
    }
}
