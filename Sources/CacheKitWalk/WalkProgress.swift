/// Live counters a caller may poll from another thread to show progress.
public final class WalkProgress: @unchecked Sendable {
    // @unchecked Sendable: the counters are only touched with `lock` held.
    private let lock = ConditionLock()
    private var _files = 0
    private var _directories = 0
    private var _allocatedBytes: Int64 = 0

    /// Counters at zero.
    public init() {}

    func add(files: Int, directories: Int, allocatedBytes: Int64) {
        lock.withLock {
            _files += files
            _directories += directories
            _allocatedBytes += allocatedBytes
        }
    }

    /// A consistent snapshot: (files, directories, allocated bytes) so far.
    public var snapshot: (files: Int, directories: Int, allocatedBytes: Int64) {
        lock.withLock { (_files, _directories, _allocatedBytes) }
    }
}
