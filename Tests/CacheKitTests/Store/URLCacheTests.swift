import CacheKit
import Foundation
import TestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Apple's URLCache (`Cache.db`, written as CFNetwork lays it out) and
/// swift-corelibs-foundation's URLCache (written by the real URLCache of this toolchain).
final class URLCacheTests: XCTestCase {
    private func httpDate(_ secondsAgo: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: Date(timeIntervalSinceNow: -Double(secondsAgo)))
    }

    // MARK: - Apple URLCache

    private func appleFixture(_ tree: TestTree) -> RawPath {
        let root = tree.dir("Library/Caches/com.example.app")
        URLCacheFixture.write(
            root,
            rows: [
                .init(
                    url: "https://a.example/fresh.png", storedAgo: 60,
                    headers: ["Cache-Control": "max-age=3600", "Date": httpDate(60), "Content-Type": "image/png"],
                    body: Images.png),
                .init(
                    url: "https://a.example/stale.json", storedAgo: 7200,
                    headers: ["Cache-Control": "max-age=60", "Date": httpDate(7200)], body: Array("{}".utf8)),
                .init(
                    url: "https://a.example/big.jpg", storedAgo: 60,
                    headers: ["Expires": httpDate(-86_400), "Date": httpDate(60)], body: Images.jpeg,
                    file: "5D1B2C3A-0000-4000-8000-000000000001"),
                .init(
                    url: "https://a.example/heuristic.gif", storedAgo: 60,
                    headers: ["Last-Modified": httpDate(100 * 86_400), "Date": httpDate(60)], body: Images.gif),
                .init(
                    url: "https://a.example/nocache", storedAgo: 60,
                    headers: ["Cache-Control": "no-cache", "Date": httpDate(60)], body: [1]),
                .init(
                    url: "https://a.example/lost.jpg", storedAgo: 60, headers: ["Cache-Control": "max-age=3600"],
                    body: Images.jpeg,
                    file: "5D1B2C3A-0000-4000-8000-000000000002")
            ])
        _ = FileIOProbe.remove(root.appending("fsCachedData/5D1B2C3A-0000-4000-8000-000000000002"))
        tree.file("Library/Caches/com.example.app/fsCachedData/5D1B2C3A-0000-4000-8000-0000000000FF", size: 3000)
        tree.setModified(
            "Library/Caches/com.example.app/fsCachedData/5D1B2C3A-0000-4000-8000-0000000000FF",
            secondsSinceEpoch: Int(FileTime.now.timeInterval) - 7200)
        return root
    }

    func testAppleURLCacheEntriesByTheStoredHeaders() throws {
        let tree = TestTree("urlcache")
        let root = appleFixture(tree)
        XCTAssertEqual(CacheFormats.detect(root), .urlcache)
        let format = try CacheFormats.open(root)
        let entries = try format.entries(InspectionContext())
        let byURL = Dictionary(uniqueKeysWithValues: entries.compactMap { e in e.url.map { ($0, e) } })
        XCTAssertEqual(byURL["https://a.example/fresh.png"]?.state, .fresh)
        XCTAssertEqual(byURL["https://a.example/fresh.png"]?.inlineBody, true)
        XCTAssertEqual(byURL["https://a.example/stale.json"]?.state, .expired)
        XCTAssertEqual(byURL["https://a.example/big.jpg"]?.state, .fresh)
        XCTAssertEqual(
            byURL["https://a.example/big.jpg"]?.path,
            root.appending("fsCachedData/5D1B2C3A-0000-4000-8000-000000000001"))
        XCTAssertEqual(
            byURL["https://a.example/heuristic.gif"]?.state, .fresh, "10 % of 100 days of age at Last-Modified")
        XCTAssertEqual(byURL["https://a.example/nocache"]?.state, .expired)
        XCTAssertEqual(byURL["https://a.example/lost.jpg"]?.state, .corrupted)
        let orphan = entries.first { $0.url == nil }
        XCTAssertEqual(orphan?.state, .orphan)
        XCTAssertEqual(entries.count, 7, "Cache.db and its companions are bookkeeping: \(entries.map(\.path))")

        let fresh = try XCTUnwrap(try format.locate(url: "https://a.example/fresh.png", InspectionContext()))
        XCTAssertEqual(try format.inlineBody(fresh), Images.png)
        XCTAssertNil(try format.locate(url: "https://a.example/absent", InspectionContext()))
    }

    func testAppleURLCacheForgetsAllThreeTablesAndRefusesWhileHeld() throws {
        let tree = TestTree("urlcache-rm")
        let root = appleFixture(tree)
        let format = try CacheFormats.open(root)
        let stale = try XCTUnwrap(
            try format.entries(InspectionContext()).first { $0.url == "https://a.example/stale.json" })

        // The app holds the database (a write transaction open in another process).
        let holder = Run.start([
            "python3", "-c",
            """
            import sqlite3, sys, time
            db = sqlite3.connect(sys.argv[1], isolation_level=None)
            db.execute('BEGIN IMMEDIATE')
            print('held', flush=True)
            time.sleep(30)
            """, root.appending("Cache.db").description
        ])
        XCTAssertEqual(holder.readLine(), "held")
        XCTAssertThrowsError(try format.forgetIndexed([stale])) { error in
            XCTAssertTrue("\(error)".contains("in use"), "\(error)")
        }
        XCTAssertEqual(URLCacheFixture.counts(root), "response:6 blob_data:6 receiver_data:6")
        holder.kill()

        XCTAssertEqual(try format.forgetIndexed([stale]), [true])
        XCTAssertEqual(URLCacheFixture.counts(root), "response:5 blob_data:5 receiver_data:5")
        XCTAssertNil(try format.locate(url: "https://a.example/stale.json", InspectionContext()))
    }

    // MARK: - swift-corelibs-foundation URLCache

    #if canImport(FoundationNetworking)
        /// Stores responses through this toolchain's own URLCache, then reads its folder.
        func testFoundationURLCacheWrittenByTheRealURLCache() throws {
            let tree = TestTree("corelibs")
            let folder = tree.dir("org.swift.foundation.URLCache/xctest")
            let cache = URLCache(memoryCapacity: 0, diskCapacity: 10_000_000, diskPath: folder.description)
            func store(_ url: String, _ headers: [String: String], _ body: [UInt8]) {
                let request = URLRequest(url: URL(string: url)!)
                let response = HTTPURLResponse(
                    url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: headers)!
                cache.storeCachedResponse(CachedURLResponse(response: response, data: Data(body)), for: request)
            }
            store("https://c.example/fresh.png", ["Cache-Control": "max-age=3600", "Date": httpDate(0)], Images.png)
            store("https://c.example/stale.png", ["Cache-Control": "max-age=60", "Date": httpDate(7200)], Images.png)
            store("https://c.example/forever.gif", ["Content-Type": "image/gif"], Images.gif)
            XCTAssertNotNil(cache.cachedResponse(for: URLRequest(url: URL(string: "https://c.example/forever.gif")!)))

            XCTAssertEqual(CacheFormats.detect(folder), .foundationurlcache)
            let format = try CacheFormats.open(folder)
            let entries = try format.entries(InspectionContext())
            XCTAssertEqual(entries.count, 3, "\(entries.map(\.path))")
            let byURL = Dictionary(uniqueKeysWithValues: entries.compactMap { e in e.url.map { ($0, e) } })
            XCTAssertEqual(byURL["https://c.example/fresh.png"]?.state, .fresh)
            XCTAssertEqual(byURL["https://c.example/stale.png"]?.state, .expired)
            XCTAssertEqual(
                byURL["https://c.example/forever.gif"]?.state, .fresh, "no max-age or Expires: never expires")
            let found = try XCTUnwrap(try format.locate(url: "https://c.example/forever.gif", InspectionContext()))
            XCTAssertEqual(try format.inlineBody(found), Images.gif)
            XCTAssertEqual(format.sizeRule.ratio, 1.0)
            XCTAssertEqual(format.sizeRule.metric, .apparent)
        }
    #endif

    // MARK: - Relocated sandboxes

    /// iOS moves an app's container on updates and restores: LocalURLs written under the old
    /// container are found below this cache; one that matches nothing inside stays outside.
    func testPlistLocalURLsReRootedAfterTheContainerMoved() throws {
        let tree = TestTree("relocated")
        let root = tree.dir("Containers/NEW-UUID/Library/Caches/Downloads")
        tree.file("Containers/NEW-UUID/Library/Caches/Downloads/a.cache", size: 3000)
        tree.file("Containers/NEW-UUID/Library/Caches/Downloads/sub/b.cache", size: 3000)
        tree.file("elsewhere/c.cache", size: 3000)
        let old = "/var/mobile/Containers/Data/Application/OLD-UUID/Library/Caches/Downloads"
        let result = Oracle.python(
            """
            import plistlib, sys, datetime
            now = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
            d = lambda **kw: now + datetime.timedelta(**kw)
            old = sys.argv[2]
            items = {
              'http://example.com/a': {'DownloadStartDate': d(hours=-2), 'DownloadEndDate': d(hours=-2), \
            'ExpiryDate': d(days=1), 'LocalURL': old + '/a.cache'},
              'http://example.com/b': {'DownloadStartDate': d(hours=-2), 'DownloadEndDate': d(hours=-2), \
            'ExpiryDate': d(days=-1), 'LocalURL': 'file://' + old + '/sub/b.cache'},
              'http://example.com/c': {'DownloadStartDate': d(hours=-2), 'DownloadEndDate': d(hours=-2), \
            'ExpiryDate': d(days=-1), 'LocalURL': old + '/c.cache'},
            }
            plistlib.dump(items, open(sys.argv[1], 'wb'), fmt=plistlib.FMT_BINARY)
            """, [root.appending("CachedDownloads.dic").description, old])
        XCTAssertEqual(result.status, 0, result.err)
        let format = try CacheFormats.open(root)
        let entries = try format.entries(InspectionContext())
        let byURL = Dictionary(uniqueKeysWithValues: entries.compactMap { e in e.url.map { ($0, e) } })
        XCTAssertEqual(byURL["http://example.com/a"]?.state, .fresh)
        XCTAssertEqual(byURL["http://example.com/a"]?.relativePath, Array("a.cache".utf8))
        XCTAssertEqual(byURL["http://example.com/b"]?.state, .expired)
        XCTAssertEqual(byURL["http://example.com/b"]?.relativePath, Array("sub/b.cache".utf8))
        XCTAssertEqual(byURL["http://example.com/c"]?.state, .outside, "nothing inside matches: outside stays outside")
        XCTAssertFalse(entries.contains { $0.state == .orphan }, "re-rooted bodies are not orphans")
    }
}
