/// How a cache's owner trims it to a size limit, which `prune --max-size` follows.
public struct SizeRule: Sendable, Equatable {
    /// Which size the limit counts.
    public enum Metric: String, Sendable {
        /// Blocks on disk (`st_blocks × 512`), as du counts.
        case allocated
        /// File sizes (`st_size`).
        case apparent
    }
    /// Trim down to `maxSize × ratio`.
    public var ratio: Double
    /// Which size the limit counts.
    public var metric: Metric
    /// Trim when the total is ≥ the limit (Kingfisher); otherwise when it is > the limit.
    public var trimsAtLimit: Bool
    /// Stop once the total is strictly below the target (SDWebImage); otherwise at or below.
    public var stopsStrictlyBelow: Bool
    /// The owner's rule in words, with its source.
    public var owner: String
    /// When above zero, the cap is shared equally by this many partitions (the first path
    /// component of each entry: ccache's top-level subdirectories), each trimmed on its own.
    public var partitions: Int
    /// Trim only above `maxSize × startsAbove` (Chromium: 0.95); 1 for every other owner.
    public var startsAbove: Double
    /// Chromium's order: the largest `(now − last use) × (size + 512)` first, not plain LRU.
    public var byAgeTimesSize: Bool

    /// A rule; `partitions` defaults to 0 (one pool).
    public init(
        ratio: Double, metric: Metric, trimsAtLimit: Bool, stopsStrictlyBelow: Bool, owner: String, partitions: Int = 0,
        startsAbove: Double = 1, byAgeTimesSize: Bool = false
    ) {
        self.startsAbove = startsAbove
        self.byAgeTimesSize = byAgeTimesSize
        self.ratio = ratio
        self.metric = metric
        self.trimsAtLimit = trimsAtLimit
        self.stopsStrictlyBelow = stopsStrictlyBelow
        self.owner = owner
        self.partitions = partitions
    }

    /// The seed design's rule (cachectl's own store, the plist download cache, plain folders):
    /// above the cap, least recently used first down to at most half of it, allocated bytes.
    public static let seed = SizeRule(
        ratio: 0.5, metric: .allocated, trimsAtLimit: false, stopsStrictlyBelow: false,
        owner: "the seed design: down to at most half the cap, allocated bytes")
}
