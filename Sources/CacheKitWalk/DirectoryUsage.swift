/// Totals of a directory's whole subtree, for `--depth` breakdowns.
public struct DirectoryUsage: Sendable {
    /// The directory's path.
    public var path: RawPath
    /// 0 for the root, 1 for its children, ...
    public var depth: Int
    /// What it holds, subdirectories included (as du counts).
    public var totals: UsageTotals
}
