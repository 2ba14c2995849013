import CacheKitSystem

/// One of a fetch's concurrent downloads, running on a thread of its own (`ThreadExecutor`),
/// with the connections it keeps alive: a lane takes URL after URL and reuses its own
/// connections, as each of curl's transfers does. `HTTPConnectionPool.withConnection` uses the
/// current task's lane. At most `idleLimit` connections stay open idle (a page's images from
/// hundreds of hosts would otherwise hold a descriptor each until the fetch ends): past it,
/// the one idle longest is closed.
final class FetchLane: @unchecked Sendable {
    // @unchecked Sendable: `idle` and `idleOrder` are only touched by the lane's one task, whose jobs all run
    // on the lane's thread, one at a time.
    /// The lane of the running task, if it has one.
    @TaskLocal static var current: FetchLane?

    private var idle: [HTTPConnectionPool.Route: [SocketConnection]] = [:]
    /// The idle connections, the one idle longest first.
    private var idleOrder: [SocketConnection] = []
    let idleLimit: Int

    init(idleLimit: Int = 16) {
        self.idleLimit = max(1, idleLimit)
    }

    /// Runs `body` with an idle connection to `route`, else a new one. A kept-alive
    /// connection the server closed before answering (`staleConnection`) is replaced by a new
    /// one once. Cancelling the task ends the connection, which ends the exchange.
    func withConnection<T>(
        _ route: HTTPConnectionPool.Route, pool: HTTPConnectionPool, _ body: (SocketConnection) async throws -> T
    ) async throws -> T {
        if let connection = idle[route]?.popLast() {
            idleOrder.removeAll { $0 === connection }
            do {
                return try await exchange(on: connection, body)
            } catch HTTPConnectionError.staleConnection {
                // The server closed it while idle: a request never answered is safe to repeat.
            }
        }
        try Task.checkCancellation()
        let tls = route.secure ? try pool.tlsContext() : nil
        return try await exchange(on: try SocketConnection(route: route, settings: pool.settings, tls: tls), body)
    }

    private func exchange<T>(on connection: SocketConnection, _ body: (SocketConnection) async throws -> T)
        async throws -> T
    {
        defer {
            if connection.reusable {
                keepIdle(connection)
            } else {
                connection.close()
            }
        }
        do {
            return try await withTaskCancellationHandler {
                try await body(connection)
            } onCancel: {
                connection.interrupt()
            }
        } catch {
            connection.reusable = false
            throw error
        }
    }

    private func keepIdle(_ connection: SocketConnection) {
        idle[connection.route, default: []].append(connection)
        idleOrder.append(connection)
        guard idleOrder.count > idleLimit else { return }
        let oldest = idleOrder.removeFirst()
        idle[oldest.route]?.removeAll { $0 === oldest }
        if idle[oldest.route]?.isEmpty == true { idle[oldest.route] = nil }
        oldest.close()
    }

    /// Closes the connections kept alive (on the lane's thread, which made them).
    func closeAll() {
        for connection in idleOrder { connection.close() }
        idle = [:]
        idleOrder = []
    }
}
