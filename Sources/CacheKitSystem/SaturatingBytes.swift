extension Int64 {
    /// `self + other`, held at the ends of Int64's range rather than trapping. Byte counts are
    /// read from indexes and file systems, which can claim anything (an edited index row, two
    /// sparse files of 5 EiB each on a tmpfs); a sum of them must never stop the process.
    package func saturatingPlus(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// `self - other`, held at the ends of Int64's range rather than trapping.
    package func saturatingMinus(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other > 0 ? .min : .max) : difference
    }
}

extension Int64 {
    /// `value` rounded toward zero, held at the ends of Int64's range (NaN gives 0). Times and
    /// sizes computed from input (`--timeout 1e16`, a counter in a textfile) are converted
    /// through this: `Int64(_: Double)` traps beyond the range.
    package init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= 9_223_372_036_854_775_808.0 {
            self = .max
        } else if value < -9_223_372_036_854_775_808.0 {
            self = .min
        } else {
            self = Int64(value)
        }
    }
}
