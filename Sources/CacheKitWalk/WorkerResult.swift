#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What one worker thread gathers; merged when the root is done.
struct WorkerResult {
    var totals = UsageTotals()
    var seen: [DevIno] = []
    var largest = LargestFiles(limit: 0)
    /// Every counted non-directory shallow enough to list (`DiskUsageOptions.listFiles`).
    var files: [FileUsage] = []
}
