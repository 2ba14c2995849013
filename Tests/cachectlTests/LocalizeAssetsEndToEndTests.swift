import Foundation
import TestSupport
import XCTest

/// `localize --assets` as the system sees it (strace, a tmpfs in a private mount namespace):
/// what a saved page points at is on disk before the page is, copies on another file system
/// are written by the kernel and flushed once, and a copy that does not fit leaves nothing.
final class LocalizeAssetsEndToEndTests: XCTestCase {
    /// A store holding a.png (the small test image) and big.png (64 KB), and a page showing both.
    private func fixture() -> (TestTree, String) {
        let tree = TestTree("assets-e2e")
        let store = tree.path("store").description
        tree.file("a.png", contents: Images.png)
        tree.file("big.png", contents: Images.png + [UInt8](repeating: 7, count: 64 << 10))
        for name in ["a.png", "big.png"] {
            let put = Binary.run(["put", "http://fakehost/\(name)", tree.path(name).description, "--cache", store])
            XCTAssertEqual(put.status, 0, put.err)
        }
        tree.file("site/page.html", contents: Array("<img src=\"/a.png\"><img src=\"/big.png\">\n".utf8))
        return (tree, store)
    }

    private static let base = ["--base-url", "http://fakehost/page.html"]

    /// The lines strace wrote to `file`.
    private func traceLines(_ file: String) -> [String] {
        ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Before the page is renamed into place, the folder its images were linked into is
    /// flushed (the new names): a crash cannot leave the page pointing at names that are not
    /// on disk. Fails before the folder was flushed (no fsync of it at all).
    func testLinkedAssetsAreFlushedBeforeThePage() throws {
        guard Run.available("strace") else { throw XCTSkip("needs strace (Scripts/test-deps installs it)") }
        let (tree, store) = fixture()
        let trace = tree.path("trace").description
        let run = Run.command(
            [
                "strace", "-f", "-y", "-qq", "-e", "trace=fsync,fdatasync,syncfs,rename,renameat,renameat2",
                "-o", trace, Binary.path, "localize", tree.path("site/page.html").description,
                "--output-dir", tree.path("saved").description, "--cache", store
            ] + Self.base)
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(run.err.contains("2 files in") && run.err.contains("2 hard links"), run.err)
        let lines = traceLines(trace)
        let folder = tree.path("saved/page_files").description
        let flushed = lines.firstIndex {
            ($0.contains("fsync(") || $0.contains("syncfs(")) && $0.contains(folder + ">")
        }
        let committed = lines.firstIndex { $0.contains("rename") && $0.contains("\"page.html\")") }
        XCTAssertNotNil(committed, lines.joined(separator: "\n"))
        XCTAssertNotNil(flushed, "the assets folder is never flushed:\n" + lines.joined(separator: "\n"))
        if let flushed, let committed { XCTAssertLessThan(flushed, committed, lines.joined(separator: "\n")) }
    }

    /// Assets on another file system (a tmpfs) are copies, made by the kernel and flushed by
    /// one `syncfs` of that file system before the page is committed, not an fsync each
    /// (which made 18,000 images take 11.4 s instead of cp's 0.7 s); run again, the same
    /// copies are found and kept. Fails before: each copy was fsynced on its own.
    func testCopiesOnAnotherFileSystemAreFlushedOnceAndKept() throws {
        guard Privilege.isRoot, Run.available("unshare"), Run.available("strace") else {
            throw XCTSkip("needs root, unshare and strace for a tmpfs in a private mount namespace")
        }
        let (tree, store) = fixture()
        tree.dir("other")
        let other = tree.path("other").description
        let trace = tree.path("trace").description
        let localize =
            "strace -f -y -qq -e trace=fsync,fdatasync,syncfs,rename,renameat,renameat2 -o \"$TRACE\" "
            + "'\(Binary.path)' localize '\(tree.path("site/page.html").description)' -o '\(other)/page.html' "
            + "--assets '\(other)/files' --cache '\(store)' --base-url http://fakehost/page.html"
        let script =
            "mount -t tmpfs tmpfs '\(other)' || exit 77; TRACE='\(trace)'; \(localize) || exit 1; "
            + "TRACE='\(trace)2'; \(localize) 2>/dev/null || exit 1; "
            + "stat -c '%h %s %n' '\(other)'/files/*; cmp '\(other)/files/big.png' '\(tree.path("big.png"))' || exit 1"
        let result = Run.command(["unshare", "-m", "sh", "-c", script])
        if result.status == 77 { throw XCTSkip("cannot mount a tmpfs here: \(result.err)") }
        XCTAssertEqual(result.status, 0, result.out + result.err)
        XCTAssertTrue(result.err.contains("2 files in") && result.err.contains("0 hard links"), result.err)
        XCTAssertTrue(result.err.contains("2 copies"), "the first run copies both: " + result.err)
        // Each copy is a file of its own (one link), and the second run made no "-2" copy.
        let files = result.out.split(separator: "\n").map(String.init)
        XCTAssertEqual(files.count, 2, result.out)
        XCTAssertTrue(files.allSatisfy { $0.hasPrefix("1 ") }, result.out)
        XCTAssertTrue(
            files.contains { $0.hasSuffix("/files/a.png") } && files.contains { $0.hasSuffix("/files/big.png") })
        // The first run's trace.
        let lines = traceLines(trace)
        let copies = lines.filter { ($0.contains("fsync(") || $0.contains("fdatasync(")) && $0.contains("/files/") }
        XCTAssertEqual(copies, [], "no copy is flushed on its own")
        let synced = lines.firstIndex { $0.contains("syncfs(") && $0.contains("/files>") }
        let committed = lines.lastIndex { $0.contains("rename") && $0.contains("\"page.html\")") }
        XCTAssertNotNil(synced, lines.joined(separator: "\n"))
        XCTAssertNotNil(committed, lines.joined(separator: "\n"))
        if let synced, let committed { XCTAssertLessThan(synced, committed, lines.joined(separator: "\n")) }
    }

    /// A copy that does not fit (a tmpfs of 8 KB, an image of 64 KB) leaves no file behind:
    /// the page points into the cache for that image, and the small one is copied.
    func testACopyThatDoesNotFitLeavesNoPartialFile() throws {
        guard Privilege.isRoot, Run.available("unshare") else {
            throw XCTSkip("needs root and unshare for a tmpfs in a private mount namespace")
        }
        let (tree, store) = fixture()
        tree.dir("small")
        let small = tree.path("small").description
        let script =
            "mount -t tmpfs -o size=8k tmpfs '\(small)' || exit 77; "
            + "'\(Binary.path)' localize '\(tree.path("site/page.html").description)' --assets '\(small)/files' "
            + "--cache '\(store)' --base-url http://fakehost/page.html || exit 1; ls -A '\(small)/files' >&2"
        let result = Run.command(["unshare", "-m", "sh", "-c", script])
        if result.status == 77 { throw XCTSkip("cannot mount a tmpfs here: \(result.err)") }
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(
            result.out.contains("src=\"\(small)/files/a.png\"") || result.out.contains("files/a.png"), result.out)
        XCTAssertTrue(result.out.contains("store/objects/"), "big.png stays the cache's: " + result.out)
        XCTAssertTrue(result.err.hasSuffix("a.png\n"), "only a.png is in the folder: " + result.err)
        XCTAssertTrue(result.err.contains("1 files in"), result.err)
    }

    /// On a file system that clones (btrfs, in a loop file in a private mount namespace), the
    /// assets are clones of the cache's bodies: files of their own (one link each: editing one
    /// cannot change the cache), whose blocks are shared (filefrag says `shared`). Fails
    /// before: they were hard links to the cache's files.
    func testAssetsAreClonesWhereTheFileSystemCanMakeThem() throws {
        guard Privilege.isRoot, Run.available("unshare"), Run.available("mkfs.btrfs"), Run.available("filefrag")
        else { throw XCTSkip("needs root, unshare, mkfs.btrfs (Scripts/test-deps) and filefrag") }
        let (tree, _) = fixture()
        tree.dir("mnt")
        let mnt = tree.path("mnt").description
        let image = tree.path("btrfs.img").description
        let script = """
            truncate -s 256M '\(image)' && mkfs.btrfs -q '\(image)' >/dev/null 2>&1 || exit 77
            mount -o loop '\(image)' '\(mnt)' 2>/dev/null || exit 77
            cd '\(mnt)' && cp '\(tree.path("a.png"))' '\(tree.path("big.png"))' '\(mnt)/' || exit 1
            for n in a big; do
              '\(Binary.path)' put http://fakehost/$n.png $n.png --cache store >/dev/null || exit 1
            done
            printf '<img src="/a.png"><img src="/big.png">\\n' > page.html
            '\(Binary.path)' localize page.html --output-dir saved --cache store --base-url http://fakehost/page.html \\
              || exit 1
            stat -c '%h %n' saved/page_files/*; filefrag -v saved/page_files/big.png | grep -c shared
            cmp saved/page_files/big.png big.png || exit 1
            """
        let result = Run.command(["unshare", "-m", "sh", "-c", script])
        if result.status == 77 { throw XCTSkip("cannot make and mount a btrfs file system here: \(result.err)") }
        XCTAssertEqual(result.status, 0, result.out + result.err)
        XCTAssertTrue(
            result.err.contains("2 files in saved/page_files (2 clones sharing the cache's blocks, 0 hard links"),
            result.err)
        XCTAssertEqual(result.out, "1 saved/page_files/a.png\n1 saved/page_files/big.png\n1\n", result.err)
    }

    /// A stylesheet with many references (`--styles`): the store is opened once a pass, its
    /// rows read ahead in one query, and the hits recorded in one transaction. It was opened
    /// (format detected, index connected and checked) for every reference, and each hit was a
    /// transaction with its own flush: a sheet of 20,000 `url()`s took 26 s, 2,000 cached
    /// ones 1.6 s (0.56 s and 0.31 s now). Fails before: 808 opens of the index, 104 flushes
    /// of it, the hits at 101 times.
    func testASheetsReferencesCostOneOpeningAndOneFlush() throws {
        guard Run.available("strace") else { throw XCTSkip("needs strace (Scripts/test-deps installs it)") }
        let tree = TestTree("styles-e2e")
        let store = tree.path("store").description
        tree.file("a.png", contents: Images.png)
        var css = ""
        for i in 0..<400 {
            css += "p\(i) { background: url(i\(i).png) }\n"
            guard i < 100 else { continue }
            let put = Binary.run(["put", "http://fakehost/i\(i).png", tree.path("a.png").description, "--cache", store])
            XCTAssertEqual(put.status, 0, put.err)
        }
        tree.file("s.css", contents: Array(css.utf8))
        let put = Binary.run(["put", "http://fakehost/s.css", tree.path("s.css").description, "--cache", store])
        XCTAssertEqual(put.status, 0, put.err)
        tree.file("site/page.html", contents: Array("<link rel=stylesheet href=\"/s.css\">\n".utf8))
        let trace = tree.path("trace").description
        let run = Run.command(
            [
                "strace", "-f", "-y", "-qq", "-e", "trace=openat,openat2,fsync,fdatasync,syncfs", "-o", trace,
                Binary.path, "localize", tree.path("site/page.html").description, "--output-dir",
                tree.path("saved").description, "--cache", store, "--styles"
            ] + Self.base)
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(run.err.contains("1 stylesheet saved, 100 of their references local, 300 missing"), run.err)
        let lines = traceLines(trace)
        let opens = lines.filter { $0.contains("open") && $0.contains("index.sqlite\"") && !$0.contains("= -1") }
        let flushes = lines.filter { $0.contains("sync(") && $0.contains("index.sqlite") }
        // The page's own lookup, the pass over the sheets, the pins: a few each, not one per reference.
        XCTAssertLessThanOrEqual(opens.count, 10, opens.joined(separator: "\n"))
        XCTAssertLessThanOrEqual(flushes.count, 12, flushes.joined(separator: "\n"))
        let index = Run.command(["sqlite3", store + "/index.sqlite", "SELECT count(DISTINCT last_access) FROM entries"])
        // Every entry was a hit (the sheet and its 100 images), recorded in one transaction.
        if index.status == 0 { XCTAssertEqual(index.out, "1\n", "hits recorded at one time") }
    }
}
