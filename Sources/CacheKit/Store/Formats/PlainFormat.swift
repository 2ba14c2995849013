import Foundation

/// A plain folder: every file is an entry; partial downloads (`*.part`, `*.partial`,
/// `*.tmp`, `*.download`, `*.crdownload`) are incomplete once older than the grace period;
/// images whose structure is cut short are corrupted. No age rule of its own.
struct PlainFormat: CacheFormat {
    let anchor: AnchoredDirectory
    var kind: CacheFormatKind { .plain }
    static let partialSuffixes = [".part", ".partial", ".tmp", ".download", ".crdownload"]
    /// File by file (`--format plain` said so) rather than by units; nil: decided by the
    /// folder (see `isFileByFile`).
    var declaredFileByFile: Bool? = nil
    /// Top-level names that are (or hold) caches of their own, pruned by their own rules:
    /// not entries of this folder.
    var excluded: Set<[UInt8]> = []

    /// A folder cachectl does not understand is pruned by whole units — each loose file, and
    /// each immediate subdirectory as one unit (its time: its newest file's; its size: its
    /// subtree's) — so no structure inside a subdirectory (a git mirror's packs, a tool's
    /// bookkeeping, a snapshot's links) is ever broken. File by file only when the folder is
    /// tagged with a trusted `CACHEDIR.TAG`, declared with `--format plain`, or holds loose
    /// files only.
    var isFileByFile: Bool {
        if let declaredFileByFile { return declaredFileByFile }
        if CacheDirTag.trust(in: anchor) == .trusted { return true }
        return FileTree.subdirectories(in: anchor).isEmpty
    }

    /// Why the folder is pruned the way it is, in words (README lists the same cases).
    var modeReason: String {
        if declaredFileByFile == true { return "file by file: declared with --format plain" }
        if CacheDirTag.trust(in: anchor) == .trusted { return "file by file: tagged with CACHEDIR.TAG" }
        if FileTree.subdirectories(in: anchor).isEmpty { return "file by file: loose files only" }
        return "by units: each loose file, and each subdirectory whole"
    }

    func entries(_ context: InspectionContext) throws -> [CacheEntry] {
        // A cache with an index inside (a cachectl store, a plist download cache) is not
        // entered: deleting its files as loose ones would leave its index naming bodies that
        // are gone. It is listed as one entry kept outside this folder's pruning.
        var nested: [(relative: [UInt8], kind: CacheFormatKind)] = []
        var units: [[UInt8]] = []
        let tag = Array(CacheDirTag.fileName.utf8)
        let fileByFile = isFileByFile
        let files = FileTree.files(
            in: anchor, skipping: excluded,
            enter: { directory in
                if case .success(let inner) = anchor.anchoring(directory.anchorRelative),
                    let kind = CacheFormats.indexedKind(inner)
                {
                    nested.append((directory.anchorRelative, kind))
                    return false
                }
                if !fileByFile {
                    units.append(directory.anchorRelative)
                    return false
                }
                return true
            })
        let candidates = files.filter { $0.path.lastComponent != tag }
        let kinds = FileKind.of(candidates, in: anchor)
        let (databases, rest) = DatabaseUnits.split(candidates, in: anchor, kinds: kinds)
        let loose: [CacheEntry] =
            rest.map { file, kind in
                let name = String(decoding: file.relative, as: UTF8.self)
                var (state, reason, young) = (EntryState.fresh, "no age rule", false)
                if Self.partialSuffixes.contains(where: { name.hasSuffix($0) }) {
                    if context.isOlderThanGrace(file.lastWritten) {
                        (state, reason) = (
                            .incomplete, "partial download left \(NativeStore.age(file.lastWritten, context)) ago"
                        )
                    } else {
                        (reason, young) = ("partial download within the grace period", true)
                    }
                } else if case .image(let verdict) = kind, let health = ImageHealth.state(verdict, file, context) {
                    (state, reason, young) = health
                }
                var entry = CacheEntry(
                    url: nil, path: file.path, relativePath: file.anchorRelative, allocatedBytes: file.allocatedBytes,
                    apparentBytes: file.apparentBytes, modified: file.modified, state: state, reason: reason)
                entry.inGracePeriod = young
                entry.identity = file.identity
                return entry
            } + databases.map { DatabaseUnits.entry($0.main, $0.companions) }
        return loose + units.compactMap { unit(at: $0, context) }
            + nested.map { relative, kind in
                let inside = FileTree.files(in: anchor, under: relative)
                return CacheEntry(
                    url: nil, path: anchor.path(of: relative),
                    allocatedBytes: inside.reduce(0) { $0 + $1.allocatedBytes },
                    apparentBytes: inside.reduce(0) { $0 + $1.apparentBytes }, modified: inside.map(\.modified).max(),
                    state: .outside,
                    reason: "a separate \(kind.displayName) with its own index; prune it as a root of its own")
            }
    }

    /// A subdirectory as one unit: the bytes its deletion would free (a file hard-linked
    /// from outside the unit frees nothing), its newest file's time.
    func unit(at relative: [UInt8], _ context: InspectionContext) -> CacheEntry? {
        guard case .success(let st) = anchor.status(of: relative), st.isDirectory else { return nil }
        let inside = FileTree.files(in: anchor, under: relative)
        var names: [FileIdentity: UInt64] = [:]
        for file in inside where file.identity.linkCount > 1 { names[file.identity, default: 0] += 1 }
        var (allocated, apparent, shared) = (Int64(0), Int64(0), 0)
        var counted = Set<FileIdentity>()
        for file in inside {
            let id = file.identity
            if id.linkCount > 1 {
                guard names[id] == id.linkCount else {
                    shared += 1
                    continue
                }
                guard counted.insert(id).inserted else { continue }
            }
            allocated += file.allocatedBytes
            apparent += file.apparentBytes
        }
        let newest = inside.map(\.modified).max() ?? st.modified
        var reason =
            "a folder cachectl does not understand, kept whole: \(inside.count) file\(inside.count == 1 ? "" : "s"), "
            + "newest written \(NativeStore.age(newest, context)) ago"
        if shared > 0 { reason += "; \(shared) hard-linked from outside it free nothing" }
        var entry = CacheEntry(
            url: nil, path: anchor.path(of: relative), relativePath: relative, allocatedBytes: allocated,
            apparentBytes: apparent, modified: newest, state: .fresh, reason: reason)
        entry.isUnit = true
        // The directory itself: it is the one deleted, and its identity is checked again.
        entry.identity = FileIdentity(
            device: st.device, inode: st.inode, linkCount: 1, size: st.size, modified: st.modified)
        return entry
    }

    func locate(url: String, _ context: InspectionContext) throws -> CacheEntry? {
        guard URLKey(url) != nil else { throw StoreError.notAURL(url) }
        return nil  // a plain folder's names say nothing about URLs
    }
}
