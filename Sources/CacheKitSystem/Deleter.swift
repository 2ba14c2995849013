#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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

    /// Unlinks a file this process made or took in a directory it holds open (a temporary
    /// file, a claimed download's metadata), only while `name` there is still that file: the
    /// same device and inode as the descriptor it was opened with (`identity`, from `fstat`).
    package static func removeOwnFile(_ name: [UInt8], in directory: FileDescriptor, identity: StatInfo)
        -> DeletionResult
    {
        switch Sys.statx(at: directory.raw, name) {
        case .failure(let error): return error.code == ENOENT ? .vanished : .failed(error)
        case .success(let st):
            guard !st.isDirectory, st.device == identity.device, st.inode == identity.inode else { return .changed }
        }
        switch Sys.unlinkat(directory.raw, name) {
        case .success: return .removed
        case .failure(let error): return error.code == ENOENT ? .vanished : .failed(error)
        }
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
