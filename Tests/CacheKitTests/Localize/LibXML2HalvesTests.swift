import CacheKitSystem
import Foundation
import XCTest

@testable import PageRewrite

/// A large page is parsed by two libxml2 parsers at once (LibXML2+Halves.swift): the elements
/// must be exactly those one parser reports, wherever the second parser starts.
final class LibXML2HalvesTests: XCTestCase {
    /// Every start tag of `page` as a split point (or `limit` of them, evenly spread): the
    /// halves' elements equal one parser's. Returns how many splits met (the rest fell back).
    @discardableResult
    private func assertHalvesEqualOne(_ page: [UInt8], limit: Int = .max, _ label: String) -> (met: Int, tried: Int) {
        var starts: [Int] = []
        for i in 1..<max(1, page.count - 1) where page[i] == UInt8(ascii: "<") {
            let next = page[i + 1] | 0x20
            if next >= 0x61 && next <= 0x7A { starts.append(i) }
        }
        if starts.count > limit { starts = (0..<limit).map { starts[$0 * starts.count / limit] } }
        var met = 0
        page.withUnsafeBufferPointer { buffer in
            for everyURLAttribute in [true, false] {
                let one = LibXML2.oneParser(buffer, everyURLAttribute: everyURLAttribute)
                for split in starts {
                    let halves = LibXML2.inHalves(page, at: split, everyURLAttribute: everyURLAttribute)
                    if halves.met { met += 1 }
                    guard let difference = Self.firstDifference(one, Array(halves.parts.joined())) else { continue }
                    XCTFail("\(label): split at \(split) (met: \(halves.met)): \(difference)")
                    return
                }
            }
        }
        return (met, starts.count * 2)
    }

    private static func firstDifference(_ a: [LibXML2.StartElement], _ b: [LibXML2.StartElement]) -> String? {
        for i in 0..<min(a.count, b.count) {
            let x = a[i]
            let y = b[i]
            if x.name != y.name || x.consumed != y.consumed || x.insidePicture != y.insidePicture
                || x.attributes.map(\.name) != y.attributes.map(\.name)
                || x.attributes.map(\.value) != y.attributes.map(\.value)
            {
                return "element \(i): <\(x.name)> at \(x.consumed) (in picture: \(x.insidePicture), "
                    + "\(x.attributes)) against <\(y.name)> at \(y.consumed) (\(y.insidePicture), \(y.attributes))"
            }
        }
        return a.count == b.count ? nil : "\(a.count) elements against \(b.count)"
    }

    /// Pages whose middle is hard to start in: scripts, styles and comments holding tags,
    /// tags in attribute values, misplaced <html>/<head>/<body> (libxml2 ignores them, and then
    /// their end tags), pictures with nested sources, unclosed and unterminated tags, a page
    /// that ends inside a tag. Every start tag is tried as the split.
    func testEverySplitOfHardPagesGivesOneParsersElements() {
        let pages = [
            """
            <!DOCTYPE html><html><head><title>t</title><script>if (a<b) { x = "<div class='s'>"; }
            </script><style>p { background: url(<b>) }</style></head><body class="b">
            <!-- <img src="in-comment.png"> --><p id=1>one <img src="a.png" alt="<b class=x>">
            <picture><source srcset="p1.png"><source srcset="p2.png"><img src="p.png"></picture>
            <div><ul><li class=i>x<li class=j>y</ul><table><tr><td class=c>z</table></div>
            <html lang=en><head><meta charset=utf-8></head><body class=again><p class=late>
            </body></html>
            """,
            """
            <p class=a>text<body onload=x><p class=b><head><title>x</title></head>
            <textarea class=t><img src=inside.png></textarea><xmp class=x><img src=xmp.png></xmp>
            <select><option class=o>1<option class=o2>2</select><a href="x.html"><img src=y.png></a>
            </body></html><!DOCTYPE html><html><body><div class=second><img src=z.png></div></body></html>
            <p class=after <img src=broken.png> <div class=tail>done</div><img src="unterminated
            """,
            String(
                repeating: "<div class=w><p class=x>filler &amp; text <img src=\"i.png\" srcset=\"j.png 2x\"></p>\n",
                count: 40) + "<script>document.write('<p class=\"w\">')</script><p class=end>end",
            String(
                repeating: "<div class=w><p class=x>text <img src=\"i.png\"></p><br class=y></div>\n<p class=z>",
                count: 40),
            // Misplaced <body> tags make libxml2 ignore as many </body> and </html> (`depth`): a
            // second parser starting after them, with the same open elements, would close the
            // page there and imply a new <html> for the last <p>.
            "<body class=a><p class=b><body class=c><body class=c2><p class=d></body></html><p class=e>",
            // After a body, libxml2 implies no <head> before <title> (`html`): a second parser
            // starting at the second <html> would.
            "<body class=a></body></html><html class=h><title class=t>x</title><p class=p>",
            // As many open elements, not the same ones: a second parser starting at <span> has a
            // body where the first has the picture the <source> is in.
            "<body class=a></body><picture class=p><span class=s><source srcset=x><img src=y>"
        ]
        var met = 0
        for (n, page) in pages.enumerated() { met += assertHalvesEqualOne(Array(page.utf8), "hard page \(n)").met }
        XCTAssertGreaterThan(met, 0, "no split met: the halves' results were never used")
    }

    /// The corpus pages one after another (as Scripts/bench/localize's page): 60 splits spread
    /// over it give one parser's elements, and most of them meet (the parse is really shared).
    func testCorpusInHalvesGivesOneParsersElementsAndMostSplitsMeet() throws {
        guard let corpus = CorpusTests.corpus else {
            throw XCTSkip("no shared/corpus/pages beside or above the package; set CACHECTL_CORPUS")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter { $0.hasSuffix(".html") }
        var page: [UInt8] = []
        for name in names.sorted() {
            page += try Array(Data(contentsOf: corpus.appendingPathComponent(name)))
        }
        let (met, tried) = assertHalvesEqualOne(page, limit: 30, "corpus")
        XCTAssertGreaterThan(met, tried / 2, "only \(met) of \(tried) splits met: the halves are not shared")
    }

    /// As localize runs it: another thread starts the second half wherever the first parser
    /// has got to; the elements are one parser's whenever it starts, and nothing starts once
    /// the first parser has finished.
    func testASecondHalfStartedAnyTimeGivesOneParsersElements() {
        let row = "<div class=w><p class=x>text &amp; more <img src=\"i.png\" srcset=\"j.png 2x\"></p></div>\n"
        let page = Array(String(repeating: row, count: 3 * LibXML2.SecondHalf.minimumLeft / row.utf8.count).utf8)
        let one = page.withUnsafeBufferPointer { LibXML2.oneParser($0, everyURLAttribute: true) }
        var met = 0
        for delay in [0, 1_000, 5_000, 20_000] {
            let half = LibXML2.SecondHalf(page, everyURLAttribute: true)
            let (_, parts) = WorkerPool.both(
                {
                    usleep(useconds_t(delay))
                    half.parse()
                },
                { LibXML2.startElementParts(ofUTF8: page, everyURLAttribute: true, secondHalf: half) })
            if parts.count == 2 { met += 1 }
            if let difference = Self.firstDifference(one, Array(parts.joined())) {
                XCTFail("second half after \(delay) µs: \(difference)")
            }
            XCTAssertNil(half.claim(at: nil), "a second half started after the first parser finished")
        }
        XCTAssertGreaterThan(met, 0, "no second half was ever used")
    }

    /// The split point is a start tag past the middle, at a line's start where there is one.
    func testSplitPointIsAStartTagPastTheMiddle() {
        let page = Array(("<p class=a>" + String(repeating: "x", count: 100) + "<b>y</b>\n<i>z</i>").utf8)
        page.withUnsafeBufferPointer { buffer in
            guard let split = LibXML2.splitPoint(buffer) else { return XCTFail("no split point") }
            XCTAssertGreaterThanOrEqual(split, page.count / 2)
            XCTAssertEqual(Array(page[split..<split + 3]), Array("<i>".utf8))
        }
        XCTAssertNil(Array("just text, no tags at all".utf8).withUnsafeBufferPointer { LibXML2.splitPoint($0) })
    }
}
