import ArgumentParser
import CacheKit

/// A size from the command line, parsed once (`Units.parseSizeWithUnit`).
struct SizeArgument: CustomStringConvertible {
    var bytes: Int64
    var text: String
    var hasUnit: Bool
    var description: String { text }

    static func parse(_ text: String) throws -> SizeArgument {
        guard let size = Units.parseSizeWithUnit(text) else {
            throw ValidationError("'\(text)' is not a size (e.g. 500M, 2G, 10GB, 1GiB, 4096B)")
        }
        return SizeArgument(bytes: size.bytes, text: text, hasUnit: size.hasUnit)
    }

    /// A cap that deletes down to it: a forgotten unit (`1`, `0.5`) must not empty a cache.
    static func parseCap(_ text: String) throws -> SizeArgument {
        let size = try parse(text)
        guard !Units.isForgottenUnit((size.bytes, size.hasUnit)) else {
            throw ValidationError(
                "'\(text)' has no unit and is under 4 KiB, which would delete nearly everything; "
                    + "add a unit (\(text)G, \(text)M) or, to mean bytes, write \(text)B (0B empties the cache)")
        }
        return size
    }
}
