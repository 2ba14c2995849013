import Foundation

/// Shared rules of the flat, hash-named image caches: one file per entry, each library's own
/// clock, age rule and size rule, images judged by their structure (a cut-short file younger
/// than the grace period is `incomplete`: Kingfisher and Nuke do not write atomically), and a
/// SQLite database found among them kept whole with its companions.
///
/// Facts: shared/reference/cache-formats.md ("Libraries users have today"), each from the
/// library's source (SDWebImage 5.21.5, Kingfisher 8.11.0, PINCache 3.0.4 with PINRemoteImage
/// 3.x, Nuke 13.x); file:line references are to those versions.
protocol FlatImageCache: CacheFormat {
    /// The owner's clock for a file: what its least-recently-used order (and, where the
    /// library says so, its age rule) follows, and the words for it.
    func clock(_ file: FileTree.File) -> (time: FileTime, note: String?)
    /// State by the library's own age rule for an intact file.
    func ageState(_ file: FileTree.File, clock: FileTime, _ context: InspectionContext) -> (EntryState, String)
    /// File names that may hold `url`, most likely first.
    func candidateNames(for url: String) -> [String]
    /// The URL a file name gives back, where the naming is reversible.
    func url(fromName name: String) -> String?
    /// Whether the file holds an archived object rather than raw image bytes (PINCache's
    /// default serializer): never handed to `localize` as an image.
    func isArchive(_ head: [UInt8]) -> Bool
}

extension FlatImageCache {
    func url(fromName name: String) -> String? { nil }
    func isArchive(_ head: [UInt8]) -> Bool { false }

    /// Expired when `clock` is longer ago than `limit` (`rule` names the library's setting).
    func ageLimitState(clock: FileTime, _ context: InspectionContext, limit: Double, rule: String) -> (
        EntryState, String
    ) {
        let age = context.now.timeInterval - clock.timeInterval
        return age > limit ? (.expired, "older than \(rule) (\(NativeStore.span(age)))") : (.fresh, "within \(rule)")
    }

    /// The entry files: every file below the root (SDWebImage keeps one folder per
    /// namespace, `default/`), hidden files (Nuke's `.data-cache-info`) and the tag excepted.
    func files() -> [FileTree.File] {
        FileTree.files(in: anchor).filter { file in
            let name = file.path.lastComponent
            return name.first != UInt8(ascii: ".") && name != Array(CacheDirTag.fileName.utf8)
        }
    }

    func entries(_ context: InspectionContext) throws -> [CacheEntry] {
        let all = files()
        let kinds = FileKind.of(all, in: anchor)
        let (databases, rest) = DatabaseUnits.split(all, in: anchor, kinds: kinds)
        return rest.map { entry(for: $0.0, kind: $0.1, context) }
            + databases.map { DatabaseUnits.entry($0.main, $0.companions) }
    }

    func entry(for file: FileTree.File, kind: FileKind, _ context: InspectionContext) -> CacheEntry {
        let (clock, note) = self.clock(file)
        var state: EntryState
        var reason: String
        var young = false
        if !file.isRegular {
            (state, reason) = (
                .corrupted, file.isSymlink ? "a symlink where an image file belongs" : "not a regular file"
            )
        } else if file.apparentBytes == 0, let health = ImageHealth.state(in: anchor, file, context) {
            (state, reason, young) = health
        } else if case .image(let verdict) = kind, let health = ImageHealth.state(verdict, file, context) {
            (state, reason, young) = health
        } else {
            (state, reason) = ageState(file, clock: clock, context)
        }
        if let note { reason += " (\(note))" }
        let name = String(decoding: file.path.lastComponent, as: UTF8.self)
        var entry = CacheEntry(
            url: url(fromName: name), path: file.path, relativePath: file.anchorRelative,
            allocatedBytes: file.allocatedBytes, apparentBytes: file.apparentBytes,
            modified: file.modified, lastAccess: clock, state: state, reason: reason)
        entry.inGracePeriod = young
        entry.identity = file.identity
        return entry
    }

    func locate(url: String, _ context: InspectionContext) throws -> CacheEntry? {
        guard URLKey(url) != nil else { throw StoreError.notAURL(url) }
        // The root and its namespace folders (SDWebImage's `default/`), probed by name.
        let folders: [[UInt8]] = [[]] + FileTree.subdirectories(in: anchor).filter { $0.first != UInt8(ascii: ".") }
        for name in candidateNames(for: url) {
            for folder in folders {
                let relative = folder.isEmpty ? Array(name.utf8) : folder + [UInt8(ascii: "/")] + Array(name.utf8)
                guard AnchoredDirectory.isValidRelative(relative), case .success(let st) = anchor.status(of: relative),
                    !st.isDirectory
                else { continue }
                let file = FileTree.File(
                    path: anchor.path(of: relative), relative: Array(name.utf8), anchorRelative: relative, stat: st)
                var entry = entry(for: file, kind: FileKind.of(file, in: anchor), context)
                entry.url = url
                if case .success(let head) = anchor.readPrefix(relative, count: 16), isArchive(head) {
                    entry.inlineBody = true
                }
                return entry
            }
        }
        return nil
    }
}

// MARK: - SDWebImage

/// The extension SDWebImage 5 appends to the MD5 name: the URL path's extension (the query
/// is not part of it), cut at a `:` (`a.jpg:large` → `jpg`), dropped when longer than 222
/// characters (NAME_MAX − 32 − 1) (SDDiskCache.m:345-387).
func urlPathExtension(_ url: String) -> String? {
    let path: String
    if let components = URLComponents(string: url) {
        path = components.path
    } else {
        path = String(url.prefix { $0 != "?" && $0 != "#" })
    }
    let last = path.split(separator: "/").last.map(String.init) ?? ""
    guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return nil }
    var ext = String(last[last.index(after: dot)...])
    if let colon = ext.firstIndex(of: ":") { ext = String(ext[..<colon]) }
    ext = ext.replacingOccurrences(of: "\0", with: "")
    return ext.isEmpty || ext.utf16.count > 222 ? nil : ext
}

/// SDWebImage 5.x (≥ 5.20): MD5 names plus the URL path's extension; `maxDiskAge` 7 days
/// measured by the **access date** (`diskCacheExpireType` defaults to `.accessDate`,
/// SDImageCacheConfig.m:37), which SDWebImage sets itself on every read (SDDiskCache.m:74,83),
/// so it is right even on noatime mounts; the size trim goes oldest-by-that-date first until
/// the allocated total is **strictly below** half the cap (SDDiskCache.m:219-241).
struct SDWebImageFormat: FlatImageCache {
    let anchor: AnchoredDirectory
    var kind: CacheFormatKind { .sdwebimage }
    static let maxDiskAge: Double = 7 * 86_400

    func clock(_ file: FileTree.File) -> (time: FileTime, note: String?) { (file.accessed, nil) }

    func ageState(_ file: FileTree.File, clock: FileTime, _ context: InspectionContext) -> (EntryState, String) {
        ageLimitState(
            clock: clock, context, limit: Self.maxDiskAge, rule: "SDWebImage's 7-day maxDiskAge, by access date")
    }

    var sizeRule: SizeRule {
        SizeRule(
            ratio: 0.5, metric: .allocated, trimsAtLimit: false, stopsStrictlyBelow: true,
            owner:
                "SDWebImage: oldest access first until strictly below half the cap, allocated bytes (SDDiskCache.m:219-241)"
        )
    }

    func candidateNames(for url: String) -> [String] {
        // MD5 of the key's UTF-8 up to a NUL (CC_MD5 over strlen), with the extension, then
        // without it (lookups fall back so, SDDiskCache.m:78-85).
        let key = url.firstIndex(of: "\0").map { String(url[..<$0]) } ?? url
        let hash = Digest.md5(key)
        return (urlPathExtension(url).map { [hash + "." + $0] } ?? []) + [hash]
    }
}

// MARK: - Kingfisher

/// Kingfisher 8.x: SHA-256 names (MD5 up to 7.x) of the cache key (`url@processor` for a
/// processed image), with `.ext` when `pathExtension` is set or `autoExtAfterHashedFileName`
/// is on (DiskStorage.swift:390-410). Each file's **modification date holds its expiry date**
/// (expired when ≤ now; `.never` is far future) and its **creation date its last access**;
/// the size trim counts **file sizes**, starts when the total is ≥ the limit, and removes
/// the least recently accessed down to half of it (DiskStorage.swift:465-513). The creation
/// date is the file's birth time (statx STATX_BTIME on Linux, st_birthtime on macOS); where
/// the file system records none, the modification date stands in, and the reason says so.
struct KingfisherFormat: FlatImageCache {
    let anchor: AnchoredDirectory
    var kind: CacheFormatKind { .kingfisher }

    func clock(_ file: FileTree.File) -> (time: FileTime, note: String?) {
        if let born = file.born { return (born, nil) }
        return (file.modified, "no birth time on this file system: last access taken from the modification date")
    }

    func ageState(_ file: FileTree.File, clock: FileTime, _ context: InspectionContext) -> (EntryState, String) {
        file.modified <= context.now
            ? (.expired, "Kingfisher's expiry date (held in the modification date) has passed")
            : (.fresh, "Kingfisher's expiry date is still ahead")
    }

    var sizeRule: SizeRule {
        SizeRule(
            ratio: 0.5, metric: .apparent, trimsAtLimit: true, stopsStrictlyBelow: false,
            owner:
                "Kingfisher: at or over the limit, least recently accessed (creation date) first down to half, file sizes "
                + "(DiskStorage.swift:465-513)")
    }

    func candidateNames(for url: String) -> [String] {
        let ext = urlPathExtension(url).map { "." + $0 }
        var names: [String] = []
        for hash in [Digest.sha256(url), Digest.md5(url)] {
            names.append(hash)
            if let ext { names.append(hash + ext) }
        }
        return names
    }
}

// MARK: - Nuke

/// Nuke's DataCache (13.x): `com.github.kean.Nuke.DataCache/` with a hidden
/// `.data-cache-info`; SHA-1 names without extension (DataCache.swift:122); no age rule; the
/// sweep removes the least recently **accessed** (Nuke sets the access date on every read,
/// DataCache.swift:165-167) down to **0.7** of `sizeLimit` (DataCache.swift:37,42,347-371).
struct NukeFormat: FlatImageCache {
    let anchor: AnchoredDirectory
    var kind: CacheFormatKind { .nuke }

    func clock(_ file: FileTree.File) -> (time: FileTime, note: String?) { (file.accessed, nil) }

    func ageState(_ file: FileTree.File, clock: FileTime, _ context: InspectionContext) -> (EntryState, String) {
        (.fresh, "Nuke's DataCache has no age rule")
    }

    var sizeRule: SizeRule {
        SizeRule(
            ratio: 0.7, metric: .allocated, trimsAtLimit: false, stopsStrictlyBelow: false,
            owner: "Nuke: least recently accessed first down to 0.7 of the limit (DataCache.swift:347-371)")
    }

    func candidateNames(for url: String) -> [String] { [Digest.sha1(url)] }
}

// MARK: - PINCache

/// PINCache 3.x: the key percent-encoded (only `. : / %`, reversible); no age rule unless
/// the app sets `ageLimit` (or a per-object TTL in the xattr
/// `com.pinterest.PINDiskCache.ageLimit`): then creation date + limit; PINCache bumps the
/// modification date on every read, and trims the least recently modified down to the
/// byte limit itself, allocated bytes (PINDiskCache.m:832-885). PINRemoteImage stores a key
/// longer than 200 UTF-16 units as the lower-case hex MD5 of its UTF-8
/// (`PINRemoteImageManagerCacheKeyMaxLength`, PINRemoteImageManager.m:50, and
/// `-cacheKeyForURL:processorKey:resume:`, at pinterest/PINRemoteImage@db3cabe5); its own
/// cache (`com.pinterest.PINDiskCache.PINRemoteImageManagerCache`) keeps raw image bytes.
/// PINCache's default serializer writes NSKeyedArchiver archives: those are never handed to
/// `localize`, and `cat` gives the archived data back.
struct PINCacheFormat: FlatImageCache {
    let anchor: AnchoredDirectory
    var kind: CacheFormatKind { .pincache }
    static let ageLimitAttribute = "com.pinterest.PINDiskCache.ageLimit"
    /// PINRemoteImage's longest key kept as is, in UTF-16 units (`NSString.length`); longer
    /// ones are stored under their MD5 (PINRemoteImageManager.m:50).
    static let maxKeyLength = 200

    func clock(_ file: FileTree.File) -> (time: FileTime, note: String?) { (file.modified, nil) }

    func ageState(_ file: FileTree.File, clock: FileTime, _ context: InspectionContext) -> (EntryState, String) {
        guard let limit = Self.ageLimit(anchor, file.anchorRelative) else {
            return (.fresh, "PINCache has no age limit unless the app sets one")
        }
        let created = file.born ?? file.modified
        return context.now.timeInterval - created.timeInterval > limit
            ? (.expired, "older than its ageLimit of \(NativeStore.span(limit)) (xattr \(Self.ageLimitAttribute))")
            : (.fresh, "within its ageLimit of \(NativeStore.span(limit))")
    }

    /// The per-object age limit PINCache keeps in an extended attribute (a binary double, as
    /// PINDiskCache's setxattr writes it, or text). Copied to Linux (rsync -X, tar --xattrs)
    /// the attribute lives in the `user.` namespace.
    static func ageLimit(_ anchor: AnchoredDirectory, _ relative: [UInt8]) -> Double? {
        guard case .success(let fd) = anchor.open(relative, O_RDONLY | O_NONBLOCK) else { return nil }
        #if os(Linux)
            let names = ["user." + ageLimitAttribute]
        #else
            let names = [ageLimitAttribute]
        #endif
        guard
            let value = names.lazy.compactMap({ name -> [UInt8]? in
                if case .success(let value?) = Sys.extendedAttribute(fd.raw, name) { return value }
                return nil
            }).first
        else { return nil }
        if let text = Double(String(decoding: value, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)),
            text > 0
        {
            return text
        }
        if value.count == 8 {
            let bits = value.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
            let seconds = Double(bitPattern: UInt64(littleEndian: bits))
            if seconds.isFinite && seconds > 0 { return seconds }
        }
        return nil
    }

    var sizeRule: SizeRule {
        SizeRule(
            ratio: 1.0, metric: .allocated, trimsAtLimit: false, stopsStrictlyBelow: false,
            owner:
                "PINCache: least recently modified first down to the byte limit itself, allocated bytes (PINDiskCache.m:832-885)"
        )
    }

    func isArchive(_ head: [UInt8]) -> Bool { head.starts(with: Array("bplist00".utf8)) }

    func candidateNames(for url: String) -> [String] {
        let encoded = Self.encodeName(url)
        return url.utf16.count > Self.maxKeyLength ? [Digest.md5(url), encoded] : [encoded]
    }

    func url(fromName name: String) -> String? { Self.decodeName(name) }

    /// An archived object's data (`NSData` at the archive's root).
    func inlineBody(_ entry: CacheEntry) throws -> [UInt8]? {
        guard let relative = entry.relativePath, case .success(let bytes) = anchor.readAll(relative) else { return nil }
        return KeyedArchive.decode(bytes)?.data
    }

    static func encodeName(_ key: String) -> String {
        var out: [UInt8] = []
        for byte in key.utf8 {
            switch byte {
            case UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "%"):
                out += Array("%\(String(byte, radix: 16, uppercase: true))".utf8)
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func decodeName(_ name: String) -> String? {
        guard name.contains("%") else { return nil }
        return name.removingPercentEncoding
    }
}
