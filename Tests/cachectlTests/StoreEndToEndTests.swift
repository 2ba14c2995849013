import CacheKit
import Foundation
import TestSupport
import XCTest

/// put / ls / cat / rm / clear through the built binary: crash safety, concurrency, bad input.
final class StoreEndToEndTests: XCTestCase {
    private func body(_ tree: TestTree, _ name: String, _ text: String) -> String {
        tree.file(name, contents: Array(text.utf8)).description
    }

    func testPutCatRmRoundTripAndExitCodes() {
        let tree = TestTree("roundtrip")
        let store = tree.path("store").description
        let file = body(tree, "in.txt", "the body")
        let put = Binary.run(["put", "https://example.com/a.txt", file, "--cache", store, "--expires", "1h"])
        XCTAssertEqual(put.status, 0, put.err)
        let cat = Binary.run(["cat", "https://example.com/a.txt", "--cache", store])
        XCTAssertEqual(cat.out, "the body")
        XCTAssertEqual(cat.status, 0)
        let missing = Binary.run(["cat", "https://example.com/nope", "--cache", store])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.err, "cachectl: not in the cache: https://example.com/nope\n")
        XCTAssertEqual(missing.stdout, [])

        XCTAssertEqual(
            Binary.run(["put", "https://example.com/stale", file, "--cache", store, "--expires", "1s"]).status, 0)
        sleep(2)
        let stale = Binary.run(["cat", "https://example.com/stale", "--cache", store])
        XCTAssertEqual(stale.status, 1)
        XCTAssertTrue(stale.err.contains("stale"), stale.err)
        XCTAssertEqual(
            Binary.run(["cat", "https://example.com/stale", "--cache", store, "--allow-stale"]).out, "the body")

        let ls = Binary.run(["ls", store, "--json"])
        let object = (try? JSONSerialization.jsonObject(with: Data(ls.stdout))) as? [String: Any]
        let states = ((object?["entries"] as? [[String: Any]]) ?? []).map { "\($0["url"]!) \($0["state"]!)" }.sorted()
        XCTAssertEqual(states, ["https://example.com/a.txt fresh", "https://example.com/stale expired"])
        let expired = Binary.run(["ls", store, "--state", "expired", "-b"])
        XCTAssertEqual(
            expired.out.split(separator: "\n").count, 4,
            "title, header, one entry, total")
        // `--cache` names the store as put and cat take it (it was an unknown option), once.
        XCTAssertEqual(Binary.run(["ls", "--cache", store, "--state", "expired", "-b"]).out, expired.out)
        let twice = Binary.run(["ls", store, "--cache", store])
        XCTAssertEqual(twice.status, 2)
        XCTAssertTrue(twice.err.contains("give the cache once"), twice.err)
        XCTAssertEqual(Binary.run(["clear", "--cache", store, "--dry-run", "--json"]).status, 0)

        let rm = Binary.run(["rm", "https://example.com/a.txt", "https://example.com/never-there", "--cache", store])
        XCTAssertEqual(rm.status, 1)
        XCTAssertEqual(rm.err, "cachectl: not in the cache: https://example.com/never-there\n")
        XCTAssertEqual(Binary.run(["cat", "https://example.com/a.txt", "--cache", store]).status, 1)
        XCTAssertEqual(Binary.run(["ls", "--state", "bogus", store]).status, 2)
    }

    func testCatRefusesABodyThatNoLongerMatchesItsRow() {
        let tree = TestTree("tamper")
        let store = tree.path("store")
        XCTAssertEqual(
            Binary.run(["put", "https://x.com/t", body(tree, "in", "original"), "--cache", store.description]).status, 0
        )
        let bodyPath = FileTree.files(under: store.appending("objects"))[0].path
        _ = Run.bytes([Array("sh".utf8), Array("-c".utf8), Array("printf tampered > \"$0\"".utf8), bodyPath.bytes])
        let cat = Binary.run(["cat", "https://x.com/t", "--cache", store.description])
        XCTAssertEqual(cat.status, 1)
        XCTAssertEqual(cat.stdout, [], "nothing of a wrong body reaches stdout")
        XCTAssertTrue(cat.err.contains("corrupted entry"), cat.err)
    }

    /// Kill `put` (SIGKILL) between its steps; the store keeps the old entry or gets the new
    /// one, and what is left over is recognised.
    func testPutKilledBetweenStepsLeavesOldOrNewEntry() {
        let tree = TestTree("crash")
        let store = tree.path("store").description
        let url = "https://example.com/doc.txt"
        XCTAssertEqual(Binary.run(["put", url, body(tree, "old", "old body"), "--cache", store]).status, 0)
        let newer = body(tree, "new", "the new, longer body")

        let afterTemp = Binary.run(
            ["put", url, newer, "--cache", store], environment: ["CACHECTL_CRASH_AT": "put.afterTempWrite"])
        XCTAssertEqual(afterTemp.status, 128 + 9, "killed by SIGKILL")
        XCTAssertEqual(Binary.run(["cat", url, "--cache", store]).out, "old body", "the old entry survives")
        let leftovers = Binary.run(["ls", store, "--grace", "0s", "--state", "incomplete", "--json"])
        XCTAssertTrue(leftovers.out.contains("leftover of an interrupted write"), leftovers.out)

        // Killed between the rename and the commit: the new body has a name of its own, so
        // the old entry is still whole (it used to be replaced under the old row: unreadable).
        let afterRename = Binary.run(
            ["put", url, newer, "--cache", store], environment: ["CACHECTL_CRASH_AT": "put.afterRename"])
        XCTAssertEqual(afterRename.status, 128 + 9)
        let cat = Binary.run(["cat", url, "--cache", store])
        XCTAssertEqual(cat.status, 0, cat.err)
        XCTAssertEqual(cat.out, "old body", "the old entry is still readable")
        XCTAssertTrue(
            Binary.run(["ls", store, "--grace", "0s", "--state", "orphan"]).out.contains(
                "no index entry refers to this body"),
            "the uncommitted body is an orphan for the next prune")
        XCTAssertFalse(
            Binary.run(["ls", store, "--state", "corrupted", "--json"]).out.contains("\"url\""), "nothing corrupted")

        let afterCommit = Binary.run(
            ["put", url, newer, "--cache", store], environment: ["CACHECTL_CRASH_AT": "put.afterCommit"])
        XCTAssertEqual(afterCommit.status, 128 + 9)
        XCTAssertEqual(Binary.run(["cat", url, "--cache", store]).out, "the new, longer body")
    }

    func testTwoProcessesWritingWhileAThirdReads() {
        let tree = TestTree("concurrent")
        let store = tree.path("store").description
        let file = body(tree, "in", "payload")
        XCTAssertEqual(Binary.run(["put", "https://x.com/seed", file, "--cache", store]).status, 0)
        let bin = Binary.path
        let script = """
            set -u
            w() { i=0; while [ $i -lt 40 ]; do "$0" put "https://x.com/$1/$i" "$2" --cache "$3" >/dev/null || exit 1; \
            i=$((i+1)); done; }
            r() { i=0; while [ $i -lt 40 ]; do [ "$("$0" cat https://x.com/seed --cache "$3")" = payload ] || exit 2; \
            i=$((i+1)); done; }
            w a "$1" "$2" & A=$!
            w b "$1" "$2" & B=$!
            r x "$1" "$2" & C=$!
            wait $A || exit 11; wait $B || exit 12; wait $C || exit 13
            """
        let run = Run.command(["sh", "-c", script, bin, file, store])
        XCTAssertEqual(run.status, 0, run.err)
        let ls = Binary.run(["ls", store, "--json"])
        let object = (try? JSONSerialization.jsonObject(with: Data(ls.stdout))) as? [String: Any]
        let entries = (object?["entries"] as? [[String: Any]]) ?? []
        XCTAssertEqual(entries.count, 81)
        XCTAssertTrue(entries.allSatisfy { $0["state"] as? String == "fresh" })
    }

    func testBadInputsChangeNothing() throws {
        let tree = TestTree("badin")
        let store = tree.path("store")
        XCTAssertEqual(
            Binary.run(["put", "https://x.com/a", body(tree, "in", "a"), "--cache", store.description]).status, 0)
        let snapshot = Run.command([
            "sh", "-c", "cd '\(store.description)' && find . -type f -exec sha256sum {} + | sort"
        ]).out

        let notURL = Binary.run(["put", "no url here", body(tree, "in2", "b"), "--cache", store.description])
        XCTAssertEqual(notURL.status, 1)
        XCTAssertEqual(
            notURL.err,
            "cachectl: not a URL: 'no url here': it has no scheme: expected an absolute URL such as https://host/path "
                + "(missing-scheme-non-relative-URL)\n")
        // The part that fails is named, with the URL Standard's name for the failure.
        let badPort = Binary.run(["put", "http://x.com:8o/a", body(tree, "in2", "b"), "--cache", store.description])
        XCTAssertEqual(badPort.status, 1)
        XCTAssertEqual(
            badPort.err, "cachectl: not a URL: 'http://x.com:8o/a': its port '8o' is not a number (port-invalid)\n")
        // A URL without a host says so (all were "not a URL"), and a long one is shortened.
        for (url, message) in [
            (
                "data:text/plain,hi",
                "'data:text/plain,hi' has no host: caches keep URLs with one (such as "
                    + "https://host/path), not data: URLs"
            ),
            (
                "file:///etc/hosts",
                "'file:///etc/hosts' is a file: URL: caches keep URLs with a host (such as "
                    + "https://host/path)"
            )
        ] {
            let run = Binary.run(["put", url, body(tree, "in5", "e"), "--cache", store.description])
            XCTAssertEqual(run.status, 1)
            XCTAssertEqual(run.err, "cachectl: \(message)\n")
        }
        let long = Binary.run([
            "put", "data:," + String(repeating: "x", count: 100_000), body(tree, "in6", "f"), "--cache",
            store.description
        ])
        XCTAssertEqual(long.status, 1)
        XCTAssertTrue(long.err.count < 400 && long.err.contains("(100006 characters)"), String(long.err.prefix(400)))
        let noFile = Binary.run([
            "put", "https://x.com/b", tree.path("absent").description, "--cache", store.description
        ])
        XCTAssertEqual(noFile.status, 1)
        XCTAssertEqual(noFile.err, "cachectl: cannot access \(tree.path("absent").quoted): No such file or directory\n")
        XCTAssertEqual(
            Binary.run([
                "put", "https://x.com/b", body(tree, "in3", "c"), "--cache", store.description, "--expires", "soon"
            ]).status, 2)
        XCTAssertEqual(
            Run.command(["sh", "-c", "cd '\(store.description)' && find . -type f -exec sha256sum {} + | sort"]).out,
            snapshot)

        // A mistyped --cache naming a folder of other files: no store (and no CACHEDIR.TAG,
        // which would make backup tools skip the folder) is made there.
        tree.file("documents/letter.txt", size: 10)
        for args in [
            ["put", "https://x.com/c", body(tree, "in4", "d"), "--cache", tree.path("documents").description],
            ["fetch", "http://127.0.0.1:9/c", "--cache", tree.path("documents").description]
        ] {
            let run = Binary.run(args)
            XCTAssertEqual(run.status, 1, args[0])
            XCTAssertEqual(
                run.err,
                "cachectl: cannot write \(tree.path("documents").quoted): not a cachectl store and not empty "
                    + "(it holds 'letter.txt'); a store is made only in a new or empty directory\n", args[0])
        }
        XCTAssertEqual(Run.command(["ls", "-A", tree.path("documents").description]).out, "letter.txt\n")

        tree.file("corrupt/index.sqlite", contents: Array("garbage".utf8))
        let corrupt = Binary.run(["ls", tree.path("corrupt").description, "--format", "native"])
        XCTAssertEqual(corrupt.status, 1)
        XCTAssertEqual(
            corrupt.err,
            "cachectl: index \(tree.path("corrupt/index.sqlite").quoted) is unreadable: file is not a database\n")

        tree.file("plist/CachedDownloads.dic", contents: Array("<plist><dict><key>oops".utf8))
        let plist = Binary.run(["ls", tree.path("plist").description])
        XCTAssertEqual(plist.status, 1)
        XCTAssertTrue(
            plist.err.hasPrefix("cachectl: malformed property list \(tree.path("plist/CachedDownloads.dic").quoted): "),
            plist.err)
        XCTAssertEqual(
            try? FileIOProbe.read(tree.path("plist/CachedDownloads.dic")), Array("<plist><dict><key>oops".utf8))
    }

    /// Regression: a store made by cachectl whose index was damaged was detected as a plain
    /// folder, and `prune --max-size` would have deleted its index and bodies as loose files.
    func testStoreWithDamagedIndexIsReportedNotPrunedAsAPlainFolder() {
        let tree = TestTree("damaged")
        let store = tree.path("caches/store")
        XCTAssertEqual(
            Binary.run(["put", "https://x.com/a", body(tree, "in", "a"), "--cache", store.description]).status, 0)
        XCTAssertEqual(
            Run.command([
                "sh", "-c", "head -c 8192 /dev/zero | tr '\\0' Z > '\(store.appending("index.sqlite").description)'"
            ]).status, 0)
        let listing = {
            Run.command(["sh", "-c", "cd '\(store.description)' && find . -exec ls -dl --time-style=+ {} + | sort"]).out
        }
        let before = listing()
        let message =
            "cachectl: index \(store.appending("index.sqlite").quoted) is unreadable: file is not a database\n"
        for args in [
            ["prune", store.description, "--max-size", "1B"], ["prune", store.description, "--max-age", "0s"],
            ["clear", store.description], ["ls", store.description]
        ] {
            let run = Binary.run(args)
            XCTAssertEqual(run.status, 1, args.joined(separator: " "))
            XCTAssertEqual(run.err, message, args.joined(separator: " "))
        }
        let du = Binary.run(["du", tree.path("caches").description])
        XCTAssertEqual(du.status, 1, "sizes are printed, the damaged index is reported")
        XCTAssertTrue(du.out.contains(store.description), du.out)
        XCTAssertEqual(du.err, message)
        XCTAssertEqual(listing(), before, "nothing in the store was touched")
    }

    func testClearOnAForeignLayoutKeepsOutsideEntries() {
        let tree = TestTree("clearplist")
        let root = tree.dir("dl")
        tree.file("dl/a.cache", size: 100)
        let outside = TestTree("clear-outside")
        outside.file("keep.cache", size: 100)
        let code = """
            import plistlib, sys, datetime
            n = datetime.datetime.utcnow()
            plistlib.dump({'http://a': {'DownloadStartDate': n, 'DownloadEndDate': n, 'LocalURL': sys.argv[2] + \
            '/a.cache'},
                           'http://out': {'DownloadStartDate': n, 'DownloadEndDate': n, 'LocalURL': sys.argv[3]}}, \
            open(sys.argv[1], 'wb'))
            """
        XCTAssertEqual(
            Oracle.python(
                code,
                [
                    root.appending("CachedDownloads.dic").description, root.description,
                    outside.path("keep.cache").description
                ]
            ).status, 0)
        let clear = Binary.run(["clear", root.description])
        XCTAssertEqual(clear.status, 0, clear.err)
        XCTAssertFalse(tree.path("dl/a.cache").exists)
        XCTAssertTrue(outside.path("keep.cache").exists, "never deleted outside the cache")
        XCTAssertTrue(clear.err.contains("kept"), clear.err)
        let keys = Oracle.python(
            "import plistlib,sys; print(sorted(plistlib.load(open(sys.argv[1],'rb'))))",
            [root.appending("CachedDownloads.dic").description])
        XCTAssertEqual(keys.out, "['http://out']\n")
    }

    /// An index another program or a person edited can hold anything SQLite accepts. Each
    /// command reads such a row without stopping: before, GRDB's subscripts stopped the
    /// process (SIGILL) on a value that did not convert — `fetch` on any of the entry edits,
    /// `cat` on a status that is text, and `ls`, `du` and `prune` on a pin that is a BLOB.
    func testEditedIndexRowsStopNothing() {
        let edits = [
            "UPDATE entries SET allocated_bytes = 1e300", "UPDATE entries SET apparent_bytes = 9e18",
            "UPDATE entries SET status = 'x'",
            "UPDATE entries SET content_type = x'ff'", "UPDATE entries SET expires = 'soon'",
            "INSERT INTO pins VALUES (x'ff', 'u')"
        ]
        // Port 1: nothing listens, so `fetch` fails at connecting, after reading the row.
        let url = "http://127.0.0.1:1/a.txt"
        for (n, edit) in edits.enumerated() {
            let tree = TestTree("edited\(n)")
            let store = tree.path("store").description
            XCTAssertEqual(Binary.run(["put", url, body(tree, "in.txt", "the body"), "--cache", store]).status, 0)
            // A second row: sizes edited into both overflowed prune's sum.
            XCTAssertEqual(Binary.run(["put", url + "?2", body(tree, "in2.txt", "body 2"), "--cache", store]).status, 0)
            let sql = "import sqlite3, sys; d = sqlite3.connect(sys.argv[1]); d.execute(sys.argv[2]); d.commit()"
            let edited = Run.command(["python3", "-c", sql, store + "/index.sqlite", edit])
            XCTAssertEqual(edited.status, 0, edited.err)
            for command in [
                ["ls", store], ["du", store], ["prune", "--max-size", "1G", store], ["cat", url, "--cache", store],
                ["fetch", url, "--cache", store]
            ] {
                let run = Binary.run(command)
                XCTAssertLessThan(run.status, 128, "\(edit): \(command[0]): \(run.err)")
                XCTAssertFalse(run.err.contains("Fatal error"), "\(edit): \(command[0]): \(run.err)")
            }
        }
    }
}

/// `du` names each recognised cache's format and splits it by state.
final class DuFormatBreakdownTests: XCTestCase {
    func testDuReportsFormatAndStatesPerCache() throws {
        let tree = TestTree("duformats")
        let store = tree.path("caches/cachectl").description
        let file = tree.file("in", contents: Array("body".utf8)).description
        XCTAssertEqual(Binary.run(["put", "https://x.com/keep", file, "--cache", store]).status, 0)
        XCTAssertEqual(Binary.run(["put", "https://x.com/old", file, "--cache", store, "--expires", "1s"]).status, 0)
        let sd = "caches/com.hackemist.SDImageCache/default"
        tree.file("\(sd)/\(Oracle.md5("https://x.com/a.png")).png", contents: Images.png)
        tree.file("\(sd)/\(Oracle.md5("https://x.com/b.png")).png", contents: Images.png)
        tree.setModified(
            "\(sd)/\(Oracle.md5("https://x.com/b.png")).png",
            secondsSinceEpoch: Int(FileTime.now.timeInterval) - 8 * 86_400)
        tree.file("caches/misc/notes.txt", size: 100)
        for i in 0..<3 { tree.file("caches/blobs/" + Oracle.sha256("blob \(i)"), size: 100) }
        sleep(2)

        let result = Binary.run(["du", "--json", tree.path("caches").description])
        XCTAssertEqual(result.status, 0, result.err)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        let caches = try XCTUnwrap((object["roots"] as? [[String: Any]])?.first?["caches"] as? [[String: Any]])
        func cache(_ suffix: String) -> [String: Any]? {
            caches.first { ($0["path"] as? String)?.hasSuffix(suffix) == true }
        }
        func count(_ c: [String: Any]?, _ state: String) -> Int? {
            ((c?["states"] as? [String: Any])?[state] as? [String: Any])?["count"] as? Int
        }

        XCTAssertEqual(cache("/cachectl")?["format"] as? String, "native")
        XCTAssertEqual(count(cache("/cachectl"), "fresh"), 1)
        XCTAssertEqual(count(cache("/cachectl"), "expired"), 1)
        XCTAssertEqual(cache("/com.hackemist.SDImageCache")?["format"] as? String, "sdwebimage")
        XCTAssertEqual(count(cache("/com.hackemist.SDImageCache"), "expired"), 1)
        XCTAssertGreaterThan((cache("/com.hackemist.SDImageCache")?["staleBytes"] as? Int) ?? 0, 0)
        XCTAssertTrue(cache("/misc")?["format"] is NSNull, "a plain folder is not a recognised format")
        XCTAssertEqual(
            cache("/com.hackemist.SDImageCache")?["formatGuessedByNames"] as? Bool, false, "declared by its folder name"
        )
        XCTAssertEqual(cache("/blobs")?["format"] as? String, "kingfisher")
        XCTAssertEqual(cache("/blobs")?["formatGuessedByNames"] as? Bool, true)

        let text = Binary.run(["du", "-h", tree.path("caches").description]).out
        XCTAssertTrue(text.contains("SDWebImage: 1 fresh, 1 expired"), text)
        XCTAssertTrue(text.contains("cachectl store: 1 fresh, 1 expired"), text)
        XCTAssertTrue(
            text.contains("Kingfisher? (by file names only; prune uses its rules with --format kingfisher): 3 expired"),
            text)
        let ls = Binary.run(["ls", tree.path("caches/blobs").description])
        XCTAssertTrue(
            ls.out.hasPrefix("Kingfisher? (by file names only; prune uses its rules with --format kingfisher): "),
            ls.out)
        XCTAssertTrue(
            Binary.run(["ls", tree.path("caches/blobs").description, "--format", "kingfisher"]).out.hasPrefix(
                "Kingfisher: "))
        let lsJSON = try XCTUnwrap(
            JSONSerialization.jsonObject(
                with: Data(Binary.run(["ls", tree.path("caches/blobs").description, "--json"]).stdout))
                as? [String: Any])
        XCTAssertEqual(lsJSON["formatGuessedByNames"] as? Bool, true)
    }
}
