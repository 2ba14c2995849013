import Foundation

/// The seed design's download manager: `CachedDownloads.dic`, a plist dictionary keyed by
/// lower-cased URL, each item with `DownloadStartDate`, `DownloadEndDate` (absent = never
/// completed), `ExpiresInSeconds`, `ExpiryDate` and `LocalURL` (an absolute path the app
/// wrote, which may point anywhere).
public struct PlistDownloadCache: CacheFormat {
    public static let indexName = "CachedDownloads.dic"
    public let root: RawPath
    public var kind: CacheFormatKind { .plist }
    /// The dictionary as read (every key and value kept, for atomic rewrites).
    public private(set) var items: [String: [String: Any]]
    /// XML or binary, to write back in the format found.
    let format: PropertyListSerialization.PropertyListFormat

    public init(root: RawPath) throws {
        self.root = root
        let index = root.appending(Self.indexName)
        let bytes = try FileIO.readAll(index)
        var format = PropertyListSerialization.PropertyListFormat.xml
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: &format)
        } catch {
            throw StoreError.malformedPlist(index, (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error.localizedDescription)")
        }
        guard let dictionary = object as? [String: Any] else {
            throw StoreError.malformedPlist(index, "the top level is not a dictionary")
        }
        var items: [String: [String: Any]] = [:]
        for (key, value) in dictionary {
            guard let item = value as? [String: Any] else {
                throw StoreError.malformedPlist(index, "the value for '\(key)' is not a dictionary")
            }
            items[key] = item
        }
        self.items = items
        self.format = format
    }

    /// The body path an item names: `LocalURL` as a path or a `file://` URL.
    func bodyPath(of item: [String: Any]) -> String? {
        guard let local = item["LocalURL"] as? String, !local.isEmpty else { return nil }
        if local.hasPrefix("file://") { return URL(string: local)?.path }
        return local
    }

    /// Whether a path stays inside the root without `..` or symlinks on the way.
    func isInside(_ path: String) -> Bool {
        let rootText = root.description.hasSuffix("/") ? root.description : root.description + "/"
        guard path.hasPrefix(rootText) else { return false }
        let relative = String(path.dropFirst(rootText.count))
        guard NativeStore.isSafeRelativePath(relative) else { return false }
        return !FileTree.hasSymlinkComponent(root: root, relative: relative)
    }

    public func entries(_ context: InspectionContext) throws -> [CacheEntry] {
        var referenced = Set<[UInt8]>()
        var result: [CacheEntry] = []
        for key in items.keys.sorted() {
            let item = items[key]!
            result.append(entry(key: key, item: item, context, referenced: &referenced))
        }
        for file in FileTree.files(under: root)
        where file.relative != Array(Self.indexName.utf8) && file.relative != Array(CacheDirTag.fileName.utf8)
            && !referenced.contains(file.path.bytes) && !file.relative.starts(with: Array("CachedDownloads.dic.".utf8)) {
            let old = context.isOlderThanGrace(file.modified)
            var entry = CacheEntry(url: nil, path: file.path, allocatedBytes: file.allocatedBytes, apparentBytes: file.apparentBytes,
                                   modified: file.modified, state: old ? .orphan : .fresh,
                                   reason: old ? "no item of \(Self.indexName) refers to this file" : "unindexed file within the grace period")
            entry.inGracePeriod = !old
            entry.identity = file.identity
            result.append(entry)
        }
        return result
    }

    private func entry(key: String, item: [String: Any], _ context: InspectionContext, referenced: inout Set<[UInt8]>) -> CacheEntry {
        let started = (item["DownloadStartDate"] as? Date).map { FileTime(timeInterval: $0.timeIntervalSince1970) }
        let ended = item["DownloadEndDate"] as? Date
        let expiry = (item["ExpiryDate"] as? Date).map { FileTime(timeInterval: $0.timeIntervalSince1970) }
        let pathText = bodyPath(of: item)
        var entry = CacheEntry(url: key, path: RawPath(pathText ?? ""), allocatedBytes: 0, apparentBytes: 0, modified: nil,
                               expires: expiry, state: .fresh, reason: "fresh", indexKey: key)
        guard let pathText else {
            (entry.state, entry.reason) = (.corrupted, "item has no LocalURL")
            return entry
        }
        guard isInside(pathText) else {
            (entry.state, entry.reason) = (.outside, "LocalURL '\(pathText)' is outside the cache")
            return entry
        }
        referenced.insert(Array(pathText.utf8))
        let st: StatInfo?
        if case .success(let info) = Sys.lstat(path: RawPath(pathText)) { st = info } else { st = nil }
        entry.allocatedBytes = st?.allocatedBytes ?? 0
        entry.apparentBytes = st?.apparentBytes ?? 0
        entry.modified = st?.modified
        entry.identity = st.map(FileIdentity.init)
        if ended == nil {
            if context.isOlderThanGrace(started) {
                (entry.state, entry.reason) = (.incomplete, "no DownloadEndDate: the download never completed")
            } else {
                entry.reason = "download in progress (within the grace period)"
                entry.inGracePeriod = true
            }
        } else if st == nil {
            (entry.state, entry.reason) = (.corrupted, "body missing")
        } else if let expiry, expiry <= context.now {
            (entry.state, entry.reason) = (.expired, "ExpiryDate passed \(NativeStore.age(expiry, context)) ago")
        } else {
            entry.reason = expiry == nil ? "complete, no ExpiryDate" : "complete, ExpiryDate ahead"
        }
        return entry
    }

    public func locate(url: String, _ context: InspectionContext) throws -> CacheEntry? {
        guard URLKey(url) != nil else { throw StoreError.notAURL(url) }
        let key = url.lowercased()
        guard let item = items[key] ?? items[url] else { return nil }
        var referenced = Set<[UInt8]>()
        return entry(key: items[key] != nil ? key : url, item: item, context, referenced: &referenced)
    }

    /// Rewrites the dictionary without `keys`, atomically and in its original format,
    /// keeping every other key and value as it was.
    public func removingItems(_ keys: Set<String>) throws -> PlistDownloadCache {
        var copy = self
        for key in keys { copy.items[key] = nil }
        let data: Data
        do {
            data = try PropertyListSerialization.data(fromPropertyList: copy.items, format: format, options: 0)
        } catch {
            throw StoreError.cannotWrite(root.appending(Self.indexName), "\(error)")
        }
        try FileIO.writeAtomically(root.appending(Self.indexName), Array(data))
        return copy
    }
}

/// A plain folder: every file is an entry; partial downloads (`*.part`, `*.partial`,
/// `*.tmp`, `*.download`, `*.crdownload`) are incomplete once older than the grace period;
/// images whose structure is cut short are corrupted. No age rule of its own.
struct PlainFormat: CacheFormat {
    let root: RawPath
    var kind: CacheFormatKind { .plain }
    static let partialSuffixes = [".part", ".partial", ".tmp", ".download", ".crdownload"]

    func entries(_ context: InspectionContext) throws -> [CacheEntry] {
        // A cache with an index inside (a cachectl store, a plist download cache) is not
        // entered: deleting its files as loose ones would leave its index naming bodies that
        // are gone. It is listed as one entry kept outside this folder's pruning.
        var nested: [(path: RawPath, kind: CacheFormatKind)] = []
        let tag = Array(CacheDirTag.fileName.utf8)
        let files = FileTree.files(under: root, enter: { directory in
            guard let kind = CacheFormats.indexedKind(directory) else { return true }
            nested.append((directory, kind))
            return false
        })
        let loose: [CacheEntry] = files.filter { $0.path.lastComponent != tag }.map { file in
            let name = String(decoding: file.relative, as: UTF8.self)
            var (state, reason, young) = (EntryState.fresh, "no age rule", false)
            if Self.partialSuffixes.contains(where: { name.hasSuffix($0) }) {
                if context.isOlderThanGrace(file.modified) {
                    (state, reason) = (.incomplete, "partial download left \(NativeStore.age(file.modified, context)) ago")
                } else {
                    (reason, young) = ("partial download within the grace period", true)
                }
            } else if file.isRegular, let cut = ImageSignature.truncation(of: file.path, size: file.apparentBytes) {
                (state, reason) = (.corrupted, cut)
            }
            var entry = CacheEntry(url: nil, path: file.path, allocatedBytes: file.allocatedBytes, apparentBytes: file.apparentBytes,
                                   modified: file.modified, state: state, reason: reason)
            entry.inGracePeriod = young
            entry.identity = file.identity
            return entry
        }
        return loose + nested.map { directory, kind in
            let inside = FileTree.files(under: directory)
            return CacheEntry(url: nil, path: directory, allocatedBytes: inside.reduce(0) { $0 + $1.allocatedBytes },
                              apparentBytes: inside.reduce(0) { $0 + $1.apparentBytes }, modified: inside.map(\.modified).max(),
                              state: .outside, reason: "a separate \(kind.displayName) with its own index; prune it as a root of its own")
        }
    }

    func locate(url: String, _ context: InspectionContext) throws -> CacheEntry? {
        guard URLKey(url) != nil else { throw StoreError.notAURL(url) }
        return nil // a plain folder's names say nothing about URLs
    }
}
