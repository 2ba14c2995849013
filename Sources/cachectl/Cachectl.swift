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

/// The process entry: parse, run, and map every outcome to a documented exit code.
@main
enum EntryPoint {
    static func main() {
        RawArguments.capture()
        MemoryReturn.largeBlocksToTheSystem()
        do {
            var command = try Cachectl.parseAsRoot(ShortClusters.split(RawArguments.strings))
            try command.run()
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
            if !message.isEmpty { Output.error(message, prefixed: false) }
            exitProcess(code == .validationFailure ? ExitStatus.usage.code : code.rawValue)
        }
        Output.flush()
    }
}

/// du's short-option clusters that end in an option with its value (`-sxB1`, `-sd1`,
/// `-sht1M`), which the argument parser reads only when the option comes first: split into
/// the flags and the option (`-sx`, `-B1`). Only for `du`, only before `--`.
enum ShortClusters {
    static let valueLetters: Set<Character> = ["B", "d", "t"]

    static func split(_ arguments: [String]) -> [String] {
        guard arguments.first == "du" else { return arguments }
        var out: [String] = []
        var ended = false
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" { ended = true }
            // `-t -500K` (du's negative threshold): the value is not an option.
            if !ended, argument == "-t" || argument == "--threshold", index < arguments.count,
                arguments[index].hasPrefix("-"), arguments[index].dropFirst().first?.isNumber == true
            {
                out.append("--threshold=" + arguments[index])
                index += 1
                continue
            }
            guard !ended, argument.hasPrefix("-"), !argument.hasPrefix("--"), argument.count > 2,
                let second = argument.dropFirst().first, !second.isNumber
            else {
                out.append(argument)
                continue
            }
            let letters = Array(argument.dropFirst())
            if let index = letters.indices.dropFirst().first(where: { valueLetters.contains(letters[$0]) }),
                !valueLetters.contains(letters[0])
            {
                out.append("-" + String(letters[..<index]))
                out.append("-" + String(letters[index...]))
            } else {
                out.append(argument)
            }
        }
        return out
    }
}
