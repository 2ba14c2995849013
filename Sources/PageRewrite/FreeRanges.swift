/// Ranges already rewritten, asked whether a range touches any of them: sorted once, each
/// question a binary search (tens of thousands of edits are asked about by tens of thousands
/// of values).
struct FreeRanges: Sendable {
    private let sorted: [Range<Int>]
    private let widest: Int

    init(_ taken: [Range<Int>]) {
        sorted = taken.sorted { $0.lowerBound < $1.lowerBound }
        widest = sorted.reduce(0) { max($0, $1.count) }
    }

    /// Whether `r` touches no taken range (an empty taken range inside it counts).
    func callAsFunction(_ r: Range<Int>) -> Bool {
        // The first taken range starting at or after r.lowerBound - widest: only those can touch r.
        var lo = 0
        var hi = sorted.count
        let from = r.lowerBound - widest
        while lo < hi {
            let mid = (lo + hi) / 2
            if sorted[mid].lowerBound < from { lo = mid + 1 } else { hi = mid }
        }
        var i = lo
        while i < sorted.count, sorted[i].lowerBound <= r.upperBound {
            let t = sorted[i]
            if t.overlaps(r) || (t.isEmpty && r.contains(t.lowerBound)) { return false }
            i += 1
        }
        return true
    }
}
