import CacheKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
