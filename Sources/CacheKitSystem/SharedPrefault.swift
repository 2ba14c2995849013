/// A buffer's pages being faulted in by another thread while its owner fills it
/// (`Sys.prefaulting`): a helper (`Sys.helpPrefault`) takes pieces of 256 KiB from the
/// buffer's end while the owner reads into it from the start, faulting in its own pages as it
/// goes. (Reading a 9.7 MB page was mostly its 2,400 faults, while the thread opening the
/// caches beside it waited, idle. The owner does not populate pieces itself: a populate holds
/// the process's memory map for reading all along, and an `mmap` on another thread, SQLite's
/// for its shared memory, waited behind every piece of it: 3 ms.) Only page tables change:
/// the contents are never touched, so a piece populated late, or not at all, is faulted in by
/// whoever writes there first.
final class SharedPrefault: @unchecked Sendable {
    // @unchecked Sendable: `front` and `back` are read and written with `lock` held; `start`
    // is only an address handed to madvise.
    static let piece = 256 << 10

    private let lock = ConditionLock()
    private let start: UnsafeMutableRawPointer
    /// Offsets from `start`: what is left lies in `front..<back`.
    private var front = 0
    private var back: Int

    /// Page-aligned `start` and `length`.
    init(start: UnsafeMutableRawPointer, length: Int) {
        self.start = start
        back = length
    }

    /// Populates pieces from the back until none is left (or the kernel refuses one: no
    /// MADV_POPULATE_WRITE).
    func helpFromBack() {
        while let piece = takeFromBack() {
            if !Sys.populateWrite(start + piece.lowerBound, piece.count) { stop() }
        }
    }

    private func takeFromBack() -> Range<Int>? {
        lock.withLock {
            guard front < back else { return nil }
            let count = min(Self.piece, back - front)
            back -= count
            return back..<(back + count)
        }
    }

    /// Nothing more to populate: the buffer is filled.
    func stop() { lock.withLock { back = front } }

    // MARK: Where owners and helpers meet

    /// Whether a helper is coming, and the buffer being filled now, if any.
    private static let board = ConditionLock()
    // nonisolated(unsafe): read and written only with `board` held.
    nonisolated(unsafe) private static var helperComing = false
    // nonisolated(unsafe): read and written only with `board` held.
    nonisolated(unsafe) private static var offered: SharedPrefault?

    static func expectHelper(_ coming: Bool) {
        board.withLock { helperComing = coming }
    }

    static var isHelperComing: Bool { board.withLock { helperComing } }

    static func offer(_ job: SharedPrefault?) {
        board.withLock { offered = job }
    }

    /// Helps what is offered now, if anything. (It does not wait for an offer: where no thread
    /// could be started, the helper runs before the reader, on the same thread.)
    static func help() {
        board.withLock { offered }?.helpFromBack()
    }
}
