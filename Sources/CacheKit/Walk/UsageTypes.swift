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
    }

    @inline(__always)
    mutating func noteModified(_ time: FileTime) {
        if oldestModification.map({ time < $0 }) ?? true { oldestModification = time }
        if newestModification.map({ $0 < time }) ?? true { newestModification = time }
    }
}

/// What kind of unit a cache breakdown line stands for.
public enum CacheUnitKind: String, Sendable {
    /// A directory holding a valid `CACHEDIR.TAG`: everything below it is one cache.
    case tagged
    /// A directory whose marker files or name declare a recognised layout, at any depth
    /// (found in the same walk): everything below it is one cache.
    case recognised
    /// An immediate subdirectory of the walked root, untagged.
    case directory
    /// The root's own blocks and the files directly inside it.
    case rootFiles
}

/// One cache (or candidate cache) found under a walked root.
public struct CacheUsage: Sendable {
    /// The cache unit's path.
    public var path: RawPath
    /// What kind of unit it is.
    public var kind: CacheUnitKind
    /// What it holds.
    public var totals: UsageTotals
}

/// Totals of a directory's whole subtree, for `--depth` breakdowns.
public struct DirectoryUsage: Sendable {
    /// The directory's path.
    public var path: RawPath
    /// 0 for the root, 1 for its children, ...
    public var depth: Int
    /// What it holds, subdirectories included (as du counts).
    public var totals: UsageTotals
}

/// A single non-directory, for "largest files" listings.
public struct FileUsage: Sendable {
    /// The file's path.
    public var path: RawPath
    /// Blocks on disk (`st_blocks × 512`).
    public var allocatedBytes: Int64
    /// `st_size`.
    public var apparentBytes: Int64
    /// `st_mtime`.
    public var modified: FileTime

    /// The file as a tree of one: its sizes, one file, its modification time.
    public var totals: UsageTotals {
        var totals = UsageTotals()
        totals.allocatedBytes = allocatedBytes
        totals.apparentBytes = apparentBytes
        totals.files = 1
        totals.noteModified(modified)
        return totals
    }
}

/// The result for one argument path.
public struct RootUsage: Sendable {
    /// The argument exactly as given.
    public var path: RawPath
    /// False when the argument could not be examined at all (see the report's issues).
    public var exists: Bool
    /// True when every part of it was already counted under an earlier argument; du prints
    /// nothing for such an argument and neither does cachectl.
    public var alreadyCounted: Bool
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
}

/// A problem met during a walk. The walk goes on; the caller decides how to show it.
public struct WalkIssue: Error, Sendable, CustomStringConvertible {
    /// The system call that failed, in du's words.
    public enum Operation: String, Sendable {
        /// A directory could not be opened or read (its own blocks are still counted).
        case readDirectory
        /// An entry could not be examined (it vanished, or its directory is not searchable).
        case access
    }
    /// The path it failed on.
    public var path: RawPath
    /// What was being done.
    public var operation: Operation
    /// Why it failed.
    public var error: Errno

    /// `cannot read directory 'x': Permission denied`, worded as GNU du words it.
    public var description: String {
        switch operation {
        case .readDirectory: return "cannot read directory \(path.quoted): \(error)"
        case .access: return "cannot access \(path.quoted): \(error)"
        }
    }
}

/// Everything a walk found: one result per argument, in argument order, plus the problems.
public struct DiskUsageReport: Sendable {
    /// One result per argument, in order.
    public var roots: [RootUsage]
    /// What could not be read, sorted by path within each argument.
    public var issues: [WalkIssue]
    /// Total over all arguments (each file once).
    public var total: UsageTotals {
        roots.reduce(into: UsageTotals()) { $0.add($1.totals) }
    }
}

/// Live counters a caller may poll from another thread to show progress.
public final class WalkProgress: @unchecked Sendable {
    // @unchecked Sendable: the counters are only touched with `lock` held.
    private let lock = ConditionLock()
    private var _files = 0
    private var _directories = 0
    private var _allocatedBytes: Int64 = 0

    /// Counters at zero.
    public init() {}

    func add(files: Int, directories: Int, allocatedBytes: Int64) {
        lock.withLock {
            _files += files
            _directories += directories
            _allocatedBytes += allocatedBytes
        }
    }

    /// A consistent snapshot: (files, directories, allocated bytes) so far.
    public var snapshot: (files: Int, directories: Int, allocatedBytes: Int64) {
        lock.withLock { (_files, _directories, _allocatedBytes) }
    }
}
