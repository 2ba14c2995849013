#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

final class SharedWalkState: @unchecked Sendable {
    // @unchecked Sendable: `issues` is guarded by `issueLock`; `seenByEarlierArguments` is written between arguments,
    // when no worker runs.
    /// With several arguments du keys every entry; with one, only multiply-linked files.
    let hashAll: Bool
    /// Multiply-linked non-directories seen so far (all arguments).
    let hardLinks = InodeSet()
    /// Every entry of the arguments already finished (only with several arguments).
    var seenByEarlierArguments = Set<DevIno>()
    private let issueLock = ConditionLock()
    private(set) var issues: [WalkIssue] = []

    init(hashAll: Bool) { self.hashAll = hashAll }

    func report(_ issue: WalkIssue) { issueLock.withLock { issues.append(issue) } }

    func sortIssues(from start: Int) {
        issueLock.withLock {
            issues[start...].sort { $0.path.bytes.lexicographicallyPrecedes($1.path.bytes) }
        }
    }
}

// MARK: - Per-root walk
