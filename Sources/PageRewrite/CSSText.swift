import CacheKitSystem
import Foundation
import URLStandard

/// Text placed inside `url(…)`.
enum CSSText {
    /// Our URLs are percent-encoded already; parentheses, quotes and spaces are encoded too
    /// so the value works quoted or not.
    static func escapeURL(_ url: String) -> String {
        // ( ) ' " and space as bits of one word (all below 64): one test a byte.
        let special: UInt64 = 1 << 40 | 1 << 41 | 1 << 39 | 1 << 34 | 1 << 32
        if !url.containsByte(where: { $0 < 64 && special >> UInt64($0) & 1 != 0 }) {
            return url
        }
        return url.replacingOccurrences(of: "(", with: "%28").replacingOccurrences(of: ")", with: "%29")
            .replacingOccurrences(of: "'", with: "%27").replacingOccurrences(of: "\"", with: "%22")
            .replacingOccurrences(of: " ", with: "%20")
    }
}
