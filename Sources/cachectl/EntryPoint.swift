import ArgumentParser
import CacheKit

/// The process entry: parse, run, and map every outcome to a documented exit code.
@main
enum EntryPoint {
    static func main() async {
        RawArguments.capture()
        do {
            var command = try Cachectl.parseAsRoot(ShortClusters.split(RawArguments.strings))
            // Commands that wait for the network (fetch, localize) are async; the rest run here.
            if var asynchronous = command as? AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
            Output.flush()
            if Diagnostics.failed { exitProcess(ExitStatus.failure.code) }
        } catch let exit as ExitStatus {
            Output.flush()
            exitProcess(exit.code)
        } catch {
            Output.flush()
            let code = Cachectl.exitCode(for: error)
            if code == .success {
                let message = Cachectl.fullMessage(for: error)
                if message.contains("USAGE:") {  // --help: the parser's text, then EXAMPLES
                    Output.write(message.hasSuffix("\n") ? message : message + "\n")
                    Output.write("\n" + Examples.section(for: RawArguments.strings))
                    Output.flush()
                    exitProcess(0)
                }
                Cachectl.exit(withError: error)  // --version
            }
            // Parse and validation errors are usage errors: exit 2, like du.
            let message = Cachectl.fullMessage(for: error)
            if !message.isEmpty { Diagnostics.errorLines(message) }
            exitProcess(code == .validationFailure ? ExitStatus.usage.code : code.rawValue)
        }
        Output.flush()
    }
}
