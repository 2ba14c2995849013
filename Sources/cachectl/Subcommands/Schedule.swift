import ArgumentParser
import CacheKit

/// `cachectl schedule`: a systemd user timer and service that run `cachectl prune` by
/// themselves.
struct Schedule: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schedule",
        abstract: "Write a systemd user timer and service that run cachectl prune regularly.",
        discussion: """
            Writes cachectl-prune.service and cachectl-prune.timer into \
            $XDG_CONFIG_HOME/systemd/user (else ~/.config/systemd/user), or prints them with \
            --print. The service runs this cachectl binary's prune with the arguments given \
            after --, which are checked first; it runs at the lowest CPU and I/O priority. \
            Then: systemctl --user daemon-reload && systemctl --user enable --now \
            cachectl-prune.timer. Without systemd, a crontab line does the same (see README).
            """
    )

    enum Period: String, EnumerableFlag {
        case hourly, daily, weekly, monthly
        static func help(for value: Period) -> ArgumentHelp? {
            "Run \(value.rawValue) (systemd's OnCalendar=\(value.rawValue))."
        }
    }

    @Flag(exclusivity: .exclusive) var period: Period = .daily

    @Flag(name: .long, help: "Print the two units on stdout instead of writing them.")
    var print = false

    @Option(
        name: .customLong("unit-dir"), help: ArgumentHelp("Write the units here instead.", valueName: "dir"),
        completion: .directory)
    var unitDirectory: String?

    @Argument(
        parsing: .postTerminator, help: "Arguments for cachectl prune (after --), e.g. -- ~/.cache/pip --max-size 2G.")
    var pruneArguments: [String] = []

    func validate() throws {
        let parsed: Prune
        do {
            parsed = try Prune.parse(pruneArguments)
        } catch {
            throw ValidationError("the prune arguments do not parse: " + Prune.message(for: error))
        }
        // The service runs elsewhere, and systemd expands no `~`.
        if let relative = parsed.roots.first(where: { !$0.hasPrefix("/") }) {
            throw ValidationError(
                "'\(relative)': give caches as absolute paths (the timer's service does not run in this directory).")
        }
        if pruneArguments.contains("--dry-run") {
            throw ValidationError("a scheduled prune with --dry-run would never prune.")
        }
    }

    func run() throws {
        let units = Self.units(executable: Self.executablePath(), pruneArguments: pruneArguments, period: period)
        if print {
            Output.write("# cachectl-prune.service\n" + units.service + "\n# cachectl-prune.timer\n" + units.timer)
            return
        }
        let directory = unitDirectory.map { RawArguments.paths([$0])[0] } ?? Self.defaultUnitDirectory()
        do {
            try FileIO.makeDirectories(directory)
            try FileIO.writeAtomically(
                directory.appending("cachectl-prune.service"), Array(units.service.utf8), mode: 0o644)
            try FileIO.writeAtomically(
                directory.appending("cachectl-prune.timer"), Array(units.timer.utf8), mode: 0o644)
        } catch let error as StoreError {
            Diagnostics.error(error)
            throw ExitStatus.failure
        }
        Diagnostics.note(
            """
            wrote \(directory.appending("cachectl-prune.service").quoted) and \
            \(directory.appending("cachectl-prune.timer").quoted)
            """
        )
        Diagnostics.note(
            "enable with: systemctl --user daemon-reload && systemctl --user enable --now cachectl-prune.timer")
    }

    /// The service and timer texts.
    static func units(executable: String, pruneArguments: [String], period: Period) -> (service: String, timer: String)
    {
        let command = ([executable, "prune"] + pruneArguments).map(quoted).joined(separator: " ")
        let service = """
            [Unit]
            Description=Prune caches with cachectl

            [Service]
            Type=oneshot
            ExecStart=\(command)
            Nice=19
            IOSchedulingClass=idle

            """
        let timer = """
            [Unit]
            Description=Run cachectl prune \(period.rawValue)

            [Timer]
            OnCalendar=\(period.rawValue)
            Persistent=true
            RandomizedDelaySec=\(period == .hourly ? "5min" : "1h")

            [Install]
            WantedBy=timers.target

            """
        return (service, timer)
    }

    /// One argument of an ExecStart= line (systemd.service, "Command lines"): in double
    /// quotes, with backslash, quote and newline escaped, `%` (specifiers) and `$`
    /// (variables) doubled.
    static func quoted(_ argument: String) -> String {
        var out = "\""
        for character in argument {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "%": out += "%%"
            case "$": out += "$$"
            default: out.append(character)
            }
        }
        return out + "\""
    }

    /// $XDG_CONFIG_HOME/systemd/user, else ~/.config/systemd/user.
    static func defaultUnitDirectory() -> RawPath {
        if let config = Sys.environment("XDG_CONFIG_HOME"), config.hasPrefix("/") {
            return RawPath(config).appending("systemd/user")
        }
        return RawPath(Sys.environment("HOME") ?? "/").appending(".config/systemd/user")
    }

    /// This binary's absolute path (/proc/self/exe; else argv[0] made absolute or found on PATH).
    static func executablePath() -> String {
        if case .success(let target) = Sys.readlink(RawPath("/proc/self/exe")) {
            return String(decoding: target, as: UTF8.self)
        }
        let argv0 = String(decoding: Sys.processArguments.first ?? Array("cachectl".utf8), as: UTF8.self)
        if argv0.hasPrefix("/") { return argv0 }
        if argv0.contains("/") { return RawPath(".").canonical.appending(argv0).description }
        for directory in (Sys.environment("PATH") ?? "").split(separator: ":") {
            let candidate = RawPath(String(directory)).appending(argv0)
            if case .success(let st) = Sys.stat(path: candidate), st.isRegular, st.mode & 0o111 != 0 {
                return candidate.canonical.description
            }
        }
        return argv0
    }
}
