import Foundation

/// Resolving references and writing local ones, as browsers read them.
enum URLText {
    struct Resolved {
        /// The absolute URL, fragment included.
        var absolute: String
        /// Without the fragment: what caches are keyed by.
        var withoutFragment: String
        var fragment: String?
    }

    static let unfetchableSchemes: Set<String> = ["data", "blob", "javascript", "about", "mailto", "tel"]

    /// Resolves `reference` against `base` the way the URL Standard does for the common
    /// cases (`//host/…` takes the base's scheme; tabs and newlines removed, spaces and
    /// non-ASCII percent-encoded). Nil for `data:`, `blob:`, `javascript:`, `about:`,
    /// fragment-only and empty references, unless `keepUnfetchable` (then only nil when
    /// unparseable).
    static func resolve(_ reference: String, against base: URL, keepUnfetchable: Bool = false) -> Resolved? {
        resolve(reference, against: Base(base), keepUnfetchable: keepUnfetchable)
    }

    /// A base URL, with the parts the byte-level resolver joins references to when the base
    /// is a plain `http(s)://host/path` URL. (Immutable, and a class: tens of thousands of
    /// resolutions pass it on, each a single retain rather than one per part.)
    final class Base: @unchecked Sendable {
        let url: URL
        /// `http` or `https`; nil when the base is not plain (then Foundation resolves).
        let scheme: String?
        /// `scheme://authority`
        let origin: String
        /// The path up to and including its last `/`, after the origin.
        let directory: String
        /// The path without the query, after the origin.
        let path: String

        init(_ url: URL) {
            self.url = url
            let text = url.absoluteString
            let bytes = Array(text.utf8)
            func plain() -> (String, String, String, String)? {
                let scheme: String
                if bytes.starts(with: "http://".utf8) { scheme = "http" } else if bytes.starts(with: "https://".utf8) { scheme = "https" } else { return nil }
                let hostStart = scheme.utf8.count + 3
                guard let slash = bytes[hostStart...].firstIndex(of: UInt8(ascii: "/")), slash > hostStart else { return nil }
                let authority = bytes[hostStart..<slash]
                guard authority.allSatisfy({ StartTagScanner.isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".")
                        || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ":") }) else { return nil }
                let pathEnd = bytes[slash...].firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.count
                let path = bytes[slash..<pathEnd]
                guard path.allSatisfy({ URLText.isPlainReferenceByte($0) && $0 != UInt8(ascii: "%") }),
                      !URLText.hasDotSegment(path) else { return nil }
                let lastSlash = path.lastIndex(of: UInt8(ascii: "/"))!
                return (scheme, String(decoding: bytes[..<slash], as: UTF8.self),
                        String(decoding: bytes[slash...lastSlash], as: UTF8.self), String(decoding: path, as: UTF8.self))
            }
            if let (scheme, origin, directory, path) = plain() {
                (self.scheme, self.origin, self.directory, self.path) = (scheme, origin, directory, path)
            } else {
                (self.scheme, self.origin, self.directory, self.path) = (nil, "", "", "")
            }
        }
    }

    /// Bytes a reference may hold for the byte-level resolver (RFC 3986 path, query and
    /// fragment characters, `%` for `%XX`); anything else goes through Foundation.
    @inline(__always) static func isPlainReferenceByte(_ c: UInt8) -> Bool { plainReferenceBytes.contains(c) }
    private static let plainReferenceBytes = ByteSet("-._~!$&'()*+,;=:@/?%", ranges: ByteSet.alphanumerics)

    /// Whether a path has a `.` or `..` segment (which resolution would remove).
    static func hasDotSegment(_ path: some Collection<UInt8>) -> Bool {
        var segmentLength = 0, dots = 0
        for c in path {
            if c == UInt8(ascii: "/") {
                if segmentLength > 0 && dots == segmentLength && dots <= 2 { return true }
                segmentLength = 0
                dots = 0
            } else {
                segmentLength += 1
                if c == UInt8(ascii: ".") { dots += 1 }
            }
        }
        return segmentLength > 0 && dots == segmentLength && dots <= 2
    }

    /// The byte-level resolver: the absolute URL for a plain reference against a plain base,
    /// or nil to let Foundation decide (anything unusual: dot segments, schemes other than
    /// lower-case http(s), `%` not followed by two hex digits, characters needing encoding).
    /// Gives exactly what Foundation gives for the references it takes (a test compares
    /// the two on generated references).
    static func resolvePlain(_ text: String, against base: Base) -> String? {
        guard let baseScheme = base.scheme else { return nil }
        return text.withBytes { resolvePlain($0, text, against: base, scheme: baseScheme) }
    }

    private static func resolvePlain(_ utf8: UnsafeBufferPointer<UInt8>, _ text: String, against base: Base, scheme baseScheme: String) -> String? {
        guard let first = utf8.first, first != UInt8(ascii: "#") else { return nil }
        var pendingHex = 0
        var hashes = 0
        var inPath = true
        var segmentLength = 0, dots = 0, dotSegment = false
        var colonBeforeSlash = false, sawSlash = false
        for c in utf8 {
            if pendingHex > 0 {
                guard (c >= 0x30 && c <= 0x39) || (c | 0x20 >= 0x61 && c | 0x20 <= 0x66) else { return nil }
                pendingHex -= 1
                segmentLength += 1
                continue
            }
            if c == UInt8(ascii: "#") {
                hashes += 1
                guard hashes == 1 else { return nil }
            } else if !isPlainReferenceByte(c) {
                return nil
            }
            if c == UInt8(ascii: "%") { pendingHex = 2 }
            if inPath {
                if c == UInt8(ascii: "?") || c == UInt8(ascii: "#") {
                    inPath = false
                    if segmentLength > 0 && dots == segmentLength && dots <= 2 { dotSegment = true }
                } else if c == UInt8(ascii: "/") {
                    if segmentLength > 0 && dots == segmentLength && dots <= 2 { dotSegment = true }
                    segmentLength = 0
                    dots = 0
                    sawSlash = true
                } else {
                    if c == UInt8(ascii: ":") && !sawSlash { colonBeforeSlash = true }
                    segmentLength += 1
                    if c == UInt8(ascii: ".") { dots += 1 }
                }
            }
        }
        if inPath && segmentLength > 0 && dots == segmentLength && dots <= 2 { dotSegment = true }
        guard pendingHex == 0, !dotSegment else { return nil }
        if text.hasPrefix("http://") || text.hasPrefix("https://") {
            // Absolute: taken as written when its authority is a plain host.
            let rest = utf8.dropFirst(text.hasPrefix("http://") ? 7 : 8)
            guard let slash = rest.firstIndex(of: UInt8(ascii: "/")), slash > rest.startIndex,
                  rest[..<slash].allSatisfy({ StartTagScanner.isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") })
            else { return nil }
            return text
        }
        if colonBeforeSlash { return nil }
        if first == UInt8(ascii: "/") {
            if utf8.dropFirst().first == UInt8(ascii: "/") {
                // Scheme-relative: the host must be plain.
                let rest = utf8.dropFirst(2)
                guard let slash = rest.firstIndex(of: UInt8(ascii: "/")), slash > rest.startIndex,
                      rest[..<slash].allSatisfy({ StartTagScanner.isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") })
                else { return nil }
                return baseScheme + ":" + text
            }
            return base.origin + text
        }
        if first == UInt8(ascii: "?") { return base.origin + base.path + text }
        return base.origin + base.directory + text
    }

    static func resolve(_ reference: String, against base: Base, keepUnfetchable: Bool = false) -> Resolved? {
        if let absolute = resolvePlain(reference, against: base) { return split(absolute) }
        return resolveByFoundation(reference, against: base.url, keepUnfetchable: keepUnfetchable)
    }

    private static func split(_ absolute: String) -> Resolved {
        let parts = absolute.withBytes { bytes -> (String, String)? in
            guard let hash = bytes.firstIndex(of: UInt8(ascii: "#")) else { return nil }
            return (String(decoding: bytes[..<hash], as: UTF8.self), String(decoding: bytes[(hash + 1)...], as: UTF8.self))
        }
        guard let (withoutFragment, fragment) = parts else { return Resolved(absolute: absolute, withoutFragment: absolute, fragment: nil) }
        return Resolved(absolute: absolute, withoutFragment: withoutFragment, fragment: fragment)
    }

    /// The general resolver, through Foundation's URL.
    static func resolveByFoundation(_ reference: String, against base: URL, keepUnfetchable: Bool = false) -> Resolved? {
        var text = reference
        if text.utf8.contains(where: { $0 <= 0x20 }) {
            text = text.trimmingWhitespace().filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }
        }
        if text.isEmpty { return nil }
        if text.hasPrefix("#") && !keepUnfetchable { return nil }
        if let scheme = scheme(of: text), unfetchableSchemes.contains(scheme), !keepUnfetchable { return nil }
        text = encodeForParsing(text)
        guard let url = URL(string: text, relativeTo: base)?.absoluteURL, let scheme = url.scheme?.lowercased() else { return nil }
        if !keepUnfetchable && unfetchableSchemes.contains(scheme) { return nil }
        return split(url.absoluteString)
    }

    /// A reference with no scheme (relative path, `//host/…`, `?query`, `#fragment`).
    static func isRelative(_ reference: String) -> Bool {
        let text = reference.utf8.contains(where: { $0 <= 0x20 }) ? reference.trimmingWhitespace() : reference
        return !text.isEmpty && scheme(of: text) == nil
    }

    static func scheme(of text: String) -> String? {
        var length = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: ":") { break }
            let letter = StartTagScanner.isLetter(byte)
            guard letter || (length > 0 && ((byte >= 0x30 && byte <= 0x39) || byte == 0x2B || byte == 0x2D || byte == 0x2E)) else { return nil }
            length += 1
        }
        guard length > 0, length < text.utf8.count else { return nil }
        return String(decoding: text.utf8.prefix(length), as: UTF8.self).lowercased()
    }

    private static func encodeForParsing(_ text: String) -> String {
        if !text.utf8.contains(where: { $0 <= 0x20 || $0 >= 0x7F || "\"<>^`{|}\\".utf8.contains($0) }) { return text }
        var out = ""
        for byte in text.replacingOccurrences(of: "\\", with: "/").utf8 {
            if byte <= 0x20 || byte >= 0x7F || "\"<>^`{|}".utf8.contains(byte) {
                out += String(format: "%%%02X", byte)
            } else {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return out
    }

    /// Bytes a local reference keeps as they are: unreserved characters and `!$+;=@:`.
    /// Everything else is percent-encoded (`?`, `#`, `%`, spaces, quotes, `&`, `<`, `>`,
    /// parentheses, commas, non-ASCII), so the text needs no further escaping in an HTML
    /// attribute, a CSS `url(…)` or a srcset candidate: it is written exactly as reported.
    @inline(__always) static func isKept(_ byte: UInt8) -> Bool { keptBytes.contains(byte) }
    private static let keptBytes = ByteSet("-._~!$+;=@:", ranges: ByteSet.alphanumerics)
    /// `isKept` for each byte value, as a table (the hot loop's form).
    private static let keptTable: [Bool] = (0...255).map { keptBytes.contains(UInt8($0)) }

    static func percentEncode(_ bytes: some Collection<UInt8>, alsoKeeping extra: String = "") -> String {
        let also = ByteSet(extra)
        // Most names (a store's hashed ones) need no encoding at all.
        let plain = bytes.withContiguousStorageIfAvailable { buffer in
            keptTable.withUnsafeBufferPointer { kept in buffer.allSatisfy { kept[Int($0)] || also.contains($0) } }
        } ?? bytes.allSatisfy { isKept($0) || also.contains($0) }
        if plain { return String(decoding: bytes, as: UTF8.self) }
        let hex = hexDigits
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount)
        for byte in bytes {
            if isKept(byte) || also.contains(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 15)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// `a + b`, built in one allocation (a plain `+` costs several times as much in the
    /// hot loop that makes tens of thousands of local paths).
    static func joined(_ a: String, _ b: String) -> String {
        a.withBytes { first in
            b.withBytes { second in
                String(unsafeUninitializedCapacity: first.count + second.count) { buffer in
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[..<first.count]).initialize(from: first)
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[first.count...]).initialize(from: second)
                    return first.count + second.count
                }
            }
        }
    }

    /// One path segment of a local reference.
    static func encodeSegment(_ bytes: [UInt8]) -> String { percentEncode(bytes) }
    static func encodeSegment(_ bytes: ArraySlice<UInt8>) -> String { percentEncode(bytes) }

    /// The relative URL from a directory to a file, both absolute, each segment encoded.
    static func relativePath(from directory: RawPath, to file: RawPath) -> String {
        relativePath(from: directory.bytes.split(separator: UInt8(ascii: "/")).map(Array.init), to: file)
    }

    /// The relative URL from a directory to another directory, ending in `/` (or empty when
    /// they are the same): `relativePath(from:to:)` is this plus the encoded file name.
    static func relativePrefix(from: [[UInt8]], toDirectory directory: ArraySlice<UInt8>) -> String {
        let to = directory.split(separator: UInt8(ascii: "/")).map(Array.init)
        var common = 0
        while common < from.count, common < to.count, from[common] == to[common] { common += 1 }
        let ups = Array(repeating: "..", count: from.count - common)
        let downs = to[common...].map(encodeSegment)
        return (ups + downs).map { $0 + "/" }.joined()
    }

    static func relativePath(from: [[UInt8]], to file: RawPath) -> String {
        let to = file.bytes.split(separator: UInt8(ascii: "/")).map(Array.init)
        var common = 0
        while common < from.count, common < to.count - 1, from[common] == to[common] { common += 1 }
        let ups = Array(repeating: "..", count: from.count - common)
        let downs = to[common...].map(encodeSegment)
        return (ups + downs).joined(separator: "/")
    }

    /// A kept `#fragment`: existing `%XX` escapes stay, `/` and `?` stay, and everything
    /// outside the kept set is percent-encoded like the rest of a local reference.
    static func encodeFragment(_ fragment: String) -> String {
        guard !fragment.withBytes({ $0.allSatisfy { isKept($0) || $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } }) else {
            return fragment
        }
        return percentEncode(fragment.utf8, alsoKeeping: "%/?")
    }

    /// `file:///…` with each segment encoded.
    static func fileURL(_ file: RawPath) -> String {
        "file://" + file.bytes.split(separator: UInt8(ascii: "/")).map { "/" + encodeSegment(Array($0)) }.joined()
    }
}

/// Text placed into an attribute value.
enum HTMLText {
    /// Escapes `&` and the value's own quote (for an unquoted value, also whitespace and `>`,
    /// which our URLs never contain).
    static func escape(_ text: String, quote: UInt8?) -> String {
        // & " ' < > as bits of one word (all below 64): one test a byte.
        let special: UInt64 = 1 << 38 | 1 << 34 | 1 << 39 | 1 << 60 | 1 << 62
        if !text.containsByte(where: { $0 < 64 && special >> UInt64($0) & 1 != 0 }) {
            return text
        }
        var out = ""
        for ch in text.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "\"" where quote != UInt8(ascii: "'"): out += "&quot;"
            case "'" where quote == UInt8(ascii: "'"): out += "&#39;"
            case "<" where quote == nil, ">" where quote == nil: out += ch == "<" ? "&lt;" : "&gt;"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out
    }
}

/// Text placed inside `url(…)`.
enum CSSText {
    /// Our URLs are percent-encoded already; parentheses, quotes and spaces are encoded too
    /// so the value works quoted or not.
    static func escapeURL(_ url: String) -> String {
        // ( ) ' " and space as bits of one word (all below 64): one test a byte.
        let special: UInt64 = 1 << 40 | 1 << 41 | 1 << 39 | 1 << 34 | 1 << 32
        if !url.containsByte(where: { $0 < 64 && special >> UInt64($0) & 1 != 0 }) {
            return url
        }
        return url.replacingOccurrences(of: "(", with: "%28").replacingOccurrences(of: ")", with: "%29")
            .replacingOccurrences(of: "'", with: "%27").replacingOccurrences(of: "\"", with: "%22")
            .replacingOccurrences(of: " ", with: "%20")
    }
}

extension Srcset {
    /// A URL fit for a srcset candidate: no whitespace, no leading or trailing comma.
    static func encodeURL(_ url: String) -> String {
        if !url.containsByte(where: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: ",") }) { return url }
        var out = url.replacingOccurrences(of: " ", with: "%20")
        if out.hasPrefix(",") { out = "%2C" + out.dropFirst() }
        if out.hasSuffix(",") { out = out.dropLast() + "%2C" }
        return out
    }
}
