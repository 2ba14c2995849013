#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file system path kept as the exact bytes the kernel gave or the user typed.
///
/// Names on Linux are arbitrary bytes other than `/` and NUL: they need not be valid UTF-8
/// and may contain newlines. `RawPath` never loses a byte; `description` is the lossy form
/// for code that needs a `String`, `quoted` and `escaped` the forms for people, `bytes` the
/// form for output that must round-trip. Paths are compared as bytes, never as strings.
public struct RawPath: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The path's bytes, without a terminating NUL.
    public var bytes: [UInt8]

    /// A path from its bytes, exactly.
    public init(bytes: [UInt8]) { self.bytes = bytes }
    /// A path from text (its UTF-8 bytes).
    public init(_ string: String) { self.bytes = Array(string.utf8) }
    /// A path from a literal (its UTF-8 bytes).
    public init(stringLiteral value: String) { self.init(value) }

    /// The bytes hashed in one call, and compared as memory: the derived hash and equality
    /// took them one at a time (an asset folder finds 18,000 bodies and names by path).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.count)
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    /// Whether two paths are the same bytes.
    public static func == (a: RawPath, b: RawPath) -> Bool {
        a.bytes.count == b.bytes.count
            && a.bytes.withUnsafeBytes { x in
                b.bytes.withUnsafeBytes { y in x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
            }
    }

    /// The path decoded as UTF-8, invalid sequences replaced by U+FFFD. Lossy: never compare
    /// or reopen paths through it.
    public var description: String { String(decoding: bytes, as: UTF8.self) }

    /// `self` joined with `name` the way fts does: no doubled `/` after a trailing slash.
    public func appending(_ name: [UInt8]) -> RawPath {
        var out = bytes
        if out.last != UInt8(ascii: "/") { out.append(UInt8(ascii: "/")) }
        out.append(contentsOf: name)
        return RawPath(bytes: out)
    }

    /// This path with `name` (UTF-8) as a further component.
    public func appending(_ name: String) -> RawPath { appending(Array(name.utf8)) }

    /// The last component (the whole path when it has no `/`).
    public var lastComponent: [UInt8] {
        var trimmed = bytes[...]
        while trimmed.count > 1, trimmed.last == UInt8(ascii: "/") { trimmed = trimmed.dropLast() }
        if let slash = trimmed.lastIndex(of: UInt8(ascii: "/")), slash != trimmed.index(before: trimmed.endIndex) {
            return Array(trimmed[trimmed.index(after: slash)...])
        }
        return Array(trimmed)
    }

    /// The directory holding this path (`.` for a bare name, `/` for a top-level entry).
    public var parentDirectory: RawPath {
        var trimmed = bytes
        while trimmed.count > 1, trimmed.last == UInt8(ascii: "/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: UInt8(ascii: "/")) else { return RawPath(".") }
        return slash == 0 ? RawPath("/") : RawPath(bytes: Array(trimmed[..<slash]))
    }

    /// Whether `self` is `directory` or lies below it, comparing bytes (both should be
    /// canonical: no `.`, `..` or doubled slashes).
    public func isInside(_ directory: RawPath) -> Bool {
        if self == directory { return true }
        let prefix = directory.bytes.last == UInt8(ascii: "/") ? directory.bytes : directory.bytes + [UInt8(ascii: "/")]
        return bytes.starts(with: prefix)
    }

    /// The part of `self` below `directory` (no leading slash), nil when `self` is not
    /// strictly below it.
    public func relative(to directory: RawPath) -> [UInt8]? {
        let prefix = directory.bytes.last == UInt8(ascii: "/") ? directory.bytes : directory.bytes + [UInt8(ascii: "/")]
        guard bytes.count > prefix.count, bytes.starts(with: prefix) else { return nil }
        return Array(bytes[prefix.count...])
    }

    /// Calls `body` with a NUL-terminated C string of the path.
    public func withCString<R>(_ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        try bytes.withCString(body)
    }

    /// The path for a message to a person: quoted with `'…'` as coreutils does, control
    /// characters and bytes that are not UTF-8 shown as `\xNN` escapes so a hostile name
    /// cannot drive the terminal.
    public var quoted: String {
        "'" + TerminalText.escape(bytes, quote: UInt8(ascii: "'")) + "'"
    }

    /// The path for a column of text output: unquoted, with the same `\xNN` escapes as
    /// `quoted` (control characters, C1 controls, bytes that are not UTF-8).
    public var escaped: String { TerminalText.escape(bytes, quote: nil) }
}

extension Array where Element == UInt8 {
    /// Calls `body` with the bytes as a NUL-terminated C string.
    public func withCString<R>(_ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        try withUnsafeTemporaryAllocation(of: CChar.self, capacity: count + 1) { buffer in
            for (i, byte) in enumerated() { buffer[i] = CChar(bitPattern: byte) }
            buffer[count] = 0
            return try body(UnsafePointer(buffer.baseAddress!))
        }
    }
}
