/// Parsing of sizes and durations as users type them.
public enum Units {
    /// Bytes, or a number with a coreutils suffix: `K`/`M`/`G`/`T` (powers of 1024),
    /// `KB`/`MB`/`GB`/`TB` (powers of 1000), `KiB`/`MiB`/`GiB`/`TiB` (powers of 1024).
    /// Decimals are allowed (`1.5G`). Nil when the text is not a size.
    public static func parseSize(_ text: String) -> Int64? {
        let trimmed = text.trimmingWhitespace()
        guard let split = trimmed.firstIndex(where: { !($0.isNumber || $0 == ".") }) ?? Optional(trimmed.endIndex) else { return nil }
        let number = String(trimmed[..<split])
        let suffix = String(trimmed[split...]).trimmingWhitespace()
        guard !number.isEmpty, let value = Double(number), value >= 0 else { return nil }
        let multipliers: [String: Double] = [
            "": 1, "B": 1,
            "K": 1024, "M": 1024 * 1024, "G": 1024 * 1024 * 1024, "T": 1024 * 1024 * 1024 * 1024,
            "KIB": 1024, "MIB": 1024 * 1024, "GIB": 1024 * 1024 * 1024, "TIB": 1024 * 1024 * 1024 * 1024,
            "KB": 1000, "MB": 1_000_000, "GB": 1_000_000_000, "TB": 1_000_000_000_000,
        ]
        guard let multiplier = multipliers[suffix.uppercased()] else { return nil }
        let bytes = (value * multiplier).rounded(.up)
        guard bytes < 9.2e18 else { return nil }
        return Int64(bytes)
    }

    /// Seconds from `90`, `90s`, `15m`, `12h`, `7d`, `2w`, or a sum like `1d12h`. Nil when invalid.
    public static func parseDuration(_ text: String) -> Double? {
        let trimmed = text.trimmingWhitespace().lowercased()
        guard !trimmed.isEmpty else { return nil }
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]
        var total = 0.0
        var number = ""
        for ch in trimmed {
            if ch.isNumber || ch == "." {
                number.append(ch)
            } else if let unit = units[ch], let value = Double(number) {
                total += value * unit
                number = ""
            } else {
                return nil
            }
        }
        if !number.isEmpty {
            guard let value = Double(number) else { return nil }
            total += value
        }
        return total
    }
}


