/// A file system path kept as the exact bytes the kernel gave or the user typed.
///
/// Names on Linux are arbitrary bytes other than `/` and NUL: they need not be valid UTF-8
/// and may contain newlines. `RawPath` never loses a byte; `description` is the lossy form
/// for people, `bytes` the form for output that must round-trip.
public struct RawPath: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The path's bytes, without a terminating NUL.
    public var bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }
    public init(_ string: String) { self.bytes = Array(string.utf8) }
    public init(stringLiteral value: String) { self.init(value) }

    /// The path decoded as UTF-8, invalid sequences replaced by U+FFFD.
    public var description: String { String(decoding: bytes, as: UTF8.self) }

    /// `self` joined with `name` the way fts does: no doubled `/` after a trailing slash.
    public func appending(_ name: [UInt8]) -> RawPath {
        var out = bytes
        if out.last != UInt8(ascii: "/") { out.append(UInt8(ascii: "/")) }
        out.append(contentsOf: name)
        return RawPath(bytes: out)
    }

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

    /// Calls `body` with a NUL-terminated C string of the path.
    public func withCString<R>(_ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        var terminated = bytes
        terminated.append(0)
        return try terminated.withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    /// The path for a message to a person: quoted with `'…'` as coreutils does, control
    /// characters and bytes that are not UTF-8 shown as `\xNN` escapes so a hostile name
    /// cannot drive the terminal.
    public var quoted: String {
        var out = "'"
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                if byte < 0x20 || byte == 0x7F {
                    out += "\\x" + hex(byte)
                } else if byte == UInt8(ascii: "'") {
                    out += "'\\''"
                } else {
                    out.unicodeScalars.append(Unicode.Scalar(byte))
                }
                index += 1
                continue
            }
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
            if index + length <= bytes.count,
               let text = String(validating: bytes[index..<index + length], as: UTF8.self) {
                out += text
                index += length
            } else {
                out += "\\x" + hex(byte)
                index += 1
            }
        }
        return out + "'"
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension RawPath {
    /// Whether something (anything, a dangling symlink included) exists at this path.
    public var exists: Bool {
        if case .success = Sys.lstat(path: self) { return true }
        return false
    }
}

extension RawPath {
    /// The directory holding this path (`.` for a bare name, `/` for a top-level entry).
    public var parentDirectory: RawPath {
        var trimmed = bytes
        while trimmed.count > 1, trimmed.last == UInt8(ascii: "/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: UInt8(ascii: "/")) else { return RawPath(".") }
        return slash == 0 ? RawPath("/") : RawPath(bytes: Array(trimmed[..<slash]))
    }
}
