/// What executing a plan did.
public struct PruneOutcome: Sendable {
    /// The deletions that were carried out. Default none.
    public var removed = PlannedDeletions()
    /// Deletions that failed, with the cause; each one is a reason for exit status 1.
    public var failures: [(deletion: PlannedDeletion, message: String)] = []
    /// Entries that were already gone when their turn came (not an error).
    public var vanished = 0
    /// Entries kept because what the plan inspected changed since (a writer replaced the
    /// file or the record): the plan's decision no longer applies to them. Not an error.
    public var changed: [PlannedDeletion] = []

    /// The bytes the removed entries freed.
    public var freedBytes: Int64 { removed.freedBytes }
}
