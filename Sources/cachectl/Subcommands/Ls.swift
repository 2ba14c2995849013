import ArgumentParser
import CacheKit

/// `cachectl ls [ROOT]`: entries with their state and the reason for it.
struct Ls: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List a cache's entries: URL (where known), size, dates, state and reason.")

    @OptionGroup var root: CacheRoot
    @Option(name: .long, help: "Only entries in this state.") var state: EntryState?
    @OptionGroup var inspection: InspectionOptions
    @OptionGroup var sizes: SizeFormatOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let path = root.path
        if DefaultStore.isAbsent(path, defaulted: root.defaulted) {
            if output.json {
                try Output.write(
                    json: LsJSON(
                        root: path.description, format: nil, formatGuessedByNames: nil, entries: [], caches: []))
            }
            return
        }
        let (listings, errors) = try Diagnostics.reporting {
            () throws -> ([CacheDiscovery.Listing], [(path: RawPath, error: StoreError)]) in
            guard path.exists else { throw StoreError.cannotRead(path, "No such file or directory") }
            return try CacheDiscovery.listings(path, as: inspection.kind, context: inspection.context)
        }
        for (_, error) in errors { Diagnostics.error(error) }
        func shown(_ listing: CacheDiscovery.Listing) -> [CacheEntry] {
            listing.entries.filter { state == nil || $0.state == state }
        }
        // Named only by the shape of its file names: prune treats it as plain unless told.
        func guessed(_ listing: CacheDiscovery.Listing) -> Bool {
            inspection.kind == nil && listing.kind != .plain && CacheFormats.detectByMarkers(listing.path) == nil
        }
        let top = listings[0]
        if output.json {
            // The root's own entries, then each cache found in it (a folder of caches).
            try Output.write(
                json: LsJSON(
                    root: path.description, format: top.kind.rawValue, formatGuessedByNames: guessed(top),
                    entries: shown(top).map(LsJSON.Entry.init),
                    caches: listings.dropFirst().map {
                        LsJSON.Cache(
                            path: $0.path.description, format: $0.kind.rawValue,
                            entries: shown($0).map(LsJSON.Entry.init))
                    }))
            return
        }
        var sections: [String] = []
        for listing in listings where listing.path == path || !shown(listing).isEmpty || state == nil {
            var table = Table([.left, .right, .left, .left, .left])
            table.add(["STATE", "SIZE", "MODIFIED", "EXPIRES", "ENTRY"])
            let entries = shown(listing)
            let now = FileTime.now.timeInterval
            for entry in entries {
                // An expiry within a day either way says its time too.
                let soon = entry.expires.map { abs($0.timeInterval - now) < 86_400 } ?? false
                table.add([
                    entry.state.rawValue, sizes.format(entry.allocatedBytes), DateText.day(entry.modified),
                    soon ? DateText.minute(entry.expires) : DateText.day(entry.expires),
                    Text.show(entry.url ?? entry.path.escaped) + "  (\(Text.show(entry.reason)))"
                ])
            }
            let total = entries.reduce(Int64(0)) { $0 + $1.allocatedBytes }
            sections.append(
                """
                \(guessed(listing) ? DuPresenter.guessedName(listing.kind) : listing.name): \
                \(listing.path.escaped)\n
                """
                    + table.render() + "total: \(Count.of(entries.count, "entry", "entries")), \(sizes.format(total))\n"
            )
        }
        Output.write(sections.joined(separator: "\n"))
    }
}
