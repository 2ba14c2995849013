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

    /// `commit` writes a run larger than its writeback piece (2 MB) in pieces: every byte
    /// lands once, in order, around empty and small runs.
    func testARunLargerThanAWritebackPieceIsWrittenWhole() throws {
        let tree = TestTree("prewritten-large")
        let target = tree.file("out/page.html", contents: Array("old".utf8))
        let large = (0..<(5 << 20) + 5).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 16) }
        let file = try PrewrittenFile(target)
        try Array("early bytes".utf8).withUnsafeBytes { try file.writeEarly($0) }
        try file.commit(keeping: 5) { sink in
            try large.withUnsafeBytes { try sink($0) }
            try [UInt8]().withUnsafeBytes { try sink($0) }
            try Array("tail".utf8).withUnsafeBytes { try sink($0) }
            try large[..<(2 << 20)].withUnsafeBytes { try sink($0) }
        }
        let expected = Array("early".utf8) + large + Array("tail".utf8) + large[..<(2 << 20)]
        let written = try FileIO.readAll(target)
        // Compared without printing megabytes when they differ: the length and the first
        // differing offset say enough.
        let firstDifference = zip(written, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        let at = firstDifference.map(String.init) ?? "none"
        XCTAssertTrue(
            written == expected, "\(written.count) bytes written, \(expected.count) expected; first difference: \(at)")
        XCTAssertEqual(try names(tree.path("out")), ["page.html"], "no temporary file left")
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

    /// The file a commit replaces is held across the rename (so that its blocks are freed off
    /// the rename's path) and then let go: no descriptor of the process keeps it afterwards.
    func testTheReplacedFileIsLetGoAfterTheCommit() throws {
        #if os(Linux)
            let tree = TestTree("prewritten-replaced")
            let target = tree.file("out/page.html", contents: [UInt8](repeating: 7, count: 1 << 20))
            let file = try PrewrittenFile(target)
            try file.commit(keeping: 0) { sink in try Array("new".utf8).withUnsafeBytes { try sink($0) } }
            XCTAssertEqual(try FileIO.readAll(target), Array("new".utf8))
            // The descriptor is closed on a thread of its own: wait for it (at most a minute).
            let replaced = target.description + " (deleted)"
            func holders() -> [String] {
                let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
                return fds.filter {
                    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == replaced
                }
            }
            var waited = 0
            while !holders().isEmpty && waited < 60_000 {
                usleep(1000)
                waited += 1
            }
            XCTAssertEqual(holders(), [], "a descriptor still holds the replaced file")
        #endif
    }

    func testAFolderThatIsNotThereIsAClearError() {
        let tree = TestTree("prewritten-missing")
        XCTAssertThrowsError(try PrewrittenFile(tree.path("nope/page.html"))) { error in
            XCTAssertTrue("\(error)".contains("nope/page.html"), "\(error)")
        }
    }
}
