/// Offsets in a page, for membership: sorted once (they mostly come in order), then found
/// by binary search.
struct Offsets: Sendable {
    private let sorted: [Int]

    init(_ offsets: [Int]) {
        sorted = offsets.indices.dropFirst().allSatisfy { offsets[$0 - 1] <= offsets[$0] } ? offsets : offsets.sorted()
    }

    /// Where a walk through the page in order has come to: `contains(_:from:)` moves it on.
    typealias Cursor = Int

    /// `contains`, for offsets asked about mostly in increasing order: searched from
    /// `cursor` onward (a few steps, then by halves), by binary search when behind it.
    func contains(_ offset: Int, from cursor: inout Cursor) -> Bool {
        var lo = min(max(cursor, 0), sorted.count)
        if lo > 0 && sorted[lo - 1] >= offset { return contains(offset) }
        let steps = min(lo + 8, sorted.count)
        while lo < steps && sorted[lo] < offset { lo += 1 }
        if lo == steps {
            var hi = sorted.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if sorted[mid] < offset { lo = mid + 1 } else { hi = mid }
            }
        }
        cursor = lo
        return lo < sorted.count && sorted[lo] == offset
    }

    func contains(_ offset: Int) -> Bool {
        var (lo, hi) = (0, sorted.count)
        while lo < hi {
            let mid = (lo + hi) / 2
            if sorted[mid] < offset { lo = mid + 1 } else { hi = mid }
        }
        return lo < sorted.count && sorted[lo] == offset
    }
}
