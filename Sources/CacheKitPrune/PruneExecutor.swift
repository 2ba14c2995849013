#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Carries out plans through the deletion engine (`Deleter`), anchored at the format's root.
public enum PruneExecutor {
    /// Carries out `plan` on `format`'s cache: what the plan decided is what is deleted.
    ///
    /// 1. Files no record names (orphans, leftovers) first — they free space without writing
    ///    an index, which matters on a full disk — in whatever way the format keeps a
    ///    concurrent writer from recording one of them meanwhile.
    /// 2. Then indexed entries, in batches: their records go first (only where they still name
    ///    what was inspected; one transaction per batch), then their bodies, so a crash leaves
    ///    orphans for the next prune, never a record without its body, and each step leaves the
    ///    cache consistent.
    /// 3. Directories left empty, deepest first; never the root or the format's own folders.
    ///
    /// Every file is checked again just before `unlinkat` (same inode, size and modification
    /// time as inspected); one that changed is kept and reported.
    public static func execute(_ plan: PrunePlan, on format: any CacheFormat, progress: PruneProgress? = nil)
        -> PruneOutcome
    {
        var outcome = PruneOutcome()
        // Deletions are positions in the plan's list; entries are built a batch at a time.
        let deletions = plan.deletions
        outcome.removed = PlannedDeletions(of: deletions.entries)
        progress?.start(deletions.count)
        let isIndexed = { (position: Int) in deletions.entries.isIndexed(deletions.entryPosition(at: position)) }
        var parents = Set<[UInt8]>()

        // Unindexed files (all of a plain folder's) a stretch of the plan at a time: no list
        // of them is made.
        for stretch in stride(from: 0, to: deletions.count, by: 4096) {
            let batch = (stretch..<min(stretch + 4096, deletions.count)).filter { !isIndexed($0) }
            guard !batch.isEmpty else { continue }
            let planned = batch.map { deletions[$0] }
            do {
                let results = try format.removeUnindexed(planned.map(\.entry)) { entries in
                    removeFiles(entries, format.anchor, progress)
                }
                record(batch, planned, results, deletions, &outcome, &parents)
            } catch {
                outcome.failures += planned.map { ($0, "\(error)") }
                progress?.advance(batch.count)
            }
        }

        var pending = deletions.indices.filter(isIndexed)[...]
        var batchSize = 4096
        while !pending.isEmpty {
            let batch = Array(pending.prefix(batchSize))
            let planned = batch.map { deletions[$0] }
            let went: [Bool]
            do {
                went = try format.forgetIndexed(planned.map(\.entry))
            } catch StoreError.cannotWrite(let path, let cause) where batchSize > 1 && cause.contains("full") {
                // A full disk: smaller transactions need less log; each one's bodies free room.
                _ = path
                batchSize = max(1, batchSize / 8)
                continue
            } catch {
                outcome.failures += pending.map { (deletions[$0], "\(error)") }
                progress?.advance(pending.count)
                break
            }
            TestPoint.reach("prune.afterIndex")
            var forgotten: [(position: Int, deletion: PlannedDeletion)] = []
            for (index, gone) in zip(batch.indices, went) {
                if gone {
                    forgotten.append((batch[index], planned[index]))
                } else {
                    outcome.changed.append(planned[index])
                    progress?.advance()
                }
            }
            let results = removeFiles(forgotten.map(\.deletion.entry), format.anchor, progress)
            record(forgotten.map(\.position), forgotten.map(\.deletion), results, deletions, &outcome, &parents)
            pending = pending.dropFirst(batch.count)
            if batchSize < 4096 { batchSize = min(4096, batchSize * 2) }
        }
        TestPoint.reach("prune.afterFiles")

        removeEmptied(parents, format.anchor, keeping: format.keptDirectories)
        format.didRemove()
        return outcome
    }

    /// Removes the directories the deletions left empty, and then their parents left empty, a
    /// level at a time from the deepest (a directory is tried after everything below it). The
    /// root and `kept` stay. Linear in the number of directories: picking the deepest candidate
    /// anew each time took 27 % of a prune of 40,000 entries in a five-level fan-out.
    static func removeEmptied(_ parents: Set<[UInt8]>, _ anchor: AnchoredDirectory, keeping kept: Set<[UInt8]>) {
        let slash = UInt8(ascii: "/")
        var levels: [[[UInt8]]] = []  // by number of slashes
        for parent in parents where !parent.isEmpty {
            let depth = parent.reduce(0) { $0 + ($1 == slash ? 1 : 0) }
            if levels.count <= depth { levels += Array(repeating: [], count: depth + 1 - levels.count) }
            levels[depth].append(parent)
        }
        // Sorted and compared rather than hashed: a chain thousands of levels deep has paths of
        // tens of thousands of bytes, and hashing each at every level dominated its removal.
        let longestKept = kept.map(\.count).max() ?? 0
        let deleter = Deleter(anchor)
        for depth in levels.indices.reversed() {
            var level = levels[depth].sorted { $0.lexicographicallyPrecedes($1) }
            level = zip(level.indices, level).filter { $0 == 0 || level[$0 - 1] != $1 }.map(\.1)
            level.removeAll { $0.count <= longestKept && kept.contains($0) }
            for directory in removeEmptyLevel(level, anchor, deleter) where depth > 0 {
                if let end = directory.lastIndex(of: slash) { levels[depth - 1].append(Array(directory[..<end])) }
            }
        }
    }

    /// One level's directories (none inside another), each removed if empty; returns those
    /// removed. A large level is shared by up to 8 threads, each taking a stretch of the sorted
    /// list so siblings share their parent's descriptor: removing a directory waits for the file
    /// system (ext4 on a disk with `discard` waits for the discard of its block), and one thread
    /// waiting for each in turn took a third of a prune of a 200,000-entry fan-out.
    private static func removeEmptyLevel(_ level: [[UInt8]], _ anchor: AnchoredDirectory, _ deleter: Deleter)
        -> [[UInt8]]
    {
        let workers = min(8, level.count / 256)
        guard workers > 1 else { return level.filter { deleter.removeEmptyDirectory($0) } }
        let stretch = (level.count + workers - 1) / workers
        let removed = Locked([[[UInt8]]]())
        WorkerPool.run(workers) { worker in
            let own = Deleter(anchor)
            let mine = level[min(level.count, worker * stretch)..<min(level.count, (worker + 1) * stretch)]
            let gone = mine.filter { own.removeEmptyDirectory($0) }
            removed.withLock { $0.append(gone) }
        }
        return removed.withLock { $0 }.flatMap { $0 }
    }

    /// Files the plan decided on, deleted through per-thread deleters (unlinking dominates a
    /// large prune): each worker takes whole directories. Entries with nothing to delete (a
    /// record without a body) count as removed; a file the plan never saw is not touched.
    static func removeFiles(_ entries: [CacheEntry], _ anchor: AnchoredDirectory, _ progress: PruneProgress?)
        -> [DeletionResult]
    {
        var results = [DeletionResult](repeating: .removed, count: entries.count)
        var groups: [[UInt8]: [Int]] = [:]
        for (index, entry) in entries.enumerated() {
            guard let relative = entry.relativePath else {
                progress?.advance()
                continue
            }
            guard entry.identity != nil else {
                results[index] = .vanished
                progress?.advance()
                continue
            }
            groups[AnchoredDirectory.split(relative).parent, default: []].append(index)
        }
        guard !groups.isEmpty else { return results }
        let workers = max(1, min(8, groups.count))
        var shares = [[Int]](repeating: [], count: workers)
        for (index, key) in groups.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }).enumerated() {
            shares[index % workers] += groups[key]!
        }
        let collected = Locked([[(Int, DeletionResult)]]())
        let ownerLocks = OwnerLocks(anchor)
        WorkerPool.run(workers) { worker in
            let deleter = Deleter(anchor)
            var partial: [(Int, DeletionResult)] = []
            partial.reserveCapacity(shares[worker].count)
            for index in shares[worker] {
                partial.append((index, remove(entries[index], deleter, anchor, ownerLocks)))
                progress?.advance()
            }
            collected.withLock { $0.append(partial) }
        }
        for partial in collected.withLock({ $0 }) { for (index, result) in partial { results[index] = result } }
        return results
    }

    /// One entry: a database only while no other process holds a lock on it, its companions
    /// (`-wal`, `-shm`, `-journal`) before it; then the entry's own file.
    private static func remove(
        _ entry: CacheEntry, _ deleter: Deleter, _ anchor: AnchoredDirectory, _ ownerLocks: OwnerLocks
    ) -> DeletionResult {
        let relative = entry.relativePath!
        if entry.isDatabase, let pid = DatabaseUnits.lockHolder(relative, in: anchor) {
            return .failed(
                Errno.busy,
                pid == 0
                    ? "a database in use (another process holds a lock on it): not deleted"
                    : "a database in use by process \(pid) (it holds a lock on it): not deleted")
        }
        // Under the owner's lock, where it has one: nothing of the owner's changes the entry
        // meanwhile, and what it changed before shows in the checks below.
        if let lockPath = entry.ownerLock, let refusal = ownerLocks.acquire(lockPath) { return refusal.result }
        defer { if let lockPath = entry.ownerLock { ownerLocks.release(lockPath) } }
        if entry.isUnit { return removeUnit(entry, relative, deleter, anchor) }
        // The entry is checked first: a database replaced since it was inspected keeps its
        // companions too. (Without companions, the deleter's own check before unlinking is
        // the same check.)
        if !entry.companions.isEmpty, let expected = entry.identity?.expected,
            case .success(let st) = anchor.status(of: relative),
            !expected.matches(st)
        {
            return .changed
        }
        for companion in entry.companions {
            switch deleter.remove(companion.relativePath, expecting: companion.identity.expected) {
            case .removed, .vanished: continue
            case .changed: return .changed
            case .failed(let error, let why): return .failed(error, why)
            }
        }
        return deleter.remove(relative, expecting: entry.identity?.expected)
    }

    /// The owners' locks the deleting threads hold, each taken once however many of them need
    /// it at a time: `flock` sets each open of a file against every other, this process's own
    /// included, so a second thread opening the lock a first one holds would find it "in use".
    /// A lock goes when its last user is done (a cache may have thousands, one per blob).
    private final class OwnerLocks: @unchecked Sendable {
        // @unchecked Sendable: `held` is only touched inside `state`'s lock.
        private let anchor: AnchoredDirectory
        private let state = Locked([[UInt8]: (lock: FileLock, users: Int)]())

        init(_ anchor: AnchoredDirectory) { self.anchor = anchor }

        /// Takes `path` (or counts one more user of it, held already); why not, when not.
        func acquire(_ path: [UInt8]) -> LockRefusal? {
            state.withLock { held in
                if let current = held[path] {
                    held[path] = (current.lock, current.users + 1)
                    return nil
                }
                switch PruneExecutor.takeOwnerLock(path, anchor) {
                case .success(let lock):
                    held[path] = (lock, 1)
                    return nil
                case .failure(let refusal): return refusal
                }
            }
        }

        func release(_ path: [UInt8]) {
            state.withLock { held in
                guard let current = held[path] else { return }
                held[path] = current.users > 1 ? (current.lock, current.users - 1) : nil
            }
        }
    }

    /// Why an owner's lock was not taken, as the entry's result.
    fileprivate struct LockRefusal: Error {
        var result: DeletionResult
    }

    /// The owner's lock on `lockPath`, taken without waiting: opened (made when missing, as
    /// the owner makes it: mode 0666, never through a symlink) and locked exclusively with
    /// `flock`. Held elsewhere, or a fallback lock (`<lock>.soft`, the owner's lock on file
    /// systems without `flock`) present: the entry is in use.
    fileprivate static func takeOwnerLock(_ lockPath: [UInt8], _ anchor: AnchoredDirectory)
        -> Result<FileLock, LockRefusal>
    {
        let shown = String(decoding: lockPath, as: UTF8.self)
        if anchor.exists(lockPath + Array(".soft".utf8)) {
            return .failure(
                LockRefusal(result: .failed(Errno.busy, "in use: its owner's lock '\(shown).soft' is held")))
        }
        let descriptor: FileDescriptor
        // Not blocking: a FIFO planted as the lock would hold an open for writing until a
        // reader came.
        switch anchor.open(lockPath, O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC, mode: 0o666) {
        case .success(let opened): descriptor = opened
        case .failure(let error):
            return .failure(LockRefusal(result: .failed(error, "its owner's lock '\(shown)' cannot be opened")))
        }
        guard case .success(let st) = Sys.fstat(descriptor.raw), st.isRegular else {
            return .failure(
                LockRefusal(result: .failed(Errno.invalid, "its owner's lock '\(shown)' is not a regular file")))
        }
        // As the hub does: others sharing the cache must be able to take the same lock.
        _ = Sys.fchmod(descriptor.raw, 0o666)
        switch FileLock.take(descriptor, exclusive: true, wait: false) {
        case .success(let lock): return .success(lock)
        case .failure(let error) where error.code == EWOULDBLOCK:
            return .failure(
                LockRefusal(result: .failed(Errno.busy, "in use: another process holds its owner's lock '\(shown)'")))
        case .failure(let error):
            return .failure(LockRefusal(result: .failed(error, "its owner's lock '\(shown)' cannot be taken")))
        }
    }

    /// A unit (a subdirectory of a folder cachectl does not understand, a Hugging Face
    /// snapshot) goes whole, unless it is no longer the directory inspected or a file in it was
    /// written after the newest one the plan saw (a tool is at work in it): then it is kept
    /// and reported as changed. Its companions go after it.
    private static func removeUnit(
        _ entry: CacheEntry, _ relative: [UInt8], _ deleter: Deleter, _ anchor: AnchoredDirectory
    ) -> DeletionResult {
        switch anchor.status(of: relative) {
        case .failure(let error) where error == .noEntry: return .vanished
        case .failure(let error): return .failed(error, nil)
        case .success(let st):
            guard st.isDirectory, let id = entry.identity, st.device == id.device, st.inode == id.inode else {
                return .changed
            }
        }
        let newest = FileTree.files(in: anchor, under: relative).map(\.modified).max()
        if let newest, let planned = entry.modified, newest > planned { return .changed }
        if entry.companionsFirst {
            // Each as inspected, or the unit stays: a link made again may name it anew.
            for companion in entry.companions {
                switch deleter.remove(companion.relativePath, expecting: companion.identity.expected) {
                case .removed, .vanished: continue
                case .changed: return .changed
                case .failed(let error, let why): return .failed(error, why)
                }
            }
        }
        if let failure = deleter.removeContents(of: relative).first {
            return .failed(failure.error, "\(failure.path.quoted): \(DeletionResult.explain(failure.error))")
        }
        guard deleter.removeEmptyDirectory(relative) else {
            return .failed(.notEmpty, "written to while it was being deleted")
        }
        // Then the files that belong to it elsewhere (a Hugging Face revision's ref and the
        // blobs only it links), each checked to be the file inspected.
        for companion in entry.companions where !entry.companionsFirst {
            switch deleter.remove(companion.relativePath, expecting: companion.identity.expected) {
            case .removed, .vanished, .changed: continue
            case .failed(let error, let why): return .failed(error, why)
            }
        }
        return .removed
    }

    private static func record(
        _ positions: [Int], _ batch: [PlannedDeletion], _ results: [DeletionResult], _ deletions: PlannedDeletions,
        _ outcome: inout PruneOutcome, _ parents: inout Set<[UInt8]>
    ) {
        for (position, (deletion, result)) in zip(positions, zip(batch, results)) {
            switch result {
            case .removed:
                outcome.removed.append(position, of: deletions)
                if let relative = deletion.entry.relativePath {
                    parents.insert(AnchoredDirectory.split(relative).parent)
                }
                for companion in deletion.entry.companions {
                    parents.insert(AnchoredDirectory.split(companion.relativePath).parent)
                }
            case .vanished:
                outcome.vanished += 1
                outcome.removed.append(position, of: deletions)
            case .changed:
                outcome.changed.append(deletion)
            case .failed:
                outcome.failures.append((deletion, result.explanation))
            }
        }
    }
}
