/// Sizes and counts for a set of files, as du counts them.
public struct UsageTotals: Sendable, Equatable {
    /// Sum of `st_blocks × 512`, directories' own blocks included, hard links once.
    public var allocatedBytes: Int64 = 0
    /// Sum of `st_size` of regular files and symlinks (coreutils 9.2 rules).
    public var apparentBytes: Int64 = 0
    /// Non-directories counted (regular files, symlinks, others).
    public var files: Int = 0
    /// Directories counted, the walked directory itself included.
    public var directories: Int = 0
    /// Oldest modification time among the non-directories, if any.
    public var oldestModification: FileTime?
    /// Newest modification time among the non-directories, if any.
    public var newestModification: FileTime?
    /// Newest modification time of anything counted, directories included: what `du --time`
    /// shows (a directory whose file was just deleted is newer than every file left in it).
    public var newestOfAny: FileTime?

    /// All zero.
    public init() {}

    /// Adds `other`'s counts and sizes.
    public mutating func add(_ other: UsageTotals) {
        allocatedBytes &+= other.allocatedBytes
        apparentBytes &+= other.apparentBytes
        files += other.files
        directories += other.directories
        if let o = other.oldestModification { noteModified(o) }
        if let n = other.newestModification { noteModified(n) }
        if let n = other.newestOfAny { noteDirectoryModified(n) }
    }

    /// A non-directory's modification time.
    @inline(__always)
    mutating func noteModified(_ time: FileTime) {
        if oldestModification.map({ time < $0 }) ?? true { oldestModification = time }
        if newestModification.map({ $0 < time }) ?? true { newestModification = time }
        noteDirectoryModified(time)
    }

    /// A directory's modification time (`newestOfAny` only).
    @inline(__always)
    mutating func noteDirectoryModified(_ time: FileTime) {
        if newestOfAny.map({ $0 < time }) ?? true { newestOfAny = time }
    }
}
