import CacheKitSystem

/// A URL as the WHATWG URL Standard defines it (https://url.spec.whatwg.org/): parsed by its
/// basic URL parser (§4.4), serialized by its URL serializer (§4.5). Every cache key and
/// every request URL in cachectl is a `StandardURL`'s serialization, so a reference a page
/// writes, a URL given to `put` and a URL a browser requests name the same entry.
///
/// Parsing works on the input's UTF-8 bytes: every code point the standard percent-encodes
/// is encoded as its UTF-8 bytes, so encoding byte by byte gives the same text, and only
/// hosts need code points (they go to UTS #46 as UTF-8).
public struct StandardURL: Hashable, Sendable, CustomStringConvertible {
    package var record: Record
    /// The serialization (§4.5, fragment included): the `href` of the URL API.
    public let href: String

    /// Parses `input` against `base` by the basic URL parser (a UTF-8 document's); nil on failure.
    public init?(_ input: String, base: StandardURL? = nil) {
        self.init(input, base: base, queryEncoder: nil)
    }

    /// A run of a query encoded in a document's legacy encoding: its bytes, or a code point
    /// the encoding has not (written `&#N;`, percent-encoded).
    public enum EncodedRun: Equatable, Sendable {
        case bytes([UInt8])
        case unmappable(UInt32)
    }

    /// Encodes a query in a document's legacy encoding (the URL Standard's "encode or fail",
    /// by the Encoding Standard's encoder), for a URL a page in that encoding writes.
    public typealias QueryEncoder = @Sendable (String) -> [EncodedRun]

    /// Parses `input` against `base` by the basic URL parser; nil on failure. `queryEncoder`:
    /// the encoding of the document `input` comes from, when not UTF-8 (§4.4's `encoding`:
    /// it encodes a special URL's query).
    public init?(_ input: String, base: StandardURL?, queryEncoder: QueryEncoder?) {
        var bytes = Array(input.utf8)
        guard let record = URLParser.parse(&bytes, base: base?.record, queryEncoder: queryEncoder) else { return nil }
        self.init(record)
    }

    package init(_ record: Record) {
        self.record = record
        href = String(decoding: record.serialized(excludingFragment: false), as: UTF8.self)
    }

    /// The serialization (`href`).
    public var description: String { href }

    /// The serialization of `reference` parsed against this URL, for the commonest reference a
    /// page has — a path-absolute one such as `/img/a.png` — without running the parser; nil
    /// for anything else (the caller then parses). Taken only when the result is known: this
    /// URL is special, not `file:`, with a host; `reference` is `/` and then bytes the path
    /// state copies as they are (letters, digits, `-._~!$&'()*+,;=:@/`: no `%`, so no `%2e`
    /// dot segment, no `\`, `?` or `#`), with no `.` or `..` segment. The path state then
    /// only appends those bytes to the base's scheme, userinfo, host and port (§4.4 relative
    /// slash state, then path state), which is what this returns.
    package func serializingPathAbsolute(_ reference: String) -> String? {
        serializingPlainPath(reference, relative: false)
    }

    /// `serializingPathAbsolute` for the next commonest reference: a path-relative one such as
    /// `img/a.png` or `a.png`, under the same conditions on this URL and on the bytes, and
    /// with no `:` before its first `/` (that could be a scheme). The relative state then
    /// takes this URL's path without its last segment (§4.4 relative state, "shorten") and
    /// the path state appends the reference's bytes: the serialization up to the path's last
    /// `/`, then the reference.
    package func serializingPathRelative(_ reference: String) -> String? {
        serializingPlainPath(reference, relative: true)
    }

    private func serializingPlainPath(_ reference: String, relative: Bool) -> String? {
        guard record.isSpecial, record.scheme != URLParser.file, record.host != nil, !record.opaquePath,
            let lastSlash = record.path.lastIndex(of: UInt8(ascii: "/"))
        else { return nil }
        // The serialization up to the path (absolute) or to its last `/` (relative): all but
        // the rest of the path, the query and the fragment.
        let tail =
            (record.path.count - (relative ? lastSlash + 1 : 0)) + (record.query.map { $0.count + 1 } ?? 0)
            + (record.fragment.map { $0.count + 1 } ?? 0)
        // Then the reference: the two copied into one new string (a prefix made first and
        // appended to cost two allocations and the append's checks).
        return reference.withBytes { reference -> String? in
            guard Self.isPlainPath(reference, relative: relative) else { return nil }
            return href.withBytes { href in
                let head = UnsafeBufferPointer(rebasing: href[..<(href.count - tail)])
                return String(unsafeUninitializedCapacity: head.count + reference.count) { buffer in
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[..<head.count]).initialize(from: head)
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[head.count...]).initialize(from: reference)
                    return head.count + reference.count
                }
            }
        }
    }

    /// The serialization of an absolute `http:` or `https:` reference (or a scheme-relative
    /// `//host/…` one against an http(s) URL) that is already in the form the parser writes
    /// (`isOwnHTTPSerialization`), without running the parser; nil for any other (the caller
    /// then parses).
    package func serializingPlainAbsolute(_ reference: String) -> String? {
        if reference.utf8.starts(with: "//".utf8) {
            guard record.scheme == URLParser.http || record.scheme == URLParser.https else { return nil }
            let absolute = String(decoding: record.scheme, as: UTF8.self) + ":" + reference
            return Self.isOwnHTTPSerialization(absolute) ? absolute : nil
        }
        return Self.isOwnHTTPSerialization(reference) ? reference : nil
    }

    /// Whether `text` is already its own serialization, checked on bytes: `http://` or
    /// `https://`, a host of lower-case letters, digits, `.` and `-` whose last label starts
    /// with a letter (so it is no IPv4 number) and none of whose labels starts with `xn--` (the
    /// IDNA step checks those), or an IPv4 address as serialized; a serialized port or none,
    /// no userinfo, a path of bytes the path
    /// percent-encode set keeps with no `.`/`..` segment, a query of bytes the special-query
    /// set keeps, no fragment. A `%` stays as written in every part (§4.4 never decodes).
    package static func isOwnHTTPSerialization(_ text: String) -> Bool {
        text.withBytes { isOwnHTTPSerialization(bytes: $0) }
    }

    /// `isOwnHTTPSerialization` of UTF-8 bytes.
    package static func isOwnHTTPSerialization(bytes b: UnsafeBufferPointer<UInt8>) -> Bool {
        // The sets as locals: a static read in a loop is a `swift_once` check per byte.
        let (hostBytes, pathSet, querySet) = (serializedHostBytes, URLParser.pathSet, URLParser.specialQuerySet)
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
            } else if i == labelStart + 3, b[i] == UInt8(ascii: "-"), b[i - 1] == UInt8(ascii: "-"),
                b[i - 2] == UInt8(ascii: "n"), b[i - 3] == UInt8(ascii: "x")
            {
                return false
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
            } else if c < 0x21 || c > 0x7E || pathSet.contains(c) || c == UInt8(ascii: "\\") {
                return false
            }
            i += 1
        }
        guard !isDotSegment(b[segmentStart..<i]) else { return false }
        while i < b.count {
            let c = b[i]
            guard c >= 0x21, c <= 0x7E, !querySet.contains(c) else { return false }
            i += 1
        }
        return true
    }
    private static let serializedHostBytes = ByteSet(".-", ranges: [0x30...0x39, 0x61...0x7A])

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

    /// `/` (`relative` false; not `//`) or a first byte other than `/` (`relative`, and no `:`
    /// in the first segment), then plain path bytes, no `.` or `..` segment.
    private static func isPlainPath(_ b: UnsafeBufferPointer<UInt8>, relative: Bool) -> Bool {
        guard let first = b.first, (first == UInt8(ascii: "/")) != relative else { return false }
        guard relative || b.count == 1 || b[1] != UInt8(ascii: "/") else { return false }
        var segmentStart = relative ? 0 : 1
        var firstSegment = relative
        let plainPathBytes = plainPathBytes  // a local: a static read in the loop is a check per byte
        for i in segmentStart...b.count {
            if i == b.count || b[i] == UInt8(ascii: "/") {
                let length = i - segmentStart
                if length == 1 && b[segmentStart] == UInt8(ascii: ".") { return false }
                if length == 2 && b[segmentStart] == UInt8(ascii: ".") && b[segmentStart + 1] == UInt8(ascii: ".") {
                    return false
                }
                segmentStart = i + 1
                firstSegment = false
            } else if !plainPathBytes.contains(b[i]) || (firstSegment && b[i] == UInt8(ascii: ":")) {
                return false
            }
        }
        return true
    }

    private static let plainPathBytes = ByteSet("-._~!$&'()*+,;=:@", ranges: ByteSet.alphanumerics)

    /// Equal when their serializations are.
    public static func == (a: StandardURL, b: StandardURL) -> Bool { a.href == b.href }
    /// Hashes the serialization.
    public func hash(into hasher: inout Hasher) { hasher.combine(href) }

    /// The serialization without its fragment: what an HTTP request and a cache key use.
    public var hrefWithoutFragment: String {
        guard let fragment = record.fragment else { return href }
        // The serialization ends in `#` and the fragment.
        let utf8 = href.utf8
        return String(Substring(utf8.prefix(utf8.count - fragment.count - 1)))
    }

    /// The scheme, lower-case, without `:`.
    public var scheme: String { String(decoding: record.scheme, as: UTF8.self) }
    /// The username (percent-encoded), empty when none.
    public var username: String { String(decoding: record.username, as: UTF8.self) }
    /// The password (percent-encoded), empty when none.
    public var password: String { String(decoding: record.password, as: UTF8.self) }

    /// The URL with its password replaced (`***` in reports) or removed (`""`: the user name
    /// stays); itself when it has none. Credentials are never kept in a key, a saved page or
    /// a report.
    public func replacingPassword(with password: String = "") -> StandardURL {
        guard !record.password.isEmpty else { return self }
        var changed = record
        changed.password = Array(password.utf8)
        return StandardURL(changed)
    }
    /// The serialized host (§3.6): a domain, dotted IPv4, `[…]` IPv6, an opaque host, or ""
    /// (the empty host); nil when the URL has none.
    public var hostname: String? { record.host.map { String(decoding: $0, as: UTF8.self) } }
    /// Nil when absent or the scheme's default port (the parser drops a default port).
    public var port: Int? { record.port }
    /// The path serialized (§4.5 URL path serializer): an opaque path as it is, or `/`
    /// before each segment.
    public var path: String { String(decoding: record.path, as: UTF8.self) }
    /// Whether the path is opaque (`mailto:x`, `data:…`).
    public var hasOpaquePath: Bool { record.opaquePath }
    /// The query without `?`; nil when there is none (empty when `?` ends the URL).
    public var query: String? { record.query.map { String(decoding: $0, as: UTF8.self) } }
    /// The fragment without `#`; nil when there is none.
    public var fragment: String? { record.fragment.map { String(decoding: $0, as: UTF8.self) } }
    /// Whether the scheme is special (§4.2: ftp, file, http, https, ws, wss).
    public var isSpecial: Bool { record.isSpecial }

    /// The URL API's getters, for comparing with the standard's test data.
    public var protocolValue: String { scheme + ":" }
    /// The `host` getter of the URL Standard's API: host and port.
    public var hostValue: String { (hostname ?? "") + (port.map { ":\($0)" } ?? "") }
    /// The `port` getter: the port, or empty.
    public var portValue: String { port.map(String.init) ?? "" }
    /// The `search` getter: `?` and the query, or empty.
    public var search: String { (query ?? "").isEmpty ? "" : "?" + query! }
    /// The `hash` getter: `#` and the fragment, or empty.
    public var hash: String { (fragment ?? "").isEmpty ? "" : "#" + fragment! }

    /// A URL whose scheme is http or https and which has a non-empty host: the ones cachectl
    /// can fetch and its store keys.
    public var isHTTP: Bool {
        (record.scheme == URLParser.http || record.scheme == URLParser.https) && record.host?.isEmpty == false
    }

    /// The last path segment's extension, sanitised: lower-case letters and digits only, at
    /// most 8 of them; nil when there is none (queries never leak in).
    public var pathExtension: String? {
        guard !record.opaquePath else { return nil }
        return Self.pathExtension(ofPath: record.path[...])
    }

    /// `pathExtension` of a serialized, non-opaque path.
    package static func pathExtension(ofPath path: ArraySlice<UInt8>) -> String? {
        let last = path.lastIndex(of: UInt8(ascii: "/")).map { path[($0 + 1)...] } ?? path
        guard let dot = last.lastIndex(of: UInt8(ascii: ".")), dot != last.startIndex else { return nil }
        let ext = last[(dot + 1)...]
        guard !ext.isEmpty, ext.count <= 8,
            ext.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) })
        else { return nil }
        return String(decoding: ext.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}

// MARK: - The URL record (§4.1)

extension StandardURL {
    /// A URL's parts as the standard's URL record holds them, each in its serialized
    /// (percent-encoded) UTF-8 form. A non-opaque path is kept serialized too — `/` before
    /// each segment — with its segment count, which is all the parser and serializer need.
    package struct Record: Sendable {
        package var scheme: [UInt8] = []
        package var username: [UInt8] = []
        package var password: [UInt8] = []
        /// The serialized host; nil when the URL has none, empty for the empty host.
        package var host: [UInt8]?
        package var port: Int?
        package var path: [UInt8] = []
        package var segments = 0
        package var opaquePath = false
        package var query: [UInt8]?
        package var fragment: [UInt8]?

        package var isSpecial: Bool { URLParser.defaultPort(scheme) != nil || scheme == URLParser.file }

        /// The path's first segment (for the file scheme's drive letters and the serializer's
        /// `/.`); nil when the path has none.
        package var firstSegment: ArraySlice<UInt8>? {
            guard segments > 0 else { return nil }
            let rest = path.dropFirst()
            return rest[..<(rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex)]
        }

        package mutating func append(segment: some Collection<UInt8>) {
            path.append(UInt8(ascii: "/"))
            path.append(contentsOf: segment)
            segments += 1
        }

        /// §4.1 shorten a URL's path.
        package mutating func shortenPath() {
            if scheme == URLParser.file, segments == 1, let first = firstSegment,
                URLParser.isNormalizedDriveLetter(first)
            {
                return
            }
            guard segments > 0, let slash = path.lastIndex(of: UInt8(ascii: "/")) else { return }
            path.removeSubrange(slash...)
            segments -= 1
        }

        /// §4.5 URL serializer.
        package func serialized(excludingFragment: Bool) -> [UInt8] {
            var out: [UInt8] = []
            out.reserveCapacity(
                scheme.count + (host?.count ?? 0) + path.count + (query?.count ?? 0) + (fragment?.count ?? 0) + 16)
            out += scheme
            out.append(UInt8(ascii: ":"))
            if let host {
                out += [UInt8(ascii: "/"), UInt8(ascii: "/")]
                if !username.isEmpty || !password.isEmpty {
                    out += username
                    if !password.isEmpty {
                        out.append(UInt8(ascii: ":"))
                        out += password
                    }
                    out.append(UInt8(ascii: "@"))
                }
                out += host
                if let port {
                    out.append(UInt8(ascii: ":"))
                    out += Array(String(port).utf8)
                }
            } else if !opaquePath, segments > 1, firstSegment?.isEmpty == true {
                out += [UInt8(ascii: "/"), UInt8(ascii: ".")]
            }
            out += path
            if let query {
                out.append(UInt8(ascii: "?"))
                out += query
            }
            if !excludingFragment, let fragment {
                out.append(UInt8(ascii: "#"))
                out += fragment
            }
            return out
        }
    }
}
