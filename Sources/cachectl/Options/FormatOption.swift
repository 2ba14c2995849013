import ArgumentParser
import CacheKit

/// `--format F`: the layout to assume instead of detecting it. Typed: the parser checks the
/// value, and help and completions list the choices.
struct FormatOption: ParsableArguments {
    @Option(name: .long, help: "Treat the directory as this format (default: detected).")
    var format: CacheFormatKind?

    var kind: CacheFormatKind? { format }
}
