/// What a recognised cache is and how its entries divide by state.
public struct CacheStateSummary: Sendable {
    /// The cache's format.
    public var format: CacheFormatKind
    /// Totals per state (states without entries absent).
    public var states: [EntryState: StateTotals]
    /// True when only the shape of the file names suggested `format` (no marker file or
    /// folder name): `prune` then treats the folder as plain unless `--format` names it.
    public var guessedByNames = false
    /// What the cache is, for a person (`CacheFormat.displayName`).
    public var name: String

    /// Bytes that are not fresh (expired, incomplete, corrupted, orphan, outside).
    public var staleBytes: Int64 {
        states.filter { $0.key != .fresh }.reduce(0) { $0 + $1.value.allocatedBytes }
    }

    /// The summary of `root` when it is a recognised (not plain) cache; nil otherwise.
    /// Errors (a corrupt index, a malformed plist) are returned, never thrown.
    public static func of(_ root: RawPath, context: InspectionContext = InspectionContext()) -> Result<
        CacheStateSummary, StoreError
    >? {
        guard case .success(let anchor) = AnchoredDirectory.open(root) else { return nil }
        let declared = CacheFormats.detectByMarkers(anchor)
        let kind = declared ?? CacheFormats.detectByNameShapes(anchor)
        guard kind != .plain else { return nil }
        do {
            let format = try CacheFormats.open(anchor, as: kind)
            let entries = try format.entries(context)
            var states: [EntryState: StateTotals] = [:]
            for entry in entries {
                states[entry.state, default: StateTotals()].count += 1
                states[entry.state, default: StateTotals()].allocatedBytes += entry.allocatedBytes
            }
            return .success(
                CacheStateSummary(
                    format: kind, states: states, guessedByNames: declared == nil, name: format.displayName))
        } catch let error as StoreError {
            return .failure(error)
        } catch {
            return .failure(.cannotRead(root, "\(error)"))
        }
    }

    /// The summaries of the recognised caches a `du` report lists (breakdown `.caches`), keyed
    /// by cache path, and the errors of those that could not be read. A root's loose files are
    /// summarised only when they are the root's one cache (a cache root given directly).
    public static func of(cachesIn report: DiskUsageReport, context: InspectionContext = InspectionContext())
        -> (summaries: [RawPath: CacheStateSummary], errors: [StoreError])
    {
        var summaries: [RawPath: CacheStateSummary] = [:]
        var errors: [StoreError] = []
        for root in report.roots {
            for cache in root.caches where cache.kind != .rootFiles || root.caches.count == 1 {
                switch of(cache.path, context: context) {
                case .success(let summary): summaries[cache.path] = summary
                case .failure(let error): errors.append(error)
                case nil: break
                }
            }
        }
        return (summaries, errors)
    }
}
