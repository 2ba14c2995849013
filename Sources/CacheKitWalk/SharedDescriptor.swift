#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A directory descriptor shared by the jobs of its subdirectories; closed when the last
/// of them has opened its own directory, so a deep chain holds O(1) descriptors.
final class SharedDescriptor {
    let fd: Int32
    init(_ fd: Int32) { self.fd = fd }
    deinit { Sys.close(fd) }
}
