import Dispatch
import XCTest

@testable import CacheKitSystem

#if os(Linux)
    import Glibc
#endif

final class PrefaultTests: XCTestCase {
    /// A buffer prefaulted takes (almost) no page fault as it is then filled; one that is
    /// not takes one a page. Counted by the thread's minor faults (`getrusage`), on fresh
    /// pages of their own (`mmap`, no huge pages), 8 MiB each.
    func testAPrefaultedBufferFillsWithoutAFaultAPage() throws {
        #if os(Linux)
            let size = 8 << 20
            let pages = size / Int(getpagesize())
            func faultsFilling(prefaulted: Bool) -> Int {
                let memory = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)!
                defer { munmap(memory, size) }
                _ = madvise(memory, size, MADV_NOHUGEPAGE)  // pages of 4 KiB, whatever the system's THP mode
                let buffer = UnsafeMutableRawBufferPointer(start: memory, count: size)
                guard prefaulted else { return Self.faults { buffer.initializeMemory(as: UInt8.self, repeating: 1) } }
                return Sys.prefaulting(buffer) { Self.faults { buffer.initializeMemory(as: UInt8.self, repeating: 1) } }
            }
            let plain = faultsFilling(prefaulted: false)
            let prefaulted = faultsFilling(prefaulted: true)
            XCTAssertGreaterThan(plain, pages / 2, "an ordinary buffer faults as it fills")
            XCTAssertLessThan(prefaulted, pages / 20, "prefaulted: \(prefaulted) faults for \(pages) pages")
        #endif
    }

    /// While a helper is expected, the filling thread does not fault the buffer in first: a
    /// helper that calls `helpPrefault` while the buffer is being filled does (here it is
    /// called once the fill has begun, and the fill waits for it to be done, so that all of it
    /// is the helper's); one called when nothing is being filled returns at once.
    func testAHelperFaultsInTheBufferAnotherThreadFills() throws {
        #if os(Linux)
            let size = 8 << 20
            let pages = size / Int(getpagesize())
            Sys.helpPrefault()  // nothing expected, nothing offered: returns
            let memory = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)!
            defer { munmap(memory, size) }
            _ = madvise(memory, size, MADV_NOHUGEPAGE)
            let buffer = UnsafeMutableRawBufferPointer(start: memory, count: size)
            Sys.expectPrefaultHelper(true)
            defer { Sys.expectPrefaultHelper(false) }
            let (filling, helped) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
            XCTAssertTrue(
                WorkerPool.spawn {
                    filling.wait()
                    Sys.helpPrefault()
                    helped.signal()
                })
            let faults = Sys.prefaulting(buffer) { () -> Int in
                filling.signal()
                XCTAssertEqual(helped.wait(timeout: .now() + 30), .success)
                return Self.faults { buffer.initializeMemory(as: UInt8.self, repeating: 1) }
            }
            XCTAssertLessThan(faults, pages / 20, "helped: \(faults) faults for \(pages) pages")
        #endif
    }

    #if os(Linux)
        /// The calling thread's minor faults while `body` runs.
        private static func faults(_ body: () -> Void) -> Int {
            let before = minorFaults()
            body()
            return minorFaults() - before
        }

        private static func minorFaults() -> Int {
            var usage = rusage()
            getrusage(__rusage_who_t(1), &usage)  // RUSAGE_THREAD
            return usage.ru_minflt
        }
    #endif
}
