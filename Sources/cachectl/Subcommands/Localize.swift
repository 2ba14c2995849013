import ArgumentParser
import CacheKit
import CacheKitSystem
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `cachectl localize`: image references pointed at cached copies, nothing else changed.
struct Localize: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "localize",
        abstract: "Rewrite a page's image references to locally cached copies, changing nothing else.",
        discussion: """
            Parses each page with libxml2, finds every image reference (img src/srcset, \
            picture > source srcset, input type=image, icons, video poster, SVG image, \
            body and table backgrounds, style url(…), lazy \
            data-src/-srcset/-original/-lazy-src/-lazy-srcset), resolves it against the base, \
            and rewrites the ones with a fresh copy in a given cache to a relative path (or \
            file:// URL with --absolute). The output is the input byte for byte except those \
            values. A PAGE that is an http(s) URL is read from the cache (in the charset it was \
            served with, unless a BOM or --charset says otherwise).
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
    @Option(
        name: [.customShort("o"), .long], help: "Write the result here (one page only; '-' is stdout).",
        completion: .file())
    var output: String?
    @Option(name: .long, help: "Write each result into this directory under the input's name.", completion: .directory)
    var outputDir: String?
    @Flag(name: .long, help: "Replace each input file (atomically, permissions kept).") var inPlace = false
    @Option(
        name: .long,
        help:
            """
            Place the images the page is pointed at in this folder (clones or hard links where possible, else \
            copies), so the page does not depend on the cache (default with --output-dir: <page>_files beside each \
            page).
            """
    )
    var assets: String?
    @Flag(name: .long, help: "With --output-dir: point into the cache instead of making <page>_files folders.")
    var noAssets = false
    @Flag(
        name: .long,
        help:
            """
            Also save external stylesheets (link rel=stylesheet) in the assets folder, their url() and @import \
            references localized (with --fetch, fetched too).
            """
    )
    var styles = false
    @Flag(name: .long, help: "Use file:// URLs instead of relative paths.") var absolute = false
    @Flag(name: .long, help: "Also use expired cached copies.") var allowStale = false
    @Flag(name: .long, help: "Give lazy images a real src/srcset pointing at the local copy.") var eager = false
    @Option(name: .long, help: "Decode the page as this charset (overrides BOM-less declarations).") var charset:
        String?
    @Flag(name: .long, help: "Exit 1 when any image stays remote.") var requireAll = false
    /// `--json`: every reference, as JSON on stdout (needs -o, --output-dir or --in-place).
    @OptionGroup var report: OutputOptions
    @Flag(
        name: .long,
        help:
            """
            First download the images not fresh in the cache into the first --cache (a cachectl store, created if \
            need be).
            """
    )
    var fetch = false
    @Option(name: .long, parsing: .unconditional, help: "With --fetch: downloads at once (default: 4 × cores).")
    var jobs: Int?

    mutating func validate() throws {
        // `-o -` is stdout (the default), as `-` is stdin for a page: not a file named `-`.
        if output == "-" { output = nil }
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
        if report.json && output == nil && outputDir == nil && !inPlace {
            throw ValidationError(
                "--json prints the report on stdout: give -o, --output-dir or --in-place for the page.")
        }
        if let charset, Charset.canonicalName(charset) == nil {
            throw ValidationError("--charset: unknown charset '\(charset)'.")
        }
        if let baseURL, StandardURL(baseURL) == nil {
            let why = StandardURL.failureReason(baseURL).map { ": " + $0 } ?? ""
            throw ValidationError("--base-url: '\(baseURL)' is not an absolute URL\(why).")
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

    /// How the process handles memory for localizing.
    private static func prepareProcess() {
        // A page's large arrays are built and dropped again and again: their memory is kept
        // for the next ones rather than faulted in afresh (synthetic page: −2.4 ms of CPU).
        MemoryReturn.keepFreedMemory()
        // The process ends after the last page: its leftovers are left for the exit to reclaim
        // (each page's freed before the next one).
        WorkerPool.keepsDrops = true
    }

    func run() async throws {
        Trace.mark("localize starts")
        Self.prepareProcess()
        let defaultStore = CacheLocations.defaultStore()
        // No store yet (and none to fetch into): every image is simply missing.
        let cacheRoots =
            !caches.isEmpty
            ? RawArguments.paths(caches)
            : !fetch && DefaultStore.isAbsent(defaultStore, defaulted: true) ? [] : [defaultStore]
        let store = fetch ? try Diagnostics.reporting { try fetchStore(cacheRoots) } : nil
        let inputs = RawArguments.paths(pages)
        // With --fetch, each page is localized against the caches as its fetch leaves them.
        let opened = store == nil ? try openCaches(cacheRoots, readingFirst: inputs) : nil
        let localizer = opened?.localizer
        var firstPage = opened?.firstPage
        let fetch = store.map { fetcher(into: $0) }
        var remote = false
        var reports: [LocalizeJSON.Page] = []
        // The names `--output-dir` has given this run's pages (lower-cased: a folder may not
        // tell case apart), so that two pages of one name do not overwrite each other.
        var savedNames: Set<String> = []
        for (text, input) in zip(pages, inputs) {
            WorkerPool.freeKept()
            do {
                var fetchedPage: PageSource?
                if let fetch, text != "-", let url = StandardURL(text), url.isHTTP, !input.exists {
                    fetchedPage = try await OfflinePage.fetchPage(text, url: url, fetch: { await fetch($0, .page) })
                }
                let page =
                    try fetchedPage ?? firstPage.take()?.get()
                    ?? PageSource.read(text, input: input, caches: cacheRoots, allowStale: allowStale || store != nil)
                let destination = try destinationFor(input, page: page, taken: &savedNames)
                var options = localizeOptions(page: page, input: input, destination: destination)
                let early = fetch == nil && !styles && !inPlace ? destination.file.map(Self.earlyOutput) : nil
                options.whileParsing = early?.write
                let result: LocalizeResult
                if let fetch {
                    let localized = try await OfflinePage.localize(
                        page, options: &options, caches: cacheRoots, fetch: { await fetch($0, .images) })
                    result = localized.result
                    reportFailures(localized.fetched)
                } else {
                    Trace.mark("page read")
                    result = localizer!.localize(page.bytes, options: options)
                    Trace.mark("localized")
                }
                var styled: (page: [UInt8], report: StylesheetSaver.Report)?
                if styles {
                    styled = try await saveStyles(
                        result, page: page, destination: destination, options: options, caches: cacheRoots,
                        fetch: fetch.map { fetch in { await fetch($0, .styles) } })
                }
                if let failure = result.assetsNotDurable { throw StoreError.cannotWrite(options.assets!, failure) }
                try writeAndPin(
                    result, styled: styled?.page, page: page, to: destination.file, early: early?.file,
                    assets: options.assets != nil, caches: cacheRoots)
                Trace.mark("written and pinned")
                let counts = result.outcomeCounts
                Diagnostics.note(
                    Self.summary(page, result, counts: counts, assets: options.assets, styles: styled?.report))
                if (counts[.missing] ?? 0) + (counts[.stale] ?? 0) > 0 { remote = true }
                if report.json {
                    reports.append(LocalizeJSON.Page(page: page.label, output: destination.file, result: result))
                }
                // Kept past the end of the run: the process exits right after the last page,
                // and freeing a large page's tens of thousands of references first is work
                // for nothing (measured ~5 ms of a 150 ms run on a 10 MB page).
                KeptUntilExit.value = (result, page)
            } catch let error as StoreError {
                Diagnostics.error(error)
            } catch let interrupted as OfflinePage.Interrupted {
                Diagnostics.note("interrupted: " + FetchPresenter.summary(interrupted.results) + "; no page written")
                throw ExitStatus.interrupted
            }
        }
        if report.json { try Output.write(json: LocalizeJSON(pages: reports)) }
        Output.flush()
        Trace.mark("end")
        if requireAll && remote { throw ExitStatus.failure }
    }

    /// The caches opened, while the first page is read (measured: opening the bench's store
    /// took 1.4 ms, reading its 13 MB page 3.3 ms). A cache that cannot be opened is still
    /// reported first (the page read for nothing); the page's own error waits for its turn.
    private func openCaches(_ roots: [RawPath], readingFirst inputs: [RawPath]) throws -> (
        localizer: Localizer, firstPage: Result<PageSource, Error>?
    ) {
        Sys.expectPrefaultHelper(!pages.isEmpty)
        let (opened, read) = WorkerPool.both(
            {
                let opened = Result { try Localizer(caches: roots) }
                // A large page is still being read: this thread faults in its buffer's pages
                // from the end meanwhile (the read was mostly those, while this thread waited).
                Sys.helpPrefault()
                return opened
            },
            {
                defer { Sys.expectPrefaultHelper(false) }
                return pages.first.map { first in
                    Result { try PageSource.read(first, input: inputs[0], caches: roots, allowStale: allowStale) }
                }
            })
        return (try Diagnostics.reporting { try opened.get() }, read)
    }

    /// What a fetch is for: the page itself (a body the server says not to store is kept
    /// for this one use), its images (`--jobs` at once), or what its stylesheets reference.
    private enum FetchPurpose { case page, images, styles }

    /// Downloads into `store`, with a progress line.
    private func fetcher(into store: NativeStore) -> ([String], FetchPurpose) async -> [FetchResult] {
        { [jobs] urls, purpose in
            var options = FetchOptions()
            if purpose == .images, let jobs { options.jobs = jobs }
            if purpose == .page { options.keepUnstoredBodies = true }
            return await FetchRun.run(urls, store: store, options: options)
        }
    }

    /// A fetch's failures, as notes (a page with images left remote still gets written).
    private func reportFailures(_ fetched: [FetchResult]) {
        for failure in fetched where !failure.succeeded {
            Diagnostics.note("\(URLKey.redacted(failure.url)): \(failure.error ?? "failed")")
        }
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
        options.contentType = page.contentType
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

    /// Where the page's output is written early (`LocalizeOptions.whileParsing`): `write`
    /// makes it a `PrewrittenFile` beside `path` holding the page as given, which `file`
    /// then returns (nil until written, or when that failed: the output is then written
    /// whole, as without it).
    private static func earlyOutput(_ path: RawPath) -> (
        write: @Sendable (ArraySlice<UInt8>) -> Void, file: () -> PrewrittenFile?
    ) {
        let made = Locked<PrewrittenFile?>(nil)
        return (
            { original in
                guard let file = try? PrewrittenFile(userOutput: path) else { return }
                file.removeOnInterrupt()
                guard (try? original.withUnsafeBytes { try file.writeEarly($0) }) != nil else { return }
                made.withLock { $0 = file }
                TestPoint.reach("localize.afterEarlyWrite")
            },
            { made.withLock { $0 } }
        )
    }

    /// The page written to `file` (atomically; `--in-place` keeps its mode), else to stdout.
    /// With `early`, the bytes it holds that the output shares are kept and the rest written.
    private func write(
        _ result: LocalizeResult, styled: [UInt8]?, page: PageSource, to file: RawPath?, early: PrewrittenFile? = nil
    ) throws {
        if let path = file {
            let mode = inPlace ? page.mode : nil
            if let styled { return try FileIO.writeOutput(path, styled, mode: mode) }
            let target = try early ?? PrewrittenFile(userOutput: path)
            let kept = min(Int64(result.unchangedPrefix), target.earlyCount)
            try target.commit(keeping: kept, mode: mode) { try result.writeOutput(from: Int(kept), $0) }
        } else if let styled {
            Output.write(bytes: styled)
        } else {
            result.writeOutput { Output.write(raw: $0) }
        }
    }

    /// The page's line on stderr: `<page>: N rewritten, N missing, N stale, N skipped`, and
    /// what else was done (`counts`: the result's `outcomeCounts`, counted once).
    static func summary(
        _ page: PageSource, _ result: LocalizeResult, counts: [ImageReference.Outcome: Int], assets: RawPath?,
        styles: StylesheetSaver.Report?
    ) -> String {
        func n(_ o: ImageReference.Outcome) -> Int { counts[o] ?? 0 }
        let placed = result.assetsLinked + result.assetsCopied + result.assetsCloned
        let clones = result.assetsCloned > 0 ? "\(result.assetsCloned) clones sharing the cache's blocks, " : ""
        return "\(page.label): \(n(.rewritten)) rewritten, \(n(.missing)) missing, \(n(.stale)) stale, "
            + "\(n(.skipped)) skipped"
            + (n(.local) > 0 ? ", \(n(.local)) local" : "")
            + (placed > 0 && assets != nil
                ? "; \(placed) files in \(assets!.escaped) (\(clones)\(result.assetsLinked) hard links "
                    + "sharing the cache's bytes, \(result.assetsCopied) copies)" : "")
            + (result.assetsUnplaced.isEmpty || assets == nil
                ? ""
                : "; \(result.assetsUnplaced.count) could not be placed in \(assets!.escaped): the page points at "
                    + "the cache for them (pinned there)")
            + (result.baseNeutralized ? " (base neutralised, other relative references made absolute)" : "")
            + (result.referencesAbsolutized
                ? " (the output is not at the page's URL: other relative references made absolute)" : "")
            + (styles.map {
                "; \($0.saved) stylesheet\($0.saved == 1 ? "" : "s") saved, \($0.localized) of their references "
                    + "local, \($0.missing.count) missing"
            } ?? "")
    }

    /// `--styles`: the page's stylesheets saved in its assets folder (`<page>_files` when no
    /// other is named), with what they reference; with `--fetch`, fetched too (see
    /// `OfflinePage.saveStyles`).
    private func saveStyles(
        _ result: LocalizeResult, page: PageSource, destination: (file: RawPath?, directory: RawPath),
        options: LocalizeOptions, caches: [RawPath], fetch: OfflinePage.Fetch?
    ) async throws -> (page: [UInt8], report: StylesheetSaver.Report) {
        var stem = destination.file?.lastComponent ?? page.fileName
        if let dot = stem.lastIndex(of: UInt8(ascii: ".")), dot > 0 { stem = Array(stem[..<dot]) }
        let folder = options.assets ?? destination.directory.appending(stem + Array("_files".utf8))
        let saved = try await OfflinePage.saveStyles(
            of: result, into: folder, base: options.pageURL, outputDirectory: destination.directory, caches: caches,
            allowStale: options.allowStale || fetch != nil, fetch: fetch)
        reportFailures(saved.fetched)
        return (saved.page, saved.report)
    }

    /// Writes the page (`write`). A page written to a file pointing into cachectl stores pins
    /// the entries it points at (prune keeps them while the page exists; one with its own
    /// assets pins nothing): what to pin is worked out while the page is written, and
    /// recorded once it is.
    private func writeAndPin(
        _ result: LocalizeResult, styled: [UInt8]?, page: PageSource, to file: RawPath?,
        early: (() -> PrewrittenFile?)?, assets: Bool, caches: [RawPath]
    ) throws {
        guard let path = file else { return try write(result, styled: styled, page: page, to: nil) }
        let prewritten = early?()
        let (changes, written) = WorkerPool.both(
            {
                defer { Trace.mark("pins worked out") }
                return Self.pinChanges(path, result: result, assets: assets, caches: caches)
            },
            {
                defer { Trace.mark("written") }
                return Result { try write(result, styled: styled, page: page, to: path, early: prewritten) }
            })
        try written.get()
        for change in changes {
            do {
                // A store that could not be opened or read reports its error here.
                let (store, pins) = try change.get()
                if let pins { try store.apply(pins) }
            } catch let error as StoreError {
                Diagnostics.note("cannot pin the entries of \(path.escaped): \(error.description)")
            } catch {
                Diagnostics.note("cannot pin the entries of \(path.escaped): \(error)")
            }
        }
    }

    /// For each native store among `caches`, what the page at `page` is to pin (nil: as now).
    private static func pinChanges(_ page: RawPath, result: LocalizeResult, assets: Bool, caches: [RawPath])
        -> [Result<(NativeStore, NativeStore.PinChange?), Error>]
    {
        // With assets, only what could not be placed there: the page points at the cache for it.
        // (Resolved URLs: the store drops their fragments as it makes them keys.)
        var keys = PinKeys(capacity: assets ? result.assetsUnplaced.count : result.count(.rewritten))
        if assets {
            for url in result.assetsUnplaced { keys.insert(url) }
        } else {
            result.forEachResolvedURL(.rewritten) { keys.insert($0) }
        }
        let shown = localFiles(result, outputDirectory: page.parentDirectory)
        return caches.filter { CacheFormats.detect($0) == .native }.map { root in
            Result {
                let store = try NativeStore.open(root, create: false)
                // A page localized before points into the store already (its references are
                // `local` now): what it shows there stays pinned.
                var keys = keys
                for key in try store.keys(ofBodies: bodies(shown, under: root)) { keys.insert(key) }
                return (store, try store.pinChange(page: page.canonicalFile.description, keys: keys))
            }
        }
    }

    /// The files the page's `local` references name, from where the page is written.
    private static func localFiles(_ result: LocalizeResult, outputDirectory: RawPath) -> [RawPath] {
        result.localPaths(.local).compactMap { local in
            if local.hasPrefix("file:") {
                return StandardURL(local).map { RawPath(bytes: HostParser.percentDecode(Array($0.path.utf8))) }
            }
            return outputDirectory.appending(HostParser.percentDecode(Array(local.utf8)))
        }
    }

    /// Those of `files` inside the store at `root`, relative to it (as its index names bodies).
    private static func bodies(_ files: [RawPath], under root: RawPath) -> Set<String> {
        guard !files.isEmpty else { return [] }
        let prefix = root.canonical.bytes + [UInt8(ascii: "/")]
        var directories: [RawPath: RawPath] = [:]  // each directory resolved once
        var inside = Set<String>()
        for file in files {
            let parent = file.parentDirectory
            let resolved = directories[parent] ?? parent.canonical
            directories[parent] = resolved
            let bytes = resolved.appending(file.lastComponent).bytes
            if bytes.starts(with: prefix) { inside.insert(String(decoding: bytes[prefix.count...], as: UTF8.self)) }
        }
        return inside
    }

    private func destinationFor(_ input: RawPath, page: PageSource, taken: inout Set<String>) throws -> (
        file: RawPath?, directory: RawPath
    ) {
        if let output {
            let path = RawArguments.paths([output])[0]
            return (path, path.parentDirectory)
        }
        if let outputDir {
            // Made when missing, as `mkdir -p` would; refused when a file is in the way.
            let dir = RawArguments.paths([outputDir])[0]
            try FileIO.makeDirectories(dir)
            let name = Self.unusedName(page.fileName, taken: &taken)
            if name != page.fileName {
                Diagnostics.note(
                    "\(page.label): saved as \(String(decoding: name, as: UTF8.self)) (an earlier page of this run "
                        + "has its name)")
            }
            return (dir.appending(name), dir)
        }
        if inPlace {
            guard page.isFile else { throw StoreError.unsupported("--in-place needs a file, not a URL: \(page.label)") }
            // A symlinked page is replaced where it lives, the link kept (`sed -i --follow-symlinks`).
            let file = input.canonical
            return (file, file.parentDirectory)
        }
        return (nil, page.isFile ? input.parentDirectory : RawPath("."))
    }

    /// `name`, or `stem-2.ext`, `stem-3.ext`, … when a page of this run already has it.
    static func unusedName(_ name: [UInt8], taken: inout Set<String>) -> [UInt8] {
        func key(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self).lowercased() }
        let dot = name.lastIndex(of: UInt8(ascii: ".")).flatMap { $0 == 0 ? nil : $0 } ?? name.count
        var candidate = name
        var n = 1
        while taken.contains(key(candidate)) {
            n += 1
            candidate = name[..<dot] + Array("-\(n)".utf8) + name[dot...]
        }
        taken.insert(key(candidate))
        return candidate
    }
}
