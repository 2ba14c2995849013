/// What prune should do, decided from the entries alone (no file system): policy apart
/// from action, so `--dry-run` prints exactly the plan a real run executes.
public struct PruneRules: Sendable {
    /// Trim when the total allocated size exceeds this. Nil: no size step.
    public var maxSize: Int64?
    /// Also expire any entry modified longer ago than this many seconds. Nil: format rules only.
    public var maxAge: Double?
    /// Trim down to `maxSize × trimTo`. Nil (the default): the cache owner's own ratio and
    /// rule (`SizeRule`: half for the seed design and SDWebImage, 0.7 for Nuke, the limit
    /// itself for PINCache).
    public var trimTo: Double?
    /// "Now" for `maxAge`.
    public var now: FileTime = .now

    /// No size limit, no age limit, the owner's own ratio, as of `now` (default: now).
    public init(maxSize: Int64? = nil, maxAge: Double? = nil, trimTo: Double? = nil, now: FileTime = .now) {
        self.maxSize = maxSize
        self.maxAge = maxAge
        self.trimTo = trimTo
        self.now = now
    }
}
