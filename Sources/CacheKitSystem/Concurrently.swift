import Foundation

/// Two pieces of work at once: the first on a new thread, the second on the caller's.
package enum Concurrently {
    ///
    /// `first` (and all it captures) is released on its thread before the caller resumes: the
    /// thread object outlives the call, and a capture it still held then could outlive, for
    /// example, a `withoutActuallyEscaping` closure the caller is about to check.
    package static func run<A, B>(_ first: @escaping () -> A, _ second: () -> B) -> (A, B) {
        let box = ResultBox<A>()
        let work = ResultBox<() -> A>()
        work.value = first
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.value = Self.call(work)
            done.signal()
        }
        thread.stackSize = 8 << 20  // libxml2 recurses on deep nesting
        thread.start()
        let b = second()
        done.wait()
        return (box.value!, b)
    }

    /// Takes the closure out of its box and calls it; the last reference goes when this returns.
    private static func call<A>(_ work: ResultBox<() -> A>) -> A {
        let body = work.value!
        work.value = nil
        return body()
    }
}

extension Concurrently {
    /// Releases `value` on a new thread: a structure of many small objects takes time to
    /// free that the caller need not wait for. (The caller must hold no other reference
    /// it still uses; it stays valid either way, this only moves where the last release runs.)
    package static func drop<A>(_ value: A) {
        let box = ResultBox<A>()
        box.value = value
        Thread.detachNewThread { box.value = nil }
    }
}

private final class ResultBox<A>: @unchecked Sendable {
    // @unchecked Sendable: written by one thread before it signals, read by another after it waits.
    var value: A?
}

/// A value handed from one thread to another once: `take` waits for `give`.
package final class Handoff<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is written once before `ready` is signalled, read after the wait.
    package init() {}
    private var value: Value?
    private let ready = DispatchSemaphore(value: 0)

    package func give(_ value: Value) {
        self.value = value
        ready.signal()
    }

    package func take() -> Value {
        ready.wait()
        return value!
    }
}

/// Runs a loop's indices in blocks on the calling thread and on any other thread that joins
/// while it runs; returns once every index was visited exactly once. The body must be safe to
/// run on disjoint ranges at the same time.
package struct LoopRunner: Sendable {
    package let run: @Sendable (_ count: Int, _ body: @escaping (Range<Int>) -> Void) -> Void

    package init(run: @escaping @Sendable (_ count: Int, _ body: @escaping (Range<Int>) -> Void) -> Void) {
        self.run = run
    }

    /// Everything on the caller.
    package static let serial = LoopRunner { count, body in
        if count > 0 { body(0..<count) }
    }
}
