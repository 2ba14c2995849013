import Foundation
import TestSupport
import XCTest

@testable import CacheKit
@testable import CacheKitFetch
@testable import CacheKitFiles
@testable import CacheKitPrune
@testable import CacheKitStore
@testable import CacheKitSupport
@testable import CacheKitSystem
@testable import CacheKitWalk
@testable import PageRewrite
@testable import URLStandard

/// The byte-level fast paths give exactly what the general code gives, on generated input
/// built to hit their edges (dot segments, `%`, ports, case, schemes, fragments, queries).
final class FastPathTests: XCTestCase {
    /// A small deterministic generator (SplitMix64), so a failure names a reproducible case.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let pieces = [
        "a", "img", "B", "0", "9", ".", "..", "/", "//", "?", "#", "%", "%2F", "%zz", "%4", ":", "@", "-", "_", "~",
        "!", "$", "&", "'", "(", ")", "*", "+", ",", ";", "=", " ", "\t", "é", "[", "]", "\\", "|", "^", "x.png",
        "http:", "https:", "HTTP:", "ftp:", "data:", "javascript:", "http://", "https://", "//Host", "//host:8080",
        "//user@host", "fakehost", "FakeHost", "a.b-c", ":80", ":443", "./", "../", "/.", "/..", "q=1", "#frag"
    ]

    func randomText(_ rng: inout SplitMix, maxPieces: Int = 7) -> String {
        let count = Int.random(in: 0...maxPieces, using: &rng)
        return (0..<count).map { _ in Self.pieces.randomElement(using: &rng)! }.joined()
    }

    /// The escapes' one-word byte tests pass through exactly the texts that need nothing.
    /// Stepping over a stylesheet's plain bytes finds exactly the tokens the byte-by-byte
    /// loop finds, on generated CSS built from the pieces that matter (names ending in `u`,
    /// `i` or `-` before `url(`, escapes, comments, strings, `@import`, `image-set(`).
    func testCSSSteppingFindsWhatTheByteLoopFinds() {
        let pieces = [
            "url(", "URL(", "u", "i", "-", "a", "z", "0", "(", ")", " ", "\n", "\"", "'", "\\", "\\75 rl(", "/*", "*/",
            "@import", "@IMPORT ", "image-set(", "-webkit-image-set(", "ximage-set(", "curl(", "-url(", "x.png",
            ";", "{", "}", ":", ",", "1x", "é", "\t"
        ]
        var rng = SplitMix(state: 17)
        var found = 0
        for _ in 0..<20_000 {
            var text = ""
            for _ in 0..<Int.random(in: 1...24, using: &rng) { text += pieces.randomElement(using: &rng)! }
            let bytes = Array(text.utf8)
            let stepped = CSSURLs.scan(bytes)
            let byByte = CSSURLs.scan(bytes, stepping: false)
            found += stepped.count
            XCTAssertEqual(stepped.map(\.token), byByte.map(\.token), text.debugDescription)
            XCTAssertEqual(stepped.map(\.isImport), byByte.map(\.isImport), text.debugDescription)
        }
        XCTAssertGreaterThan(found, 500)
    }

    /// The scan's test of an attribute name gives each name of `likelyNames` its kind and
    /// every other name none: other names of the same lengths, names that start or end like
    /// one, and every one-byte change of each.
    func testLikelyKindIsLikelyNames() {
        func kind(_ name: String) -> PageRewriter.LikelyKind? {
            Array(name.utf8).withUnsafeBufferPointer { PageRewriter.likelyKind($0) }
        }
        var others = [
            "", "s", "sr", "srcs", "alt", "href", "class", "data-", "data-srcse", "data-lazy-srcsets", "posters"
        ]
        for (name, expected) in PageRewriter.likelyNames {
            XCTAssertEqual(kind(name), expected, name)
            let bytes = Array(name.utf8)
            for i in bytes.indices {
                var changed = bytes
                changed[i] = changed[i] == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x")
                others.append(String(decoding: changed, as: UTF8.self))
            }
            others += [String(name.dropLast()), name + "x", "x" + name]
        }
        for name in others where !PageRewriter.likelyNames.contains(where: { $0.0 == name }) {
            XCTAssertNil(kind(name), name)
        }
    }

    /// An asset's readable name taken from the URL's bytes is the name the parsed URL gives,
    /// for every URL the shortcut takes (and it takes the plain ones), on generated http(s)
    /// URLs: hosts with ports, paths of several segments (empty ones and a trailing `/`
    /// included), segments of letters, digits, `-`, `_`, `.`, `%`, upper case and non-ASCII,
    /// long ones, and queries and fragments.
    func testAPlainAssetNameIsTheParsedURLsName() {
        var random = SplitMix(state: 11)
        let pieces = [
            "a", "B", "img", "0", "-", "_", ".", "..", "png", "JPG", "tar.gz", "%20", "%C3%A9", "\u{E9}",
            "x.verylongext", String(repeating: "n", count: 90), ".hidden", "a.b.c", "~", "+", "!"
        ]
        var taken = 0
        for _ in 0..<6000 {
            var url = ["http://", "https://", "HTTP://", "http://user@"].randomElement(using: &random)!
            url += ["example.com", "h.test:8080", "[::1]", "xn--bcher-kva.example"].randomElement(using: &random)!
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                let count = Int.random(in: 0...3, using: &random)
                url += "/" + (0..<count).map { _ in pieces.randomElement(using: &random)! }.joined()
            }
            if Bool.random(using: &random) { url += "/" }
            url += ["", "?q=1", "#top", "?a/b.png", "#x.png"].randomElement(using: &random)!
            let serialized = StandardURL(url)?.href ?? url
            for candidate in [url, serialized] {
                guard let plain = candidate.withBytes(AssetFolder.plainReadableName) else { continue }
                taken += 1
                let parsed = AssetFolder.readableNameParsed(for: candidate)
                XCTAssertEqual(plain.stem, parsed.stem, candidate)
                XCTAssertEqual(plain.ext, parsed.ext, candidate)
            }
        }
        XCTAssertGreaterThan(taken, 1000)
        XCTAssertNotNil("https://example.com/img/00001.png".withBytes(AssetFolder.plainReadableName))
    }

    /// A search from a cursor answers as the binary search does, for offsets asked in order
    /// (with gaps of every size, so both the steps and the halving run), out of order, and
    /// before, between and after the set, with repeats.
    func testOffsetsFromACursorAreWhatTheBinarySearchFinds() {
        var random = SplitMix(state: 7)
        for round in 0..<200 {
            var values: [Int] = []
            var next = Int.random(in: 0..<5, using: &random)
            for _ in 0..<Int.random(in: 0..<60, using: &random) {
                values.append(next)
                next += Int.random(in: 0..<(round % 2 == 0 ? 4 : 40), using: &random)
            }
            let offsets = Offsets(values)
            let top = (values.last ?? 0) + 5
            var asked = (-2..<top).filter { _ in Bool.random(using: &random) }
            if round % 3 == 0 { asked.shuffle(using: &random) }
            if round % 5 == 0 { asked += asked.prefix(10) }
            var cursor: Offsets.Cursor = 0
            for offset in asked {
                XCTAssertEqual(
                    offsets.contains(offset, from: &cursor), offsets.contains(offset), "\(values) at \(offset)")
            }
        }
    }

    /// `valueSpan` is the first attribute of the name's value range and quote, as
    /// `attribute(_:)` gives them; nil for a bare attribute or a missing one.
    func testValueSpanIsTheFirstAttributesValue() {
        let page = Array(#"<img src='a.png' alt data-src=b.png SRC="c.png" srcset="d.png 2x">"#.utf8)
        let tag = StartTagScanner.scan(page).tags[0]
        for name in ["src", "alt", "data-src", "srcset", "title"] {
            let attribute = tag.attribute(name)
            let span = tag.valueSpan(name)
            XCTAssertEqual(span?.range, attribute?.value, name)
            XCTAssertEqual(span?.quote, attribute?.value == nil ? nil : attribute?.quote, name)
        }
        XCTAssertEqual(tag.valueSpan("src").map { String(decoding: page[$0.range], as: UTF8.self) }, "a.png")
        XCTAssertNil(tag.valueSpan("alt"))
        XCTAssertEqual(tag.valueSpan("data-src")?.quote, nil)
    }

    /// The early write's guess: up to the first tag with a reference decided local, a value
    /// the scan could not read (a reference it does not decode), or a `<base>`; when the
    /// output moves, up to the first tag with a URL attribute; the whole page when nothing is
    /// foreseen to change.
    func testTheEarlyWriteStopsWhereAChangeIsForeseen() throws {
        func prefix(_ html: String, local: Set<String>, moving: Bool = false) -> Int {
            let page = Array(html.utf8)
            var options = LocalizeOptions()
            options.pageURL = "http://h/p.html"
            options.absolutizeWhenMoved = moving
            options.outputDirectory = RawPath("/nowhere-\(UInt64.random(in: 0...UInt64.max))")
            let job = PageRewriter.Job(
                page, options: options, placer: nil, lookup: { urls, _ in urls.map { _ in nil } })
            let scanned = StartTagScanner.scan(page)
            var (tags, unread): ([Int], Int?) = ([], nil)
            let likely = PageRewriter.likelyReferences(scanned, page: page, tags: &tags, unread: &unread)
            for reference in likely {
                job.decisions.set(
                    PageRewriter.Decision(
                        resolved: nil, copy: nil, local: local.contains(reference) ? "x/" + reference : nil),
                    for: reference)
            }
            return job.likelyUnchangedPrefix(
                scanned, likely: likely, tagOfReference: tags, unread: unread, styleTokens: [])
        }
        let page = "<p>text</p><img src=a.png><img alt=b srcset='b.png 1x'><a href=c>c</a>"
        XCTAssertEqual(prefix(page, local: []), page.utf8.count)
        XCTAssertEqual(prefix(page, local: ["b.png"]), 26)
        XCTAssertEqual(prefix(page, local: ["a.png", "b.png"]), 11)
        // A value with a reference the scan does not decode stops it; `&amp;` the scan decodes.
        XCTAssertEqual(prefix("<p>x</p><img src='a&copy;b.png'>", local: []), 8)
        XCTAssertEqual(prefix("<p>x</p><img src='a&amp;b.png'>", local: []), 31)
        XCTAssertEqual(prefix("<p>x</p><img src='a&amp;b.png'>", local: ["a&b.png"]), 8)
        // An icon's `<link>` is foreseen too; another `<link>`'s href is no image.
        XCTAssertEqual(prefix("<p>x</p><link rel='shortcut icon' href=i.png>", local: ["i.png"]), 8)
        XCTAssertEqual(prefix("<p>x</p><link rel=stylesheet href=i.png>", local: ["i.png"]), 40)
        XCTAssertEqual(prefix("<p>x</p><base href=/d/><img src=a.png>", local: []), 8)
        XCTAssertEqual(prefix("<p>x</p><a href=c>c</a>", local: [], moving: true), 8)
        XCTAssertEqual(prefix("<p>x</p><a name=c>c</a>", local: [], moving: true), 23)
    }

    /// The scan's guess at a value with `&` (`PageRewriter.decodedForGuess`): whenever it
    /// decodes one, it is what libxml2 reports for it, on generated values mixing the
    /// references it decodes, `&`s it keeps, and ones it leaves to the parse.
    func testTheScansEntityGuessIsWhatLibXML2Reports() {
        let pieces = [
            "a", "/", "=", ";", "#", "x", "1", "?s=48", "&amp;", "&lt;", "&gt;", "&quot;", "&#47;", "&#x2F;", "&#X41;",
            "&#39;", "&b=", "&r=G", "&", "&&", "& ", "&#", "&#0;", "&#xFFFF;", "&copy;", "&copy=", "&nbsp",
            "&amp", "&notit;", "&lt=", "é"
        ]
        var rng = SplitMix(state: 18)
        var (decoded, left) = (0, 0)
        for _ in 0..<3000 {
            let value = (0..<Int.random(in: 1...6, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }
                .joined()
            let raw = Array(value.utf8)
            guard let guess = PageRewriter.decodedForGuess(raw[...]) else {
                left += 1
                continue
            }
            decoded += 1
            let page = Array("<img src=\"".utf8) + raw + Array("\">".utf8)
            let reported = LibXML2.startElements(ofUTF8: page).first { $0.name == "img" }?.attributes.first?.value
            XCTAssertEqual(String(decoding: guess, as: UTF8.self), reported, value)
        }
        XCTAssertGreaterThan(decoded, 500)
        XCTAssertGreaterThan(left, 500)
        let mixed = Array("?a=1&b=2&amp;c=&#47;".utf8)
        XCTAssertEqual(PageRewriter.decodedForGuess(mixed[...]), Array("?a=1&b=2&c=/".utf8))
        XCTAssertNil(PageRewriter.decodedForGuess(Array("a&copy;b".utf8)[...]))
    }

    func testEscapesMatchTheirCharacterRules() {
        func html(_ text: String, _ quote: UInt8?) -> String {
            text.unicodeScalars.map { c -> String in
                switch c {
                case "&": return "&amp;"
                case "\"" where quote != UInt8(ascii: "'"): return "&quot;"
                case "'" where quote == UInt8(ascii: "'"): return "&#39;"
                case "<" where quote == nil: return "&lt;"
                case ">" where quote == nil: return "&gt;"
                default: return String(c)
                }
            }.joined()
        }
        func css(_ text: String) -> String {
            let encoded: [Character: String] = ["(": "%28", ")": "%29", "'": "%27", "\"": "%22", " ": "%20"]
            return text.map { encoded[$0] ?? String($0) }.joined()
        }
        var texts = (0..<128).map { "a\(Character(Unicode.Scalar(UInt8($0))))b" } + ["", "é&", "../x/y.png#a&b"]
        var rng = SplitMix(state: 7)
        for _ in 0..<5_000 { texts.append(randomText(&rng)) }
        for text in texts {
            for quote in [UInt8(ascii: "\""), UInt8(ascii: "'"), nil] {
                XCTAssertEqual(
                    HTMLText.escape(text, quote: quote), html(text, quote),
                    "\(text.debugDescription) \(String(describing: quote))")
            }
            XCTAssertEqual(CSSText.escapeURL(text), css(text), text.debugDescription)
        }
    }

    /// A replacement is written unescaped only when it is plain, and a plain text is what
    /// every escape gives for it: the replacement's three forms are the escapes' own.
    func testPlainReplacementsAreWhatTheEscapesGive() {
        var texts = (0..<256).map { "a\(Character(Unicode.Scalar(UInt8($0))))b" } + ["", "../x/y.png#a&b"]
        texts.append("../../store/objects/ab/" + String(repeating: "0123456789abcdef", count: 4) + ".png#frag%20x")
        var rng = SplitMix(state: 11)
        for _ in 0..<5_000 { texts.append(randomText(&rng)) }
        var plain = 0
        for text in texts {
            let isPlain = URLText.isPlain(text)
            plain += isPlain ? 1 : 0
            let replacement = PageRewriter.Replacement(text: text, isPlain: isPlain)
            for quote in [UInt8(ascii: "\""), UInt8(ascii: "'"), nil] {
                XCTAssertEqual(
                    replacement.inAttribute(quote: quote), HTMLText.escape(text, quote: quote), text.debugDescription)
            }
            XCTAssertEqual(replacement.inSrcset, Srcset.encodeURL(text), text.debugDescription)
            XCTAssertEqual(replacement.inCSS, CSSText.escapeURL(text), text.debugDescription)
        }
        // Both kinds were tried: kept bytes, `/`, `%` and `#` are plain; `&`, quotes,
        // parentheses, commas, spaces, `<`, `>` and non-ASCII are not.
        XCTAssertGreaterThan(plain, 100)
        XCTAssertGreaterThan(texts.count - plain, 1_000)
        for byte in Array("&\"'()<>, \t".utf8) + [0xC3] {
            XCTAssertFalse(URLText.isPlain("a" + String(decoding: [byte], as: UTF8.self)), "\(byte)")
        }
    }

    /// A text the byte check calls normalized is its own URL Standard serialization.
    func testURLKeyFastPathMatchesTheStandard() throws {
        var rng = SplitMix(state: 11)
        var fast = 0
        let prefixes = [
            "http://", "https://", "HTTP://", "http://Host", "http://host:80", "https://host:443", "http://h.example-1",
            "http://user@h", "ftp://h", "http://[::1]", "http://1.2.3", "http://0x7f.a", "http://a.0x7f", "http://a.09",
            "http://127.0.0.1", "http://127.0.0.1:8080", "https://10.0.0.255:443", "http://1.2.3.4:080",
            "http://256.1.1.1", "http://01.2.3.4", "http://1.2.3.4:65536", "http://1.2.3.4:65535", "http://a:0",
            "http://a:", "https://h:80", "http://h:443", "http://1.2.3.4.5", "http://0.0.0.0:1", "http://1.2.3.4.",
            "http://1.2.3.04", "http://h:8080:", "http://h:99999", ""
        ]
        var texts = (0..<80000).map { _ in prefixes.randomElement(using: &rng)! + randomText(&rng, maxPieces: 6) }
        for test in try ReferenceData.jsonCases("url-tests/urltestdata.json") {
            texts += [test["input"] as? String, test["href"] as? String].compactMap { $0 }
        }
        for text in texts {
            guard URLKey.isNormalized(text) else { continue }
            fast += 1
            XCTAssertEqual(StandardURL(text)?.href, text, "'\(text)'")
        }
        XCTAssertGreaterThan(fast, 500)
        // Loopback addresses and ports (a local server's URLs) are checked, not parsed.
        for text in [
            "http://127.0.0.1:8080/s/a.png?x=1", "https://10.0.0.255/", "http://h.example:3000/a", "http://0.0.0.0:0/"
        ] {
            XCTAssertTrue(URLKey.isNormalized(text), text)
        }
    }

    /// A key's extension read off its bytes is the parsed URL's.
    func testURLKeyExtensionMatchesTheParsedPath() throws {
        var rng = SplitMix(state: 13)
        let prefixes = [
            "http://h/", "https://u:p@h.example:8443/a.b/", "http://[::1]/", "http://h/x.PNG?", "ws://h/a.gif"
        ]
        var texts = (0..<20000).map { _ in prefixes.randomElement(using: &rng)! + randomText(&rng, maxPieces: 6) }
        for test in try ReferenceData.jsonCases("url-tests/urltestdata.json") {
            texts += [test["href"] as? String].compactMap { $0 }
        }
        var checked = 0
        for text in texts {
            guard let key = URLKey(text), let url = StandardURL(key.normalized) else { continue }
            checked += 1
            XCTAssertEqual(key.sanitizedExtension, url.pathExtension, "'\(text)'")
        }
        XCTAssertGreaterThan(checked, 5000)
    }

    func testSafeRelativePathMatchesSegmentRule() {
        func reference(_ path: String) -> Bool {
            guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("\0") else { return false }
            return !path.split(separator: "/", omittingEmptySubsequences: false).contains {
                $0 == ".." || $0 == "." || $0.isEmpty
            }
        }
        let pieces = ["a", ".", "..", "...", "/", "//", "objects", "ab", "x.png", ".hidden", "\0", "é"]
        var rng = SplitMix(state: 3)
        for _ in 0..<20000 {
            let path = (0..<Int.random(in: 0...6, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            XCTAssertEqual(NativeStore.isSafeRelativePath(path), reference(path), "'\(path)'")
        }
    }

    func testRelativePrefixPlusNameIsRelativePath() {
        let directories = ["/", "/tmp", "/tmp/out", "/tmp/out/deep/er", "/srv/cache", "/tmp/a b"]
        let files = [
            "/tmp/out/x.png", "/srv/cache/objects/ab/h.png", "/tmp/a b/c?d#e%.png", "/x.png", "/tmp/out/deep/er/f"
        ]
        for directory in directories {
            let parts = RawPath(directory).bytes.split(separator: UInt8(ascii: "/")).map(Array.init)
            for file in files {
                let bytes = RawPath(file).bytes
                let slash = bytes.lastIndex(of: UInt8(ascii: "/"))!
                let combined =
                    URLText.relativePrefix(from: parts, toDirectory: bytes[..<slash])
                    + URLText.encodeSegment(Array(bytes[(slash + 1)...]))
                let whole = URLText.relativePath(from: parts, to: RawPath(file))
                XCTAssertEqual(combined, whole, "\(directory) → \(file)")
            }
        }
    }

    func testByteSet() {
        let set = ByteSet("-.", ranges: [0x30...0x39])
        for byte in UInt8.min...UInt8.max {
            XCTAssertEqual(set.contains(byte), byte == 0x2D || byte == 0x2E || (0x30...0x39).contains(byte), "\(byte)")
        }
    }

    /// The word-at-a-time validator against the standard library's, on byte strings mixing
    /// ASCII runs with every lead byte, truncated sequences, overlongs and surrogates.
    func testUTF8ValidationMatchesStandardLibrary() {
        var rng = SplitMix(state: 11)
        let specials: [[UInt8]] = [
            [0xC2, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x80], [0xC0, 0xAF], [0xE0, 0x80, 0xAF],
            [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF5], [0xFF], [0x80], [0xE2, 0x82], [0xF0, 0x9F]
        ]
        var checked = 0
        var valid = 0
        for _ in 0..<20_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...6, using: &rng) {
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: bytes += Array(repeating: UInt8(ascii: "a"), count: Int.random(in: 0...17, using: &rng))
                case 1: bytes += specials.randomElement(using: &rng)!
                case 2: bytes.append(UInt8.random(in: 0...255, using: &rng))
                default: bytes += Array("<img src=x>".utf8)
                }
            }
            let expected = String(validating: bytes, as: UTF8.self) != nil
            XCTAssertEqual(isValidUTF8(bytes), expected, "\(bytes)")
            checked += 1
            if expected { valid += 1 }
        }
        // Both outcomes were exercised.
        XCTAssertGreaterThan(valid, 1000)
        XCTAssertGreaterThan(checked - valid, 1000)
    }

    /// The byte-level descriptor check against the Character-level rule it replaced.
    func testSrcsetDescriptorsMatchCharacterRule() {
        func reference(_ descriptors: [String]) -> Bool {
            var width = false
            var density = false
            var height = false
            for d in descriptors {
                guard let unit = d.last else { return false }
                let number = String(d.dropLast())
                switch unit {
                case "w":
                    guard !width, !density, let v = Int(number), v > 0, number.allSatisfy(\.isNumber) else {
                        return false
                    }
                    width = true
                case "x":
                    // The HTML Standard's valid floating-point number, as a pattern.
                    let float = try! NSRegularExpression(
                        pattern: "^-?([0-9]+(\\.[0-9]+)?|\\.[0-9]+)([eE][-+]?[0-9]+)?$")
                    let text = String(number)
                    guard !width, !density, !height,
                        float.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil,
                        let v = Double(number), v >= 0, v.isFinite
                    else { return false }
                    density = true
                case "h":
                    guard !height, !density, let v = Int(number), v > 0, number.allSatisfy(\.isNumber) else {
                        return false
                    }
                    height = true
                default:
                    return false
                }
            }
            return !height || width
        }
        var rng = SplitMix(state: 5)
        let parts = [
            "0", "1", "9", "10", "007", "1.5", ".5", "-1", "-0", "+2", "1e3", "inf", "nan",
            "99999999999999999999", "٣", "½", "",
            " ", "a", "(", ")", "1.", "0x1", "0X1", "e", "E-", "."
        ]
        let units = ["w", "x", "h", "W", "X", "", "é"]
        var agreeTrue = 0
        for _ in 0..<20_000 {
            let descriptors = (0..<Int.random(in: 0...3, using: &rng)).map { _ in
                parts.randomElement(using: &rng)! + (Bool.random(using: &rng) ? parts.randomElement(using: &rng)! : "")
                    + units.randomElement(using: &rng)!
            }
            XCTAssertEqual(Srcset.validDescriptors(descriptors), reference(descriptors), "\(descriptors)")
            if reference(descriptors) { agreeTrue += 1 }
        }
        XCTAssertGreaterThan(agreeTrue, 1000)
    }

    /// `AnchoredDirectory.isValidRelative` (by `memchr`, for the index pass's 18,000 body paths)
    /// against the rule read simply: components split at every slash, none empty, `.` or `..`,
    /// and no NUL anywhere; on every path of up to six bytes of `a`, `.`, `/` and NUL, and on
    /// long generated ones. A path cut short at its first slash (a component skipped) fails it.
    func testValidRelativePathsByMemchrMatchTheRule() {
        func reference(_ bytes: [UInt8]) -> Bool {
            guard !bytes.isEmpty, !bytes.contains(0) else { return false }
            return bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).allSatisfy {
                !$0.isEmpty && $0 != [UInt8(ascii: ".")] && $0 != [UInt8(ascii: "."), UInt8(ascii: ".")]
            }
        }
        let alphabet: [UInt8] = [UInt8(ascii: "a"), UInt8(ascii: "."), UInt8(ascii: "/"), 0]
        var paths: [[UInt8]] = [[]]
        var level: [[UInt8]] = [[]]
        for _ in 1...6 {
            level = level.flatMap { path in alphabet.map { path + [$0] } }
            paths += level
        }
        var rng = SplitMix(state: 11)
        let segments = ["ab", "c0", ".", "..", "...", ".x", "", String(repeating: "f", count: 62)]
            .map { Array($0.utf8) }
        for _ in 0..<5_000 {
            let count = Int.random(in: 1...6, using: &rng)
            let parts = (0..<count).map { _ in segments.randomElement(using: &rng)! }
            let joined = parts.joined(separator: [UInt8(ascii: "/")])
            paths.append(Array(joined))
        }
        var valid = 0
        for path in paths {
            XCTAssertEqual(AnchoredDirectory.isValidRelative(path), reference(path), "\(path)")
            if reference(path) { valid += 1 }
        }
        XCTAssertGreaterThan(valid, 500)
        // Slices of a larger buffer, as the index pass hands them (its base address is not the
        // path's start).
        let whole = Array("xx/objects/ab/cd/..".utf8)
        whole.withUnsafeBufferPointer { buffer in
            XCTAssertTrue(AnchoredDirectory.isValidRelative(bytes: UnsafeBufferPointer(rebasing: buffer[3..<16])))
            XCTAssertFalse(AnchoredDirectory.isValidRelative(bytes: UnsafeBufferPointer(rebasing: buffer[3...])))
            XCTAssertFalse(AnchoredDirectory.isValidRelative(bytes: UnsafeBufferPointer(rebasing: buffer[3..<3])))
        }
    }

    /// `Srcset.forEachValidURL` (the scan's and the sites' reading, with no candidate made)
    /// finds the URLs `Srcset.parse` marks valid, in order, and counts every candidate, on
    /// generated srcsets dense in commas, spaces, parentheses and descriptors of every kind.
    func testValidSrcsetURLsAreTheParsedValidCandidates() {
        let pieces = [
            "a.png", "b.png,", "/img/1.png", " ", "  ", ",", ", ", "1x", "2x", "1.5x", "1.x", "0x1x", "100w", "50h",
            "0w", "(", ")", "(a, b)", "\t", "\n", "data:,", "é.png", "2X", "x", "w", "-1x"
        ]
        var rng = SplitMix(state: 17)
        var validSeen = 0
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 0...9, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            let parsed = Srcset.parse(text)
            var found: [Range<Int>] = []
            let count = text.withBytes { Srcset.forEachValidURL($0) { found.append($0) } }
            XCTAssertEqual(found, parsed.filter(\.isValid).map(\.urlRange), "'\(text)'")
            XCTAssertEqual(count, parsed.count, "'\(text)'")
            validSeen += found.count
        }
        XCTAssertGreaterThan(validSeen, 10_000)
    }

    /// `AssetFolder.placeAll` (links made on two threads) gives each body the name `place` gives
    /// it one request at a time, in order: stems shared, differing only in case, or equal to
    /// another's numbered name, a body asked for twice, and a second run into the same folder.
    /// A foreign file under a name the batch chooses is kept, and its body gets another name.
    func testPlacingTogetherGivesTheNamesPlacedOneByOne() throws {
        let tree = TestTree("place")
        try checkPlacingTogether(tree, in: tree.root, links: true)
    }

    /// The same where the folder is on another file system (`/dev/shm`), so that each body is
    /// copied (on two threads) rather than linked.
    func testCopyingTogetherGivesTheNamesCopiedOneByOne() throws {
        let tree = TestTree("copy")
        guard case .success(let shm) = Sys.stat(path: RawPath("/dev/shm")), shm.isDirectory,
            case .success(let here) = Sys.stat(path: tree.root), here.device != shm.device
        else { throw XCTSkip("no /dev/shm on a file system of its own here") }
        var template = Array("/dev/shm/cachectl-copy-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw XCTSkip("cannot make a folder in /dev/shm")
        }
        let base = RawPath(bytes: template.dropLast().map { UInt8(bitPattern: $0) })
        defer { _ = Run.command(["rm", "-rf", base.description]) }
        try checkPlacingTogether(tree, in: base, links: false)
    }

    private func checkPlacingTogether(_ tree: TestTree, in base: RawPath, links: Bool) throws {
        let stems = ["pic", "pic", "PIC", "pic-2", "a", "pic", "b.tar", "pic-3"]
        let bodies = (0..<600).map { tree.file("cache/body\($0)", contents: Array("body \($0)".utf8)) }
        var requests = bodies.indices.map { i in
            (file: bodies[i], url: "https://h.test/d\(i % 9)/\(stems[i % stems.count]).png")
        }
        requests.insert((bodies[5], "https://h.test/again/other.png"), at: 40)
        func placedOneByOne(_ folder: AssetFolder) -> [String?] {
            requests.map { request in
                folder.place(request.file, url: request.url).map { String(decoding: $0.lastComponent, as: UTF8.self) }
            }
        }
        let serial = AssetFolder(base.appending("serial"))
        let expected = placedOneByOne(serial)
        let together = AssetFolder(base.appending("together"))
        together.placeAll(requests)
        XCTAssertEqual(placedOneByOne(together), expected)
        XCTAssertEqual(Set(expected.compactMap { $0?.lowercased() }).count, bodies.count)
        XCTAssertEqual([together.linked, together.copied], [serial.linked, serial.copied])
        XCTAssertEqual(links ? together.linked : together.copied, bodies.count)
        for (i, name) in expected.enumerated() {
            let placed = base.appending("together/\(name!)")
            if links {
                XCTAssertEqual(try Sys.stat(path: placed).get().inode, try Sys.stat(path: requests[i].file).get().inode)
            } else {
                XCTAssertEqual(try FileIO.readAll(placed), try FileIO.readAll(requests[i].file), name!)
            }
        }
        // Again into the same folder: every body found there already, nothing new.
        let again = AssetFolder(base.appending("together"))
        again.placeAll(requests)
        XCTAssertEqual(placedOneByOne(again), expected)
        XCTAssertEqual(again.linked + again.copied, 0)
        // A foreign file under a name the batch picks: kept; that body placed under another.
        let taken = try XCTUnwrap(expected[10])
        try FileIO.makeDirectories(base.appending("foreign"))
        let foreign = base.appending("foreign/\(taken)")
        try FileIO.writeAtomically(foreign, Array("not a body".utf8), mode: 0o644)
        let mixed = AssetFolder(base.appending("foreign"))
        mixed.placeAll(requests)
        let names = placedOneByOne(mixed)
        XCTAssertEqual(try FileIO.readAll(foreign), Array("not a body".utf8))
        XCTAssertFalse(names.contains(taken))
        XCTAssertNotNil(names[10])
        XCTAssertEqual(Set(names.compactMap { $0?.lowercased() }).count, bodies.count)
        XCTAssertEqual(mixed.linked + mixed.copied, bodies.count)
        XCTAssertTrue(mixed.unplaced.isEmpty)
    }
}
