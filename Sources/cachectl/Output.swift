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

/// Text from files, URLs and indexes, made safe for a terminal (`TerminalText`).
enum Text {
    static func show(_ text: String) -> String { TerminalText.escape(text) }
}

/// Everything the user sees goes through here: buffered stdout, immediate stderr.
enum Output {
    // nonisolated(unsafe): stdout is written by the command's own thread only (progress
    // lines go to stderr, unbuffered).
    nonisolated(unsafe) private static var buffer: [UInt8] = []

    static func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count > 1 << 16 { flush() }
    }
    static func write(bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count > 1 << 16 { flush() }
    }
    /// Large output straight to stdout (after what is buffered).
    static func write(raw bytes: UnsafeRawBufferPointer) {
        flush()
        writeAll(1, bytes)
    }

    static func flush() {
        buffer.withUnsafeBytes { writeAll(1, $0) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes every byte to `fd` (stops at an error: there is nowhere left to report it).
    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) {
        _ = Sys.writeAll(fd, bytes)
    }

    /// `cachectl: <message>` on stderr, one line per line of the message, each made safe
    /// for a terminal (a file name or URL in it cannot drive it).
    static func error(_ message: String, prefixed: Bool = true) {
        flush()
        let body = message.hasSuffix("\n") ? String(message.dropLast()) : message
        let safe = body.split(separator: "\n", omittingEmptySubsequences: false).map { Text.show(String($0)) }.joined(
            separator: "\n")
        stderr((prefixed ? "cachectl: " : "") + safe + "\n")
    }

    static func stderr(_ text: String) {
        Array(text.utf8).withUnsafeBytes { writeAll(2, $0) }
    }

    static var stdoutIsTerminal: Bool { isatty(1) == 1 }
    static var stderrIsTerminal: Bool { isatty(2) == 1 }
}

/// The exact bytes of argv, so paths that are not UTF-8 survive argument parsing.
enum RawArguments {
    // nonisolated(unsafe): written once by `capture` before parsing, only read afterwards.
    nonisolated(unsafe) private static var raw: [[UInt8]] = []

    static func capture() {
        raw = Array(Sys.processArguments.dropFirst())
    }

    /// The arguments as text (lossy), for reading flags' order.
    static var strings: [String] { raw.map { String(decoding: $0, as: UTF8.self) } }

    /// The raw bytes behind parsed strings: each one is matched, in order, to the argv
    /// element that decodes to it (lossy decoding is what the parser saw).
    static func paths(_ parsed: [String]) -> [RawPath] {
        var cursor = 0
        return parsed.map { string in
            var index = cursor
            while index < raw.count {
                if String(decoding: raw[index], as: UTF8.self) == string {
                    cursor = index + 1
                    return RawPath(bytes: raw[index])
                }
                index += 1
            }
            return RawPath(string)
        }
    }
}

/// Dates for tables (UTC day) and JSON (ISO 8601, UTC).
enum DateText {
    /// The UTC day; a time `gmtime` cannot express (a year beyond its range) is printed as
    /// its raw seconds since the epoch, as du --time does.
    static func day(_ time: FileTime?) -> String {
        guard let time else { return "-" }
        guard let parts = civil(time.seconds) else { return String(time.seconds) }
        return "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))"
    }

    /// Local day and minute as du --time prints them (`2026-11-23 14:05`, the TZ's time);
    /// raw seconds when the time cannot be expressed.
    static func localMinute(_ time: FileTime?) -> String {
        guard let time else { return "-" }
        var t = time_t(time.seconds)
        var parts = tm()
        guard localtime_r(&t, &parts) != nil else { return String(time.seconds) }
        return "\(pad(Int(parts.tm_year) + 1900, 4))-\(pad(Int(parts.tm_mon) + 1, 2))-\(pad(Int(parts.tm_mday), 2)) "
            + "\(pad(Int(parts.tm_hour), 2)):\(pad(Int(parts.tm_min), 2))"
    }

    /// The UTC day and minute (`2026-11-23 14:05`), for times close to now.
    static func minute(_ time: FileTime?) -> String {
        guard let time else { return "-" }
        guard let parts = civil(time.seconds) else { return String(time.seconds) }
        return
            "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2)) \(pad(parts.hour, 2)):\(pad(parts.minute, 2))"
    }

    /// ISO 8601 in UTC; raw seconds (a number in a string) when `gmtime` cannot express it.
    static func iso8601(_ time: FileTime) -> String {
        // ISO 8601 has four-digit years; beyond, the seconds say it plainly.
        guard let parts = civil(time.seconds), (0...9999).contains(parts.year) else { return String(time.seconds) }
        return
            "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))T\(pad(parts.hour, 2)):\(pad(parts.minute, 2)):\(pad(parts.second, 2))Z"
    }

    private static func civil(_ seconds: Int64) -> (
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    )? {
        var t = time_t(seconds)
        var parts = tm()
        guard gmtime_r(&t, &parts) != nil else { return nil }
        return (
            Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min),
            Int(parts.tm_sec)
        )
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}

/// Counts in words: `1 entry`, `3,402 entries`.
enum Count {
    static func of(_ n: Int, _ one: String, _ many: String) -> String {
        grouped(n) + " " + (n == 1 ? one : many)
    }

    /// Thousands separated by commas (`3,402`).
    static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }
}
