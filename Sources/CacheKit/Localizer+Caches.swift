/// Localizes pages against caches on disk, in any recognised format.
public final class Localizer {
    private let caches: [any CacheFormat]
    private var memo: [String: CachedCopy?] = [:]
    /// Batches answered but not yet in `memo`.
    private var unmemoised: [(urls: [String], copies: [CachedCopy?])] = []
    private let now: FileTime

    /// Opens each cache root once.
    public init(caches roots: [RawPath], now: FileTime = .now) throws {
        self.caches = try roots.map { root in
            guard root.exists else { throw StoreError.cannotRead(root, "No such file or directory (no cache here)") }
            return try CacheFormats.open(root.canonical)
        }
        self.now = now
    }

    deinit {
        // Tens of thousands of memoised copies: freed on another thread.
        WorkerPool.drop(takeTables())
    }

    /// The memo and the batches not yet in it, leaving both empty (not inlined: see
    /// `Droppable`).
    @inline(never)
    private func takeTables() -> Droppable {
        defer { (memo, unmemoised) = ([:], []) }
        return Droppable((memo, unmemoised))
    }

    /// Hands what the caches answered to `WorkerPool.drop` once the copies are made from it
    /// (not inlined: see `Droppable`): freed where the lookup ends, its 20,000 paths and notes
    /// were released one by one on the thread deciding the page's references.
    @inline(never)
    private static func drop(_ found: inout [Answers]) {
        let held = Droppable(found)
        found = []
        WorkerPool.drop(held)
    }

    /// A resolved reference as caches key it: without its `#fragment`.
    public static func cacheKey(_ resolved: String) -> String {
        // By bytes: a search by Characters breaks graphemes, measured ~0.5 µs a URL.
        guard let hash = resolved.utf8.firstIndex(of: UInt8(ascii: "#")) else { return resolved }
        return String(resolved[..<hash])
    }

    /// Localizes one page: the first fresh copy in the caches, in order, wins; else an
    /// expired one (used with `allowStale`).
    public func localize(_ page: [UInt8], options: LocalizeOptions) -> LocalizeResult {
        let folder = options.assets.map(AssetFolder.init)
        var result = withLocators(0, []) { locators in
            PageRewriter(placer: folder).rewrite(
                page, options: options,
                lookupSharing: { urls, loop in
                    // Memoised across pages (the rewriter itself asks for each URL once); a batch
                    // joins the memo only when another lookup comes, which one page seldom makes.
                    for batch in unmemoised {
                        memo.reserveCapacity(memo.count + batch.urls.count)
                        for (url, copy) in zip(batch.urls, batch.copies) { memo[url] = .some(copy) }
                    }
                    unmemoised = []
                    // With nothing memoised (a first page), the answers are the copies found,
                    // one array for both: no index map, no second array of 20,000 copies.
                    var answers: [CachedCopy?] = []
                    var unknown: [String] = []
                    var unknownAt: [Int] = []
                    let firstPage = memo.isEmpty
                    if firstPage {
                        unknown = urls
                    } else {
                        answers = Array(repeating: nil, count: urls.count)
                        for (i, url) in urls.enumerated() {
                            if let known = memo[url] {
                                answers[i] = known
                            } else {
                                unknown.append(url)
                                unknownAt.append(i)
                            }
                        }
                    }
                    guard !unknown.isEmpty else { return answers }
                    var copies: [CachedCopy?] = []
                    copies.reserveCapacity(unknown.count)
                    var found = locators.map { $0(unknown, loop) }
                    defer { Self.drop(&found) }
                    for j in unknown.indices {
                        var stale: CachedCopy?
                        var fresh: CachedCopy?
                        for located in found {
                            guard let entry = located.at(j) else { continue }
                            if entry.state == .fresh {
                                fresh = CachedCopy(path: entry.path, isFresh: true)
                                break
                            }
                            if entry.state == .expired && stale == nil {
                                stale = CachedCopy(path: entry.path, isFresh: false, note: entry.reason)
                            }
                        }
                        copies.append(fresh ?? stale)
                    }
                    unmemoised.append((unknown, copies))
                    if firstPage { return copies }
                    for (j, i) in unknownAt.enumerated() { answers[i] = copies[j] }
                    return answers
                })
        }
        // The caller commits the page after this: what it points at must be on disk first.
        do { try folder?.flush() } catch let StoreError.cannotWrite(_, cause) {
            result.assetsNotDurable = cause
        } catch {
            result.assetsNotDurable = "\(error)"
        }
        return result
    }

    /// What a cache holds for a URL, as far as localizing goes.
    private struct Located {
        var path: RawPath
        var state: EntryState
        var reason: String
    }

    /// What a cache answered for many URLs: the `i`th URL's copy, made when asked (an array
    /// of them, made whole, was a third array of 20,000 paths for each lookup).
    private struct Answers {
        let at: (Int) -> Located?
    }

    /// Looks up many URLs in one cache, answering in their order (checking files on disk
    /// through the `LoopRunner`).
    private typealias Locator = ([String], LoopRunner) -> Answers

    /// One locator per cache; native stores answer inside one read transaction.
    private func withLocators(_ index: Int, _ locators: [Locator], _ body: ([Locator]) -> LocalizeResult)
        -> LocalizeResult
    {
        guard index < caches.count else { return body(locators) }
        let cache = caches[index]
        let context = InspectionContext(now: now)
        if let batch = cache as? BodyBatchLookup,
            let result = try? batch.withBodyLookups(
                now: now,
                { lookup in
                    withLocators(
                        index + 1,
                        locators + [
                            { urls, loop in
                                let bodies = lookup(urls, loop)
                                return Answers {
                                    bodies[$0].map { Located(path: $0.path, state: $0.state, reason: $0.reason) }
                                }
                            }
                        ], body)
                })
        {
            return result
        }
        return withLocators(
            index + 1,
            locators + [
                { urls, _ in
                    // Only a body in a file of its own can be pointed at (not one inside a database).
                    let located = urls.map { url in
                        (try? cache.locate(url: url, context)).flatMap { found in
                            found.flatMap {
                                $0.inlineBody || $0.relativePath == nil
                                    ? nil : Located(path: $0.path, state: $0.state, reason: $0.reason)
                            }
                        }
                    }
                    return Answers { located[$0] }
                }
            ], body)
    }
}
