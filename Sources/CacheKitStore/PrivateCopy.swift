#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A private copy of a SQLite database and its write-ahead log, for a dry run that must not
/// change the original in any way, not even by a journal file or an access time: the files are
/// read as the anchor opens them (without updating access times when it must preserve them)
/// and copied a block at a time into a new directory under `TMPDIR` (`/tmp`), never held whole
/// in memory (an index or `Cache.db` may be larger than the memory left).
enum PrivateCopy {
    /// Copies `name` and `name-wal` (when there) from `anchor` into a new directory; its path.
    /// Whoever holds the copy removes the directory (`Deleter.removeTemporaryDirectory`).
    static func ofDatabase(_ name: [UInt8], in anchor: AnchoredDirectory) throws -> RawPath {
        let temporaryRoot = RawPath(Sys.environment("TMPDIR").flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp")
        let database = anchor.path.appending(name)
        let directory: RawPath
        switch Sys.makeTemporaryDirectory(temporaryRoot.appending("cachectl-snapshot-XXXXXX")) {
        case .success(let made): directory = made
        case .failure(let error):
            throw StoreError.cannotWrite(
                temporaryRoot, "cannot make a private copy of \(database.quoted): \(error.description)")
        }
        let copies: AnchoredDirectory
        switch AnchoredDirectory.open(directory) {
        case .success(let opened): copies = opened
        case .failure(let error):
            Deleter.removeEmptyDirectory(directory)
            throw StoreError.cannotWrite(directory, error.description)
        }
        var done = false
        defer { if !done { Deleter.removeTemporaryDirectory(copies) } }
        for file in [name, name + Array("-wal".utf8)] where anchor.exists(file) {
            try copy(file, from: anchor, into: copies)
        }
        done = true
        return directory
    }

    /// Copies the regular file `name` below `anchor` into `copies` under the same name, 64 KiB
    /// at a time. Unflushed: the copy lives only as long as the run.
    private static func copy(_ name: [UInt8], from anchor: AnchoredDirectory, into copies: AnchoredDirectory) throws {
        let source = anchor.path.appending(name)
        let input: FileDescriptor
        switch anchor.open(name, O_RDONLY | O_NONBLOCK) {
        case .success(let opened): input = opened
        case .failure(let error):
            throw StoreError.cannotRead(
                source,
                error.code == EPERM && anchor.mustPreserveAccessTimes
                    ? "cannot be read without changing its access time (not its owner); a dry run changes nothing"
                    : error.description)
        }
        guard case .success(let status) = Sys.fstat(input.raw), status.isRegular else {
            throw StoreError.cannotRead(source, "not a regular file")
        }
        let target = copies.path.appending(name)
        let output: FileDescriptor
        switch Sys.openat(
            copies.descriptor.raw, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode: 0o600
        ).owned {
        case .success(let opened): output = opened
        case .failure(let error): throw StoreError.cannotWrite(target, StoreError.explainWrite(error))
        }
        try FileIO.stream(input.raw, path: source) { bytes in
            if case .failure(let error) = Sys.writeAll(output.raw, bytes) {
                throw StoreError.cannotWrite(target, StoreError.explainWrite(error))
            }
        }
    }
}
