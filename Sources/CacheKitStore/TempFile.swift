#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A new unique file (`put-XXXXXXXXXXXXXXXX.part`) being written in a directory held by its
/// descriptor: chunks in, then `finish` flushes it to disk and `install` renames it into
/// place, or `discard` removes it. Dropped unfinished, it is removed.
final class TempFile {
    let directory: FileDescriptor
    let name: [UInt8]
    /// For messages.
    let path: RawPath
    private var fd: Int32
    /// The file as opened: what `discard` checks the name against before unlinking it.
    private var identity: StatInfo?
    private(set) var length: Int64 = 0
    private var hasher: StreamingSHA256?
    private var installed = false

    init(in directory: FileDescriptor, path directoryPath: RawPath, hashing: Bool = true) throws {
        self.directory = directory
        var attempt = 0
        while true {
            let candidate = Array("put-\(String(UInt64.random(in: 0...UInt64.max), radix: 16)).part".utf8)
            switch Sys.openat(
                directory.raw, candidate, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode: 0o600)
            {
            case .success(let opened):
                fd = opened
                identity = try? Sys.fstat(opened).get()
                name = candidate
                path = directoryPath.appending(candidate)
                hasher = hashing ? StreamingSHA256() : nil
                return
            case .failure(let error) where error.code == EEXIST && attempt < 100:
                attempt += 1
            case .failure(let error):
                throw StoreError.cannotWrite(directoryPath, StoreError.explainWrite(error))
            }
        }
    }

    /// Takes over an existing file of `directory` to append to it (a partial download being
    /// resumed): it is first renamed to a fresh temporary name, so of several processes
    /// resuming the same partial only one gets it; its bytes so far are read into the hash.
    /// Nil when the file is gone (another process took it) or cannot be read.
    init?(resuming existing: [UInt8], in directory: FileDescriptor, path directoryPath: RawPath) {
        self.directory = directory
        let candidate = Array("put-\(String(UInt64.random(in: 0...UInt64.max), radix: 16)).part".utf8)
        guard case .success = Sys.renameNoReplace(directory.raw, existing, directory.raw, candidate),
            case .success(let opened) = Sys.openat(directory.raw, candidate, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
        else { return nil }
        fd = opened
        identity = try? Sys.fstat(opened).get()
        name = candidate
        path = directoryPath.appending(candidate)
        var hasher = StreamingSHA256()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var offset: Int64 = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { Sys.pread(opened, $0.baseAddress!, $0.count, at: offset) }
            guard case .success(let count) = n else {
                // Left in tmp/ as a leftover: prune removes it, through the deletion engine.
                Sys.close(opened)
                return nil
            }
            if count == 0 { break }
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            offset += Int64(count)
        }
        self.hasher = hasher
        length = offset
        _ = Sys.lseekEnd(opened)
    }

    /// Closes and renames the file to `target` in its directory (replacing what is there),
    /// unhashed and unflushed: a partial download kept for a later resume.
    func keepAs(_ target: [UInt8]) -> Bool {
        if fd >= 0 {
            Sys.close(fd)
            fd = -1
        }
        guard case .success = Sys.renameat(directory.raw, name, directory.raw, target) else {
            discard()
            return false
        }
        installed = true
        return true
    }

    func write(_ chunk: UnsafeRawBufferPointer) throws {
        guard fd >= 0 else { throw StoreError.cannotWrite(path, "already closed") }
        hasher?.update(chunk)
        if case .failure(let error) = Sys.writeAll(fd, chunk) {
            throw StoreError.cannotWrite(path, StoreError.explainWrite(error))
        }
        length += Int64(chunk.count)
    }

    /// Where writeback was last started from (`startWriteback`).
    private var writebackFrom: Int64 = 0

    /// Starts the disk writing what was written since the last call, once that is at least
    /// `batch` bytes (`Sys.startWriteback`): the final flush then waits for less.
    func startWriteback(every batch: Int64) {
        guard fd >= 0, length - writebackFrom >= batch else { return }
        Sys.startWriteback(fd, offset: writebackFrom, count: length - writebackFrom)
        writebackFrom = length
    }

    /// Keeps the first `count` bytes written (at most what was written) and goes on writing
    /// from there.
    func truncate(to count: Int64) throws {
        guard fd >= 0, hasher == nil else { throw StoreError.cannotWrite(path, "closed, or hashed as written") }
        let kept = min(max(count, 0), length)
        if case .failure(let error) = Sys.ftruncate(fd, kept).flatMap({ Sys.lseekSet(fd, kept).map { _ in () } }) {
            throw StoreError.cannotWrite(path, StoreError.explainWrite(error))
        }
        length = kept
        writebackFrom = min(writebackFrom, kept)
    }

    /// Has Ctrl-C remove the file (while it is still this one) until `keepOnInterrupt`.
    func removeOnInterrupt() -> Bool {
        guard let identity else { return false }
        return Sys.removeOnInterrupt(name, in: directory.raw, identity: identity)
    }

    /// Forces what was written so far to disk, the file staying open for more.
    func flushSoFar() throws {
        guard fd >= 0 else { throw StoreError.cannotWrite(path, "already closed") }
        if case .failure(let error) = Sys.fsync(fd) {
            throw StoreError.cannotWrite(path, StoreError.explainWrite(error))
        }
    }

    /// Flushes (unless `flush` is false: the caller then flushes the file system before
    /// relying on it) and closes; returns the SHA-256 (empty when not hashing).
    func finish(mode: mode_t = 0o644, flush: Bool = true) throws -> String {
        guard fd >= 0 else { throw StoreError.cannotWrite(path, "already closed") }
        _ = Sys.fchmod(fd, mode)
        if flush, case .failure(let error) = Sys.fsync(fd) {
            throw StoreError.cannotWrite(path, StoreError.explainWrite(error))
        }
        Sys.close(fd)
        fd = -1
        return hasher?.finalize() ?? ""
    }

    /// The file's identity as written (after `finish`).
    func status() -> StatInfo? {
        try? Sys.lstat(at: directory.raw, name).get()
    }

    /// Renames the finished file to `target` in `targetDirectory`: replacing what is there,
    /// or (`replacing` false) failing with EEXIST rather than replace anything.
    func install(as target: [UInt8], in targetDirectory: FileDescriptor, replacing: Bool) throws {
        let result =
            replacing
            ? Sys.renameat(directory.raw, name, targetDirectory.raw, target)
            : Sys.renameNoReplace(directory.raw, name, targetDirectory.raw, target)
        if case .failure(let error) = result {
            throw StoreError.cannotWrite(path, StoreError.explainWrite(error))
        }
        installed = true
    }

    /// Renames the finished file to `target` in `targetDirectory`, never replacing a file
    /// there (EEXIST instead).
    func rename(to target: [UInt8], in targetDirectory: FileDescriptor) -> Result<Void, Errno> {
        let result = Sys.renameNoReplace(directory.raw, name, targetDirectory.raw, target)
        if case .success = result { installed = true }
        return result
    }

    /// Leaves the finished file where it is, for the caller to use and remove.
    func keep() { installed = true }

    /// Closes (if open) and removes the file (unless installed).
    func discard() {
        if fd >= 0 {
            Sys.close(fd)
            fd = -1
        }
        // Through the deletion engine, and only while the name is still the file made here.
        if !installed, let identity { _ = Deleter.removeOwnFile(name, in: directory, identity: identity) }
        installed = true
    }

    deinit { if fd >= 0 || !installed { discard() } }
}
