import CacheKit
import TestSupport
import XCTest

/// What `prune` shows while it works: the files its inspection has looked at so far (counted
/// by the walk itself, so a long inspection shows numbers, not only "inspecting…").
final class PruneProgressTests: XCTestCase {
    private func tree(_ label: String) -> TestTree {
        let tree = TestTree(label)
        tree.file("c/CACHEDIR.TAG", contents: Array(CacheDirTag.contents.utf8))
        for d in 0..<5 {
            for f in 0..<40 { tree.file("c/\(d)/sub/\(f)", size: 10) }
        }
        return tree
    }

    func testInspectionCountsEveryFileItLooksAt() throws {
        let tree = tree("progress-one")
        let progress = PruneProgress()
        XCTAssertEqual(progress.snapshot.inspected, 0)
        // File by file (declared), so that every file is an entry.
        let report = try Pruner.prune(
            tree.path("c"), as: .plain, rules: PruneRules(maxSize: 1024), context: InspectionContext(),
            dryRun: true, progress: progress)
        let snapshot = progress.snapshot
        XCTAssertEqual(report.plan.entriesBefore, 200)
        XCTAssertGreaterThanOrEqual(snapshot.inspected, 200, "every entry was counted as it was walked")
        XCTAssertLessThanOrEqual(snapshot.inspected, 201, "nothing counted twice (the tag may be looked at)")
        XCTAssertTrue(snapshot.planning)
        XCTAssertEqual(snapshot.total, 0, "a dry run deletes nothing")
    }

    func testAFolderOfCachesCountsAcrossItsCaches() throws {
        let tree = tree("progress-folder")
        tree.file("c/1/CACHEDIR.TAG", contents: Array(CacheDirTag.contents.utf8))
        let progress = PruneProgress()
        _ = try Pruner.pruneAll(
            tree.path("c"), rules: PruneRules(maxSize: 1024), context: InspectionContext(),
            dryRun: true, progress: progress)
        XCTAssertGreaterThanOrEqual(progress.snapshot.inspected, 200)
        XCTAssertLessThanOrEqual(progress.snapshot.inspected, 203)
    }
}
