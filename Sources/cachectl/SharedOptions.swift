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

/// The default cache root: `$XDG_CACHE_HOME`, else `~/.cache` (Linux) or `~/Library/Caches` (macOS).
func defaultCacheRoot() -> RawPath {
    CacheLocations.defaultRoot()
}
