import CacheKitSystem
// libFuzzer entry point over the reference finder and rewriter (built by Scripts/fuzz/localize).
// URLs of even length count as cached, so rewriting, base neutralisation, absolutizing and
// charset views all run; the answers are made through the rewriter's loop runner, in blocks on
// both threads.
import Foundation
import PageRewrite

private let outputDirectory = RawPath("/tmp")

/// libFuzzer checks for leaks when an input returns: a page's leftovers must be freed by then.
/// Set once, on the first input, before any rewriting thread has started.
private let freeOnCaller: Void = { WorkerPool.dropsOnCaller = true }()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    _ = freeOnCaller
    let page = Array(UnsafeBufferPointer(start: data, count: size))
    var options = LocalizeOptions()
    options.pageURL = "http://fakehost/test/page.html"
    options.outputDirectory = outputDirectory
    options.eager = size % 2 == 0
    // Half the inputs as a page saved elsewhere than its URL: every other relative reference
    // made absolute too (`localize -o`'s default).
    options.absolutizeWhenMoved = size / 2 % 2 == 0
    let result = PageRewriter().rewrite(
        page, options: options,
        lookupSharing: { urls, loop in
            [CachedCopy?](unsafeUninitializedCapacity: urls.count) { buffer, count in
                let answers = buffer.baseAddress!
                loop.run(urls.count) { range in
                    for i in range {
                        let length = urls[i].utf8.count
                        (answers + i).initialize(
                            to: length % 2 == 0
                                ? CachedCopy(
                                    path: RawPath("/tmp/cache/objects/ab/" + String(length) + ".png"), isFresh: true)
                                : nil)
                    }
                }
                count = urls.count
            }
        })
    // Invariants: references lie inside the page, in order, counted as listed; without a
    // base or --eager insertions, nothing but the rewritten values changes.
    var previous = 0
    for ref in result.references {
        precondition(ref.offset >= 0 && ref.offset + ref.length <= page.count, "reference outside the page")
        precondition(ref.offset >= previous, "references out of order")
        previous = ref.offset
    }
    precondition(
        result.count(.rewritten) == result.references.filter { $0.outcome == .rewritten }.count, "counts differ")
    // The output written in blocks is the whole output.
    var written: [UInt8] = []
    result.writeOutput { written += $0 }
    precondition(written == result.output, "output written in blocks differs")
    // A moved page's relative `<base href>` is written as the absolute URL it meant (not a
    // reference, so not listed): such a page is left out of the byte check.
    let movedBase = options.absolutizeWhenMoved && contains(page, "<base")
    if !result.baseNeutralized && !options.eager && !result.referencesAbsolutized && !movedBase {
        var expected: [UInt8] = []
        var cursor = 0
        for ref in result.references where ref.outcome == .rewritten {
            precondition(ref.offset >= cursor, "overlapping rewrites")
            expected += page[cursor..<ref.offset]
            expected += Array(ref.localPath!.utf8)
            cursor = ref.offset + ref.length
        }
        expected += page[cursor...]
        if result.charset.encoding == "UTF-8" || result.charset.encoding == "windows-1252"
            || result.charset.encoding == "GBK"
        {
            // An element pointed at a copy on disk loses its `crossorigin` and `integrity`
            // attributes: compared without them.
            precondition(
                expected == result.output || withoutFetchMode(expected) == withoutFetchMode(result.output),
                "bytes outside rewritten values changed")
        }
    }
    if size / 4 % 2 == 0 { fuzzStylesheets(page) }
    return 0
}

/// The bytes without every `crossorigin` and `integrity` word (any case) and the `= value`
/// after it, whitespace around the `=` included, wherever they are.
private func withoutFetchMode(_ bytes: [UInt8]) -> [UInt8] {
    let names = ["crossorigin", "integrity"].map { Array($0.utf8) }
    func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0C || b == 0x0D }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var i = 0
    outer: while i < bytes.count {
        for name in names where i + name.count <= bytes.count {
            guard (0..<name.count).allSatisfy({ bytes[i + $0] | 0x20 == name[$0] }) else { continue }
            var j = i + name.count
            var k = j
            while k < bytes.count && isSpace(bytes[k]) { k += 1 }
            if k < bytes.count && bytes[k] == UInt8(ascii: "=") {
                k += 1
                while k < bytes.count && isSpace(bytes[k]) { k += 1 }
                if k < bytes.count, bytes[k] == 0x22 || bytes[k] == 0x27 {
                    let quote = bytes[k]
                    k += 1
                    while k < bytes.count && bytes[k] != quote { k += 1 }
                    j = min(k + 1, bytes.count)
                } else {
                    while k < bytes.count && !isSpace(bytes[k]) && bytes[k] != UInt8(ascii: ">") { k += 1 }
                    j = k
                }
            }
            i = j
            continue outer
        }
        out.append(bytes[i])
        i += 1
    }
    return out
}

/// Whether `text` (lower-case ASCII letters and `<`) appears anywhere in the bytes, in any case.
private func contains(_ page: [UInt8], _ text: String) -> Bool {
    let name = Array(text.utf8)
    guard page.count >= name.count else { return false }
    return (0...(page.count - name.count)).contains { start in
        (0..<name.count).allSatisfy { page[start + $0] | (name[$0] == 0x3C ? 0 : 0x20) == name[$0] }
    }
}

/// `--styles` over the same bytes: the page's stylesheet links saved, each stylesheet's body
/// being the input itself (so its `url(…)` and `@import` references are read from it too).
/// Every http(s) URL is cached; placed files are kept in memory.
private func fuzzStylesheets(_ page: [UInt8]) {
    let placer = MemoryPlacer()
    let saver = StylesheetSaver(
        assets: placer, lookup: { url in RawPath("/tmp/cache/" + String(url.utf8.count)) }, read: { _ in page })
    let saved = saver.save(page: page, base: "http://fakehost/test/page.html", outputDirectory: outputDirectory)
    precondition(saved.report.saved == placer.sheets, "saved stylesheets miscounted")
}

/// A `CopyPlacer` that writes nothing: each file gets a name, each stylesheet is counted.
/// A stylesheet placed again under the same URL keeps its name, as in `AssetFolder` (the
/// saver names a sheet before rewriting it, so that an `@import` cycle can point back at it,
/// then places the rewritten bytes under that name).
private final class MemoryPlacer: CopyPlacer {
    private var sheetNames: [String: RawPath] = [:]
    var sheets: Int { sheetNames.count }
    let linked = 0
    let copied = 0
    let cloned = 0
    let unplaced: [String] = []

    func place(_ file: RawPath, url: String) -> RawPath? {
        RawPath("/tmp/page_files/" + String(url.utf8.count % 7) + ".png")
    }

    func placeBytes(_ bytes: [UInt8], url: String, ext: String) -> RawPath? {
        if let known = sheetNames[url] { return known }
        let name = RawPath("/tmp/page_files/sheet" + String(sheetNames.count + 1) + "." + ext)
        sheetNames[url] = name
        return name
    }
}
