import ArgumentParser
import CacheKit

/// Options several subcommands share, declared once.
struct OutputOptions: ParsableArguments {
    @Flag(name: .long, help: "Print one JSON object on stdout instead of text.")
    var json = false
}
