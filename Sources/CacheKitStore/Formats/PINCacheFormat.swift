import Foundation

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
                """
                PINCache: least recently modified first down to the byte limit itself, allocated bytes \
                (PINDiskCache.m:832-885)
                """
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
