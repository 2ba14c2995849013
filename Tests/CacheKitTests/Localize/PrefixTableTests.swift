import XCTest

@testable import PageRewrite

final class PrefixTableTests: XCTestCase {
    /// Every directory added is found with its own prefix, through several growths of the
    /// table (and so probes past occupied slots); one added twice keeps its first prefix;
    /// directories of the same length (some with the same hash), or one the start of another,
    /// are told apart; one never added is not found.
    func testDirectoriesFoundByTheirBytes() {
        var table = PageRewriter.Job.PrefixTable()
        var added: [([UInt8], String)] = [([], "./")]
        for i in 0..<600 {
            added.append((Array("/store/objects/\(String(i, radix: 16))".utf8), "../objects/\(i)/"))
        }
        added.append((Array("/store/objects/1".utf8) + [0x2F, 0x78], "deeper/"))
        // The same length and last 16 bytes (the same hash): told apart by their bytes.
        added.append((Array("/a/store/objects/ff".utf8), "a/"))
        added.append((Array("/b/store/objects/ff".utf8), "b/"))
        for (directory, prefix) in added { table.add(directory[...]) { prefix } }
        table.add(Array("/store/objects/1".utf8)[...]) {
            XCTFail("a prefix made for a directory added before")
            return "second/"
        }
        table.withPrefixes { prefixOf in
            for (directory, prefix) in added {
                let found = directory.withUnsafeBufferPointer { prefixOf($0) }.map {
                    String(decoding: $0, as: UTF8.self)
                }
                XCTAssertEqual(found, prefix, String(decoding: directory, as: UTF8.self))
            }
            for missing in ["/store/objects/fff", "/store/objects/", "/store/objects/10x", "/other"] {
                XCTAssertNil(Array(missing.utf8).withUnsafeBufferPointer { prefixOf($0) }, missing)
            }
        }
    }
}
