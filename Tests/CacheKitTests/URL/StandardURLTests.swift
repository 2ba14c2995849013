import CacheKitSystem
import Foundation
import TestSupport
import XCTest

@testable import CacheKit
@testable import CacheKitFetch
@testable import CacheKitFiles
@testable import CacheKitPrune
@testable import CacheKitStore
@testable import CacheKitSupport
@testable import CacheKitWalk
@testable import PageRewrite
@testable import URLStandard

/// The URL Standard's own test data (web-platform-tests `url/resources/`), every case.
final class StandardURLTests: XCTestCase {
    /// Each mismatch as one line: the input, the base, what differs.
    private func mismatches(_ cases: [[String: Any]]) -> [String] {
        var out: [String] = []
        for test in cases {
            guard let input = test["input"] as? String else { continue }
            let baseText = test["base"] as? String
            var base: StandardURL?
            if let baseText {
                base = StandardURL(baseText)
                if base == nil {
                    if test["failure"] as? Bool != true {
                        out.append("\(input.debugDescription) against \(baseText.debugDescription): base failed")
                    }
                    continue
                }
            }
            let parsed = StandardURL(input, base: base)
            if test["failure"] as? Bool == true {
                if let parsed {
                    out.append(
                        """
                        \(input.debugDescription) against \(String(describing: baseText)): expected failure, got \
                        \(parsed.href)
                        """
                    )
                }
                continue
            }
            guard let url = parsed else {
                out.append(
                    """
                    \(input.debugDescription) against \(String(describing: baseText)): failed, expected \
                    \(test["href"] ?? "")
                    """
                )
                continue
            }
            let got: [String: String] = [
                "href": url.href, "protocol": url.protocolValue, "username": url.username, "password": url.password,
                "host": url.hostValue, "hostname": url.hostname ?? "", "port": url.portValue, "pathname": url.path,
                "search": url.search, "hash": url.hash
            ]
            for (key, value) in got.sorted(by: { $0.key < $1.key })
            where (test[key] as? String).map({ $0 != value }) ?? false {
                out.append(
                    """
                    \(input.debugDescription) against \(String(describing: baseText)): \(key) \
                    \(value.debugDescription), expected \((test[key] as! String).debugDescription)
                    """
                )
            }
        }
        return out
    }

    func testEveryCaseOfURLTestData() throws {
        let cases = try ReferenceData.jsonCases("url-tests/urltestdata.json")
        XCTAssertGreaterThan(cases.count, 800)
        let failures = mismatches(cases)
        XCTAssertEqual(
            failures.count, 0,
            "\(failures.count) of \(cases.count) cases differ:\n" + failures.prefix(40).joined(separator: "\n"))
    }

    /// Host to ASCII cases, as web-platform-tests runs them: the host of
    /// `https://<input>/x`, or a failure. Skipped, and counted: the empty input (which
    /// `new URL()` cannot test either) and inputs with code points assigned after the
    /// Unicode version of ICU's data (Swift's own tables say when each was assigned).
    private func hostMismatches(_ name: String) throws -> (Int, [String]) {
        let cases = try ReferenceData.jsonCases(name)
        let (major, minor) = UTS46.unicodeVersion
        var out: [String] = []
        var newer = 0
        for test in cases {
            guard let input = test["input"] as? String, !input.isEmpty else { continue }
            if input.unicodeScalars.contains(where: {
                $0.properties.age.map { $0.major > major || ($0.major == major && $0.minor > minor) } ?? false
            }) {
                newer += 1
                continue
            }
            let expected = test["output"] as? String
            let url = StandardURL("https://" + input + "/x")
            if let expected {
                if url?.hostValue != expected {
                    out.append("\(input.debugDescription): \(url?.hostValue ?? "failure"), expected \(expected)")
                }
            } else if let url {
                out.append("\(input.debugDescription): \(url.hostValue), expected failure")
            }
        }
        XCTAssertLessThanOrEqual(newer, 20, "\(newer) cases use code points newer than Unicode \(major).\(minor)")
        return (cases.count - newer, out)
    }

    /// web-platform-tests' percent-encoding.json: a query written in a page of another
    /// encoding is percent-encoded after encoding in it (a code point it lacks as `&#N;`),
    /// each case as `https://doesnotmatter.invalid/?` + input in a page of that encoding.
    func testQueriesInEveryEncodingOfPercentEncodingJSON() throws {
        var compared = 0
        var differences: [String] = []
        for test in try ReferenceData.jsonCases("url-tests/percent-encoding.json") {
            guard let input = test["input"] as? String, let outputs = test["output"] as? [String: String] else {
                continue
            }
            for (encoding, expected) in outputs.sorted(by: { $0.key < $1.key }) {
                let encoder = QueryEncoding.encoder(Charset.canonicalName(encoding) ?? encoding)
                if encoding != "utf-8" && encoder == nil {
                    differences.append("\(encoding): no encoder")
                    continue
                }
                let url = StandardURL("https://doesnotmatter.invalid/?" + input, base: nil, queryEncoder: encoder)
                compared += 1
                if url?.query != expected {
                    differences.append(
                        "\(input.debugDescription) in \(encoding): \(url?.query ?? "nil"), expected \(expected)")
                }
            }
        }
        XCTAssertEqual(compared, 16)
        XCTAssertEqual(differences, [])
    }

    func testToASCII() throws {
        let (count, failures) = try hostMismatches("url-tests/toascii.json")
        XCTAssertEqual(
            failures.count, 0, "\(failures.count) of \(count) differ:\n" + failures.prefix(40).joined(separator: "\n"))
    }

    func testIdnaTestV2() throws {
        let (count, failures) = try hostMismatches("url-tests/IdnaTestV2.json")
        XCTAssertEqual(
            failures.count, 0, "\(failures.count) of \(count) differ:\n" + failures.prefix(40).joined(separator: "\n"))
    }

    /// Generated hostile input never traps the parser, and a serialization parses back to
    /// itself (the standard's idempotence: `new URL(u.href).href == u.href`).
    func testGeneratedInputNeverTrapsAndSerializationsAreStable() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let pieces = [
            "http:", "https:", "file:", "ftp:", "ws:", "sc:", "data:", "//", "/", "\\", "\\\\", "?", "#", "@", ":",
            "::", "[",
            "]", "[::1]", "[1:2::3]", "%", "%2", "%2e", "%2E%2e", ".", "..", "./", "../", "a", "B", "0", "0x", "09",
            "255",
            "256", "1.2.3.4", "xn--", "xn--a", "ß", "é", "😀", "\u{0}", "\t", "\n", " ", "|", "C|", "c:",
            "^", "{", "}",
            "'", "\"", "<", ">", "`", "~", "=", "&", "+", ",", ";", "\u{FFFD}", "\u{200D}", "\u{0661}", "%00", "%zz"
        ]
        let bases: [StandardURL?] = [
            nil, StandardURL("http://h/a/b?c#d"), StandardURL("file:///C:/x/y"), StandardURL("sc://h/p"),
            StandardURL("about:blank"), StandardURL("http://[::1]:8080/")
        ]
        var parsed = 0
        for _ in 0..<60_000 {
            let count = Int(next() % 9)
            let input = (0..<count).map { _ in pieces[Int(next() % UInt64(pieces.count))] }.joined()
            let base = bases[Int(next() % UInt64(bases.count))]
            guard let url = StandardURL(input, base: base) else { continue }
            parsed += 1
            XCTAssertEqual(
                StandardURL(url.href)?.href, url.href, "\(input.debugDescription) against \(base?.href ?? "nil")")
        }
        XCTAssertGreaterThan(parsed, 10_000)
    }

    /// The shortcut localize takes for `/path` references gives the parser's serialization
    /// whenever it answers: over the standard's own cases with a special base, and over
    /// generated references mixing the bytes that change a path (dots, `%2e`, `\\`, `?`,
    /// `#`, spaces, tabs, non-ASCII) with plain ones.
    func testPathAbsoluteShortcutAgreesWithTheParser() throws {
        let bases = [
            "http://example.com/a/b?q#f", "https://u:p@h.example:8443/", "http://[::1]:8080/x/", "ws://h/",
            "ftp://h/d/", "https://xn--nxasmq6b.example/p", "file:///tmp/x", "about:blank", "sc://h/p"
        ].compactMap { StandardURL($0) }
        var references = [
            "/img/a.png", "/", "/a//b", "/.x/..y/...", "/./a", "/a/.", "/a/..", "/..", "//h/a", "/\\a", "/%2e/a",
            "/a?b", "/a#b", "/a b", "/a\tb", "/é", "/a|b", "/a[b]", "/a^b", "/{a}", "/a`b", "/~user/x:y@z;=+,$!&'()*"
        ]
        var rng = SystemRandomNumberGenerator()
        let pieces = [
            "a", "Z", "0", "-", ".", "..", "/", "%2e", "%2E", "%41", "\\", "?", "#", " ", "\t", "é", "|", "~", ":", "@"
        ]
        for _ in 0..<20_000 {
            var text = "/"
            for _ in 0..<Int.random(in: 0...8, using: &rng) { text += pieces.randomElement(using: &rng)! }
            references.append(text)
        }
        for test in try ReferenceData.jsonCases("url-tests/urltestdata.json") {
            if let input = test["input"] as? String, input.hasPrefix("/") { references.append(input) }
        }
        let taken = assertShortcutIsTheParsers(bases, references) { $0.serializingPathAbsolute($1) }
        // Taken for the plain references on every special, non-file base, and never otherwise.
        XCTAssertGreaterThan(taken, 10_000)
        XCTAssertEqual(bases[0].serializingPathAbsolute("/img/a.png"), "http://example.com/img/a.png")
        XCTAssertEqual(bases[1].serializingPathAbsolute("/x"), "https://u:p@h.example:8443/x")
        for reference in ["/./a", "/a/..", "//h/a", "/%2e/a", "/a?b", "/a#b", "/a b", "/\\a", "a/b", ""] {
            XCTAssertNil(bases[0].serializingPathAbsolute(reference), reference)
        }
        for base in bases[6...] { XCTAssertNil(base.serializingPathAbsolute("/img/a.png"), base.href) }
    }

    /// The shortcut for http(s) URLs already in their serialized form (and `//host/…` ones)
    /// gives exactly the parser's serialization, on random URLs built from pieces that test
    /// each condition, and on the standard's own inputs.
    func testThePlainAbsoluteShortcutIsTheParsersSerialization() throws {
        let bases = ["http://example.com/a/b?q#f", "https://h/", "ws://h/", "file:///tmp/x", "about:blank", "sc://h/p"]
            .compactMap { StandardURL($0) }
        var references = [
            "http://example.com/", "https://a.example/img/a.png?s=48&d=h", "http://EXAMPLE.com/", "http://a..b/",
            "http://a.b./", "http://1.2.3.4/", "http://a.0x1/", "http://a.12/", "http://xn--nxasmq6b.example/",
            "http://a.xn--b/", "http://a.example", "http://a.example:80/", "http://u@a.example/", "http://a.example/./",
            "http://a.example/%2e/", "http://a.example/a%20b", "http://a.example/?a b", "http://a.example/#f",
            "//a.example/x", "//a.example", "http://-a-.b--c.example/", "http://ab--c.example/", "http://a_b.example/",
            "http://a.example/\\x", "http://a.example/x?'", "http://a.example/x?\"", "http://a.example/x?{|}^`"
        ]
        var rng = SystemRandomNumberGenerator()
        let hostPieces = ["a", "z", "0", "9", "-", ".", "xn--", "A", "_", "%41", "..", "0x", "12"]
        let pathPieces = [
            "a", "/", ".", "..", "%2e", "%2E", "%41", "%", "?", "#", " ", "é", "|", "~", ":", "@", "'", "\\"
        ]
        for _ in 0..<30_000 {
            var text = ["http://", "https://", "//", "HTTP://"].randomElement(using: &rng)!
            for _ in 0..<Int.random(in: 1...5, using: &rng) { text += hostPieces.randomElement(using: &rng)! }
            text += "/"
            for _ in 0..<Int.random(in: 0...6, using: &rng) { text += pathPieces.randomElement(using: &rng)! }
            references.append(text)
        }
        for test in try ReferenceData.jsonCases("url-tests/urltestdata.json") {
            if let input = test["input"] as? String { references.append(input) }
        }
        let taken = assertShortcutIsTheParsers(bases, references) { $0.serializingPlainAbsolute($1) }
        XCTAssertGreaterThan(taken, 2_000)
        XCTAssertEqual(bases[0].serializingPlainAbsolute("//a.example/x"), "http://a.example/x")
        XCTAssertEqual(bases[1].serializingPlainAbsolute("//a.example/x"), "https://a.example/x")
        for reference in ["http://EXAMPLE.com/", "http://a.12/", "http://a.example", "http://a.example/#f"] {
            XCTAssertNil(bases[0].serializingPlainAbsolute(reference), reference)
        }
        for base in bases[2...] { XCTAssertNil(base.serializingPlainAbsolute("//a.example/x"), base.href) }
    }

    /// The shortcut for path-relative references (`img/a.png`) gives exactly the parser's
    /// serialization, on the same bases, random references and the standard's own inputs.
    func testThePathRelativeShortcutIsTheParsersSerialization() throws {
        let bases = [
            "http://example.com/a/b?q#f", "http://example.com/a/b/", "http://example.com", "http://example.com/",
            "https://u:p@h.example:8443/x/y.html", "http://[::1]:8080/x/", "ws://h/", "ftp://h/d/",
            "https://xn--nxasmq6b.example/p", "file:///tmp/x", "about:blank", "sc://h/p", "http://h/a//"
        ].compactMap { StandardURL($0) }
        var references = [
            "img/a.png", "a.png", "a", "a//b", ".x/..y/...", "./a", "a/.", "a/..", "..", ".", "a:b", "a/b:c",
            "1a:b", "\\a", "%2e/a", "a?b", "a#b", "a b", "a\tb", "é", "a|b", "~user/x:y@z;=+,$!&'()*", "?q", "#f",
            "", "C:/x", "c|/x", "-a", "a/b/"
        ]
        var rng = SystemRandomNumberGenerator()
        let pieces = [
            "a", "Z", "0", "-", ".", "..", "/", "%2e", "%2E", "%41", "\\", "?", "#", " ", "\t", "é", "|", "~", ":", "@"
        ]
        for _ in 0..<20_000 {
            var text = ""
            for _ in 0..<Int.random(in: 1...8, using: &rng) { text += pieces.randomElement(using: &rng)! }
            references.append(text)
        }
        for test in try ReferenceData.jsonCases("url-tests/urltestdata.json") {
            if let input = test["input"] as? String { references.append(input) }
        }
        let taken = assertShortcutIsTheParsers(bases, references) { $0.serializingPathRelative($1) }
        XCTAssertGreaterThan(taken, 10_000)
        XCTAssertEqual(bases[0].serializingPathRelative("img/a.png"), "http://example.com/a/img/a.png")
        XCTAssertEqual(bases[2].serializingPathRelative("a.png"), "http://example.com/a.png")
        XCTAssertEqual(bases[4].serializingPathRelative("z"), "https://u:p@h.example:8443/x/z")
        for reference in ["./a", "a/..", "..", "a:b", "%2e/a", "a?b", "a#b", "a b", "\\a", "/a", "", "é"] {
            XCTAssertNil(bases[0].serializingPathRelative(reference), reference)
        }
        for base in bases[9...11] { XCTAssertNil(base.serializingPathRelative("img/a.png"), base.href) }
    }

    /// Checks a shortcut against the parser on every reference against every base: where it
    /// answers, the answer is the parser's serialization. Returns how often it answered.
    private func assertShortcutIsTheParsers(
        _ bases: [StandardURL], _ references: [String], _ shortcut: (StandardURL, String) -> String?
    ) -> Int {
        var taken = 0
        for base in bases {
            for reference in references {
                guard let answer = shortcut(base, reference) else { continue }
                taken += 1
                XCTAssertEqual(
                    answer, StandardURL(reference, base: base)?.href,
                    "\(reference.debugDescription) against \(base.href)")
            }
        }
        return taken
    }

    /// Every failure of the standard's test data is explained: which part fails, and the
    /// standard's name for it. Messages said only "not a URL" before.
    func testEveryFailureOfURLTestDataHasAReason() throws {
        let cases = try ReferenceData.jsonCases("url-tests/urltestdata.json")
        var unexplained: [String] = []
        var failures = 0
        for test in cases where test["failure"] as? Bool == true {
            guard let input = test["input"] as? String else { continue }
            let base = (test["base"] as? String).flatMap { StandardURL($0) }
            if test["base"] is String && base == nil { continue }  // the base itself fails
            failures += 1
            if StandardURL.failureReason(input, base: base) == nil {
                unexplained.append("\(input.debugDescription) against \(String(describing: test["base"]))")
            }
        }
        // The rest parse: no reason, and no input (of these 800) traps the reading.
        for test in cases where test["failure"] as? Bool != true {
            guard let input = test["input"] as? String else { continue }
            let base = (test["base"] as? String).flatMap { StandardURL($0) }
            XCTAssertNil(StandardURL.failureReason(input, base: base), input)
            _ = StandardURL.failureReason(input, base: nil)
        }
        XCTAssertGreaterThan(failures, 200)
        XCTAssertEqual(unexplained, [], "\(unexplained.count) of \(failures) failures have no reason")
    }

    func testFailureReasonsNameThePartAndTheStandardsError() {
        let expected: [(String, String)] = [
            (
                "http://a b/",
                "its host 'a b' holds a space (U+0020), which no domain may hold (domain-invalid-code-point)"
            ),
            ("http://256.1.1.1/", "IPv4-out-of-range-part"), ("http://1.2.3.4.5/", "IPv4-too-many-parts"),
            ("http://1.2.x.4/", "a part that is not a number: 'x' (IPv4-non-numeric-part)"),
            ("http://[::1/", "IPv6-unclosed"), ("http://[::1::2]/", "IPv6-invalid"),
            ("http://a:99999/", "its port 99999 is out of range"), ("http://a:8x/", "its port '8x' is not a number"),
            ("http://user@:80/", "it has no host (host-missing)"), ("page.html", "missing-scheme-non-relative-URL"),
            ("sc://a b/", "host-invalid-code-point"), ("http://☃%ff/", "domain-to-ASCII")
        ]
        for (input, reason) in expected {
            let got = StandardURL.failureReason(input) ?? "nil"
            XCTAssertTrue(got.contains(reason), "\(input): \(got)")
        }
        XCTAssertNil(StandardURL.failureReason("https://example.com/"))
        XCTAssertNil(StandardURL.failureReason("/a b", base: StandardURL("http://a/")))
    }
}
