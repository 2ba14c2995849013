import ArgumentParser
import CacheKit
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `cachectl localize`: image references pointed at cached copies, nothing else changed.
struct Localize: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "localize",
        abstract: "Rewrite a page's image references to locally cached copies, changing nothing else.",
        discussion: """
            Parses each page with libxml2, finds every image reference (img src/srcset, \
            picture > source srcset, input type=image, icons, video poster, SVG image, \
            style url(…), lazy data-src/-srcset/-original/-lazy-src/-lazy-srcset), resolves it \
            against the base, and rewrites the ones with a fresh copy in a given cache to a \
            relative path (or file:// URL with --absolute). The output is the input byte for \
            byte except those values. A PAGE that is an http(s) URL is read from the cache.
            """)

    @Argument(help: "HTML files, '-' for stdin, or the URL of a page whose body is in the cache.", completion: .file())
    var pages: [String]
    @Option(
        name: .customLong("cache"),
        help: "A cache to take images from (any recognised format); repeatable (default: cachectl's own store).")
    var caches: [String] = []
    @Option(
        name: .long, help: "The page's URL, for relative references (default: the page's cache URL, else its file URL)."
    ) var baseURL: String?
    @Option(name: [.customShort("o"), .long], help: "Write the result here (one page only).", completion: .file())
    var output: String?
    @Option(name: .long, help: "Write each result into this directory under the input's name.", completion: .directory)
    var outputDir: String?
    @Flag(name: .long, help: "Replace each input file (atomically, permissions kept).") var inPlace = false
    @Option(
        name: .long,
        help:
            "Place the images the page is pointed at in this folder (hard links where possible, else copies), so the page does not depend on the cache (default with --output-dir: <page>_files beside each page)."
    )
    var assets: String?
    @Flag(name: .long, help: "With --output-dir: point into the cache instead of making <page>_files folders.")
    var noAssets = false
    @Flag(
        name: .long,
        help:
            "Also save external stylesheets (link rel=stylesheet) in the assets folder, their url() and @import references localized (with --fetch, fetched too)."
    )
    var styles = false
    @Flag(name: .long, help: "Use file:// URLs instead of relative paths.") var absolute = false
    @Flag(name: .long, help: "Also use expired cached copies.") var allowStale = false
    @Flag(name: .long, help: "Give lazy images a real src/srcset pointing at the local copy.") var eager = false
    @Option(name: .long, help: "Decode the page as this charset (overrides BOM-less declarations).") var charset:
        String?
    @Flag(name: .long, help: "Exit 1 when any image stays remote.") var requireAll = false
    @Flag(name: .long, help: "Print every reference as JSON on stdout (needs -o, --output-dir or --in-place).")
    var json = false
    @Flag(
        name: .long,
        help:
            "First download the images not fresh in the cache into the first --cache (a cachectl store, created if need be)."
    )
    var fetch = false
    @Option(name: .long, help: "With --fetch: downloads at once (default: 4 × cores).") var jobs: Int?

    func validate() throws {
        if pages.isEmpty { throw ValidationError("give at least one page.") }
        if [output != nil, outputDir != nil, inPlace].filter({ $0 }).count > 1 {
            throw ValidationError("-o, --output-dir and --in-place cannot be combined.")
        }
        if pages.count > 1 && output != nil {
            throw ValidationError("-o takes one page; use --output-dir for several.")
        }
        if pages.filter({ $0 == "-" }).count > 1 { throw ValidationError("'-' (stdin) can be given once.") }
        if inPlace && pages.contains("-") { throw ValidationError("--in-place needs files; '-' is stdin.") }
        if pages.count > 1 && output == nil && outputDir == nil && !inPlace {
            throw ValidationError("several pages need --output-dir or --in-place.")
        }
        if json && output == nil && outputDir == nil && !inPlace {
            throw ValidationError(
                "--json prints the report on stdout: give -o, --output-dir or --in-place for the page.")
        }
        if let charset, Charset.canonicalName(charset) == nil {
            throw ValidationError("--charset: unknown charset '\(charset)'.")
        }
        if let baseURL, URLKey(baseURL) == nil {
            throw ValidationError("--base-url: '\(baseURL)' is not an absolute URL.")
        }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
        if assets != nil && noAssets { throw ValidationError("--assets and --no-assets: choose one.") }
        if assets != nil && pages.count > 1 {
            throw ValidationError("--assets takes one page; --output-dir gives each page its own folder.")
        }
        if jobs != nil && !fetch { throw ValidationError("--jobs goes with --fetch.") }
    }

    /// The store `--fetch` downloads into: the first cache, a cachectl store or a new or empty
    /// directory (the store refuses any other folder).
    private func fetchStore(_ roots: [RawPath]) throws -> NativeStore {
        do { return try NativeStore.open(roots[0], create: true) } catch let error as StoreError {
            throw StoreError.unsupported("--fetch downloads into the first --cache: \(error)")
        }
    }

    func run() throws {
        let defaultStore = CacheLocations.defaultStore()
        // No store yet (and none to fetch into): every image is simply missing.
        let cacheRoots =
            !caches.isEmpty
            ? RawArguments.paths(caches)
            : !fetch && DefaultStore.isAbsent(defaultStore, defaulted: true) ? [] : [defaultStore]
        let store = fetch ? try reporting { try fetchStore(cacheRoots) } : nil
        var localizer = try reporting { try Localizer(caches: cacheRoots) }
        let inputs = RawArguments.paths(pages)
        var failed = false
        var remote = false
        var reports: [LocalizeJSON.Page] = []
        for (text, input) in zip(pages, inputs) {
            do {
                var fetchedPage: PageSource?
                if let store, text != "-", let url = StandardURL(text), url.isHTTP, !input.exists {
                    fetchedPage = try fetchPage(text, url: url, store: store)
                    localizer = try reporting { try Localizer(caches: cacheRoots) }
                }
                let page =
                    try fetchedPage ?? PageSource.read(text, input: input, caches: cacheRoots, allowStale: store != nil)
                let destination = try destinationFor(input, page: page)
                var options = localizeOptions(page: page, input: input, destination: destination)
                var result = localizer.localize(page.bytes, options: options)
                if let store, try fetchMissing(result, into: store, options: &options) {
                    // Localized again against the refreshed caches.
                    localizer = try reporting { try Localizer(caches: cacheRoots) }
                    result = localizer.localize(page.bytes, options: options)
                }
                var styled: (page: [UInt8], report: StylesheetSaver.Report)?
                if styles {
                    styled = try saveStyles(
                        result, page: page, destination: destination, options: options, caches: cacheRoots, store: store
                    )
                }
                try write(result, styled: styled?.page, page: page, to: destination.file)
                if let path = destination.file {
                    pin(path, result: result, assets: options.assets != nil, caches: cacheRoots)
                }
                Output.error(Self.summary(page, result, assets: options.assets, styles: styled?.report))
                if result.count(.missing) + result.count(.stale) > 0 { remote = true }
                if json {
                    reports.append(LocalizeJSON.Page(page: page.label, output: destination.file, result: result))
                }
                // Kept past the end of the run: the process exits right after the last page,
                // and freeing a large page's tens of thousands of references first is work
                // for nothing (measured ~5 ms of a 150 ms run on a 10 MB page).
                KeptUntilExit.value = (result, page)
            } catch let error as StoreError {
                Output.error(error.description)
                failed = true
            }
        }
        if json { try Output.write(json: LocalizeJSON(pages: reports)) }
        Output.flush()
        if failed || (requireAll && remote) { throw ExitStatus.failure }
    }

    /// One step from a URL: the page itself is fetched first (by the same rules; a page the
    /// server says not to store is used once and not kept). Nil: it is now in the store.
    private func fetchPage(_ text: String, url: StandardURL, store: NativeStore) throws -> PageSource? {
        var pageOptions = FetchOptions()
        pageOptions.keepUnstoredBodies = true
        let fetched = FetchRun.run([text], store: store, options: pageOptions)
        if fetched.contains(where: { $0.interrupted }) { throw ExitStatus.interrupted }
        guard let result = fetched.first, result.succeeded else {
            throw StoreError.cannotRead(RawPath(text), fetched.first?.error ?? "failed")
        }
        guard let temp = result.unstoredBody else { return nil }
        defer { FileIO.removeTemporary(temp) }
        let name = url.path.split(separator: "/").last.map(String.init) ?? "index.html"
        return PageSource(
            bytes: try FileIO.readAll(temp), url: url.hrefWithoutFragment, label: text,
            fileName: Array(name.utf8), isFile: false, mode: nil)
    }

    /// The options for one page, from the command line and where its output goes.
    private func localizeOptions(
        page: PageSource, input: RawPath, destination: (file: RawPath?, directory: RawPath)
    ) -> LocalizeOptions {
        var options = LocalizeOptions()
        options.pageURL = baseURL ?? page.url
        options.outputDirectory = destination.directory
        options.absolute = absolute
        options.allowStale = allowStale
        options.eager = eager
        options.charset = charset
        options.pageDirectory = page.isFile ? input.canonical.parentDirectory : nil
        options.absolutizeWhenMoved = true
        if let assets {
            options.assets = RawArguments.paths([assets])[0]
        } else if outputDir != nil, !noAssets, let file = destination.file {
            // As browsers save a page: page.html beside page_files/.
            var stem = file.lastComponent
            if let dot = stem.lastIndex(of: UInt8(ascii: ".")), dot > 0 { stem = Array(stem[..<dot]) }
            options.assets = destination.directory.appending(stem + Array("_files".utf8))
        }
        return options
    }

    /// `--fetch`: what is missing or stale is fetched into `store`; what succeeded is used
    /// even if its lifetime was zero (`justFetched`). True when there was anything to fetch.
    private func fetchMissing(_ result: LocalizeResult, into store: NativeStore, options: inout LocalizeOptions)
        throws -> Bool
    {
        var seen = Set<String>()
        let wanted = result.references.filter { $0.outcome == .missing || $0.outcome == .stale }
            .compactMap { $0.resolved.map(Localizer.cacheKey) }.filter { seen.insert($0).inserted }
        guard !wanted.isEmpty else { return false }
        var fetchOptions = FetchOptions()
        if let jobs { fetchOptions.jobs = jobs }
        let fetched = FetchRun.run(wanted, store: store, options: fetchOptions)
        if fetched.contains(where: { $0.interrupted }) {
            Output.error("interrupted: " + FetchPresenter.summary(fetched) + "; no page written")
            throw ExitStatus.interrupted
        }
        for failure in fetched where !failure.succeeded {
            Output.error("\(failure.url): \(failure.error ?? "failed")")
        }
        options.justFetched = Set(zip(wanted, fetched).filter { $0.1.succeeded }.map(\.0))
        return true
    }

    /// The page written to `file` (atomically; `--in-place` keeps its mode), else to stdout.
    private func write(_ result: LocalizeResult, styled: [UInt8]?, page: PageSource, to file: RawPath?) throws {
        if let path = file {
            if let styled {
                try FileIO.writeAtomically(path, styled, mode: inPlace ? page.mode : nil)
            } else {
                try FileIO.writeAtomically(path, mode: inPlace ? page.mode : nil) { try result.writeOutput($0) }
            }
        } else if let styled {
            Output.write(bytes: styled)
        } else {
            result.writeOutput { Output.write(raw: $0) }
        }
    }

    /// The page's line on stderr: `<page>: N rewritten, N missing, N stale, N skipped`, and
    /// what else was done.
    static func summary(
        _ page: PageSource, _ result: LocalizeResult, assets: RawPath?, styles: StylesheetSaver.Report?
    ) -> String {
        func n(_ o: ImageReference.Outcome) -> Int { result.count(o) }
        let placed = result.assetsLinked + result.assetsCopied
        return "\(page.label): \(n(.rewritten)) rewritten, \(n(.missing)) missing, \(n(.stale)) stale, "
            + "\(n(.skipped)) skipped"
            + (n(.local) > 0 ? ", \(n(.local)) local" : "")
            + (placed > 0 && assets != nil
                ? "; \(placed) files in \(assets!.escaped) (\(result.assetsLinked) hard links "
                    + "sharing the cache's bytes, \(result.assetsCopied) copies)" : "")
            + (result.baseNeutralized ? " (base neutralised, other relative references made absolute)" : "")
            + (result.referencesAbsolutized
                ? " (the output is not at the page's URL: other relative references made absolute)" : "")
            + (styles.map {
                "; \($0.saved) stylesheet\($0.saved == 1 ? "" : "s") saved, \($0.localized) of their references "
                    + "local, \($0.missing.count) missing"
            } ?? "")
    }

    /// `--styles`: the page's stylesheets saved in its assets folder (`<page>_files` when no
    /// other is named), with what they reference; with `--fetch`, what is missing is fetched
    /// and the pass made again (an `@import` chain needs one round per level, at most four).
    private func saveStyles(
        _ result: LocalizeResult, page: PageSource, destination: (file: RawPath?, directory: RawPath),
        options: LocalizeOptions, caches: [RawPath], store: NativeStore?
    ) throws
        -> (page: [UInt8], report: StylesheetSaver.Report)?
    {
        var stem = destination.file?.lastComponent ?? page.fileName
        if let dot = stem.lastIndex(of: UInt8(ascii: ".")), dot > 0 { stem = Array(stem[..<dot]) }
        let folder = options.assets ?? destination.directory.appending(stem + Array("_files".utf8))
        let lookup: StylesheetSaver.Lookup = { url in
            for root in caches {
                if let body = try? CacheReader.body(
                    url: url, root: root, allowStale: options.allowStale || store != nil)
                {
                    return body.path
                }
            }
            return nil
        }
        var output: [UInt8] = []
        result.writeOutput { output += $0 }
        let saver = StylesheetSaver(assets: AssetFolder(folder), lookup: lookup, read: { try? FileIO.readAll($0) })
        var pass = saver.save(
            page: output, base: options.pageURL, outputDirectory: destination.directory,
            charset: result.charset.encoding)
        var rounds = 0
        var tried = Set<String>()
        while let store, rounds < 4 {
            let wanted = pass.report.missing.filter { tried.insert($0).inserted }
            guard !wanted.isEmpty else { break }
            rounds += 1
            let fetched = FetchRun.run(wanted, store: store, options: FetchOptions())
            if fetched.contains(where: { $0.interrupted }) { throw ExitStatus.interrupted }
            for failure in fetched where !failure.succeeded {
                Output.error("\(failure.url): \(failure.error ?? "failed")")
            }
            pass = saver.save(
                page: output, base: options.pageURL, outputDirectory: destination.directory,
                charset: result.charset.encoding)
        }
        return pass
    }

    /// A page written pointing into cachectl stores pins the entries it points at (prune
    /// keeps them while the page exists); one with its own assets pins nothing.
    private func pin(_ page: RawPath, result: LocalizeResult, assets: Bool, caches: [RawPath]) {
        let urls =
            assets
            ? []
            : result.references.filter { $0.outcome == .rewritten }.compactMap { $0.resolved.map(Localizer.cacheKey) }
        for root in caches where CacheFormats.detect(root) == .native {
            do {
                try NativeStore.open(root, create: false).pin(page: page.canonical.description, urls: urls)
            } catch let error as StoreError {
                Output.error("cannot pin the entries of \(page.escaped): \(error.description)")
            } catch {
                Output.error("cannot pin the entries of \(page.escaped): \(error)")
            }
        }
    }

    private func destinationFor(_ input: RawPath, page: PageSource) throws -> (file: RawPath?, directory: RawPath) {
        if let output {
            let path = RawArguments.paths([output])[0]
            return (path, path.parentDirectory)
        }
        if let outputDir {
            // Made when missing, as `mkdir -p` would; refused when a file is in the way.
            let dir = RawArguments.paths([outputDir])[0]
            try FileIO.makeDirectories(dir)
            return (dir.appending(page.fileName), dir)
        }
        if inPlace {
            guard page.isFile else { throw StoreError.unsupported("--in-place needs a file, not a URL: \(page.label)") }
            return (input, input.parentDirectory)
        }
        return (nil, page.isFile ? input.parentDirectory : RawPath("."))
    }
}

/// A page to localize: a file, or a page body from the cache.
struct PageSource {
    var bytes: [UInt8]
    var url: String
    var label: String
    var fileName: [UInt8]
    var isFile: Bool
    var mode: mode_t?

    /// `allowStale`: a page just fetched may be stored already expired (a response that said
    /// `no-cache` or gave no lifetime): it is still the page that came.
    static func read(_ text: String, input: RawPath, caches: [RawPath], allowStale: Bool = false) throws -> PageSource {
        if text == "-" {
            // A page on stdin: relative references resolve as for a page in the current
            // directory (give --base-url for its real address); --output-dir names it stdin.html.
            let bytes = try FileIO.readStandardInput()
            let directory = RawPath(".").canonical.description
            return PageSource(
                bytes: bytes, url: "file://" + (directory.hasSuffix("/") ? directory : directory + "/") + "stdin.html",
                label: "stdin", fileName: Array("stdin.html".utf8), isFile: false, mode: nil)
        }
        if StandardURL(text)?.isHTTP == true && !input.exists {
            guard let key = URLKey(text) else { throw StoreError.notAURL(text) }
            var lastError: StoreError = .notFound(text)
            for root in caches {
                do {
                    let body = try CacheReader.body(url: text, root: root, allowStale: allowStale)
                    let bytes = try FileIO.readAll(body.path)
                    let name =
                        StandardURL(key.normalized).flatMap { $0.path.split(separator: "/").last.map(String.init) }
                        ?? "index.html"
                    return PageSource(
                        bytes: bytes, url: key.normalized, label: text, fileName: Array(name.utf8), isFile: false,
                        mode: nil)
                } catch let error as StoreError { lastError = error }
            }
            throw lastError
        }
        let bytes = try FileIO.readAll(input)
        return PageSource(
            bytes: bytes, url: "file://" + input.canonical.description, label: input.description,
            fileName: input.lastComponent, isFile: true, mode: FileIO.mode(of: input))
    }
}

/// A value left for the process's exit to reclaim (each store replaces the previous one).
private enum KeptUntilExit {
    // nonisolated(unsafe): set by the command's own thread only, never read.
    nonisolated(unsafe) static var value: Any?
}
