import XCTest
import Foundation
import CacheKit
import TestSupport

/// RFC 9111 as a private cache applies it, against a loopback server that replays scripted
/// response sequences (`/seq` in Tests/TestSupport/httpd.py).
final class HTTPCachingEndToEndTests: XCTestCase {
    private var tree: TestTree!
    private var server: TestHTTPServer!
    private var store: String { tree.path("store").description }

    override func setUpWithError() throws {
        tree = TestTree("rfc9111")
        tree.dir("www")
        server = try TestHTTPServer(root: tree.path("www"))
    }

    /// The URL of a script: each item is (status, headers, body).
    private func script(_ steps: [(Int, [String: String], String)], tag: String = #function) -> String {
        let json = try! JSONSerialization.data(withJSONObject: steps.map { [$0.0, $0.1, $0.2] as [Any] })
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let encoded = String(decoding: json, as: UTF8.self).addingPercentEncoding(withAllowedCharacters: allowed)!
        return server.url("/seq?t=\(tag.filter(\.isLetter))&r=\(encoded)")
    }

    /// One fetch, as JSON: outcome, freshness, expires (seconds from now), status.
    private func fetch(_ url: String) throws -> (outcome: String, freshness: String?, expiresIn: Double?, error: String?) {
        let run = Binary.run(["fetch", "--cache", store, "--json", url])
        let item = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [[String: Any]])?.first, run.out + run.err)
        let expires = (item["expires"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) }?.timeIntervalSinceNow
        return (item["outcome"] as! String, item["freshness"] as? String, expires, item["error"] as? String)
    }

    private func requests(_ url: String) -> Int {
        let path = String(url.dropFirst("http://127.0.0.1:\(server.port)".count))
        return server.count(path)
    }

    func testA304WithoutFreshnessKeepsTheStoredNoCache() throws {
        let url = script([(200, ["Cache-Control": "no-cache", "ETag": "\"a\""], "body"), (304, ["ETag": "\"a\""], "")])
        XCTAssertEqual(try fetch(url).outcome, "downloaded")
        let second = try fetch(url)
        XCTAssertEqual(second.outcome, "revalidated")
        XCTAssertEqual(second.freshness, "stored")
        XCTAssertEqual(try fetch(url).outcome, "revalidated", "no-cache is still revalidated on every use")
        XCTAssertEqual(requests(url), 3)
    }

    func testA304WithAnOldLastModifiedKeepsTheStoredLifetime() throws {
        let url = script([(200, ["Cache-Control": "max-age=1", "ETag": "\"a\""], "body"),
                          (304, ["ETag": "\"a\"", "Last-Modified": "{date:-2592000}"], "")])
        XCTAssertEqual(try fetch(url).outcome, "downloaded")
        sleep(2)
        // Revalidated: the 304 gives no freshness, so the stored 1 s again, not a day.
        let renewed = try fetch(url)
        XCTAssertEqual(renewed.outcome, "revalidated")
        let expiresIn = try XCTUnwrap(renewed.expiresIn)
        XCTAssertLessThanOrEqual(expiresIn, 2, "the stored max-age, not a heuristic from the 304's Last-Modified")
    }

    func testA304ForAnotherStrongETagDoesNotRenewTheStoredBody() throws {
        let url = script([(200, ["Cache-Control": "max-age=0", "ETag": "\"a\""], "old body"),
                          (304, ["ETag": "\"b\""], ""),
                          (200, ["Cache-Control": "max-age=60", "ETag": "\"b\""], "new body")])
        XCTAssertEqual(try fetch(url).outcome, "downloaded")
        XCTAssertEqual(try fetch(url).outcome, "downloaded", "the 304 validated \"b\": the stored \"a\" is replaced")
        XCTAssertEqual(Binary.run(["cat", url, "--cache", store]).out, "new body")
        XCTAssertEqual(requests(url), 3)
    }

    func testAResponseThatArrivesOldIsStale() throws {
        // Date two hours ago, max-age one hour: already an hour past its lifetime (§4.2.3).
        let url = script([(200, ["Cache-Control": "max-age=3600", "Date": "{date:-7200}"], "body")])
        XCTAssertEqual(try fetch(url).outcome, "downloaded")
        XCTAssertEqual(try fetch(url).outcome, "downloaded", "stale on arrival: requested again")
        XCTAssertEqual(requests(url), 2)
        let aged = script([(200, ["Cache-Control": "max-age=3600", "Age": "3000"], "body")], tag: "aged")
        let first = try fetch(aged)
        XCTAssertLessThanOrEqual(try XCTUnwrap(first.expiresIn), 601)
    }

    func testVaryStarIsNeverStored() throws {
        let url = script([(200, ["Cache-Control": "max-age=3600", "Vary": "Accept, *"], "body")])
        let first = try fetch(url)
        XCTAssertEqual(first.outcome, "not-stored")
        XCTAssertEqual(first.freshness, "Vary: *")
    }

    func testARedirectChainIsAsFreshAsItsLeastFreshHop() throws {
        let target = script([(200, ["Cache-Control": "max-age=3600"], "target body")], tag: "target")
        let temporary = script([(302, ["Location": target], "")], tag: "temporary")
        XCTAssertEqual(try fetch(temporary).outcome, "downloaded")
        XCTAssertEqual(Binary.run(["cat", temporary, "--cache", store, "--allow-stale"]).out, "target body")
        XCTAssertNotEqual(try fetch(temporary).outcome, "hit", "a 302 without explicit freshness is not reused")

        let permanent = script([(301, ["Location": target, "Cache-Control": "max-age=60"], "")], tag: "permanent")
        let stored = try fetch(permanent)
        XCTAssertEqual(stored.outcome, "downloaded")
        XCTAssertLessThanOrEqual(try XCTUnwrap(stored.expiresIn), 61, "the 301's 60 s, not the target's hour")
        XCTAssertEqual(try fetch(permanent).outcome, "hit")
    }

    func testA203IsStoredLikeA200() throws {
        let url = script([(203, ["Cache-Control": "max-age=3600"], "transformed")])
        XCTAssertEqual(try fetch(url).outcome, "downloaded")
        XCTAssertEqual(try fetch(url).outcome, "hit")
    }
}
