/// A task executor (SE-0417) that is one thread of its own: every job of a task that prefers
/// it runs on that thread, in turn. Code in such a task may block (a `recv` waiting for a
/// response) without holding up Swift's cooperative threads, and a value that must stay on
/// one thread may live in it. A fetch gives each of its downloads one, as curl and wget give
/// each transfer a thread: the exchange, the hashing and the writing then run where the
/// response is read, with no hand-off between threads for each buffer.
package final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked Sendable: `jobs` and `stopping` are only touched with `condition` held.
    private let condition = ConditionLock()
    private var jobs: [UnownedJob] = []
    private var stopping = false
    /// Whether the thread is running (it ends once stopped and idle).
    private var running = true

    /// A new executor and its thread; nil when the system refuses a thread.
    package static func start() -> ThreadExecutor? {
        let executor = ThreadExecutor()
        return WorkerPool.spawn { [executor] in executor.loop() } ? executor : nil
    }

    private init() {}

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        // A job that comes after the thread ended (a task that outlived the executor's use)
        // gets a thread again, for as long as there are jobs: it never waits forever.
        let restart = !running
        running = true
        condition.signal()
        condition.unlock()
        if restart { WorkerPool.detach { [self] in loop() } }
    }

    /// Whether a thread is running the executor's jobs now.
    package var isRunning: Bool { condition.withLock { running } }

    /// Lets the thread end once the jobs enqueued so far have run.
    package func stop() {
        condition.withLock {
            stopping = true
            condition.signal()
        }
    }

    private func loop() {
        var batch: [UnownedJob] = []
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping { condition.wait() }
            if jobs.isEmpty {
                running = false
                condition.unlock()
                return
            }
            swap(&batch, &jobs)
            condition.unlock()
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
            batch.removeAll(keepingCapacity: true)
        }
    }
}
