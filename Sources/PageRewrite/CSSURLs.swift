import CacheKitSystem
import URLStandard

/// `url(…)` tokens in CSS text, with the range of each URL (quotes excluded).
public enum CSSURLs {
    /// A candidate URL's place in the attribute's bytes.
    public struct Token: Equatable, Sendable {
        /// Where the URL is in the attribute value.
        public var urlRange: Range<Int>
        /// The URL.
        public var url: String
    }

    /// Every candidate URL in `text`, with its place, for rewriting in place.
    public static func find(_ text: [UInt8]) -> [Token] {
        scan(text).map(\.token)
    }

    /// Every `url(…)` token, every `@import` string and every string of an `image-set(…)` in
    /// `text`, in order, each marked whether it is an import (`@import url(…)` or
    /// `@import "…"`), its URL with CSS escapes read. One pass, as CSS Syntax
    /// §4 tokenizes: a comment or a string is skipped whole, so a `url(` or an `@import`
    /// inside one is no reference, and no two references overlap.
    /// (`stepping` false: byte by byte only, for the tests that compare the two.)
    static func scan(_ text: [UInt8], stepping: Bool = true) -> [(token: Token, isImport: Bool)] {
        var out: [(token: Token, isImport: Bool)] = []
        var i = 0
        let n = text.count
        // Whether the last token (whitespace and comments aside) was the `@import` keyword.
        var afterImport = false
        // Open parentheses, and the depth of an open `image-set(`, whose strings are URLs
        // (CSS Images 4 §2.2).
        var depth = 0
        var imageSet: Int?
        let classes = byteClass
        while i < n {
            // Bytes that start nothing (most of a stylesheet: names, numbers, `:`, `;`, `{`)
            // are stepped over at once; they only end an `@import`'s reach.
            if stepping, case let plain = plainRun(text, from: i, classes), plain > i {
                afterImport = false
                i = plain
                continue
            }
            let c = text[i]
            if c == UInt8(ascii: "/") && i + 1 < n && text[i + 1] == UInt8(ascii: "*") {
                i = StartTagScanner.find(text, commentEnd, from: i + 2).map { $0 + 2 } ?? n
                continue
            }
            if isSpace(c) {
                i += 1
                continue
            }
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                let string = stringToken(text, from: i)
                if afterImport || imageSet != nil, let contents = string.contents {
                    out.append((Token(urlRange: contents, url: unescaped(text[contents])), afterImport))
                }
                afterImport = false
                i = string.end
                continue
            }
            if c == UInt8(ascii: "\\") {
                // An escape outside a string (§4.3.7): part of a name, never the start of a string.
                afterImport = false
                i += escapeLength(text, at: i)
                continue
            }
            if let length = imageSetFunction(text, at: i) {
                depth += 1
                imageSet = imageSet ?? depth
                afterImport = false
                i += length
                continue
            }
            if c == UInt8(ascii: "(") || c == UInt8(ascii: ")") {
                if c == UInt8(ascii: "(") {
                    depth += 1
                } else {
                    if depth == imageSet { imageSet = nil }
                    depth = max(0, depth - 1)
                }
                afterImport = false
                i += 1
                continue
            }
            if isImportKeyword(text, at: i) {
                afterImport = true
                i += 7
                continue
            }
            if let (token, next) = urlToken(text, at: i) {
                if let token { out.append((token, afterImport)) }
                afterImport = false
                i = next
                continue
            }
            afterImport = false
            i += 1
        }
        return out
    }

    /// For each byte value, what it is to `scan`: 0, a byte it only steps over; 1, a byte it
    /// acts on (a comment's `/`, whitespace, quotes, `\\`, parentheses, `@`); 2, `u`, `i` or
    /// `-`, which may start `url(`, `image-set(` or `-webkit-image-set(`; 3, another ASCII
    /// letter (after a letter or `-`, a 2 starts no name).
    private static let byteClass: [UInt8] = (0...255).map { value -> UInt8 in
        let byte = UInt8(value)
        if "/\"'\\()@ \t\n\u{0C}\r".utf8.contains(byte) { return 1 }
        if "uUiI-".utf8.contains(byte) { return 2 }
        return StartTagScanner.isLetter(byte) ? 3 : 0
    }

    /// Where the run of bytes from `start` that `scan` would only step over ends: the first
    /// byte it acts on (`start` itself when it is one).
    @inline(__always)
    private static func plainRun(_ bytes: [UInt8], from start: Int, _ byteClasses: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { text in
            byteClasses.withUnsafeBufferPointer { classes in
                var j = start
                var previous: UInt8 = start > 0 ? classes[Int(text[start - 1])] : 0
                while j < text.count {
                    let kind = classes[Int(text[j])]
                    if kind == 1 || (kind == 2 && previous < 2) { return j }
                    previous = kind
                    j += 1
                }
                return j
            }
        }
    }

    private static let keyword = Array("@import".utf8)
    private static let imageSetNames = [Array("image-set(".utf8), Array("-webkit-image-set(".utf8)]

    /// The length of `image-set(` or `-webkit-image-set(` (any case) at `i`, not the end of a
    /// longer name; nil when neither is there.
    private static func imageSetFunction(_ text: [UInt8], at i: Int) -> Int? {
        let c = text[i] | 0x20
        guard c == UInt8(ascii: "i") || c == UInt8(ascii: "-"),
            i == 0 || !(StartTagScanner.isLetter(text[i - 1]) || text[i - 1] == UInt8(ascii: "-"))
        else { return nil }
        for name in imageSetNames where i + name.count <= text.count {
            var k = 0
            while k < name.count, text[i + k] | (StartTagScanner.isLetter(text[i + k]) ? 0x20 : 0) == name[k] { k += 1 }
            if k == name.count { return k }
        }
        return nil
    }

    /// How many bytes the escape at `i` (a backslash) takes (CSS Syntax §4.3.7): up to six
    /// hex digits and one whitespace after them, else the one code point's byte after it.
    static func escapeLength(_ text: [UInt8], at i: Int) -> Int {
        var j = i + 1
        guard j < text.count else { return 1 }
        guard isHex(text[j]) else { return 2 }
        while j < text.count, j < i + 7, isHex(text[j]) { j += 1 }
        if j < text.count, isSpace(text[j]) {
            j += text[j] == 0x0D && j + 1 < text.count && text[j + 1] == 0x0A ? 2 : 1
        }
        return j - i
    }

    private static func isHex(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c | 0x20 >= UInt8(ascii: "a") && c | 0x20 <= UInt8(ascii: "f"))
    }

    /// A URL's or string's text with its escapes read (CSS Syntax §4.3.7: `\2f ` is `/`, `\)`
    /// is `)`; zero, a surrogate or past U+10FFFF is U+FFFD; an escaped newline in a string
    /// is nothing).
    static func unescaped(_ raw: ArraySlice<UInt8>) -> String {
        guard raw.contains(UInt8(ascii: "\\")) else { return String(decoding: raw, as: UTF8.self) }
        let text = Array(raw)
        var out: [UInt8] = []
        var i = 0
        while i < text.count {
            guard text[i] == UInt8(ascii: "\\"), i + 1 < text.count else {
                out.append(text[i])
                i += 1
                continue
            }
            let length = escapeLength(text, at: i)
            let next = text[i + 1]
            if isHex(next) {
                let digits = text[(i + 1)...].prefix { isHex($0) }.prefix(6)
                let value = UInt32(String(decoding: digits, as: UTF8.self), radix: 16) ?? 0
                let scalar = value == 0 ? nil : Unicode.Scalar(value)
                out += Array(String(scalar ?? "\u{FFFD}").utf8)
            } else if next != 0x0A && next != 0x0C && next != 0x0D {
                out.append(next)
            }
            i += length
        }
        return String(decoding: out, as: UTF8.self)
    }
    private static let commentEnd = Array("*/".utf8)

    private static func isSpace(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0C || c == 0x0D
    }

    /// `@import` (any case) at `i`, not the start of a longer name.
    private static func isImportKeyword(_ text: [UInt8], at i: Int) -> Bool {
        guard text[i] == UInt8(ascii: "@"), i + keyword.count <= text.count else { return false }
        for k in 1..<keyword.count where text[i + k] | 0x20 != keyword[k] { return false }
        let after = i + keyword.count
        return after == text.count || !(StartTagScanner.isLetter(text[after]) || text[after] == UInt8(ascii: "-"))
    }

    /// The string starting with the quote at `start` (CSS Syntax §4.3.5): its contents when
    /// it is closed by the same quote (a backslash escapes the next byte), and where scanning
    /// goes on. An unescaped newline ends it unclosed, before the newline; so does the end.
    private static func stringToken(_ text: [UInt8], from start: Int) -> (contents: Range<Int>?, end: Int) {
        let quote = text[start]
        var j = start + 1
        while j < text.count {
            let c = text[j]
            if c == quote { return ((start + 1)..<j, j + 1) }
            if c == 0x0A || c == 0x0C || c == 0x0D { return (nil, j) }
            j += c == UInt8(ascii: "\\") ? 2 : 1
        }
        return (nil, text.count)
    }

    /// A `url(` at `i`: its token (nil when it holds no URL or is not closed) and where
    /// scanning goes on; nil when there is no `url(` at `i`.
    private static func urlToken(_ text: [UInt8], at i: Int) -> (Token?, Int)? {
        let n = text.count
        guard i + 4 <= n, text[i] | 0x20 == UInt8(ascii: "u"), text[i + 1] | 0x20 == UInt8(ascii: "r"),
            text[i + 2] | 0x20 == UInt8(ascii: "l"), text[i + 3] == UInt8(ascii: "("),
            i == 0 || !(StartTagScanner.isLetter(text[i - 1]) || text[i - 1] == UInt8(ascii: "-"))
        else { return nil }
        var j = i + 4
        while j < n, isSpace(text[j]) { j += 1 }
        guard j < n else { return (nil, n) }
        var start = j
        var end = j
        if text[j] == UInt8(ascii: "\"") || text[j] == UInt8(ascii: "'") {
            let string = stringToken(text, from: j)
            guard let contents = string.contents else { return (nil, string.end) }
            (start, end) = (contents.lowerBound, contents.upperBound)
            j = string.end
            while j < n, isSpace(text[j]) { j += 1 }
            guard j < n, text[j] == UInt8(ascii: ")") else { return (nil, j) }
        } else {
            while end < n, text[end] != UInt8(ascii: ")"), !isSpace(text[end]),
                text[end] != UInt8(ascii: "\""), text[end] != UInt8(ascii: "'")
            {
                end += text[end] == UInt8(ascii: "\\") ? min(escapeLength(text, at: end), n - end) : 1
            }
            j = end
            while j < n, isSpace(text[j]) { j += 1 }
            guard j < n, text[j] == UInt8(ascii: ")") else { return (nil, j) }
        }
        guard end > start else { return (nil, j + 1) }
        return (Token(urlRange: start..<end, url: unescaped(text[start..<end])), j + 1)
    }
}
