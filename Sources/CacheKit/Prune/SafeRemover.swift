#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Deletes files inside one root, and nothing else: every path is walked from the root's
/// descriptor one component at a time with `O_NOFOLLOW`, every directory on the way must be
/// on the root's file system, and the last step is `unlinkat` of a non-directory. A
/// directory swapped for a symlink mid-run makes the walk fail; it never redirects a deletion.
public final class SafeRemover {
    public let root: RawPath
    private let rootFD: Int32
    private let rootDevice: UInt64
    /// Open descriptors of directories already walked, by relative path.
    private var directories: [[UInt8]: Int32] = [:]

    public init(root: RawPath) throws {
        self.root = root
        // The root itself is the user's choice: it is opened as given.
        let fd = root.withCString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { throw StoreError.cannotRead(root, Errno(errno).description) }
        guard case .success(let st) = Sys.fstat(fd) else { close(fd); throw StoreError.cannotRead(root, Errno(errno).description) }
        rootFD = fd
        rootDevice = st.device
    }

    deinit {
        for fd in directories.values { close(fd) }
        close(rootFD)
    }

    /// The root's descriptor, for an advisory lock on the whole root.
    var descriptor: Int32 { rootFD }

    /// The path relative to the root, or nil when it is not strictly inside it.
    func relative(_ path: RawPath) -> [[UInt8]]? {
        var prefix = root.bytes
        while prefix.count > 1 && prefix.last == UInt8(ascii: "/") { prefix.removeLast() }
        guard path.bytes.count > prefix.count + 1, path.bytes.starts(with: prefix),
              path.bytes[prefix.count] == UInt8(ascii: "/") else { return nil }
        let parts = path.bytes[(prefix.count + 1)...].split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).map(Array.init)
        if parts.isEmpty || parts.contains(where: { $0 == [0x2E] || $0 == [0x2E, 0x2E] }) { return nil }
        return parts
    }

    /// Unlinks the non-directory at `path` (a symlink is unlinked, never its target).
    public func remove(_ path: RawPath) -> Result<Void, Errno> {
        guard let parts = relative(path) else { return .failure(Errno(EPERM)) }
        let parent: Int32
        switch directory(Array(parts.dropLast())) {
        case .success(let fd): parent = fd
        case .failure(let error): return .failure(error)
        }
        let name = parts.last!.map { CChar(bitPattern: $0) } + [0]
        if unlinkat(parent, name, 0) == 0 { return .success(()) }
        return .failure(Errno(errno))
    }

    /// Removes the directory at `path` if it is empty (never the root).
    @discardableResult
    public func removeIfEmpty(_ path: RawPath) -> Bool {
        guard let parts = relative(path), case .success(let parent) = directory(Array(parts.dropLast())) else { return false }
        let key = parts.flatMap { $0 + [UInt8(ascii: "/")] }
        if let fd = directories.removeValue(forKey: key) { close(fd) }
        let name = parts.last!.map { CChar(bitPattern: $0) } + [0]
        return unlinkat(parent, name, AT_REMOVEDIR) == 0
    }

    /// The descriptor of a directory below the root, opened component by component.
    private func directory(_ parts: [[UInt8]]) -> Result<Int32, Errno> {
        var current = rootFD
        var key: [UInt8] = []
        for part in parts {
            key += part + [UInt8(ascii: "/")]
            if let cached = directories[key] { current = cached; continue }
            let name = part.map { CChar(bitPattern: $0) } + [0]
            let fd = openat(current, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else { return .failure(Errno(errno)) }
            guard case .success(let st) = Sys.fstat(fd), st.device == rootDevice else {
                close(fd)
                return .failure(Errno(EXDEV)) // a mount point inside the root: never crossed
            }
            if directories.count > 512 {
                for fd in directories.values { close(fd) }
                directories.removeAll()
                // `current` may have been closed with the rest: walk again from the root.
                return directory(parts)
            }
            directories[key] = fd
            current = fd
        }
        return .success(current)
    }

    /// Takes the whole-root advisory lock (flock on the root directory itself, so nothing
    /// is written into a foreign cache). Waits while another holder has it; `onWait` is
    /// called once before waiting.
    func lockExclusively(onWait: () -> Void) throws {
        if flock(rootFD, LOCK_EX | LOCK_NB) == 0 { return }
        guard errno == EWOULDBLOCK else { throw StoreError.cannotRead(root, Errno(errno).description) }
        onWait()
        while flock(rootFD, LOCK_EX) != 0 {
            if errno != EINTR { throw StoreError.cannotRead(root, Errno(errno).description) }
        }
    }
}
