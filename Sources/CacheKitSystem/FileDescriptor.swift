/// An open descriptor owned by this value: closed exactly once, when the value goes.
///
/// Safe to share between threads: the number never changes and only `deinit` closes it, so
/// no thread can use it after the close (system calls on one descriptor from several
/// threads at once are allowed).
public final class FileDescriptor: @unchecked Sendable {
    // @unchecked Sendable: see above.
    /// The descriptor number, valid while this value lives.
    public let raw: Int32

    /// Takes ownership of `raw`.
    package init(adopting raw: Int32) { self.raw = raw }

    deinit { Sys.close(raw) }
}

extension Result where Success == Int32, Failure == Errno {
    /// The descriptor, owned.
    package var owned: Result<FileDescriptor, Errno> { map(FileDescriptor.init(adopting:)) }
}
