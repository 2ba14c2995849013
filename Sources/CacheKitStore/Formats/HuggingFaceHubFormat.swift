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
/// huggingface_hub 2.x keeps Xet files in a store the whole cache shares (`blobs/<xx>/<hash>`,
/// a repository's blob a link to it): `HuggingFaceSharedStore`. Each payload is an entry the
/// entries linking it hold (`CacheEntry.holds`), swept once none does, by the hub's rule.
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
        } || HuggingFaceSharedStore(anchor) != nil  // its shared store left when the repositories went
    }

    func entries(_ context: InspectionContext) throws -> [CacheEntry] {
        var result: [CacheEntry] = []
        let store = HuggingFaceSharedStore(anchor)
        // The repositories' blobs that link each payload of the shared store, by payload.
        var links: [[UInt8]: [[UInt8]]] = [:]
        for repo in FileTree.subdirectories(in: anchor) {
            let text = String(decoding: repo, as: UTF8.self)
            guard Self.repoPrefixes.contains(where: { text.hasPrefix($0) }) else { continue }
            result += repoEntries(repo, context, store: store, links: &links)
        }
        guard let store else { return result }
        let (payloads, collectable) = store.entries(linkedBy: links, context)
        // A payload that never goes (no readable manifest) frees nothing with its holders.
        let kept = Set(links.keys).subtracting(collectable)
        if !kept.isEmpty {
            for index in result.indices where !result[index].holds.isEmpty {
                result[index].holds.removeAll { kept.contains($0) }
            }
        }
        return result + payloads
    }

    private func repoEntries(
        _ repo: [UInt8], _ context: InspectionContext, store: HuggingFaceSharedStore?,
        links: inout [[UInt8]: [[UInt8]]]
    ) -> [CacheEntry] {
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
        // The blobs that are links into the shared store: the payload each names.
        let shared = store.map { sharedLinks(blobs, $0, links: &links) } ?? SharedLinks()
        var result: [CacheEntry] = []
        let plain = PlainFormat(anchor: anchor, declaredFileByFile: false)
        for revision in revisions {
            let folder = snapshotsFolder + slash + revision.commit
            guard var entry = plain.unit(at: folder, context) else { continue }
            let commit = String(decoding: revision.commit, as: UTF8.self)
            entry.url = String(decoding: repo, as: UTF8.self) + "@" + commit
            let newestAccess = attachBlobs(revision.blobs, to: &entry, blobs, linkCount: linkCount, shared)
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
            let broken = revision.broken + revision.blobs.filter(shared.missing.contains).count
            if broken > 0 {
                (entry.state, entry.reason) = (
                    .corrupted, "\(broken) link\(broken == 1 ? "" : "s") to a missing blob"
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
        result += blobEntries(blobs, linkCount: linkCount, context).map { blob in
            var blob = blob
            if let name = blob.relativePath.map({ Array($0.split(separator: UInt8(ascii: "/")).last ?? []) }),
                let payload = shared.payloadOf[name]
            {
                blob.holds.append(payload)
            }
            return blob
        }
        return result
    }

    /// The blobs a revision links: those only it links go with it (companions, their bytes
    /// its own); those other revisions link too, and payloads of the shared store, are held.
    /// Returns its clock: the newest access of its folder and blobs.
    private func attachBlobs(
        _ names: Set<[UInt8]>, to entry: inout CacheEntry, _ blobs: [[UInt8]: FileTree.File],
        linkCount: [[UInt8]: Int], _ shared: SharedLinks
    ) -> FileTime {
        var newestAccess = entry.modified ?? FileTime(seconds: 0)
        for name in names.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            let blob = blobs[name]!
            // A link into the shared store is read there; its own access time is when it was
            // last read as a link (by this very scan, among others).
            newestAccess = max(newestAccess, shared.access[name] ?? blob.accessed)
            guard linkCount[name] == 1 else {
                // Shared with other revisions: held, and freed with the last of them.
                entry.holds.append(blob.anchorRelative)
                continue
            }
            entry.companions.append(CacheEntry.Companion(relativePath: blob.anchorRelative, identity: blob.identity))
            entry.allocatedBytes = entry.allocatedBytes.saturatingPlus(blob.allocatedBytes)
            entry.apparentBytes = entry.apparentBytes.saturatingPlus(blob.apparentBytes)
            // Its bytes in the shared store: held, and freed with the last blob linking them.
            if let payload = shared.payloadOf[name] { entry.holds.append(payload) }
        }
        return newestAccess
    }

    /// A repository's blobs that link payloads of the shared store.
    private struct SharedLinks {
        /// The payload each such blob names.
        var payloadOf: [[UInt8]: [UInt8]] = [:]
        /// When each was last read: a file read through the links is read there (the hub's
        /// scan reports its access time, following the links).
        var access: [[UInt8]: FileTime] = [:]
        /// Blobs linking a payload that is not there: the hub's scan calls their revisions
        /// corrupted ("Blob missing (broken symlink)"), as it does a link to a missing blob.
        var missing = Set<[UInt8]>()
    }

    /// The blobs of a repository that link payloads of `store`, each added to `links` (the
    /// linking blobs by payload).
    private func sharedLinks(
        _ blobs: [[UInt8]: FileTree.File], _ store: HuggingFaceSharedStore, links: inout [[UInt8]: [[UInt8]]]
    ) -> SharedLinks {
        var shared = SharedLinks()
        for (name, blob) in blobs where blob.isSymlink {
            guard let payload = store.payload(linkedBy: blob.anchorRelative) else { continue }
            shared.payloadOf[name] = payload
            links[payload, default: []].append(blob.anchorRelative)
            switch anchor.status(of: payload) {
            case .success(let st): shared.access[name] = st.accessed
            case .failure: shared.missing.insert(name)
            }
        }
        return shared
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
