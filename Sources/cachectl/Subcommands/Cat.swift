import ArgumentParser
import CacheKit

/// `cachectl cat URL`: write a cached body to stdout.
struct Cat: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cat",
        abstract: "Write the cached body of a URL to stdout (exit 1 when absent or stale).")

    @Argument(help: "The URL.") var url: String
    @Flag(name: .long, help: "Accept an expired copy.") var allowStale = false
    @OptionGroup var store: StoreOptions

    func run() throws {
        let body = try Diagnostics.reporting {
            try CacheReader.body(url: url, root: store.root, allowStale: allowStale)
        }
        try Diagnostics.reporting { try body.write { Output.write(bytes: Array($0)) } }
        Output.flush()
    }
}
