import Foundation

/// A URL normalized into the key cachectl's own store indexes by.
public struct URLKey: Hashable, Sendable, CustomStringConvertible {
    /// The normalized URL: scheme and host lower-cased, default port and fragment dropped,
    /// an empty path written as `/`.
    public let normalized: String

    /// Nil when `text` is not an absolute URL with a scheme and a host.
    public init?(_ text: String) {
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
        guard let string = components.string else { return nil }
        normalized = string
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
