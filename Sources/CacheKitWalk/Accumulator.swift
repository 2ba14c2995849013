#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Totals shared by the threads that add to them.
final class Accumulator: @unchecked Sendable {
    // @unchecked Sendable: `totals` is only touched with `lock` held (and read once the workers have joined).
    let node: DirNode
    let kind: CacheUnitKind
    private let lock = ConditionLock()
    private(set) var totals = UsageTotals()

    init(node: DirNode, kind: CacheUnitKind) {
        self.node = node
        self.kind = kind
    }

    func add(_ more: UsageTotals) { lock.withLock { totals.add(more) } }
}
