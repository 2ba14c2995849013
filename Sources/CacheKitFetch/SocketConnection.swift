import CacheKitSystem
import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1

/// A plain-HTTP connection on a blocking socket, used by one fetching task on its own thread
/// (`FetchLane`): the request is sent and the response read right where the body is then
/// hashed and written, as curl does, with no hand-off to an event loop and back for each
/// buffer. Responses are parsed by NIO's own HTTP/1.1 decoder, driven synchronously in an
/// `EmbeddedChannel`, so the same bytes are accepted and refused as over NIO's sockets.
final class SocketConnection: HTTPExchange, @unchecked Sendable {
    // @unchecked Sendable: used only on its lane's thread, by one exchange at a time (an
    // `EmbeddedChannel` must stay on the thread that made it); `interrupt()`, which any thread
    // may call, touches only the descriptor number, under `lock`.
    let route: HTTPConnectionPool.Route
    var reusable = true
    /// The socket; -1 once closed.
    private var fd: Int32
    private let lock = ConditionLock()
    /// NIO's request encoder and response decoder, fed and drained by hand.
    private let parser: EmbeddedChannel
    private var exchanges = 0
    private var bodyDone = true
    /// The server ended the stream.
    private var ended = false

    /// Bytes asked of each `recv`.
    static let readSize = 256 << 10

    /// Connects to the route's origin (or its plain-HTTP proxy).
    init(route: HTTPConnectionPool.Route, settings: HTTPConnectionPool.Settings) throws {
        self.route = route
        let target = route.proxy.map { ($0.host, $0.port) } ?? (route.host, route.port)
        switch Sys.connectTCP(
            host: target.0, port: target.1, timeout: Self.milliseconds(settings.connectTimeout),
            ioTimeout: Int(Self.milliseconds(settings.stallTimeout)))
        {
        case .success(let fd): self.fd = fd
        case .failure(.resolve(let why)): throw HTTPConnectionError.resolve("\(target.0): \(why)")
        case .failure(.timedOut): throw HTTPConnectionError.connectTimeout
        case .failure(.system(let error)): throw HTTPConnectionError.cannotConnect(error.code)
        }
        parser = EmbeddedChannel()
        do {
            try parser.pipeline.syncOperations.addHTTPClientHandlers(
                leftOverBytesStrategy: .fireError, enableOutboundHeaderValidation: false)
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    private static func milliseconds(_ amount: TimeAmount) -> Int32 {
        Int32(clamping: max(1, amount.nanoseconds / 1_000_000))
    }

    func get(_ url: StandardURL, headers extra: [(String, String)]) async throws -> HTTPResponseHead {
        guard bodyDone, !ended else {
            reusable = false
            throw HTTPConnectionError.invalidRequest
        }
        exchanges += 1
        let reused = exchanges > 1
        do {
            let head = try HTTPConnection.requestHead(url, route: route, headers: extra)
            try parser.writeOutbound(HTTPClientRequestPart.head(head))
            try parser.writeOutbound(HTTPClientRequestPart.end(nil))
            while let bytes = try parser.readOutbound(as: ByteBuffer.self) {
                try bytes.withUnsafeReadableBytes { raw in
                    if case .failure(let error) = Sys.sendAll(descriptor, raw) { throw Self.ioError(error, "send") }
                }
            }
            while true {
                switch try nextPart() {
                case .head(let response) where response.status.code >= 100 && response.status.code < 200:
                    continue
                case .head(let response):
                    bodyDone = false
                    if !response.isKeepAlive { reusable = false }
                    return response
                case .body, .end:
                    throw HTTPConnectionError.closedBeforeResponse
                case nil:
                    throw reused ? HTTPConnectionError.staleConnection : HTTPConnectionError.closedBeforeResponse
                }
            }
        } catch {
            reusable = false
            // A kept-alive connection the server reset while it was idle: the request was
            // never answered, so it is safe to send again on a new one.
            if reused, let error = error as? IOError, [ECONNRESET, EPIPE].contains(error.errnoCode) {
                throw HTTPConnectionError.staleConnection
            }
            throw error
        }
    }

    func nextBody() async throws -> ByteBuffer? {
        guard !bodyDone else { return nil }
        do {
            switch try nextPart() {
            case .body(let buffer): return buffer
            case .end:
                bodyDone = true
                return nil
            case .head, nil:
                throw HTTPParserError.invalidEOFState
            }
        } catch {
            bodyDone = true
            reusable = false
            throw error
        }
    }

    func abandon() {
        reusable = false
        bodyDone = true
    }

    /// Ends the connection from any thread: an exchange blocked reading it sees the stream
    /// end (a cancelled fetch).
    func interrupt() {
        lock.withLock { if fd >= 0 { Sys.shutdownSocket(fd) } }
    }

    /// Closes the socket.
    func close() {
        lock.withLock {
            if fd >= 0 { Sys.close(fd) }
            fd = -1
        }
    }

    private var descriptor: Int32 { lock.withLock { fd } }

    /// The next part the decoder gives, reading from the socket as long as it needs bytes;
    /// nil when the stream ended with nothing more to give.
    private func nextPart() throws -> HTTPClientResponsePart? {
        while true {
            if let part = try parser.readInbound(as: HTTPClientResponsePart.self) { return part }
            if ended { return nil }
            let socket = descriptor
            var buffer = parser.allocator.buffer(capacity: Self.readSize)
            let count = try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: Self.readSize) { raw in
                switch Sys.receive(socket, raw) {
                case .success(let count): return count
                case .failure(let error): throw Self.ioError(error, "recv")
                }
            }
            if count == 0 {
                // The decoder ends a body delimited by the close, or fails one cut short.
                ended = true
                reusable = false
                parser.pipeline.fireChannelInactive()
                try parser.throwIfErrorCaught()
            } else {
                try parser.writeInbound(buffer)
            }
        }
    }

    /// A socket error: a receive or send that waited the stall timeout is `stalled`.
    private static func ioError(_ error: Errno, _ call: String) -> Error {
        if error.code == EAGAIN || error.code == EWOULDBLOCK { return HTTPConnectionError.stalled }
        return IOError(errnoCode: error.code, reason: call)
    }
}
