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
            guard ProcessInfo.processInfo.environment["CACHECTL_HEAP_PROBE"] != nil else {
                let name = "CacheKitTests.ThreadHeapReservationTests/testAThreadsHeapIsMadeWritableAsFarAsAsked"
                let run = Run.command([CommandLine.arguments[0], name], environment: ["CACHECTL_HEAP_PROBE": "1"])
                XCTAssertEqual(run.status, 0, run.out + run.err)
                let output = run.out + run.err
                XCTAssertTrue(output.contains("Executed 1 test, with 0 failures"), "the probe did not run: " + output)
                return
            }
            let size = 16 << 20
            let seen = Locked<(blocks: Int, again: Int, writable: Int, before: Int, flags: [Substring])?>(nil)
            let done = DispatchSemaphore(value: 0)
            XCTAssertTrue(
                WorkerPool.spawn {
                    let before = Self.writableMapping(holdingAllocationOf: 64)
                    let blocks = MemoryReturn.reserveThreadHeap(bytes: size)
                    let again = MemoryReturn.reserveThreadHeap(bytes: size)
                    let (writable, flags) = (
                        Self.writableMapping(holdingAllocationOf: 64), Self.flags(ofMappingHoldingAllocationOf: 64)
                    )
                    seen.withLock { $0 = (blocks, again, writable, before, flags) }
                    done.signal()
                })
            XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
            let result = try XCTUnwrap(seen.withLock { $0 })
            XCTAssertGreaterThan(result.blocks, 100, "16 MiB in blocks under the mmap threshold")
            XCTAssertEqual(result.again, 0, "a second call for the same size does nothing")
            XCTAssertGreaterThanOrEqual(result.writable, size, "writable before: \(result.before) bytes")
            // The heap asks for transparent huge pages (`hg` in smaps' VmFlags), whether or
            // not the system then gives them (a kernel built without them refuses the advice).
            if FileManager.default.fileExists(atPath: "/sys/kernel/mm/transparent_hugepage/enabled") {
                XCTAssertTrue(result.flags.contains("hg"), "VmFlags: \(result.flags.joined(separator: " "))")
            }
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
        /// The VmFlags (/proc/self/smaps) of the mapping holding a block of `bytes` allocated
        /// now (and freed); empty when none is found.
        private static func flags(ofMappingHoldingAllocationOf bytes: Int) -> [Substring] {
            guard let block = malloc(bytes) else { return [] }
            defer { free(block) }
            let address = UInt(bitPattern: block)
            // Read to its end: Foundation's reading stops after the first page of smaps.
            let fd = open("/proc/self/smaps", O_RDONLY)
            guard fd >= 0 else { return [] }
            defer { close(fd) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while case let got = read(fd, &chunk, chunk.count), got > 0 { bytes += chunk[..<got] }
            let smaps = String(decoding: bytes, as: UTF8.self)
            var inside = false
            for line in smaps.split(separator: "\n") {
                let fields = line.split(separator: " ")
                let range = fields.first?.split(separator: "-").compactMap { UInt($0, radix: 16) } ?? []
                if range.count == 2, fields.count >= 2, fields[1].count == 4 {
                    inside = range[0] <= address && address < range[1]
                } else if inside, fields.first == "VmFlags:" {
                    return Array(fields.dropFirst())
                }
            }
            return []
        }

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
