import CacheKitSystem
import TestSupport
import XCTest

@testable import CacheKitStore

/// A file's Subresource Integrity digest (npm's `--verify`, Go's output names) read 64 KiB at a
/// time is the digest of its bytes in memory, for every algorithm and around the chunk size.
final class DigestTests: XCTestCase {
    func testAFileReadAChunkAtATimeDigestsAsInMemory() throws {
        let tree = TestTree("digest-chunks")
        let anchor = try AnchoredDirectory.open(tree.root).get()
        var rng = SystemRandomNumberGenerator()
        for size in [0, 1, 65_535, 65_536, 65_537, 131_072, 200_003] {
            let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &rng) }
            tree.file("f\(size)", contents: bytes)
            for algorithm in ["sha512", "sha384", "sha256", "sha1", "md5"] {
                let read = try Digest.sri(algorithm, ofFile: Array("f\(size)".utf8), in: anchor).get()
                XCTAssertEqual(read, Digest.sri(algorithm, bytes), "\(algorithm), \(size) bytes")
                XCTAssertEqual(read == nil, algorithm == "md5")
            }
        }
        XCTAssertEqual(Digest.sri("sha256", []), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        guard case .failure = Digest.sri("sha256", ofFile: Array("missing".utf8), in: anchor) else {
            return XCTFail("a missing file is a failure")
        }
        _ = tree.dir("folder")
        guard case .failure = Digest.sri("sha256", ofFile: Array("folder".utf8), in: anchor) else {
            return XCTFail("a folder is a failure")
        }
    }
}
