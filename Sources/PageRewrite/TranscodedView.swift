import CacheKitSystem
import URLStandard

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A page's bytes as UTF-8 with, for every view byte, the offset of the original byte its
/// character came from, so positions found in the view map back exactly.
struct TranscodedView {
    let bytes: [UInt8]
    /// `offsets[i]` is the original offset of view byte i; one extra entry for the end.
    let offsets: [Int]
    let encoding: String

    /// Nil when iconv does not know `encoding`. Undecodable bytes become U+FFFD, one each.
    init?(_ original: [UInt8], encoding: String) {
        let cd = iconv_open("UTF-8", encoding)
        if cd == iconv_t(bitPattern: -1) { return nil }
        defer { iconv_close(cd) }
        var view: [UInt8] = []
        var offsets: [Int] = []
        view.reserveCapacity(original.count + original.count / 2)
        offsets.reserveCapacity(original.count + original.count / 2)
        var out = [CChar](repeating: 0, count: 8)
        var input = original.map { CChar(bitPattern: $0) }
        input.withUnsafeMutableBufferPointer { inBuf in
            let base = inBuf.baseAddress!
            var position = 0
            while position < inBuf.count {
                var converted = false
                // Room for exactly one character: 1 byte, else 2, 3, 4.
                for room in 1...4 {
                    var inPtr: UnsafeMutablePointer<CChar>? = base + position
                    var inLeft = inBuf.count - position
                    let produced: Int = out.withUnsafeMutableBufferPointer { outBuf in
                        var outPtr: UnsafeMutablePointer<CChar>? = outBuf.baseAddress
                        var outLeft = room
                        _ = iconv(cd, &inPtr, &inLeft, &outPtr, &outLeft)
                        return room - outLeft
                    }
                    let consumed = (inBuf.count - position) - inLeft
                    if produced > 0 || consumed > 0 {
                        for k in 0..<produced {
                            view.append(UInt8(bitPattern: out[k]))
                            offsets.append(position)
                        }
                        position += consumed
                        converted = true
                        break
                    }
                    if errno != E2BIG { break }
                }
                if !converted {
                    // Invalid or incomplete sequence: one replacement character for one byte.
                    for byte: UInt8 in [0xEF, 0xBF, 0xBD] {
                        view.append(byte)
                        offsets.append(position)
                    }
                    position += 1
                    iconv(cd, nil, nil, nil, nil)
                }
            }
        }
        offsets.append(original.count)
        self.bytes = view
        self.offsets = offsets
        self.encoding = encoding
    }

    /// The original range behind a view range.
    func originalRange(_ r: Range<Int>) -> Range<Int> {
        let lower = offsets[r.lowerBound]
        return lower..<max(lower, offsets[r.upperBound])
    }

    /// UTF-8 text encoded into the page's charset (our replacement text is ASCII, which
    /// every ASCII-compatible charset keeps as is; UTF-16 gets it widened).
    func encode(_ text: String) -> [UInt8] {
        let utf8 = Array(text.utf8)
        if utf8.allSatisfy({ $0 < 0x80 }) && !encoding.uppercased().hasPrefix("UTF-16") { return utf8 }
        let cd = iconv_open(encoding, "UTF-8")
        if cd == iconv_t(bitPattern: -1) { return utf8 }
        defer { iconv_close(cd) }
        var input = utf8.map { CChar(bitPattern: $0) }
        var output = [CChar](repeating: 0, count: utf8.count * 4 + 8)
        let written: Int = input.withUnsafeMutableBufferPointer { inBuf in
            output.withUnsafeMutableBufferPointer { outBuf in
                var inPtr: UnsafeMutablePointer<CChar>? = inBuf.baseAddress
                var inLeft = inBuf.count
                var outPtr: UnsafeMutablePointer<CChar>? = outBuf.baseAddress
                var outLeft = outBuf.count
                _ = iconv(cd, &inPtr, &inLeft, &outPtr, &outLeft)
                return outBuf.count - outLeft
            }
        }
        return output.prefix(written).map { UInt8(bitPattern: $0) }
    }
}
