import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

/// What became of one URL.
public struct FetchResult: Sendable {
    /// What became of a URL, as `--json` names it.
    public enum Outcome: String, Sendable {
        /// Fresh in the cache: no request was made.
        case hit
        /// Downloaded and stored.
        case downloaded
        /// Expired, revalidated with a conditional request: `304 Not Modified` renewed it.
        case revalidated
        /// Downloaded, but the server said `no-store`: not kept.
        case notStored = "not-stored"
        case failed
    }

    /// The URL as given.
    public var url: String
    /// What became of it.
    public var outcome: Outcome
    /// The final HTTP status, when a response came.
    public var status: Int?
    /// Body bytes received (0 for a hit or a 304).
    public var bytesReceived: Int64 = 0
    /// The stored body (hit, downloaded, revalidated).
    public var path: RawPath?
    /// When the entry expires (nil: never, or not stored).
    public var expires: FileTime?
    /// Where the lifetime came from.
    public var freshnessSource: Freshness.Source?
    /// Why it failed, in words.
    public var error: String?
    /// Same URL as an earlier one in the run: answered by that one's download.
    public var duplicate = false
    /// Requests made for it, retries included (0 for a hit).
    public var attempts = 0
    /// Stopped by cancellation (Ctrl-C) before it finished; nothing of it was kept.
    public var interrupted = false
    /// With `keepUnstoredBodies`, the body of a `notStored` response (remove it after use).
    public var unstoredBody: RawPath?
    /// The response's `Content-Type`, when a body came (nil otherwise).
    public var contentType: String?
    /// The URL the response came from when redirects led there (nil: the URL asked for).
    public var responseURL: String?
    /// The body's place in the run's commit queue until the run ends.
    var commitTicket: Int?

    /// The URL is available (stored and fresh, or just downloaded).
    public var succeeded: Bool { outcome != .failed }
}
