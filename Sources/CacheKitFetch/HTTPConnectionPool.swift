import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// HTTP/1.1 over NIO, with the request target written exactly as the URL Standard serializes
/// it (Foundation's URL, which other clients parse with, re-encodes `%2` as `%252` and
/// refuses hosts such as `!"$&'()*+,-.;=_`{}~`). Connections are kept alive and reused per
/// route; each runs in a task of its own that serves one exchange at a time (NIO's scoped
/// `executeThenClose`), so a response body is read with backpressure. Plain HTTP fetched in
/// a `FetchLane` goes through the lane's blocking `SocketConnection`s instead.
final class HTTPConnectionPool: @unchecked Sendable {
    // @unchecked Sendable: `idle`, `open` and `madeTLSContext` are only touched with `lock` held; the rest is
    // immutable.
    /// Where a connection goes: the origin, and the proxy it goes through, if any.
    struct Route: Hashable, Sendable {
        var secure: Bool
        /// The host as serialized, without IPv6 brackets.
        var host: String
        var port: Int
        var proxy: Proxy?
    }

    /// An HTTP proxy (`http_proxy`, `https_proxy`): plain HTTP URLs go to it in absolute
    /// form, HTTPS ones through a `CONNECT` tunnel.
    struct Proxy: Hashable, Sendable {
        var host: String
        var port: Int
        /// `Proxy-Authorization` value, from the proxy URL's userinfo.
        var authorization: String?
    }

    struct Settings: Sendable {
        var connectTimeout: TimeAmount
        var stallTimeout: TimeAmount
        /// PEM file of the certificate authorities to trust instead of the system's.
        var caFile: String?
        var proxies: ProxySettings
    }

    let settings: Settings
    private let group: EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    /// Made at the first HTTPS connection: loading the trust store takes milliseconds that a
    /// run of plain HTTP URLs need not pay.
    private var madeTLSContext: Result<NIOSSLContext, Error>?
    private let lock = ConditionLock()
    private var idle: [Route: [Connection]] = [:]
    private var open: [ObjectIdentifier: Connection] = [:]

    init(settings: Settings) {
        self.settings = settings
    }

    private func tlsContext() -> Result<NIOSSLContext, Error> {
        lock.withLock {
            if let made = madeTLSContext { return made }
            let made = Result {
                var configuration = TLSConfiguration.makeClientConfiguration()
                if let caFile = settings.caFile { configuration.trustRoots = .file(caFile) }
                return try NIOSSLContext(configuration: configuration)
            }
            madeTLSContext = made
            return made
        }
    }

    /// The route for a URL: its origin and the proxy the environment names for it.
    func route(for url: StandardURL) -> Route {
        var host = url.hostname ?? ""
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let secure = url.scheme == "https"
        return Route(
            secure: secure, host: host, port: url.port ?? (secure ? 443 : 80),
            proxy: settings.proxies.proxy(for: url))
    }

    /// Runs `body` with a connection on `route`: an idle one if there is, else a new one.
    /// A kept-alive connection the server closed before answering (`staleConnection`) is
    /// replaced by a new one once.
    /// Plain HTTP in a task with a `FetchLane` goes through the lane's own connections.
    func withConnection<T: Sendable>(_ route: Route, _ body: @escaping @Sendable (any HTTPExchange) async throws -> T)
        async throws -> T
    {
        if !route.secure, let lane = FetchLane.current {
            return try await lane.withConnection(route, settings: settings, body)
        }
        if let connection = takeIdle(route) {
            do {
                return try await connection.run(body)
            } catch HTTPConnectionError.staleConnection {
                // The server closed it while idle: a request never answered is safe to repeat.
            }
        }
        let connection = Connection(route: route, pool: self)
        lock.withLock { open[ObjectIdentifier(connection)] = connection }
        connection.start()
        return try await connection.run(body)
    }

    /// Closes every connection.
    func shutdown() {
        let all = lock.withLock { () -> [Connection] in
            let all = Array(open.values)
            idle = [:]
            return all
        }
        for connection in all { connection.finish() }
    }

    private func takeIdle(_ route: Route) -> Connection? {
        lock.withLock { idle[route]?.popLast() }
    }

    fileprivate func returnIdle(_ connection: Connection) {
        lock.withLock { idle[connection.route, default: []].append(connection) }
    }

    fileprivate func closed(_ connection: Connection) {
        lock.withLock {
            open[ObjectIdentifier(connection)] = nil
            idle[connection.route]?.removeAll { $0 === connection }
        }
    }

    // MARK: A connection's task

    /// One connection: a task that connects, then runs the exchanges given to it in turn.
    fileprivate final class Connection: @unchecked Sendable {
        // @unchecked Sendable: `channel` and `connectFailure` are only touched with `failureLock` held; the job stream
        // is Sendable.
        typealias Job = @Sendable (Result<HTTPConnection, Error>) async -> Bool
        let route: Route
        private let pool: HTTPConnectionPool
        private let failureLock = ConditionLock()
        private var connectFailure: Error?
        private let jobs: AsyncStream<Job>
        private let submit: AsyncStream<Job>.Continuation

        init(route: Route, pool: HTTPConnectionPool) {
            self.route = route
            self.pool = pool
            (jobs, submit) = AsyncStream<Job>.makeStream()
        }

        /// The channel once connected (closed to cancel an exchange).
        private var channel: Channel?

        /// Runs `body` on this connection's task and waits for it. Cancelling the caller
        /// closes the connection, which ends the exchange with an error.
        func run<T: Sendable>(_ body: @escaping @Sendable (any HTTPExchange) async throws -> T) async throws -> T {
            try await withTaskCancellationHandler {
                try await submitAndWait(body)
            } onCancel: {
                failureLock.withLock { channel }?.close(promise: nil)
            }
        }

        private func submitAndWait<T: Sendable>(_ body: @escaping @Sendable (any HTTPExchange) async throws -> T)
            async throws -> T
        {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
                let job: Job = { connection in
                    switch connection {
                    case .failure(let error):
                        continuation.resume(throwing: error)
                        return false
                    case .success(let http):
                        do {
                            continuation.resume(returning: try await body(http))
                        } catch {
                            http.reusable = false
                            continuation.resume(throwing: error)
                        }
                        return http.reusable
                    }
                }
                if case .terminated = submit.yield(job) {
                    continuation.resume(
                        throwing: failureLock.withLock { connectFailure } ?? HTTPConnectionError.staleConnection)
                }
            }
        }

        func finish() { submit.finish() }

        func start() {
            Task { [self] in
                defer {
                    submit.finish()
                    pool.closed(self)
                }
                do {
                    let channel = try await pool.connect(route)
                    failureLock.withLock { self.channel = channel.channel }
                    try await channel.executeThenClose { inbound, outbound in
                        let http = HTTPConnection(
                            route: route, inbound: inbound.makeAsyncIterator(), outbound: outbound)
                        for await job in jobs {
                            guard await job(.success(http)) else { break }
                            pool.returnIdle(self)
                        }
                    }
                } catch {
                    // Connecting failed: every job waiting gets the error.
                    failureLock.withLock { connectFailure = error }
                    submit.finish()
                    for await job in jobs { _ = await job(.failure(error)) }
                }
            }
        }
    }

    // MARK: Connecting

    private func connect(_ route: Route) async throws -> NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>
    {
        let tls: NIOSSLContext?
        if route.secure {
            switch tlsContext() {
            case .success(let context): tls = context
            case .failure(let error): throw HTTPConnectionError.tls("cannot set up TLS: \(error)")
            }
        } else {
            tls = nil
        }
        let target = route.proxy.map { ($0.host, $0.port) } ?? (route.host, route.port)
        let stall = settings.stallTimeout
        return try await ClientBootstrap(group: group)
            .connectTimeout(settings.connectTimeout)
            .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .connect(host: target.0, port: target.1) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if let proxy = route.proxy, route.secure {
                        try pipeline.addHandler(
                            TunnelHandler(host: route.host, port: route.port, authorization: proxy.authorization))
                    }
                    if let tls {
                        let isAddress =
                            route.host.contains(":")
                            || route.host.split(separator: ".").allSatisfy { $0.allSatisfy(\.isNumber) }
                        try pipeline.addHandler(
                            try NIOSSLClientHandler(context: tls, serverHostname: isAddress ? nil : route.host))
                    }
                    // NIO's outbound validation refuses `|`, `{`, `}`, `^` and `` ` `` in a
                    // request target, which browsers send as the URL Standard leaves them;
                    // `get` checks the head itself (no controls, spaces or non-ASCII).
                    try pipeline.addHTTPClientHandlers(
                        leftOverBytesStrategy: .fireError, enableOutboundHeaderValidation: false)
                    try pipeline.addHandler(StallHandler(timeout: stall))
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(
                        wrappingChannelSynchronously: channel)
                }
            }
    }
}

/// Fails the channel when a response takes longer than the stall timeout between reads,
/// counted from the request's end (an idle kept-alive connection is never timed).
private final class StallHandler: ChannelDuplexHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundIn = HTTPClientRequestPart
    private let timeout: TimeAmount
    private var timer: Scheduled<Void>?

    init(timeout: TimeAmount) { self.timeout = timeout }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { arm(context) }
        context.write(data, promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) {
            timer?.cancel()
            timer = nil
        } else {
            arm(context)
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        context.fireChannelInactive()
    }

    private func arm(_ context: ChannelHandlerContext) {
        timer?.cancel()
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: timeout) {
            loopBound.value.fireErrorCaught(HTTPConnectionError.stalled)
            loopBound.value.close(promise: nil)
        }
    }
}

/// Opens a `CONNECT` tunnel through an HTTP proxy before TLS starts: holds back
/// `channelActive` (so the TLS handshake waits) and any writes until the proxy answers 2xx.
private final class TunnelHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    private let request: String
    private var response = ByteBuffer()
    private var pending: [(NIOAny, EventLoopPromise<Void>?)] = []
    private var established = false

    init(host: String, port: Int, authorization: String?) {
        let authority = (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
        request =
            "CONNECT \(authority) HTTP/1.1\r\nHost: \(authority)\r\n"
            + (authorization.map { "Proxy-Authorization: \($0)\r\n" } ?? "") + "\r\n"
    }

    func channelActive(context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: request)), promise: nil)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if established { context.write(data, promise: promise) } else { pending.append((data, promise)) }
    }

    func flush(context: ChannelHandlerContext) {
        if established { context.flush() }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !established else { return context.fireChannelRead(data) }
        var buffer = unwrapInboundIn(data)
        response.writeBuffer(&buffer)
        let view = response.readableBytesView
        guard let end = view.firstRange(of: Array("\r\n\r\n".utf8)) else {
            if response.readableBytes > 16 << 10 { fail(context, "response to CONNECT too long") }
            return
        }
        let head = String(decoding: view[view.startIndex..<end.lowerBound], as: UTF8.self)
        let status = head.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) }
        guard let status, (200..<300).contains(status) else {
            return fail(context, "CONNECT refused: \(head.split(separator: "\r\n").first ?? "")")
        }
        established = true
        context.fireChannelActive()
        for (data, promise) in pending { context.write(data, promise: promise) }
        pending = []
        context.flush()
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    private func fail(_ context: ChannelHandlerContext, _ text: String) {
        for (_, promise) in pending { promise?.fail(HTTPConnectionError.proxy(text)) }
        pending = []
        context.fireErrorCaught(HTTPConnectionError.proxy(text))
        context.close(promise: nil)
    }
}

// MARK: - Proxies from the environment

extension StandardURL {
    /// The URL without username and password (what goes on the wire to a proxy).
    static func withoutUserinfo(_ url: StandardURL) -> StandardURL {
        var record = url.record
        record.username = []
        record.password = []
        return StandardURL(record)
    }

    /// `Basic` credentials from the userinfo (percent-decoded), or nil when it has none.
    var basicAuthorization: String? {
        guard !record.username.isEmpty || !record.password.isEmpty else { return nil }
        let credentials =
            HostParser.percentDecode(record.username) + [UInt8(ascii: ":")] + HostParser.percentDecode(record.password)
        return "Basic " + Data(credentials).base64EncodedString()
    }
}
