import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

/// A final status that is not content, with its `Retry-After` in seconds from now.
struct HTTPStatusError: Error {
    var code: Int
    var reason: String
    var retryAfter: Double?
}
