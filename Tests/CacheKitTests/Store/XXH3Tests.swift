import CacheKit
import TestSupport
import XCTest

@testable import CacheKitStore

/// XXH3-128 (what ccache checks its entries with) against Python's `xxhash`, on every length
/// path of the algorithm (0, 1–3, 4–8, 9–16, 17–128, 129–240, long: partial and whole blocks).
final class XXH3Tests: XCTestCase {
    func testAgreesWithPythonXXHashOnEveryLengthPath() throws {
        guard Oracle.python("import xxhash").status == 0 else { throw XCTSkip("Python's xxhash is not installed") }
        var lengths =
            Array(0...300) + [511, 512, 513, 1023, 1024, 1025, 2048, 4097, 65_536, 100_003]
            + [65_537, 65_600, 66_560, 66_561, 131_072, 131_073, 131_135, 200_000]
        lengths.sort()
        let result = Oracle.python(
            """
            import sys, xxhash
            for n in map(int, sys.argv[1:]):
                data = bytes((i * 7 + n) % 256 for i in range(n))
                print(xxhash.xxh3_128(data).hexdigest())
            """, lengths.map(String.init))
        XCTAssertEqual(result.status, 0, result.err)
        let expected = result.out.split(separator: "\n").map(String.init)
        XCTAssertEqual(expected.count, lengths.count)
        for (n, hex) in zip(lengths, expected) {
            let data = (0..<n).map { UInt8(($0 * 7 + n) % 256) }
            let ours = XXH3.digest128(data[...]).map { String(format: "%02x", $0) }.joined()
            XCTAssertEqual(ours, hex, "length \(n)")
            // Read through a reader, 64 KiB at a time (ccache entries on disk), as in memory.
            var reads = 0
            let streamed = XXH3.digest128(count: n) { at, count in
                reads += 1
                return Array(data[at..<min(at + count, n)])
            }
            XCTAssertEqual(streamed?.map { String(format: "%02x", $0) }.joined(), hex, "length \(n), read")
            XCTAssertLessThanOrEqual(reads, n / 65_536 + 2, "length \(n)")
            if n > 0 {
                XCTAssertNil(XXH3.digest128(count: n) { at, count in Array(data[at..<min(at + count, n - 1)]) })
            }
        }
    }
}
