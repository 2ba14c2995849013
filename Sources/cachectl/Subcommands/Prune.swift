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
            Only caches are pruned: a layout its marker files or folder name declare, a folder tagged with \
            CACHEDIR.TAG, or \
            one under the default cache root; --format plain for any other folder. A folder that is no \
            cache but holds caches directly inside it (~/.npm) has those pruned, and nothing else in it.
            """)

    @Argument(help: "Caches to prune (default: cachectl's own store).", completion: .directory) var roots: [String] = []
    @Option(
        name: .long, parsing: .unconditional,
        help:
            """
            Size cap with a unit: 500M, 2G, 10GB, 1GiB, 4096B (a number without a unit below 4 KiB is refused: \
            write 0B to empty a cache).
            """,
        transform: SizeArgument.parseCap)
    var maxSize: SizeArgument?
    @Option(
        name: .long, parsing: .unconditional,
        help:
            """
            Also delete entries modified longer ago than this, in systemd's time spans (7d, 12h, 30min, 1M = a \
            month, 1y, '1 day 12h'), in any format.
            """,
        transform: TimeSpan.parse)
    var maxAge: TimeSpan?
    @Option(
        name: .long, parsing: .unconditional,
        help:
            """
            Trim to this fraction of --max-size (default: the cache owner's own rule; 0.5 for cachectl's store, \
            plist and plain folders).
            """,
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
            """
            Apply every table of the configuration files (/etc/cachectl/config.toml, then \
            $XDG_CONFIG_HOME/cachectl/config.toml); the default when a file exists and no ROOT, --max-size or \
            --max-age is given.
            """
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
            let system =
                PruneConfiguration.defaultFiles(environment: { _ in nil }).first?.description
                ?? "/etc/cachectl/config.toml"
            Diagnostics.error("no configuration file (\(system) or $XDG_CONFIG_HOME/cachectl/config.toml)")
            throw ExitStatus.failure
        }
        var configurations: [PruneConfiguration] = []
        for file in files {
            switch PruneConfiguration.load(file) {
            case .success(let configuration): configurations.append(configuration)
            case .failure(let problems):
                for problem in problems.all { Diagnostics.error(problem.description) }
                throw ExitStatus.usage
            }
        }
        var jobs: [Job] = []
        let home = Sys.environment("HOME") ?? "/"
        for policy in PruneConfiguration.merged(configurations) {
            let found = policy.roots(home: home)
            if found.isEmpty { Diagnostics.note("[\(policy.pattern)]: no such cache directory; skipped") }
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
        // prune holds a table of every entry and drops it: its memory goes back. Only prune:
        // localize and du grow and drop large buffers too, and page-faulting fresh ones each time
        // cost localize a fifth of its time.
        MemoryReturn.largeBlocksToTheSystem()
        var reports: [PruneReport] = []
        var errors: [(RawPath, String)] = []
        var givens: [RawPath: PrunePresenter.Given] = [:]
        for job in try jobs() {
            let root = job.root
            givens[root] = job.given
            let counter = PruneProgress()
            let line = ProgressLine(every: 0.2) {
                let s = counter.snapshot
                if s.total > 0 { return "pruning: \(s.done) of \(s.total) deletions" }
                return
                    """
                    \(s.planning ? "planning" : "inspecting") \(root.escaped): \
                    \(Count.of(s.inspected, "file", "files"))
                    """
                        + (s.planning ? " inspected" : " so far")
            }
            defer { line?.finish() }
            do {
                let batch = try Pruner.pruneAll(
                    root, as: job.kind, rules: job.rules, context: job.context, dryRun: dryRun,
                    progress: counter,
                    onWait: { Diagnostics.note("waiting for another prune of \(root.quoted) to finish") }
                )
                line?.finish()
                for report in batch.reports {
                    // A folder's caches were pruned by the same command line.
                    givens[report.root] = job.given
                    for failure in report.outcome?.failures ?? [] {
                        Diagnostics.error("cannot delete \(failure.deletion.entry.path.quoted): \(failure.message)")
                    }
                    reports.append(report)
                }
                for (path, error) in batch.errors {
                    Diagnostics.error(error)
                    errors.append((path, error.description))
                }
            } catch let error as StoreError {
                line?.finish()
                Diagnostics.error(error)
                errors.append((root, error.description))
            }
        }
        if metrics.wanted {
            let previous = PrometheusText.previous(command: "prune", directory: metrics.textfileDirectory)
            let text = PrometheusText.prune(
                reports, failed: Diagnostics.failed, previous: previous, now: FileTime.now.timeInterval)
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
    }
}
