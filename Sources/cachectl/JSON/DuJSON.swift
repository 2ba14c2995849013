import CacheKit

/// `cachectl du --json` (schema `docs/schema/du.schema.json`).
struct DuJSON: JSONOutput {
    static let schema = "du.schema.json"

    /// One command-line root; `caches`, `subdirectories`, `allFiles` and `largestFiles` only
    /// when asked for (the default view, `--max-depth` or `-a`, `-a`, `--top`).
    struct Root: Encodable {
        var path: String
        var alreadyCounted: Bool
        @Nullable var caches: [Merged<Cache, Totals>]?
        @Nullable var subdirectories: [Merged<Subdirectory, Totals>]?
        @Nullable var largestFiles: [File]?
        @Nullable var allFiles: [File]?
    }

    /// Sizes, counts and the range of modification times of a tree (members of the object
    /// it describes).
    struct Totals: Encodable {
        var allocatedBytes: Int64
        var apparentBytes: Int64
        var files: Int
        var directories: Int
        @Nullable var oldestModification: String?
        @Nullable var newestModification: String?

        init(_ t: UsageTotals) {
            allocatedBytes = t.allocatedBytes
            apparentBytes = t.apparentBytes
            files = t.files
            directories = t.directories
            oldestModification = JSONShapes.time(t.oldestModification)
            newestModification = JSONShapes.time(t.newestModification)
        }
    }

    /// A cache found in a root; `format`, `staleBytes` and `states` are null when its format
    /// is not recognised.
    struct Cache: Encodable {
        var path: String
        var kind: String
        @Nullable var format: String?
        @Nullable var formatGuessedByNames: Bool?
        @Nullable var staleBytes: Int64?
        @Nullable var states: [String: JSONShapes.Tally]?
    }

    struct Subdirectory: Encodable {
        var path: String
        var depth: Int
    }

    /// A non-directory (in `largestFiles` and `allFiles`).
    struct File: Encodable {
        var path: String
        var allocatedBytes: Int64
        var apparentBytes: Int64
        @Nullable var modified: String?
    }

    var roots: [Merged<Root, Totals>]
    var errors: [JSONShapes.PathMessage]

    init(_ report: DiskUsageReport, options: DiskUsageOptions, summaries: [RawPath: CacheStateSummary]) {
        roots = report.roots.filter { $0.exists && !$0.excluded }.map { root in
            var out = Root(path: root.path.description, alreadyCounted: root.alreadyCounted)
            if options.breakdown == .caches {
                out.caches = root.caches.map { cache in
                    let summary = summaries[cache.path]
                    return Merged(
                        Cache(
                            path: cache.path.description, kind: cache.kind.rawValue,
                            format: summary?.format.rawValue, formatGuessedByNames: summary?.guessedByNames,
                            staleBytes: summary?.staleBytes,
                            states: summary.map { s in
                                Dictionary(
                                    uniqueKeysWithValues: EntryState.allCases.map {
                                        ($0.rawValue, JSONShapes.Tally(s.states[$0] ?? StateTotals()))
                                    })
                            }), Totals(cache.totals))
                }
            }
            if case .directories = options.breakdown {
                out.subdirectories = root.directories.map {
                    Merged(Subdirectory(path: $0.path.description, depth: $0.depth), Totals($0.totals))
                }
            }
            if options.listFiles {
                out.allFiles = root.files.map {
                    File(
                        path: $0.path.description, allocatedBytes: $0.allocatedBytes, apparentBytes: $0.apparentBytes,
                        modified: JSONShapes.time($0.modified))
                }
            }
            if options.largestFiles > 0 {
                out.largestFiles = root.largestFiles.map {
                    File(
                        path: $0.path.description, allocatedBytes: $0.allocatedBytes, apparentBytes: $0.apparentBytes,
                        modified: JSONShapes.time($0.modified))
                }
            }
            return Merged(out, Totals(root.totals))
        }
        errors = report.issues.map { JSONShapes.PathMessage(path: $0.path.description, message: $0.description) }
    }
}
