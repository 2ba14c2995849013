#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A mutex with a condition variable, over pthreads so it works the same on Linux and macOS
/// and keeps Foundation out of the walker's hot path. The lock of every `WorkerPool` structure.
package final class ConditionLock: @unchecked Sendable {
    // @unchecked Sendable: a pthread mutex and condition are made to be shared; the pointers never change.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let cond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(cond, nil)
    }

    deinit {
        pthread_cond_destroy(cond)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        cond.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }
    /// Waits for a signal; call with the lock held.
    package func wait() { pthread_cond_wait(cond, mutex) }
    /// Waits for a signal or `milliseconds`, whichever comes first; call with the lock held.
    package func wait(milliseconds: Int) {
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        let nanoseconds = Int(deadline.tv_nsec) + milliseconds % 1000 * 1_000_000
        deadline.tv_sec += milliseconds / 1000 + nanoseconds / 1_000_000_000
        deadline.tv_nsec = .init(nanoseconds % 1_000_000_000)
        pthread_cond_timedwait(cond, mutex, &deadline)
    }
    package func signal() { pthread_cond_signal(cond) }
    package func broadcast() { pthread_cond_broadcast(cond) }

    @inline(__always)
    package func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}
