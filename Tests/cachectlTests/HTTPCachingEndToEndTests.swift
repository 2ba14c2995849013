import CacheKit
import Foundation
import TestSupport
import XCTest

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

    /// XCTest keeps every test case object until the process ends, and nothing is released at
    /// exit: without this each test would leave its server process running.
    override func tearDown() {
        server?.stop()
        server = nil
        tree = nil
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
    private func fetch(_ url: String) throws -> (
        outcome: String, freshness: String?, expiresIn: Double?, error: String?
    ) {
        let run = Binary.run(["fetch", "--cache", store, "--json", url])
        let item = try XCTUnwrap(
            (try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [[String: Any]])?.first, run.out + run.err)
        let expires = (item["expires"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) }?
            .timeIntervalSinceNow
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
        let url = script([
            (200, ["Cache-Control": "max-age=1", "ETag": "\"a\""], "body"),
            (304, ["ETag": "\"a\"", "Last-Modified": "{date:-2592000}"], "")
        ])
        XCTAssertEqual(try fetch(url).outcome, "downloaded")
        sleep(2)
        // Revalidated: the 304 gives no freshness, so the stored 1 s again, not a day.
        let renewed = try fetch(url)
        XCTAssertEqual(renewed.outcome, "revalidated")
        let expiresIn = try XCTUnwrap(renewed.expiresIn)
        XCTAssertLessThanOrEqual(expiresIn, 2, "the stored max-age, not a heuristic from the 304's Last-Modified")
    }

    func testA304ForAnotherStrongETagDoesNotRenewTheStoredBody() throws {
        let url = script([
            (200, ["Cache-Control": "max-age=0", "ETag": "\"a\""], "old body"),
            (304, ["ETag": "\"b\""], ""),
            (200, ["Cache-Control": "max-age=60", "ETag": "\"b\""], "new body")
        ])
        XCTAssertEqual(try fetch(url).outcome, "downloaded")
        XCTAssertEqual(try fetch(url).outcome, "downloaded", "the 304 validated \"b\": the stored \"a\" is replaced")
        XCTAssertEqual(Binary.run(["cat", url, "--cache", store]).out, "new body")
        XCTAssertEqual(requests(url), 3)
    }

    func testA304ForAnotherWeakETagDoesNotRenewTheStoredBody() throws {
        let url = script([
            (200, ["Cache-Control": "max-age=0", "ETag": "W/\"a\""], "old body"),
            (304, ["ETag": "W/\"b\""], ""),
            (200, ["Cache-Control": "max-age=0", "ETag": "W/\"b\""], "new body"),
            (304, ["ETag": "\"b\""], "")
        ])
        XCTAssertEqual(try fetch(url).outcome, "downloaded")
        XCTAssertEqual(try fetch(url).outcome, "downloaded", "the 304 selected W/\"b\", not the stored W/\"a\"")
        XCTAssertEqual(Binary.run(["cat", url, "--cache", store, "--allow-stale"]).out, "new body")
        XCTAssertEqual(try fetch(url).outcome, "revalidated", "\"b\" and W/\"b\" are weakly the same")
        XCTAssertEqual(requests(url), 4)
    }

    /// The request's own Cache-Control (RFC 9111 §5.2.1), given with --header: no-cache and
    /// max-age=0 revalidate a fresh response, only-if-cached answers from the store or fails
    /// with no request, no-store keeps the response out of the store (all were ignored).
    func testTheRequestsCacheControlIsFollowed() throws {
        let url = script([
            (200, ["Cache-Control": "max-age=3600", "ETag": "\"a\""], "body"), (304, ["ETag": "\"a\""], "")
        ])
        XCTAssertTrue(fetch(url, headers: []).out.hasPrefix("downloaded"))
        XCTAssertTrue(fetch(url, headers: ["Cache-Control: only-if-cached"]).out.hasPrefix("hit"))
        XCTAssertTrue(fetch(url, headers: ["Cache-Control: no-cache"]).out.hasPrefix("revalidated"))
        XCTAssertTrue(fetch(url, headers: ["Cache-Control: max-age=0"]).out.hasPrefix("revalidated"))
        XCTAssertTrue(fetch(url, headers: ["Cache-Control: max-age=3000"]).out.hasPrefix("hit"))
        XCTAssertTrue(fetch(url, headers: ["Cache-Control: min-fresh=7200"]).out.hasPrefix("revalidated"))
        XCTAssertEqual(requests(url), 4)

        let absent = script([(200, ["Cache-Control": "max-age=3600"], "body")], tag: "absent")
        let refused = fetch(absent, headers: ["Cache-Control: only-if-cached"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.err.contains("only-if-cached"), refused.err)
        XCTAssertEqual(requests(absent), 0, "no request made")

        let unstored = script([(200, ["Cache-Control": "max-age=3600"], "secret")], tag: "unstored")
        XCTAssertTrue(fetch(unstored, headers: ["Cache-Control: no-store"]).out.hasPrefix("not-stored"))
        XCTAssertNotEqual(Binary.run(["cat", unstored, "--cache", store, "--allow-stale"]).status, 0, "not stored")
    }

    /// A request header not sent matches only a request that did not send it either, not an
    /// empty value (RFC 9111 §4.1).
    func testVaryTellsAnAbsentHeaderFromAnEmptyOne() throws {
        let url = script([
            (200, ["Cache-Control": "max-age=3600", "Vary": "X-Mode"], "absent"),
            (200, ["Cache-Control": "max-age=3600", "Vary": "X-Mode"], "empty")
        ])
        XCTAssertTrue(fetch(url, headers: []).out.hasPrefix("downloaded"))
        XCTAssertTrue(fetch(url, headers: []).out.hasPrefix("hit"))
        XCTAssertTrue(fetch(url, headers: ["X-Mode:"]).out.hasPrefix("downloaded"), "empty is not absent")
        XCTAssertTrue(fetch(url, headers: ["X-Mode:"]).out.hasPrefix("hit"))
        XCTAssertEqual(requests(url), 2)
    }

    /// A redirect's Vary is the stored chain's: it answered a request that the redirect
    /// would have sent elsewhere.
    func testARedirectsVaryGoesWithTheStoredChain() throws {
        let target = script([(200, ["Cache-Control": "max-age=3600"], "target body")], tag: "target")
        let url = script([(301, ["Location": target, "Cache-Control": "max-age=3600", "Vary": "X-Mode"], "")])
        XCTAssertTrue(fetch(url, headers: ["X-Mode: a"]).out.hasPrefix("downloaded"))
        XCTAssertTrue(fetch(url, headers: ["X-Mode: a"]).out.hasPrefix("hit"))
        XCTAssertTrue(fetch(url, headers: ["X-Mode: b"]).out.hasPrefix("downloaded"), "another value: not a match")
        let star = script([(301, ["Location": target, "Cache-Control": "max-age=3600", "Vary": "*"], "")], tag: "star")
        XCTAssertTrue(fetch(star, headers: []).out.hasPrefix("not-stored"), "a hop's Vary: * is never matched")
    }

    /// A 304's fields replace the stored ones (RFC 9111 §3.2), its Content-Type too.
    func testA304UpdatesTheStoredContentType() throws {
        let url = script([
            (200, ["Cache-Control": "max-age=0", "ETag": "\"a\"", "Content-Type": "text/plain"], "body"),
            (304, ["ETag": "\"a\"", "Content-Type": "text/html"], "")
        ])
        XCTAssertEqual(try fetch(url).outcome, "downloaded")
        XCTAssertEqual(try fetch(url).outcome, "revalidated")
        let ls = Binary.run(["ls", store, "--json"])
        let entries = (try JSONSerialization.jsonObject(with: Data(ls.stdout)) as? [String: Any])?["entries"]
        XCTAssertEqual((entries as? [[String: Any]])?.first?["contentType"] as? String, "text/html", ls.out)
    }

    /// No Accept-Encoding means any coding to a server (RFC 9110 §12.5.3), and a compressed
    /// body would be stored as the file: cachectl asks for `identity`, as wget does, unless
    /// --header names another.
    func testTheBodyIsAskedForAsItIs() throws {
        let echo = server.url("/echo-headers")
        XCTAssertTrue(fetch(echo, headers: []).out.hasPrefix("downloaded"))
        XCTAssertTrue(Binary.run(["cat", echo, "--cache", store]).out.contains("Accept-Encoding: identity\n"))
        let asked = server.url("/echo-headers?gzip")
        XCTAssertTrue(fetch(asked, headers: ["Accept-Encoding: gzip"]).out.hasPrefix("downloaded"))
        let sent = Binary.run(["cat", asked, "--cache", store]).out
        XCTAssertTrue(sent.contains("Accept-Encoding: gzip\n") && !sent.contains("identity"), sent)
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

    /// The stored validators go only to the URL whose response they came from: a redirect's
    /// own URL was sent the ETag and Last-Modified of the response it led to, and a server
    /// comparing them with its own resource could answer 304 for a body it never sent. The
    /// URL that gave them is asked, and its 304 renews the entry of the URL asked for.
    func testValidatorsGoOnlyToTheURLTheyCameFrom() throws {
        tree.file("www/v.txt", contents: Array("the body".utf8))
        let url = server.url("/redirect/1/v.txt")
        XCTAssertEqual(try fetch(url).outcome, "downloaded")
        // The 302 gave no freshness: the stored chain is stale at once and revalidated.
        XCTAssertEqual(try fetch(url).outcome, "revalidated")
        let seen = server.requests()
        XCTAssertFalse(seen.contains("Conditional: /redirect/1/v.txt"), "\(seen)")
        XCTAssertEqual(seen.filter { $0 == "/files/v.txt" }.count, 2, "\(seen)")
        XCTAssertEqual(Binary.run(["cat", url, "--cache", store, "--allow-stale"]).out, "the body")
    }

    private func fetch(_ url: String, headers: [String]) -> RunResult {
        Binary.run(["fetch", "--cache", store] + headers.flatMap { ["-H", $0] } + [url])
    }

    func testVaryIsCheckedAgainstTheHeadersSent() throws {
        let url = script([
            (200, ["Cache-Control": "max-age=3600", "Vary": "Accept-Language"], "en"),
            (200, ["Cache-Control": "max-age=3600", "Vary": "Accept-Language"], "fr")
        ])
        XCTAssertTrue(fetch(url, headers: ["Accept-Language: en"]).out.hasPrefix("downloaded"))
        XCTAssertTrue(
            fetch(url, headers: ["Accept-Language: en"]).out.hasPrefix("hit"), "same value: the stored response")
        XCTAssertTrue(
            fetch(url, headers: ["Accept-Language: fr"]).out.hasPrefix("downloaded"), "another value: not a match")
        XCTAssertEqual(Binary.run(["cat", url, "--cache", store]).out, "fr")
        XCTAssertTrue(fetch(url, headers: []).out.hasPrefix("downloaded"), "not sent is another value too")
        XCTAssertEqual(requests(url), 3)
        XCTAssertEqual(fetch(url, headers: ["Bad Name: x"]).status, 2)
        XCTAssertEqual(fetch(url, headers: ["NoColon"]).status, 2)
    }

    func testNegativeAnswersAreKeptOnlyWhenExplicitlyFresh() throws {
        let kept = script([(404, ["Cache-Control": "max-age=60"], "gone")], tag: "kept")
        let first = Binary.run(["fetch", "--cache", store, kept])
        XCTAssertEqual(first.status, 1)
        XCTAssertTrue(first.err.contains("HTTP 404"), first.err)
        let second = Binary.run(["fetch", "--cache", store, "--json", kept])
        XCTAssertEqual(second.status, 1)
        XCTAssertTrue(second.out.contains("a fresh stored answer"), second.out)
        XCTAssertEqual(requests(kept), 1, "the kept 404 answered without a request")
        let cat = Binary.run(["cat", kept, "--cache", store])
        XCTAssertEqual(cat.status, 1)
        XCTAssertTrue(cat.err.contains("HTTP 404"), cat.err)

        let heuristic = script([(404, [:], "gone")], tag: "heuristic")
        _ = Binary.run(["fetch", "--cache", store, heuristic])
        _ = Binary.run(["fetch", "--cache", store, heuristic])
        XCTAssertEqual(requests(heuristic), 2, "without explicit freshness a 404 is not kept")
    }

    func testA203IsStoredLikeA200() throws {
        let url = script([(203, ["Cache-Control": "max-age=3600"], "transformed")])
        XCTAssertEqual(try fetch(url).outcome, "downloaded")
        XCTAssertEqual(try fetch(url).outcome, "hit")
    }

    /// Dates a server sends that are not dates (here UTF-8 bytes, a combining mark after the
    /// day name) count as none: the response is stored, its `Expires` in the past, and every
    /// later command on the store runs. Foundation's DateFormatter, used before, trapped
    /// (SIGILL) on them, and the fetch ended with no word.
    func testDatesThatAreNotDatesStopNothing() throws {
        // The server writes header values as Latin-1: these two characters are the bytes CC 80.
        let odd = "S\u{CC}\u{80}, 06 Nov 1994 08:49:37 GMT"
        let url = script([(200, ["Date": odd, "Expires": odd, "Last-Modified": odd], "body")])
        let run = Binary.run(["fetch", "--cache", store, url])
        XCTAssertEqual(run.status, 0, run.err)
        let first = try fetch(url)
        XCTAssertNil(first.error)
        XCTAssertEqual(first.freshness, "Expires")
        XCTAssertLessThanOrEqual(try XCTUnwrap(first.expiresIn), 0, "an Expires that is no date is in the past")
        for command in [["ls"], ["du"], ["prune", "--max-size", "1G"]] {
            let later = Binary.run(command + [store])
            XCTAssertEqual(later.status, 0, "\(command): \(later.err)")
        }
    }
}

/// The fetcher's conveniences: retries with backoff and Retry-After, -o, Ctrl-C.
final class FetchBehaviourEndToEndTests: XCTestCase {
    private func json(_ run: RunResult) throws -> [String: Any] {
        try XCTUnwrap(
            (try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [[String: Any]])?.first, run.out + run.err)
    }

    private func scriptURL(_ server: TestHTTPServer, _ steps: [(Int, [String: String], String)], tag: String) -> String
    {
        let data = try! JSONSerialization.data(withJSONObject: steps.map { [$0.0, $0.1, $0.2] as [Any] })
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return server.url(
            "/seq?t=\(tag)&r=" + String(decoding: data, as: UTF8.self).addingPercentEncoding(
                withAllowedCharacters: allowed)!)
    }

    func testRetriesHonourRetryAfterAndSkipClientErrors() throws {
        let tree = TestTree("fetch-retry")
        tree.dir("www")
        let server = try TestHTTPServer(root: tree.path("www"))
        let store = tree.path("store").description
        let flaky = scriptURL(
            server, [(503, ["Retry-After": "1"], "busy"), (200, ["Cache-Control": "max-age=60"], "body")], tag: "flaky")
        let started = Date()
        let retried = Binary.run(["fetch", "--cache", store, "--json", "--retry", "2", flaky])
        XCTAssertEqual(retried.status, 0, retried.err)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 1, "waited the Retry-After second")
        let item = try json(retried)
        XCTAssertEqual(item["outcome"] as? String, "downloaded")
        XCTAssertEqual(item["attempts"] as? Int, 2)

        let once = scriptURL(server, [(503, [:], "busy"), (200, [:], "body")], tag: "once")
        let noRetry = Binary.run(["fetch", "--cache", store, "--json", once])
        XCTAssertEqual(noRetry.status, 1)
        XCTAssertEqual(try json(noRetry)["attempts"] as? Int, 1, "no retry unless asked (curl's default)")

        let missing = server.url("/status/404")
        let notFound = Binary.run(["fetch", "--cache", store, "--json", "--retry", "3", missing])
        XCTAssertEqual(notFound.status, 1)
        XCTAssertEqual(try json(notFound)["attempts"] as? Int, 1, "a 404 is not retried")
        XCTAssertEqual(server.count("/status/404"), 1)

        let refused = Binary.run(["fetch", "--cache", store, "--json", "--retry", "1", "http://127.0.0.1:9/x"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(try json(refused)["attempts"] as? Int, 2, "a refused connection is retried")
    }

    func testOutputFileTakesTheBodyAtomically() throws {
        let tree = TestTree("fetch-o")
        tree.file("www/c.txt", contents: Array("c body\n".utf8))
        let server = try TestHTTPServer(root: tree.path("www"))
        let store = tree.path("store").description
        let out = tree.path("out.txt").description
        let run = Binary.run(["fetch", "--cache", store, "-o", out, server.url("/files/c.txt?cc=no-store")])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertEqual(try FileIOProbe.read(tree.path("out.txt")), Array("c body\n".utf8), "a no-store body too")
        XCTAssertEqual(
            Binary.run(["fetch", "--cache", store, "-o", out, server.url("/files/c.txt"), server.url("/files/d")])
                .status, 2)
    }

    /// `-o` writes what it names as `curl -o` does: through a symlink (which stays a link),
    /// into a device as it is (`-o /dev/null`; it was renamed over, so as root /dev/null
    /// became a regular file), and refuses a directory naming it (it named a temporary file),
    /// still reporting the outcome.
    func testOutputGoesThroughSymlinksAndIntoDevices() throws {
        let tree = TestTree("fetch-o-special")
        tree.file("www/c.txt", contents: Array("c body\n".utf8))
        tree.file("target.txt", contents: Array("old\n".utf8))
        let server = try TestHTTPServer(root: tree.path("www"))
        let store = tree.path("store").description
        XCTAssertEqual(Run.command(["ln", "-s", "target.txt", tree.path("link.txt").description]).status, 0)
        let linked = Binary.run([
            "fetch", "--cache", store, "-o", tree.path("link.txt").description, server.url("/files/c.txt")
        ])
        XCTAssertEqual(linked.status, 0, linked.err)
        XCTAssertEqual(Run.command(["readlink", tree.path("link.txt").description]).out, "target.txt\n", "still a link")
        XCTAssertEqual(try FileIOProbe.read(tree.path("target.txt")), Array("c body\n".utf8))

        XCTAssertEqual(Run.command(["mkdir", tree.path("dir").description]).status, 0)
        let directory = Binary.run([
            "fetch", "--cache", store, "-o", tree.path("dir").description, server.url("/files/c.txt")
        ])
        XCTAssertEqual(directory.status, 1)
        XCTAssertTrue(directory.err.contains("'\(tree.path("dir").description)': is a directory"), directory.err)
        XCTAssertTrue(directory.out.contains("\t\(server.url("/files/c.txt"))\t"), "the outcome is still reported")

        // /dev/stdout on a pipe: a link to no path, opened as it is.
        let piped = Binary.run(["fetch", "--cache", store, "-o", "/dev/stdout", server.url("/files/c.txt")])
        XCTAssertEqual(piped.status, 0, piped.err)
        XCTAssertTrue(piped.out.hasPrefix("c body\n"), piped.out)

        // A character device: /dev/null's numbers, made here (root only).
        guard getuid() == 0 else { return }
        let null = tree.path("null").description
        XCTAssertEqual(Run.command(["mknod", "-m", "666", null, "c", "1", "3"]).status, 0)
        let device = Binary.run(["fetch", "--cache", store, "-o", null, server.url("/files/c.txt")])
        XCTAssertEqual(device.status, 0, device.err)
        XCTAssertEqual(Run.command(["stat", "-c", "%F", null]).out, "character special file\n")
    }

    /// A URL list saved with a UTF-8 byte order mark: the first URL is read without it (it
    /// failed as a malformed URL, the mark unseen in the message).
    func testAListWithAByteOrderMarkReadsItsFirstURL() throws {
        let tree = TestTree("fetch-bom")
        tree.file("www/c.txt", contents: Array("c body\n".utf8))
        let server = try TestHTTPServer(root: tree.path("www"))
        tree.file("list.txt", contents: [0xEF, 0xBB, 0xBF] + Array((server.url("/files/c.txt") + "\n").utf8))
        let run = Binary.run([
            "fetch", "--cache", tree.path("store").description, "--input", tree.path("list.txt").description
        ])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(run.out.hasPrefix("downloaded\t\(server.url("/files/c.txt"))\t"), run.out)
    }

    func testInterruptRemovesPartialDownloadsAndReportsWhatFinished() throws {
        let tree = TestTree("fetch-int")
        tree.file("www/c.txt", contents: Array("c body\n".utf8))
        tree.file("www/b.txt", contents: Array(repeating: UInt8(ascii: "b"), count: 400_000))
        let server = try TestHTTPServer(root: tree.path("www"))
        let store = tree.path("store").description
        let fast = server.url("/files/c.txt?cc=max-age=60")
        let slow = server.url("/slow/b.txt?pause=30")
        let (outFile, errFile) = (tree.path("out").description, tree.path("err").description)
        let script =
            "'\(Binary.path)' fetch --cache '\(store)' '\(fast)' '\(slow)' >'\(outFile)' 2>'\(errFile)' & "
            + "pid=$!; sleep 2; kill -INT $pid; wait $pid; echo $?"
        let started = Date()
        let run = Run.command(["sh", "-c", script])
        XCTAssertLessThan(Date().timeIntervalSince(started), 20, "stopped at once, not after the 30 s pause")
        XCTAssertEqual(run.out, "130\n")
        let out = String(decoding: try FileIOProbe.read(tree.path("out")), as: UTF8.self)
        let err = String(decoding: try FileIOProbe.read(tree.path("err")), as: UTF8.self)
        XCTAssertTrue(out.contains("downloaded\t\(fast)"), out)
        XCTAssertTrue(out.contains("failed\t\(slow)"), out)
        XCTAssertTrue(err.contains("interrupted: 1 downloaded"), err)
        XCTAssertEqual(Run.command(["sh", "-c", "ls -A '\(store)/tmp'"]).out, "", "no partial body left in tmp/")
        XCTAssertEqual(Binary.run(["cat", fast, "--cache", store]).out, "c body\n", "what finished is kept")
    }

    /// Ctrl-C while a connection is being made to a host that drops the request (a listener
    /// whose queue is full: the kernel ignores the SYN) stops the fetch at once, not when the
    /// 10 s connect timeout ends (9 s after the signal before the connect asked about it).
    func testInterruptWhileConnectingStopsAtOnce() throws {
        let tree = TestTree("fetch-int-connect")
        let store = tree.path("store").description
        let portFile = tree.path("port").description
        // Fills its one-connection queue with connections it never accepts, then waits.
        let blackhole = """
            import socket, sys, time
            s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(0)
            held = [socket.socket() for _ in range(4)]
            for h in held: h.setblocking(False); h.connect_ex(s.getsockname())
            open(sys.argv[1] + ".new", "w").write(str(s.getsockname()[1]))
            import os; os.rename(sys.argv[1] + ".new", sys.argv[1]); time.sleep(60)
            """
        let script = """
            python3 -c '\(blackhole)' '\(portFile)' & hole=$!
            i=0; while [ ! -s '\(portFile)' ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
            '\(Binary.path)' fetch --cache '\(store)' "http://127.0.0.1:$(cat '\(portFile)')/x" >/dev/null 2>&1 &
            pid=$!; sleep 1; kill -INT $pid; start=$(date +%s%N); wait $pid; status=$?
            echo $status $(( ($(date +%s%N) - start) / 1000000 )); kill $hole
            """
        let words = Run.command(["sh", "-c", script]).out.split(separator: " ")
        XCTAssertEqual(words.first, "130")
        let milliseconds = try XCTUnwrap(Int(words.last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""))
        XCTAssertLessThan(milliseconds, 5000, "stopped when asked, not at the connect timeout")
    }

    /// Ctrl-C while the host's name is being resolved by a name server that never answers (in
    /// a mount namespace whose resolv.conf names one, with a 30 s timeout) stops the fetch at
    /// once: `getaddrinfo` cannot be interrupted, so it runs on a thread of its own that the
    /// fetch stops waiting for.
    func testInterruptWhileResolvingStopsAtOnce() throws {
        guard Privilege.isRoot, Run.available("unshare") else {
            throw XCTSkip("needs root and unshare for a private mount namespace")
        }
        let tree = TestTree("fetch-int-resolve")
        tree.file("resolv.conf", contents: Array("nameserver 127.0.0.97\noptions timeout:30 attempts:1\n".utf8))
        let store = tree.path("store").description
        let silent =
            "import socket, time; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); "
            + "s.bind((\"127.0.0.97\", 53)); time.sleep(60)"
        let script = """
            mount --bind '\(tree.path("resolv.conf"))' /etc/resolv.conf || exit 3
            python3 -c '\(silent)' & hole=$!; sleep 0.3
            '\(Binary.path)' fetch --cache '\(store)' http://never-answered.example/x >/dev/null 2>&1 &
            pid=$!; sleep 1; kill -INT $pid; start=$(date +%s%N); wait $pid; status=$?
            echo $status $(( ($(date +%s%N) - start) / 1000000 )); kill $hole
            """
        let run = Run.command(["unshare", "-m", "sh", "-c", script])
        let words = run.out.split(separator: " ")
        XCTAssertEqual(words.first, "130", run.err)
        let milliseconds = try XCTUnwrap(Int(words.last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""))
        XCTAssertLessThan(milliseconds, 5000, "stopped when asked, not when the resolver gave up")
    }
}

/// A download cut off is resumed from its kept part with Range and If-Range.
final class FetchResumeEndToEndTests: XCTestCase {
    func testACutOffDownloadIsResumedWhereItEnded() throws {
        let tree = TestTree("fetch-resume")
        var body = [UInt8]()
        for i in 0..<300_000 { body.append(UInt8(truncatingIfNeeded: i &* 31 &+ i >> 8)) }
        tree.file("www/big.bin", contents: body)
        let server = try TestHTTPServer(root: tree.path("www"))
        let store = tree.path("store").description
        let url = server.url("/flaky/big.bin")

        let first = Binary.run(["fetch", "--cache", store, url])
        XCTAssertEqual(first.status, 1)
        XCTAssertTrue(first.err.contains("truncated") || first.err.contains("connection"), first.err)
        let kept = Run.command(["sh", "-c", "ls '\(store)/tmp'"]).out
        XCTAssertTrue(kept.contains("resume-"), "the part received is kept: \(kept)")

        let second = Binary.run(["fetch", "--cache", store, "--json", url])
        XCTAssertEqual(second.status, 0, second.err)
        let item = try XCTUnwrap(
            (try JSONSerialization.jsonObject(with: Data(second.stdout)) as? [[String: Any]])?.first)
        XCTAssertEqual(item["outcome"] as? String, "downloaded")
        XCTAssertEqual(item["bytesReceived"] as? Int, body.count - body.count / 2, "only the rest came")
        let ranges = server.requests().filter { $0.hasPrefix("Range: ") }
        XCTAssertEqual(ranges.count, 1)
        XCTAssertTrue(ranges.first?.hasPrefix("Range: bytes=\(body.count / 2)- If-Range: \"") ?? false, "\(ranges)")
        let stored = Binary.run(["cat", url, "--cache", store, "--allow-stale"]).stdout
        XCTAssertTrue(stored == body, "the whole body, byte for byte (\(stored.count) bytes of \(body.count))")
        let verify = Binary.run(["ls", store, "--verify", "--json"])
        XCTAssertFalse(verify.out.contains("corrupted"), verify.out)
        XCTAssertEqual(Run.command(["sh", "-c", "ls -A '\(store)/tmp'"]).out, "", "nothing left in tmp/")
    }

    /// A server that will not continue the kept part (416, or a 206 of another range) gets
    /// asked for the whole body at once (the URL failed, and the part was dropped).
    func testARefusedResumeStartsOver() throws {
        let tree = TestTree("fetch-resume-refused")
        let body = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        tree.file("www/big.bin", contents: body)
        let server = try TestHTTPServer(root: tree.path("www"))
        let store = tree.path("store").description
        for answer in ["416", "wrong"] {
            let url = server.url("/flaky/big.bin?resume=\(answer)")
            XCTAssertEqual(Binary.run(["fetch", "--cache", store, url]).status, 1)
            let second = Binary.run(["fetch", "--cache", store, url])
            XCTAssertEqual(second.status, 0, answer + ": " + second.err)
            XCTAssertTrue(second.out.hasPrefix("downloaded"), second.out)
            let stored = Binary.run(["cat", url, "--cache", store, "--allow-stale"]).stdout
            XCTAssertTrue(stored == body, "\(answer): the whole body (\(stored.count) bytes of \(body.count))")
            XCTAssertEqual(server.requests().filter { $0.hasPrefix("Range: ") && $0.hasSuffix(answer) }.count, 1)
        }
        XCTAssertEqual(Run.command(["sh", "-c", "ls -A '\(store)/tmp'"]).out, "", "nothing left in tmp/")
    }

    func testAChangedRepresentationIsDownloadedWhole() throws {
        let tree = TestTree("fetch-resume-changed")
        tree.file("www/big.bin", contents: Array(repeating: 1, count: 200_000))
        let server = try TestHTTPServer(root: tree.path("www"))
        let store = tree.path("store").description
        let url = server.url("/flaky/big.bin")
        XCTAssertEqual(Binary.run(["fetch", "--cache", store, url]).status, 1)
        // The file changes: its ETag no longer matches the If-Range, so the server sends 200.
        tree.file("www/big.bin", contents: Array(repeating: 2, count: 250_000))
        let second = Binary.run(["fetch", "--cache", store, url])
        XCTAssertEqual(second.status, 0, second.err)
        let stored = Binary.run(["cat", url, "--cache", store, "--allow-stale"]).stdout
        XCTAssertTrue(stored == Array(repeating: 2, count: 250_000), "the new body whole (\(stored.count) bytes)")
        XCTAssertEqual(Run.command(["sh", "-c", "ls -A '\(store)/tmp'"]).out, "")
    }
}
