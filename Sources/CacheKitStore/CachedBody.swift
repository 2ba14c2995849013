#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A body ready to be read, already checked against what the cache recorded.
public struct CachedBody: Sendable {
    /// Where the body is.
    public var path: RawPath
    /// The entry it belongs to.
    public var entry: CacheEntry
    /// The cache's root, through which the body is read.
    let anchor: AnchoredDirectory
    /// A body held inside the cache's own database (Apple's URLCache, corelibs' archives).
    var inline: [UInt8]? = nil
    /// The `Content-Type` recorded with it, where the cache keeps one (cachectl's store).
    public var contentType: String? = nil
    /// The URL the response came from when redirects led there from the one asked for
    /// (cachectl's store records it): a page's relative references resolve against it, as a
    /// browser resolves them against the URL it ended at.
    public var responseURL: String? = nil

    /// Streams the body in chunks (opened below the cache's root, never through a symlink).
    public func write(_ sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        if let inline { return try inline.withUnsafeBytes { try sink($0) } }
        guard let relative = entry.relativePath else { throw StoreError.cannotRead(path, "outside the cache") }
        switch anchor.open(relative, O_RDONLY | O_NONBLOCK) {
        case .success(let fd): try FileIO.stream(fd.raw, path: path, sink)
        case .failure(let error): throw StoreError.cannotRead(path, error.description)
        }
    }
}
