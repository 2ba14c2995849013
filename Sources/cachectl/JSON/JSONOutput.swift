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
