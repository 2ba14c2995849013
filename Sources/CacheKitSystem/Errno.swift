#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A system error number with its `strerror` text.
public struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    public var code: Int32
    public init(_ code: Int32) { self.code = code }
    public var description: String { String(cString: strerror(code)) }

    /// The calling thread's `errno` now.
    public static var current: Errno { Errno(errno) }

    public static let noEntry = Errno(ENOENT)
    public static let notDirectory = Errno(ENOTDIR)
    public static let exists = Errno(EEXIST)
    public static let crossDevice = Errno(EXDEV)
    public static let tooManySymlinks = Errno(ELOOP)
    public static let permission = Errno(EPERM)
    public static let access = Errno(EACCES)
    public static let readOnlyFileSystem = Errno(EROFS)
    public static let noSpace = Errno(ENOSPC)
    public static let wouldBlock = Errno(EWOULDBLOCK)
    public static let invalid = Errno(EINVAL)
    public static let busy = Errno(EBUSY)
    public static let isDirectory = Errno(EISDIR)
    public static let notEmpty = Errno(ENOTEMPTY)
    public static let notSupported = Errno(ENOSYS)
    public static let again = Errno(EAGAIN)
}
