import Foundation

/// The project's reference data (`shared/reference/` beside the package or above it; CI
/// clones the project with `shared/` beside it), or `$CACHECTL_REFERENCE`.
public enum ReferenceData {
    public struct Missing: Error, CustomStringConvertible {
        public let name: String
        public var description: String {
            "no shared/reference/\(name) beside or above the package; set CACHECTL_REFERENCE"
        }
    }

    /// The file `shared/reference/<name>`; throws when there is none (the tests that read
    /// it fail rather than pass without it).
    public static func url(_ name: String) throws -> URL {
        if let override = ProcessInfo.processInfo.environment["CACHECTL_REFERENCE"] {
            return URL(fileURLWithPath: override).appendingPathComponent(name)
        }
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        for _ in 0..<6 {
            directory = directory.deletingLastPathComponent()
            let candidate = directory.appendingPathComponent("shared/reference").appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
        }
        throw Missing(name: name)
    }

    /// `shared/<relative>` (the corpus pages, say), found as `url(_:)` finds the reference.
    public static func shared(_ relative: String) throws -> URL {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        for _ in 0..<6 {
            directory = directory.deletingLastPathComponent()
            let candidate = directory.appendingPathComponent("shared").appendingPathComponent(relative)
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
        }
        throw Missing(name: "../" + relative)
    }

    /// The JSON objects of a web-platform-tests data file (its strings are comments).
    public static func jsonCases(_ name: String) throws -> [[String: Any]] {
        let data = replacingLoneSurrogates(try Data(contentsOf: url(name)))
        let items = try JSONSerialization.jsonObject(with: data) as? [Any] ?? []
        return items.compactMap { $0 as? [String: Any] }
    }

    /// JSON `\uD800`-style escapes of unpaired surrogates as `\uFFFD`: what a browser's
    /// USVString conversion does to the test's input before the URL parser sees it
    /// (Foundation's JSON reader refuses them).
    static func replacingLoneSurrogates(_ data: Data) -> Data {
        var bytes = [UInt8](data)
        func unit(at i: Int) -> UInt16? {
            guard i + 6 <= bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                return nil
            }
            return UInt16(String(decoding: bytes[(i + 2)..<(i + 6)], as: UTF8.self), radix: 16)
        }
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "\\"), i + 1 < bytes.count, bytes[i + 1] != UInt8(ascii: "u") {
                i += 2
                continue
            }
            guard let u = unit(at: i) else {
                i += 1
                continue
            }
            if (0xD800...0xDBFF).contains(u), let next = unit(at: i + 6), (0xDC00...0xDFFF).contains(next) {
                i += 12
            } else if (0xD800...0xDFFF).contains(u) {
                bytes.replaceSubrange((i + 2)..<(i + 6), with: Array("FFFD".utf8))
                i += 6
            } else {
                i += 6
            }
        }
        return Data(bytes)
    }
}
