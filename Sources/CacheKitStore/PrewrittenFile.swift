import CacheKitSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file written atomically in two steps: bytes it is likely to start with are written (and
/// flushed) early, while other work runs; `commit` then keeps as many of them as the final
/// contents share, writes the rest, flushes and renames the file into place, as
/// `FileIO.writeAtomically` does. Until then the file is a temporary one beside the target
/// (`put-….part`); dropped uncommitted, it is removed.
public final class PrewrittenFile: @unchecked Sendable {
    // @unchecked Sendable: one thread at a time uses it, handed over by the caller (the thread
    // that writes the early bytes is joined before `commit`).
    private let directory: FileDescriptor?
    private let name: [UInt8]
    /// The temporary file; nil when writing straight into `stream`.
    private let temp: TempFile?
    /// A device, FIFO or socket the user named (`/dev/null`, `/dev/stdout`): written into
    /// as it is, at commit, for it cannot be replaced (nor should be).
    private let stream: (fd: FileDescriptor, path: RawPath)?
    /// Whether Ctrl-C is to remove the temporary file (`removeOnInterrupt`).
    private var removedOnInterrupt = false

    /// A temporary file beside `path`, to become `path` on `commit`.
    public convenience init(_ path: RawPath) throws {
        let directoryPath = path.parentDirectory
        switch Sys.open(directoryPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC) {
        case .success(let fd):
            try self.init(in: FileDescriptor(adopting: fd), directoryPath: directoryPath, path.lastComponent)
        case .failure(let error): throw StoreError.cannotWrite(path, error.description)
        }
    }

    /// A temporary file in an open directory (`directoryPath` names it in messages), to
    /// become `name` there on `commit`.
    init(in directory: FileDescriptor, directoryPath: RawPath, _ name: [UInt8]) throws {
        self.directory = directory
        self.name = name
        temp = try TempFile(in: directory, path: directoryPath, hashing: false)
        stream = nil
    }

    /// The output a user named (`-o`, `--in-place`), written as `cp` and `curl -o` write it:
    /// through a symlink (the link stays, its file gets the contents), into a device, FIFO or
    /// socket as it is; a regular file (or a new one) is still replaced atomically. A
    /// directory, or a symlink to nothing, is refused naming `path`.
    public convenience init(userOutput path: RawPath) throws {
        var target = path
        if case .success(let st) = Sys.lstat(path: path) {
            var found = st
            if st.isSymlink {
                guard case .success(let resolved) = Sys.realpath(path),
                    case .success(let real) = Sys.lstat(path: resolved)
                else {
                    // /dev/stdout on a pipe: a link to no path, which opens all the same.
                    if case .success(let fd) = Sys.open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY) {
                        let descriptor = FileDescriptor(adopting: fd)
                        if case .success(let opened) = Sys.fstat(fd), !opened.isRegular, !opened.isDirectory {
                            try self.init(stream: descriptor, path: path)
                            return
                        }
                    }
                    throw StoreError.cannotWrite(path, "a symbolic link to a missing file")
                }
                (target, found) = (resolved, real)
            }
            if found.isDirectory { throw StoreError.cannotWrite(path, "is a directory") }
            if !found.isRegular {
                // O_NOCTTY: a terminal named as the output does not become the controlling one.
                switch Sys.open(target, O_WRONLY | O_CLOEXEC | O_NOCTTY) {
                case .success(let fd): try self.init(stream: FileDescriptor(adopting: fd), path: path)
                case .failure(let error): throw StoreError.cannotWrite(path, error.description)
                }
                return
            }
        }
        try self.init(target)
    }

    private init(stream fd: FileDescriptor, path: RawPath) throws {
        (directory, name, temp, stream) = (nil, [], nil, (fd, path))
    }

    /// Has Ctrl-C (SIGINT) remove the temporary file, then end the process as it would, until
    /// the file is committed or dropped: while a command holds early bytes for a long
    /// while, an interrupted run leaves nothing beside the target. One file at a time in a
    /// process (the last one asked for).
    public func removeOnInterrupt() {
        removedOnInterrupt = temp?.removeOnInterrupt() ?? false
    }

    deinit { if removedOnInterrupt { Sys.keepOnInterrupt() } }

    /// Writes the early bytes and forces them to disk (none into a stream: what is written
    /// there cannot be taken back).
    public func writeEarly(_ bytes: UnsafeRawBufferPointer) throws {
        guard let temp else { return }
        try temp.write(bytes)
        try temp.flushSoFar()
    }

    /// The most `commit` writes before it starts the writeback of what it wrote.
    private static let writebackPiece = 2 << 20

    /// How many bytes were written early.
    public var earlyCount: Int64 { temp?.length ?? 0 }

    /// Keeps the first `keep` bytes written early (`keep` is at most `earlyCount`), appends
    /// what `write` hands its sink, flushes, and renames the file to its target (replacing
    /// what is there).
    public func commit(
        keeping keep: Int64, mode: mode_t? = nil, _ write: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws {
        if let stream {
            guard keep == 0 else {
                throw StoreError.cannotWrite(stream.path, "asked to keep \(keep) of 0 bytes written")
            }
            try write { bytes in
                if case .failure(let error) = Sys.writeAll(stream.fd.raw, bytes) {
                    throw StoreError.cannotWrite(stream.path, error.description)
                }
            }
            return
        }
        guard let temp, let directory else { return }
        do {
            guard keep >= 0, keep <= temp.length else {
                throw StoreError.cannotWrite(temp.path, "asked to keep \(keep) of \(temp.length) bytes written")
            }
            if keep < temp.length { try temp.truncate(to: keep) }
            // In pieces of at most 2 MB, each one's writeback started once written: the disk
            // writes the start of a large unchanged run while the rest is still being copied.
            try write { bytes in
                var start = 0
                repeat {
                    let end = min(start + Self.writebackPiece, bytes.count)
                    try temp.write(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                    temp.startWriteback(every: Int64(Self.writebackPiece))
                    start = end
                } while start < bytes.count
            }
            _ = try temp.finish(mode: mode ?? 0o644)
            // The file being replaced is held across the rename and let go on a thread of its
            // own: the rename then only relinks, and the old file's blocks are freed beside the
            // rest of the run, not inside the rename it waits for (a 13 MB file: rename 3.1-3.9
            // ms, 0.03 ms held; localize of the 13 MB bench page, median 81.2 → 79.5 ms).
            let replaced = Sys.hold(at: directory.raw, name)
            defer { if let replaced { WorkerPool.detach { Sys.close(replaced) } } }
            try temp.install(as: name, in: directory, replacing: true)
        } catch {
            temp.discard()
            throw error
        }
        if removedOnInterrupt {
            Sys.keepOnInterrupt()
            removedOnInterrupt = false
        }
        _ = Sys.fsync(directory.raw)
    }
}
