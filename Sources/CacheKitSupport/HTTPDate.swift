import Foundation

/// HTTP dates (RFC 9110 §5.6.7): IMF-fixdate, and the obsolete RFC 850 and asctime forms,
/// read and written by hand from their grammar. (Foundation's DateFormatter was used before:
/// it traps on some non-ASCII text, such as a combining mark after the day name, and a
/// server's `Date` or a cached `Expires` must never stop the process.)
public enum HTTPDate {
    /// Seconds since the epoch, or nil when the text is not an HTTP date.
    public static func parse(_ text: String) -> Double? {
        let b = Array(HTTPText.trimmingOWS(text).utf8)
        return parseIMFFixdate(b) ?? parseRFC850(b, now: Date().timeIntervalSince1970) ?? parseAsctime(b)
    }

    /// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the form servers send. Nil when the
    /// text is not exactly that form with valid fields.
    static func parseIMFFixdate(_ text: String) -> Double? { parseIMFFixdate(Array(text.utf8)) }

    private static func parseIMFFixdate(_ b: [UInt8]) -> Double? {
        // day-name "," SP day SP month SP year SP time-of-day SP "GMT"
        guard b.count == 29, b[3] == UInt8(ascii: ","), b[4] == 0x20, b[7] == 0x20, b[11] == 0x20, b[16] == 0x20,
            b[26...] == [0x47, 0x4D, 0x54][...], dayIndex(b[0..<3], names: dayNames) != nil,
            let day = number(b[5..<7]), let month = monthIndex(b[8..<11]), let year = number(b[12..<16])
        else { return nil }
        return seconds(year: year, month: month, day: day, time: b[17..<25])
    }

    /// RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`): a two-digit year that would be more than 50
    /// years after `now` is the most recent past year with those digits (the century window
    /// is the 100 years from 50 years back).
    static func parseRFC850(_ b: [UInt8], now: Double) -> Double? {
        // day-name-l "," SP day "-" month "-" 2DIGIT SP time-of-day SP "GMT"
        guard let comma = b.firstIndex(of: UInt8(ascii: ",")), dayIndex(b[..<comma], names: longDayNames) != nil,
            b.count == comma + 24
        else { return nil }
        let t = comma + 2
        guard b[comma + 1] == 0x20, b[t + 2] == UInt8(ascii: "-"), b[t + 6] == UInt8(ascii: "-"), b[t + 9] == 0x20,
            b[t + 18] == 0x20, b[(t + 19)...] == [0x47, 0x4D, 0x54][...],
            let day = number(b[t..<(t + 2)]), let month = monthIndex(b[(t + 3)..<(t + 6)]),
            let twoDigits = number(b[(t + 7)..<(t + 9)])
        else { return nil }
        let current = civil(days: Int((now / 86_400).rounded(.down))).year
        var year = current - current % 100 + twoDigits
        if year > current + 50 { year -= 100 }
        if year <= current - 50 { year += 100 }
        return seconds(year: year, month: month, day: day, time: b[(t + 10)..<(t + 18)])
    }

    /// asctime (`Sun Nov  6 08:49:37 1994`).
    static func parseAsctime(_ b: [UInt8]) -> Double? {
        // day-name SP month SP ( 2DIGIT / ( SP DIGIT ) ) SP time-of-day SP year
        guard b.count == 24, b[3] == 0x20, b[7] == 0x20, b[10] == 0x20, b[19] == 0x20,
            dayIndex(b[0..<3], names: dayNames) != nil, let month = monthIndex(b[4..<7]),
            let day = b[8] == 0x20 ? number(b[9..<10]) : number(b[8..<10]), let year = number(b[20..<24])
        else { return nil }
        return seconds(year: year, month: month, day: day, time: b[11..<19])
    }

    /// IMF-fixdate, as sent in If-Modified-Since. A time outside years 1-9999 (or not a
    /// number) is written as the nearest one inside.
    public static func format(_ seconds: Double) -> String {
        let clamped = seconds.isNaN ? 0 : min(max(seconds, -62_135_596_800), 253_402_300_799)
        let total = Int(clamped.rounded(.down))
        let days = Int((Double(total) / 86_400).rounded(.down))
        let inDay = total - days * 86_400
        let date = civil(days: days)
        let weekday = ((days % 7) + 11) % 7  // 1970-01-01 was a Thursday (index 4)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let year = String(repeating: "0", count: max(0, 4 - String(date.year).count)) + String(date.year)
        return "\(weekdayNames[weekday]), \(two(date.day)) \(monthNames[date.month - 1]) \(year) "
            + "\(two(inDay / 3_600)):\(two(inDay / 60 % 60)):\(two(inDay % 60)) GMT"
    }

    /// Seconds since the epoch of a valid date and `HH:MM:SS` (a leap second counts as :59).
    private static func seconds(year: Int, month: Int, day: Int, time t: ArraySlice<UInt8>) -> Double? {
        let s = t.startIndex
        guard t.count == 8, t[s + 2] == UInt8(ascii: ":"), t[s + 5] == UInt8(ascii: ":"),
            let hour = number(t[s..<(s + 2)]), let minute = number(t[(s + 3)..<(s + 5)]),
            let second = number(t[(s + 6)..<(s + 8)]), hour < 24, minute < 60, second < 61
        else { return nil }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        guard day >= 1, day <= (month == 2 && leap ? 29 : monthLengths[month - 1]) else { return nil }
        let days = CivilDate.daysSinceEpoch(year: year, month: month, day: day)
        return Double(days * 86_400 + hour * 3_600 + minute * 60 + min(second, 59))
    }

    /// Decimal digits only (at most 4 of them here), else nil.
    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty else { return nil }
        var value = 0
        for c in digits {
            guard c >= 0x30 && c <= 0x39 else { return nil }
            value = value * 10 + Int(c - 0x30)
        }
        return value
    }

    /// 1-12 for a month's three letters (any case), else nil.
    private static func monthIndex(_ name: ArraySlice<UInt8>) -> Int? {
        monthBytes.firstIndex { equalIgnoringCase($0, name) }.map { $0 + 1 }
    }

    private static func dayIndex(_ name: ArraySlice<UInt8>, names: [[UInt8]]) -> Int? {
        names.firstIndex { equalIgnoringCase($0, name) }
    }

    private static func equalIgnoringCase(_ a: [UInt8], _ b: ArraySlice<UInt8>) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0 | 0x20 == $1 | 0x20 }
    }

    /// The date of a day since 1970-01-01 (Howard Hinnant's `civil_from_days`).
    private static func civil(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static let monthLengths = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    private static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let dayNames = weekdayNames.map { Array($0.utf8) }
    private static let longDayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
        .map { Array($0.utf8) }
    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let monthBytes = monthNames.map { Array($0.utf8) }
}
