import ArgumentParser
import CacheKit

/// du's `--block-size`: a positive whole number, a unit (`K`, `KiB` = 1024, `KB` = 1000; up
/// to Y), or both; a unit given alone is printed after each size (`-BM` prints `5M`).
struct BlockSize: Equatable {
    var size: Int64
    var suffix: String

    init(size: Int64, suffix: String) { (self.size, self.suffix) = (size, suffix) }

    init?(_ text: String) {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        let unit = text.dropFirst(digits.count)
        var multiplier: Int64 = 1
        var printed = ""
        if !unit.isEmpty {
            guard let letter = unit.first, let power = "KMGTPEZY".firstIndex(of: Character(letter.uppercased())) else {
                return nil
            }
            let exponent = "KMGTPEZY".distance(from: "KMGTPEZY".startIndex, to: power) + 1
            let rest = unit.dropFirst()
            let base: Int64
            switch rest {
            case "", "iB": base = 1024
            case "B": base = 1000
            default: return nil
            }
            guard letter == "k" ? rest == "B" || rest == "" : letter.isUppercase else { return nil }
            for _ in 0..<exponent {
                let (product, overflow) = multiplier.multipliedReportingOverflow(by: base)
                guard !overflow else { return nil }
                multiplier = product
            }
            printed = (base == 1000 && exponent == 1 ? "k" : String(letter).uppercased()) + rest
        }
        var count: Int64 = 1
        if !digits.isEmpty {
            guard let value = Int64(digits), value > 0 else { return nil }
            count = value
            printed = ""
        }
        guard digits.count + unit.count == text.count, !text.isEmpty else { return nil }
        let (total, overflow) = count.multipliedReportingOverflow(by: multiplier)
        guard !overflow else { return nil }
        (size, suffix) = (total, printed)
    }

    /// `bytes` in these blocks, rounded up, with the unit when one was given alone.
    func format(_ bytes: UInt64) -> String {
        let size = UInt64(self.size)
        let blocks = bytes / size + (bytes % size == 0 ? 0 : 1)
        return String(blocks) + suffix
    }
}
