import Foundation

/// The seed design's download manager: `CachedDownloads.dic`, a plist dictionary keyed by
/// lower-cased URL, each item with `DownloadStartDate`, `DownloadEndDate` (absent = never
/// completed), `ExpiresInSeconds`, `ExpiryDate` and `LocalURL` (an absolute path the app
/// wrote, which may point anywhere).
public struct PlistDownloadCache: CacheFormat {
    /// The index file's name.
    public static let indexName = "CachedDownloads.dic"
    static let indexBytes = Array(indexName.utf8)
    /// The cache's root, opened once.
    public let anchor: AnchoredDirectory
    /// `.plist`.
    public var kind: CacheFormatKind { .plist }
    /// The dictionary as read (every key and value kept, for atomic rewrites).
    public private(set) var items: [String: [String: Any]]
    /// XML or binary, to write back in the format found.
    let format: PropertyListSerialization.PropertyListFormat

    /// Opens the cache at `root` (which must hold the index).
    public init(root: RawPath) throws {
        switch AnchoredDirectory.open(root) {
        case .success(let anchor): try self.init(anchor: anchor)
        case .failure(let error): throw StoreError.cannotRead(root, error.description)
        }
    }

    /// Opens the cache at an anchored root (which must hold the index).
    public init(anchor: AnchoredDirectory) throws {
        self.anchor = anchor
        (items, format) = try Self.read(anchor)
    }

    /// The dictionary in the anchored directory's index, and its format.
    private static func read(_ anchor: AnchoredDirectory) throws -> (
        [String: [String: Any]], PropertyListSerialization.PropertyListFormat
    ) {
        let index = anchor.path.appending(indexName)
        let bytes: [UInt8]
        switch anchor.readAll(indexBytes) {
        case .success(let contents): bytes = contents
        case .failure(let error): throw StoreError.cannotRead(index, error.description)
        }
        return try parse(bytes, index: index)
    }

    /// The dictionary in an index's bytes, and its format. Foundation's parser stops the
    /// process on some damaged binary plists (a set among the objects: a segmentation fault
    /// bridging it), so a binary one is read first by `BinaryPlist`, which bounds every offset
    /// and knows no sets, and refused when that cannot read it.
    static func parse(_ bytes: [UInt8], index: RawPath) throws -> (
        [String: [String: Any]], PropertyListSerialization.PropertyListFormat
    ) {
        if bytes.starts(with: "bplist".utf8), BinaryPlist.parse(bytes) == nil {
            throw StoreError.malformedPlist(index, "a binary property list that does not parse")
        }
        var format = PropertyListSerialization.PropertyListFormat.xml
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: &format)
        } catch {
            throw StoreError.malformedPlist(
                index,
                (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error.localizedDescription)")
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
        return (items, format)
    }

    /// The body path an item names: `LocalURL` as a path, or a `file://` URL whose path is
    /// percent-decoded to bytes (never through a lossy string).
    func bodyPath(of item: [String: Any]) -> RawPath? {
        guard let local = item["LocalURL"] as? String, !local.isEmpty else { return nil }
        guard local.hasPrefix("file://") else { return RawPath(local) }
        var rest = Array(local.utf8.dropFirst(7))
        // file://host/path: only an empty host or localhost names this machine.
        if let slash = rest.firstIndex(of: UInt8(ascii: "/")) {
            let host = rest[..<slash]
            guard host.isEmpty || host.elementsEqual("localhost".utf8) else { return nil }
            rest = Array(rest[slash...])
        } else {
            return nil
        }
        if let cut = rest.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            rest = Array(rest[..<cut])
        }
        return RawPath(bytes: HostParser.percentDecode(rest))
    }

    /// One entry per download in the index, and every file the index does not name.
    public func entries(_ context: InspectionContext) throws -> [CacheEntry] {
        var referenced = Set<[UInt8]>()
        var result: [CacheEntry] = []
        for key in items.keys.sorted() {
            let item = items[key]!
            result.append(entry(key: key, item: item, context, referenced: &referenced))
        }
        let tag = Array(CacheDirTag.fileName.utf8)
        let temporaries = Array((Self.indexName + ".").utf8)
        for file in FileTree.files(in: anchor)
        where file.relative != Self.indexBytes && file.relative != tag
            && !referenced.contains(file.anchorRelative) && !file.relative.starts(with: temporaries)
        {
            let old = context.isOlderThanGrace(file.lastWritten)
            var entry = CacheEntry(
                url: nil, path: file.path, relativePath: file.anchorRelative, allocatedBytes: file.allocatedBytes,
                apparentBytes: file.apparentBytes, modified: file.modified, state: old ? .orphan : .fresh,
                reason: old
                    ? "no item of \(Self.indexName) refers to this file" : "unindexed file within the grace period")
            entry.inGracePeriod = !old
            entry.identity = file.identity
            result.append(entry)
        }
        return result
    }

    private func entry(key: String, item: [String: Any], _ context: InspectionContext, referenced: inout Set<[UInt8]>)
        -> CacheEntry
    {
        let started = (item["DownloadStartDate"] as? Date).map { FileTime(timeInterval: $0.timeIntervalSince1970) }
        let ended = item["DownloadEndDate"] as? Date
        let expiry = (item["ExpiryDate"] as? Date).map { FileTime(timeInterval: $0.timeIntervalSince1970) }
        let path = bodyPath(of: item)
        var entry = CacheEntry(
            url: key, path: path ?? RawPath(""), allocatedBytes: 0, apparentBytes: 0, modified: nil,
            expires: expiry, state: .fresh, reason: "fresh", indexKey: key)
        guard let path else {
            (entry.state, entry.reason) = (.corrupted, "item has no LocalURL")
            return entry
        }
        // Inside when its directory resolves below the root's descriptor: the root spelled
        // `.`, through a symlink or with `..` makes no difference; bytes, never strings.
        var relocated = false
        guard
            let relative = anchor.locate(path)
                ?? relocate(path).map({
                    relocated = true
                    return $0
                })
        else {
            (entry.state, entry.reason) = (.outside, "LocalURL \(path.quoted) is outside the cache")
            return entry
        }
        entry.relativePath = relative
        referenced.insert(relative)
        let st: StatInfo?
        switch anchor.status(of: relative) {
        case .success(let info): st = info
        case .failure: st = nil
        }
        entry.allocatedBytes = st?.allocatedBytes ?? 0
        entry.apparentBytes = st?.apparentBytes ?? 0
        entry.modified = st?.modified
        entry.identity = st.map(FileIdentity.init)
        if ended == nil {
            // A download in progress writes its body: grace counts from the body's last write
            // (DownloadStartDate only when there is no body yet).
            let lastWrite = st?.lastWritten ?? started
            if context.isOlderThanGrace(lastWrite) {
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
        if relocated {
            entry.reason += "; LocalURL \(path.quoted) re-rooted into this cache (the app's container moved)"
        }
        return entry
    }

    /// Where a LocalURL written under another container path lives in this cache: iOS moves
    /// an app's container (a new UUID) on updates and restores, and a copied cache keeps the
    /// old absolute paths. The path below `Library/Caches/` — or, failing that, its trailing
    /// components down to the file name alone — is looked for below the root, longest first;
    /// the first regular file found is the body. Nil (outside) when nothing inside matches.
    func relocate(_ path: RawPath) -> [UInt8]? {
        let marker = Array("/Library/Caches/".utf8)
        var parts = path.bytes.split(separator: UInt8(ascii: "/")).map(Array.init)
        if let range = Self.lastRange(of: marker, in: path.bytes) {
            parts = path.bytes[range.upperBound...].split(separator: UInt8(ascii: "/")).map(Array.init)
            // The cache itself below its own Library/Caches: the same prefix goes.
            if let own = Self.lastRange(of: marker, in: anchor.canonicalPath.bytes) {
                let rootParts = anchor.canonicalPath.bytes[own.upperBound...].split(separator: UInt8(ascii: "/")).map(
                    Array.init)
                if parts.count > rootParts.count, Array(parts.prefix(rootParts.count)) == rootParts {
                    parts = Array(parts.dropFirst(rootParts.count))
                }
            }
        }
        for start in parts.indices {
            let candidate = Array(parts[start...].joined(separator: [UInt8(ascii: "/")]))
            guard AnchoredDirectory.isValidRelative(candidate) else { continue }
            if case .success(let st) = anchor.status(of: candidate), st.isRegular { return candidate }
        }
        return nil
    }

    private static func lastRange(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
        guard haystack.count >= needle.count else { return nil }
        for start in stride(from: haystack.count - needle.count, through: 0, by: -1)
        where haystack[start..<start + needle.count].elementsEqual(needle) {
            return start..<start + needle.count
        }
        return nil
    }

    /// The download the index records for `url`, if any.
    public func locate(url: String, _ context: InspectionContext) throws -> CacheEntry? {
        guard URLKey(url) != nil else { throw StoreError.notAURL(url) }
        let key = url.lowercased()
        guard let item = items[key] ?? items[url] else { return nil }
        var referenced = Set<[UInt8]>()
        return entry(key: items[key] != nil ? key : url, item: item, context, referenced: &referenced)
    }

    /// Rewrites the dictionary without the items of these entries, atomically and in its
    /// original format, keeping every other key and value as it is on disk now (re-read, so
    /// what the app wrote since stays); an item whose LocalURL changed since it was inspected
    /// stays too.
    public func forgetIndexed(_ entries: [CacheEntry]) throws -> [Bool] {
        guard !entries.isEmpty else { return [] }
        var (current, format) = try Self.read(anchor)
        let went = entries.map { entry -> Bool in
            guard let key = entry.indexKey, let item = current[key] else { return entry.indexKey != nil }
            guard bodyPath(of: item) == (entry.relativePath == nil && entry.state == .corrupted ? nil : entry.path)
            else { return false }
            current[key] = nil
            return true
        }
        try write(current, format)
        return went
    }

    /// Rewrites the dictionary without `keys` (see `forgetIndexed`); returns the new view.
    public func removingItems(_ keys: Set<String>) throws -> PlistDownloadCache {
        var copy = self
        var (current, format) = try Self.read(anchor)
        for key in keys { current[key] = nil }
        try write(current, format)
        (copy.items) = current
        return copy
    }

    private func write(_ items: [String: [String: Any]], _ format: PropertyListSerialization.PropertyListFormat) throws
    {
        // Not PropertyListSerialization: see PlistObject.
        guard let object = PlistObject(items) else {
            throw StoreError.cannotWrite(root.appending(Self.indexName), "an item holds a value no plist can hold")
        }
        let data: Data
        do { data = try object.encoded(format) } catch {
            throw StoreError.cannotWrite(root.appending(Self.indexName), "\(error)")
        }
        try FileIO.writeAtomically(in: anchor, Self.indexBytes, Array(data))
    }
}
