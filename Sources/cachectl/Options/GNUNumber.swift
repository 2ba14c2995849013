/// A number as GNU du reads its arguments: gnulib's `xstrtoumax` and `xstrtoimax` with base
/// 0 (gnulib lib/xstrtol.c, `__xstrtol`), so `-B 010`, `-t 0x10` and `--max-depth 010` mean
/// what they mean to du (8, 16 and 8): leading white space and a `+` skipped, `0x` for hex, a
/// leading `0` for octal, then one suffix from `suffixes` (a power of 1024, or with `0` among
/// them and a second suffix `B` or `D`, of 1000; `iB` keeps 1024; a suffix alone means 1 of it).
enum GNUNumber {
    /// Why a text is not a number (du's three messages).
    enum Failure: Error, Equatable {
        /// `invalid -B argument '…'`: no number and no suffix, or a sign where none may be.
        case invalid
        /// `invalid suffix in -B argument '…'`.
        case invalidSuffix
        /// `-B argument '…' too large`.
        case tooLarge

        /// du's words for it, for `argument` (`-B`, `-t`, `--max-depth`).
        func message(_ argument: String, _ text: String) -> String {
            switch self {
            case .invalid: return "invalid \(argument) argument '\(text)'"
            case .invalidSuffix: return "invalid suffix in \(argument) argument '\(text)'"
            case .tooLarge: return "\(argument) argument '\(text)' too large"
            }
        }
    }

    /// `xstrtoumax(text, NULL, 0, &value, suffixes)`.
    static func unsigned(_ text: String, suffixes: String) -> Result<UInt64, Failure> {
        let parsed = parse(Array(text.utf8), signed: false, suffixes: Array(suffixes.utf8))
        return parsed.failure.map { .failure($0) } ?? .success(UInt64(bitPattern: parsed.stored ?? 0))
    }

    /// As `unsigned`, with what `xstrtoumax` stores in its result even when it fails (a
    /// number before a bad suffix, the largest value past the range; nil when no number):
    /// du reads `DU_BLOCK_SIZE` and the like through it and keeps that value.
    static func unsignedAsStored(_ text: String, suffixes: String) -> (stored: UInt64?, failure: Failure?) {
        let parsed = parse(Array(text.utf8), signed: false, suffixes: Array(suffixes.utf8))
        return (parsed.stored.map { UInt64(bitPattern: $0) }, parsed.failure)
    }

    /// `xstrtoimax(text, NULL, 0, &value, suffixes)`.
    static func signed(_ text: String, suffixes: String) -> Result<Int64, Failure> {
        let parsed = parse(Array(text.utf8), signed: true, suffixes: Array(suffixes.utf8))
        return parsed.failure.map { .failure($0) } ?? .success(parsed.stored ?? 0)
    }

    /// `__xstrtol` for either type (an unsigned value as its bit pattern): what it stores in
    /// its result, and its failure.
    private static func parse(_ s: [UInt8], signed: Bool, suffixes valid: [UInt8]) -> (
        stored: Int64?, failure: Failure?
    ) {
        var i = 0
        while i < s.count, isSpace(s[i]) { i += 1 }
        if !signed, i < s.count, s[i] == UInt8(ascii: "-") { return (nil, .invalid) }
        // strtoumax / strtoimax, base 0.
        var negative = false
        if i < s.count, s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-") {
            negative = s[i] == UInt8(ascii: "-")
            i += 1
        }
        var radix: UInt64 = 10
        if i < s.count, s[i] == UInt8(ascii: "0") {
            if i + 2 < s.count, s[i + 1] | 0x20 == UInt8(ascii: "x"), digit(s[i + 2], radix: 16) != nil {
                radix = 16
                i += 2
            } else {
                radix = 8
            }
        }
        var magnitude: UInt64 = 0
        var overflow = false
        let digitsStart = i
        while i < s.count, let d = digit(s[i], radix: radix) {
            let (times, o1) = magnitude.multipliedReportingOverflow(by: radix)
            let (plus, o2) = times.addingReportingOverflow(UInt64(d))
            if o1 || o2 { overflow = true } else { magnitude = plus }
            i += 1
        }
        var value: Int64
        var failure: Failure?
        if i == digitsStart {
            // No number (strtol then ends where it began, before any space or sign): a valid
            // suffix there means 1 of it (`-BM`); anything else is invalid.
            guard let first = s.first, valid.contains(first) else { return (nil, .invalid) }
            (value, i) = (1, 0)
        } else if signed {
            let limit = negative ? UInt64(Int64.max) + 1 : UInt64(Int64.max)
            if overflow || magnitude > limit {
                failure = .tooLarge
                value = negative ? .min : .max
            } else {
                value = negative ? Int64(truncatingIfNeeded: 0 &- magnitude) : Int64(magnitude)
            }
        } else {
            if overflow {
                failure = .tooLarge
                magnitude = .max
            }
            value = Int64(bitPattern: negative ? 0 &- magnitude : magnitude)
        }
        guard i < s.count else { return (value, failure) }
        return applySuffix(s, at: i, to: value, failure: failure, signed: signed, valid: valid)
    }

    /// The suffix at `i` of `s` applied to `value` (`__xstrtol`'s second half): its power,
    /// of 1024 or, with `0` among the valid suffixes and a second `B` or `D`, of 1000.
    private static func applySuffix(
        _ s: [UInt8], at start: Int, to value: Int64, failure: Failure?, signed: Bool, valid: [UInt8]
    ) -> (stored: Int64?, failure: Failure?) {
        var i = start
        var failure = failure
        guard valid.contains(s[i]) else { return (value, .invalidSuffix) }
        var base: Int64 = 1024
        var length = 1
        if "EGgkKMmPQRTtYZ".utf8.contains(s[i]), valid.contains(UInt8(ascii: "0")), i + 1 < s.count {
            switch s[i + 1] {
            case UInt8(ascii: "i"):
                if i + 2 < s.count, s[i + 2] == UInt8(ascii: "B") { length += 2 }
            case UInt8(ascii: "B"), UInt8(ascii: "D"):
                base = 1000
                length += 1
            default: break
            }
        }
        let scaled: (value: Int64, overflow: Bool)
        switch s[i] {
        case UInt8(ascii: "b"): scaled = scale(value, by: 512, signed: signed)
        case UInt8(ascii: "B"): scaled = scale(value, by: 1024, signed: signed)
        case UInt8(ascii: "c"): scaled = (value, false)
        case UInt8(ascii: "w"): scaled = scale(value, by: 2, signed: signed)
        case UInt8(ascii: "k"), UInt8(ascii: "K"): scaled = scale(value, base, power: 1, signed: signed)
        case UInt8(ascii: "M"), UInt8(ascii: "m"): scaled = scale(value, base, power: 2, signed: signed)
        case UInt8(ascii: "G"), UInt8(ascii: "g"): scaled = scale(value, base, power: 3, signed: signed)
        case UInt8(ascii: "T"), UInt8(ascii: "t"): scaled = scale(value, base, power: 4, signed: signed)
        case UInt8(ascii: "P"): scaled = scale(value, base, power: 5, signed: signed)
        case UInt8(ascii: "E"): scaled = scale(value, base, power: 6, signed: signed)
        case UInt8(ascii: "Z"): scaled = scale(value, base, power: 7, signed: signed)
        case UInt8(ascii: "Y"): scaled = scale(value, base, power: 8, signed: signed)
        case UInt8(ascii: "R"): scaled = scale(value, base, power: 9, signed: signed)
        case UInt8(ascii: "Q"): scaled = scale(value, base, power: 10, signed: signed)
        default: return (value, .invalidSuffix)
        }
        i += length
        if scaled.overflow { failure = .tooLarge }
        // A character after the suffix outranks an overflow (du: "invalid suffix").
        if i < s.count { return (scaled.value, .invalidSuffix) }
        return (scaled.value, failure)
    }

    /// `value` times `factor`, or the type's extreme past its range (gnulib `bkm_scale`;
    /// unsigned values travel as bit patterns).
    private static func scale(_ value: Int64, by factor: Int64, signed: Bool) -> (value: Int64, overflow: Bool) {
        if signed {
            let (product, overflow) = value.multipliedReportingOverflow(by: factor)
            return overflow ? (value < 0 ? .min : .max, true) : (product, false)
        }
        let (product, overflow) = UInt64(bitPattern: value).multipliedReportingOverflow(by: UInt64(factor))
        return (Int64(bitPattern: overflow ? .max : product), overflow)
    }

    /// `bkm_scale_by_power`: `power` times by `base`, overflow remembered.
    private static func scale(_ value: Int64, _ base: Int64, power: Int, signed: Bool) -> (
        value: Int64, overflow: Bool
    ) {
        var result = (value: value, overflow: false)
        for _ in 0..<power {
            let next = scale(result.value, by: base, signed: signed)
            result = (next.value, result.overflow || next.overflow)
        }
        return result
    }

    private static func digit(_ byte: UInt8, radix: UInt64) -> UInt64? {
        let value: UInt64
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt64(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): value = UInt64(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): value = UInt64(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
        return value < radix ? value : nil
    }

    /// C's `isspace` in the C locale.
    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
}
