import CacheKitSystem

/// Commits finished downloads to the store in batches, on a thread of its own (`WorkerPool.detach`): a download
/// hands its sealed body over and goes on (the next URL starts at once), and whatever
/// arrived while the previous batch was being committed goes in together — one `syncfs` and
/// one transaction for the lot (`NativeStore.commit(_:)`), instead of an fsync, a directory
/// fsync and a transaction per body, and none of it on Swift's cooperative threads.
///
/// At most `fileLimit` bodies in temporary files wait (each holds descriptors: its file, its
/// `tmp/` directory and the writers' lock), and bodies in memory up to `memoryLimit` bytes;
/// a download that finds no room for its body is suspended until the committer takes the
/// waiting batch. Room for many small bodies matters: while a batch's `syncfs` writes back
/// the large bodies before it (tens of milliseconds), the downloads go on instead of waiting.
final class CommitQueue: @unchecked Sendable {
    // @unchecked Sendable: every mutable field is read and written with `condition` held.
    private let store: NativeStore
    private let fileLimit: Int
    private let memoryLimit: Int
    private var waitingFiles = 0
    private var waitingBytes = 0
    private let condition = ConditionLock()
    private var waiting: [(ticket: Int, body: NativeStore.PendingBody, options: PutOptions)] = []
    private var blocked: [CheckedContinuation<Void, Never>] = []
    private var results: [Int: Result<NativeRecord, Error>] = [:]
    private var nextTicket = 0
    private var closed = false
    private var running = false
    private var drained: CheckedContinuation<Void, Never>?

    init(store: NativeStore, fileLimit: Int = 128, memoryLimit: Int = 64 << 20) {
        self.store = store
        self.fileLimit = max(1, fileLimit)
        self.memoryLimit = max(1, memoryLimit)
    }

    /// Queues `body` for a commit with `options`; returns the ticket its result will be
    /// found under in `finish()`.
    func submit(_ body: NativeStore.PendingBody, _ options: PutOptions) async -> Int {
        while true {
            if let ticket = enqueue(body, options) { return ticket }
            await withCheckedContinuation { continuation in park(continuation, for: body) }
        }
    }

    /// Waits until every queued body is committed; the results by ticket.
    func finish() async -> [Int: Result<NativeRecord, Error>] {
        await withCheckedContinuation { continuation in close(continuation) }
        return collected()
    }

    // Synchronous steps (a lock is never held across a suspension).

    /// Whether `body` may wait now (with `condition` held). A body alone always may.
    private func hasRoom(for body: NativeStore.PendingBody) -> Bool {
        if body.isInMemory { return waitingBytes == 0 || waitingBytes + Int(body.length) <= memoryLimit }
        return waitingFiles < fileLimit
    }

    private func enqueue(_ body: NativeStore.PendingBody, _ options: PutOptions) -> Int? {
        condition.lock()
        defer { condition.unlock() }
        guard hasRoom(for: body) || closed else { return nil }
        let ticket = nextTicket
        nextTicket += 1
        waiting.append((ticket, body, options))
        if body.isInMemory { waitingBytes += Int(body.length) } else { waitingFiles += 1 }
        if !running {
            running = true
            WorkerPool.detach { [self] in work() }
        }
        condition.signal()
        return ticket
    }

    private func park(_ continuation: CheckedContinuation<Void, Never>, for body: NativeStore.PendingBody) {
        condition.lock()
        if hasRoom(for: body) {
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
            (waitingFiles, waitingBytes) = (0, 0)
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
