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
        subcommands: [Du.self, Prune.self, Localize.self, Fetch.self, Ls.self, Put.self, Cat.self, Rm.self, Clear.self, Unpin.self]
    )
}

/// The process entry: parse, run, and map every outcome to a documented exit code.
@main
enum EntryPoint {
    static func main() {
        RawArguments.capture()
        do {
            var command = try Cachectl.parseAsRoot()
            try command.run()
        } catch let exit as ExitStatus {
            Output.flush()
            exitProcess(exit.code)
        } catch {
            Output.flush()
            let code = Cachectl.exitCode(for: error)
            if code == .success {
                Cachectl.exit(withError: error) // --help / --version
            }
            // Parse and validation errors are usage errors: exit 2, like du.
            let message = Cachectl.fullMessage(for: error)
            if !message.isEmpty { Output.error(message, prefixed: false) }
            exitProcess(code == .validationFailure ? ExitStatus.usage.code : code.rawValue)
        }
        Output.flush()
    }
}
