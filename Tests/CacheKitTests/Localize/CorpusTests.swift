import CacheKit
import Foundation
import TestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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

    /// Every corpus page, written in Shift_JIS (characters it lacks as numeric references,
    /// its own charset declarations dropped, `<meta charset=shift_jis>` first), names the same
    /// URLs, reference by reference, as the same page in UTF-8: the view the page is read
    /// through changes nothing a reference means. Read through glibc's SHIFT_JIS, the `~` in the
    /// image URLs of a page from juejin.cn (`…~tplv-k3u1fbpfcp-watermark.png`) became ‾
    /// (`%E2%80%BE`): the test fails there before.
    func testEveryCorpusPageNamesTheSameURLsInShiftJIS() throws {
        guard let corpus = Self.corpus else {
            throw XCTSkip("no shared/corpus/pages beside or above the package; set CACHECTL_CORPUS")
        }
        let pages = try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter { $0.hasSuffix(".html") }
            .sorted()
        var compared = 0
        for name in pages {
            let input = try FileIO.readAll(RawPath(corpus.appendingPathComponent(name).path))
            guard var text = String(validating: input, as: UTF8.self) else { continue }
            text = text.replacingOccurrences(
                of: "<meta[^>]*charset[^>]*>", with: "", options: [.regularExpression, .caseInsensitive])
            let utf8 = Array(("<meta charset=\"utf-8\">" + text).utf8)
            let sjis = Array("<meta charset=\"shift_jis\">".utf8) + Self.shiftJIS(text)
            var options = LocalizeOptions()
            options.pageURL = Self.pageURL
            options.outputDirectory = RawPath("/nonexistent/out")
            let a = try Localizer(caches: []).localize(utf8, options: options)
            let b = try Localizer(caches: []).localize(sjis, options: options)
            XCTAssertEqual(b.charset.encoding, "SHIFT_JIS", name)
            XCTAssertEqual(a.references.map(\.resolved), b.references.map(\.resolved), name)
            compared += 1
        }
        XCTAssertGreaterThan(compared, 50)
    }

    /// `text` in Windows-31J (the Encoding Standard's Shift_JIS encoder), a character it
    /// lacks written as `&#N;`.
    private static func shiftJIS(_ text: String) -> [UInt8] {
        let cd = iconv_open("CP932", "UTF-8")
        defer { iconv_close(cd) }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var buffer = [CChar](repeating: 0, count: 16)
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                out.append(UInt8(scalar.value))
                continue
            }
            var input = Array(String(scalar).utf8).map { CChar(bitPattern: $0) }
            let written: Int? = input.withUnsafeMutableBufferPointer { inBuf in
                buffer.withUnsafeMutableBufferPointer { outBuf in
                    var inPtr: UnsafeMutablePointer<CChar>? = inBuf.baseAddress
                    var inLeft = inBuf.count
                    var outPtr: UnsafeMutablePointer<CChar>? = outBuf.baseAddress
                    var outLeft = outBuf.count
                    let result = iconv(cd, &inPtr, &inLeft, &outPtr, &outLeft)
                    return result == -1 || inLeft != 0 ? nil : outBuf.count - outLeft
                }
            }
            if let written {
                out += buffer.prefix(written).map { UInt8(bitPattern: $0) }
            } else {
                iconv(cd, nil, nil, nil, nil)
                out += Array("&#\(scalar.value);".utf8)
            }
        }
        return out
    }
}
