/// Offsets in a page, for membership: sorted once (they mostly come in order), then found
/// by binary search.
struct Offsets: Sendable {
    private let sorted: [Int]

    init(_ offsets: [Int]) {
        sorted = offsets.indices.dropFirst().allSatisfy { offsets[$0 - 1] <= offsets[$0] } ? offsets : offsets.sorted()
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
