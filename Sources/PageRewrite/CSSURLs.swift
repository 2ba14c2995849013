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
        var out: [Token] = []
        var i = 0
        let n = text.count
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0C || c == 0x0D }
        while i + 4 <= n {
            // Skip comments.
            if text[i] == UInt8(ascii: "/") && i + 1 < n && text[i + 1] == UInt8(ascii: "*") {
                i = StartTagScanner.find(text, Array("*/".utf8), from: i + 2).map { $0 + 2 } ?? n
                continue
            }
            let isURL =
                (text[i] | 0x20) == UInt8(ascii: "u") && (text[i + 1] | 0x20) == UInt8(ascii: "r")
                && (text[i + 2] | 0x20) == UInt8(ascii: "l") && text[i + 3] == UInt8(ascii: "(")
                && (i == 0 || !(StartTagScanner.isLetter(text[i - 1]) || text[i - 1] == UInt8(ascii: "-")))
            guard isURL else {
                i += 1
                continue
            }
            var j = i + 4
            while j < n, isSpace(text[j]) { j += 1 }
            guard j < n else { break }
            var start = j
            var end = j
            if text[j] == UInt8(ascii: "\"") || text[j] == UInt8(ascii: "'") {
                let quote = text[j]
                start = j + 1
                guard let close = text[start...].firstIndex(of: quote) else {
                    i = j
                    continue
                }
                end = close
                j = close + 1
                while j < n, isSpace(text[j]) { j += 1 }
                guard j < n, text[j] == UInt8(ascii: ")") else {
                    i = j
                    continue
                }
            } else {
                while end < n, text[end] != UInt8(ascii: ")"), !isSpace(text[end]),
                    text[end] != UInt8(ascii: "\""), text[end] != UInt8(ascii: "'")
                { end += 1 }
                j = end
                while j < n, isSpace(text[j]) { j += 1 }
                guard j < n, text[j] == UInt8(ascii: ")") else {
                    i = j
                    continue
                }
            }
            if end > start {
                out.append(Token(urlRange: start..<end, url: String(decoding: text[start..<end], as: UTF8.self)))
            }
            i = j + 1
        }
        return out
    }
}
