import CacheKitStore

/// Entries removed only when named and the entries that hold them (`CacheEntry.holds`): a
/// Hugging Face blob several revisions link, a shared payload a repository's blob links. A
/// plan counts a held entry's bytes as freed once it deletes the last of its holders (the
/// entry itself goes after them, by `SharedEntries`): without this, a trim counted deleting
/// a revision whose bytes all lie in a shared payload as freeing nothing, and deleted every
/// revision to reach a size it could have reached by one.
struct HeldEntries {
    /// For each holder's position, the positions of the entries it holds.
    private var holding: [Int: Set<Int>] = [:]
    /// For each held entry's position, how many of its holders the plan has not deleted.
    private var remaining: [Int: Int] = [:]

    init(_ entries: CacheEntries) {
        var at: [[UInt8]: Int] = [:]
        for position in entries.indices where entries.removedOnlyWhenNamed(position) {
            if let relative = entries.relativePath(position) { at[relative] = position }
        }
        guard !at.isEmpty else { return }
        for position in entries.indices {
            for path in entries.holds(position) {
                guard let held = at[path], held != position else { continue }
                holding[position, default: []].insert(held)
            }
        }
        for held in holding.values.flatMap({ $0 }) { remaining[held, default: 0] += 1 }
    }

    /// The plan deletes `position`: the held entries it leaves with no holder, each followed
    /// by those it alone held in turn.
    mutating func release(_ position: Int) -> [Int] {
        guard !holding.isEmpty else { return [] }
        var freed: [Int] = []
        var stack = [position]
        while let holder = stack.popLast() {
            for held in (holding[holder] ?? []).sorted() {
                guard let left = remaining[held], left > 0 else { continue }
                remaining[held] = left - 1
                if left == 1 {
                    freed.append(held)
                    stack.append(held)
                }
            }
        }
        return freed
    }
}
