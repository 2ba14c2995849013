#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An advisory lock (`flock`) held on a descriptor until this value goes.
package final class FileLock: @unchecked Sendable {
    // @unchecked Sendable: immutable; the lock is released when the last reference goes.
    private let descriptor: FileDescriptor

    /// Takes the lock on `descriptor`; with `wait` false, fails with EWOULDBLOCK when another
    /// holder has it. `onWait` is called once before waiting.
    package static func take(_ descriptor: FileDescriptor, exclusive: Bool, wait: Bool, onWait: () -> Void = {})
        -> Result<FileLock, Errno>
    {
        switch Sys.flock(descriptor.raw, exclusive: exclusive, wait: false) {
        case .success: return .success(FileLock(descriptor))
        case .failure(let error) where error.code == EWOULDBLOCK && wait:
            onWait()
            return Sys.flock(descriptor.raw, exclusive: exclusive, wait: true).map { FileLock(descriptor) }
        case .failure(let error): return .failure(error)
        }
    }

    private init(_ descriptor: FileDescriptor) { self.descriptor = descriptor }

    deinit { Sys.unlock(descriptor.raw) }
}
