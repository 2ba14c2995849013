#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Sequential, symlink-safe listings for the store and the formats (small trees; `du`'s
/// walker is the fast path for big ones).
public enum FileTree {
    public struct File {
        public var path: RawPath
        /// Path relative to the listed directory.
        public var relative: [UInt8]
        var stat: StatInfo
        public var allocatedBytes: Int64 { stat.allocatedBytes }
        public var apparentBytes: Int64 { stat.apparentBytes }
        public var modified: FileTime { stat.modified }
        public var isSymlink: Bool { stat.isSymlink }
        public var isRegular: Bool { stat.isRegular }
        public var identity: FileIdentity { FileIdentity(stat) }
    }

    /// Every non-directory below `directory` (symlinks listed, never followed), staying on
    /// the directory's file system (a mount point inside is not entered), with directories
    /// whose name is in `skipping` left out at the top level, and subdirectories for which
    /// `enter` says false not entered.
    public static func files(under directory: RawPath, recursive: Bool = true, skipping: Set<String> = [],
                             enter: (RawPath) -> Bool = { _ in true }) -> [File] {
        var out: [File] = []
        // The root as given (a symlink to it is the caller's choice), then never again.
        let topFD = directory.withCString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard topFD >= 0 else { return [] }
        let topStat = Sys.fstat(topFD)
        close(topFD)
        guard case .success(let top) = topStat else { return [] }
        func visit(_ dir: RawPath, _ relative: [UInt8], depth: Int) {
            let flags = depth == 0 ? O_RDONLY | O_DIRECTORY | O_CLOEXEC : Sys.openDirectoryFlags
            let fd = dir.withCString { Sys.openWithoutAtime($0, flags) }
            guard fd >= 0, let stream = fdopendir(fd) else { if fd >= 0 { close(fd) }; return }
            defer { closedir(stream) }
            var subdirectories: [[UInt8]] = []
            while let entry = readdir(stream) {
                let name: [UInt8] = Sys.withName(entry) { pointer in
                    Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
                }
                if name == [0x2E] || name == [0x2E, 0x2E] { continue }
                if depth == 0 && skipping.contains(String(decoding: name, as: UTF8.self)) { continue }
                let childRelative = relative.isEmpty ? name : relative + [UInt8(ascii: "/")] + name
                guard case .success(let st) = name.withUnsafeBufferPointer({ buffer -> Result<StatInfo, Errno> in
                    (buffer.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { Sys.lstat(at: fd, $0.baseAddress!) }
                }) else { continue }
                if st.isDirectory {
                    if recursive && st.device == top.device { subdirectories.append(name) }
                } else if st.device == top.device {
                    out.append(File(path: dir.appending(name), relative: childRelative, stat: st))
                }
            }
            for name in subdirectories where enter(dir.appending(name)) {
                visit(dir.appending(name), relative.isEmpty ? name : relative + [UInt8(ascii: "/")] + name, depth: depth + 1)
            }
        }
        visit(directory, [], depth: 0)
        return out
    }

    /// The immediate subdirectories of `directory` (not symlinks to directories).
    static func subdirectories(of directory: RawPath) -> [RawPath] {
        let fd = directory.withCString { Sys.openWithoutAtime($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0, let stream = fdopendir(fd) else { if fd >= 0 { close(fd) }; return [] }
        defer { closedir(stream) }
        var out: [RawPath] = []
        while let entry = readdir(stream) {
            guard Sys.type(of: entry) == Sys.directoryType || Sys.type(of: entry) == Sys.unknownType else { continue }
            let name: [UInt8] = Sys.withName(entry) { pointer in
                Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
            }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            let path = directory.appending(name)
            if case .success(let st) = Sys.lstat(path: path), st.isDirectory { out.append(path) }
        }
        return out
    }

    /// Whether any component of `relative` below `root` is a symlink (or missing parents
    /// are symlinks): such paths may lead outside the root.
    static func hasSymlinkComponent(root: RawPath, relative: String) -> Bool {
        var current = root
        for part in relative.split(separator: "/") {
            current = current.appending(String(part))
            if case .success(let st) = Sys.lstat(path: current), st.isSymlink { return true }
        }
        return false
    }

    /// Empties a directory (never following symlinks), keeping the directory itself.
    static func removeContents(of directory: RawPath) throws {
        let fd = directory.withCString { open($0, Sys.openDirectoryFlags) }
        guard fd >= 0 else { return }
        defer { close(fd) }
        try removeContents(fd: fd, path: directory)
    }

    private static func removeContents(fd: Int32, path: RawPath) throws {
        let dup = Glibc_dup(fd)
        guard dup >= 0, let stream = fdopendir(dup) else { return }
        var names: [[CChar]] = []
        while let entry = readdir(stream) {
            let name: [CChar] = Sys.withName(entry) { Array(UnsafeBufferPointer(start: $0, count: strlen($0) + 1)) }
            if name == [0x2E, 0] || name == [0x2E, 0x2E, 0] { continue }
            names.append(name)
        }
        closedir(stream)
        for name in names {
            let childPath = path.appending(name.dropLast().map { UInt8(bitPattern: $0) })
            if unlinkat(fd, name, 0) == 0 || errno == ENOENT { continue }
            if errno == EISDIR || errno == EPERM {
                let child = openat(fd, name, Sys.openDirectoryFlags)
                if child >= 0 {
                    defer { close(child) }
                    try removeContents(fd: child, path: childPath)
                }
                if unlinkat(fd, name, AT_REMOVEDIR) != 0 && errno != ENOENT {
                    throw StoreError.cannotWrite(childPath, Errno(errno).description)
                }
                continue
            }
            throw StoreError.cannotWrite(childPath, Errno(errno).description)
        }
    }
}

@inline(__always)
private func Glibc_dup(_ fd: Int32) -> Int32 { dup(fd) }
