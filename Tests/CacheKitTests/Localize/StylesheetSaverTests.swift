import CacheKitSystem
import TestSupport
import XCTest

@testable import PageRewrite

/// `StylesheetSaver` over stylesheets held in memory: what it finds in a stylesheet, and
/// that no stylesheet, however its references overlap, stops the run.
final class StylesheetSaverTests: XCTestCase {
    /// Stylesheets by URL, served as if cached; placed files named, written sheets kept.
    private final class Sheets: CopyPlacer {
        var bodies: [String: [UInt8]] = [:]
        var written: [String: [UInt8]] = [:]
        /// Each URL's file, named when first placed (placing it again replaces it).
        var names: [String: String] = [:]
        /// Cached bodies placed as they are.
        var copies: [String] = []
        let linked = 0
        let copied = 0
        let cloned = 0
        let unplaced: [String] = []

        func place(_ file: RawPath, url: String) -> RawPath? {
            copies.append(url)
            return RawPath("/out/page_files/" + (url.split(separator: "/").last.map(String.init) ?? "x"))
        }

        func placeBytes(_ bytes: [UInt8], url: String, ext: String) -> RawPath? {
            written[url] = bytes
            let name = names[url] ?? "sheet\(names.count + 1).\(ext)"
            names[url] = name
            return RawPath("/out/page_files/" + name)
        }

        func save(_ page: String) -> (page: String, report: StylesheetSaver.Report) {
            let saver = StylesheetSaver(
                assets: self, lookup: { url in RawPath("/cache/" + String(url.utf8.count)) },
                read: { [self] path in
                    bodies.first { "/cache/" + String($0.key.utf8.count) == path.description }?.value ?? []
                })
            let saved = saver.save(
                page: Array(page.utf8), base: "http://site.test/page.html", outputDirectory: RawPath("/out"))
            return (String(decoding: saved.page, as: UTF8.self), saved.report)
        }
    }

    /// An `@import` string holding `url(…)` is one reference, not two overlapping ones: the
    /// two edits of the same bytes trapped the process (a replacement shorter than the URL
    /// left the outer edit's range past the end).
    func testImportStringHoldingURLIsOneReference() {
        let css = #"@import "url(http://cdn.example.test/a/long/path/to/x.png)"; p { color: red }"#
        let refs = StylesheetSaver.references(in: Array(css.utf8))
        XCTAssertEqual(refs.count, 1, "\(refs)")
        let sheets = Sheets()
        sheets.bodies["http://site.test/style.css"] = Array(css.utf8)
        let saved = sheets.save(#"<link rel="stylesheet" href="style.css">"#)
        XCTAssertEqual(saved.report.saved, 2)
        let name = sheets.names["http://site.test/style.css"] ?? "?"
        XCTAssertTrue(saved.page.contains(#"href="page_files/"# + name + "\""), saved.page)
    }

    /// An `@import` cycle saves each sheet once, each pointing at the other's saved file; a
    /// reference left remote is made absolute against its sheet's URL (it was left relative,
    /// so it led nowhere beside the page), a fragment-only one stays. The cycle used to save
    /// unrewritten copies of both sheets beside the rewritten ones once four levels deep.
    func testAnImportCycleIsSavedOnceAndRemoteReferencesStayWhole() {
        let sheets = Sheets()
        sheets.bodies["http://site.test/css/a.css"] = Array(
            (#"@import "b.css"; @font-face { src: url(../fonts/gone.woff) } p { filter: url(#f) } "#
                + #"q { background: url(data:,a%20b) }"#).utf8)
        sheets.bodies["http://site.test/css/b.css"] = Array(#"@import url(a.css); q { color: red }"#.utf8)
        let saver = StylesheetSaver(
            assets: sheets,
            lookup: { url in sheets.bodies[url] == nil ? nil : RawPath("/cache/" + url.filter(\.isLetter)) },
            read: { path in sheets.bodies.first { "/cache/" + $0.key.filter(\.isLetter) == path.description }?.value })
        let saved = saver.save(
            page: Array(#"<link rel="stylesheet" href="css/a.css">"#.utf8), base: "http://site.test/page.html",
            outputDirectory: RawPath("/out"))
        XCTAssertEqual(
            String(decoding: saved.page, as: UTF8.self), #"<link rel="stylesheet" href="page_files/sheet1.css">"#)
        XCTAssertEqual(saved.report.saved, 2)
        XCTAssertEqual(sheets.copies, [], "no sheet placed as it was cached")
        XCTAssertEqual(
            sheets.written["http://site.test/css/a.css"].map { String(decoding: $0, as: UTF8.self) },
            #"@import "sheet2.css"; @font-face { src: url(http://site.test/fonts/gone.woff) } p { filter: url(#f) } "#
                + #"q { background: url(data:,a%20b) }"#)
        XCTAssertEqual(
            sheets.written["http://site.test/css/b.css"].map { String(decoding: $0, as: UTF8.self) },
            #"@import url(sheet1.css); q { color: red }"#)
        XCTAssertEqual(saved.report.missing, ["http://site.test/fonts/gone.woff"])
    }

    /// A stylesheet that redirects led elsewhere resolves its references against where it
    /// came from, as a browser does (they resolved against the URL the page linked).
    func testASheetResolvesAgainstTheURLItCameFrom() {
        let sheets = Sheets()
        sheets.bodies["http://site.test/style.css"] = Array("p { background: url(bg.png) }".utf8)
        sheets.bodies["http://cdn.test/v2/bg.png"] = Images.png
        let saver = StylesheetSaver(
            assets: sheets,
            lookup: { url in sheets.bodies[url] == nil ? nil : RawPath("/cache/" + url.filter(\.isLetter)) },
            read: { path in sheets.bodies.first { "/cache/" + $0.key.filter(\.isLetter) == path.description }?.value },
            origin: { $0 == "http://site.test/style.css" ? "http://cdn.test/v2/style.css" : nil })
        let saved = saver.save(
            page: Array(#"<link rel="stylesheet" href="style.css">"#.utf8), base: "http://site.test/page.html",
            outputDirectory: RawPath("/out"))
        XCTAssertEqual(saved.report.missing, [])
        XCTAssertEqual(sheets.copies, ["http://cdn.test/v2/bg.png"])
        XCTAssertEqual(
            sheets.written["http://site.test/style.css"].map { String(decoding: $0, as: UTF8.self) },
            "p { background: url(bg.png) }", "the placed copy's name, beside the sheet")
    }

    /// A link pointed at a saved sheet loses `integrity` (the saved copy is rewritten) and
    /// `crossorigin` (a `file:` URL is never fetched in CORS mode): Chromium applied no sheet.
    func testASavedSheetsLinkLosesIntegrityAndCrossorigin() {
        let sheets = Sheets()
        sheets.bodies["http://site.test/style.css"] = Array("p { color: red }".utf8)
        let saved = sheets.save(#"<link integrity="sha384-x" rel="stylesheet" href="style.css" crossorigin>"#)
        XCTAssertEqual(saved.page, #"<link  rel="stylesheet" href="page_files/sheet1.css" >"#)
    }

    /// What CSS Syntax makes a reference: `url(…)` and `@import` strings, not what a comment
    /// or a string holds; `@import url(…)` is an import; a string left open ends at its line.
    func testReferencesAreReadAsCSSTokenizesThem() {
        let css = """
            @import url(a.css) screen; @IMPORT/**/'b.css';
            /* @import "c.css"; url(d.png) */
            p::before { content: "url(e.png) @import 'f.css'" }
            q { background: url( "g.png" ) } r { content: 'it\\'s url(h.png)' }
            s { content: "open url(i.png)
            t { background: url(j.png) } u\\"v { background: url(k.png) }
            """
        let refs = StylesheetSaver.references(in: Array(css.utf8))
        XCTAssertEqual(refs.map(\.url), ["a.css", "b.css", "g.png", "j.png", "k.png"])
        XCTAssertEqual(refs.map(\.isImport), [true, true, false, false, false])
        for ref in refs { XCTAssertEqual(String(decoding: Array(css.utf8)[ref.range], as: UTF8.self), ref.url) }
    }

    /// Stylesheets made of fragments that open, close and nest references every way: each
    /// is saved, and no run stops the process.
    func testNoStylesheetStopsTheRun() {
        let pieces = [
            "@import ", "url(", ")", "\"", "'", "/*", "*/", "\\", "\n", "x.png", "http://cdn.test/a/long/y.css",
            " ", ";", "}", "url(\"", "@import \"", "@import url(", "u", "rl("
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let css = (0..<Int.random(in: 1...24, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }.joined()
            let refs = StylesheetSaver.references(in: Array(css.utf8))
            for (a, b) in zip(refs, refs.dropFirst()) {
                XCTAssertLessThanOrEqual(a.range.upperBound, b.range.lowerBound, css)
            }
            let sheets = Sheets()
            sheets.bodies["http://site.test/style.css"] = Array(css.utf8)
            XCTAssertGreaterThanOrEqual(sheets.save(#"<link rel="stylesheet" href="style.css">"#).report.saved, 1, css)
        }
    }

    // MARK: A stylesheet's own charset

    /// `画像/表.png` and `無.png` in Shift_JIS: `表` is 0x95 0x5C, its second byte a backslash
    /// to a byte-level CSS reader (an escape, which swallowed the `.`).
    private static let shiftJISSheet: [UInt8] =
        Array("p { background: url(".utf8) + [0x89, 0xE6, 0x91, 0x9C, 0x2F, 0x95, 0x5C] + Array(".png) }".utf8)
        + Array(" q { background: url(".utf8) + [0x96, 0xB3] + Array(".png) }".utf8)

    /// Saves `css`, served with `contentType`, from a page in `pageCharset`; `表.png` is cached
    /// (at the URL its UTF-8 path makes, as a browser requests it), `無.png` is not.
    private func saveJapaneseSheet(_ css: [UInt8], contentType: String?, page: [UInt8] = [])
        -> (sheet: [UInt8], report: StylesheetSaver.Report, copies: [String])
    {
        let sheets = Sheets()
        sheets.bodies["http://site.test/css/style.css"] = css
        sheets.bodies["http://site.test/css/%E7%94%BB%E5%83%8F/%E8%A1%A8.png"] = Images.png
        let saver = StylesheetSaver(
            assets: sheets,
            lookup: { url in sheets.bodies[url] == nil ? nil : RawPath("/cache/" + url.filter(\.isLetter)) },
            read: { path in sheets.bodies.first { "/cache/" + $0.key.filter(\.isLetter) == path.description }?.value },
            contentType: { $0 == "http://site.test/css/style.css" ? contentType : nil })
        let saved = saver.save(
            page: page + Array(#"<link rel="stylesheet" href="css/style.css">"#.utf8),
            base: "http://site.test/page.html", outputDirectory: RawPath("/out"))
        return (sheets.written["http://site.test/css/style.css"] ?? [], saved.report, sheets.copies)
    }

    /// A sheet is read in its own charset (CSS Syntax §3.2): here the `Content-Type` it was
    /// served with, an `@charset` rule, or the page's charset. Its cached image is found and
    /// made local, its other reference made absolute by its real name, and every other byte
    /// (Shift_JIS) kept. It was read as UTF-8: the image was looked up under a mojibake URL
    /// (missing) and the sheet's working relative reference rewritten to a broken one.
    func testASheetIsReadInItsOwnCharset() {
        // The copy's name beside the sheet (this placer names it by the URL's last segment).
        let local = URLText.encodeSegment(Array("%E8%A1%A8.png".utf8))
        let expected = Array(
            "p { background: url(\(local)) } q { background: url(http://site.test/css/%E7%84%A1.png) }".utf8)
        let declared = Array(#"@charset "shift_jis";"#.utf8)
        let metaPage = Array(#"<meta charset="shift_jis">"#.utf8)
        let utf8Rule = Array(#"@charset "utf-8";"#.utf8)
        for (name, css, contentType, page) in [
            ("Content-Type", Self.shiftJISSheet, "text/css; charset=Shift_JIS", [UInt8]()),
            ("@charset", declared + Self.shiftJISSheet, nil, []),
            ("the page's charset", Self.shiftJISSheet, nil, metaPage),
            ("Content-Type over @charset", utf8Rule + Self.shiftJISSheet, "text/css;charset=sjis", [])
        ] as [(String, [UInt8], String?, [UInt8])] {
            let saved = saveJapaneseSheet(css, contentType: contentType, page: page)
            XCTAssertEqual(saved.copies, ["http://site.test/css/%E7%94%BB%E5%83%8F/%E8%A1%A8.png"], name)
            XCTAssertEqual(saved.report.missing, ["http://site.test/css/%E7%84%A1.png"], name)
            let prefix = Array(css.prefix(css.count - Self.shiftJISSheet.count))
            XCTAssertEqual(saved.sheet, prefix + expected, name)
        }
    }

    /// CSS Syntax §3.2's order: a byte order mark, the `Content-Type`'s charset, an exact
    /// `@charset "…";` at the start (UTF-16 named there means UTF-8), the environment (not
    /// UTF-16), UTF-8; unknown labels are passed over.
    func testTheSheetCharsetFollowsCSSSyntax() {
        let sjis = "text/css; charset=Shift_JIS"
        let rule = Array(#"@charset "windows-1251";"#.utf8)
        func encoding(_ css: [UInt8], _ contentType: String?, _ environment: String?) -> String {
            StylesheetSaver.encoding(of: css, contentType: contentType, environment: environment)
        }
        XCTAssertEqual(encoding([0xEF, 0xBB, 0xBF] + rule, sjis, "GBK"), "UTF-8")
        XCTAssertEqual(encoding([0xFF, 0xFE, 0x70, 0x00], sjis, nil), "UTF-16LE")
        XCTAssertEqual(encoding([0xFE, 0xFF, 0x00, 0x70], nil, nil), "UTF-16BE")
        XCTAssertEqual(encoding(rule, sjis, "GBK"), "SHIFT_JIS")
        XCTAssertEqual(encoding(rule, "text/css; charset=nonsense", "GBK"), "windows-1251")
        XCTAssertEqual(encoding(rule, nil, nil), "windows-1251")
        XCTAssertEqual(encoding(Array(#"@charset "utf-16le";"#.utf8), nil, "GBK"), "UTF-8")
        // Not exactly the rule: a space before it, single quotes, no `;`, upper case.
        for loose in [#" @charset "koi8-r";"#, #"@charset 'koi8-r';"#, #"@charset "koi8-r""#, #"@CHARSET "koi8-r";"#] {
            XCTAssertEqual(encoding(Array(loose.utf8), nil, "GBK"), "GBK", loose)
        }
        XCTAssertEqual(encoding(Array("p {}".utf8), nil, "UTF-16LE"), "UTF-8")
        XCTAssertEqual(encoding(Array("p {}".utf8), nil, nil), "UTF-8")
    }
}
