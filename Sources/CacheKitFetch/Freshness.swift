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
        func all(_ name: String) -> [String] {
            headers.compactMap { HTTPText.equals($0.name, lowercase: name) ? $0.value : nil }
        }
        let directives = CacheControl(all("cache-control").joined(separator: ","))
        if directives.has("no-store") { return Freshness(storable: false, lifetime: 0, source: .noStore) }
        if all("vary").contains(where: {
            $0.split(separator: ",").contains { HTTPText.trimmingOWS($0) == "*" }
        }) {
            return Freshness(storable: false, lifetime: 0, source: .varyAll)
        }
        if let override { return Freshness(storable: true, lifetime: max(0, override), source: .option) }
        if directives.has("no-cache") { return Freshness(storable: true, lifetime: 0, source: .noCache) }
        // Age (RFC 9111 §5.1): delta-seconds; of a list, the first member; anything else none.
        let ageMember = all("age").first.map {
            String($0.split(separator: ",", omittingEmptySubsequences: false).first ?? "")
        }
        let ageValue = ageMember.flatMap { CacheControl.deltaSeconds(String(HTTPText.trimmingOWS($0))) } ?? 0
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
        // A Last-Modified of now (or later) gives no time to take a fraction of: zero, not the
        // hour for a response without one (many generated pages send Date as Last-Modified).
        if let modified = all("last-modified").first.flatMap(HTTPDate.parse) {
            return afterAge(min(heuristicCap, max(0, date - modified) * heuristicFraction), .heuristic)
        }
        return afterAge(defaultLifetime, .heuristic)
    }
}
