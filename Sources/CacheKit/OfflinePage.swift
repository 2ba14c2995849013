import URLStandard

/// The steps of saving a page for offline reading that download (`localize --fetch`): the page
/// itself from its URL, the images it references that are missing or stale, and, for
/// `--styles`, what its stylesheets reference — each followed by localizing again against the
/// refreshed caches. The downloading is the caller's (`fetch`), so it can show progress and
/// be cancelled; everything else is here.
public enum OfflinePage {
    /// Downloads URLs into the store the page's caches include, by HTTP's caching rules; one
    /// result per URL, in order.
    public typealias Fetch = ([String]) async -> [FetchResult]

    /// A download was interrupted (Ctrl-C): nothing more is fetched and no page is written.
    public struct Interrupted: Error, Sendable {
        /// What the interrupted fetch gave, for the caller's report.
        public var results: [FetchResult]
    }

    /// The page at `url` (written as `text`), fetched first: nil when it is now in the store,
    /// to be read from there (`PageSource.read`); a page the server said not to store is used
    /// once, from its temporary body, and not kept.
    public static func fetchPage(_ text: String, url: StandardURL, fetch: Fetch) async throws -> PageSource? {
        let fetched = await fetch([text])
        if fetched.contains(where: { $0.interrupted }) { throw Interrupted(results: fetched) }
        guard let result = fetched.first, result.succeeded else {
            throw StoreError.cannotRead(RawPath(text), fetched.first?.error ?? "failed")
        }
        guard let temp = result.unstoredBody else { return nil }
        defer { FileIO.removeTemporary(temp) }
        var page = PageSource(
            bytes: try FileIO.readAll(temp, limit: PageSource.largestPage),
            url: result.responseURL ?? url.hrefWithoutFragment, label: URLKey.redacted(text),
            fileName: PageSource.fileName(for: url), isFile: false, mode: nil)
        page.contentType = result.contentType
        return page
    }

    /// The page localized against `caches`; then what is missing or stale is fetched and the
    /// page localized again, using what was just fetched or revalidated even when its lifetime
    /// is already over (`LocalizeOptions.justFetched`). Returns the final result and the
    /// results of the fetch (empty when nothing needed one).
    public static func localize(
        _ page: PageSource, options: inout LocalizeOptions, caches: [RawPath], fetch: Fetch
    ) async throws -> (result: LocalizeResult, fetched: [FetchResult]) {
        let result = try Localizer(caches: caches).localize(page.bytes, options: options)
        var seen = Set<String>()
        let wanted = result.resolvedURLs(.missing, .stale).map(Localizer.cacheKey).filter { seen.insert($0).inserted }
        guard !wanted.isEmpty else { return (result, []) }
        let fetched = await fetch(wanted)
        if fetched.contains(where: { $0.interrupted }) { throw Interrupted(results: fetched) }
        options.justFetched = Set(zip(wanted, fetched).filter { $0.1.succeeded }.map(\.0))
        return (try Localizer(caches: caches).localize(page.bytes, options: options), fetched)
    }

    /// What the cache recorded of each stylesheet found, by the URL looked up (one run of
    /// `saveStyles`): the URL its response came from, and its `Content-Type`; and the caches,
    /// opened once a pass (a sheet may hold thousands of references; a fetch between passes
    /// may have made the store).
    private final class Origins {
        var byURL: [String: String] = [:]
        var contentTypes: [String: String] = [:]
        var opened: [CacheReader.Opened?] = []
    }

    /// The page's external stylesheets saved in `folder` with what they reference (see
    /// `StylesheetSaver`), copies taken from `caches`; with `fetch`, what is missing is fetched
    /// and the pass made again — an `@import` chain needs one round per level, at most four.
    /// Returns the page pointing at the saved stylesheets, the report, and every fetch result.
    public static func saveStyles(
        of result: LocalizeResult, into folder: RawPath, base: String, outputDirectory: RawPath, caches: [RawPath],
        allowStale: Bool, fetch: Fetch?
    ) async throws -> (page: [UInt8], report: StylesheetSaver.Report, fetched: [FetchResult]) {
        // Where each sheet found came from (redirects) and its Content-Type, noted as it is looked up.
        let origins = Origins()
        let lookup: StylesheetSaver.Lookup = { url in
            for case let cache? in origins.opened {
                if let body = try? cache.body(url: url, allowStale: allowStale) {
                    origins.byURL[url] = body.responseURL
                    origins.contentTypes[url] = body.contentType
                    return body.path
                }
            }
            return nil
        }
        var output: [UInt8] = []
        result.writeOutput { output += $0 }
        let assets = AssetFolder(folder)
        let saver = StylesheetSaver(
            assets: assets, lookup: lookup, read: { try? FileIO.readAll($0) }, origin: { origins.byURL[$0] },
            contentType: { origins.contentTypes[$0] },
            prefetch: { urls in for case let cache? in origins.opened { cache.prefetch(urls) } })
        func pass() -> (page: [UInt8], report: StylesheetSaver.Report) {
            origins.opened = caches.map { try? CacheReader.Opened($0, batchingHits: true) }
            defer {
                for case let cache? in origins.opened { cache.recordHits() }
                origins.opened = []
            }
            return saver.save(
                page: output, base: base, outputDirectory: outputDirectory, charset: result.charset.encoding)
        }
        var saved = pass()
        var fetchedAll: [FetchResult] = []
        var tried = Set<String>()
        for _ in 0..<4 {
            guard let fetch else { break }
            let wanted = saved.report.missing.filter { tried.insert($0).inserted }
            guard !wanted.isEmpty else { break }
            let fetched = await fetch(wanted)
            fetchedAll += fetched
            if fetched.contains(where: { $0.interrupted }) { throw Interrupted(results: fetchedAll) }
            saved = pass()
        }
        try assets.flush()  // before the page pointing at them is committed
        return (saved.page, saved.report, fetchedAll)
    }
}
