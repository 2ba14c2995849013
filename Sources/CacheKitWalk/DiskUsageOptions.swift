#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How `DiskUsage.measure` should walk and what it should collect beyond the totals.
public struct DiskUsageOptions: Sendable {
    /// What to break each root's total down into.
    public enum Breakdown: Sendable, Equatable {
        /// Only the per-argument totals (`du -s`).
        case totalsOnly
        /// Caches under each root: tagged directories (`CACHEDIR.TAG`) wherever they are,
        /// otherwise the immediate subdirectories.
        case caches
        /// Every directory at most `maxDepth` levels below the root, with its subtree total.
        case directories(maxDepth: Int)
    }

    /// Stay on each argument's file system (`-x`). Default false.
    public var oneFileSystem = false
    /// Count a file as often as its hard links are met, and an argument met again as often
    /// as it is given (`-l`, du's `--count-links`: no file is remembered). Default false.
    public var countLinks = false
    /// Each directory's figure is its own blocks and its non-directories', its subdirectories
    /// left out (`-S`, du's `--separate-dirs`): the `--depth` rows and the argument's
    /// `RootUsage.separateTotals`; the totals still count everything. Default false.
    public var separateDirectories = false
    /// Default `.totalsOnly`.
    public var breakdown: Breakdown = .totalsOnly
    /// How many of the largest files to keep per root. Default 0 (none).
    public var largestFiles = 0
    /// Worker threads. Default: twice the online processors, at least 2.
    public var threads = max(2, Sys.processorCount * 2)
    /// Counters updated as the walk goes, for a caller's progress display. Default nil.
    public var progress: WalkProgress?
    /// Names left out of the walk altogether (du's `--exclude`, `-X`). Default none.
    public var exclude = ExcludePatterns()
    /// With `.directories(maxDepth:)`, also list every counted non-directory at most
    /// `maxDepth` levels below the root (du's `-a`) in `RootUsage.files`. Default false.
    public var listFiles = false

    /// Every option at its default (each property states it): totals only, as `du -s` counts.
    public init() {}
}
