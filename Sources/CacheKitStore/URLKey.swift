/// The key cachectl's own store indexes a URL by: its WHATWG URL Standard serialization
/// (`StandardURL`) without the fragment and without a password (a user name stays), for a
/// URL with a non-empty host (not `file:`). A password is a credential, not part of what a
/// response is for: it never reaches the index, `ls` or a report.
public struct URLKey: Hashable, Sendable, CustomStringConvertible {
    /// The serialization without the fragment.
    public let normalized: String

    /// Nil when `text` is not an absolute URL by the URL Standard, or has no host.
    public init?(_ text: String) {
        if Self.isNormalized(text) {
            normalized = text
            return
        }
        guard let url = StandardURL(text), Self.isKeyable(url) else { return nil }
        normalized = url.replacingPassword().hrefWithoutFragment
    }

    /// The key for a parsed URL; nil when it has no host or is a `file:` URL.
    public init?(_ url: StandardURL) {
        guard Self.isKeyable(url) else { return nil }
        normalized = url.replacingPassword().hrefWithoutFragment
    }

    /// Why `text` has no key, in words: not a URL at all, or one without a host (`data:`,
    /// `mailto:`) or a `file:` one; the text shortened when long (a whole page's worth of
    /// `data:` URL is no message).
    public static func refusal(_ text: String) -> String {
        var shown = text
        if text.count > 200 { shown = text.prefix(120) + " … " + text.suffix(40) + " (\(text.count) characters)" }
        guard let url = StandardURL(text) else {
            guard let why = StandardURL.failureReason(text) else {
                return "not a URL: '\(shown)' (expected an absolute URL such as https://host/path)"
            }
            return "not a URL: '\(shown)': \(why)"
        }
        if url.scheme == "file" {
            return "'\(shown)' is a file: URL: caches keep URLs with a host (such as https://host/path)"
        }
        return "'\(shown)' has no host: caches keep URLs with one (such as https://host/path), not \(url.scheme): URLs"
    }

    /// A URL as a report shows it: as given, or, when it holds a password, serialized with
    /// the password as `***` (as wget shows one).
    public static func redacted(_ text: String) -> String {
        guard text.contains("@"), let url = StandardURL(text), !url.record.password.isEmpty else { return text }
        return url.replacingPassword(with: "***").href
    }

    static func isKeyable(_ url: StandardURL) -> Bool {
        url.record.host?.isEmpty == false && url.record.scheme != URLParser.file
    }

    /// Whether `text` is already its own serialization, checked on bytes (a page with 20,000
    /// images looks each up, and parsing costs more than checking): see
    /// `StandardURL.isOwnHTTPSerialization`.
    static func isNormalized(_ text: String) -> Bool { StandardURL.isOwnHTTPSerialization(text) }

    /// `isNormalized` of UTF-8 bytes.
    static func isNormalized(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        StandardURL.isOwnHTTPSerialization(bytes: bytes)
    }

    /// The key as stored.
    public var description: String { normalized }

    /// The last path segment's extension, sanitised: lower-case letters and digits only,
    /// at most 8 of them; nil when there is none (queries never leak in).
    public var sanitizedExtension: String? {
        // An http(s) key's path is read off its serialization: it starts at the first `/`
        // after `://` (the userinfo set encodes `/` and `?`) and ends at the query.
        let bytes = Array(normalized.utf8)
        let scheme = bytes.starts(with: "http://".utf8) ? 7 : bytes.starts(with: "https://".utf8) ? 8 : nil
        guard let scheme else { return StandardURL(normalized)?.pathExtension }
        guard let slash = bytes[scheme...].firstIndex(of: UInt8(ascii: "/")) else { return nil }
        let end = bytes[slash...].firstIndex(of: UInt8(ascii: "?")) ?? bytes.endIndex
        return StandardURL.pathExtension(ofPath: bytes[slash..<end])
    }

    /// Where the native store keeps this URL's body: `objects/ab/<sha256>[.ext]`.
    public var bodyRelativePath: String {
        let hash = Digest.sha256(normalized)
        let prefix = String(hash.prefix(2))
        return "objects/\(prefix)/\(hash)" + (sanitizedExtension.map { ".\($0)" } ?? "")
    }
}
