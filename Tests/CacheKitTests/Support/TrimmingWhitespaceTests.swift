import XCTest

@testable import CacheKitSystem

final class TrimmingWhitespaceTests: XCTestCase {
    /// The trimming (with its shortcut for strings that start and end with printable ASCII)
    /// is the Character-by-Character trimming, on every string of up to three pieces among
    /// ASCII and Unicode whitespace, combining marks, CR LF and printable text.
    func testTheShortcutTrimsAsCharactersDo() {
        func characterByCharacter(_ text: String) -> String {
            var s = Substring(text)
            while let f = s.first, f.isWhitespace { s = s.dropFirst() }
            while let l = s.last, l.isWhitespace { s = s.dropLast() }
            return String(s)
        }
        let pieces = [
            "", "a", "#x", "~", " ", "\t", "\n", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{A0}", "\u{2003}", "\u{3000}",
            "\u{301}", "é", "a\u{301}", " \u{301}", "\u{7F}", "\u{1}", "x y", "日本"
        ]
        var checked = 0
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    let text = a + b + c
                    XCTAssertEqual(text.trimmingWhitespace(), characterByCharacter(text), text.debugDescription)
                    checked += 1
                }
            }
        }
        XCTAssertEqual(checked, pieces.count * pieces.count * pieces.count)
    }
}
