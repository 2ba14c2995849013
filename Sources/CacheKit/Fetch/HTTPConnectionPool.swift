import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// HTTP/1.1 over NIO, with the request target written exactly as the URL Standard serializes
/// it (Foundation's URL, which other clients parse with, re-encodes `%2` as `%252` and
/// refuses hosts such as `!"$&'()*+,-.;=_`{}~`). Connections are kept alive and reused per
/// route; each runs in a task of its own that serves one exchange at a time (NIO's scoped
/// `executeThenClose`), so a response body is read with backpressure.
final class HTTPConnectionPool: @unchecked Sendable {
    // @unchecked Sendable: `idle` and `open` are only touched with `lock` held; the rest is immutable.
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
    private let tlsContext: Result<NIOSSLContext, Error>
    private let lock = NSLock()
    private var idle: [Route: [Connection]] = [:]
    private var open: [ObjectIdentifier: Connection] = [:]

    init(settings: Settings) {
        self.settings = settings
        tlsContext = Result {
            var configuration = TLSConfiguration.makeClientConfiguration()
            if let caFile = settings.caFile { configuration.trustRoots = .file(caFile) }
            return try NIOSSLContext(configuration: configuration)
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
    func withConnection<T: Sendable>(_ route: Route, _ body: @escaping @Sendable (HTTPConnection) async throws -> T)
        async throws -> T
    {
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
        private let failureLock = NSLock()
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
        func run<T: Sendable>(_ body: @escaping @Sendable (HTTPConnection) async throws -> T) async throws -> T {
            try await withTaskCancellationHandler {
                try await submitAndWait(body)
            } onCancel: {
                failureLock.withLock { channel }?.close(promise: nil)
            }
        }

        private func submitAndWait<T: Sendable>(_ body: @escaping @Sendable (HTTPConnection) async throws -> T)
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
            switch tlsContext {
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

enum HTTPConnectionError: Error, CustomStringConvertible {
    /// A kept-alive connection ended before any of the response came.
    case staleConnection
    /// The connection ended before the response head.
    case closedBeforeResponse
    /// No byte for the stall timeout.
    case stalled
    case proxy(String)
    case tls(String)
    /// A header or target cachectl will not send (controls, a name that is no token).
    case invalidRequest

    var description: String {
        switch self {
        case .staleConnection, .closedBeforeResponse: return "connection closed by the server before the response"
        case .stalled: return "no data for too long (stalled; see --timeout)"
        case .proxy(let text): return "proxy: \(text)"
        case .tls(let text): return text
        case .invalidRequest: return "a request header holds a character HTTP does not allow"
        }
    }
}

// MARK: - One connection's exchanges

/// A connection as an exchange sees it: send a request head, read the response head, then
/// its body a buffer at a time.
final class HTTPConnection: @unchecked Sendable {
    // @unchecked Sendable: used by one exchange at a time, on its connection's task (`Connection.start` runs the jobs
    // in turn).
    let route: HTTPConnectionPool.Route
    private var inbound: NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator
    private let outbound: NIOAsyncChannelOutboundWriter<HTTPClientRequestPart>
    /// Whether the connection may serve another exchange (the last response was read to its
    /// end and did not ask to close).
    var reusable = true
    private var exchanges = 0
    private var bodyDone = true

    init(
        route: HTTPConnectionPool.Route, inbound: NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator,
        outbound: NIOAsyncChannelOutboundWriter<HTTPClientRequestPart>
    ) {
        self.route = route
        self.inbound = inbound
        self.outbound = outbound
    }

    /// Sends a GET for `url` and returns the response head (informational 1xx heads are
    /// skipped). The request target is the URL's path and query as serialized (absolute
    /// form through a plain-HTTP proxy).
    func get(_ url: StandardURL, headers extra: [(String, String)]) async throws -> HTTPResponseHead {
        // The previous response's body must have been read (or abandoned) first.
        guard bodyDone else {
            reusable = false
            throw HTTPConnectionError.invalidRequest
        }
        exchanges += 1
        let reused = exchanges > 1
        var target = url.path.isEmpty ? "/" : url.path
        if let query = url.query { target += "?" + query }
        if route.proxy != nil && !route.secure { target = StandardURL.withoutUserinfo(url).hrefWithoutFragment }
        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: target)
        let defaultPort = route.secure ? 443 : 80
        let hostHeader = (url.hostname ?? "") + (route.port == defaultPort ? "" : ":\(route.port)")
        head.headers.add(name: "Host", value: hostHeader)
        if let authorization = url.basicAuthorization { head.headers.add(name: "Authorization", value: authorization) }
        if let authorization = route.proxy?.authorization, !route.secure {
            head.headers.add(name: "Proxy-Authorization", value: authorization)
        }
        for (name, value) in extra { head.headers.add(name: name, value: value) }
        // What NIO's validator would have refused and matters: a target byte outside
        // printable ASCII (a serialization has none: §1.3's sets encode them), a header name
        // that is not a token, a value with CR, LF or NUL.
        guard target.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }),
            head.headers.allSatisfy({ header in
                !header.name.isEmpty && header.name.utf8.allSatisfy { Self.tokenBytes.contains($0) }
                    && !header.value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
            })
        else {
            reusable = false
            throw HTTPConnectionError.invalidRequest
        }
        do {
            try await outbound.write(contentsOf: [.head(head), .end(nil)])
        } catch {
            reusable = false
            throw reused ? HTTPConnectionError.staleConnection : error
        }
        while true {
            let part: HTTPClientResponsePart?
            do {
                part = try await inbound.next()
            } catch {
                reusable = false
                if reused, case ChannelError.ioOnClosedChannel = error { throw HTTPConnectionError.staleConnection }
                throw error
            }
            switch part {
            case .head(let response) where response.status.code >= 100 && response.status.code < 200:
                continue
            case .head(let response):
                bodyDone = false
                if !response.isKeepAlive { reusable = false }
                return response
            case .body, .end:
                reusable = false
                throw HTTPConnectionError.closedBeforeResponse
            case nil:
                reusable = false
                throw reused ? HTTPConnectionError.staleConnection : HTTPConnectionError.closedBeforeResponse
            }
        }
    }

    /// The next buffer of the response body; nil at its end.
    func nextBody() async throws -> ByteBuffer? {
        guard !bodyDone else { return nil }
        do {
            switch try await inbound.next() {
            case .body(let buffer): return buffer
            case .end:
                bodyDone = true
                return nil
            case .head, nil:
                bodyDone = true
                reusable = false
                throw HTTPParserError.invalidEOFState
            }
        } catch {
            bodyDone = true
            reusable = false
            throw error
        }
    }

    /// RFC 9110 §5.6.2 tchar.
    static let tokenBytes = ByteSet("!#$%&'*+-.^_`|~", ranges: ByteSet.alphanumerics)

    /// Reads and drops the rest of the body (of a redirect or an error page), at most
    /// `limit` bytes; past that the connection is not reused.
    func discardBody(limit: Int = 1 << 20) async throws {
        var read = 0
        while let buffer = try await nextBody() {
            read += buffer.readableBytes
            if read > limit {
                reusable = false
                bodyDone = true
                return
            }
        }
    }

    /// Marks the body as abandoned: the connection closes after this exchange.
    func abandon() {
        reusable = false
        bodyDone = true
    }
}

// MARK: - Handlers

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

/// `http_proxy`, `https_proxy` (also `HTTPS_PROXY`; `HTTP_PROXY` only in lower case, as curl
/// reads it, since CGI sets `HTTP_PROXY` from a request header) and `no_proxy`.
public struct ProxySettings: Sendable {
    var http: HTTPConnectionPool.Proxy?
    var https: HTTPConnectionPool.Proxy?
    /// `no_proxy` entries: host names (a leading `.` optional) matching themselves and their
    /// subdomains, addresses, or `*` for every host.
    var exclusions: [String] = []

    /// No proxies.
    public init() {}

    /// The proxies `http_proxy`, `https_proxy` and `no_proxy` (either case) name, as curl reads them.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        -> ProxySettings
    {
        var settings = ProxySettings()
        settings.http = environment["http_proxy"].flatMap(parse)
        settings.https = (environment["https_proxy"] ?? environment["HTTPS_PROXY"]).flatMap(parse)
        settings.exclusions = (environment["no_proxy"] ?? environment["NO_PROXY"] ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
        return settings
    }

    /// A proxy URL: `host:port`, `http://[user:pass@]host[:port]` (port default 1080, as
    /// curl's).
    static func parse(_ text: String) -> HTTPConnectionPool.Proxy? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, let url = StandardURL(trimmed.contains("://") ? trimmed : "http://" + trimmed),
            url.scheme == "http" || url.scheme == "https", var host = url.hostname, !host.isEmpty
        else { return nil }
        if host.hasPrefix("[") { host = String(host.dropFirst().dropLast()) }
        return HTTPConnectionPool.Proxy(
            host: host, port: url.port ?? (url.scheme == "https" ? 443 : 1080), authorization: url.basicAuthorization)
    }

    func proxy(for url: StandardURL) -> HTTPConnectionPool.Proxy? {
        guard let proxy = url.scheme == "https" ? https : http else { return nil }
        var host = (url.hostname ?? "").lowercased()
        if host.hasPrefix("[") { host = String(host.dropFirst().dropLast()) }
        for entry in exclusions {
            if entry == "*" { return nil }
            var name = entry.hasPrefix(".") ? String(entry.dropFirst()) : entry
            if let colon = name.lastIndex(of: ":"), !name.hasPrefix("["), name.filter({ $0 == ":" }).count == 1 {
                name = String(name[..<colon])  // a port in the entry: curl ignores it too
            }
            if name.hasPrefix("[") { name = String(name.dropFirst().dropLast()) }
            if host == name || host.hasSuffix("." + name) { return nil }
        }
        return proxy
    }
}

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
