import CacheKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Dates for tables (UTC day) and JSON (ISO 8601, UTC).
enum DateText {
    /// The UTC day; a time `gmtime` cannot express (a year beyond its range) is printed as
    /// its raw seconds since the epoch, as du --time does.
    static func day(_ time: FileTime?) -> String {
        guard let time else { return "-" }
        guard let parts = civil(time.seconds) else { return String(time.seconds) }
        return "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))"
    }

    /// Local day and minute as du --time prints them (`2026-11-23 14:05`, the TZ's time);
    /// raw seconds when the time cannot be expressed.
    static func localMinute(_ time: FileTime?) -> String {
        guard let time else { return "-" }
        var t = time_t(time.seconds)
        var parts = tm()
        guard localtime_r(&t, &parts) != nil else { return String(time.seconds) }
        return "\(pad(Int(parts.tm_year) + 1900, 4))-\(pad(Int(parts.tm_mon) + 1, 2))-\(pad(Int(parts.tm_mday), 2)) "
            + "\(pad(Int(parts.tm_hour), 2)):\(pad(Int(parts.tm_min), 2))"
    }

    /// The UTC day and minute (`2026-11-23 14:05`), for times close to now.
    static func minute(_ time: FileTime?) -> String {
        guard let time else { return "-" }
        guard let parts = civil(time.seconds) else { return String(time.seconds) }
        return
            """
            \(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2)) \
            \(pad(parts.hour, 2)):\(pad(parts.minute, 2))
            """
    }

    /// ISO 8601 in UTC; raw seconds (a number in a string) when `gmtime` cannot express it.
    static func iso8601(_ time: FileTime) -> String {
        // ISO 8601 has four-digit years; beyond, the seconds say it plainly.
        guard let parts = civil(time.seconds), (0...9999).contains(parts.year) else { return String(time.seconds) }
        let date = "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))"
        return date + "T\(pad(parts.hour, 2)):\(pad(parts.minute, 2)):\(pad(parts.second, 2))Z"
    }

    private static func civil(_ seconds: Int64) -> (
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    )? {
        var t = time_t(seconds)
        var parts = tm()
        guard gmtime_r(&t, &parts) != nil else { return nil }
        return (
            Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min),
            Int(parts.tm_sec)
        )
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
