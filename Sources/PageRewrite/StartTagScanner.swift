import CacheKitSystem
import URLStandard

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds the start tags of an HTML page in its original bytes, with the byte range of each
/// attribute value, tokenizing the way libxml2's HTML parser does (comments, `<!…>` and
/// `<?…>` skipped), except that the elements whose content the HTML Standard reads as text
/// hold no tags here (`script` by its escaped states, `style`, `textarea`, `title`, `xmp`,
/// `iframe`, `noembed`, `noframes`, and `plaintext` to the end): libxml2 before 2.14 parsed
/// tags inside the others, which a browser shows as text (the carried 2.15 reads them as
/// text). libxml2 decides which elements and attributes exist; these positions tell where
/// their values sit (an element with no tag here is not touched), so an edit changes those
/// bytes and nothing else. Works on any ASCII-compatible encoding.
struct StartTagScanner {
    struct Attribute {
        /// Lower-cased name bytes.
        var name: [UInt8]
        /// Range of the value's bytes (inside the quotes), nil for a bare attribute.
        var value: Range<Int>?
        /// The quote character around the value (`"` or `'`), nil when unquoted.
        var quote: UInt8?
        /// Offset just past the name, where a bare attribute's value can be given.
        var nameEnd: Int
    }

    struct Tag {
        /// Lower-cased element name.
        var name: [UInt8]
        /// From `<` to just past `>`.
        var range: Range<Int>
        var attributes: [Attribute]
        /// Offset of the `>` (or of `/` in `/>`), where attributes can be inserted.
        var insertionPoint: Int

        func attribute(_ name: String) -> Attribute? {
            index(of: name).map { attributes[$0] }
        }

        /// The value range and quote of the first attribute named `name` (nil when it has none
        /// or no value), found without copying the attribute (`attribute(_:)`'s copy retained
        /// and released its name, for each of 60,000 attributes of the bench's synthetic page).
        func valueSpan(_ name: String) -> (range: Range<Int>, quote: UInt8?)? {
            index(of: name).flatMap { i in attributes[i].value.map { ($0, attributes[i].quote) } }
        }

        /// The index of the first attribute named `name`: the names are compared in place, by
        /// length first, then as memory (compared as arrays, each name was retained and
        /// released, for every attribute looked at).
        func index(of name: String) -> Int? {
            name.withBytes { bytes in
                attributes.withUnsafeBufferPointer { attributes in
                    attributes.indices.first { i in
                        attributes[i].name.count == bytes.count
                            && attributes[i].name.withUnsafeBufferPointer {
                                bytes.isEmpty || memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0
                            }
                    }
                }
            }
        }
    }

    private static let scriptName = Array("script".utf8)
    private static let styleName = Array("style".utf8)
    private static let plaintextName = Array("plaintext".utf8)
    /// Elements whose content is text to a browser (RAWTEXT and RCDATA, HTML §13.2.5),
    /// `script` and `plaintext` aside.
    private static let textElements: [[UInt8]] =
        ["style", "textarea", "title", "xmp", "iframe", "noembed", "noframes"].map { Array($0.utf8) }
    /// Bit n set when a name in `textElements` is n bytes long.
    private static let textElementLengths: UInt64 = textElements.reduce(0) { $0 | (1 << UInt64($1.count)) }

    /// Whether a tag's name is one of `textElements`: by length first, so that most tags are
    /// passed at once (a set hashed every tag's name: a fifth of the scan's time on a page of
    /// 50,000 tags).
    private static func isTextElement(_ name: [UInt8], lengths: UInt64, among names: [[UInt8]]) -> Bool {
        guard name.count < 64, lengths & (1 << UInt64(name.count)) != 0 else { return false }
        return names.contains(name)
    }

    /// Start tags in document order, and the ranges of raw text inside `style` elements.
    static func scan(_ b: [UInt8]) -> (tags: [Tag], styleTexts: [Range<Int>]) {
        var abrupt: [Range<Int>] = []
        return scan(b, abruptComments: &abrupt)
    }

    /// The comments libxml2 before 2.14 ended elsewhere than browsers do (`<!-->`, `<!--->`,
    /// and one closed by `--!>`: HTML's tokenizer ends them there, libxml2 read on to the next
    /// `-->`, and missed the tags between), whole; none on most pages (checked first). The
    /// carried 2.15 ends them as browsers do; they are still given to it as spaces.
    static func abruptComments(_ b: [UInt8]) -> [Range<Int>] {
        guard mayHoldAbruptComments(b) else { return [] }
        var abrupt: [Range<Int>] = []
        _ = scan(b, abruptComments: &abrupt)
        return abrupt
    }

    /// Whether the page may hold a comment libxml2 ends elsewhere than browsers: a `--!>`,
    /// or a `<!-->` or `<!--->` that does not close a comment opened before it (as in the
    /// common `<!--[if gt IE 8]><!-->`, which is one whole comment). A cheap look first, one
    /// pass over the page's `!`s: a page it passes is scanned (most pages are not).
    private static func mayHoldAbruptComments(_ b: [UInt8]) -> Bool {
        let n = b.count
        let dash = UInt8(ascii: "-")
        let close = UInt8(ascii: ">")
        var i = 0
        while let bang = index(of: UInt8(ascii: "!"), in: b, from: i) {
            i = bang + 1
            if bang >= 2, b[bang - 1] == dash, b[bang - 2] == dash, bang + 1 < n, b[bang + 1] == close { return true }
            guard bang >= 1, b[bang - 1] == UInt8(ascii: "<"), bang + 3 < n, b[bang + 1] == dash, b[bang + 2] == dash,
                b[bang + 3] == close || (bang + 4 < n && b[bang + 3] == dash && b[bang + 4] == close)
            else { continue }
            let at = bang - 1
            guard let before = lastIndex(of: Array("<!--".utf8), in: b, before: at),
                find(b, Array("-->".utf8), from: before + 4, to: at) == nil
            else { return true }
        }
        return false
    }

    /// Where a `--!>` first starts at or after `from`, ending by `end` (found by its `!`).
    private static func bangClose(_ b: [UInt8], from: Int, to end: Int) -> Int? {
        var i = from + 2
        while let bang = index(of: UInt8(ascii: "!"), in: b, from: i, to: end - 1) {
            if b[bang - 1] == UInt8(ascii: "-"), b[bang - 2] == UInt8(ascii: "-"), b[bang + 1] == UInt8(ascii: ">") {
                return bang - 2
            }
            i = bang + 1
        }
        return nil
    }

    /// Where `needle` last starts before `end`.
    private static func lastIndex(of needle: [UInt8], in b: [UInt8], before end: Int) -> Int? {
        var i = end - 1
        while i >= 0 {
            if b[i] == needle[0], i + needle.count <= b.count, b[i..<(i + needle.count)].elementsEqual(needle) {
                return i
            }
            i -= 1
        }
        return nil
    }

    private static func scan(_ b: [UInt8], abruptComments abrupt: inout [Range<Int>]) -> (
        tags: [Tag], styleTexts: [Range<Int>]
    ) {
        var names = NameTable()
        // Read once here: a static's read in the loop is a `swift_once` check per tag.
        let (textLengths, textNames) = (textElementLengths, textElements)
        var tags: [Tag] = []
        tags.reserveCapacity(b.count / 128)
        var styles: [Range<Int>] = []
        var i = 0
        let n = b.count
        while i < n {
            guard b[i] == UInt8(ascii: "<") else {
                i = index(of: UInt8(ascii: "<"), in: b, from: i) ?? n
                continue
            }
            guard i + 1 < n else {
                i += 1
                continue
            }
            let next = b[i + 1]
            if next == UInt8(ascii: "!") {
                if i + 3 < n && b[i + 2] == UInt8(ascii: "-") && b[i + 3] == UInt8(ascii: "-") {
                    let end = commentEnd(b, from: i + 4)
                    if end.abrupt { abrupt.append(i..<end.after) }
                    i = end.after
                } else {
                    i = (b[(i + 2)...].firstIndex(of: UInt8(ascii: ">")) ?? n - 1) + 1
                }
                continue
            }
            if next == UInt8(ascii: "?") {
                i = (b[(i + 2)...].firstIndex(of: UInt8(ascii: ">")) ?? n - 1) + 1
                continue
            }
            if next == UInt8(ascii: "/") {
                i = (b[(i + 2)...].firstIndex(of: UInt8(ascii: ">")) ?? n - 1) + 1
                continue
            }
            guard isLetter(next) else {
                i += 1
                continue
            }
            guard let tag = parseTag(b, at: i, names: &names) else {
                i += 1
                continue
            }
            i = tag.range.upperBound
            // The tag is read before it is appended, so that appending moves it (appended first,
            // it was copied: its name and attributes retained and released).
            var textName: [UInt8]?
            if tag.name == scriptName {
                i = scriptEnd(b, from: i) ?? n
            } else if tag.name == plaintextName {
                i = n
            } else if isTextElement(tag.name, lengths: textLengths, among: textNames) {
                textName = tag.name
            }
            tags.append(tag)
            if let textName {
                // Text: runs to the matching end tag, case-insensitively.
                let end = findEndTag(b, name: textName, from: i) ?? n
                if textName == styleName { styles.append(i..<end) }
                i = end
            }
        }
        return (tags, styles)
    }

    /// Lower-cased names made once each: a page has a few dozen distinct tag and attribute
    /// names among hundreds of thousands of occurrences. Names up to 8 bytes are found by
    /// their bytes packed into an integer; longer ones are made each time.
    struct NameTable {
        /// A direct-mapped cache: a slot holds the last name that hashed to it, its bytes
        /// packed with its length (0: empty) beside the name made, so that a hit is found without
        /// touching the name (a slot read whole retained and released it).
        private var keys = [(packed: UInt64, count: Int)](repeating: (0, 0), count: 512)
        private var names = [[UInt8]](repeating: [], count: 512)

        mutating func name(_ b: [UInt8], _ range: Range<Int>) -> [UInt8] {
            guard range.count <= 8 else { return b[range].map(lower) }
            var packed: UInt64 = 0
            for i in range { packed = packed << 8 | UInt64(lower(b[i])) }
            let slot = Int(truncatingIfNeeded: ((packed ^ UInt64(range.count)) &* 0x9E37_79B9_7F4A_7C15) >> 55)
            if keys[slot] == (packed, range.count) { return names[slot] }
            let made = b[range].map(lower)
            (keys[slot], names[slot]) = ((packed, range.count), made)
            return made
        }
    }

    private static func parseTag(_ b: [UInt8], at start: Int, names: inout NameTable) -> Tag? {
        let n = b.count
        var i = start + 1
        while i < n, !isSpace(b[i]), b[i] != UInt8(ascii: ">"), b[i] != UInt8(ascii: "/") { i += 1 }
        let name = names.name(b, (start + 1)..<i)
        var attributes: [Attribute] = []
        while i < n {
            while i < n, isSpace(b[i]) || b[i] == UInt8(ascii: "/") && !(i + 1 < n && b[i + 1] == UInt8(ascii: ">")) {
                i += 1
            }
            guard i < n else { return nil }
            if b[i] == UInt8(ascii: ">") {
                return Tag(name: name, range: start..<(i + 1), attributes: attributes, insertionPoint: i)
            }
            if b[i] == UInt8(ascii: "/") && i + 1 < n && b[i + 1] == UInt8(ascii: ">") {
                return Tag(name: name, range: start..<(i + 2), attributes: attributes, insertionPoint: i)
            }
            let nameStart = i
            while i < n, !isSpace(b[i]), b[i] != UInt8(ascii: ">"), b[i] != UInt8(ascii: "="),
                !(b[i] == UInt8(ascii: "/") && i + 1 < n && b[i + 1] == UInt8(ascii: ">"))
            {
                i += 1
            }
            if i == nameStart {
                i += 1
                continue
            }
            let attrName = names.name(b, nameStart..<i)
            var j = i
            while j < n, isSpace(b[j]) { j += 1 }
            guard j < n, b[j] == UInt8(ascii: "=") else {
                attributes.append(Attribute(name: attrName, value: nil, quote: nil, nameEnd: i))
                continue
            }
            j += 1
            while j < n, isSpace(b[j]) { j += 1 }
            guard j < n else { return nil }
            if b[j] == UInt8(ascii: "\"") || b[j] == UInt8(ascii: "'") {
                let quote = b[j]
                guard let close = index(of: quote, in: b, from: j + 1) else { return nil }
                attributes.append(Attribute(name: attrName, value: (j + 1)..<close, quote: quote, nameEnd: i))
                i = close + 1
            } else {
                var k = j
                while k < n, !isSpace(b[k]), b[k] != UInt8(ascii: ">") { k += 1 }
                attributes.append(Attribute(name: attrName, value: j..<k, quote: nil, nameEnd: i))
                i = k
            }
        }
        return nil
    }

    /// Where a comment whose `<!--` ends before `from` ends, by HTML's tokenizer (§13.2.5.43
    /// on): at once for `>` or `->`, else past the first `-->` or `--!>` (the end of the page
    /// when neither comes); `abrupt` when libxml2 before 2.14 ended it elsewhere.
    private static func commentEnd(_ b: [UInt8], from start: Int) -> (after: Int, abrupt: Bool) {
        let n = b.count
        if start < n, b[start] == UInt8(ascii: ">") { return (start + 1, true) }
        if start + 1 < n, b[start] == UInt8(ascii: "-"), b[start + 1] == UInt8(ascii: ">") { return (start + 2, true) }
        let closed = find(b, Array("-->".utf8), from: start)
        if let bang = bangClose(b, from: start, to: closed.map { $0 + 3 } ?? n) {
            return (bang + 4, true)
        }
        return (closed.map { $0 + 3 } ?? n, false)
    }

    private static func findEndTag(_ b: [UInt8], name: [UInt8], from: Int) -> Int? {
        var i = from
        while let lt = index(of: UInt8(ascii: "<"), in: b, from: i) {
            if isTag(b, at: lt, name, end: true) { return lt }
            i = lt + 1
            if i >= b.count { break }
        }
        return nil
    }

    /// Whether `<name` (`</name` with `end`) followed by whitespace, `/` or `>` is at `at`,
    /// the name case-insensitively: what the tokenizer takes for that tag in text.
    private static func isTag(_ b: [UInt8], at: Int, _ name: [UInt8], end: Bool) -> Bool {
        let start = at + (end ? 2 : 1)
        guard start + name.count < b.count, !end || b[at + 1] == UInt8(ascii: "/") else { return false }
        for k in 0..<name.count where lower(b[start + k]) != name[k] { return false }
        let after = b[start + name.count]
        return isSpace(after) || after == UInt8(ascii: "/") || after == UInt8(ascii: ">")
    }

    /// Where a script's text ends (the `<` of its end tag), by the HTML tokenizer's script
    /// data states (§13.2.5.4–.21): after `<!--`, a `<script` begins a part in which
    /// `</script>` does not end the element (it ends the part), until `-->`. So
    /// `<script><!-- document.write("<script>…</script><img src=…>") --></script>` is one
    /// script, as a browser reads it.
    private static func scriptEnd(_ b: [UInt8], from: Int) -> Int? {
        let n = b.count
        var (i, escaped, doubleEscaped) = (from, false, false)
        while i < n {
            if !escaped {
                guard let lt = index(of: UInt8(ascii: "<"), in: b, from: i) else { return nil }
                if isTag(b, at: lt, scriptName, end: true) { return lt }
                if lt + 3 < n, b[lt + 1] == UInt8(ascii: "!"), b[lt + 2] == UInt8(ascii: "-"),
                    b[lt + 3] == UInt8(ascii: "-")
                {
                    // At the first `-`: `<!-->` and `<!--->` close at once.
                    (escaped, i) = (true, lt + 2)
                } else {
                    i = lt + 1
                }
                continue
            }
            let c = b[i]
            if c == UInt8(ascii: "-"), i + 2 < n, b[i + 1] == UInt8(ascii: "-"), b[i + 2] == UInt8(ascii: ">") {
                (escaped, doubleEscaped, i) = (false, false, i + 3)
            } else if c == UInt8(ascii: "<"), isTag(b, at: i, scriptName, end: true) {
                if !doubleEscaped { return i }
                (doubleEscaped, i) = (false, i + 2)
            } else if c == UInt8(ascii: "<"), !doubleEscaped, isTag(b, at: i, scriptName, end: false) {
                (doubleEscaped, i) = (true, i + 1)
            } else {
                i += 1
            }
        }
        return nil
    }

    /// Where `needle` first starts at or after `from`, ending by `end` (memchr for its first
    /// byte, then the rest compared).
    static func find(_ b: [UInt8], _ needle: [UInt8], from: Int, to end: Int? = nil) -> Int? {
        let end = min(end ?? b.count, b.count)
        guard let first = needle.first, from >= 0 else { return nil }
        var i = from
        while i <= end - needle.count, let at = index(of: first, in: b, from: i, to: end - needle.count + 1) {
            if b[at..<(at + needle.count)].elementsEqual(needle) { return at }
            i = at + 1
        }
        return nil
    }

    /// The next `byte` at or after `from` (memchr).
    @inline(__always) static func index(of byte: UInt8, in b: [UInt8], from: Int, to end: Int? = nil) -> Int? {
        let end = min(end ?? b.count, b.count)
        guard from < end else { return nil }
        return b.withUnsafeBufferPointer { p -> Int? in
            guard let found = memchr(p.baseAddress! + from, Int32(byte), end - from) else { return nil }
            return UnsafeRawPointer(found) - UnsafeRawPointer(p.baseAddress!)
        }
    }

    @inline(__always) static func isSpace(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0C || c == 0x0D
    }
    @inline(__always) static func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
    @inline(__always) static func lower(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c | 0x20 : c }
}
