/// Something to be freed by `WorkerPool.drop`. It must hold the only references to what it
/// holds, so make it where they are moved out of their owner, in a function of its own that is
/// not inlined. Handed over any other way (as an argument, even `consume`d), the caller is
/// apt to keep a copy of its own that the optimizer releases after the other thread's release
/// (measured: the localize job's decisions were freed on the caller's thread after all).
package final class Droppable: @unchecked Sendable {
    // @unchecked Sendable: `value` is written by init, then only by `drop`'s thread.
    private var value: Any?

    package init(_ value: Any) { self.value = value }

    /// Releases what it holds (on `drop`'s thread).
    func free() { value = nil }
}
