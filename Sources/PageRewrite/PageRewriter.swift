import CacheKitSystem
import Foundation
import URLStandard

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds a page's image references and rewrites those `lookup` has a copy of, changing
/// nothing else. Independent of any cache format (`Localizer` connects it to caches).
///
/// libxml2's HTML parser decides which elements and attributes exist and what their values
/// are; the output is produced by editing the original bytes at the positions of those
/// values, so encodings, entities, markup and whitespace outside them are untouched.
public struct PageRewriter {
    /// Where copies go when the page must not point into a cache (`--assets`); nil: the
    /// page references the cached files where they are.
    public var placer: CopyPlacer?

    /// A rewriter; with a `placer`, copies are placed in an assets folder. Default none.
    public init(placer: CopyPlacer? = nil) { self.placer = placer }

    /// Rewrites one page; `lookup` gets absolute URLs without fragment.
    public func rewrite(_ original: [UInt8], options: LocalizeOptions, lookup: (String) -> CachedCopy?)
        -> LocalizeResult
    {
        rewrite(original, options: options, lookupMany: { $0.map(lookup) })
    }

    /// Rewrites one page; `lookupMany` gets absolute URLs without fragment, many at once,
    /// and answers in their order.
    public func rewrite(_ original: [UInt8], options: LocalizeOptions, lookupMany: ([String]) -> [CachedCopy?])
        -> LocalizeResult
    {
        rewrite(original, options: options, lookupSharing: { urls, _ in lookupMany(urls) })
    }

    /// Rewrites one page; `lookupSharing` also gets a way to spread work over both threads
    /// (the parse thread helps while it has nothing else to do).
    package func rewrite(
        _ original: [UInt8], options: LocalizeOptions, lookupSharing lookupMany: ([String], LoopRunner) -> [CachedCopy?]
    ) -> LocalizeResult {
        withoutActuallyEscaping(lookupMany) { lookup in
            let job = Job(original, options: options, placer: placer, lookup: lookup)
            let result = job.run()
            WorkerPool.drop(job.takeLeftovers())
            return result
        }
    }

    // MARK: Pieces

    /// What becomes of a reference, as written, against a base: resolved, looked up, and
    /// its local path (without fragment) when it is to be rewritten. (A class: tens of
    /// thousands sit in a dictionary read on two threads, each read a single retain.) Only
    /// the fields a reference's account reads are kept, each on its own: the resolved URL
    /// and the copy bound whole, for each of a page's references, retained and released each
    /// of their strings and paths.
    final class Decision: @unchecked Sendable {
        // @unchecked Sendable: immutable (`let`s of value types) once made.
        /// The absolute URL, fragment included; nil when the reference is not a fetchable URL.
        let absolute: String?
        /// The resolved URL's fragment.
        let fragment: String?
        /// Whether a cached copy was found, and why it is stale when it is.
        let hasCopy: Bool
        let copyNote: String?
        let local: String?
        /// Whether `local` is written as it is everywhere (`URLText.isPlain`): checked once
        /// here, not at each of the references that use it.
        let localIsPlain: Bool

        convenience init(resolved: URLText.Resolved?, copy: CachedCopy?, local: String?) {
            self.init(
                absolute: resolved?.absolute, fragment: resolved?.fragment, hasCopy: copy != nil, copyNote: copy?.note,
                local: local)
        }

        /// (The fields given one by one, so that the resolution and the copy they are taken
        /// from are not copied whole, with a retain of each string, to make each decision.)
        init(absolute: String?, fragment: String?, hasCopy: Bool, copyNote: String?, local: String?) {
            (self.absolute, self.fragment, self.hasCopy, self.copyNote) = (absolute, fragment, hasCopy, copyNote)
            self.local = local
            localIsPlain = local.map(URLText.isPlain) ?? false
        }

        /// Not a fetchable URL (also the placeholder while a reference is being decided).
        static let unresolvable = Decision(resolved: nil, copy: nil, local: nil)
    }

    /// The decisions for a page's references as written, found by the reference: a dictionary
    /// of each reference's slot in an array. A page's likely references are put in once each,
    /// undecided, and their decisions, made together afterwards, go into their slots (a
    /// dictionary of decisions, written again then, hashed every reference twice).
    struct DecisionTable {
        private var slots: [String: Int] = [:]
        private var made: [Decision] = []

        mutating func reserveCapacity(_ count: Int) {
            slots.reserveCapacity(count)
            made.reserveCapacity(count)
        }

        subscript(reference: String) -> Decision? { slots[reference].map { made[$0] } }

        mutating func set(_ decision: Decision, for reference: String) { made[slot(reference).slot] = decision }

        /// Puts `reference` in, undecided (`unresolvable` until set), unless it is in already:
        /// its slot when it was put in now. (One hash.)
        mutating func add(_ reference: String) -> Int? {
            let (slot, isNew) = slot(reference)
            return isNew ? slot : nil
        }

        /// The slot of `reference`, made (undecided) when it had none.
        private mutating func slot(_ reference: String) -> (slot: Int, isNew: Bool) {
            let next = made.count
            let slot = Self.value(&slots[reference, default: next])
            if slot == next { made.append(.unresolvable) }
            return (slot, slot == next)
        }

        /// The value in a slot reached through the `default:` subscript: one hash, whether
        /// the key was there or the default was put in.
        @inline(__always)
        private static func value(_ slot: inout Int) -> Int { slot }

        /// Puts a decision in a slot `add` gave.
        mutating func set(_ decision: Decision, at slot: Int) { made[slot] = decision }
    }

    enum LikelyKind { case url, srcset, style }

    /// Whether an attribute name (as scanned, lower-cased) is one whose value the scan
    /// guesses references from (`likelyNames`, which a test holds this to): by length, then
    /// bytes against static text. (A loop over `likelyNames` copied each name compared, a
    /// retain and a release, for each of a page's hundred thousand attributes.)
    static func likelyKind(_ name: UnsafeBufferPointer<UInt8>) -> LikelyKind? {
        func named(_ text: StaticString) -> Bool {
            text.utf8CodeUnitCount == name.count && memcmp(text.utf8Start, name.baseAddress!, name.count) == 0
        }
        switch name.count {
        case 3: return named("src") ? .url : nil
        case 5: return named("style") ? .style : nil
        case 6: return named("srcset") ? .srcset : named("poster") ? .url : nil
        case 8: return named("data-src") ? .url : nil
        case 10: return named("background") ? .url : nil
        case 11: return named("data-srcset") ? .srcset : nil
        case 13: return named("data-original") || named("data-lazy-src") ? .url : nil
        case 16: return named("data-lazy-srcset") ? .srcset : nil
        default: return nil
        }
    }

    /// The attributes whose values the scan guesses references from, by kind.
    static let likelyNames: [(String, LikelyKind)] =
        (Sites.imgURL + ["poster", "background"]).map { ($0, .url) } + Sites.imgSrcset.map { ($0, .srcset) }
        + [("style", .style)]

    /// The copy to use of those found under a reference's lookup keys (as written first,
    /// then serialized): the first fresh one, else the first found.
    static func preferred(_ copies: [CachedCopy?]) -> CachedCopy? {
        copies.first { $0?.isFresh == true } ?? copies.first { $0 != nil } ?? nil
    }

    /// The base the scanned tags suggest: the first `<base href>`, read as written.
    static func likelyBase(_ tags: [StartTagScanner.Tag], page: [UInt8], pageURL: StandardURL) -> StandardURL {
        let baseName = Array("base".utf8)
        let hrefName = Array("href".utf8)
        for tag in tags where tag.name == baseName {
            guard let range = tag.attributes.first(where: { $0.name == hrefName })?.value else { continue }
            return frozenBase(String(decoding: page[range], as: UTF8.self), pageURL: pageURL) ?? pageURL
        }
        return pageURL
    }

    /// The base a `<base href>` sets (HTML §4.2.3, "set the frozen base URL"): nil when the
    /// href is not a URL or is a `data:` or `javascript:` one (the page's URL stays).
    static func frozenBase(_ href: String, pageURL: StandardURL) -> StandardURL? {
        guard let url = StandardURL(href, base: pageURL), url.scheme != "data", url.scheme != "javascript" else {
            return nil
        }
        return url
    }

    /// The references, as written, that the scanned tags' image attributes hold, read
    /// simply (common character references decoded, `decodedForGuess`; values with others
    /// skipped): a guess at what the parse will confirm, decided early while it runs.
    /// `tags` gets, for each reference, the index of its tag; `unread` the first tag with a
    /// value skipped for its references (the parse may find a reference there).
    static func likelyReferences(_ scanned: Scanned, page: [UInt8], tags: inout [Int], unread: inout Int?)
        -> [String]
    {
        var references: [String] = []
        // Through unsafe buffers: a tag, its attributes and their names are read in place
        // (iterating the arrays copied each, a retain and a release apiece: most of this
        // loop's time on a page of 50,000 tags).
        scanned.tags.withUnsafeBufferPointer { scannedTags in
            page.withUnsafeBufferPointer { bytes in
                for index in scannedTags.indices {
                    defer { while tags.count < references.count { tags.append(index) } }
                    scannedTags[index].attributes.withUnsafeBufferPointer { attributes in
                        var iconLink: Bool?
                        for a in attributes.indices {
                            guard let range = attributes[a].value, !range.isEmpty else { continue }
                            var kind = attributes[a].name.withUnsafeBufferPointer { likelyKind($0) }
                            if kind == nil, attributes[a].name == hrefName {
                                if iconLink == nil {
                                    iconLink = scannedTags[index].name == linkName && isIconLink(attributes, page: page)
                                }
                                if iconLink == true { kind = .url }
                            }
                            guard let kind else { continue }
                            likely(
                                kind, UnsafeBufferPointer(rebasing: bytes[range]), into: &references,
                                unreadable: { unread = unread ?? index })
                        }
                    }
                }
            }
        }
        return references
    }

    /// The references one value of a likely attribute holds, appended to `references`
    /// (`unreadable` when it holds a character reference the guess does not decode).
    private static func likely(
        _ kind: LikelyKind, _ raw: UnsafeBufferPointer<UInt8>, into references: inout [String],
        unreadable: () -> Void
    ) {
        guard let base = raw.baseAddress, memchr(base, Int32(UInt8(ascii: "&")), raw.count) != nil else {
            return likely(kind, raw, into: &references)
        }
        guard let decoded = decodedForGuess(ArraySlice(raw)) else { return unreadable() }
        decoded.withUnsafeBufferPointer { likely(kind, $0, into: &references) }
    }

    private static func likely(_ kind: LikelyKind, _ value: UnsafeBufferPointer<UInt8>, into references: inout [String])
    {
        switch kind {
        case .srcset:
            Srcset.forEachValidURL(value) { url in
                references.append(String(decoding: UnsafeBufferPointer(rebasing: value[url]), as: UTF8.self))
            }
        case .style:
            for token in CSSURLs.find(Array(value)) { references.append(token.url) }
        case .url:
            // Trimmed of ASCII whitespace, as `ValueMap.trimmedRange` trims the confirmed value.
            var (lower, upper) = (0, value.count)
            while lower < upper, StartTagScanner.isSpace(value[lower]) { lower += 1 }
            while upper > lower, StartTagScanner.isSpace(value[upper - 1]) { upper -= 1 }
            references.append(String(decoding: UnsafeBufferPointer(rebasing: value[lower..<upper]), as: UTF8.self))
        }
    }

    private static let linkName = Array("link".utf8)
    private static let hrefName = Array("href".utf8)

    /// Whether a scanned `<link>` with these attributes is an icon's (its `rel` read simply,
    /// as `Sites` reads it).
    private static func isIconLink(_ attributes: UnsafeBufferPointer<StartTagScanner.Attribute>, page: [UInt8]) -> Bool
    {
        guard let range = attributes.first(where: { $0.name == relName })?.value else { return false }
        return Sites.isIconRel(String(decoding: page[range], as: UTF8.self))
    }
    private static let relName = Array("rel".utf8)

    /// A value's common character references decoded for the scan's guess: `&amp;`, `&lt;`,
    /// `&gt;`, `&quot;`, and numeric ones to printable ASCII, each closed by `;` (as every
    /// parser decodes them); an `&` that starts no reference kept (followed by neither a letter,
    /// a digit nor `#`, or by letters and digits and then `=`: the HTML Standard keeps such an
    /// `&` in an attribute value, as in `?a=1&b=2`). Nil when it holds any other `&`, which the
    /// parse decides. (A guess only: a site's reference is decided by libxml2's value; one that
    /// differs is decided after the parse.)
    static func decodedForGuess(_ raw: ArraySlice<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = raw.startIndex
        while i < raw.endIndex {
            guard raw[i] == UInt8(ascii: "&") else {
                out.append(raw[i])
                i += 1
                continue
            }
            var end = i + 1
            while end < raw.endIndex, ValueMap.isNameByte(raw[end]) { end += 1 }
            let next = end < raw.endIndex ? raw[end] : nil
            if end == i + 1 && next != UInt8(ascii: "#") || end > i + 1 && next == UInt8(ascii: "=") {
                out.append(UInt8(ascii: "&"))  // no reference: kept as written
                i += 1
                continue
            }
            guard let semicolon = raw[i...].prefix(10).firstIndex(of: UInt8(ascii: ";")),
                let byte = guessedCharacter(raw[(i + 1)..<semicolon])
            else { return nil }
            out.append(byte)
            i = semicolon + 1
        }
        return out
    }

    /// The printable ASCII character a reference's name (between `&` and `;`) stands for, when
    /// it is one of `decodedForGuess`'s.
    private static func guessedCharacter(_ name: ArraySlice<UInt8>) -> UInt8? {
        switch Array(name) {
        case Array("amp".utf8): return UInt8(ascii: "&")
        case Array("lt".utf8): return UInt8(ascii: "<")
        case Array("gt".utf8): return UInt8(ascii: ">")
        case Array("quot".utf8): return UInt8(ascii: "\"")
        default: break
        }
        guard name.first == UInt8(ascii: "#"), name.count > 1 else { return nil }
        var digits = name.dropFirst()
        let hex = digits.first.map { $0 | 0x20 == UInt8(ascii: "x") } ?? false
        if hex { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.count <= 6 else { return nil }
        var value: UInt32 = 0
        for d in digits {
            guard let digit = hex ? ValueMap.hexValue(d) : ValueMap.decimalValue(d) else { return nil }
            value = value * (hex ? 16 : 10) + digit
        }
        return (0x21...0x7E).contains(value) ? UInt8(value) : nil
    }

    /// The `url(…)` tokens of `<style>` elements (raw text: no entities), with their ranges
    /// in the page. Not `@import`s: a stylesheet is no image, and pointed at as cached its own
    /// relative references would break (`--styles` saves it, `StylesheetSaver`).
    static func styleTokens(_ styleTexts: [Range<Int>], page: [UInt8]) -> [(url: String, range: Range<Int>)] {
        styleTexts.flatMap { text in
            CSSURLs.scan(Array(page[text])).filter { !$0.isImport }.map { found in
                let token = found.token
                return (
                    token.url,
                    (text.lowerBound + token.urlRange.lowerBound)..<(text.lowerBound + token.urlRange.upperBound)
                )
            }
        }
    }

    /// What a rewritten reference becomes: its text, and whether that is plain
    /// (`URLText.isPlain`), so that it needs no escaping for an attribute value, a srcset
    /// candidate or a CSS `url(…)`.
    struct Replacement {
        let text: String
        let isPlain: Bool

        /// The text as an attribute value in `quote` (nil: unquoted) holds it.
        func inAttribute(quote: UInt8?) -> String { isPlain ? text : HTMLText.escape(text, quote: quote) }
        /// The text as a srcset candidate's URL.
        var inSrcset: String { isPlain ? text : Srcset.encodeURL(text) }
        /// The text as a CSS `url(…)` holds it.
        var inCSS: String { isPlain ? text : CSSText.escapeURL(text) }
    }

    /// What applying a run of sites produced.
    struct SitesOutput {
        var references: [ImageReference] = []
        var edits: [Edit] = []
        var rewrittenAny = false
        /// Indices of the sites left alone because `account` could not decide a reference.
        var deferred: [Int] = []
        /// Where each attribute value whose every reference was rewritten starts (nothing
        /// is left in it for `absolutize`), in no particular order.
        var rewrittenValues: [Int] = []
    }

    /// How `apply` accounts for a reference: the replacement text of a rewritten one,
    /// `.some(nil)` for one left alone, nil when it cannot decide yet.
    typealias Account = (String, Range<Int>, String, String?, inout [ImageReference]) -> Replacement??

    /// Accounts for each site's references (a site holding one `account` cannot decide yet
    /// is deferred whole) and makes the edits, `--eager`'s included.
    static func apply(_ sites: ArraySlice<Sites.Element>, eager: Bool, lines: LineIndex, account: Account)
        -> SitesOutput
    {
        var out = SitesOutput()
        // Each site is read in place and passed on: a copy (here, or in `SiteApplication`, or
        // of an array slice's element passed as an argument) retained and released each of its
        // arrays and strings.
        sites.withUnsafeBufferPointer { buffer in
            guard let first = buffer.baseAddress else { return }
            for offset in buffer.indices {
                let element = first + offset
                let (referenceCount, editCount, valueCount) =
                    (out.references.count, out.edits.count, out.rewrittenValues.count)
                var site = SiteApplication()
                guard site.urls(element, lines, &out, account), site.srcsets(element, &out, account),
                    site.style(element, &out, account)
                else {
                    out.references.removeSubrange(referenceCount...)
                    out.edits.removeSubrange(editCount...)
                    out.rewrittenValues.removeSubrange(valueCount...)
                    out.deferred.append(sites.startIndex + offset)
                    continue
                }
                let name = element.pointee.name
                // --eager: a lazy image with no usable src gets one.
                if eager, name == "img" || name == "source" {
                    out.edits += eagerEdits(element.pointee, lazy: site.lazy)
                }
                if site.rewrittenAny, let tag = element.pointer(to: \.tag) { out.edits += fetchModeEdits(at: tag) }
                // In document order within the tag (attributes were visited by kind, srcset
                // candidates backwards), so that a page's references and edits, made tag by tag,
                // are in order as a whole and need no sorting.
                sortTail(&out.references, from: referenceCount) { $0.offset }
                sortTail(&out.edits, from: editCount) { $0.range.lowerBound }
                out.rewrittenAny = out.rewrittenAny || site.rewrittenAny
            }
        }
        return out
    }

    /// One site being applied: its values a kind at a time, each false when `account`
    /// cannot decide one of its references yet (the site is then deferred).
    /// (The line index is passed to `urls`, not kept: kept, it was retained and released for
    /// each site.)
    private struct SiteApplication {
        /// Whether any reference of the site was rewritten.
        var rewrittenAny = false
        /// The rewritten lazy values, for `--eager`.
        var lazy: (src: String?, srcset: String?) = (nil, nil)

        mutating func urls(
            _ site: UnsafePointer<Sites.Element>, _ lines: LineIndex, _ out: inout SitesOutput, _ account: Account
        ) -> Bool {
            let name = site.pointee.name
            for value in site.pointee.urls {
                switch value.place {
                case .unlocatable(let decoded):
                    out.references.append(unlocatable(decoded, site.pointee, attribute: value.attribute, lines))
                case .located(let url, let range):
                    guard let result = account(url, range, name, value.attribute, &out.references) else {
                        return false
                    }
                    if let local = result {
                        out.edits.append(Edit(range: range, text: local.inAttribute(quote: value.quote)))
                        rewrittenAny = true
                        if value.attribute != "src" { lazy.src = local.text }
                        if let start = value.start { out.rewrittenValues.append(start) }
                    }
                }
            }
            return true
        }

        mutating func srcsets(_ site: UnsafePointer<Sites.Element>, _ out: inout SitesOutput, _ account: Account)
            -> Bool
        {
            let name = site.pointee.name
            for value in site.pointee.srcsets {
                // A lazy value's candidates made local, last first, for `lazy.srcset`: it is
                // put together once (a replacement each in place would copy the value's tail
                // for every candidate: minutes on a value of 100,000).
                var replaced: [(range: Range<Int>, text: String)] = []
                var (changed, whole) = (false, value.allValid)
                for candidate in value.candidates.reversed() {
                    guard
                        let result = account(
                            candidate.url, candidate.raw, name, value.attribute, &out.references)
                    else { return false }
                    guard let local = result else {
                        whole = false
                        // In the `srcset` a lazy value stands for (new text), a candidate left
                        // remote is written as the absolute URL it means: relative, it would
                        // name another once the page is written elsewhere.
                        if value.attribute != "srcset", let absolute = out.references.last?.resolved {
                            replaced.append((candidate.decoded, Srcset.encodeURL(URLText.withoutPassword(absolute))))
                        }
                        continue
                    }
                    let encoded = local.inSrcset
                    out.edits.append(
                        Edit(
                            range: candidate.raw,
                            text: local.isPlain ? encoded : HTMLText.escape(encoded, quote: value.quote)))
                    if value.attribute != "srcset" { replaced.append((candidate.decoded, encoded)) }
                    (changed, rewrittenAny) = (true, true)
                }
                if changed && whole { out.rewrittenValues.append(value.start) }
                if changed && value.attribute != "srcset" {
                    var rewrittenValue: [UInt8] = []
                    rewrittenValue.reserveCapacity(value.decoded.count)
                    var at = 0
                    for (range, text) in replaced.reversed() {
                        rewrittenValue += value.decoded[at..<range.lowerBound]
                        rewrittenValue += text.utf8
                        at = range.upperBound
                    }
                    rewrittenValue += value.decoded[at...]
                    lazy.srcset = String(decoding: rewrittenValue, as: UTF8.self)
                }
            }
            return true
        }

        /// url(…) in a style attribute, on any element.
        mutating func style(_ site: UnsafePointer<Sites.Element>, _ out: inout SitesOutput, _ account: Account)
            -> Bool
        {
            guard let style = site.pointee.style else { return true }
            let name = site.pointee.name
            var whole = true
            for token in style.tokens {
                guard let result = account(token.url, token.raw, name, "style", &out.references) else {
                    return false
                }
                guard let local = result else {
                    whole = false
                    continue
                }
                let escaped = local.inCSS
                out.edits.append(
                    Edit(range: token.raw, text: local.isPlain ? escaped : HTMLText.escape(escaped, quote: style.quote))
                )
                rewrittenAny = true
            }
            if whole { out.rewrittenValues.append(style.start) }
            return true
        }
    }

    /// A value whose bytes could not be found in the page: reported, left alone.
    private static func unlocatable(_ decoded: String, _ site: Sites.Element, attribute: String, _ lines: LineIndex)
        -> ImageReference
    {
        let offset = site.tag.range.lowerBound
        return ImageReference(
            offset: offset, line: lines.line(of: offset), element: site.name, attribute: attribute,
            original: decoded, resolved: nil, outcome: .skipped,
            note: "value could not be located in the original bytes")
    }

    /// Removes the `crossorigin` and `integrity` attributes of a tag now pointing at a copy on
    /// disk: a browser fetches a `file:` URL in CORS mode never (Chromium then shows nothing),
    /// and the copy is not the bytes an `integrity` was made for once rewritten. The only bytes
    /// changed outside a rewritten value; without it the page shows neither image nor sheet.
    static func fetchModeEdits(_ tag: StartTagScanner.Tag) -> [Edit] {
        withUnsafePointer(to: tag) { fetchModeEdits(at: $0) }
    }

    /// `fetchModeEdits` of a tag read in place: its attributes are looked at through a buffer,
    /// each name's length first (the tag copied out of its site, and each attribute out of the
    /// tag, retained and released their arrays, for every rewritten site of a page).
    static func fetchModeEdits(at tag: UnsafePointer<StartTagScanner.Tag>) -> [Edit] {
        tag.pointee.attributes.withUnsafeBufferPointer { attributes in
            var edits: [Edit] = []
            for i in attributes.indices {
                let count = attributes[i].name.count
                guard count == crossoriginName.count || count == integrityName.count,
                    attributes[i].name == crossoriginName || attributes[i].name == integrityName
                else { continue }
                let end =
                    attributes[i].value.map { $0.upperBound + (attributes[i].quote == nil ? 0 : 1) }
                    ?? attributes[i].nameEnd
                edits.append(Edit(range: (attributes[i].nameEnd - count)..<end, text: ""))
            }
            return edits
        }
    }

    private static let crossoriginName = Array("crossorigin".utf8)
    private static let integrityName = Array("integrity".utf8)

    /// `--eager`: a lazy image whose `src` (or `srcset`) is missing, empty or a `data:`
    /// placeholder gets one pointing at the local copy its lazy attribute was rewritten to.
    private static func eagerEdits(_ site: Sites.Element, lazy: (src: String?, srcset: String?)) -> [Edit] {
        let tag = site.tag
        func placeholder(_ value: String?) -> Bool {
            let trimmed = (value ?? "").trimmingWhitespace()
            return trimmed.isEmpty || trimmed.lowercased().hasPrefix("data:")
        }
        var edits: [Edit] = []
        if site.name == "img", let local = lazy.src, placeholder(site.value("src")) {
            edits.append(
                replaceOrInsert(
                    tag, "src", HTMLText.escape(local, quote: tag.attribute("src")?.quote ?? UInt8(ascii: "\""))))
        }
        if let set = lazy.srcset, placeholder(site.value("srcset")) {
            edits.append(
                replaceOrInsert(
                    tag, "srcset", HTMLText.escape(set, quote: tag.attribute("srcset")?.quote ?? UInt8(ascii: "\""))))
        }
        return edits
    }

    /// Sorts `array[start...]` by `key`, stably: an insertion sort for a tag's few items, a
    /// sort of (key, position) pairs for many (a srcset of 8,000 candidates, visited
    /// backwards, took 3.7 s by insertion).
    @inline(__always)
    static func sortTail<T>(_ array: inout [T], from start: Int, by key: (T) -> Int) {
        guard array.count - start > 1 else { return }
        if array.count - start > 32 {
            let tail = Array(array[start...])
            let order = tail.indices.sorted { (key(tail[$0]), $0) < (key(tail[$1]), $1) }
            array.replaceSubrange(start..., with: order.map { tail[$0] })
            return
        }
        for i in (start + 1)..<array.count {
            var j = i
            while j > start && key(array[j - 1]) > key(array[j]) {
                array.swapAt(j - 1, j)
                j -= 1
            }
        }
    }

    /// `original` with each edit's range replaced by its text (edits in order; one that
    /// overlaps the previous is skipped).
    struct Spliced: Sendable {
        let original: [UInt8]
        let edits: [Edit]
        /// The edits' texts in the page's charset, when that is not UTF-8 (the edits' ranges
        /// are then already the original's).
        var encoded: [[UInt8]]? = nil

        /// How many bytes the output starts with unchanged: up to the first edit (the edits
        /// are in order), or the whole original.
        var unchangedPrefix: Int { edits.first.map { min($0.range.lowerBound, original.count) } ?? original.count }

        /// The pieces in order from `start` (at most `unchangedPrefix`): runs of `original`
        /// between edits, and the edits' texts.
        private func forEachPiece(from start: Int = 0, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
            // The edits read in place, their texts' bytes where they are: a loop copying each
            // edit, then its text to reach its bytes, retained and released each text twice.
            try original.withUnsafeBufferPointer { source in
                var cursor = min(start, unchangedPrefix)
                try edits.withUnsafeBufferPointer { edits in
                    for i in edits.indices where edits[i].range.lowerBound >= cursor {
                        try body(UnsafeBufferPointer(rebasing: source[cursor..<edits[i].range.lowerBound]))
                        if let encoded {
                            try encoded[i].withUnsafeBufferPointer(body)
                        } else if try edits[i].text.utf8.withContiguousStorageIfAvailable(body) == nil {
                            try edits[i].text.withBytes(body)
                        }
                        cursor = edits[i].range.upperBound
                    }
                }
                try body(UnsafeBufferPointer(rebasing: source[cursor...]))
            }
        }

        /// The whole output: sizes first, then one buffer filled by copies (the original
        /// itself, not a copy, when nothing changes).
        func joined() -> [UInt8] {
            if edits.isEmpty { return original }
            var size = 0
            forEachPiece { size += $0.count }
            return [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                var at = 0
                forEachPiece { piece in
                    guard let from = piece.baseAddress, piece.count > 0 else { return }
                    (buffer.baseAddress! + at).initialize(from: from, count: piece.count)
                    at += piece.count
                }
                count = at
            }
        }

        /// Hands the output from byte `start` on (at most `unchangedPrefix`) to `sink` in
        /// blocks of up to 256 KiB gathered in one small buffer (long unchanged runs go
        /// straight from `original`).
        func write(from start: Int = 0, _ sink: (UnsafeRawBufferPointer) throws -> Void) rethrows {
            if edits.isEmpty {
                return try original.withUnsafeBytes {
                    try sink(UnsafeRawBufferPointer(rebasing: $0[min(start, $0.count)...]))
                }
            }
            let capacity = 1 << 18
            let block = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
            defer { block.deallocate() }
            var used = 0
            func flush() throws {
                if used > 0 { try sink(UnsafeRawBufferPointer(rebasing: block[..<used])) }
                used = 0
            }
            try forEachPiece(from: start) { piece in
                guard let from = piece.baseAddress, piece.count > 0 else { return }
                if used + piece.count > capacity { try flush() }
                if piece.count >= capacity { return try sink(UnsafeRawBufferPointer(piece)) }
                (block.baseAddress! + used).copyMemory(from: from, byteCount: piece.count)
                used += piece.count
            }
            try flush()
        }
    }

    struct Edit {
        var range: Range<Int>
        var text: String
    }

    private static func replaceOrInsert(_ tag: StartTagScanner.Tag, _ attr: String, _ escaped: String) -> Edit {
        if let existing = tag.attribute(attr), let range = existing.value, existing.quote != nil {
            return Edit(range: range, text: escaped)
        }
        if let existing = tag.attribute(attr), let range = existing.value {
            return Edit(range: range, text: "\"" + escaped + "\"")
        }
        if let bare = tag.attribute(attr) {
            // `<img src data-src=…>`: the bare attribute is given its value (a second `src`
            // would be ignored: the first one wins).
            return Edit(range: bare.nameEnd..<bare.nameEnd, text: "=\"" + escaped + "\"")
        }
        return Edit(
            range: tag.insertionPoint..<tag.insertionPoint,
            text: " \(attr)=\"\(escaped)\"" + (tag.insertionPoint < tag.range.upperBound - 1 ? " " : ""))
    }

    /// Pairs each libxml2 start element with the scanned tag ending where libxml2 was when it
    /// reported the element (none for elements libxml2 implied, such as a missing `<body>`).
    static func align(_ elements: [LibXML2.StartElement], _ tags: [StartTagScanner.Tag]) -> Matched {
        // Both run in document order: walk them together. (Should libxml2 ever report a
        // position behind the previous one, match through an index instead.)
        var used = [Bool](repeating: false, count: tags.count)
        var tagIndex: [Int] = []
        tagIndex.reserveCapacity(elements.count)
        var t = 0
        var previous = Int.min
        var byEnd: [Int: Int]?
        for e in elements.indices {
            let consumed = elements[e].consumed
            var index: Int?
            if consumed < previous || byEnd != nil {
                if byEnd == nil {
                    var table: [Int: Int] = Dictionary(minimumCapacity: tags.count)
                    for (i, tag) in tags.enumerated() { table[tag.insertionPoint] = i }
                    byEnd = table
                }
                index = byEnd?[consumed]
            } else {
                while t < tags.count && tags[t].insertionPoint < consumed { t += 1 }
                if t < tags.count && tags[t].insertionPoint == consumed { index = t }
            }
            previous = consumed
            if let i = index, !used[i], tags[i].name.elementsEqual(elements[e].name.utf8) {
                used[i] = true
                tagIndex.append(i)
            } else {
                tagIndex.append(-1)
            }
        }
        return Matched(elements: elements, tags: tags, tagIndex: tagIndex)
    }

    /// URL-bearing attributes and `url(…)` tokens made absolute against `base`.
    /// Whether a page written into `directory` keeps `pageURL`'s meaning for relative
    /// references: `pageURL` is a `file:` URL in that very directory.
    /// The `file:` URL of a file, each path segment percent-encoded (`#`, `?`, `%`, `\\`
    /// and controls included), so that the URL parser reads back the same path: a page in a
    /// folder named `a#b` is `file:///…/a%23b/page.html`, not a fragment.
    public static func fileURL(of path: RawPath) -> String { URLText.fileURL(path) }

    static func outputLives(at pageURL: StandardURL, in directory: RawPath) -> Bool {
        guard pageURL.scheme == "file" else { return false }
        let path = HostParser.percentDecode(Array(pageURL.path.utf8))
        guard let slash = path.lastIndex(of: UInt8(ascii: "/")) else { return false }
        let pageDirectory = RawPath(bytes: slash == 0 ? [UInt8(ascii: "/")] : Array(path[..<slash]))
        return pageDirectory.canonical == directory.canonicalFile
    }

    /// `choose` says what becomes of each relative reference: made absolute, kept
    /// (fragment-only ones, when the page's own URL is still its base), or pointed at its
    /// file on disk from where the output lives. A large page's elements are split in two
    /// halves done on two threads (`choose` must be safe to call from both), the edits in order.
    static func absolutize(
        _ matched: Matched, page: [UInt8], base: URLText.Base,
        styleTexts: [Range<Int>], avoiding taken: [Range<Int>], rewrittenValues: [Int] = [],
        choose: (String) -> Absolutizer.Choice = { _ in .absolute }
    ) -> [Edit] {
        let free = FreeRanges(taken)
        let rewritten = Offsets(rewrittenValues)
        return withoutActuallyEscaping(choose) { choose in
            let half = matched.count >= Absolutizer.splitAt ? matched.count / 2 : matched.count
            let (first, second) = WorkerPool.both(
                {
                    var part = Absolutizer(
                        page: page, base: base, free: free, rewritten: rewritten, choose: choose)
                    part.elements(matched, 0..<half)
                    return part.edits
                },
                {
                    var part = Absolutizer(
                        page: page, base: base, free: free, rewritten: rewritten, choose: choose)
                    part.elements(matched, half..<matched.count)
                    part.styleTexts(styleTexts)
                    return part.edits
                })
            return first + second
        }
    }
}

// MARK: - Values in the original bytes
