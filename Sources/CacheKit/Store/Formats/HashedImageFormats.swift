import Foundation

/// Shared rules of the flat, hash-named image caches: one file per entry, zero-length or
/// truncated images are corrupted, age rules differ per library.
protocol FlatImageCache: CacheFormat {
    /// State by the library's own age rule for an intact file.
    func ageState(_ file: FileTree.File, _ context: InspectionContext) -> (EntryState, String)
    /// File names that may hold `url`, most likely first.
    func candidateNames(for url: String) -> [String]
    /// The URL a file name gives back, where the naming is reversible.
    func url(fromName name: String) -> String?
}

extension FlatImageCache {
    func url(fromName name: String) -> String? { nil }

    /// Expired when modified longer ago than `limit` (`rule` names the library's setting).
    func ageLimitState(_ file: FileTree.File, _ context: InspectionContext, limit: Double, rule: String) -> (EntryState, String) {
        let age = context.now.timeInterval - file.modified.timeInterval
        return age > limit ? (.expired, "older than \(rule) (\(NativeStore.span(age)))") : (.fresh, "within \(rule)")
    }

    /// The entry files: every file below the root (SDWebImage keeps one folder per
    /// namespace, `default/`), hidden files and the tag excepted.
    func files() -> [FileTree.File] {
        FileTree.files(in: anchor).filter { file in
            let name = file.path.lastComponent
            return name.first != UInt8(ascii: ".") && name != Array(CacheDirTag.fileName.utf8)
        }
    }

    func entries(_ context: InspectionContext) throws -> [CacheEntry] {
        files().map { entry(for: $0, context) }
    }

    func entry(for file: FileTree.File, _ context: InspectionContext) -> CacheEntry {
        var state: EntryState
        var reason: String
        if !file.isRegular {
            (state, reason) = (.corrupted, file.isSymlink ? "a symlink where an image file belongs" : "not a regular file")
        } else if file.apparentBytes == 0 {
            (state, reason) = (.corrupted, "zero-length body")
        } else if let cut = ImageSignature.truncation(in: anchor, file.anchorRelative, size: file.apparentBytes) {
            (state, reason) = (.corrupted, cut)
        } else {
            (state, reason) = ageState(file, context)
        }
        let name = String(decoding: file.path.lastComponent, as: UTF8.self)
        var entry = CacheEntry(url: url(fromName: name), path: file.path, relativePath: file.anchorRelative,
                               allocatedBytes: file.allocatedBytes, apparentBytes: file.apparentBytes,
                               modified: file.modified, state: state, reason: reason)
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
                guard case .success(let st) = anchor.status(of: relative), !st.isDirectory else { continue }
                var entry = entry(for: FileTree.File(path: anchor.path(of: relative), relative: Array(name.utf8),
                                                     anchorRelative: relative, stat: st), context)
                entry.url = url
                return entry
            }
        }
        return nil
    }
}

/// The path extension SDWebImage 5 appends: from the URL's path (query ignored), dropped
/// when longer than 222 characters.
func urlPathExtension(_ url: String) -> String? {
    guard let components = URLComponents(string: url) else { return nil }
    let last = components.path.split(separator: "/").last.map(String.init) ?? ""
    guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return nil }
    let ext = String(last[last.index(after: dot)...])
    return ext.isEmpty || ext.count > 222 ? nil : ext
}

/// SDWebImage 5.x: MD5 names plus the URL path's extension, 7-day `maxDiskAge`.
struct SDWebImageFormat: FlatImageCache {
    let anchor: AnchoredDirectory
    var kind: CacheFormatKind { .sdwebimage }
    static let maxDiskAge: Double = 7 * 86_400

    func ageState(_ file: FileTree.File, _ context: InspectionContext) -> (EntryState, String) {
        // Measured by modification date: the OS does not maintain access dates (SDWebImage #2964).
        ageLimitState(file, context, limit: Self.maxDiskAge, rule: "SDWebImage's 7-day maxDiskAge")
    }

    func candidateNames(for url: String) -> [String] {
        let hash = Digest.md5(url)
        return (urlPathExtension(url).map { [hash + "." + $0] } ?? []) + [hash]
    }
}

/// Kingfisher: SHA-256 names (8.x; MD5 before), expiry held in the modification date.
struct KingfisherFormat: FlatImageCache {
    let anchor: AnchoredDirectory
    var kind: CacheFormatKind { .kingfisher }

    func ageState(_ file: FileTree.File, _ context: InspectionContext) -> (EntryState, String) {
        file.modified <= context.now ? (.expired, "Kingfisher's expiry date (held in the modification date) has passed")
            : (.fresh, "Kingfisher's expiry date is still ahead")
    }

    func candidateNames(for url: String) -> [String] { [Digest.sha256(url), Digest.md5(url)] }
}

/// Nuke DataCache: SHA-1 names, no age rule.
struct NukeFormat: FlatImageCache {
    let anchor: AnchoredDirectory
    var kind: CacheFormatKind { .nuke }

    func ageState(_ file: FileTree.File, _ context: InspectionContext) -> (EntryState, String) {
        (.fresh, "Nuke's DataCache has no age rule")
    }

    func candidateNames(for url: String) -> [String] { [Digest.sha1(url)] }
}

/// PINCache 3.x: the key percent-encoded (only `. : / %`), age limit 30 days from creation.
struct PINCacheFormat: FlatImageCache {
    let anchor: AnchoredDirectory
    var kind: CacheFormatKind { .pincache }
    static let ageLimit: Double = 30 * 86_400

    func ageState(_ file: FileTree.File, _ context: InspectionContext) -> (EntryState, String) {
        // Creation dates do not survive copies to Linux; the modification date stands in.
        ageLimitState(file, context, limit: Self.ageLimit, rule: "PINCache's 30-day ageLimit")
    }

    func candidateNames(for url: String) -> [String] { [Self.encodeName(url)] }
    func url(fromName name: String) -> String? { Self.decodeName(name) }

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
