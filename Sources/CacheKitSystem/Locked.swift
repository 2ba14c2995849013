/// A value behind a lock, shared between tasks or threads.
package final class Locked<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only touched with `lock` held.
    private let lock = ConditionLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try lock.withLock { try body(&value) }
    }
}
