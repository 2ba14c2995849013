import CacheKit
import Foundation
import TestSupport
import XCTest

/// Localized pages proven in a real browser: corpus pages served (as from
/// http://fakehost/test/page.html) by the loopback server acting as the proxy for every host,
/// saved with `localize URL --fetch --output-dir`, then opened in headless Chromium with the
/// network cut off: every image the page was pointed at locally must have loaded.
final class BrowserEndToEndTests: XCTestCase {
    /// Chromium with no network: a proxy that refuses and every name unresolvable.
    private func offline(_ chromium: String, profile: String) -> [String] {
        [
            chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=\(profile)",
            "--proxy-server=http://127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND",
            "--allow-file-access-from-files",
            "--virtual-time-budget=5000"
        ]
    }

    /// What a probe script reports: `probe` (a script that sets the title to `PROBE ` and a
    /// JSON object once the page has loaded) appended to the page `page`, written as
    /// `probe.html` in the tree's folder `folder` (beside the page, so its relative references
    /// hold), opened in Chromium offline; nil, with the failure recorded, when Chromium gives
    /// no probe result.
    private func probe(
        _ page: [UInt8], with probe: String, in tree: TestTree, folder: String, chromium: String, profile: RawPath,
        context: @autoclosure () -> String
    ) throws -> [String: Any]? {
        let file = tree.file("\(folder)/probe.html", contents: page + Array(probe.utf8))
        let dom = Run.command(
            offline(chromium, profile: profile.description) + ["--dump-dom", "file://" + file.canonical.description])
        guard let start = dom.out.range(of: "PROBE "), let end = dom.out[start.upperBound...].range(of: "</title>")
        else {
            XCTFail("\(context()): no probe result from Chromium: \(dom.err.suffix(500))")
            return nil
        }
        return try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(dom.out[start.upperBound..<end.lowerBound].utf8)) as? [String: Any])
    }

    func testSavedCorpusPagesShowTheirImagesOffline() throws {
        guard let chromium = ["chromium", "chromium-browser"].first(where: Run.available) else {
            throw XCTSkip(
                "Chromium is not installed and Scripts/test-deps could not install it: the browser proof did not run")
        }
        let corpus = try ReferenceData.shared("corpus/pages")
        let tree = TestTree("browser")
        tree.dir("www")
        let pages = ["wikipedia.html", "tmz-1.html", "wapo-1.html"]
        for name in pages {
            tree.file("www/\(name)", contents: Array(try Data(contentsOf: corpus.appendingPathComponent(name))))
        }
        let server = try TestHTTPServer(root: tree.path("www"))
        let proxy = ["http_proxy": "http://127.0.0.1:\(server.port)"]
        let store = tree.path("store").description
        var checked = 0
        for name in pages {
            let url = "http://fakehost/test/page.html?p=\(name)"
            let saved = tree.path("saved-\(name)")
            let run = Binary.run(
                ["localize", url, "--fetch", "--styles", "--cache", store, "--output-dir", saved.description, "--json"],
                environment: proxy)
            XCTAssertEqual(run.status, 0, run.err)
            let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: Any])
            let references = (report["pages"] as? [[String: Any]])?.first?["references"] as? [[String: Any]] ?? []
            let rewritten = references.filter {
                $0["outcome"] as? String == "rewritten" && $0["element"] as? String == "img"
            }
            XCTAssertGreaterThan(rewritten.count, 0, "\(name): no image was localized: \(run.err)")

            // A copy of the saved page with a probe appended (the saved page itself is not
            // changed): after load, the title lists every local <img> that did not render.
            let page = try FileIOProbe.read(saved.appending("page.html"))
            let probe = """
                <script>window.addEventListener('load', function () {
                  var local = Array.prototype.filter.call(document.images, function (i) { return \
                /^file:/.test(i.currentSrc || i.src); });
                  var bad = local.filter(function (i) { return !(i.complete && i.naturalWidth > 0); }).map(function \
                (i) { return i.getAttribute('src'); });
                  var sheets = Array.prototype.filter.call(document.querySelectorAll('link[rel~=stylesheet]'), \
                function (l) { return /^page_files\\//.test(l.getAttribute('href')); });
                  var unapplied = sheets.filter(function (l) { return !l.sheet; }).map(function (l) { return \
                l.getAttribute('href'); });
                  var background = getComputedStyle(document.documentElement).backgroundImage;
                  document.title = 'PROBE ' + JSON.stringify({local: local.length, bad: bad, sheets: sheets.length, \
                unapplied: unapplied, background: background});
                });</script>
                """
            guard
                let result = try self.probe(
                    page, with: probe, in: tree, folder: "saved-\(name)", chromium: chromium,
                    profile: tree.path("profile-\(name)"), context: name)
            else { continue }
            let local = result["local"] as? Int ?? 0
            let bad = result["bad"] as? [String] ?? ["?"]
            XCTAssertGreaterThan(local, 0, "\(name): Chromium saw no local image")
            XCTAssertEqual(bad, [], "\(name): local images that did not render offline")
            // Stylesheets saved with --styles are applied offline: the loopback server's
            // stylesheets give <html> a background image, which must come from page_files.
            let sheets = result["sheets"] as? Int ?? 0
            XCTAssertGreaterThan(sheets, 0, "\(name): no stylesheet was saved")
            XCTAssertEqual(result["unapplied"] as? [String] ?? ["?"], [], "\(name): saved stylesheets not applied")
            XCTAssertTrue(
                (result["background"] as? String ?? "").contains("page_files/"),
                "\(name): \(result["background"] ?? "")")
            checked += local
            // Screenshots of the page online (through the loopback proxy) and saved (offline),
            // for a person to compare: left in the test's folder.
            _ = Run.command([
                chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--user-data-dir=\(tree.path("profile-online-\(name)").description)",
                "--proxy-server=http://127.0.0.1:\(server.port)", "--window-size=1280,2000",
                "--screenshot=\(tree.path("online-\(name).png").description)", url
            ])
            _ = Run.command(
                offline(chromium, profile: tree.path("profile-shot-\(name)").description)
                    + [
                        "--window-size=1280,2000", "--screenshot=\(tree.path("offline-\(name).png").description)",
                        "file://" + saved.appending("page.html").canonical.description
                    ])
        }
        XCTAssertGreaterThan(checked, 10)

        // Pinned instead of copied (--no-assets, written elsewhere): the page points into the
        // store, and still shows its images offline.
        let pinnedDirectory = tree.dir("pinned")
        let pinned = Binary.run(
            [
                "localize", "http://fakehost/test/page.html?p=wikipedia.html", "--fetch", "--cache", store,
                "--no-assets", "-o", pinnedDirectory.appending("page.html").description
            ], environment: proxy)
        XCTAssertEqual(pinned.status, 0, pinned.err)
        XCTAssertTrue(Binary.run(["ls", store]).out.contains("pinned by"))
        let page = try FileIOProbe.read(pinnedDirectory.appending("page.html"))
        let probe =
            "<script>window.addEventListener('load', function () { "
            + "var local = Array.prototype.filter.call(document.images, "
            + "function (i) { return /^file:/.test(i.currentSrc || i.src); }); "
            + "document.title = 'PROBE ' + JSON.stringify({local: local.length, "
            + "bad: local.filter(function (i) { return !(i.complete && i.naturalWidth > 0); }).length}); });</script>"
        let shown = try self.probe(
            page, with: probe, in: tree, folder: "pinned", chromium: chromium, profile: tree.path("profile-pinned"),
            context: "pinned")
        XCTAssertEqual(shown?["local"] as? Int, 15, "\(shown ?? [:])")
        XCTAssertEqual(shown?["bad"] as? Int, 0, "\(shown ?? [:])")
    }

    /// A Shift_JIS page and its Shift_JIS stylesheet, saved with `--fetch --styles`, show their
    /// image and background offline: `<img src="~a表.png">` (a `~` glibc's SHIFT_JIS read as ‾)
    /// and the sheet's `url(画像表.png)` (the sheet, served as Shift_JIS, was read as UTF-8).
    /// Fails on the binary before: both were fetched under wrong URLs (`%E2%80%BEa%E8%A1%A8.png`,
    /// `%EF%BF%BD%E6%91%9C%EF%BF%BD.png`: 404) and left remote, so neither showed offline.
    func testALegacyCharsetPageAndItsStylesheetShowOffline() throws {
        guard let chromium = ["chromium", "chromium-browser"].first(where: Run.available) else {
            throw XCTSkip(
                "Chromium is not installed and Scripts/test-deps could not install it: the browser proof did not run")
        }
        let tree = TestTree("browser-sjis")
        let sheetName: [UInt8] = [0x89, 0xE6, 0x91, 0x9C, 0x95, 0x5C]  // 画像表
        let imageName: [UInt8] = [0x7E, 0x61, 0x95, 0x5C]  // ~a表
        // The server does not decode names: the files bear the request targets' encoded names.
        tree.file("www/%E7%94%BB%E5%83%8F%E8%A1%A8.png", contents: Images.png)
        tree.file("www/~a%E8%A1%A8.png", contents: Images.png)
        tree.file("www/sj.css", contents: Array("body { background: url(".utf8) + sheetName + Array(".png) }".utf8))
        let sheet = "sj.css?cc=max-age=3600&amp;type=text/css;%20charset=Shift_JIS"
        let head = "<html><head><link rel=\"stylesheet\" href=\"\(sheet)\"></head><body><img src=\""
        tree.file("www/sj.html", contents: Array(head.utf8) + imageName + Array(".png\"></body></html>\n".utf8))
        let server = try TestHTTPServer(root: tree.path("www"))
        let saved = tree.path("saved")
        let run = Binary.run([
            "localize", server.url("/files/sj.html?cc=max-age=3600&type=text/html;%20charset=Shift_JIS"), "--fetch",
            "--styles", "--cache", tree.path("store").description, "--output-dir", saved.description
        ])
        XCTAssertEqual(run.status, 0, run.err)
        server.stop()
        let pageName = try XCTUnwrap(
            try FileManager.default.contentsOfDirectory(atPath: saved.description).first { $0.hasSuffix(".html") })
        let page = try FileIOProbe.read(saved.appending(pageName))
        let probe = """
            <script>window.addEventListener('load', function () {
              var img = document.images[0];
              var background = getComputedStyle(document.body).backgroundImage;
              var probe = new Image();
              probe.onload = probe.onerror = function () {
                document.title = 'PROBE ' + JSON.stringify({img: img.complete && img.naturalWidth > 0 && \
            /^file:/.test(img.currentSrc), background: background, backgroundLoaded: probe.naturalWidth > 0});
              };
              probe.src = background.replace(/^url\\("?/, '').replace(/"?\\)$/, '');
            });</script>
            """
        guard
            let result = try self.probe(
                page, with: probe, in: tree, folder: "saved", chromium: chromium, profile: tree.path("profile"),
                context: run.err)
        else { return }
        XCTAssertEqual(result["img"] as? Bool, true, "\(result) \(run.err)")
        XCTAssertTrue((result["background"] as? String ?? "").contains("_files/"), "\(result) \(run.err)")
        XCTAssertEqual(result["backgroundLoaded"] as? Bool, true, "\(result)")
    }
}
