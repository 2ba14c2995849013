import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

/// How to fetch.
public struct FetchOptions: Sendable {
    /// Lifetime in seconds for what is stored, overriding the response's headers
    /// (`--expires`). Nil: the headers decide (see `Freshness`).
    public var expires: Double?
    /// Each hit moves the expiry to now + lifetime (`--sliding`); entries stored are sliding.
    public var sliding = false
    /// Downloads at once (`--jobs`). Default 4 × cores.
    public var jobs = 4 * ProcessInfo.processInfo.activeProcessorCount
    /// Largest body accepted, in bytes (`--max-body`). Default 100 MiB.
    public var maxBody: Int64 = 100 << 20
    /// Seconds without a byte before a download is given up (`--timeout`). Default 30.
    public var stallTimeout: Double = 30
    /// Seconds to connect, over all of the host's addresses (tried as `Sys.connectFirst`
    /// says). Default 10.
    public var connectTimeout: Double = 10
    /// Redirects followed before giving up (a loop is detected before that). Default 10.
    public var maxRedirects = 10
    /// Keep the body of a response that may not be stored (`no-store`) in `tmp/` and hand
    /// it back (for `--print`); the caller discards it.
    public var keepUnstoredBodies = false
    /// PEM file of certificate authorities to trust instead of the system's (`--cacert`).
    public var caFile: String?
    /// Proxies (`ProxySettings.fromEnvironment()` reads `http_proxy` and the rest); none by
    /// default.
    public var proxies = ProxySettings()
    /// Retries after a connection error, a stall, a truncated body, a 5xx, 408 or 429
    /// (`--retry`). Default 0, as curl's.
    public var retries = 0
    /// The first wait before a retry, doubled for each further one (capped at 10 minutes),
    /// unless the response says `Retry-After`. Default 1 second.
    public var retryDelay: Double = 1
    /// Request headers to send (`--header`), after `User-Agent: cachectl` (which one named
    /// `User-Agent` replaces). A stored response whose `Vary` names one of them is used
    /// only for a request that sends the same values.
    public var headers: [(name: String, value: String)] = []

    /// `Name: value` → (name, value trimmed); nil when the name is no token (RFC 9110
    /// §5.6.2) or the text holds CR, LF or NUL (what `--header` takes).
    public static func header(parsing text: String) -> (name: String, value: String)? {
        guard let colon = text.firstIndex(of: ":"), !text.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 })
        else { return nil }
        let name = String(text[..<colon])
        guard !name.isEmpty, name.utf8.allSatisfy({ SocketConnection.tokenBytes.contains($0) }) else { return nil }
        return (name, text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }

    /// Every option at its default (each property states it).
    public init() {}
}
