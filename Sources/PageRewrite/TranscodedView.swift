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
    /// The input bytes handed to iconv in all (at most `window` per character): the work is
    /// linear in the page (`TranscodedViewTests`).
    let bytesOffered: Int

    /// The input iconv is given for one character: more than any character and shift
    /// sequence take (GB18030's four bytes, ISO-2022-JP's escape before a character). Given
    /// the rest of the page instead, glibc converts as much of it as fits its buffer between
    /// steps (thousands of characters) for each character asked for, then throws it away: a
    /// 100 KB windows-1252 page took 1.5 s to read, a 200 KB one found by fuzzing 2.5 s.
    static let window = 16

    /// Nil when iconv does not know `encoding`. Undecodable bytes become U+FFFD, one each.
    init?(_ original: [UInt8], encoding: String) {
        let cd = iconv_open("UTF-8", Charset.iconvName(encoding))
        if cd == iconv_t(bitPattern: -1) { return nil }
        defer { iconv_close(cd) }
        let asciiIsASCII = Self.keepsASCII(cd, encoding: encoding)
        var view: [UInt8] = []
        var offsets: [Int] = []
        var offered = 0
        view.reserveCapacity(original.count + original.count / 2)
        offsets.reserveCapacity(original.count + original.count / 2)
        var out = [CChar](repeating: 0, count: 8)
        var input = original.map { CChar(bitPattern: $0) }
        input.withUnsafeMutableBufferPointer { inBuf in
            let base = inBuf.baseAddress!
            var position = 0
            while position < inBuf.count {
                // A character boundary: an ASCII byte is its own character where the
                // charset keeps ASCII (no shift state, no ASCII byte read as another).
                if asciiIsASCII && base[position] >= 0 {
                    view.append(UInt8(base[position]))
                    offsets.append(position)
                    position += 1
                    continue
                }
                var converted = false
                // Room for exactly one character: 1 byte, else 2, 3, 4.
                for room in 1...4 {
                    var inPtr: UnsafeMutablePointer<CChar>? = base + position
                    let given = min(inBuf.count - position, Self.window)
                    var inLeft = given
                    offered += given
                    let produced: Int = out.withUnsafeMutableBufferPointer { outBuf in
                        var outPtr: UnsafeMutablePointer<CChar>? = outBuf.baseAddress
                        var outLeft = room
                        _ = iconv(cd, &inPtr, &inLeft, &outPtr, &outLeft)
                        return room - outLeft
                    }
                    let consumed = given - inLeft
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
        self.bytesOffered = offered
    }

    /// Whether every ASCII byte, read at a character boundary, is that ASCII character in
    /// `encoding`: not where a shift state gives bytes another meaning (ISO-2022, HZ, UTF-7),
    /// nor in UTF-16 or UTF-32; checked on iconv's converter itself (reset afterwards).
    private static func keepsASCII(_ cd: iconv_t?, encoding: String) -> Bool {
        let name = encoding.uppercased()
        guard !["2022", "UTF-16", "UTF-32", "UTF-7", "HZ"].contains(where: name.contains) else { return false }
        var input = (1..<128).map { CChar($0) }
        var output = [CChar](repeating: 0, count: 256)
        let kept = input.withUnsafeMutableBufferPointer { inBuf in
            output.withUnsafeMutableBufferPointer { outBuf -> Bool in
                var inPtr: UnsafeMutablePointer<CChar>? = inBuf.baseAddress
                var inLeft = inBuf.count
                var outPtr: UnsafeMutablePointer<CChar>? = outBuf.baseAddress
                var outLeft = outBuf.count
                let result = iconv(cd, &inPtr, &inLeft, &outPtr, &outLeft)
                return result == 0 && inLeft == 0 && outBuf.count - outLeft == inBuf.count
                    && zip(inBuf, outBuf).allSatisfy { $0 == $1 }
            }
        }
        iconv(cd, nil, nil, nil, nil)
        return kept
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
        let cd = iconv_open(Charset.iconvName(encoding), "UTF-8")
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
