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
    ///
    /// Without recursion: a tree tens of thousands of directories deep would overflow the
    /// stack. At most `openLevels` levels keep their descriptors; deeper down, the highest are
    /// closed and each is opened again, on the way back up, as `..` of the level below it, and
    /// used only if it is still the directory it was (same device and inode); otherwise the
    /// emptying stops there and says so. A level that cannot be opened is reported, not entered.
    public func removeContents(of relative: [UInt8]) -> [(path: RawPath, error: Errno)] {
        var failures: [(RawPath, Errno)] = []
        switch anchor.open(relative, O_RDONLY | O_DIRECTORY) {
        case .failure(let error):
            if error.code != ENOENT { failures.append((anchor.path(of: relative), error)) }
        case .success(let directory):
            Sys.raiseDescriptorLimit()
            var levels = [listed(directory, relative, name: [], &failures)]
            // levels[..<closed] have given up their descriptors.
            var closed = 0
            while !levels.isEmpty {
                guard let name = levels[levels.count - 1].next() else {
                    let done = levels.removeLast()
                    guard !levels.isEmpty else { break }
                    if closed == levels.count {
                        guard reopen(&levels[levels.count - 1], above: done, &failures) else { break }
                        closed -= 1
                    }
                    removeEmptied(done, in: levels[levels.count - 1], &failures)
                    continue
                }
                if let entered = removeEntry(name, in: levels[levels.count - 1], &failures) {
                    levels.append(entered)
                    if levels.count - closed > Self.openLevels {
                        levels[closed].directory = nil
                        closed += 1
                    }
                }
            }
        }
        return failures
    }

    /// How many levels being emptied keep their descriptors open at most.
    static let openLevels = 128

    /// A directory being emptied: its descriptor (nil while closed, deep below), identity,
    /// path, name in its parent, and the names it held when listed, taken one at a time.
    private struct Level {
        var directory: FileDescriptor?
        let identity: (device: UInt64, inode: UInt64)?
        let relative: [UInt8]
        let name: [UInt8]
        private var names: IndexingIterator<[[UInt8]]>

        init(_ directory: FileDescriptor, _ relative: [UInt8], name: [UInt8], names: [[UInt8]]) {
            (self.directory, self.relative, self.name, self.names) = (directory, relative, name, names.makeIterator())
            if case .success(let st) = Sys.fstat(directory.raw) {
                identity = (st.device, st.inode)
            } else {
                identity = nil
            }
        }

        mutating func next() -> [UInt8]? { names.next() }
    }

    /// Removes one entry of `level`: a file at once; a directory is returned as the next level
    /// to empty (nil when it cannot be entered: reported).
    private func removeEntry(_ name: [UInt8], in level: Level, _ failures: inout [(RawPath, Errno)]) -> Level? {
        let child = AnchoredDirectory.join(level.relative, name)
        guard let directory = level.directory, case .success(let st) = Sys.statx(at: directory.raw, name) else {
            return nil
        }
        if st.isDirectory {
            switch anchor.openChild(of: directory.raw, name, O_RDONLY | O_DIRECTORY) {
            case .success(let sub):
                return listed(sub, child, name: name, &failures)
            case .failure(let error):
                failures.append((anchor.path(of: child), error))
            }
        } else if !anchor.isOnAnchorMount(st) {
            failures.append((anchor.path(of: child), .crossDevice))
        } else if case .failure(let error) = Sys.unlinkat(directory.raw, name), error.code != ENOENT {
            failures.append((anchor.path(of: child), error))
        }
        return nil
    }

    /// A directory to empty, with its names listed (none, and the failure reported, when it
    /// cannot be listed: it is still removed if it turns out empty).
    private func listed(
        _ directory: FileDescriptor, _ relative: [UInt8], name: [UInt8], _ failures: inout [(RawPath, Errno)]
    )
        -> Level
    {
        switch DirectoryListing.names(directory.raw) {
        case .success(let names):
            return Level(directory, relative, name: name, names: names)
        case .failure(let error):
            failures.append((anchor.path(of: relative), error))
            return Level(directory, relative, name: name, names: [])
        }
    }

    /// Opens a closed level again as `..` of the level just emptied below it: only the very
    /// directory it was (same device and inode), else the failure is reported and false.
    private func reopen(_ level: inout Level, above done: Level, _ failures: inout [(RawPath, Errno)]) -> Bool {
        guard let below = done.directory, let identity = level.identity else {
            failures.append((anchor.path(of: level.relative), .invalid))
            return false
        }
        switch Sys.openat(below.raw, Array("..".utf8), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC).owned {
        case .success(let parent):
            guard case .success(let st) = Sys.fstat(parent.raw), st.device == identity.device,
                st.inode == identity.inode
            else {
                // Moved meanwhile: no longer there, as far as this emptying goes.
                failures.append((anchor.path(of: level.relative), .noEntry))
                return false
            }
            level.directory = parent
            return true
        case .failure(let error):
            failures.append((anchor.path(of: level.relative), error))
            return false
        }
    }

    /// Removes a directory whose contents have been removed, from its parent's level.
    private func removeEmptied(_ done: Level, in parent: Level, _ failures: inout [(RawPath, Errno)]) {
        guard let directory = parent.directory else { return }
        if case .failure(let error) = Sys.unlinkat(directory.raw, done.name, directory: true),
            error.code != ENOENT
        {
            failures.append((anchor.path(of: done.relative), error))
        }
    }

}
