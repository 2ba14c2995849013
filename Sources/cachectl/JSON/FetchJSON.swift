import CacheKit

/// `cachectl fetch --json` (schema `docs/schema/fetch.schema.json`): one object per URL, in
/// the order given.
struct FetchJSON: JSONOutput {
    static let schema = "fetch.schema.json"

    struct Result: Encodable {
        var url: String
        var outcome: String
        @Nullable var status: Int?
        var bytesReceived: Int64
        @Nullable var path: String?
        @Nullable var expires: String?
        /// What set the lifetime: `max-age`, `expires`, `heuristic`, … ; null when not stored.
        @Nullable var freshness: String?
        /// True when the same URL appeared earlier in the list (fetched once).
        var duplicate: Bool
        var attempts: Int
        @Nullable var error: String?

        init(_ r: FetchResult) {
            url = URLKey.redacted(r.url)
            outcome = r.outcome.rawValue
            status = r.status
            bytesReceived = r.bytesReceived
            path = r.path?.description
            expires = JSONShapes.time(r.expires)
            freshness = r.freshnessSource?.rawValue
            duplicate = r.duplicate
            attempts = r.attempts
            error = r.error
        }
    }

    var results: [Result]

    init(_ results: [FetchResult]) { self.results = results.map(Result.init) }

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(results)
    }
}
