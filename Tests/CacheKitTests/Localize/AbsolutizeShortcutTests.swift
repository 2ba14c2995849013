import Foundation
import TestSupport
import XCTest

@testable import CacheKit
@testable import CacheKitStore
@testable import PageRewrite

/// Absolutizing passes over the values the image sites rewrote whole (none of their URLs is
/// left to make absolute): on every real page, with most of its images cached, the output is
/// byte for byte what reading every value gives.
final class AbsolutizeShortcutTests: XCTestCase {
    func testEveryCorpusPageIsAbsolutizedAsWithoutTheShortcut() throws {
        guard let corpus = CorpusTests.corpus else {
            throw XCTSkip("no shared/corpus/pages beside or above the package; set CACHECTL_CORPUS")
        }
        let pages = try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter { $0.hasSuffix(".html") }
            .sorted()
        XCTAssertGreaterThan(pages.count, 0, "empty corpus at \(corpus.path)")
        var (absolutized, rewritten) = (0, 0)
        for name in pages {
            let input = try FileIO.readAll(RawPath(corpus.appendingPathComponent(name).path))
            let tree = TestTree("shortcut")
            tree.dir("out")
            var options = LocalizeOptions()
            options.pageURL = CorpusTests.pageURL
            options.outputDirectory = tree.path("out")
            options.absolutizeWhenMoved = true
            // Every other URL the page references cached (srcsets and styles partly local).
            _ = try NativeStore.open(tree.path("store"), create: true)
            let survey = try Localizer(caches: [tree.path("store")]).localize(input, options: options)
            let urls = Set(survey.references.compactMap { $0.resolved.map { String($0.prefix { $0 != "#" }) } })
            let store = try NativeStore.open(tree.path("store"), create: false)
            for (i, url) in urls.sorted().enumerated() where i % 2 == 0 {
                _ = try? store.put(url: url, bytes: Array("body of \(url)".utf8))
            }
            let localizer = try Localizer(caches: [tree.path("store")])
            let shortcut = localizer.localize(input, options: options)
            options.passesOverRewrittenValues = false
            let whole = localizer.localize(input, options: options)
            let (a, b) = (shortcut.output, whole.output)
            if a != b {
                let at = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
                let around = { (bytes: [UInt8]) in
                    String(decoding: bytes[max(0, at - 60)..<min(bytes.count, at + 60)], as: UTF8.self)
                }
                XCTFail("\(name): the outputs differ at byte \(at): \(around(a)) | \(around(b))")
            }
            absolutized += shortcut.referencesAbsolutized ? 1 : 0
            rewritten += shortcut.count(.rewritten)
        }
        // The pages were moved and partly localized: both paths had work to do.
        XCTAssertGreaterThan(absolutized, pages.count / 2)
        XCTAssertGreaterThan(rewritten, 500)
    }
}
