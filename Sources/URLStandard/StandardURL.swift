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
        guard record.isSpecial, record.scheme != URLParser.file, record.host != nil, !record.opaquePath else {
            return nil
        }
        let valid = reference.utf8.withContiguousStorageIfAvailable { Self.isPlainPathAbsolute($0) }
        guard valid == true else { return nil }
        // The serialization up to its path: everything but the path, query and fragment.
        let tail =
            record.path.count + (record.query.map { $0.count + 1 } ?? 0)
            + (record.fragment.map { $0.count + 1 } ?? 0)
        let utf8 = href.utf8
        return String(Substring(utf8.prefix(utf8.count - tail))) + reference
    }

    /// `serializingPathAbsolute` for the next commonest reference: a path-relative one such as
    /// `img/a.png` or `a.png`, under the same conditions on this URL and on the bytes, and
    /// with no `:` before its first `/` (that could be a scheme). The relative state then
    /// takes this URL's path without its last segment (§4.4 relative state, "shorten") and
    /// the path state appends the reference's bytes: the serialization up to the path's last
    /// `/`, then the reference.
    package func serializingPathRelative(_ reference: String) -> String? {
        guard record.isSpecial, record.scheme != URLParser.file, record.host != nil, !record.opaquePath,
            let lastSlash = record.path.lastIndex(of: UInt8(ascii: "/"))
        else { return nil }
        let valid = reference.utf8.withContiguousStorageIfAvailable { Self.isPlainPathRelative($0) }
        guard valid == true else { return nil }
        let tail =
            (record.path.count - lastSlash - 1) + (record.query.map { $0.count + 1 } ?? 0)
            + (record.fragment.map { $0.count + 1 } ?? 0)
        let utf8 = href.utf8
        return String(Substring(utf8.prefix(utf8.count - tail))) + reference
    }

    /// The serialization of an absolute `http:` or `https:` reference (or a scheme-relative
    /// `//host/…` one against this special, non-`file:` URL) that is already in the form the
    /// parser writes, without running it; nil for any other (the caller then parses). Taken
    /// only when nothing in it would change: the scheme in lower case; a host of lower-case
    /// ASCII letters, digits, `-` and `.` (no empty label, no `xn--` label the IDNA step would
    /// check, a last label starting with a letter, so not a number the IPv4 parser would
    /// take: §3.5 host parsing with ASCII input); no userinfo or port; then a path of the
    /// bytes the path state copies (and `%`, which it copies too), with no `.` or `..`
    /// segment and no `%2e`; then at most a query of printable ASCII outside the special-
    /// query percent-encode set (`"`, `#`, `<`, `>`, `'`); no fragment.
    package func serializingPlainAbsolute(_ reference: String) -> String? {
        let form = reference.utf8.withContiguousStorageIfAvailable { Self.plainAbsoluteForm($0) } ?? nil
        switch form {
        case .absolute?: return reference
        case .schemeRelative?:
            guard record.isSpecial, record.scheme != URLParser.file,
                record.scheme == Array("http".utf8) || record.scheme == Array("https".utf8)
            else { return nil }
            return String(decoding: record.scheme, as: UTF8.self) + ":" + reference
        case nil: return nil
        }
    }

    private enum PlainAbsoluteForm { case absolute, schemeRelative }

    private static func plainAbsoluteForm(_ b: UnsafeBufferPointer<UInt8>) -> PlainAbsoluteForm? {
        var i: Int
        let form: PlainAbsoluteForm
        if b.starts(with: "http://".utf8) {
            (i, form) = (7, .absolute)
        } else if b.starts(with: "https://".utf8) {
            (i, form) = (8, .absolute)
        } else if b.starts(with: "//".utf8) {
            (i, form) = (2, .schemeRelative)
        } else {
            return nil
        }
        // The host: labels of [a-z0-9-], the last starting with a letter, none `xn--`; at most
        // 253 bytes (longer ones go through IDNA, which has its own limits).
        let hostStart = i
        var labelStart = i
        var lastLabelStart = i
        while i < b.count, b[i] != UInt8(ascii: "/") {
            let c = b[i]
            if c == UInt8(ascii: ".") {
                guard i > labelStart else { return nil }
                labelStart = i + 1
                lastLabelStart = labelStart
            } else {
                guard hostBytes.contains(c) else { return nil }
                if i == labelStart + 3, b[labelStart] == UInt8(ascii: "x"), b[labelStart + 1] == UInt8(ascii: "n"),
                    b[labelStart + 2] == UInt8(ascii: "-"), c == UInt8(ascii: "-")
                {
                    return nil
                }
            }
            i += 1
        }
        guard i < b.count, i > labelStart, i - hostStart <= 253, b[lastLabelStart] >= UInt8(ascii: "a"),
            b[lastLabelStart] <= UInt8(ascii: "z")
        else { return nil }
        // The path, from its `/`, up to a query.
        var segmentStart = i + 1
        i += 1
        while i <= b.count {
            if i == b.count || b[i] == UInt8(ascii: "/") || b[i] == UInt8(ascii: "?") {
                let segment = UnsafeBufferPointer(rebasing: b[segmentStart..<i])
                if segment.elementsEqual(".".utf8) || segment.elementsEqual("..".utf8) { return nil }
                if i == b.count { return form }
                if b[i] == UInt8(ascii: "?") { break }
                segmentStart = i + 1
            } else if b[i] == UInt8(ascii: "%") {
                if i + 2 < b.count, b[i + 1] == UInt8(ascii: "2"), b[i + 2] | 0x20 == UInt8(ascii: "e") { return nil }
            } else if !plainPathBytes.contains(b[i]) {
                return nil
            }
            i += 1
        }
        // The query.
        for c in b[(i + 1)...] where !queryBytes.contains(c) { return nil }
        return form
    }

    private static let hostBytes = ByteSet("-", ranges: [0x30...0x39, 0x61...0x7A])
    /// Printable ASCII the query state keeps as it is in a special URL.
    private static let queryBytes = ByteSet(
        "!$%&()*+,-./:;=?@[\\]^_`{|}~", ranges: [0x30...0x39, 0x41...0x5A, 0x61...0x7A])

    private static func isPlainPathRelative(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = b.first, first != UInt8(ascii: "/") else { return false }
        var segmentStart = 0
        var firstSegment = true
        for i in 0...b.count {
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

    private static func isPlainPathAbsolute(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard b.count >= 1, b[0] == UInt8(ascii: "/"), b.count == 1 || b[1] != UInt8(ascii: "/") else {
            return false
        }
        var segmentStart = 1
        for i in 1...b.count {
            if i == b.count || b[i] == UInt8(ascii: "/") {
                let length = i - segmentStart
                if length == 1 && b[segmentStart] == UInt8(ascii: ".") { return false }
                if length == 2 && b[segmentStart] == UInt8(ascii: ".") && b[segmentStart + 1] == UInt8(ascii: ".") {
                    return false
                }
                segmentStart = i + 1
            } else if !plainPathBytes.contains(b[i]) {
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
