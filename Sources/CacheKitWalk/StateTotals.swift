/// Count and allocated bytes of the entries in one state.
public struct StateTotals: Sendable, Equatable {
    /// Entries. Default 0.
    public var count = 0
    /// Their blocks on disk, in bytes. Default 0.
    public var allocatedBytes: Int64 = 0
    /// Zero entries.
    public init() {}
}
