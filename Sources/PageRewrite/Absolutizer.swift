/// One part of a page's absolutizing: the edits that make its relative references absolute.
struct Absolutizer {
    /// Below this many elements, one thread does it all.
    static let splitAt = 4096
    /// The attributes that hold one URL.
    private static let single: Set<String> = [
        "href", "src", "action", "formaction", "cite", "data", "poster", "background", "longdesc",
        "usemap", "manifest", "xlink:href", "data-src", "data-original", "data-lazy-src", "icon", "codebase"
    ]
    /// The page's bytes (UTF-8).
    let page: [UInt8]
    /// What relative references resolve against.
    let base: URLText.Base
    /// Where an edit may go.
    let free: FreeRanges
    /// Where the values whose every reference was made local start: none of their
    /// references is free, so they are passed over unread.
    let rewritten: Offsets
    /// What becomes of each relative reference.
    let choose: (String) -> Choice
    /// `choose`'s answers so far (a page repeats its references).
    private var chosen: [String: Choice] = [:]
    /// What this part found, in document order.
    private(set) var edits: [PageRewriter.Edit] = []
    /// How far through `rewritten` the elements, read in order, have come.
    private var rewrittenCursor: Offsets.Cursor = 0

    init(
        page: [UInt8], base: URLText.Base, free: FreeRanges, rewritten: Offsets = Offsets([]),
        choose: @escaping (String) -> Choice
    ) {
        self.page = page
        self.base = base
        self.free = free
        self.rewritten = rewritten
        self.choose = choose
    }

    /// What becomes of a relative reference.
    enum Choice {
        /// Made absolute against the base.
        case absolute
        /// Left as it is (a fragment alone points into the page itself).
        case keep
        /// Replaced by this text, before escaping: a file on disk named from where the
        /// output lives.
        case local(String)
    }

    private mutating func choice(_ reference: String) -> Choice {
        if let known = chosen[reference] { return known }
        let answer = choose(reference)
        chosen[reference] = answer
        return answer
    }

    /// A relative `url` at `range` made absolute (or pointed at its file on disk), by
    /// `encode`, then escaped for an attribute value in `quote` (nil: unquoted) when
    /// `inAttribute`.
    private mutating func add(
        _ url: String, at range: Range<Int>, inAttribute: Bool = true, quote: UInt8?, keepUnfetchable: Bool = false,
        encode: (String) -> String = { $0 }
    ) {
        guard free(range), URLText.isRelative(url) else { return }
        let text: String
        switch choice(url) {
        case .keep: return
        case .local(let path): text = encode(path)
        case .absolute:
            guard let absolute = URLText.resolve(url, against: base, keepUnfetchable: keepUnfetchable) else { return }
            text = encode(URLText.withoutPassword(absolute.absolute))
        }
        edits.append(PageRewriter.Edit(range: range, text: inAttribute ? HTMLText.escape(text, quote: quote) : text))
    }

    mutating func elements(_ matched: PageRewriter.Matched, _ indices: Range<Int>) {
        // Elements and tags read in place, through pointers (passed as values out of their
        // arrays, each was copied: a retain and a release of its arrays, for every element of
        // the page), and only those with an attribute libxml2 kept for us.
        matched.elements.withUnsafeBufferPointer { elements in
            matched.tags.withUnsafeBufferPointer { tags in
                for i in indices {
                    let t = matched.tagIndex[i]
                    guard t >= 0, !elements[i].attributes.isEmpty, elements[i].name != "base" else { continue }
                    references(of: elements.baseAddress! + i, tag: tags.baseAddress! + t)
                }
            }
        }
    }

    /// The relative references of one element's URL attributes.
    private mutating func references(
        of element: UnsafePointer<LibXML2.StartElement>, tag: UnsafePointer<StartTagScanner.Tag>
    ) {
        // The attributes read in place: a value is bound (a retain) only once it is to be read.
        element.pointee.attributes.withUnsafeBufferPointer { attributes in
            for a in attributes.indices {
                guard let raw = tag.pointee.valueSpan(attributes[a].name),
                    !rewritten.contains(raw.range.lowerBound, from: &rewrittenCursor)
                else { continue }
                references(in: attributes[a].name, attributes[a].value, raw, of: element)
            }
        }
    }

    /// The relative references in one attribute's value (`decoded`, as libxml2 gave it), at
    /// `raw` in the page.
    private mutating func references(
        in name: String, _ decoded: String, _ raw: (range: Range<Int>, quote: UInt8?),
        of element: UnsafePointer<LibXML2.StartElement>
    ) {
        let single = Self.single.contains(name)
        // Only the values that can hold a reference are mapped (`rel`, `type`, `http-equiv`
        // and a `content` outside `<meta>` never do).
        let srcset = name == "srcset" || name == "data-srcset" || name == "data-lazy-srcset"
        let refresh = name == "content" && element.pointee.name == "meta"
        guard single || srcset || name == "style" || name == "ping" || refresh,
            let map = ValueMap(raw: page, range: raw.range, expected: decoded)
        else { return }
        if single {
            let trimmed = map.trimmedRange()
            guard !trimmed.isEmpty else { return }
            add(
                String(decoding: map.decoded[trimmed], as: UTF8.self), at: map.rawRange(trimmed),
                quote: raw.quote, keepUnfetchable: true)
        } else if srcset {
            for candidate in Srcset.parse(map.text(expected: decoded)) {
                add(
                    candidate.url, at: map.rawRange(candidate.urlRange), quote: raw.quote,
                    encode: Srcset.encodeURL)
            }
        } else if name == "style" {
            for token in CSSURLs.find(Array(map.decoded)) {
                add(token.url, at: map.rawRange(token.urlRange), quote: raw.quote, encode: CSSText.escapeURL)
            }
        } else if name == "ping" {
            // A set of space-separated URLs (HTML §4.6.5).
            for token in Self.spaceSeparated(map.decoded) {
                add(
                    String(decoding: map.decoded[token], as: UTF8.self), at: map.rawRange(token),
                    quote: raw.quote)
            }
        } else if refresh,
            element.pointee.attributes.contains(where: { $0.0 == "http-equiv" && $0.1.lowercased() == "refresh" }),
            let url = Self.refreshURL(map.decoded)
        {
            add(
                String(decoding: map.decoded[url], as: UTF8.self), at: map.rawRange(url), quote: raw.quote,
                keepUnfetchable: true)
        }
    }

    /// The ranges of the tokens of a space-separated list (ASCII whitespace).
    static func spaceSeparated(_ bytes: [UInt8]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var i = 0
        while i < bytes.count {
            while i < bytes.count, StartTagScanner.isSpace(bytes[i]) { i += 1 }
            let start = i
            while i < bytes.count, !StartTagScanner.isSpace(bytes[i]) { i += 1 }
            if i > start { out.append(start..<i) }
        }
        return out
    }

    /// The URL in a refresh `<meta>`'s `content` (`5; url=next.html`), by HTML's shared
    /// declarative refresh steps (§4.2.5.3): a time, then `;` or `,`, then the URL, optionally
    /// after `url=` and inside quotes; nil when it names none.
    static func refreshURL(_ bytes: [UInt8]) -> Range<Int>? {
        let n = bytes.count
        var i = 0
        func spaces() { while i < n, StartTagScanner.isSpace(bytes[i]) { i += 1 } }
        spaces()
        let digits = i
        while i < n, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
        guard i > digits || (i < n && bytes[i] == UInt8(ascii: ".")) else { return nil }
        while i < n, bytes[i] >= 0x30 && bytes[i] <= 0x39 || bytes[i] == UInt8(ascii: ".") { i += 1 }
        guard i < n, StartTagScanner.isSpace(bytes[i]) || bytes[i] == UInt8(ascii: ";") || bytes[i] == UInt8(ascii: ",")
        else { return nil }
        spaces()
        if i < n, bytes[i] == UInt8(ascii: ";") || bytes[i] == UInt8(ascii: ",") { i += 1 }
        spaces()
        guard i < n else { return nil }
        let afterTime = i
        if i + 3 <= n, bytes[i..<(i + 3)].map({ $0 | 0x20 }) == Array("url".utf8) {
            i += 3
            spaces()
            if i < n, bytes[i] == UInt8(ascii: "=") {
                i += 1
                spaces()
            } else {
                i = afterTime
            }
        }
        var end = n
        if i < n, bytes[i] == UInt8(ascii: "'") || bytes[i] == UInt8(ascii: "\"") {
            let quote = bytes[i]
            i += 1
            end = bytes[i...].firstIndex(of: quote) ?? n
        }
        while end > i, StartTagScanner.isSpace(bytes[end - 1]) { end -= 1 }
        return end > i ? i..<end : nil
    }

    mutating func styleTexts(_ texts: [Range<Int>]) {
        for text in texts {
            for token in CSSURLs.find(Array(page[text])) {
                let r = (text.lowerBound + token.urlRange.lowerBound)..<(text.lowerBound + token.urlRange.upperBound)
                add(token.url, at: r, inAttribute: false, quote: nil, encode: CSSText.escapeURL)
            }
        }
    }
}
