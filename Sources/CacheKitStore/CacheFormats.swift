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
        if ClangModuleCacheFormat.recognises(anchor) { return .clangmodules }
        if UvCacheFormat.recognises(anchor) { return .uv }
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

    /// Whether a directory holding `names` may be a cache `indexedKind` recognises: each one
    /// has at least one of these files (its index, or the database or folder it starts from).
    package static func mayHoldIndex(_ names: [[UInt8]]) -> Bool {
        names.contains { indexMarkers.contains($0) }
    }

    private static let indexMarkers: Set<[UInt8]> = [
        NativeStore.indexBytes, PlistDownloadCache.indexBytes, Array(AppleURLCacheFormat.databaseName.utf8),
        NpmCacacheFormat.indexFolder, ChromiumSimpleCacheFormat.indexFile
    ]

    package static func indexedKind(_ anchor: AnchoredDirectory) -> CacheFormatKind? {
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

    package static func detectByNameShapes(_ anchor: AnchoredDirectory) -> CacheFormatKind {
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
        case .clangmodules: return ClangModuleCacheFormat(anchor: anchor)
        case .uv: return UvCacheFormat(anchor: anchor)
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
