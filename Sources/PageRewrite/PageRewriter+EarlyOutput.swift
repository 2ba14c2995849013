extension PageRewriter.Job {
    /// How many of the original's first bytes the output is likely to keep, as the scan and its
    /// decisions foresee: up to the first tag holding a reference decided local (a rewritten
    /// value, and the `crossorigin`, `integrity` or `--eager` edits of the same tag), a value
    /// the scan did not read (character references it does not decode: the parse decides
    /// it), a `<base>`, or a `<style>`'s local `url(…)`; when the output is moved (references
    /// made absolute) and no `<base>` stands, up to the first tag with a URL attribute or the
    /// first `<style>`. All of it when none: nothing is foreseen to change. A guess for the
    /// early write only: the output keeps what it truly shares with it
    /// (`LocalizeResult.unchangedPrefix`), however it falls.
    func likelyUnchangedPrefix(
        _ scanned: PageRewriter.Scanned, likely: [String], tagOfReference: [Int], unread: Int?,
        styleTokens: [(url: String, range: Range<Int>)]
    ) -> Int {
        let tags = scanned.tags
        var first = unread.map { tags[$0].range.lowerBound } ?? page.count
        for (i, reference) in likely.enumerated() where decisions[reference]?.local != nil {
            first = min(first, tags[tagOfReference[i]].range.lowerBound)
            break  // in document order: the first one found is the earliest
        }
        for token in styleTokens where decisions[token.url]?.local != nil {
            first = min(first, token.range.lowerBound)
            break
        }
        let baseName = Array("base".utf8)
        let base = tags.firstIndex { $0.name == baseName }
        if let base { first = min(first, tags[base].range.lowerBound) }
        if moving, base == nil {
            let urlTag = tags.firstIndex { tag in
                tag.attributes.contains { attribute in LibXML2.wantedAttributes.contains(attribute.name) }
            }
            if let urlTag { first = min(first, tags[urlTag].range.lowerBound) }
            if let style = scanned.styleTexts.first { first = min(first, style.lowerBound) }
        }
        guard let view else { return min(first, original.count) }
        return first >= page.count ? original.count : view.originalRange(first..<first).lowerBound
    }
}
