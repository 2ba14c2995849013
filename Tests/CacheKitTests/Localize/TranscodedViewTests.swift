import XCTest

@testable import PageRewrite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A page in a legacy charset read as UTF-8 with every byte's origin (`TranscodedView`).
final class TranscodedViewTests: XCTestCase {
    /// Pieces of pages in each charset `Charset` can name that iconv converts with state or
    /// with more than one byte: ASCII, markup, valid characters, bytes no character starts
    /// with, a character cut off.
    private static let pieces: [String: [[UInt8]]] = [
        "windows-1252": [[0xE9], [0x81], [0x80, 0x9F]],
        "SHIFT_JIS": [[0x82, 0xA0], [0x95, 0x5C], [0x87, 0x40], [0x5C, 0x7E], [0x82], [0xFD]],
        "EUC-KR": [[0xB0, 0xA1], [0x81, 0x41], [0xFF], [0xB0]],
        "GB18030": [[0x81, 0x30, 0x81, 0x30], [0xC4, 0xE3], [0x81], [0x81, 0x30]],
        "GBK": [[0xC4, 0xE3], [0x81, 0x40], [0xFF]],
        "BIG5": [[0xA4, 0x40], [0xF9, 0xD5], [0xA4]],
        "EUC-JP": [[0xA4, 0xA2], [0x8E, 0xB1], [0x8F, 0xB0, 0xA1], [0xA4]],
        "ISO-2022-JP": [[0x1B, 0x24, 0x42, 0x24, 0x22, 0x1B, 0x28, 0x42], [0x1B, 0x24, 0x42, 0x30, 0x21], [0x0E]],
        "KOI8-R": [[0xC1, 0xD2]],
        "UTF-16LE": [[0x3C, 0x00, 0x70, 0x00], [0x42, 0x30], [0x3D, 0xD8, 0x00, 0xDE], [0x00, 0xD8]]
    ]
    private static let ascii: [[UInt8]] = ["<img src=\"", "/~u/a\\b.png", "\">", " ", "\n"].map { Array($0.utf8) }

    /// The view as iconv gives it one character at a time from the rest of the page (the
    /// way views were made before; fine on a small page), with the same converters.
    private func reference(_ original: [UInt8], encoding: String) -> (bytes: [UInt8], offsets: [Int]) {
        let cd = iconv_open("UTF-8", Charset.iconvName(encoding))
        XCTAssertNotEqual(cd, iconv_t(bitPattern: -1), encoding)
        defer { iconv_close(cd) }
        var view: [UInt8] = []
        var offsets: [Int] = []
        var input = original.map { CChar(bitPattern: $0) }
        var out = [CChar](repeating: 0, count: 8)
        input.withUnsafeMutableBufferPointer { inBuf in
            var position = 0
            while position < inBuf.count {
                var converted = false
                for room in 1...4 {
                    var inPtr: UnsafeMutablePointer<CChar>? = inBuf.baseAddress! + position
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
                    view += [0xEF, 0xBF, 0xBD]
                    offsets += [position, position, position]
                    position += 1
                    iconv(cd, nil, nil, nil, nil)
                }
            }
        }
        return (view, offsets + [original.count])
    }

    /// On pages made of those pieces at random, the view (and every byte's origin) is what
    /// iconv gives reading the rest of the page each time: reading ASCII bytes as they are
    /// and giving iconv a window of the page change nothing, in any of these charsets.
    func testTheViewIsWhatIconvGives() throws {
        var generator = SystemRandomNumberGenerator()
        for (encoding, own) in Self.pieces.sorted(by: { $0.key < $1.key }) {
            let pieces = own + (encoding.hasPrefix("UTF-16") ? [] : Self.ascii)
            for _ in 0..<300 {
                let page = (0..<Int.random(in: 0...40, using: &generator)).flatMap { _ in
                    pieces.randomElement(using: &generator)!
                }
                let view = try XCTUnwrap(TranscodedView(page, encoding: encoding))
                let expected = reference(page, encoding: encoding)
                XCTAssertEqual(view.bytes, expected.bytes, "\(encoding): \(page)")
                XCTAssertEqual(view.offsets, expected.offsets, "\(encoding): \(page)")
            }
        }
    }

    /// The work is linear in the page: iconv is given at most a window of it per character.
    /// Given the whole rest of the page, glibc converted thousands of characters ahead for
    /// each one asked for: a 100 KB windows-1252 page took 1.5 s to localize, a 200 KB page
    /// the fuzzer made 2.5 s (3 ms and 20 ms now, release build).
    func testAViewIsLinearInThePage() throws {
        for (encoding, piece) in [
            ("windows-1252", Array("<p>caf\u{E9}</p>".utf8)), ("windows-1252", [0xE9]),
            ("SHIFT_JIS", [0x82, 0xA0, 0x3C]), ("ISO-2022-JP", [0x1B, 0x24, 0x42, 0x24, 0x22, 0x1B, 0x28, 0x42]),
            ("UTF-16LE", [0x42, 0x30])
        ] {
            let page = Array([[UInt8]](repeating: piece, count: 200_000 / piece.count).joined())
            let view = try XCTUnwrap(TranscodedView(page, encoding: encoding))
            XCTAssertLessThanOrEqual(view.bytesOffered, 4 * TranscodedView.window * page.count, encoding)
            XCTAssertEqual(view.offsets.count, view.bytes.count + 1)
        }
    }
}
