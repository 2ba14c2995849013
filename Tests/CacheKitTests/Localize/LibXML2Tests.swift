import CacheKit
import XCTest

/// Proves the libxml2 boundary builds and links (the ICU clash is handled in the shim).
final class LibXML2Tests: XCTestCase {
    func testParsesHTMLWithLibxml2() {
        XCTAssertTrue(LibXML2.compiledVersion.hasPrefix("2."))
        XCTAssertEqual(LibXML2.rootElementName(ofHTML: Array("<title>x</title><p>hello".utf8)), "html")
    }
}
