import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// A connection over NIO (HTTPS, and tunnels through a proxy): a task of its own reads and
/// writes it, and an exchange runs on that task (`HTTPConnectionPool.withConnection`).
final class HTTPConnection: HTTPExchange, @unchecked Sendable {
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
        let head: HTTPRequestHead
        do {
            head = try Self.requestHead(url, route: route, headers: extra)
        } catch {
            reusable = false
            throw error
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
        head.headers.add(name: "Host", value: hostHeader)
        if let authorization = url.basicAuthorization { head.headers.add(name: "Authorization", value: authorization) }
        if let authorization = route.proxy?.authorization, !route.secure {
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

    /// Marks the body as abandoned: the connection closes after this exchange.
    func abandon() {
        reusable = false
        bodyDone = true
    }
}

// MARK: - Handlers
