import CacheKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Shapes shared by several documents.
enum JSONShapes {
    /// A time as ISO 8601 in UTC (`2026-11-23T14:53:39Z`), or nil.
    static func time(_ value: FileTime?) -> String? { value.map(DateText.iso8601) }

    /// A path and a message: an error, a failure, a kept entry's reason.
    struct PathMessage: Encodable {
        var path: String
        var message: String
    }

    /// A number of entries and their allocated bytes.
    struct Tally: Encodable {
        var count: Int
        var allocatedBytes: Int64
        init(_ totals: StateTotals) {
            count = totals.count
            allocatedBytes = totals.allocatedBytes
        }
    }
}
