import URLStandard

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A URL query encoded in a page's legacy encoding, as the URL Standard's query state does for
/// a page in one ("percent-encode after encoding"): iconv's converter, with the Encoding
/// Standard's own errors where iconv would map (GB18030's and GBK's U+E5E5, ISO-2022-JP's
/// escape and shift controls).
enum QueryEncoding {
    /// The encoder for a page in `encoding` (an iconv name, as `Charset` gives it), or nil
    /// where URLs are UTF-8 (the URL Standard's "get an output encoding": UTF-8 and UTF-16)
    /// or iconv does not know it.
    static func encoder(_ encoding: String) -> StandardURL.QueryEncoder? {
        let name = encoding.uppercased()
        guard name != "UTF-8", !name.hasPrefix("UTF-16") else { return nil }
        let cd = iconv_open(Charset.iconvName(encoding), "UTF-8")
        if cd == iconv_t(bitPattern: -1) { return nil }
        iconv_close(cd)
        let errors: Set<UInt32> =
            name == "ISO-2022-JP" ? [0x0E, 0x0F, 0x1B] : name == "GB18030" || name == "GBK" ? [0xE5E5] : []
        return { text in encode(text, encoding: encoding, errors: errors) }
    }

    /// `text` in `encoding`: runs of bytes, and the code points it lacks (or `errors` names;
    /// ISO-2022-JP's controls are reported as U+FFFD, as its encoder reports them). One
    /// converter, one code point at a time: it keeps its shift state from one to the next,
    /// and a code point it lacks changes nothing.
    static func encode(_ text: String, encoding: String, errors: Set<UInt32>) -> [StandardURL.EncodedRun] {
        let cd = iconv_open(Charset.iconvName(encoding), "UTF-8")
        if cd == iconv_t(bitPattern: -1) { return [.bytes(Array(text.utf8))] }
        defer { iconv_close(cd) }
        var runs: [StandardURL.EncodedRun] = []
        var bytes: [UInt8] = []
        func unmappable(_ value: UInt32) {
            if !bytes.isEmpty { runs.append(.bytes(bytes)) }
            bytes = []
            runs.append(.unmappable(value))
        }
        for scalar in text.unicodeScalars {
            if errors.contains(scalar.value) {
                unmappable(scalar.value < 0x20 ? 0xFFFD : scalar.value)
                continue
            }
            let (ok, converted) = run(cd, Array(String(scalar).utf8))
            if ok { bytes += converted } else { unmappable(scalar.value) }
        }
        bytes += reset(cd)
        if !bytes.isEmpty { runs.append(.bytes(bytes)) }
        return runs
    }

    /// The bytes that return `cd` to its initial shift state (ISO-2022-JP's `ESC ( B`).
    private static func reset(_ cd: iconv_t?) -> [UInt8] {
        var output = [CChar](repeating: 0, count: 16)
        let written = output.withUnsafeMutableBufferPointer { outBuf -> Int in
            var outPtr: UnsafeMutablePointer<CChar>? = outBuf.baseAddress
            var outLeft = outBuf.count
            _ = iconv(cd, nil, nil, &outPtr, &outLeft)
            return outBuf.count - outLeft
        }
        return output.prefix(written).map { UInt8(bitPattern: $0) }
    }

    /// Converts `utf8` whole; false when iconv stopped (a character it has not).
    private static func run(_ cd: iconv_t?, _ utf8: [UInt8]) -> (ok: Bool, bytes: [UInt8]) {
        var input = utf8.map { CChar(bitPattern: $0) }
        var output = [CChar](repeating: 0, count: utf8.count * 4 + 16)
        let (ok, written) = input.withUnsafeMutableBufferPointer { inBuf in
            output.withUnsafeMutableBufferPointer { outBuf -> (Bool, Int) in
                var inPtr: UnsafeMutablePointer<CChar>? = inBuf.baseAddress
                var inLeft = inBuf.count
                var outPtr: UnsafeMutablePointer<CChar>? = outBuf.baseAddress
                var outLeft = outBuf.count
                let result = iconv(cd, &inPtr, &inLeft, &outPtr, &outLeft)
                return (result != -1 && inLeft == 0, outBuf.count - outLeft)
            }
        }
        return (ok, output.prefix(written).map { UInt8(bitPattern: $0) })
    }
}
