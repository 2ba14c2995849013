import TestSupport
import XCTest

@testable import CacheKitStore

final class PinChangeTests: XCTestCase {
    /// `pinChange` is nil exactly when the page already pins the same set of keys: repeated
    /// URLs, fragments' absence and spellings that normalise to a pinned key change nothing;
    /// one key more, one fewer, or one swapped for another (same count) is a change, whose
    /// keys are the new set, normalised and sorted.
    func testPinChangeIsNilExactlyForTheSameKeys() throws {
        let tree = TestTree("pins")
        let store = try NativeStore.open(tree.path("store"), create: true)
        let page = tree.path("page.html").description
        let first = ["https://a.example/1.png", "https://a.example/2.png", "https://a.example/1.png"]
        let change = try XCTUnwrap(try store.pinChange(page: page, urls: first))
        XCTAssertEqual(change.keys, ["https://a.example/1.png", "https://a.example/2.png"])
        try store.apply(change)

        // The same keys, however spelled and repeated.
        XCTAssertNil(try store.pinChange(page: page, urls: first))
        XCTAssertNil(
            try store.pinChange(
                page: page,
                urls: ["HTTPS://A.example:443/2.png", "https://a.example/./1.png", "https://a.example/2.png"]))
        // Not keys (no host, file:) pin nothing.
        XCTAssertNil(try store.pinChange(page: page, urls: first + ["file:///x.png", "data:image/png,x"]))

        // One more, one fewer, one swapped (same count).
        XCTAssertEqual(
            try store.pinChange(page: page, urls: first + ["https://a.example/3.png"])?.keys,
            ["https://a.example/1.png", "https://a.example/2.png", "https://a.example/3.png"])
        XCTAssertEqual(
            try store.pinChange(page: page, urls: ["https://a.example/1.png"])?.keys, ["https://a.example/1.png"])
        XCTAssertEqual(
            try store.pinChange(page: page, urls: ["https://a.example/1.png", "https://a.example/3.png"])?.keys,
            ["https://a.example/1.png", "https://a.example/3.png"])
        XCTAssertEqual(
            try store.pinChange(page: page, urls: ["HTTPS://A.example/3.png", "https://a.example/1.png"])?.keys,
            ["https://a.example/1.png", "https://a.example/3.png"])
        // Another page's pins are its own.
        XCTAssertEqual(
            try store.pinChange(page: tree.path("other.html").description, urls: first)?.keys,
            ["https://a.example/1.png", "https://a.example/2.png"])
        // Nothing to pin, where something is: a change to none.
        XCTAssertEqual(try store.pinChange(page: page, urls: [])?.keys, [])
    }
}
