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

/// The one way cachectl deletes: below an anchored directory, through descriptors.
///
/// Every name is reached from the anchor's descriptor by the kernel's beneath-resolution
/// (see `AnchoredDirectory`): a directory swapped for a symlink, a `..`, a mount point (a
/// bind mount of the same file system too) make the deletion fail, never redirect it. The
/// last step is `unlinkat` in the parent's descriptor, after the name was looked at again
/// and found to be the very file the plan inspected. Directories are removed only when
/// empty, and the anchor itself never.
///
/// One `Deleter` per thread: it keeps the descriptors of the directories it has used.
public final class Deleter {
    /// The root every deletion is reached through.
    public let anchor: AnchoredDirectory
    private let directories: DirectoryCache

    /// A deleter below `anchor` (one per thread).
    public init(_ anchor: AnchoredDirectory) {
        self.anchor = anchor
        self.directories = DirectoryCache(anchor)
    }

    /// Unlinks the non-directory at `relative` (a symlink is unlinked, never its target),
    /// when it is still `expecting` (when given).
    public func remove(_ relative: [UInt8], expecting: ExpectedFile?) -> DeletionResult {
        guard AnchoredDirectory.isValidRelative(relative) else { return .failed(.invalid) }
        let (parentPath, name) = AnchoredDirectory.split(relative)
        let parent: FileDescriptor
        switch directories.directory(parentPath) {
        case .success(let fd): parent = fd
        case .failure(let error): return error.code == ENOENT ? .vanished : .failed(error)
        }
        switch Sys.statx(at: parent.raw, name) {
        case .failure(let error): return error.code == ENOENT ? .vanished : .failed(error)
        case .success(let st):
            if st.isDirectory { return .failed(.isDirectory) }
            // A file bind-mounted over the name: another mount.
            if !anchor.isOnAnchorMount(st) { return .failed(.crossDevice) }
            if let expecting, !expecting.matches(st) { return .changed }
        }
        switch Sys.unlinkat(parent.raw, name) {
        case .success: return .removed
        case .failure(let error): return error.code == ENOENT ? .vanished : .failed(error)
        }
    }

    /// Removes a private temporary directory this process made (a dry run's snapshot of an
    /// index) with everything in it: its contents through a deleter anchored at it, then the
    /// directory itself through one anchored at its parent, only while the name there is
    /// still the directory `directory` opened (same device and inode).
    package static func removeTemporaryDirectory(_ directory: AnchoredDirectory) {
        _ = Deleter(directory).removeContents(of: [])
        guard case .success(let parent) = AnchoredDirectory.open(directory.path.parentDirectory) else { return }
        let name = directory.path.lastComponent
        guard case .success(let st) = parent.status(of: name), st.isDirectory,
            st.device == directory.status.device, st.inode == directory.status.inode
        else { return }
        Deleter(parent).removeEmptyDirectory(name)
    }

    /// Removes the empty directory at `path`, anchored at its parent (a temporary directory
    /// made and not yet used).
    package static func removeEmptyDirectory(_ path: RawPath) {
        guard case .success(let parent) = AnchoredDirectory.open(path.parentDirectory) else { return }
        Deleter(parent).removeEmptyDirectory(path.lastComponent)
    }

    /// Removes the directory at `relative` if it is empty; never the anchor.
    @discardableResult
    public func removeEmptyDirectory(_ relative: [UInt8]) -> Bool {
        guard AnchoredDirectory.isValidRelative(relative) else { return false }
        let (parentPath, name) = AnchoredDirectory.split(relative)
        // Its own cached descriptor goes first.
        directories.forget(relative)
        guard case .success(let parent) = directories.directory(parentPath) else { return false }
        guard case .success(let st) = Sys.statx(at: parent.raw, name), st.isDirectory, anchor.isOnAnchorMount(st) else {
            return false
        }
        if case .success = Sys.unlinkat(parent.raw, name, directory: true) { return true }
        return false
    }

    /// Removes everything below the directory `relative` (the anchor itself when empty),
    /// depth first, never following a symlink or entering another mount; the directory
    /// itself stays. Returns what could not be removed, with the reason.
    public func removeContents(of relative: [UInt8]) -> [(path: RawPath, error: Errno)] {
        var failures: [(RawPath, Errno)] = []
        switch anchor.open(relative, O_RDONLY | O_DIRECTORY) {
        case .failure(let error):
            if error.code != ENOENT { failures.append((anchor.path(of: relative), error)) }
        case .success(let directory):
            removeContents(directory, relative, &failures)
        }
        return failures
    }

    private func removeContents(_ directory: FileDescriptor, _ relative: [UInt8], _ failures: inout [(RawPath, Errno)])
    {
        let names: [[UInt8]]
        switch DirectoryListing.names(directory.raw) {
        case .success(let listed): names = listed
        case .failure(let error):
            failures.append((anchor.path(of: relative), error))
            return
        }
        for name in names {
            let child = relative.isEmpty ? name : relative + [UInt8(ascii: "/")] + name
            guard case .success(let st) = Sys.statx(at: directory.raw, name) else { continue }
            if st.isDirectory {
                switch anchor.openChild(of: directory.raw, name, O_RDONLY | O_DIRECTORY) {
                case .success(let sub):
                    removeContents(sub, child, &failures)
                    if case .failure(let error) = Sys.unlinkat(directory.raw, name, directory: true),
                        error.code != ENOENT
                    {
                        failures.append((anchor.path(of: child), error))
                    }
                case .failure(let error):
                    failures.append((anchor.path(of: child), error))
                }
            } else if !anchor.isOnAnchorMount(st) {
                failures.append((anchor.path(of: child), .crossDevice))
            } else if case .failure(let error) = Sys.unlinkat(directory.raw, name), error.code != ENOENT {
                failures.append((anchor.path(of: child), error))
            }
        }
    }

}

/// Directories below an anchor opened once each (bounded), for many lookups or deletions
/// in few directories. One per thread.
public final class DirectoryCache {
    /// The root every directory is opened below.
    public let anchor: AnchoredDirectory
    private var directories: [[UInt8]: FileDescriptor] = [:]
    private let limit: Int

    /// A cache of at most `limit` open directories (default 256).
    public init(_ anchor: AnchoredDirectory, limit: Int = 256) {
        self.anchor = anchor
        self.limit = limit
    }

    /// The descriptor of a directory below the anchor (the anchor for an empty path).
    package func directory(_ relative: [UInt8]) -> Result<FileDescriptor, Errno> {
        if relative.isEmpty { return .success(anchor.descriptor) }
        if let known = directories[relative] { return .success(known) }
        let opened = anchor.openDirectory(relative)
        if case .success(let fd) = opened {
            if directories.count >= limit { directories.removeAll(keepingCapacity: true) }
            directories[relative] = fd
        }
        return opened
    }

    /// lstat (statx) of what `relative` names, through its parent opened below the anchor.
    package func status(of relative: [UInt8]) -> Result<StatInfo, Errno> {
        guard AnchoredDirectory.isValidRelative(relative) else { return .failure(.invalid) }
        let (parent, name) = AnchoredDirectory.split(relative)
        return directory(parent).flatMap { Sys.statx(at: $0.raw, name) }
    }

    /// Drops a directory's descriptor (before removing it).
    package func forget(_ relative: [UInt8]) { directories[relative] = nil }
}

/// Reading a directory's names.
public enum DirectoryListing {
    /// The names in the open directory `fd`, `.` and `..` excepted.
    public static func names(_ fd: Int32, limit: Int = .max) -> Result<[[UInt8]], Errno> {
        let stream: OpaquePointer
        // A new open of the directory: reading a duplicate would move (and find moved) the
        // position that every duplicate of `fd` shares. O_NOATIME where allowed (the
        // descriptor itself was opened with it when its anchor required so).
        var opened = Sys.openDirectoryStream(fd, independent: true, noAtime: true)
        if case .failure(let error) = opened, error.code == EPERM {
            opened = Sys.openDirectoryStream(fd, independent: true)
        }
        switch opened {
        case .success(let s): stream = s
        case .failure(let error): return .failure(error)
        }
        defer { Sys.closeDirectoryStream(stream) }
        var names: [[UInt8]] = []
        var error: Errno?
        while let entry = Sys.readDirectory(stream, error: &error) {
            let name: [UInt8] = Sys.withName(entry) { pointer in
                Array(
                    UnsafeBufferPointer(
                        start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
            }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            names.append(name)
            if names.count >= limit { break }
        }
        if let error { return .failure(error) }
        return .success(names)
    }
}
