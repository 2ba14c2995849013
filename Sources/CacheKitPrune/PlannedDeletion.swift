/// One entry the plan deletes, and why.
public struct PlannedDeletion: Sendable {
    /// The entry.
    public var entry: CacheEntry
    /// Why it goes.
    public var reason: PruneReason
    /// Allocated bytes this deletion frees (0 for a hard link whose data another name keeps).
    public var freesBytes: Int64
}
