import CacheKit

/// `cachectl ls --json` (schema `docs/schema/ls.schema.json`): the root's own entries, then
/// each cache found in it (a folder of caches).
struct LsJSON: JSONOutput {
    static let schema = "ls.schema.json"

    /// One entry with its state and the reason for it.
    struct Entry: Encodable {
        @Nullable var url: String?
        var path: String
        var allocatedBytes: Int64
        var apparentBytes: Int64
        @Nullable var modified: String?
        @Nullable var lastAccess: String?
        @Nullable var expires: String?
        var state: String
        var reason: String
        @Nullable var contentType: String?
        @Nullable var etag: String?

        init(_ entry: CacheEntry) {
            url = entry.url
            path = entry.path.description
            allocatedBytes = entry.allocatedBytes
            apparentBytes = entry.apparentBytes
            modified = JSONShapes.time(entry.modified)
            lastAccess = JSONShapes.time(entry.lastAccess)
            expires = JSONShapes.time(entry.expires)
            state = entry.state.rawValue
            reason = entry.reason
            contentType = entry.contentType
            etag = entry.etag
        }
    }

    struct Cache: Encodable {
        var path: String
        var format: String
        var entries: [Entry]
    }

    var root: String
    /// Null when there is nothing at the root (the default store not made yet).
    @Nullable var format: String?
    @Nullable var formatGuessedByNames: Bool?
    var entries: [Entry]
    var caches: [Cache]
}
