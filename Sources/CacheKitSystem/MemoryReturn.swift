import CSystemShims

/// How the process's allocator takes memory from the system and gives it back.
public enum MemoryReturn {
    /// Every allocation of 256 KiB or more gets pages of its own, returned to the system when
    /// freed. glibc otherwise raises that threshold each time such a block is freed (up to
    /// 32 MiB), so the large arrays a walk grows and drops stay in the heap as resident memory
    /// nothing uses: a prune of 200,000 files measured 4 MiB more at its peak. Call once, at
    /// start; nothing on systems without glibc.
    public static func largeBlocksToTheSystem() {
        _ = cachectl_malloc_thresholds(256 * 1024, 1024 * 1024)
    }

    /// Freed memory stays in the heap for the next allocations, large blocks included (up to
    /// 32 MiB), instead of going back to the system and coming again as fresh pages, each a
    /// page fault: for a short run that builds and drops large arrays, as localize does (its
    /// synthetic bench page: 17,900 faults -> 16,500, 1-2.4 ms less, paired runs of 21).
    /// Call once, at start; nothing on systems without glibc.
    public static func keepFreedMemory() {
        _ = cachectl_malloc_thresholds(32 << 20, 128 << 20)
    }

    /// Readies the calling thread's heap to grow to about `bytes` cheaply: glibc grows a
    /// thread's heap (every thread's but the main one's) a page at a time, each growth a
    /// system call, and a thread building a 10 MB page's tags and references grew it some
    /// 4,500 times (`strace -f -e mprotect`). Once per thread and size; nothing on the main
    /// thread or without glibc. Returns the blocks it allocated and freed to do it.
    @discardableResult
    public static func reserveThreadHeap(bytes: Int) -> Int {
        Int(cachectl_reserve_thread_heap(max(0, bytes)))
    }
}
