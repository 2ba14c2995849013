import CacheKit

/// `cachectl prune --json` (schema `docs/schema/prune.schema.json`).
struct PruneJSON: JSONOutput {
    static let schema = "prune.schema.json"

    /// One planned deletion (listed with `--dry-run`).
    struct PlanItem: Encodable {
        var path: String
        @Nullable var url: String?
        var reason: String
        var state: String
        var detail: String
        var allocatedBytes: Int64
        var freesBytes: Int64

        init(_ d: PlannedDeletion) {
            path = d.entry.path.description
            url = d.entry.url
            reason = d.reason.rawValue
            state = d.entry.state.rawValue
            detail = d.entry.reason
            allocatedBytes = d.entry.allocatedBytes
            freesBytes = d.freesBytes
        }
    }

    struct Amount: Encodable {
        var entries: Int
        var allocatedBytes: Int64
    }

    /// The owner's trimming rule that set `sizeTarget`.
    struct SizeRuleJSON: Encodable {
        var ratio: Double
        var metric: String
        var trimsAtLimit: Bool
        var stopsStrictlyBelow: Bool
        var owner: String
    }

    struct Path: Encodable { var path: String }

    /// One pruned cache.
    struct Root: Encodable {
        var path: String
        var format: String
        var before: Amount
        /// Per reason (`expired`, `incomplete`, `corrupted`, `orphan`, `size`, …).
        var removed: [String: JSONShapes.Tally]
        var after: Amount
        @Nullable var sizeTarget: Int64?
        @Nullable var sizeRule: SizeRuleJSON?
        var kept: [Kept]
        var failures: [JSONShapes.PathMessage]
        var changed: [Path]
        /// Every planned deletion; null unless `--dry-run`.
        @Nullable var plan: [PlanItem]?

        init(_ report: PruneReport, dryRun: Bool) {
            let removedTotals = PrunePresenter.removedByReason(report, dryRun: dryRun)
            let (entries, bytes) = PrunePresenter.after(report, dryRun: dryRun)
            path = report.root.description
            format = report.format.rawValue
            before = Amount(entries: report.plan.entriesBefore, allocatedBytes: report.plan.bytesBefore)
            removed = Dictionary(
                uniqueKeysWithValues: PruneReason.pruning.map {
                    ($0.rawValue, JSONShapes.Tally(removedTotals[$0] ?? StateTotals()))
                })
            after = Amount(entries: entries, allocatedBytes: bytes)
            sizeTarget = report.plan.sizeTarget
            sizeRule = report.plan.sizeRule.map {
                SizeRuleJSON(
                    ratio: $0.ratio, metric: $0.metric.rawValue, trimsAtLimit: $0.trimsAtLimit,
                    stopsStrictlyBelow: $0.stopsStrictlyBelow, owner: $0.owner)
            }
            kept = Kept.of(report)
            failures = Failures.of(report)
            changed = (report.outcome?.changed ?? []).map { Path(path: $0.entry.path.description) }
            plan = dryRun ? report.plan.deletions.map(PlanItem.init) : nil
        }
    }

    /// An entry prune left, and why.
    struct Kept: Encodable {
        var path: String
        var reason: String

        static func of(_ report: PruneReport?) -> [Kept] {
            (report?.plan.kept ?? []).map { Kept(path: $0.entry.path.description, reason: $0.why) }
        }
    }

    enum Failures {
        static func of(_ report: PruneReport?) -> [JSONShapes.PathMessage] {
            (report?.outcome?.failures ?? []).map {
                JSONShapes.PathMessage(path: $0.deletion.entry.path.description, message: $0.message)
            }
        }
    }

    var dryRun: Bool
    var roots: [Root]
    var errors: [JSONShapes.PathMessage]

    init(_ reports: [PruneReport], errors: [(RawPath, String)], dryRun: Bool) {
        self.dryRun = dryRun
        roots = reports.map { Root($0, dryRun: dryRun) }
        self.errors = errors.map { JSONShapes.PathMessage(path: $0.0.description, message: $0.1) }
    }
}
