/// Which directories `prune` and `clear` may delete in: a policy, checked before anything is
/// read or locked.
///
/// A plain folder's entries are every file in it, and "corrupted" and "incomplete" are
/// judged by file contents and names (a GIF without its trailer, a `.part` file): pointed at
/// a home directory by mistake, a prune would delete a user's files. So a root is accepted
/// when it is a cache — a layout its marker files or folder name declare (the shape of file
/// names alone is not enough), a directory tagged with `CACHEDIR.TAG`, or at or under the
/// default cache root — or when the caller names the format explicitly (`--format
/// plain`). The file system root, the home directory, any directory holding the default
/// cache root and any directory inside an indexed cache (a cachectl store, a plist download
/// cache) are refused whatever the format.
public enum DeletableRoot {
    /// Throws `StoreError.notACache` when `root` must not be pruned or cleared.
    /// - Parameters:
    ///   - kind: the format the caller asked for; nil when it is to be detected.
    ///   - environment: `HOME` and `XDG_CACHE_HOME` (default: the process's).
    /// - Returns: the format to open `root` as.
    @discardableResult
    public static func check(_ root: RawPath, as kind: CacheFormatKind?, environment: [String: String]? = nil) throws -> CacheFormatKind {
        let env = environment ?? CacheLocations.currentEnvironment()
        let resolved = root.canonical
        let cacheRoot = CacheLocations.defaultRoot(environment: env).canonical
        if resolved == RawPath("/") { throw StoreError.notACache(root, "it is the file system root") }
        if resolved == RawPath(CacheLocations.home(env)).canonical {
            throw StoreError.notACache(root, "it is the home directory; name a cache directory inside it")
        }
        if cacheRoot != resolved && isInside(cacheRoot, resolved) {
            throw StoreError.notACache(root, "it holds the cache root \(cacheRoot.quoted); name that or a cache inside it")
        }
        // Inside a cache with an index, files are bodies its index names: deleting them as
        // loose files would leave rows whose bodies are gone.
        var ancestor = resolved.parentDirectory
        while ancestor.bytes.count > 1 {
            if let kind = CacheFormats.indexedKind(ancestor) {
                throw StoreError.notACache(root, "it lies inside the \(kind.displayName) \(ancestor.quoted); prune that")
            }
            ancestor = ancestor.parentDirectory
        }
        if let kind { return kind }
        if let declared = CacheFormats.detectByMarkers(root) { return declared }
        let byNames = CacheFormats.detectByNameShapes(root)
        // A cache by its tag or its place, whose names merely look like a library's: pruned as
        // a plain folder. A format's expiry rule is applied only where something declares the
        // format (Kingfisher's would expire every past-dated file of a folder of SHA-256 names).
        if CacheDirTag.isTagged(root) || isInside(resolved, cacheRoot) { return .plain }
        if byNames == .plain {
            throw StoreError.notACache(root, "no CACHEDIR.TAG, not a recognised cache layout, not under the cache root "
                                       + "\(cacheRoot.quoted) (pass --format plain to treat it as a plain cache folder)")
        }
        throw StoreError.notACache(root, "only its file names look like a \(byNames.displayName) cache: no marker file, folder "
                                   + "name or CACHEDIR.TAG says so, and it is not under the cache root \(cacheRoot.quoted) "
                                   + "(pass --format \(byNames.rawValue) to treat it as one)")
    }

    /// Whether `path` is `directory` or lies below it (both canonical).
    static func isInside(_ path: RawPath, _ directory: RawPath) -> Bool {
        if path == directory { return true }
        let prefix = directory.bytes.last == UInt8(ascii: "/") ? directory.bytes : directory.bytes + [UInt8(ascii: "/")]
        return path.bytes.starts(with: prefix)
    }
}
