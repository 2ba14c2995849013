/// The cache layouts cachectl knows.
public enum CacheFormatKind: String, CaseIterable, Sendable {
    case native, sdwebimage, kingfisher, pincache, nuke, plist, plain

    /// The name people know it by.
    public var displayName: String {
        switch self {
        case .native: return "cachectl store"
        case .sdwebimage: return "SDWebImage"
        case .kingfisher: return "Kingfisher"
        case .pincache: return "PINCache"
        case .nuke: return "Nuke DataCache"
        case .plist: return "plist download cache"
        case .plain: return "plain directory"
        }
    }
}

/// One cache layout: how to list its entries with their state by that library's own rules,
/// and, where its naming allows, find the entry for a URL.
public protocol CacheFormat {
    var kind: CacheFormatKind { get }
    var root: RawPath { get }
    /// Every entry with its state and the reason for it.
    func entries(_ context: InspectionContext) throws -> [CacheEntry]
    /// The entry holding `url`, if the naming lets us find it and it is there.
    func locate(url: String, _ context: InspectionContext) throws -> CacheEntry?
}

/// Detection and opening of formats.
public enum CacheFormats {
    /// The format of the directory at `root`, by its marker files, its folder name, then
    /// the shape of its file names; `.plain` when nothing more specific fits.
    public static func detect(_ root: RawPath) -> CacheFormatKind {
        detectByMarkers(root) ?? detectByNameShapes(root)
    }

    /// The format the directory declares by its marker files or folder name; nil when only
    /// the shape of its file names could tell (weaker evidence: a folder of SHA-256-named
    /// files need not be Kingfisher's, whose rule expires every file dated in the past).
    public static func detectByMarkers(_ root: RawPath) -> CacheFormatKind? {
        if NativeStore.isStore(root) || NativeStore.isTaggedStore(root) { return .native }
        if root.appending(PlistDownloadCache.indexName).exists { return .plist }
        if root.appending(".data-cache-info").exists { return .nuke }
        let path = root.description
        if path.contains("com.hackemist.SDImageCache") { return .sdwebimage }
        if path.contains("com.onevcat.Kingfisher") { return .kingfisher }
        if path.contains("com.pinterest.PINDiskCache") { return .pincache }
        if path.contains("com.github.kean.Nuke") { return .nuke }
        return nil
    }

    /// `.native` or `.plist` when `directory` is a cache whose files an index names (deleting
    /// them as loose files would leave rows without bodies); nil otherwise.
    static func indexedKind(_ directory: RawPath) -> CacheFormatKind? {
        let kind = detectByMarkers(directory)
        return kind == .native || kind == .plist ? kind : nil
    }

    /// By the names: a flat folder of hex digests or percent-encoded URLs; else `.plain`.
    static func detectByNameShapes(_ root: RawPath) -> CacheFormatKind {
        let names = FileTree.files(under: root, recursive: false).map { String(decoding: $0.relative, as: UTF8.self) }
            .filter { !$0.hasPrefix(".") && $0 != CacheDirTag.fileName }
        guard names.count >= 3 else { return .plain }
        func share(_ predicate: (String) -> Bool) -> Double { Double(names.filter(predicate).count) / Double(names.count) }
        if share({ isHex($0, count: 64) }) >= 0.9 { return .kingfisher }
        if share({ isHex($0, count: 40) }) >= 0.9 { return .nuke }
        if share({ isHex(stem($0), count: 32) }) >= 0.9 { return .sdwebimage }
        if share({ PINCacheFormat.decodeName($0).map { URLKey($0) != nil } ?? false }) >= 0.9 { return .pincache }
        return .plain
    }

    /// Opens `root` as `kind`, or as the detected format when `kind` is nil. With
    /// `snapshot`, a native index is read from a private copy so nothing in the cache is
    /// touched (for dry runs).
    public static func open(_ root: RawPath, as kind: CacheFormatKind? = nil, snapshot: Bool = false) throws -> any CacheFormat {
        switch kind ?? detect(root) {
        case .native:
            return NativeFormat(store: snapshot ? try NativeStore.openSnapshot(root) : try NativeStore.open(root, create: false))
        case .sdwebimage: return SDWebImageFormat(root: root)
        case .kingfisher: return KingfisherFormat(root: root)
        case .pincache: return PINCacheFormat(root: root)
        case .nuke: return NukeFormat(root: root)
        case .plist: return try PlistDownloadCache(root: root)
        case .plain: return PlainFormat(root: root)
        }
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
    var root: RawPath { store.root }
    func entries(_ context: InspectionContext) throws -> [CacheEntry] { try store.entries(context) }
    /// By key, without scanning: the row, then its body checked against the row's size.
    func locate(url: String, _ context: InspectionContext) throws -> CacheEntry? {
        try store.lookup(url: url, now: context.now).map(entry(for:))
    }

    /// The entry for a looked-up row: its body checked against the row's size.
    func entry(for hit: NativeStore.Hit) -> CacheEntry {
        guard case .success(let st) = Sys.lstat(path: hit.bodyPath), st.isRegular,
              !store.bodyPathCrossesSymlink(hit.record.bodyPath) else {
            return CacheEntry(url: hit.record.url, path: hit.bodyPath, allocatedBytes: 0, apparentBytes: 0, modified: nil,
                              state: .corrupted, reason: "body missing", indexKey: hit.record.url)
        }
        let state: EntryState = st.size != hit.record.apparentBytes ? .corrupted : hit.isFresh ? .fresh : .expired
        var entry = CacheEntry(url: hit.record.url, path: hit.bodyPath, allocatedBytes: st.allocatedBytes, apparentBytes: st.size,
                               modified: st.modified, lastAccess: FileTime(timeInterval: hit.record.lastAccess),
                               expires: hit.record.expires.map(FileTime.init(timeInterval:)), state: state,
                               reason: state == .corrupted ? "body size does not match the index" : state.rawValue, indexKey: hit.record.url)
        entry.identity = FileIdentity(st)
        return entry
    }
}
