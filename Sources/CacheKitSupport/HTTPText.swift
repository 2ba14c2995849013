/// HTTP field text read as RFC 9110 reads it, byte by byte: optional whitespace is SP and
/// HTAB only (§5.6.3), and field names and directive names are ASCII case-insensitive (§5.1,
/// RFC 9111 §5.2). Foundation's `trimmingCharacters(in: .whitespaces)` trims every Unicode
/// space and bridges through `NSString`, and `lowercased()` allocates for each comparison:
/// together they cost more than the rest of a small response's handling.
package enum HTTPText {
    /// `text` without its leading and trailing SP and HTAB (OWS).
    package static func trimmingOWS(_ text: Substring) -> Substring {
        let bytes = text.utf8
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, isOWS(bytes[start]) { start = bytes.index(after: start) }
        while end > start, isOWS(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
        return Substring(bytes[start..<end])
    }

    /// `trimmingOWS` of a whole string.
    package static func trimmingOWS(_ text: String) -> Substring { trimmingOWS(text[...]) }

    /// Whether `text` equals `lowercase` (which must be lower-case ASCII) ignoring ASCII case.
    package static func equals(_ text: String, lowercase: String) -> Bool {
        var other = lowercase.utf8.makeIterator()
        for byte in text.utf8 {
            guard let expected = other.next(), lowered(byte) == expected else { return false }
        }
        return other.next() == nil
    }

    /// `text` with ASCII upper-case letters lowered (other bytes as they are).
    package static func lowercasedASCII(_ text: Substring) -> String {
        guard text.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return String(text) }
        return String(decoding: text.utf8.map(lowered), as: UTF8.self)
    }

    @inline(__always) static func isOWS(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    @inline(__always) static func lowered(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
}
