import GRDB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One row of the native index.
public struct NativeRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    /// The index's table.
    public static let databaseTableName = "entries"

    /// The normalized URL (the key).
    public var url: String
    /// Body path relative to the store root (`objects/ab/<sha256 of the key>-<generation>[.ext]`):
    /// each installed body has a name of its own, never shared by two writers.
    public var bodyPath: String
    /// Blocks the body takes on disk.
    public var allocatedBytes: Int64
    /// The body's length.
    public var apparentBytes: Int64
    /// SHA-256 of the body, lower-case hex.
    public var sha256: String
    /// The response's `Content-Type`, when known.
    public var contentType: String?
    /// The response's `ETag`, when it had one.
    public var etag: String?
    /// The response's `Last-Modified`, when it had one.
    public var lastModified: String?
    /// Seconds since the epoch.
    public var downloadStarted: Double
    /// Nil while the download has not completed.
    public var downloadCompleted: Double?
    /// Nil when it never expires.
    public var expires: Double?
    /// The lifetime given, in seconds (what sliding expiry adds on a hit); nil: none.
    public var lifetimeSeconds: Double?
    /// Whether each hit moves the expiry to now + lifetime.
    public var sliding: Bool
    /// When the entry was last read or written (seconds since 1970).
    public var lastAccess: Double

    enum CodingKeys: String, CodingKey {
        case url
        case bodyPath = "body_path"
        case allocatedBytes = "allocated_bytes"
        case apparentBytes = "apparent_bytes"
        case sha256
        case contentType = "content_type"
        case etag
        case lastModified = "last_modified"
        case downloadStarted = "download_started"
        case downloadCompleted = "download_completed"
        case expires
        case lifetimeSeconds = "lifetime_seconds"
        case sliding
        case lastAccess = "last_access"
    }

    /// The columns in the order `init(row:)` reads them (GRDB selects these for this type).
    public static var databaseSelection: [any SQLSelectable] {
        [
            Column("url"), Column("body_path"), Column("allocated_bytes"), Column("apparent_bytes"), Column("sha256"),
            Column("content_type"), Column("etag"), Column("last_modified"), Column("download_started"),
            Column("download_completed"), Column("expires"), Column("lifetime_seconds"), Column("sliding"),
            Column("last_access")
        ]
    }

    /// `databaseSelection` as SQL.
    static let columnList =
        "url, body_path, allocated_bytes, apparent_bytes, sha256, content_type, etag, last_modified, "
        + "download_started, download_completed, expires, lifetime_seconds, sliding, last_access"

    /// Whether the entry has not expired at `now`.
    public func isFresh(at now: FileTime) -> Bool {
        downloadCompleted != nil && (expires.map { now.timeInterval < $0 } ?? true)
    }
}
