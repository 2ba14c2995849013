import CacheKitSystem
import URLStandard

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Deciding how a page's bytes are to be decoded for parsing. The output keeps the input's
/// bytes whatever is decided; the charset only affects how libxml2 reads the values.
public enum Charset {
    /// Where the decision came from.
    public enum Source: String, Sendable {
        case byteOrderMark, option, contentType, meta, utf8Fallback, defaultWindows1252, metaContradicted
    }

    /// The charset a page is decoded with, and what said so.
    public struct Decision: Equatable, Sendable {
        /// An encoding name libxml2 (iconv) understands, e.g. `UTF-8`, `GBK`, `windows-1252`.
        public var encoding: String
        /// What decided it.
        public var source: Source
        /// Bytes of a byte-order mark at the start (to skip).
        public var bomLength: Int
    }

    /// BOM, then `option`, then the charset of the `Content-Type` the page was served with
    /// (`contentType`, HTML's "transport layer" encoding, which a browser takes before any
    /// `<meta>`), then a `<meta>` prescan of the first 1024 bytes mapped through the
    /// WHATWG label table (`gb2312` is GBK); a declaration the bytes contradict (they do not
    /// decode in it but are valid UTF-8) gives way to UTF-8; without any, UTF-8 when the
    /// bytes are valid UTF-8, else windows-1252.
    public static func decide(_ bytes: [UInt8], option: String? = nil, contentType: String? = nil) -> Decision {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            return Decision(encoding: "UTF-8", source: .byteOrderMark, bomLength: 3)
        }
        if bytes.starts(with: [0xFF, 0xFE]) {
            return Decision(encoding: "UTF-16LE", source: .byteOrderMark, bomLength: 2)
        }
        if bytes.starts(with: [0xFE, 0xFF]) {
            return Decision(encoding: "UTF-16BE", source: .byteOrderMark, bomLength: 2)
        }
        if let option { return Decision(encoding: canonicalName(option) ?? option, source: .option, bomLength: 0) }
        if let label = contentType.flatMap(parameter(ofContentType:)), let name = canonicalName(label) {
            return Decision(encoding: name, source: .contentType, bomLength: 0)
        }
        if let label = prescan(bytes), let name = canonicalName(label) {
            if name == "UTF-16LE" || name == "UTF-16BE" {
                // A meta tag readable as ASCII cannot be UTF-16: the standard says UTF-8.
                return Decision(encoding: "UTF-8", source: .meta, bomLength: 0)
            }
            // (The whole page is validated only where the answer depends on it: a page that
            // says UTF-8 is not read through first; on a 13 MB page the parse starts 0.9 ms
            // sooner.)
            if name != "UTF-8" && isValidUTF8(bytes) && !decodes(bytes, as: name) {
                return Decision(encoding: "UTF-8", source: .metaContradicted, bomLength: 0)
            }
            return Decision(encoding: name, source: .meta, bomLength: 0)
        }
        return isValidUTF8(bytes)
            ? Decision(encoding: "UTF-8", source: .utf8Fallback, bomLength: 0)
            : Decision(encoding: "windows-1252", source: .defaultWindows1252, bomLength: 0)
    }

    /// The `charset` parameter of a `Content-Type` value (`text/html; charset="Shift_JIS"`),
    /// unquoted; nil without one.
    public static func parameter(ofContentType value: String) -> String? {
        for part in value.split(separator: ";").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, String(pair[0]).trimmingWhitespace().lowercased() == "charset" else {
                continue
            }
            var label = String(pair[1]).trimmingWhitespace()
            if label.count >= 2, label.hasPrefix("\""), label.hasSuffix("\"") {
                label = String(label.dropFirst().dropLast())
            }
            return label.isEmpty ? nil : label
        }
        return nil
    }

    /// The WHATWG Encoding Standard's labels for the encodings pages use, to names iconv knows.
    static let labels: [String: String] = {
        var table: [String: String] = [:]
        func add(_ name: String, _ labels: [String]) { for l in labels { table[l] = name } }
        add("UTF-8", ["unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "utf-8", "utf8", "x-unicode20utf8"])
        add(
            "windows-1252",
            [
                "ansi_x3.4-1968", "ascii", "cp1252", "cp819", "csisolatin1", "ibm819", "iso-8859-1", "iso-ir-100",
                "iso8859-1", "iso88591", "iso_8859-1", "iso_8859-1:1987", "l1", "latin1", "us-ascii", "windows-1252",
                "x-cp1252"
            ])
        add(
            "GBK",
            ["chinese", "csgb2312", "csiso58gb231280", "gb2312", "gb_2312", "gb_2312-80", "gbk", "iso-ir-58", "x-gbk"])
        add("GB18030", ["gb18030"])
        add("BIG5", ["big5", "big5-hkscs", "cn-big5", "csbig5", "x-x-big5"])
        add("SHIFT_JIS", ["csshiftjis", "ms932", "ms_kanji", "shift-jis", "shift_jis", "sjis", "windows-31j", "x-sjis"])
        add("EUC-JP", ["cseucpkdfmtjapanese", "euc-jp", "x-euc-jp"])
        add("ISO-2022-JP", ["csiso2022jp", "iso-2022-jp"])
        add(
            "EUC-KR",
            [
                "cseuckr", "csksc56011987", "euc-kr", "iso-ir-149", "korean", "ks_c_5601-1987", "ks_c_5601-1989",
                "ksc5601", "ksc_5601", "windows-949"
            ])
        add("KOI8-R", ["cskoi8r", "koi", "koi8", "koi8-r", "koi8_r"])
        add("KOI8-U", ["koi8-ru", "koi8-u"])
        add("UTF-16LE", ["csunicode", "iso-10646-ucs-2", "ucs-2", "unicode", "unicodefeff", "utf-16", "utf-16le"])
        add("UTF-16BE", ["unicodefffe", "utf-16be"])
        for (n, extra) in [
            (2, ["l2", "latin2", "csisolatin2", "iso-ir-101"]), (3, ["l3", "latin3", "csisolatin3", "iso-ir-109"]),
            (4, ["l4", "latin4", "csisolatin4", "iso-ir-110"]), (5, ["cyrillic", "csisolatincyrillic", "iso-ir-144"]),
            (
                6,
                [
                    "arabic", "asmo-708", "csiso88596e", "csiso88596i", "csisolatinarabic", "ecma-114", "iso-8859-6-e",
                    "iso-8859-6-i", "iso-ir-127"
                ]
            ),
            (7, ["csisolatingreek", "ecma-118", "elot_928", "greek", "greek8", "iso-ir-126", "sun_eu_greek"]),
            (8, ["csiso88598e", "csisolatinhebrew", "hebrew", "iso-8859-8-e", "iso-ir-138", "visual"]),
            (10, ["csisolatin6", "iso-ir-157", "l6"]), (13, []), (14, []), (15, ["csisolatin9", "l9"]), (16, [])
        ] {
            add("ISO-8859-\(n)", ["iso-8859-\(n)", "iso8859-\(n)", "iso8859\(n)", "iso_8859-\(n)"] + extra)
        }
        add("ISO-8859-8-I", ["csiso88598i", "iso-8859-8-i", "logical"])
        for n in 1250...1258 where n != 1252 { add("windows-\(n)", ["cp\(n)", "windows-\(n)", "x-cp\(n)"]) }
        add(
            "windows-1254",
            [
                "cp1254", "windows-1254", "x-cp1254", "iso-8859-9", "iso8859-9", "iso88599", "iso_8859-9", "l5",
                "latin5", "csisolatin5", "iso-ir-148"
            ])
        add("windows-874", ["dos-874", "iso-8859-11", "iso8859-11", "iso885911", "tis-620", "windows-874"])
        add("MACINTOSH", ["csmacintosh", "mac", "macintosh", "x-mac-roman"])
        add("IBM866", ["866", "cp866", "csibm866", "ibm866"])
        return table
    }()

    /// The iconv converter that reads (and writes) a charset `decide` names as the Encoding
    /// Standard does: its Shift_JIS is Windows-31J (CP932), in which ASCII bytes are ASCII
    /// (glibc's SHIFT_JIS reads 5C as ¥ and 7E as ‾: `~user/` and `a\b` in a URL broke) and
    /// the NEC and IBM rows decode; its EUC-KR is windows-949 (CP949, the Unified Hangul
    /// Code, whose extra characters glibc's EUC-KR misreads). Any other name is iconv's own.
    public static func iconvName(_ encoding: String) -> String {
        switch encoding.uppercased() {
        case "SHIFT_JIS": "CP932"
        case "EUC-KR": "CP949"
        default: encoding
        }
    }

    /// The iconv name for a WHATWG label (trimmed, case-insensitive), nil for an unknown label.
    public static func canonicalName(_ label: String) -> String? {
        labels[label.trimmingWhitespace().lowercased()]
    }

    /// The charset label a `<meta charset>` or `<meta http-equiv=content-type content=…>`
    /// in the first 1024 bytes declares.
    static func prescan(_ bytes: [UInt8]) -> String? {
        let head = Array(bytes.prefix(1024))
        for tag in StartTagScanner.scan(head).tags where tag.name == Array("meta".utf8) {
            func value(_ name: String) -> String? {
                tag.attribute(name).flatMap { $0.value }.map { String(decoding: head[$0], as: UTF8.self) }
            }
            if let charset = value("charset"), !charset.trimmingWhitespace().isEmpty { return charset }
            if let content = value("content"),
                value("http-equiv")?.lowercased() == "content-type" || value("http-equiv") == nil,
                let label = charsetFromContentType(content)
            {
                return label
            }
        }
        return nil
    }

    /// `text/html; charset=gb2312` → `gb2312`.
    static func charsetFromContentType(_ content: String) -> String? {
        guard let range = content.lowercased().range(of: "charset") else { return nil }
        var rest = content[range.upperBound...].drop { $0 == " " }
        guard rest.first == "=" else { return nil }
        rest = rest.dropFirst().drop { $0 == " " }
        if let q = rest.first, q == "\"" || q == "'" {
            rest = rest.dropFirst()
            return String(rest.prefix { $0 != q })
        }
        let label = String(rest.prefix { $0 != ";" && $0 != " " && $0 != "\"" && $0 != "'" })
        return label.isEmpty ? nil : label
    }

    /// Whether every byte decodes in `encoding` (iconv), so a declared charset can be trusted.
    static func decodes(_ bytes: [UInt8], as encoding: String) -> Bool {
        let cd = iconv_open("UTF-8", iconvName(encoding))
        if cd == iconv_t(bitPattern: -1) { return true }  // unknown to iconv: let libxml2 decide
        defer { iconv_close(cd) }
        var input = bytes.map { CChar(bitPattern: $0) }
        var output = [CChar](repeating: 0, count: 4096)
        return input.withUnsafeMutableBufferPointer { inBuf -> Bool in
            var inPtr: UnsafeMutablePointer<CChar>? = inBuf.baseAddress
            var inLeft = inBuf.count
            while inLeft > 0 {
                let ok = output.withUnsafeMutableBufferPointer { outBuf -> Bool in
                    var outPtr: UnsafeMutablePointer<CChar>? = outBuf.baseAddress
                    var outLeft = outBuf.count
                    let rc = iconv(cd, &inPtr, &inLeft, &outPtr, &outLeft)
                    return rc != Int(bitPattern: UInt(bitPattern: -1)) || errno == E2BIG
                }
                if !ok { return false }
            }
            return true
        }
    }
}
