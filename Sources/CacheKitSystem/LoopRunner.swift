/// Runs a loop's indices in blocks on the calling thread and on any other thread that joins
/// while it runs; returns once every index was visited exactly once. The body must be safe to
/// run on disjoint ranges at the same time. Part of the ``WorkerPool`` model.
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
