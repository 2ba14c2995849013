import ArgumentParser
import CacheKit

/// `cachectl prune`: corrupted and incomplete first, expired next, then oldest-first down to
/// half the cap.
struct Prune: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract:
            "Delete corrupted, incomplete and expired entries, then trim the least recently used to half the cap.",
        discussion: """
            For each ROOT (default: cachectl's own store): 1. corrupted, incomplete and orphan \
            entries; 2. expired ones (the format's rule, or --max-age); 3. if the rest exceeds \
            --max-size, least recently used first until at most --max-size × --trim-to. \
            Entries outside the cache are never deleted; items younger than --grace are never \
            touched. A second prune of the same root waits for the first. \
            Only caches are pruned: a layout its marker files or folder name declare, a folder tagged with CACHEDIR.TAG, or \
            one under the default cache root; --format plain for any other folder.
            """)

    @Argument(help: "Caches to prune (default: cachectl's own store).", completion: .directory) var roots: [String] = []
    @Option(
        name: .long,
        help:
            "Size cap with a unit: 500M, 2G, 10GB, 1GiB, 4096B (a number without a unit below 4 KiB is refused: write 0B to empty a cache).",
        transform: SizeArgument.parseCap)
    var maxSize: SizeArgument?
    @Option(
        name: .long,
        help:
            "Also delete entries modified longer ago than this, in systemd's time spans (7d, 12h, 30min, 1M = a month, 1y, '1 day 12h'), in any format.",
        transform: TimeSpan.parse)
    var maxAge: TimeSpan?
    @Option(
        name: .long,
        help:
            "Trim to this fraction of --max-size (default: the cache owner's own rule; 0.5 for cachectl's store, plist and plain folders).",
        transform: Prune.parseFraction)
    var trimTo: Double?
    @Flag(name: .long, help: "Print the plan; change nothing.") var dryRun = false
    @OptionGroup var inspection: InspectionOptions
    @OptionGroup var sizes: SizeFormatOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var metrics: MetricsOptions
    @Flag(
        name: .long,
        help:
            "Apply every table of the configuration files (/etc/cachectl/config.toml, then $XDG_CONFIG_HOME/cachectl/config.toml); the default when a file exists and no ROOT, --max-size or --max-age is given."
    )
    var config = false
    @Option(
        name: .customLong("config-file"),
        help: ArgumentHelp("Apply every table of this configuration file instead.", valueName: "file"),
        completion: .file())
    var configFile: String?

    func validate() throws {
        if metrics.wanted && dryRun {
            throw ValidationError("--prometheus and --textfile-dir report what was freed: not with --dry-run.")
        }
    }

    /// A fraction in (0, 1], written as digits (`Double` alone also takes `0x1` and `1.`).
    static func fraction(_ text: String) -> Double? {
        guard Units.isDecimal(Substring(text)), let value = Double(text), value > 0, value <= 1 else { return nil }
        return value
    }

    /// For `--trim-to`.
    static func parseFraction(_ text: String) throws -> Double {
        guard let value = fraction(text) else {
            throw ValidationError("'\(text)' must be a number greater than 0 and at most 1 (e.g. 0.5)")
        }
        return value
    }

    /// One root to prune and how.
    struct Job {
        var root: RawPath
        var kind: CacheFormatKind?
        var rules: PruneRules
        var context: InspectionContext
        /// The rules as the user wrote them (for the report).
        var given: PrunePresenter.Given
    }

    /// The roots and rules of this run: from the command line, or from the configuration.
    func jobs() throws -> [Job] {
        let explicit = configFile.map { RawArguments.paths([$0]) }
        let files = explicit ?? PruneConfiguration.defaultFiles()
        let useConfig =
            config || configFile != nil || (roots.isEmpty && maxSize == nil && maxAge == nil && !files.isEmpty)
        guard useConfig else {
            let paths = roots.isEmpty ? [CacheLocations.defaultStore()] : RawArguments.paths(roots)
            let rules = PruneRules(maxSize: maxSize?.bytes, maxAge: maxAge?.seconds, trimTo: trimTo)
            return paths.filter { !DefaultStore.isAbsent($0, defaulted: roots.isEmpty) }
                .map {
                    Job(
                        root: $0, kind: inspection.kind, rules: rules, context: inspection.context,
                        given: .init(
                            maxSize: maxSize.map { "--max-size \($0)" }, maxAge: maxAge.map { "--max-age \($0)" }))
                }
        }
        if files.isEmpty {
            Output.error(
                "no configuration file (\(PruneConfiguration.defaultFiles(environment: { _ in nil }).first?.description ?? "/etc/cachectl/config.toml") or $XDG_CONFIG_HOME/cachectl/config.toml)"
            )
            throw ExitStatus.failure
        }
        var configurations: [PruneConfiguration] = []
        for file in files {
            switch PruneConfiguration.load(file) {
            case .success(let configuration): configurations.append(configuration)
            case .failure(let problems):
                for problem in problems.all { Output.error(problem.description) }
                throw ExitStatus.usage
            }
        }
        var jobs: [Job] = []
        let home = Sys.environment("HOME") ?? "/"
        for policy in PruneConfiguration.merged(configurations) {
            let found = policy.roots(home: home)
            if found.isEmpty { Output.error("[\(policy.pattern)]: no such cache directory; skipped") }
            var context = inspection.context
            if let grace = policy.graceSeconds { context.graceSeconds = grace }
            let given = PrunePresenter.Given(
                maxSize: policy.maxSizeText.map { "max-size \($0) ([\(policy.pattern)])" },
                maxAge: policy.maxAgeText.map { "max-age \($0) ([\(policy.pattern)])" })
            jobs += found.map {
                Job(
                    root: $0, kind: policy.format ?? inspection.kind, rules: policy.rules, context: context,
                    given: given)
            }
        }
        return jobs
    }

    func run() throws {
        var reports: [PruneReport] = []
        var errors: [(RawPath, String)] = []
        var failed = false
        var givens: [RawPath: PrunePresenter.Given] = [:]
        for job in try jobs() {
            let root = job.root
            givens[root] = job.given
            let counter = PruneProgress()
            let line = ProgressLine(every: 0.2) {
                let s = counter.snapshot
                if s.total > 0 { return "pruning: \(s.done) of \(s.total) deletions" }
                return
                    "\(s.planning ? "planning" : "inspecting") \(root.escaped): \(Count.of(s.inspected, "file", "files"))"
                    + (s.planning ? " inspected" : " so far")
            }
            defer { line?.finish() }
            do {
                let batch = try Pruner.pruneAll(
                    root, as: job.kind, rules: job.rules, context: job.context, dryRun: dryRun,
                    progress: counter, onWait: { Output.error("waiting for another prune of \(root.quoted) to finish") }
                )
                line?.finish()
                for report in batch.reports {
                    for failure in report.outcome?.failures ?? [] {
                        Output.error("cannot delete \(failure.deletion.entry.path.quoted): \(failure.message)")
                        failed = true
                    }
                    reports.append(report)
                }
                for (path, error) in batch.errors {
                    Output.error(error.description)
                    errors.append((path, error.description))
                    failed = true
                }
            } catch let error as StoreError {
                line?.finish()
                Output.error(error.description)
                errors.append((root, error.description))
                failed = true
            }
        }
        if metrics.wanted {
            let previous = PrometheusText.previous(command: "prune", directory: metrics.textfileDirectory)
            let text = PrometheusText.prune(reports, failed: failed, previous: previous, now: FileTime.now.timeInterval)
            try PrometheusText.emit(text, command: "prune", directory: metrics.textfileDirectory)
        }
        if metrics.onStdout {
            // The metrics are the output.
        } else if output.json {
            try Output.write(json: PruneJSON(reports, errors: errors, dryRun: dryRun))
        } else {
            Output.write(
                reports.map { PrunePresenter.text($0, sizes: sizes, dryRun: dryRun, given: givens[$0.root] ?? .init()) }
                    .joined(separator: "\n"))
            if !reports.isEmpty { Output.write(PrunePresenter.totalLine(reports, sizes: sizes, dryRun: dryRun)) }
        }
        Output.flush()
        if failed { throw ExitStatus.failure }
    }
}

/// Turns prune reports into text or JSON.
enum PrunePresenter {
    static func removedByReason(_ report: PruneReport, dryRun: Bool) -> [PruneReason: StateTotals] {
        let done = dryRun ? report.plan.deletions : (report.outcome?.removed ?? PlannedDeletions())
        var totals: [PruneReason: StateTotals] = [:]
        for (reason, sum) in done.totalsByReason {
            totals[reason, default: StateTotals()].count += sum.count
            totals[reason, default: StateTotals()].allocatedBytes += sum.bytes
        }
        return totals
    }

    static func after(_ report: PruneReport, dryRun: Bool) -> (entries: Int, bytes: Int64) {
        let removed = dryRun ? report.plan.deletions : (report.outcome?.removed ?? PlannedDeletions())
        return (report.plan.entriesBefore - removed.count, report.plan.bytesBefore - removed.freedBytes)
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
        let removed = reports.map { dryRun ? $0.plan.deletions : ($0.outcome?.removed ?? PlannedDeletions()) }
        let bytes = removed.reduce(Int64(0)) { $0 + $1.freedBytes }
        let count = removed.reduce(0) { $0 + $1.count }
        return "\n\(dryRun ? "would free" : "freed") \(sizes.format(bytes)) in \(Count.of(count, "entry", "entries")) "
            + "from \(Count.of(reports.count, "cache", "caches"))\n"
    }

    static func text(_ report: PruneReport, sizes: SizeFormatOptions, dryRun: Bool, given: Given = Given()) -> String {
        let plan = report.plan
        var out =
            "\(report.root.escaped) (\(report.format.displayName))\(dryRun ? " — dry run, nothing changed" : "")\n"
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
