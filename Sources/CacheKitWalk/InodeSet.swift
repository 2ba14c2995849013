#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `(st_dev, st_ino)` set, sharded so threads rarely wait on each other.
final class InodeSet: @unchecked Sendable {
    // @unchecked Sendable: each shard is only touched with its own lock held.
    private static let shardCount = 16
    private let locks = (0..<shardCount).map { _ in ConditionLock() }
    private var shards = [Set<DevIno>](repeating: [], count: shardCount)

    /// Inserts the key; false when it was already present.
    func insert(_ key: DevIno) -> Bool {
        let shard = Int(truncatingIfNeeded: (key.inode &* 0x9E37_79B9_7F4A_7C15) >> 60) & (Self.shardCount - 1)
        return locks[shard].withLock { shards[shard].insert(key).inserted }
    }
}
