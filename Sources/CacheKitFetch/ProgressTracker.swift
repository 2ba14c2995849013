import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

/// Counts for the progress callback, shared by the download tasks.
final class ProgressTracker: @unchecked Sendable {
    // @unchecked Sendable: `state` is only touched with `lock` held; `report` is `@Sendable`.
    private let lock = ConditionLock()
    private var state: FetchProgress
    private let report: (@Sendable (FetchProgress) -> Void)?

    init(total: Int, report: (@Sendable (FetchProgress) -> Void)?) {
        state = FetchProgress(itemsTotal: total)
        self.report = report
    }

    private func update(_ change: (inout FetchProgress) -> Void) {
        guard let report else { return }
        let snapshot: FetchProgress = lock.withLock {
            change(&state)
            return state
        }
        report(snapshot)
    }

    func itemDone() { update { $0.itemsDone += 1 } }
    func received(_ n: Int64) { update { $0.bytesReceived = $0.bytesReceived.saturatingPlus(n) } }
    func expect(_ n: Int64) { update { $0.bytesExpected = ($0.bytesExpected ?? 0).saturatingPlus(n) } }
}
