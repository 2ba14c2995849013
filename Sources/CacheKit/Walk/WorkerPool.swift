#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A LIFO stack of jobs shared by a fixed set of threads. LIFO keeps the walk depth-first,
/// which bounds both the pending jobs and the directories held open.
final class JobStack<Job>: @unchecked Sendable {
    // @unchecked Sendable: `jobs` and `active` are only touched with `lock` held.
    private let lock = ConditionLock()
    private var jobs: [Job] = []
    private var active = 0

    init(_ initial: [Job]) { jobs = initial }

    /// Takes a job, waiting while others may still produce some; nil when all work is done.
    func pop() -> Job? {
        lock.lock()
        defer { lock.unlock() }
        while jobs.isEmpty {
            if active == 0 {
                lock.broadcast()
                return nil
            }
            lock.wait()
        }
        active += 1
        return jobs.removeLast()
    }

    func push<S: Sequence>(_ more: S) where S.Element == Job {
        lock.lock()
        jobs.append(contentsOf: more)
        lock.unlock()
        lock.broadcast()
    }

    /// Marks one popped job as finished (after its children were pushed).
    func finish() {
        lock.lock()
        active -= 1
        let allDone = active == 0 && jobs.isEmpty
        lock.unlock()
        if allDone { lock.broadcast() }
    }
}

/// Runs `body(index)` on `count` new threads and waits for all of them.
func runThreads(_ count: Int, _ body: @escaping (Int) -> Void) {
    final class Box {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }
    if count <= 1 {
        body(0)
        return
    }
    var threads: [pthread_t] = []
    for index in 0..<count {
        let box = Unmanaged.passRetained(Box { body(index) }).toOpaque()
        #if canImport(Glibc)
            var thread = pthread_t()
            let rc = pthread_create(
                &thread, nil,
                { raw in
                    let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
                    box.run()
                    return nil
                }, box)
            if rc == 0 {
                threads.append(thread)
            } else {
                Unmanaged<Box>.fromOpaque(box).release()
                body(index)
            }
        #else
            var thread: pthread_t?
            let rc = pthread_create(
                &thread, nil,
                { raw in
                    let box = Unmanaged<Box>.fromOpaque(raw).takeRetainedValue()
                    box.run()
                    return nil
                }, box)
            if rc == 0, let thread {
                threads.append(thread)
            } else {
                Unmanaged<Box>.fromOpaque(box).release()
                body(index)
            }
        #endif
    }
    for thread in threads { pthread_join(thread, nil) }
}

/// Hands out consecutive ranges of indices to threads sharing a list of work.
final class ChunkCounter: @unchecked Sendable {
    // @unchecked Sendable: `next` is only touched with `lock` held.
    private let lock = ConditionLock()
    private var next = 0

    /// The start of the next `size` indices (past the end once everything is taken).
    func take(_ size: Int) -> Int {
        lock.withLock {
            defer { next += size }
            return next
        }
    }
}
