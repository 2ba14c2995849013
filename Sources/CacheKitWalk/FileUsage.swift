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
