import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

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
    /// The host name did not resolve: the name, and the resolver's words.
    case resolve(String)
    /// No address of the host answered within the connect timeout (where it connected).
    case connectTimeout(String)
    /// Every address of the host refused or failed: the last one's errno, where it connected.
    case cannotConnect(Int32, String)
    /// This many bytes came with neither a final response head nor a body byte among them:
    /// an endless status line, 1xx responses without end, chunk extensions without data.
    case endless(Int)
    /// A 101 Switching Protocols, though the request asked for no upgrade (RFC 9110 §15.2.2:
    /// a server switches only to a protocol the request's `Upgrade` names): what follows is
    /// not HTTP.
    case unaskedUpgrade

    var description: String {
        switch self {
        case .staleConnection, .closedBeforeResponse: return "connection closed by the server before the response"
        case .stalled: return "no data for too long (stalled; see --timeout)"
        case .proxy(let text): return "proxy: \(text)"
        case .tls(let text): return text
        case .invalidRequest: return "a request header holds a character HTTP does not allow"
        case .resolve(let text): return "cannot resolve host (\(text))"
        case .connectTimeout(let place): return "connection to \(place) timed out"
        case .cannotConnect(let code, let place):
            return "cannot connect to \(place): " + Fetcher.describe(IOError(errnoCode: code, reason: "connect"))
        case .endless(let limit):
            return "malformed response (\(limit >> 20) MiB received without a response head or body bytes)"
        case .unaskedUpgrade:
            return "malformed response (101 Switching Protocols, though the request asked for no other protocol)"
        }
    }
}

// MARK: - One connection's exchanges
