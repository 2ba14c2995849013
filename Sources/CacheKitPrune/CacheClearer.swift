#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Emptying a cache in any recognised format.
public enum CacheClearer {
    /// Removes every entry under `root`, keeping the root, its tag and an empty index;
    /// entries indexed outside the cache are kept and reported. The same engine as `prune`:
    /// the root opened once and checked (`DeletableRoot`), its lock taken, every file
    /// deleted through its descriptor after being checked again. A native store's writers'
    /// lock is taken exclusively first, so no body is being written meanwhile. An application's
    /// own databases found in the cache are removed only when `kind` is given (`--format`).
    /// A folder that is no cache but holds one cache directly inside (`~/.npm`, see
    /// `DeletableRoot.Verdict.holder`) has that cache cleared, and nothing else in it; one
    /// holding several is refused, naming them.
    /// - Parameters:
    ///   - root: the cache's root.
    ///   - kind: its format; nil (the default) to recognise it.
    ///   - dryRun: plan only; nothing changes, not even an access time. Default false.
    public static func clear(_ root: RawPath, as kind: CacheFormatKind? = nil, dryRun: Bool = false) throws
        -> PruneReport
    {
        var anchor = try DeletableRoot.anchor(root, dryRun: dryRun)
        let named = kind != nil
        let opened: CacheFormatKind
        switch try DeletableRoot.verdict(anchor, as: kind) {
        case .cache(let declared): opened = declared
        case .holder(let held, let refusal):
            guard held.count == 1, let cache = held.first else { throw refusal }
            switch anchor.anchoring(cache.relative) {
            case .success(let inner): anchor = inner
            case .failure(let error): throw StoreError.cannotRead(anchor.path(of: cache.relative), error.description)
            }
            opened = cache.kind
        }
        let root = anchor.path
        let lock = dryRun ? nil : try Pruner.lockRoot(anchor, onWait: {})
        let format = try CacheFormats.open(
            anchor, as: opened, snapshot: dryRun, declaredPlain: named && opened == .plain)
        let writers = dryRun ? nil : try format.excludeWriters()
        defer { withExtendedLifetime((lock, writers)) {} }
        TestPoint.reach("clear.locked")
        let context = InspectionContext(graceSeconds: 0)
        let entries = try format.entries(context)
        var plan = PrunePolicy.planClear(entries, named: named)
        TestPoint.reach("clear.planned")
        if dryRun {
            return PruneReport(root: root, format: format.kind, name: format.displayName, plan: plan, outcome: nil)
        }
        var outcome = PruneExecutor.execute(plan, on: format)
        // What several entries named goes with the last of them (a blob, shared content).
        SharedEntries.followUp(&plan, &outcome, format: format, context: context, reason: .cleared)
        return PruneReport(root: root, format: format.kind, name: format.displayName, plan: plan, outcome: outcome)
    }
}
