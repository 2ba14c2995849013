import ArgumentParser
import CacheKit

/// `cachectl clear [ROOT]`: remove every entry, keep the root, its tag and an empty index.
struct Clear: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear",
        abstract: "Remove every entry of a cache; keep the root, its tag and an empty index.",
        discussion: """
            Entries indexed outside the cache are never deleted (they are reported and kept). \
            Only caches are cleared: a layout its marker files or folder name declare, a folder tagged with CACHEDIR.TAG, or \
            one under the default cache root; --format plain for any other folder.
            """)

    @Argument(help: "The cache (default: cachectl's own store).") var root: String?
    @OptionGroup var format: FormatOption

    func run() throws {
        let path = root.map { RawArguments.paths([$0])[0] } ?? CacheLocations.defaultStore()
        if DefaultStore.isAbsent(path, defaulted: root == nil) { return }
        let outcome = try reporting { try CacheClearer.clear(path, as: format.kind) }
        for kept in outcome.keptOutside {
            Output.error("kept \(kept.path.quoted): \(kept.reason)")
        }
        Output.write("removed \(outcome.removed) entries, \(ByteCount.human(outcome.freedBytes)) from \(path.description)\n")
    }
}
