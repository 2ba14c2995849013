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
    private let directory: FileDescriptor
    private let name: [UInt8]
    private let temp: TempFile
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
    }

    /// Has Ctrl-C (SIGINT) remove the temporary file, then end the process as it would, until
    /// the file is committed or dropped: while a command holds early bytes for a long
    /// while, an interrupted run leaves nothing beside the target. One file at a time in a
    /// process (the last one asked for).
    public func removeOnInterrupt() {
        removedOnInterrupt = temp.removeOnInterrupt()
    }

    deinit { if removedOnInterrupt { Sys.keepOnInterrupt() } }

    /// Writes the early bytes and forces them to disk.
    public func writeEarly(_ bytes: UnsafeRawBufferPointer) throws {
        try temp.write(bytes)
        try temp.flushSoFar()
    }

    /// How many bytes were written early.
    public var earlyCount: Int64 { temp.length }

    /// Keeps the first `keep` bytes written early (`keep` is at most `earlyCount`), appends
    /// what `write` hands its sink, flushes, and renames the file to its target (replacing
    /// what is there).
    public func commit(
        keeping keep: Int64, mode: mode_t? = nil, _ write: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws {
        do {
            guard keep >= 0, keep <= temp.length else {
                throw StoreError.cannotWrite(temp.path, "asked to keep \(keep) of \(temp.length) bytes written")
            }
            if keep < temp.length { try temp.truncate(to: keep) }
            try write { try temp.write($0) }
            _ = try temp.finish(mode: mode ?? 0o644)
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
