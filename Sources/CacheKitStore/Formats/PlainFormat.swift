import Foundation

/// A plain folder: every file is an entry; partial downloads (`*.part`, `*.partial`,
/// `*.tmp`, `*.download`, `*.crdownload`) are incomplete once older than the grace period;
/// images whose structure is cut short are corrupted. No age rule of its own.
package struct PlainFormat: CacheFormat {
    package let anchor: AnchoredDirectory
    package var kind: CacheFormatKind { .plain }
    static let partialSuffixes = [".part", ".partial", ".tmp", ".download", ".crdownload"]
    /// File by file (`--format plain` said so) rather than by units; nil: decided by the
    /// folder (see `isFileByFile`).
    var declaredFileByFile: Bool? = nil

    package init(anchor: AnchoredDirectory, declaredFileByFile: Bool? = nil) {
        self.anchor = anchor
        self.declaredFileByFile = declaredFileByFile
    }
    /// Top-level names that are (or hold) caches of their own, pruned by their own rules:
    /// not entries of this folder.
    package var excluded: Set<[UInt8]> = []

    /// A folder cachectl does not understand is pruned by whole units — each loose file, and
    /// each immediate subdirectory as one unit (its time: its newest file's; its size: its
    /// subtree's) — so no structure inside a subdirectory (a git mirror's packs, a tool's
    /// bookkeeping, a snapshot's links) is ever broken. File by file only when the folder is
    /// declared with `--format plain` or holds loose files only. A `CACHEDIR.TAG` says the
    /// folder's contents may be deleted, not each file on its own: borg's cache (tagged) lost
    /// its `chunks` file to a file-by-file trim and `borg create` failed from then on.
    var isFileByFile: Bool {
        if let declaredFileByFile { return declaredFileByFile }
        return FileTree.subdirectories(in: anchor).isEmpty
    }

    /// Why the folder is pruned the way it is, in words (README lists the same cases).
    var modeReason: String {
        if declaredFileByFile == true { return "file by file: declared with --format plain" }
        if FileTree.subdirectories(in: anchor).isEmpty { return "file by file: loose files only" }
        return "by units: each loose file, and each subdirectory whole"
    }

    package func entries(_ context: InspectionContext) throws -> [CacheEntry] { Array(try entryTable(context)) }

    /// Every file, stored compactly as the walk finds it (a large plain folder is what `prune`
    /// meets with millions of files): loose files in walk order, then the SQLite databases
    /// (each one unit with its companions), then the units, then the nested caches.
    package func entryTable(_ context: InspectionContext) throws -> CacheEntries {
        // A cache with an index inside (a cachectl store, a plist download cache) is not
        // entered: deleting its files as loose ones would leave its index naming bodies that
        // are gone. It is listed as one entry kept outside this folder's pruning.
        var nested: [(relative: [UInt8], kind: CacheFormatKind)] = []
        var units: [[UInt8]] = []
        let tag = Array(CacheDirTag.fileName.utf8)
        let fileByFile = isFileByFile
        var table = CacheEntries()
        let enter = { (directory: FileTree.Subdirectory) -> Bool in
            if directory.names.map(CacheFormats.mayHoldIndex) ?? true,
                case .success(let inner) = anchor.anchoring(directory.anchorRelative, opened: directory.descriptor),
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
        }
        FileTree.walk(in: anchor, skipping: excluded, enter: enter) { relative, st in
            guard AnchoredDirectory.split(relative).name != tag else { return }
            var (state, reason, young) = (EntryState.fresh, "no age rule", false)
            if Self.isPartial(relative) {
                if context.isOlderThanGrace(st.lastWritten) {
                    (state, reason) = (
                        .incomplete, "partial download left \(NativeStore.age(st.lastWritten, context)) ago"
                    )
                } else {
                    (reason, young) = ("partial download within the grace period", true)
                }
            }
            table.appendFile(
                root: anchor.path, relative: relative, stat: st, state: state, reason: reason, inGracePeriod: young)
        }
        let databases = judgeKinds(&table, context)
        table.clearScratch()
        for (main, companions) in databases { table.append(DatabaseUnits.entry(main, companions)) }
        for relative in units { if let entry = unit(at: relative, context) { table.append(entry) } }
        for (relative, kind) in nested {
            let inside = FileTree.files(in: anchor, under: relative)
            table.append(
                CacheEntry(
                    url: nil, path: anchor.path(of: relative),
                    allocatedBytes: inside.reduce(0) { $0.saturatingPlus($1.allocatedBytes) },
                    apparentBytes: inside.reduce(0) { $0.saturatingPlus($1.apparentBytes) },
                    modified: inside.map(\.modified).max(),
                    state: .outside,
                    reason: "a separate \(kind.displayName) with its own index; prune it as a root of its own"))
        }
        return table
    }

    static func isPartial(_ relative: [UInt8]) -> Bool {
        partialSuffixBytes.contains { relative.count >= $0.count && relative.suffix($0.count).elementsEqual($0) }
    }

    static let partialSuffixBytes = partialSuffixes.map { Array($0.utf8) }

    /// Looks at each regular file once: images cut short or malformed get their state (a
    /// partial download's name wins), and SQLite databases are taken out of the table with
    /// the companions found by name beside them (`-wal`, `-shm`, `-journal`), to be appended
    /// as units.
    private func judgeKinds(_ table: inout CacheEntries, _ context: InspectionContext)
        -> [(main: CacheEntry, companions: [CacheEntry])]
    {
        let kinds = FileKind.of(table, in: anchor)
        var databases: [(main: CacheEntry, companions: [CacheEntry])] = []
        var taken = Set<Int>()
        var companionsByPath: [[UInt8]: Int] = [:]
        if kinds.contains(where: { if case .database = $0.kind { true } else { false } }) {
            for position in table.indices where table.isMarkedRegular(position) {
                let relative = table.relativePath(position)!
                if FileKind.companionSuffixes.contains(where: { relative.suffix($0.count).elementsEqual($0) }) {
                    companionsByPath[relative] = position
                }
            }
        }
        for (position, kind) in kinds {
            switch kind {
            case .database:
                let relative = table.relativePath(position)!
                var companions: [CacheEntry] = []
                for suffix in FileKind.companionSuffixes {
                    if let other = companionsByPath[relative + suffix] {
                        companions.append(table[other])
                        taken.insert(other)
                    }
                }
                taken.insert(position)
                databases.append((table[position], companions))
            case .image(let verdict):
                guard !Self.isPartial(table.relativePath(position)!),
                    let modified = table.modified(position),
                    let health = ImageHealth.state(verdict, lastWritten: modified, context)
                else { continue }
                table.setState(position, health.state, reason: health.reason, inGracePeriod: health.young)
            case .other: continue
            }
        }
        table.remove(taken)
        return databases
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
            allocated = allocated.saturatingPlus(file.allocatedBytes)
            apparent = apparent.saturatingPlus(file.apparentBytes)
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

    package func locate(url: String, _ context: InspectionContext) throws -> CacheEntry? {
        guard URLKey(url) != nil else { throw StoreError.notAURL(url) }
        return nil  // a plain folder's names say nothing about URLs
    }
}
