import NIOCore
import NIOHTTP1

/// A connection as one exchange sees it: send a request head, read the response head, then
/// its body a buffer at a time. `SocketConnection` (plain HTTP, on the fetching task's own
/// thread) and `HTTPConnection` (over NIO: HTTPS and tunnels) are the two kinds.
protocol HTTPExchange: AnyObject, Sendable {
    var route: HTTPConnectionPool.Route { get }
    /// Whether the connection may serve another exchange (the last response was read to its
    /// end and did not ask to close).
    var reusable: Bool { get set }
    /// Sends a GET for `url` and returns the response head (informational 1xx heads are
    /// skipped). A kept-alive connection the server had closed throws `staleConnection`.
    func get(_ url: StandardURL, headers extra: [(String, String)]) async throws -> HTTPResponseHead
    /// The next buffer of the response body; nil at its end.
    func nextBody() async throws -> ByteBuffer?
    /// Marks the body as abandoned: the connection closes after this exchange.
    func abandon()
}

extension HTTPExchange {
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
}
