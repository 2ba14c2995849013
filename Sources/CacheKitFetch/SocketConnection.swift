import CacheKitSupport
import CacheKitSystem
import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOSSL

/// A connection on a blocking socket, used by one fetching task on its own thread
/// (`FetchLane`): the request is sent and the response read right where the body is then
/// hashed and written, as curl does, with no hand-off to an event loop and back for each
/// buffer. The bytes go through SwiftNIO's own handlers, driven by hand in an
/// `EmbeddedChannel`: a `CONNECT` tunnel through a proxy (`TunnelHandler`), TLS (NIOSSL,
/// verified against the system's authorities or `--cacert`), and the HTTP/1.1 encoder and
/// decoder, so the same bytes are accepted and refused as over NIO's own sockets.
final class SocketConnection: @unchecked Sendable {
    // @unchecked Sendable: used only on its lane's thread, by one exchange at a time (an
    // `EmbeddedChannel` must stay on the thread that made it); `interrupt()`, which any thread
    // may call, touches only the descriptor number, under `lock`.
    let route: HTTPConnectionPool.Route
    /// Whether the connection may serve another exchange (the last response was read to its
    /// end and did not ask to close).
    var reusable = true
    /// The socket; -1 once closed.
    private var fd: Int32
    private let lock = ConditionLock()
    /// SwiftNIO's handlers for the connection, fed and drained by hand.
    private let pipeline: EmbeddedChannel
    private var exchanges = 0
    private var bodyDone = true
    /// The server ended the stream.
    private var ended = false
    /// Bytes received since the decoder last gave a final response head, body bytes or the
    /// end of a body. A server that sends without end and never gets there (a status line,
    /// 1xx responses, chunk extensions: the decoder limits only the header fields) is cut
    /// off past `unproductiveLimit`, as curl stops at 300 KB of response heads.
    private var unproductive = 0
    static let unproductiveLimit = 1 << 20

    /// Bytes asked of each `recv`.
    static let readSize = 256 << 10

    /// Where a route connects, as messages name it: `host:port`, or `host:port (the proxy)`.
    static func place(_ route: HTTPConnectionPool.Route) -> String {
        let (host, port) = route.proxy.map { ($0.host, $0.port) } ?? (route.host, route.port)
        return (host.contains(":") ? "[\(host)]" : host) + ":\(port)" + (route.proxy == nil ? "" : " (the proxy)")
    }

    /// Connects to the route's origin (or its proxy); `tls` for an HTTPS route.
    init(route: HTTPConnectionPool.Route, settings: HTTPConnectionPool.Settings, tls: NIOSSLContext?) throws {
        self.route = route
        let target = route.proxy.map { ($0.host, $0.port) } ?? (route.host, route.port)
        switch Sys.connectTCP(
            host: target.0, port: target.1, timeout: Self.milliseconds(settings.connectTimeout),
            ioTimeout: Int(Self.milliseconds(settings.stallTimeout)), cancelled: { Task.isCancelled })
        {
        case .success(let fd): self.fd = fd
        case .failure(.resolve(let why)):
            throw HTTPConnectionError.resolve("\(target.0)\(route.proxy == nil ? "" : ", the proxy"): \(why)")
        case .failure(.timedOut): throw HTTPConnectionError.connectTimeout(Self.place(route))
        case .failure(.system(let error)): throw HTTPConnectionError.cannotConnect(error.code, Self.place(route))
        case .failure(.cancelled): throw CancellationError()
        }
        pipeline = EmbeddedChannel()
        do {
            let handlers = pipeline.pipeline.syncOperations
            if let proxy = route.proxy, route.secure {
                try handlers.addHandler(
                    TunnelHandler(host: route.host, port: route.port, authorization: proxy.authorization))
            }
            if let tls {
                try handlers.addHandler(
                    try NIOSSLClientHandler(context: tls, serverHostname: route.hostIsAddress ? nil : route.host))
            }
            // Below the decoder: response heads as RFC 9112 asks a user agent to read them
            // (folded fields, lines ended by LF alone), a Location's bytes kept.
            try handlers.addHandler(HeadNormalizer())
            // NIO's outbound validation refuses `|`, `{`, `}`, `^` and `` ` `` in a request
            // target, which browsers send as the URL Standard leaves them; `requestHead` checks
            // the head itself (no controls, spaces or non-ASCII).
            try handlers.addHTTPClientHandlers(leftOverBytesStrategy: .fireError, enableOutboundHeaderValidation: false)
            // Connected (EmbeddedChannel's connect only marks it active): a tunnel writes its
            // CONNECT, TLS its hello, sent with the first request.
            pipeline.connect(to: try Self.identityAddress(route), promise: nil)
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// The address the pipeline is told it is connected to. NIOSSL matches a certificate's IP
    /// addresses against it (NIOSSLHandler: `validateHostname(address:)`, the channel's
    /// remote address), so it must be what the URL names (RFC 6125 §6.2): for an address, that
    /// address (through a proxy too: the certificate is the origin's); for a name, a Unix
    /// socket path, which no IP address matches, so that only the certificate's DNS names
    /// count, as curl matches them.
    static func identityAddress(_ route: HTTPConnectionPool.Route) throws -> SocketAddress {
        if route.hostIsAddress { return try SocketAddress(ipAddress: route.host, port: route.port) }
        return try SocketAddress(unixDomainSocketPath: "/cachectl-connects-by-name")
    }

    private static func milliseconds(_ amount: TimeAmount) -> Int32 {
        Int32(clamping: max(1, amount.nanoseconds / 1_000_000))
    }

    /// Sends a GET for `url` and returns the response head (informational 1xx heads are
    /// skipped). A kept-alive connection the server had closed throws `staleConnection`.
    func get(_ url: StandardURL, headers extra: [(String, String)]) async throws -> HTTPResponseHead {
        guard bodyDone, !ended else {
            reusable = false
            throw HTTPConnectionError.invalidRequest
        }
        exchanges += 1
        let reused = exchanges > 1
        do {
            // Closed by a handler since (TLS after the server's close_notify): nothing would be
            // sent, and the read would wait for the stall timeout.
            guard pipeline.isActive, !reused || idleIsClean() else { throw HTTPConnectionError.staleConnection }
            let head = try Self.requestHead(url, route: route, headers: extra)
            // Written without waiting for the writes to complete (`writeOutbound` would): TLS
            // holds them back until its handshake is done.
            pipeline.write(HTTPClientRequestPart.head(head), promise: nil)
            pipeline.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
            try pipeline.throwIfErrorCaught()
            try sendPending()
            while true {
                switch try nextPart() {
                case .head(let response) where response.status.code == 101:
                    throw HTTPConnectionError.unaskedUpgrade
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

    /// The next buffer of the response body; nil at its end.
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

    /// Reads and drops the rest of the body (of a redirect or an error page), at most
    /// `limit` bytes; past that the connection is not reused.
    func discardBody(limit: Int = 1 << 20) async throws {
        var read = 0
        while let buffer = try await nextBody() {
            read += buffer.readableBytes
            if read > limit {
                abandon()
                return
            }
        }
    }

    /// Marks the body as abandoned: the connection closes after this exchange.
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

    /// Whether a kept-alive connection is still fit for a request. What arrived while it was
    /// idle is read, without waiting, and given to the handlers: the end of the stream, bytes
    /// of HTTP the server sent unasked (junk after a response, a body longer than its
    /// Content-Length) or a handler's error make it unfit, as they make curl's connection
    /// "dead"; TLS's own records (a session ticket) do not. An unfit connection was never
    /// sent the request, so a new one may carry it. (A peek first: nearly always nothing came,
    /// and then no buffer is made.)
    private func idleIsClean() -> Bool {
        let socket = descriptor
        var probe: UInt8 = 0
        let arrived = withUnsafeMutableBytes(of: &probe) { Sys.receive(socket, $0, flags: Sys.dontWait | Sys.peek) }
        if case .failure(let error) = arrived, error.code == EAGAIN || error.code == EWOULDBLOCK { return true }
        while true {
            var buffer = pipeline.allocator.buffer(capacity: 16 << 10)
            var result = Result<Int, Errno>.success(0)
            buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: 16 << 10) { raw in
                result = Sys.receive(socket, raw, flags: Sys.dontWait)
                return (try? result.get()) ?? 0
            }
            switch result {
            case .failure(let error) where error.code == EAGAIN || error.code == EWOULDBLOCK: return true
            case .failure, .success(0): return false  // an error, or the end of the stream
            case .success: break
            }
            do {
                try pipeline.writeInbound(buffer)
                try sendPending()
                if try pipeline.readInbound(as: HTTPClientResponsePart.self) != nil { return false }
            } catch {
                return false
            }
            if !pipeline.isActive { return false }
        }
    }

    /// Sends what the handlers have written (a request, a CONNECT, TLS records).
    private func sendPending() throws {
        pipeline.embeddedEventLoop.run()
        while let bytes = try pipeline.readOutbound(as: ByteBuffer.self) {
            let socket = descriptor
            try bytes.withUnsafeReadableBytes { raw in
                if case .failure(let error) = Sys.sendAll(socket, raw) { throw Self.ioError(error, "send") }
            }
        }
    }

    /// The next part the decoder gives, reading from the socket as long as it needs bytes
    /// (and sending what the handlers answer meanwhile: TLS's handshake); nil when the stream
    /// ended with nothing more to give.
    private func nextPart() throws -> HTTPClientResponsePart? {
        while true {
            if let part = try pipeline.readInbound(as: HTTPClientResponsePart.self) {
                switch part {
                case .head(let head) where head.status.code < 200: break
                case .body(let buffer) where buffer.readableBytes == 0: break
                default: unproductive = 0
                }
                return part
            }
            if ended { return nil }
            let socket = descriptor
            var buffer = pipeline.allocator.buffer(capacity: Self.readSize)
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
                pipeline.pipeline.fireChannelInactive()
                pipeline.embeddedEventLoop.run()
                try pipeline.throwIfErrorCaught()
            } else {
                unproductive += count
                if unproductive > Self.unproductiveLimit {
                    reusable = false
                    throw HTTPConnectionError.endless(Self.unproductiveLimit)
                }
                try pipeline.writeInbound(buffer)
                try sendPending()
            }
        }
    }

    /// A socket error: a receive or send that waited the stall timeout is `stalled`.
    private static func ioError(_ error: Errno, _ call: String) -> Error {
        if error.code == EAGAIN || error.code == EWOULDBLOCK { return HTTPConnectionError.stalled }
        return IOError(errnoCode: error.code, reason: call)
    }
}

extension SocketConnection {
    /// The request head for a GET of `url` on `route`. The target is the URL's path and query
    /// as serialized (absolute form through a plain-HTTP proxy). Throws `invalidRequest` for
    /// what NIO's validator would have refused and matters: a target byte outside printable
    /// ASCII (a serialization has none: §1.3's sets encode them), a header name that is not a
    /// token, a value with CR, LF or NUL.
    static func requestHead(
        _ url: StandardURL, route: HTTPConnectionPool.Route, headers extra: [(String, String)]
    ) throws -> HTTPRequestHead {
        var target = url.path.isEmpty ? "/" : url.path
        if let query = url.query { target += "?" + query }
        if route.proxy != nil && !route.secure { target = StandardURL.withoutUserinfo(url).hrefWithoutFragment }
        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: target)
        let defaultPort = route.secure ? 443 : 80
        let hostHeader = (url.hostname ?? "") + (route.port == defaultPort ? "" : ":\(route.port)")
        // A field --header gives replaces the one made here (as curl's -H does): a request
        // with two Host fields is one a server must refuse (RFC 9112 §3.2).
        func given(_ name: String) -> Bool { extra.contains { HTTPText.equals($0.0, lowercase: name) } }
        if !given("host") { head.headers.add(name: "Host", value: hostHeader) }
        if let authorization = url.basicAuthorization, !given("authorization") {
            head.headers.add(name: "Authorization", value: authorization)
        }
        if let authorization = route.proxy?.authorization, !route.secure, !given("proxy-authorization") {
            head.headers.add(name: "Proxy-Authorization", value: authorization)
        }
        for (name, value) in extra { head.headers.add(name: name, value: value) }
        guard target.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }),
            head.headers.allSatisfy({ header in
                !header.name.isEmpty && header.name.utf8.allSatisfy { tokenBytes.contains($0) }
                    && !header.value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
            })
        else {
            throw HTTPConnectionError.invalidRequest
        }
        return head
    }

    /// RFC 9110 §5.6.2 tchar.
    static let tokenBytes = ByteSet("!#$%&'*+-.^_`|~", ranges: ByteSet.alphanumerics)
}
