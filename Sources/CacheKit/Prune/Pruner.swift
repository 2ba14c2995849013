/// The result of pruning (or clearing) one root.
public struct PruneReport: Sendable {
    public var root: RawPath
    public var format: CacheFormatKind
    public var plan: PrunePlan
    /// Nil for a dry run.
    public var outcome: PruneOutcome?
}

/// Prune one root: open it once, check it may be pruned, take its lock, inspect its entries
/// by the format's rules, plan, and (unless `dryRun`) execute — all through that one
/// descriptor, so a root swapped for a symlink meanwhile changes nothing.
public enum Pruner {
    /// - Parameters:
    ///   - dryRun: plan only. Nothing is written, not even a lock or an index journal, and no
    ///     access time changes: the native index is read from a private copy, and every file
    ///     and directory (the tag included) is opened with O_NOATIME, or not at all.
    ///   - onWait: called once if another prune holds the root and this one must wait.
    public static func prune(_ root: RawPath, as kind: CacheFormatKind? = nil, rules: PruneRules, context: InspectionContext,
                             dryRun: Bool, progress: PruneProgress? = nil, onWait: () -> Void = {}) throws -> PruneReport {
        let anchor = try DeletableRoot.anchor(root, dryRun: dryRun)
        let declaredPlain = kind == .plain
        let kind = try DeletableRoot.check(anchor, as: kind)
        // One prune (or clear) per root at a time: flock on the root directory itself, so
        // nothing is written into a foreign cache.
        let lock = dryRun ? nil : try lockRoot(anchor, onWait: onWait)
        defer { withExtendedLifetime(lock) {} }
        TestPoint.reach("prune.locked")
        let format = try CacheFormats.open(anchor, as: kind, snapshot: dryRun, declaredPlain: declaredPlain)
        let entries = try format.entries(context)
        let plan = PrunePolicy.plan(entries, rules: rules, sizeRule: format.sizeRule)
        TestPoint.reach("prune.planned")
        if dryRun { return PruneReport(root: root, format: format.kind, plan: plan, outcome: nil) }
        let outcome = PruneExecutor.execute(plan, on: format, progress: progress)
        return PruneReport(root: root, format: format.kind, plan: plan, outcome: outcome)
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
