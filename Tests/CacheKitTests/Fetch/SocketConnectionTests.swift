import Foundation
import TestSupport
import XCTest

@testable import CacheKitFetch
@testable import CacheKitStore
@testable import CacheKitSystem

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

    /// A body cut short and a response that is not HTTP fail alone, in words, with nothing
    /// stored for them; the URL after each still downloads.
    func testACutBodyAndGarbageFailAloneAndStoreNothing() throws {
        let (results, bodies, stored, _) = try fetch(["/cut", "/x", "/garbage", "/y"])
        XCTAssertEqual(results.map(\.outcome), [.failed, .downloaded, .failed, .downloaded])
        XCTAssertTrue(results[0].error?.contains("truncated") == true, results[0].error ?? "")
        XCTAssertTrue(results[2].error?.contains("malformed response") == true, results[2].error ?? "")
        XCTAssertEqual(bodies, [nil, "/x", nil, "/y"])
        XCTAssertEqual(stored, [false, true, false, true])
    }

    /// With several lanes, each keeps its own connections, and every URL is fetched once.
    func testLanesShareTheURLsEachOnItsOwnConnections() throws {
        let paths = (0..<40).map { "/n\($0)" }
        let (_, bodies, _, connections) = try fetch(paths, jobs: 4)
        XCTAssertEqual(bodies, paths)
        XCTAssertEqual(connections.flatMap { $0 }.sorted(), paths.sorted())
        XCTAssertLessThanOrEqual(connections.count, 4)
    }
}
