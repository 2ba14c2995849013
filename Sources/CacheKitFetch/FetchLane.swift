import CacheKitSystem

/// One of a fetch's concurrent downloads, running on a thread of its own (`ThreadExecutor`),
/// with the plain-HTTP connections it keeps alive: a lane takes URL after URL and reuses its
/// own connections, as each of curl's transfers does. `HTTPConnectionPool.withConnection`
/// uses the current task's lane.
final class FetchLane: @unchecked Sendable {
    // @unchecked Sendable: `idle` is only touched by the lane's one task, whose jobs all run
    // on the lane's thread, one at a time.
    /// The lane of the running task, if it has one.
    @TaskLocal static var current: FetchLane?

    private var idle: [HTTPConnectionPool.Route: [SocketConnection]] = [:]

    /// Runs `body` with an idle connection to `route`, else a new one. A kept-alive
    /// connection the server closed before answering (`staleConnection`) is replaced by a new
    /// one once. Cancelling the task ends the connection, which ends the exchange.
    func withConnection<T>(
        _ route: HTTPConnectionPool.Route, pool: HTTPConnectionPool, _ body: (SocketConnection) async throws -> T
    ) async throws -> T {
        if let connection = idle[route]?.popLast() {
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
                idle[connection.route, default: []].append(connection)
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

    /// Closes the connections kept alive (on the lane's thread, which made them).
    func closeAll() {
        for connection in idle.values.joined() { connection.close() }
        idle = [:]
    }
}
