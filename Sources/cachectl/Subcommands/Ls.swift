import ArgumentParser
import CacheKit

/// `cachectl ls [ROOT]`: entries with their state and the reason for it.
struct Ls: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List a cache's entries: URL (where known), size, dates, state and reason.")

    @Argument(help: "The cache (default: cachectl's own store).") var root: String?
    @Option(name: .long, help: "Only entries in this state: fresh, expired, incomplete, corrupted, orphan, outside.") var state: String?
    @OptionGroup var inspection: InspectionOptions
    @OptionGroup var sizes: SizeFormatOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if let state, EntryState(rawValue: state) == nil {
            throw ValidationError("--state: '\(state)' is not one of \(EntryState.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
    }

    func run() throws {
        let path = root.map { RawArguments.paths([$0])[0] } ?? CacheLocations.defaultStore()
        if DefaultStore.isAbsent(path, defaulted: root == nil) {
            if output.json { Output.write(JSON.object([("root", .string(path.description)), ("format", .null), ("formatGuessedByNames", .null), ("entries", .array([]))]).text) }
            return
        }
        let (format, all) = try reporting { () throws -> (CacheFormatKind, [CacheEntry]) in
            guard path.exists else { throw StoreError.cannotRead(path, "No such file or directory") }
            let opened = try CacheFormats.open(path, as: inspection.kind)
            return (opened.kind, try opened.entries(inspection.context))
        }
        let entries = all.filter { state == nil || $0.state.rawValue == state }
        // Named only by the shape of its file names: prune treats it as plain unless told.
        let guessed = inspection.kind == nil && format != .plain && CacheFormats.detectByMarkers(path) == nil
        if output.json {
            Output.write(JSON.object([
                ("root", .string(path.description)), ("format", .string(format.rawValue)), ("formatGuessedByNames", .bool(guessed)),
                ("entries", .array(entries.map(EntryJSON.object))),
            ]).text)
            return
        }
        var table = Table([.left, .right, .left, .left, .left])
        table.add(["STATE", "SIZE", "MODIFIED", "EXPIRES", "ENTRY"])
        for entry in entries {
            table.add([entry.state.rawValue, sizes.format(entry.allocatedBytes), DateText.day(entry.modified),
                       DateText.day(entry.expires), Text.show(entry.url ?? entry.path.escaped) + "  (\(Text.show(entry.reason)))"])
        }
        Output.write("\(guessed ? DuPresenter.guessedName(format) : format.displayName): \(path.escaped)\n" + table.render())
    }
}

enum EntryJSON {
    static func object(_ entry: CacheEntry) -> JSON {
        .object([
            ("url", entry.url.map(JSON.string) ?? .null), ("path", .string(entry.path.description)),
            ("allocatedBytes", .int(entry.allocatedBytes)), ("apparentBytes", .int(entry.apparentBytes)),
            ("modified", .time(entry.modified)), ("lastAccess", .time(entry.lastAccess)), ("expires", .time(entry.expires)),
            ("state", .string(entry.state.rawValue)), ("reason", .string(entry.reason)),
        ])
    }
}
