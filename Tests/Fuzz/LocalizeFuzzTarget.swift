import CacheKitSystem
// libFuzzer entry point over the reference finder and rewriter (built by Scripts/fuzz/localize).
// URLs of even length count as cached, so rewriting, base neutralisation and charset views all
// run; the answers are made through the rewriter's loop runner, in blocks on both threads.
import Foundation
import PageRewrite

private let outputDirectory = RawPath("/tmp")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let page = Array(UnsafeBufferPointer(start: data, count: size))
    var options = LocalizeOptions()
    options.pageURL = "http://fakehost/test/page.html"
    options.outputDirectory = outputDirectory
    options.eager = size % 2 == 0
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
        if result.charset.encoding == "UTF-8" || result.charset.encoding == "windows-1252"
            || result.charset.encoding == "GBK"
        {
            precondition(expected == result.output, "bytes outside rewritten values changed")
        }
    }
    return 0
}
