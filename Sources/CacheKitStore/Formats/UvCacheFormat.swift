import Foundation

/// uv's cache (`~/.cache/uv`, `UV_CACHE_DIR`), which uv tags with `CACHEDIR.TAG`: versioned
/// buckets (`archive-v0`, `wheels-v8`, `simple-v28`, `sdists-v11`, `interpreter-v5`,
/// `environments-v2`, `git-v0`, `builds-v0`, …) under one lock file, `.lock`.
///
/// Facts from astral-sh/uv crates/uv-cache/src/lib.rs (`Cache::prune`,
/// `find_archive_references_in`, `create_link`, `with_shared_lock`) and crates/uv-fs
/// locked_file.rs, checked against this machine's uv 0.13.9:
/// - `archive-v0/<id>/` is an unpacked wheel, hard-linked or copied into environments; it is
///   used through symbolic links to it from the other buckets (`wheels-v8/pypi/idna/3.20-py3-
///   none-any` → `../../../archive-v0/<id>`). uv trusts an archive that is there: one missing a
///   file installs broken ("The wheel is invalid: Missing .dist-info directory"), one missing
///   whole is a cache miss. So an archive is one unit, deleted whole with the links to it; one
///   no link names is what `uv cache prune` removes ("dangling cache archive").
/// - Every uv process holds a shared `flock` on `.lock` while it uses the cache; `uv cache
///   clean` and `prune` take it exclusively. Every deletion here is made under that lock,
///   taken exclusively without waiting: while uv runs, nothing is deleted.
/// - A bucket whose name another bucket has with a higher version is an older uv's: uv's prune
///   removes the buckets it does not know (an unpacked wheel, in any version, goes by its links).
/// - Pointer buckets (`wheels`, `simple`, `flat-index`, `interpreter`, `sdists`) hold small
///   files, each its own entry; in `sdists`, a built revision (a folder holding
///   `metadata.msgpack`, with its unpacked source in `src/`) is one unit. Any other bucket
///   (environments, build environments, git checkouts, a bucket of a newer uv) is a unit per
///   folder in it. Locks (`*.lock`), `.gitignore`, `.git` and the files at the top are uv's
///   bookkeeping, never entries. uv has no age rule and no size cap.
struct UvCacheFormat: CacheFormat {
    let anchor: AnchoredDirectory
    var kind: CacheFormatKind { .uv }
    static let lockName = Array(".lock".utf8)
    /// Buckets of small files, each its own entry.
    static let pointerBuckets: Set<String> = ["wheels", "simple", "flat-index", "interpreter", "sdists"]

    static func recognises(_ anchor: AnchoredDirectory) -> Bool {
        guard anchor.exists(Array(CacheDirTag.fileName.utf8)),
            case .success(let archive) = anchor.status(of: Array("archive-v0".utf8)), archive.isDirectory
        else { return false }
        return CacheFormats.sampleNames(anchor).contains { name in
            bucket(name).map { pointerBuckets.contains($0.stem) } ?? false
        }
    }

    /// A bucket's name split: `wheels-v8` is ("wheels", 8).
    static func bucket(_ name: [UInt8]) -> (stem: String, version: Int)? {
        let text = String(decoding: name, as: UTF8.self)
        guard let dash = text.range(of: "-v", options: .backwards), dash.lowerBound > text.startIndex,
            let version = Int(text[dash.upperBound...]), version >= 0,
            text[dash.upperBound...].allSatisfy(\.isASCII),
            text[..<dash.lowerBound].allSatisfy({ ($0 >= "a" && $0 <= "z") || $0 == "-" })
        else { return nil }
        return (String(text[..<dash.lowerBound]), version)
    }

    var sizeRule: SizeRule {
        SizeRule(
            ratio: 0.5, metric: .allocated, trimsAtLimit: false, stopsStrictlyBelow: false,
            owner: "uv has no size cap (only `uv cache prune`); the seed design's half, least recently used first")
    }

    /// What the walk of the buckets found: entries, and the links into the archive bucket.
    private struct Found {
        var entries: [CacheEntry] = []
        /// Archive path (`archive-v0/<id>`) → the links naming it.
        var links: [[UInt8]: [FileTree.File]] = [:]
    }

    func entries(_ context: InspectionContext) throws -> [CacheEntry] {
        guard case .success(let top) = DirectoryListing.names(anchor.descriptor.raw) else {
            throw StoreError.cannotRead(anchor.path, "cannot list the cache")
        }
        var newest: [String: Int] = [:]
        for name in top {
            if let bucket = Self.bucket(name) { newest[bucket.stem] = max(newest[bucket.stem] ?? 0, bucket.version) }
        }
        var found = Found()
        var archives: [[UInt8]] = []
        for name in top.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            guard case .success(let st) = anchor.status(of: name), st.isDirectory else { continue }
            guard let bucket = Self.bucket(name) else {
                if isTemporary(name) { found.entries += units(in: [], only: name, context) }
                continue
            }
            let (stem, version) = bucket
            let older = version < newest[stem, default: version]
            var bucketEntries: [CacheEntry] = []
            if stem == "archive" {
                // In any version: an unpacked wheel goes by whether a link names it.
                archives += FileTree.subdirectories(in: anchor, of: name).map { name + [UInt8(ascii: "/")] + $0 }
            } else if Self.pointerBuckets.contains(stem) {
                walkPointers(name, into: &found, entries: &bucketEntries, context)
            } else {
                bucketEntries = units(in: name, context)
            }
            if older {
                for i in bucketEntries.indices where bucketEntries[i].state == .fresh {
                    bucketEntries[i].state = .orphan
                    let bucketName = String(decoding: name, as: UTF8.self)
                    bucketEntries[i].reason =
                        "in \(bucketName), a bucket of an older uv (\(stem)-v\(newest[stem]!) is there): "
                        + "`uv cache prune` removes it"
                }
            }
            found.entries += bucketEntries
        }
        for archive in archives {
            if let entry = archiveUnit(archive, links: found.links[archive] ?? [], context) {
                found.entries.append(entry)
            }
        }
        for i in found.entries.indices { found.entries[i].ownerLock = Self.lockName }
        return found.entries
    }

    /// uv's temporary folders (`tempfile`'s `.tmpXXXXXX`).
    private func isTemporary(_ name: [UInt8]) -> Bool { name.starts(with: Array(".tmp".utf8)) }

    /// The files of a pointer bucket, each an entry; a link into the archive bucket goes with
    /// its archive instead; an `sdists` revision is a unit.
    private func walkPointers(
        _ bucket: [UInt8], into found: inout Found, entries: inout [CacheEntry], _ context: InspectionContext
    ) {
        var wholes: [[UInt8]] = []
        let files = FileTree.files(in: anchor, under: bucket) { directory in
            let name = AnchoredDirectory.split(directory.anchorRelative).name
            if isTemporary(name) || directory.names?.contains(Array("metadata.msgpack".utf8)) == true {
                wholes.append(directory.anchorRelative)
                return false
            }
            return true
        }
        var byPath: [[UInt8]: FileTree.File] = [:]
        for file in files {
            let name = file.path.lastComponent
            if name.hasSuffixBytes(".lock") || name == Array(".gitignore".utf8) || name == Array(".git".utf8) {
                continue
            }
            byPath[file.anchorRelative] = file
        }
        // A link to an archive, with the pointers beside it that name the same archive
        // (`<link>.rev`, `<link>.http`: a pointer to an archive that is gone is an error to uv,
        // "failed to read directory"), goes with the archive.
        var claimed = Set<[UInt8]>()
        for file in files where file.isSymlink {
            guard let archive = archiveNamed(by: file) else { continue }
            let parts = [file] + [".rev", ".http"].compactMap { byPath[file.anchorRelative + Array($0.utf8)] }
            found.links[archive, default: []] += parts
            claimed.formUnion(parts.map(\.anchorRelative))
        }
        for file in files where byPath[file.anchorRelative] != nil && !claimed.contains(file.anchorRelative) {
            var entry = CacheEntry(
                url: nil, path: file.path, relativePath: file.anchorRelative, allocatedBytes: file.allocatedBytes,
                apparentBytes: file.apparentBytes, modified: file.modified, lastAccess: file.modified, state: .fresh,
                reason: "uv has no age rule (it revalidates what it fetched)")
            entry.identity = file.identity
            entries.append(entry)
        }
        for whole in wholes {
            entries += units(in: [], only: whole, context)
            // A built revision's unzipped wheel is a link to an archive too (uv counts it,
            // `find_archive_references_in`): the archive is in use; deleting it takes the link
            // first, as `uv cache prune --ci` removes it (uv unzips the revision's wheel again).
            for file in FileTree.files(in: anchor, under: whole, recursive: false) where file.isSymlink {
                if let archive = archiveNamed(by: file) { found.links[archive, default: []].append(file) }
            }
        }
    }

    /// The archive (`archive-v0/<id>`) a link names, when it names one of this cache's.
    private func archiveNamed(by link: FileTree.File) -> [UInt8]? {
        guard case .success(let target) = anchor.readLink(link.anchorRelative) else { return nil }
        // Relative, as uv makes them (`../../../archive-v0/<id>`), from the link's folder.
        var parts = AnchoredDirectory.split(link.anchorRelative).parent.split(separator: UInt8(ascii: "/")).map(
            Array.init)
        for part in target.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).map(Array.init) {
            if part == Array("..".utf8) {
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            } else if part != Array(".".utf8) {
                parts.append(part)
            }
        }
        guard target.first != UInt8(ascii: "/"), parts.count == 2, Self.bucket(parts[0])?.stem == "archive" else {
            return nil
        }
        return parts[0] + [UInt8(ascii: "/")] + parts[1]
    }

    /// An archive as one unit, with the links naming it: fresh while a link names it, else an
    /// orphan once past the grace period.
    private func archiveUnit(_ relative: [UInt8], links: [FileTree.File], _ context: InspectionContext) -> CacheEntry? {
        guard var entry = PlainFormat(anchor: anchor).unit(at: relative, context) else { return nil }
        entry.companionsFirst = true
        let linkCount = links.filter(\.isSymlink).count
        for link in links {
            entry.companions.append(CacheEntry.Companion(relativePath: link.anchorRelative, identity: link.identity))
            entry.allocatedBytes = entry.allocatedBytes.saturatingPlus(link.allocatedBytes)
            entry.apparentBytes = entry.apparentBytes.saturatingPlus(link.apparentBytes)
        }
        let used = ([entry.modified] + links.map(\.modified)).compactMap { $0 }.max()
        entry.lastAccess = used
        if linkCount > 0 {
            entry.reason =
                "an unpacked wheel uv links from \(linkCount) place\(linkCount == 1 ? "" : "s"), deleted whole after "
                + "the links and pointers to it"
        } else if context.isOlderThanGrace(used) {
            (entry.state, entry.reason) = (.orphan, "an unpacked wheel no link names: `uv cache prune` removes it")
        } else {
            (entry.reason, entry.inGracePeriod) = ("an unpacked wheel being made (within the grace period)", true)
        }
        return entry
    }

    /// Each folder (a unit) and file directly in `bucket` (or the one folder `only`); a
    /// temporary folder past the grace period is incomplete.
    private func units(in bucket: [UInt8], only: [UInt8]? = nil, _ context: InspectionContext) -> [CacheEntry] {
        let children: [[UInt8]]
        if let only {
            children = [only]
        } else {
            guard case .success(let directory) = anchor.openDirectory(bucket),
                case .success(let names) = DirectoryListing.names(directory.raw)
            else { return [] }
            children = names.filter { !$0.hasSuffixBytes(".lock") && $0 != Array(".gitignore".utf8) }
                .map { bucket + [UInt8(ascii: "/")] + $0 }
        }
        var out: [CacheEntry] = []
        for child in children {
            let name = AnchoredDirectory.split(child).name
            if var unit = PlainFormat(anchor: anchor).unit(at: child, context) {
                unit.lastAccess = unit.modified
                if isTemporary(name) {
                    let old = context.isOlderThanGrace(unit.modified)
                    (unit.state, unit.reason, unit.inGracePeriod) =
                        old
                        ? (.incomplete, "a temporary folder an interrupted uv left", false)
                        : (.fresh, "being written (within the grace period)", true)
                } else {
                    unit.reason = "a folder of uv's, deleted whole"
                }
                out.append(unit)
            } else if case .success(let st) = anchor.status(of: child), st.isRegular || st.isSymlink {
                var entry = CacheEntry(
                    url: nil, path: anchor.path(of: child), relativePath: child, allocatedBytes: st.allocatedBytes,
                    apparentBytes: st.apparentBytes, modified: st.modified, lastAccess: st.modified, state: .fresh,
                    reason: "uv has no age rule")
                entry.identity = FileIdentity(st)
                out.append(entry)
            }
        }
        return out
    }

    func locate(url: String, _ context: InspectionContext) throws -> CacheEntry? {
        guard URLKey(url) != nil else { throw StoreError.notAURL(url) }
        return nil  // uv keys its entries by package and index, not by URL
    }
}

extension Array where Element == UInt8 {
    fileprivate func hasSuffixBytes(_ suffix: String) -> Bool {
        count >= suffix.utf8.count && self.suffix(suffix.utf8.count).elementsEqual(suffix.utf8)
    }
}
