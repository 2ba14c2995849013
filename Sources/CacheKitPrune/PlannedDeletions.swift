/// A plan's deletions (or those an execution carried out), in order: positions in the
/// entries' compact table with a reason each, so a prune of millions of files holds no
/// per-deletion copy of an entry. Reading an element builds its `PlannedDeletion`.
public struct PlannedDeletions: RandomAccessCollection, Sendable {
    /// One deletion: the entry's position in `entries`, why, and whether it frees nothing (a
    /// hard link whose data another name keeps).
    struct Item: Sendable {
        var position: UInt32
        var reason: PruneReason
        var freesNothing: Bool
    }

    /// The entries the deletions point into (shared with the plan, not copied).
    public private(set) var entries: CacheEntries
    private(set) var items: [Item] = []

    /// No deletions.
    public init() { entries = CacheEntries() }

    /// No deletions yet, of entries in `entries`.
    init(of entries: CacheEntries) { self.entries = entries }

    /// The position of the first deletion (0).
    public var startIndex: Int { 0 }
    /// One past the last deletion's position.
    public var endIndex: Int { items.count }

    /// The deletion at `position`, with its entry.
    public subscript(position: Int) -> PlannedDeletion {
        let item = items[position]
        return PlannedDeletion(
            entry: entries[Int(item.position)], reason: item.reason, freesBytes: freesBytes(item))
    }

    private func freesBytes(_ item: Item) -> Int64 {
        item.freesNothing ? 0 : entries.allocatedBytes(Int(item.position))
    }

    /// The allocated bytes the deletions free.
    public var freedBytes: Int64 { items.reduce(0) { $0 + freesBytes($1) } }

    /// How many deletions each reason has, and the bytes they free (without building entries).
    public var totalsByReason: [PruneReason: (count: Int, bytes: Int64)] {
        var totals: [PruneReason: (count: Int, bytes: Int64)] = [:]
        for item in items {
            totals[item.reason, default: (0, 0)].count += 1
            totals[item.reason, default: (0, 0)].bytes += freesBytes(item)
        }
        return totals
    }

    /// The entry position of the deletion at `position`.
    func entryPosition(at position: Int) -> Int { Int(items[position].position) }

    /// The deletions whose entry position passes `include`, in order.
    func filter(entries include: (Int) -> Bool) -> PlannedDeletions {
        var out = PlannedDeletions(of: entries)
        out.items = items.filter { include(Int($0.position)) }
        return out
    }

    mutating func append(entry position: Int, reason: PruneReason, freesNothing: Bool) {
        items.append(Item(position: UInt32(position), reason: reason, freesNothing: freesNothing))
    }

    /// Appends the deletion at `position` of `other` (a list over the same entries).
    mutating func append(_ position: Int, of other: PlannedDeletions) { items.append(other.items[position]) }
}
