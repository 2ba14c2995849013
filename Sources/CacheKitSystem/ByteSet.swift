#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A set of byte values, tested with one shift and mask (for per-byte loops over URLs).
/// (Inlinable: the loops that test it are in other modules, where a call per byte cost more
/// than the test. The type is public only so that the inlinable body is serialized: this
/// toolchain leaves out the bodies of a `package` type's inlinable members, `perf` and the
/// disassembly showed a call per byte.)
public struct ByteSet: Sendable {
    @usableFromInline var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

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

    @inlinable @inline(__always) package func contains(_ byte: UInt8) -> Bool {
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
