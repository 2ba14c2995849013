/// The result of pruning one root.
public struct PruneReport: Sendable {
    public var root: RawPath
    public var format: CacheFormatKind
    public var plan: PrunePlan
    /// Nil for a dry run.
    public var outcome: PruneOutcome?
}

/// Prune one root: take the root's lock, inspect its entries by the format's rules, plan,
/// and (unless `dryRun`) execute.
public enum Pruner {
    /// - Parameters:
    ///   - dryRun: plan only. Nothing is written, not even a lock or an index journal: the
    ///     native index is read from a private copy, files are read without updating their
    ///     access times where the system allows.
    ///   - onWait: called once if another prune holds the root and this one must wait.
    public static func prune(_ root: RawPath, as kind: CacheFormatKind? = nil, rules: PruneRules, context: InspectionContext,
                             dryRun: Bool, progress: PruneProgress? = nil, onWait: () -> Void = {}) throws -> PruneReport {
        guard case .success(let st) = Sys.lstat(path: root) else { throw StoreError.cannotRead(root, Errno(errno == 0 ? ENOENT : errno).description) }
        guard st.isDirectory || st.isSymlink else { throw StoreError.cannotRead(root, "Not a directory") }
        let kind = try DeletableRoot.check(root, as: kind)
        // One prune per root at a time: flock on the root directory itself.
        let lockHolder = try SafeRemover(root: root)
        if !dryRun { try lockHolder.lockExclusively(onWait: onWait) }
        defer { withExtendedLifetime(lockHolder) {} }
        let format = try CacheFormats.open(root, as: kind, snapshot: dryRun)
        let entries = try format.entries(context)
        let plan = PrunePolicy.plan(entries, rules: rules)
        if dryRun { return PruneReport(root: root, format: format.kind, plan: plan, outcome: nil) }
        let outcome = PruneExecutor.execute(plan, on: format, progress: progress)
        return PruneReport(root: root, format: format.kind, plan: plan, outcome: outcome)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
