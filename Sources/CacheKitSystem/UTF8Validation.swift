#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
extension String {
    /// Runs `body` over the string's UTF-8 bytes in place (native strings are contiguous):
    /// far cheaper in a hot loop than iterating `utf8`. (Inlinable: it is called from other
    /// modules' loops.)
    @inlinable @inline(__always)
    package func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        var copy = self
        return try copy.withUTF8(body)
    }

    /// The string without leading and trailing whitespace (Unicode's).
    package func trimmingWhitespace() -> String {
        // Most strings start and end with a printable ASCII byte: no Character there is
        // whitespace, and the string is its own trimming (no new string made).
        let isTrimmed = utf8.withContiguousStorageIfAvailable { bytes in
            guard let first = bytes.first, let last = bytes.last else { return true }
            return (0x21...0x7E).contains(first) && (0x21...0x7E).contains(last)
        }
        if isTrimmed == true { return self }
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s = s.dropFirst() }
        while let l = s.last, l.isWhitespace { s = s.dropLast() }
        return String(s)
    }

    /// Whether any UTF-8 byte satisfies `predicate`.
    @inlinable @inline(__always) package func containsByte(where predicate: (UInt8) -> Bool) -> Bool {
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
