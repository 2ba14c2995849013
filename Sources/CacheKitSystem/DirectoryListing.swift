#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading a directory's names.
public enum DirectoryListing {
    /// The names in the open directory `fd`, `.` and `..` excepted.
    public static func names(_ fd: Int32, limit: Int = .max) -> Result<[[UInt8]], Errno> {
        let stream: OpaquePointer
        // A new open of the directory: reading a duplicate would move (and find moved) the
        // position that every duplicate of `fd` shares. O_NOATIME where allowed (the
        // descriptor itself was opened with it when its anchor required so).
        var opened = Sys.openDirectoryStream(fd, independent: true, noAtime: true)
        if case .failure(let error) = opened, error.code == EPERM {
            opened = Sys.openDirectoryStream(fd, independent: true)
        }
        switch opened {
        case .success(let s): stream = s
        case .failure(let error): return .failure(error)
        }
        defer { Sys.closeDirectoryStream(stream) }
        var names: [[UInt8]] = []
        var error: Errno?
        while let entry = Sys.readDirectory(stream, error: &error) {
            let name: [UInt8] = Sys.withName(entry) { pointer in
                Array(
                    UnsafeBufferPointer(
                        start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
            }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            names.append(name)
            if names.count >= limit { break }
        }
        if let error { return .failure(error) }
        return .success(names)
    }
}
