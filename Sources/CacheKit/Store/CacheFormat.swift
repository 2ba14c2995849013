/// The cache layouts cachectl knows.
public enum CacheFormatKind: String, CaseIterable, Sendable {
    case native, sdwebimage, kingfisher, pincache, nuke, plist, urlcache, foundationurlcache, thumbnails, gobuild, pip,
        npm, ccache, huggingface, chromium, firefox, gitmirrors, plain

    /// The name people know it by.
    public var displayName: String {
        switch self {
        case .native: return "cachectl store"
        case .sdwebimage: return "SDWebImage"
        case .kingfisher: return "Kingfisher"
        case .pincache: return "PINCache"
        case .nuke: return "Nuke DataCache"
        case .plist: return "plist download cache"
        case .urlcache: return "Apple URLCache"
        case .foundationurlcache: return "swift-corelibs-foundation URLCache"
        case .thumbnails: return "freedesktop thumbnails"
        case .gobuild: return "Go build cache"
        case .pip: return "pip cache"
        case .npm: return "npm cache (cacache)"
        case .ccache: return "ccache"
        case .huggingface: return "Hugging Face hub"
        case .chromium: return "Chromium simple cache"
        case .gitmirrors: return "git mirrors"
        case .firefox: return "Firefox cache2"
        case .plain: return "plain directory"
        }
    }
}

/// One cache layout: how to list its entries with their state by that library's own rules,
/// find the entry for a URL where its naming allows, and remove entries by its own rules.
///
/// Every file is reached through `anchor`, the root opened once: listing and deletion never
/// re-open the root by path.
public protocol CacheFormat {
    var kind: CacheFormatKind { get }
    /// The root as the caller named it (for messages and entry paths).
    var root: RawPath { get }
    /// The root, opened once (see `AnchoredDirectory`).
    var anchor: AnchoredDirectory { get }
    /// Every entry with its state and the reason for it.
    func entries(_ context: InspectionContext) throws -> [CacheEntry]
    /// The entry holding `url`, if the naming lets us find it and it is there.
    func locate(url: String, _ context: InspectionContext) throws -> CacheEntry?
    /// Removes the index records of these entries (`indexKey` set) where they still name
    /// what was inspected; says, in order, which went. Their bodies are deleted after, so a
    /// crash leaves orphans, never a record without its body. Formats without an index:
    /// every entry "went".
    func forgetIndexed(_ entries: [CacheEntry]) throws -> [Bool]
    /// Deletes files no record names (orphans, leftovers) with `remove`, in whatever way
    /// keeps a concurrent writer from recording one of them meanwhile.
    func removeUnindexed(_ entries: [CacheEntry], _ remove: ([CacheEntry]) -> [DeletionResult]) throws
        -> [DeletionResult]
    /// Directories below the root that stay even when empty (the store's `objects/`, `tmp/`).
    var keptDirectories: Set<[UInt8]> { get }
    /// Called once deletions are done (the native store keeps its disk-full reserve again).
    func didRemove()
    /// The body of an entry held inside the cache's own database (`entry.inlineBody`).
    func inlineBody(_ entry: CacheEntry) throws -> [UInt8]?
    /// How the owner trims to its size limit (ratio, metric, comparisons): what `prune
    /// --max-size` follows unless `--trim-to` names a ratio.
    var sizeRule: SizeRule { get }
}

/// How a cache's owner trims it to a size limit, which `prune --max-size` follows.
public struct SizeRule: Sendable, Equatable {
    /// Which size the limit counts.
    public enum Metric: String, Sendable {
        /// Blocks on disk (`st_blocks × 512`), as du counts.
        case allocated
        /// File sizes (`st_size`).
        case apparent
    }
    /// Trim down to `maxSize × ratio`.
    public var ratio: Double
    /// Which size the limit counts.
    public var metric: Metric
    /// Trim when the total is ≥ the limit (Kingfisher); otherwise when it is > the limit.
    public var trimsAtLimit: Bool
    /// Stop once the total is strictly below the target (SDWebImage); otherwise at or below.
    public var stopsStrictlyBelow: Bool
    /// The owner's rule in words, with its source.
    public var owner: String
    /// When above zero, the cap is shared equally by this many partitions (the first path
    /// component of each entry: ccache's top-level subdirectories), each trimmed on its own.
    public var partitions: Int
    /// Trim only above `maxSize × startsAbove` (Chromium: 0.95); 1 for every other owner.
    public var startsAbove: Double
    /// Chromium's order: the largest `(now − last use) × (size + 512)` first, not plain LRU.
    public var byAgeTimesSize: Bool

    /// A rule; `partitions` defaults to 0 (one pool).
    public init(
        ratio: Double, metric: Metric, trimsAtLimit: Bool, stopsStrictlyBelow: Bool, owner: String, partitions: Int = 0,
        startsAbove: Double = 1, byAgeTimesSize: Bool = false
    ) {
        self.startsAbove = startsAbove
        self.byAgeTimesSize = byAgeTimesSize
        self.ratio = ratio
        self.metric = metric
        self.trimsAtLimit = trimsAtLimit
        self.stopsStrictlyBelow = stopsStrictlyBelow
        self.owner = owner
        self.partitions = partitions
    }

    /// The seed design's rule (cachectl's own store, the plist download cache, plain folders):
    /// above the cap, least recently used first down to at most half of it, allocated bytes.
    public static let seed = SizeRule(
        ratio: 0.5, metric: .allocated, trimsAtLimit: false, stopsStrictlyBelow: false,
        owner: "the seed design: down to at most half the cap, allocated bytes")
}

extension CacheFormat {
    /// The path the cache was opened at.
    public var root: RawPath { anchor.path }
    /// By default there is no index: every entry may go.
    public func forgetIndexed(_ entries: [CacheEntry]) throws -> [Bool] { entries.map { _ in true } }
    /// By default every entry is a file of its own: removed by `remove`.
    public func removeUnindexed(_ entries: [CacheEntry], _ remove: ([CacheEntry]) -> [DeletionResult]) throws
        -> [DeletionResult]
    {
        remove(entries)
    }
    /// By default no directory is kept when emptied.
    public var keptDirectories: Set<[UInt8]> { [] }
    /// By default nothing to do after a prune.
    public func didRemove() {}
    /// By default bodies are files of their own: nil.
    public func inlineBody(_ entry: CacheEntry) throws -> [UInt8]? { nil }
    /// By default the seed design's rule: down to half the cap, allocated bytes.
    public var sizeRule: SizeRule { .seed }
}

/// Detection and opening of formats.
public enum CacheFormats {
    /// The format of the directory at `root`, by its marker files, its folder name, then
    /// the shape of its file names; `.plain` when nothing more specific fits (or it cannot
    /// be opened).
    public static func detect(_ root: RawPath) -> CacheFormatKind {
        guard case .success(let anchor) = AnchoredDirectory.open(root) else { return .plain }
        return detect(anchor)
    }

    /// `detect` of an anchored directory.
    public static func detect(_ anchor: AnchoredDirectory) -> CacheFormatKind {
        detectByMarkers(anchor) ?? detectByNameShapes(anchor)
    }

    /// The format the directory declares by its marker files or folder name; nil when only
    /// the shape of its file names could tell (weaker evidence: a folder of SHA-256-named
    /// files need not be Kingfisher's, whose rule expires every file dated in the past).
    public static func detectByMarkers(_ root: RawPath) -> CacheFormatKind? {
        guard case .success(let anchor) = AnchoredDirectory.open(root) else { return nil }
        return detectByMarkers(anchor)
    }

    /// `detectByMarkers` of an anchored directory.
    public static func detectByMarkers(_ anchor: AnchoredDirectory) -> CacheFormatKind? {
        if NativeStore.isStore(anchor) || NativeStore.isTaggedStore(anchor) { return .native }
        if anchor.exists(Array(PlistDownloadCache.indexName.utf8)) { return .plist }
        // Apple's URLCache (Nuke's `com.github.kean.Nuke.Cache` is one) before any folder name.
        if AppleURLCacheFormat.recognises(anchor) { return .urlcache }
        if anchor.exists(Array(".data-cache-info".utf8)) { return .nuke }
        if GoBuildCacheFormat.recognises(anchor) { return .gobuild }
        if PipCacheFormat.recognises(anchor) { return .pip }
        if NpmCacacheFormat.recognises(anchor) { return .npm }
        if CcacheFormat.recognises(anchor) { return .ccache }
        if HuggingFaceHubFormat.recognises(anchor) { return .huggingface }
        if ChromiumSimpleCacheFormat.recognises(anchor) { return .chromium }
        if GitMirrorsFormat.recognises(anchor) { return .gitmirrors }
        if FirefoxCacheFormat.recognises(anchor) { return .firefox }
        // Before the name shapes: thumbnails are MD5-named PNGs, as SDWebImage's files are.
        if ThumbnailsFormat.recognises(anchor) { return .thumbnails }
        let names = [anchor.path.description, anchor.canonicalPath.description]
        func named(_ marker: String) -> Bool { names.contains { $0.contains(marker) } }
        if named("com.hackemist.SDImageCache") { return .sdwebimage }
        if named("com.onevcat.Kingfisher") { return .kingfisher }
        if named("com.pinterest.PINDiskCache") { return .pincache }
        // Only the DataCache folder: `com.github.kean.Nuke.Cache` is a URLCache (Cache.db).
        if named("com.github.kean.Nuke.DataCache") { return .nuke }
        if named(FoundationURLCacheFormat.folderName) { return .foundationurlcache }
        return nil
    }

    /// `.native`, `.plist` or `.urlcache` when `directory` is a cache whose files an index
    /// names (deleting them as loose files would leave rows without bodies); nil otherwise.
    static func indexedKind(_ directory: RawPath) -> CacheFormatKind? {
        guard case .success(let anchor) = AnchoredDirectory.open(directory) else { return nil }
        return indexedKind(anchor)
    }

    static func indexedKind(_ anchor: AnchoredDirectory) -> CacheFormatKind? {
        if NativeStore.isStore(anchor) || NativeStore.isTaggedStore(anchor) { return .native }
        if anchor.exists(Array(PlistDownloadCache.indexName.utf8)) { return .plist }
        if AppleURLCacheFormat.recognises(anchor) { return .urlcache }
        if NpmCacacheFormat.recognises(anchor) { return .npm }
        if ChromiumSimpleCacheFormat.recognises(anchor) { return .chromium }
        return nil
    }

    /// By the names: a flat folder of hex digests or percent-encoded URLs; else `.plain`.
    static func detectByNameShapes(_ root: RawPath) -> CacheFormatKind {
        guard case .success(let anchor) = AnchoredDirectory.open(root) else { return .plain }
        return detectByNameShapes(anchor)
    }

    /// How many of a folder's first names the shape test reads: enough to tell a library's
    /// naming, and a folder of a million files costs no second full read (`du`'s one pass).
    static let shapeSample = 256

    static func detectByNameShapes(_ anchor: AnchoredDirectory) -> CacheFormatKind {
        let names = sampleNames(anchor).map { String(decoding: $0, as: UTF8.self) }
            .filter { !$0.hasPrefix(".") && $0 != CacheDirTag.fileName }
        guard names.count >= 3 else { return .plain }
        func share(_ predicate: (String) -> Bool) -> Double {
            Double(names.filter(predicate).count) / Double(names.count)
        }
        if share({ isHex($0, count: 64) }) >= 0.9 { return .kingfisher }
        if share({ isHex($0, count: 40) }) >= 0.9 { return .nuke }
        if share({ isHex(stem($0), count: 32) }) >= 0.9 { return .sdwebimage }
        if share({ PINCacheFormat.decodeName($0).map { URLKey($0) != nil } ?? false }) >= 0.9 { return .pincache }
        return .plain
    }

    /// Opens `root` as `kind`, or as the detected format when `kind` is nil. With
    /// `snapshot`, a native index is read from a private copy and nothing in the cache is
    /// touched, not even an access time (for dry runs).
    public static func open(_ root: RawPath, as kind: CacheFormatKind? = nil, snapshot: Bool = false) throws
        -> any CacheFormat
    {
        switch AnchoredDirectory.open(root, mustPreserveAccessTimes: snapshot) {
        case .success(let anchor): return try open(anchor, as: kind, snapshot: snapshot, declaredPlain: kind == .plain)
        case .failure(let error): throw StoreError.cannotRead(root, error.description)
        }
    }

    /// Opens the anchored directory as `kind` (or as detected); see `open(_:as:snapshot:)`.
    /// `declaredPlain`: the user named `--format plain`, so a plain folder is taken file by
    /// file (otherwise by units where it has subdirectories and no tag; see `PlainFormat`).
    public static func open(
        _ anchor: AnchoredDirectory, as kind: CacheFormatKind? = nil, snapshot: Bool = false,
        declaredPlain: Bool = false
    ) throws -> any CacheFormat {
        switch kind ?? detect(anchor) {
        case .native:
            return NativeFormat(
                store: snapshot ? try NativeStore.openSnapshot(anchor) : try NativeStore.open(anchor, create: false))
        case .sdwebimage: return SDWebImageFormat(anchor: anchor)
        case .kingfisher: return KingfisherFormat(anchor: anchor)
        case .pincache: return PINCacheFormat(anchor: anchor)
        case .nuke: return NukeFormat(anchor: anchor)
        case .plist: return try PlistDownloadCache(anchor: anchor)
        case .urlcache: return AppleURLCacheFormat(anchor: anchor)
        case .foundationurlcache: return FoundationURLCacheFormat(anchor: anchor)
        case .thumbnails: return ThumbnailsFormat(anchor: anchor)
        case .gobuild: return GoBuildCacheFormat(anchor: anchor)
        case .pip: return PipCacheFormat(anchor: anchor)
        case .npm: return NpmCacacheFormat(anchor: anchor)
        case .ccache: return CcacheFormat(anchor: anchor)
        case .huggingface: return HuggingFaceHubFormat(anchor: anchor)
        case .chromium: return ChromiumSimpleCacheFormat(anchor: anchor)
        case .gitmirrors: return GitMirrorsFormat(anchor: anchor)
        case .firefox: return FirefoxCacheFormat(anchor: anchor)
        case .plain: return PlainFormat(anchor: anchor, declaredFileByFile: declaredPlain ? true : nil)
        }
    }

    /// The first `shapeSample` names of the folder, as the directory gives them (no stat).
    static func sampleNames(_ anchor: AnchoredDirectory) -> [[UInt8]] {
        guard case .success(let names) = DirectoryListing.names(anchor.descriptor.raw, limit: shapeSample) else {
            return []
        }
        return names
    }

    static func isHex(_ s: String, count: Int) -> Bool {
        s.utf8.count == count && s.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    static func stem(_ name: String) -> String {
        name.firstIndex(of: ".").map { String(name[..<$0]) } ?? name
    }
}

/// The native store seen through the common abstraction.
struct NativeFormat: CacheFormat {
    let store: NativeStore
    var kind: CacheFormatKind { .native }
    var anchor: AnchoredDirectory { store.anchor }
    func entries(_ context: InspectionContext) throws -> [CacheEntry] { try store.entries(context) }
    /// By key, without scanning: the row, then its body checked against the row's size.
    func locate(url: String, _ context: InspectionContext) throws -> CacheEntry? {
        try store.lookup(url: url, now: context.now).map(entry(for:))
    }

    func forgetIndexed(_ entries: [CacheEntry]) throws -> [Bool] { try store.deleteRows(naming: entries) }

    func removeUnindexed(_ entries: [CacheEntry], _ remove: ([CacheEntry]) -> [DeletionResult]) throws
        -> [DeletionResult]
    {
        try store.removeUnindexed(entries, remove)
    }

    var keptDirectories: Set<[UInt8]> { [Array("objects".utf8), Array("tmp".utf8)] }

    func didRemove() { store.releaseAndKeepReserve() }

    /// The entry for a looked-up row: its body checked against the row's size.
    func entry(for hit: NativeStore.Hit) -> CacheEntry {
        let relative = Array(hit.record.bodyPath.utf8)
        guard case .success(let st) = store.anchor.status(of: relative), st.isRegular else {
            return CacheEntry(
                url: hit.record.url, path: hit.bodyPath, relativePath: relative, allocatedBytes: 0, apparentBytes: 0,
                modified: nil, state: .corrupted, reason: "body missing", indexKey: hit.record.url)
        }
        let state: EntryState = st.size != hit.record.apparentBytes ? .corrupted : hit.isFresh ? .fresh : .expired
        var entry = CacheEntry(
            url: hit.record.url, path: hit.bodyPath, relativePath: relative, allocatedBytes: st.allocatedBytes,
            apparentBytes: st.size, modified: st.modified, lastAccess: FileTime(timeInterval: hit.record.lastAccess),
            expires: hit.record.expires.map(FileTime.init(timeInterval:)), state: state,
            reason: state == .corrupted ? "body size does not match the index" : state.rawValue,
            indexKey: hit.record.url)
        entry.identity = FileIdentity(st)
        return entry
    }
}
