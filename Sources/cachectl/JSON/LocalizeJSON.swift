import CacheKit

/// `cachectl localize --json` (schema `docs/schema/localize.schema.json`): per page, every
/// reference found and what became of it.
struct LocalizeJSON: JSONOutput {
    static let schema = "localize.schema.json"

    struct Reference: Encodable {
        /// Byte offset and length of the value in the input page.
        var offset: Int
        var length: Int
        var line: Int
        var element: String
        /// Null for references in CSS (`<style>` text).
        @Nullable var attribute: String?
        var original: String
        @Nullable var resolved: String?
        var outcome: String
        @Nullable var localPath: String?
        @Nullable var note: String?

        init(_ r: ImageReference) {
            offset = r.offset
            length = r.length
            line = r.line
            element = r.element
            attribute = r.attribute
            original = r.original
            resolved = r.resolved
            outcome = r.outcome.rawValue
            localPath = r.localPath
            note = r.note
        }
    }

    struct Page: Encodable {
        var page: String
        @Nullable var output: String?
        var charset: String
        var charsetSource: String
        var baseNeutralized: Bool
        var referencesAbsolutized: Bool
        var references: [Reference]

        init(page: String, output: RawPath?, result: LocalizeResult) {
            self.page = page
            self.output = output?.description
            charset = result.charset.encoding
            charsetSource = result.charset.source.rawValue
            baseNeutralized = result.baseNeutralized
            referencesAbsolutized = result.referencesAbsolutized
            references = result.references.map(Reference.init)
        }
    }

    var pages: [Page]
}
