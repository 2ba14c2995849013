import ArgumentParser
import CacheKit

/// The one cache `ls` and `clear` work on: ROOT, or `--cache` as `put`, `fetch`, `cat`, `rm`
/// and `localize` take it (so `ls --cache DIR` after `put --cache DIR` works); default,
/// cachectl's own store.
struct CacheRoot: ParsableArguments {
    @Argument(help: "The cache (default: cachectl's own store).", completion: .directory) var root: String?
    @Option(name: .long, help: "The cache, as put and fetch take it (the same as ROOT).", completion: .directory)
    var cache: String?

    func validate() throws {
        if root != nil && cache != nil {
            throw ValidationError("give the cache once: as ROOT or with --cache, not both.")
        }
    }

    /// Whether the cache was left to the default.
    var defaulted: Bool { (root ?? cache) == nil }

    /// The cache's path.
    var path: RawPath { (root ?? cache).map { RawArguments.paths([$0])[0] } ?? CacheLocations.defaultStore() }
}
