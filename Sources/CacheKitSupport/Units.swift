/// Parsing of sizes and durations as users type them.
public enum Units {
    /// Bytes, or a number with a coreutils suffix: `K`/`M`/`G`/`T` (powers of 1024),
    /// `KB`/`MB`/`GB`/`TB` (powers of 1000), `KiB`/`MiB`/`GiB`/`TiB` (powers of 1024), `B`.
    /// Decimals are allowed (`1.5G`), as digits on both sides of the point. Nil when the text
    /// is not a size.
    public static func parseSize(_ text: String) -> Int64? {
        parseSizeWithUnit(text)?.bytes
    }

    /// `parseSize`, and whether the text named a unit (`500` does not; `500B` does).
    public static func parseSizeWithUnit(_ text: String) -> (bytes: Int64, hasUnit: Bool)? {
        let trimmed = text.trimmingWhitespace()
        let number = trimmed.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        let suffix = String(trimmed.dropFirst(number.count)).trimmingWhitespace()
        guard isDecimal(number), let value = Double(number), value >= 0 else { return nil }
        let multipliers: [String: Double] = [
            "": 1, "B": 1,
            "K": 1024, "M": 1024 * 1024, "G": 1024 * 1024 * 1024, "T": 1024 * 1024 * 1024 * 1024,
            "KIB": 1024, "MIB": 1024 * 1024, "GIB": 1024 * 1024 * 1024, "TIB": 1024 * 1024 * 1024 * 1024,
            "KB": 1000, "MB": 1_000_000, "GB": 1_000_000_000, "TB": 1_000_000_000_000
        ]
        guard let multiplier = multipliers[suffix.uppercased()] else { return nil }
        let bytes = (value * multiplier).rounded(.up)
        guard bytes < 9.2e18 else { return nil }
        return (Int64(bytes), !suffix.isEmpty)
    }

    /// A size cap written without a unit and under 4 KiB (`1`, `0.5`, `0`): a forgotten unit,
    /// which as a cap would delete nearly everything; `0B` says bytes on purpose.
    public static func isForgottenUnit(_ size: (bytes: Int64, hasUnit: Bool)) -> Bool {
        !size.hasUnit && size.bytes < 4096
    }

    /// Digits, optionally a point and more digits (`Double` alone also takes `1.`, `.5`,
    /// `0x1`, `1e3`, `inf`).
    public static func isDecimal(_ text: Substring) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count) else { return false }
        return parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }

    /// systemd's time-span units (`man systemd.time`; src/basic/time-util.c,
    /// `extract_multiplier`), in the order they are tried: case-sensitive, so `M` is a month
    /// and `m` a minute, and the longer names come before their prefixes.
    static let timeSpanUnits: [(name: String, seconds: Double)] = [
        ("seconds", 1), ("second", 1), ("sec", 1), ("s", 1),
        ("minutes", 60), ("minute", 60), ("min", 60),
        ("months", 2_629_800), ("month", 2_629_800), ("M", 2_629_800),
        ("msec", 0.001), ("ms", 0.001), ("m", 60),
        ("hours", 3600), ("hour", 3600), ("hr", 3600), ("h", 3600),
        ("days", 86_400), ("day", 86_400), ("d", 86_400),
        ("weeks", 604_800), ("week", 604_800), ("w", 604_800),
        ("years", 31_557_600), ("year", 31_557_600), ("y", 31_557_600),
        ("usec", 0.000_001), ("us", 0.000_001), ("\u{03BC}s", 0.000_001), ("\u{00B5}s", 0.000_001)
    ]

    /// Seconds from a systemd time span (`man systemd.time`): numbers, each with a unit —
    /// `90s`, `15min`, `12h`, `7d`, `2w`, `1M` (a month, 30.44 days), `1y` (365.25 days),
    /// `1 day 12h`, `1y 6M`, `1.5h`; units are case-sensitive. A number alone is seconds.
    /// Nil when invalid (an unknown unit, a sign, nothing at all).
    public static func parseDuration(_ text: String) -> Double? {
        let scalars = Array(text.unicodeScalars)
        var i = 0
        func skipSpace() { while i < scalars.count, scalars[i].properties.isWhitespace { i += 1 } }
        var total = 0.0
        var parts = 0
        skipSpace()
        while i < scalars.count {
            let start = i
            while i < scalars.count, scalars[i].isASCII, CharacterSet.decimalDigitsOrPoint(scalars[i]) { i += 1 }
            let number = String(String.UnicodeScalarView(scalars[start..<i]))
            guard isDecimal(Substring(number)), let value = Double(number) else { return nil }
            skipSpace()
            let rest = String(String.UnicodeScalarView(scalars[i...]))
            var multiplier = 1.0
            if let unit = timeSpanUnits.first(where: { rest.hasPrefix($0.name) }) {
                multiplier = unit.seconds
                i += unit.name.unicodeScalars.count
            } else if i < scalars.count, !CharacterSet.decimalDigitsOrPoint(scalars[i]) {
                return nil  // an unknown unit
            }
            total += value * multiplier
            parts += 1
            skipSpace()
        }
        guard parts > 0, total.isFinite else { return nil }
        return total
    }
}

private enum CharacterSet {
    static func decimalDigitsOrPoint(_ scalar: Unicode.Scalar) -> Bool {
        (scalar >= "0" && scalar <= "9") || scalar == "."
    }
}
