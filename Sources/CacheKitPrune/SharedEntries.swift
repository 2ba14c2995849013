/// Entries kept because other entries name them — a Hugging Face blob several revisions link,
/// npm content several keys name — go with the last of those. A plan keeps them all (an
/// entry's holders may be kept, or fail to go); once it has run, a second look at the cache
/// finds, by the format's own rule, which of them nothing names any more (orphans past the
/// grace period, as any prune would find them next time), and those go too, through the same
/// engine: each checked to be the file the plan saw. Without it, `clear` left the largest
/// files of a Hugging Face or npm cache (94 % of the bytes of an npm cache whose tarballs
/// `npm pack` and `npm cache add` had both keyed), and `prune --max-size` missed its target.
enum SharedEntries {
    /// Runs the second look when the plan kept entries others name and removed something;
    /// what goes is added to `plan` (out of its kept list) and to `outcome`. `include` limits
    /// it to the plan's entries of one format (a folder of caches plans them together).
    static func followUp(
        _ plan: inout PrunePlan, _ outcome: inout PruneOutcome, format: any CacheFormat, context: InspectionContext,
        reason: PruneReason, include: (Int) -> Bool = { _ in true }
    ) {
        let table = plan.deletions.entries
        // The plan took the bytes of those going with their holders off `bytesAfter`: those
        // that do not go are added back.
        var expected = Set(plan.goWithHolders.filter(include))
        defer {
            for position in expected {
                plan.bytesAfter = plan.bytesAfter.saturatingPlus(table.allocatedBytes(position))
            }
            plan.goWithHolders.removeAll { expected.contains($0) }
        }
        guard outcome.removed.count > 0 else { return }
        let held = table.indices.filter { include($0) && table.removedOnlyWhenNamed($0) }
        guard !held.isEmpty, let now = try? format.entryTable(context) else { return }
        // What the second look finds named by nothing, by its path.
        var unnamed = Set<[UInt8]>()
        for position in now.indices
        where now.state(position) == .orphan && !now.inGracePeriod(position) && !now.removedOnlyWhenNamed(position) {
            if let relative = now.relativePath(position) { unnamed.insert(relative) }
        }
        var extra = PrunePlan()
        extra.deletions = PlannedDeletions(of: table)
        for position in held {
            guard let relative = table.relativePath(position), unnamed.contains(relative) else { continue }
            extra.deletions.append(entry: position, reason: reason, freesNothing: false)
        }
        guard !extra.deletions.isEmpty else { return }
        let more = PruneExecutor.execute(extra, on: format)
        var gone = Set<[UInt8]>()
        for index in more.removed.indices {
            outcome.removed.append(index, of: more.removed)
            plan.deletions.append(index, of: more.removed)
            if let relative = more.removed[index].entry.relativePath { gone.insert(relative) }
            let position = more.removed.entryPosition(at: index)
            if expected.remove(position) == nil {
                plan.bytesAfter = plan.bytesAfter.saturatingMinus(more.removed[index].freesBytes)
            }
        }
        plan.kept.removeAll { kept in kept.entry.relativePath.map(gone.contains) ?? false }
        outcome.failures += more.failures
        outcome.vanished += more.vanished
        outcome.changed += more.changed
    }
}
