import Foundation

/// Two pieces of work at once: the first on a new thread, the second on the caller's.
enum Concurrently {
    static func run<A, B>(_ first: @escaping () -> A, _ second: () -> B) -> (A, B) {
        let box = ResultBox<A>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.value = first()
            done.signal()
        }
        thread.stackSize = 8 << 20 // libxml2 recurses on deep nesting
        thread.start()
        let b = second()
        done.wait()
        return (box.value!, b)
    }
}

private final class ResultBox<A>: @unchecked Sendable {
    var value: A?
}
