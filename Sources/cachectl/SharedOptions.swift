import ArgumentParser
import CacheKit

/// Options several subcommands share, declared once.
struct OutputOptions: ParsableArguments {
    @Flag(name: .long, help: "Print one JSON object on stdout instead of text.")
    var json = false
}

/// How sizes are printed in text output.
struct SizeFormatOptions: ParsableArguments {
    @Flag(name: [.customShort("b"), .long], help: "Print sizes as exact byte counts.")
    var bytes = false

    @Flag(name: [.customShort("h"), .long], help: "Print sizes like 1.5K, 23M, 4.0G (the default on a terminal).")
    var humanReadable = false

    func validate() throws {
        if bytes && humanReadable { throw ValidationError("--bytes and --human-readable cannot be combined.") }
    }

    /// Human sizes when asked, or by default when stdout is a terminal.
    var useHuman: Bool { humanReadable || (!bytes && Output.stdoutIsTerminal) }

    func format(_ bytes: Int64) -> String { useHuman ? ByteCount.human(bytes) : String(bytes) }
}

/// `--cache ROOT` for commands whose subject is a URL.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("cache"), help: "The cache store (default: $XDG_CACHE_HOME/cachectl, else ~/.cache/cachectl).")
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
    @Option(name: .long, help: "Leave incomplete and orphan items younger than this alone (default 1h).")
    var grace: String = "1h"

    @Flag(name: .long, help: "Rehash bodies against the checksums the index recorded.")
    var verify = false

    @OptionGroup var format: FormatOption

    func validate() throws {
        if Units.parseDuration(grace) == nil { throw ValidationError("--grace: '\(grace)' is not a duration (e.g. 90s, 15m, 1h, 7d).") }
    }

    var context: InspectionContext { InspectionContext(graceSeconds: Units.parseDuration(grace) ?? 3600, verify: verify) }
    var kind: CacheFormatKind? { format.kind }
}

/// `--format F`: the layout to assume instead of detecting it.
struct FormatOption: ParsableArguments {
    @Option(name: .long, help: "Treat the directory as this format: native, sdwebimage, kingfisher, pincache, nuke, plist, urlcache, foundationurlcache, thumbnails, gobuild, pip, npm, ccache, huggingface, chromium, firefox, gitmirrors, plain (default: detected).")
    var format: String?

    func validate() throws {
        if let format, CacheFormatKind(rawValue: format) == nil {
            throw ValidationError("--format: '\(format)' is not one of \(CacheFormatKind.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
    }

    var kind: CacheFormatKind? { format.flatMap(CacheFormatKind.init(rawValue:)) }
}

/// Runs a store operation, turning its error into a one-line message and exit status 1.
func reporting<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch let error as StoreError {
        Output.error(error.description)
        throw ExitStatus.failure
    }
}
