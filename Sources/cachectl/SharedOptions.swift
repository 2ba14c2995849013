import ArgumentParser
import CacheKit

/// Options several subcommands share, declared once.
struct OutputOptions: ParsableArguments {
    @Flag(name: .long, help: "Print one JSON object on stdout instead of text.")
    var json = false
}

/// How sizes are printed in text output, with du's flags and du's rule that the last of
/// `-b`, `-h`, `--si`, `-k`, `-m` and `-B` given wins (`du -sbh` is human-readable).
struct SizeFormatOptions: ParsableArguments {
    @Flag(name: [.customShort("b"), .long], help: "Print sizes as exact byte counts (in du, apparent sizes: du's -b).")
    var bytes = false

    @Flag(
        name: [.customShort("h"), .long],
        help: "Print sizes like 1.5K, 23M, 4.0G, in powers of 1024 (the default on a terminal).")
    var humanReadable = false

    @Flag(name: .customLong("si"), help: "Like -h, in powers of 1000 (4.1k, 5.1M).")
    var si = false

    @Flag(name: .customShort("k"), help: "Print sizes in KiB, rounded up (--block-size=1K).")
    var kibibytes = false

    @Flag(name: .customShort("m"), help: "Print sizes in MiB, rounded up (--block-size=1M).")
    var mebibytes = false

    @Option(
        name: [.customShort("B", allowingJoined: true), .customLong("block-size")],
        help: ArgumentHelp(
            "Print sizes in units of SIZE, rounded up: 1K, 4KiB, 1MB, or a unit alone (M, KB), which is then printed after each size.",
            valueName: "size"))
    var blockSize: String?

    func validate() throws {
        if let blockSize, BlockSize(blockSize) == nil {
            throw ValidationError(
                "--block-size: '\(blockSize)' is not a block size (a positive whole number and/or a unit: 512, 1K, 4KiB, 1MB, M)."
            )
        }
    }

    enum Style: Equatable {
        /// Human-readable on a terminal, exact bytes otherwise.
        case automatic
        case bytes
        case human(base: Int64)
        case blocks(BlockSize)
    }

    /// The style the last size flag on the command line asks for.
    var style: Style {
        switch SizeFlags.last {
        case nil: return bytes ? .bytes : humanReadable ? .human(base: 1024) : si ? .human(base: 1000) : .automatic
        case "b": return .bytes
        case "h": return .human(base: 1024)
        case "si": return .human(base: 1000)
        case "k": return .blocks(BlockSize(size: 1024, suffix: ""))
        case "m": return .blocks(BlockSize(size: 1 << 20, suffix: ""))
        default: return blockSize.flatMap(BlockSize.init).map(Style.blocks) ?? .automatic
        }
    }

    /// Human sizes when asked, or by default when stdout is a terminal.
    var useHuman: Bool {
        switch style {
        case .automatic: return Output.stdoutIsTerminal
        case .human: return true
        case .bytes, .blocks: return false
        }
    }

    /// `format`, except that with no size flag and stdout not a terminal, sizes are du's
    /// default: blocks of `DU_BLOCK_SIZE`, `BLOCK_SIZE` or `BLOCKSIZE` (the first set; each
    /// also `human-readable` or `si`), else 512 bytes with `POSIXLY_CORRECT`, else 1 KiB.
    /// For `du -s`, whose lines are du's own.
    func formatAsDu(_ bytes: Int64) -> String {
        guard style == .automatic, !Output.stdoutIsTerminal else { return format(bytes) }
        switch Self.duEnvironmentStyle {
        case .human(let base): return ByteCount.human(bytes, base: base)
        case .blocks(let block): return block.format(bytes)
        default: return String(bytes)
        }
    }

    /// du's default unit from its environment (coreutils `human_options`).
    static let duEnvironmentStyle: Style = {
        for name in ["DU_BLOCK_SIZE", "BLOCK_SIZE", "BLOCKSIZE"] {
            guard let value = Sys.environment(name), !value.isEmpty else { continue }
            // A leading ' asks for thousands separators, which cachectl does not print.
            let text = value.hasPrefix("'") ? String(value.dropFirst()) : value
            switch text {
            case "human-readable": return .human(base: 1024)
            case "si": return .human(base: 1000)
            default: if let block = BlockSize(text), block.size > 0 { return .blocks(block) }
            }
        }
        if Sys.environment("POSIXLY_CORRECT") != nil { return .blocks(BlockSize(size: 512, suffix: "")) }
        return .blocks(BlockSize(size: 1024, suffix: ""))
    }()

    func format(_ bytes: Int64) -> String {
        switch style {
        case .automatic: return Output.stdoutIsTerminal ? ByteCount.human(bytes) : String(bytes)
        case .bytes: return String(bytes)
        case .human(let base): return ByteCount.human(bytes, base: base)
        case .blocks(let block): return block.format(bytes)
        }
    }
}

/// du's `--block-size`: a positive whole number, a unit (`K`, `KiB` = 1024, `KB` = 1000; up
/// to Y), or both; a unit given alone is printed after each size (`-BM` prints `5M`).
struct BlockSize: Equatable {
    var size: Int64
    var suffix: String

    init(size: Int64, suffix: String) { (self.size, self.suffix) = (size, suffix) }

    init?(_ text: String) {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        let unit = text.dropFirst(digits.count)
        var multiplier: Int64 = 1
        var printed = ""
        if !unit.isEmpty {
            guard let letter = unit.first, let power = "KMGTPEZY".firstIndex(of: Character(letter.uppercased())) else {
                return nil
            }
            let exponent = "KMGTPEZY".distance(from: "KMGTPEZY".startIndex, to: power) + 1
            let rest = unit.dropFirst()
            let base: Int64
            switch rest {
            case "", "iB": base = 1024
            case "B": base = 1000
            default: return nil
            }
            guard letter == "k" ? rest == "B" || rest == "" : letter.isUppercase else { return nil }
            for _ in 0..<exponent {
                let (product, overflow) = multiplier.multipliedReportingOverflow(by: base)
                guard !overflow else { return nil }
                multiplier = product
            }
            printed = (base == 1000 && exponent == 1 ? "k" : String(letter).uppercased()) + rest
        }
        var count: Int64 = 1
        if !digits.isEmpty {
            guard let value = Int64(digits), value > 0 else { return nil }
            count = value
            printed = ""
        }
        guard digits.count + unit.count == text.count, !text.isEmpty else { return nil }
        let (total, overflow) = count.multipliedReportingOverflow(by: multiplier)
        guard !overflow else { return nil }
        (size, suffix) = (total, printed)
    }

    /// `bytes` in these blocks, rounded up, with the unit when one was given alone.
    func format(_ bytes: Int64) -> String {
        let blocks = bytes / size + (bytes % size == 0 ? 0 : 1)
        return String(blocks) + suffix
    }
}

/// Which of the size flags came last on the command line (`b`, `h`, `si`, `k`, `m`, `B`),
/// read from the raw arguments (the parser does not keep their order).
enum SizeFlags {
    static let last: String? = {
        var last: String?
        for token in RawArguments.strings {
            if token == "--" { break }
            if token.hasPrefix("--") {
                let name = token.dropFirst(2).prefix { $0 != "=" }
                switch name {
                case "bytes": last = "b"
                case "human-readable": last = "h"
                case "si": last = "si"
                case "block-size": last = "B"
                default: break
                }
            } else if token.hasPrefix("-"), token.count > 1 {
                // A cluster of short flags (`-sbh`); a letter that takes a value ends it.
                for letter in token.dropFirst() {
                    if "bhkm".contains(letter) {
                        last = String(letter)
                        continue
                    }
                    if letter == "B" { last = "B" }
                    if !"asxcl0SLPn".contains(letter) { break }
                }
            }
        }
        return last
    }()
}

/// `--cache ROOT` for commands whose subject is a URL.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .customLong("cache"),
        help: "The cache store (default: $XDG_CACHE_HOME/cachectl, else ~/.cache/cachectl).",
        completion: .directory)
    var cache: String?

    var root: RawPath { cache.map { RawArguments.paths([$0])[0] } ?? CacheLocations.defaultStore() }
}

/// cachectl's own store, when a command was given no root. Its not existing yet means
/// nothing is cached: `ls`, `clear` and `prune` say so on stderr and succeed (as `du` does for
/// the default cache root), so a scheduled prune on a fresh machine does not fail.
enum DefaultStore {
    static func isAbsent(_ path: RawPath, defaulted: Bool) -> Bool {
        guard defaulted && !path.exists else { return false }
        Output.error("default store \(path.quoted) does not exist: nothing is cached yet")
        return true
    }
}

/// How entries' states are decided.
struct InspectionOptions: ParsableArguments {
    @Option(
        name: .long,
        help: "Leave incomplete and orphan items younger than this alone (a systemd time span; default: 1h).",
        transform: TimeSpan.parse)
    var grace: TimeSpan = TimeSpan(seconds: 3600, text: "1h")

    @Flag(name: .long, help: "Rehash bodies against the checksums the index recorded.")
    var verify = false

    @OptionGroup var format: FormatOption

    var context: InspectionContext { InspectionContext(graceSeconds: grace.seconds, verify: verify) }
    var kind: CacheFormatKind? { format.kind }
}

/// `--format F`: the layout to assume instead of detecting it. Typed: the parser checks the
/// value, and help and completions list the choices.
struct FormatOption: ParsableArguments {
    @Option(name: .long, help: "Treat the directory as this format (default: detected).")
    var format: CacheFormatKind?

    var kind: CacheFormatKind? { format }
}

/// A systemd time span from the command line, parsed once (`Units.parseDuration`).
struct TimeSpan: CustomStringConvertible {
    var seconds: Double
    var text: String
    var description: String { text }

    /// For `@Option(transform:)`: the value, or a message saying what a time span is.
    static func parse(_ text: String) throws -> TimeSpan {
        guard let seconds = Units.parseDuration(text) else {
            throw ValidationError(
                "'\(text)' is not a systemd time span (e.g. 90s, 15min, 12h, 7d, 1M for a month; units are case-sensitive)"
            )
        }
        return TimeSpan(seconds: seconds, text: text)
    }
}

/// A size from the command line, parsed once (`Units.parseSizeWithUnit`).
struct SizeArgument: CustomStringConvertible {
    var bytes: Int64
    var text: String
    var hasUnit: Bool
    var description: String { text }

    static func parse(_ text: String) throws -> SizeArgument {
        guard let size = Units.parseSizeWithUnit(text) else {
            throw ValidationError("'\(text)' is not a size (e.g. 500M, 2G, 10GB, 1GiB, 4096B)")
        }
        return SizeArgument(bytes: size.bytes, text: text, hasUnit: size.hasUnit)
    }

    /// A cap that deletes down to it: a forgotten unit (`1`, `0.5`) must not empty a cache.
    static func parseCap(_ text: String) throws -> SizeArgument {
        let size = try parse(text)
        guard !Units.isForgottenUnit((size.bytes, size.hasUnit)) else {
            throw ValidationError(
                "'\(text)' has no unit and is under 4 KiB, which would delete nearly everything; "
                    + "add a unit (\(text)G, \(text)M) or, to mean bytes, write \(text)B (0B empties the cache)")
        }
        return size
    }
}

extension CacheFormatKind: ExpressibleByArgument {}
extension EntryState: ExpressibleByArgument {}

/// Runs a store operation, turning its error into a one-line message and exit status 1.
func reporting<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch let error as StoreError {
        Output.error(error.description)
        throw ExitStatus.failure
    }
}
