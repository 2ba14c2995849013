import CacheKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fresh temporary directory for one test, with helpers that make the files a test needs:
/// sized and sparse files, hard links, symlinks, odd names, set times, deep chains.
/// Paths are relative to the tree's root and may be given as raw bytes.
public final class TestTree {
    public let root: RawPath

    public init(_ label: String = "t") {
        var template = Array("/tmp/cachectl-test-\(label)-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        root = RawPath(bytes: template.dropLast().map { UInt8(bitPattern: $0) })
        Glibc.chmod(root.description, 0o755)
    }

    deinit { remove() }

    public func path(_ relative: String) -> RawPath { root.appending(relative) }
    public func path(bytes relative: [UInt8]) -> RawPath { root.appending(relative) }

    /// Removes the tree (also trees deeper than PATH_MAX and unreadable directories).
    public func remove() {
        _ = Run.command(["chmod", "-R", "u+rwx", root.description])
        _ = Run.command(["rm", "-rf", root.description])
    }

    @discardableResult
    public func dir(_ relative: String) -> RawPath {
        let p = path(relative)
        _ = Run.command(["mkdir", "-p", p.description])
        return p
    }

    /// A regular file of `size` bytes (written, so fully allocated), parents created.
    @discardableResult
    public func file(_ relative: String, size: Int = 0, byte: UInt8 = 0x61) -> RawPath {
        file(bytes: Array(relative.utf8), size: size, byte: byte)
    }

    @discardableResult
    public func file(bytes relative: [UInt8], size: Int = 0, byte: UInt8 = 0x61) -> RawPath {
        let p = path(bytes: relative)
        makeParents(of: p)
        write(p, [UInt8](repeating: byte, count: size))
        return p
    }

    @discardableResult
    public func file(_ relative: String, contents: [UInt8]) -> RawPath {
        let p = path(relative)
        makeParents(of: p)
        write(p, contents)
        return p
    }

    /// A sparse file: `size` bytes long with only its last byte written.
    @discardableResult
    public func sparse(_ relative: String, size: Int) -> RawPath {
        let p = path(relative)
        makeParents(of: p)
        p.withCString { c in
            let fd = open(c, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            precondition(fd >= 0)
            ftruncate(fd, off_t(size - 1))
            lseek(fd, off_t(size - 1), SEEK_SET)
            var b: UInt8 = 1
            _ = Glibc.write(fd, &b, 1)
            close(fd)
        }
        return p
    }

    public func hardLink(_ existing: String, _ new: String) {
        let n = path(new)
        makeParents(of: n)
        precondition(link(path(existing).description, n.description) == 0, "link failed")
    }

    /// A symlink at `relative` whose target text is `target` (not resolved).
    public func symlink(_ target: String, at relative: String) {
        let p = path(relative)
        makeParents(of: p)
        precondition(Glibc.symlink(target, p.description) == 0, "symlink failed")
    }

    /// Sets both access and modification time of an entry (not following symlinks).
    public func setModified(_ relative: String, secondsSinceEpoch: Int) {
        var times = [timespec(tv_sec: secondsSinceEpoch, tv_nsec: 0), timespec(tv_sec: secondsSinceEpoch, tv_nsec: 0)]
        precondition(utimensat(AT_FDCWD, path(relative).description, &times, AT_SYMLINK_NOFOLLOW) == 0)
    }

    /// Sets access and modification times apart (not following symlinks): the clocks image
    /// libraries keep (SDWebImage and Nuke by access date, Kingfisher's expiry in the
    /// modification date).
    public func setTimes(_ relative: String, accessed: Int, modified: Int) {
        var times = [timespec(tv_sec: accessed, tv_nsec: 0), timespec(tv_sec: modified, tv_nsec: 0)]
        precondition(utimensat(AT_FDCWD, path(relative).description, &times, AT_SYMLINK_NOFOLLOW) == 0)
    }

    /// A chain of nested directories `levels` deep, each called `name`, built relative to
    /// descriptors (its full path may exceed PATH_MAX); a file of `fileSize` bytes at the bottom.
    /// Returns the chain's top.
    @discardableResult
    public func deepChain(
        _ relative: String, levels: Int, fileSize: Int = 5000, name: String = String(repeating: "d", count: 50)
    ) -> RawPath {
        let top = dir(relative)
        var fd = top.withCString { open($0, O_RDONLY | O_DIRECTORY) }
        precondition(fd >= 0)
        for _ in 0..<levels {
            precondition(mkdirat(fd, name, 0o755) == 0, "mkdirat failed")
            let next = openat(fd, name, O_RDONLY | O_DIRECTORY)
            close(fd)
            fd = next
        }
        let out = openat(fd, "bottom.bin", O_WRONLY | O_CREAT, 0o644)
        let data = [UInt8](repeating: 7, count: fileSize)
        _ = data.withUnsafeBytes { Glibc.write(out, $0.baseAddress!, $0.count) }
        close(out)
        close(fd)
        return top
    }

    /// `st_blocks × 512` of one entry, not following symlinks.
    public func allocated(_ p: RawPath) -> Int64 {
        var st = stat()
        precondition(lstat(p.description, &st) == 0)
        return Int64(st.st_blocks) * 512
    }

    public func allocated(_ relative: String) -> Int64 { allocated(path(relative)) }

    public func apparent(_ relative: String) -> Int64 {
        var st = stat()
        precondition(lstat(path(relative).description, &st) == 0)
        return Int64(st.st_size)
    }

    public func chmod(_ relative: String, _ mode: mode_t) {
        precondition(Glibc.chmod(path(relative).description, mode) == 0)
    }

    /// `mkdir -p` of the parent, byte-exact (names need not be UTF-8).
    private func makeParents(of p: RawPath) {
        guard let slash = p.bytes.lastIndex(of: UInt8(ascii: "/")) else { return }
        for (index, byte) in p.bytes.enumerated() where byte == UInt8(ascii: "/") && index > 0 && index <= slash {
            RawPath(bytes: Array(p.bytes[..<index])).withCString { _ = mkdir($0, 0o755) }
        }
    }

    private func write(_ p: RawPath, _ data: [UInt8]) {
        p.withCString { c in
            let fd = open(c, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            precondition(fd >= 0, "cannot create \(p)")
            var offset = 0
            while offset < data.count {
                let n = data.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
                precondition(n > 0)
                offset += n
            }
            fsync(fd)
            close(fd)
        }
    }
}
