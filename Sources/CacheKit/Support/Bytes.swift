/// A set of byte values, tested with one shift and mask (for per-byte loops over URLs).
struct ByteSet: Sendable {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    init(_ members: String, ranges: [ClosedRange<UInt8>] = []) {
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

    @inline(__always) func contains(_ byte: UInt8) -> Bool {
        let bit = UInt64(1) << UInt64(byte & 63)
        switch byte >> 6 {
        case 0: return words.0 & bit != 0
        case 1: return words.1 & bit != 0
        case 2: return words.2 & bit != 0
        default: return words.3 & bit != 0
        }
    }

    static let alphanumerics: [ClosedRange<UInt8>] = [0x30...0x39, 0x41...0x5A, 0x61...0x7A]
}

extension String {
    /// Runs `body` over the string's UTF-8 bytes in place (native strings are contiguous):
    /// far cheaper in a hot loop than iterating `utf8`.
    @inline(__always) func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        var copy = self
        return try copy.withUTF8(body)
    }

    /// Whether any UTF-8 byte satisfies `predicate`.
    @inline(__always) func containsByte(where predicate: (UInt8) -> Bool) -> Bool {
        withBytes { $0.contains(where: predicate) }
    }
}
