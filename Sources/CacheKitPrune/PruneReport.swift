/// The result of pruning (or clearing) one root.
public struct PruneReport: Sendable {
    /// The cache's root.
    public var root: RawPath
    /// The format it was pruned as.
    public var format: CacheFormatKind
    /// What the cache is, for a person (`CacheFormat.displayName`).
    public var name: String
    /// What was planned (and, with a dry run, not carried out).
    public var plan: PrunePlan
    /// Nil for a dry run.
    public var outcome: PruneOutcome?
}
