import CacheKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One command's `--json` document: a Codable value whose shape `docs/schema/<schema>` describes
/// (the end-to-end tests validate every `--json` output against that file).
protocol JSONOutput: Encodable {
    /// The schema's file name under `docs/schema/`.
    static var schema: String { get }
}

extension Output {
    /// Writes `document` as JSON: two-space indentation, keys sorted (a stable order for diffs
    /// and tests), `/` not escaped, a final newline.
    static func write<Document: JSONOutput>(json document: Document) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(document)
        write(bytes: Array(data) + [0x0A])
    }
}

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
