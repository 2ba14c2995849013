import CacheKit
import TestSupport
import XCTest

/// After its files go, a prune removes the directories it left empty, from the deepest up,
/// several threads to a large level; and a plain folder's walk still finds the caches with an
/// index of their own inside it when it looks for their marker files in its listings.
final class PruneSweepTests: XCTestCase {
    private let old = Int(Date().timeIntervalSince1970) - 400 * 86_400

    func testEmptiedDirectoriesGoLevelByLevelAndNothingElse() throws {
        let tree = TestTree("prune-sweep")
        tree.file("c/CACHEDIR.TAG", contents: Array(CacheDirTag.contents.utf8))
        // 2,400 leaf directories at one level (eight threads share it), below 24 and 3 more.
        for i in 0..<2400 {
            let name = "c/a\(i % 3)/b\(i % 24)/leaf\(i)/f"
            tree.file(name, size: 10)
            tree.setModified(name, secondsSinceEpoch: old)
        }
        // A nested cache with its own index is not entered: its directories stay.
        tree.file(
            "c/a0/keep/Downloads/CachedDownloads.dic",
            contents: Array(#"<?xml version="1.0"?><plist version="1.0"><dict/></plist>"#.utf8))
        // An empty directory no deletion touched stays.
        tree.dir("c/a1/never-used")
        // File by file (declared): every file is an entry, and the sweep has 2,400 folders to go.
        let report = try Pruner.prune(
            tree.path("c"), as: .plain, rules: PruneRules(maxSize: 1), context: InspectionContext(), dryRun: false)
        let outcome = try XCTUnwrap(report.outcome)
        XCTAssertEqual(outcome.removed.count, 2400)
        XCTAssertTrue(outcome.failures.isEmpty, "\(outcome.failures)")
        let left = Run.command(["find", tree.path("c").description, "-mindepth", "1"]).out
            .split(separator: "\n").map { String($0.dropFirst(tree.path("c").description.count + 1)) }.sorted()
        XCTAssertEqual(
            left,
            [
                "CACHEDIR.TAG", "a0", "a0/keep", "a0/keep/Downloads", "a0/keep/Downloads/CachedDownloads.dic", "a1",
                "a1/never-used"
            ])
    }

    func testIndexedCachesAreFoundDeepInAPlainFolder() throws {
        let tree = TestTree("prune-nested")
        tree.file("c/CACHEDIR.TAG", contents: Array(CacheDirTag.contents.utf8))
        tree.file(
            "c/x/plist/CachedDownloads.dic",
            contents: Array(#"<?xml version="1.0"?><plist version="1.0"><dict/></plist>"#.utf8))
        tree.dir("c/x/y/npm/index-v5")
        tree.file("c/x/y/npm/content-v2/sha512/aa/bb", size: 10)
        var magic = [UInt8](repeating: 0, count: 16)
        withUnsafeBytes(of: UInt64(0xfcfb_6d1b_a772_5c30).littleEndian) { magic.replaceSubrange(0..<8, with: $0) }
        tree.file("c/x/y/z/chromium/index", contents: magic)
        tree.file("c/x/y/z/chromium/0123456789abcdef_0", size: 10)
        // A file named like a marker is not a cache by its name alone.
        tree.file("c/x/not-chromium/index", size: 8)
        tree.file("c/x/not-npm/index-v5", size: 8)
        let entries = try CacheFormats.open(tree.path("c"), as: .plain).entries(InspectionContext())
        let outside = entries.filter { $0.state == .outside }.map { $0.path.description }.sorted()
        XCTAssertEqual(outside, ["c/x/plist", "c/x/y/npm", "c/x/y/z/chromium"].map { tree.path($0).description })
        let files = Set(entries.filter { $0.state != .outside }.map { $0.path.description })
        XCTAssertTrue(files.contains(tree.path("c/x/not-chromium/index").description), "\(files)")
        XCTAssertTrue(files.contains(tree.path("c/x/not-npm/index-v5").description), "\(files)")
    }
}
