/// The state of one cache entry, decided by the owning format's own rules.
public enum EntryState: String, CaseIterable, Sendable {
    /// Usable as it is.
    case fresh
    /// Past its expiry, or beyond the format's age rule.
    case expired
    /// A download that never completed, older than the grace period.
    case incomplete
    /// Body missing, size or checksum not matching, empty or truncated image.
    case corrupted
    /// A body no index refers to, older than the grace period.
    case orphan
    /// Indexed at a path outside the cache root or through a symlink: reported, never deleted.
    case outside
}

/// One entry of a cache, in any format.
public struct CacheEntry: Sendable {
    /// The URL (or key) it caches, where the format lets us know it.
    public var url: String?
    /// The body's path (absolute when the root is), for people.
    public var path: RawPath
    /// The body's path below the cache root, as deletion reaches it (through the root's
    /// descriptor); nil for an entry that is not below the root (`outside`).
    public var relativePath: [UInt8]?
    /// Blocks on disk (`st_blocks × 512`), as du counts.
    public var allocatedBytes: Int64
    /// Bytes (`st_size`).
    public var apparentBytes: Int64
    /// The body's modification time, when it has one.
    public var modified: FileTime?
    /// Last use by the format's own clock, where the format keeps one.
    public var lastAccess: FileTime?
    /// When it stops being fresh, where known.
    public var expires: FileTime?
    /// Fresh, expired, corrupted, incomplete, … (see `EntryState`).
    public var state: EntryState
    /// Why it is in that state, in words.
    public var reason: String
    /// The index key that refers to it (native URL, plist key), nil for unindexed files.
    public var indexKey: String?
    /// A partial download or unindexed body younger than the grace period: a live writer
    /// may still be producing it, so nothing may touch it.
    public var inGracePeriod = false
    /// The body's inode, where it exists (hard links free bytes only with their last link).
    public var identity: FileIdentity?
    /// Files that belong to the entry and go with it, deleted before it (a SQLite database's
    /// `-wal`, `-shm` and `-journal`). Their bytes are in `allocatedBytes`.
    public var companions: [Companion] = []
    /// A SQLite database: never deleted while another process holds a lock on it.
    public var isDatabase = false
    /// The body is held inside the cache's own database (Apple's URLCache stores small
    /// bodies inline): `cat` serves it, `localize` cannot point a page at it.
    public var inlineBody = false
    /// Kept by `prune` whatever the rules, and by `clear` unless its format is named
    /// explicitly (`--format`): an application's own data (an offline cache's database).
    public var removedOnlyWhenNamed = false
    /// A directory deleted whole (a unit of a folder cachectl does not understand): its
    /// subtree, after its newest file's time was checked again.
    public var isUnit = false
    /// Which cache of a folder of caches the entry belongs to (see `CacheDiscovery`).
    public var origin = 0
    /// Saved pages (absolute paths, each still on disk) that point at this entry's body:
    /// `prune` keeps it whatever its age or the size cap (`cachectl unpin PAGE` releases).
    public var pinnedBy: [String] = []
    /// The stored response's Content-Type and ETag, where the format records them (the
    /// native store).
    public var contentType: String?
    /// The stored response's ETag, when the cache records one.
    public var etag: String?

    /// A file deleted together with an entry.
    public struct Companion: Sendable {
        /// Its path below the cache's root.
        public var relativePath: [UInt8]
        /// The file it was when inspected (checked again before deletion).
        public var identity: FileIdentity
    }

    /// An entry; the flags and lists not given default to false and empty.
    public init(
        url: String?, path: RawPath, relativePath: [UInt8]? = nil, allocatedBytes: Int64, apparentBytes: Int64,
        modified: FileTime?,
        lastAccess: FileTime? = nil, expires: FileTime? = nil, state: EntryState, reason: String,
        indexKey: String? = nil
    ) {
        self.url = url
        self.path = path
        self.relativePath = relativePath
        self.allocatedBytes = allocatedBytes
        self.apparentBytes = apparentBytes
        self.modified = modified
        self.lastAccess = lastAccess
        self.expires = expires
        self.state = state
        self.reason = reason
        self.indexKey = indexKey
    }
}

/// Which file a body is: `(st_dev, st_ino)` (its identity: equality and hashing), how many
/// names it has, and the size and modification time it was inspected with (what deletion
/// checks again before unlinking: a file changed since is kept).
public struct FileIdentity: Hashable, Sendable {
    /// `st_dev`.
    public var device: UInt64
    /// `st_ino`.
    public var inode: UInt64
    /// `st_nlink`.
    public var linkCount: UInt64
    /// `st_size`.
    public var size: Int64
    /// `st_mtime`.
    public var modified: FileTime

    init(_ st: StatInfo) {
        device = st.device
        inode = st.inode
        linkCount = st.linkCount
        size = st.size
        modified = st.modified
    }

    /// An identity from its parts.
    public init(
        device: UInt64, inode: UInt64, linkCount: UInt64, size: Int64 = 0, modified: FileTime = FileTime(seconds: 0)
    ) {
        self.device = device
        self.inode = inode
        self.linkCount = linkCount
        self.size = size
        self.modified = modified
    }

    /// The same file: same device and inode.
    public static func == (a: FileIdentity, b: FileIdentity) -> Bool { a.device == b.device && a.inode == b.inode }
    /// Hashes device and inode.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(device)
        hasher.combine(inode)
    }

    /// What deletion expects to find.
    public var expected: ExpectedFile { ExpectedFile(device: device, inode: inode, size: size, modified: modified) }
}

/// What inspecting a cache needs to know besides its files.
public struct InspectionContext: Sendable {
    /// "Now" for every age decision.
    public var now: FileTime
    /// Incomplete and orphan items younger than this many seconds are left alone (a live
    /// writer may still be producing them). Default 1 hour.
    public var graceSeconds: Double
    /// Rehash bodies against recorded checksums (native store). Default false.
    public var verify: Bool

    /// As of `now` (default: now), a grace period of one hour, bodies not rehashed.
    public init(now: FileTime = .now, graceSeconds: Double = 3600, verify: Bool = false) {
        self.now = now
        self.graceSeconds = graceSeconds
        self.verify = verify
    }

    func isOlderThanGrace(_ time: FileTime?) -> Bool {
        guard let time else { return true }
        return now.timeInterval - time.timeInterval >= graceSeconds
    }
}

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
        case .notAURL(let text): return "not a URL: '\(text)' (expected an absolute URL such as https://host/path)"
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
            return
                "\(path.quoted) is in use by another process (\(pid > 0 ? "process \(pid) holds a lock on it" : "it is locked"); "
                + "is its app running?): nothing removed"
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
