import CacheKit

/// `cachectl clear --json` (schema `docs/schema/clear.schema.json`).
struct ClearJSON: JSONOutput {
    static let schema = "clear.schema.json"

    var dryRun: Bool
    var path: String
    /// Null when there was nothing to clear (the default store not made yet).
    @Nullable var format: String?
    var removed: PruneJSON.Amount
    var kept: [PruneJSON.Kept]
    var changed: [PruneJSON.Path]
    var failures: [JSONShapes.PathMessage]
    /// Every planned deletion; null unless `--dry-run`.
    @Nullable var plan: [PruneJSON.PlanItem]?

    init(_ report: PruneReport?, root: RawPath, dryRun: Bool) {
        let done = (dryRun ? report?.plan.deletions : report?.outcome?.removed) ?? PlannedDeletions()
        self.dryRun = dryRun
        path = root.description
        format = report?.format.rawValue
        removed = PruneJSON.Amount(entries: done.count, allocatedBytes: done.freedBytes)
        kept = PruneJSON.Kept.of(report)
        changed = (report?.outcome?.changed ?? []).map { PruneJSON.Path(path: $0.entry.path.description) }
        failures = PruneJSON.Failures.of(report)
        plan = dryRun ? (report?.plan.deletions ?? PlannedDeletions()).map(PruneJSON.PlanItem.init) : nil
    }
}
