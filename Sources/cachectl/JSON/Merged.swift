import CacheKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Two values' members in one JSON object (`first`'s, then `second`'s: the keys must differ).
struct Merged<First: Encodable, Second: Encodable>: Encodable {
    var first: First
    var second: Second

    init(_ first: First, _ second: Second) {
        self.first = first
        self.second = second
    }

    func encode(to encoder: Encoder) throws {
        try first.encode(to: encoder)
        try second.encode(to: encoder)
    }
}
