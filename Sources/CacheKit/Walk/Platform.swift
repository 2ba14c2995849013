// Platform differences live here and nowhere else: stat field names, open flags, dirent.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension RawPath {
    /// The canonical absolute path (symlinks resolved), or the path as it is when it cannot
    /// be resolved (it does not exist).
    public var canonical: RawPath {
        guard let resolved = withCString({ realpath($0, nil) }) else { return self }
        defer { free(resolved) }
        return RawPath(bytes: Array(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved))))
    }
}

/// A point in time as the file system records it (seconds and nanoseconds since the epoch).
public struct FileTime: Comparable, Hashable, Sendable {
    public var seconds: Int64
    public var nanoseconds: Int32

    public init(seconds: Int64, nanoseconds: Int32 = 0) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    public static func < (a: FileTime, b: FileTime) -> Bool {
        (a.seconds, a.nanoseconds) < (b.seconds, b.nanoseconds)
    }

    /// Seconds since the epoch as a floating-point number.
    public var timeInterval: Double { Double(seconds) + Double(nanoseconds) / 1e9 }
}

/// The few stat fields cachectl needs, read once.
struct StatInfo {
    var device: UInt64
    var inode: UInt64
    var mode: UInt32
    var linkCount: UInt64
    var size: Int64
    /// `st_blocks`: always in 512-byte units on Linux and macOS.
    var blocks: Int64
    var modified: FileTime

    init(_ st: stat) {
        device = UInt64(truncatingIfNeeded: st.st_dev)
        inode = UInt64(truncatingIfNeeded: st.st_ino)
        mode = UInt32(st.st_mode)
        linkCount = UInt64(st.st_nlink)
        size = Int64(st.st_size)
        blocks = Int64(st.st_blocks)
        #if canImport(Darwin)
        modified = FileTime(seconds: Int64(st.st_mtimespec.tv_sec), nanoseconds: Int32(st.st_mtimespec.tv_nsec))
        #else
        modified = FileTime(seconds: Int64(st.st_mtim.tv_sec), nanoseconds: Int32(st.st_mtim.tv_nsec))
        #endif
    }

    var isDirectory: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFDIR) }
    var isRegular: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFREG) }
    var isSymlink: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFLNK) }
    /// Allocated bytes as du counts them: `st_blocks × 512`.
    var allocatedBytes: Int64 { blocks &* 512 }
    /// Apparent bytes by coreutils 9.2 rules: `st_size` of regular files and symlinks only.
    var apparentBytes: Int64 { (isRegular || isSymlink) ? max(0, size) : 0 }
}

enum Sys {
    static let openDirectoryFlags: Int32 = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
    static let directoryType = UInt8(DT_DIR)
    static let unknownType = UInt8(DT_UNKNOWN)

    /// `fstatat(dirfd, name, AT_SYMLINK_NOFOLLOW)`; returns errno on failure.
    @inline(__always)
    static func lstat(at dirfd: Int32, _ name: UnsafePointer<CChar>) -> Result<StatInfo, Errno> {
        var st = stat()
        if fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 { return .success(StatInfo(st)) }
        return .failure(Errno(errno))
    }

    static func fstat(_ fd: Int32) -> Result<StatInfo, Errno> {
        var st = stat()
        #if canImport(Glibc)
        let rc = Glibc.fstat(fd, &st)
        #else
        let rc = Darwin.fstat(fd, &st)
        #endif
        if rc == 0 { return .success(StatInfo(st)) }
        return .failure(Errno(errno))
    }

    static func lstat(path: RawPath) -> Result<StatInfo, Errno> {
        path.withCString { lstat(at: AT_FDCWD, $0) }
    }

    /// Opens a directory relative to `dirfd` without following a final symlink.
    @inline(__always)
    static func openDirectory(at dirfd: Int32, _ name: UnsafePointer<CChar>) -> Result<Int32, Errno> {
        let fd = openat(dirfd, name, openDirectoryFlags)
        if fd >= 0 { return .success(fd) }
        return .failure(Errno(errno))
    }

    /// `open` that leaves the access time alone where the system allows it (the owner, or
    /// a privileged process), so inspecting a cache does not change its timestamps.
    static func openWithoutAtime(_ path: UnsafePointer<CChar>, _ flags: Int32, at dirfd: Int32 = AT_FDCWD) -> Int32 {
        #if os(Linux)
        // O_NOATIME (01000000 on Linux) is hidden behind _GNU_SOURCE in Glibc's module.
        let noAtime: Int32 = 0o1000000
        let fd = openat(dirfd, path, flags | noAtime)
        if fd >= 0 || errno != EPERM { return fd }
        #endif
        return openat(dirfd, path, flags)
    }

    /// The entry's name as a C string pointer; valid until the next `readdir`.
    @inline(__always)
    static func withName<R>(_ entry: UnsafeMutablePointer<dirent>, _ body: (UnsafePointer<CChar>) -> R) -> R {
        withUnsafePointer(to: &entry.pointee.d_name) { tuple in
            tuple.withMemoryRebound(to: CChar.self, capacity: 256) { body($0) }
        }
    }

    @inline(__always)
    static func type(of entry: UnsafeMutablePointer<dirent>) -> UInt8 { UInt8(entry.pointee.d_type) }

    /// Raises the soft limit on open descriptors to the hard limit: a deep tree keeps one
    /// descriptor per level with pending subdirectories.
    static func raiseDescriptorLimit() {
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        var raised = limit
        raised.rlim_cur = limit.rlim_max
        #if canImport(Darwin)
        raised.rlim_cur = min(limit.rlim_max, rlim_t(OPEN_MAX))
        #endif
        _ = setrlimit(resource, &raised)
    }

    static var processorCount: Int {
        let n = sysconf(Int32(_SC_NPROCESSORS_ONLN))
        return n > 0 ? n : 1
    }
}

/// A system error number with its `strerror` text.
public struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    public var code: Int32
    public init(_ code: Int32) { self.code = code }
    public var description: String { String(cString: strerror(code)) }

    public static let noEntry = Errno(ENOENT)
    public static let notDirectory = Errno(ENOTDIR)
}
