import CacheKitSystem
import Foundation
import URLStandard

/// Text placed into an attribute value.
enum HTMLText {
    /// Escapes `&` and the value's own quote (for an unquoted value, also whitespace and `>`,
    /// which our URLs never contain).
    static func escape(_ text: String, quote: UInt8?) -> String {
        // & " ' < > as bits of one word (all below 64): one test a byte.
        let special: UInt64 = 1 << 38 | 1 << 34 | 1 << 39 | 1 << 60 | 1 << 62
        if !text.containsByte(where: { $0 < 64 && special >> UInt64($0) & 1 != 0 }) {
            return text
        }
        var out = ""
        for ch in text.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "\"" where quote != UInt8(ascii: "'"): out += "&quot;"
            case "'" where quote == UInt8(ascii: "'"): out += "&#39;"
            case "<" where quote == nil, ">" where quote == nil: out += ch == "<" ? "&lt;" : "&gt;"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out
    }
}
