import CacheKitSystem
import Foundation
import URLStandard

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Counts lines for report offsets.
struct LineIndex {
    private var starts: [Int] = [0]
    /// Everything on line 1.
    init() {}
    init(_ bytes: [UInt8]) {
        // Pages measured hold a line per 70-490 bytes.
        starts.reserveCapacity(bytes.count / 48)
        var i = 0
        while let newline = StartTagScanner.index(of: 0x0A, in: bytes, from: i) {
            starts.append(newline + 1)
            i = newline + 1
        }
    }
    func line(of offset: Int) -> Int {
        var lo = 0
        var hi = starts.count
        while lo + 1 < hi {
            let mid = (lo + hi) / 2
            if starts[mid] <= offset { lo = mid } else { hi = mid }
        }
        return lo + 1
    }
}
