#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// CRC-32 (ISO 3309, as PNG uses it).
enum CRC32 {
    static let initial: UInt32 = 0xFFFF_FFFF
    static let table: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func update<C: Collection>(_ crc: UInt32, _ bytes: C) -> UInt32 where C.Element == UInt8 {
        var c = crc
        for byte in bytes { c = table[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c
    }

    static func finish(_ crc: UInt32) -> UInt32 { crc ^ 0xFFFF_FFFF }
}
