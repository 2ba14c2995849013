import CacheKitSystem

/// The URL Standard's host parser (§3.5) and host serializer (§3.6): each parse returns the
/// host already serialized, which is all a URL record keeps of it.
package enum HostParser {
    /// §3.5 host parser; nil on failure.
    static func parse(_ input: [UInt8], isOpaque: Bool) -> [UInt8]? {
        if input.first == UInt8(ascii: "[") {
            guard input.count >= 2, input.last == UInt8(ascii: "]"),
                let address = parseIPv6(input[1..<(input.count - 1)])
            else { return nil }
            return [UInt8(ascii: "[")] + serializeIPv6(address) + [UInt8(ascii: "]")]
        }
        if isOpaque { return parseOpaqueHost(input) }
        // Steps 4–5: percent-decode, then UTF-8 decode without BOM (ill-formed sequences
        // become U+FFFD, which UTS #46 then refuses).
        var domain = percentDecode(input)
        if domain.contains(where: { $0 >= 0x80 }) { domain = Array(String(decoding: domain, as: UTF8.self).utf8) }
        guard let ascii = domainToASCII(domain) else { return nil }
        if endsInANumber(ascii) {
            guard let address = parseIPv4(ascii) else { return nil }
            return serializeIPv4(address)
        }
        return ascii
    }

    /// §3.3 domain to ASCII, with beStrict false.
    static func domainToASCII(_ domain: [UInt8]) -> [UInt8]? {
        var result: [UInt8]
        if domain.allSatisfy({ $0 < 0x80 }) {
            // An ASCII domain is only lower-cased, `xn--` labels included: the standard's
            // test data keeps invalid Punycode such as `xn--a` and `xn--1ug` as written
            // (urltestdata.json "Domain is ASCII, but a label is invalid IDNA").
            result = domain.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        } else {
            guard let converted = UTS46.toASCII(domain) else { return nil }
            result = converted
        }
        // Steps 2–3: an empty result, or one holding a forbidden domain code point, fails.
        guard !result.isEmpty, !result.contains(where: { forbiddenDomain.contains($0) }) else { return nil }
        return result
    }

    /// §3.2 forbidden host code points: NUL, tab, LF, CR, space, `#`, `/`, `:`, `<`, `>`,
    /// `?`, `@`, `[`, `\`, `]`, `^`, `|`.
    static let forbiddenHost = ByteSet("\u{0}\t\n\r #/:<>?@[\\]^|")
    /// §3.2 forbidden domain code points: the forbidden host code points, C0 controls, `%`
    /// and DEL.
    static let forbiddenDomain = ByteSet("\u{0}\t\n\r #/:<>?@[\\]^|%\u{7F}", ranges: [0x00...0x1F])

    /// §3.5 opaque-host parser.
    static func parseOpaqueHost(_ input: [UInt8]) -> [UInt8]? {
        guard !input.contains(where: { forbiddenHost.contains($0) }) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(input.count)
        for byte in input { URLParser.percentEncode(byte, into: &out, set: URLParser.c0ControlSet) }
        return out
    }

    /// §1.3 percent-decode a byte sequence.
    package static func percentDecode(_ input: [UInt8]) -> [UInt8] {
        guard input.contains(UInt8(ascii: "%")) else { return input }
        var out: [UInt8] = []
        out.reserveCapacity(input.count)
        var i = 0
        while i < input.count {
            if input[i] == UInt8(ascii: "%"), i + 2 < input.count, let high = hexValue(input[i + 1]),
                let low = hexValue(input[i + 2])
            {
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(input[i])
                i += 1
            }
        }
        return out
    }

    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x41...0x46: return c - 0x41 + 10
        case 0x61...0x66: return c - 0x61 + 10
        default: return nil
        }
    }

    // MARK: IPv4 (§3.5)

    /// The ends-in-a-number checker.
    package static func endsInANumber(_ input: [UInt8]) -> Bool {
        var parts = input.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        if parts.last?.isEmpty == true {
            if parts.count == 1 { return false }
            parts.removeLast()
        }
        guard let last = parts.last else { return false }
        if !last.isEmpty && last.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { return true }
        return parseIPv4Number(last) != nil
    }

    /// The IPv4 parser; nil on failure.
    package static func parseIPv4(_ input: [UInt8]) -> UInt32? {
        var parts = input.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        if parts.last?.isEmpty == true, parts.count > 1 { parts.removeLast() }
        guard parts.count <= 4 else { return nil }
        var numbers: [UInt64] = []
        for part in parts {
            guard let n = parseIPv4Number(part) else { return nil }
            numbers.append(n)
        }
        guard numbers.dropLast().allSatisfy({ $0 <= 255 }) else { return nil }
        let last = numbers.last!
        guard last < UInt64(1) << (8 * (5 - UInt64(numbers.count))) else { return nil }
        var address = last
        for (i, n) in numbers.dropLast().enumerated() { address += n << (8 * (3 - UInt64(i))) }
        return UInt32(address)
    }

    /// The IPv4 number parser: decimal, `0x` hex or `0` octal; values past 2^32 saturate
    /// (the caller refuses them).
    static func parseIPv4Number(_ input: ArraySlice<UInt8>) -> UInt64? {
        guard !input.isEmpty else { return nil }
        var digits = input
        var radix: UInt64 = 10
        if digits.count >= 2, digits.first == UInt8(ascii: "0"),
            digits[digits.startIndex + 1] | 0x20 == UInt8(ascii: "x")
        {
            digits = digits.dropFirst(2)
            radix = 16
        } else if digits.count >= 2, digits.first == UInt8(ascii: "0") {
            digits = digits.dropFirst()
            radix = 8
        }
        if digits.isEmpty { return 0 }
        var value: UInt64 = 0
        for c in digits {
            guard let d = hexValue(c).map(UInt64.init), d < radix else { return nil }
            value = min(value * radix + d, UInt64(1) << 40)
        }
        return value
    }

    /// The IPv4 serializer: dotted decimal.
    static func serializeIPv4(_ address: UInt32) -> [UInt8] {
        Array((0..<4).map { String((address >> (24 - 8 * UInt32($0))) & 0xFF) }.joined(separator: ".").utf8)
    }

    // MARK: IPv6 (§3.5)

    /// The IPv6 parser; nil on failure.
    static func parseIPv6(_ text: ArraySlice<UInt8>) -> [UInt16]? {
        let input = Array(text)
        var address = [UInt16](repeating: 0, count: 8)
        var pieceIndex = 0
        var compress: Int?
        var pointer = 0
        func c(_ offset: Int = 0) -> UInt8? { pointer + offset < input.count ? input[pointer + offset] : nil }
        if c() == UInt8(ascii: ":") {
            guard c(1) == UInt8(ascii: ":") else { return nil }
            pointer += 2
            pieceIndex += 1
            compress = pieceIndex
        }
        while let current = c() {
            guard pieceIndex != 8 else { return nil }
            if current == UInt8(ascii: ":") {
                guard compress == nil else { return nil }
                pointer += 1
                pieceIndex += 1
                compress = pieceIndex
                continue
            }
            var value = 0
            var length = 0
            while length < 4, let h = c().flatMap(hexValue) {
                value = value * 0x10 + Int(h)
                pointer += 1
                length += 1
            }
            if c() == UInt8(ascii: ".") {
                guard length != 0 else { return nil }
                pointer -= length
                guard pieceIndex <= 6 else { return nil }
                var numbersSeen = 0
                while c() != nil {
                    if numbersSeen > 0 {
                        guard c() == UInt8(ascii: "."), numbersSeen < 4 else { return nil }
                        pointer += 1
                    }
                    guard let first = c(), first >= 0x30 && first <= 0x39 else { return nil }
                    var piece: Int?
                    while let d = c(), d >= 0x30 && d <= 0x39 {
                        let number = Int(d - 0x30)
                        if let p = piece {
                            guard p != 0 else { return nil }
                            piece = p * 10 + number
                        } else {
                            piece = number
                        }
                        guard piece! <= 255 else { return nil }
                        pointer += 1
                    }
                    address[pieceIndex] = address[pieceIndex] &* 0x100 &+ UInt16(piece!)
                    numbersSeen += 1
                    if numbersSeen == 2 || numbersSeen == 4 { pieceIndex += 1 }
                }
                guard numbersSeen == 4 else { return nil }
                break
            } else if c() == UInt8(ascii: ":") {
                pointer += 1
                guard c() != nil else { return nil }
            } else if c() != nil {
                return nil
            }
            address[pieceIndex] = UInt16(value)
            pieceIndex += 1
        }
        if let compress {
            var swaps = pieceIndex - compress
            pieceIndex = 7
            while pieceIndex != 0 && swaps > 0 {
                address.swapAt(pieceIndex, compress + swaps - 1)
                pieceIndex -= 1
                swaps -= 1
            }
        } else if pieceIndex != 8 {
            return nil
        }
        return address
    }

    /// The IPv6 serializer: lower-case hex, the first longest run of two or more zero pieces
    /// compressed to `::`.
    static func serializeIPv6(_ address: [UInt16]) -> [UInt8] {
        var compress: Int?
        var longest = 1
        var i = 0
        while i < 8 {
            if address[i] == 0 {
                var j = i
                while j < 8 && address[j] == 0 { j += 1 }
                if j - i > longest {
                    longest = j - i
                    compress = i
                }
                i = j
            } else {
                i += 1
            }
        }
        var out = ""
        var ignore0 = false
        for pieceIndex in 0..<8 {
            if ignore0 && address[pieceIndex] == 0 { continue }
            ignore0 = false
            if compress == pieceIndex {
                out += pieceIndex == 0 ? "::" : ":"
                ignore0 = true
                continue
            }
            out += String(address[pieceIndex], radix: 16)
            if pieceIndex != 7 { out += ":" }
        }
        return Array(out.utf8)
    }
}
