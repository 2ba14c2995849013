import CSystemShims

/// How the process's allocator gives memory back.
public enum MemoryReturn {
    /// Every allocation of 256 KiB or more gets pages of its own, returned to the system when
    /// freed. glibc otherwise raises that threshold each time such a block is freed (up to
    /// 32 MiB), so the large arrays a walk grows and drops stay in the heap as resident memory
    /// nothing uses: a prune of 200,000 files measured 4 MiB more at its peak. Call once, at
    /// start; nothing on systems without glibc.
    public static func largeBlocksToTheSystem() {
        _ = cachectl_malloc_thresholds(256 * 1024, 1024 * 1024)
    }
}
