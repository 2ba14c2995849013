/// Formatting of byte counts for people.
public enum ByteCount {
    /// Human-readable size the way `du -h` prints it: powers of 1024, rounded up, one decimal
    /// below 10 (`4.0K`, `12M`, `1.5G`), plain digits below 1024.
    /// With `base` 1000, `du --si`'s: powers of 1000, kilo written `k` (`4.1k`, `5.1M`).
    public static func human(_ bytes: Int64, base: Int64 = 1024) -> String {
        bytes < 0 ? String(bytes) : human(unsigned: UInt64(bytes), base: base)
    }

    /// `human` of a count up to 2^64 - 1 (du sums sizes as `uintmax_t`).
    public static func human(unsigned bytes: UInt64, base: Int64 = 1024) -> String {
        let step = Double(base)
        if Double(bytes) < step { return String(bytes) }
        let units = base == 1000 ? ["k", "M", "G", "T", "P", "E"] : ["K", "M", "G", "T", "P", "E"]
        var value = Double(bytes)
        var unit = -1
        while value >= step && unit < units.count - 1 {
            value /= step
            unit += 1
        }
        // du rounds up (ceiling) so a size is never shown smaller than it is.
        if value < 10 {
            var tenths = (value * 10).rounded(.up) / 10
            if tenths >= 10 {
                tenths = 10
                return "10" + units[unit]
            }
            let whole = Int(tenths)
            let fraction = Int(((tenths - Double(whole)) * 10).rounded())
            return "\(whole).\(fraction)\(units[unit])"
        }
        let rounded = value.rounded(.up)
        if rounded >= step && unit < units.count - 1 {
            return "1.0" + units[unit + 1]
        }
        return "\(Int(rounded))\(units[unit])"
    }
}
