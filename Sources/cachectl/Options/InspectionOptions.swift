import ArgumentParser
import CacheKit

/// How entries' states are decided.
struct InspectionOptions: ParsableArguments {
    @Option(
        name: .long, parsing: .unconditional,
        help: "Leave incomplete and orphan items younger than this alone (a systemd time span; default: 1h).",
        transform: TimeSpan.parse)
    var grace: TimeSpan = TimeSpan(seconds: 3600, text: "1h")

    @Flag(name: .long, help: "Rehash bodies against the checksums the index recorded.")
    var verify = false

    @OptionGroup var format: FormatOption

    var context: InspectionContext { InspectionContext(graceSeconds: grace.seconds, verify: verify) }
    var kind: CacheFormatKind? { format.kind }
}
