/// Errors of the cache store and formats: each names the path and the cause.
public enum StoreError: Error, CustomStringConvertible, Equatable {
    case notAURL(String)
    case cannotRead(RawPath, String)
    case cannotWrite(RawPath, String)
    case notACacheIndex(RawPath, String)
    case corruptIndex(RawPath, String)
    case malformedPlist(RawPath, String)
    case notFound(String)
    case stale(String, expired: FileTime?)
    case unsupported(String)
    case busy(RawPath)
    /// A directory `prune` and `clear` refuse to delete in (see `DeletableRoot`).
    case notACache(RawPath, String)
    /// A write the store's file system or permissions refuse: the store can be read, not changed.
    case readOnly(RawPath, String)
    /// Another process holds a lock on a database (its pid, 0 when unknown): nothing removed.
    case busyDatabase(RawPath, Int32)

    /// The state's name, as `--json` and `--state` spell it.
    public var description: String {
        switch self {
        case .notAURL(let text): return URLKey.refusal(text)
        case .cannotRead(let path, let cause):
            // A path that is not there cannot be accessed, as du and ls say; one that is there
            // and fails to read cannot be read. The same words in every command.
            let missing = cause.hasPrefix(Errno.noEntry.description) || cause.hasPrefix(Errno.notDirectory.description)
            return "\(missing ? "cannot access" : "cannot read") \(path.quoted): \(cause)"
        case .cannotWrite(let path, let cause): return "cannot write \(path.quoted): \(cause)"
        case .notACacheIndex(let path, let cause): return "\(path.quoted) is not a cachectl index: \(cause)"
        case .corruptIndex(let path, let cause): return "index \(path.quoted) is unreadable: \(cause)"
        case .malformedPlist(let path, let cause): return "malformed property list \(path.quoted): \(cause)"
        case .notFound(let url): return "not in the cache: \(url)"
        case .stale(let url, _): return "only a stale copy is cached for \(url) (use --allow-stale to accept it)"
        case .unsupported(let what): return what
        case .busy(let path): return "another cachectl holds the lock on \(path.quoted)"
        case .notACache(let path, let cause): return "will not delete in \(path.quoted): \(cause)"
        case .readOnly(let path, let cause): return "cannot change \(path.quoted): the cache is read-only (\(cause))"
        case .busyDatabase(let path, let pid):
            let holder = pid > 0 ? "process \(pid) holds a lock on it" : "it is locked"
            return "\(path.quoted) is in use by another process (\(holder); is its app running?): nothing removed"
        }
    }

    /// A write error in words that say what it means for a cache.
    static func explainWrite(_ error: Errno) -> String {
        switch error.code {
        case EROFS: return "Read-only file system: the cache is read-only"
        case EACCES, EPERM: return "\(error.description): the cache is read-only to this user"
        default: return error.description
        }
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
