/// The result for one argument path.
public struct RootUsage: Sendable {
    /// The argument exactly as given.
    public var path: RawPath
    /// False when the argument could not be examined at all (see the report's issues).
    public var exists: Bool
    /// True when every part of it was already counted under an earlier argument; du prints
    /// nothing for such an argument and neither does cachectl.
    public var alreadyCounted: Bool
    /// True when an `--exclude` pattern matches the argument itself (`du --exclude='*.log'
    /// a.log`): du neither counts nor prints it, and neither does cachectl.
    public var excluded = false
    /// With `separateDirectories`, the argument's own figure (its blocks and its direct
    /// non-directories; the file itself for a file argument), as `du -sS` prints it.
    public var separateTotals: UsageTotals?
    /// Whether the argument is a directory (a file counts alone).
    public var isDirectory: Bool
    /// The totals du would print for it.
    public var totals: UsageTotals
    /// Caches found under the root, largest allocated size first (breakdown `.caches`).
    public var caches: [CacheUsage]
    /// Directory subtree totals to the requested depth, largest first (breakdown `.directories`).
    public var directories: [DirectoryUsage]
    /// The largest non-directories, largest first (`largestFiles > 0`).
    public var largestFiles: [FileUsage]
    /// Every counted non-directory to the requested depth, largest first (`listFiles`).
    public var files: [FileUsage]

    /// Whether it is reported: examined, not excluded, not all counted under an earlier one.
    public var isShown: Bool { exists && !excluded && !alreadyCounted }
}
