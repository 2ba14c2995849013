import CacheKit
import Foundation
import TestSupport
import XCTest

/// `cachectl localize` through the built binary: outputs, permissions, exit codes, JSON.
final class LocalizeEndToEndTests: XCTestCase {
    static let moved = " (the output is not at the page's URL: other relative references made absolute)"
    /// A 13 KB paragraph of character references and text, which libxml2 decodes one by one
    /// (about 17 ms a MB in a debug build here) and the scan steps over.
    static let referencesParagraph = "<p>" + String(repeating: "&#120; &amp;y", count: 1000) + "</p>\n"

    /// A store (`store` in `tree`) holding a PNG under `url` (for `expires`, as `put` takes
    /// it); its path.
    private func store(_ tree: TestTree, holding url: String, expires: String? = nil) -> String {
        let store = tree.path("store").description
        tree.file("img.png", contents: Images.png)
        let lifetime = expires.map { ["--expires", $0] } ?? []
        XCTAssertEqual(
            Binary.run(["put", url, tree.path("img.png").description, "--cache", store] + lifetime).status, 0)
        return store
    }

    private func fixture() -> (TestTree, String) {
        let tree = TestTree("loc-e2e")
        let store = tree.path("store").description
        tree.file("img.png", contents: Images.png)
        XCTAssertEqual(
            Binary.run(["put", "http://fakehost/a.png", tree.path("img.png").description, "--cache", store]).status, 0)
        tree.file("site/page.html", contents: Array("<p>x</p><img src=\"/a.png\"><img src=\"/b.png\">\n".utf8))
        tree.chmod("site/page.html", 0o640)
        return (tree, store)
    }

    func testStdoutOutputFileOutputDirAndInPlace() throws {
        let (tree, store) = fixture()
        let page = tree.path("site/page.html").description
        let base = ["--cache", store, "--base-url", "http://fakehost/test/page.html"]

        let stdout = Binary.run(["localize", page] + base)
        XCTAssertEqual(stdout.status, 0, stdout.err)
        XCTAssertTrue(stdout.out.hasPrefix("<p>x</p><img src=\"../store/objects/"), stdout.out)
        // The page's URL is remote (--base-url): what stays remote is made absolute against it.
        XCTAssertTrue(stdout.out.hasSuffix("<img src=\"http://fakehost/b.png\">\n"), stdout.out)
        XCTAssertEqual(stdout.err, "cachectl: \(page): 1 rewritten, 1 missing, 0 stale, 0 skipped" + Self.moved + "\n")

        // `-o -` is stdout too (as `-` is stdin): the same page, no file named `-` (it was).
        tree.dir("cwd")
        let dash = Run.command([
            "sh", "-c",
            "cd '\(tree.path("cwd").description)' && exec '\(Binary.path)' localize '\(page)' -o - "
                + base.map { "'\($0)'" }.joined(separator: " ")
        ])
        XCTAssertEqual(dash.status, 0, dash.err)
        XCTAssertEqual(dash.out, stdout.out)
        XCTAssertFalse(tree.path("cwd/-").exists)

        let out = tree.path("elsewhere/deeper/out.html")
        tree.dir("elsewhere/deeper")
        XCTAssertEqual(Binary.run(["localize", page, "-o", out.description] + base).status, 0)
        XCTAssertTrue(
            String(decoding: try FileIOProbe.read(out), as: UTF8.self).contains("src=\"../../store/objects/"),
            "relative to the output's directory")

        tree.dir("outdir")
        XCTAssertEqual(Binary.run(["localize", page, "--output-dir", tree.path("outdir").description] + base).status, 0)
        XCTAssertTrue(tree.path("outdir/page.html").exists)

        XCTAssertEqual(Binary.run(["localize", page, "--in-place"] + base).status, 0)
        XCTAssertTrue(
            String(decoding: try FileIOProbe.read(tree.path("site/page.html")), as: UTF8.self).contains(
                "../store/objects/"))
        XCTAssertEqual(FileIO.mode(of: tree.path("site/page.html")), 0o640, "permissions kept")
        XCTAssertEqual(
            Run.command(["sh", "-c", "ls '\(tree.path("site").description)'"]).out, "page.html\n",
            "no temporary file left")
    }

    /// The caches are opened while the first page is read: a cache that cannot be opened is
    /// still the one error reported, whether the page could be read or not, and nothing is
    /// written.
    func testACacheThatCannotBeOpenedIsReportedBeforeThePage() throws {
        let tree = TestTree("loc-e2e-order")
        tree.file("page.html", contents: Array("<img src=\"a.png\">".utf8))
        let missing = tree.path("no-cache").description
        let expected = "cachectl: cannot access '\(missing)': No such file or directory (no cache here)\n"
        for page in ["page.html", "missing.html"] {
            let run = Binary.run([
                "localize", tree.path(page).description, "--cache", missing, "-o", tree.path("out.html").description
            ])
            XCTAssertEqual(run.status, 1, page)
            XCTAssertEqual(run.err, expected, page)
            XCTAssertFalse(tree.path("out.html").exists, page)
        }
    }

    func testRequireAllJSONAndExitCodes() throws {
        let (tree, store) = fixture()
        let page = tree.path("site/page.html").description
        let base = ["--cache", store, "--base-url", "http://fakehost/test/page.html"]
        XCTAssertEqual(Binary.run(["localize", page, "--require-all"] + base).status, 1)
        let json = Binary.run(["localize", page, "-o", tree.path("o.html").description, "--json"] + base)
        XCTAssertEqual(json.status, 0)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout)) as? [String: Any])
        let refs = try XCTUnwrap((object["pages"] as? [[String: Any]])?.first?["references"] as? [[String: Any]])
        XCTAssertEqual(refs.map { $0["outcome"] as? String }, ["rewritten", "missing"])
        XCTAssertEqual(refs.first?["resolved"] as? String, "http://fakehost/a.png")
        XCTAssertEqual(refs.first?["offset"] as? Int, 18)
        XCTAssertEqual(refs.first?["length"] as? Int, 6)

        let missing = Binary.run(
            ["localize", tree.path("nope.html").description, "-o", tree.path("x.html").description] + base)
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(
            missing.err, "cachectl: cannot access \(tree.path("nope.html").quoted): No such file or directory\n")
        XCTAssertFalse(tree.path("x.html").exists, "no output for an input that could not be read")
        XCTAssertEqual(Binary.run(["localize", page, page] + base).status, 2, "several pages need an output directory")
        XCTAssertEqual(Binary.run(["localize", page, "-o", "a", "--in-place"] + base).status, 2)
        XCTAssertEqual(Binary.run(["localize", page, "--charset", "klingon"] + base).status, 2)

        // No --cache and no default store yet: every image is missing, not an error.
        let env = ["XDG_CACHE_HOME": tree.path("fresh-cache").description]
        let fresh = Binary.run(["localize", page, "--base-url", "http://fakehost/test/page.html"], environment: env)
        XCTAssertEqual(fresh.status, 0, fresh.err)
        XCTAssertEqual(fresh.out, "<p>x</p><img src=\"http://fakehost/a.png\"><img src=\"http://fakehost/b.png\">\n")
        XCTAssertEqual(
            fresh.err,
            """
            cachectl: default store \(tree.path("fresh-cache/cachectl").quoted) does not exist: nothing is cached \
            yet\n
            """
                + "cachectl: \(page): 0 rewritten, 2 missing, 0 stale, 0 skipped" + Self.moved + "\n")
        // Without --base-url the page's URL is its file's, and stdout output is taken to live
        // beside it: nothing changes.
        let beside = Binary.run(["localize", page], environment: env)
        XCTAssertEqual(beside.out, "<p>x</p><img src=\"/a.png\"><img src=\"/b.png\">\n")
        XCTAssertEqual(Binary.run(["localize", page, "--require-all"], environment: env).status, 1)
        XCTAssertFalse(tree.path("fresh-cache").exists)
    }

    func testPageWhoseBodyIsInTheCache() throws {
        let (tree, store) = fixture()
        tree.file("cached-page.html", contents: Array("<img src=\"a.png\">".utf8))
        XCTAssertEqual(
            Binary.run([
                "put", "http://fakehost/index.html", tree.path("cached-page.html").description, "--cache", store
            ]).status, 0)
        tree.dir("o")
        let result = Binary.run([
            "localize", "http://fakehost/index.html", "--cache", store, "-o", tree.path("o/index.html").description
        ])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(
            String(decoding: try FileIOProbe.read(tree.path("o/index.html")), as: UTF8.self).hasPrefix(
                "<img src=\"../store/objects/"))
    }

    /// A page whose cached copy has expired is refused, and taken with `--allow-stale` (the
    /// flag was ignored for the page itself: the message told the user to give it, and it
    /// failed again).
    func testAllowStaleTakesAnExpiredCachedPage() throws {
        let (tree, store) = fixture()
        tree.file("cached-page.html", contents: Array("<img src=\"a.png\">".utf8))
        let put = Binary.run([
            "put", "http://fakehost/old.html", tree.path("cached-page.html").description, "--cache", store,
            "--expires", "1s"
        ])
        XCTAssertEqual(put.status, 0, put.err)
        sleep(2)
        let args = ["localize", "http://fakehost/old.html", "--cache", store, "-o", tree.path("old.html").description]
        let refused = Binary.run(args)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.err.contains("use --allow-stale to accept it"), refused.err)
        let taken = Binary.run(args + ["--allow-stale"])
        XCTAssertEqual(taken.status, 0, taken.err)
        XCTAssertTrue(
            String(decoding: try FileIOProbe.read(tree.path("old.html")), as: UTF8.self).hasPrefix(
                "<img src=\"store/objects/"))
    }

    func testHundredMegabytePageIsHandledWithoutPartialOutput() throws {
        let (tree, store) = fixture()
        let big = tree.path("big.html")
        // 100 MB: filler paragraphs with an image every so often.
        let script =
            """
            python3 -c \"import sys; chunk = '<p>' + 'x' * 9990 + '</p>\\n'; f = open(sys.argv[1], 'w'); \
            [f.write(chunk + ('<img src=/a.png>' if i % 1000 == 0 else '')) for i in range(10000)]\" \
            '\(big.description)'
            """
        XCTAssertEqual(Run.command(["sh", "-c", script]).status, 0)
        let out = tree.path("big-out.html")
        let result = Binary.run([
            "localize", big.description, "--cache", store, "--base-url", "http://fakehost/", "-o", out.description
        ])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.err.contains(": 10 rewritten"), result.err)
    }

    /// A large page's output is written early, while libxml2 parses (its unchanged bytes),
    /// then completed: the file is what stdout gets, and until the end the old output stays
    /// whole (a crash after the early write leaves it as it was).
    func testOutputWrittenEarlyIsCompletedOrLeavesTheOldOne() throws {
        let (tree, store) = fixture()
        // 17 MB of long paragraphs (text full of character references, which libxml2 decodes
        // one by one and the scan skips: the parse is still running long after the scan is
        // done, debug builds too; with plain text the scan was done about 5 ms sooner, and a
        // loaded machine once lost that race), a cached image at the start, the middle and
        // the end (the early bytes are cut at the first one), and a page without any.
        let paragraph = Self.referencesParagraph
        func paragraphs(_ count: Int) -> String { String(repeating: paragraph, count: count) }
        let img = "<img src=/a.png>"
        let big = tree.file(
            "big.html", contents: Array((paragraphs(3) + img + paragraphs(650) + img + paragraphs(650) + img).utf8))
        tree.file("plain.html", contents: Array(paragraphs(1300).utf8))
        let base = ["--cache", store, "--base-url", "http://fakehost/x/page.html"]
        for page in [big, tree.path("plain.html")] {
            let out = tree.file("out/page.html", contents: Array("the old output".utf8))
            let killed = Binary.run(
                ["localize", page.description, "-o", out.description] + base,
                environment: ["CACHECTL_CRASH_AT": "localize.afterEarlyWrite"])
            XCTAssertEqual(killed.status, 128 + 9, "the early write happened: \(killed.err)")
            XCTAssertEqual(try FileIOProbe.read(out), Array("the old output".utf8), "the old output, whole")
            let folder = tree.path("out").description
            XCTAssertEqual(
                Run.command(["sh", "-c", "ls '\(folder)' | sed 's/^put-.*\\.part$/put-….part/'"]).out,
                "page.html\nput-….part\n", "the early bytes went to a temporary file beside it")
            XCTAssertEqual(Run.command(["sh", "-c", "rm '\(folder)'/put-*.part"]).status, 0)

            // file:// references: the same wherever the output goes.
            let written = Binary.run(["localize", page.description, "-o", out.description, "--absolute"] + base)
            XCTAssertEqual(written.status, 0, written.err)
            let stdout = Binary.run(["localize", page.description, "--absolute"] + base)
            XCTAssertEqual(stdout.status, 0, stdout.err)
            XCTAssertTrue(try FileIOProbe.read(out) == stdout.stdout, "the file is the output, byte for byte")
            XCTAssertEqual(Run.command(["sh", "-c", "ls '\(folder)'"]).out, "page.html\n", "no temporary file left")
        }
        XCTAssertTrue(
            Binary.run(["localize", big.description, "-o", tree.path("o.html").description] + base).err.contains(
                ": 3 rewritten"))
    }

    /// Ctrl-C while the output's early bytes wait in their temporary file removes it: the
    /// run ends by the signal (130) and leaves the old output alone beside nothing. The run
    /// is stopped right after the early write (CACHECTL_STOP_AT), interrupted, resumed.
    func testCtrlCAfterTheEarlyWriteLeavesNothingBesideTheOutput() throws {
        let (tree, store) = fixture()
        // Text full of character references: the parse is still running long after the scan
        // is done (see testOutputWrittenEarlyIsCompletedOrLeavesTheOldOne).
        let page = tree.file(
            "big.html",
            contents: Array((String(repeating: Self.referencesParagraph, count: 1300) + "<img src=/a.png>").utf8))
        let out = tree.file("out/page.html", contents: Array("the old output".utf8))
        let folder = tree.path("out").description
        // A script's background job starts with SIGINT ignored (and cachectl leaves an
        // ignored SIGINT ignored): `env --default-signal` gives it back its default.
        let script = """
            CACHECTL_STOP_AT=localize.afterEarlyWrite env --default-signal=INT '\(Binary.path)' localize \
              '\(page.description)' -o '\(out.description)' --cache '\(store)' \
              --base-url http://fakehost/x/page.html 2>/dev/null &
            pid=$!
            for i in $(seq 400); do [ "$(cut -d' ' -f3 /proc/$pid/stat)" = T ] && break; sleep 0.05; done
            ls '\(folder)' | sed 's/^put-.*\\.part$/put-….part/'
            kill -INT $pid; kill -CONT $pid; wait $pid; echo "status $?"
            ls '\(folder)'
            """
        let run = Run.command(["sh", "-c", script])
        XCTAssertEqual(run.out, "page.html\nput-….part\nstatus 130\npage.html\n", run.err)
        XCTAssertEqual(try FileIOProbe.read(out), Array("the old output".utf8))

        // Started with SIGINT ignored, it stays ignored: the run goes on and writes the page.
        let ignored = Run.command(["sh", "-c", script.replacingOccurrences(of: "env --default-signal=INT ", with: "")])
        XCTAssertEqual(ignored.out, "page.html\nput-….part\nstatus 0\npage.html\n", ignored.err)
        XCTAssertTrue(try FileIOProbe.read(out).starts(with: Array(Self.referencesParagraph.utf8)))
    }

    /// `--output-dir` is made when missing (a file in the way is refused); `-` reads the page
    /// from stdin.
    func testOutputDirIsMadeAndStdinIsAPage() throws {
        let (tree, store) = fixture()
        let page = tree.path("site/page.html").description
        let base = ["--cache", store, "--base-url", "http://fakehost/test/page.html"]
        let made = Binary.run(["localize", page, "--output-dir", tree.path("new/deeper").description] + base)
        XCTAssertEqual(made.status, 0, made.err)
        XCTAssertTrue(
            String(decoding: try FileIOProbe.read(tree.path("new/deeper/page.html")), as: UTF8.self).contains(
                "src=\"page_files/a.png\""))
        tree.file("blocker", contents: [])
        let blocked = Binary.run(["localize", page, "--output-dir", tree.path("blocker").description] + base)
        XCTAssertEqual(blocked.status, 1)
        XCTAssertTrue(blocked.err.contains("not a directory"), blocked.err)

        let input = Array("<img src=\"/a.png\"><img src=\"/b.png\">".utf8)
        let stdin = Run.bytes(
            [Binary.path, "localize", "-"].map { Array($0.utf8) } + base.map { Array($0.utf8) }, stdin: input)
        XCTAssertEqual(stdin.status, 0, stdin.err)
        XCTAssertTrue(stdin.out.hasPrefix("<img src=\"store/objects/") || stdin.out.contains("objects/"), stdin.out)
        XCTAssertTrue(stdin.out.hasSuffix("<img src=\"http://fakehost/b.png\">"), stdin.out)
        XCTAssertTrue(stdin.err.hasPrefix("cachectl: stdin: 1 rewritten, 1 missing"), stdin.err)
        XCTAssertEqual(Binary.run(["localize", "-", "-", "--output-dir", tree.path("x").description] + base).status, 2)
        XCTAssertEqual(Binary.run(["localize", "-", "--in-place"] + base).status, 2)
    }

    /// `--output-dir` gives two pages of one name two files (the second overwrote the
    /// first), and a page read from a cache by its URL a name as `wget -E` gives it: a URL
    /// ending in `/` is `index.html`, another name gets `.html` (`dir/` was saved as `dir`).
    func testOutputDirNamesEachPageOfARunApart() throws {
        let (tree, store) = fixture()
        tree.file("other/page.html", contents: Array("<p>other</p><img src=\"/a.png\">".utf8))
        tree.file("Other/PAGE.HTML", contents: Array("<p>third</p>".utf8))
        let saved = tree.path("saved").description
        let run = Binary.run(
            [
                "localize", tree.path("site/page.html").description, tree.path("other/page.html").description,
                tree.path("Other/PAGE.HTML").description, "--output-dir", saved, "--cache", store, "--base-url",
                "http://fakehost/test/page.html"
            ])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(run.err.contains("other/page.html: saved as page-2.html"), run.err)
        XCTAssertTrue(
            String(decoding: try FileIOProbe.read(tree.path("saved/page.html")), as: UTF8.self).hasPrefix("<p>x</p>"))
        let second = String(decoding: try FileIOProbe.read(tree.path("saved/page-2.html")), as: UTF8.self)
        XCTAssertTrue(second.hasPrefix("<p>other</p><img src=\"page-2_files/a.png\""), second)
        XCTAssertEqual(try FileIOProbe.read(tree.path("saved/PAGE-3.HTML")), Array("<p>third</p>".utf8))

        tree.file("dir.html", contents: Array("<p>dir</p>".utf8))
        tree.file("php.html", contents: Array("<p>php</p>".utf8))
        for (url, file) in [("http://fakehost/dir/", "dir.html"), ("http://fakehost/a/page.php?id=1", "php.html")] {
            XCTAssertEqual(Binary.run(["put", url, tree.path(file).description, "--cache", store]).status, 0)
        }
        let fromCache = Binary.run(
            [
                "localize", "http://fakehost/dir/", "http://fakehost/a/page.php?id=1", "--output-dir", saved, "--cache",
                store
            ])
        XCTAssertEqual(fromCache.status, 0, fromCache.err)
        XCTAssertEqual(try FileIOProbe.read(tree.path("saved/index.html")), Array("<p>dir</p>".utf8))
        XCTAssertEqual(try FileIOProbe.read(tree.path("saved/page.php.html")), Array("<p>php</p>".utf8))
    }

    /// A page that is a symlink is read through it (it was refused: "Too many levels of
    /// symbolic links"); `--in-place` rewrites the file it points at and keeps the link.
    func testASymlinkedPageIsReadAndReplacedWhereItLives() throws {
        let (tree, store) = fixture()
        tree.symlink(tree.path("site/page.html").description, at: "link.html")
        let base = ["--cache", store, "--base-url", "http://fakehost/test/page.html"]
        let out = Binary.run(
            ["localize", tree.path("link.html").description, "-o", tree.path("out.html").description] + base)
        XCTAssertEqual(out.status, 0, out.err)
        XCTAssertTrue(String(decoding: try FileIOProbe.read(tree.path("out.html")), as: UTF8.self).contains("objects/"))
        let inPlace = Binary.run(["localize", tree.path("link.html").description, "--in-place"] + base)
        XCTAssertEqual(inPlace.status, 0, inPlace.err)
        XCTAssertEqual(
            Run.command(["sh", "-c", "readlink '\(tree.path("link.html").description)'"]).out,
            tree.path("site/page.html").description + "\n", "the link stays a link")
        XCTAssertTrue(
            String(decoding: try FileIOProbe.read(tree.path("site/page.html")), as: UTF8.self).contains(
                "src=\"../store/objects/"), "the page it points at is localized, relative to where it lives")
        XCTAssertEqual(FileIO.mode(of: tree.path("site/page.html")), 0o640, "the page's permissions kept")
    }

    /// An `@import` in a `<style>` element is a stylesheet, not an image: it was pointed at
    /// the raw cached sheet, whose own relative `url()`s then led nowhere. Without --styles it
    /// stays remote (made absolute); with --styles it is saved as a linked sheet is.
    func testAStyleElementsImportIsSavedAsAStylesheet() throws {
        let tree = TestTree("loc-import")
        let store = tree.path("store").description
        tree.file("s.css", contents: Array("body { background: url(bg.png) }".utf8))
        tree.file("bg.png", contents: Images.png)
        for (url, file) in [("http://fakehost/css/s.css", "s.css"), ("http://fakehost/css/bg.png", "bg.png")] {
            XCTAssertEqual(Binary.run(["put", url, tree.path(file).description, "--cache", store]).status, 0)
        }
        tree.file("p.html", contents: Array("<style>@import url(css/s.css); @import 'css/s.css';</style>".utf8))
        let base = ["--cache", store, "--base-url", "http://fakehost/p.html"]
        tree.dir("plain")
        let plain = Binary.run(
            ["localize", tree.path("p.html").description, "-o", tree.path("plain/p.html").description] + base)
        XCTAssertEqual(plain.status, 0, plain.err)
        XCTAssertEqual(
            String(decoding: try FileIOProbe.read(tree.path("plain/p.html")), as: UTF8.self),
            "<style>@import url(http://fakehost/css/s.css); @import 'http://fakehost/css/s.css';</style>")
        tree.dir("styled")
        let styled = Binary.run(
            ["localize", tree.path("p.html").description, "-o", tree.path("styled/p.html").description, "--styles"]
                + base)
        XCTAssertEqual(styled.status, 0, styled.err)
        XCTAssertEqual(
            String(decoding: try FileIOProbe.read(tree.path("styled/p.html")), as: UTF8.self),
            "<style>@import url(p_files/s.css); @import 'p_files/s.css';</style>")
        XCTAssertEqual(
            String(decoding: try FileIOProbe.read(tree.path("styled/p_files/s.css")), as: UTF8.self),
            "body { background: url(bg.png) }")
        XCTAssertEqual(try FileIOProbe.read(tree.path("styled/p_files/bg.png")), Images.png)
    }

    /// Tags never closed nest as deep as the page is long. Both parsers' bookkeeping walked
    /// every open element at every tag: 100,000 nested `<div class=a>` took 8.4 GB and 26 s,
    /// 300,000 `<div>` 17 s of processor. Bounded by resources, not by the clock: the first
    /// page must fit in 1.5 GB of address space, the second in 15 s of processor time (the
    /// debug build takes about 1 s).
    func testDeeplyNestedTagsTakeLinearTimeAndMemory() throws {
        let tree = TestTree("loc-deep")
        let store = store(tree, holding: "http://fakehost/b.png")
        let tail = "<picture><source srcset=/a.png><img src=/a.png></picture>"
        tree.file(
            "attributes.html",
            contents: Array(("<body>" + String(repeating: "<div class=a>", count: 100_000) + tail).utf8))
        tree.file("bare.html", contents: Array(("<body>" + String(repeating: "<div>", count: 300_000) + tail).utf8))
        for (page, limit) in [("attributes.html", "ulimit -v 1500000"), ("bare.html", "ulimit -t 15")] {
            let run = Run.command([
                "sh", "-c",
                "\(limit); exec '\(Binary.path)' localize '\(tree.path(page).description)' --base-url http://fakehost/ "
                    + "--cache '\(store)' -o '\(tree.path("out.html").description)'"
            ])
            XCTAssertEqual(run.status, 0, page + ": " + String(run.err.suffix(500)))
            XCTAssertTrue(run.err.contains("0 rewritten, 2 missing"), page + ": " + String(run.err.suffix(500)))
        }
    }

    /// A page is read up to 1 GiB (it is parsed in memory, at 3 to 9 times its size): an
    /// endless stdin (`/dev/zero`) is refused once it has given more, a larger file without
    /// being read; each with a message naming it, exit 1, nothing written. Before, stdin was
    /// read until the memory ran out (SIGABRT in 3 GB of address space), and the file was
    /// read whole and localized.
    func testAPageLargerThanAGibibyteIsRefused() throws {
        let tree = TestTree("loc-huge")
        let store = store(tree, holding: "http://fakehost/b.png")
        let out = tree.path("out.html")
        let huge = tree.file("huge.html", contents: [])
        XCTAssertEqual(truncate(huge.description, off_t((1 << 30) + 1)), 0)
        for (input, shown) in [("- < /dev/zero", "'-'"), ("'\(huge.description)'", huge.quoted)] {
            let run = Run.command([
                "sh", "-c",
                "ulimit -v 3000000; exec '\(Binary.path)' localize \(input) --cache '\(store)' -o '\(out.description)'"
            ])
            XCTAssertEqual(run.status, 1, input + ": " + String(run.err.suffix(500)))
            XCTAssertTrue(
                run.err.contains("cannot read \(shown): larger than 1 GiB, the most a page may be"),
                input + ": " + String(run.err.suffix(500)))
            XCTAssertFalse(out.exists, input)
        }
    }

    /// `--base-url` takes any absolute URL, a `file:` one too (it had to have a host).
    func testAFileBaseURLIsTaken() throws {
        let (tree, store) = fixture()
        tree.dir("out")
        let run = Binary.run([
            "localize", tree.path("site/page.html").description, "--base-url", "file:///srv/www/page.html",
            "--cache", store, "-o", tree.path("out/page.html").description
        ])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(
            String(decoding: try FileIOProbe.read(tree.path("out/page.html")), as: UTF8.self).hasSuffix(
                "<img src=\"file:///b.png\">\n"))
        let bad = Binary.run(["localize", tree.path("site/page.html").description, "--base-url", "no/url"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.err.contains("--base-url: 'no/url' is not an absolute URL"), bad.err)
        let badPort = Binary.run(["localize", tree.path("site/page.html").description, "--base-url", "http://a:xx/"])
        XCTAssertEqual(badPort.status, 2)
        XCTAssertTrue(
            badPort.err.contains("--base-url: 'http://a:xx/' is not an absolute URL: its port 'xx' is not a number"),
            badPort.err)
    }

    /// Asset names keep letters of every script (`画像.png` became `file__.png`), make bytes
    /// that are not UTF-8 `_`, and differ in more than case (`A.png` and `a.png` were two files

    /// A relative `-o` into a folder that does not exist yet, made by the run (its assets
    /// folder inside it): the page's references lead to the assets and the store from where
    /// it lives. They were computed from the relative folder name, as if from `/`, and led
    /// nowhere (`../tmp/…/page_files/a.png`).
    func testAPageWrittenIntoAFolderTheRunMakesPointsAtItsImages() throws {
        let tree = TestTree("loc-new-folder")
        let store = store(tree, holding: "http://fakehost/a.png")
        tree.file("page.html", contents: Array("<img src=\"/a.png\"><img src=\"/a.png#x\">\n".utf8))
        let quoted = [Binary.path, "localize", "page.html", "--base-url", "http://fakehost/p.html", "--cache", store]
            .map { "'" + $0 + "'" }.joined(separator: " ")
        let run = Run.command([
            "sh", "-c",
            "cd '\(tree.root.description)' && \(quoted) -o new/page.html --assets new/page_files "
                + "&& \(quoted) -o new/pinned.html --no-assets"
        ])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertEqual(
            String(decoding: try FileIOProbe.read(tree.path("new/page.html")), as: UTF8.self),
            "<img src=\"page_files/a.png\"><img src=\"page_files/a.png#x\">\n")
        let pinned = String(decoding: try FileIOProbe.read(tree.path("new/pinned.html")), as: UTF8.self)
        XCTAssertTrue(pinned.hasPrefix("<img src=\"../store/objects/"), pinned)
    }

    /// An image that a `file:` URL names on this machine, as the page wrote it (`/abs/a.png`
    /// on a page read from disk) or as it resolves under `--base-url file:…`, is a local file:
    /// counted `local` and pointed at from where the output lives. Such images were counted
    /// `missing` (and `--require-all` failed on them).
    func testImagesThatAFileURLNamesAreLocal() throws {
        let tree = TestTree("loc-file-images")
        tree.file("site/img/a.png", contents: Images.png)
        tree.file("elsewhere/b.png", contents: Images.png)
        let absolute = tree.path("site/img/a.png").description
        tree.file(
            "site/page.html",
            contents: Array("<img src=\"\(absolute)\"><img src=\"b.png\"><img src=\"/no/such.png\">\n".utf8))
        let base = "file://" + tree.path("elsewhere/page.html").description
        let run = Binary.run([
            "localize", tree.path("site/page.html").description, "--base-url", base, "--cache",
            store(tree, holding: "http://fakehost/x.png"), "-o", tree.path("out.html").description, "--json"
        ])
        XCTAssertEqual(run.status, 0, run.err)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: Any])
        let refs = try XCTUnwrap((object["pages"] as? [[String: Any]])?.first?["references"] as? [[String: Any]])
        XCTAssertEqual(refs.map { $0["outcome"] as? String }, ["local", "local", "missing"], run.out)
        XCTAssertEqual(
            String(decoding: try FileIOProbe.read(tree.path("out.html")), as: UTF8.self),
            "<img src=\"site/img/a.png\"><img src=\"elsewhere/b.png\"><img src=\"file:///no/such.png\">\n")
    }
    /// that a case-blind file system, macOS's or a FAT stick, holds as one).
    func testAssetNamesAreReadableInEveryScriptAndUniqueWhateverTheCase() throws {
        let tree = TestTree("loc-names")
        let store = store(tree, holding: "http://fakehost/%E7%94%BB%E5%83%8F.png")
        for url in ["http://fakehost/x/A.png", "http://fakehost/y/a.png", "http://fakehost/a%E9b.png"] {
            XCTAssertEqual(Binary.run(["put", url, tree.path("img.png").description, "--cache", store]).status, 0)
        }
        tree.file(
            "page.html",
            contents: Array("<img src=/画像.png><img src=/x/A.png><img src=/y/a.png><img src=/a%E9b.png>".utf8))
        let run = Binary.run([
            "localize", tree.path("page.html").description, "--output-dir", tree.path("saved").description,
            "--cache", store, "--base-url", "http://fakehost/page.html"
        ])
        XCTAssertEqual(run.status, 0, run.err)
        let names = Run.command(["ls", tree.path("saved/page_files").description]).out.split(separator: "\n")
        XCTAssertEqual(names.sorted(), ["A.png", "a-2.png", "a_b.png", "画像.png"])
    }

    /// A page read by a URL with a password resolves its references with it, but the saved
    /// page does not keep it (its links carried the password in clear).
    func testAPasswordInThePagesURLIsNotWrittenIntoItsLinks() throws {
        let (tree, store) = fixture()
        tree.dir("out")
        for (page, expected) in [
            ("<a href=next.html>n</a>", "<a href=http://ann@fakehost/dir/next.html>n</a>"),
            (
                "<a href=next.html>n</a><base href=sub/>",
                "<a href=next.html>n</a><base href=http://ann@fakehost/dir/sub/>"
            )
        ] {
            tree.file("site/page.html", contents: Array(page.utf8))
            let run = Binary.run([
                "localize", tree.path("site/page.html").description, "-o", tree.path("out/page.html").description,
                "--cache", store, "--base-url", "http://ann:s3cret@fakehost/dir/page.html"
            ])
            XCTAssertEqual(run.status, 0, run.err)
            XCTAssertEqual(String(decoding: try FileIOProbe.read(tree.path("out/page.html")), as: UTF8.self), expected)
        }
    }

    /// Localizing a localized page again changes nothing: its local references are counted
    /// as local (so `--require-all` passes), and re-pointed when the output goes elsewhere.
    func testALocalizedPageLocalizedAgainIsUnchanged() throws {
        let (tree, store) = fixture()
        tree.file("site/one.html", contents: Array("<p>x</p><img src=\"/a.png\" srcset=\"/a.png 2x\">\n".utf8))
        let page = tree.path("site/one.html")
        let base = ["--cache", store, "--base-url", "http://fakehost/test/page.html"]
        let first = Binary.run(["localize", page.description, "--in-place"] + base)
        XCTAssertEqual(first.status, 0, first.err)
        let localized = try FileIOProbe.read(page)
        XCTAssertTrue(String(decoding: localized, as: UTF8.self).contains("../store/objects/"))

        let again = Binary.run(["localize", page.description, "--in-place", "--require-all"] + base)
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertEqual(
            again.err,
            "cachectl: \(page.description): 0 rewritten, 0 missing, 0 stale, 0 skipped, 2 local" + Self.moved + "\n")
        XCTAssertEqual(try FileIOProbe.read(page), localized, "not a byte changed")

        tree.dir("other/deep")
        let moved = Binary.run(
            ["localize", page.description, "-o", tree.path("other/deep/out.html").description, "--json"] + base)
        XCTAssertEqual(moved.status, 0, moved.err)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(moved.stdout)) as? [String: Any])
        let refs = try XCTUnwrap((object["pages"] as? [[String: Any]])?.first?["references"] as? [[String: Any]])
        XCTAssertEqual(refs.map { $0["outcome"] as? String }, ["local", "local"])
        let out = String(decoding: try FileIOProbe.read(tree.path("other/deep/out.html")), as: UTF8.self)
        XCTAssertTrue(out.contains("src=\"../../store/objects/"), out)
        XCTAssertTrue(out.contains("srcset=\"../../store/objects/"), out)
    }

    /// A refresh `<meta>`'s URL and `ping`'s list are references too: they stayed relative
    /// when the page moved, so the refresh went nowhere.
    func testRefreshAndPingURLsKeepTheirMeaningWhenThePageMoves() throws {
        let (tree, store) = fixture()
        let original =
            "<meta http-equiv=Refresh content=\"5; URL='next.html'\"><meta http-equiv=refresh content=\"0;later.html\">"
            + "<meta http-equiv=refresh content=\"30\"><meta name=x content=\"a.html\">"
            + "<a href=/x ping=\"/p1  p2 http://other.example/p3\">x</a>\n"
        tree.file("site/page.html", contents: Array(original.utf8))
        tree.dir("elsewhere")
        let run = Binary.run([
            "localize", tree.path("site/page.html").description, "-o", tree.path("elsewhere/out.html").description,
            "--cache", store, "--base-url", "http://fakehost/dir/page.html"
        ])
        XCTAssertEqual(run.status, 0, run.err)
        let out = String(decoding: try FileIOProbe.read(tree.path("elsewhere/out.html")), as: UTF8.self)
        XCTAssertEqual(
            out,
            "<meta http-equiv=Refresh content=\"5; URL='http://fakehost/dir/next.html'\">"
                + "<meta http-equiv=refresh content=\"0;http://fakehost/dir/later.html\">"
                + "<meta http-equiv=refresh content=\"30\"><meta name=x content=\"a.html\">"
                + "<a href=http://fakehost/x ping=\"http://fakehost/p1  http://fakehost/dir/p2 "
                + "http://other.example/p3\">x</a>\n")
    }

    /// Output that does not live at the page's URL: every relative reference not made local
    /// becomes absolute against the base (fragment-only ones stay), and nothing else changes.
    func testReferencesKeepTheirMeaningWhenThePageMoves() throws {
        let (tree, store) = fixture()
        let original =
            """
            <a href=\"../other.html\">o</a><link rel=stylesheet href=\"style.css\"><script \
            src=\"app.js?v=1\"></script>
            """
                + """
                <form action=\"/post\"></form><a href=\"#top\">t</a><img src=\"/a.png\"><img src=\"gone.png\" \
                srcset=\"gone2.png 2x\">\n
                """
        tree.file("site/page.html", contents: Array(original.utf8))
        let page = tree.path("site/page.html").description
        tree.dir("elsewhere")
        let run = Binary.run([
            "localize", page, "-o", tree.path("elsewhere/out.html").description, "--cache", store,
            "--base-url", "http://fakehost/dir/page.html"
        ])
        XCTAssertEqual(run.status, 0, run.err)
        let out = String(decoding: try FileIOProbe.read(tree.path("elsewhere/out.html")), as: UTF8.self)
        for expected in [
            "href=\"http://fakehost/other.html\"", "href=\"http://fakehost/dir/style.css\"",
            "src=\"http://fakehost/dir/app.js?v=1\"", "action=\"http://fakehost/post\"", "href=\"#top\"",
            "src=\"../store/objects/", "src=\"http://fakehost/dir/gone.png\"",
            "srcset=\"http://fakehost/dir/gone2.png 2x\""
        ] {
            XCTAssertTrue(out.contains(expected), "\(expected) in \(out)")
        }
        // Only the values changed: with every URL value blanked, the two pages are the same.
        func skeleton(_ html: String) -> String {
            html.replacingOccurrences(
                of: "(href|src|action|srcset)=\"[^\"]*\"", with: "$1=\"\"", options: .regularExpression)
        }
        XCTAssertEqual(skeleton(out), skeleton(original))

        // A file page written into another folder: absolute file: URLs to where it was.
        let moved = Binary.run(["localize", page, "-o", tree.path("elsewhere/file.html").description, "--cache", store])
        XCTAssertEqual(moved.status, 0, moved.err)
        let fileOut = String(decoding: try FileIOProbe.read(tree.path("elsewhere/file.html")), as: UTF8.self)
        XCTAssertTrue(fileOut.contains("href=\"file://\(tree.path("other.html").canonical.description)\""), fileOut)
        XCTAssertTrue(fileOut.contains("href=\"#top\""))
        // Beside the page, without a remote URL: nothing but the image changes.
        let beside = Binary.run(["localize", page, "-o", tree.path("site/beside.html").description, "--cache", store])
        XCTAssertEqual(beside.status, 0, beside.err)
        let besideOut = String(decoding: try FileIOProbe.read(tree.path("site/beside.html")), as: UTF8.self)
        XCTAssertTrue(besideOut.contains("href=\"../other.html\"") && besideOut.contains("src=\"gone.png\""), besideOut)
    }

    /// A relative reference to a file on disk reaches that file wherever the output is
    /// written. Before, a link kept as written named another file once the page was written
    /// into another folder (`doc.html` from `elsewhere/`); and under a `<base href>`, an
    /// image beside the page was counted `local` while the output still resolved it against
    /// the base (nothing was rewritten, so the base stayed).
    func testReferencesToFilesOnDiskReachThemWhenThePageMovesOrHasABase() throws {
        let tree = TestTree("loc-files-on-disk")
        let store = store(tree, holding: "http://fakehost/x.png")
        tree.file("site/doc.html", contents: Array("<p>doc</p>".utf8))
        tree.file("site/pic.png", contents: Images.png)
        tree.file(
            "site/page.html",
            contents: Array("<a href=\"doc.html#s\">d</a><img src=\"pic.png\"><a href=\"gone.html\">g</a>\n".utf8))
        tree.dir("elsewhere")
        let moved = Binary.run([
            "localize", tree.path("site/page.html").description, "-o", tree.path("elsewhere/out.html").description,
            "--cache", store
        ])
        XCTAssertEqual(moved.status, 0, moved.err)
        XCTAssertEqual(
            String(decoding: try FileIOProbe.read(tree.path("elsewhere/out.html")), as: UTF8.self),
            "<a href=\"../site/doc.html#s\">d</a><img src=\"../site/pic.png\">"
                + "<a href=\"file://\(tree.path("site").canonical.description)/gone.html\">g</a>\n")

        tree.file(
            "site/based.html",
            contents: Array(
                "<base href=\"http://fakehost/d0/\"><img src=\"pic.png\"><img src=\"zz.png\"><a href=\"#top\">t</a>\n"
                    .utf8))
        let based = Binary.run([
            "localize", tree.path("site/based.html").description, "-o", tree.path("site/out.html").description,
            "--cache", store, "--base-url", "http://fakehost/p.html", "--json"
        ])
        XCTAssertEqual(based.status, 0, based.err)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(based.stdout)) as? [String: Any])
        let page = try XCTUnwrap((object["pages"] as? [[String: Any]])?.first)
        let refs = try XCTUnwrap(page["references"] as? [[String: Any]])
        XCTAssertEqual(refs.map { $0["outcome"] as? String }, ["local", "missing"], based.out)
        XCTAssertEqual(page["baseNeutralized"] as? Bool, true, based.out)
        XCTAssertEqual(
            String(decoding: try FileIOProbe.read(tree.path("site/out.html")), as: UTF8.self),
            "<base href=\"\"><img src=\"pic.png\"><img src=\"http://fakehost/d0/zz.png\">"
                + "<a href=\"http://fakehost/d0/#top\">t</a>\n")
    }

    /// `--eager` writes the `srcset` a lazy `data-srcset` stands for; a candidate left remote
    /// there is the absolute URL it means. It was copied as written (`gone.png 2x`), and in a
    /// page written into another folder it named a file beside the output.
    func testAnEagerSrcsetNamesItsRemoteCandidatesAbsolutely() throws {
        let tree = TestTree("loc-eager-srcset")
        let store = store(tree, holding: "http://fakehost/a.png")
        tree.file("site/page.html", contents: Array("<img data-srcset=\"/a.png 1x, gone.png 2x\">".utf8))
        tree.dir("elsewhere")
        let run = Binary.run([
            "localize", tree.path("site/page.html").description, "-o", tree.path("elsewhere/out.html").description,
            "--cache", store, "--base-url", "http://fakehost/dir/page.html", "--eager"
        ])
        XCTAssertEqual(run.status, 0, run.err)
        let out = String(decoding: try FileIOProbe.read(tree.path("elsewhere/out.html")), as: UTF8.self)
        let added = try XCTUnwrap(out.range(of: " srcset=\"").map { String(out[$0.upperBound...]) }, out)
        XCTAssertTrue(added.hasPrefix("../store/objects/"), out)
        XCTAssertTrue(added.contains(" 1x, http://fakehost/dir/gone.png 2x\""), out)
        XCTAssertTrue(out.contains("data-srcset=\"../store/objects/"), out)
    }

    /// A srcset of 200,000 candidates, every one cached, is rewritten in linear time, a
    /// lazy one (`data-srcset`, also written as the `srcset` it stands for) too: each
    /// candidate made local copied the rest of the value (200,000 took 309 s in a release
    /// build).
    func testALongSrcsetIsRewrittenInLinearTime() throws {
        let tree = TestTree("loc-long-srcset")
        let store = store(tree, holding: "http://fakehost/a.png")
        let candidates = (1...200_000).map { "/a.png \($0)w" }.joined(separator: ", ")
        for attribute in ["srcset", "data-srcset"] {
            tree.file("page.html", contents: Array("<img \(attribute)=\"\(candidates)\">".utf8))
            let run = Run.command([
                "sh", "-c",
                "ulimit -t 60; exec '\(Binary.path)' localize '\(tree.path("page.html").description)' "
                    + "--base-url http://fakehost/ --cache '\(store)' -o '\(tree.path("out.html").description)' --eager"
            ])
            XCTAssertEqual(run.status, 0, attribute + ": " + String(run.err.suffix(500)))
            XCTAssertTrue(
                run.err.contains("200000 rewritten, 0 missing"), attribute + ": " + String(run.err.suffix(500)))
            let out = String(decoding: try FileIOProbe.read(tree.path("out.html")), as: UTF8.self)
            XCTAssertEqual(
                out.components(separatedBy: "store/objects/").count - 1, attribute == "srcset" ? 200_000 : 400_000,
                attribute)
        }
    }

    /// `--output-dir` saves as a browser does: page.html beside page_files/, each image a
    /// hard link to the cache's body (or a copy), so clearing the cache breaks nothing.
    func testOutputDirPlacesImagesInThePagesOwnFolder() throws {
        let (tree, store) = fixture()
        let page = tree.path("site/page.html").description
        let base = ["--cache", store, "--base-url", "http://fakehost/test/page.html"]
        let run = Binary.run(["localize", page, "--output-dir", tree.path("saved").description] + base)
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(
            run.err.contains("1 files in") && run.err.contains("1 hard links sharing the cache's bytes"), run.err)
        let html = String(decoding: try FileIOProbe.read(tree.path("saved/page.html")), as: UTF8.self)
        XCTAssertTrue(html.contains("<img src=\"page_files/a.png\">"), html)
        XCTAssertEqual(try FileIOProbe.read(tree.path("saved/page_files/a.png")), Images.png)
        XCTAssertEqual(
            Run.command(["stat", "-c", "%h", tree.path("saved/page_files/a.png").description]).out, "2\n", "a hard link"
        )

        // The cache goes; the saved page keeps its image.
        XCTAssertEqual(Binary.run(["clear", store]).status, 0)
        XCTAssertEqual(try FileIOProbe.read(tree.path("saved/page_files/a.png")), Images.png)
        let again = Binary.run(["localize", tree.path("saved/page.html").description, "--in-place", "--cache", store])
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertTrue(again.err.contains("1 local"), again.err)
        XCTAssertEqual(
            String(decoding: try FileIOProbe.read(tree.path("saved/page.html")), as: UTF8.self), html, "unchanged")

        // Relative folders name the same places (run from inside the tree).
        let (tree2, store2) = fixture()
        let relative = Run.command([
            "sh", "-c",
            "cd '\(tree2.path("").description)' && '\(Binary.path)' localize site/page.html "
                + "--output-dir rel --cache store --base-url http://fakehost/test/page.html"
        ])
        XCTAssertEqual(relative.status, 0, relative.err)
        let relativeHTML = String(decoding: try FileIOProbe.read(tree2.path("rel/page.html")), as: UTF8.self)
        XCTAssertTrue(relativeHTML.contains("<img src=\"page_files/a.png\">"), relativeHTML)

        // --no-assets points into the cache, as before.
        let direct = Binary.run([
            "localize", tree2.path("site/page.html").description, "--output-dir", tree2.path("out").description,
            "--no-assets", "--cache", store2, "--base-url", "http://fakehost/test/page.html"
        ])
        XCTAssertEqual(direct.status, 0, direct.err)
        XCTAssertTrue(
            String(decoding: try FileIOProbe.read(tree2.path("out/page.html")), as: UTF8.self).contains(
                "../store/objects/"))
        XCTAssertFalse(tree2.path("out/page_files").exists)
    }

    /// A page's own `file:` URL has its path percent-encoded: in a folder named `a#b%41` the
    /// page kept its relative references when written beside itself (they were made absolute
    /// against `file:///…/a`, the `#` read as a fragment, and `--in-place` rewrote the file).
    func testAPageInAFolderWithHashOrPercentKeepsItsRelativeReferences() throws {
        let tree = TestTree("loc-file-url")
        tree.file("store-src/x.png", contents: Images.png)
        let store = tree.path("store").description
        XCTAssertEqual(
            Binary.run(["put", "http://fakehost/x.png", tree.path("store-src/x.png").description, "--cache", store])
                .status, 0)
        let page = Array("<a href=\"next.html\">n</a><img src=\"y.png\">\n".utf8)
        tree.file("a#b%41/p.html", contents: page)
        let path = tree.path("a#b%41/p.html")
        let run = Binary.run(["localize", path.description, "--in-place", "--json", "--cache", store])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertEqual(try FileIOProbe.read(path), page, "nothing to change: " + run.err)
        let directory = path.parentDirectory.canonical.description
        XCTAssertTrue(
            run.out.contains(
                "\"resolved\" : \"file://\(directory.replacingOccurrences(of: "#b%41", with: "%23b%2541"))/y.png\""),
            run.out)
    }

    /// `<base href>` as a browser takes it: a `javascript:` or `data:` one leaves the page's
    /// URL as the base (its references were skipped as not fetchable); a relative one is
    /// written as the absolute URL it meant when the output lives elsewhere (it would
    /// resolve against the new place).
    func testBaseHrefIsTakenAsABrowserTakesIt() throws {
        let tree = TestTree("loc-base-kinds")
        let store = store(tree, holding: "http://fakehost/dir/x.png")
        tree.file(
            "js.html",
            contents: Array("<base href=\"javascript:void(0)\"><img src=\"x.png\"><a href=\"o.html\">o</a>".utf8))
        tree.file("rel.html", contents: Array("<base href=\"sub/\"><a href=\"o.html\">o</a>".utf8))
        tree.dir("out")
        let base = ["--cache", store, "--base-url", "http://fakehost/dir/page.html"]
        for name in ["js", "rel"] {
            let run = Binary.run(
                ["localize", tree.path("\(name).html").description, "-o", tree.path("out/\(name).html").description]
                    + base)
            XCTAssertEqual(run.status, 0, run.err)
        }
        let js = String(decoding: try FileIOProbe.read(tree.path("out/js.html")), as: UTF8.self)
        XCTAssertTrue(js.contains("<a href=\"http://fakehost/dir/o.html\">"), js)
        XCTAssertTrue(js.contains("<img src=\"../store/objects/"), js)
        let rel = String(decoding: try FileIOProbe.read(tree.path("out/rel.html")), as: UTF8.self)
        XCTAssertEqual(rel, "<base href=\"http://fakehost/dir/sub/\"><a href=\"o.html\">o</a>")
    }

    /// What a browser reads as text is not a reference: tags inside `textarea`, `title`,
    /// `xmp`, `iframe`, `noembed`, `noframes`, `plaintext`, and inside a script's
    /// `<!-- <script> … -->` part, were rewritten (libxml2 2.9 parsed them as elements).
    func testTagsInsideTextAreNotReferences() throws {
        let tree = TestTree("loc-text-elements")
        let store = store(tree, holding: "http://fakehost/a.png")
        let text = [
            "<textarea><img src=\"/a.png\"></textarea>", "<title><img src=\"/a.png\"></title>",
            "<xmp><img src=\"/a.png\"></xmp>",
            "<iframe><img src=\"/a.png\"></iframe>", "<noembed><img src=\"/a.png\"></noembed>",
            "<noframes><img src=\"/a.png\"></noframes>",
            "<script><!-- document.write(\"<script>x()</script><img src='/a.png'>\"); --></script>"
        ].joined(separator: "\n")
        let page = "<html><head></head><body>" + text + "\n<img src=\"/a.png\"><plaintext><img src=\"/a.png\">\n"
        tree.file("page.html", contents: Array(page.utf8))
        let run = Binary.run([
            "localize", tree.path("page.html").description, "-o", tree.path("out.html").description, "--cache", store,
            "--base-url", "http://fakehost/page.html"
        ])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(run.err.contains(": 1 rewritten"), run.err)
        let out = String(decoding: try FileIOProbe.read(tree.path("out.html")), as: UTF8.self)
        XCTAssertTrue(out.hasPrefix("<html><head></head><body>" + text + "\n<img src=\"store/objects/"), out)
        XCTAssertTrue(out.hasSuffix("<plaintext><img src=\"/a.png\">\n"), out)
    }

    /// Copies that cannot be placed in the assets folder (here a file stands where the folder
    /// would be) leave the page pointing at the cache: it says so, and pins what it points at
    /// (it said nothing and pinned nothing, so a prune broke the saved page).
    func testImagesThatCannotBePlacedArePinnedAndReported() throws {
        let tree = TestTree("loc-unplaced")
        let url = "http://fakehost/a.png"
        let store = store(tree, holding: url)
        tree.file("page.html", contents: Array("<img src=\"/a.png\">\n".utf8))
        tree.file("out/page_files", contents: Array("in the way\n".utf8))
        let run = Binary.run([
            "localize", tree.path("page.html").description, "--output-dir", tree.path("out").description, "--cache",
            store, "--base-url", "http://fakehost/page.html"
        ])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(run.err.contains("1 could not be placed in"), run.err)
        XCTAssertTrue(
            String(decoding: try FileIOProbe.read(tree.path("out/page.html")), as: UTF8.self).contains(
                "../store/objects/"))
        XCTAssertEqual(Binary.run(["prune", store, "--max-size", "0B"]).status, 0)
        XCTAssertEqual(Binary.run(["cat", url, "--cache", store]).stdout, Images.png, "kept for the saved page")
    }

    /// A page pointing into the store pins what it points at: prune keeps it past its expiry
    /// and the size cap; `unpin` or deleting the page releases it.
    func testPagesPinTheEntriesTheyPointAt() throws {
        let tree = TestTree("loc-pins")
        let store = tree.path("store").description
        tree.file("img.png", contents: Images.png)
        let url = "http://fakehost/a.png"
        XCTAssertEqual(
            Binary.run(["put", url, tree.path("img.png").description, "--cache", store, "--expires", "1s"]).status, 0)
        tree.file("site/page.html", contents: Array("<img src=\"/a.png\">\n".utf8))
        let base = ["--cache", store, "--base-url", "http://fakehost/test/page.html"]
        let out = tree.path("site/out.html")
        XCTAssertEqual(
            Binary.run(["localize", tree.path("site/page.html").description, "-o", out.description] + base).status, 0)
        sleep(2)  // expired now
        let kept = Binary.run(["prune", store, "--max-size", "0B"])
        XCTAssertEqual(kept.status, 0, kept.err)
        XCTAssertTrue((kept.out + kept.err).contains("pinned by"), kept.out + kept.err)
        XCTAssertEqual(
            Binary.run(["cat", url, "--cache", store, "--allow-stale"]).stdout, Images.png,
            "kept past expiry and the cap")
        XCTAssertTrue(Binary.run(["ls", store]).out.contains("pinned by"))

        let unpin = Binary.run(["unpin", out.description, "--cache", store])
        XCTAssertEqual(unpin.status, 0, unpin.err)
        XCTAssertEqual(unpin.out, "1\t\(out.canonical.escaped)\n")
        XCTAssertEqual(Binary.run(["prune", store]).status, 0)
        XCTAssertEqual(
            Binary.run(["cat", url, "--cache", store, "--allow-stale"]).status, 1, "released, then pruned as expired")

        // A deleted page releases its pins at the next prune.
        XCTAssertEqual(
            Binary.run(["put", url, tree.path("img.png").description, "--cache", store, "--expires", "1s"]).status, 0)
        XCTAssertEqual(
            Binary.run(["localize", tree.path("site/page.html").description, "-o", out.description] + base).status, 0)
        sleep(2)
        _ = Run.command(["rm", out.description])
        XCTAssertEqual(Binary.run(["prune", store]).status, 0)
        XCTAssertEqual(Binary.run(["cat", url, "--cache", store, "--allow-stale"]).status, 1)
    }

    /// A page localized again (`--in-place`, as a finished page is re-checked) keeps pinning
    /// what it shows in the store, and so does a copy of it localized on its own: their
    /// references into the store are `local` now. The second run unpinned them all, and the
    /// next prune deleted the images of a page it had just called finished.
    func testAPageLocalizedAgainKeepsItsPins() throws {
        let tree = TestTree("loc-repin")
        let url = "http://fakehost/a.png"
        let store = store(tree, holding: url, expires: "1s")
        tree.file("site/page.html", contents: Array("<img src=\"http://fakehost/a.png\">\n".utf8))
        let page = tree.path("site/page.html").description
        for _ in 0..<2 {
            let run = Binary.run(["localize", page, "--in-place", "--cache", store, "--require-all"])
            XCTAssertEqual(run.status, 0, run.err)
        }
        XCTAssertTrue(
            String(decoding: try FileIOProbe.read(tree.path("site/page.html")), as: UTF8.self).hasPrefix(
                "<img src=\"../store/objects/"))
        tree.file("site/copy.html", contents: try FileIOProbe.read(tree.path("site/page.html")))
        XCTAssertEqual(
            Binary.run(["localize", tree.path("site/copy.html").description, "--in-place", "--cache", store]).status, 0)
        XCTAssertEqual(
            Binary.run(["unpin", page, "--cache", store]).out, "1\t\(tree.path("site/page.html").canonical.escaped)\n")
        sleep(2)  // expired now
        XCTAssertEqual(Binary.run(["prune", store]).status, 0)
        XCTAssertEqual(
            Binary.run(["cat", url, "--cache", store, "--allow-stale"]).stdout, Images.png, "still pinned by the copy")
    }

    /// A page written by a relative name pins under its absolute path, whichever of the page
    /// and its pins is done first: the path was resolved while the page might not exist yet,
    /// and then stayed relative (`out.html`), so a prune run from elsewhere took the page for
    /// deleted and removed what it shows (about half the runs). `unpin` of a deleted page's
    /// absolute path releases its pins (it was taken relative to the working directory).
    func testPinsNameThePageByItsAbsolutePathAndUnpinFindsADeletedOne() throws {
        let tree = TestTree("loc-pin-relative")
        let store = store(tree, holding: "http://fakehost/a.png")
        tree.file("site/page.html", contents: Array("<img src=\"/a.png\">\n".utf8))
        let site = tree.path("site").canonical.description
        for run in 0..<8 {
            let name = "out\(run).html"
            let localized = Run.command([
                "sh", "-c",
                "cd \"$1\" && exec \"$2\" localize page.html -o \"$3\" --cache ../store "
                    + "--base-url http://fakehost/test/page.html", "sh", site, Binary.path, name
            ])
            XCTAssertEqual(localized.status, 0, localized.err)
        }
        let pages = Run.command([
            "python3", "-c",
            "import sqlite3, sys; print('\\n'.join(sorted(r[0] for r in sqlite3.connect(sys.argv[1]).execute("
                + "'SELECT page FROM pins'))))", tree.path("store/index.sqlite").description
        ])
        XCTAssertEqual(pages.out, (0..<8).map { "\(site)/out\($0).html\n" }.joined())
        let page = tree.path("site/out0.html").canonical.description
        _ = Run.command(["rm", page])
        let unpin = Run.command([
            "sh", "-c", "cd / && exec \"$1\" unpin \"$2\" --cache \"$3\"", "sh", Binary.path, page, store
        ])
        XCTAssertEqual(unpin.status, 0, unpin.err)
        XCTAssertEqual(unpin.out, "1\t\(page)\n", "the absolute path as given, its pin released")
    }
}
