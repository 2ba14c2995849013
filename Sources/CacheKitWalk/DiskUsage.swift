#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Disk usage as GNU du counts it, measured by a parallel walk over directory descriptors.
///
/// Rules (coreutils): allocated size is `st_blocks × 512`, directories' own blocks included;
/// symlinks are not followed; a file with several hard links counts once, keyed by
/// `(st_dev, st_ino)`. With several arguments every file and directory is keyed, as du does,
/// so an argument's part already counted under an earlier argument is skipped; each
/// argument's number then equals du's for the same argument list.
public enum DiskUsage {
    /// Walks `paths` in order (each one in parallel) and returns what was found.
    /// Never prints; problems come back in `DiskUsageReport.issues`.
    public static func measure(_ paths: [RawPath], options: DiskUsageOptions = DiskUsageOptions()) -> DiskUsageReport {
        Sys.raiseDescriptorLimit()
        let shared = SharedWalkState(hashAll: paths.count > 1 && !options.countLinks)
        var roots: [RootUsage] = []
        for (index, path) in paths.enumerated() {
            let firstIssue = shared.issues.count
            let walk = RootWalk(
                path: path, options: options, shared: shared, recordSeen: paths.count > 1 && index < paths.count - 1)
            roots.append(walk.run())
            // Threads report in any order; by path is stable from run to run.
            shared.sortIssues(from: firstIssue)
        }
        return DiskUsageReport(roots: roots, issues: shared.issues)
    }
}

// MARK: - Shared state across arguments

// MARK: - Largest files
