import ArgumentParser
import CacheKit

/// The root command. Subcommands live in `Subcommands/`, one per file.
struct Cachectl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cachectl",
        abstract: "Measure, understand and prune cache directories.",
        discussion: """
            Exit status: 0 success; 1 a path could not be read or an operation failed \
            (each problem is reported on stderr); 2 usage error.
            """,
        version: "0.1.0",
        subcommands: [
            Du.self, Prune.self, Localize.self, Fetch.self, Ls.self, Put.self, Cat.self, Rm.self, Clear.self,
            Unpin.self, Schedule.self, Config.self
        ],
        // `-h` is du's and ls's human-readable sizes in every subcommand; help is --help.
        helpNames: [.long]
    )
}
