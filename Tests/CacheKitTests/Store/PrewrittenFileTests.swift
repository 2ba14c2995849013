import Foundation
import TestSupport
import XCTest

@testable import CacheKitStore
@testable import CacheKitSystem

/// A file written early and committed later: the target only ever holds a whole file.
final class PrewrittenFileTests: XCTestCase {
    private func names(_ directory: RawPath) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.description).sorted()
    }

    func testKeepsTheSharedPrefixAndWritesTheRest() throws {
        let tree = TestTree("prewritten")
        let target = tree.file("out/page.html", contents: Array("the old page".utf8))
        let early = Array("<html>unchanged part, then an edit here".utf8)
        for keep in [0, 10, early.count] {
            let file = try PrewrittenFile(target)
            try early.withUnsafeBytes { try file.writeEarly($0) }
            XCTAssertEqual(file.earlyCount, Int64(early.count))
            XCTAssertEqual(
                try FileIO.readAll(target), Array("the old page".utf8), "the target is untouched before the commit")
            try file.commit(keeping: Int64(keep)) { sink in
                try Array("[rest]".utf8).withUnsafeBytes { try sink($0) }
            }
            XCTAssertEqual(try FileIO.readAll(target), Array(early[..<keep]) + Array("[rest]".utf8), "keep \(keep)")
            XCTAssertEqual(try names(tree.path("out")), ["page.html"], "no temporary file left")
            _ = try? FileIO.writeAtomically(target, Array("the old page".utf8))
        }
    }

    func testDroppedUncommittedLeavesNothingAndKeepingTooMuchFails() throws {
        let tree = TestTree("prewritten-drop")
        let target = tree.file("out/page.html", contents: Array("old".utf8))
        do {
            let file = try PrewrittenFile(target)
            try Array("early".utf8).withUnsafeBytes { try file.writeEarly($0) }
            XCTAssertEqual(try names(tree.path("out")).count, 2, "the temporary file beside the target")
        }
        XCTAssertEqual(try names(tree.path("out")), ["page.html"], "dropped: removed")
        XCTAssertEqual(try FileIO.readAll(target), Array("old".utf8))

        let file = try PrewrittenFile(target)
        try Array("early".utf8).withUnsafeBytes { try file.writeEarly($0) }
        XCTAssertThrowsError(try file.commit(keeping: 6) { _ in }) { error in
            XCTAssertTrue("\(error)".contains("keep 6 of 5"), "\(error)")
        }
        XCTAssertEqual(try FileIO.readAll(target), Array("old".utf8), "a failed commit leaves the target as it was")
        XCTAssertEqual(try names(tree.path("out")), ["page.html"])
    }

    func testAFolderThatIsNotThereIsAClearError() {
        let tree = TestTree("prewritten-missing")
        XCTAssertThrowsError(try PrewrittenFile(tree.path("nope/page.html"))) { error in
            XCTAssertTrue("\(error)".contains("nope/page.html"), "\(error)")
        }
    }
}
