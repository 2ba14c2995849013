import CacheKitSystem
import Foundation
import URLStandard

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An attribute value decoded the way libxml2 decodes it, with each decoded byte's offset
/// in the original bytes, so decoded positions map back to raw ones.
struct ValueMap {
    let decoded: [UInt8]
    /// `raw[i]` is the original offset of decoded byte i; one extra entry for the end.
    /// Nil when the value has no entity: then decoded byte i is at `start + i`.
    private let rawOffsets: [Int]?
    private let start: Int

    /// Nil when our decoding does not reproduce libxml2's value (then the value cannot be
    /// edited safely, and is left alone).
    init?(raw page: [UInt8], range: Range<Int>, expected: String) {
        start = range.lowerBound
        if StartTagScanner.index(of: UInt8(ascii: "&"), in: page, from: range.lowerBound, to: range.upperBound) == nil {
            // No entity (most values): the value is its raw bytes.
            guard Self.isRaw(page, range, expected) else { return nil }
            decoded = Array(page[range])
            rawOffsets = nil
            return
        }
        var out: [UInt8] = []
        var offsets: [Int] = []
        var i = range.lowerBound
        let end = range.upperBound
        func emit(_ scalar: UInt32, from start: Int) {
            guard let s = Unicode.Scalar(scalar) else { return }
            for byte in String(Character(s)).utf8 {
                out.append(byte)
                offsets.append(start)
            }
        }
        while i < end {
            let c = page[i]
            guard c == UInt8(ascii: "&") else {
                out.append(c)
                offsets.append(i)
                i += 1
                continue
            }
            let start = i
            var j = i + 1
            if j < end, page[j] == UInt8(ascii: "#") {
                j += 1
                var hex = false
                if j < end, page[j] | 0x20 == UInt8(ascii: "x") {
                    hex = true
                    j += 1
                }
                var value: UInt32 = 0
                var digits = 0
                while j < end, let d = hex ? Self.hexValue(page[j]) : Self.decimalValue(page[j]), value < 0x110000 {
                    value = value * (hex ? 16 : 10) + d
                    digits += 1
                    j += 1
                }
                guard digits > 0, value > 0 else { return nil }
                if j < end, page[j] == UInt8(ascii: ";") { j += 1 }
                emit(value, from: start)
                i = j
                continue
            }
            var name: [UInt8] = []
            while j < end, Self.isNameByte(page[j]) {
                name.append(page[j])
                j += 1
            }
            if !name.isEmpty, j < end, page[j] == UInt8(ascii: ";"),
                let value = LibXML2.entity(named: String(decoding: name, as: UTF8.self))
            {
                emit(value, from: start)
                i = j + 1
            } else {
                out.append(c)
                offsets.append(i)
                i += 1
            }
        }
        let libxml2 = Array(expected.utf8)
        guard out == libxml2 || Self.isLibXML2Truncation(libxml2, of: out, offsets: offsets, in: page) else {
            return nil
        }
        offsets.append(end)
        decoded = out
        rawOffsets = offsets
    }

    /// Whether the value at `range` holds no character reference, is libxml2's value byte for
    /// byte, and neither starts nor ends with ASCII whitespace: then the map of it is the
    /// identity, its trimmed range the whole, and `expected` itself its text.
    static func isPlain(raw page: [UInt8], range: Range<Int>, expected: String) -> Bool {
        guard !range.isEmpty, range.upperBound <= page.count, !StartTagScanner.isSpace(page[range.lowerBound]),
            !StartTagScanner.isSpace(page[range.upperBound - 1]),
            StartTagScanner.index(of: UInt8(ascii: "&"), in: page, from: range.lowerBound, to: range.upperBound) == nil
        else { return false }
        return isRaw(page, range, expected)
    }

    /// Whether libxml2's value is the raw bytes at `range`, compared as memory (not element by
    /// element through a generic comparison).
    private static func isRaw(_ page: [UInt8], _ range: Range<Int>, _ expected: String) -> Bool {
        expected.withBytes { bytes in
            bytes.count == range.count
                && (bytes.isEmpty
                    || page.withUnsafeBufferPointer {
                        memcmp(bytes.baseAddress!, $0.baseAddress! + range.lowerBound, bytes.count) == 0
                    })
        }
    }

    /// libxml2 2.9 ended an attribute value at a character reference to U+000B, U+000C or
    /// U+000E–U+0010 (it kept what came before; the carried 2.15 decodes them whole). The
    /// HTML Standard decodes those references to their code points, so such a value is read
    /// as HTML reads it — ours — when libxml2's is exactly ours cut at such a reference, and
    /// ours is UTF-8 (what follows the cut is the page's bytes as they are, which libxml2
    /// never checked: with an invalid byte there, a srcset's candidates, read from the value
    /// as a String, would be longer than the value and point past its end).
    private static func isLibXML2Truncation(_ libxml2: [UInt8], of ours: [UInt8], offsets: [Int], in page: [UInt8])
        -> Bool
    {
        guard libxml2.count < ours.count, ours.starts(with: libxml2), isValidUTF8(ours)
        else { return false }
        let cut = libxml2.count
        return [0x0B, 0x0C, 0x0E, 0x0F, 0x10].contains(ours[cut]) && page[offsets[cut]] == UInt8(ascii: "&")
    }

    /// The value as text: `expected` itself when the value held no character reference (its
    /// bytes are then libxml2's, checked), else made from the decoded bytes.
    func text(expected: String) -> String {
        rawOffsets == nil ? expected : String(decoding: decoded, as: UTF8.self)
    }

    func rawOffset(_ decodedIndex: Int) -> Int { rawOffsets?[decodedIndex] ?? start + decodedIndex }

    /// The raw range behind a decoded range (a whole entity maps as a unit).
    func rawRange(_ r: Range<Int>) -> Range<Int> {
        let lower = rawOffset(r.lowerBound)
        var upper = rawOffset(r.upperBound)
        if r.upperBound > r.lowerBound && upper <= rawOffset(r.upperBound - 1) {
            upper = rawOffset(r.upperBound - 1) + 1
        }
        return lower..<max(lower, upper)
    }

    /// The decoded value without leading and trailing ASCII whitespace.
    func trimmedRange() -> Range<Int> {
        var lo = 0
        var hi = decoded.count
        while lo < hi, StartTagScanner.isSpace(decoded[lo]) { lo += 1 }
        while hi > lo, StartTagScanner.isSpace(decoded[hi - 1]) { hi -= 1 }
        return lo..<hi
    }

    static func hexValue(_ c: UInt8) -> UInt32? {
        switch c {
        case 0x30...0x39: return UInt32(c - 0x30)
        case 0x41...0x46: return UInt32(c - 0x41 + 10)
        case 0x61...0x66: return UInt32(c - 0x61 + 10)
        default: return nil
        }
    }
    static func decimalValue(_ c: UInt8) -> UInt32? { (0x30...0x39).contains(c) ? UInt32(c - 0x30) : nil }
    static func isNameByte(_ c: UInt8) -> Bool { StartTagScanner.isLetter(c) || (0x30...0x39).contains(c) }
}
