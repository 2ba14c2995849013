import ArgumentParser
import CacheKit

/// A systemd time span from the command line, parsed once (`Units.parseDuration`).
struct TimeSpan: CustomStringConvertible {
    var seconds: Double
    var text: String
    var description: String { text }

    /// For `@Option(transform:)`: the value, or a message saying what a time span is.
    static func parse(_ text: String) throws -> TimeSpan {
        guard let seconds = Units.parseDuration(text) else {
            throw ValidationError(
                """
                '\(text)' is not a systemd time span (e.g. 90s, 15min, 12h, 7d, 1M for a month; units are \
                case-sensitive)
                """
            )
        }
        return TimeSpan(seconds: seconds, text: text)
    }
}
