import CacheKitSystem
import Foundation
import URLStandard

extension PageRewriter {
    /// The start tags the scanner found, and the raw text ranges of `<style>` elements.
    typealias Scanned = (tags: [StartTagScanner.Tag], styleTexts: [Range<Int>])

    /// libxml2's start elements paired with the scanned tags: element `i`'s tag is
    /// `tags[tagIndex[i]]`, none where that is negative (an element libxml2 implied, such as a
    /// missing `<body>`). Three arrays, not an array of pairs: making the pairs copied every
    /// element and tag (retains of their names and attributes, for the 35,000 elements of the
    /// bench's synthetic page), and each loop over them copied them again.
    struct Matched {
        let elements: [LibXML2.StartElement]
        let tags: [StartTagScanner.Tag]
        let tagIndex: [Int]

        var count: Int { elements.count }
    }

    /// libxml2's elements paired with the scanned tags, and the base they give.
    struct Parsed {
        var matched: Matched
        /// The first `<base href>` resolved against the page URL, else the page URL.
        var base: StandardURL
        /// That `<base>`, when it sets the base: one whose href is not a URL, or is a `data:`
        /// or `javascript:` one, leaves the page's own URL in force (HTML's "set the frozen
        /// base URL"), and is then no base here.
        var baseAttribute: (tag: StartTagScanner.Tag, value: String)?

        init(matched: Matched, pageURL: StandardURL) {
            self.matched = matched
            base = pageURL
            let elements = matched.elements
            guard
                let found = elements.indices.first(where: { i in
                    elements[i].name == "base" && elements[i].attributes.contains { $0.name == "href" }
                })
            else { return }
            if let href = elements[found].attributes.first(where: { $0.name == "href" })?.value,
                matched.tagIndex[found] >= 0, let url = PageRewriter.frozenBase(href, pageURL: pageURL)
            {
                base = url
                baseAttribute = (matched.tags[matched.tagIndex[found]], href)
            }
        }
    }

    /// A chunk of a page's image sites, and what applying them gave (nil when the base the
    /// decisions were made against proved wrong).
    struct Chunk {
        var sites: [Sites.Element]
        var output: SitesOutput?
    }

    /// Reading and applying a page's image sites in chunks, shared by the threads that call
    /// `run`: each takes the next chunk to read, or a chunk read earlier that can now be
    /// applied, until none is left. Chunks read before `decided` are applied after it.
    /// A thread in `run` also helps with a loop another thread shares meanwhile (`loop`):
    /// the bodies of the references being decided are checked on both threads.
    final class SiteWork: @unchecked Sendable {
        // @unchecked Sendable: every mutable field is read and written with `condition` held.
        /// Matched elements per chunk.
        static let chunkSize = 1024
        /// Indices per block of a shared loop.
        static let loopBlock = 256

        private let condition = ConditionLock()
        private var chunks: [Chunk?] = []
        private var nextRead = 0
        private var readNotApplied: [Int] = []
        private var known: (decisions: DecisionTable, guessedBase: StandardURL)?
        /// The loop being shared: its body, size, next index to take, and blocks in progress.
        private var shared: (body: (Range<Int>) -> Void, count: Int, next: Int, running: Int)?

        /// What it holds (the chunks' elements, the decisions it was given), moved out and
        /// left empty once the work is done, for `WorkerPool.drop`: whoever holds the work
        /// itself last then frees an empty shell. (Not inlined: see `Droppable`.)
        @inline(never)
        func takeContents() -> Droppable {
            condition.lock()
            defer { condition.unlock() }
            defer { (chunks, known, readNotApplied) = ([], nil, []) }
            return Droppable((chunks, known, readNotApplied))
        }

        /// Runs loops here and, in blocks, on a thread that is in `run` meanwhile.
        var loop: LoopRunner {
            LoopRunner { [self] count, body in share(count: count, body) }
        }

        private func share(count: Int, _ body: @escaping (Range<Int>) -> Void) {
            guard count > Self.loopBlock else { return LoopRunner.serial.run(count, body) }
            condition.lock()
            shared = (body, count, 0, 0)
            condition.broadcast()
            while let range = takeBlock() { runBlock(range, body) }
            while shared!.running > 0 { condition.wait() }
            shared = nil
            condition.unlock()
        }

        /// The next block of the shared loop, counted as running (under the lock).
        private func takeBlock() -> Range<Int>? {
            guard let loop = shared, loop.next < loop.count else { return nil }
            let range = loop.next..<min(loop.next + Self.loopBlock, loop.count)
            shared!.next = range.upperBound
            shared!.running += 1
            return range
        }

        /// Runs a block taken under the lock, outside it.
        private func runBlock(_ range: Range<Int>, _ body: (Range<Int>) -> Void) {
            condition.unlock()
            body(range)
            condition.lock()
            shared!.running -= 1
            if shared!.running == 0 { condition.broadcast() }
        }

        /// Makes the decisions known to every `run`.
        func decided(_ decisions: DecisionTable, guessedBase: StandardURL) {
            condition.lock()
            known = (decisions, guessedBase)
            condition.broadcast()
            condition.unlock()
        }

        /// Works until every chunk is read and applied. `apply` returns nil when the decisions
        /// cannot be used.
        func run(
            chunks count: Int, read: (Int) -> [Sites.Element],
            apply: ([Sites.Element], DecisionTable, StandardURL) -> SitesOutput?
        ) {
            condition.lock()
            if chunks.isEmpty && count > 0 && nextRead == 0 { chunks = Array(repeating: nil, count: count) }
            while true {
                if let range = takeBlock() {
                    runBlock(range, shared!.body)
                    continue
                }
                if let known, let index = readNotApplied.popLast() {
                    let sites = chunks[index]!.sites
                    condition.unlock()
                    let output = apply(sites, known.decisions, known.guessedBase)
                    condition.lock()
                    chunks[index]!.output = output
                    continue
                }
                if nextRead < count {
                    let index = nextRead
                    nextRead += 1
                    let now = known
                    condition.unlock()
                    let sites = read(index)
                    let output = now.flatMap { apply(sites, $0.decisions, $0.guessedBase) }
                    condition.lock()
                    chunks[index] = Chunk(sites: sites, output: output)
                    if now == nil { readNotApplied.append(index) }
                    continue
                }
                if known == nil && !readNotApplied.isEmpty {
                    condition.wait()
                    continue
                }
                break
            }
            condition.unlock()
        }

        /// The chunks in document order, once every `run` has returned.
        func results() -> [Chunk] {
            condition.lock()
            defer { condition.unlock() }
            return chunks.map { $0! }
        }
    }

    /// Which attributes hold image URLs, by element (the lazy-loading ones on every element),
    /// and the values found there.
    enum Sites {
        static let lazyURL = ["data-src", "data-original", "data-lazy-src"]
        static let lazySrcset = ["data-srcset", "data-lazy-srcset"]
        static let imgURL = ["src"] + lazyURL
        static let imgSrcset = ["srcset"] + lazySrcset
        static let linkURL = ["href"] + lazyURL
        static let videoURL = ["poster"] + lazyURL
        static let svgImageURL = ["href", "xlink:href"] + lazyURL
        static let backgroundURL = ["background"] + lazyURL
        /// The elements whose `background` attribute browsers still paint as a background
        /// image (obsolete, but kept by HTML's rendering section for `body` and tables).
        static let backgroundElements = ["body", "table", "thead", "tbody", "tfoot", "tr", "td", "th"]

        /// Whether a `<link>`'s `rel` names an icon (`icon`, `shortcut icon`, `apple-touch-icon`,
        /// `apple-touch-icon-precomposed`): its `href` is then an image.
        static func isIconRel(_ rel: String) -> Bool {
            rel.lowercased().split { $0 == " " || $0 == "\t" || $0 == "\n" }.contains {
                $0 == "icon" || $0 == "apple-touch-icon" || $0 == "apple-touch-icon-precomposed"
            }
        }

        /// An element's image sites: values as libxml2 decided them, located in the original
        /// bytes. Reading them needs no cache, so it runs on the parse thread while the
        /// references are being looked up.
        struct Element {
            var name: String
            var tag: StartTagScanner.Tag
            var attributes: [(name: String, value: String)]
            /// Inside a `<picture>` (for `source`).
            var insidePicture: Bool
            var urls: [URLValue] = []
            var srcsets: [SrcsetValue] = []
            var style: StyleValue?

            func value(_ name: String) -> String? { attributes.first { $0.name == name }?.value }

            /// The URLs of its sites, as written.
            var references: [String] {
                var out: [String] = []
                for value in urls { if case .located(let url, _) = value.place { out.append(url) } }
                for value in srcsets { out += value.candidates.map(\.url) }
                if let style { out += style.tokens.map(\.url) }
                return out
            }
        }

        /// A single-URL attribute (`src`, `href`, `poster`, `data-src`, …).
        struct URLValue {
            enum Place {
                /// The trimmed URL and its range in the original bytes.
                case located(url: String, range: Range<Int>)
                /// libxml2's value (non-empty) could not be found in the original bytes.
                case unlocatable(String)
            }
            var attribute: String
            var quote: UInt8?
            var place: Place
            /// Where the value starts in the original bytes (before its whitespace is
            /// trimmed); nil when unlocatable.
            var start: Int?
        }

        /// A srcset attribute's valid candidates, in order.
        struct SrcsetValue {
            var attribute: String
            var quote: UInt8?
            /// The decoded value.
            var decoded: [UInt8]
            /// Each candidate's URL, its range in `decoded` and in the original bytes.
            var candidates: [(url: String, decoded: Range<Int>, raw: Range<Int>)]
            /// Where the value starts in the original bytes.
            var start: Int
            /// Whether every candidate the value holds is valid (and so in `candidates`).
            var allValid: Bool
        }

        /// `url(…)` tokens of a style attribute.
        struct StyleValue {
            var quote: UInt8?
            var tokens: [(url: String, raw: Range<Int>)]
            /// Where the value starts in the original bytes.
            var start: Int
        }

        /// The sites of the matched elements at `indices` that have any, in document order.
        static func read(_ matched: Matched, _ indices: Range<Int>, page: [UInt8]) -> [Element] {
            var out: [Element] = []
            for i in indices {
                // Elements without any attribute the rewriter reads (most of a page) cost nothing.
                let t = matched.tagIndex[i]
                guard t >= 0, !matched.elements[i].attributes.isEmpty else { continue }
                let tag = matched.tags[t]
                // The page a little ahead of this tag, asked into the cache while this one is
                // read: the values are read in page order, too far apart for the processor to
                // foresee, and each first read of one waited for memory.
                page.withUnsafeBufferPointer { Sys.prefetch($0, at: tag.range.upperBound + 2048) }
                let (name, attributes) = (matched.elements[i].name, matched.elements[i].attributes)
                // By index, each name compared in place (`first(where:)` copied each pair, a
                // retain and a release of its value).
                func value(_ attribute: String) -> String? {
                    attributes.withUnsafeBufferPointer { pairs in
                        for p in pairs.indices where pairs[p].name == attribute { return pairs[p].value }
                        return nil
                    }
                }
                // The values are gathered first and the element made last, once, when it has any:
                // an element made first and appended was copied (its arrays retained and
                // released).
                var (urls, srcsets, style): ([URLValue], [SrcsetValue], StyleValue?) = ([], [], nil)
                let (urlAttributes, srcsetAttributes) = Self.attributes(
                    of: name, insidePicture: matched.elements[i].insidePicture, value: value)
                for attr in urlAttributes {
                    if let decoded = value(attr), let found = urlValue(attr, decoded, tag, page) { urls.append(found) }
                }
                for attr in srcsetAttributes {
                    guard let decoded = value(attr), let found = srcsetValue(attr, decoded, tag, page) else { continue }
                    srcsets.append(found)
                }
                if let decoded = value("style"), let raw = tag.valueSpan("style"), case let range = raw.range,
                    let map = ValueMap(raw: page, range: range, expected: decoded)
                {
                    let tokens = CSSURLs.find(map.decoded).map { (url: $0.url, raw: map.rawRange($0.urlRange)) }
                    if !tokens.isEmpty { style = StyleValue(quote: raw.quote, tokens: tokens, start: range.lowerBound) }
                }
                guard !urls.isEmpty || !srcsets.isEmpty || style != nil else { continue }
                out.append(
                    Element(
                        name: name, tag: tag, attributes: attributes,
                        insidePicture: matched.elements[i].insidePicture, urls: urls, srcsets: srcsets, style: style))
            }
            return out
        }

        /// The site of a single-URL attribute whose value libxml2 gave as `decoded` (unlocatable
        /// when its bytes cannot be found in the page; nil when it is empty).
        private static func urlValue(_ attr: String, _ decoded: String, _ tag: StartTagScanner.Tag, _ page: [UInt8])
            -> URLValue?
        {
            // A value whose bytes cannot be found in the page: reported, unless empty.
            var unlocatable: URLValue? {
                decoded.isEmpty ? nil : URLValue(attribute: attr, quote: nil, place: .unlocatable(decoded))
            }
            guard let raw = tag.valueSpan(attr) else { return unlocatable }
            let range = raw.range
            // A value that is its raw bytes, untrimmed (most): libxml2's string is the URL, with no
            // decoded copy mapped and no string made again from it.
            if ValueMap.isPlain(raw: page, range: range, expected: decoded) {
                return URLValue(
                    attribute: attr, quote: raw.quote, place: .located(url: decoded, range: range),
                    start: range.lowerBound)
            }
            guard let map = ValueMap(raw: page, range: range, expected: decoded) else { return unlocatable }
            let trimmed = map.trimmedRange()
            guard !trimmed.isEmpty else { return nil }
            let url = String(decoding: map.decoded[trimmed], as: UTF8.self)
            return URLValue(
                attribute: attr, quote: raw.quote, place: .located(url: url, range: map.rawRange(trimmed)),
                start: range.lowerBound)
        }

        /// The site of a srcset attribute whose value libxml2 gave as `decoded`: its valid
        /// candidates, read from the decoded bytes (no candidate made for each, with its
        /// descriptors' strings); nil when its bytes cannot be found in the page.
        private static func srcsetValue(
            _ attr: String, _ decoded: String, _ tag: StartTagScanner.Tag, _ page: [UInt8]
        ) -> SrcsetValue? {
            guard let raw = tag.valueSpan(attr), case let range = raw.range,
                let map = ValueMap(raw: page, range: range, expected: decoded)
            else { return nil }
            var candidates: [(url: String, decoded: Range<Int>, raw: Range<Int>)] = []
            let count = map.decoded.withUnsafeBufferPointer { bytes in
                Srcset.forEachValidURL(bytes) { url in
                    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[url]), as: UTF8.self)
                    candidates.append((text, url, map.rawRange(url)))
                }
            }
            return SrcsetValue(
                attribute: attr, quote: raw.quote, decoded: map.decoded, candidates: candidates,
                start: range.lowerBound, allValid: candidates.count == count)
        }

        /// The single-URL and srcset attributes an element's image sites are in (`value`
        /// gives its attributes' values).
        private static func attributes(
            of name: String, insidePicture: Bool, value: (String) -> String?
        ) -> (urls: [String], srcsets: [String]) {
            switch name {
            case "img":
                return (imgURL, imgSrcset)
            case "source" where insidePicture:
                return (lazyURL, imgSrcset)
            case "input" where value("type")?.lowercased() == "image":
                return (imgURL, lazySrcset)
            case "link":
                return isIconRel(value("rel") ?? "") ? (linkURL, lazySrcset) : (lazyURL, lazySrcset)
            case "video":
                return (videoURL, lazySrcset)
            case "image":
                return (svgImageURL, lazySrcset)
            case "body", "table", "thead", "tbody", "tfoot", "tr", "td", "th":
                return (backgroundURL, lazySrcset)
            default:
                return (lazyURL, lazySrcset)
            }
        }
    }
}
