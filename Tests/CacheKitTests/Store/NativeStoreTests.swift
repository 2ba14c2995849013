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

final class NativeStoreTests: XCTestCase {
    private func sql(_ store: RawPath, _ statement: String) {
        let r = Oracle.python(
            "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit()",
            [store.appending("index.sqlite").description, statement])
        XCTAssertEqual(r.status, 0, r.err)
    }

    func testPutLookupRemoveAndLayout() throws {
        let tree = TestTree("native")
        let root = tree.path("store")
        let store = try NativeStore.open(root, create: true)
        let body: [UInt8] = Array("hello body".utf8)
        let record = try store.put(
            url: "HTTPS://Example.COM:443/a/b.PNG?q=1#frag", bytes: body, options: PutOptions(lifetime: 3600))
        XCTAssertEqual(record.url, "https://example.com/a/b.PNG?q=1")
        let hash = Oracle.sha256("https://example.com/a/b.PNG?q=1")
        // Each installed body has a name of its own: the key's hash, a generation, the extension.
        XCTAssertTrue(record.bodyPath.hasPrefix("objects/\(hash.prefix(2))/\(hash)-"), record.bodyPath)
        XCTAssertTrue(record.bodyPath.hasSuffix(".png"), record.bodyPath)
        XCTAssertEqual(record.sha256, Oracle.sha256("hello body"))
        XCTAssertTrue(CacheDirTag.isTagged(root))
        XCTAssertEqual(CacheFormats.detect(root), .native)
        let journal = Oracle.python(
            "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('pragma journal_mode').fetchone()[0])",
            [root.appending("index.sqlite").description])
        XCTAssertEqual(journal.out, "wal\n")

        let hit = try XCTUnwrap(try store.lookup(url: "https://example.com/a/b.PNG?q=1"))
        XCTAssertTrue(hit.isFresh)
        XCTAssertEqual(try FileIOProbe.read(hit.bodyPath), body)
        XCTAssertTrue(try store.remove(url: "https://example.com/a/b.PNG?q=1"))
        XCTAssertFalse(hit.bodyPath.exists)
        XCTAssertNil(try store.lookup(url: "https://example.com/a/b.PNG?q=1"))
        XCTAssertFalse(try store.remove(url: "https://example.com/a/b.PNG?q=1"))
    }

    func testReplacingAnEntryInstallsANewBodyAndDropsTheOldOne() throws {
        let tree = TestTree("replace")
        let store = try NativeStore.open(tree.path("s"), create: true)
        let first = try store.put(url: "https://x.com/img", bytes: [1, 2, 3])
        let second = try store.put(url: "https://x.com/img", bytes: [4, 5, 6, 7])
        // Never the same file: a writer's body is its own until its row names it.
        XCTAssertNotEqual(first.bodyPath, second.bodyPath)
        XCTAssertEqual(try store.records().count, 1)
        XCTAssertEqual(try FileIOProbe.read(tree.path("s").appending(second.bodyPath)), [4, 5, 6, 7])
        XCTAssertFalse(tree.path("s").appending(first.bodyPath).exists)
        XCTAssertEqual(FileTree.files(under: tree.path("s").appending("objects")).count, 1)
    }

    /// A batch of bodies — some held in memory, some in tmp/, some spilled from memory to
    /// tmp/ — is committed together: every row names its own body with its bytes' size and
    /// hash, the bodies the old rows named are gone, and nothing is left in tmp/.
    func testBatchCommitInstallsEveryBodyWithItsRow() throws {
        let tree = TestTree("batch")
        let root = tree.path("s")
        let store = try NativeStore.open(root, create: true)
        let old = try store.put(url: "https://x.com/3", bytes: [9, 9])
        var batch: [(body: NativeStore.PendingBody, options: PutOptions)] = []
        var contents: [[UInt8]] = []
        for i in 0..<40 {
            // Even: in memory (the 8th of those outgrows its limit and moves to tmp/); odd: tmp/.
            let limit = i % 2 == 0 ? 64 : 0
            let body = try store.beginBody(url: "https://x.com/\(i)", inMemoryUpTo: limit)
            let bytes = (0..<(i == 16 ? 1000 : 10 + i)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ i) }
            try bytes.withUnsafeBytes { try body.append($0) }
            contents.append(bytes)
            batch.append((body, PutOptions(lifetime: 60)))
        }
        let results = store.commit(batch)
        XCTAssertEqual(results.count, 40)
        for (i, result) in results.enumerated() {
            let record = try result.get()
            XCTAssertEqual(record.url, "https://x.com/\(i)")
            XCTAssertEqual(try FileIOProbe.read(root.appending(record.bodyPath)), contents[i], "body \(i)")
            XCTAssertEqual(record.sha256, Digest.sha256(bytes: contents[i]))
            XCTAssertEqual(record.apparentBytes, Int64(contents[i].count))
            XCTAssertEqual(try store.lookup(url: record.url)?.record.bodyPath, record.bodyPath)
        }
        XCTAssertFalse(root.appending(old.bodyPath).exists, "the replaced body is removed")
        XCTAssertEqual(try store.records().count, 40)
        XCTAssertEqual(FileTree.files(under: root.appending("objects")).count, 40)
        XCTAssertEqual(FileTree.files(under: root.appending("tmp")).count, 0)
    }

    /// A batch of many small bodies held in memory (written to their files by two threads)
    /// where one body's directory cannot be made (a file has its name): that body fails
    /// alone, with the path and cause; every other row names its own body, whole.
    func testManyBodiesInMemoryWithOneDirectoryBlocked() throws {
        let tree = TestTree("batch-blocked")
        let root = tree.path("s")
        let store = try NativeStore.open(root, create: true)
        let urls = (0..<300).map { "https://x.com/m\($0).png" }
        let blocked = String(decoding: NativeStore.bodyDirectory(for: URLKey(urls[7])!), as: UTF8.self)
        tree.file("s/" + blocked, contents: [1])
        var batch: [(body: NativeStore.PendingBody, options: PutOptions)] = []
        for (i, url) in urls.enumerated() {
            let body = try store.beginBody(url: url, inMemoryUpTo: 4096)
            try Array(url.utf8).withUnsafeBytes { try body.append($0) }
            XCTAssertTrue(body.isInMemory)
            batch.append((body, PutOptions(lifetime: 60 + Double(i))))
        }
        let results = store.commit(batch)
        var failed: [String] = []
        for (url, result) in zip(urls, results) {
            switch result {
            case .success(let record):
                XCTAssertEqual(try FileIOProbe.read(root.appending(record.bodyPath)), Array(url.utf8), url)
                XCTAssertTrue(record.bodyPath.hasSuffix(".png"))
            case .failure(let error):
                failed.append(url)
                XCTAssertTrue("\(error)".contains(blocked), "\(error)")
            }
        }
        let sameDirectory = urls.filter { NativeStore.bodyDirectory(for: URLKey($0)!) == Array(blocked.utf8) }
        XCTAssertEqual(failed, sameDirectory)
        XCTAssertEqual(try store.records().count, urls.count - failed.count)
        XCTAssertEqual(FileTree.files(under: root.appending("objects")).count, urls.count - failed.count + 1)
    }

    func testSlidingExpiryMovesOnEachHit() throws {
        let tree = TestTree("sliding")
        let store = try NativeStore.open(tree.path("s"), create: true)
        try store.put(url: "https://x.com/s", bytes: [1], options: PutOptions(lifetime: 100, sliding: true))
        try store.put(url: "https://x.com/f", bytes: [1], options: PutOptions(lifetime: 100, sliding: false))
        let later = FileTime.now.adding(1000)
        try store.recordHit(url: "https://x.com/s", now: later)
        try store.recordHit(url: "https://x.com/f", now: later)
        XCTAssertEqual(
            try XCTUnwrap(try store.lookup(url: "https://x.com/s", now: later)).record.expires ?? 0,
            later.timeInterval + 100, accuracy: 0.01)
        XCTAssertFalse(try XCTUnwrap(try store.lookup(url: "https://x.com/f", now: later)).isFresh)
        XCTAssertEqual(
            try XCTUnwrap(try store.lookup(url: "https://x.com/f", now: later)).record.lastAccess, later.timeInterval,
            accuracy: 0.01)
    }

    func testStatesOfRowsLeftoversAndOrphans() throws {
        let tree = TestTree("states")
        let root = tree.path("s")
        let store = try NativeStore.open(root, create: true)
        let fresh = try store.put(url: "https://x.com/fresh", bytes: [1, 2, 3], options: PutOptions(lifetime: 3600))
        try store.put(url: "https://x.com/expired", bytes: [1], options: PutOptions(lifetime: 1))
        let gone = try store.put(url: "https://x.com/gone", bytes: [1])
        let resized = try store.put(url: "https://x.com/resized", bytes: [1, 2])
        let flipped = try store.put(url: "https://x.com/flipped", bytes: [1, 2])
        XCTAssertTrue(FileIOProbe.remove(root.appending(gone.bodyPath)))
        tree.file("s/" + resized.bodyPath, contents: [1, 2, 3, 4])
        tree.file("s/" + flipped.bodyPath, contents: [9, 9])  // same size, other bytes
        tree.file("s/tmp/put-abc.part", size: 10)
        tree.setModified("s/tmp/put-abc.part", secondsSinceEpoch: Int(FileTime.now.timeInterval) - 7200)
        tree.file("s/tmp/put-new.part", size: 10)
        tree.file("s/objects/zz/stray", size: 10)
        tree.setModified("s/objects/zz/stray", secondsSinceEpoch: Int(FileTime.now.timeInterval) - 7200)
        tree.file("s/objects/zz/young", size: 10)
        sql(
            root,
            """
            INSERT INTO entries (url, body_path, allocated_bytes, apparent_bytes, sha256, content_type, etag, \
            last_modified, download_started, download_completed, expires, lifetime_seconds, sliding, last_access) \
            VALUES ('https://x.com/escape', '../../etc/passwd', 0, 10, 'x', NULL, NULL, NULL, 0, 1, NULL, NULL, \
            0, 0)
            """
        )
        sql(
            root,
            """
            INSERT INTO entries (url, body_path, allocated_bytes, apparent_bytes, sha256, content_type, etag, \
            last_modified, download_started, download_completed, expires, lifetime_seconds, sliding, last_access) \
            VALUES ('https://x.com/never', 'objects/aa/never', 0, 10, 'x', NULL, NULL, NULL, 0, NULL, NULL, NULL, \
            0, 0)
            """
        )
        tree.dir("s/objects/ln")
        tree.symlink("/etc", at: "s/objects/ln/dir")
        sql(
            root,
            """
            INSERT INTO entries (url, body_path, allocated_bytes, apparent_bytes, sha256, content_type, etag, \
            last_modified, download_started, download_completed, expires, lifetime_seconds, sliding, last_access) \
            VALUES ('https://x.com/through-link', 'objects/ln/dir/passwd', 0, 10, 'x', NULL, NULL, NULL, 0, 1, \
            NULL, NULL, 0, 0)
            """
        )

        let later = FileTime.now.adding(5)
        let entries = try store.entries(InspectionContext(now: later))
        let byURL = Dictionary(uniqueKeysWithValues: entries.compactMap { e in e.url.map { ($0, e) } })
        XCTAssertEqual(byURL["https://x.com/fresh"]?.state, .fresh)
        XCTAssertEqual(byURL["https://x.com/expired"]?.state, .expired)
        XCTAssertEqual(byURL["https://x.com/gone"]?.state, .corrupted)
        XCTAssertEqual(byURL["https://x.com/gone"]?.reason, "body missing")
        XCTAssertEqual(byURL["https://x.com/resized"]?.state, .corrupted)
        XCTAssertEqual(byURL["https://x.com/flipped"]?.state, .fresh, "same size: only --verify can tell")
        XCTAssertEqual(byURL["https://x.com/escape"]?.state, .outside)
        XCTAssertEqual(byURL["https://x.com/through-link"]?.state, .outside)
        XCTAssertEqual(byURL["https://x.com/never"]?.state, .incomplete)
        XCTAssertEqual(entries.first { $0.path == root.appending("tmp/put-abc.part") }?.state, .incomplete)
        XCTAssertEqual(entries.first { $0.path == root.appending("tmp/put-new.part") }?.state, .fresh)
        XCTAssertEqual(entries.first { $0.path == root.appending("objects/zz/stray") }?.state, .orphan)
        XCTAssertEqual(
            entries.first { $0.path == root.appending("objects/zz/young") }?.state, .fresh,
            "an unindexed body within the grace period stays")
        let unindexed = ["tmp/put-abc.part", "tmp/put-new.part", "objects/zz/stray", "objects/zz/young"].map { name in
            entries.first { $0.path == root.appending(name) }
        }
        XCTAssertEqual(unindexed.map { $0?.inGracePeriod }, [false, true, false, true])
        XCTAssertEqual(
            unindexed.map { $0?.reason },
            [
                "leftover of an interrupted write", "being written (within the grace period)",
                "no index entry refers to this body", "unindexed body within the grace period"
            ])
        XCTAssertNotNil(entries.first { $0.path == root.appending(fresh.bodyPath) })

        let verified = try store.entries(InspectionContext(now: later, verify: true))
        XCTAssertEqual(verified.first { $0.url == "https://x.com/flipped" }?.state, .corrupted)
        XCTAssertEqual(verified.first { $0.url == "https://x.com/fresh" }?.state, .fresh)
    }

    /// localize's batch lookups answer the same whether they query the index per URL or read
    /// it whole: completed rows only, keys normalized (repeats and variants of one URL
    /// included), bodies checked on disk, unsafe paths refused.
    func testBatchLookupsByQueryAndByWholeIndexAgree() throws {
        let tree = TestTree("batch")
        let root = tree.path("s")
        let store = try NativeStore.open(root, create: true)
        try store.put(url: "https://x.com/fresh", bytes: [1, 2, 3], options: PutOptions(lifetime: 3600))
        try store.put(url: "https://x.com/expired", bytes: [1], options: PutOptions(lifetime: 1))
        let gone = try store.put(url: "https://x.com/gone", bytes: [1])
        let resized = try store.put(url: "https://x.com/resized", bytes: [1, 2])
        XCTAssertTrue(FileIOProbe.remove(root.appending(gone.bodyPath)))
        tree.file("s/" + resized.bodyPath, contents: [1, 2, 3, 4])
        sql(
            root,
            """
            INSERT INTO entries (url, body_path, allocated_bytes, apparent_bytes, sha256, content_type, etag, \
            last_modified, download_started, download_completed, expires, lifetime_seconds, sliding, last_access) \
            VALUES ('https://x.com/escape', '../../etc/passwd', 0, 10, 'x', NULL, NULL, NULL, 0, 1, NULL, NULL, \
            0, 0)
            """
        )
        sql(
            root,
            """
            INSERT INTO entries (url, body_path, allocated_bytes, apparent_bytes, sha256, content_type, etag, \
            last_modified, download_started, download_completed, expires, lifetime_seconds, sliding, last_access) \
            VALUES ('https://x.com/never', 'objects/aa/never', 0, 10, 'x', NULL, NULL, NULL, 0, NULL, NULL, NULL, \
            0, 0)
            """
        )
        tree.file("s/objects/aa/never", size: 10)
        // A row whose URL only Unicode equivalence makes equal to a key (U+212A KELVIN SIGN is
        // canonically `K`): SQLite compares bytes, and so must the pass over the whole index.
        sql(
            root,
            """
            INSERT INTO entries (url, body_path, allocated_bytes, apparent_bytes, sha256, content_type, etag, \
            last_modified, download_started, download_completed, expires, lifetime_seconds, sliding, last_access) \
            VALUES ('https://x.com/\u{212A}', 'objects/aa/kelvin', 0, 10, 'x', NULL, NULL, NULL, 0, 1, NULL, \
            NULL, 0, 0)
            """
        )
        tree.file("s/objects/aa/kelvin", size: 10)
        let urls = [
            "https://x.com/fresh", "https://x.com/expired", "https://x.com/gone", "https://x.com/resized",
            "https://x.com/escape", "https://x.com/never", "https://x.com/absent", "not a url",
            "HTTPS://X.COM:443/fresh", "https://x.com/fresh", "https://x.com/expired#part", "https://x.com/K"
        ]
        let later = FileTime.now.adding(5)
        var answers: [[String]] = []
        for whole in [true, false] {
            let bodies = try store.withBodyLookups(now: later, wholeIndex: whole) { lookup in lookup(urls, .serial) }
            answers.append(bodies.map { $0.map { "\($0.state) \($0.reason)" } ?? "none" })
        }
        XCTAssertEqual(answers[0], answers[1])
        XCTAssertEqual(
            answers[0],
            [
                "fresh fresh", "expired expired", "corrupted body missing",
                "corrupted body size does not match the index",
                "none", "none", "none", "none", "fresh fresh", "fresh fresh", "expired expired", "none"
            ])
    }

    func testClearKeepsRootTagAndAnEmptyIndex() throws {
        let tree = TestTree("clear")
        let root = tree.path("s")
        let store = try NativeStore.open(root, create: true)
        for i in 0..<5 { try store.put(url: "https://x.com/\(i).png", bytes: [UInt8](repeating: 1, count: 100)) }
        let report = try CacheClearer.clear(root)
        XCTAssertEqual(report.outcome?.removed.count, 5)
        XCTAssertEqual(try store.records().count, 0)
        XCTAssertTrue(CacheDirTag.isTagged(root))
        XCTAssertTrue(FileTree.files(under: root.appending("objects")).isEmpty)
        XCTAssertEqual(CacheFormats.detect(root), .native)
    }

    func testForeignAndCorruptIndexesAreRefusedAndLeftAlone() throws {
        let tree = TestTree("foreign")
        tree.file("junk/index.sqlite", contents: Array("definitely not sqlite".utf8))
        XCTAssertThrowsError(try NativeStore.open(tree.path("junk"), create: true)) { error in
            XCTAssertEqual(
                "\(error)", "index \(tree.path("junk/index.sqlite").quoted) is unreadable: file is not a database")
        }
        XCTAssertEqual(try FileIOProbe.read(tree.path("junk/index.sqlite")), Array("definitely not sqlite".utf8))
        tree.dir("other")
        Oracle.python(
            "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('create table t(x)'); c.commit()",
            [tree.path("other/index.sqlite").description])
        let before = try FileIOProbe.read(tree.path("other/index.sqlite"))
        XCTAssertThrowsError(try NativeStore.open(tree.path("other"), create: true))
        XCTAssertEqual(try FileIOProbe.read(tree.path("other/index.sqlite")), before)
        XCTAssertFalse(tree.path("other/CACHEDIR.TAG").exists, "no tag on a directory we refused")
    }

    func testBadURLs() throws {
        let tree = TestTree("urls")
        let store = try NativeStore.open(tree.path("s"), create: true)
        for bad in ["", "not a url", "/just/a/path", "http://", "https://exa mple.com/", "mailto:someone"] {
            XCTAssertThrowsError(try store.put(url: bad, bytes: [1]), bad) {
                XCTAssertEqual($0 as? StoreError, .notAURL(bad))
            }
        }
        XCTAssertEqual(try store.records().count, 0)
    }
}

final class UnitsTests: XCTestCase {
    func testSizes() {
        XCTAssertEqual(Units.parseSize("500"), 500)
        XCTAssertEqual(Units.parseSize("500M"), 500 * 1024 * 1024)
        XCTAssertEqual(Units.parseSize("2G"), 2 * 1024 * 1024 * 1024)
        XCTAssertEqual(Units.parseSize("1.5K"), 1536)
        XCTAssertEqual(Units.parseSize("10KB"), 10_000)
        XCTAssertEqual(Units.parseSize("3MB"), 3_000_000)
        XCTAssertEqual(Units.parseSize("4MiB"), 4 * 1024 * 1024)
        XCTAssertEqual(Units.parseSize("1T"), 1 << 40)
        XCTAssertNil(Units.parseSize("12X"))
        XCTAssertNil(Units.parseSize("-5M"))
        XCTAssertNil(Units.parseSize(""))
        XCTAssertNil(Units.parseSize("1."), "Double accepts it; a size does not")
        XCTAssertNil(Units.parseSize("0x1"))
        XCTAssertNil(Units.parseSize("1e3"))
        XCTAssertEqual(Units.parseSizeWithUnit("500")?.hasUnit, false)
        XCTAssertEqual(Units.parseSizeWithUnit("0B")?.hasUnit, true)
    }

    func testDurations() {
        XCTAssertEqual(Units.parseDuration("90"), 90)
        XCTAssertEqual(Units.parseDuration("90s"), 90)
        XCTAssertEqual(Units.parseDuration("15m"), 900)
        XCTAssertEqual(Units.parseDuration("12h"), 43_200)
        XCTAssertEqual(Units.parseDuration("7d"), 604_800)
        XCTAssertEqual(Units.parseDuration("2w"), 1_209_600)
        XCTAssertEqual(Units.parseDuration("1d12h"), 129_600)
        XCTAssertNil(Units.parseDuration("soon"))
        // systemd.time's grammar: case-sensitive units, M a month, combinations with spaces.
        XCTAssertEqual(Units.parseDuration("5y"), 5 * 31_557_600)
        XCTAssertEqual(Units.parseDuration("1M"), 2_629_800, "a month, not a minute")
        XCTAssertEqual(Units.parseDuration("1m"), 60)
        XCTAssertEqual(Units.parseDuration("30min"), 1800)
        XCTAssertEqual(Units.parseDuration("1month"), 2_629_800)
        XCTAssertEqual(Units.parseDuration("2 months"), 2 * 2_629_800)
        XCTAssertEqual(Units.parseDuration("1 day 12h"), 129_600)
        XCTAssertEqual(Units.parseDuration("1y 6M"), 31_557_600 + 6 * 2_629_800)
        XCTAssertEqual(Units.parseDuration("1.5h"), 5400)
        XCTAssertEqual(Units.parseDuration("48hr"), 172_800)
        XCTAssertEqual(Units.parseDuration("55s500ms"), 55.5)
        XCTAssertEqual(Units.parseDuration("2 weeks"), 1_209_600)
        XCTAssertEqual(Units.parseDuration("1sec"), 1)
        for invalid in [
            "1D", "1H", "1S", "1Min", "5x", "-1d", "+1d", "", " ", "1.", ".5h", "0x1", "1e3", "d", "1 dayz", "inf"
        ] {
            XCTAssertNil(Units.parseDuration(invalid), invalid)
        }
    }
}

extension NativeStoreTests {
    /// A version-1 index (keys normalised by Foundation's URLComponents) is re-keyed to the
    /// URL Standard's serializations when opened: a changed key keeps its body, two keys
    /// that become one keep the later download, a key the standard refuses goes.
    func testVersionOneIndexIsRekeyedKeepingBodies() throws {
        let tree = TestTree("migrate")
        let root = tree.path("store")
        do {
            let store = try NativeStore.open(root, create: true)
            try store.put(
                url: "https://a.example/x/y.png", bytes: Array("later".utf8), options: PutOptions(lifetime: 3600))
            try store.put(
                url: "https://a.example/z.png", bytes: Array("earlier".utf8), options: PutOptions(lifetime: 3600))
            try store.put(url: "https://a.example/q", bytes: Array("quoted".utf8), options: PutOptions(lifetime: 3600))
            try store.put(url: "https://b.example/gone", bytes: Array("gone".utf8), options: PutOptions(lifetime: 3600))
        }
        // What version 1 stored: dot segments kept, `%22…}` double-encoded, an invalid host.
        sql(root, "UPDATE entries SET url = 'https://a.example/x/./y.png' WHERE url = 'https://a.example/x/y.png'")
        sql(
            root,
            """
            UPDATE entries SET url = 'https://a.example/x/../x/y.png', download_completed = download_completed - \
            100 WHERE url = 'https://a.example/z.png'
            """
        )
        sql(root, "UPDATE entries SET url = 'https://a.example/q?v=%2522a%2522%7D' WHERE url = 'https://a.example/q'")
        sql(root, "UPDATE entries SET url = 'http://256.256.256.256/' WHERE url = 'https://b.example/gone'")
        sql(root, "PRAGMA user_version = 1")

        let store = try NativeStore.open(root, create: false)
        let urls = try store.records().map(\.url).sorted()
        XCTAssertEqual(urls, ["https://a.example/q?v=%2522a%2522%7D", "https://a.example/x/y.png"])
        let hit = try XCTUnwrap(try store.lookup(url: "https://a.example/x/./y.png"))
        XCTAssertEqual(
            try FileIOProbe.read(hit.bodyPath), Array("later".utf8), "the later download kept, with its body")
        let version = Oracle.python(
            "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('pragma user_version').fetchone()[0])",
            [root.appending("index.sqlite").description])
        XCTAssertEqual(version.out, "2\n")
    }

    /// An index made before the `validators_url` column gains it when opened writable (its
    /// rows keep their values, the column empty), and stores where a redirected response's
    /// validators came from; a store that cannot be written is read without it.
    func testTheValidatorsColumnIsAddedToAnOlderIndex() throws {
        let tree = TestTree("validators-column")
        let root = tree.path("store")
        do {
            let store = try NativeStore.open(root, create: true)
            try store.put(url: "https://a.example/old", bytes: Array("old".utf8), options: PutOptions(lifetime: 60))
        }
        sql(root, "ALTER TABLE entries DROP COLUMN validators_url")
        let store = try NativeStore.open(root, create: false)
        var options = PutOptions(lifetime: 60)
        options.validatorsURL = "https://b.example/target"
        try store.put(url: "https://a.example/new", bytes: Array("new".utf8), options: options)
        let entries = try store.storedEntries(["https://a.example/old", "https://a.example/new"])
        XCTAssertEqual(entries["https://a.example/new"]?.validatorsURL, "https://b.example/target")
        XCTAssertNil(entries["https://a.example/old"]?.validatorsURL)
        XCTAssertEqual(entries["https://a.example/old"]?.status, 200)
    }
}
