#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Small, careful file operations the store is built from.
public enum FileIO {
    /// `mkdir -p`, byte-exact.
    static func makeDirectories(_ path: RawPath, mode: mode_t = 0o755) throws {
        var prefix: [UInt8] = []
        for (index, byte) in path.bytes.enumerated() {
            if byte == UInt8(ascii: "/") && index > 0 {
                _ = RawPath(bytes: prefix).withCString { mkdir($0, mode) }
            }
            prefix.append(byte)
        }
        let rc = path.withCString { mkdir($0, mode) }
        if rc != 0 && errno != EEXIST { throw StoreError.cannotWrite(path, Errno(errno).description) }
        guard case .success(let st) = Sys.lstat(path: path), st.isDirectory else {
            throw StoreError.cannotWrite(path, "not a directory")
        }
    }

    /// Opens for reading, refusing symlinks.
    static func openForReading(_ path: RawPath) throws -> Int32 {
        let fd = path.withCString { Sys.openWithoutAtime($0, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) }
        if fd < 0 { throw StoreError.cannotRead(path, Errno(errno).description) }
        return fd
    }

    /// Reads a whole file.
    public static func readAll(_ path: RawPath) throws -> [UInt8] {
        // Sized from fstat up front (then read straight into it): a 100 MB page is not
        // copied through a buffer and regrown. A file that grows meanwhile is read on.
        let fd = try openForReading(path)
        defer { close(fd) }
        var st = stat()
        let expected = fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG ? Int(st.st_size) : 0
        var failure: Int32 = 0
        // Into uninitialised storage: zeroing it first would only be overwritten.
        var asked = expected + 1
        var out = [UInt8](unsafeUninitializedCapacity: asked) { buffer, count in
            count = readFully(fd, into: UnsafeMutableRawBufferPointer(buffer), failure: &failure)
        }
        var full = out.count == asked
        while failure == 0 && full {
            // The file grew meanwhile: read on.
            asked = max(out.count, 1 << 16)
            let more = [UInt8](unsafeUninitializedCapacity: asked) { buffer, count in
                count = readFully(fd, into: UnsafeMutableRawBufferPointer(buffer), failure: &failure)
            }
            full = more.count == asked
            out += more
        }
        if failure != 0 { throw StoreError.cannotRead(path, Errno(failure).description) }
        return out
    }

    /// Reads until `buffer` is full or the end of the file; the byte count read. `failure`
    /// gets errno if a read fails.
    private static func readFully(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, failure: inout Int32) -> Int {
        var filled = 0
        while filled < buffer.count {
            let n = read(fd, buffer.baseAddress! + filled, buffer.count - filled)
            if n < 0 {
                if errno == EINTR { continue }
                failure = errno
                break
            }
            if n == 0 { break }
            filled += n
        }
        return filled
    }

    /// Streams a file in chunks; returns the byte count.
    @discardableResult
    static func stream(_ path: RawPath, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Int64 {
        let fd = try openForReading(path)
        defer { close(fd) }
        var total: Int64 = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw StoreError.cannotRead(path, Errno(errno).description)
            }
            if n == 0 { break }
            try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            total += Int64(n)
        }
        return total
    }

    /// SHA-256 of a file's content.
    static func sha256(of path: RawPath) throws -> String {
        var hasher = StreamingSHA256()
        try stream(path) { hasher.update($0) }
        return hasher.finalize()
    }

    /// Writes `chunks` to a new unique file in `directory`, flushed to disk; returns its
    /// path, length and SHA-256. The file is removed again if anything fails.
    static func writeTemporary(in directory: RawPath, hashing: Bool = true, _ produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void)
        throws -> (path: RawPath, length: Int64, sha256: String)
    {
        let temp = try TempFile(in: directory, hashing: hashing)
        do {
            try produce { try temp.write($0) }
            let sha256 = try temp.finish()
            return (temp.path, temp.length, sha256)
        } catch {
            temp.discard()
            throw error
        }
    }

    static func rename(_ from: RawPath, _ to: RawPath) throws {
        let rc = from.withCString { f in to.withCString { t in Glibc_rename(f, t) } }
        if rc != 0 { throw StoreError.cannotWrite(to, Errno(errno).description) }
    }

    /// Flushes a directory's entries (after a rename) to disk.
    static func syncDirectory(_ path: RawPath) {
        let fd = path.withCString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// Removes a body a fetch kept uncommitted (`FetchResult.unstoredBody`).
    public static func removeTemporary(_ path: RawPath) { removeFile(path) }

    /// Reads standard input to its end.
    public static func readStandardInput() throws -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw StoreError.cannotRead(RawPath("-"), Errno(errno).description)
            }
            if n == 0 { return out }
            out += buffer[0..<n]
        }
    }

    /// Removes a non-directory; true if it was there. Never follows symlinks (unlink doesn't).
    @discardableResult
    static func removeFile(_ path: RawPath) -> Bool {
        path.withCString { unlink($0) } == 0
    }

    /// Writes a whole file atomically: temporary file in the same directory, flushed, then
    /// renamed over `path` (with `mode` when given), so readers see the old file or the new
    /// one, never a part.
    public static func writeAtomically(_ path: RawPath, _ contents: [UInt8], mode: mode_t? = nil) throws {
        try writeAtomically(path, mode: mode) { sink in try contents.withUnsafeBytes { try sink($0) } }
    }

    /// Writes a whole file atomically from pieces `write` hands to its sink, in order.
    public static func writeAtomically(_ path: RawPath, mode: mode_t? = nil,
                                       _ write: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        let slash = path.bytes.lastIndex(of: UInt8(ascii: "/"))
        let directory = slash.map { $0 == 0 ? RawPath("/") : RawPath(bytes: Array(path.bytes[..<$0])) } ?? RawPath(".")
        let temp = try writeTemporary(in: directory, hashing: false, write)
        if let mode { _ = temp.path.withCString { chmod($0, mode) } }
        do { try rename(temp.path, path) } catch { removeFile(temp.path); throw error }
        syncDirectory(directory)
    }
}

@inline(__always)
private func Glibc_rename(_ a: UnsafePointer<CChar>, _ b: UnsafePointer<CChar>) -> Int32 { rename(a, b) }

/// A new unique file (`put-XXXXXX.part`) being written: chunks in, then `finish` flushes it
/// to disk, or `discard` removes it. Dropped unfinished, it is removed.
final class TempFile {
    let path: RawPath
    private var fd: Int32
    private(set) var length: Int64 = 0
    private var hasher: StreamingSHA256?

    init(in directory: RawPath, hashing: Bool = true) throws {
        var template = directory.appending("put-XXXXXX.part").bytes.map { CChar(bitPattern: $0) } + [0]
        fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 5) }
        guard fd >= 0 else { throw StoreError.cannotWrite(directory, Errno(errno).description) }
        path = RawPath(bytes: template.dropLast().map { UInt8(bitPattern: $0) })
        hasher = hashing ? StreamingSHA256() : nil
    }

    func write(_ chunk: UnsafeRawBufferPointer) throws {
        guard fd >= 0 else { throw StoreError.cannotWrite(path, "already closed") }
        hasher?.update(chunk)
        var offset = 0
        while offset < chunk.count {
            let n = Glibc_write(fd, chunk.baseAddress! + offset, chunk.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw StoreError.cannotWrite(path, Errno(errno).description)
            }
            offset += n
        }
        length += Int64(chunk.count)
    }

    /// Flushes and closes; returns the SHA-256 (empty when not hashing).
    func finish() throws -> String {
        fchmod(fd, 0o644)
        if fsync(fd) != 0 { throw StoreError.cannotWrite(path, Errno(errno).description) }
        close(fd)
        fd = -1
        return hasher?.finalize() ?? ""
    }

    /// Closes (if open) and removes the file.
    func discard() {
        if fd >= 0 { close(fd); fd = -1 }
        FileIO.removeFile(path)
    }

    deinit { if fd >= 0 { discard() } }
}

@inline(__always)
private func Glibc_write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }

/// An advisory lock on a file (flock): shared for writers of entries, exclusive for
/// whole-store operations such as clear and prune.
final class FileLock {
    private let fd: Int32

    /// Takes the lock, waiting for it unless `wait` is false (then throws `busy`).
    init(_ path: RawPath, exclusive: Bool, wait: Bool = true) throws {
        fd = path.withCString { open($0, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644) }
        guard fd >= 0 else { throw StoreError.cannotWrite(path, Errno(errno).description) }
        let operation = (exclusive ? LOCK_EX : LOCK_SH) | (wait ? 0 : LOCK_NB)
        while flock(fd, operation) != 0 {
            if errno == EINTR { continue }
            let error = errno
            close(fd)
            if error == EWOULDBLOCK { throw StoreError.busy(path) }
            throw StoreError.cannotWrite(path, Errno(error).description)
        }
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}

/// Test-only crash points: when `CACHECTL_CRASH_AT` names a point, the process kills itself
/// there with SIGKILL, so tests can prove what a crash at that moment leaves behind.
enum CrashPoint {
    private static let target: String? = getenv("CACHECTL_CRASH_AT").map { String(cString: $0) }

    static func reach(_ name: String) {
        if target == name { kill(getpid(), SIGKILL) }
    }
}

extension FileIO {
    /// The permission bits of a file, nil when it cannot be examined.
    public static func mode(of path: RawPath) -> mode_t? {
        guard case .success(let st) = Sys.lstat(path: path) else { return nil }
        return mode_t(st.mode & 0o7777)
    }

    /// Throws unless `path` is a directory.
    public static func requireDirectory(_ path: RawPath) throws {
        guard case .success(let st) = Sys.lstat(path: path), st.isDirectory else {
            throw StoreError.cannotWrite(path, "not a directory")
        }
    }
}
