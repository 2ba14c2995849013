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
        let absolute = url.absoluteString
        if let hash = absolute.utf8.firstIndex(of: UInt8(ascii: "#")) {
            return Resolved(absolute: absolute, withoutFragment: String(absolute[..<hash]), fragment: String(absolute[absolute.utf8.index(after: hash)...]))
        }
        return Resolved(absolute: absolute, withoutFragment: absolute, fragment: nil)
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
    static func isKept(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || "-._~!$+;=@:".utf8.contains(byte)
    }

    static func percentEncode(_ bytes: some Sequence<UInt8>, alsoKeeping extra: String = "") -> String {
        var out = ""
        for byte in bytes {
            if isKept(byte) || extra.utf8.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    /// One path segment of a local reference.
    static func encodeSegment(_ bytes: [UInt8]) -> String { percentEncode(bytes) }

    /// The relative URL from a directory to a file, both absolute, each segment encoded.
    static func relativePath(from directory: RawPath, to file: RawPath) -> String {
        relativePath(from: directory.bytes.split(separator: UInt8(ascii: "/")).map(Array.init), to: file)
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
        guard !fragment.utf8.allSatisfy({ isKept($0) || $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }) else {
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
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }) {
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
        if !url.utf8.contains(where: { $0 == UInt8(ascii: "(") || $0 == UInt8(ascii: ")") || $0 == UInt8(ascii: "'") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: " ") }) {
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
        if !url.utf8.contains(where: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: ",") }) { return url }
        var out = url.replacingOccurrences(of: " ", with: "%20")
        if out.hasPrefix(",") { out = "%2C" + out.dropFirst() }
        if out.hasSuffix(",") { out = out.dropLast() + "%2C" }
        return out
    }
}
