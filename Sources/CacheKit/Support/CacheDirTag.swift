#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The Cache Directory Tagging convention: a regular file `CACHEDIR.TAG` whose first 43 bytes
/// are exactly the signature below marks its directory as a cache.
public enum CacheDirTag {
    public static let fileName = "CACHEDIR.TAG"
    public static let signature = "Signature: 8a477f597d28d172789f06886806bc55"
    /// The tag cachectl writes: the signature plus the customary comment lines.
    public static let contents = signature + "\n# This file is a cache directory tag created by cachectl.\n# For information about cache directory tags see https://bford.info/cachedir/\n"

    static let fileNameC: [CChar] = Array(fileName.utf8CString)
    static let signatureBytes: [UInt8] = Array(signature.utf8)

    /// True when `name` (NUL-terminated) is `CACHEDIR.TAG`.
    @inline(__always)
    static func isTagName(_ name: UnsafePointer<CChar>) -> Bool {
        strcmp(name, fileNameC) == 0
    }

    /// Whether the entry `name` in the directory `dirfd` is a valid tag: a regular file
    /// (not a symlink) starting with the signature.
    static func isValidTag(in dirfd: Int32, name: UnsafePointer<CChar>) -> Bool {
        let fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        if case .success(let st) = Sys.fstat(fd), !st.isRegular { return false }
        var buffer = [UInt8](repeating: 0, count: signatureBytes.count)
        var filled = 0
        while filled < buffer.count {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if n <= 0 { break }
            filled += n
        }
        return filled == buffer.count && buffer == signatureBytes
    }

    /// Whether `directory` carries a valid tag.
    public static func isTagged(_ directory: RawPath) -> Bool {
        directory.withCString { path in
            let fd = open(path, Sys.openDirectoryFlags)
            guard fd >= 0 else { return false }
            defer { close(fd) }
            return fileNameC.withUnsafeBufferPointer { isValidTag(in: fd, name: $0.baseAddress!) }
        }
    }
}
