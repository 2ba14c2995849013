import CacheKitSystem

/// Commits finished downloads to the store in batches, on a thread of its own (`WorkerPool.detach`): a download
/// hands its sealed body over and goes on (the next URL starts at once), and whatever
/// arrived while the previous batch was being committed goes in together — one `syncfs` and
/// one transaction for the lot (`NativeStore.commit(_:)`), instead of an fsync, a directory
/// fsync and a transaction per body, and none of it on Swift's cooperative threads.
///
/// At most `limit` bodies wait (each holds two descriptors: its `tmp/` directory and the
/// writers' lock); a download that finds the queue full is suspended until the committer
/// takes the waiting batch.
final class CommitQueue: @unchecked Sendable {
    // @unchecked Sendable: every mutable field is read and written with `condition` held.
    private let store: NativeStore
    private let limit: Int
    private let condition = ConditionLock()
    private var waiting: [(ticket: Int, body: NativeStore.PendingBody, options: PutOptions)] = []
    private var blocked: [CheckedContinuation<Void, Never>] = []
    private var results: [Int: Result<NativeRecord, Error>] = [:]
    private var nextTicket = 0
    private var closed = false
    private var running = false
    private var drained: CheckedContinuation<Void, Never>?

    init(store: NativeStore, limit: Int = 128) {
        self.store = store
        self.limit = max(1, limit)
    }

    /// Queues `body` for a commit with `options`; returns the ticket its result will be
    /// found under in `finish()`.
    func submit(_ body: NativeStore.PendingBody, _ options: PutOptions) async -> Int {
        while true {
            if let ticket = enqueue(body, options) { return ticket }
            await withCheckedContinuation { continuation in park(continuation) }
        }
    }

    /// Waits until every queued body is committed; the results by ticket.
    func finish() async -> [Int: Result<NativeRecord, Error>] {
        await withCheckedContinuation { continuation in close(continuation) }
        return collected()
    }

    // Synchronous steps (a lock is never held across a suspension).

    private func enqueue(_ body: NativeStore.PendingBody, _ options: PutOptions) -> Int? {
        condition.lock()
        defer { condition.unlock() }
        guard waiting.count < limit || closed else { return nil }
        let ticket = nextTicket
        nextTicket += 1
        waiting.append((ticket, body, options))
        if !running {
            running = true
            WorkerPool.detach { [self] in work() }
        }
        condition.signal()
        return ticket
    }

    private func park(_ continuation: CheckedContinuation<Void, Never>) {
        condition.lock()
        if waiting.count < limit {
            condition.unlock()
            continuation.resume()
        } else {
            blocked.append(continuation)
            condition.unlock()
        }
    }

    private func close(_ continuation: CheckedContinuation<Void, Never>) {
        condition.lock()
        closed = true
        if running {
            drained = continuation
            condition.signal()
            condition.unlock()
        } else {
            condition.unlock()
            continuation.resume()
        }
    }

    private func collected() -> [Int: Result<NativeRecord, Error>] {
        condition.lock()
        defer { condition.unlock() }
        return results
    }

    private func work() {
        while true {
            condition.lock()
            while waiting.isEmpty && !closed { condition.wait() }
            if waiting.isEmpty {
                running = false
                let done = drained
                drained = nil
                condition.unlock()
                done?.resume()
                return
            }
            let batch = waiting
            waiting = []
            let released = blocked
            blocked = []
            condition.unlock()
            for continuation in released { continuation.resume() }
            let outcomes = store.commit(batch.map { ($0.body, $0.options) })
            condition.lock()
            for (item, outcome) in zip(batch, outcomes) { results[item.ticket] = outcome }
            condition.unlock()
        }
    }
}
