import ArgumentParser
import CacheKit

/// `--cache ROOT` for commands whose subject is a URL.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .customLong("cache"),
        help: "The cache store (default: $XDG_CACHE_HOME/cachectl, else ~/.cache/cachectl).",
        completion: .directory)
    var cache: String?

    var root: RawPath { cache.map { RawArguments.paths([$0])[0] } ?? CacheLocations.defaultStore() }
}
