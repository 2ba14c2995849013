import ArgumentParser
import CacheKit
import Foundation

enum PrometheusText {
    /// A label value: backslash, double quote and newline escaped; bytes that are not UTF-8
    /// replaced (label values are UTF-8).
    static func label(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }

    static func label(_ path: RawPath) -> String { label(String(decoding: path.bytes, as: UTF8.self)) }

    /// A family: HELP and TYPE lines, then its samples (`name{labels} value`).
    static func family(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: String)])
        -> String
    {
        guard !samples.isEmpty else { return "" }
        var text = "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        for sample in samples {
            text += "\(name)\(sample.labels.isEmpty ? "" : "{\(sample.labels)}") \(sample.value)\n"
        }
        return text
    }

    static func seconds(_ time: Double) -> String { String(format: "%.3f", time) }

    // MARK: du

    /// Every cache du listed, by state (recognised formats) or as state "unknown" (a folder
    /// whose entries it cannot judge); entries per state; the run's time.
    static func du(_ report: DiskUsageReport, summaries: [RawPath: CacheStateSummary], apparent: Bool, now: Double)
        -> String
    {
        var bytes: [(String, String)] = []
        var entries: [(String, String)] = []
        var seen = Set<String>()
        for root in report.roots where root.isShown {
            for cache in root.caches where seen.insert(label(cache.path)).inserted {
                let path = label(cache.path)
                if let summary = summaries[cache.path] {
                    for (state, totals) in summary.states.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                        let labels =
                            "cache=\"\(path)\",format=\"\(summary.format.rawValue)\",state=\"\(state.rawValue)\""
                        bytes.append((labels, String(totals.allocatedBytes)))
                        entries.append((labels, String(totals.count)))
                    }
                } else {
                    let size = apparent ? cache.totals.apparentBytes : cache.totals.allocatedBytes
                    bytes.append(("cache=\"\(path)\",format=\"unknown\",state=\"unknown\"", String(size)))
                }
            }
        }
        var rootBytes: [(String, String)] = []
        for root in report.roots where root.isShown {
            rootBytes.append(
                (
                    "root=\"\(label(root.path))\"",
                    String(apparent ? root.totals.apparentBytes : root.totals.allocatedBytes)
                ))
        }
        return family(
            "cachectl_cache_bytes", "gauge",
            "Allocated bytes of a cache's entries, by state (unknown: a folder whose entries cachectl cannot judge).",
            bytes)
            + family("cachectl_cache_entries", "gauge", "Entries of a recognised cache, by state.", entries)
            + family("cachectl_root_bytes", "gauge", "Allocated bytes under each root cachectl du measured.", rootBytes)
            + family(
                "cachectl_du_last_run_timestamp_seconds", "gauge",
                "When cachectl du last ran (seconds since the epoch).", [("", seconds(now))])
            + family(
                "cachectl_du_last_run_success", "gauge", "1 when the last cachectl du read everything, else 0.",
                [("", report.issues.isEmpty ? "1" : "0")])
    }

    // MARK: prune

    /// Counters carried on from the previous file (a textfile is the counter's only memory):
    /// `name{labels}` → value.
    static func previousCounters(_ text: String?) -> [String: Double] {
        var values: [String: Double] = [:]
        for line in (text ?? "").split(separator: "\n") where !line.hasPrefix("#") && line.contains("_total") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]),
                value.isFinite, value >= 0
            else { continue }
            values[String(line[..<space])] = value
        }
        return values
    }

    /// Bytes and entries freed per cache and reason (counters, added to the previous file's),
    /// what each cache holds after the run, and the run's time and success.
    static func prune(_ reports: [PruneReport], failed: Bool, previous: String?, now: Double) -> String {
        var counters = previousCounters(previous)
        var remaining: [(String, String)] = []
        for report in reports {
            let path = label(report.root)
            var freed: Int64 = 0
            for (reason, totals) in report.outcome?.removed.totalsByReason ?? [:] {
                freed = freed.saturatingPlus(totals.bytes)
                let key = "cachectl_prune_deleted_entries_total{cache=\"\(path)\",reason=\"\(reason.rawValue)\"}"
                counters[key, default: 0] += Double(totals.count)
            }
            counters["cachectl_prune_freed_bytes_total{cache=\"\(path)\"}", default: 0] += Double(freed)
            counters["cachectl_prune_runs_total{cache=\"\(path)\"}", default: 0] += 1
            remaining.append(
                (
                    "cache=\"\(path)\",format=\"\(report.format.rawValue)\"",
                    String(report.plan.bytesBefore.saturatingMinus(freed))
                ))
        }
        func samples(_ name: String) -> [(String, String)] {
            counters.filter { $0.key.hasPrefix(name + "{") }.sorted { $0.key < $1.key }.map { entry in
                let labels = String(entry.key.dropFirst(name.count + 1).dropLast())
                return (labels, String(Int64(saturating: entry.value)))
            }
        }
        return family(
            "cachectl_prune_freed_bytes_total", "counter", "Allocated bytes freed by cachectl prune.",
            samples("cachectl_prune_freed_bytes_total"))
            + family(
                "cachectl_prune_deleted_entries_total", "counter", "Entries deleted by cachectl prune, by reason.",
                samples("cachectl_prune_deleted_entries_total"))
            + family(
                "cachectl_prune_runs_total", "counter", "Runs of cachectl prune per cache.",
                samples("cachectl_prune_runs_total"))
            + family(
                "cachectl_prune_remaining_bytes", "gauge", "Allocated bytes of a cache's entries after the last prune.",
                remaining)
            + family(
                "cachectl_prune_last_run_timestamp_seconds", "gauge",
                "When cachectl prune last ran (seconds since the epoch).", [("", seconds(now))])
            + family(
                "cachectl_prune_last_run_success", "gauge",
                "1 when the last cachectl prune deleted all it planned to, else 0.", [("", failed ? "0" : "1")])
    }

    // MARK: Writing

    /// Writes `text` as `<directory>/cachectl_<command>.prom`, atomically; without a
    /// directory, to stdout.
    static func emit(_ text: String, command: String, directory: String?) throws {
        guard let directory else {
            Output.write(text)
            return
        }
        let path = RawArguments.paths([directory])[0].appending(MetricsOptions.fileName(command))
        do {
            try FileIO.writeAtomically(path, Array(text.utf8), mode: 0o644)
        } catch let error as StoreError {
            Diagnostics.error(error)
            throw ExitStatus.failure
        }
    }

    /// The file a previous run wrote, if any.
    static func previous(command: String, directory: String?) -> String? {
        guard let directory else { return nil }
        let path = RawArguments.paths([directory])[0].appending(MetricsOptions.fileName(command))
        return (try? FileIO.readAll(path)).map { String(decoding: $0, as: UTF8.self) }
    }
}
