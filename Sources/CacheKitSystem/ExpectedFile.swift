#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a plan saw of a file it decided to delete. Immediately before the deletion the
/// name is looked at again, and a file that is not this one — another inode under the
/// name, or this one written to since — is kept.
public struct ExpectedFile: Sendable, Equatable {
    /// `st_dev` when inspected.
    public var device: UInt64
    /// `st_ino` when inspected.
    public var inode: UInt64
    /// `st_size` when inspected.
    public var size: Int64
    /// `st_mtime` when inspected.
    public var modified: FileTime

    /// What a file was when inspected.
    public init(device: UInt64, inode: UInt64, size: Int64, modified: FileTime) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modified = modified
    }

    package init(_ st: StatInfo) {
        self.init(device: st.device, inode: st.inode, size: st.size, modified: st.modified)
    }

    package func matches(_ st: StatInfo) -> Bool {
        st.device == device && st.inode == inode && st.size == size && st.modified == modified
    }
}
