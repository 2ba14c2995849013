import CacheKit
import Foundation
import TestSupport
import XCTest

/// The URL Standard's test data (urltestdata.json) through the built binary: every case
/// `localize --json` can be given (as an `<img src>` under a `<base href>` of the case's
/// base) and every absolute http(s) case through `put`, `cat` and `rm`.
final class URLStandardEndToEndTests: XCTestCase {
    /// Text HTML carries as the same attribute value: `&`, `"`, tab, LF and CR as
    /// references (so each `<img>` keeps a line of its own); NUL and
    /// other controls (which HTML parsers replace or refuse) are left out by the caller.
    private func attribute(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "\t", with: "&#9;").replacingOccurrences(of: "\n", with: "&#10;")
            .replacingOccurrences(of: "\r", with: "&#13;")
    }

    /// Controls other than tab, LF and CR, and DEL: not carried faithfully by an HTML page
    /// or a command line.
    private func carriable(_ text: String) -> Bool {
        !text.unicodeScalars.contains {
            ($0.value < 0x20 && ![0x09, 0x0A, 0x0D].contains($0.value)) || $0.value == 0x7F
        }
    }

    func testLocalizeReportsTheStandardsResolution() throws {
        let cases = try ReferenceData.jsonCases("url-tests/urltestdata.json")
        let tree = TestTree("url-e2e")
        let store = tree.path("store").description
        tree.file("img.png", contents: Images.png)
        XCTAssertEqual(
            Binary.run(["put", "http://example.invalid/seed.png", tree.path("img.png").description, "--cache", store])
                .status, 0)
        // A case without a base is given under a page URL that cannot change its result.
        let pageURL = "http://example.invalid/"
        var byBase: [String?: [[String: Any]]] = [:]
        var skipped = 0
        for test in cases {
            guard let input = test["input"] as? String else { continue }
            let base = test["base"] as? String
            if base == nil, StandardURL(input)?.href != StandardURL(input, base: StandardURL(pageURL))?.href {
                skipped += 1
                continue
            }
            if !carriable(input) || !carriable(base ?? "") || (base.map { StandardURL($0) == nil } ?? false) {
                skipped += 1
                continue
            }
            byBase[base, default: []].append(test)
        }
        var compared = 0
        var differences: [String] = []
        for (index, (base, tests)) in byBase.sorted(by: { ($0.key ?? "") < ($1.key ?? "") }).enumerated() {
            var html = "<!DOCTYPE html><html><head><meta charset=utf-8>"
            if let base { html += "<base href=\"\(attribute(base))\">" }
            html += "</head><body>\n"
            for test in tests { html += "<img src=\"\(attribute(test["input"] as! String))\">\n" }
            html += "</body></html>\n"
            let page = "page\(index).html"
            tree.file(page, contents: Array(html.utf8))
            let run = Binary.run([
                "localize", tree.path(page).description, "-o", tree.path("out-\(page)").description, "--json",
                "--cache", store, "--base-url", pageURL
            ])
            XCTAssertEqual(run.status, 0, run.err)
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: Any], run.out)
            let references = try XCTUnwrap(
                (object["pages"] as? [[String: Any]])?.first?["references"] as? [[String: Any]])
            // Each <img> is on a line of its own, from line 2; an empty `src` is no reference.
            var byLine: [Int: [String: Any]] = [:]
            for reference in references { byLine[(reference["line"] as? Int) ?? 0] = reference }
            XCTAssertEqual(byLine.count, references.count, "one reference per line")
            for (line, test) in zip(2..., tests) {
                let reference = byLine[line] ?? [:]
                let input = test["input"] as! String
                var expected = test["failure"] as? Bool == true ? nil : test["href"] as? String
                let trimmed = input.drop { $0.isWhitespace || $0.unicodeScalars.first!.value < 0x20 }
                if trimmed.isEmpty || trimmed.hasPrefix("#") { expected = nil }  // the page itself: nothing to localize
                if let scheme = expected.flatMap({ StandardURL($0)?.scheme }),
                    ["data", "blob", "javascript", "about", "mailto", "tel"].contains(scheme)
                {
                    expected = nil
                }
                let got = reference["resolved"] as? String
                compared += 1
                if got != expected {
                    differences.append(
                        """
                        \(input.debugDescription) against \(String(describing: base)): \(got ?? "none"), expected \
                        \(expected ?? "none")
                        """
                    )
                }
            }
        }
        XCTAssertGreaterThan(compared, 750, "\(skipped) skipped")
        XCTAssertEqual(
            differences.count, 0,
            "\(differences.count) of \(compared):\n" + differences.prefix(30).joined(separator: "\n"))
    }

    func testPutCatAndRmKeyByTheStandardsSerialization() throws {
        let cases = try ReferenceData.jsonCases("url-tests/urltestdata.json")
        let tree = TestTree("url-put")
        let store = tree.path("store").description
        tree.file("body", contents: Array("the body".utf8))
        let body = tree.path("body").description
        var puts = 0
        var refusals = 0
        var differences: [String] = []
        var seen = Set<String>()
        for test in cases {
            guard let input = test["input"] as? String, test["base"] is NSNull || test["base"] == nil, carriable(input),
                seen.insert(input).inserted
            else { continue }
            let href = test["failure"] as? Bool == true ? nil : test["href"] as? String
            let parsed = href.flatMap { StandardURL($0) }
            if let parsed, parsed.isHTTP {
                // The standard's serialization, less any password (a credential is never stored).
                var key = parsed.hrefWithoutFragment
                if !parsed.password.isEmpty, let range = key.range(of: ":" + parsed.password + "@") {
                    key.replaceSubrange(range, with: parsed.username.isEmpty ? "" : "@")
                }
                let put = Binary.run(["put", input, body, "--cache", store])
                puts += 1
                let printed = put.out.split(separator: "\t").first.map(String.init)
                if put.status != 0 || printed != key {
                    differences.append(
                        "put \(input.debugDescription): \(put.status) \(printed ?? put.err), expected \(key)")
                    continue
                }
                let cat = Binary.run(["cat", key, "--cache", store])
                if cat.out != "the body" { differences.append("cat \(key.debugDescription): \(cat.status) \(cat.err)") }
                let rm = Binary.run(["rm", input, "--cache", store])
                if rm.status != 0 { differences.append("rm \(input.debugDescription): \(rm.status) \(rm.err)") }
            } else if href == nil, input.lowercased().trimmingCharacters(in: .whitespaces).hasPrefix("http") {
                let put = Binary.run(["put", input, body, "--cache", store])
                refusals += 1
                if put.status == 0 || !put.err.contains("not a URL") {
                    differences.append(
                        "put \(input.debugDescription): accepted (\(put.status)) \(put.out), expected a refusal")
                }
            }
        }
        XCTAssertGreaterThan(puts, 100)
        XCTAssertGreaterThan(refusals, 30)
        XCTAssertEqual(differences.count, 0, "\(differences.count):\n" + differences.prefix(30).joined(separator: "\n"))
        let ls = Binary.run(["ls", store, "--json"])
        let entries =
            (try JSONSerialization.jsonObject(with: Data(ls.stdout)) as? [String: Any])?["entries"] as? [[String: Any]]
        XCTAssertEqual(entries?.count, 0, "every entry put was removed by its URL as written")
    }
}
