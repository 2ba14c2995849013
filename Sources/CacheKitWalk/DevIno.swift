#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct DevIno: Hashable {
    var device: UInt64
    var inode: UInt64
}
