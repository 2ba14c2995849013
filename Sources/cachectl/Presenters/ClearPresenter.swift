import ArgumentParser
import CacheKit

/// `clear`'s report as text or JSON.
enum ClearPresenter {
    static func text(_ report: PruneReport, sizes: SizeFormatOptions, dryRun: Bool) -> String {
        let done = dryRun ? report.plan.deletions : (report.outcome?.removed ?? PlannedDeletions())
        let freed = done.freedBytes
        var out =
            """
            \(dryRun ? "would remove" : "removed") \(done.count) entries, \(ByteCount.human(freed)) from \
            \(report.root.escaped)
            """
            + (dryRun ? " — dry run, nothing changed" : "") + "\n"
        for changed in report.outcome?.changed ?? [] {
            out += "  kept     \(changed.entry.path.escaped): changed since it was inspected\n"
        }
        if dryRun {
            for deletion in report.plan.deletions {
                let name = Text.show(deletion.entry.url ?? deletion.entry.path.escaped)
                out += "  - \(sizes.format(deletion.freesBytes))\t\(name)\n"
            }
        }
        return out
    }
}
