import CacheKit

/// The one sink for what a command tells the user on stderr (swift-format's
/// `DiagnosticsEngine` is the model): an **error** is printed as `cachectl: …` and recorded, so
/// the process exits 1 once the command has done all it could (every problem reported, not
/// only the first); a **note** is printed and records nothing (summaries, what was kept, a
/// wait). Commands never keep failure flags of their own; the entry point asks `failed`.
enum Diagnostics {
    private static let errors = Locked(0)

    /// Prints `message` and records a failure (exit status 1).
    static func error(_ message: String) {
        errors.withLock { $0 += 1 }
        Output.error(message)
    }

    /// Prints the error's one-line description and records a failure (exit status 1).
    static func error(_ error: StoreError) { self.error(error.description) }

    /// Prints the lines of `text` as they are (a configuration file's own `path:line:` messages)
    /// and records a failure.
    static func errorLines(_ text: String) {
        errors.withLock { $0 += 1 }
        Output.error(text, prefixed: false)
    }

    /// Prints `message`; not a failure.
    static func note(_ message: String) { Output.error(message) }

    /// Whether any error was reported.
    static var failed: Bool { errors.withLock { $0 > 0 } }

    /// Runs a store operation; its error is reported and ends the command (exit status 1).
    static func reporting<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as StoreError {
            self.error(error)
            throw ExitStatus.failure
        }
    }
}
