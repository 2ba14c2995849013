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
    /// Where the owner evicts by a measure of use other than the last access, that measure as
    /// the time of use it amounts to (Firefox's frecency): what a size trim orders by, in
    /// place of `lastAccess`.
    public var evictionClock: FileTime?
    /// Where the owner weighs entries for a size trim (`SizeRule.byAgeTimesSize`), what this
    /// entry's weight is divided by: 1, or Chromium's factor for an entry it prioritizes.
    public var evictionWeightDivisor: Int64 = 1
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
    /// Entries removed only when named (`removedOnlyWhenNamed`) that this one keeps, by their
    /// paths below the cache root: a blob a revision links, a shared payload a repository's
    /// blob links. A plan that deletes the last entry holding one counts its bytes as freed;
    /// it goes after them, once a second look at the cache finds nothing names it
    /// (`SharedEntries`).
    public var holds: [[UInt8]] = []
    /// The owner's lock file (below the cache root) for this entry: it is deleted only while
    /// cachectl holds an exclusive `flock` on that file, and kept (reported as in use) while
    /// another process does. The file is made, as the owner makes it, when missing.
    public var ownerLock: [UInt8]?
    /// A directory deleted whole (a unit of a folder cachectl does not understand): its
    /// subtree, after its newest file's time was checked again.
    public var isUnit = false
    /// A unit's companions go before its directory, not after: what names the directory (uv's
    /// links and pointers to an unpacked wheel) must not outlive it, even if deletion stops.
    public var companionsFirst = false
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
