import CacheKitSystem
import Foundation
import URLStandard

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A cached copy of an image, as the rewriter needs it.
public struct CachedCopy: Sendable {
    /// Where the cached body is.
    public var path: RawPath
    /// Whether it may be used without `allowStale`.
    public var isFresh: Bool
    /// Why it is not fresh, in words.
    public var note: String?

    /// A cached copy; `note` (why it is stale) defaults to none.
    public init(path: RawPath, isFresh: Bool, note: String? = nil) {
        self.path = path
        self.isFresh = isFresh
        self.note = note
    }
}
