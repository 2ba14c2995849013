import CacheKit
import Foundation
import TestSupport
import XCTest

/// `cachectl fetch` and `localize --fetch` through the built binary, against a real HTTP
/// server on 127.0.0.1 (Tests/TestSupport/httpd.py) that counts requests.
final class FetchEndToEndTests: XCTestCase {
    private func fixture(_ name: String = "fetch") throws -> (TestTree, TestHTTPServer, String) {
        let tree = TestTree(name)
        tree.file("www/a.png", contents: Images.png)
        tree.file("www/b.txt", contents: Array(repeating: UInt8(ascii: "b"), count: 200_000))
        tree.file("www/c.txt", contents: Array("c body\n".utf8))
        // Longer than the fetcher keeps in memory (128 KiB): streamed to tmp/.
        tree.file("www/big.txt", contents: Array(repeating: UInt8(ascii: "g"), count: 400_000))
        let server = try TestHTTPServer(root: tree.path("www"))
        return (tree, server, tree.path("store").description)
    }

    /// The first page of a `localize --json` run's report.
    private func pageReport(_ run: RunResult) throws -> [String: Any] {
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: Any])
        return try XCTUnwrap((object["pages"] as? [[String: Any]])?.first)
    }

    private func fetch(_ args: [String], _ store: String, environment: [String: String] = [:]) -> RunResult {
        Binary.run(["fetch", "--cache", store] + args, environment: environment)
    }

    private func catBody(_ url: String, _ store: String) -> RunResult { Binary.run(["cat", url, "--cache", store]) }

    /// The stored body, fresh or not: files the test server just wrote carry a Last-Modified
    /// of now, so their heuristic lifetime (10 % of their age) may already be over.
    private func storedBody(_ url: String, _ store: String) -> RunResult {
        Binary.run(["cat", url, "--cache", store, "--allow-stale"])
    }

    func testFreshEntriesAreServedWithoutARequestAndExpiredOnesRevalidated() throws {
        let (tree, server, store) = try fixture()
        defer { withExtendedLifetime(tree) {} }
        let fresh = server.url("/files/a.png?cc=max-age=3600")
        let shortLived = server.url("/files/c.txt?cc=max-age=0")
        let first = fetch([fresh, shortLived], store)
        XCTAssertEqual(first.status, 0, first.err)
        XCTAssertTrue(first.out.contains("downloaded\t\(fresh)\t"), first.out)
        XCTAssertEqual(catBody(fresh, store).stdout, Images.png, "the stored body is the served one")

        let second = fetch([fresh, shortLived, "--json"], store)
        XCTAssertEqual(second.status, 0, second.err)
        let json = try JSONSerialization.jsonObject(with: Data(second.stdout)) as! [[String: Any]]
        XCTAssertEqual(json[0]["outcome"] as? String, "hit")
        XCTAssertEqual(json[1]["outcome"] as? String, "revalidated", "max-age=0 with an ETag: 304")
        XCTAssertEqual(json[1]["status"] as? Int, 304)
        XCTAssertEqual(server.count("/files/a.png?cc=max-age=3600"), 1, "a fresh entry makes no request")
        XCTAssertEqual(server.count("/files/c.txt?cc=max-age=0"), 2)
    }

    /// A password in a URL authenticates the request but is no part of the key: it never
    /// reaches the index, `ls` or a report (reports show it as `***`, as wget does).
    func testAPasswordInTheURLIsSentButNeverStoredOrShown() throws {
        let (tree, server, store) = try fixture("fetch-password")
        defer { withExtendedLifetime(tree) {} }
        let url = server.url("/echo-headers").replacingOccurrences(of: "http://", with: "http://ann:s3cret@")
        let run = fetch([url], store)
        XCTAssertEqual(run.status, 0, run.err)
        let shown = url.replacingOccurrences(of: "s3cret", with: "***")
        XCTAssertTrue(run.out.hasPrefix("downloaded\t\(shown)\t"), run.out)
        let body = storedBody(url, store).out
        XCTAssertTrue(body.contains("Authorization: Basic \(Data("ann:s3cret".utf8).base64EncodedString())"), body)
        XCTAssertTrue(fetch([url], store).out.hasPrefix("hit\t"), "the same key, found again")
        let json = fetch([url, "--json"], store).out
        XCTAssertTrue(json.contains("ann:***@"), json)
        XCTAssertFalse(json.contains("s3cret"), json)
        let listed = Binary.run(["ls", store]).out
        XCTAssertTrue(listed.contains("http://ann@127.0.0.1:"), listed)
        XCTAssertFalse(listed.contains("s3cret"), listed)
        for file in ["index.sqlite", "index.sqlite-wal"] {
            let bytes = (try? FileIOProbe.read(tree.path("store/\(file)"))) ?? []
            XCTAssertNil(String(decoding: bytes, as: UTF8.self).range(of: "s3cret"), file)
        }
        let failed = fetch([url.replacingOccurrences(of: "/echo-headers", with: "/status/404")], store)
        XCTAssertTrue(failed.err.contains("ann:***@"), failed.err)
        XCTAssertFalse(failed.err.contains("s3cret"), failed.err)
    }

    func testLifetimeFromHeadersAndOption() throws {
        let (tree, server, store) = try fixture()
        defer { withExtendedLifetime(tree) {} }
        let noStore = server.url("/files/c.txt?cc=no-store")
        let noCache = server.url("/files/b.txt?cc=no-cache")
        let expires = server.url("/files/a.png?expires=7200")
        let result = fetch([noStore, noCache, expires, "--json"], store)
        XCTAssertEqual(result.status, 0, result.err)
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout)) as! [[String: Any]]
        XCTAssertEqual(json.map { $0["outcome"] as? String }, ["not-stored", "downloaded", "downloaded"])
        XCTAssertEqual(json.map { $0["freshness"] as? String }, ["no-store", "no-cache", "Expires"])
        XCTAssertNotEqual(catBody(noStore, store).status, 0, "no-store: nothing kept")
        // no-cache: stored, but revalidated before every use.
        XCTAssertEqual(fetch([noCache], store).out.split(separator: "\t").first, "revalidated")
        // --expires overrides the headers.
        let overridden = fetch([noCache, "--expires", "1d", "--json"], store)
        let again = try JSONSerialization.jsonObject(with: Data(overridden.stdout)) as! [[String: Any]]
        XCTAssertEqual(again[0]["freshness"] as? String, "--expires")
        XCTAssertEqual(fetch([noCache], store).out.split(separator: "\t").first, "hit")
    }

    func testSlidingExpiryMovesOnEachHit() throws {
        let (tree, server, store) = try fixture()
        defer { withExtendedLifetime(tree) {} }
        let url = server.url("/files/c.txt")
        XCTAssertEqual(fetch([url, "--expires", "1h", "--sliding"], store).status, 0)
        let db = try NativeStore.open(RawPath(store), create: false)
        let before = try XCTUnwrap(db.lookup(url: url)).record.expires!
        Thread.sleep(forTimeInterval: 1.2)
        XCTAssertEqual(fetch([url, "--sliding"], store).out.split(separator: "\t").first, "hit")
        let after = try XCTUnwrap(db.lookup(url: url)).record.expires!
        XCTAssertGreaterThan(after, before + 1, "expiry moved to now + lifetime")
        XCTAssertEqual(server.count("/files/c.txt"), 1)
    }

    func testSameURLIsDownloadedOnceAndManyRunAtOnce() throws {
        let (tree, server, store) = try fixture()
        defer { withExtendedLifetime(tree) {} }
        for i in 0..<40 { tree.file("www/f\(i).txt", contents: Array("file \(i)".utf8)) }
        var urls = (0..<40).map { server.url("/files/f\($0).txt") }
        urls += [urls[3], urls[3], server.url("/files/f3.txt")]
        // Blank lines, comments (indented too), tabs and spaces around a URL, CR LF and LF.
        let lines =
            ["# a comment", "", " \t# indented", "\t "] + urls.enumerated().map { $0 % 2 == 0 ? "\t\($1) " : $1 }
        tree.file("list.txt", contents: Array((lines.joined(separator: "\r\n") + "\n\n").utf8))
        let result = fetch(["--input", tree.path("list.txt").description, "--jobs", "8"], store)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.out.split(separator: "\n").count, 43)
        XCTAssertEqual(server.count("/files/f3.txt"), 1, "duplicates are fetched once")
        XCTAssertEqual(server.requests().count, 40)
        for i in [0, 17, 39] {
            let cat = storedBody(urls[i], store)
            XCTAssertEqual(cat.out, "file \(i)", cat.err)
        }
    }

    func testRedirectsFollowedLoopsAndHostileServersReportedPerURL() throws {
        let (tree, server, store) = try fixture()
        defer { withExtendedLifetime(tree) {} }
        let redirected = server.url("/redirect/3/c.txt")
        let urls = [
            redirected, server.url("/loop"), server.url("/truncated/b.txt"), server.url("/big?size=3000000"),
            server.url("/big?size=3000000&chunked=1"), server.url("/status/404"), server.url("/status/999"),
            server.url("/hang"), "ftp://127.0.0.1/x", "http://no-such-host.invalid/x", "http://127.0.0.1:1/refused",
            "not a url",
            server.url("/files/a.png")
        ]
        let result = fetch(urls + ["--max-body", "1M", "--timeout", "2s"], store)
        XCTAssertEqual(result.status, 1, "some failed")
        XCTAssertTrue(result.out.contains("downloaded\t\(redirected)\t"), result.out)
        let cat = storedBody(redirected, store)
        XCTAssertEqual(cat.out, "c body\n", "stored under the URL asked for: \(cat.err)")
        XCTAssertTrue(
            result.out.contains("downloaded\t\(server.url("/files/a.png"))\t"), "the run continues past failures")
        let err = result.err
        for (url, cause) in [
            (server.url("/loop"), "redirect loop"), (server.url("/truncated/b.txt"), "truncated"),
            (server.url("/big?size=3000000"), "larger than --max-body"),
            (server.url("/big?size=3000000&chunked=1"), "larger than --max-body"),
            (server.url("/status/404"), "HTTP 404 Not Found"), (server.url("/hang"), "stalled"),
            (server.url("/status/999"), "HTTP 999 (not a status code: they run from 100 to 599)"),
            ("ftp://127.0.0.1/x", "unsupported scheme"), ("http://no-such-host.invalid/x", "resolve"),
            ("http://127.0.0.1:1/refused", "refused"), ("not a url", "malformed URL: it has no scheme")
        ] {
            XCTAssertTrue(
                err.contains("cachectl: \(url): ")
                    && err.split(separator: "\n").contains { $0.hasPrefix("cachectl: \(url): ") && $0.contains(cause) },
                "\(url) → \(cause) in:\n\(err)")
        }
        // Nothing partial anywhere: no row for a failure, tmp/ empty.
        for url in urls.dropFirst().dropLast() { XCTAssertNotEqual(catBody(url, store).status, 0, url) }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: store + "/tmp"), [])
    }

    /// A download cut off still reports the bytes that came (they were 0), in its JSON and
    /// in the run's summary.
    func testACutOffDownloadReportsTheBytesThatCame() throws {
        let (tree, server, store) = try fixture("fetch-cut")
        defer { withExtendedLifetime(tree) {} }
        let run = fetch([server.url("/truncated/b.txt"), "--json"], store)
        XCTAssertEqual(run.status, 1)
        let item = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [[String: Any]])?.first)
        XCTAssertEqual(item["outcome"] as? String, "failed")
        XCTAssertEqual(item["bytesReceived"] as? Int, 100_000, "half of b.txt's 200,000 bytes came")
        XCTAssertTrue(run.err.contains("1 failed (98K received)"), run.err)
    }

    func testKilledDownloadLeavesThePreviousEntryAndPruneDropsTheRemains() throws {
        let (tree, server, store) = try fixture()
        defer { withExtendedLifetime(tree) {} }
        let url = server.url("/slow/big.txt?pause=30")
        // A previous good entry for the same URL.
        tree.file("old.txt", contents: Array("old body".utf8))
        XCTAssertEqual(
            Binary.run(["put", url, tree.path("old.txt").description, "--cache", store, "--expires", "1s"]).status, 0)
        Thread.sleep(forTimeInterval: 1.1)
        // Start a download that stalls half-way, then kill it.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = ["fetch", "--cache", store, url]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let tmp = store + "/tmp"
        var waited = 0.0
        while waited < 20,
            ((try? FileManager.default.contentsOfDirectory(atPath: tmp)) ?? []).allSatisfy({
                (try? FileManager.default.attributesOfItem(atPath: tmp + "/" + $0)[.size] as? Int) ?? 0 == 0
            })
        {
            Thread.sleep(forTimeInterval: 0.1)
            waited += 0.1
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let remains = try FileManager.default.contentsOfDirectory(atPath: tmp)
        XCTAssertEqual(remains.count, 1, "the half body sits in tmp/")
        XCTAssertEqual(catBody(url, store).out, "", "expired entries are not served by cat")
        XCTAssertEqual(
            Binary.run(["cat", url, "--cache", store, "--allow-stale"]).out, "old body", "the previous entry survives")
        let listing = Binary.run(["ls", store, "--state", "fresh"])
        XCTAssertFalse(listing.out.contains("/slow/big.txt"), listing.out + listing.err)
        // The next prune drops the never-completed download (no grace), keeps the entry.
        let prune = Binary.run(["prune", store, "--grace", "0s"])
        XCTAssertEqual(prune.status, 0, prune.err)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp), [])
        // A retry that completes replaces it.
        let retry = fetch([server.url("/slow/big.txt?pause=0")], store)
        XCTAssertEqual(retry.status, 0, retry.err)
        XCTAssertEqual(storedBody(server.url("/slow/big.txt?pause=0"), store).stdout.count, 400_000)
    }

    /// Killed after a batch of downloads is placed under objects/ but before its rows are
    /// committed: no URL is served, the placed bodies are orphans for prune, nothing is
    /// corrupted.
    func testKilledBetweenPlacingAndCommittingABatchLeavesOrphansOnly() throws {
        let (tree, server, store) = try fixture()
        defer { withExtendedLifetime(tree) {} }
        let urls = (0..<20).map { server.url("/files/c.txt?cc=max-age=3600&n=\($0)") }
        let killed = fetch(urls, store, environment: ["CACHECTL_CRASH_AT": "put.afterRename"])
        XCTAssertEqual(killed.status, 128 + 9, killed.err)
        for url in urls { XCTAssertNotEqual(catBody(url, store).status, 0, url) }
        let orphans = Binary.run(["ls", store, "--grace", "0s", "--state", "orphan"]).out
        XCTAssertGreaterThan(
            orphans.components(separatedBy: "no index entry refers to this body").count - 1, 0, orphans)
        XCTAssertFalse(
            Binary.run(["ls", store, "--state", "corrupted", "--json"]).out.contains("\"url\""), "nothing corrupted")
        XCTAssertEqual(Binary.run(["prune", store, "--grace", "0s"]).status, 0)
        XCTAssertEqual(FileTree.files(under: RawPath(store + "/objects")).count, 0)
        let again = fetch(urls, store)
        XCTAssertEqual(again.status, 0, again.err)
        for url in urls { XCTAssertEqual(catBody(url, store).out, "c body\n", url) }
    }

    /// A body short enough to be kept in memory until its commit leaves nothing at all when
    /// the process is killed half-way.
    func testKilledSmallDownloadLeavesNothing() throws {
        let (tree, server, store) = try fixture()
        defer { withExtendedLifetime(tree) {} }
        XCTAssertEqual(fetch([server.url("/files/c.txt")], store).status, 0)  // the store exists
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = ["fetch", "--cache", store, server.url("/slow/b.txt?pause=30")]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var waited = 0.0
        while waited < 20, !server.requests().contains(where: { $0.contains("/slow/b.txt") }) {
            Thread.sleep(forTimeInterval: 0.1)
            waited += 0.1
        }
        Thread.sleep(forTimeInterval: 0.5)  // half the body received; the server pauses 30 s
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
        XCTAssertEqual(((try? FileManager.default.contentsOfDirectory(atPath: store + "/tmp")) ?? []), [])
        XCTAssertNotEqual(catBody(server.url("/slow/b.txt?pause=30"), store).status, 0)
        XCTAssertEqual(
            Binary.run(["ls", store, "--grace", "0s", "--state", "orphan", "--json"]).out.contains("\"path\""), false)
    }

    /// `-o FILE` and `--print` copy the stored body a block at a time, as curl writes one:
    /// a 600 MB body (a sparse file served from loopback) in 560 MB of address space. Before,
    /// the whole body was read into memory first (twice for `--print`: 1.25 GB resident for
    /// 600 MB): `-o` stopped the binary (SIGABRT) when it could not allocate it.
    func testALargeBodyIsWrittenOutWithoutHoldingIt() throws {
        let (tree, server, store) = try fixture("fetch-large")
        defer { withExtendedLifetime(tree) {} }
        let size = 600 << 20
        let body = tree.file("www/large.bin", contents: [])
        XCTAssertEqual(truncate(body.description, off_t(size)), 0)
        for (flag, target) in [
            ("-o", tree.path("out.bin").description), ("--print", tree.path("printed.bin").description)
        ] {
            let command =
                flag == "-o"
                ? "-o '\(target)'" : "--print > '\(target)'"
            let run = Run.command([
                "sh", "-c",
                "ulimit -v 560000; exec '\(Binary.path)' fetch '\(server.url("/files/large.bin"))' --max-body 1G "
                    + "--cache '\(store)' \(command)"
            ])
            XCTAssertEqual(run.status, 0, flag + ": " + String(run.err.suffix(500)))
            let st = try FileManager.default.attributesOfItem(atPath: target)
            XCTAssertEqual((st[.size] as? NSNumber)?.intValue, size, flag)
            XCTAssertEqual(Run.command(["cmp", target, body.description]).status, 0, flag + ": not the body")
        }
    }

    func testPrintWritesTheBodyAndUsageErrors() throws {
        let (tree, server, store) = try fixture()
        defer { withExtendedLifetime(tree) {} }
        let printed = fetch(["--print", server.url("/files/a.png")], store)
        XCTAssertEqual(printed.status, 0, printed.err)
        XCTAssertEqual(printed.stdout, Images.png)
        // `-o -` is stdout, as curl's: no file named `-` (it was written one before).
        tree.dir("cwd")
        let dash = Run.command([
            "sh", "-c",
            "cd '\(tree.path("cwd").description)' && exec '\(Binary.path)' fetch --cache '\(store)' -o - "
                + "'\(server.url("/files/a.png"))'"
        ])
        XCTAssertEqual(dash.status, 0, dash.err)
        XCTAssertEqual(dash.stdout, Images.png)
        XCTAssertFalse(tree.path("cwd/-").exists)
        XCTAssertEqual(fetch(["-o", "-", "--json", server.url("/files/a.png")], store).status, 2)
        let unstored = fetch(["--print", server.url("/files/c.txt?cc=no-store")], store)
        XCTAssertEqual(unstored.out, "c body\n", "a no-store body is printed, not kept")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: store + "/tmp"), [])
        XCTAssertEqual(fetch([], store).status, 2)
        XCTAssertEqual(fetch(["--print", server.url("/a"), server.url("/b")], store).status, 2)
        XCTAssertEqual(fetch(["--jobs", "0", server.url("/a")], store).status, 2)
        XCTAssertEqual(fetch(["--expires", "soon", server.url("/a")], store).status, 2)
        let missingList = fetch(["--input", "/nonexistent/list"], store)
        XCTAssertEqual(missingList.status, 1)
        XCTAssertTrue(missingList.err.contains("/nonexistent/list"), missingList.err)
    }

    func testLocalizeFetchesMissingImagesThenRewrites() throws {
        let (tree, server, store) = try fixture()
        defer { withExtendedLifetime(tree) {} }
        let page =
            """
            <p><img src=\"/files/a.png?cc=max-age=3600\"><img src=\"/files/c.txt?cc=max-age=3600\"><img \
            src=\"/files/none.png\"></p>\n
            """
        tree.file("page.html", contents: Array(page.utf8))
        let result = Binary.run([
            "localize", tree.path("page.html").description, "--cache", store, "--fetch",
            "--base-url", server.url("/site/page.html"), "-o", tree.path("out.html").description
        ])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.err.contains("2 rewritten, 1 missing"), result.err)
        XCTAssertTrue(result.err.contains("files/none.png: HTTP 404"), "the failed download is reported: \(result.err)")
        let out = String(decoding: try FileIOProbe.read(tree.path("out.html")), as: UTF8.self)
        // The page's URL is remote: the image that stays remote is made absolute against it.
        XCTAssertTrue(out.hasSuffix("<img src=\"\(server.url("/files/none.png"))\"></p>\n"), out)
        XCTAssertFalse(out.contains("src=\"/files/a.png"))
        // A second run finds them fresh: no new requests.
        let before = server.requests().count
        XCTAssertEqual(
            Binary.run([
                "localize", tree.path("page.html").description, "--cache", store, "--fetch",
                "--base-url", server.url("/site/page.html"), "-o", tree.path("out.html").description
            ]).status, 0)
        XCTAssertEqual(server.requests().count, before + 1, "only the missing image is asked for again")
    }

    /// What `--fetch` has just downloaded or revalidated is used even when its lifetime is
    /// already over (`max-age=0`, `no-cache`, or a heuristic 10 % of a Last-Modified of now):
    /// it is the newest copy there is. (Before: reported stale, `--require-all` failed, and
    /// with a heuristic lifetime the outcome depended on the clock crossing a second.)
    func testLocalizeFetchUsesWhatItJustFetchedEvenIfAlreadyStale() throws {
        let (tree, server, store) = try fixture()
        defer { withExtendedLifetime(tree) {} }
        let page = "<p><img src=\"/files/a.png?cc=max-age=0\"><img src=\"/files/c.txt?cc=no-cache\"></p>\n"
        tree.file("page.html", contents: Array(page.utf8))
        let args = [
            "localize", tree.path("page.html").description, "--cache", store, "--fetch", "--require-all",
            "--base-url", server.url("/site/page.html"), "-o", tree.path("out.html").description
        ]
        let first = Binary.run(args)
        XCTAssertEqual(first.status, 0, first.err)
        XCTAssertTrue(first.err.contains("2 rewritten, 0 missing, 0 stale"), first.err)
        // Again: both are revalidated (they are stale in the store) and used.
        let before = server.requests().count
        let second = Binary.run(args)
        XCTAssertEqual(second.status, 0, second.err)
        XCTAssertTrue(second.err.contains("2 rewritten, 0 missing, 0 stale"), second.err)
        XCTAssertEqual(server.requests().count, before + 2)
        // Without --fetch, an expired copy is still not used.
        let offline = Binary.run([
            "localize", tree.path("page.html").description, "--cache", store,
            "--base-url", server.url("/site/page.html"), "-o", tree.path("off.html").description
        ])
        XCTAssertTrue(offline.err.contains("0 rewritten, 0 missing, 2 stale"), offline.err)
    }

    /// One step from a URL: the page is fetched, then its images, then it is written, with
    /// its other references made absolute against its URL.
    func testLocalizeAPageURLWithFetch() throws {
        let (tree, server, store) = try fixture()
        defer { withExtendedLifetime(tree) {} }
        tree.file(
            "www/page.html",
            contents: Array("<p><img src=\"a.png?cc=max-age=3600\"> <a href=\"other.html\">o</a></p>\n".utf8))
        let pageURL = server.url("/files/page.html?cc=max-age=3600")
        let out = tree.path("saved/page.html")
        let run = Binary.run([
            "localize", pageURL, "--cache", store, "--fetch", "--output-dir", tree.path("saved").description
        ])
        XCTAssertEqual(run.status, 0, run.err)
        let html = String(decoding: try FileIOProbe.read(out), as: UTF8.self)
        XCTAssertTrue(html.contains("<img src=\"page_files/a.png\">"), html)
        XCTAssertTrue(html.contains("href=\"\(server.url("/files/other.html"))\""), html)
        let before = server.requests().count
        XCTAssertEqual(Binary.run(["localize", pageURL, "--cache", store, "--fetch", "-o", out.description]).status, 0)
        XCTAssertEqual(server.requests().count, before, "page and image fresh: no request the second time")
        // A page the server says not to store is used once.
        let unstored = server.url("/files/page.html?cc=no-store")
        let once = Binary.run([
            "localize", unstored, "--cache", store, "--fetch", "-o", tree.path("once.html").description
        ])
        XCTAssertEqual(once.status, 0, once.err)
        let onceHTML = String(decoding: try FileIOProbe.read(tree.path("once.html")), as: UTF8.self)
        XCTAssertTrue(onceHTML.contains("<img src=\"store/objects/"), onceHTML)
    }

    /// `--styles`: stylesheets fetched and saved beside the page, their url() and @import
    /// references (fonts, backgrounds, imported sheets) fetched and made local too.
    func testLocalizeSavesStylesheetsWithWhatTheyReference() throws {
        let (tree, server, store) = try fixture()
        defer { withExtendedLifetime(tree) {} }
        let cc = "?cc=max-age=3600"
        tree.file(
            "www/page.html",
            contents: Array("<link rel=\"stylesheet\" href=\"style.css\(cc)\"><p class=x>hi</p>\n".utf8))
        tree.file(
            "www/style.css",
            contents: Array(
                """
                @import "more.css\(cc)";
                body { background: url(bg.png\(cc)) }
                @font-face { font-family: F; src: url('font.woff2\(cc)') }
                .gone { background: url(missing.png\(cc)) }
                """.utf8))
        tree.file("www/more.css", contents: Array(".x { background-image: url(\"icon.png\(cc)\") }".utf8))
        tree.file("www/bg.png", contents: Images.png)
        tree.file("www/icon.png", contents: Images.png)
        tree.file("www/font.woff2", contents: Array("wOF2 font bytes".utf8))
        let run = Binary.run([
            "localize", server.url("/files/page.html\(cc)"), "--fetch", "--styles", "--cache", store,
            "--output-dir", tree.path("saved").description
        ])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(run.err.contains("2 stylesheets saved, 4 of their references local, 1 missing"), run.err)
        let page = String(decoding: try FileIOProbe.read(tree.path("saved/page.html")), as: UTF8.self)
        XCTAssertTrue(page.contains("<link rel=\"stylesheet\" href=\"page_files/style.css\">"), page)
        let style = String(decoding: try FileIOProbe.read(tree.path("saved/page_files/style.css")), as: UTF8.self)
        XCTAssertTrue(style.contains("@import \"more.css\";"), style)
        XCTAssertTrue(style.contains("url(bg.png)") && style.contains("url('font.woff2')"), style)
        XCTAssertTrue(
            style.contains("url(\(server.url("/files/missing.png\(cc)")))") || style.contains("url(missing.png\(cc))"),
            style)
        let more = String(decoding: try FileIOProbe.read(tree.path("saved/page_files/more.css")), as: UTF8.self)
        XCTAssertEqual(more, ".x { background-image: url(\"icon.png\") }")
        XCTAssertEqual(try FileIOProbe.read(tree.path("saved/page_files/font.woff2")), Array("wOF2 font bytes".utf8))
        XCTAssertEqual(try FileIOProbe.read(tree.path("saved/page_files/icon.png")), Images.png)
    }

    /// `--styles` on a page that is not UTF-8 (Shift_JIS, with a link whose text holds
    /// Shift_JIS bytes before it): the link is rewritten at the original bytes, every other
    /// byte kept, the stylesheet saved.
    func testLocalizeSavesStylesheetsOfAPageInAnotherCharset() throws {
        let (tree, server, store) = try fixture()
        defer { withExtendedLifetime(tree) {} }
        let cc = "?cc=max-age=3600"
        // 「日本」 in Shift_JIS: 93 FA 96 7B.
        let head =
            Array("<html><head><meta charset=\"shift_jis\"><title>".utf8) + [0x93, 0xFA, 0x96, 0x7B]
            + Array("</title><link rel=\"stylesheet\" href=\"".utf8)
        let tail = Array("\"></head><body><p>".utf8) + [0x93, 0xFA, 0x96, 0x7B] + Array("</p></body></html>\n".utf8)
        tree.file("www/sjis.html", contents: head + Array("s.css\(cc)".utf8) + tail)
        tree.file("www/s.css", contents: Array("body { background: url(bg.png\(cc)) }".utf8))
        tree.file("www/bg.png", contents: Images.png)
        let run = Binary.run([
            "localize", server.url("/files/sjis.html\(cc)"), "--fetch", "--styles", "--cache", store,
            "--output-dir", tree.path("saved").description
        ])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertFalse(run.err.contains("UTF-8 pages only"), run.err)
        XCTAssertTrue(run.err.contains("1 stylesheet saved, 1 of their references local"), run.err)
        XCTAssertEqual(
            try FileIOProbe.read(tree.path("saved/sjis.html")), head + Array("sjis_files/s.css".utf8) + tail,
            "only the href changed")
        let style = String(decoding: try FileIOProbe.read(tree.path("saved/sjis_files/s.css")), as: UTF8.self)
        XCTAssertEqual(style, "body { background: url(bg.png) }")
    }

    /// A page served as `text/html; charset=Shift_JIS` with no `<meta>` is read in Shift_JIS,
    /// as a browser reads it (HTML's transport-layer encoding comes before a `<meta>` prescan),
    /// fetched or read from the cache later: an image named in Japanese resolves to the URL a
    /// browser requests and is found. It was read as windows-1252 and the image requested as
    /// mojibake (a 404).
    func testAPagesContentTypeCharsetIsHowItIsRead() throws {
        let (tree, server, store) = try fixture()
        defer { withExtendedLifetime(tree) {} }
        // 「画像」 in Shift_JIS: 89 E6 91 9C.
        let page =
            Array("<html><body><img src=\"".utf8) + [0x89, 0xE6, 0x91, 0x9C] + Array(".png\"></body></html>\n".utf8)
        tree.file("www/sjis.html", contents: page)
        tree.file("www/%E7%94%BB%E5%83%8F.png", contents: Images.png)  // the server does not decode names
        let url = server.url("/files/sjis.html?cc=max-age=3600&type=text/html;%20charset=%22Shift_JIS%22")
        for extra in [["--fetch"], ["--allow-stale"]] {
            let run = Binary.run(
                ["localize", url, "--cache", store, "-o", tree.path("out.html").description, "--json"] + extra)
            XCTAssertEqual(run.status, 0, run.err)
            let report = try pageReport(run)
            XCTAssertEqual(report["charset"] as? String, "SHIFT_JIS")
            XCTAssertEqual(report["charsetSource"] as? String, "contentType")
            let refs = try XCTUnwrap(report["references"] as? [[String: Any]])
            XCTAssertEqual(refs.first?["resolved"] as? String, server.url("/files/%E7%94%BB%E5%83%8F.png"))
            XCTAssertEqual(refs.first?["outcome"] as? String, "rewritten", run.err)
        }
    }

    /// A stylesheet saved with `--styles` is read in the charset it was served with (CSS
    /// Syntax §3.2): its Shift_JIS `url(画像表.png)` is fetched and made local, and the sheet
    /// keeps its Shift_JIS bytes. It was read as UTF-8: `表` (95 5C) ends in a backslash, the
    /// image was requested under a mojibake URL (404), and the sheet's relative reference,
    /// which worked, was rewritten to that broken absolute one.
    func testASavedStylesheetIsReadInTheCharsetItWasServedWith() throws {
        let (tree, server, store) = try fixture()
        defer { withExtendedLifetime(tree) {} }
        let image = [0x89, 0xE6, 0x91, 0x9C, 0x95, 0x5C] as [UInt8]  // 画像表
        let css = Array("p { background: url(".utf8) + image + Array(".png) }".utf8)
        tree.file("www/sj.css", contents: css)
        tree.file("www/%E7%94%BB%E5%83%8F%E8%A1%A8.png", contents: Images.png)  // names are not decoded
        let sheet = server.url("/files/sj.css?cc=max-age=3600&type=text/css;%20charset=Shift_JIS")
        tree.file("www/sj.html", contents: Array("<link rel=\"stylesheet\" href=\"\(sheet)\">\n".utf8))
        let run = Binary.run([
            "localize", server.url("/files/sj.html"), "--fetch", "--styles", "--cache", store, "--output-dir",
            tree.path("saved").description
        ])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(run.err.contains("1 stylesheet saved, 1 of their references local, 0 missing"), run.err)
        let saved = try FileIOProbe.read(tree.path("saved/sj_files/sj.css"))
        XCTAssertEqual(saved, Array("p { background: url(%E7%94%BB%E5%83%8F%E8%A1%A8.png) }".utf8))
        XCTAssertEqual(try FileIOProbe.read(tree.path("saved/sj_files/画像表.png")), Images.png)
    }

    /// A body a server codes though asked for identity (a pre-compressed file) is stored
    /// decoded, as a browser shows it: gzip (one member or two), deflate zlib-wrapped or raw.
    /// It was stored coded (gzip bytes as `b.txt`). A coding zlib cannot undo, or coded data
    /// cut short, fails the URL and stores nothing.
    func testACodedBodyIsStoredDecoded() throws {
        let (tree, server, store) = try fixture()
        defer { withExtendedLifetime(tree) {} }
        // Random bytes: the coded data is as long as the body, and comes in many reads.
        var generator = SystemRandomNumberGenerator()
        let original = (0..<600_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        tree.file("www/r.bin", contents: original)
        for coding in ["gzip", "gzip2", "deflate", "rawdeflate"] {
            let url = server.url("/files/r.bin?coding=\(coding)")
            let run = fetch([url], store)
            XCTAssertEqual(run.status, 0, coding + ": " + run.err)
            XCTAssertEqual(Binary.run(["cat", url, "--cache", store, "--allow-stale"]).stdout, original, coding)
        }
        for (coding, message) in [("br", "coded as 'br'"), ("gzipcut", "ended inside its gzip data")] {
            let url = server.url("/files/r.bin?coding=\(coding)")
            let run = fetch([url], store)
            XCTAssertEqual(run.status, 1, coding)
            XCTAssertTrue(run.err.contains(message), coding + ": " + run.err)
            XCTAssertEqual(Binary.run(["cat", url, "--cache", store, "--allow-stale"]).status, 1, "nothing stored")
        }
        // 8 MB of zeros come as 8 KB of gzip: --max-body bounds the decoded size.
        tree.file("www/zeros.bin", contents: [UInt8](repeating: 0, count: 8 << 20))
        let bomb = server.url("/files/zeros.bin?coding=gzip")
        let limited = fetch([bomb, "--max-body", "1M"], store)
        XCTAssertEqual(limited.status, 1)
        XCTAssertTrue(limited.err.contains("larger than --max-body"), limited.err)
        XCTAssertEqual(Binary.run(["cat", bomb, "--cache", store, "--allow-stale"]).status, 1, "nothing stored")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: store + "/tmp"), [])
    }

    /// A body coded for the transfer (`Transfer-Encoding: gzip, chunked`, or `gzip` up to the
    /// end of the connection) is stored decoded, as curl and browsers take it; so is one coded
    /// twice (gzip content, gzip transfer). The gzip bytes were stored as the body, since NIO's
    /// decoder removes only `chunked`. A transfer coding zlib cannot undo fails the URL and
    /// stores nothing; so do more than five codings (curl's limit).
    func testABodyCodedForTheTransferIsStoredDecoded() throws {
        let (tree, server, store) = try fixture()
        defer { withExtendedLifetime(tree) {} }
        var generator = SystemRandomNumberGenerator()
        let original = (0..<300_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        tree.file("www/t.bin", contents: original)
        for transfer in ["gzip", "gzipclose", "gzipgzip"] {
            let url = server.url("/files/t.bin?transfer=\(transfer)")
            let run = fetch([url], store)
            XCTAssertEqual(run.status, 0, transfer + ": " + run.err)
            let stored = Binary.run(["cat", url, "--cache", store, "--allow-stale"]).stdout
            XCTAssertTrue(stored == original, "\(transfer): \(stored.count) bytes stored, not the body sent")
        }
        let url = server.url("/files/t.bin?transfer=br")
        let run = fetch([url], store)
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.err.contains("transfer coding 'br, chunked'"), run.err)
        XCTAssertEqual(Binary.run(["cat", url, "--cache", store, "--allow-stale"]).status, 1, "nothing stored")
        let deep = server.url(
            "/seq?r=" + "[[200,{\"Content-Encoding\":\"gzip,gzip,gzip,gzip,gzip,gzip\"},\"x\"]]".addingPercentEncoding(
                withAllowedCharacters: .alphanumerics)!)
        let refused = fetch([deep], store)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.err.contains("coded 6 times"), refused.err)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: store + "/tmp"), [])
    }

    /// A page reached through a redirect resolves its relative references against the URL it
    /// came from, as a browser does (`/dir` → `/dir/`, http → https): fetched, and read from
    /// the cache later. They resolved against the URL asked for, and led elsewhere.
    func testAPageReachedByARedirectResolvesAgainstWhereItCameFrom() throws {
        let (tree, server, store) = try fixture()
        defer { withExtendedLifetime(tree) {} }
        tree.file("www/rp.html", contents: Array("<img src=\"../files/a.png\">\n".utf8))
        let url = server.url("/redirect/1/rp.html")
        for extra in [["--fetch"], ["--allow-stale"]] {
            let run = Binary.run(
                ["localize", url, "--cache", store, "-o", tree.path("out.html").description, "--json"] + extra)
            XCTAssertEqual(run.status, 0, run.err)
            let refs = try XCTUnwrap(try pageReport(run)["references"] as? [[String: Any]])
            XCTAssertEqual(refs.first?["resolved"] as? String, server.url("/files/a.png"), "\(extra)")
            XCTAssertEqual(refs.first?["outcome"] as? String, "rewritten", run.err)
        }
    }

    /// A stylesheet reached through a redirect resolves its `url()`s against where it came
    /// from, as a browser does; they resolved against the URL the page linked.
    func testAStylesheetReachedByARedirectResolvesAgainstWhereItCameFrom() throws {
        let (tree, server, store) = try fixture()
        defer { withExtendedLifetime(tree) {} }
        tree.file("www/pg.html", contents: Array("<link rel=\"stylesheet\" href=\"/redirect/1/rs.css\">\n".utf8))
        tree.file("www/rs.css", contents: Array("p { background: url(../files/a.png) }".utf8))
        let run = Binary.run([
            "localize", server.url("/files/pg.html"), "--fetch", "--styles", "--cache", store, "--output-dir",
            tree.path("saved").description
        ])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(run.err.contains("1 stylesheet saved, 1 of their references local, 0 missing"), run.err)
        XCTAssertEqual(
            String(decoding: try FileIOProbe.read(tree.path("saved/pg_files/rs.css")), as: UTF8.self),
            "p { background: url(a.png) }")
    }
}
