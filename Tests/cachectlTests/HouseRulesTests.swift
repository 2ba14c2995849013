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

    /// No function, initializer or closure-free body in the sources is over 80 lines (counted
    /// from its declaration to its closing brace).
    func testNoFunctionIsOverEightyLines() throws {
        var long: [String] = []
        for (path, lines) in try sources("Sources") {
            for found in Self.longFunctions(lines, limit: 80) {
                long.append("\(path):\(found.line): \(found.length) lines")
            }
        }
        XCTAssertEqual(long, [], "functions over 80 lines: cut them into steps")
        // Not vacuous: a function of 81 lines is found, one of 80 is not.
        func body(_ count: Int) -> [Substring] {
            ["    func f() {"] + Array(repeating: "        let x = \"{\" // }", count: count - 2) + ["    }"]
        }
        XCTAssertEqual(Self.longFunctions(body(81), limit: 80).map(\.length), [81])
        XCTAssertEqual(Self.longFunctions(body(80), limit: 80).map(\.length), [])
    }

    /// Functions (and initializers) longer than `limit` lines: braces are counted outside
    /// string literals and `//` comments.
    static func longFunctions(_ lines: [Substring], limit: Int) -> [(line: Int, length: Int)] {
        let declaration =
            /^\s*(@\w+(\([^)]*\))?\s+)*((public|private|fileprivate|internal|package|static|class|override|mutating|nonisolated|final|convenience)\s+)*(func\s|init[?!(<]|deinit\b)/
        var found: [(Int, Int)] = []
        for (start, line) in lines.enumerated() where line.contains(declaration) {
            var depth = 0
            var opened = false
            var end = start
            scan: while end < lines.count {
                var inString = false
                var escaped = false
                var previous: Character = " "
                for c in lines[end] {
                    if inString {
                        if escaped {
                            escaped = false
                        } else if c == "\\" {
                            escaped = true
                        } else if c == "\"" {
                            inString = false
                        }
                    } else if c == "\"" {
                        inString = true
                    } else if c == "/" && previous == "/" {
                        break
                    } else if c == "{" {
                        depth += 1
                        opened = true
                    } else if c == "}" {
                        depth -= 1
                        if opened && depth == 0 { break scan }
                    }
                    previous = c
                }
                if !opened && end > start + 8 { break }
                end += 1
            }
            if opened && end - start + 1 > limit { found.append((start + 1, end - start + 1)) }
        }
        return found
    }
}
