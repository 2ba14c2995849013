import CacheKit
import CacheKitSystem
import TestSupport
import XCTest

final class ByteCountTests: XCTestCase {
    /// `du -h` and `numfmt --to=iec --round=up` print the same forms; numfmt is the oracle.
    func testHumanSizesMatchCoreutils() throws {
        guard Run.available("numfmt") else { throw XCTSkip("numfmt not installed") }
        let values: [Int64] = [
            0, 1, 512, 1023, 1024, 1025, 1536, 4096, 10_239, 10_240, 10_241, 102_400, 1_048_575,
            1_048_576, 5_000_000, 999_999_999, 1_073_741_824, 123_456_789_012, 1 << 50
        ]
        let oracle = Run.command(["numfmt", "--to=iec", "--round=up"] + values.map(String.init)).out.split(
            separator: "\n"
        ).map(String.init)
        XCTAssertEqual(values.map { ByteCount.human($0) }, oracle)
        // --si: powers of 1000, kilo as `k` (numfmt writes `K`; du --si writes `k`).
        let si = Run.command(["numfmt", "--to=si", "--round=up"] + values.map(String.init)).out.split(separator: "\n")
            .map { $0.replacingOccurrences(of: "K", with: "k") }
        XCTAssertEqual(values.map { ByteCount.human($0, base: 1000) }, si)
    }
}

final class RawPathTests: XCTestCase {
    func testQuotedEscapesControlsAndInvalidBytes() {
        XCTAssertEqual(RawPath("plain/path").quoted, "'plain/path'")
        XCTAssertEqual(RawPath(bytes: Array("a\nb".utf8)).quoted, "'a\\x0ab'")
        XCTAssertEqual(RawPath(bytes: [0x63, 0xE9]).quoted, "'c\\xe9'")
        XCTAssertEqual(RawPath("café").quoted, "'café'")
        XCTAssertEqual(RawPath("it's").quoted, "'it'\\''s'")
    }

    func testAppendingDoesNotDoubleSlashes() {
        XCTAssertEqual(RawPath("a/").appending("b"), RawPath("a/b"))
        XCTAssertEqual(RawPath("a").appending("b"), RawPath("a/b"))
    }
}

final class CacheLocationsTests: XCTestCase {
    func testDefaultRootFollowsXDGThenHome() {
        #if os(Linux)
            XCTAssertEqual(
                CacheLocations.defaultRoot(environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/u"]),
                RawPath("/x/cache"))
            XCTAssertEqual(CacheLocations.defaultRoot(environment: ["HOME": "/home/u"]), RawPath("/home/u/.cache"))
            XCTAssertEqual(
                CacheLocations.defaultRoot(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/home/u"]),
                RawPath("/home/u/.cache"),
                "the XDG spec says a relative value is ignored")
        #else
            XCTAssertEqual(
                CacheLocations.defaultRoot(environment: ["HOME": "/Users/u"]), RawPath("/Users/u/Library/Caches"))
        #endif
    }

    func testCacheDirTagSignature() {
        let tree = TestTree("tag")
        tree.file("yes/CACHEDIR.TAG", contents: Array(CacheDirTag.contents.utf8))
        tree.file("short/CACHEDIR.TAG", contents: Array("Signature: 8a477f".utf8))
        XCTAssertTrue(CacheDirTag.isTagged(tree.path("yes")))
        XCTAssertFalse(CacheDirTag.isTagged(tree.path("short")))
        XCTAssertFalse(CacheDirTag.isTagged(tree.path("none")))
    }
}

/// `Deleter.removeOwnFile`: a temporary file is unlinked only while its name is still the file
/// that was made.
final class RemoveOwnFileTests: XCTestCase {
    func testOnlyTheFileThatWasMadeIsUnlinked() throws {
        let tree = TestTree("own-file")
        tree.file("dir/made", size: 10)
        tree.file("dir/other", size: 20)
        guard case .success(let anchor) = AnchoredDirectory.open(tree.path("dir")),
            case .success(let made) = Sys.stat(path: tree.path("dir/made"))
        else { return XCTFail("cannot open the fixture") }
        // The name now holds another file: kept.
        XCTAssertEqual(
            Run.command(["mv", tree.path("dir/other").description, tree.path("dir/made").description]).status, 0)
        XCTAssertEqual(Deleter.removeOwnFile(Array("made".utf8), in: anchor.descriptor, identity: made), .changed)
        XCTAssertTrue(tree.path("dir/made").exists)
        // The file itself: removed; then gone.
        guard case .success(let now) = Sys.stat(path: tree.path("dir/made")) else { return XCTFail("stat") }
        XCTAssertEqual(Deleter.removeOwnFile(Array("made".utf8), in: anchor.descriptor, identity: now), .removed)
        XCTAssertFalse(tree.path("dir/made").exists)
        XCTAssertEqual(Deleter.removeOwnFile(Array("made".utf8), in: anchor.descriptor, identity: now), .vanished)
    }
}

/// Trees deeper than PATH_MAX, and deeper than recursion fits on a thread's stack (anyone who
/// can write in a cache can make one): opened, listed and emptied without recursion, never
/// through a symlink.
final class DeepTreeTests: XCTestCase {
    private let level = String(repeating: "d", count: 50)

    private func chain(_ levels: Int) -> String {
        let parts: [String] = Array(repeating: level, count: levels)
        return parts.joined(separator: "/") as String
    }

    /// Runs the Python `statement` with `fd` open on the directory `relative` below `root`,
    /// reached a level at a time (the path may be longer than PATH_MAX); `arguments` follow
    /// as sys.argv[3...]. Returns the exit status.
    private func inDirectory(_ root: RawPath, _ relative: String, _ statement: String, _ arguments: String...)
        -> Int32
    {
        let script = """
            import os, sys
            fd = os.open(sys.argv[1], os.O_RDONLY)
            for part in sys.argv[2].split("/"):
                fd = os.open(part, os.O_RDONLY, dir_fd=fd)
            \(statement)
            """
        return Run.command(["python3", "-c", script, root.description, relative] + arguments).status
    }

    /// A path of 120 × 51 bytes opens a part at a time (it failed with ENAMETOOLONG), and a
    /// symlink past the first part is still refused.
    func testPathsLongerThanPathMaxOpenButNeverThroughASymlink() throws {
        let tree = TestTree("long-path")
        defer { tree.remove() }
        tree.deepChain("chain", levels: 120)
        tree.file("outside/victim", size: 10)
        tree.deepChain("linked", levels: 90)
        let bottom = chain(90)
        XCTAssertEqual(
            inDirectory(
                tree.path("linked"), bottom, "os.symlink(sys.argv[3], 'link', dir_fd=fd)",
                tree.path("outside").description), 0)
        guard case .success(let top) = AnchoredDirectory.open(tree.path("chain")),
            case .success(let linked) = AnchoredDirectory.open(tree.path("linked"))
        else { return XCTFail("cannot open the fixture") }
        let long = Array((chain(120) + "/bottom.bin").utf8)
        XCTAssertGreaterThan(long.count, Int(PATH_MAX))
        guard case .success(let file) = top.open(long, O_RDONLY), case .success(let st) = Sys.fstat(file.raw) else {
            return XCTFail("a path longer than PATH_MAX did not open")
        }
        XCTAssertEqual(st.size, 5000)
        XCTAssertGreaterThan(bottom.utf8.count, Int(PATH_MAX))
        guard case .failure = linked.open(Array((bottom + "/link/victim").utf8), O_RDONLY) else {
            return XCTFail("opened a file through a symlink past PATH_MAX")
        }
    }

    /// Deep directories a deleter's cache opens from checkpoints on the way are the very ones
    /// the whole path names, going up the chain as an emptying does; a symlink swapped in
    /// below the deepest checkpoint is refused, not followed.
    func testDeepDirectoriesFromCheckpointsAreTheOnesNamedAndNeverThroughASymlink() throws {
        let tree = TestTree("checkpoints")
        defer { tree.remove() }
        tree.deepChain("chain", levels: 200)
        tree.deepChain("outside", levels: 20)
        guard case .success(let anchor) = AnchoredDirectory.open(tree.path("chain")) else {
            return XCTFail("cannot open the fixture")
        }
        let cache = DirectoryCache(anchor)
        for levels in stride(from: 200, through: 1, by: -1) {
            let relative = Array(chain(levels).utf8)
            guard case .success(let fromCache) = cache.directory(relative),
                case .success(let a) = Sys.fstat(fromCache.raw),
                case .success(let whole) = anchor.openDirectory(relative), case .success(let b) = Sys.fstat(whole.raw)
            else { return XCTFail("level \(levels) did not open") }
            XCTAssertEqual([a.device, a.inode], [b.device, b.inode], "level \(levels)")
        }
        _ = cache.directory(Array(chain(200).utf8))
        // Level 190 becomes a symlink to a chain outside, between the checkpoints (20 levels
        // apart) on the way to level 200.
        XCTAssertEqual(
            inDirectory(
                tree.path("chain"), chain(189),
                "os.rename(sys.argv[3], 'moved', src_dir_fd=fd, dst_dir_fd=fd); "
                    + "os.symlink(sys.argv[4], sys.argv[3], dir_fd=fd)",
                level, tree.path("outside").description), 0)
        guard case .failure = cache.directory(Array(chain(195).utf8)) else {
            return XCTFail("opened a deep directory through a symlink")
        }
    }

    /// A chain 12,000 levels deep: every file listed, then everything removed (both died of a
    /// stack overflow before).
    func testTwelveThousandLevelsAreListedAndEmptied() throws {
        let tree = TestTree("deep-tree")
        defer { tree.remove() }
        tree.deepChain("chain", levels: 12_000, fileSize: 10, name: "d")
        guard case .success(let anchor) = AnchoredDirectory.open(tree.path("chain")) else {
            return XCTFail("cannot open the fixture")
        }
        let files = FileTree.files(in: anchor)
        XCTAssertEqual(files.map(\.relative.count), [12_000 * 2 + "bottom.bin".utf8.count])
        XCTAssertEqual(files.first?.apparentBytes, 10)
        XCTAssertEqual(Deleter(anchor).removeContents(of: []).count, 0)
        XCTAssertEqual(FileTree.names(in: anchor), [])
    }
}
