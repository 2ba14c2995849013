/// Prune one root: open it once, check it may be pruned, take its lock, inspect its entries
/// by the format's rules, plan, and (unless `dryRun`) execute — all through that one
/// descriptor, so a root swapped for a symlink meanwhile changes nothing.
public enum Pruner {
    /// Prunes one cache.
    /// - Parameters:
    ///   - root: the cache's root.
    ///   - kind: its format; nil (the default) to recognise it.
    ///   - rules: the size and age limits.
    ///   - context: the time, grace period and verification the entries are judged with.
    ///   - dryRun: plan only. Nothing is written, not even a lock or an index journal, and no
    ///     access time changes: the native index is read from a private copy, and every file
    ///     and directory (the tag included) is opened with O_NOATIME, or not at all.
    ///   - progress: counters for a caller's progress display. Default none.
    ///   - onWait: called once if another prune holds the root and this one must wait.
    public static func prune(
        _ root: RawPath, as kind: CacheFormatKind? = nil, rules: PruneRules, context: InspectionContext,
        dryRun: Bool, progress: PruneProgress? = nil, onWait: () -> Void = {}
    ) throws -> PruneReport {
        try FileTree.$countFound.withValue(progress?.foundCounter) {
            try pruneOne(
                root, as: kind, rules: rules, context: context, dryRun: dryRun, progress: progress, onWait: onWait)
        }
    }

    private static func pruneOne(
        _ root: RawPath, as kind: CacheFormatKind?, rules: PruneRules, context: InspectionContext,
        dryRun: Bool, progress: PruneProgress?, onWait: () -> Void
    ) throws -> PruneReport {
        let anchor = try DeletableRoot.anchor(root, dryRun: dryRun)
        let declaredPlain = kind == .plain
        let kind = try DeletableRoot.check(anchor, as: kind)
        // One prune (or clear) per root at a time: flock on the root directory itself, so
        // nothing is written into a foreign cache.
        let lock = dryRun ? nil : try lockRoot(anchor, onWait: onWait)
        defer { withExtendedLifetime(lock) {} }
        TestPoint.reach("prune.locked")
        let format = try CacheFormats.open(anchor, as: kind, snapshot: dryRun, declaredPlain: declaredPlain)
        if !dryRun { format.prepareForPrune() }
        let entries = try format.entryTable(context)
        progress?.notePlanning()
        var plan = PrunePolicy.plan(entries, rules: rules, sizeRule: format.sizeRule)
        TestPoint.reach("prune.planned")
        if dryRun {
            return PruneReport(root: root, format: format.kind, name: format.displayName, plan: plan, outcome: nil)
        }
        var outcome = PruneExecutor.execute(plan, on: format, progress: progress)
        SharedEntries.followUp(&plan, &outcome, format: format, context: context, reason: .orphan)
        return PruneReport(root: root, format: format.kind, name: format.displayName, plan: plan, outcome: outcome)
    }

    /// What pruning a folder did: one report per cache (a folder of caches gives several),
    /// and the caches that could not be pruned, with why.
    public struct Batch: Sendable {
        /// One report per cache pruned. Default none.
        public var reports: [PruneReport] = []
        /// Caches that could not be pruned, with why. Default none.
        public var errors: [(path: RawPath, error: StoreError)] = []
    }

    /// `prune`, for a root that may be a folder of caches (`~/.cache`): each cache found in it
    /// (see `CacheDiscovery`) is inspected by its owner's rules, the size cap is shared by
    /// evicting the least recently used entries across all of them (each by its own clock;
    /// `--trim-to`, else half the cap), and each cache's plan runs on its own format, under
    /// its own lock. The folder's own loose files and the subdirectories that hold no cache
    /// are pruned as units. A folder that is no cache itself but holds caches directly inside
    /// (`~/.npm`: see `DeletableRoot.Verdict.holder`) has only those caches pruned, one alone
    /// by its owner's size rule. A root that is one cache gives one report, as `prune` does.
    public static func pruneAll(
        _ root: RawPath, as kind: CacheFormatKind? = nil, rules: PruneRules, context: InspectionContext,
        dryRun: Bool, progress: PruneProgress? = nil, onWait: () -> Void = {}
    ) throws -> Batch {
        try FileTree.$countFound.withValue(progress?.foundCounter) {
            try pruneFolder(
                root, as: kind, rules: rules, context: context, dryRun: dryRun, progress: progress, onWait: onWait)
        }
    }

    private static func pruneFolder(
        _ root: RawPath, as kind: CacheFormatKind?, rules: PruneRules, context: InspectionContext,
        dryRun: Bool, progress: PruneProgress?, onWait: () -> Void
    ) throws -> Batch {
        let anchor = try DeletableRoot.anchor(root, dryRun: dryRun)
        func single() throws -> Batch {
            Batch(reports: [
                try prune(
                    root, as: kind, rules: rules, context: context, dryRun: dryRun, progress: progress, onWait: onWait)
            ])
        }
        guard kind == nil else { return try single() }
        // A folder of caches (`~/.cache`) has its own files pruned too, as units; a folder that
        // is no cache but holds some (`~/.npm`) has only those caches pruned.
        let found: [CacheDiscovery.Found]
        let holder: Bool
        switch try DeletableRoot.verdict(anchor, as: nil) {
        case .cache(.plain):
            guard let inside = CacheDiscovery.caches(in: anchor) else { return try single() }
            (found, holder) = (inside, false)
        case .cache: return try single()
        case .holder(let held, _): (found, holder) = (held, true)
        }
        let lock = dryRun ? nil : try lockRoot(anchor, onWait: onWait)
        var batch = Batch()
        var parts: [(path: RawPath, format: any CacheFormat, lock: FileLock?)] = []
        var entries = CacheEntries()
        func add(_ format: any CacheFormat, _ path: RawPath, _ lock: FileLock?) throws {
            entries.append(contentsOf: try format.entryTable(context), origin: parts.count)
            parts.append((path, format, lock))
        }
        if !holder {
            var remainder = PlainFormat(anchor: anchor, declaredFileByFile: false)
            remainder.excluded = Set(found.map { CacheDiscovery.topLevel($0.relative) })
            try add(remainder, root, nil)
        }
        for cache in found {
            let path = anchor.path(of: cache.relative)
            do {
                let inner: AnchoredDirectory
                switch anchor.anchoring(cache.relative) {
                case .success(let opened): inner = opened
                case .failure(let error): throw StoreError.cannotRead(path, error.description)
                }
                let innerLock = dryRun ? nil : try lockRoot(inner, onWait: onWait)
                let format = try CacheFormats.open(inner, as: cache.kind, snapshot: dryRun)
                if !dryRun { format.prepareForPrune() }
                try add(format, path, innerLock)
            } catch let error as StoreError {
                batch.errors.append((path, error))
            }
        }
        defer { withExtendedLifetime((lock, parts.map(\.lock))) {} }
        progress?.notePlanning()
        // One cache in a holder keeps its owner's rule; several share the cap.
        let alone = holder && parts.count == 1 ? parts.first : nil
        let plan = PrunePolicy.plan(entries, rules: rules, sizeRule: alone?.format.sizeRule ?? .seed)
        TestPoint.reach("prune.planned")
        for (index, part) in parts.enumerated() {
            var sub = Self.part(of: plan, entries, origin: index, sharedUnder: alone == nil ? root : nil)
            if index == 0 && sub.entriesBefore == 0 && !holder { continue }
            var outcome = dryRun ? nil : PruneExecutor.execute(sub, on: part.format, progress: progress)
            if var done = outcome {
                SharedEntries.followUp(
                    &sub, &done, format: part.format, context: context, reason: .orphan,
                    include: { entries.origin($0) == index })
                outcome = done
            }
            batch.reports.append(
                PruneReport(
                    root: part.path, format: part.format.kind, name: part.format.displayName, plan: sub,
                    outcome: outcome))
        }
        return batch
    }

    /// The part of a folder's plan that is one cache's (`origin`), its size rule said to be
    /// a cap shared by the caches under `sharedUnder` when there are several.
    private static func part(of plan: PrunePlan, _ entries: CacheEntries, origin index: Int, sharedUnder root: RawPath?)
        -> PrunePlan
    {
        let own = entries.indices.filter { entries.origin($0) == index }
        var sub = PrunePlan()
        sub.entriesBefore = own.count
        var seen = Set<FileIdentity>()
        for position in own where entries.multiplyLinked(position).map({ seen.insert($0).inserted }) ?? true {
            sub.bytesBefore += entries.allocatedBytes(position)
        }
        sub.deletions = plan.deletions.filter(entries: { entries.origin($0) == index })
        sub.kept = plan.kept.filter { $0.entry.origin == index }
        sub.goWithHolders = plan.goWithHolders.filter { entries.origin($0) == index }
        sub.bytesAfter = sub.bytesBefore - sub.deletions.freedBytes - sub.goingWithHolders.bytes
        sub.sizeTarget = plan.sizeTarget
        sub.sizeRule = plan.sizeRule.map { rule in
            guard let root else { return rule }
            var shared = rule
            shared.owner =
                """
                a cap shared by the caches under \(root.quoted): least recently used first across them, each \
                by its own clock
                """
            return shared
        }
        return sub
    }

    /// The whole-root advisory lock (flock on the root's descriptor). Waits while another
    /// holder has it; `onWait` is called once before waiting.
    static func lockRoot(_ anchor: AnchoredDirectory, onWait: () -> Void) throws -> FileLock {
        switch FileLock.take(anchor.descriptor, exclusive: true, wait: true, onWait: onWait) {
        case .success(let lock): return lock
        case .failure(let error): throw StoreError.cannotRead(anchor.path, error.description)
        }
    }
}
