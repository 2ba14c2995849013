import XCTest

@testable import CacheKitSystem

final class WorkerPoolDropTests: XCTestCase {
    /// What `WorkerPool.drop` is given is freed on another thread, not the caller's, and (on
    /// Linux) one at the lowest priority, nice 19, so that it takes no processor from the work.
    func testDroppedValuesAreFreedOnAnotherThreadAtTheLowestPriority() {
        for _ in 0..<50 {
            let done = DispatchSemaphore(value: 0)
            let freedOn = Locked<(thread: pthread_t, nice: Int32)?>(nil)
            WorkerPool.drop(
                Self.droppable { thread, nice in
                    freedOn.withLock { $0 = (thread, nice) }
                    done.signal()
                })
            XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
            guard let (thread, nice) = freedOn.withLock({ $0 }) else { return XCTFail("not freed") }
            XCTAssertEqual(pthread_equal(thread, pthread_self()), 0, "freed on the caller's thread")
            #if os(Linux)
                XCTAssertEqual(nice, 19)
            #endif
        }
    }

    /// With `dropsOnCaller` (a fuzzing harness), what is dropped is freed on the caller's
    /// thread before `drop` returns: libFuzzer counts allocations when an input returns.
    func testDropsOnCallerFreeBeforeDropReturns() {
        WorkerPool.dropsOnCaller = true
        defer { WorkerPool.dropsOnCaller = false }
        for _ in 0..<20 {
            let freedOn = Locked<pthread_t?>(nil)
            WorkerPool.drop(Self.droppable { thread, _ in freedOn.withLock { $0 = thread } })
            guard let thread = freedOn.withLock({ $0 }) else { return XCTFail("not freed when drop returned") }
            XCTAssertNotEqual(pthread_equal(thread, pthread_self()), 0, "freed on another thread")
        }
    }

    /// With `keepsDrops` (a command that ends soon after its drops), what is dropped is kept
    /// until `freeKept`, then freed on another thread at the lowest priority.
    func testKeptDropsAreFreedOnlyWhenAsked() {
        WorkerPool.keepsDrops = true
        defer {
            WorkerPool.keepsDrops = false
            WorkerPool.freeKept()
        }
        let freedOn = Locked<[(thread: pthread_t, nice: Int32)]>([])
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<3 {
            WorkerPool.drop(
                Self.droppable { thread, nice in
                    freedOn.withLock { $0.append((thread, nice)) }
                    done.signal()
                })
        }
        // A drop's own thread frees at once: half a second is long enough to see one.
        XCTAssertEqual(done.wait(timeout: .now() + 0.5), .timedOut, "freed while kept")
        WorkerPool.freeKept()
        for _ in 0..<3 { XCTAssertEqual(done.wait(timeout: .now() + 10), .success, "not freed when asked") }
        for (thread, nice) in freedOn.withLock({ $0 }) {
            XCTAssertEqual(pthread_equal(thread, pthread_self()), 0, "freed on the caller's thread")
            #if os(Linux)
                XCTAssertEqual(nice, 19)
            #endif
        }
    }

    /// A marker made in a function of its own, as `Droppable` asks: nothing outside holds it.
    @inline(never)
    private static func droppable(freed: @escaping (pthread_t, Int32) -> Void) -> Droppable {
        Droppable([Marker(freed)])
    }
}

/// Calls `freed` with the thread it is freed on and that thread's nice value.
private final class Marker {
    let freed: (pthread_t, Int32) -> Void
    init(_ freed: @escaping (pthread_t, Int32) -> Void) { self.freed = freed }
    deinit {
        #if os(Linux)
            // PRIO_PROCESS with 0: the calling thread, on Linux.
            freed(pthread_self(), getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0))
        #else
            freed(pthread_self(), 0)
        #endif
    }
}
