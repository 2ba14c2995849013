import CacheKitSystem
import Foundation
import URLStandard

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder a page's copies are placed in (a saved page's `page_files/`).
public protocol CopyPlacer: AnyObject {
    /// The file the page should reference for `copy` (a cached body) fetched from `url`; nil
    /// when it cannot be placed (the page then references the cached file itself).
    func place(_ file: RawPath, url: String) -> RawPath?
    /// Places many copies at once, in order, as `place` would one by one (a placer may do the
    /// file system's work on more threads); `place` then answers for them from what was
    /// placed. A placer that does not (the default) places each when `place` is asked.
    func placeAll(_ requests: [(file: RawPath, url: String)])
    /// A file the placer writes itself (a rewritten stylesheet) for `url`, named with
    /// `ext`; the same URL placed again is replaced. Nil when it cannot be written.
    func placeBytes(_ bytes: [UInt8], url: String, ext: String) -> RawPath?
    /// Copies placed as hard links (the cache's own bytes), as copies, and as clones (blocks
    /// shared with the cache's until either file changes), so far.
    var linked: Int { get }
    var copied: Int { get }
    var cloned: Int { get }
    /// The URLs whose copies could not be placed, so far: the page references the cache for
    /// them (which must then keep them: the command pins them).
    var unplaced: [String] { get }
}

extension CopyPlacer {
    /// Places nothing ahead: each copy is placed when `place` is asked for it.
    public func placeAll(_ requests: [(file: RawPath, url: String)]) {}
}
