import XCTest

@testable import PageRewrite

/// The names libxml2's callback reports, made once per distinct name: each answer is the name
/// at the pointer now, however the address was used before, and past the cache's limit too.
final class LibXML2NameCacheTests: XCTestCase {
    /// A NUL-terminated copy of `text` at a fixed address, rewritten by `set`.
    private final class CName {
        let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: 64)
        init(_ text: String) { set(text) }
        deinit { pointer.deallocate() }
        func set(_ text: String) {
            let bytes = Array(text.utf8) + [0]
            pointer.update(from: bytes, count: bytes.count)
        }
    }

    func testAnAddressReusedForAnotherNameAnswersTheNewName() {
        let cache = LibXML2.NameCache()
        let name = CName("img")
        XCTAssertEqual(cache.element(name.pointer), "img")
        XCTAssertEqual(cache.element(name.pointer), "img")
        name.set("div")
        XCTAssertEqual(cache.element(name.pointer), "div")
        name.set("img")
        XCTAssertEqual(cache.element(name.pointer), "img")

        let attribute = CName("src")
        XCTAssertEqual(cache.attribute(attribute.pointer).map { cache.wanted[$0].name }, "src")
        attribute.set("class")
        XCTAssertNil(cache.attribute(attribute.pointer))
        attribute.set("srcset")
        XCTAssertEqual(cache.attribute(attribute.pointer).map { cache.wanted[$0].name }, "srcset")
    }

    /// More distinct names than the cache keeps (a page that makes them up): the ones after
    /// the limit are still answered right, each time.
    func testNamesPastTheLimitAreStillAnswered() {
        let cache = LibXML2.NameCache()
        let made = (0..<1500).map { CName("x-\($0)") }
        for _ in 0..<2 {
            for (i, name) in made.enumerated() {
                XCTAssertNil(cache.attribute(name.pointer), "x-\(i)")
                XCTAssertEqual(cache.element(name.pointer), "x-\(i)")
            }
        }
        let late = CName("data-src")
        XCTAssertEqual(cache.attribute(late.pointer).map { cache.wanted[$0].name }, "data-src")
        XCTAssertEqual(cache.attribute(late.pointer).map { cache.wanted[$0].name }, "data-src")
        XCTAssertEqual(cache.element(late.pointer), "data-src")
    }

    /// Through libxml2: a page of 1,500 made-up attribute names, then images; elements
    /// without a wanted attribute are not reported, and every image is, with its name.
    func testAPageOfMadeUpAttributesStillReportsItsImages() {
        var page = "<!DOCTYPE html><html><body><p>text</p><div>"
        for i in 0..<1500 { page += "<span a\(i)=\"1\" class=c>x</span>" }
        for i in 0..<3 { page += "<img data-x=1 src=\"\(i).png\"><picture><source srcset=\"s\(i).png\"></picture>" }
        page += "</div></body></html>"
        let elements = LibXML2.startElements(ofUTF8: Array(page.utf8), everyURLAttribute: false)
        XCTAssertEqual(elements.map(\.name), ["img", "source", "img", "source", "img", "source"])
        XCTAssertEqual(
            elements.map { $0.attributes.map(\.name) }, Array(repeating: [["src"], ["srcset"]], count: 3).flatMap { $0 }
        )
        XCTAssertEqual(elements.map(\.insidePicture), [false, true, false, true, false, true])
        XCTAssertEqual(elements.first?.attributes.first?.value, "0.png")
    }
}
