import CacheKit
import Foundation
import TestSupport
import XCTest

/// Proves the libxml2 boundary builds and links (the ICU clash is handled in the shim), and
/// that what cachectl adds to the libxml2 it carries changes nothing the parser reports.
final class LibXML2Tests: XCTestCase {
    func testParsesHTMLWithLibxml2() {
        XCTAssertTrue(LibXML2.compiledVersion.hasPrefix("2."))
        XCTAssertEqual(LibXML2.rootElementName(ofHTML: Array("<title>x</title><p>hello".utf8)), "html")
    }

    /// The accelerators in the carried `HTMLparser.c` (between `cachectl-begin` and
    /// `cachectl-end`; without them the file is upstream's, checked by its SHA-256) give every
    /// SAX event upstream's text gives, on 400 generated pages dense in what they stop at,
    /// parsed from memory and pushed in chunks (`Tests/LibXML2/accelerators.py`, which builds
    /// both with the C compiler the Swift toolchain brings).
    func testTheCarriedParsersAcceleratorsChangeNoEvent() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("LibXML2/accelerators.py").path
        let result = Run.command(["python3", script, "--inputs", "400"])
        XCTAssertEqual(result.status, 0, "\(result.out)\n\(result.err)")
        let summary = "400 inputs, each parsed from memory and pushed in chunks: 0 differ"
        XCTAssertTrue(result.out.contains(summary), result.out)
    }
}
