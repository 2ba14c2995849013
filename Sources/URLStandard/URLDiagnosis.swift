import CacheKitSystem

/// Why a string is not a URL, in words, for messages: the part the basic URL parser (§4.4)
/// fails on and the standard's name for that validation error. The parser itself only
/// fails (it runs for every reference of a page, and a reason costs); this reads the same
/// parts again, the way the parser's states split them, once a parse has failed.
package enum URLDiagnosis {
    /// The cause of `input`'s failure against `base`; nil when it parses, or when the cause
    /// is none of the parts read here.
    package static func reason(_ input: String, base: StandardURL?) -> String? {
        guard StandardURL(input, base: base) == nil else { return nil }
        // §4.4 steps 1–3: no leading or trailing C0 control or space, no tab or newline.
        var bytes = Array(input.utf8)
        while let first = bytes.first, first <= 0x20 { bytes.removeFirst() }
        while let last = bytes.last, last <= 0x20 { bytes.removeLast() }
        bytes.removeAll { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        let rest: ArraySlice<UInt8>
        let scheme: [UInt8]
        if let (written, after) = schemeAndRest(bytes) {
            scheme = written
            rest = after
        } else {
            guard let base, !base.hasOpaquePath || bytes.first == UInt8(ascii: "#") else {
                let against = base.map { " against '\($0.href)' (whose path is opaque)" } ?? ""
                return "it has no scheme\(against): expected an absolute URL such as https://host/path "
                    + "(missing-scheme-non-relative-URL)"
            }
            scheme = base.record.scheme
            rest = bytes[...]
        }
        let special = URLParser.defaultPort(scheme) != nil
        let slashes = rest.prefix { $0 == UInt8(ascii: "/") || (special || scheme == URLParser.file) && $0 == 0x5C }
        if scheme == URLParser.file {
            guard slashes.count >= 2 else { return nil }
            let host = rest[(rest.startIndex + 2)...].prefix { !"/\\?#".utf8.contains($0) }
            return URLParser.isDriveLetter(host) || host.isEmpty ? nil : Self.host(Array(host), opaque: false)
        }
        // A special URL with its own scheme, or a scheme-relative one (`//host`): an authority.
        guard special ? (slashes.count >= 2 || scheme != base?.record.scheme) : slashes.count >= 2 else { return nil }
        let authority = rest.dropFirst(slashes.count).prefix {
            !(special ? "/\\?#" : "/?#").utf8.contains($0)
        }
        return Self.authority(Array(authority), special: special)
    }

    /// The scheme (lower-cased) and what follows its `:`, when `bytes` starts with one (§4.4
    /// scheme start and scheme states).
    private static func schemeAndRest(_ bytes: [UInt8]) -> ([UInt8], ArraySlice<UInt8>)? {
        guard let first = bytes.first, URLParser.isAlpha(Int(first)),
            let colon = bytes.firstIndex(where: { !URLParser.isAlpha(Int($0)) && !"0123456789+-.".utf8.contains($0) }),
            bytes[colon] == UInt8(ascii: ":")
        else { return nil }
        return (bytes[..<colon].map { $0 | 0x20 }, bytes[(colon + 1)...])
    }

    /// The authority: credentials up to its last `@`, then the host, then `:` and a port.
    private static func authority(_ authority: [UInt8], special: Bool) -> String? {
        var hostAndPort = authority[...]
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) { hostAndPort = authority[(at + 1)...] }
        var inBrackets = false
        let colon = hostAndPort.firstIndex { byte in
            if byte == UInt8(ascii: "[") { inBrackets = true }
            if byte == UInt8(ascii: "]") { inBrackets = false }
            return byte == UInt8(ascii: ":") && !inBrackets
        }
        let host = Array(hostAndPort[..<(colon ?? hostAndPort.endIndex)])
        // Any URL's host, once credentials or a port are written; a special URL's always.
        if host.isEmpty && (special || colon != nil || hostAndPort.count < authority.count) {
            return "it has no host (host-missing)"
        }
        if let colon {
            let port = hostAndPort[(colon + 1)...]
            let text = String(decoding: port, as: UTF8.self)
            if !port.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                return "its port '\(text)' is not a number (port-invalid)"
            }
            if port.drop(while: { $0 == 0x30 }).count > 5 || Int(text).map({ $0 > 65535 }) == true {
                return "its port \(text) is out of range: ports go up to 65535 (port-out-of-range)"
            }
        }
        return host.isEmpty ? nil : Self.host(host, opaque: !special)
    }

    /// Why the host parser (§3.5) fails on `input`.
    private static func host(_ input: [UInt8], opaque: Bool) -> String? {
        let shown = "'\(String(decoding: input, as: UTF8.self))'"
        if input.first == UInt8(ascii: "[") {
            guard input.count >= 2, input.last == UInt8(ascii: "]") else {
                return "its IPv6 address \(shown) has no closing ']' (IPv6-unclosed)"
            }
            return HostParser.parseIPv6(input[1..<(input.count - 1)]) == nil
                ? "its host \(shown) is not a valid IPv6 address (IPv6-invalid)" : nil
        }
        if opaque {
            return input.first(where: { HostParser.forbiddenHost.contains($0) }).map {
                "its host \(shown) holds \(Self.named($0)), which no host may hold (host-invalid-code-point)"
            }
        }
        var domain = HostParser.percentDecode(input)
        if domain.contains(where: { $0 >= 0x80 }) {
            domain = Array(String(decoding: domain, as: UTF8.self).utf8)
            guard let ascii = UTS46.toASCII(domain) else {
                return "its host \(shown) is not a valid internationalized domain name (UTS #46) (domain-to-ASCII)"
            }
            domain = ascii
        }
        if let forbidden = domain.first(where: { HostParser.forbiddenDomain.contains($0) }) {
            return "its host \(shown) holds \(Self.named(forbidden)), which no domain may hold "
                + "(domain-invalid-code-point)"
        }
        if domain.isEmpty { return "its host \(shown) is empty once decoded (host-missing)" }
        guard HostParser.endsInANumber(domain), HostParser.parseIPv4(domain) == nil else { return nil }
        return ipv4(domain, shown: shown)
    }

    /// Why the IPv4 parser fails on a host that ends in a number.
    private static func ipv4(_ domain: [UInt8], shown: String) -> String {
        var parts = domain.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        if parts.last?.isEmpty == true, parts.count > 1 { parts.removeLast() }
        if parts.count > 4 { return "its IPv4 address \(shown) has more than 4 parts (IPv4-too-many-parts)" }
        if let bad = parts.first(where: { HostParser.parseIPv4Number($0) == nil }) {
            return
                "its IPv4 address \(shown) has a part that is not a number: '\(String(decoding: bad, as: UTF8.self))'"
                + " (IPv4-non-numeric-part)"
        }
        return "its IPv4 address \(shown) has a part out of range: each but the last is at most 255, and the last "
            + "fills the bytes left (IPv4-out-of-range-part)"
    }

    /// A byte as a message names it: `' '` (U+0020).
    private static func named(_ byte: UInt8) -> String {
        let hex = String(byte, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: 4 - hex.count) + hex
        if byte == 0x20 { return "a space (\(code))" }
        return byte > 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))' (\(code))" : code
    }
}

extension StandardURL {
    /// Why `input` is not a URL against `base`, in words, with the URL Standard's name for
    /// the failure; nil when it is one, or when the cause is not found.
    public static func failureReason(_ input: String, base: StandardURL? = nil) -> String? {
        URLDiagnosis.reason(input, base: base)
    }
}
