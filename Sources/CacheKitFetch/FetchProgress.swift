import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

/// Progress of a fetch run, reported as it changes.
public struct FetchProgress: Sendable {
    /// URLs finished (in any outcome).
    public var itemsDone = 0
    /// URLs in the run.
    public var itemsTotal = 0
    /// Body bytes received so far.
    public var bytesReceived: Int64 = 0
    /// Sum of the Content-Length of responses seen so far (nil while none gave one).
    public var bytesExpected: Int64?

    /// A snapshot; every count defaults to 0, `bytesExpected` to unknown (nil).
    public init(itemsDone: Int = 0, itemsTotal: Int = 0, bytesReceived: Int64 = 0, bytesExpected: Int64? = nil) {
        (self.itemsDone, self.itemsTotal, self.bytesReceived, self.bytesExpected) = (
            itemsDone, itemsTotal, bytesReceived, bytesExpected
        )
    }
}
