/// The caches under a folder that is not itself one cache (`~/.cache`, `~/Library/Caches`, a
/// device backup): what `prune` and `ls` treat as separate caches, each by its owner's rules.
///
/// A directory below the folder is a cache when it carries a trusted `CACHEDIR.TAG` or its
/// marker files or name declare a recognised layout (at any depth; a found cache is not
/// entered). Below the default cache root, each immediate subdirectory is a cache of its own
/// too (a plain one, pruned by units, when nothing declares its layout).
public enum CacheDiscovery {
    /// A cache found below a folder, with its recognised format.
    public struct Found: Sendable {
        /// Relative to the folder searched.
        public var relative: [UInt8]
        /// The declared layout; `.plain` for a tagged folder or a cache root's subdirectory.
        public var kind: CacheFormatKind
    }

    /// Deepest level looked at below the folder (a backup's `Library/Caches/*` is four).
    public static let maxDepth = 6

    /// The caches below `anchor`, or nil when `anchor` itself is one cache (tagged, or holding
    /// none): then it is pruned as one folder. `depth` limits how deep it looks (1: the folders
    /// directly inside).
    public static func caches(
        in anchor: AnchoredDirectory, environment: [String: String]? = nil, depth: Int = maxDepth
    ) -> [Found]? {
        if CacheDirTag.trust(in: anchor) == .trusted { return nil }
        let env = environment ?? CacheLocations.currentEnvironment()
        let isCacheRoot = anchor.canonicalPath == CacheLocations.defaultRoot(environment: env).canonical
        var found: [Found] = []
        search(anchor, [], depth: 1, upTo: depth, into: &found)
        if isCacheRoot {
            let covered = Set(found.map { topLevel($0.relative) })
            for name in FileTree.subdirectories(in: anchor) where !covered.contains(name) {
                found.append(Found(relative: name, kind: .plain))
            }
        }
        return found.isEmpty ? nil : found.sorted { $0.relative.lexicographicallyPrecedes($1.relative) }
    }

    static func topLevel(_ relative: [UInt8]) -> [UInt8] {
        Array(relative.prefix { $0 != UInt8(ascii: "/") })
    }

    private static func search(
        _ anchor: AnchoredDirectory, _ relative: [UInt8], depth: Int, upTo deepest: Int, into found: inout [Found]
    ) {
        guard depth <= deepest else { return }
        for name in FileTree.subdirectories(in: anchor, of: relative) {
            let child = AnchoredDirectory.join(relative, name)
            guard case .success(let inner) = anchor.anchoring(child) else { continue }
            if let kind = CacheFormats.detectByMarkers(inner) {
                if case .trusted = DeletableRoot.markerTrust(inner, kind) {
                    found.append(Found(relative: child, kind: kind))
                }
                continue
            }
            if CacheDirTag.trust(in: inner) == .trusted {
                found.append(Found(relative: child, kind: .plain))
                continue
            }
            search(anchor, child, depth: depth + 1, upTo: deepest, into: &found)
        }
    }
}

extension CacheDiscovery {
    /// One cache's entries, as `ls` shows them.
    public struct Listing: Sendable {
        /// The cache's root.
        public var path: RawPath
        /// The format it was recognised as.
        public var kind: CacheFormatKind
        /// What the cache is, for a person (`CacheFormat.displayName`).
        public var name: String
        /// Its entries, as the format lists them.
        public var entries: [CacheEntry]
    }

    /// `root` inspected as `prune` would see it: one listing when it is one cache (or `kind`
    /// names its layout); for a folder of caches, its own loose files and unit folders first,
    /// then each cache found in it by its owner's rules. A cache that cannot be read is
    /// returned as an error beside the others.
    public static func listings(_ root: RawPath, as kind: CacheFormatKind?, context: InspectionContext)
        throws -> (listings: [Listing], errors: [(path: RawPath, error: StoreError)])
    {
        let anchor: AnchoredDirectory
        switch AnchoredDirectory.open(root) {
        case .success(let opened): anchor = opened
        case .failure(let error): throw StoreError.cannotRead(root, error.description)
        }
        guard kind == nil, CacheFormats.detectByMarkers(anchor) == nil,
            CacheFormats.detectByNameShapes(anchor) == .plain,
            let found = caches(in: anchor)
        else {
            let format = try CacheFormats.open(anchor, as: kind, declaredPlain: kind == .plain)
            return (
                [
                    Listing(
                        path: root, kind: format.kind, name: format.displayName, entries: try format.entries(context))
                ], []
            )
        }
        var remainder = PlainFormat(anchor: anchor, declaredFileByFile: false)
        remainder.excluded = Set(found.map { topLevel($0.relative) })
        var listings = [
            Listing(
                path: root, kind: .plain, name: remainder.displayName, entries: try remainder.entries(context))
        ]
        var errors: [(RawPath, StoreError)] = []
        for cache in found {
            let path = anchor.path(of: cache.relative)
            do {
                guard case .success(let inner) = anchor.anchoring(cache.relative) else {
                    throw StoreError.cannotRead(path, "cannot open it")
                }
                let format = try CacheFormats.open(inner, as: cache.kind)
                listings.append(
                    Listing(
                        path: path, kind: format.kind, name: format.displayName, entries: try format.entries(context)))
            } catch let error as StoreError {
                errors.append((path, error))
            }
        }
        return (listings, errors)
    }
}
