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
