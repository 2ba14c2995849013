import CZlib
import CacheKitSupport

/// A response body's content coding undone as it streams in (RFC 9110 §8.4.1), through zlib:
/// `gzip` (and `x-gzip`), and `deflate` — zlib-wrapped as the RFC says, or raw as some servers
/// send it, as browsers accept both. cachectl asks for `identity`, but a server may still send
/// a pre-compressed file coded; stored as it came, an image would be gzip bytes named `.png`
/// that no saved page could show. The store keeps the representation a browser shows.
final class ContentDecoder {
    /// What the body was coded with (lower case).
    let coding: String
    private var stream = z_stream()
    /// inflate is set up at the first bytes (raw or zlib-wrapped deflate is told from them).
    private var started = false
    /// The coded data ended (a gzip member, a deflate stream).
    private(set) var ended = false
    private var output = [UInt8](repeating: 0, count: 64 << 10)

    /// The decoder for a `Content-Encoding` value; nil without one (or `identity`). Throws for
    /// a coding zlib cannot undo (`br`, `zstd`, `compress`) or a list of several.
    static func make(contentEncoding value: String?) throws -> ContentDecoder? {
        guard let value else { return nil }
        let codings = value.split(separator: ",").map { HTTPText.lowercasedASCII(HTTPText.trimmingOWS($0)) }
            .filter { !$0.isEmpty && $0 != "identity" }
        guard let coding = codings.first else { return nil }
        guard codings.count == 1, ["gzip", "x-gzip", "deflate"].contains(coding) else {
            throw FetchError.transport(
                "the server sent the body coded as '\(value)' though asked for identity; only gzip and deflate "
                    + "can be undone: not stored")
        }
        return ContentDecoder(coding: coding)
    }

    private init(coding: String) {
        self.coding = coding
    }

    deinit {
        if started { inflateEnd(&stream) }
    }

    /// Decodes `input`, handing each piece of output to `sink`.
    func decode(_ input: UnsafeRawBufferPointer, _ sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let base = input.baseAddress, !input.isEmpty else { return }
        if !started { try start(input) }
        if ended {
            // Data after the end: another gzip member (gzip allows several, each decoded in
            // turn); anything else is not part of the body.
            guard coding != "deflate" else { throw corrupt("data after the end of the deflate stream") }
            inflateReset(&stream)
            ended = false
        }
        stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(input.count)
        while true {
            let status = output.withUnsafeMutableBufferPointer { buffer -> Int32 in
                stream.next_out = buffer.baseAddress
                stream.avail_out = uInt(buffer.count)
                return inflate(&stream, Z_NO_FLUSH)
            }
            let produced = output.count - Int(stream.avail_out)
            if produced > 0 {
                try output.withUnsafeBytes { try sink(UnsafeRawBufferPointer(rebasing: $0[..<produced])) }
            }
            switch status {
            case Z_STREAM_END:
                ended = true
                // Another gzip member may follow in the same input.
                guard stream.avail_in > 0 else { return }
                guard coding != "deflate" else { throw corrupt("data after the end of the deflate stream") }
                inflateReset(&stream)
                ended = false
            case Z_OK:
                if stream.avail_in == 0 && stream.avail_out > 0 { return }
            case Z_BUF_ERROR:
                return  // no progress possible: all input taken, waiting for more
            default:
                throw corrupt(stream.msg.map { String(cString: $0) } ?? "zlib error \(status)")
            }
        }
    }

    /// After the last input: throws when the coded data had not ended (the body was cut).
    func finish() throws {
        guard ended || !started else { throw corrupt("the body ended inside its \(coding) data") }
    }

    /// Sets inflate up: gzip or zlib-wrapped data told apart by their headers (window bits
    /// 15 + 32), a `deflate` body without a zlib header read raw (window bits -15).
    private func start(_ first: UnsafeRawBufferPointer) throws {
        var bits: Int32 = 15 + 32
        if coding == "deflate" && first.count >= 2 {
            let (cmf, flags) = (Int(first[0]), Int(first[1]))
            let wrapped = cmf & 0x0F == 8 && (cmf << 8 | flags) % 31 == 0
            if !wrapped { bits = -15 }
        }
        guard inflateInit2_(&stream, bits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw corrupt("zlib could not be set up")
        }
        started = true
    }

    private func corrupt(_ why: String) -> FetchError {
        .transport("the body's \(coding) coding cannot be undone: \(why)")
    }
}
