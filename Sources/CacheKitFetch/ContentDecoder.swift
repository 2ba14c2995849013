import CZlib
import CacheKitSupport

/// A response body's codings undone as it streams in, through zlib: its transfer codings
/// other than `chunked` (RFC 9112 §7: NIO's decoder removes a final `chunked`, nothing else)
/// and its content codings (RFC 9110 §8.4.1), each of `gzip` (and `x-gzip`) and `deflate` —
/// zlib-wrapped as the RFC says, or raw as some servers send it, as browsers accept both —
/// undone in turn, the last applied first. cachectl asks for `identity` and sends no `TE`, but
/// a server may still send a pre-compressed file coded, or code it for the transfer; stored as
/// it came, an image would be gzip bytes named `.png` that no saved page could show. The store
/// keeps the representation a browser shows.
final class ContentDecoder {
    /// The codings undone, the first applied first (lower case), as messages name them.
    let codings: [String]
    /// One zlib stream per coding, the last applied first: each one's output is the next's input.
    private let stages: [Stage]

    /// At most this many codings are undone, as curl undoes at most 5 (`MAX_ENCODE_STACK`).
    static let deepest = 5

    /// The decoder for a response's `Content-Encoding` and `Transfer-Encoding` values (each
    /// its field lines joined with commas); nil when neither codes the body (absent,
    /// `identity`, or only `chunked` for the transfer). Throws for a coding zlib cannot undo
    /// (`br`, `zstd`, `compress`), a `chunked` that is not the last transfer coding, or more
    /// than `deepest` codings.
    static func make(contentEncoding: String?, transferEncoding: String? = nil) throws -> ContentDecoder? {
        func list(_ value: String?) -> [String] {
            (value ?? "").split(separator: ",").map { HTTPText.lowercasedASCII(HTTPText.trimmingOWS($0)) }
                .filter { !$0.isEmpty && $0 != "identity" }
        }
        let content = list(contentEncoding)
        var transfer = list(transferEncoding)
        if transfer.last == "chunked" { transfer.removeLast() }
        let undoable: Set<String> = ["gzip", "x-gzip", "deflate"]
        if transfer.contains("chunked") {
            throw FetchError.transport(
                "the server sent the transfer codings '\(transferEncoding ?? "")', with chunked before another "
                    + "(chunked must come last, RFC 9112 §6.1): not stored")
        }
        if !transfer.isEmpty, !transfer.allSatisfy(undoable.contains) {
            throw FetchError.transport(
                "the server sent the body with the transfer coding '\(transferEncoding ?? "")', which cachectl did "
                    + "not ask for; only chunked, gzip and deflate can be undone: not stored")
        }
        guard content.allSatisfy(undoable.contains) else {
            throw FetchError.transport(
                "the server sent the body coded as '\(contentEncoding ?? "")' though asked for identity; only gzip and "
                    + "deflate can be undone: not stored")
        }
        let codings = content + transfer
        guard !codings.isEmpty else { return nil }
        guard codings.count <= deepest else {
            throw FetchError.transport(
                "the server sent the body coded \(codings.count) times ('\(codings.joined(separator: ", "))'); at most "
                    + "\(deepest) codings are undone: not stored")
        }
        return ContentDecoder(codings: codings)
    }

    private init(codings: [String]) {
        self.codings = codings
        stages = codings.reversed().map { Stage(coding: $0) }
    }

    /// Decodes `input`, handing each piece of output to `sink`.
    func decode(_ input: UnsafeRawBufferPointer, _ sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        try decode(input, from: 0, sink)
    }

    private func decode(
        _ input: UnsafeRawBufferPointer, from stage: Int, _ sink: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        guard stage < stages.count else { return try sink(input) }
        try stages[stage].decode(input) { piece in try decode(piece, from: stage + 1, sink) }
    }

    /// After the last input: throws when any coded data had not ended (the body was cut).
    func finish() throws {
        for stage in stages { try stage.finish() }
    }
}

/// One coding undone through zlib.
private final class Stage {
    /// What the body was coded with (lower case).
    let coding: String
    private var stream = z_stream()
    /// inflate is set up at the first bytes (raw or zlib-wrapped deflate is told from them).
    private var started = false
    /// The coded data ended (a gzip member, a deflate stream).
    private(set) var ended = false
    private var output = [UInt8](repeating: 0, count: 64 << 10)

    init(coding: String) {
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
