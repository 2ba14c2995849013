import CacheKitSystem
import Foundation
import URLStandard

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One image reference found in a page, and what became of it.
public struct ImageReference: Sendable {
    /// What became of a reference.
    public enum Outcome: String, Sendable {
        /// Now points at the cached copy.
        case rewritten
        /// Not in any given cache: left as it was.
        case missing
        /// Only an expired copy is cached (rewritten only with `allowStale`): left as it was.
        case stale
        /// Not a fetchable URL (`data:`, `blob:`, `javascript:`, `about:`, fragment-only,
        /// empty) or not locatable in the original bytes: left as it was.
        case skipped
        /// Already a file on disk (a page localized before, or saved with its files): kept,
        /// or re-pointed when the output lives in another directory.
        case local
    }

    /// Byte offset of the reference in the original page.
    public var offset: Int
    /// Length in bytes of the URL as written in the original page (entities included).
    public var length: Int = 0
    /// 1-based line of `offset`.
    public var line: Int
    /// The element's name (`img`, `source`, `link`, …).
    public var element: String
    /// The attribute (`src`, `srcset`, `style`, …), or nil for `url(…)` in a `<style>` element.
    public var attribute: String?
    /// The URL as written (entities decoded).
    public var original: String
    /// The absolute URL it resolves to.
    public var resolved: String?
    /// What became of it.
    public var outcome: Outcome
    /// What it was rewritten to.
    public var localPath: String?
    /// Why it was skipped, stale or missing, in words.
    public var note: String?
}
