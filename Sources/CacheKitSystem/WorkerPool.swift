import CSystemShims

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// cachectl's one model for work that keeps processors busy: fork and join over POSIX threads.
///
/// A caller hands a fixed number of workers a body, and returns when every worker has
/// returned; the workers share their work through the structures below, each guarded by a
/// ``ConditionLock``:
/// - ``run(_:_:)``: `count` workers at once — the walker (sharing ``Jobs``, a LIFO stack of
///   directories, and a large directory's batches of names), prune's deletions (each worker
///   takes whole directories);
/// - ``map(_:workers:chunk:_:)``: a list's elements computed by workers taking ``Chunks`` of
///   it — the look at files' first bytes, fetch's commit making its bodies' directories and
///   files;
/// - ``both(_:_:)``: two pieces of work at once — localize scans a page while libxml2 parses it;
/// - ``LoopRunner``: a loop cut into blocks, run by whichever threads join it while it runs —
///   localize checks the bodies of a page's references on both of its threads;
/// - ``Handoff``: one value given by one worker and taken by another;
/// - ``detach(_:)``: a thread nobody waits for — freeing a large structure, and fetch's commit
///   thread, which makes bodies durable in batches while downloads go on.
///
/// Waiting for the network is not work for these threads: fetching uses Swift's structured
/// concurrency (tasks on SwiftNIO's event loops), and hands what it downloaded to the commit
/// thread.
///
/// Every thread gets an 8 MiB stack (libxml2 recurses on deeply nested pages; macOS would give
/// a new thread 512 KiB). A thread that cannot be created leaves its work to the caller: a
/// body runs on the calling thread instead, so nothing is ever skipped.
package enum WorkerPool {
    /// The stack of every thread the pool starts.
    package static let stackSize = 8 << 20

    /// Runs `body(index)` for every index in `0..<count`, each on a thread of its own (on the
    /// caller when `count` is 1), and returns when all have returned.
    package static func run(_ count: Int, _ body: @escaping (Int) -> Void) {
        if count <= 1 {
            body(0)
            return
        }
        var threads: [pthread_t] = []
        threads.reserveCapacity(count)
        for index in 0..<count {
            if let thread = start({ body(index) }) {
                threads.append(thread)
            } else {
                body(index)
            }
        }
        for thread in threads { pthread_join(thread, nil) }
    }

    /// `body(index)` for every index in `0..<count`, in order, computed by up to `workers`
    /// threads at once, each taking `chunk` consecutive indices at a time (on the caller alone
    /// when one worker is asked or there is at most one chunk). `body` must be safe to run on
    /// several threads at once.
    package static func map<T>(_ count: Int, workers: Int, chunk: Int, _ body: (Int) -> T) -> [T] {
        let chunk = max(1, chunk)
        let workers = min(workers, (count + chunk - 1) / chunk)
        if workers <= 1 { return (0..<count).map(body) }
        return withoutActuallyEscaping(body) { body in
            let next = Chunks()
            return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
                // nonisolated(unsafe): each index is initialized by exactly one thread (the
                // counter hands out disjoint chunks), and read only after the threads have joined.
                nonisolated(unsafe) let out = buffer
                run(workers) { _ in
                    while true {
                        let start = next.take(chunk)
                        guard start < count else { return }
                        for i in start..<min(start + chunk, count) { (out.baseAddress! + i).initialize(to: body(i)) }
                    }
                }
                initialized = count
            }
        }
    }

    /// Two pieces of work at once: the first on a new thread, the second on the caller's.
    ///
    /// `first` (and all it captures) is released on its thread before the caller resumes: a
    /// capture it still held then could outlive, for example, a `withoutActuallyEscaping`
    /// closure the caller is about to check.
    package static func both<A, B>(_ first: @escaping () -> A, _ second: () -> B) -> (A, B) {
        let result = Slot<A>()
        let work = Slot<() -> A>()
        work.value = first
        let thread = start { result.value = call(work) }
        if thread == nil { result.value = call(work) }
        let b = second()
        if let thread { pthread_join(thread, nil) }
        return (result.value!, b)
    }

    /// Runs `body` on a thread of its own and returns at once (on the caller, and after it,
    /// when no thread can be started).
    package static func detach(_ body: @escaping () -> Void) {
        if !spawn(body) { body() }
    }

    /// Runs `body` on a thread of its own and returns at once; false (and `body` not run) when
    /// the system refuses a thread.
    package static func spawn(_ body: @escaping () -> Void) -> Bool {
        guard let thread = start(body) else { return false }
        pthread_detach(thread)
        return true
    }

    /// Frees what `held` holds on a thread of its own, at the lowest priority: a structure of
    /// many small objects takes time to free that the caller need not wait for, nor share a
    /// processor with (a process that ends first frees it all at once). With `keepsDrops`, it
    /// is kept until `freeKept` instead.
    package static func drop(_ held: Droppable) {
        if dropsOnCaller { return held.free() }
        if keepsDrops { return kept.withLock { $0.append(held) } }
        free([held])
    }

    /// `drop` keeps what it is given until `freeKept`, or the process's exit: for a command
    /// that ends soon after it drops a page's few hundred thousand leftovers, freeing them is
    /// work for nothing, and a thread doing it takes a processor from the work that ends the
    /// command (measured on a 10 MB page: what follows the rewrite, 20.7 → 15.7 ms). Set it
    /// while nothing is being dropped (at a command's start).
    // nonisolated(unsafe): written only while no drop runs (a command's start, a test).
    nonisolated(unsafe) package static var keepsDrops = false

    /// Frees what `drop` has kept (as `drop` frees: on a thread of its own, at the lowest
    /// priority): a command calls it before its next page.
    package static func freeKept() {
        let held = kept.withLock { kept in
            defer { kept = [] }
            return kept
        }
        if !held.isEmpty { free(held) }
    }

    private static let kept = Locked<[Droppable]>([])

    private static func free(_ held: [Droppable]) {
        detach {
            _ = cachectl_lowest_thread_priority()
            for value in held { value.free() }
        }
    }

    /// `drop` frees on the caller's thread, before it returns. For a harness that counts
    /// allocations per call: libFuzzer checks for leaks when an input returns, and reported a
    /// page's leftovers, still on their way to being freed on a thread of their own, as leaked.
    /// Set it while nothing is being dropped (a fuzzing entry point sets it once, first).
    // nonisolated(unsafe): written only while no drop runs (the fuzz target's first input, a test).
    nonisolated(unsafe) package static var dropsOnCaller = false

    /// Takes the closure out of its slot and calls it; the last reference goes when this returns.
    private static func call<A>(_ work: Slot<() -> A>) -> A {
        let body = work.value!
        work.value = nil
        return body()
    }

    /// A new joinable thread running `body`; nil when the system refuses one.
    private static func start(_ body: @escaping () -> Void) -> pthread_t? {
        final class Box {
            let run: () -> Void
            init(_ run: @escaping () -> Void) { self.run = run }
        }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        #if canImport(Glibc)
            var thread = pthread_t()
            let rc = pthread_create(
                &thread, &attributes,
                { raw in
                    Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().run()
                    return nil
                }, box)
            if rc == 0 { return thread }
        #else
            var thread: pthread_t?
            let rc = pthread_create(
                &thread, &attributes,
                { raw in
                    Unmanaged<Box>.fromOpaque(raw).takeRetainedValue().run()
                    return nil
                }, box)
            if rc == 0, let thread { return thread }
        #endif
        Unmanaged<Box>.fromOpaque(box).release()
        return nil
    }
}

extension WorkerPool {
    /// A LIFO stack of jobs shared by the workers of one ``WorkerPool/run(_:_:)``. LIFO keeps
    /// the walk depth-first, which bounds both the pending jobs and the directories held open.
    package final class Jobs<Job>: @unchecked Sendable {
        // @unchecked Sendable: `jobs` and `active` are only touched with `lock` held.
        private let lock = ConditionLock()
        private var jobs: [Job] = []
        private var active = 0

        package init(_ initial: [Job]) { jobs = initial }

        /// Takes a job, waiting while others may still produce some; nil when all work is done.
        package func pop() -> Job? {
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

        /// Adds jobs for any worker to take.
        package func push<S: Sequence>(_ more: S) where S.Element == Job {
            lock.lock()
            jobs.append(contentsOf: more)
            lock.unlock()
            lock.broadcast()
        }

        /// Marks one popped job as finished (after its children were pushed).
        package func finish() {
            lock.lock()
            active -= 1
            let allDone = active == 0 && jobs.isEmpty
            lock.unlock()
            if allDone { lock.broadcast() }
        }
    }

    /// Hands out consecutive ranges of a list's indices to the workers sharing it.
    package final class Chunks: @unchecked Sendable {
        // @unchecked Sendable: `next` is only touched with `lock` held.
        private let lock = ConditionLock()
        private var next = 0

        package init() {}

        /// The start of the next `size` indices (past the end once everything is taken).
        package func take(_ size: Int) -> Int {
            lock.withLock {
                defer { next += size }
                return next
            }
        }
    }

    /// A value handed from one worker to another once: `take` waits for `give`.
    package final class Handoff<Value>: @unchecked Sendable {
        // @unchecked Sendable: `value` is only touched with `lock` held.
        private let lock = ConditionLock()
        private var value: Value?

        package init() {}

        /// Makes `value` the one `take` returns.
        package func give(_ value: Value) {
            lock.withLock { self.value = value }
            lock.broadcast()
        }

        /// Whether a value was given (`take` would not wait).
        package var isGiven: Bool { lock.withLock { value != nil } }

        /// Waits until a value is given; returns it.
        package func take() -> Value {
            lock.lock()
            defer { lock.unlock() }
            while value == nil { lock.wait() }
            return value!
        }
    }
}

/// A value written by one thread before another is joined to it, and read after.
private final class Slot<A>: @unchecked Sendable {
    // @unchecked Sendable: the join (or the caller's own order, when no thread started) orders
    // every write before every read.
    var value: A?
}
