/// What to prune and why: a pure function of the entries and the rules (no file system).
public enum PrunePolicy {
    /// Corrupted, incomplete and orphan entries first; then expired ones (the format's rule,
    /// or `maxAge`); then, while the total exceeds `maxSize`, the least recently used (the
    /// format's clock: last access where kept, else modification; ties by path) until the
    /// total is at most `maxSize × trimTo`. Entries outside the cache and items within the
    /// grace period are never chosen.
    public static func plan(_ entries: [CacheEntry], rules: PruneRules, sizeRule: SizeRule = .seed) -> PrunePlan {
        plan(CacheEntries(entries), rules: rules, sizeRule: sizeRule)
    }

    /// The same over a compact table (what a prune of millions of files plans with: no entry
    /// is copied, deletions are positions).
    public static func plan(_ entries: CacheEntries, rules: PruneRules, sizeRule: SizeRule = .seed) -> PrunePlan {
        var planner = Planner(entries: entries, rules: rules, sizeRule: sizeRule)
        let fresh = planner.removeExpired(planner.removeDamaged())
        if let maxSize = rules.maxSize { planner.trim(fresh, maxSize: maxSize) }
        planner.plan.bytesAfter = planner.total
        planner.plan.describeGoingWithHolders()
        return planner.plan
    }

    /// One plan being made: the running totals and the deletions so far. Entries are
    /// referred to by position in the table, never copied.
    private struct Planner {
        let entries: CacheEntries
        let rules: PruneRules
        let sizeRule: SizeRule
        var plan = PrunePlan()
        /// Bytes are counted per inode, and freed only when the last of its names goes. Only
        /// inodes with several names are tracked: one with a single name is one entry.
        var remainingLinks: [FileIdentity: UInt64] = [:]
        /// Entries removed only when named, freed with the last of their holders.
        var held: HeldEntries
        var total: Int64 = 0
        /// File sizes, for owners that count them (Kingfisher, corelibs URLCache).
        var apparent: Int64 = 0

        init(entries: CacheEntries, rules: PruneRules, sizeRule: SizeRule) {
            (self.entries, self.rules, self.sizeRule) = (entries, rules, sizeRule)
            held = HeldEntries(entries)
            plan.entriesBefore = entries.count
            plan.deletions = PlannedDeletions(of: entries)
            for position in entries.indices {
                if let id = entries.multiplyLinked(position) {
                    if remainingLinks.updateValue(id.linkCount, forKey: id) != nil { continue }
                }
                total = total.saturatingPlus(entries.allocatedBytes(position))
                apparent = apparent.saturatingPlus(entries.apparentBytes(position))
            }
            plan.bytesBefore = total
        }

        mutating func delete(_ index: Int, _ reason: PruneReason) {
            plan.deletions.append(entry: index, reason: reason, freesNothing: !free(index))
            for released in held.release(index) where free(released) {
                plan.goWithHolders.append(released)
            }
        }

        /// Takes the entry's bytes off the totals; false when they stay (a hard link whose data
        /// another name keeps).
        private mutating func free(_ index: Int) -> Bool {
            if let id = entries.multiplyLinked(index) {
                let left = (remainingLinks[id] ?? 1) &- 1
                remainingLinks[id] = left
                if left > 0 { return false }
            }
            total = total.saturatingMinus(entries.allocatedBytes(index))
            apparent = apparent.saturatingMinus(entries.apparentBytes(index))
            return true
        }

        /// Step 1: corrupted, incomplete and orphan entries go; entries outside the cache and
        /// those removed only when named are kept. Returns the rest.
        mutating func removeDamaged() -> [UInt32] {
            var survivors: [UInt32] = []
            survivors.reserveCapacity(entries.count)
            for index in entries.indices {
                let state = entries.state(index)
                if state == .outside {
                    let entry = entries[index]
                    plan.kept.append(KeptEntry(entry: entry, why: "outside the cache: never deleted (\(entry.reason))"))
                    continue
                }
                if entries.removedOnlyWhenNamed(index) {
                    let entry = entries[index]
                    plan.kept.append(KeptEntry(entry: entry, why: entry.reason))
                    continue
                }
                if entries.inGracePeriod(index) {
                    survivors.append(UInt32(index))
                    continue
                }
                switch state {
                case .corrupted: delete(index, .corrupted)
                case .incomplete: delete(index, .incomplete)
                case .orphan: delete(index, .orphan)
                default: survivors.append(UInt32(index))
                }
            }
            return survivors
        }

        /// Step 2: expired entries go (the format's rule, or `maxAge`); pinned ones are kept.
        /// Returns the rest.
        mutating func removeExpired(_ survivors: [UInt32]) -> [UInt32] {
            var fresh = survivors
            var kept = 0
            for position in survivors {
                let index = Int(position)
                let pinnedBy = entries.pinnedBy(index)
                if !pinnedBy.isEmpty {
                    // A saved page points here: kept whatever its age, and outside the size trim.
                    let pages = pinnedBy.count == 1 ? "a saved page (\(pinnedBy[0]))" : "\(pinnedBy.count) saved pages"
                    plan.kept.append(
                        KeptEntry(entry: entries[index], why: "pinned by \(pages); `cachectl unpin PAGE` releases it"))
                    continue
                }
                let tooOld =
                    rules.maxAge.map { age in
                        entries.modified(index).map { rules.now.timeInterval - $0.timeInterval > age } ?? false
                    } ?? false
                if !entries.inGracePeriod(index) && (entries.state(index) == .expired || tooOld) {
                    delete(index, .expired)
                } else {
                    fresh[kept] = position
                    kept += 1
                }
            }
            fresh.removeLast(fresh.count - kept)
            return fresh
        }

        /// The owner's metric: file sizes (Kingfisher, corelibs URLCache) or blocks.
        func measured() -> Int64 { sizeRule.metric == .allocated ? total : apparent }

        func size(_ index: Int) -> Int64 {
            sizeRule.metric == .allocated ? entries.allocatedBytes(index) : entries.apparentBytes(index)
        }

        /// Step 3: while the total exceeds the limit, the least recently used go, by the
        /// owner's size rule.
        mutating func trim(_ fresh: [UInt32], maxSize: Int64) {
            let target = Int64((Double(maxSize) * (rules.trimTo ?? sizeRule.ratio)).rounded(.down))
            plan.sizeTarget = target
            plan.sizeRule = sizeRule
            if let trimTo = rules.trimTo {
                // The ratio applied, in the report and its JSON: the owner's is overridden.
                let shown = trimTo == 1 ? "1" : "\(trimTo)"
                plan.sizeRule?.ratio = trimTo
                plan.sizeRule?.owner += " (--trim-to \(shown) in place of its ratio)"
            }
            let start =
                sizeRule.startsAbove < 1 ? Int64((Double(maxSize) * sizeRule.startsAbove).rounded(.down)) : maxSize
            let over = sizeRule.trimsAtLimit ? measured() >= start : measured() > start
            if sizeRule.partitions > 0 {
                trimPartitions(fresh, maxSize: maxSize)
            } else if over {
                var candidates = fresh
                candidates.removeAll { entries.inGracePeriod(Int($0)) }
                if sizeRule.byAgeTimesSize {
                    candidates = byAgeTimesSize(candidates)
                } else {
                    PrunePolicy.sortForEviction(&candidates, entries)
                }
                for position in candidates {
                    if sizeRule.stopsStrictlyBelow ? measured() < target : measured() <= target { break }
                    delete(Int(position), .size)
                }
            }
        }

        /// Each partition (top-level folder) holds its share of the cap and is trimmed on its
        /// own (ccache's rule).
        mutating func trimPartitions(_ fresh: [UInt32], maxSize: Int64) {
            let share = Double(maxSize) / Double(sizeRule.partitions)
            let partTarget = Int64((share * (rules.trimTo ?? sizeRule.ratio)).rounded(.down))
            var groups: [[UInt8]: [UInt32]] = [:]
            for position in fresh where !entries.inGracePeriod(Int(position)) {
                let top = (entries.relativePath(Int(position)) ?? []).prefix { $0 != UInt8(ascii: "/") }
                groups[Array(top), default: []].append(position)
            }
            for key in groups.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                var group = groups.removeValue(forKey: key)!
                var used = group.reduce(Int64(0)) { $0 + size(Int($1)) }
                guard Double(used) > share else { continue }
                PrunePolicy.sortForEviction(&group, entries)
                for position in group {
                    if used <= partTarget { break }
                    used -= size(Int(position))
                    delete(Int(position), .size)
                }
            }
        }

        /// Chromium's order: the largest `(now − last use) × (size + 512)` first, the size the
        /// files' lengths rounded up to 256 bytes, as its index keeps it (simple_index.cc
        /// `StartEvictionIfNeeded`, `EntryMetadata::GetEntrySize`), divided by an entry's
        /// `evictionWeightDivisor` (a prioritized one's); ties by path.
        func byAgeTimesSize(_ candidates: [UInt32]) -> [UInt32] {
            let now = rules.now.timeInterval
            let worth = candidates.map { position -> Double in
                let index = Int(position)
                let chunks = (Double(max(0, entries.apparentBytes(index))) / 256).rounded(.up)
                return max(0, now - (entries.lastUse(index) ?? rules.now).timeInterval) * (chunks * 256 + 512)
                    / Double(max(1, entries.evictionWeightDivisor(index)))
            }
            return candidates.indices.sorted { a, b in
                worth[a] != worth[b]
                    ? worth[a] > worth[b] : entries.pathPrecedes(Int(candidates[a]), Int(candidates[b]))
            }.map { candidates[$0] }
        }
    }

    /// Sorts `positions` of `entries` into eviction order: least recently used first by the
    /// format's clock (last access, else modification), ties broken by path. In place, with no
    /// copy of the clocks: a prune of millions of entries sorts them all.
    static func sortForEviction(_ positions: inout [UInt32], _ entries: CacheEntries) {
        let epoch = FileTime(seconds: 0)
        positions.sort { a, b in
            let (a, b) = (Int(a), Int(b))
            let (ca, cb) = (entries.lastUse(a) ?? epoch, entries.lastUse(b) ?? epoch)
            return ca != cb ? ca < cb : entries.pathPrecedes(a, b)
        }
    }

    /// `clear`'s plan: every entry, except those outside the cache (kept and reported), and
    /// an application's own databases unless `named` (the format was given explicitly).
    /// Nothing is younger than a grace period here: `clear` takes the writers' lock first
    /// where the format has one.
    public static func planClear(_ entries: [CacheEntry], named: Bool = false) -> PrunePlan {
        let table = CacheEntries(entries)
        var plan = PrunePlan()
        plan.deletions = PlannedDeletions(of: table)
        plan.entriesBefore = entries.count
        var seen = Set<FileIdentity>()
        var remainingLinks: [FileIdentity: UInt64] = [:]
        for entry in entries {
            if let id = entry.identity {
                remainingLinks[id] = id.linkCount
                if seen.insert(id).inserted { plan.bytesBefore = plan.bytesBefore.saturatingPlus(entry.allocatedBytes) }
            } else {
                plan.bytesBefore = plan.bytesBefore.saturatingPlus(entry.allocatedBytes)
            }
        }
        var total = plan.bytesBefore
        var held = HeldEntries(table)
        for (position, entry) in entries.enumerated() {
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
            total = total.saturatingMinus(frees)
            plan.deletions.append(entry: position, reason: .cleared, freesNothing: frees == 0)
            for released in held.release(position) where entries[released].removedOnlyWhenNamed && !named {
                total = total.saturatingMinus(entries[released].allocatedBytes)
                plan.goWithHolders.append(released)
            }
        }
        plan.bytesAfter = total
        plan.describeGoingWithHolders()
        return plan
    }
}
