/// What to prune and why: a pure function of the entries and the rules (no file system).
public enum PrunePolicy {
    /// Corrupted, incomplete and orphan entries first; then expired ones (the format's rule,
    /// or `maxAge`); then, while the total exceeds `maxSize`, the least recently used (the
    /// format's clock: last access where kept, else modification; ties by path) until the
    /// total is at most `maxSize × trimTo`. Entries outside the cache and items within the
    /// grace period are never chosen.
    public static func plan(_ entries: [CacheEntry], rules: PruneRules, sizeRule: SizeRule = .seed) -> PrunePlan {
        var planner = Planner(entries: entries, rules: rules, sizeRule: sizeRule)
        let fresh = planner.removeExpired(planner.removeDamaged())
        if let maxSize = rules.maxSize { planner.trim(fresh, maxSize: maxSize) }
        planner.plan.bytesAfter = planner.total
        return planner.plan
    }

    /// One plan being made: the running totals and the deletions so far. Entries are
    /// referred to by index, not copied: an entry is a few hundred bytes and a cache has
    /// millions.
    private struct Planner {
        let entries: [CacheEntry]
        let rules: PruneRules
        let sizeRule: SizeRule
        var plan = PrunePlan()
        /// Bytes are counted per inode, and freed only when the last of its names goes. Only
        /// inodes with several names are tracked: one with a single name is one entry.
        var remainingLinks: [FileIdentity: UInt64] = [:]
        var total: Int64 = 0
        /// File sizes, for owners that count them (Kingfisher, corelibs URLCache).
        var apparent: Int64 = 0

        init(entries: [CacheEntry], rules: PruneRules, sizeRule: SizeRule) {
            (self.entries, self.rules, self.sizeRule) = (entries, rules, sizeRule)
            plan.entriesBefore = entries.count
            for entry in entries {
                if let id = entry.identity, id.linkCount > 1 {
                    if remainingLinks.updateValue(id.linkCount, forKey: id) != nil { continue }
                }
                total += entry.allocatedBytes
                apparent += entry.apparentBytes
            }
            plan.bytesBefore = total
        }

        mutating func delete(_ index: Int, _ reason: PruneReason) {
            let entry = entries[index]
            var frees = entry.allocatedBytes
            var freesApparent = entry.apparentBytes
            if let id = entry.identity, id.linkCount > 1 {
                let left = (remainingLinks[id] ?? 1) &- 1
                remainingLinks[id] = left
                if left > 0 { (frees, freesApparent) = (0, 0) }
            }
            total -= frees
            apparent -= freesApparent
            plan.deletions.append(PlannedDeletion(entry: entry, reason: reason, freesBytes: frees))
        }

        /// Step 1: corrupted, incomplete and orphan entries go; entries outside the cache and
        /// those removed only when named are kept. Returns the rest.
        mutating func removeDamaged() -> [Int] {
            var survivors: [Int] = []
            survivors.reserveCapacity(entries.count)
            for (index, entry) in entries.enumerated() {
                if entry.state == .outside {
                    plan.kept.append(KeptEntry(entry: entry, why: "outside the cache: never deleted (\(entry.reason))"))
                    continue
                }
                if entry.removedOnlyWhenNamed {
                    plan.kept.append(KeptEntry(entry: entry, why: entry.reason))
                    continue
                }
                if entry.inGracePeriod {
                    survivors.append(index)
                    continue
                }
                switch entry.state {
                case .corrupted: delete(index, .corrupted)
                case .incomplete: delete(index, .incomplete)
                case .orphan: delete(index, .orphan)
                default: survivors.append(index)
                }
            }
            return survivors
        }

        /// Step 2: expired entries go (the format's rule, or `maxAge`); pinned ones are kept.
        /// Returns the rest.
        mutating func removeExpired(_ survivors: [Int]) -> [Int] {
            var fresh: [Int] = []
            fresh.reserveCapacity(survivors.count)
            for index in survivors {
                let entry = entries[index]
                if !entry.pinnedBy.isEmpty {
                    // A saved page points here: kept whatever its age, and outside the size trim.
                    let pages =
                        entry.pinnedBy.count == 1
                        ? "a saved page (\(entry.pinnedBy[0]))" : "\(entry.pinnedBy.count) saved pages"
                    plan.kept.append(
                        KeptEntry(entry: entry, why: "pinned by \(pages); `cachectl unpin PAGE` releases it"))
                    continue
                }
                let tooOld =
                    rules.maxAge.map { age in
                        entry.modified.map { rules.now.timeInterval - $0.timeInterval > age } ?? false
                    } ?? false
                if !entry.inGracePeriod && (entry.state == .expired || tooOld) {
                    delete(index, .expired)
                } else {
                    fresh.append(index)
                }
            }
            return fresh
        }

        /// The owner's metric: file sizes (Kingfisher, corelibs URLCache) or blocks.
        func measured() -> Int64 { sizeRule.metric == .allocated ? total : apparent }

        func size(_ index: Int) -> Int64 {
            sizeRule.metric == .allocated ? entries[index].allocatedBytes : entries[index].apparentBytes
        }

        /// Step 3: while the total exceeds the limit, the least recently used go, by the
        /// owner's size rule.
        mutating func trim(_ fresh: [Int], maxSize: Int64) {
            let target = Int64((Double(maxSize) * (rules.trimTo ?? sizeRule.ratio)).rounded(.down))
            plan.sizeTarget = target
            plan.sizeRule = sizeRule
            let start =
                sizeRule.startsAbove < 1 ? Int64((Double(maxSize) * sizeRule.startsAbove).rounded(.down)) : maxSize
            let over = sizeRule.trimsAtLimit ? measured() >= start : measured() > start
            if sizeRule.partitions > 0 {
                trimPartitions(fresh, maxSize: maxSize)
            } else if over {
                let candidates = fresh.filter { !entries[$0].inGracePeriod }
                let order =
                    sizeRule.byAgeTimesSize
                    ? byAgeTimesSize(candidates) : PrunePolicy.evictionOrder(candidates, entries)
                for index in order {
                    if sizeRule.stopsStrictlyBelow ? measured() < target : measured() <= target { break }
                    delete(index, .size)
                }
            }
        }

        /// Each partition (top-level folder) holds its share of the cap and is trimmed on its
        /// own (ccache's rule).
        mutating func trimPartitions(_ fresh: [Int], maxSize: Int64) {
            let share = Double(maxSize) / Double(sizeRule.partitions)
            let partTarget = Int64((share * (rules.trimTo ?? sizeRule.ratio)).rounded(.down))
            var groups: [[UInt8]: [Int]] = [:]
            for index in fresh where !entries[index].inGracePeriod {
                groups[Array((entries[index].relativePath ?? []).prefix { $0 != UInt8(ascii: "/") }), default: []]
                    .append(index)
            }
            for key in groups.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                let group = groups[key]!
                var used = group.reduce(Int64(0)) { $0 + size($1) }
                guard Double(used) > share else { continue }
                for index in PrunePolicy.evictionOrder(group, entries) {
                    if used <= partTarget { break }
                    used -= size(index)
                    delete(index, .size)
                }
            }
        }

        /// Chromium's order: the largest `(now − last use) × (size + 512)` first; ties by path.
        func byAgeTimesSize(_ candidates: [Int]) -> [Int] {
            let now = rules.now.timeInterval
            let worth = candidates.map { index -> Double in
                let e = entries[index]
                return max(0, now - (e.lastAccess ?? e.modified ?? rules.now).timeInterval)
                    * Double(e.allocatedBytes + 512)
            }
            return candidates.indices.sorted { a, b in
                worth[a] != worth[b]
                    ? worth[a] > worth[b]
                    : entries[candidates[a]].path.bytes.lexicographicallyPrecedes(entries[candidates[b]].path.bytes)
            }.map { candidates[$0] }
        }
    }

    /// `indices` of `entries` in eviction order: least recently used first by the format's
    /// clock (last access, else modification), ties broken by path.
    static func evictionOrder(_ indices: [Int], _ entries: [CacheEntry]) -> [Int] {
        let clock = indices.map { index -> FileTime in
            let e = entries[index]
            return e.lastAccess ?? e.modified ?? FileTime(seconds: 0)
        }
        return indices.indices.sorted { a, b in
            clock[a] != clock[b]
                ? clock[a] < clock[b]
                : entries[indices[a]].path.bytes.lexicographicallyPrecedes(entries[indices[b]].path.bytes)
        }.map { indices[$0] }
    }

    /// `clear`'s plan: every entry, except those outside the cache (kept and reported), and
    /// an application's own databases unless `named` (the format was given explicitly).
    /// Nothing is younger than a grace period here: `clear` takes the writers' lock first
    /// where the format has one.
    public static func planClear(_ entries: [CacheEntry], named: Bool = false) -> PrunePlan {
        var plan = PrunePlan()
        plan.entriesBefore = entries.count
        var seen = Set<FileIdentity>()
        var remainingLinks: [FileIdentity: UInt64] = [:]
        for entry in entries {
            if let id = entry.identity {
                remainingLinks[id] = id.linkCount
                if seen.insert(id).inserted { plan.bytesBefore += entry.allocatedBytes }
            } else {
                plan.bytesBefore += entry.allocatedBytes
            }
        }
        var total = plan.bytesBefore
        for entry in entries {
            if entry.state == .outside {
                plan.kept.append(KeptEntry(entry: entry, why: "outside the cache: never deleted (\(entry.reason))"))
                continue
            }
            if entry.removedOnlyWhenNamed && !named {
                plan.kept.append(KeptEntry(entry: entry, why: entry.reason))
                continue
            }
            var frees = entry.allocatedBytes
            if let id = entry.identity {
                let left = (remainingLinks[id] ?? 1) &- 1
                remainingLinks[id] = left
                if left > 0 { frees = 0 }
            }
            total -= frees
            plan.deletions.append(PlannedDeletion(entry: entry, reason: .cleared, freesBytes: frees))
        }
        plan.bytesAfter = total
        return plan
    }
}
