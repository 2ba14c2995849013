import Foundation

/// A URL normalized into the key cachectl's own store indexes by.
public struct URLKey: Hashable, Sendable, CustomStringConvertible {
    /// The normalized URL: scheme and host lower-cased, default port and fragment dropped,
    /// an empty path written as `/`.
    public let normalized: String

    /// Nil when `text` is not an absolute URL with a scheme and a host.
    public init?(_ text: String) {
        if Self.isNormalized(text) {
            normalized = text
            return
        }
        guard let string = Self.normalizedByComponents(text) else { return nil }
        normalized = string
    }

    /// Whether `text` is already what normalization would give: `http://` or `https://`, a
    /// lower-case host of letters, digits, `.` and `-` (no port, no user), a path, and only
    /// RFC 3986 path/query characters or `%XX` after it, no fragment. Most URLs are, and
    /// checking bytes is far cheaper than parsing (a page with 20,000 images looks up each).
    static func isNormalized(_ text: String) -> Bool {
        text.withBytes { b in
            let prefix: Int
            if b.starts(with: "http://".utf8) { prefix = 7 } else if b.starts(with: "https://".utf8) { prefix = 8 } else { return false }
            var i = prefix
            while i < b.count, hostBytes.contains(b[i]) { i += 1 }
            guard i > prefix, i < b.count, b[i] == UInt8(ascii: "/") else { return false }
            var pendingHex = 0
            while i < b.count {
                let c = b[i]
                i += 1
                if pendingHex > 0 {
                    guard hexBytes.contains(c) else { return false }
                    pendingHex -= 1
                } else if c == UInt8(ascii: "%") {
                    pendingHex = 2
                } else if !pathBytes.contains(c) {
                    return false
                }
            }
            return pendingHex == 0
        }
    }
    private static let hostBytes = ByteSet(".-", ranges: [0x30...0x39, 0x61...0x7A])
    private static let hexBytes = ByteSet("", ranges: [0x30...0x39, 0x41...0x46, 0x61...0x66])
    private static let pathBytes = ByteSet("-._~!$&'()*+,;=:@/?", ranges: ByteSet.alphanumerics)

    /// The general case, through URLComponents.
    static func normalizedByComponents(_ text: String) -> String? {
        guard !text.isEmpty, !text.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 } == true }),
              var components = URLComponents(string: text),
              let scheme = components.scheme?.lowercased(), !scheme.isEmpty,
              let host = components.host, !host.isEmpty else { return nil }
        components.scheme = scheme
        components.host = host.lowercased()
        if (scheme == "http" && components.port == 80) || (scheme == "https" && components.port == 443) {
            components.port = nil
        }
        components.fragment = nil
        if components.percentEncodedPath.isEmpty { components.percentEncodedPath = "/" }
        return components.string
    }

    public var description: String { normalized }

    /// The last path component's extension, sanitised: lower-case letters and digits only,
    /// at most 8 of them; nil when there is none (queries and `@` suffixes never leak in).
    public var sanitizedExtension: String? {
        guard let components = URLComponents(string: normalized) else { return nil }
        let last = components.path.split(separator: "/").last.map(String.init) ?? ""
        guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return nil }
        let ext = last[last.index(after: dot)...].lowercased()
        guard !ext.isEmpty, ext.count <= 8, ext.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
        return ext
    }

    /// Where the native store keeps this URL's body: `objects/ab/<sha256>[.ext]`.
    public var bodyRelativePath: String {
        let hash = Digest.sha256(normalized)
        let prefix = String(hash.prefix(2))
        return "objects/\(prefix)/\(hash)" + (sanitizedExtension.map { ".\($0)" } ?? "")
    }
}
