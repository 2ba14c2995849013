/// One cache (or candidate cache) found under a walked root.
public struct CacheUsage: Sendable {
    /// The cache unit's path.
    public var path: RawPath
    /// What kind of unit it is.
    public var kind: CacheUnitKind
    /// What it holds.
    public var totals: UsageTotals
}
