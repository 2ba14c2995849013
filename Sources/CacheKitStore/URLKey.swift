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
    /// images looks each up, and parsing costs more than checking): `http://` or `https://`,
    /// a host of lower-case letters, digits, `.` and `-` whose last label starts with a letter
    /// (so it is no IPv4 number), no port or userinfo, a path of bytes the path
    /// percent-encode set keeps with no `.`/`..` segment, a query of bytes the special-query
    /// set keeps, no fragment. A `%` stays as written in every part (§4.4 never decodes).
    static func isNormalized(_ text: String) -> Bool {
        text.withBytes { b in
            let prefix: Int
            if b.starts(with: "http://".utf8) {
                prefix = 7
            } else if b.starts(with: "https://".utf8) {
                prefix = 8
            } else {
                return false
            }
            var i = prefix
            var labelStart = prefix
            var lastLabelStart = prefix
            while i < b.count, hostBytes.contains(b[i]) {
                if b[i] == UInt8(ascii: ".") {
                    if i > labelStart { lastLabelStart = labelStart }
                    labelStart = i + 1
                }
                i += 1
            }
            if i > labelStart { lastLabelStart = labelStart }
            guard i > prefix, lastLabelStart < i,
                (b[lastLabelStart] >= UInt8(ascii: "a") && b[lastLabelStart] <= UInt8(ascii: "z"))
                    || isDottedDecimal(b[prefix..<i])
            else { return false }
            if i < b.count, b[i] == UInt8(ascii: ":") {
                let digitsStart = i + 1
                i = digitsStart
                while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
                guard isSerializedPort(b[digitsStart..<i], https: prefix == 8) else { return false }
            }
            guard i < b.count, b[i] == UInt8(ascii: "/") else { return false }
            var segmentStart = i + 1
            i += 1
            while i < b.count, b[i] != UInt8(ascii: "?") {
                let c = b[i]
                if c == UInt8(ascii: "/") {
                    guard !isDotSegment(b[segmentStart..<i]) else { return false }
                    segmentStart = i + 1
                } else if c < 0x21 || c > 0x7E || URLParser.pathSet.contains(c) || c == UInt8(ascii: "\\") {
                    return false
                }
                i += 1
            }
            guard !isDotSegment(b[segmentStart..<i]) else { return false }
            while i < b.count {
                let c = b[i]
                guard c >= 0x21, c <= 0x7E, !URLParser.specialQuerySet.contains(c) else { return false }
                i += 1
            }
            return true
        }
    }
    private static let hostBytes = ByteSet(".-", ranges: [0x30...0x39, 0x61...0x7A])

    /// An IPv4 address as the standard serializes it (§3.5): four decimal numbers 0-255
    /// without leading zeros. (Any other all-numeric host is parsed.)
    private static func isDottedDecimal(_ host: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        let parts = host.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                guard (1...3).contains(part.count), part.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                    part.count == 1 || part.first != 0x30
                else { return false }
                return part.reduce(0) { $0 * 10 + Int($1 - 0x30) } <= 255
            }
    }

    /// A port as the standard serializes it (§4.5): 1-5 digits without a leading zero, at
    /// most 65535, and not the scheme's default (80, 443), which is never written.
    private static func isSerializedPort(_ digits: Slice<UnsafeBufferPointer<UInt8>>, https: Bool) -> Bool {
        guard (1...5).contains(digits.count), digits.count == 1 || digits.first != 0x30 else { return false }
        let port = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        return port <= 65535 && port != (https ? 443 : 80)
    }

    private static func isDotSegment(_ segment: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard segment.count <= 6, segment.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "%") }) else {
            return false
        }
        let bytes = Array(segment)
        return URLParser.isSingleDot(bytes) || URLParser.isDoubleDot(bytes)
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
