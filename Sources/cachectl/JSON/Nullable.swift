import CacheKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An optional member written as `null` when absent (Codable would leave the key out): every
/// key of a document is always present, so a reader can rely on the shape.
// swift-format-ignore: UseSynthesizedInitializer
@propertyWrapper
struct Nullable<Value: Encodable>: Encodable {
    var wrappedValue: Value?

    // Spelled out (hence the format rule ignored above): with only the synthesized one,
    // the compiler fails on the documents' initializers.
    init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}
