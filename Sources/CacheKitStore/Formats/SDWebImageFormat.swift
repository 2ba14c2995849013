import Foundation

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
                """
                SDWebImage: oldest access first until strictly below half the cap, allocated bytes \
                (SDDiskCache.m:219-241)
                """
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
