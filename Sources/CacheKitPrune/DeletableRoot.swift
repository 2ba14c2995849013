#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which directories `prune` and `clear` may delete in: a policy, checked on the root's
/// descriptor (the directory that will be pruned is the one that was checked) before
/// anything is read or locked.
///
/// A plain folder's entries are every file in it, and "corrupted" and "incomplete" are
/// judged by file contents and names (a GIF without its trailer, a `.part` file): pointed at
/// a home directory by mistake, a prune would delete a user's files. So a root is accepted
/// when it is a cache — a layout its marker files or folder name declare (the shape of file
/// names alone is not enough), a directory tagged with `CACHEDIR.TAG`, or at or under the
/// default cache root — or when the caller names the format explicitly (`--format
/// plain`). A tag or marker file is believed only when its owner is the invoking user, root,
/// or the directory's owner: one planted by another user in a directory they do not own (a
/// world-writable one) makes nothing a cache. The file system root, the home directory, any
/// directory holding the default cache root and any directory inside an indexed cache (a
/// cachectl store, a plist download cache) are refused whatever the format.
public enum DeletableRoot {
    /// Throws `StoreError.notACache` when the anchored root must not be pruned or cleared.
    /// - Parameters:
    ///   - anchor: the root, opened once.
    ///   - kind: the format the caller asked for; nil when it is to be detected.
    ///   - environment: `HOME` and `XDG_CACHE_HOME` (default: the process's).
    /// - Returns: the format to open the root as.
    @discardableResult
    public static func check(
        _ anchor: AnchoredDirectory, as kind: CacheFormatKind?, environment: [String: String]? = nil
    ) throws -> CacheFormatKind {
        switch try verdict(anchor, as: kind, environment: environment) {
        case .cache(let kind): return kind
        case .holder(_, let refusal): throw refusal
        }
    }

    /// What a root is to `prune`.
    public enum Verdict {
        /// A cache, to open as this format.
        case cache(CacheFormatKind)
        /// A folder that is no cache itself but holds caches directly inside it (`~/.npm`
        /// holds npm's `_cacache` beside its logs and npx's installs): those caches may be
        /// pruned, each by its owner's rules, and nothing else in the folder. `refusal` is
        /// what `check` throws for the folder itself.
        case holder([CacheDiscovery.Found], refusal: StoreError)
    }

    /// `check`, except that a folder refused only for being no cache, which holds caches
    /// directly inside, is returned as a holder of them instead of thrown.
    public static func verdict(
        _ anchor: AnchoredDirectory, as kind: CacheFormatKind?, environment: [String: String]? = nil
    ) throws -> Verdict {
        let root = anchor.path
        let env = environment ?? CacheLocations.currentEnvironment()
        let resolved = anchor.canonicalPath
        let cacheRoot = CacheLocations.defaultRoot(environment: env).canonical
        if resolved == RawPath("/") { throw StoreError.notACache(root, "it is the file system root") }
        if resolved == RawPath(CacheLocations.home(env)).canonical {
            throw StoreError.notACache(root, "it is the home directory; name a cache directory inside it")
        }
        if cacheRoot != resolved && cacheRoot.isInside(resolved) {
            throw StoreError.notACache(
                root, "it holds the cache root \(cacheRoot.quoted); name that or a cache inside it")
        }
        // Inside a cache with an index, files are bodies its index names: deleting them as
        // loose files would leave rows whose bodies are gone.
        var ancestor = resolved.parentDirectory
        while ancestor.bytes.count > 1 {
            if case .success(let above) = AnchoredDirectory.open(
                ancestor, mustPreserveAccessTimes: anchor.mustPreserveAccessTimes),
                let kind = CacheFormats.indexedKind(above)
            {
                throw StoreError.notACache(
                    root, "it lies inside the \(kind.displayName) \(ancestor.quoted); prune that")
            }
            ancestor = ancestor.parentDirectory
        }
        if let kind { return .cache(kind) }
        if let declared = CacheFormats.detectByMarkers(anchor) {
            if case .untrusted(let owner, let marker) = markerTrust(anchor, declared) {
                throw StoreError.notACache(
                    root,
                    "its \(marker) belongs to \(userName(owner)), who owns neither the directory nor this "
                        + "process: not trusted (pass --format \(declared.rawValue) to treat it as one)")
            }
            return .cache(declared)
        }
        let byNames = CacheFormats.detectByNameShapes(anchor)
        // A cache by its tag or its place, whose names merely look like a library's: pruned as
        // a plain folder. A format's expiry rule is applied only where something declares the
        // format (Kingfisher's would expire every past-dated file of a folder of SHA-256 names).
        let tag = CacheDirTag.trust(in: anchor)
        if tag == .trusted || resolved.isInside(cacheRoot) { return .cache(.plain) }
        if case .untrusted(let owner) = tag {
            throw StoreError.notACache(
                root,
                "its CACHEDIR.TAG belongs to \(userName(owner)), who owns neither the directory nor this "
                    + """
                    process: a tag planted by another user is not trusted (pass --format plain to treat it as a \
                    plain cache folder)
                    """
            )
        }
        if byNames == .plain {
            let cause =
                "no CACHEDIR.TAG, not a recognised cache layout, not under the cache root \(cacheRoot.quoted)"
            // A folder that holds caches (`~/.npm` holds npm's `_cacache`, beside its logs and
            // npx's installs): those are what to name, not the folder as a plain one.
            let held = CacheDiscovery.caches(in: anchor, environment: env, depth: 1) ?? []
            guard held.isEmpty else {
                let named = held.map { "the \($0.kind.displayName) \(anchor.path(of: $0.relative).quoted)" }
                let which = held.count == 1 ? "that" : "one of those"
                return .holder(
                    held,
                    refusal: StoreError.notACache(
                        root, "\(cause); it holds \(named.joined(separator: ", ")): name \(which)"))
            }
            throw StoreError.notACache(root, "\(cause) (pass --format plain to treat it as a plain cache folder)")
        }
        throw StoreError.notACache(
            root,
            "only its file names look like a \(byNames.displayName) cache: no marker file, folder "
                + "name or CACHEDIR.TAG says so, and it is not under the cache root \(cacheRoot.quoted) "
                + "(pass --format \(byNames.rawValue) to treat it as one)")
    }

    /// Opens `root` once for checking and everything after (with `dryRun`, so that no
    /// access time changes).
    public static func anchor(_ root: RawPath, dryRun: Bool) throws -> AnchoredDirectory {
        switch AnchoredDirectory.open(root, mustPreserveAccessTimes: dryRun) {
        case .success(let anchor): return anchor
        case .failure(let error) where error.code == EPERM && dryRun:
            throw StoreError.cannotRead(
                root, "cannot be read without changing its access time (not its owner); a dry run changes nothing")
        case .failure(let error): throw StoreError.cannotRead(root, error.description)
        }
    }

    enum MarkerTrust {
        case trusted
        case untrusted(UInt32, String)
    }

    /// Whether the marker file that declared `kind` may be believed (same rule as a tag).
    static func markerTrust(_ anchor: AnchoredDirectory, _ kind: CacheFormatKind) -> MarkerTrust {
        let marker: String
        switch kind {
        case .native: marker = NativeStore.indexName
        case .plist: marker = PlistDownloadCache.indexName
        case .urlcache: marker = AppleURLCacheFormat.databaseName
        case .nuke: marker = ".data-cache-info"
        case .gobuild: marker = "README"
        case .clangmodules: marker = "modules.timestamp"
        case .uv: marker = "CACHEDIR.TAG"
        case .ccache: return .trusted  // its stats files: same rule as the folder's own
        default: return .trusted  // declared by the folder's name: its owner chose it
        }
        guard case .success(let st) = anchor.status(of: Array(marker.utf8)) else { return .trusted }
        if st.owner == Sys.effectiveUser || st.owner == 0 || st.owner == anchor.status.owner { return .trusted }
        return .untrusted(st.owner, marker)
    }

    private static func userName(_ uid: UInt32) -> String {
        Sys.userName(uid).map { "user '\($0)' (\(uid))" } ?? "user \(uid)"
    }
}
