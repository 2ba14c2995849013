#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `limit` largest files seen, kept in a min-heap so each offer is O(log limit).
struct LargestFiles {
    let limit: Int
    private var heap: [FileUsage] = []

    init(limit: Int) { self.limit = limit }

    @inline(__always)
    func wouldKeep(_ allocated: Int64) -> Bool {
        limit > 0 && (heap.count < limit || allocated > heap[0].allocatedBytes)
    }

    mutating func offer(_ file: FileUsage) {
        guard wouldKeep(file.allocatedBytes) else { return }
        if heap.count < limit {
            heap.append(file)
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                if heap[child].allocatedBytes >= heap[parent].allocatedBytes { break }
                heap.swapAt(child, parent)
                child = parent
            }
        } else {
            heap[0] = file
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < heap.count && heap[left].allocatedBytes < heap[smallest].allocatedBytes { smallest = left }
                if right < heap.count && heap[right].allocatedBytes < heap[smallest].allocatedBytes { smallest = right }
                if smallest == parent { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
    }

    mutating func merge(_ other: LargestFiles) {
        for file in other.heap { offer(file) }
    }

    /// Largest first; ties by path.
    func sorted() -> [FileUsage] {
        heap.sorted {
            $0.allocatedBytes != $1.allocatedBytes
                ? $0.allocatedBytes > $1.allocatedBytes
                : $0.path.bytes.lexicographicallyPrecedes($1.path.bytes)
        }
    }
}
