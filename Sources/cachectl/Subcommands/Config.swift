import ArgumentParser
import CacheKit

/// `cachectl config`: the prune configuration files.
struct Config: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Check the prune configuration files.",
        subcommands: [Check.self]
    )

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract:
                "Check configuration files: syntax, keys and values, with line numbers; list what each table names.",
            discussion: """
                Without FILE, checks /etc/cachectl/config.toml and $XDG_CONFIG_HOME/cachectl/config.toml \
                (else ~/.config/cachectl/config.toml), those that exist. Exit status 0 when every file \
                is valid, 1 otherwise (each problem printed as FILE:LINE: message).
                """
        )

        @Argument(help: "Configuration files.", completion: .file()) var files: [String] = []

        func run() throws {
            let paths = files.isEmpty ? PruneConfiguration.defaultFiles() : RawArguments.paths(files)
            if paths.isEmpty {
                Diagnostics.error(
                    """
                    no configuration file: /etc/cachectl/config.toml and $XDG_CONFIG_HOME/cachectl/config.toml do \
                    not exist
                    """
                )
                throw ExitStatus.failure
            }
            let home = Sys.environment("HOME") ?? "/"
            for path in paths {
                switch PruneConfiguration.load(path) {
                case .failure(let problems):
                    for problem in problems.all { Diagnostics.errorLines(problem.description) }
                case .success(let configuration):
                    Output.write(
                        """
                        \(path.description): valid, \(configuration.policies.count) \
                        table\(configuration.policies.count == 1 ? "" : "s")\n
                        """
                    )
                    for policy in configuration.policies {
                        let roots = policy.roots(home: home)
                        var rules: [String] = []
                        if let size = policy.rules.maxSize { rules.append("max-size \(ByteCount.human(size))") }
                        if let age = policy.rules.maxAge { rules.append("max-age \(Int64(saturating: age))s") }
                        if let ratio = policy.rules.trimTo { rules.append("trim-to \(ratio)") }
                        if let format = policy.format { rules.append("format \(format.rawValue)") }
                        if let grace = policy.graceSeconds { rules.append("grace \(Int64(saturating: grace))s") }
                        Output.write(
                            "  [\(policy.pattern)] line \(policy.line): \(rules.joined(separator: ", ")); "
                                + (roots.isEmpty
                                    ? "no such directory yet"
                                    : "\(roots.count) director\(roots.count == 1 ? "y" : "ies")") + "\n")
                    }
                }
            }
            Output.flush()
        }
    }
}
