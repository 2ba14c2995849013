#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A directory opened once, through whose descriptor everything below it is reached: the
/// anchor of every listing and deletion in a cache.
///
/// The directory is opened when it is checked, and never again by path: a root swapped for a
/// symlink afterwards changes nothing, since every later step goes through this descriptor.
/// Paths below it are resolved by the kernel with `openat2(RESOLVE_BENEATH |
/// RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV)` where it can (see `BeneathResolution`), so no
/// symlink, `..` or mount point — a same-file-system bind mount included — leads out of it.
public final class AnchoredDirectory: @unchecked Sendable {
    // @unchecked Sendable: immutable (`let`s); the descriptor is closed only when the last reference goes.
    /// The path as the caller gave it: for messages and for the paths of what is found.
    public let path: RawPath
    /// Where the directory is, symlinks resolved (read from the descriptor when it was opened).
    public let canonicalPath: RawPath
    /// Its descriptor (O_DIRECTORY, never closed while this value lives).
    package let descriptor: FileDescriptor
    /// `(st_dev, st_ino)`, owner and mount id when it was opened.
    package let status: StatInfo
    /// When true (dry runs), every read open below it must use O_NOATIME, and fails (EPERM)
    /// where the system refuses it, rather than change an access time.
    public let mustPreserveAccessTimes: Bool
    package let resolution: BeneathResolution

    package var fd: Int32 { descriptor.raw }

    /// Opens `path` as an anchor. A final symlink is followed (the user named a link to a
    /// cache); anything else must be a directory.
    /// - Parameters:
    ///   - path: the directory (or a symlink to it).
    ///   - mustPreserveAccessTimes: dry runs: see the property. Default false
    ///     (O_NOATIME where the system allows it).
    public static func open(_ path: RawPath, mustPreserveAccessTimes: Bool = false) -> Result<AnchoredDirectory, Errno>
    {
        let isLink: Bool
        switch Sys.lstat(path: path) {
        case .success(let st): isLink = st.isSymlink
        case .failure(let error): return .failure(error)
        }
        let flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | (isLink ? 0 : O_NOFOLLOW)
        let opened = Sys.openWithoutAtime(path, flags, strict: mustPreserveAccessTimes)
        guard case .success(let raw) = opened else { return .failure(opened.failure ?? .invalid) }
        let descriptor = FileDescriptor(adopting: raw)
        guard case .success(let st) = Sys.statx(raw) else { return .failure(Errno.current) }
        guard st.isDirectory else { return .failure(.notDirectory) }
        guard let canonical = locate(descriptor: raw, st, given: path) else { return .failure(.noEntry) }
        return .success(
            AnchoredDirectory(
                path: path, canonicalPath: canonical, descriptor: descriptor, status: st,
                mustPreserveAccessTimes: mustPreserveAccessTimes))
    }

    package init(
        path: RawPath, canonicalPath: RawPath, descriptor: FileDescriptor, status: StatInfo,
        mustPreserveAccessTimes: Bool, resolution: BeneathResolution = .current
    ) {
        self.path = path
        self.canonicalPath = canonicalPath
        self.descriptor = descriptor
        self.status = status
        self.mustPreserveAccessTimes = mustPreserveAccessTimes
        self.resolution = resolution
    }

    /// Where the open directory is now: the kernel's name for the descriptor, else
    /// `realpath` of the given path; either only when it names this very directory.
    private static func locate(descriptor fd: Int32, _ st: StatInfo, given: RawPath) -> RawPath? {
        func names(_ candidate: RawPath) -> Bool {
            guard candidate.bytes.first == UInt8(ascii: "/"), case .success(let other) = Sys.stat(path: candidate)
            else { return false }
            return other.isSameFile(as: st)
        }
        #if os(Linux)
            if case .success(let target) = Sys.readlink(RawPath("/proc/self/fd/\(fd)")), names(RawPath(bytes: target)) {
                return RawPath(bytes: target)
            }
        #endif
        if case .success(let resolved) = Sys.realpath(given), names(resolved) { return resolved }
        return nil
    }

    /// The same directory anchored again with `mustPreserveAccessTimes` (shares the descriptor).
    public func preservingAccessTimes() -> AnchoredDirectory {
        AnchoredDirectory(
            path: path, canonicalPath: canonicalPath, descriptor: descriptor, status: status,
            mustPreserveAccessTimes: true, resolution: resolution)
    }

    /// The directory `relative` below this one, anchored in its own right (opened below this
    /// anchor, so by the same rules).
    public func anchoring(_ relative: [UInt8]) -> Result<AnchoredDirectory, Errno> {
        if relative.isEmpty { return .success(self) }
        return openDirectory(relative).flatMap { anchoring(relative, adopting: $0) }
    }

    /// An anchor at `relative`, through `descriptor`, that directory already opened below this
    /// anchor (a walk's subdirectory): nothing opened again by path, which in a tree thousands
    /// of levels deep made each directory entered cost a lookup of every level above it.
    public func anchoring(_ relative: [UInt8], opened descriptor: Int32) -> Result<AnchoredDirectory, Errno> {
        if relative.isEmpty { return .success(self) }
        return Sys.dup(descriptor).owned.flatMap { anchoring(relative, adopting: $0) }
    }

    /// An anchor at `relative` over `child`, its directory opened below this anchor.
    private func anchoring(_ relative: [UInt8], adopting child: FileDescriptor) -> Result<AnchoredDirectory, Errno> {
        Sys.statx(child.raw).map { st in
            AnchoredDirectory(
                path: path(of: relative), canonicalPath: canonicalPath.appending(relative), descriptor: child,
                status: st, mustPreserveAccessTimes: mustPreserveAccessTimes, resolution: resolution)
        }
    }

    /// A path by which a library that only takes paths (SQLite) reaches `relative` in this
    /// very directory: through the descriptor (`/proc/self/fd/N/…`) where the system has
    /// that, else through the canonical path. Valid while this anchor lives.
    public func systemPath(of relative: [UInt8]) -> RawPath {
        #if os(Linux)
            if Self.procSelfFD { return RawPath("/proc/self/fd/\(fd)").appending(relative) }
        #endif
        return canonicalPath.appending(relative)
    }

    private static let procSelfFD: Bool = {
        guard case .success(let st) = Sys.stat(path: RawPath("/proc/self/fd")) else { return false }
        return st.isDirectory
    }()

    /// Why nothing can be written in this directory (a read-only file system, no write
    /// permission for this user), nil when writing is allowed.
    public var writeRefusal: Errno? { Sys.accessWritable(fd).failure }

    /// The display path of something below the anchor.
    public func path(of relative: [UInt8]) -> RawPath { relative.isEmpty ? path : path.appending(relative) }

    /// Whether `relative` is a path this anchor resolves: components separated by single
    /// slashes, none empty, `.` or `..`, no NUL.
    public static func isValidRelative(_ relative: [UInt8]) -> Bool {
        relative.withUnsafeBufferPointer(isValidRelative(bytes:))
    }

    /// `isValidRelative(_:)` on bytes in memory.
    public static func isValidRelative(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // By `memchr` (a loop over the buffer's elements took a microsecond a path of a store's
        // length, for each of a page's 18,000 bodies).
        guard let base = bytes.baseAddress, memchr(base, 0, bytes.count) == nil else { return false }
        var start = 0
        while true {
            let slash = memchr(base + start, Int32(UInt8(ascii: "/")), bytes.count - start)
            let end = slash.map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base } ?? bytes.count
            let length = end - start
            if length == 0 { return false }
            if length <= 2 && bytes[start..<end].allSatisfy({ $0 == UInt8(ascii: ".") }) { return false }
            if end == bytes.count { return true }
            start = end + 1
        }
    }

    // MARK: Opening below

    /// Opens what `relative` names below the anchor (the anchor itself when empty), never
    /// through a symlink, out of it or across a mount. Read-only opens leave access times
    /// alone where they can (always, or fail, with `mustPreserveAccessTimes`).
    public func open(_ relative: [UInt8], _ flags: Int32, mode: mode_t = 0) -> Result<FileDescriptor, Errno> {
        if relative.isEmpty {
            return Sys.dup(fd).owned
        }
        return open(relative, beneath: descriptor, flags, mode: mode)
    }

    /// Opens what `relative` names below `base`, a directory already opened below this anchor
    /// (or the anchor's own descriptor), by the same rules as `open`.
    package func open(_ relative: [UInt8], beneath base: FileDescriptor, _ flags: Int32, mode: mode_t = 0)
        -> Result<FileDescriptor, Errno>
    {
        guard !relative.isEmpty, Self.isValidRelative(relative) else { return .failure(.invalid) }
        switch resolution {
        case .kernel:
            // A path longer than the kernel takes at once (a tree thousands of levels deep) is
            // opened a part at a time, each part beneath the directory the one before opened:
            // still beneath the anchor, on its mount, through no symlink.
            if relative.count <= Self.longestPath { return openBeneath(base.raw, relative, flags, mode: mode) }
            var base = base
            var rest = relative[...]
            while rest.count > Self.longestPath {
                let limit = rest.index(rest.startIndex, offsetBy: Self.longestPath)
                guard let slash = rest[..<limit].lastIndex(of: UInt8(ascii: "/")) else { break }
                switch openBeneath(base.raw, Array(rest[..<slash]), O_RDONLY | O_DIRECTORY, mode: 0) {
                case .success(let next): base = next
                case .failure(let error): return .failure(error)
                }
                rest = rest[(slash + 1)...]
            }
            return openBeneath(base.raw, Array(rest), flags, mode: mode)
        case .componentwise:
            let parts = relative.split(separator: UInt8(ascii: "/")).map(Array.init)
            var current: FileDescriptor = base
            for part in parts.dropLast() {
                switch openChild(of: current.raw, part, O_RDONLY | O_DIRECTORY) {
                case .success(let next): current = next
                case .failure(let error): return .failure(error)
                }
            }
            return openChild(of: current.raw, parts.last!, flags, mode: mode)
        }
    }

    /// The longest path `openat2` takes (PATH_MAX, its terminating zero included).
    private static let longestPath = Int(PATH_MAX) - 1

    /// `openat2` beneath `base` (see `open`), tried again while a rename races the lookup.
    private func openBeneath(_ base: Int32, _ path: [UInt8], _ flags: Int32, mode: mode_t)
        -> Result<FileDescriptor, Errno>
    {
        path.withCString { name in
            withoutAtime(flags) { flags in
                var attempt = 0
                while true {
                    let result = Sys.openBeneath(base, name, flags | O_NOFOLLOW | O_CLOEXEC, mode: mode)
                    // EAGAIN: a rename raced the lookup; the kernel asks to try again.
                    if case .failure(let error) = result, error.code == EAGAIN, attempt < 16 {
                        attempt += 1
                        continue
                    }
                    return result
                }
            }
        }.owned
    }

    /// Opens the directory `relative` names below the anchor (see `open`).
    public func openDirectory(_ relative: [UInt8]) -> Result<FileDescriptor, Errno> {
        open(relative, O_RDONLY | O_DIRECTORY)
    }

    /// Opens `name` in `parent`, a directory already opened below this anchor: one
    /// component, the same rules as `open`.
    public func openChild(of parent: Int32, _ name: [UInt8], _ flags: Int32, mode: mode_t = 0) -> Result<
        FileDescriptor, Errno
    > {
        guard !name.isEmpty, !name.contains(UInt8(ascii: "/")), Self.isValidRelative(name) else {
            return .failure(.invalid)
        }
        return name.withCString { openChild(of: parent, $0, flags, mode: mode) }
    }

    /// `openChild` with a C string name (the walk's hot path).
    public func openChild(of parent: Int32, _ name: UnsafePointer<CChar>, _ flags: Int32, mode: mode_t = 0) -> Result<
        FileDescriptor, Errno
    > {
        switch resolution {
        case .kernel:
            return withoutAtime(flags) { Sys.openBeneath(parent, name, $0 | O_NOFOLLOW | O_CLOEXEC, mode: mode) }.owned
        case .componentwise:
            let opened = withoutAtime(flags) { Sys.openat(parent, name, $0 | O_NOFOLLOW | O_CLOEXEC, mode: mode) }.owned
            guard case .success(let child) = opened else { return opened }
            // What openat2's RESOLVE_NO_XDEV would refuse: another mount, bind mounts included.
            guard case .success(let st) = Sys.statx(child.raw) else { return .failure(Errno.current) }
            guard isOnAnchorMount(st) else { return .failure(.crossDevice) }
            return .success(child)
        }
    }

    /// Whether `st` is on the anchor's mount: the same mount id where the system gives
    /// one, else the same device.
    package func isOnAnchorMount(_ st: StatInfo) -> Bool {
        if let mine = status.mountID, let theirs = st.mountID { return mine == theirs }
        return st.device == status.device
    }

    private func withoutAtime(_ flags: Int32, _ open: (Int32) -> Result<Int32, Errno>) -> Result<Int32, Errno> {
        guard Sys.noAtime != 0, flags & O_ACCMODE == O_RDONLY else { return open(flags) }
        let result = open(flags | Sys.noAtime)
        if case .failure(let error) = result, error.code == EPERM, !mustPreserveAccessTimes { return open(flags) }
        return result
    }

    // MARK: Status and contents below

    /// lstat (statx) of what `relative` names, through its parent opened below the anchor.
    package func status(of relative: [UInt8]) -> Result<StatInfo, Errno> {
        if relative.isEmpty { return Sys.statx(fd) }
        guard Self.isValidRelative(relative) else { return .failure(.invalid) }
        let (parent, name) = Self.split(relative)
        switch parent.isEmpty ? .success(descriptor) : openDirectory(parent) {
        case .success(let directory): return Sys.statx(at: directory.raw, name)
        case .failure(let error): return .failure(error)
        }
    }

    /// Whether something (anything, a dangling symlink included) is at `relative`.
    public func exists(_ relative: [UInt8]) -> Bool {
        if case .success = status(of: relative) { return true }
        return false
    }

    /// Up to `count` bytes from the start of the regular file at `relative`.
    public func readPrefix(_ relative: [UInt8], count: Int) -> Result<[UInt8], Errno> {
        open(relative, O_RDONLY | O_NONBLOCK).flatMap { file in
            guard case .success(let st) = Sys.fstat(file.raw) else { return .failure(Errno.current) }
            guard st.isRegular else { return .failure(.invalid) }
            return Self.read(file.raw, upTo: count)
        }
    }

    /// The target of the symlink at `relative` (not followed), read in its parent reached
    /// below the anchor.
    public func readLink(_ relative: [UInt8]) -> Result<[UInt8], Errno> {
        let (parent, name) = Self.split(relative)
        return openDirectory(parent).flatMap { directory in Sys.readlink(at: directory.raw, name) }
    }

    /// The whole regular file at `relative`.
    public func readAll(_ relative: [UInt8]) -> Result<[UInt8], Errno> {
        open(relative, O_RDONLY | O_NONBLOCK).flatMap { file in
            guard case .success(let st) = Sys.fstat(file.raw) else { return .failure(Errno.current) }
            guard st.isRegular else { return .failure(.invalid) }
            return Self.read(file.raw, upTo: Int.max)
        }
    }

    /// Reads until `limit` bytes or the end of the file.
    package static func read(_ fd: Int32, upTo limit: Int) -> Result<[UInt8], Errno> {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: min(limit, 1 << 16))
        while out.count < limit {
            let want = min(buffer.count, limit - out.count)
            switch buffer.withUnsafeMutableBytes({ Sys.read(fd, $0.baseAddress!, want) }) {
            case .success(0): return .success(out)
            case .success(let n): out += buffer[0..<n]
            case .failure(let error): return .failure(error)
            }
        }
        return .success(out)
    }

    /// Makes the directories of `relative` below the anchor that do not exist yet (each
    /// made with `mkdirat` in its parent opened below the anchor); the last one, opened.
    public func makeDirectories(_ relative: [UInt8], mode: mode_t = 0o755) -> Result<FileDescriptor, Errno> {
        guard Self.isValidRelative(relative) else { return .failure(.invalid) }
        // Nearly always they all exist: one `openat2` of the whole path (beneath, as strict as
        // each step below) instead of an open per component.
        if case .kernel = resolution, case .success(let existing) = openDirectory(relative) {
            return .success(existing)
        }
        var current = descriptor
        for part in relative.split(separator: UInt8(ascii: "/")).map(Array.init) {
            var opened = openChild(of: current.raw, part, O_RDONLY | O_DIRECTORY)
            if case .failure(let error) = opened, error.code == ENOENT {
                if case .failure(let made) = Sys.mkdirat(current.raw, part, mode: mode), made.code != EEXIST {
                    return .failure(made)
                }
                opened = openChild(of: current.raw, part, O_RDONLY | O_DIRECTORY)
            }
            switch opened {
            case .success(let next): current = next
            case .failure(let error): return .failure(error)
            }
        }
        return .success(current)
    }

    /// The relative path of `name` in the directory `parent` (the anchor when empty).
    package static func join(_ parent: [UInt8], _ name: [UInt8]) -> [UInt8] {
        parent.isEmpty ? name : parent + [UInt8(ascii: "/")] + name
    }

    /// `relative` as its parent directory's relative path and its last name.
    package static func split(_ relative: [UInt8]) -> (parent: [UInt8], name: [UInt8]) {
        guard let slash = relative.lastIndex(of: UInt8(ascii: "/")) else { return ([], relative) }
        return (Array(relative[..<slash]), Array(relative[(slash + 1)...]))
    }

    // MARK: Locating absolute paths

    /// Where an absolute path (an index's record of a body, say) lands below this anchor:
    /// its directory is resolved as `realpath` does, and the result must be this anchor or
    /// below it, checked against the descriptor (so spelling the anchor as `.`, through a
    /// symlink or with `..` changes nothing, and bytes are compared, never lossy strings).
    /// Nil when it lands anywhere else. A directory that does not exist is judged by its
    /// spelling alone (lexically, against the canonical path).
    public func locate(_ absolute: RawPath) -> [UInt8]? {
        guard absolute.bytes.first == UInt8(ascii: "/") else { return nil }
        let name = absolute.lastComponent
        guard !name.isEmpty, name != [UInt8(ascii: "/")], Self.isValidRelative(name) else { return nil }
        let directory = absolute.parentDirectory
        let resolved: RawPath
        switch Sys.realpath(directory) {
        case .success(let real):
            // It must be this very tree: the directory found by name is the one opened
            // below the anchor by the relative path the name gives.
            let below = real == canonicalPath ? [] : real.relative(to: canonicalPath)
            guard let below else { return nil }
            guard case .success(let named) = Sys.stat(path: real),
                case .success(let reached) = below.isEmpty ? Sys.statx(fd) : status(of: below),
                named.isSameFile(as: reached)
            else { return nil }
            return Self.join(below, name)
        case .failure:
            resolved = Self.lexicallyNormalized(directory)
        }
        let below = resolved == canonicalPath ? [] : resolved.relative(to: canonicalPath)
        guard let below, below.isEmpty || Self.isValidRelative(below) else { return nil }
        return Self.join(below, name)
    }

    /// `/a/./b//c/../d` → `/a/b/d` (no file system access).
    package static func lexicallyNormalized(_ absolute: RawPath) -> RawPath {
        var parts: [[UInt8]] = []
        for part in absolute.bytes.split(separator: UInt8(ascii: "/")) {
            if part.elementsEqual([UInt8(ascii: ".")]) { continue }
            if part.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) {
                _ = parts.popLast()
                continue
            }
            parts.append(Array(part))
        }
        return RawPath(bytes: [UInt8(ascii: "/")] + Array(parts.joined(separator: [UInt8(ascii: "/")])))
    }
}

extension Result {
    /// The error, if this is one.
    package var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
