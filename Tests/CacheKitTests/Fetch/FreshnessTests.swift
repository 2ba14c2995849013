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

/// RFC 9111 lifetimes from response headers.
final class FreshnessTests: XCTestCase {
    let now = 1_800_000_000.0
    func decide(_ headers: [(String, String)], override: Double? = nil) -> Freshness {
        Freshness.decide(headers: headers.map { (name: $0.0, value: $0.1) }, responseTime: now, override: override)
    }
    func date(_ offset: Double) -> String { HTTPDate.format(now + offset) }

    func testPrecedence() {
        XCTAssertEqual(
            decide([("Cache-Control", "max-age=60"), ("Expires", date(7200))]),
            Freshness(storable: true, lifetime: 60, source: .maxAge))
        XCTAssertEqual(
            decide([("cache-control", "public, s-maxage=90"), ("Expires", date(7200))]),
            Freshness(storable: true, lifetime: 7200, source: .expires),
            "s-maxage is for shared caches: a private cache ignores it (RFC 9111 §5.2.2.10)")
        XCTAssertEqual(decide([("Cache-Control", "max-age=60, s-maxage=90")]).source, .maxAge)
        XCTAssertEqual(
            decide([("Date", date(0)), ("Expires", date(7200))]),
            Freshness(storable: true, lifetime: 7200, source: .expires))
        XCTAssertEqual(decide([("Expires", "0")]).lifetime, 0, "an invalid Expires is already expired")
        XCTAssertEqual(decide([("Cache-Control", "no-store, max-age=60")]).storable, false)
        XCTAssertEqual(
            decide([("Cache-Control", "no-store")], override: 3600).storable, false,
            "--expires does not override no-store")
        XCTAssertEqual(
            decide([("Cache-Control", "no-cache, max-age=60")]),
            Freshness(storable: true, lifetime: 0, source: .noCache))
        XCTAssertEqual(
            decide([("Cache-Control", "max-age=60")], override: 3600),
            Freshness(storable: true, lifetime: 3600, source: .option))
        XCTAssertEqual(
            decide([("Cache-Control", "max-age=100"), ("Age", "30")]).lifetime, 70, "Age counts against the lifetime")
        // Invalid freshness makes the response stale, never heuristically fresh (RFC 9111 §4.2.1, §1.2.2).
        XCTAssertEqual(
            decide([("Cache-Control", "max-age=\"120\"")]), Freshness(storable: true, lifetime: 0, source: .maxAge),
            "quoted is not delta-seconds")
        XCTAssertEqual(
            decide([("Cache-Control", "max-age=abc")]), Freshness(storable: true, lifetime: 0, source: .maxAge))
        XCTAssertEqual(decide([("Cache-Control", "max-age=-3600"), ("Last-Modified", date(-100 * 86400))]).lifetime, 0)
        XCTAssertEqual(decide([("Cache-Control", "max-age=٣٦٠٠")]).lifetime, 0, "ASCII digits only")
    }

    /// RFC 9111 §1.2.2: delta-seconds beyond 2^31 are 2147483648, whatever their length.
    func testHugeDeltaSecondsAreCappedNotTrapped() {
        XCTAssertEqual(decide([("Cache-Control", "max-age=99999999999999999999")]).lifetime, 2_147_483_648)
        XCTAssertEqual(decide([("Cache-Control", "max-age=2147483649")]).lifetime, 2_147_483_648)
        XCTAssertEqual(decide([("Cache-Control", "max-age=2147483647")]).lifetime, 2_147_483_647)
        XCTAssertEqual(
            decide([("Cache-Control", "max-age=" + String(repeating: "9", count: 5000))]).lifetime, 2_147_483_648)
        XCTAssertEqual(
            decide([("Cache-Control", "max-age=100"), ("Age", String(repeating: "9", count: 400))]).lifetime, 0)
    }

    /// Age (RFC 9111 §5.1): the first member of a list, integers only.
    func testAgeTakesTheFirstIntegerMember() {
        XCTAssertEqual(decide([("Cache-Control", "max-age=100"), ("Age", "10, 20")]).lifetime, 90)
        XCTAssertEqual(
            decide([("Cache-Control", "max-age=100"), ("Age", "1.5")]).lifetime, 100, "not delta-seconds: no Age")
        XCTAssertEqual(decide([("Cache-Control", "max-age=100"), ("Age", "-5")]).lifetime, 100)
    }

    /// Optional whitespace in fields is SP and HTAB (RFC 9110 §5.6.3); names are ASCII
    /// case-insensitive. Other spaces are part of the value, so such a directive is no
    /// delta-seconds and the response is stale.
    func testOptionalWhitespaceIsSpaceAndTabOnly() {
        XCTAssertEqual(decide([("CACHE-control", "\t MAX-Age=60 \t, public")]).lifetime, 60)
        XCTAssertEqual(
            decide([("Cache-Control", "max-age=\u{A0}60")]), Freshness(storable: true, lifetime: 0, source: .maxAge))
        XCTAssertEqual(decide([("Cache-Control", "max-age=\"60\"")]).lifetime, 0, "quoted: not delta-seconds")
        XCTAssertEqual(decide([("vary", " \t*\t")]).source, .varyAll)
        XCTAssertEqual(HTTPDate.parse("\t Sun, 06 Nov 1994 08:49:37 GMT "), 784_111_777)
        XCTAssertEqual(HTTPText.trimmingOWS(" \t a b\t "), "a b")
        XCTAssertEqual(HTTPText.trimmingOWS("\u{A0}a\u{2003}"), "\u{A0}a\u{2003}")
        XCTAssertEqual(HTTPText.trimmingOWS(" \t "), "")
        XCTAssertTrue(HTTPText.equals("Cache-CONTROL", lowercase: "cache-control"))
        XCTAssertFalse(HTTPText.equals("Cache-Contro", lowercase: "cache-control"))
        XCTAssertFalse(HTTPText.equals("Cache-Controls", lowercase: "cache-control"))
        XCTAssertFalse(HTTPText.equals("K\u{212A}", lowercase: "kk"), "no Unicode case folding")
    }

    func testHeuristic() {
        XCTAssertEqual(decide([("Date", date(0)), ("Last-Modified", date(-10 * 3600))]).lifetime, 3600, accuracy: 1)
        XCTAssertEqual(
            decide([("Date", date(0)), ("Last-Modified", date(-400 * 86400))]).lifetime, Freshness.heuristicCap)
        XCTAssertEqual(decide([]).lifetime, Freshness.defaultLifetime)
        // Modified just now, or said to be later: no time to take 10 % of (it was an hour).
        XCTAssertEqual(decide([("Date", date(0)), ("Last-Modified", date(0))]).lifetime, 0)
        XCTAssertEqual(decide([("Date", date(0)), ("Last-Modified", date(600))]).lifetime, 0)
    }

    /// Commas inside a directive's quoted-string argument do not separate directives
    /// (RFC 9110 §5.6.4): `ext="a, no-store, b"` stored nothing, `ext="a, max-age=100"` gave
    /// a lifetime.
    func testQuotedStringsHoldTheirCommas() {
        XCTAssertEqual(decide([("Cache-Control", "ext=\"a, no-store, b\", max-age=100")]).lifetime, 100, accuracy: 1)
        XCTAssertEqual(decide([("Cache-Control", "ext=\"a, max-age=100, b\"")]).source, .heuristic)
        XCTAssertEqual(decide([("Cache-Control", "ext=\"x, max-age=0\", max-age=100")]).lifetime, 100, accuracy: 1)
        XCTAssertEqual(decide([("Cache-Control", "ext=\"q\\\", no-store\", max-age=5")]).lifetime, 5, accuracy: 1)
        XCTAssertFalse(decide([("Cache-Control", "ext=\"a\", no-store")]).storable)
    }

    func testHTTPDates() {
        XCTAssertEqual(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"), 784_111_777)
        XCTAssertEqual(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT"), 784_111_777)
        XCTAssertEqual(HTTPDate.parse("Sun Nov  6 08:49:37 1994"), 784_111_777)
        XCTAssertNil(HTTPDate.parse("yesterday"))
        // Not dates, and none may stop the process: Foundation's DateFormatter, used before,
        // trapped on the first (a combining mark after the day name).
        for text in ["S\u{300}, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMT\u{300}", "\u{FFFD}"] {
            XCTAssertNil(HTTPDate.parse(text), text)
        }
        XCTAssertEqual(HTTPDate.parse("sunday, 06-nov-94 08:49:37 GMT"), 784_111_777, "names in any case")
        XCTAssertEqual(HTTPDate.format(.nan), "Thu, 01 Jan 1970 00:00:00 GMT")
        XCTAssertEqual(HTTPDate.format(1e300), "Fri, 31 Dec 9999 23:59:59 GMT")
        // RFC 9110 §5.6.7: a two-digit year more than 50 years ahead is the past one.
        let year = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "GMT")!, from: Date()).year!
        func rfc850(_ yy: Int) -> Double? {
            HTTPDate.parse(String(format: "Monday, 01-Jun-%02d 00:00:00 GMT", yy % 100))
        }
        func june(_ y: Int) -> Double {
            Calendar(identifier: .gregorian).date(
                from: DateComponents(timeZone: TimeZone(identifier: "GMT"), year: y, month: 6, day: 1))!
                .timeIntervalSince1970
        }
        XCTAssertEqual(rfc850(year + 40), june(year + 40), "40 years ahead stays ahead")
        XCTAssertEqual(rfc850(year + 60), june(year - 40), "60 years ahead is 40 years ago")
        XCTAssertEqual(HTTPDate.parse(HTTPDate.format(784_111_777)), 784_111_777)
    }

    /// The hand-read IMF-fixdate gives what the DateFormatter gives, on dates across four
    /// centuries (leap days included), and refuses what is not a valid fixdate.
    func testIMFFixdateFastPathMatchesTheFormatter() {
        var seconds = -2_208_988_800.0  // 1900
        while seconds < 4_102_444_800 {  // 2100
            let text = HTTPDate.format(seconds)
            XCTAssertEqual(HTTPDate.parseIMFFixdate(text), seconds, text)
            seconds += 86_400 * 13.37 + 3_659
        }
        for text in ["Sun, 29 Feb 2024 00:00:00 GMT", "Thu, 29 Feb 2024 12:00:00 GMT"] {
            XCTAssertEqual(HTTPDate.parseIMFFixdate(text), 1_709_164_800 + (text.contains("12:") ? 43_200 : 0), text)
        }
        for bad in [
            "Sun, 30 Feb 2024 00:00:00 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:49:37 UTC",
            "Sun, 6 Nov 1994 08:49:37 GMT", "Xyz, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 19x4 08:49:37 GMT"
        ] {
            XCTAssertNil(HTTPDate.parseIMFFixdate(bad), bad)
        }
    }
}
