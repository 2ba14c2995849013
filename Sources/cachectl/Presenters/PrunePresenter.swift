import ArgumentParser
import CacheKit

/// Turns prune reports into text or JSON.
enum PrunePresenter {
    static func removedByReason(_ report: PruneReport, dryRun: Bool) -> [PruneReason: StateTotals] {
        let done = dryRun ? report.plan.deletions : (report.outcome?.removed ?? PlannedDeletions())
        var totals: [PruneReason: StateTotals] = [:]
        for (reason, sum) in done.totalsByReason {
            totals[reason, default: StateTotals()].count += sum.count
            totals[reason, default: StateTotals()].allocatedBytes += sum.bytes
        }
        if dryRun, report.plan.goWithHolders.count > 0 {
            // Nothing will link them once the plan has run: they go as orphans after it.
            let going = report.plan.goingWithHolders
            totals[.orphan, default: StateTotals()].count += going.count
            totals[.orphan, default: StateTotals()].allocatedBytes += going.bytes
        }
        return totals
    }

    static func after(_ report: PruneReport, dryRun: Bool) -> (entries: Int, bytes: Int64) {
        let (count, bytes) = removed(report, dryRun: dryRun)
        return (report.plan.entriesBefore - count, report.plan.bytesBefore - bytes)
    }

    /// How many entries went (or would go), and the bytes they free: a dry run counts those
    /// going after their holders too.
    static func removed(_ report: PruneReport, dryRun: Bool) -> (count: Int, bytes: Int64) {
        guard dryRun else {
            let removed = report.outcome?.removed ?? PlannedDeletions()
            return (removed.count, removed.freedBytes)
        }
        let going = report.plan.goingWithHolders
        return (report.plan.deletions.count + going.count, report.plan.deletions.freedBytes + going.bytes)
    }

    /// The rules as the user wrote them, for the report's reasons.
    struct Given {
        var maxSize: String?
        var maxAge: String?
    }

    /// A reason's row label: what deleted those entries, in the user's words where theirs.
    static func because(_ reason: PruneReason, _ given: Given, format: CacheFormatKind) -> String {
        switch reason {
        case .expired:
            return "expired (by the cache's own rule" + (given.maxAge.map { ", or older than \($0)" } ?? "") + ")"
        case .size:
            return given.maxSize.map { "size (over \($0))" } ?? "size (no size cap)"
        default: return reason.rawValue
        }
    }

    /// "freed 1.2G in 3,402 entries from 5 caches".
    static func totalLine(_ reports: [PruneReport], sizes: SizeFormatOptions, dryRun: Bool) -> String {
        let removed = reports.map { Self.removed($0, dryRun: dryRun) }
        let bytes = removed.reduce(Int64(0)) { $0 + $1.bytes }
        let count = removed.reduce(0) { $0 + $1.count }
        return "\n\(dryRun ? "would free" : "freed") \(sizes.format(bytes)) in \(Count.of(count, "entry", "entries")) "
            + "from \(Count.of(reports.count, "cache", "caches"))\n"
    }

    static func text(_ report: PruneReport, sizes: SizeFormatOptions, dryRun: Bool, given: Given = Given()) -> String {
        let plan = report.plan
        var out =
            "\(report.root.escaped) (\(report.name))\(dryRun ? " — dry run, nothing changed" : "")\n"
        out += "  before   \(Count.of(plan.entriesBefore, "entry", "entries")), \(sizes.format(plan.bytesBefore))\n"
        let removed = removedByReason(report, dryRun: dryRun)
        var table = Table([.left, .left, .right, .right])
        for reason in PruneReason.pruning {
            let t = removed[reason] ?? StateTotals()
            table.add([
                "  " + (reason == .corrupted ? (dryRun ? "would remove" : "removed") : ""),
                because(reason, given, format: report.format),
                String(t.count), sizes.format(t.allocatedBytes)
            ])
        }
        out += table.render()
        let (entries, bytes) = after(report, dryRun: dryRun)
        var afterLine = "  after    \(Count.of(entries, "entry", "entries")), \(sizes.format(bytes))"
        if let target = plan.sizeTarget {
            let below = plan.sizeRule?.stopsStrictlyBelow == true ? "below" : "at most"
            afterLine += "  (target \(below) \(sizes.format(target)) by \(plan.sizeRule?.owner ?? SizeRule.seed.owner))"
        }
        out += afterLine + "\n"
        for kept in plan.kept { out += "  kept     \(kept.entry.path.escaped): \(Text.show(kept.why))\n" }
        for changed in report.outcome?.changed ?? [] {
            out += "  kept     \(changed.entry.path.escaped): changed since it was inspected (a writer replaced it)\n"
        }
        for failure in report.outcome?.failures ?? [] {
            out += "  failed   \(failure.deletion.entry.path.escaped): \(Text.show(failure.message))\n"
        }
        if dryRun {
            for deletion in plan.deletions {
                // Expired by --max-age rather than by the format: say so in the user's words.
                var detail = deletion.entry.reason
                if deletion.reason == .expired && deletion.entry.state != .expired, let age = given.maxAge {
                    detail = "older than \(age)"
                }
                if deletion.reason == .size {
                    detail = "least recently used" + (given.maxSize.map { ", over \($0)" } ?? "")
                }
                out +=
                    "  - \(deletion.reason.rawValue)\t\(sizes.format(deletion.freesBytes))\t"
                    + "\(Text.show(deletion.entry.url ?? deletion.entry.path.escaped))\t(\(Text.show(detail)))\n"
            }
        }
        return out
    }
}
