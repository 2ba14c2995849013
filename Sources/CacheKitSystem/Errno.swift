#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A system error number with its `strerror` text.
public struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    /// The `errno` value.
    public var code: Int32
    /// The error for an `errno` value.
    public init(_ code: Int32) { self.code = code }
    /// `strerror`'s words ("Permission denied").
    public var description: String { String(cString: strerror(code)) }

    /// The calling thread's `errno` now.
    public static var current: Errno { Errno(errno) }

    /// `ENOENT`.
    public static let noEntry = Errno(ENOENT)
    /// `ENOTDIR`.
    public static let notDirectory = Errno(ENOTDIR)
    /// `EEXIST`.
    public static let exists = Errno(EEXIST)
    /// `EXDEV`: a mount point or another file system.
    public static let crossDevice = Errno(EXDEV)
    /// `ELOOP`: a symbolic link where none may be.
    public static let tooManySymlinks = Errno(ELOOP)
    /// `EPERM`.
    public static let permission = Errno(EPERM)
    /// `EACCES`.
    public static let access = Errno(EACCES)
    /// `EROFS`.
    public static let readOnlyFileSystem = Errno(EROFS)
    /// `ENOSPC`.
    public static let noSpace = Errno(ENOSPC)
    /// `EWOULDBLOCK`: a lock held by another process.
    public static let wouldBlock = Errno(EWOULDBLOCK)
    /// `EINVAL`.
    public static let invalid = Errno(EINVAL)
    /// `EBUSY`.
    public static let busy = Errno(EBUSY)
    /// `EISDIR`.
    public static let isDirectory = Errno(EISDIR)
    /// `ENOTEMPTY`.
    public static let notEmpty = Errno(ENOTEMPTY)
    /// `ENOSYS`: the kernel lacks the call.
    public static let notSupported = Errno(ENOSYS)
    /// `EAGAIN`.
    public static let again = Errno(EAGAIN)
}
