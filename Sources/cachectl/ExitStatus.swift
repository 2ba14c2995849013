import CacheKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The documented exit codes. Thrown by subcommands; mapped to the process status in main.
struct ExitStatus: Error {
    let code: Int32
    /// Some paths could not be read or some operations failed; each was reported.
    static let failure = ExitStatus(code: 1)
    /// Bad options or arguments.
    static let usage = ExitStatus(code: 2)
    /// Stopped by Ctrl-C (SIGINT) after cleaning up, as shells report a process it killed.
    static let interrupted = ExitStatus(code: 130)
}

/// Ends the process with `code` (ArgumentParser's `exit` would be ambiguous here).
func exitProcess(_ code: Int32) -> Never { exit(code) }
