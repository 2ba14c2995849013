import CLibXML2

/// The libxml2 boundary. Only the files of `Localize/` import `CLibXML2`; they own every
/// pointer and hand back Swift values.
public enum LibXML2 {
    /// The libxml2 version the package was compiled against, e.g. "2.9.14".
    public static let compiledVersion: String = LIBXML_DOTTED_VERSION

    /// Initialises the library once; safe to call repeatedly. libxml2 wants this before any
    /// parsing happens on several threads.
    public static func initialize() {
        _ = initialized
    }

    private static let initialized: Bool = {
        xmlCheckVersion(LIBXML_VERSION)
        xmlInitParser()
        return true
    }()

    /// The name of the root element libxml2's HTML parser builds for `bytes` (recover mode,
    /// no network), or nil when it builds none. A smoke test of the whole boundary.
    public static func rootElementName(ofHTML bytes: [UInt8]) -> String? {
        initialize()
        guard let context = htmlNewParserCtxt() else { return nil }
        defer { htmlFreeParserCtxt(context) }
        let flags = Int32(HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue
            | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NODEFDTD.rawValue)
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                htmlCtxtReadMemory(context, $0.baseAddress, Int32($0.count), "about:blank", "UTF-8", flags)
            }
        }
        guard let document else { return nil }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document), let name = root.pointee.name else { return nil }
        return String(cString: name)
    }
}
