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
    /// Directories on the way to the last deep directory opened (see `openDeep`): each the end
    /// of a prefix of `trail`, shallowest first.
    private var checkpoints: [(end: Int, directory: FileDescriptor)] = []
    private var trail: [UInt8] = []
    /// The last deep directory opened. Deep paths stay out of `directories`: hashing a path
    /// of tens of thousands of bytes at every look-up cost more than all the opening.
    private var lastDeep: (path: [UInt8], directory: FileDescriptor)?

    /// A cache of at most `limit` open directories (default 256).
    public init(_ anchor: AnchoredDirectory, limit: Int = 256) {
        self.anchor = anchor
        self.limit = limit
    }

    /// The descriptor of a directory below the anchor (the anchor for an empty path).
    package func directory(_ relative: [UInt8]) -> Result<FileDescriptor, Errno> {
        if relative.isEmpty { return .success(anchor.descriptor) }
        if relative.count > Self.checkpointSpacing { return deepDirectory(relative) }
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

    /// The fewest bytes of path between two checkpoints.
    static let checkpointSpacing = 1024

    private func deepDirectory(_ relative: [UInt8]) -> Result<FileDescriptor, Errno> {
        if let last = lastDeep, isLastDeep(relative) { return .success(last.directory) }
        let opened = openDeep(relative)
        if case .success(let fd) = opened { lastDeep = (relative, fd) }
        return opened
    }

    /// A directory thousands of levels down, opened from the deepest checkpoint on its way, and
    /// leaving checkpoints (at most about 64, a part of the path apart) on the rest of its way.
    /// Each open by the whole path walks every level again: emptying a chain from the bottom
    /// up, a directory at a time, took time in the square of its depth (41 s for 30,000
    /// levels, 19 × `rm -rf`). Each part is opened beneath the checkpoint before it, by the anchor's rules (no
    /// symlink, no other mount). Where no descriptor is left for a checkpoint, the whole path.
    private func openDeep(_ relative: [UInt8]) -> Result<FileDescriptor, Errno> {
        let slash = UInt8(ascii: "/")
        while let last = checkpoints.last,
            !(last.end < relative.count && relative[last.end] == slash && Self.samePrefix(relative, trail, last.end))
        {
            checkpoints.removeLast()
        }
        trail = relative
        let spacing = max(Self.checkpointSpacing, relative.count / 64)
        var base = checkpoints.last?.directory ?? anchor.descriptor
        var start = checkpoints.last.map { $0.end + 1 } ?? 0
        while relative.count - start > spacing,
            let end = relative[start..<(start + spacing)].lastIndex(of: slash), end > start
        {
            switch anchor.open(Array(relative[start..<end]), beneath: base, O_RDONLY | O_DIRECTORY) {
            case .success(let next):
                checkpoints.append((end, next))
                (base, start) = (next, end + 1)
            case .failure(let error) where error.code == EMFILE || error.code == ENFILE:
                checkpoints.removeAll()
                return anchor.openDirectory(relative)
            case .failure(let error):
                return .failure(error)
            }
        }
        return anchor.open(Array(relative[start...]), beneath: base, O_RDONLY | O_DIRECTORY)
    }

    /// Whether `a` and `b` begin with the same `count` bytes.
    private static func samePrefix(_ a: [UInt8], _ b: [UInt8], _ count: Int) -> Bool {
        guard a.count >= count, b.count >= count else { return false }
        guard count > 0 else { return true }
        return a.withUnsafeBytes { x in b.withUnsafeBytes { y in memcmp(x.baseAddress!, y.baseAddress!, count) == 0 } }
    }

    /// Drops a directory's descriptor (before removing it).
    package func forget(_ relative: [UInt8]) {
        if relative.count <= Self.checkpointSpacing {
            directories[relative] = nil
        } else if isLastDeep(relative) {
            lastDeep = nil
        }
    }

    private func isLastDeep(_ relative: [UInt8]) -> Bool {
        guard let last = lastDeep?.path else { return false }
        return last.count == relative.count && Self.samePrefix(last, relative, relative.count)
    }
}
