// libFuzzer entry point over the reference finder and rewriter (built by Scripts/fuzz/localize).
// Every second URL counts as cached, so rewriting, base neutralisation and charset views all run.
import Foundation

private let outputDirectory = RawPath("/tmp")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let page = Array(UnsafeBufferPointer(start: data, count: size))
    var options = LocalizeOptions()
    options.pageURL = "http://fakehost/test/page.html"
    options.outputDirectory = outputDirectory
    options.eager = size % 2 == 0
    var counter = 0
    let result = PageRewriter().rewrite(page, options: options) { url in
        counter += 1
        return counter % 2 == 0 ? CachedCopy(path: RawPath("/tmp/cache/objects/ab/" + String(url.utf8.count) + ".png"), isFresh: true) : nil
    }
    // Invariants: references lie inside the page; without a base or --eager insertions,
    // nothing but the rewritten values changes.
    for ref in result.references {
        precondition(ref.offset >= 0 && ref.offset + ref.length <= page.count, "reference outside the page")
    }
    // The output written in blocks is the whole output.
    var written: [UInt8] = []
    result.writeOutput { written += $0 }
    precondition(written == result.output, "output written in blocks differs")
    if !result.baseNeutralized && !options.eager {
        var expected: [UInt8] = []
        var cursor = 0
        for ref in result.references where ref.outcome == .rewritten {
            precondition(ref.offset >= cursor, "overlapping rewrites")
            expected += page[cursor..<ref.offset]
            expected += Array(ref.localPath!.utf8)
            cursor = ref.offset + ref.length
        }
        expected += page[cursor...]
        if result.charset.encoding == "UTF-8" || result.charset.encoding == "windows-1252" || result.charset.encoding == "GBK" {
            precondition(expected == result.output, "bytes outside rewritten values changed")
        }
    }
    return 0
}
