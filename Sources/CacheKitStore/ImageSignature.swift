#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Recognises PNG, JPEG, GIF and WebP by their signature and walks their structure to tell a
/// whole image from one cut short or malformed — the way a decoder reads it, so bytes after
/// the image's end (a JPEG padded with zeros, a GIF followed by CR/LF, a PNG followed by a
/// text line) do not make a valid image "corrupted".
public enum ImageSignature {
    /// The image formats recognised by their signatures.
    public enum Kind: String, Sendable { case png, jpeg, gif, webp }

    /// What walking an image's structure found.
    public enum Verdict: Equatable, Sendable {
        /// Not one of the four formats (by its first bytes): not judged.
        case notAnImage
        /// Whole to its end marker (whatever follows it).
        case whole
        /// The file ends before the image does: a writer stopped, or is still at work.
        case cutShort(String)
        /// The structure is broken (a bad checksum of a critical chunk, an impossible length,
        /// an unknown block): no decoder reads it.
        case malformed(String)
    }

    /// The image kind the first bytes announce, if any.
    public static func kind(ofPrefix head: [UInt8]) -> Kind? {
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) { return .gif }
        if head.count >= 12 && head.starts(with: Array("RIFF".utf8)) && Array(head[8..<12]) == Array("WEBP".utf8) {
            return .webp
        }
        return nil
    }

    /// Why the file is not a whole image (cut short or malformed), or nil when it is whole or
    /// not an image.
    public static func truncation(of path: RawPath, size: Int64) -> String? {
        guard size > 0,
            case .success(let fd) = Sys.openWithoutAtime(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        else { return nil }
        let file = FileDescriptor(adopting: fd)
        return withExtendedLifetime(file) { verdict(file.raw, size: size).problem }
    }

    /// The verdict on the file `relative` below an anchored cache root (read through its
    /// descriptor, with its access-time rule); `.notAnImage` when it cannot be read.
    public static func verdict(in anchor: AnchoredDirectory, _ relative: [UInt8], size: Int64) -> Verdict {
        guard size > 0, case .success(let file) = anchor.open(relative, O_RDONLY | O_NONBLOCK) else {
            return .notAnImage
        }
        return withExtendedLifetime(file) { verdict(file.raw, size: size) }
    }

    /// The verdict on image bytes in memory.
    public static func verdict(of bytes: [UInt8]) -> Verdict {
        var reader = Reader(bytes: bytes)
        return verdict(&reader)
    }

    /// The verdict on an open file of `size` bytes.
    static func verdict(_ fd: Int32, size: Int64) -> Verdict {
        var reader = Reader(fd: fd, size: size)
        return verdict(&reader)
    }

    private static func verdict(_ reader: inout Reader) -> Verdict {
        guard let kind = kind(ofPrefix: reader.peek(16)) else { return .notAnImage }
        switch kind {
        case .png: return png(&reader)
        case .jpeg: return jpeg(&reader)
        case .gif: return gif(&reader)
        case .webp: return webp(&reader)
        }
    }

    // MARK: PNG: chunks to IEND, critical chunks' CRCs checked (PNG spec §5.3, §5.4)

    private static func png(_ r: inout Reader) -> Verdict {
        r.position = 8
        var first = true
        while true {
            guard let header = r.read(8) else { return .cutShort("PNG without its IEND chunk (cut short)") }
            let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
            let type = Array(header[4..<8])
            guard length <= 0x7FFF_FFFF, type.allSatisfy({ ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) })
            else {
                return .malformed("PNG chunk with an impossible length or type")
            }
            if first && type != Array("IHDR".utf8) { return .malformed("PNG that does not begin with IHDR") }
            first = false
            let critical = type[0] >= 0x41 && type[0] <= 0x5A
            var crc = CRC32.update(CRC32.initial, type)
            guard r.consume(length, { crc = CRC32.update(crc, $0) }) else {
                return .cutShort("PNG cut short inside its \(String(decoding: type, as: UTF8.self)) chunk")
            }
            guard let stored = r.read(4) else { return .cutShort("PNG cut short before a chunk's CRC") }
            let expected =
                UInt32(stored[0]) << 24 | UInt32(stored[1]) << 16 | UInt32(stored[2]) << 8 | UInt32(stored[3])
            if critical && CRC32.finish(crc) != expected {
                return .malformed("PNG \(String(decoding: type, as: UTF8.self)) chunk fails its CRC")
            }
            if type == Array("IEND".utf8) { return .whole }
        }
    }

    // MARK: JPEG: segments, then entropy-coded data after each SOS, to EOI (ITU T.81 B.1)

    private static func jpeg(_ r: inout Reader) -> Verdict {
        r.position = 2
        var sawScan = false
        while true {
            // A marker: 0xFF (fill bytes allowed), then its code.
            guard let ff = r.byte() else { return .cutShort("JPEG without its end-of-image marker (cut short)") }
            guard ff == 0xFF else { return .malformed("JPEG with data where a marker belongs") }
            var code: UInt8 = 0xFF
            while code == 0xFF {
                guard let next = r.byte() else { return .cutShort("JPEG without its end-of-image marker (cut short)") }
                code = next
            }
            switch code {
            case 0xD9:
                return sawScan ? .whole : .malformed("JPEG that ends before any scan")
            case 0x01, 0xD0...0xD7:
                continue  // no length
            case 0x00:
                return .malformed("JPEG with a stuffed zero where a marker belongs")
            default:
                guard let lengthBytes = r.read(2) else { return .cutShort("JPEG cut short inside a segment header") }
                let length = Int(lengthBytes[0]) << 8 | Int(lengthBytes[1])
                guard length >= 2 else { return .malformed("JPEG segment with an impossible length") }
                guard r.skip(length - 2) else { return .cutShort("JPEG cut short inside a segment") }
                if code == 0xDA {
                    sawScan = true
                    // Entropy-coded data: up to the next 0xFF that is neither a stuffed zero
                    // nor a restart marker.
                    guard r.skipEntropyCodedData() else { return .cutShort("JPEG cut short inside its image data") }
                }
            }
        }
    }

    // MARK: GIF: header, colour tables, blocks to the trailer (GIF89a spec §17-27)

    private static func gif(_ r: inout Reader) -> Verdict {
        r.position = 6
        guard let screen = r.read(7) else { return .cutShort("GIF cut short in its header") }
        if screen[4] & 0x80 != 0 {
            guard r.skip(3 << (Int(screen[4] & 0x07) + 1)) else {
                return .cutShort("GIF cut short in its colour table")
            }
        }
        while true {
            guard let introducer = r.byte() else { return .cutShort("GIF without its trailer (cut short)") }
            switch introducer {
            case 0x3B:
                return .whole
            case 0x21:
                guard r.byte() != nil else { return .cutShort("GIF cut short in an extension") }
                guard r.skipSubBlocks() else { return .cutShort("GIF cut short in an extension") }
            case 0x2C:
                guard let descriptor = r.read(9) else { return .cutShort("GIF cut short in an image descriptor") }
                if descriptor[8] & 0x80 != 0 {
                    guard r.skip(3 << (Int(descriptor[8] & 0x07) + 1)) else {
                        return .cutShort("GIF cut short in a colour table")
                    }
                }
                guard r.byte() != nil, r.skipSubBlocks() else { return .cutShort("GIF cut short in its image data") }
            default:
                return .malformed("GIF with an unknown block (0x\(String(introducer, radix: 16)))")
            }
        }
    }

    // MARK: WebP: the RIFF size, and each chunk within it (RIFF / WebP container spec)

    private static func webp(_ r: inout Reader) -> Verdict {
        guard let head = r.read(12) else { return .cutShort("WebP header cut short") }
        let declared = Int64(head[4]) | Int64(head[5]) << 8 | Int64(head[6]) << 16 | Int64(head[7]) << 24
        let end = declared + 8
        guard declared >= 4 else { return .malformed("WebP with an impossible RIFF size") }
        if r.size < end { return .cutShort("WebP shorter than its RIFF header says (\(r.size) of \(end) bytes)") }
        var chunks = 0
        while Int64(r.position) < end {
            guard Int64(r.position) + 8 <= end, let header = r.read(8) else {
                return .malformed("WebP chunk header beyond the RIFF size")
            }
            let length = Int64(header[4]) | Int64(header[5]) << 8 | Int64(header[6]) << 16 | Int64(header[7]) << 24
            let padded = length + (length & 1)
            guard Int64(r.position) + length <= end else { return .malformed("WebP chunk longer than the RIFF size") }
            guard r.skip(Int(min(padded, end - Int64(r.position)))) else {
                return .cutShort("WebP cut short in a chunk")
            }
            chunks += 1
        }
        return chunks > 0 ? .whole : .malformed("WebP without chunks")
    }
}

extension ImageSignature.Verdict {
    /// The words for a verdict that is not whole; nil when whole or not an image.
    public var problem: String? {
        switch self {
        case .notAnImage, .whole: return nil
        case .cutShort(let why), .malformed(let why): return why
        }
    }
}

/// Sequential reads over a file (through a 64 KiB window) or bytes in memory.
private struct Reader {
    let fd: Int32
    let size: Int64
    var position = 0
    private var memory: [UInt8]?
    private var window: [UInt8] = []
    private var windowStart = 0

    init(fd: Int32, size: Int64) {
        self.fd = fd
        self.size = size
    }

    init(bytes: [UInt8]) {
        fd = -1
        size = Int64(bytes.count)
        memory = bytes
    }

    /// Up to `count` bytes at the start, without moving.
    mutating func peek(_ count: Int) -> [UInt8] {
        let saved = position
        defer { position = saved }
        position = 0
        return read(min(count, Int(size))) ?? []
    }

    mutating func byte() -> UInt8? {
        guard Int64(position) < size, fill(position) else { return nil }
        let value: UInt8 = memory.map { $0[position] } ?? window[position - windowStart]
        position += 1
        return value
    }

    mutating func read(_ count: Int) -> [UInt8]? {
        guard Int64(position) + Int64(count) <= size else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(count)
        guard consume(count, { out.append(contentsOf: $0) }) else { return nil }
        return out
    }

    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, Int64(position) + Int64(count) <= size else { return false }
        position += count
        return true
    }

    /// Hands the next `count` bytes to `body` in pieces; false when the file ends first.
    mutating func consume(_ count: Int, _ body: (ArraySlice<UInt8>) -> Void) -> Bool {
        guard count >= 0, Int64(position) + Int64(count) <= size else { return false }
        if let memory {
            body(memory[position..<position + count])
            position += count
            return true
        }
        var left = count
        while left > 0 {
            guard fill(position) else { return false }
            let available = min(left, windowStart + window.count - position)
            body(window[(position - windowStart)..<(position - windowStart + available)])
            position += available
            left -= available
        }
        return true
    }

    /// GIF data sub-blocks: size byte, data, … up to a zero size.
    mutating func skipSubBlocks() -> Bool {
        while true {
            guard let length = byte() else { return false }
            if length == 0 { return true }
            guard skip(Int(length)) else { return false }
        }
    }

    /// Past JPEG entropy-coded data, to just before the marker that ends it.
    mutating func skipEntropyCodedData() -> Bool {
        while let value = byte() {
            guard value == 0xFF else { continue }
            let saved = position
            guard var next = byte() else { return false }
            while next == 0xFF {
                guard let more = byte() else { return false }
                next = more
            }
            if next == 0x00 || (next >= 0xD0 && next <= 0xD7) { continue }
            position = saved - 1  // the marker's 0xFF
            return true
        }
        return false
    }

    /// Makes `offset` readable in the window.
    private mutating func fill(_ offset: Int) -> Bool {
        if memory != nil { return Int64(offset) < size }
        if offset >= windowStart && offset < windowStart + window.count { return true }
        let count = Int(min(Int64(1 << 16), size - Int64(offset)))
        guard count > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: count)
        guard
            case .success(let n) = buffer.withUnsafeMutableBytes({
                Sys.pread(fd, $0.baseAddress!, count, at: Int64(offset))
            }), n > 0
        else {
            return false
        }
        window = Array(buffer[0..<n])
        windowStart = offset
        return true
    }
}
