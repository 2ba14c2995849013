import TestSupport
import XCTest

@testable import CacheKitSystem

#if os(Linux)
    import Glibc
#endif

final class ThreadHeapReservationTests: XCTestCase {
    /// On a thread of its own, glibc's heap is made writable as far as was asked in one go
    /// (the mapping holding what the thread allocates is at least that large), so that it
    /// then grows without a system call per page; once per thread and size. (16 MiB: the
    /// thread may be given the heap of an earlier thread, up to 64 MiB with what that left.)
    /// Measured in a process of its own (this test binary, run again for this test alone):
    /// late in the whole suite a new thread shares an arena with threads of earlier tests,
    /// whose free chunks in older heaps answered the probe (a clean-clone run failed so, with
    /// 16 KB writable, though the test passes alone and after any one suite).
    func testAThreadsHeapIsMadeWritableAsFarAsAsked() throws {
        #if os(Linux)
            let name = "CacheKitTests.ThreadHeapReservationTests/testAThreadsHeapIsMadeWritableAsFarAsAsked"
            guard Run.alone(name, flag: "CACHECTL_HEAP_PROBE") else { return }
            let size = 16 << 20
            let seen = Locked<(blocks: Int, again: Int, writable: Int, before: Int)?>(nil)
            let done = DispatchSemaphore(value: 0)
            XCTAssertTrue(
                WorkerPool.spawn {
                    let before = Self.writableMapping(holdingAllocationOf: 64)
                    let blocks = MemoryReturn.reserveThreadHeap(bytes: size)
                    let again = MemoryReturn.reserveThreadHeap(bytes: size)
                    seen.withLock { $0 = (blocks, again, Self.writableMapping(holdingAllocationOf: 64), before) }
                    done.signal()
                })
            XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
            let result = try XCTUnwrap(seen.withLock { $0 })
            XCTAssertGreaterThan(result.blocks, 100, "16 MiB in blocks under the mmap threshold")
            XCTAssertEqual(result.again, 0, "a second call for the same size does nothing")
            XCTAssertGreaterThanOrEqual(result.writable, size, "writable before: \(result.before) bytes")
        #endif
    }

    /// The main thread's heap grows by brk with a pad: nothing to do there.
    func testNothingIsDoneOnTheMainThread() throws {
        #if os(Linux)
            try XCTSkipUnless(Thread.isMainThread, "XCTest runs tests on the main thread here")
            XCTAssertEqual(MemoryReturn.reserveThreadHeap(bytes: 8 << 20), 0)
        #endif
    }

    #if os(Linux)
        /// The size of the writable mapping (/proc/self/maps) holding a block of `bytes`
        /// allocated now (and freed); 0 when none is found.
        private static func writableMapping(holdingAllocationOf bytes: Int) -> Int {
            guard let block = malloc(bytes) else { return 0 }
            defer { free(block) }
            let address = UInt(bitPattern: block)
            guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return 0 }
            for line in maps.split(separator: "\n") {
                let fields = line.split(separator: " ")
                guard fields.count >= 2, fields[1].hasPrefix("rw") else { continue }
                let range = fields[0].split(separator: "-").compactMap { UInt($0, radix: 16) }
                if range.count == 2, range[0] <= address, address < range[1] { return Int(range[1] - range[0]) }
            }
            return 0
        }
    #endif
}
