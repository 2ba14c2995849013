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
    /// Entries removed only when named (kept by the plan) whose every holder the plan
    /// deletes, by position: their bytes are already off `bytesAfter`. They go after the
    /// deletions, once a second look at the cache finds nothing names them (`SharedEntries`).
    public var goWithHolders: [Int] = []

    /// How many entries go after their holders, and their bytes.
    public var goingWithHolders: (count: Int, bytes: Int64) {
        (goWithHolders.count, goWithHolders.reduce(Int64(0)) { $0 + deletions.entries.allocatedBytes($1) })
    }

    /// Says in the kept list that the entries going with their holders go after them.
    mutating func describeGoingWithHolders() {
        guard !goWithHolders.isEmpty else { return }
        let going = Set(goWithHolders.compactMap { deletions.entries.relativePath($0) })
        for index in kept.indices where kept[index].entry.relativePath.map(going.contains) ?? false {
            kept[index].why =
                "goes after the entries that link it, which this prune deletes (once nothing on disk links it)"
        }
    }
}
