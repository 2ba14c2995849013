import CacheKit
import TestSupport
import XCTest

/// The size rules of `DiskUsage`, checked against `lstat` of what each test made.
final class DiskUsageTests: XCTestCase {
    private func measure(_ paths: [RawPath], _ configure: (inout DiskUsageOptions) -> Void = { _ in })
        -> DiskUsageReport
    {
        var options = DiskUsageOptions()
        configure(&options)
        return DiskUsage.measure(paths, options: options)
    }

    func testSizedFilesAndDirectoriesOwnBlocksAreCounted() {
        let tree = TestTree("sized")
        tree.file("a/one", size: 1)
        tree.file("a/two", size: 5000)
        tree.file("b/c/three", size: 70000)
        tree.dir("empty")
        let entries = ["", "a", "a/one", "a/two", "b", "b/c", "b/c/three", "empty"]
        let expected = entries.reduce(Int64(0)) { $0 + tree.allocated($1) }

        let report = measure([tree.root])
        XCTAssertTrue(report.issues.isEmpty, "\(report.issues)")
        XCTAssertEqual(report.roots[0].totals.allocatedBytes, expected)
        XCTAssertEqual(report.roots[0].totals.apparentBytes, 75001, "apparent size counts files only")
        XCTAssertEqual(report.roots[0].totals.files, 3)
        XCTAssertEqual(report.roots[0].totals.directories, 5)
    }

    func testSparseFileCountsAllocatedBlocksNotLength() {
        let tree = TestTree("sparse")
        tree.sparse("holes.bin", size: 64 * 1024 * 1024)
        let report = measure([tree.root])
        XCTAssertEqual(report.roots[0].totals.allocatedBytes, tree.allocated("") + tree.allocated("holes.bin"))
        XCTAssertLessThan(report.roots[0].totals.allocatedBytes, 1024 * 1024)
        XCTAssertEqual(report.roots[0].totals.apparentBytes, 64 * 1024 * 1024)
    }

    func testHardLinksInsideOneArgumentCountOnce() {
        let tree = TestTree("hard")
        tree.file("x/big", size: 100_000)
        tree.hardLink("x/big", "y/big-again")
        tree.hardLink("x/big", "x/big-third")
        let report = measure([tree.root])
        let expected = ["", "x", "y", "x/big"].reduce(Int64(0)) { $0 + tree.allocated($1) }
        XCTAssertEqual(report.roots[0].totals.allocatedBytes, expected)
        XCTAssertEqual(report.roots[0].totals.files, 1)
    }

    func testHardLinkAcrossArgumentsCountsForTheFirstOnly() {
        let tree = TestTree("hardargs")
        tree.file("x/big", size: 100_000)
        tree.hardLink("x/big", "y/big")
        let report = measure([tree.path("y"), tree.path("x")])
        XCTAssertEqual(report.roots[0].totals.allocatedBytes, tree.allocated("y") + tree.allocated("y/big"))
        XCTAssertEqual(report.roots[1].totals.allocatedBytes, tree.allocated("x"))
    }

    func testArgumentInsideAnEarlierArgumentIsAlreadyCounted() {
        let tree = TestTree("nested")
        tree.file("x/sub/f", size: 3000)
        let report = measure([tree.path("x"), tree.path("x/sub"), tree.path("x")])
        XCTAssertFalse(report.roots[0].alreadyCounted)
        XCTAssertTrue(report.roots[1].alreadyCounted)
        XCTAssertTrue(report.roots[2].alreadyCounted)
        XCTAssertEqual(report.total.allocatedBytes, report.roots[0].totals.allocatedBytes)
    }

    func testLaterArgumentSkipsTheSubtreeAnEarlierOneCounted() {
        let tree = TestTree("contains")
        tree.file("x/sub/f", size: 3000)
        tree.file("x/g", size: 3000)
        let report = measure([tree.path("x/sub"), tree.path("x")])
        XCTAssertEqual(report.roots[0].totals.allocatedBytes, tree.allocated("x/sub") + tree.allocated("x/sub/f"))
        XCTAssertEqual(report.roots[1].totals.allocatedBytes, tree.allocated("x") + tree.allocated("x/g"))
    }

    func testSymlinksAreNotFollowed() {
        let tree = TestTree("links")
        let outside = TestTree("outside")
        outside.file("huge", size: 1_000_000)
        tree.symlink(outside.root.description, at: "to-dir")
        tree.symlink(outside.path("huge").description, at: "to-file")
        tree.symlink("nowhere", at: "dangling")
        let report = measure([tree.root])
        let expected = ["", "to-dir", "to-file", "dangling"].reduce(Int64(0)) { $0 + tree.allocated($1) }
        XCTAssertEqual(report.roots[0].totals.allocatedBytes, expected)
        XCTAssertEqual(report.roots[0].totals.files, 3)
        let linkLengths = ["to-dir", "to-file", "dangling"].reduce(Int64(0)) { $0 + tree.apparent($1) }
        XCTAssertEqual(
            report.roots[0].totals.apparentBytes, linkLengths, "a symlink's apparent size is its target's length")
    }

    func testSymlinkArgumentIsMeasuredAsALink() {
        let tree = TestTree("linkarg")
        tree.file("real/f", size: 50_000)
        tree.symlink("real", at: "alias")
        let report = measure([tree.path("alias")])
        XCTAssertFalse(report.roots[0].isDirectory)
        XCTAssertEqual(report.roots[0].totals.allocatedBytes, tree.allocated("alias"))
    }

    func testNamesThatAreNotUTF8OrHoldNewlinesAreWalked() {
        let tree = TestTree("names")
        let latin1: [UInt8] = [0x63, 0x61, 0x66, 0xE9]  // "café" in ISO-8859-1
        tree.file(bytes: Array("d/".utf8) + latin1, size: 2000)
        tree.file("d/line\nbreak", size: 2000)
        tree.file(bytes: Array("d/".utf8) + latin1 + Array("-dir/inner".utf8), size: 9000)
        var options = DiskUsageOptions()
        options.largestFiles = 1
        let report = DiskUsage.measure([tree.root], options: options)
        XCTAssertTrue(report.issues.isEmpty, "\(report.issues)")
        XCTAssertEqual(report.roots[0].totals.files, 3)
        XCTAssertEqual(
            report.roots[0].largestFiles.first?.path.bytes,
            tree.root.bytes + Array("/d/".utf8) + latin1 + Array("-dir/inner".utf8),
            "paths keep their exact bytes")
    }

    func testChainDeeperThanPathMaxIsWalked() {
        let tree = TestTree("deep")
        tree.deepChain("chain", levels: 120)  // 120 × 51 bytes > PATH_MAX (4096)
        let report = measure([tree.path("chain")])
        XCTAssertTrue(report.issues.isEmpty, "\(report.issues)")
        XCTAssertEqual(report.roots[0].totals.directories, 121)
        XCTAssertEqual(report.roots[0].totals.files, 1)
        XCTAssertEqual(report.roots[0].totals.apparentBytes, 5000)
    }

    func testMissingArgumentIsAnIssueAndOtherArgumentsStillCount() {
        let tree = TestTree("missing")
        tree.file("f", size: 10)
        let report = measure([tree.path("nope"), tree.root])
        XCTAssertFalse(report.roots[0].exists)
        XCTAssertEqual(report.issues.count, 1)
        XCTAssertEqual(
            report.issues[0].description, "cannot access \(tree.path("nope").quoted): No such file or directory")
        XCTAssertEqual(report.roots[1].totals.files, 1)
    }

    func testSingleThreadAndManyThreadsAgree() {
        let tree = TestTree("threads")
        for d in 0..<40 { for f in 0..<15 { tree.file("d\(d % 7)/s\(d)/f\(f)", size: (d * 131 + f * 17) % 9000) } }
        let one = measure([tree.root]) { $0.threads = 1 }
        let many = measure([tree.root]) { $0.threads = 8 }
        XCTAssertEqual(one.roots[0].totals, many.roots[0].totals)
    }

    func testApparentSizeIgnoresDirectories() {
        let tree = TestTree("apparent")
        for i in 0..<300 { tree.file("big-dir/entry-with-a-long-name-\(i)", size: 0) }
        let report = measure([tree.root])
        XCTAssertGreaterThan(tree.apparent("big-dir"), 0)
        XCTAssertEqual(report.roots[0].totals.apparentBytes, 0)
    }
}

/// Breakdowns: caches, depth, largest files, dates.
final class DiskUsageBreakdownTests: XCTestCase {
    func testCachesAreTaggedDirectoriesElseImmediateSubdirectories() {
        let tree = TestTree("caches")
        tree.file("pip/CACHEDIR.TAG", contents: Array(CacheDirTag.contents.utf8))
        tree.file("pip/http/a", size: 40_000)
        tree.file("apps/thumbs/CACHEDIR.TAG", contents: Array(CacheDirTag.contents.utf8))
        tree.file("apps/thumbs/t1", size: 30_000)
        tree.file("apps/thumbs/nested/CACHEDIR.TAG", contents: Array(CacheDirTag.contents.utf8))
        tree.file("apps/thumbs/nested/t2", size: 1000)
        tree.file("apps/settings", size: 100)
        tree.file("fake/CACHEDIR.TAG", contents: Array("Signature: not the right one at all......".utf8))
        tree.file("fake/x", size: 10)
        tree.file("loose", size: 10)

        var options = DiskUsageOptions()
        options.breakdown = .caches
        let report = DiskUsage.measure([tree.root], options: options)
        let root = report.roots[0]
        let byPath = Dictionary(uniqueKeysWithValues: root.caches.map { ($0.path.description, $0) })
        XCTAssertEqual(byPath[tree.path("pip").description]?.kind, .tagged)
        XCTAssertEqual(byPath[tree.path("apps/thumbs").description]?.kind, .tagged)
        XCTAssertEqual(
            byPath[tree.path("apps/thumbs").description]?.totals.files, 4, "a tag inside a tagged cache belongs to it")
        XCTAssertEqual(byPath[tree.path("apps").description]?.kind, .directory)
        XCTAssertEqual(byPath[tree.path("apps").description]?.totals.files, 1, "the tagged cache below is its own line")
        XCTAssertEqual(byPath[tree.path("fake").description]?.kind, .directory, "a wrong signature is no tag")
        XCTAssertEqual(byPath[tree.root.description]?.kind, .rootFiles)
        XCTAssertNil(byPath[tree.path("apps/thumbs/nested").description])
        XCTAssertEqual(
            root.caches.reduce(Int64(0)) { $0 + $1.totals.allocatedBytes }, root.totals.allocatedBytes,
            "the lines add up to the total")
        XCTAssertEqual(root.caches.map(\.totals.allocatedBytes), root.caches.map(\.totals.allocatedBytes).sorted(by: >))
    }

    func testSymlinkedTagDoesNotMakeACache() {
        let tree = TestTree("taglink")
        tree.file("real/CACHEDIR.TAG", contents: Array(CacheDirTag.contents.utf8))
        tree.symlink(tree.path("real/CACHEDIR.TAG").description, at: "other/sub/CACHEDIR.TAG")
        var options = DiskUsageOptions()
        options.breakdown = .caches
        let report = DiskUsage.measure([tree.root], options: options)
        XCTAssertFalse(report.roots[0].caches.contains { $0.path == tree.path("other/sub") })
    }

    func testDepthBreakdownGivesSubtreeTotals() {
        let tree = TestTree("depth")
        tree.file("a/b/c/f", size: 10_000)
        tree.file("a/g", size: 20_000)
        tree.file("h", size: 1000)
        var options = DiskUsageOptions()
        options.breakdown = .directories(maxDepth: 1)
        let report = DiskUsage.measure([tree.root], options: options)
        let dirs = Dictionary(uniqueKeysWithValues: report.roots[0].directories.map { ($0.path, $0) })
        let aSubtree = ["a", "a/b", "a/b/c", "a/b/c/f", "a/g"].reduce(Int64(0)) { $0 + tree.allocated($1) }
        XCTAssertEqual(dirs[tree.path("a")]?.totals.allocatedBytes, aSubtree)
        XCTAssertEqual(dirs[tree.root]?.totals.allocatedBytes, report.roots[0].totals.allocatedBytes)
        XCTAssertEqual(dirs.count, 2)
    }

    func testLargestFilesAndModificationRange() {
        let tree = TestTree("top")
        for (i, size) in [300, 90_000, 5, 40_000, 70_000].enumerated() {
            tree.file("d\(i % 2)/f\(i)", size: size)
            tree.setModified("d\(i % 2)/f\(i)", secondsSinceEpoch: 1_600_000_000 + i * 86_400)
        }
        var options = DiskUsageOptions()
        options.largestFiles = 2
        let report = DiskUsage.measure([tree.root], options: options)
        XCTAssertEqual(report.roots[0].largestFiles.map(\.path), [tree.path("d1/f1"), tree.path("d0/f4")])
        XCTAssertEqual(report.roots[0].totals.oldestModification, FileTime(seconds: 1_600_000_000))
        XCTAssertEqual(report.roots[0].totals.newestModification, FileTime(seconds: 1_600_000_000 + 4 * 86_400))
    }
}
