import GRDB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Metadata to store with a body.
public struct PutOptions: Sendable {
    /// Lifetime in seconds; nil means it never expires.
    public var lifetime: Double?
    /// Move the expiry to now + lifetime on each hit. Default false.
    public var sliding = false
    /// The `Content-Type` to record. Default nil.
    public var contentType: String?
    /// The `ETag` to record. Default nil.
    public var etag: String?
    /// The `Last-Modified` to record. Default nil.
    public var lastModified: String?
    /// When the download began (defaults to the start of `put`).
    public var downloadStarted: FileTime?
    /// The response's status: 200, or another RFC 9111 lets a cache keep (203, 404, …).
    public var status = 200
    /// The request headers the response's `Vary` names, as they were sent (`Vary` lines;
    /// nil when the response had no `Vary`).
    public var vary: String?
    /// The URL the response came from when a redirect led there from the key's URL: its
    /// validators are sent there, not to the key's URL (nil: the key's own response).
    public var validatorsURL: String?

    /// No lifetime (never expires), no sliding expiry, no content type by default.
    public init(lifetime: Double? = nil, sliding: Bool = false, contentType: String? = nil) {
        self.lifetime = lifetime
        self.sliding = sliding
        self.contentType = contentType
    }
}
