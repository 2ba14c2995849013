/// Why an entry is deleted.
public enum PruneReason: String, CaseIterable, Sendable {
    case corrupted, incomplete, orphan, expired, size
    /// `clear`: every entry goes.
    case cleared

    /// The reasons a prune reports, in its order.
    public static let pruning: [PruneReason] = [.corrupted, .incomplete, .orphan, .expired, .size]
}
