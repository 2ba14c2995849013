#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sequential, symlink-safe listings for the store and the formats (small trees; `du`'s
/// walker is the fast path for big ones), through an anchored directory's descriptor: no
/// symlink is followed, no mount point entered (a bind mount of the same file system
/// included), nothing re-opened by path.
public enum FileTree {
    /// Called with the number of files each directory of a walk on this task held: a prune's
    /// progress line counts what its formats inspect this way (`Pruner` binds it).
    @TaskLocal package static var countFound: FoundCounter?

    /// What `countFound` holds. A class, not the closure itself: Swift 6.3's release builds
    /// crash in `swift_task_localValuePush` when a task-local of a closure type is bound with
    /// `withValue` (a bad pointer read; `cachectl prune` died of SIGSEGV before any work), while
    /// a task-local of a class type works.
    package final class FoundCounter: Sendable {
        let add: @Sendable (Int) -> Void
        package init(_ add: @escaping @Sendable (Int) -> Void) { self.add = add }
    }

    /// A non-directory found by the walk, with its status.
    public struct File {
        /// For people: the anchor's path joined with `anchorRelative`.
        public var path: RawPath
        /// Path relative to the listed directory.
        public var relative: [UInt8]
        /// Path relative to the anchor (what deletion takes).
        public var anchorRelative: [UInt8]
        package var stat: StatInfo

        package init(path: RawPath, relative: [UInt8], anchorRelative: [UInt8], stat: StatInfo) {
            (self.path, self.relative, self.anchorRelative, self.stat) = (path, relative, anchorRelative, stat)
        }
        /// Blocks on disk (`st_blocks × 512`).
        public var allocatedBytes: Int64 { stat.allocatedBytes }
        /// `st_size`.
        public var apparentBytes: Int64 { stat.apparentBytes }
        /// `st_mtime`.
        public var modified: FileTime { stat.modified }
        /// Whether it is a symbolic link.
        public var isSymlink: Bool { stat.isSymlink }
        /// Whether it is a regular file.
        public var isRegular: Bool { stat.isRegular }
        /// Device and inode, size and time: what deletion checks again.
        public var identity: FileIdentity { FileIdentity(stat) }
        /// When its content was last written (what a grace period counts from).
        public var lastWritten: FileTime { stat.lastWritten }
        /// Its access time.
        public var accessed: FileTime { stat.accessed }
        /// Its birth (creation) time, where the file system records it.
        public var born: FileTime? { stat.born }
    }

    /// A subdirectory about to be entered: `enter` may look inside through `descriptor`.
    public struct Subdirectory {
        /// Its path below the anchor.
        public var anchorRelative: [UInt8]
        /// Its open descriptor (valid during the `enter` call only).
        public var descriptor: Int32
        /// The names it holds, as the walk listed them (what it goes on to look at when
        /// entered), so a test for a marker file needs no system call where the name is
        /// absent; nil when it could not be listed.
        public var names: [[UInt8]]?
    }

    /// Every non-directory below the directory `relative` of `anchor` (the anchor itself
    /// when empty); symlinks listed, never followed; entries on another mount left out; with
    /// `skipping`, top-level names left out; subdirectories for which `enter` says false not
    /// entered.
    public static func files(
        in anchor: AnchoredDirectory, under relative: [UInt8] = [], recursive: Bool = true,
        skipping: Set<[UInt8]> = [], enter: (Subdirectory) -> Bool = { _ in true }
    ) -> [File] {
        var out: [File] = []
        // The path below the listed directory is the anchor-relative path without `relative/`.
        let drop = relative.isEmpty ? 0 : relative.count + 1
        walk(in: anchor, under: relative, recursive: recursive, skipping: skipping, enter: enter) { path, st in
            out.append(
                File(
                    path: anchor.path(of: path), relative: drop == 0 ? path : Array(path[drop...]),
                    anchorRelative: path, stat: st))
        }
        return out
    }

    /// `files(in:)` without collecting: `found` is called with each non-directory's path below
    /// the anchor and its status, in the same order.
    package static func walk(
        in anchor: AnchoredDirectory, under relative: [UInt8] = [], recursive: Bool = true,
        skipping: Set<[UInt8]> = [], enter: (Subdirectory) -> Bool = { _ in true },
        _ found: ([UInt8], StatInfo) -> Void
    ) {
        guard case .success(let top) = anchor.openDirectory(relative) else { return }
        // Depth first, in listing order, without recursion: a tree tens of thousands of
        // directories deep (anyone who can write in a cache can make one) would overflow the
        // stack. Each pending directory holds its parent's descriptor until it is opened, so a
        // deep chain keeps few open (as `du`'s walker does).
        var pending = [Pending(parent: top, name: [], anchorRelative: relative, isTop: true)]
        while let next = pending.popLast() {
            let directory: FileDescriptor
            if next.isTop {
                directory = next.parent
            } else {
                guard
                    case .success(let child) = anchor.openChild(of: next.parent.raw, next.name, O_RDONLY | O_DIRECTORY)
                else { continue }
                directory = child
            }
            let names = try? DirectoryListing.names(directory.raw).get()
            if !next.isTop {
                guard enter(Subdirectory(anchorRelative: next.anchorRelative, descriptor: directory.raw, names: names))
                else { continue }
            }
            let subdirectories = list(
                anchor, directory, names ?? [], next.anchorRelative, top: next.isTop, recursive: recursive,
                skipping: skipping, found)
            for name in subdirectories.reversed() {
                pending.append(
                    Pending(
                        parent: directory, name: name,
                        anchorRelative: AnchoredDirectory.join(next.anchorRelative, name),
                        isTop: false))
            }
        }
    }

    /// A directory to list: `name` in `parent` (or, at the top, the listed directory itself).
    private struct Pending {
        var parent: FileDescriptor
        var name: [UInt8]
        var anchorRelative: [UInt8]
        var isTop: Bool
    }

    /// Reports the non-directories among one directory's `names` and returns its
    /// subdirectories' names (none unless `recursive`).
    private static func list(
        _ anchor: AnchoredDirectory, _ directory: FileDescriptor, _ names: [[UInt8]], _ anchorRelative: [UInt8],
        top: Bool, recursive: Bool, skipping: Set<[UInt8]>, _ found: ([UInt8], StatInfo) -> Void
    ) -> [[UInt8]] {
        var subdirectories: [[UInt8]] = []
        var files = 0
        for name in names {
            if top && skipping.contains(name) { continue }
            guard case .success(let st) = Sys.statx(at: directory.raw, name), anchor.isOnAnchorMount(st) else {
                continue
            }
            if st.isDirectory {
                if recursive { subdirectories.append(name) }
            } else {
                found(AnchoredDirectory.join(anchorRelative, name), st)
                files += 1
            }
        }
        FileTree.countFound?.add(files)
        return subdirectories
    }

    /// Every non-directory below `directory`, anchored at it (see `files(in:)`).
    public static func files(under directory: RawPath, recursive: Bool = true) -> [File] {
        guard case .success(let anchor) = AnchoredDirectory.open(directory) else { return [] }
        return files(in: anchor, recursive: recursive)
    }

    /// The names of the immediate subdirectories of the directory `relative` (not symlinks to
    /// directories, not mount points).
    package static func subdirectories(in anchor: AnchoredDirectory, of relative: [UInt8] = []) -> [[UInt8]] {
        guard case .success(let directory) = anchor.openDirectory(relative),
            case .success(let names) = DirectoryListing.names(directory.raw)
        else { return [] }
        return names.filter { name in
            guard case .success(let st) = Sys.statx(at: directory.raw, name) else { return false }
            return st.isDirectory && anchor.isOnAnchorMount(st)
        }
    }

    /// The names directly in the directory `relative` (files and folders).
    package static func names(in anchor: AnchoredDirectory, of relative: [UInt8] = []) -> [[UInt8]] {
        guard case .success(let directory) = anchor.openDirectory(relative),
            case .success(let names) = DirectoryListing.names(directory.raw)
        else { return [] }
        return names
    }
}
