import CacheKitSystem
import NIOCore
import URLStandard

/// Rewrites the line structure of response heads, below NIO's HTTP/1.1 decoder, into the form
/// that decoder (llhttp, strict) accepts, as RFC 9112 asks a user agent to read them:
///
/// - a line folded onto the next (obs-fold: a line break followed by spaces or tabs, inside a
///   field's value) is one line, the fold and the whitespace after it replaced by a space (§5.2: "A user agent that
///   receives an obs-fold in a response message … MUST replace each received obs-fold with
///   one or more SP octets prior to interpreting the field value");
/// - a line ended by LF alone ends as if by CRLF (§2.2: "a recipient MAY recognize a single LF
///   as a line terminator"), as curl and browsers read them.
///
/// - a `Location` value's bytes outside ASCII are percent-encoded, each byte as it came
///   (`\xFF` → `%FF`), as curl sends them on and as the web-platform-tests expect of a
///   browser (fetch/api/redirect/redirect-location-escape.tentative.any.js: "Redirect to
///   invalid UTF-8" gives `%FF`). NIO makes each header value a String, which replaced every
///   byte of invalid UTF-8 with U+FFFD: a Latin-1 `Location: /caf\xE9` led to `/caf%EF%BF%BD`.
///   For valid UTF-8 nothing changes: the URL parser percent-encodes those bytes the same way
///   in every part of a URL (and the host parser decodes them before IDNA).
///
/// Only heads are touched: from a request sent to the end of the head of its final response
/// (1xx heads before it, except 101, are heads too); the body and anything after it pass as
/// they came. cachectl never sends a request before the response to the one before has ended,
/// so the bytes after a request are its response. Anything else in a head (a bare CR, a
/// whitespace-led line right after the status line) passes unchanged, for the decoder to
/// refuse as before.
final class HeadNormalizer: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Inside a head (from a request written to the end of its final response's head).
    private var inHead = false
    /// Bytes of the current line given on so far (a fold continues the line).
    private var lineLength = 0
    /// Lines of the current head ended so far (the status line is line 0).
    private var lines = 0
    /// A CR has come and is held back: a LF after it makes a line end.
    private var heldCR = false
    /// A line has ended and its CRLF is held back: the next byte tells a fold (space or
    /// tab) from a new line.
    private var heldLineEnd = false
    /// A fold has just been given on as a space: the spaces and tabs after it are dropped.
    private var afterFold = false
    /// The current field line's name so far (lower case; at most `longestName` bytes).
    private var name: [UInt8] = []
    /// Past the colon of the current field line.
    private var inValue = false
    /// In the value of a `Location` field.
    private var inLocation = false
    private static let location = Array("location".utf8)
    private static let longestName = 16
    /// The bytes of a Location value that are percent-encoded.
    private static let outsideASCII = ByteSet("", ranges: [0x80...0xFF])
    /// The current head's status code, read from its status line's first bytes.
    private var statusLine: [UInt8] = []

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if !inHead { startHead() }
        context.write(data, promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard inHead else { return context.fireChannelRead(data) }
        var input = unwrapInboundIn(data)
        var output = context.channel.allocator.buffer(capacity: input.readableBytes + 2)
        while inHead, let byte = input.readInteger(as: UInt8.self) { take(byte, into: &output) }
        // The head ended inside this buffer: the rest is the body, as it came.
        output.writeBuffer(&input)
        if output.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(output)) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        // The stream ended inside a head: what was held back goes on, for the decoder to judge.
        var output = context.channel.allocator.buffer(capacity: 2)
        flushHeld(into: &output)
        if output.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(output)) }
        context.fireChannelInactive()
    }

    private func startHead() {
        (inHead, lineLength, lines, heldCR, heldLineEnd, afterFold, statusLine) = (true, 0, 0, false, false, false, [])
        startField()
    }

    private func startField() {
        (name, inValue, inLocation) = ([], false, false)
    }

    /// One byte of a head.
    private func take(_ byte: UInt8, into output: inout ByteBuffer) {
        let (cr, lf, space, tab): (UInt8, UInt8, UInt8, UInt8) = (0x0D, 0x0A, 0x20, 0x09)
        if heldCR {
            heldCR = false
            if byte == lf { return endLine(into: &output) }
            output.writeInteger(cr)  // a bare CR: as it came
            lineLength += 1
        }
        if heldLineEnd {
            heldLineEnd = false
            // A fold: inside a field line (not right after the status line), spaces or tabs
            // at the start of the next line continue it.
            if (byte == space || byte == tab) && lines > 1 {
                output.writeInteger(space)
                lineLength += 1
                afterFold = true
                return
            }
            output.writeBytes([cr, lf])
            startField()
        }
        if afterFold {
            if byte == space || byte == tab { return }
            afterFold = false
        }
        switch byte {
        case cr: heldCR = true
        case lf: endLine(into: &output)
        default:
            if lines == 0 && statusLine.count < 16 { statusLine.append(byte) }
            if lines > 0 && !inValue { readName(byte) }
            if inLocation && byte >= 0x80 {
                var encoded: [UInt8] = []
                URLParser.percentEncode(byte, into: &encoded, set: Self.outsideASCII)
                output.writeBytes(encoded)
                lineLength += encoded.count
                return
            }
            output.writeInteger(byte)
            lineLength += 1
        }
    }

    /// A line terminator: an empty line ends the head; another is held back until the next
    /// byte shows whether a fold follows.
    private func endLine(into output: inout ByteBuffer) {
        if lineLength == 0 && lines == 0 {
            // An empty line before the status line: as it came (the decoder judges it).
            output.writeBytes([0x0D, 0x0A])
            return
        }
        guard lineLength == 0 else {
            lines += 1
            lineLength = 0
            heldLineEnd = true
            return
        }
        output.writeBytes([0x0D, 0x0A])
        // An informational response (not 101, after which the connection is no longer HTTP)
        // is followed by another head.
        let code = statusCode
        if let code, code >= 100, code < 200, code != 101 {
            startHead()
        } else {
            inHead = false
        }
    }

    /// A byte of a field line before its colon.
    private func readName(_ byte: UInt8) {
        if byte == UInt8(ascii: ":") {
            inValue = true
            inLocation = name == Self.location
        } else if name.count <= Self.longestName {
            name.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
        }
    }

    private func flushHeld(into output: inout ByteBuffer) {
        if heldCR { output.writeInteger(UInt8(0x0D)) }
        if heldLineEnd { output.writeBytes([0x0D, 0x0A]) }
        (heldCR, heldLineEnd) = (false, false)
    }

    /// The three digits after `HTTP/x.y `, when the status line has them.
    private var statusCode: Int? {
        guard statusLine.count >= 12, statusLine.starts(with: Array("HTTP/".utf8)), statusLine[8] == 0x20 else {
            return nil
        }
        let digits = statusLine[9..<12]
        guard digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }
}
