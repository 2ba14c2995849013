import ArgumentParser
import CacheKit
import Foundation

/// `--prometheus` / `--textfile-dir`: what du and prune found, in Prometheus' text exposition
/// format, for node_exporter's textfile collector (one file per command, replaced whole:
/// written beside under a temporary name that does not end in `.prom`, then renamed).
struct MetricsOptions: ParsableArguments {
    @Flag(name: .long, help: "Print Prometheus metrics (node_exporter's textfile format) instead of the report.")
    var prometheus = false

    @Option(
        name: .customLong("textfile-dir"),
        help: ArgumentHelp(
            """
            Write the metrics to DIR/cachectl_<command>.prom, atomically (node_exporter's \
            --collector.textfile.directory); the report still prints.
            """,
            valueName: "dir"),
        completion: .directory)
    var textfileDirectory: String?

    /// Metrics on stdout, in place of the report.
    var onStdout: Bool { prometheus && textfileDirectory == nil }
    var wanted: Bool { prometheus || textfileDirectory != nil }

    /// The file a command writes in a textfile directory.
    static func fileName(_ command: String) -> String { "cachectl_\(command).prom" }
}
