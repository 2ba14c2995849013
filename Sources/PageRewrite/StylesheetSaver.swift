import CacheKitSystem
import URLStandard

/// External stylesheets saved with a page (`localize --styles`): each `<link
/// rel=stylesheet href>` and `<style>` `@import` whose body is in a cache is rewritten — its `url(…)` and `@import`
/// references localized the same way (fonts and backgrounds included, resolved against the
/// stylesheet's own URL) — and saved in the page's assets folder; the link points there.
public struct StylesheetSaver {
    /// What a pass did, and the URLs it wanted but no cache had (for `--fetch`).
    public struct Report: Sendable {
        /// Stylesheets saved beside the page. Default 0.
        public var saved = 0
        /// Their references made local. Default 0.
        public var localized = 0
        /// References that stayed remote. Default none.
        public var missing: [String] = []
    }

    /// Finds a URL's cached body: its file, or nil.
    public typealias Lookup = (String) -> RawPath?

    let lookup: Lookup
    let read: (RawPath) -> [UInt8]?
    let origin: (String) -> String?
    let contentType: (String) -> String?
    let prefetch: ([String]) -> Void
    let assets: CopyPlacer

    /// `lookup` finds a URL's cached body, `read` reads one, `origin` gives the URL a cached
    /// stylesheet came from when redirects led there (its references resolve against it, as
    /// in a browser), `contentType` the `Content-Type` it was served with (its charset says
    /// how the sheet is read; default: none known), `prefetch` is told the URLs a sheet is
    /// about to look up, all at once (a cache can then read them in one query; default:
    /// nothing), `assets` is the folder the stylesheets and what they reference are placed in.
    public init(
        assets: CopyPlacer, lookup: @escaping Lookup, read: @escaping (RawPath) -> [UInt8]?,
        origin: @escaping (String) -> String? = { _ in nil }, contentType: @escaping (String) -> String? = { _ in nil },
        prefetch: @escaping ([String]) -> Void = { _ in }
    ) {
        self.lookup = lookup
        self.read = read
        self.origin = origin
        self.contentType = contentType
        self.prefetch = prefetch
        self.assets = assets
    }

    /// Rewrites the stylesheet links of a page written to `outputDirectory`, in its own
    /// charset (`charset` as `--charset` gives it, else what the page declares: a page not in
    /// UTF-8 is read through an exact UTF-8 view and edited at the original bytes); returns
    /// the new page bytes (only the `href` values change) and the report.
    public func save(page original: [UInt8], base: String, outputDirectory: RawPath, charset: String? = nil) -> (
        page: [UInt8], report: Report
    ) {
        var report = Report()
        guard let baseURL = StandardURL(base) else { return (original, report) }
        let encoding = Charset.decide(original, option: charset).encoding
        let view = encoding == "UTF-8" ? nil : TranscodedView(original, encoding: encoding)
        if encoding != "UTF-8" && view == nil { return (original, report) }
        let page = view?.bytes ?? original
        LibXML2.initialize()
        let scanned = StartTagScanner.scan(page)
        let matched = PageRewriter.align(
            LibXML2.startElements(ofUTF8: LibXML2.input(for: page), everyURLAttribute: true), scanned.tags)
        let outputParts = outputDirectory.canonicalFile.bytes.split(separator: UInt8(ascii: "/")).map(Array.init)
        var edits: [(Range<Int>, [UInt8])] = []
        var sheets: [String: RawPath] = [:]
        func savedAlready(_ href: String) -> Bool {
            URLText.isRelative(href) && !href.hasPrefix("/")
                && RawPath(
                    bytes: outputDirectory.bytes + [UInt8(ascii: "/")]
                        + HostParser.percentDecode(Array(href.trimmingWhitespace().utf8))
                ).exists
        }
        func edit(_ target: Range<Int>, _ local: String) {
            edits.append(view.map { ($0.originalRange(target), $0.encode(local)) } ?? (target, Array(local.utf8)))
        }
        // The sheets the page refers to, each with what pointing at its saved copy takes,
        // in the page's order; their URLs read ahead together.
        var referred: [(url: StandardURL, pointAt: (RawPath) -> Void)] = []
        // `@import`s in `<style>` elements: saved as linked ones are.
        for text in scanned.styleTexts {
            for found in CSSURLs.scan(Array(page[text])) where found.isImport && !savedAlready(found.token.url) {
                guard let url = StandardURL(found.token.url, base: baseURL), url.isHTTP else { continue }
                let range = found.token.urlRange
                referred.append(
                    (
                        url,
                        { saved in
                            edit(
                                (text.lowerBound + range.lowerBound)..<(text.lowerBound + range.upperBound),
                                CSSText.escapeURL(URLText.relativePath(from: outputParts, to: saved)))
                        }
                    ))
            }
        }
        for i in 0..<matched.count {
            let element = matched.elements[i]
            let tag = matched.tagIndex[i] >= 0 ? matched.tags[matched.tagIndex[i]] : nil
            if element.name == "link", let href = element.attributes.first(where: { $0.name == "href" })?.value,
                savedAlready(href)
            {
                continue  // saved already (a page localized before)
            }
            guard element.name == "link", let tag,
                let rel = element.attributes.first(where: { $0.name == "rel" })?.value.lowercased(),
                rel.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).contains("stylesheet"),
                let href = element.attributes.first(where: { $0.name == "href" })?.value,
                let raw = tag.attribute("href"), let range = raw.value,
                let map = ValueMap(raw: page, range: range, expected: href),
                let url = StandardURL(href.trimmingWhitespace(), base: baseURL), url.isHTTP
            else { continue }
            referred.append(
                (
                    url,
                    { saved in
                        let local = HTMLText.escape(
                            URLText.relativePath(from: outputParts, to: saved), quote: raw.quote)
                        edit(map.rawRange(map.trimmedRange()), local)
                        for removal in PageRewriter.fetchModeEdits(tag) { edit(removal.range, "") }
                    }
                ))
        }
        prefetch(referred.map { $0.url.hrefWithoutFragment })
        for (url, pointAt) in referred {
            if let saved = saveSheet(url, report: &report, sheets: &sheets, depth: 0, environment: encoding) {
                pointAt(saved)
            }
        }
        return (Self.splice(original, edits), report)
    }

    /// `bytes` with each edit's range replaced by its bytes, written front to back (replacing
    /// each range in place moved the rest of the sheet every time: quadratic in its
    /// references). From the last, an edit is made only if it ends before the one made after
    /// it starts (one `href` matched twice is edited once).
    static func splice(_ bytes: [UInt8], _ edits: [(Range<Int>, [UInt8])]) -> [UInt8] {
        var kept: [(Range<Int>, [UInt8])] = []
        var next = bytes.count
        for edit in edits.sorted(by: { $0.0.lowerBound > $1.0.lowerBound }) where edit.0.upperBound <= next {
            kept.append(edit)
            next = edit.0.lowerBound
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + kept.reduce(0) { $0 + $1.1.count })
        var cursor = 0
        for (range, text) in kept.reversed() {
            out += bytes[cursor..<range.lowerBound]
            out += text
            cursor = range.upperBound
        }
        out += bytes[cursor...]
        return out
    }

    /// `@import`s followed from a page's stylesheet, at most: a `--fetch` run fetches one
    /// level a round (`OfflinePage.saveStyles`). Deeper ones stay remote (made absolute).
    static let importDepth = 4

    /// Saves the stylesheet at `url` (once a pass: `sheets` holds those saved, and those being
    /// saved, so an `@import` cycle points back at the saved file) with its references made
    /// local; nil when no cache has it. A reference left remote is made absolute against the
    /// sheet's URL: the saved sheet lives beside the page, not at its URL. The sheet is read
    /// in its own charset (`encoding(of:contentType:environment:)`, `environment` being the
    /// charset of the page or sheet that refers to it) and keeps its bytes and charset: only
    /// the references' bytes change, written in that charset.
    private func saveSheet(
        _ url: StandardURL, report: inout Report, sheets: inout [String: RawPath], depth: Int, environment: String
    ) -> RawPath? {
        let key = url.hrefWithoutFragment
        if let known = sheets[key] { return known }
        guard let body = lookup(key), let css = read(body) else {
            report.missing.append(key)
            return nil
        }
        // Named first, so that an import cycle back to this sheet has a file to point at.
        guard let named = assets.placeBytes(css, url: key, ext: "css") else { return nil }
        sheets[key] = named
        let base = origin(key).flatMap { StandardURL($0) } ?? url
        // Read as UTF-8 when iconv does not know the charset (as before charsets were read).
        var encoding = Self.encoding(of: css, contentType: contentType(key), environment: environment)
        let view = encoding == "UTF-8" ? nil : TranscodedView(css, encoding: encoding)
        if view == nil { encoding = "UTF-8" }
        let queryEncoder = view == nil ? nil : QueryEncoding.encoder(encoding)
        var edits: [(Range<Int>, String)] = []
        let references = Self.references(in: view?.bytes ?? css).compactMap { token in
            token.url.trimmingWhitespace().hasPrefix("#")
                ? nil : StandardURL(token.url, base: base, queryEncoder: queryEncoder).map { (token, $0) }
        }
        prefetch(references.filter { $0.1.isHTTP }.map { $0.1.hrefWithoutFragment })
        for (token, target) in references {
            var placed: RawPath?
            if target.isHTTP && token.isImport && depth < Self.importDepth {
                placed = saveSheet(target, report: &report, sheets: &sheets, depth: depth + 1, environment: encoding)
            } else if target.isHTTP && !token.isImport {
                if let file = lookup(target.hrefWithoutFragment) {
                    placed = assets.place(file, url: target.hrefWithoutFragment)
                } else {
                    report.missing.append(target.hrefWithoutFragment)
                }
            }
            guard let placed else {
                // Relative ones only: an absolute URL (`data:` included) means the same anywhere.
                if URLText.isRelative(token.url) {
                    edits.append((token.range, CSSText.escapeURL(URLText.withoutPassword(target.href))))
                }
                continue
            }
            // Beside the stylesheet in the same folder: the file name alone.
            var local = URLText.encodeSegment(placed.lastComponent)
            if let fragment = target.fragment { local += "#" + URLText.encodeFragment(fragment) }
            edits.append((token.range, CSSText.escapeURL(local)))
            report.localized += 1
        }
        let rewritten = Self.splice(
            css, edits.map { (view?.originalRange($0.0) ?? $0.0, view?.encode($0.1) ?? Array($0.1.utf8)) })
        guard let saved = assets.placeBytes(rewritten, url: key, ext: "css") else { return nil }
        report.saved += 1
        return saved
    }

    /// The charset a stylesheet is read in, as an iconv name: CSS Syntax §3.2 ("determine the
    /// fallback encoding") after the Encoding Standard's byte order mark sniff ("decode"): a
    /// byte order mark; else the charset of the `Content-Type` it was served with; else an
    /// `@charset "…";` rule as its very first bytes (one naming UTF-16 means UTF-8); else
    /// `environment`, the charset (an iconv name) of the page or sheet referring to it; else UTF-8. Labels
    /// are the Encoding Standard's (`Charset.canonicalName`); an unknown one is passed over.
    /// (An environment in UTF-16 gives UTF-8: a sheet without a byte order mark whose
    /// `@charset` or `url(` is readable as ASCII is not UTF-16.)
    static func encoding(of css: [UInt8], contentType: String?, environment: String?) -> String {
        if css.starts(with: [0xEF, 0xBB, 0xBF]) { return "UTF-8" }
        if css.starts(with: [0xFF, 0xFE]) { return "UTF-16LE" }
        if css.starts(with: [0xFE, 0xFF]) { return "UTF-16BE" }
        if let name = contentType.flatMap(Charset.parameter(ofContentType:)).flatMap(Charset.canonicalName) {
            return name
        }
        if let label = charsetRule(css), let name = Charset.canonicalName(label) {
            return name.hasPrefix("UTF-16") ? "UTF-8" : name
        }
        if let environment, !environment.uppercased().hasPrefix("UTF-16") { return environment }
        return "UTF-8"
    }

    /// The label of an `@charset "…";` rule that starts the sheet, byte for byte as CSS Syntax
    /// §3.2 reads it (within the first 1024 bytes, each label byte 0x16–0x21 or 0x23–0x7F).
    static func charsetRule(_ css: [UInt8]) -> String? {
        let opening = Array(#"@charset ""#.utf8)
        guard css.starts(with: opening) else { return nil }
        var end = opening.count
        while end < min(css.count, 1024), (0x16...0x21).contains(css[end]) || (0x23...0x7F).contains(css[end]) {
            end += 1
        }
        guard end + 1 < min(css.count, 1024), css[end] == UInt8(ascii: "\""), css[end + 1] == UInt8(ascii: ";")
        else { return nil }
        return String(decoding: css[opening.count..<end], as: UTF8.self)
    }

    /// `url(…)` tokens and `@import "…"` strings of a stylesheet, with their ranges, in
    /// order and never overlapping (see `CSSURLs.scan`).
    static func references(in css: [UInt8]) -> [(url: String, range: Range<Int>, isImport: Bool)] {
        CSSURLs.scan(css).map { ($0.token.url, $0.token.urlRange, $0.isImport) }
    }
}
