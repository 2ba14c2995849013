/// XXH3-128 with seed 0 and the default secret (xxHash's XXH3_128bits), as ccache 4 checks
/// each cache entry with (src/ccache/core/cacheentry.cpp:241-254: the last 16 bytes are the
/// canonical, big-endian digest of everything before them). Written from xxhash.h's
/// algorithm; checked against Python's `xxhash` on every length path.
public enum XXH3 {
    private static let prime32_1: UInt64 = 0x9E37_79B1, prime32_2: UInt64 = 0x85EB_CA77, prime32_3: UInt64 = 0xC2B2_AE3D
    private static let prime64_1: UInt64 = 0x9E37_79B1_85EB_CA87, prime64_2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime64_3: UInt64 = 0x1656_67B1_9E37_79F9, prime64_4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime64_5: UInt64 = 0x27D4_EB2F_1656_67C5
    private static let primeMX1: UInt64 = 0x1656_6791_9E37_79F9, primeMX2: UInt64 = 0x9FB2_1C65_1E98_DF25

    private static let secret: [UInt8] = [
        0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c,
        0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f,
        0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
        0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c,
        0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3,
        0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
        0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d,
        0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64,
        0xea, 0xc5, 0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb,
        0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26, 0x29, 0xd4, 0x68, 0x9e,
        0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc, 0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce,
        0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e
    ]

    /// The canonical (big-endian high, then low) 16-byte digest of `input`.
    public static func digest128(_ input: ArraySlice<UInt8>) -> [UInt8] {
        canonical(hash128(Array(input)))
    }

    private static func r64(_ b: [UInt8], _ i: Int) -> UInt64 {
        var v: UInt64 = 0
        for k in 0..<8 { v |= UInt64(b[i + k]) << (8 * UInt64(k)) }
        return v
    }

    private static func r32(_ b: [UInt8], _ i: Int) -> UInt64 {
        UInt64(b[i]) | UInt64(b[i + 1]) << 8 | UInt64(b[i + 2]) << 16 | UInt64(b[i + 3]) << 24
    }

    private static func mult128(_ a: UInt64, _ b: UInt64) -> (low: UInt64, high: UInt64) {
        let (high, low) = a.multipliedFullWidth(by: b)
        return (low, high)
    }

    private static func fold64(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let m = mult128(a, b)
        return m.low ^ m.high
    }

    private static func avalanche3(_ h0: UInt64) -> UInt64 {
        var h = h0 ^ (h0 >> 37)
        h = h &* primeMX1
        return h ^ (h >> 32)
    }

    private static func avalanche64(_ h0: UInt64) -> UInt64 {
        var h = h0 ^ (h0 >> 33)
        h = h &* prime64_2
        h ^= h >> 29
        h = h &* prime64_3
        return h ^ (h >> 32)
    }

    private static func mix16(_ b: [UInt8], _ i: Int, _ s: Int) -> UInt64 {
        fold64(r64(b, i) ^ r64(secret, s), r64(b, i + 8) ^ r64(secret, s + 8))
    }

    private static func mix32(_ acc: inout (low: UInt64, high: UInt64), _ b: [UInt8], _ i1: Int, _ i2: Int, _ s: Int) {
        acc.low = acc.low &+ mix16(b, i1, s)
        acc.low ^= r64(b, i2) &+ r64(b, i2 + 8)
        acc.high = acc.high &+ mix16(b, i2, s + 16)
        acc.high ^= r64(b, i1) &+ r64(b, i1 + 8)
    }

    static func hash128(_ b: [UInt8]) -> (low: UInt64, high: UInt64) {
        let n = b.count
        let len = UInt64(n)
        switch n {
        case 0:
            return (avalanche64(r64(secret, 64) ^ r64(secret, 72)), avalanche64(r64(secret, 80) ^ r64(secret, 88)))
        case 1...3:
            let c1 = UInt32(b[0])
            let c2 = UInt32(b[n >> 1])
            let c3 = UInt32(b[n - 1])
            let combinedL = (c1 << 16) | (c2 << 24) | c3 | (UInt32(n) << 8)
            let swapped = combinedL.byteSwapped
            let combinedH = (swapped << 13) | (swapped >> 19)
            let flipL = (r32(secret, 0) ^ r32(secret, 4))
            let flipH = (r32(secret, 8) ^ r32(secret, 12))
            return (avalanche64(UInt64(combinedL) ^ flipL), avalanche64(UInt64(combinedH) ^ flipH))
        case 4...8:
            let input64 = r32(b, 0) &+ (r32(b, n - 4) << 32)
            let keyed = input64 ^ (r64(secret, 16) ^ r64(secret, 24))
            var m = mult128(keyed, prime64_1 &+ (len << 2))
            m.high = m.high &+ (m.low << 1)
            m.low ^= m.high >> 3
            m.low ^= m.low >> 35
            m.low = m.low &* primeMX2
            m.low ^= m.low >> 28
            return (m.low, avalanche3(m.high))
        case 9...16:
            let flipL = r64(secret, 32) ^ r64(secret, 40)
            let flipH = r64(secret, 48) ^ r64(secret, 56)
            let lo = r64(b, 0)
            var hi = r64(b, n - 8)
            var m = mult128(lo ^ hi ^ flipL, prime64_1)
            m.low = m.low &+ ((len - 1) << 54)
            hi ^= flipH
            m.high = m.high &+ hi &+ (hi & 0xFFFF_FFFF) &* (prime32_2 - 1)
            m.low ^= m.high.byteSwapped
            var h = mult128(m.low, prime64_2)
            h.high = h.high &+ m.high &* prime64_2
            return (avalanche3(h.low), avalanche3(h.high))
        case 17...128:
            var acc: (low: UInt64, high: UInt64) = (len &* prime64_1, 0)
            if n > 32 {
                if n > 64 {
                    if n > 96 { mix32(&acc, b, 48, n - 64, 96) }
                    mix32(&acc, b, 32, n - 48, 64)
                }
                mix32(&acc, b, 16, n - 32, 32)
            }
            mix32(&acc, b, 0, n - 16, 0)
            return finish(acc, len)
        case 129...240:
            var acc: (low: UInt64, high: UInt64) = (len &* prime64_1, 0)
            for i in 0..<4 { mix32(&acc, b, 32 * i, 32 * i + 16, 32 * i) }
            acc = (avalanche3(acc.low), avalanche3(acc.high))
            for i in 4..<(n / 32) { mix32(&acc, b, 32 * i, 32 * i + 16, 3 + 32 * (i - 4)) }
            mix32(&acc, b, n - 16, n - 32, 136 - 17 - 16)
            return finish(acc, len)
        default:
            return long(b)
        }
    }

    private static func finish(_ acc: (low: UInt64, high: UInt64), _ len: UInt64) -> (low: UInt64, high: UInt64) {
        let low = acc.low &+ acc.high
        let high = (acc.low &* prime64_1) &+ (acc.high &* prime64_4) &+ (len &* prime64_2)
        return (avalanche3(low), 0 &- avalanche3(high))
    }

    private static let stripesPerBlock = (secret.count - 64) / 8
    /// The long path takes its input a block (1,024 bytes) at a time, then the stripes of
    /// the last, partial block and the input's last 64 bytes.
    private static let blockLength = 64 * stripesPerBlock

    /// The long path's eight accumulators (inputs over 240 bytes).
    private struct Accumulators {
        var acc: [UInt64] = [prime32_3, prime64_1, prime64_2, prime64_3, prime64_4, prime32_2, prime64_5, prime32_1]

        /// The 64-byte stripe at `i` of `b`, keyed from `s` of the secret.
        mutating func stripe(_ b: [UInt8], _ i: Int, _ s: Int) {
            precondition(i >= 0 && i + 64 <= b.count && s >= 0 && s + 64 <= secret.count)
            b.withUnsafeBytes { input in
                secret.withUnsafeBytes { key in
                    acc.withUnsafeMutableBufferPointer { Self.stripe(input.baseAddress! + i, key.baseAddress! + s, $0) }
                }
            }
        }

        /// A whole block at `i` of `b`: its stripes, then the scramble. Through pointers, 8
        /// bytes a load: a debug build hashes a large ccache entry at a usable speed.
        mutating func block(_ b: [UInt8], _ i: Int) {
            precondition(i >= 0 && i + blockLength <= b.count)
            b.withUnsafeBytes { input in
                secret.withUnsafeBytes { key in
                    acc.withUnsafeMutableBufferPointer { acc in
                        for stripe in 0..<stripesPerBlock {
                            Self.stripe(input.baseAddress! + i + 64 * stripe, key.baseAddress! + 8 * stripe, acc)
                        }
                        let scrambleKey = key.baseAddress! + secret.count - 64
                        for k in 0..<8 {
                            var a = acc[k]
                            a ^= a >> 47
                            a ^= UInt64(littleEndian: scrambleKey.loadUnaligned(fromByteOffset: 8 * k, as: UInt64.self))
                            acc[k] = a &* prime32_1
                        }
                    }
                }
            }
        }

        private static func stripe(
            _ data: UnsafeRawPointer, _ key: UnsafeRawPointer, _ acc: UnsafeMutableBufferPointer<UInt64>
        ) {
            for k in 0..<8 {
                let value = UInt64(littleEndian: data.loadUnaligned(fromByteOffset: 8 * k, as: UInt64.self))
                let keyed = value ^ UInt64(littleEndian: key.loadUnaligned(fromByteOffset: 8 * k, as: UInt64.self))
                acc[k ^ 1] = acc[k ^ 1] &+ value
                acc[k] = acc[k] &+ (keyed & 0xFFFF_FFFF) &* (keyed >> 32)
            }
        }

        /// The hash of an input of `length` bytes whose whole blocks are in: `rest` is what
        /// follows them (1 to 1,024 bytes), `last` the input's last 64 bytes.
        mutating func finish(rest: [UInt8], last: [UInt8], length: Int) -> (low: UInt64, high: UInt64) {
            for stripe in 0..<(rest.count - 1) / 64 { self.stripe(rest, 64 * stripe, 8 * stripe) }
            self.stripe(last, 0, secret.count - 64 - 7)
            func merge(_ s: Int, _ start: UInt64) -> UInt64 {
                var result = start
                for i in 0..<4 {
                    result =
                        result
                        &+ fold64(acc[2 * i] ^ r64(secret, s + 16 * i), acc[2 * i + 1] ^ r64(secret, s + 16 * i + 8))
                }
                return avalanche3(result)
            }
            let len = UInt64(length)
            return (merge(11, len &* prime64_1), merge(secret.count - 64 - 11, ~(len &* prime64_2)))
        }
    }

    private static func long(_ b: [UInt8]) -> (low: UInt64, high: UInt64) {
        var state = Accumulators()
        let blocks = (b.count - 1) / blockLength
        for block in 0..<blocks { state.block(b, block * blockLength) }
        return state.finish(rest: Array(b[(blocks * blockLength)...]), last: Array(b.suffix(64)), length: b.count)
    }

    /// `digest128` of `count` bytes that `read(offset, count)` gives, read 64 KiB at a time,
    /// so that a large file (a ccache entry) is never held whole. Nil when `read` gives fewer
    /// bytes than asked (the file was cut short while it was read).
    static func digest128(count n: Int, read: (_ at: Int, _ count: Int) throws -> [UInt8]) rethrows -> [UInt8]? {
        if n <= 240 {
            let bytes = try read(0, n)
            return bytes.count == n ? digest128(bytes[...]) : nil
        }
        var state = Accumulators()
        let blocks = (n - 1) / blockLength
        let blocksPerRead = 64
        var tail: [UInt8] = []
        var block = 0
        while block < blocks {
            let count = min(blocksPerRead, blocks - block) * blockLength
            let bytes = try read(block * blockLength, count)
            guard bytes.count == count else { return nil }
            for i in stride(from: 0, to: count, by: blockLength) { state.block(bytes, i) }
            tail = Array(bytes.suffix(64))
            block += count / blockLength
        }
        let rest = try read(blocks * blockLength, n - blocks * blockLength)
        guard rest.count == n - blocks * blockLength else { return nil }
        return canonical(state.finish(rest: rest, last: Array((tail + rest).suffix(64)), length: n))
    }

    private static func canonical(_ hash: (low: UInt64, high: UInt64)) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: hash.high >> (56 - 8 * UInt64($0))) }
            + (0..<8).map { UInt8(truncatingIfNeeded: hash.low >> (56 - 8 * UInt64($0))) }
    }
}
