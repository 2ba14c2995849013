import Foundation
import TestSupport
import XCTest

@testable import CacheKitFetch
@testable import CacheKitStore
@testable import CacheKitSystem
@testable import URLStandard

/// Plain HTTP as a fetch's lanes speak it (`SocketConnection`, NIO's decoder driven by hand),
/// against `framings.py`, a server on raw sockets.
final class SocketConnectionTests: XCTestCase {
    /// Fetches `paths` from a new `framings.py` (synchronously: the server is a child process,
    /// which Foundation waits for only off Swift's threads) and reads its connection log.
    private func fetch(_ paths: [String], jobs: Int = 1) throws -> (
        results: [FetchResult], bodies: [String?], stored: [Bool], connections: [[String]]
    ) {
        let tree = TestTree("lanes")
        let server = try TestHTTPServer(root: tree.root, script: "framings.py")
        let store = try NativeStore.open(tree.path("store"), create: true)
        var options = FetchOptions()
        options.jobs = jobs
        options.stallTimeout = 20
        let fetcher = Fetcher(store: store, options: options)
        let urls = paths.map(server.url)
        let fetched = Locked<[FetchResult]>([])
        let done = DispatchSemaphore(value: 0)
        Task {
            let results = await fetcher.fetch(urls)
            await fetcher.shutdown()
            fetched.withLock { $0 = results }
            done.signal()
        }
        done.wait()
        let results = fetched.withLock { $0 }
        let log = Run.bytes(
            [
                "python3", "-c",
                "import urllib.request,sys;sys.stdout.write(urllib.request.urlopen(sys.argv[1]).read().decode())",
                server.url("/__connections")
            ].map { Array($0.utf8) })
        let connections = try JSONDecoder().decode([[String]].self, from: Data(log.stdout))
        let bodies = results.map { result in
            result.path.flatMap { try? String(contentsOfFile: $0.description, encoding: .utf8) }
        }
        let stored = try results.map { try store.lookup(url: $0.url) != nil }
        return (results, bodies, stored, connections)
    }

    /// Every framing of a body is read whole on one lane's one kept-alive connection: a length,
    /// chunks (extensions and a trailer), a 100 Continue first. A connection the server closed
    /// after its last answer is replaced once, unnoticed; one that ends with its body is not
    /// reused.
    func testEveryFramingOnALanesKeptAliveConnection() throws {
        let (results, bodies, _, connections) = try fetch([
            "/a", "/chunked/b", "/continue/c", "/d", "/once/e", "/f", "/close/g", "/h"
        ])
        XCTAssertEqual(results.map(\.outcome), Array(repeating: .downloaded, count: 8), "\(results.map(\.error))")
        XCTAssertEqual(bodies, ["/a", "chunked b", "continued c", "/d", "once e", "/f", "closed g", "/h"])
        XCTAssertEqual(
            connections, [["/a", "/chunked/b", "/continue/c", "/d", "/once/e"], ["/f", "/close/g"], ["/h"]])
    }

    /// Heads as RFC 9112 asks a user agent to read them, as curl reads them: lines ended by LF
    /// alone (a 100 Continue's too), and a field folded over two lines (obs-fold) read as one
    /// value; each body as it came, all on one kept-alive connection. NIO's decoder refused
    /// both ("malformed response").
    func testHeadsWithBareLFsAndFoldedFieldsAreRead() throws {
        let (results, bodies, stored, connections) = try fetch(["/lf/a", "/fold/b", "/lfcontinue/c", "/d"])
        XCTAssertEqual(results.map(\.outcome), Array(repeating: .downloaded, count: 4), "\(results.map(\.error))")
        XCTAssertEqual(bodies, ["lf a", "fold b", "lfcontinue c", "/d"])
        XCTAssertEqual(stored, [true, true, true, true])
        XCTAssertEqual(connections, [["/lf/a", "/fold/b", "/lfcontinue/c", "/d"]])
        // The folded values, whole: freshness from max-age=600 on the folded line.
        XCTAssertEqual(results[1].contentType, "text/plain; charset=utf-8")
        XCTAssertEqual(results[1].freshnessSource, .maxAge)
        let lifetime = results[1].expires.map { $0.timeInterval - FileTime.now.timeInterval } ?? 0
        XCTAssertGreaterThan(lifetime, 500)
        XCTAssertEqual(results[0].freshnessSource, .maxAge)
    }

    /// A `Location` that is not UTF-8 leads where its bytes say, each percent-encoded as it came,
    /// as curl and the web-platform-tests' redirect-location-escape cases have it (their four
    /// cases, the last one `\xFF` → `%FF`); it led to `%EF%BF%BD` (U+FFFD), another URL.
    func testALocationsBytesAreKeptAsTheyCame() throws {
        let cases: [([UInt8], String)] = [
            (Array("/landed/top.txt?\u{2603}".utf8), "/landed/top.txt?%E2%98%83"),
            (Array("/landed/top.txt?\u{2603}%e2%98%83".utf8), "/landed/top.txt?%E2%98%83%e2%98%83"),
            (Array("/landed/top.txt?%\u{2603}".utf8), "/landed/top.txt?%%E2%98%83"),
            (Array("/landed/top.txt?".utf8) + [0xFF], "/landed/top.txt?%FF"),
            (Array("/landed/caf".utf8) + [0xE9], "/landed/caf%E9")
        ]
        let paths = cases.map { "/locate/" + $0.0.map { String(format: "%02x", $0) }.joined() }
        let (results, bodies, _, _) = try fetch(paths)
        XCTAssertEqual(
            results.map(\.outcome), Array(repeating: .downloaded, count: cases.count), "\(results.map(\.error))")
        XCTAssertEqual(bodies, cases.map(\.1))
    }

    /// A body cut short, a response that is not HTTP, one that came with a second one unasked
    /// and a 101 no request asked for fail alone, in words, with nothing stored for them; the
    /// URL after each still downloads. (The second response: a cache cannot tell which bytes are the body.)
    func testACutBodyAndGarbageFailAloneAndStoreNothing() throws {
        let (results, bodies, stored, _) = try fetch([
            "/cut", "/x", "/garbage", "/y", "/unasked", "/z", "/upgrade", "/w"
        ])
        XCTAssertEqual(
            results.map(\.outcome),
            [.failed, .downloaded, .failed, .downloaded, .failed, .downloaded, .failed, .downloaded])
        XCTAssertTrue(results[0].error?.contains("truncated") == true, results[0].error ?? "")
        XCTAssertTrue(results[2].error?.contains("malformed response") == true, results[2].error ?? "")
        XCTAssertEqual(results[4].error, "malformed response (a second response came with it, unasked)")
        // A 101 nobody asked for is named, not "closed before the response".
        XCTAssertEqual(
            results[6].error,
            "malformed response (101 Switching Protocols, though the request asked for no other protocol)")
        XCTAssertEqual(bodies, [nil, "/x", nil, "/y", nil, "/z", nil, "/w"])
        XCTAssertEqual(stored, [false, true, false, true, false, true, false, true])
    }

    /// A response that never gets to a body (100 Continue heads without end, a status line
    /// without end, a chunk extension without end) fails once 1 MiB has come with no final
    /// head or body byte, in words, storing nothing; the URL after each still downloads.
    /// (Before the limit each ran until the server gave up, 64 MiB later: curl stops at 300 KB.)
    func testAResponseThatNeverGetsToABodyIsCutOff() throws {
        let kinds = ["continue", "status", "extension"]
        let (results, bodies, stored, _) = try fetch(kinds.flatMap { ["/endless/\($0)", "/after-\($0)"] })
        XCTAssertEqual(results.map(\.outcome), Array(repeating: [.failed, .downloaded], count: 3).flatMap { $0 })
        for i in [0, 2, 4] {
            XCTAssertEqual(
                results[i].error, "malformed response (1 MiB received without a response head or body bytes)",
                kinds[i / 2])
        }
        XCTAssertEqual(bodies, [nil, "/after-continue", nil, "/after-status", nil, "/after-extension"])
        XCTAssertEqual(stored, [false, true, false, true, false, true])
    }

    /// With several lanes, each keeps its own connections, and every URL is fetched once.
    func testLanesShareTheURLsEachOnItsOwnConnections() throws {
        let paths = (0..<40).map { "/n\($0)" }
        let (_, bodies, _, connections) = try fetch(paths, jobs: 4)
        XCTAssertEqual(bodies, paths)
        XCTAssertEqual(connections.flatMap { $0 }.sorted(), paths.sorted())
        XCTAssertLessThanOrEqual(connections.count, 4)
    }

    /// A lane keeps at most `idleLimit` connections idle, closing the one idle longest: with
    /// a limit of 1, going back to the first origin after another takes a new connection;
    /// with the default, the first one is still there.
    func testALaneKeepsAtMostItsLimitOfIdleConnections() throws {
        let urls = ["http://127.0.0.1:{port}/1", "http://localhost:{port}/2", "http://127.0.0.1:{port}/3"]
        XCTAssertEqual(try exchanges(urls, idleLimit: 1).connections, [["/1"], ["/2"], ["/3"]])
        XCTAssertEqual(try exchanges(urls, idleLimit: 16).connections, [["/1", "/3"], ["/2"]])
    }

    /// A kept-alive connection on which something came while it was idle (here bytes that
    /// belong to no response, 200 ms after the one before; the next URL 1 s later) is not sent
    /// the next request, which goes on a new connection and is answered whole; so is one the
    /// server ended while idle.
    /// (Before the check, `/b` failed: the junk was read as the start of its response.)
    func testAConnectionOnWhichSomethingCameWhileIdleIsNotReused() throws {
        let urls = ["/extra/a", "/b", "/once/c", "/d"].map { "http://127.0.0.1:{port}" + $0 }
        let (bodies, connections) = try exchanges(urls, pause: 1)
        XCTAssertEqual(bodies, ["extra a", "/b", "once c", "/d"])
        XCTAssertEqual(connections, [["/extra/a"], ["/b", "/once/c"], ["/d"]])
    }

    /// `urls` (`{port}`: the server's) fetched one after another on one lane, `pause` seconds
    /// apart; their bodies, and the server's connections.
    private func exchanges(_ urls: [String], idleLimit: Int = 16, pause: Double = 0) throws -> (
        bodies: [String], connections: [[String]]
    ) {
        let tree = TestTree("idle")
        let server = try TestHTTPServer(root: tree.root, script: "framings.py")
        let executor = try XCTUnwrap(ThreadExecutor.start())
        defer { executor.stop() }
        let settings = HTTPConnectionPool.Settings(
            connectTimeout: .seconds(10), stallTimeout: .seconds(20), caFile: nil, proxies: ProxySettings())
        let pool = HTTPConnectionPool(settings: settings)
        let texts = urls.map { $0.replacingOccurrences(of: "{port}", with: "\(server.port)") }
        let failure = Locked<Error?>(nil)
        let bodies = Locked<[String]>([])
        let done = DispatchSemaphore(value: 0)
        Task(executorPreference: executor) {
            let lane = FetchLane(idleLimit: idleLimit)
            defer { lane.closeAll() }
            do {
                for text in texts {
                    if pause > 0 { try await Task.sleep(nanoseconds: UInt64(pause * 1e9)) }
                    let url = try XCTUnwrap(StandardURL(text))
                    let body = try await lane.withConnection(pool.route(for: url), pool: pool) { connection in
                        _ = try await connection.get(url, headers: [])
                        var body = ""
                        while let buffer = try await connection.nextBody() { body += String(buffer: buffer) }
                        return body
                    }
                    bodies.withLock { $0.append(body) }
                }
            } catch {
                failure.withLock { $0 = error }
            }
            done.signal()
        }
        done.wait()
        if let error = failure.withLock({ $0 }) { throw error }
        let log = Run.bytes(
            [
                "python3", "-c",
                "import urllib.request,sys;sys.stdout.write(urllib.request.urlopen(sys.argv[1]).read().decode())",
                server.url("/__connections")
            ].map { Array($0.utf8) })
        return (bodies.withLock { $0 }, try JSONDecoder().decode([[String]].self, from: Data(log.stdout)))
    }
}
