import CacheKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
