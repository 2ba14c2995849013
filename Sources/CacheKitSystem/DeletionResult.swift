#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How one deletion ended.
public enum DeletionResult: Sendable, Equatable {
    case removed
    /// Already gone (not an error).
    case vanished
    /// Kept: the name now holds another file, or the file changed since it was inspected.
    case changed
    /// Not deleted, with the system's reason (see `explanation`) and, where the caller knows
    /// better, its own words.
    case failed(Errno, String? = nil)

    /// Why a deletion did not happen, in words.
    public var explanation: String {
        switch self {
        case .removed: return "removed"
        case .vanished: return "already gone"
        case .changed: return "changed since it was inspected: kept"
        case .failed(let error, let why): return why ?? Self.explain(error)
        }
    }

    /// Why a deletion failed, in words for people.
    public static func explain(_ error: Errno) -> String {
        switch error.code {
        case EXDEV, EBUSY: return "on another file system or a mount point inside the cache: not deleted"
        case ELOOP, ENOTDIR: return "a directory on its path is a symlink or not a directory: not deleted"
        case EISDIR: return "a directory where a file was inspected: not deleted"
        case EROFS: return "the cache is on a read-only file system: not deleted"
        default: return error.description
        }
    }
}
