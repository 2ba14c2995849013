/// The directives of a Cache-Control header value.
package struct CacheControl {
    private var values: [String: String?] = [:]
    /// Directives whose value was a quoted-string (never valid delta-seconds).
    private var quoted = Set<String>()

    package init(_ text: String) {
        for part in Self.members(text) {
            let item = HTTPText.trimmingOWS(part)
            guard !item.isEmpty else { continue }
            if let eq = item.utf8.firstIndex(of: UInt8(ascii: "=")) {
                let name = HTTPText.lowercasedASCII(HTTPText.trimmingOWS(Substring(item.utf8[..<eq])))
                var value = HTTPText.trimmingOWS(Substring(item.utf8[item.utf8.index(after: eq)...]))
                if value.utf8.count >= 2, value.utf8.first == UInt8(ascii: "\""), value.utf8.last == UInt8(ascii: "\"")
                {
                    value = Substring(value.utf8.dropFirst().dropLast())
                    quoted.insert(name)
                }
                if values[name] == nil { values[name] = .some(String(value)) }
            } else {
                let name = HTTPText.lowercasedASCII(item)
                if values[name] == nil { values[name] = .some(nil) }
            }
        }
    }

    /// The list's members: split at commas outside quoted-strings (RFC 9110 §5.6.1, §5.6.4:
    /// `ext="a, no-store"` is one directive, not a `no-store`), a backslash escaping the next
    /// byte inside quotes.
    static func members(_ text: String) -> [Substring] {
        var parts: [Substring] = []
        let bytes = text.utf8
        var (start, i, quoted) = (bytes.startIndex, bytes.startIndex, false)
        while i != bytes.endIndex {
            let byte = bytes[i]
            if quoted && byte == UInt8(ascii: "\\") {
                i = bytes.index(after: i)
                if i == bytes.endIndex { break }
            } else if byte == UInt8(ascii: "\"") {
                quoted.toggle()
            } else if byte == UInt8(ascii: ","), !quoted {
                parts.append(Substring(bytes[start..<i]))
                start = bytes.index(after: i)
            }
            i = bytes.index(after: i)
        }
        parts.append(Substring(bytes[start...]))
        return parts
    }

    package func has(_ name: String) -> Bool { values[name] != nil }

    /// A delta-seconds directive; nil when absent or not delta-seconds (see `deltaSeconds`).
    package func seconds(_ name: String) -> Double? {
        guard !quoted.contains(name), let value = values[name] ?? nil else { return nil }
        return Self.deltaSeconds(value)
    }

    /// RFC 9111 §1.2.2: ASCII digits only; a value beyond 2^31 is 2147483648 — never a
    /// number that overflows later arithmetic.
    package static func deltaSeconds(_ text: String) -> Double? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let cap = 2_147_483_648.0
        if text.utf8.count > 10 { return cap }
        return min(Double(text) ?? cap, cap)
    }
}
