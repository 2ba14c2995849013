import Foundation
import XCTest

/// Rules of the code base the compiler does not check by itself, checked on the sources.
final class HouseRulesTests: XCTestCase {
    private var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// Every Swift file under `folder`, as (path relative to the package, lines).
    private func sources(_ folder: String) throws -> [(path: String, lines: [Substring])] {
        let base = packageRoot.appendingPathComponent(folder)
        let enumerator = try XCTUnwrap(FileManager.default.enumerator(atPath: base.path))
        var out: [(String, [Substring])] = []
        for case let relative as String in enumerator where relative.hasSuffix(".swift") {
            let text = try String(contentsOf: base.appendingPathComponent(relative), encoding: .utf8)
            out.append(("\(folder)/\(relative)", text.split(separator: "\n", omittingEmptySubsequences: false)))
        }
        return out
    }

    /// The package is built in the Swift 6 language mode, so the compiler checks data races.
    func testSwift6LanguageMode() throws {
        let manifest = try String(contentsOf: packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        XCTAssertTrue(
            manifest.contains("swiftLanguageModes: [.v6]"), "Package.swift must build in the Swift 6 language mode")
    }

    /// Where the compiler is told to trust the code (`@unchecked Sendable`,
    /// `nonisolated(unsafe)`), a comment says why it is safe: `// @unchecked Sendable: …` on
    /// the line after the declaration, or `// nonisolated(unsafe): …` in the comment just above.
    func testEveryUncheckedConcurrencyEscapeSaysWhyItIsSafe() throws {
        var found = 0
        for (path, lines) in try sources("Sources") {
            for (index, line) in lines.enumerated() {
                let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                for escape in ["@unchecked Sendable", "nonisolated(unsafe)"] where code.contains(escape) {
                    found += 1
                    var neighbours = [index + 1].filter(lines.indices.contains).map { lines[$0] }
                    var above = index - 1
                    while above >= 0, lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                        neighbours.append(lines[above])
                        above -= 1
                    }
                    let justified =
                        neighbours.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("// \(escape):") }
                        || (escape == "@unchecked Sendable" && line.contains("// \(escape):"))
                    XCTAssertTrue(
                        justified, "\(path):\(index + 1): `\(escape)` without a `// \(escape): why` comment beside it")
                }
            }
        }
        XCTAssertGreaterThan(found, 10, "the scan found the escapes it is meant to check")
    }
}
