import Foundation
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

/// Each reference site, srcset and base rules, encodings and bad input, on small pages.
final class LocalizerTests: XCTestCase {
    let pageURL = "http://fakehost/test/page.html"

    /// A store holding a body for each URL; returns the tree, the localizer and the bodies.
    private func setUp(_ urls: [String]) throws -> (TestTree, Localizer, [String: RawPath]) {
        let tree = TestTree("loc")
        let store = try NativeStore.open(tree.path("store"), create: true)
        var bodies: [String: RawPath] = [:]
        for url in urls {
            let record = try store.put(url: url, bytes: Array("body of \(url)".utf8))
            bodies[url] = tree.path("store").appending(record.bodyPath)
        }
        tree.dir("out")
        return (tree, try Localizer(caches: [tree.path("store")]), bodies)
    }

    private func run(
        _ localizer: Localizer, _ html: String, _ tree: TestTree, configure: (inout LocalizeOptions) -> Void = { _ in }
    ) -> LocalizeResult {
        run(localizer, Array(html.utf8), tree, configure: configure)
    }

    private func run(
        _ localizer: Localizer, _ bytes: [UInt8], _ tree: TestTree,
        configure: (inout LocalizeOptions) -> Void = { _ in }
    ) -> LocalizeResult {
        var options = LocalizeOptions()
        options.pageURL = pageURL
        options.outputDirectory = tree.path("out")
        configure(&options)
        return localizer.localize(bytes, options: options)
    }

    /// Independent check of "nothing else changes": the output must equal the input with
    /// each rewritten reference's original bytes replaced by its local path (escaped as
    /// needed), and nothing more.
    private func assertOnlyReferencesChanged(
        _ input: [UInt8], _ result: LocalizeResult, file: StaticString = #filePath, line: UInt = #line
    ) {
        let expected = Splice.expected(input, result.references)
        XCTAssertEqual(
            String(decoding: result.output, as: UTF8.self), String(decoding: expected, as: UTF8.self), file: file,
            line: line)
        XCTAssertTrue(written(result) == expected, "the output written in pieces differs", file: file, line: line)
        // Written early up to any point of the unchanged prefix, then the rest: the same output.
        let prefix = result.unchangedPrefix
        XCTAssertTrue(
            expected.starts(with: input[..<prefix]), "the unchanged prefix is unchanged", file: file, line: line)
        if !result.references.contains(where: { $0.outcome == .rewritten }), !result.referencesAbsolutized,
            !result.baseNeutralized
        {
            XCTAssertEqual(prefix, input.count, "nothing edited: the whole page is the prefix", file: file, line: line)
        }
        for start in Set([0, prefix / 2, prefix]) {
            var bytes = Array(input[..<start])
            result.writeOutput(from: start) { bytes += $0 }
            XCTAssertTrue(bytes == expected, "written from \(start) of \(prefix)", file: file, line: line)
        }
        let offsets = result.references.map(\.offset)
        XCTAssertEqual(offsets, offsets.sorted(), "references in document order", file: file, line: line)
        for outcome in [ImageReference.Outcome.rewritten, .missing, .stale, .skipped] {
            XCTAssertEqual(
                result.count(outcome), result.references.filter { $0.outcome == outcome }.count, file: file, line: line)
        }
    }

    /// The output as `writeOutput` hands it out, piece by piece.
    private func written(_ result: LocalizeResult) -> [UInt8] {
        var bytes: [UInt8] = []
        result.writeOutput { bytes += $0 }
        return bytes
    }

    /// The output is written in blocks, not built whole: edits that straddle the block size,
    /// unchanged runs longer than a block, and a page in another charset all come out as
    /// the whole output would.
    func testOutputWrittenInPiecesEqualsTheWholeOutput() throws {
        let urls = (0..<40).map { "http://fakehost/img/\($0).png" }
        let (tree, localizer, _) = try setUp(urls)
        for charset in ["utf-8", "windows-1252"] {
            var bytes = Array("<html><head><meta charset=\"\(charset)\"></head><body>".utf8)
            for i in 0..<40 {
                // Runs from a few bytes to 300 KB: some edits land at block edges, some runs exceed a block.
                let run = i % 7 == 0 ? 300_000 : (i * 7_919) % 9_000
                bytes += Array(repeating: UInt8(ascii: "x"), count: run)
                if charset == "windows-1252" { bytes += [0xE9] }
                bytes += Array("<img src=\"/img/\(i).png\"><img src=\"/img/missing-\(i).png\">".utf8)
            }
            bytes += Array("</body></html>".utf8)
            let result = run(localizer, bytes, tree)
            XCTAssertEqual(result.references.filter { $0.outcome == .rewritten }.count, 40, charset)
            XCTAssertGreaterThan(result.output.count, 1_500_000)
            assertOnlyReferencesChanged(bytes, result)
        }
        // Nothing to change: the input itself.
        let plain = Array("<p>no images</p>".utf8)
        let untouched = run(localizer, plain, tree)
        XCTAssertEqual(untouched.output, plain)
        XCTAssertEqual(written(untouched), plain)
    }

    func testEveryImageSiteIsFoundAndRewritten() throws {
        let urls = (1...18).map { "http://fakehost/img/\($0).png" }
        let notSites = urls[15]  // 16.png
        let (tree, localizer, _) = try setUp(urls)
        let html = """
            <!DOCTYPE html><html><head>
            <link rel="icon" href="/img/1.png"><link rel="shortcut icon" href="../img/2.png"><link \
            rel="apple-touch-icon" href="http://fakehost/img/3.png">
            <link rel="stylesheet" href="/img/16.png">
            <style>body { background: url("/img/4.png") } .x { background-image: url( /img/5.png ) }</style>
            </head><body>
            <img src="/img/6.png" srcset="/img/7.png 2x, /img/8.png 3x"><img src="/img/&#49;.png" alt="decided late: \
            an entity">
            <picture><source srcset="/img/9.png" media="(min-width: 800px)"><source srcset="/img/10.png 1x"><img \
            src="missing.png"></picture>
            <input type="image" src="/img/11.png"><input type="text" src="/img/16.png">
            <video poster="/img/12.png"></video>
            <svg><image href="/img/13.png"/><image xlink:href="/img/14.png"/></svg>
            <div style="background: url('/img/15.png')">x</div>
            <source srcset="/img/16.png">
            <table background="/img/17.png"><tr><td background="/img/18.png">x</td></tr></table>
            <div background="/img/16.png">x</div>
            </body></html>
            """
        let result = run(localizer, html, tree)
        let rewritten = Set(result.references.filter { $0.outcome == .rewritten }.compactMap(\.resolved))
        XCTAssertEqual(
            rewritten, Set(urls.filter { $0 != notSites }),
            "all but the stylesheet, the text input, the source outside <picture> and a div's background")
        XCTAssertEqual(result.references.first { $0.original == "missing.png" }?.outcome, .missing)
        XCTAssertFalse(result.references.contains { $0.resolved == notSites }, "not image sites")
        assertOnlyReferencesChanged(Array(html.utf8), result)
        // Each local path opens the cached body from the output directory.
        for ref in result.references where ref.outcome == .rewritten {
            let target = tree.path("out").appending(ref.localPath!.removingPercentEncodingForTest)
            XCTAssertEqual(
                String(decoding: (try? FileIO.readAll(target)) ?? [], as: UTF8.self), "body of \(ref.resolved!)")
        }
    }

    /// A page with thousands of references decides them in blocks on both threads (more
    /// than a block's 256): each rewritten one opens its own body, each other is missing, and
    /// nothing else changes.
    func testThousandsOfReferencesAreEachPointedAtTheirOwnBody() throws {
        let cached = (0..<1500).map { "http://fakehost/img/\($0).png" }
        let (tree, localizer, _) = try setUp(cached)
        let html = (0..<2000).map { i in
            i % 4 == 0
                ? "<img srcset=\"../img/\(i).png 1x, /img/\(i + 1).png 2x\">\n" : "<p><img src=\"/img/\(i).png\">\n"
        }.joined()
        let result = run(localizer, html, tree)
        let byOutcome = Dictionary(grouping: result.references, by: \.outcome)
        var expectedRewritten: [Int] = []
        for i in 0..<2000 { expectedRewritten += i % 4 == 0 ? [i, i + 1] : [i] }
        expectedRewritten.removeAll { $0 >= 1500 }
        XCTAssertEqual(byOutcome[.rewritten]?.count, expectedRewritten.count)
        XCTAssertEqual(byOutcome[.missing]?.count, result.references.count - expectedRewritten.count)
        XCTAssertEqual(byOutcome.keys.count, 2, "\(byOutcome.keys)")
        assertOnlyReferencesChanged(Array(html.utf8), result)
        for ref in result.references where ref.outcome == .rewritten {
            let target = tree.path("out").appending(ref.localPath!.removingPercentEncodingForTest)
            XCTAssertEqual(
                String(decoding: (try? FileIO.readAll(target)) ?? [], as: UTF8.self), "body of \(ref.resolved!)")
        }
    }

    func testLazyAttributesAndEager() throws {
        let urls = [
            "http://fakehost/lazy/a.jpg", "http://fakehost/lazy/b.jpg", "http://fakehost/lazy/c.jpg",
            "http://fakehost/lazy/d.jpg", "http://fakehost/lazy/e.jpg"
        ]
        let (tree, localizer, _) = try setUp(urls)
        let html = """
            <img data-src="/lazy/a.jpg" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><img \
            data-original="/lazy/b.jpg">
            <img data-lazy-src="/lazy/c.jpg" src=""><img data-srcset="/lazy/d.jpg 1x"><img \
            data-lazy-srcset="/lazy/e.jpg 2x" srcset="">
            """
        let plain = run(localizer, html, tree)
        XCTAssertEqual(plain.references.filter { $0.outcome == .rewritten }.count, 5)
        XCTAssertEqual(plain.references.first { $0.original.hasPrefix("data:") }?.outcome, .skipped)
        assertOnlyReferencesChanged(Array(html.utf8), plain)

        let eager = String(decoding: run(localizer, html, tree) { $0.eager = true }.output, as: UTF8.self)
        XCTAssertFalse(eager.contains("data:image/gif"), "the placeholder gave way to the local copy")
        XCTAssertEqual(eager.components(separatedBy: " src=\"../store/").count - 1, 3, eager)
        XCTAssertEqual(eager.components(separatedBy: " srcset=\"../store/").count - 1, 2, eager)
    }

    func testEagerGivesABareSrcItsValue() throws {
        let (tree, localizer, _) = try setUp(["http://fakehost/lazy/a.jpg", "http://fakehost/lazy/b.jpg"])
        let html = "<img src data-src=\"/lazy/a.jpg\"><img SRC srcset data-srcset=\"/lazy/b.jpg 2x\" alt=x>"
        let eager = String(decoding: run(localizer, html, tree) { $0.eager = true }.output, as: UTF8.self)
        // A second src would be ignored by browsers (the first, empty one wins): the bare one gets the value.
        let names = eager.split(whereSeparator: { " <>".contains($0) }).map { $0.split(separator: "=")[0].lowercased() }
        XCTAssertEqual(names.filter { $0 == "src" }.count, 2, eager)
        XCTAssertEqual(names.filter { $0 == "srcset" }.count, 1, eager)
        XCTAssertTrue(eager.hasPrefix("<img src=\"../store/"), eager)
        XCTAssertTrue(eager.contains("<img SRC srcset=\"../store/"), eager)
    }

    /// libxml2 2.9 stopped at a NUL byte; browsers read on. The images after one are found, and
    /// a value holding one (a browser reads U+FFFD there) is left alone.
    func testANulByteDoesNotEndThePage() throws {
        let (tree, localizer, _) = try setUp(["http://fakehost/a.png", "http://fakehost/b.png"])
        let page = Array("<p>\0</p><img src=\"/a.png\"><script>\0</script><img src=\"/b.png\0\"><img src=/b.png>".utf8)
        let result = run(localizer, page, tree)
        XCTAssertEqual(result.references.map(\.outcome), [.rewritten, .skipped, .rewritten])
        assertOnlyReferencesChanged(page, result)
    }

    /// Comments end where HTML's tokenizer ends them: `<!-->` and `<!--->` at once, others
    /// at the first `-->` or `--!>`. libxml2 2.9 read on to the next `-->`, so the images
    /// between were not found.
    func testCommentsEndWhereBrowsersEndThem() throws {
        let (tree, localizer, _) = try setUp(["http://fakehost/a.png"])
        for (html, rewritten) in [
            ("<!--><img src=\"/a.png\">", 1), ("<!---><img src=\"/a.png\">", 1),
            ("<!-- x --!><img src=\"/a.png\"><!-- y -->", 1), ("<!-- a --!> <img src=/a.png> -->", 1),
            ("<!-- <img src=\"/a.png\"> -->", 0), ("<!-- <img src=/a.png> --!>", 0),
            ("<script>'<!--'</script><img src=/a.png><!-- z --!>", 1), ("<!---->x<img src=/a.png>", 1),
            // The common idiom: `<!--[if gt IE 8]><!-->` is one comment, and the image is seen.
            ("<!--[if gt IE 8]><!--><img src=/a.png><!--<![endif]-->", 1)
        ] {
            let result = run(localizer, html, tree)
            XCTAssertEqual(result.references.filter { $0.outcome == .rewritten }.count, rewritten, html)
            assertOnlyReferencesChanged(Array(html.utf8), result)
        }
    }

    /// CSS as its tokenizer reads it: escapes in a URL (`\2f a.png` is `/a.png`, `\)` a
    /// parenthesis), an escaped quote inside a quoted one, and the strings of `image-set()`,
    /// which are URLs (all were looked up as written, or not at all).
    func testCSSEscapesAndImageSetStrings() throws {
        let urls = [
            "http://fakehost/a.png", "http://fakehost/b(1).png", "http://fakehost/c%22.png", "http://fakehost/d.png"
        ]
        let (tree, localizer, _) = try setUp(urls)
        let html = """
            <style>.a{background:url(\\2f a.png)} .b{background:url(/b\\(1\\).png)} \
            .c{background:url("/c\\".png")}</style>\
            <div style="background-image: image-set('/d.png' 1x, url(/a.png) 2x)"></div>\
            <div style="background-image: -webkit-image-set('/d.png' 1x); content: '/b(1).png'"></div>
            """
        let result = run(localizer, html, tree)
        XCTAssertEqual(result.references.filter { $0.outcome == .rewritten }.count, 6, "\(result.references)")
        XCTAssertEqual(Set(result.references.compactMap(\.resolved)), Set(urls))
        assertOnlyReferencesChanged(Array(html.utf8), result)
        XCTAssertEqual(CSSURLs.unescaped(Array("\\0 \\D800\\110000 \\41x\\\n".utf8)[...]), "\u{FFFD}\u{FFFD}\u{FFFD}Ax")
    }

    func testSrcsetEdgeCases() throws {
        let urls = ["http://fakehost/w_300,c_fill/a.jpg", "http://fakehost/b.jpg", "http://fakehost/c.jpg"]
        let (tree, localizer, _) = try setUp(urls)
        let html = """
            <img srcset="/w_300,c_fill/a.jpg 300w,
                 /b.jpg   600w , /c.jpg 2q, /missing.jpg 900w">
            """
        let result = run(localizer, html, tree)
        let byURL = Dictionary(uniqueKeysWithValues: result.references.map { ($0.original, $0.outcome) })
        XCTAssertEqual(byURL["/w_300,c_fill/a.jpg"], .rewritten, "a comma inside a URL belongs to it")
        XCTAssertEqual(byURL["/b.jpg"], .rewritten)
        XCTAssertNil(byURL["/c.jpg"], "an invalid candidate is dropped from consideration")
        XCTAssertEqual(byURL["/missing.jpg"], .missing)
        let out = String(decoding: result.output, as: UTF8.self)
        XCTAssertTrue(out.contains("/c.jpg 2q"), "…but left in place")
        XCTAssertTrue(out.contains("\n     "), "line breaks kept")
        assertOnlyReferencesChanged(Array(html.utf8), result)

        XCTAssertEqual(Srcset.parse("a.jpg, b.jpg 2x,c.jpg 100w 200h").map(\.url), ["a.jpg", "b.jpg", "c.jpg"])
        XCTAssertEqual(
            Srcset.parse("a.jpg 1x 2x, b.jpg 10h, c.jpg -5w, d.jpg 1.5x").map(\.isValid), [false, false, false, true])
        XCTAssertEqual(Srcset.parse("data:image/png;base64,AAA= 1x").first?.url, "data:image/png;base64,AAA=")
        XCTAssertEqual(Srcset.parse("x.jpg,, y.jpg").map(\.url), ["x.jpg", "y.jpg"])
        // Densities are HTML's valid floating-point numbers (web-platform-tests' srcset parser
        // cases): Swift's Double() would take `1.` and `0x1`.
        XCTAssertEqual(
            Srcset.parse("a.jpg 1.x, b.jpg 0x1x, c.jpg 0X1x, d.jpg .5x, e.jpg 1e1x, f.jpg -0x, g.jpg +1x").map(
                \.isValid),
            [false, false, false, true, true, true, false])
        // A leading U+000E–U+0010 is not srcset whitespace, so it stays in the URL; the URL
        // parser strips it as a C0 control before resolving.
        let base = URLText.Base(StandardURL("http://h/dir/page.html")!)
        for control in ["\u{0E}", "\u{0F}", "\u{10}"] {
            let candidate = Srcset.parse(control + "a.png 1x")
            XCTAssertEqual(candidate.first?.isValid, true)
            XCTAssertEqual(
                candidate.first.flatMap { URLText.resolve($0.url, against: base) }?.absolute, "http://h/dir/a.png")
        }
        XCTAssertEqual(Srcset.parse("x.jpg, (max-width: 5px) 1x").last?.isValid, false)
    }

    func testUnfetchableReferencesAreLeftAlone() throws {
        let (tree, localizer, _) = try setUp(["http://fakehost/test/page.html"])
        let html =
            """
            <img src=\"#top\"><img src=\"javascript:void(0)\"><img src=\"blob:http://x/1\"><img \
            src=\"about:blank\"><img src=\"  \"><img src=\"data:,x\">
            """
        let result = run(localizer, html, tree)
        XCTAssertTrue(
            result.references.allSatisfy { $0.outcome == .skipped },
            "\(result.references.map { ($0.original, $0.outcome) })")
        XCTAssertEqual(result.output, Array(html.utf8))
    }

    func testBaseIsNeutralisedAndOtherRelativeReferencesMadeAbsolute() throws {
        let (tree, localizer, _) = try setUp(["http://other.example/dir/a.png"])
        let html = """
            <base href="http://other.example/dir/"><a href="page2.html">next</a><img src="a.png"><img src="b.png" \
            srcset="c.png 2x">
            <a href="//cdn.example/x">cdn</a><a href="https://abs.example/">abs</a><a href="#frag">f</a><div \
            style="background:url(d.png)"></div>
            """
        let result = run(localizer, html, tree)
        XCTAssertTrue(result.baseNeutralized)
        let out = String(decoding: result.output, as: UTF8.self)
        XCTAssertTrue(out.hasPrefix("<base href=\"\">"), out)
        XCTAssertTrue(out.contains("<a href=\"http://other.example/dir/page2.html\">"), out)
        XCTAssertTrue(
            out.contains("src=\"http://other.example/dir/b.png\" srcset=\"http://other.example/dir/c.png 2x\""), out)
        XCTAssertTrue(out.contains("href=\"http://cdn.example/x\""), out)
        XCTAssertTrue(out.contains("href=\"https://abs.example/\""), out)
        XCTAssertTrue(out.contains("href=\"http://other.example/dir/#frag\""), out)
        XCTAssertTrue(out.contains("url(http://other.example/dir/d.png)"), out)
        XCTAssertEqual(result.references.first { $0.original == "a.png" }?.outcome, .rewritten)

        // Nothing rewritten: the base stays as it was.
        let (tree2, empty, _) = try setUp([])
        let untouched = run(empty, html, tree2)
        XCTAssertFalse(untouched.baseNeutralized)
        XCTAssertEqual(untouched.output, Array(html.utf8))
    }

    /// A value whose references were all made local is passed over when the rest are made
    /// absolute; one with any reference left (missing, or a srcset candidate too invalid to
    /// localize) is still read whole, and what is left in it is made absolute.
    func testValuesPartlyLocalizedAreStillMadeAbsolute() throws {
        let (tree, localizer, _) = try setUp(["http://fakehost/test/a.png"])
        let html = """
            <img srcset="a.png 1x, b.png 2x"><img srcset="a.png 1x, c.png 1.x"><img srcset=" a.png 1x ">
            <div style="background: url(a.png), url(d.png)"></div><div style="background: url(a.png)"></div>
            <img src="a.png" data-src="e.png"><img src=" a.png " data-src="a.png"><a href="f.html">f</a>
            """
        let result = run(localizer, html, tree) { $0.absolutizeWhenMoved = true }
        XCTAssertTrue(result.referencesAbsolutized)
        let out = String(decoding: result.output, as: UTF8.self)
        let local = try XCTUnwrap(result.references.first { $0.outcome == .rewritten }?.localPath)
        let expected = """
            <img srcset="\(local) 1x, http://fakehost/test/b.png 2x"><img srcset="\(local) 1x, \
            http://fakehost/test/c.png 1.x"><img srcset=" \(local) 1x ">
            <div style="background: url(\(local)), url(http://fakehost/test/d.png)"></div><div style="background: \
            url(\(local))"></div>
            <img src="\(local)" data-src="http://fakehost/test/e.png"><img src=" \(local) " data-src="\(local)"><a \
            href="http://fakehost/test/f.html">f</a>
            """
        XCTAssertEqual(out, expected)
    }

    /// A saved fuzzer input, rewritten exactly as Tests/Fuzz/LocalizeFuzzTarget.swift does
    /// (every second URL cached; --eager on inputs of even length).
    private func rewriteLikeTheFuzzer(_ name: String) throws -> ([UInt8], LocalizeResult) {
        let input = try FileIO.readAll(
            RawPath(
                URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                    .appendingPathComponent("FuzzRegressions/" + name).path))
        var options = LocalizeOptions()
        options.pageURL = pageURL
        options.outputDirectory = RawPath("/tmp")
        options.eager = input.count % 2 == 0
        var counter = 0
        let result = PageRewriter().rewrite(input, options: options) { url in
            counter += 1
            return counter % 2 == 0
                ? CachedCopy(path: RawPath("/tmp/cache/objects/ab/\(url.utf8.count).png"), isFresh: true) : nil
        }
        return (input, result)
    }

    /// Found by Scripts/fuzz/localize: a kept fragment holding `&&` was entity-escaped in
    /// the page but reported raw. Fragments are now percent-encoded where HTML would escape.
    func testFuzzRegressionFragmentWithAmpersands() throws {
        let (input, result) = try rewriteLikeTheFuzzer("fragment-with-ampersands.html")
        XCTAssertTrue(result.references.contains { $0.outcome == .rewritten && $0.localPath!.contains("%26%26") })
        XCTAssertTrue(Splice.expected(input, result.references) == result.output)

        let (tree, localizer, _) = try setUp(["http://fakehost/sprite.svg"])
        let html = "<img src=\"/sprite.svg#a&amp;b\">"
        let plain = run(localizer, html, tree)
        XCTAssertTrue(plain.references[0].localPath!.hasSuffix(".svg#a%26b"), plain.references[0].localPath!)
        assertOnlyReferencesChanged(Array(html.utf8), plain)
    }

    /// Found by Scripts/fuzz/localize: a fragment holding `(` inside a CSS url() was written
    /// `%28` but reported raw. Local references now never need context escaping.
    func testFuzzRegressionFragmentWithParenthesesInCSS() throws {
        let (input, result) = try rewriteLikeTheFuzzer("fragment-with-parentheses-in-css.html")
        XCTAssertFalse(result.baseNeutralized)
        XCTAssertTrue(Splice.expected(input, result.references) == result.output)
        XCTAssertEqual(URLText.encodeFragment("a(b),c d"), "a%28b%29%2Cc%20d")
        XCTAssertEqual(URLText.encodeSegment(Array("x(1)'s,y".utf8)), "x%281%29%27s%2Cy")
    }

    /// A local path's prefix and file name joined in one step: a name with only kept bytes
    /// as it is, any other encoded as `encodeSegment` encodes it.
    func testPrefixJoinedWithSegment() {
        for name in ["0a1b2c3d.png", "x(1)'s,y", "a b#c?.png", "%E8.png", "", "é.gif"] {
            let bytes = Array(name.utf8)
            XCTAssertEqual(
                URLText.joined("../store/objects/ab/", segment: bytes[...]),
                "../store/objects/ab/" + URLText.encodeSegment(bytes), name)
        }
        XCTAssertEqual(URLText.joined("", segment: Array("a b".utf8)[...]), "a%20b")
    }

    func testFragmentKeptAndAbsoluteOption() throws {
        let (tree, localizer, bodies) = try setUp(["http://fakehost/icons.svg"])
        let html = "<img src=\"/icons.svg#star\">"
        let relative = run(localizer, html, tree)
        XCTAssertTrue(relative.references[0].localPath!.hasSuffix(".svg#star"))
        let absolute = run(localizer, html, tree) { $0.absolute = true }
        let expected = "file://" + bodies["http://fakehost/icons.svg"]!.canonical.description + "#star"
        XCTAssertEqual(absolute.references[0].localPath, expected)
    }

    func testLocalPathsArePercentEncoded() throws {
        // PINCache names hold '%'; the cache folder holds a space, '#', '?' and non-ASCII.
        let tree = TestTree("enc")
        let url = "https://img.example/a%20b.png"  // keys are URLs as apps pass them: encoded
        let cacheDir = "c # ? é/com.pinterest.PINDiskCache.x"
        tree.file("\(cacheDir)/\(PINName.encode(url))", contents: Images.png)
        tree.dir("out")
        let localizer = try Localizer(caches: [tree.path(cacheDir)])
        var options = LocalizeOptions()
        options.outputDirectory = tree.path("out")
        let result = localizer.localize(
            Array("<img src='https://img.example/a%20b.png'><img src=\"https://img.example/a b.png\">".utf8),
            options: options)
        let local = try XCTUnwrap(result.references.last?.localPath)
        XCTAssertEqual(
            local,
            "../c%20%23%20%3F%20%C3%A9/com.pinterest.PINDiskCache.x/"
                + "https%253A%252F%252Fimg%252Eexample%252Fa%252520b%252Epng"
        )
        XCTAssertEqual(
            result.references.map(\.outcome), [.rewritten, .rewritten], "a raw space resolves to the same URL")
    }

    func testEntitiesQuotesAndNewlinesInValues() throws {
        let (tree, localizer, _) = try setUp(["http://fakehost/q?a=1&b=2", "http://fakehost/it's.png"])
        let html =
            "<img src=\"/q?a=1&amp;b=2\"><img src='/q?a=1&#38;b=2'><img src=\"/it's.png\"><img\nsrc\n=\n/q?a=1&b=2\n>"
        let result = run(localizer, html, tree)
        XCTAssertEqual(
            result.references.filter { $0.outcome == .rewritten }.count, 4,
            "\(result.references.map { ($0.original, $0.outcome, $0.note) })")
        assertOnlyReferencesChanged(Array(html.utf8), result)
    }

    func testGBKPageKeepsItsBytes() throws {
        let (tree, localizer, _) = try setUp(["http://fakehost/%E5%9B%BE.png"])
        // "图片" in GBK is CD BC C6 AC; the URL path is percent-encoded UTF-8.
        let bytes: [UInt8] =
            Array("<html><head><meta charset=\"gb2312\"><title>".utf8) + [0xCD, 0xBC, 0xC6, 0xAC]
            + Array("</title></head><body><p>".utf8) + [0xCD, 0xBC]
            + Array("</p><img src=\"/%E5%9B%BE.png\"></body></html>".utf8)
        let result = run(localizer, bytes, tree)
        XCTAssertEqual(result.charset.encoding, "GBK")
        XCTAssertEqual(result.references.first?.outcome, .rewritten)
        assertOnlyReferencesChanged(bytes, result)
    }

    func testMetaThatLiesAboutItsCharsetDoesNotTruncate() throws {
        let (tree, localizer, _) = try setUp(["http://fakehost/after.png"])
        // UTF-8 bytes that are not valid GB2312/GBK, then an image far after them.
        let bytes =
            Array("<meta charset=\"gb2312\"><p>Ünïcödé — “quotes” 🙂</p>".utf8)
            + Array(repeating: UInt8(ascii: " "), count: 5000)
            + Array("<img src=\"/after.png\">".utf8)
        let result = run(localizer, bytes, tree)
        XCTAssertEqual(result.charset.source, .metaContradicted)
        XCTAssertEqual(result.references.first?.outcome, .rewritten)
        assertOnlyReferencesChanged(bytes, result)
    }

    /// An element pointed at a copy on disk loses `crossorigin` and `integrity`: Chromium
    /// fetches no `file:` URL in CORS mode (it showed no image, and no sheet), and a rewritten
    /// copy is not what the integrity names. An element left remote keeps both.
    func testAnElementMadeLocalLosesCrossoriginAndIntegrity() throws {
        let (tree, localizer, _) = try setUp(["http://fakehost/a.png"])
        let html =
            #"<img crossorigin src="/a.png" integrity='sha384-x'><img src="/b.png" crossorigin="anonymous">"#
            + #"<img CrossOrigin = use-credentials srcset="/a.png 2x">"#
        let output = String(decoding: run(localizer, html, tree).output, as: UTF8.self)
        XCTAssertEqual(
            output,
            #"<img  src="../store/\#(try localPath(output, 0))" ><img src="/b.png" crossorigin="anonymous">"#
                + #"<img  srcset="../store/\#(try localPath(output, 1)) 2x">"#)
    }

    /// The `n`th store-relative path in `output` (after `../store/`, up to a quote or space).
    private func localPath(_ output: String, _ n: Int) throws -> String {
        let parts = output.components(separatedBy: "../store/")
        return try XCTUnwrap(parts.dropFirst(n + 1).first?.prefix { $0 != "\"" && $0 != " " }.description)
    }

    /// HTML's order: a BOM, then the user's `--charset`, then the `Content-Type` the page came
    /// with, then its `<meta>`; the header's parameter is read quoted or not, in any case.
    func testTheContentTypeCharsetComesBeforeTheMeta() {
        let page = Array("<meta charset=\"gbk\"><p>x</p>".utf8)
        let served = "text/html; Charset=\"Shift_JIS\""
        XCTAssertEqual(Charset.decide(page, contentType: served).encoding, "SHIFT_JIS")
        XCTAssertEqual(Charset.decide(page, contentType: served).source, .contentType)
        XCTAssertEqual(Charset.decide(page, option: "euc-kr", contentType: served).source, .option)
        XCTAssertEqual(Charset.decide([0xEF, 0xBB, 0xBF] + page, contentType: served).source, .byteOrderMark)
        XCTAssertEqual(Charset.decide(page, contentType: "text/html").encoding, "GBK", "no charset: the meta")
        XCTAssertEqual(Charset.decide(page, contentType: "text/html; charset=bogus").encoding, "GBK")
        XCTAssertEqual(Charset.parameter(ofContentType: "text/html;charset=utf-8 ; q=1"), "utf-8")
        XCTAssertNil(Charset.parameter(ofContentType: "text/html; charset="))
    }

    func testWindows1252PageWithoutDeclaration() throws {
        let (tree, localizer, _) = try setUp(["http://fakehost/x.png"])
        let bytes: [UInt8] =
            Array("<p>caf".utf8) + [0xE9] + Array("</p><img alt=\"".utf8) + [0xE9] + Array("\" src=\"/x.png\">".utf8)
        let result = run(localizer, bytes, tree)
        XCTAssertEqual(result.charset.encoding, "windows-1252")
        assertOnlyReferencesChanged(bytes, result)
        XCTAssertEqual(result.references.first?.outcome, .rewritten)
    }

    /// A page in a legacy encoding writes its URLs' queries in that encoding (the URL
    /// Standard's query state): `?q=é` in windows-1252 is requested as `?q=%E9`, `?q=あ` in
    /// Shift_JIS as `?q=%82%A0`, a character the encoding lacks as `%26%23N%3B` (all were
    /// looked up as UTF-8, `%C3%A9`, and never found). Paths stay UTF-8.
    func testQueriesAreEncodedInThePagesEncoding() throws {
        let urls = [
            "http://fakehost/img?q=%E9", "http://fakehost/s?q=%82%A0", "http://fakehost/%C3%A9.png?q=%26%2312354%3B"
        ]
        let (tree, localizer, _) = try setUp(urls)
        let latin: [UInt8] =
            Array("<meta charset=windows-1252><img src=\"/img?q=".utf8) + [0xE9]
            + Array("\"><img src=\"/".utf8) + [0xE9] + Array(".png?q=&#x3042;\">".utf8)
        let sjis: [UInt8] = Array("<meta charset=shift_jis><img src=\"/s?q=".utf8) + [0x82, 0xA0] + Array("\">".utf8)
        for (page, count) in [(latin, 2), (sjis, 1)] {
            let result = run(localizer, page, tree)
            XCTAssertEqual(result.references.filter { $0.outcome == .rewritten }.count, count, "\(result.references)")
            XCTAssertEqual(Set(result.references.compactMap(\.resolved)).subtracting(urls), [])
            assertOnlyReferencesChanged(page, result)
        }
    }

    /// Shift_JIS is read as the Encoding Standard reads it (Windows-31J): ASCII bytes are
    /// ASCII, so `/~user/` and `a\b` keep their meaning, and NEC's row 13 decodes; EUC-KR as
    /// windows-949, whose extra Hangul glibc's EUC-KR misread. glibc's SHIFT_JIS made them
    /// `/‾user/` and `a¥b`, which resolved to `%E2%80%BE` and `%C2%A5` (never cached, a 404 with
    /// `--fetch`), and gave U+0081 and `A` for the Hangul `갂`.
    func testLegacyCharsetsAreReadAsTheEncodingStandardReadsThem() throws {
        let urls = [
            "http://fakehost/~user/a/b.png", "http://fakehost/%E2%91%A0.png", "http://fakehost/%EA%B0%82.png"
        ]
        let (tree, localizer, _) = try setUp(urls)
        let sjis: [UInt8] =
            Array("<meta charset=shift_jis><img src=\"/~user/a\\b.png\"><img src=\"/".utf8) + [0x87, 0x40]
            + Array(".png\">".utf8)
        let euckr: [UInt8] = Array("<meta charset=euc-kr><img src=\"/".utf8) + [0x81, 0x41] + Array(".png\">".utf8)
        for (page, count) in [(sjis, 2), (euckr, 1)] {
            let result = run(localizer, page, tree)
            XCTAssertEqual(
                result.references.filter { $0.outcome == .rewritten }.count, count,
                "\(result.references.map { $0.resolved ?? "-" })")
            XCTAssertEqual(Set(result.references.compactMap(\.resolved)).subtracting(urls), [])
            assertOnlyReferencesChanged(page, result)
        }
    }

    /// A srcset of many candidates is read in time linear in them: its references, visited
    /// backwards, were put in order by an insertion sort (8,000 candidates: 3.7 s; 62,500 did
    /// not finish in a minute, now 1 s, release build). The order is the page's, the sort
    /// stable, and the keys are read O(n log n) times (32 million times for 8,000 before).
    func testManyReferencesInOneTagArePutInOrderQuickly() throws {
        let urls = (0..<200).filter { $0 % 2 == 0 }.map { "http://fakehost/i\($0).png" }
        let (tree, localizer, _) = try setUp(urls)
        let html = "<img srcset=\"" + (0..<200).map { "/i\($0).png \($0 + 1)w" }.joined(separator: ", ") + "\">"
        let result = run(localizer, html, tree)
        XCTAssertEqual(result.references.count, 200)
        XCTAssertEqual(result.references.map(\.offset), result.references.map(\.offset).sorted())
        XCTAssertEqual(result.count(.rewritten), 100)
        assertOnlyReferencesChanged(Array(html.utf8), result)
        // The sort itself: stable, and its key read about n log n times.
        var items = (0..<8000).reversed().map { (key: $0 / 2, tag: $0) }
        var reads = 0
        PageRewriter.sortTail(&items, from: 0) {
            reads += 1
            return $0.key
        }
        XCTAssertEqual(items.map(\.key), (0..<8000).map { $0 / 2 })
        XCTAssertEqual(items.map(\.tag), (0..<8000).map { $0 ^ 1 }, "stable: equal keys keep their order")
        XCTAssertLessThan(reads, 8000 * 100)
    }

    /// A body is used only when the index can vouch for it: there, a regular file of the
    /// recorded size, reached from the root without a symlink. Expired ones count as stale.
    func testBodiesTheIndexCannotVouchForAreNotUsed() throws {
        let tree = TestTree("loc-bodies")
        let root = tree.path("store")
        let store = try NativeStore.open(root, create: true)
        func put(_ url: String, lifetime: Double? = nil) throws -> String {
            try store.put(url: url, bytes: Array("body of \(url)".utf8), options: PutOptions(lifetime: lifetime))
                .bodyPath
        }
        func directory(_ bodyPath: String) -> String { String(bodyPath[..<bodyPath.lastIndex(of: "/")!]) }
        let good = try put("http://fakehost/good.png")
        let deleted = try put("http://fakehost/deleted.png")
        let resized = try put("http://fakehost/resized.png")
        let expired = try put("http://fakehost/expired.png", lifetime: 60)
        let directories = Set([good, deleted, resized, expired].map(directory))
        // A body whose directory no other body shares, so it can be swapped for a symlink.
        var linked = ""
        var linkedURL = ""
        for i in 0..<100 {
            linkedURL = "http://fakehost/linked\(i).png"
            linked = try put(linkedURL)
            if !directories.contains(directory(linked)) { break }
        }
        XCTAssertFalse(directories.contains(directory(linked)))
        // Enough other bodies that the checks run in blocks shared between the two threads,
        // with the broken ones in the middle (those in the linked directory are lost with it).
        var fillers: [String] = []
        var fillersKept = 0
        for i in 0..<700 {
            fillers.append("http://fakehost/filler/\(i).png")
            if directory(try put(fillers[i])) != directory(linked) { fillersKept += 1 }
        }
        XCTAssertEqual(unlink(root.appending(deleted).description), 0)
        tree.file("store/" + resized, contents: Array("shorter".utf8))
        // The linked body's directory moves out of the store; a symlink takes its place. The
        // file is still there, whole, through the link.
        XCTAssertEqual(rename(root.appending(directory(linked)).description, tree.path("elsewhere").description), 0)
        tree.symlink(tree.path("elsewhere").description, at: "store/" + directory(linked))
        XCTAssertNotNil(try? FileIO.readAll(root.appending(linked)))
        tree.dir("out")

        func images(_ urls: ArraySlice<String>) -> String { urls.map { "<img src=\"\($0)\">" }.joined() }
        let special = """
            <img src="/good.png"><img src="/deleted.png"><img src="/resized.png"><img src="\(linkedURL)"><img \
            src="/expired.png">
            """
        for (html, fillerCount) in [
            (special, 0), (images(fillers[..<350]) + special + images(fillers[350...]), fillersKept)
        ] {
            for allowStale in [false, true] {
                let localizer = try Localizer(
                    caches: [root], now: FileTime(timeInterval: Date().timeIntervalSince1970 + 3600))
                var options = LocalizeOptions()
                options.pageURL = "http://fakehost/page.html"
                options.outputDirectory = tree.path("out")
                options.allowStale = allowStale
                let result = localizer.localize(Array(html.utf8), options: options)
                let outcomes = Dictionary(
                    uniqueKeysWithValues: result.references.map { ($0.resolved ?? "", $0.outcome) })
                XCTAssertEqual(outcomes["http://fakehost/good.png"], .rewritten)
                XCTAssertEqual(outcomes["http://fakehost/deleted.png"], .missing)
                XCTAssertEqual(outcomes["http://fakehost/resized.png"], .missing)
                XCTAssertEqual(outcomes[linkedURL], .missing)
                XCTAssertEqual(outcomes["http://fakehost/expired.png"], allowStale ? .rewritten : .stale)
                XCTAssertEqual(fillers.filter { outcomes[$0] == .rewritten }.count, fillerCount)
                XCTAssertEqual(result.count(.rewritten), fillerCount + 1 + (allowStale ? 1 : 0))
            }
        }
    }

    /// References the early guess could not read (entities in the value) are decided after
    /// the parse, their copies looked up in one batch, not one lookup each.
    func testReferencesDecidedLateAreLookedUpTogether() {
        let html = (0..<40).map { "<img src=\"/late/\($0).png?a=1&amp;b=2\">" }.joined()
        var batches: [[String]] = []
        var options = LocalizeOptions()
        options.pageURL = pageURL
        let result = PageRewriter().rewrite(
            Array(html.utf8), options: options,
            lookupMany: { urls in
                if !urls.isEmpty { batches.append(urls) }
                return urls.map { url in
                    url.contains("/late/1") ? CachedCopy(path: RawPath("/tmp/x.png"), isFresh: true) : nil
                }
            })
        XCTAssertEqual(batches.count, 1, "\(batches)")
        XCTAssertEqual(Set(batches.first ?? []).count, 40)
        XCTAssertEqual(result.count(.rewritten), 11, "1 and 10-19")
        XCTAssertEqual(result.count(.missing), 29)
    }

    /// A loop shared while another thread is inside `SiteWork.run` visits every index exactly
    /// once, and that thread takes part (the first block waits until it has taken one).
    func testSharedLoopRunsOnBothThreadsAndVisitsEachIndexOnce() {
        let work = PageRewriter.SiteWork()
        let count = 10_000
        let visits = UnsafeMutableBufferPointer<Int>.allocate(capacity: count)
        let onHelper = UnsafeMutableBufferPointer<Bool>.allocate(capacity: count)
        visits.initialize(repeating: 0)
        onHelper.initialize(repeating: false)
        defer {
            visits.deallocate()
            onHelper.deallocate()
        }
        let inRun = DispatchSemaphore(value: 0)
        let helperTookABlock = DispatchSemaphore(value: 0)
        let helperDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            // Reads its one chunk, then waits in `run` for decisions: free to help.
            work.run(
                chunks: 1,
                read: { _ in
                    inRun.signal()
                    return []
                }, apply: { _, _, _ in PageRewriter.SitesOutput() })
            helperDone.signal()
        }
        inRun.wait()
        work.loop.run(count) { range in
            let helper = !Thread.isMainThread
            for i in range {
                visits[i] += 1
                onHelper[i] = helper
            }
            if helper {
                helperTookABlock.signal()
            } else if range.lowerBound == 0 {
                _ = helperTookABlock.wait(timeout: .now() + 30)
            }
        }
        work.decided(PageRewriter.DecisionTable(), guessedBase: StandardURL(pageURL)!)
        helperDone.wait()
        XCTAssertTrue(visits.allSatisfy { $0 == 1 }, "each index once")
        XCTAssertTrue(onHelper.contains(true), "the thread in run took blocks")
        XCTAssertTrue(onHelper.contains(false), "so did the caller")
    }

    func testBadInputNeverCrashes() throws {
        let (tree, localizer, _) = try setUp(["http://fakehost/deep.png"])
        XCTAssertEqual(run(localizer, [], tree).output, [])
        var junk: [UInt8] = []
        var seed: UInt64 = 42
        for _ in 0..<200_000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            junk.append(UInt8(truncatingIfNeeded: seed >> 33))
        }
        XCTAssertEqual(run(localizer, junk, tree).output, junk, "nothing cached there: junk passes through unchanged")
        let invalid: [UInt8] = [
            0x3C, 0x69, 0x6D, 0x67, 0x20, 0x73, 0x72, 0x63, 0x3D, 0x22, 0xFF, 0xFE, 0x22, 0x3E, 0xC3, 0x28
        ]
        XCTAssertEqual(run(localizer, invalid, tree).output, invalid)
        let deep =
            String(repeating: "<div>", count: 100_000) + "<img src=\"/deep.png\">"
            + String(repeating: "</div>", count: 100_000)
        let result = run(localizer, deep, tree)
        assertOnlyReferencesChanged(Array(deep.utf8), result)
        let unterminated = "<img src=\"/deep.png"
        XCTAssertEqual(run(localizer, unterminated, tree).output, Array(unterminated.utf8))
    }
}

extension String {
    fileprivate var removingPercentEncodingForTest: String { self.removingPercentEncoding ?? self }
}

/// PINCache's naming, written out independently for the fixture.
private enum PINName {
    static func encode(_ key: String) -> String {
        key.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: ".", with: "%2E")
            .replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: "/", with: "%2F")
    }
}

extension LocalizerTests {
    /// libxml2 2.9 ended a value at `&#xB;`, `&#xC;`, `&#xE;`–`&#x10;`; the value is read as
    /// the HTML Standard reads it (the reference is the code point), not dropped.
    func testValuesLibXML2CutAtAControlReferenceAreReadWhole() throws {
        let (tree, localizer, _) = try setUp([
            "http://fakehost/test/a%0Bb.png", "http://fakehost/test/c%10d.png",
            "http://fakehost/test/e%0Ef.png"
        ])
        let html = "<p>x</p><img src=\"a&#xB;b.png\" alt=\"k\"><img src=\"c&#16;d.png\"><img srcset=\"e&#xE;f.png 2x\">"
        let result = run(localizer, html, tree)
        XCTAssertEqual(
            result.references.map(\.outcome), [.rewritten, .rewritten, .rewritten], "\(result.references.map(\.note))")
        XCTAssertEqual(result.references.first?.resolved, "http://fakehost/test/a%0Bb.png")
        assertOnlyReferencesChanged(Array(html.utf8), result)
    }

    /// Such a value with a byte that is not UTF-8 after the cut is left as it is: its srcset,
    /// read as a String (each bad byte three bytes long), pointed past the value's end, and a
    /// 44-byte page trapped the process (SIGILL).
    func testACutValueThatIsNotUTF8IsLeftAlone() throws {
        let (tree, localizer, _) = try setUp(["http://fakehost/test/a"])
        for attribute in ["srcset", "src", "style", "data-srcset"] {
            let value: [UInt8] = attribute == "style" ? Array("background:url(a&#11;".utf8) : Array("a&#11;".utf8)
            let page =
                Array("<meta charset=\"utf-8\"><img \(attribute)=\"".utf8) + value + [0xFF, 0xFE] + Array(")\">".utf8)
            XCTAssertEqual(run(localizer, page, tree).output, page, attribute)
        }
    }
}
