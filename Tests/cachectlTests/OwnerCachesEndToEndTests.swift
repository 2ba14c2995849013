import CacheKit
import Foundation
import TestSupport
import XCTest

/// The built binary on caches apps keep: Apple's URLCache, image caches with a database
/// among their files.
final class OwnerCachesEndToEndTests: XCTestCase {
    private func survivors(_ dir: RawPath) -> [String] {
        Run.command(["sh", "-c", "cd '\(dir.description)' && find . ! -type d | sort"]).out.split(separator: "\n").map(
            String.init)
    }

    /// An SQLite database (with its -wal and -shm) found among an image library's files is
    /// the app's: one unit, kept by prune, removed only by `clear --format`, never while a
    /// process has it open, and never split from its write-ahead log.
    func testDatabaseAmongImagesIsOneUnitAndNeverSplit() throws {
        let tree = TestTree("db-unit")
        let dir = "com.hackemist.SDImageCache/default"
        let root = tree.path(dir)
        for i in 0..<3 {
            let name = Oracle.md5("https://a.example/\(i).png") + ".png"
            tree.file("\(dir)/\(name)", contents: Images.png)
            tree.setModified("\(dir)/\(name)", secondsSinceEpoch: Int(FileTime.now.timeInterval) - 10 * 86_400)
        }
        // A WAL database left as a killed app leaves it: rows only in the -wal.
        let made = Oracle.python(
            """
            import os, sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute('PRAGMA journal_mode=WAL')
            db.execute('CREATE TABLE t(x)')
            db.execute("INSERT INTO t VALUES ('kept')")
            db.commit()
            os._exit(0)
            """, [root.appending("meta.sqlite").description])
        XCTAssertEqual(made.status, 0, made.err)
        XCTAssertEqual(
            survivors(root).filter { $0.contains("meta") }, ["./meta.sqlite", "./meta.sqlite-shm", "./meta.sqlite-wal"])

        let prune = Binary.run(["prune", root.description, "--max-size", "1K", "--json"])
        XCTAssertEqual(prune.status, 0, prune.err)
        XCTAssertEqual(survivors(root), ["./meta.sqlite", "./meta.sqlite-shm", "./meta.sqlite-wal"], prune.out)

        // Detected by folder name, not named: clear keeps the app's database too.
        let unnamed = Binary.run(["clear", root.description])
        XCTAssertEqual(unnamed.status, 0, unnamed.err)
        XCTAssertEqual(survivors(root).count, 3)

        // Open in another process (a WAL connection holds a lock on -shm while open).
        let holder = Run.start([
            "python3", "-c",
            """
            import sqlite3, sys, time
            db = sqlite3.connect(sys.argv[1])
            db.execute('SELECT count(*) FROM t').fetchone()
            print('open', flush=True)
            time.sleep(60)
            """, root.appending("meta.sqlite").description
        ])
        XCTAssertEqual(holder.readLine(), "open")
        let busy = Binary.run(["clear", root.description, "--format", "sdwebimage"])
        XCTAssertEqual(busy.status, 1, busy.out)
        XCTAssertTrue(busy.err.contains("in use by process \(holder.pid)"), busy.err)
        XCTAssertEqual(survivors(root).count, 3)
        holder.kill()

        let check = Oracle.python(
            "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT x FROM t').fetchone()[0])",
            [root.appending("meta.sqlite").description])
        XCTAssertEqual(check.out, "kept\n", "the row in the -wal survived every step")
        let named = Binary.run(["clear", root.description, "--format", "sdwebimage"])
        XCTAssertEqual(named.status, 0, named.err)
        XCTAssertEqual(survivors(root), [], "the database went with its -wal and -shm")
    }

    /// Apple's URLCache end to end: `cat` reads an inline body, prune removes each expired,
    /// corrupted or orphan entry from all three tables and fsCachedData, and keeps Cache.db.
    func testAppleURLCachePrunedRowByRow() throws {
        let tree = TestTree("urlcache-e2e")
        let root = tree.dir("com.github.kean.Nuke.Cache")
        let date = Oracle.python(
            "import email.utils, time; print(email.utils.formatdate(time.time() - 7200, usegmt=True))"
        ).out
            .trimmingCharacters(in: .whitespacesAndNewlines)
        URLCacheFixture.write(
            root,
            rows: [
                .init(
                    url: "https://a.example/fresh.png", storedAgo: 60, headers: ["Cache-Control": "max-age=86400"],
                    body: Images.png),
                .init(
                    url: "https://a.example/on-disk.jpg", storedAgo: 60, headers: ["Cache-Control": "max-age=86400"],
                    body: Images.jpeg,
                    file: "0F0E0D0C-0000-4000-8000-000000000001"),
                .init(
                    url: "https://a.example/stale.jpg", storedAgo: 7200,
                    headers: ["Cache-Control": "max-age=60", "Date": date], body: Images.jpeg,
                    file: "0F0E0D0C-0000-4000-8000-000000000002"),
                .init(
                    url: "https://a.example/stale-inline", storedAgo: 7200,
                    headers: ["Cache-Control": "max-age=60", "Date": date], body: [1, 2])
            ])
        tree.file("com.github.kean.Nuke.Cache/fsCachedData/0F0E0D0C-0000-4000-8000-0000000000FF", size: 2000)
        tree.setModified(
            "com.github.kean.Nuke.Cache/fsCachedData/0F0E0D0C-0000-4000-8000-0000000000FF",
            secondsSinceEpoch: Int(FileTime.now.timeInterval) - 7200)

        let cat = Binary.run(["cat", "https://a.example/fresh.png", "--cache", root.description])
        XCTAssertEqual(cat.status, 0, cat.err)
        XCTAssertEqual(cat.stdout, Images.png)

        let prune = Binary.run(["prune", root.description, "--max-size", "100M", "--json"])
        XCTAssertEqual(prune.status, 0, prune.err)
        XCTAssertEqual(URLCacheFixture.counts(root), "response:2 blob_data:2 receiver_data:2")
        XCTAssertEqual(survivors(root), ["./Cache.db", "./fsCachedData/0F0E0D0C-0000-4000-8000-000000000001"])
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(prune.stdout)) as? [String: Any])
        let removed = ((object["roots"] as? [[String: Any]])?.first?["removed"] as? [String: [String: Any]]) ?? [:]
        XCTAssertEqual(removed["expired"]?["count"] as? Int, 2)
        XCTAssertEqual(removed["orphan"]?["count"] as? Int, 1)
        let cat2 = Binary.run(["cat", "https://a.example/on-disk.jpg", "--cache", root.description])
        XCTAssertEqual(cat2.stdout, Images.jpeg, cat2.err)
    }
}
