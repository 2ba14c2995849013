#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct WalkJob {
    let node: DirNode
    /// The parent's descriptor and the NUL-terminated name to open relative to it.
    var parent: SharedDescriptor?
    let nameC: [CChar]
}
