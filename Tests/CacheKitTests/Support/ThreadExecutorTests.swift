import XCTest

@testable import CacheKitSystem

final class ThreadExecutorTests: XCTestCase {
    /// Every job of a task that prefers a `ThreadExecutor` runs on its one thread, before and
    /// after suspensions resumed from elsewhere, and not on the caller's.
    func testATaskRunsOnItsExecutorsOneThread() async throws {
        let executor = try XCTUnwrap(ThreadExecutor.start())
        defer { executor.stop() }
        let caller = pthread_self()
        let threads = await Task(executorPreference: executor) { () async -> [pthread_t] in
            var seen = [pthread_self()]
            await Task.yield()
            seen.append(pthread_self())
            // Resumed from a thread of its own.
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                WorkerPool.detach { continuation.resume() }
            }
            seen.append(pthread_self())
            return seen
        }.value
        XCTAssertEqual(threads.count, 3)
        for thread in threads { XCTAssertNotEqual(pthread_equal(thread, threads[0]), 0) }
        XCTAssertEqual(pthread_equal(threads[0], caller), 0)
    }

    /// Tasks on executors of their own may block at once, more of them than there are
    /// processors (Swift's own threads, one per processor, would deadlock here): each waits,
    /// blocking its thread, until all have arrived. Downloads blocked in `recv` rely on it.
    func testTasksOnTheirOwnExecutorsMayAllBlockAtOnce() async throws {
        let count = Sys.processorCount + 2
        let executors = try (0..<count).map { _ in try XCTUnwrap(ThreadExecutor.start()) }
        defer { for executor in executors { executor.stop() } }
        let barrier = Barrier(count)
        let arrived = Locked(0)
        let all = Task {
            await withTaskGroup(of: Void.self) { group in
                for executor in executors {
                    group.addTask(executorPreference: executor) {
                        barrier.arriveAndWait()
                        arrived.withLock { $0 += 1 }
                    }
                }
            }
        }
        // A hang detector, not a time limit: all arrive within microseconds or never.
        let arrivedInTime = barrier.waitUntilAllArrived(seconds: 60)
        XCTAssertTrue(arrivedInTime, "tasks that block deadlocked")
        if !arrivedInTime { barrier.release() }
        await all.value
        XCTAssertEqual(arrived.withLock { $0 }, count)
    }
}

/// Blocks each caller of `arriveAndWait` until `count` have called it.
private final class Barrier: @unchecked Sendable {
    // @unchecked Sendable: `arrived` is only touched with `condition` held.
    private let condition = ConditionLock()
    private let count: Int
    private var arrived = 0

    init(_ count: Int) { self.count = count }

    func arriveAndWait() {
        condition.lock()
        arrived += 1
        condition.broadcast()
        while arrived < count { condition.wait() }
        condition.unlock()
    }

    /// Lets every waiter go (after a failure, so that the test ends).
    func release() {
        condition.withLock {
            arrived = count
            condition.broadcast()
        }
    }

    /// Whether all arrived within `seconds` (polled: the test's own thread never blocks long).
    func waitUntilAllArrived(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition.withLock({ arrived >= count }) { return true }
            usleep(1000)
        }
        return false
    }
}

extension ThreadExecutorTests {
    /// A job enqueued after the executor was stopped and its thread ended (a task that
    /// outlived the fetch that made it) still runs, on a thread of its own again.
    func testAJobAfterTheStopStillRuns() async throws {
        let executor = try XCTUnwrap(ThreadExecutor.start())
        await Task(executorPreference: executor) {}.value
        executor.stop()
        while executor.isRunning { await Task.yield() }
        let ran = DispatchSemaphore(value: 0)
        Task(executorPreference: executor) { ran.signal() }
        // A hang detector, not a time limit: the job runs at once, or never.
        XCTAssertEqual(ran.wait(timeout: .now() + 60), .success, "a job after the stop never ran")
    }
}
