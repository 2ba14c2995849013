import CacheKitSystem
import Foundation

/// The Hugging Face hub cache (`~/.cache/huggingface/hub`): one folder per repository,
/// `<type>s--<org>--<name>`, holding `refs/<ref>` (a commit hash), `snapshots/<commit>/…`
/// (relative symlinks to `../../blobs/<etag>`) and `blobs/<etag>`; downloads go to
/// `blobs/<etag>[.<8hex>].incomplete` and are renamed into place; `.no_exist/<commit>/<file>`
/// marks a file the hub found missing at a commit (it goes with that revision); `.locks/` and
/// the root's `CACHEDIR.TAG` are bookkeeping (huggingface/huggingface_hub@ee0a4510
/// src/huggingface_hub/file_download.py:645, :720-728, :1064, :1173, :1199-1200, :1942-1949).
/// A revision is one unit: its snapshot folder, the refs naming it and the blobs no other
/// revision links (`delete_revisions`, utils/_cache_manager.py:294-326, :393-500). A revision
/// no ref names is detached — what `hf cache prune` deletes (cli/cache.py:626-700) — so it is
/// expired; one with a link to a missing blob is corrupted; a blob no snapshot links is an
/// orphan; an `.incomplete` blob past the grace period is an interrupted download. Its clock
/// is its blobs' newest access, as the hub's cache scan reports it. Nothing expires by age.
/// Facts: shared/reference/cache-layouts.md §8.
struct HuggingFaceHubFormat: CacheFormat {
    let anchor: AnchoredDirectory
    var kind: CacheFormatKind { .huggingface }
    static let repoPrefixes = ["models--", "datasets--", "spaces--"]

    static func recognises(_ anchor: AnchoredDirectory) -> Bool {
        // The first names only: a folder of a million files is not read twice to say no.
        let repos = CacheFormats.sampleNames(anchor).filter { name in
            let text = String(decoding: name, as: UTF8.self)
            return repoPrefixes.contains { text.hasPrefix($0) }
        }
        return repos.contains {
            anchor.exists($0 + Array("/snapshots".utf8)) || anchor.exists($0 + Array("/blobs".utf8))
        }
    }

    func entries(_ context: InspectionContext) throws -> [CacheEntry] {
        var result: [CacheEntry] = []
        for repo in FileTree.subdirectories(in: anchor) {
            let text = String(decoding: repo, as: UTF8.self)
            guard Self.repoPrefixes.contains(where: { text.hasPrefix($0) }) else { continue }
            result += repoEntries(repo, context)
        }
        return result
    }

    private func repoEntries(_ repo: [UInt8], _ context: InspectionContext) -> [CacheEntry] {
        let slash = [UInt8(ascii: "/")]
        let blobsFolder = repo + Array("/blobs".utf8)
        let blobs = Dictionary(FileTree.files(in: anchor, under: blobsFolder).map { ($0.path.lastComponent, $0) }) {
            a, _ in a
        }
        // Refs: commit → the ref files naming it.
        var refs: [String: [FileTree.File]] = [:]
        for file in FileTree.files(in: anchor, under: repo + Array("/refs".utf8)) {
            guard case .success(let bytes) = anchor.readPrefix(file.anchorRelative, count: 128) else { continue }
            refs[String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines), default: []]
                .append(file)
        }
        // Snapshots: commit → blob names its links resolve to, and links that resolve to none.
        let snapshotsFolder = repo + Array("/snapshots".utf8)
        let (revisions, linkCount) = scanSnapshots(snapshotsFolder, blobs: blobs)
        var result: [CacheEntry] = []
        let plain = PlainFormat(anchor: anchor, declaredFileByFile: false)
        for revision in revisions {
            let folder = snapshotsFolder + slash + revision.commit
            guard var entry = plain.unit(at: folder, context) else { continue }
            let commit = String(decoding: revision.commit, as: UTF8.self)
            entry.url = String(decoding: repo, as: UTF8.self) + "@" + commit
            var newestAccess = entry.modified ?? FileTime(seconds: 0)
            for name in revision.blobs.sorted(by: { $0.lexicographicallyPrecedes($1) }) where linkCount[name] == 1 {
                let blob = blobs[name]!
                entry.companions.append(
                    CacheEntry.Companion(relativePath: blob.anchorRelative, identity: blob.identity))
                entry.allocatedBytes = entry.allocatedBytes.saturatingPlus(blob.allocatedBytes)
                entry.apparentBytes = entry.apparentBytes.saturatingPlus(blob.apparentBytes)
            }
            for name in revision.blobs { if let blob = blobs[name] { newestAccess = max(newestAccess, blob.accessed) } }
            for ref in refs[commit] ?? [] {
                entry.companions.append(CacheEntry.Companion(relativePath: ref.anchorRelative, identity: ref.identity))
            }
            // The files the hub found missing at this commit (`.no_exist/<commit>/…`) go with
            // it: left alone, they would keep a repository folder whose last revision went,
            // without `snapshots/`, which the hub's scan reports as corrupted.
            for marker in FileTree.files(in: anchor, under: repo + Array("/.no_exist/".utf8) + revision.commit) {
                entry.companions.append(
                    CacheEntry.Companion(relativePath: marker.anchorRelative, identity: marker.identity))
            }
            entry.lastAccess = newestAccess
            let named = (refs[commit] ?? []).map { String(decoding: $0.relative, as: UTF8.self) }
            if revision.broken > 0 {
                (entry.state, entry.reason) = (
                    .corrupted, "\(revision.broken) link\(revision.broken == 1 ? "" : "s") to a missing blob"
                )
            } else if named.isEmpty {
                (entry.state, entry.reason) = (
                    .expired, "a detached revision (no ref names it): hf cache prune deletes it"
                )
            } else {
                entry.reason = "the revision \(named.joined(separator: ", ")) names; no age rule"
            }
            result.append(entry)
        }
        result += blobEntries(blobs, linkCount: linkCount, context)
        return result
    }

    /// A snapshot: its commit folder, its files, the blobs its links resolve to, and how many
    /// of its links resolve to none.
    private typealias Revision = (commit: [UInt8], files: [FileTree.File], blobs: Set<[UInt8]>, broken: Int)

    /// Every snapshot of a repository, and for each blob how many snapshots link it.
    private func scanSnapshots(_ snapshotsFolder: [UInt8], blobs: [[UInt8]: FileTree.File])
        -> (revisions: [Revision], linkCount: [[UInt8]: Int])
    {
        let slash = [UInt8(ascii: "/")]
        var revisions: [(commit: [UInt8], files: [FileTree.File], blobs: Set<[UInt8]>, broken: Int)] = []
        var linkCount: [[UInt8]: Int] = [:]
        for commit in FileTree.subdirectories(in: anchor, of: snapshotsFolder) {
            let files = FileTree.files(in: anchor, under: snapshotsFolder + slash + commit)
            var used = Set<[UInt8]>()
            var broken = 0
            for file in files {
                if file.isSymlink, case .success(let target) = anchor.readLink(file.anchorRelative) {
                    let name = Array(target.split(separator: UInt8(ascii: "/")).last ?? [])
                    let pointsIntoBlobs =
                        target.split(separator: UInt8(ascii: "/")).dropLast().last.map(Array.init)
                        == Array("blobs".utf8)
                    if pointsIntoBlobs, blobs[name] != nil {
                        used.insert(name)
                    } else if case .success = Sys.stat(path: file.path) {
                        // A link to a file elsewhere that is there: the hub's scan takes it
                        // (only a link whose target is missing is corrupt,
                        // utils/_cache_manager.py `_scan_cached_repo`).
                        continue
                    } else {
                        broken += 1
                    }
                } else if !file.isSymlink {
                    // A real file in a snapshot (a copy, not a link): part of the revision.
                    continue
                } else {
                    broken += 1
                }
            }
            for name in used { linkCount[name, default: 0] += 1 }
            revisions.append((commit, files, used, broken))
        }
        return (revisions, linkCount)
    }

    /// Blobs not linked by exactly one snapshot: unfinished downloads, blobs several
    /// revisions share (removed with the last of them), and blobs none links (orphans).
    private func blobEntries(
        _ blobs: [[UInt8]: FileTree.File], linkCount: [[UInt8]: Int], _ context: InspectionContext
    ) -> [CacheEntry] {
        var result: [CacheEntry] = []
        for (name, blob) in blobs where linkCount[name] != 1 {
            var entry = CacheEntry(
                url: nil, path: blob.path, relativePath: blob.anchorRelative, allocatedBytes: blob.allocatedBytes,
                apparentBytes: blob.apparentBytes, modified: blob.modified, lastAccess: blob.accessed,
                state: .fresh, reason: "")
            entry.identity = blob.identity
            let old = context.isOlderThanGrace(blob.lastWritten)
            if name.count > 11, name.suffix(11) == Array(".incomplete".utf8) {
                (entry.state, entry.reason) =
                    old
                    ? (.incomplete, "a download left unfinished \(NativeStore.age(blob.lastWritten, context)) ago")
                    : (.fresh, "a download in progress (within the grace period)")
                entry.inGracePeriod = !old
            } else if let count = linkCount[name] {
                entry.removedOnlyWhenNamed = true
                entry.reason = "a blob \(count) revisions link: it goes with the last of them"
            } else {
                (entry.state, entry.reason) =
                    old ? (.orphan, "a blob no snapshot links") : (.fresh, "written within the grace period")
                entry.inGracePeriod = !old
            }
            result.append(entry)
        }
        return result
    }

    var keptDirectories: Set<[UInt8]> { [Array(".locks".utf8)] }

    func locate(url: String, _ context: InspectionContext) throws -> CacheEntry? {
        guard URLKey(url) != nil else { throw StoreError.notAURL(url) }
        return nil  // files of repositories, not URLs
    }
}
