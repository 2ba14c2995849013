#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
/// A set of byte values, tested with one shift and mask (for per-byte loops over URLs).
package struct ByteSet: Sendable {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    package init(_ members: String, ranges: [ClosedRange<UInt8>] = []) {
        for byte in members.utf8 { insert(byte) }
        for range in ranges { for byte in range { insert(byte) } }
    }

    private mutating func insert(_ byte: UInt8) {
        let bit = UInt64(1) << UInt64(byte & 63)
        switch byte >> 6 {
        case 0: words.0 |= bit
        case 1: words.1 |= bit
        case 2: words.2 |= bit
        default: words.3 |= bit
        }
    }

    @inline(__always) package func contains(_ byte: UInt8) -> Bool {
        let bit = UInt64(1) << UInt64(byte & 63)
        switch byte >> 6 {
        case 0: return words.0 & bit != 0
        case 1: return words.1 & bit != 0
        case 2: return words.2 & bit != 0
        default: return words.3 & bit != 0
        }
    }

    package static let alphanumerics: [ClosedRange<UInt8>] = [0x30...0x39, 0x41...0x5A, 0x61...0x7A]
}

extension String {
    /// Runs `body` over the string's UTF-8 bytes in place (native strings are contiguous):
    /// far cheaper in a hot loop than iterating `utf8`.
    @inline(__always) package func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        var copy = self
        return try copy.withUTF8(body)
    }

    /// The string without leading and trailing whitespace (Unicode's).
    package func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s = s.dropFirst() }
        while let l = s.last, l.isWhitespace { s = s.dropLast() }
        return String(s)
    }

    /// Whether any UTF-8 byte satisfies `predicate`.
    @inline(__always) package func containsByte(where predicate: (UInt8) -> Bool) -> Bool {
        withBytes { $0.contains(where: predicate) }
    }
}

/// UTF-8 validity as `String(validating:as:)` judges it (no overlong forms, no surrogates,
/// nothing above U+10FFFF), without building a string: ASCII runs are skipped eight bytes at
/// a time, which is most of a page.
package func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    let n = bytes.count
    var i = 0
    while i < n {
        if i + 8 <= n {
            let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            if word & 0x8080_8080_8080_8080 == 0 {
                i += 8
                continue
            }
        }
        let lead = base[i]
        if lead < 0x80 {
            i += 1
            continue
        }
        let length: Int
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            upper = 0x9F
        case 0xF0:
            length = 4
            lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            upper = 0x8F
        default: return false
        }
        guard i + length <= n else { return false }
        let second = base[i + 1]
        guard second >= lower && second <= upper else { return false }
        for k in 2..<max(2, length) where base[i + k] & 0xC0 != 0x80 { return false }
        i += length
    }
    return true
}

package func isValidUTF8(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBufferPointer { isValidUTF8($0) } }

/// Bytes as a dictionary key, hashed in one call (`ArraySlice<UInt8>` hashes byte by byte).
package struct BytesKey: Hashable {
    package let bytes: ArraySlice<UInt8>

    package init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    /// The length and the last 16 bytes: keys here are paths that differ at their ends
    /// (a store's `objects/xx` directories), and equality compares them whole anyway.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.count)
        bytes.withUnsafeBytes { hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: $0[max(0, $0.count - 16)...])) }
    }

    package static func == (a: BytesKey, b: BytesKey) -> Bool {
        guard a.bytes.count == b.bytes.count else { return false }
        guard !a.bytes.isEmpty else { return true }
        return a.bytes.withUnsafeBytes { x in
            b.bytes.withUnsafeBytes { y in memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
        }
    }
}
