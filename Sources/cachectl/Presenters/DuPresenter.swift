import ArgumentParser
import CacheKit

/// Turns a report into text or JSON; no walking, no decisions.
enum DuPresenter {
    static func text(
        _ report: DiskUsageReport, sizes: SizeFormatOptions, apparent: Bool, depth: Bool,
        summaries: [RawPath: CacheStateSummary] = [:], keep: (Int64) -> Bool = { _ in true }
    ) -> String {
        func size(_ t: UsageTotals) -> String { sizes.format(apparent ? t.apparentBytes : t.allocatedBytes) }
        var out = ""
        let shown = report.roots.filter(\.isShown)
        for (index, root) in shown.enumerated() {
            if index > 0 { out += "\n" }
            var table = Table([.right, .right, .left, .left, .right, .left])
            table.add([
                "SIZE", "FILES", "OLDEST", "NEWEST", "STALE",
                depth ? (root.files.isEmpty ? "DIRECTORY" : "PATH") : "CACHE"
            ])
            if depth {
                // Directories (their subtree) and, with -a, files: largest first.
                var rows = root.directories.map { (totals: $0.totals, path: $0.path) }
                rows += root.files.map { (totals: $0.totals, path: $0.path) }
                if !root.files.isEmpty {
                    rows.sort { a, b in
                        let (x, y) =
                            apparent
                            ? (a.totals.apparentBytes, b.totals.apparentBytes)
                            : (a.totals.allocatedBytes, b.totals.allocatedBytes)
                        return x != y ? x > y : a.path.bytes.lexicographicallyPrecedes(b.path.bytes)
                    }
                }
                for row in rows where keep(apparent ? row.totals.apparentBytes : row.totals.allocatedBytes) {
                    table.add([
                        size(row.totals), String(row.totals.files), DateText.day(row.totals.oldestModification),
                        DateText.day(row.totals.newestModification), "-", row.path.escaped
                    ])
                }
            } else if root.isDirectory {
                for cache in root.caches {
                    var label: String
                    switch cache.kind {
                    case .tagged: label = cache.path.escaped + "  [CACHEDIR.TAG]"
                    case .directory, .recognised: label = cache.path.escaped
                    case .rootFiles: label = cache.path.escaped + "  (the directory itself and files directly inside)"
                    }
                    let summary = summaries[cache.path]
                    if let summary { label += "  " + describe(summary, sizes) }
                    table.add([
                        size(cache.totals), String(cache.totals.files), DateText.day(cache.totals.oldestModification),
                        DateText.day(cache.totals.newestModification),
                        summary.map { sizes.format($0.staleBytes) } ?? "-", label
                    ])
                }
            }
            table.add([
                size(root.totals), String(root.totals.files), DateText.day(root.totals.oldestModification),
                DateText.day(root.totals.newestModification),
                summaries.isEmpty ? "-" : sizes.format(summaries.values.reduce(0) { $0 + $1.staleBytes }),
                "total " + root.path.escaped
            ])
            out += table.render()
            if !root.largestFiles.isEmpty {
                var files = Table([.right, .left, .left])
                files.add(["SIZE", "MODIFIED", "LARGEST FILES"])
                for file in root.largestFiles {
                    files.add([
                        sizes.format(apparent ? file.apparentBytes : file.allocatedBytes), DateText.day(file.modified),
                        file.path.escaped
                    ])
                }
                out += "\n" + files.render()
            }
        }
        if shown.count > 1 {
            out += "\n" + size(report.total) + "\ttotal\n"
        }
        return out
    }

    /// A format suggested only by the shape of file names, which prune does not act on.
    static func guessedName(_ format: CacheFormatKind) -> String {
        "\(format.displayName)? (by file names only; prune uses its rules with --format \(format.rawValue))"
    }

    /// `SDWebImage: 120 fresh, 3 expired (1.2M), 1 corrupted (0)`.
    static func describe(_ summary: CacheStateSummary, _ sizes: SizeFormatOptions) -> String {
        let parts = EntryState.allCases.compactMap { state -> String? in
            guard let totals = summary.states[state], totals.count > 0 else { return nil }
            return state == .fresh
                ? "\(totals.count) fresh" : "\(totals.count) \(state.rawValue) (\(sizes.format(totals.allocatedBytes)))"
        }
        let name = summary.guessedByNames ? guessedName(summary.format) : summary.name
        return name + ": " + (parts.isEmpty ? "empty" : parts.joined(separator: ", "))
    }
}
