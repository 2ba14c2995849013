import TestSupport
import XCTest

@testable import CacheKitStore

final class PinKeysTests: XCTestCase {
    /// The distinct keys of URLs as the index keys them: repeats and fragments collapse,
    /// spellings that are not their own key are normalized (and then meet their key), and URLs
    /// with no key add nothing. Run with the real hash and with one under which every key
    /// collides, so that the table's probing and byte comparison decide alone.
    func testDistinctKeysWhateverTheHash() {
        let urls = [
            "https://a.example/1.png", "https://a.example/1.png#top", "HTTPS://A.example:443/1.png",
            "https://a.example/./2.png", "https://a.example/2.png", "http://a.example/2.png",
            "https://a.example/2.png?x=1", "data:image/png,x", "file:///x.png", "https://a.example/3",
            "https://a.example/3#", "https://u:secret@a.example/4.png", "https://u@a.example/4.png"
        ]
        let expected = [
            "http://a.example/2.png", "https://a.example/1.png", "https://a.example/2.png",
            "https://a.example/2.png?x=1", "https://a.example/3", "https://u@a.example/4.png"
        ]
        for hash in [PinKeys.seededHash, { _ in 42 }] as [(UnsafeRawBufferPointer) -> UInt64] {
            var keys = PinKeys(hash: hash)
            for url in urls { keys.insert(url) }
            XCTAssertEqual(keys.sorted(), expected)
            XCTAssertEqual(keys.count, expected.count)
            for key in expected {
                XCTAssertTrue(Array(key.utf8).withUnsafeBytes { keys.contains($0) }, key)
            }
            for other in ["https://a.example/1.pn", "https://a.example/1.png#top", "https://a.example/5.png", ""] {
                XCTAssertFalse(Array(other.utf8).withUnsafeBytes { keys.contains($0) }, other)
            }
        }
    }

    /// The table grows past its first size (16 slots) and past the capacity it was given,
    /// every key still found once.
    func testGrowsPastItsCapacity() {
        var keys = PinKeys(capacity: 3)
        let urls = (0..<5000).map { "https://a.example/\($0 % 1000).png" }
        for url in urls { keys.insert(url) }
        XCTAssertEqual(keys.count, 1000)
        XCTAssertEqual(Set(keys.sorted()), Set(urls))
        XCTAssertTrue(Array("https://a.example/999.png".utf8).withUnsafeBytes { keys.contains($0) })
    }
}
