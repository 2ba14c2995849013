import ArgumentParser
import CacheKit

/// `cachectl clear [ROOT]`: remove every entry, keep the root, its tag and an empty index.
struct Clear: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear",
        abstract: "Remove every entry of a cache; keep the root, its tag and an empty index.",
        discussion: """
            Entries indexed outside the cache are never deleted (they are reported and kept). \
            Only caches are cleared: a layout its marker files or folder name declare, a folder tagged with \
            CACHEDIR.TAG, or \
            one under the default cache root; --format plain for any other folder. A folder that is no cache but \
            holds one directly inside it (~/.npm) has that one cleared, and nothing else in it. Deletes through the \
            same engine as prune: the root opened once, every file checked again just before it is unlinked.
            """)

    @OptionGroup var root: CacheRoot
    @Flag(name: .long, help: "Print what would be removed; change nothing.") var dryRun = false
    @OptionGroup var format: FormatOption
    @OptionGroup var sizes: SizeFormatOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let path = root.path
        if DefaultStore.isAbsent(path, defaulted: root.defaulted) {
            if output.json { try Output.write(json: ClearJSON(nil, root: path, dryRun: dryRun)) }
            return
        }
        let report = try Diagnostics.reporting { try CacheClearer.clear(path, as: format.kind, dryRun: dryRun) }
        for failure in report.outcome?.failures ?? [] {
            Diagnostics.error("cannot delete \(failure.deletion.entry.path.quoted): \(failure.message)")
        }
        if output.json {
            try Output.write(json: ClearJSON(report, root: path, dryRun: dryRun))
        } else {
            for kept in report.plan.kept { Diagnostics.note("kept \(kept.entry.path.quoted): \(kept.entry.reason)") }
            Output.write(ClearPresenter.text(report, sizes: sizes, dryRun: dryRun))
        }
        Output.flush()
    }
}
