import ArgumentParser
import CacheKit

/// `cachectl du`: allocated sizes as GNU du counts them, and what each cache holds.
struct Du: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "du",
        abstract: "Report the disk usage of cache directories, exactly as GNU du counts it.",
        discussion: """
            Without PATH, walks the default cache root ($XDG_CACHE_HOME, else ~/.cache; \
            ~/Library/Caches on macOS). Sizes are allocated bytes (st_blocks × 512), hard \
            links counted once across all arguments, symlinks never followed.
            With -s, prints '<size>\\t<PATH>' per argument. Otherwise lists the caches found \
            under each PATH: directories tagged with CACHEDIR.TAG, else the immediate \
            subdirectories, largest first, with a total line.
            """
    )

    @Argument(help: "Directories or files to measure.", completion: .file())
    var paths: [String] = []

    @Flag(name: [.customShort("s"), .long], help: "Print only a total for each argument.")
    var summarize = false

    @OptionGroup var sizes: SizeFormatOptions

    @Flag(name: .long, help: "Count st_size of regular files and symlinks instead of allocated blocks.")
    var apparentSize = false

    @Flag(name: [.customShort("x"), .customLong("one-file-system")], help: "Stay on each argument's file system.")
    var oneFileSystem = false

    @Flag(
        name: [.customShort("S"), .customLong("separate-dirs")],
        help: "With -s, -d or -a, leave each directory's subdirectories out of its size (du's -S).")
    var separateDirs = false

    @Flag(
        name: [.customShort("l"), .customLong("count-links")],
        help: "Count a file as often as its hard links are met (du's -l); each is counted once otherwise.")
    var countLinks = false

    @Flag(
        name: [.customShort("P"), .customLong("no-dereference")],
        help: "Follow no symbolic link, arguments included (du's -P; always so).")
    var noDereference = false

    @Option(
        name: [.customShort("d", allowingJoined: true), .customLong("max-depth"), .long], parsing: .unconditional,
        help: ArgumentHelp(
            "List every directory at most N levels below each argument, instead of caches (-d1, --max-depth=1).",
            valueName: "max-depth"))
    var depth: String?

    @Flag(
        name: [.customShort("a"), .long],
        help: "List files as well as directories, as du -a: to --max-depth levels below each argument, or all of them.")
    var all = false

    @Flag(name: [.customShort("c"), .long], help: "With -s, also print a grand total ('<size>\ttotal').")
    var total = false

    @Flag(name: [.customShort("0"), .long], help: "With -s, end each line with NUL instead of newline.")
    var null = false

    @Option(
        name: [.customShort("t", allowingJoined: true), .long], parsing: .unconditional,
        help: ArgumentHelp(
            "Leave out sizes below SIZE (or, negative, above it) from -s and --depth rows.", valueName: "size"))
    var threshold: String?

    @Option(
        name: .long, parsing: .unconditional,
        help: "Also list the N largest files under each argument (after the totals with -s).")
    var top: Int?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Leave out files and directories matching this shell pattern (repeatable), as du --exclude.",
            valueName: "pattern"))
    var exclude: [String] = []

    @Option(
        name: [.customShort("X"), .customLong("exclude-from")],
        help: ArgumentHelp("Leave out what the patterns in this file match, one per line.", valueName: "file"),
        completion: .file())
    var excludeFrom: [String] = []

    @Option(
        name: .customLong("files0-from"),
        help: ArgumentHelp(
            "Measure the paths named in FILE, each ended by a NUL ('-': stdin), as du --files0-from.",
            valueName: "file"),
        completion: .file())
    var files0From: String?

    @Flag(name: .long, help: "With -s, count inodes (files and directories, hard links once) instead of sizes.")
    var inodes = false

    @Flag(
        name: .long,
        help: "With -s, also print the newest modification time under each argument (local time, as du --time).")
    var time = false

    @Option(name: .long, help: .hidden)
    var threads: Int?

    @OptionGroup var output: OutputOptions

    @OptionGroup var metrics: MetricsOptions

    func validate() throws {
        if files0From != nil, let first = paths.first {
            throw ValidationError(
                "extra operand '\(first)': file operands cannot be combined with --files0-from (as in du)")
        }
        if metrics.wanted && (summarize || depth != nil || all) {
            throw ValidationError(
                "--prometheus and --textfile-dir report caches: they cannot be combined with -s, -a or --max-depth.")
        }
        if all && summarize {
            throw ValidationError("-a/--all and -s/--summarize cannot be combined (one lists everything, one nothing).")
        }
        if let depth, Self.maxDepth(depth) == nil {
            throw ValidationError("invalid maximum depth '\(depth)' (a whole number, 0 or more, as du reads it)")
        }
        if let top, top < 0 { throw ValidationError("--top must be 0 or more.") }
        if let threads, threads < 1 { throw ValidationError("--threads must be 1 or more.") }
        if summarize && depth != nil { throw ValidationError("-s/--summarize and --depth cannot be combined.") }
        if null && !summarize { throw ValidationError("-0/--null needs -s (the other views are tables).") }
        if separateDirs && !summarize && depth == nil && !all {
            throw ValidationError("-S/--separate-dirs needs -s, -d or -a (the default view lists whole caches).")
        }
        if inodes && !summarize { throw ValidationError("--inodes needs -s (the other views have a FILES column).") }
        if time && !summarize {
            throw ValidationError("--time needs -s (the other views have OLDEST and NEWEST columns).")
        }
        if total && !summarize { throw ValidationError("-c/--total needs -s (the other views end with a total line).") }
        if let threshold, case .failure(let failure) = Self.threshold(threshold) {
            throw ValidationError(
                failure.message("--threshold", threshold) + " (a size as du reads it: 1M, -500K, 10MB)")
        }
    }

    /// Repeated trailing slashes as one (`a//` → `a/`, `//` → `/`), as du (fts) shows an
    /// argument and builds its children's paths (`a/sub`, not `a//sub`).
    static func oneTrailingSlash(_ path: RawPath) -> RawPath {
        var bytes = path.bytes
        while bytes.count > 1 && bytes.last == UInt8(ascii: "/") && bytes[bytes.count - 2] == UInt8(ascii: "/") {
            bytes.removeLast()
        }
        return RawPath(bytes: bytes)
    }

    /// `--max-depth` as du reads it (`xstrtoumax` with base 0 and no suffix: `010` is 8,
    /// `0x2` 2, a sign refused, even `-0`); nil for a malformed one.
    static func maxDepth(_ text: String) -> Int? {
        guard case .success(let value) = GNUNumber.unsigned(text, suffixes: "") else { return nil }
        return Int(clamping: value)
    }

    /// A threshold as du reads it (coreutils du.c: `xstrtoimax` with base 0 and the suffixes
    /// `kKmMGTPEZY0`, so `010` is 8 and `1.5K` is refused; `-0` refused): sizes kept are ≥
    /// it, or for a negative one ≤ its magnitude.
    static func threshold(_ text: String) -> Result<(limit: Int64, below: Bool), GNUNumber.Failure> {
        switch GNUNumber.signed(text, suffixes: "kKmMGTPEZY0") {
        case .failure(let failure): return .failure(failure)
        case .success(0) where text.hasPrefix("-"): return .failure(.invalid)
        case .success(let value) where value < 0: return .success((value == .min ? .max : -value, true))
        case .success(let value): return .success((value, false))
        }
    }

    /// Whether a size passes `--threshold`.
    func passes(_ size: Int64) -> Bool {
        guard let threshold, case .success(let rule) = Self.threshold(threshold) else { return true }
        return rule.below ? size <= rule.limit : size >= rule.limit
    }

    /// Sizes as du -b counts them: apparent when asked or when -b is given.
    var apparent: Bool { apparentSize || sizes.bytes }

    /// The largest `-X` or `--files0-from` list read (1 GiB): an endless pipe is refused once
    /// it has given more.
    static let largestList = FileIO.Limit(bytes: 1 << 30, what: "a list")

    /// The patterns of an `-X` list as du reads it (gnulib exclude.c `add_exclude_fp`): one per
    /// line, trailing white space removed (a `\r` of a CRLF file too), empty lines skipped;
    /// leading white space is part of the pattern.
    static func patterns(inList bytes: [UInt8]) -> [String] {
        // isspace in the C locale: space, \t, \n, \v, \f, \r.
        let space: (UInt8) -> Bool = { $0 == 0x20 || (0x09...0x0D).contains($0) }
        return bytes.split(separator: UInt8(ascii: "\n")).compactMap { line in
            guard let last = line.lastIndex(where: { !space($0) }) else { return nil }
            return String(decoding: line[...last], as: UTF8.self)
        }
    }

    /// The paths of a `--files0-from` list as du reads it (gnulib argv-iter): each ended by a
    /// NUL, the last one perhaps not; an empty one is an error naming its place, and so is
    /// `-` in a list read from stdin; the others are measured.
    static func paths(inFiles0 bytes: [UInt8], listName: String) -> [RawPath] {
        var names = bytes.split(separator: 0, omittingEmptySubsequences: false)
        if names.last?.isEmpty == true { names.removeLast() }
        var paths: [RawPath] = []
        for (index, name) in names.enumerated() {
            if name.isEmpty {
                Diagnostics.error("\(listName):\(index + 1): invalid zero-length file name")
            } else if listName == "-" && name.elementsEqual("-".utf8) {
                Diagnostics.error("when reading file names from standard input, no file name of '-' allowed")
            } else {
                paths.append(Self.oneTrailingSlash(RawPath(bytes: Array(name))))
            }
        }
        return paths
    }

    func run() throws {
        let roots: [RawPath]
        if let files0From {
            do {
                let list = Self.largestList
                let bytes =
                    files0From == "-"
                    ? try FileIO.readStandardInput(limit: list)
                    : try FileIO.readNamed(RawArguments.paths([files0From])[0], limit: list)
                roots = Self.paths(inFiles0: bytes, listName: files0From)
            } catch let error as StoreError {
                Diagnostics.error(error)
                throw ExitStatus.failure
            }
        } else {
            roots =
                paths.isEmpty
                ? [CacheLocations.defaultRoot()] : RawArguments.paths(paths).map(Self.oneTrailingSlash)
        }
        if paths.isEmpty && files0From == nil && !roots[0].exists {
            // No cache root yet simply means nothing is cached: not an error.
            Diagnostics.note("default cache root \(roots[0].quoted) does not exist: nothing is cached yet")
            return
        }
        let options = try walkOptions()
        let progress = options.progress.flatMap(ProgressLine.init)
        let report = DiskUsage.measure(roots, options: options)
        progress?.finish()

        for issue in report.issues { Diagnostics.error(issue.description) }
        // What each cache is, and how much of it is stale, by its own format's rules.
        let (summaries, summaryErrors) =
            options.breakdown == .caches ? CacheStateSummary.of(cachesIn: report) : ([:], [])
        for error in summaryErrors { Diagnostics.error(error) }
        if metrics.wanted {
            let text = PrometheusText.du(
                report, summaries: summaries, apparent: apparent, now: FileTime.now.timeInterval)
            try PrometheusText.emit(text, command: "du", directory: metrics.textfileDirectory)
        }
        if metrics.onStdout {
            // The metrics are the output.
        } else if output.json {
            try Output.write(json: DuJSON(report, options: options, summaries: summaries))
        } else if summarize {
            writeSummary(report)
        } else {
            Output.write(
                DuPresenter.text(
                    report, sizes: sizes, apparent: apparent, depth: depth != nil || all, summaries: summaries,
                    keep: { passes($0) }))
        }
        Output.flush()
    }

    /// The walk the flags ask for (`-X` files read here: one that cannot be read is a usage
    /// error, as in du).
    private func walkOptions() throws -> DiskUsageOptions {
        var options = DiskUsageOptions()
        options.oneFileSystem = oneFileSystem
        options.countLinks = countLinks
        options.separateDirectories = separateDirs
        var patterns = exclude
        for (text, file) in zip(excludeFrom, RawArguments.paths(excludeFrom)) {
            do {
                // As du reads it: through a symlink, from a pipe, `-` for stdin.
                let list = Self.largestList
                patterns += Self.patterns(
                    inList: text == "-"
                        ? try FileIO.readStandardInput(limit: list) : try FileIO.readNamed(file, limit: list))
            } catch let error as StoreError {
                Diagnostics.error(error)
                throw ExitStatus.usage
            }
        }
        options.exclude = ExcludePatterns(patterns)
        options.largestFiles = top ?? 0
        if let threads { options.threads = threads }
        options.listFiles = all
        if let depth = depth.flatMap(Self.maxDepth) {
            options.breakdown = .directories(maxDepth: depth)
        } else if all {
            options.breakdown = .directories(maxDepth: .max)
        } else if !summarize {
            options.breakdown = .caches
        }
        options.progress = WalkProgress()
        return options
    }

    /// `-s`: one line per argument, as du prints it (`-c`, `--time`, `--inodes`, `-0`,
    /// `--threshold`), then the largest files with `--top`.
    private func writeSummary(_ report: DiskUsageReport) {
        let end = null ? "\0" : "\n"
        var grand: Int64 = 0
        func shown(_ value: Int64) -> String { inodes ? String(value) : sizes.formatAsDu(value) }
        var newest: FileTime?
        func figure(_ totals: UsageTotals) -> Int64 {
            inodes ? Int64(totals.files + totals.directories) : size(of: totals)
        }
        for root in report.roots where root.isShown {
            // With -S the line is the argument's own; the total still counts everything (du's tot_dui).
            let line = root.separateTotals ?? root.totals
            let bytes = figure(line)
            grand &+= figure(root.totals)  // as du's uintmax_t: shown unsigned (`SizeFormatOptions.format`)
            if let n = root.totals.newestOfAny, newest.map({ $0 < n }) ?? true { newest = n }
            guard passes(bytes) else { continue }
            Output.write(shown(bytes) + "\t" + (time ? DateText.localMinute(line.newestOfAny) + "\t" : ""))
            Output.write(bytes: root.path.bytes)
            Output.write(end)
        }
        if total {
            // du's grand total starts from the epoch (its `tot_dui` is zero-initialised): with
            // nothing counted, or only older times, the total line shows 1970-01-01.
            let epoch = FileTime(seconds: 0, nanoseconds: 0)
            let totalTime = newest.map { max($0, epoch) } ?? epoch
            Output.write(shown(grand) + "\t" + (time ? DateText.localMinute(totalTime) + "\t" : "") + "total" + end)
        }
        guard top != nil else { return }
        for root in report.roots where root.isShown && !root.largestFiles.isEmpty {
            var files = Table([.right, .left, .left])
            files.add(["SIZE", "MODIFIED", "LARGEST FILES"])
            for file in root.largestFiles {
                files.add([
                    sizes.format(apparent ? file.apparentBytes : file.allocatedBytes),
                    DateText.day(file.modified), file.path.escaped
                ])
            }
            Output.write("\n" + files.render())
        }
    }

    private func size(of totals: UsageTotals) -> Int64 {
        apparent ? totals.apparentBytes : totals.allocatedBytes
    }
}
