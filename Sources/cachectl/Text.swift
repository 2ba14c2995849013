import CacheKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Text from files, URLs and indexes, made safe for a terminal (`TerminalText`).
enum Text {
    static func show(_ text: String) -> String { TerminalText.escape(text) }
}
