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
                if prefaulted { Sys.prefault(buffer) }
                let before = Self.minorFaults()
                buffer.initializeMemory(as: UInt8.self, repeating: 1)
                return Self.minorFaults() - before
            }
            let plain = faultsFilling(prefaulted: false)
            let prefaulted = faultsFilling(prefaulted: true)
            XCTAssertGreaterThan(plain, pages / 2, "an ordinary buffer faults as it fills")
            XCTAssertLessThan(prefaulted, pages / 20, "prefaulted: \(prefaulted) faults for \(pages) pages")
        #endif
    }

    #if os(Linux)
        private static func minorFaults() -> Int {
            var usage = rusage()
            getrusage(__rusage_who_t(1), &usage)  // RUSAGE_THREAD
            return usage.ru_minflt
        }
    #endif
}
