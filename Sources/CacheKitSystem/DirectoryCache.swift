#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Directories below an anchor opened once each (bounded), for many lookups or deletions
/// in few directories. One per thread.
public final class DirectoryCache {
    /// The root every directory is opened below.
    public let anchor: AnchoredDirectory
    private var directories: [[UInt8]: FileDescriptor] = [:]
    private let limit: Int

    /// A cache of at most `limit` open directories (default 256).
    public init(_ anchor: AnchoredDirectory, limit: Int = 256) {
        self.anchor = anchor
        self.limit = limit
    }

    /// The descriptor of a directory below the anchor (the anchor for an empty path).
    package func directory(_ relative: [UInt8]) -> Result<FileDescriptor, Errno> {
        if relative.isEmpty { return .success(anchor.descriptor) }
        if let known = directories[relative] { return .success(known) }
        let opened = anchor.openDirectory(relative)
        if case .success(let fd) = opened {
            if directories.count >= limit { directories.removeAll(keepingCapacity: true) }
            directories[relative] = fd
        }
        return opened
    }

    /// lstat (statx) of what `relative` names, through its parent opened below the anchor.
    package func status(of relative: [UInt8]) -> Result<StatInfo, Errno> {
        guard AnchoredDirectory.isValidRelative(relative) else { return .failure(.invalid) }
        let (parent, name) = AnchoredDirectory.split(relative)
        return directory(parent).flatMap { Sys.statx(at: $0.raw, name) }
    }

    /// Drops a directory's descriptor (before removing it).
    package func forget(_ relative: [UInt8]) { directories[relative] = nil }
}
