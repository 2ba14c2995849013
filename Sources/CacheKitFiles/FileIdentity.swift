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

    package init(_ st: StatInfo) {
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
