/// An entry prune keeps although a rule would have removed it, and why.
public struct KeptEntry: Sendable {
    /// The entry.
    public var entry: CacheEntry
    /// Why it stays, in words.
    public var why: String
}
