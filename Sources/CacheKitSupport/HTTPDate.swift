import Foundation

/// HTTP dates (RFC 9110 §5.6.7): IMF-fixdate, and the obsolete RFC 850 and asctime forms.
public enum HTTPDate {
    private static let formats = [
        "EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"
    ]
    private static let formatters: [DateFormatter] = formats.map { format in
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = format
        // RFC 850's two-digit year: one that would be more than 50 years in the future is the
        // most recent past year with those digits (RFC 9110 §5.6.7), so the century window
        // starts 50 years back.
        formatter.twoDigitStartDate = Calendar(identifier: .gregorian).date(byAdding: .year, value: -50, to: Date())
        return formatter
    }
    private static let lock = ConditionLock()

    /// Seconds since the epoch, or nil when the text is not an HTTP date.
    public static func parse(_ text: String) -> Double? {
        let trimmed = String(HTTPText.trimmingOWS(text))
        if let fixed = parseIMFFixdate(trimmed) { return fixed }
        return lock.withLock {
            for formatter in formatters {
                if let date = formatter.date(from: trimmed) { return date.timeIntervalSince1970 }
            }
            return nil
        }
    }

    /// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the form servers send, read by hand:
    /// a DateFormatter costs more than the rest of a response's handling. Nil when the text
    /// is not exactly that form with valid fields (the formatters then try every form).
    static func parseIMFFixdate(_ text: String) -> Double? {
        let b = Array(text.utf8)
        guard b.count == 29, b[3] == UInt8(ascii: ","), b[4] == 0x20, b[7] == 0x20, b[11] == 0x20, b[16] == 0x20,
            b[19] == UInt8(ascii: ":"), b[22] == UInt8(ascii: ":"), b[25] == 0x20, b[26...] == [0x47, 0x4D, 0x54][...],
            dayNames.contains(where: { $0[...] == b[0..<3] })
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for c in b[range] {
                guard c >= 0x30 && c <= 0x39 else { return nil }
                value = value * 10 + Int(c - 0x30)
            }
            return value
        }
        guard let day = number(5..<7), let monthIndex = monthNames.firstIndex(where: { $0[...] == b[8..<11] }),
            let year = number(12..<16),
            let hour = number(17..<19), let minute = number(20..<22), let second = number(23..<25),
            hour < 24, minute < 60, second < 61
        else { return nil }
        let month = monthIndex + 1
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        guard day >= 1, day <= (monthIndex == 1 ? (leap ? 29 : 28) : monthLengths[monthIndex]) else { return nil }
        let days = CivilDate.daysSinceEpoch(year: year, month: month, day: day)
        return Double(days * 86_400 + hour * 3_600 + minute * 60 + min(second, 59))
    }
    private static let monthLengths = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    private static let dayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].map { Array($0.utf8) }
    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        .map { Array($0.utf8) }

    /// IMF-fixdate, as sent in If-Modified-Since.
    public static func format(_ seconds: Double) -> String {
        lock.withLock {
            formatters[0].string(from: Date(timeIntervalSince1970: seconds)).replacingOccurrences(
                of: "UTC", with: "GMT")
        }
    }
}
