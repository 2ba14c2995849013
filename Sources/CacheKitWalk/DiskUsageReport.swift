/// Everything a walk found: one result per argument, in argument order, plus the problems.
public struct DiskUsageReport: Sendable {
    /// One result per argument, in order.
    public var roots: [RootUsage]
    /// What could not be read, sorted by path within each argument.
    public var issues: [WalkIssue]
    /// Total over all arguments (each file once).
    public var total: UsageTotals {
        roots.reduce(into: UsageTotals()) { $0.add($1.totals) }
    }
}
