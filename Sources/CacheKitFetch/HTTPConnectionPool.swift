import CacheKitSystem
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

/// Where requests go and how: routes (origin and proxy), settings, and the TLS context made
/// once. The connections themselves belong to the fetch's lanes (`FetchLane`): each download
/// keeps its own connections alive and reuses them per route. The request target is written
/// exactly as the URL Standard serializes it (Foundation's URL, which other clients parse with,
/// re-encodes `%2` as `%252` and refuses hosts such as `!"$&'()*+,-.;=_`{}~`).
final class HTTPConnectionPool: @unchecked Sendable {
    // @unchecked Sendable: `madeTLSContext` is only touched with `lock` held; the rest is
    // immutable.
    /// Where a connection goes: the origin, and the proxy it goes through, if any.
    struct Route: Hashable, Sendable {
        var secure: Bool
        /// The host as serialized, without IPv6 brackets.
        var host: String
        var port: Int
        var proxy: Proxy?

        /// Whether the host is an IPv4 or IPv6 address, not a name.
        var hostIsAddress: Bool { Sys.isNumericAddress(host) }
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
    /// Made at the first HTTPS connection: loading the trust store takes milliseconds that a
    /// run of plain HTTP URLs need not pay.
    private var madeTLSContext: Result<NIOSSLContext, Error>?
    private let lock = ConditionLock()

    init(settings: Settings) {
        self.settings = settings
    }

    /// The TLS context HTTPS connections share.
    func tlsContext() throws -> NIOSSLContext {
        let made = lock.withLock {
            if let made = madeTLSContext { return made }
            let made = Result {
                var configuration = TLSConfiguration.makeClientConfiguration()
                if let caFile = settings.caFile { configuration.trustRoots = .file(caFile) }
                return try NIOSSLContext(configuration: configuration)
            }
            madeTLSContext = made
            return made
        }
        do { return try made.get() } catch { throw HTTPConnectionError.tls("cannot set up TLS: \(error)") }
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

    /// Runs `body` with a connection on `route` from the running task's lane (a lane of its
    /// own, its connections closed after, outside one).
    func withConnection<T>(_ route: Route, _ body: (SocketConnection) async throws -> T) async throws -> T {
        if let lane = FetchLane.current { return try await lane.withConnection(route, pool: self, body) }
        let lane = FetchLane()
        defer { lane.closeAll() }
        return try await lane.withConnection(route, pool: self, body)
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
