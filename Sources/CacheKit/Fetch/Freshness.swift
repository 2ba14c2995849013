import Foundation

/// How long a response stays fresh, from its headers, as RFC 9111 has a cache decide it.
/// Pure: no clock, no I/O (the caller gives the response time).
public struct Freshness: Equatable, Sendable {
    /// Whether the response may be stored at all (`no-store` says no).
    public var storable: Bool
    /// Freshness lifetime in seconds from the response time; 0 means "revalidate before
    /// every use" (`no-cache`, or already stale on arrival).
    public var lifetime: Double
    /// Where the lifetime came from, in words (for `--json` and messages).
    public var source: Source

    /// Where a lifetime came from (`--json`'s `freshness`).
    public enum Source: String, Sendable {
        case option = "--expires"
        case maxAge = "max-age"
        case sMaxAge = "s-maxage"
        case expires = "Expires"
        case noCache = "no-cache"
        case heuristic = "heuristic"
        case noStore = "no-store"
        /// `Vary: *`: no later request can match it (RFC 9111 §4.1), so it is not stored.
        case varyAll = "Vary: *"
        /// A 304 without freshness information: the stored lifetime is kept (§4.3.4).
        case stored = "stored"
    }

    /// The heuristic when the server gives no explicit lifetime: 10 % of the time since
    /// `Last-Modified` (RFC 9111 §4.2.2), at most one day; one hour when there is no
    /// `Last-Modified` either.
    public static let heuristicFraction = 0.1
    /// The longest heuristic lifetime: one day (86,400 s).
    public static let heuristicCap: Double = 86_400
    /// The lifetime without `Last-Modified` or explicit freshness: one hour (3,600 s).
    public static let defaultLifetime: Double = 3_600

    /// Decides from the response headers (names case-insensitive). `override` (the user's
    /// `--expires`) wins over everything but `no-store`. `responseTime` is when the
    /// response arrived (seconds since the epoch); `Age` is subtracted from the lifetime.
    /// `requestTime`, when given, is when the request was sent: the response delay counts
    /// as age (§4.2.3).
    public static func decide(
        headers: [(name: String, value: String)], responseTime: Double, requestTime: Double? = nil,
        override: Double? = nil
    ) -> Freshness {
        func all(_ name: String) -> [String] { headers.filter { $0.name.lowercased() == name }.map(\.value) }
        let directives = CacheControl(all("cache-control").joined(separator: ","))
        if directives.has("no-store") { return Freshness(storable: false, lifetime: 0, source: .noStore) }
        if all("vary").contains(where: {
            $0.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == "*" }
        }) {
            return Freshness(storable: false, lifetime: 0, source: .varyAll)
        }
        if let override { return Freshness(storable: true, lifetime: max(0, override), source: .option) }
        if directives.has("no-cache") { return Freshness(storable: true, lifetime: 0, source: .noCache) }
        // Age (RFC 9111 §5.1): delta-seconds; of a list, the first member; anything else none.
        let ageMember = all("age").first.map {
            String($0.split(separator: ",", omittingEmptySubsequences: false).first ?? "")
        }
        let ageValue = ageMember.flatMap { CacheControl.deltaSeconds($0.trimmingCharacters(in: .whitespaces)) } ?? 0
        let date = all("date").first.flatMap(HTTPDate.parse) ?? responseTime
        // §4.2.3: the initial age is the larger of the apparent age (how old the Date says it
        // is on arrival) and the Age header plus the time the response took to come.
        let apparentAge = max(0, responseTime - date)
        let responseDelay = max(0, responseTime - (requestTime ?? responseTime))
        let age = max(apparentAge, ageValue + responseDelay)
        func afterAge(_ lifetime: Double, _ source: Source) -> Freshness {
            Freshness(storable: true, lifetime: max(0, lifetime - age), source: source)
        }
        // A private cache: `s-maxage` is for shared caches only (RFC 9111 §5.2.2.10) and is
        // ignored. A `max-age` that is present but not delta-seconds (negative, quoted, not a
        // number) leaves no valid lifetime: the response is stale (§4.2.1), not heuristic.
        if directives.has("max-age") {
            guard let maxAge = directives.seconds("max-age") else {
                return Freshness(storable: true, lifetime: 0, source: .maxAge)
            }
            return afterAge(maxAge, .maxAge)
        }
        if let expiresText = all("expires").first {
            // An invalid Expires (such as "0") means already expired (RFC 9111 §5.3).
            let expires = HTTPDate.parse(expiresText) ?? 0
            return afterAge(max(0, expires - date), .expires)
        }
        if let modified = all("last-modified").first.flatMap(HTTPDate.parse), modified < date {
            return afterAge(min(heuristicCap, (date - modified) * heuristicFraction), .heuristic)
        }
        return afterAge(defaultLifetime, .heuristic)
    }
}

/// The directives of a Cache-Control header value.
struct CacheControl {
    private var values: [String: String?] = [:]
    /// Directives whose value was a quoted-string (never valid delta-seconds).
    private var quoted = Set<String>()

    init(_ text: String) {
        for part in text.split(separator: ",") {
            let item = part.trimmingCharacters(in: .whitespaces)
            guard !item.isEmpty else { continue }
            if let eq = item.firstIndex(of: "=") {
                let name = item[..<eq].trimmingCharacters(in: .whitespaces).lowercased()
                var value = item[item.index(after: eq)...].trimmingCharacters(in: .whitespaces)
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                    value = String(value.dropFirst().dropLast())
                    quoted.insert(name)
                }
                if values[name] == nil { values[name] = .some(value) }
            } else {
                let name = item.lowercased()
                if values[name] == nil { values[name] = .some(nil) }
            }
        }
    }

    func has(_ name: String) -> Bool { values[name] != nil }

    /// A delta-seconds directive; nil when absent or not delta-seconds (see `deltaSeconds`).
    func seconds(_ name: String) -> Double? {
        guard !quoted.contains(name), let value = values[name] ?? nil else { return nil }
        return Self.deltaSeconds(value)
    }

    /// RFC 9111 §1.2.2: ASCII digits only; a value beyond 2^31 is 2147483648 — never a
    /// number that overflows later arithmetic.
    static func deltaSeconds(_ text: String) -> Double? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let cap = 2_147_483_648.0
        if text.utf8.count > 10 { return cap }
        return min(Double(text) ?? cap, cap)
    }
}

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
    private static let lock = NSLock()

    /// Seconds since the epoch, or nil when the text is not an HTTP date.
    public static func parse(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
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
            dayNames.contains(Array(b[0..<3]))
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for c in b[range] {
                guard c >= 0x30 && c <= 0x39 else { return nil }
                value = value * 10 + Int(c - 0x30)
            }
            return value
        }
        guard let day = number(5..<7), let monthIndex = monthNames.firstIndex(of: Array(b[8..<11])),
            let year = number(12..<16),
            let hour = number(17..<19), let minute = number(20..<22), let second = number(23..<25),
            hour < 24, minute < 60, second < 61
        else { return nil }
        let month = monthIndex + 1
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard day >= 1, day <= lengths[monthIndex] else { return nil }
        let days = CivilDate.daysSinceEpoch(year: year, month: month, day: day)
        return Double(days * 86_400 + hour * 3_600 + minute * 60 + min(second, 59))
    }
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
