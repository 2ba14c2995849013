import NIOCore
import NIOEmbedded
import NIOHTTP1
import XCTest

@testable import CacheKitFetch

/// `HeadNormalizer` below NIO's decoder, as `SocketConnection` drives them, with each
/// response cut into two reads at every offset (a fold or a CRLF split across reads).
final class HeadNormalizerTests: XCTestCase {
    /// What the decoder gives for `response` sent in reads cut at `cuts`: the heads' status
    /// codes and fields, and the body, or the decoder's error.
    private func decode(_ response: [UInt8], cuts: [Int]) throws -> (heads: [(Int, [String])], body: [UInt8]) {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(HeadNormalizer())
        try channel.pipeline.syncOperations.addHTTPClientHandlers(leftOverBytesStrategy: .fireError)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).wait()
        try channel.writeOutbound(
            HTTPClientRequestPart.head(HTTPRequestHead(version: .http1_1, method: .GET, uri: "/")))
        try channel.writeOutbound(HTTPClientRequestPart.end(nil))
        var heads: [(Int, [String])] = []
        var body: [UInt8] = []
        var start = 0
        for end in cuts + [response.count] {
            try channel.writeInbound(channel.allocator.buffer(bytes: response[start..<end]))
            start = end
            while let part = try channel.readInbound(as: HTTPClientResponsePart.self) {
                switch part {
                case .head(let head):
                    heads.append((Int(head.status.code), head.headers.map { "\($0.name): \($0.value)" }))
                case .body(let buffer): body += buffer.readableBytesView
                case .end: break
                }
            }
        }
        _ = try? channel.finish()
        return (heads, body)
    }

    func testEveryCutGivesTheSameHeadsAndBody() throws {
        // The body holds what a head would be rewritten for: it must come as it was sent.
        let body = Array("a\nb\r\n c\r\n\r\n".utf8)
        let cases: [(String, [(Int, [String])])] = [
            (
                "HTTP/1.1 200 OK\nContent-Length: \(body.count)\nX-A: 1\n\n",
                [(200, ["Content-Length: \(body.count)", "X-A: 1"])]
            ),
            (
                "HTTP/1.1 200 OK\r\nX-A: one,\r\n\ttwo\r\nX-B: b\r\n  c\nContent-Length: \(body.count)\r\n\r\n",
                [(200, ["X-A: one, two", "X-B: b c", "Content-Length: \(body.count)"])]
            ),
            (
                "HTTP/1.1 100 Continue\n\nHTTP/1.1 103 Early Hints\r\nLink: </a>;\r\n rel=preload\r\n\r\n"
                    + "HTTP/1.1 200 OK\nContent-Length: \(body.count)\n\n",
                [(200, ["Content-Length: \(body.count)"])]
            )
        ]
        for (head, expected) in cases {
            let response = Array(head.utf8) + body
            for cut in 0...response.count {
                let (heads, received) = try decode(response, cuts: [cut])
                XCTAssertEqual(heads.map(\.0), expected.map(\.0), "\(head.debugDescription) cut at \(cut)")
                XCTAssertEqual(heads.map(\.1), expected.map(\.1), "\(head.debugDescription) cut at \(cut)")
                XCTAssertEqual(received, body, "\(head.debugDescription) cut at \(cut)")
            }
        }
    }

    /// A Location value's bytes outside ASCII are percent-encoded one by one, at every cut
    /// (a fold inside it too); another field's are left alone.
    func testALocationsBytesArePercentEncoded() throws {
        let head: [UInt8] =
            Array("HTTP/1.1 302 Found\r\nLOCATION: /caf".utf8) + [0xE9] + Array("?q=\u{2603}\r\n ".utf8) + [0xFF]
            + Array("\r\nX-Other: caf\u{E9}\r\nContent-Length: 0\r\n\r\n".utf8)
        for cut in 0...head.count {
            let (heads, _) = try decode(head, cuts: [cut])
            XCTAssertEqual(heads.map(\.0), [302], "cut at \(cut)")
            XCTAssertEqual(
                heads.first?.1, ["LOCATION: /caf%E9?q=%E2%98%83 %FF", "X-Other: caf\u{E9}", "Content-Length: 0"],
                "cut at \(cut)")
        }
    }

    /// What the RFC lets a recipient refuse is still refused: whitespace before the first
    /// field line, a bare CR.
    func testWhatTheDecoderRefusedBeforeItStillRefuses() throws {
        for head in ["HTTP/1.1 200 OK\r\n X: y\r\nContent-Length: 0\r\n\r\n", "HTTP/1.1 200 OK\r\nX: a\rb\r\n\r\n"] {
            XCTAssertThrowsError(try decode(Array(head.utf8), cuts: []), head.debugDescription)
        }
    }
}
