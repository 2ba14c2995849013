import Foundation

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
                "Kingfisher: at or over the limit, least recently accessed (creation date) first down to half, "
                + "file sizes (DiskStorage.swift:465-513)")
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
