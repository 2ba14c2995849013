import CacheKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Counts in words: `1 entry`, `3,402 entries`.
enum Count {
    static func of(_ n: Int, _ one: String, _ many: String) -> String {
        grouped(n) + " " + (n == 1 ? one : many)
    }

    /// Thousands separated by commas (`3,402`).
    static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }
}
