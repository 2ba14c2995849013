/// Live count of deletions, for a caller's progress display.
public final class PruneProgress: @unchecked Sendable {
    // @unchecked Sendable: every counter is only touched with `lock` held.
    private let lock = ConditionLock()
    private var inspected = 0
    private var done = 0
    /// Deletions planned in all.
    public private(set) var total = 0
    /// Counters at zero.
    public init() {}
    func start(_ count: Int) {
        lock.withLock {
            total = count
            done = 0
        }
    }
    func advance(_ n: Int = 1) { lock.withLock { done += n } }
    func noteInspected(_ n: Int) { lock.withLock { inspected += n } }
    /// `noteInspected` as the counter a prune binds to `FileTree.countFound`.
    var foundCounter: FileTree.FoundCounter { FileTree.FoundCounter { [self] n in noteInspected(n) } }
    func notePlanning() { lock.withLock { planning = true } }
    private var planning = false
    /// Files looked at while inspecting so far, whether the inspection is over and the plan
    /// being made; then deletions done of the total planned.
    public var snapshot: (inspected: Int, planning: Bool, done: Int, total: Int) {
        lock.withLock { (inspected, planning, done, total) }
    }
}
