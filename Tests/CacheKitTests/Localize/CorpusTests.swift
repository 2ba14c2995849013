import CacheKit
import Foundation
import TestSupport
import XCTest

/// Every real page of `../shared/corpus/pages` (saved as if served from
/// http://fakehost/test/page.html): a cache holding most of its images, then localize.
final class CorpusTests: XCTestCase {
    static let pageURL = "http://fakehost/test/page.html"

    /// `$CACHECTL_CORPUS`, else the first `shared/corpus/pages` beside the package or above it
    /// (CI clones the project with `shared/` beside it).
    static var corpus: URL? {
        if let override = ProcessInfo.processInfo.environment["CACHECTL_CORPUS"] {
            return URL(fileURLWithPath: override)
        }
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()  // …/Tests/CacheKitTests/Localize
        for _ in 0..<6 {
            directory = directory.deletingLastPathComponent()
            let candidate = directory.appendingPathComponent("shared/corpus/pages")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    func testEveryCorpusPage() throws {
        guard let corpus = Self.corpus else {
            throw XCTSkip("no shared/corpus/pages beside or above the package; set CACHECTL_CORPUS")
        }
        let pages = try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter { $0.hasSuffix(".html") }
            .sorted()
        XCTAssertGreaterThan(pages.count, 0, "empty corpus at \(corpus.path)")
        var rewrittenTotal = 0
        var basePages = 0
        for name in pages {
            let input = try FileIO.readAll(RawPath(corpus.appendingPathComponent(name).path))
            let tree = TestTree("corpus")
            tree.dir("out")
            var options = LocalizeOptions()
            options.pageURL = Self.pageURL
            options.outputDirectory = tree.path("out")

            // What the page references, from a run against an empty store.
            _ = try NativeStore.open(tree.path("store"), create: true)
            let survey = try Localizer(caches: [tree.path("store")]).localize(input, options: options)
            let urls = Array(
                Set(
                    survey.references.compactMap {
                        $0.resolved.map { String($0.split(separator: "#", maxSplits: 1)[0]) }
                    })
            ).sorted()
            let store = try NativeStore.open(tree.path("store"), create: false)
            var cached: [String: String] = [:]
            for (i, url) in urls.enumerated() where i % 5 != 4 {  // most, not all
                guard (try? store.put(url: url, bytes: Array("body of \(url)".utf8))) != nil else { continue }
                cached[url] = "body of \(url)"
            }
            let result = try Localizer(caches: [tree.path("store")]).localize(input, options: options)

            for ref in result.references {
                let key = ref.resolved.map { String($0.split(separator: "#", maxSplits: 1)[0]) }
                switch ref.outcome {
                case .rewritten:
                    rewrittenTotal += 1
                    let local = String(ref.localPath!.split(separator: "#", maxSplits: 1)[0]).removingPercentEncoding!
                    let body = try? FileIO.readAll(tree.path("out").appending(local))
                    XCTAssertEqual(
                        body.map { String(decoding: $0, as: UTF8.self) }, key.flatMap { cached[$0] },
                        "\(name): \(ref.original)")
                case .missing:
                    XCTAssertNil(key.flatMap { cached[$0] }, "\(name): \(ref.original) was cached but left remote")
                default:
                    break
                }
            }
            if result.baseNeutralized {
                // Every reference not made local must still resolve to the URL it did.
                basePages += 1
                let before = Dictionary(
                    survey.references.map { ($0.offset, $0.resolved) }, uniquingKeysWith: { a, _ in a })
                let after = try Localizer(caches: []).localize(result.output, options: options)
                let afterResolved = Set(after.references.compactMap(\.resolved))
                for ref in result.references where ref.outcome != .rewritten {
                    if let resolved = before[ref.offset] ?? nil {
                        XCTAssertTrue(
                            afterResolved.contains(resolved),
                            "\(name): \(ref.original) no longer resolves to \(resolved)")
                    }
                }
            } else {
                // Nothing changes but the rewritten values: splice them in and compare.
                XCTAssertTrue(
                    Splice.expected(input, result.references) == result.output,
                    "\(name): bytes outside the rewritten values changed")
            }
        }
        XCTAssertGreaterThan(rewrittenTotal, 1000)
        XCTAssertGreaterThanOrEqual(basePages, 1)
    }
}
