/// The deletions, in execution order, and the sizes before and after.
public struct PrunePlan: Sendable {
    /// What to delete, in deletion order. Default none.
    public var deletions = PlannedDeletions()
    /// Entries that match a deletion rule but are never deleted (outside the cache).
    public var kept: [KeptEntry] = []
    /// Entries in the cache before the prune.
    public var entriesBefore = 0
    /// Allocated bytes of the entries, each inode once.
    public var bytesBefore: Int64 = 0
    /// Bytes left once the plan is carried out.
    public var bytesAfter: Int64 = 0
    /// `maxSize × trimTo` (or the owner's ratio), when a size step applies.
    public var sizeTarget: Int64?
    /// The owner's size rule the step followed.
    public var sizeRule: SizeRule?
}
