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
            #/
            ^\s*(@\w+(\([^)]*\))?\s+)*
            ((public|private|fileprivate|internal|package|static|class|override|mutating
              |nonisolated|final|convenience)\s+)*
            (func\s|init[?!(<]|deinit\b)
            /#
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

    /// Every thread of the package comes from `WorkerPool` (CacheKitSystem), and its structures
    /// share the work: no other file starts a thread, waits on a semaphore, or takes a Foundation
    /// or Dispatch lock (the progress line's timer is a Dispatch timer, not work).
    func testThreadsComeOnlyFromTheWorkerPool() throws {
        let pool = "Sources/CacheKitSystem/WorkerPool.swift"
        let forbidden = [
            "pthread_create", "Thread(", "Thread {", "Thread.detachNewThread", "DispatchSemaphore", "NSCondition",
            "NSLock", "DispatchQueue", "concurrentPerform"
        ]
        var found: [String] = []
        var poolStarts = 0
        for (path, lines) in try sources("Sources") {
            for (index, line) in lines.enumerated() {
                let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                if path == pool {
                    if code.contains("pthread_create") { poolStarts += 1 }
                    continue
                }
                // The progress line redraws on a Dispatch timer: a clock, not shared work.
                let allowed: Set<String> = path == "Sources/cachectl/ProgressLine.swift" ? ["DispatchQueue"] : []
                for token in forbidden where code.contains(token) && !allowed.contains(token) {
                    found.append("\(path):\(index + 1): \(token)")
                }
            }
        }
        XCTAssertEqual(found, [], "threads, semaphores and locks outside WorkerPool")
        XCTAssertGreaterThan(poolStarts, 0, "the scan found the pool's own thread start")
    }

    /// One main type per file, the file named after it (`Type.swift`, or `Type+Part.swift` for
    /// an extension); private and fileprivate helpers may stay beside the type they serve.
    func testOneMainTypePerFileNamedAfterIt() throws {
        let declaration = try NSRegularExpression(
            pattern: "^(?:public |package |internal )?(?:final )?(?:struct|enum|class|protocol|actor) ([A-Za-z0-9_]+)",
            options: [.anchorsMatchLines])
        var wrong: [String] = []
        var checked = 0
        for (path, lines) in try sources("Sources") {
            let text = lines.joined(separator: "\n")
            let names = declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
                Range($0.range(at: 1), in: text).map { String(text[$0]) }
            }
            let stem = String(path.split(separator: "/").last!.dropLast(6).split(separator: "+").first ?? "")
            checked += names.count
            if names.count > 1 || (names.count == 1 && names[0] != stem) {
                wrong.append("\(path): \(names.joined(separator: ", "))")
            }
        }
        XCTAssertEqual(wrong, [], "files holding more than one main type, or named after another")
        XCTAssertGreaterThan(checked, 100, "the scan found the types it is meant to check")
    }

    /// No line of the sources or tests is over 120 columns (`.swift-format`'s limit, which
    /// swift-format cannot keep for string literals: those are cut by hand).
    func testNoLineIsOverOneHundredTwentyColumns() throws {
        var long: [String] = []
        var lineCount = 0
        for folder in ["Sources", "Tests"] {
            for (path, lines) in try sources(folder) {
                lineCount += lines.count
                for (index, line) in lines.enumerated() where line.count > 120 {
                    long.append("\(path):\(index + 1): \(line.count) columns")
                }
            }
        }
        XCTAssertEqual(long, [], "lines over 120 columns")
        XCTAssertGreaterThan(lineCount, 10_000, "the scan read the sources")
    }

    /// CacheKit's layers are modules, each using only those below it: CacheKitSupport (dates,
    /// HTTP header grammar, tags), CacheKitFiles (`FileTree`), CacheKitStore (the store and every
    /// format), then CacheKitWalk (du), CacheKitPrune and CacheKitFetch side by side, then
    /// CacheKit (localizing, and the public face). The compiler refuses a cycle; this also
    /// catches a module naming a type of one beside it or above it that a build happened to
    /// have ready (comments aside).
    func testCacheKitLayersUseOnlyTheLayersBelow() throws {
        let level = [
            "CacheKitSupport": 0, "CacheKitFiles": 1, "CacheKitStore": 2, "CacheKitWalk": 3, "CacheKitPrune": 3,
            "CacheKitFetch": 3, "CacheKit": 4
        ]
        let declaration = try NSRegularExpression(
            pattern: "^(?:public |package |internal )?(?:final )?(?:struct|enum|class|protocol|actor) ([A-Za-z0-9_]+)",
            options: [.anchorsMatchLines])
        var owner: [String: String] = [:]
        var words: [(path: String, folder: String, names: Set<String>)] = []
        for module in level.keys.sorted() {
            for (path, lines) in try sources("Sources/\(module)") {
                let folder = module
                let text = lines.joined(separator: "\n")
                for match in declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    if let range = Range(match.range(at: 1), in: text) { owner[String(text[range])] = folder }
                }
                let code = lines.map { $0.components(separatedBy: "//")[0] }.joined(separator: " ")
                let names = code.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init)
                words.append((path, folder, Set(names)))
            }
        }
        var upward: [String] = []
        for (path, folder, names) in words {
            for name in names.sorted() {
                guard let other = owner[name], other != folder, level[other]! >= level[folder]! else { continue }
                upward.append("\(path): \(name) (\(other))")
            }
        }
        XCTAssertEqual(upward, [], "a layer names a type of a layer not below it")
        XCTAssertGreaterThan(owner.count, 100, "the scan found the types it is meant to check")
    }
}
