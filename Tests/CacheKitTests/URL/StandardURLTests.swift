import Foundation
import TestSupport
import XCTest
@testable import CacheKit
import CacheKitSystem

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
                    if test["failure"] as? Bool != true { out.append("\(input.debugDescription) against \(baseText.debugDescription): base failed") }
                    continue
                }
            }
            let parsed = StandardURL(input, base: base)
            if test["failure"] as? Bool == true {
                if let parsed { out.append("\(input.debugDescription) against \(String(describing: baseText)): expected failure, got \(parsed.href)") }
                continue
            }
            guard let url = parsed else {
                out.append("\(input.debugDescription) against \(String(describing: baseText)): failed, expected \(test["href"] ?? "")")
                continue
            }
            let got: [String: String] = [
                "href": url.href, "protocol": url.protocolValue, "username": url.username, "password": url.password,
                "host": url.hostValue, "hostname": url.hostname ?? "", "port": url.portValue, "pathname": url.path,
                "search": url.search, "hash": url.hash,
            ]
            for (key, value) in got.sorted(by: { $0.key < $1.key }) where (test[key] as? String).map({ $0 != value }) ?? false {
                out.append("\(input.debugDescription) against \(String(describing: baseText)): \(key) \(value.debugDescription), expected \((test[key] as! String).debugDescription)")
            }
        }
        return out
    }

    func testEveryCaseOfURLTestData() throws {
        let cases = try ReferenceData.jsonCases("url-tests/urltestdata.json")
        XCTAssertGreaterThan(cases.count, 800)
        let failures = mismatches(cases)
        XCTAssertEqual(failures.count, 0, "\(failures.count) of \(cases.count) cases differ:\n" + failures.prefix(40).joined(separator: "\n"))
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
            if input.unicodeScalars.contains(where: { $0.properties.age.map { $0.major > major || ($0.major == major && $0.minor > minor) } ?? false }) {
                newer += 1
                continue
            }
            let expected = test["output"] as? String
            let url = StandardURL("https://" + input + "/x")
            if let expected {
                if url?.hostValue != expected { out.append("\(input.debugDescription): \(url?.hostValue ?? "failure"), expected \(expected)") }
            } else if let url {
                out.append("\(input.debugDescription): \(url.hostValue), expected failure")
            }
        }
        XCTAssertLessThanOrEqual(newer, 20, "\(newer) cases use code points newer than Unicode \(major).\(minor)")
        return (cases.count - newer, out)
    }

    func testToASCII() throws {
        let (count, failures) = try hostMismatches("url-tests/toascii.json")
        XCTAssertEqual(failures.count, 0, "\(failures.count) of \(count) differ:\n" + failures.prefix(40).joined(separator: "\n"))
    }

    func testIdnaTestV2() throws {
        let (count, failures) = try hostMismatches("url-tests/IdnaTestV2.json")
        XCTAssertEqual(failures.count, 0, "\(failures.count) of \(count) differ:\n" + failures.prefix(40).joined(separator: "\n"))
    }
}
