import CacheKit
import Foundation
import TestSupport
import XCTest

final class DuEndToEndTests: XCTestCase {
    /// First fields of `du -sB1 ARGS...` and `cachectl du -s -b ARGS...`, line by line.
    private func compareWithDu(_ args: [[UInt8]], file: StaticString = #filePath, line: UInt = #line) {
        let du = Run.bytes([Array("du".utf8), Array("-sB1".utf8)] + args)
        let ours = Binary.runBytes([Array("du".utf8), Array("-sB1".utf8)] + args)
        XCTAssertEqual(
            ours.stdout, du.stdout,
            """
            stdout differs from du -sB1 for \
            \(args.map { String(decoding: $0, as: UTF8.self) })\nours:\n\(ours.out)\ndu:\n\(du.out)
            """,
            file: file, line: line)
        XCTAssertEqual(ours.status, du.status, "exit status differs: \(ours.err) / \(du.err)", file: file, line: line)
    }

    private func richTree() -> TestTree {
        let tree = TestTree("e2e")
        tree.file("a/small", size: 1)
        tree.file("a/medium", size: 5000)
        tree.file("a/sub/deeper/big", size: 300_000)
        tree.sparse("a/sparse.img", size: 50_000_000)
        tree.hardLink("a/medium", "b/medium-link")
        tree.hardLink("a/sub/deeper/big", "a/big-link")
        tree.file("b/own", size: 12_345)
        tree.symlink("../a", at: "b/to-a")
        tree.symlink("../a/medium", at: "b/to-medium")
        tree.symlink("missing-target", at: "b/dangling")
        tree.dir("c/empty/nested-empty")
        tree.file("c/line\nbreak name", size: 4000)
        tree.file(bytes: Array("c/latin1-".utf8) + [0xE9, 0xFF], size: 7000)
        tree.file("c/CACHEDIR.TAG", contents: Array(CacheDirTag.contents.utf8))
        return tree
    }

    /// A directory of more than 8,192 entries is read by one thread and examined by every
    /// worker (`RootWalk.examineInParallel`): its sizes, hard links, subdirectories, excluded
    /// names and inodes are what du prints.
    func testADirectoryPastTheParallelThresholdCountsAsDuCountsIt() {
        let tree = TestTree("e2e-wide")
        for i in 0..<9_000 { tree.file("wide/f\(i)", size: (i % 7) * 1500) }
        for i in 0..<40 { tree.file("wide/sub\(i)/inner", size: 3000 + i) }
        tree.hardLink("wide/f10", "wide/link-to-f10")
        tree.hardLink("wide/f11", "elsewhere/link-to-f11")
        tree.file("wide/skip.log", size: 90_000)
        let wide = tree.path("wide").bytes
        compareWithDu([wide])
        compareWithDu([tree.path("elsewhere").bytes, wide])
        // (Not -b: apparent sizes follow coreutils 9.2, where directories count 0; Debian's 9.1
        // counts them, README says so.)
        for extra in [["--exclude=*.log"], ["--inodes"]] {
            let flags = (["-sB1"] + extra).map { Array($0.utf8) }
            let du = Run.bytes([Array("du".utf8)] + flags + [wide])
            let ours = Binary.runBytes([Array("du".utf8)] + flags + [wide])
            XCTAssertEqual(ours.out, du.out, "du \(extra) on a wide directory: \(ours.err)")
        }
    }

    func testSummaryEqualsDuOnEveryArgumentList() {
        let tree = richTree()
        let p = { (s: String) in tree.path(s).bytes }
        let lists: [[[UInt8]]] = [
            [tree.root.bytes],
            [p("a"), p("b")],
            [p("b"), p("a")],
            [p("a"), p("a")],
            [p("a"), p("a/sub")],
            [p("a/sub"), p("a")],
            [p("a/medium"), p("b"), p("a")],
            [p("b/to-a"), p("b/to-a") + Array("/".utf8)],
            [p("c"), tree.root.bytes, p("a/sparse.img")],
            [tree.root.bytes + Array("/".utf8)]
        ]
        for list in lists { compareWithDu(list) }
    }

    func testArgumentThatIsNotUTF8IsPrintedByteForByte() {
        let tree = TestTree("rawarg")
        let name: [UInt8] = Array("dir-".utf8) + [0xE9, 0x0A, 0x80]
        tree.file(bytes: name + Array("/f".utf8), size: 3000)
        compareWithDu([tree.path(bytes: name).bytes, tree.root.bytes])
    }

    func testChainDeeperThanPathMaxEqualsDu() {
        let tree = TestTree("deep")
        tree.deepChain("chain", levels: 150)
        compareWithDu([tree.path("chain").bytes])
        compareWithDu([tree.root.bytes])
    }

    func testDirectoryWithManyEntriesEqualsDu() throws {
        let tree = TestTree("wide")
        let dir = tree.dir("wide")
        // 100,000 entries made by one shell loop (fast), a few with content.
        let script =
            """
            cd '\(dir.description)' && seq -f 'entry-%06g' 1 100000 | xargs touch && head -c 100000 /dev/urandom \
            > entry-000001 && mkdir sub && echo x > sub/y
            """
        XCTAssertEqual(Run.command(["sh", "-c", script]).status, 0)
        compareWithDu([dir.bytes])
    }

    func testApparentSizeCountsRegularFilesAndSymlinks() {
        let tree = richTree()
        // coreutils 9.2 rules; the oracle is find's own st_size of files and links.
        let find = Run.command([
            "sh", "-c",
            """
            find '\(tree.root.description)' \\( -type f -o -type l \\) -printf '%i %s\\n' | sort -u -k1,1 | awk \
            '{s+=$2} END {print s}'
            """
        ])
        let ours = Binary.run(["du", "-s", "-b", "--apparent-size", tree.root.description])
        XCTAssertEqual(ours.status, 0)
        XCTAssertEqual(
            ours.out.split(separator: "\t").first.map(String.init),
            find.out.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    func testOneFileSystemSkipsAMountInside() throws {
        let tree = TestTree("xdev")
        tree.file("local/f", size: 8000)
        let mountPoint = tree.dir("mnt")
        guard Run.command(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", mountPoint.description]).status == 0 else {
            throw XCTSkip("cannot mount a tmpfs here")
        }
        defer { _ = Run.command(["umount", mountPoint.description]) }
        _ = Run.command(["sh", "-c", "head -c 1000000 /dev/zero > '\(mountPoint.description)/big'"])
        let du = Run.command(["du", "-sxB1", tree.root.description])
        let ours = Binary.run(["du", "-sxB1", tree.root.description])
        XCTAssertEqual(ours.out, du.out)
        let all = Binary.run(["du", "-sB1", tree.root.description])
        XCTAssertEqual(all.out, Run.command(["du", "-sB1", tree.root.description]).out)
        XCTAssertNotEqual(all.out, ours.out, "the mount's megabyte is counted only without -x")
    }

    /// `mount --bind a a/b`: a directory whose (dev, ino) is an ancestor's is not entered, as
    /// du does (before, every file under the cycle was counted twice). In a private mount
    /// namespace, so nothing outlives the test.
    func testBindMountCycleIsNotEnteredAsDuDoes() throws {
        guard Privilege.isRoot, Run.available("unshare") else {
            throw XCTSkip("needs root and unshare for a private mount namespace")
        }
        let tree = TestTree("cycle")
        tree.file("a/f", size: 100_000)
        tree.file("a/c/g", size: 30_000)
        tree.dir("a/b")
        let a = tree.path("a").description
        let script =
            "mount --bind '\(a)' '\(a)/b' || exit 77; du -B1 '\(a)'; echo; '\(Binary.path)' du -B1 -d 9 '\(a)' | sed 1d"
        let result = Run.command(["unshare", "-m", "sh", "-c", script])
        if result.status == 77 { throw XCTSkip("cannot bind-mount here: \(result.err)") }
        let parts = result.out.components(separatedBy: "\n\n")
        XCTAssertEqual(parts.count, 2, result.out + result.err)
        // du's rows (size, path) against ours (size first, path last, total row dropped).
        let duRows = Set(
            parts[0].split(separator: "\n").map { line -> String in
                let f = line.split(separator: "\t")
                return "\(f[0]) \(f[1])"
            })
        let ourRows = Set(
            parts.last!.split(separator: "\n").filter { !$0.contains(" total ") }.map { line -> String in
                let f = line.split(separator: " ", omittingEmptySubsequences: true)
                return "\(f[0]) \(f.last!)"
            })
        XCTAssertEqual(ourRows, duRows, result.out)
    }

    func testUnreadableDirectoryIsReportedCountedAndExitsOne() throws {
        guard Privilege.isRoot else { throw XCTSkip("needs root to switch to an unprivileged user") }
        let tree = TestTree("perm")
        tree.file("ok/f", size: 5000)
        tree.file("locked/secret", size: 90_000)
        tree.file("listable/f", size: 100)
        tree.file("listable/sub/g", size: 100)
        tree.chmod("locked", 0o000)
        tree.chmod("listable", 0o444)  // names readable, entries not examinable
        _ = Run.command(["chmod", "-R", "a+rX", tree.path("ok").description])
        let du = Run.bytes((Privilege.prefix("65534") + [Array("du".utf8), Array("-sB1".utf8), tree.root.bytes]))
        let ours = Binary.run(["du", "-sB1", tree.root.description], as: "65534")
        XCTAssertEqual(ours.status, 1)
        XCTAssertEqual(
            ours.err,
            """
            cachectl: cannot access '\(tree.path("listable/f").description)': Permission denied
            cachectl: cannot access '\(tree.path("listable/sub").description)': Permission denied
            cachectl: cannot read directory '\(tree.path("locked").description)': Permission denied

            """)
        XCTAssertEqual(
            Set(ours.err.split(separator: "\n").map { $0.replacingOccurrences(of: "cachectl:", with: "du:") }),
            Set(du.err.split(separator: "\n").map(String.init)), "the same messages as du")
        XCTAssertEqual(
            ours.out, du.out, "the total still prints and counts the locked directory's own blocks, as du's does")

        let json = Binary.run(["du", "--json", tree.root.description], as: "65534")
        XCTAssertEqual(json.status, 1)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout)) as? [String: Any])
        let errors = try XCTUnwrap(object["errors"] as? [[String: Any]])
        XCTAssertEqual(
            errors.compactMap { $0["path"] as? String },
            ["listable/f", "listable/sub", "locked"].map { tree.path($0).description })
        XCTAssertEqual(
            errors.last?["message"] as? String, "cannot read directory \(tree.path("locked").quoted): Permission denied"
        )
    }

    func testMissingPathIsReportedAndExitsOne() {
        let tree = TestTree("nopath")
        tree.file("f", size: 10)
        let result = Binary.run(["du", "-sB1", tree.path("absent").description, tree.root.description])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(
            result.err, "cachectl: cannot access '\(tree.path("absent").description)': No such file or directory\n")
        XCTAssertTrue(result.out.hasSuffix("\t\(tree.root.description)\n"), "the other argument still prints")
    }

    func testUsageErrorsExitTwo() {
        XCTAssertEqual(Binary.run(["du", "--depth", "-3"]).status, 2)
        XCTAssertEqual(Binary.run(["du", "--no-such-flag"]).status, 2)
        XCTAssertEqual(Binary.run(["du", "-s", "--depth", "1", "/tmp"]).status, 2)
        XCTAssertEqual(Binary.run(["no-such-subcommand"]).status, 2)
        let help = Binary.run(["du", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.out.contains("--apparent-size"))
    }

    func testJSONShape() throws {
        let tree = richTree()
        let result = Binary.run(["du", "--json", "--top", "2", tree.root.description])
        XCTAssertEqual(result.status, 0, result.err)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        let roots = try XCTUnwrap(object["roots"] as? [[String: Any]])
        XCTAssertEqual((object["errors"] as? [Any])?.count, 0)
        XCTAssertEqual(roots.count, 1)
        let root = roots[0]
        XCTAssertEqual(root["path"] as? String, tree.root.description)
        let du = Run.command(["du", "-sB1", tree.root.description]).out.split(separator: "\t")[0]
        XCTAssertEqual((root["allocatedBytes"] as? NSNumber)?.int64Value, Int64(du))
        for key in [
            "apparentBytes", "files", "directories", "oldestModification", "newestModification", "caches",
            "largestFiles"
        ] {
            XCTAssertNotNil(root[key], "missing \(key)")
        }
        let caches = try XCTUnwrap(root["caches"] as? [[String: Any]])
        XCTAssertTrue(
            caches.contains { $0["path"] as? String == tree.path("c").description && $0["kind"] as? String == "tagged" }
        )
        XCTAssertEqual(caches.compactMap { ($0["allocatedBytes"] as? NSNumber)?.int64Value }.reduce(0, +), Int64(du))
        XCTAssertEqual((root["largestFiles"] as? [Any])?.count, 2)
    }

    func testHumanViewListsCachesLargestFirstWithATotal() {
        let tree = TestTree("human")
        tree.file("small/f", size: 1000)
        tree.file("big/CACHEDIR.TAG", contents: Array(CacheDirTag.contents.utf8))
        tree.file("big/f", size: 900_000)
        let result = Binary.run(["du", "-h", tree.root.description])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.err, "", "no progress or noise when stderr is not a terminal")
        let lines = result.out.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 5, result.out)
        XCTAssertTrue(lines[0].hasPrefix(" SIZE") || lines[0].contains("SIZE"))
        XCTAssertTrue(lines[1].hasSuffix("\(tree.path("big").description)  [CACHEDIR.TAG]"), lines[1])
        XCTAssertTrue(lines[2].hasSuffix(tree.path("small").description), lines[2])
        XCTAssertTrue(
            lines[3].hasSuffix("\(tree.root.description)  (the directory itself and files directly inside)"), lines[3])
        XCTAssertTrue(lines[4].hasSuffix("total \(tree.root.description)"), lines[4])
        let duHuman = Run.command(["du", "-sh", tree.root.description]).out.split(separator: "\t")[0]
        XCTAssertTrue(
            lines[4].trimmingCharacters(in: .whitespaces).hasPrefix(String(duHuman)), "\(lines[4]) vs du -sh \(duHuman)"
        )
    }

    /// A cache given itself is one cache, named with its state: `du ~/.cache/pip` listed
    /// `http/` as a cache of no format and the root's own files apart, where `du ~/.cache`
    /// said `pip cache: 13 fresh, 1 expired`.
    func testACacheGivenItselfIsOneCacheWithItsState() {
        let tree = TestTree("du-one-cache")
        tree.file("pip/http/a/b/c/d/e/abcde0123", contents: Array("not cc=4".utf8))
        tree.file("pip/wheels/ab/cd/ef/0123/x-1.0-py3-none-any.whl", size: 5000)
        let root = tree.path("pip")
        let result = Binary.run(["du", "-B1", root.description])
        XCTAssertEqual(result.status, 0, result.err)
        let lines = result.out.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3, result.out)
        XCTAssertTrue(lines[1].hasSuffix("\(root.description)  pip cache: 2 fresh"), result.out)
        let du = Run.command(["du", "-sB1", root.description]).out.split(separator: "\t")[0]
        XCTAssertTrue(lines[2].trimmingCharacters(in: .whitespaces).hasPrefix(du + " "), "\(lines[2]) vs du \(du)")
    }

    func testDepthViewMatchesDuMaxDepth() {
        let tree = richTree()
        let result = Binary.run(["du", "-b", "--depth", "1", "--json", tree.root.description])
        let object = (try? JSONSerialization.jsonObject(with: Data(result.stdout))) as? [String: Any]
        let root = (object?["roots"] as? [[String: Any]])?.first
        // One meaning per key: `directories` stays the count (it was also the array's key,
        // twice in one object).
        XCTAssertTrue(root?["directories"] is NSNumber, "\(root ?? [:])")
        let dirs = (root?["subdirectories"] as? [[String: Any]]) ?? []
        let ours = Dictionary(
            uniqueKeysWithValues: dirs.map { ($0["path"] as! String, ($0["allocatedBytes"] as! NSNumber).int64Value) })
        let du = Run.command(["du", "-B1", "-d", "1", tree.root.description]).out.split(separator: "\n").map {
            line -> (String, Int64) in
            let parts = line.split(separator: "\t", maxSplits: 1)
            return (String(parts[1]), Int64(parts[0])!)
        }
        // Directories whose hard links are all inside them must agree exactly; 'a' and 'b'
        // share a hard link, which du gives to whichever it meets first.
        for (path, size) in du where !path.hasSuffix("/a") && !path.hasSuffix("/b") {
            XCTAssertEqual(ours[path], size, path)
        }
        XCTAssertEqual(ours.count, du.count)
    }

    /// Two sparse files of 5 EiB each (a tmpfs allows them) sum past Int64: du's sum is
    /// `uintmax_t`, and so is what cachectl shows (it showed -6917529027641081856), and `prune`
    /// no longer stops the process on its overflowing total (SIGILL before).
    func testSizesPastInt64AreSummedAsDuSumsThem() throws {
        guard Privilege.isRoot, Run.available("unshare") else {
            throw XCTSkip("needs root and unshare for a tmpfs in a private mount namespace")
        }
        let tree = TestTree("du-sparse")
        tree.dir("sparse")
        let dir = tree.path("sparse").description
        let script =
            "mount -t tmpfs -o size=1m tmpfs '\(dir)' || exit 77; mkdir '\(dir)/c' && cd '\(dir)/c' || exit 1; "
            + "truncate -s 5E f1 f2 || exit 77; printf hi > small; '\(Binary.path)' du -sb .; "
            + "'\(Binary.path)' prune --format plain --max-size 1G --dry-run . >/dev/null || exit 3"
        let result = Run.command(["unshare", "-m", "sh", "-c", script])
        if result.status == 77 { throw XCTSkip("cannot make sparse files of 5 EiB here: \(result.err)") }
        XCTAssertEqual(result.status, 0, result.err)
        // 2 × 5 × 2^60 + 2 bytes (directories count 0 in apparent sizes: coreutils 9.2's rule).
        XCTAssertEqual(result.out, "11529215046068469762\t.\n", result.err)
    }
}
