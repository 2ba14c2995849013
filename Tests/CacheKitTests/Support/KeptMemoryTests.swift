import TestSupport
import XCTest

@testable import CacheKitSystem

#if os(Linux)
    import Glibc
#endif

final class KeptMemoryTests: XCTestCase {
    /// After `keepFreedMemory`, a block of 16 MiB comes from the heap (glibc's chunk header
    /// without IS_MMAPPED, 0x2), where by default it gets pages of its own, given back when
    /// freed. In a process of its own (this test binary, run again for this test alone): the
    /// setting is the whole process's.
    func testLargeBlocksComeFromTheHeapOnceFreedMemoryIsKept() throws {
        #if os(Linux)
            let name = "CacheKitTests.KeptMemoryTests/testLargeBlocksComeFromTheHeapOnceFreedMemoryIsKept"
            guard Run.alone(name, flag: "CACHECTL_KEPT_PROBE") else { return }
            func mapped(_ bytes: Int) -> Bool {
                let block = malloc(bytes)!
                defer { free(block) }
                return block.assumingMemoryBound(to: Int.self)[-1] & 0x2 != 0
            }
            // Freeing a mapped block raises glibc's threshold to its size: the second block
            // is larger, so that only the setting keeps it in the heap.
            XCTAssertTrue(mapped(4 << 20), "by default, 4 MiB get pages of their own")
            MemoryReturn.keepFreedMemory()
            XCTAssertFalse(mapped(16 << 20), "kept: 16 MiB come from the heap")
        #endif
    }
}
