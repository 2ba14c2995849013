import Foundation

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
