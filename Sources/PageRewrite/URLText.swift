import CacheKitSystem
import Foundation
import URLStandard

/// Resolving references (by the URL Standard, `StandardURL`) and writing local ones.
enum URLText {
    struct Resolved {
        /// The absolute URL, fragment included: the standard's serialization.
        var absolute: String
        /// Without the fragment: what caches are keyed by.
        var withoutFragment: String
        var fragment: String?
        /// An absolute reference as the page wrote it (trimmed, without its fragment) when
        /// that differs from the serialization: foreign caches key by the string the app
        /// gave (SDWebImage hashes it as it is), so it is looked up first.
        var asWritten: String?

        /// The keys to look a copy up by, in order of preference.
        var lookupKeys: [String] { asWritten.map { [$0, withoutFragment] } ?? [withoutFragment] }
    }

    static let unfetchableSchemes: Set<String> = ["data", "blob", "javascript", "about", "mailto", "tel"]

    /// A base URL for resolving. (Immutable, and a class: tens of thousands of resolutions
    /// pass it on, each a single retain.)
    final class Base: Sendable {
        let url: StandardURL
        /// The page's encoding when it is a legacy one: a reference's query is encoded in it.
        let queryEncoder: StandardURL.QueryEncoder?
        init(_ url: StandardURL, queryEncoder: StandardURL.QueryEncoder? = nil) {
            self.url = url
            self.queryEncoder = queryEncoder
        }
    }

    /// Resolves `reference` against `base` by the URL Standard's basic URL parser. Nil when
    /// it fails to parse, and (unless `keepUnfetchable`) for empty and fragment-only
    /// references and `data:`, `blob:`, `javascript:`, `about:`, `mailto:`, `tel:` URLs.
    /// An absolute URL as a page may be written with: without a password (a page read by a
    /// URL with one resolves its references with it, and a saved page must not keep it).
    static func withoutPassword(_ href: String) -> String {
        guard href.utf8.contains(UInt8(ascii: "@")), let url = StandardURL(href), !url.record.password.isEmpty else {
            return href
        }
        return url.replacingPassword().href
    }

    static func resolve(_ reference: String, against base: Base, keepUnfetchable: Bool = false) -> Resolved? {
        // Only a query with non-ASCII text differs in another encoding.
        let encoder = base.queryEncoder.flatMap { reference.utf8.contains { $0 >= 0x80 } ? $0 : nil }
        return resolve(reference, against: base.url, keepUnfetchable: keepUnfetchable, queryEncoder: encoder)
    }

    static func resolve(
        _ reference: String, against base: StandardURL, keepUnfetchable: Bool = false,
        queryEncoder: StandardURL.QueryEncoder? = nil
    ) -> Resolved? {
        if !keepUnfetchable {
            // An empty reference would resolve to the page itself, a fragment-only one into it.
            guard let first = reference.utf8.first(where: { $0 > 0x20 }), first != UInt8(ascii: "#") else { return nil }
        }
        if queryEncoder == nil,
            let href = base.serializingPathAbsolute(reference) ?? base.serializingPathRelative(reference)
                ?? base.serializingPlainAbsolute(reference)
        {
            // `/path` or `path` on an http(s) page, or an http(s) URL already as the parser writes
            // it: no fragment, and no form of its own to keep.
            return Resolved(absolute: href, withoutFragment: href, fragment: nil, asWritten: nil)
        }
        guard let url = StandardURL(reference, base: base, queryEncoder: queryEncoder) else { return nil }
        if !keepUnfetchable && unfetchableSchemes.contains(url.scheme) { return nil }
        let withoutFragment = url.hrefWithoutFragment
        var asWritten: String?
        let leadingSpace = reference.utf8.first.map { $0 <= 0x20 } ?? false
        if scheme(of: leadingSpace ? reference.trimmingWhitespace() : reference) != nil, reference != url.href,
            reference != withoutFragment
        {
            // Only an absolute reference has a form of its own worth looking up.
            var text = reference.trimmingWhitespace()
            if let hash = text.firstIndex(of: "#") { text = String(text[..<hash]) }
            if text != withoutFragment { asWritten = text }
        }
        return Resolved(
            absolute: url.href, withoutFragment: withoutFragment, fragment: url.fragment, asWritten: asWritten)
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
            guard
                letter
                    || (length > 0 && ((byte >= 0x30 && byte <= 0x39) || byte == 0x2B || byte == 0x2D || byte == 0x2E))
            else { return nil }
            length += 1
        }
        guard length > 0, length < text.utf8.count else { return nil }
        return String(decoding: text.utf8.prefix(length), as: UTF8.self).lowercased()
    }

    /// Bytes a local reference keeps as they are: unreserved characters and `!$+;=@:`.
    /// Everything else is percent-encoded (`?`, `#`, `%`, spaces, quotes, `&`, `<`, `>`,
    /// parentheses, commas, non-ASCII), so the text needs no further escaping in an HTML
    /// attribute, a CSS `url(…)` or a srcset candidate: it is written exactly as reported.
    @inline(__always) static func isKept(_ byte: UInt8) -> Bool { keptBytes.contains(byte) }
    private static let keptBytes = ByteSet("-._~!$+;=@:", ranges: ByteSet.alphanumerics)
    /// Whether `text` holds only kept bytes, `/`, `%` and `#`: what the paths made for local
    /// references are (kept bytes, percent-encoding, separators). Such a text is the same
    /// escaped for an HTML attribute value (`&"'<>`), encoded for a srcset candidate (spaces,
    /// commas) or escaped for a CSS `url(…)` (`()'"` and spaces), so none of those is needed.
    static func isPlain(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            plainTable.withUnsafeBufferPointer { plain in bytes.allSatisfy { plain[Int($0)] } }
        }
    }
    private static let plainTable: [Bool] = (0...255).map {
        keptBytes.contains(UInt8($0)) || "/%#".utf8.contains(UInt8($0))
    }

    /// `isKept` for each byte value, as a table (the hot loop's form).
    private static let keptTable: [Bool] = (0...255).map { keptBytes.contains(UInt8($0)) }

    static func percentEncode(_ bytes: some Collection<UInt8>, alsoKeeping extra: String = "") -> String {
        let also = ByteSet(extra)
        // Most names (a store's hashed ones) need no encoding at all.
        let plain =
            bytes.withContiguousStorageIfAvailable { buffer in
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
        a.withBytes { first in b.withBytes { second in joined(first, second) } }
    }

    private static func joined(_ first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: first.count + second.count) { buffer in
            _ = UnsafeMutableBufferPointer(rebasing: buffer[..<first.count]).initialize(from: first)
            _ = UnsafeMutableBufferPointer(rebasing: buffer[first.count...]).initialize(from: second)
            return first.count + second.count
        }
    }

    /// `prefix` and then `segment` encoded as one path segment of a local reference, built in
    /// one allocation when the segment needs no encoding (a store's hashed names): the local
    /// path of each of a page's tens of thousands of references.
    static func joined(_ prefix: String, segment: ArraySlice<UInt8>) -> String {
        let plain = segment.withUnsafeBufferPointer { bytes in
            keptTable.withUnsafeBufferPointer { kept in bytes.allSatisfy { kept[Int($0)] } }
        }
        guard plain else { return joined(prefix, encodeSegment(segment)) }
        return prefix.withBytes { first in segment.withUnsafeBufferPointer { joined(first, $0) } }
    }

    /// `joined(_:segment:)` for a prefix and a segment given as bytes.
    static func joined(prefix: UnsafeBufferPointer<UInt8>, segment: UnsafeBufferPointer<UInt8>) -> String {
        let plain = keptTable.withUnsafeBufferPointer { kept in segment.allSatisfy { kept[Int($0)] } }
        guard plain else { return joined(String(decoding: prefix, as: UTF8.self), encodeSegment(Array(segment))) }
        return joined(prefix, segment)
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
        guard
            !fragment.withBytes({
                $0.allSatisfy {
                    isKept($0) || $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?")
                }
            })
        else {
            return fragment
        }
        return percentEncode(fragment.utf8, alsoKeeping: "%/?")
    }

    /// `file:///…` with each segment encoded.
    static func fileURL(_ file: RawPath) -> String {
        "file://" + file.bytes.split(separator: UInt8(ascii: "/")).map { "/" + encodeSegment(Array($0)) }.joined()
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
