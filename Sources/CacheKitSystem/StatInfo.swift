import CSystemShims

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The stat fields cachectl needs, read once: from `stat` or, on Linux, from `statx`, which
/// adds the mount id (a bind mount of the same file system has the same `st_dev`, not the
/// same mount id) and the birth time.
package struct StatInfo: Sendable {
    package var device: UInt64
    package var inode: UInt64
    package var mode: UInt32
    package var linkCount: UInt64
    package var size: Int64
    /// `st_blocks`: always in 512-byte units on Linux and macOS.
    package var blocks: Int64
    package var modified: FileTime
    package var accessed: FileTime
    package var changed: FileTime
    package var owner: UInt32
    /// The mount the file is on, where the system says (statx on Linux ≥ 5.8).
    package var mountID: UInt64?
    /// When the file was created, where the file system records it.
    package var born: FileTime?

    package init(_ st: stat) {
        device = UInt64(truncatingIfNeeded: st.st_dev)
        inode = UInt64(truncatingIfNeeded: st.st_ino)
        mode = UInt32(st.st_mode)
        linkCount = UInt64(st.st_nlink)
        size = Int64(st.st_size)
        blocks = Int64(st.st_blocks)
        owner = UInt32(st.st_uid)
        #if canImport(Darwin)
            modified = FileTime(seconds: Int64(st.st_mtimespec.tv_sec), nanoseconds: Int32(st.st_mtimespec.tv_nsec))
            accessed = FileTime(seconds: Int64(st.st_atimespec.tv_sec), nanoseconds: Int32(st.st_atimespec.tv_nsec))
            changed = FileTime(seconds: Int64(st.st_ctimespec.tv_sec), nanoseconds: Int32(st.st_ctimespec.tv_nsec))
            born = FileTime(seconds: Int64(st.st_birthtimespec.tv_sec), nanoseconds: Int32(st.st_birthtimespec.tv_nsec))
        #else
            modified = FileTime(seconds: Int64(st.st_mtim.tv_sec), nanoseconds: Int32(st.st_mtim.tv_nsec))
            accessed = FileTime(seconds: Int64(st.st_atim.tv_sec), nanoseconds: Int32(st.st_atim.tv_nsec))
            changed = FileTime(seconds: Int64(st.st_ctim.tv_sec), nanoseconds: Int32(st.st_ctim.tv_nsec))
            born = nil
        #endif
        mountID = nil
    }

    package init(_ sx: cachectl_stat) {
        device = sx.dev
        inode = sx.ino
        mode = sx.mode
        linkCount = sx.nlink
        size = sx.size
        blocks = sx.blocks
        owner = sx.uid
        modified = FileTime(seconds: sx.mtime_sec, nanoseconds: Int32(truncatingIfNeeded: sx.mtime_nsec))
        accessed = FileTime(seconds: sx.atime_sec, nanoseconds: Int32(truncatingIfNeeded: sx.atime_nsec))
        changed = FileTime(seconds: sx.ctime_sec, nanoseconds: Int32(truncatingIfNeeded: sx.ctime_nsec))
        born =
            sx.mask & UInt32(CACHECTL_STAT_BTIME) != 0
            ? FileTime(seconds: sx.btime_sec, nanoseconds: Int32(truncatingIfNeeded: sx.btime_nsec)) : nil
        mountID = sx.mask & UInt32(CACHECTL_STAT_MNT_ID) != 0 ? sx.mnt_id : nil
    }

    package var isDirectory: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFDIR) }
    package var isRegular: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFREG) }
    package var isSymlink: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFLNK) }
    /// Allocated bytes as du counts them: `st_blocks × 512`.
    package var allocatedBytes: Int64 { blocks &* 512 }
    /// Apparent bytes by coreutils 9.2 rules: `st_size` of regular files and symlinks only.
    package var apparentBytes: Int64 { (isRegular || isSymlink) ? max(0, size) : 0 }
    /// When the file's content was last written: its modification time. What a grace
    /// period counts from (a writer at work keeps moving it). The status-change time is not
    /// used: nothing can set it back, so a cache restored from a backup or a test's fixture
    /// could never look old, and a rename does not write content.
    package var lastWritten: FileTime { modified }

    /// Whether this is the same file as `other`, as far as identity goes.
    package func isSameFile(as other: StatInfo) -> Bool { device == other.device && inode == other.inode }
}
