import CacheKitSystem
import URLStandard

extension PageRewriter {
    /// One page being rewritten: what it was given, what it decided, and the steps.
    ///
    /// Two threads work on it (see `scanAndParse`). Its mutable fields are written by one
    /// thread at a time: `decisions`, `copies` and `prefetched` by the scanning thread until
    /// it hands them over with `SiteWork.decided` (which the parse thread waits for before it
    /// reads them), `lines` by whichever thread is first free to make it (under `linesMade`,
    /// before the parse is handed over or taken), then only by the calling thread once both
    /// threads have joined. `directoryPrefixes` is written by whichever thread makes decisions,
    /// under the same hand-over.
    final class Job: @unchecked Sendable {
        // @unchecked Sendable: each field has one writer at a time, handed over through `SiteWork` (see above).
        // @unchecked: the hand-over above (a semaphore in `SiteWork` and the join of
        // `WorkerPool.both`) orders every access; no field is written by two threads at once.

        // MARK: What it was given

        /// The page as given, in its own charset (edits are applied to these bytes).
        let original: [UInt8]
        let options: LocalizeOptions
        /// Where copies go (`--assets`), or nil: the page references cached files in place.
        let placer: CopyPlacer?
        /// Looks up many absolute URLs (without fragment) at once, answering in their order;
        /// may spread its work with the loop runner it is given.
        let lookupMany: ([String], LoopRunner) -> [CachedCopy?]

        // MARK: What follows from it

        /// The charset the page is read in (`--charset`, the page's own declaration, UTF-8
        /// when valid, else windows-1252).
        let charset: Charset.Decision
        /// An exact UTF-8 view of a page in another charset (libxml2 reads UTF-8), with the
        /// original offset of every byte; nil for a UTF-8 page.
        let view: TranscodedView?
        /// The bytes parsed and scanned: the view's, or the original's.
        let page: [UInt8]
        /// What libxml2 parses: `page`, or a copy with the comments it would end elsewhere
        /// than browsers blanked (`LibXML2.input(for:)`).
        let parserInput: [UInt8]
        /// The page's URL (`--base-url`), or `http://localhost/` when it has none.
        let pageURL: StandardURL
        /// The page's charset when its URLs' queries are encoded in it (not UTF-8 or UTF-16).
        let queryEncoder: StandardURL.QueryEncoder?
        /// The output directory's path components, for relative references from it.
        let outputParts: [[UInt8]]
        /// Whether the output lives elsewhere than the page's URL, so that every relative
        /// reference not made local is made absolute (and the one parse collects every URL
        /// attribute for that).
        let moving: Bool

        // MARK: What it decides

        /// Each reference as written, decided: resolved, looked up, its local path.
        var decisions = DecisionTable()
        /// Each looked-up URL's copy (nil inside: looked up, not found).
        var copies: [String: CachedCopy?] = [:]
        /// The batch looked up while the parse ran; made into `copies` only if a reference
        /// the scan did not suggest needs deciding (most pages: never).
        var prefetched: (urls: [String], found: [CachedCopy?]) = ([], [])
        /// The relative prefix from the output to each directory holding copies (a store
        /// has 256), so each is computed once.
        var directoryPrefixes: [BytesKey: String] = [:]
        /// What `run` made and no longer needs, until `takeLeftovers` moves it out.
        var leftovers: Any?
        /// What deciding the likely references made and no longer needs (their resolutions, the
        /// decisions as made): kept for `takeLeftovers` rather than freed on the scanning thread
        /// (20,000 resolved URLs and decisions, four strings and a release apiece).
        var decidingLeftovers: Any?
        /// Line numbers by offset; made once, by the thread first free to (`makeLines`).
        var lines = LineIndex()
        /// Whether `lines` is made, and the lock its making is under.
        private let linesMade = Locked(false)

        init(
            _ original: [UInt8], options: LocalizeOptions, placer: CopyPlacer?,
            lookup: @escaping ([String], LoopRunner) -> [CachedCopy?]
        ) {
            (self.original, self.options, self.placer, lookupMany) = (original, options, placer, lookup)
            charset = Charset.decide(original, option: options.charset, contentType: options.contentType)
            view = charset.encoding == "UTF-8" ? nil : TranscodedView(original, encoding: charset.encoding)
            page = view?.bytes ?? original
            parserInput = LibXML2.input(for: page)
            queryEncoder = view == nil ? nil : QueryEncoding.encoder(charset.encoding)
            pageURL = StandardURL(options.pageURL) ?? StandardURL("http://localhost/")!
            outputParts = options.outputDirectory.canonicalFile.bytes.split(separator: UInt8(ascii: "/")).map(
                Array.init)
            moving = options.absolutizeWhenMoved && !PageRewriter.outputLives(at: pageURL, in: options.outputDirectory)
        }

        /// What the job holds once `run` has returned (the page's tags, elements, decisions:
        /// a few hundred thousand small objects), moved out for `WorkerPool.drop` to free on
        /// another thread while the caller goes on with the result. (Not inlined, so that the
        /// job's own references are gone when it returns: see `Droppable`.)
        @inline(never)
        func takeLeftovers() -> Droppable {
            defer {
                (decisions, copies, prefetched, directoryPrefixes, leftovers, decidingLeftovers) = (
                    DecisionTable(), [:], ([], []), [:], nil, nil
                )
            }
            return Droppable((decisions, copies, prefetched, directoryPrefixes, leftovers, decidingLeftovers))
        }

        // MARK: The steps

        /// Not inlined, for the same reason as `takeLeftovers`: its locals must be released
        /// when it returns.
        @inline(never)
        func run() -> LocalizeResult {
            Trace.mark("rewrite starts")
            let (parsed, scanned, styleTokens, guessedBase, work) = scanAndParse()
            Trace.mark("scanned, parsed, sites applied")
            let base = parsed.base
            if base.href != guessedBase.href { decisions = DecisionTable() }
            let resolvingBase = URLText.Base(base, queryEncoder: queryEncoder)
            var collected = collect(work.results(), against: resolvingBase)
            Trace.mark("sites collected")
            // url(…) in <style> elements (raw text: no entities).
            for token in styleTokens {
                let decision = decide(token.url, against: resolvingBase)
                if let local = account(
                    token.url, range: token.range, element: "style", attribute: nil, decision,
                    into: &collected.references)
                {
                    collected.edits.append(Edit(range: token.range, text: local.inCSS))
                    collected.rewrittenAny = true
                }
            }
            // Moved out, not shared: appended to below, a shared array was copied (35,000 edits).
            var edits = collected.edits
            collected.edits = []
            // A relative reference to a file on disk, kept as written, would still resolve
            // against the `<base href>`: the base goes, as it does for a rewritten one.
            let keptLocal =
                parsed.baseAttribute != nil && !options.absolute
                && (collected.referenceParts + [collected.references]).contains { $0.contains { $0.outcome == .local } }
            let neutralized =
                (collected.rewrittenAny || keptLocal)
                && neutralizeBase(parsed, scanned: scanned, base: resolvingBase, edits: &edits)
            // Output that does not live at the page's URL (another folder, or a page whose URL
            // is remote): every relative reference not made local is made absolute against the
            // base, so it still means what it meant (`wget -k`'s rule). Fragment-only
            // references point into the page itself and stay; so do references to files on disk.
            let absolutized = moving && !neutralized && parsed.baseAttribute == nil
            // A relative <base href> would mean another base where the output lives: it is
            // written as the absolute URL it meant.
            if moving, !neutralized, let (tag, value) = parsed.baseAttribute, StandardURL(value) == nil,
                let attribute = tag.attribute("href"), let range = attribute.value
            {
                edits.append(
                    Edit(
                        range: range, text: HTMLText.escape(URLText.withoutPassword(base.href), quote: attribute.quote))
                )
            }
            if absolutized {
                let taken = edits.map(\.range)
                edits += PageRewriter.absolutize(
                    parsed.matched, page: page, base: resolvingBase, styleTexts: scanned.styleTexts, avoiding: taken,
                    rewrittenValues: options.passesOverRewrittenValues ? collected.rewrittenValues : [],
                    choose: { [self] reference in
                        reference.trimmingWhitespace().hasPrefix("#")
                            ? .keep : fileChoice(reference, against: resolvingBase)
                    })
            }
            Trace.mark("edits made")
            let spliced = splice(&edits)
            Trace.mark("edits spliced")
            let references = inOrder(collected.referenceParts + [collected.references])
            // Kept for `takeLeftovers`, so that no reference here is the last one.
            leftovers = (parsed, scanned, collected.undecided, edits, styleTokens, work.takeContents())
            var result = LocalizeResult(
                charset: charset, baseNeutralized: neutralized, referencesAbsolutized: absolutized,
                assetsLinked: placer?.linked ?? 0, assetsCopied: placer?.copied ?? 0,
                assetsCloned: placer?.cloned ?? 0, spliced: spliced,
                referenceParts: references.filter { !$0.isEmpty })
            result.assetsUnplaced = placer?.unplaced ?? []
            return result
        }

        /// Two threads. The second parses with libxml2, pairs its elements with the scanned
        /// tags and finds the base; this one meanwhile scans the tags' positions and decides
        /// the references the scan suggests, against the base the scan suggests. Then both
        /// read and apply the image sites, a chunk at a time, whichever is free (a chunk read
        /// before the decisions are made is applied once they are). The parse has the last
        /// word: a reference it does not confirm is not used, and if its base differs from
        /// the guess, the sites are applied afterwards with decisions made anew.
        private func scanAndParse() -> (Parsed, Scanned, [(url: String, range: Range<Int>)], StandardURL, SiteWork) {
            LibXML2.initialize()  // before the threads: it sets libxml2's allocator
            let scanHandoff = WorkerPool.Handoff<Scanned>()
            let parseHandoff = WorkerPool.Handoff<Parsed>()
            let work = SiteWork()
            // What each thread builds grows with the page: on a 9.7 MB page of 20,000 images,
            // about 3 times its size on the scanning thread, 1.5 on the parse thread; both
            // threads are readied for the larger.
            let heap = page.count >= 1 << 20 ? min(3 * page.count, 48 << 20) : 0
            let (parsed, (scanned, styleTokens, guessedBase)) = WorkerPool.both(
                { [self] () -> Parsed in
                    MemoryReturn.reserveThreadHeap(bytes: heap)
                    let elements = LibXML2.startElements(ofUTF8: parserInput, everyURLAttribute: moving)
                    Trace.mark("parsed")
                    let scanned = scanHandoff.take()
                    // Match libxml2's start elements to the scanned tags by the offset of their `>`.
                    let parsed = Parsed(matched: PageRewriter.align(elements, scanned.tags), pageURL: pageURL)
                    Trace.mark("parse aligned with the scan")
                    makeLines()
                    parseHandoff.give(parsed)
                    share(parsed, work)
                    Trace.mark("parse thread: sites done")
                    return parsed
                },
                { [self] () -> (Scanned, [(url: String, range: Range<Int>)], StandardURL) in
                    MemoryReturn.reserveThreadHeap(bytes: heap)
                    let scanned = StartTagScanner.scan(page)
                    Trace.mark("tags scanned")
                    scanHandoff.give(scanned)
                    let guessedBase = PageRewriter.likelyBase(scanned.tags, page: page, pageURL: pageURL)
                    let styleTokens = PageRewriter.styleTokens(scanned.styleTexts, page: page)
                    Trace.mark("style tokens")
                    var (tagOfReference, unread): ([Int], Int?) = ([], nil)
                    let likely = PageRewriter.likelyReferences(
                        scanned, page: page, tags: &tagOfReference, unread: &unread)
                    // In two parts: `likely + …` copied its 20,000 strings (a retain each).
                    decideLikely(
                        [likely, styleTokens.map(\.url)],
                        against: URLText.Base(guessedBase, queryEncoder: queryEncoder), loop: work.loop)
                    Trace.mark("likely references decided")
                    work.decided(decisions, guessedBase: guessedBase)
                    if let early = options.whileParsing, !parseHandoff.isGiven {
                        let prefix = likelyUnchangedPrefix(
                            scanned, likely: likely, tagOfReference: tagOfReference, unread: unread,
                            styleTokens: styleTokens)
                        early(original[..<prefix])
                    }
                    // Waiting for the parse (a page whose parse is the longer path), this thread
                    // makes the line index meanwhile.
                    if !parseHandoff.isGiven { makeLines() }
                    share(parseHandoff.take(), work)
                    Trace.mark("scan thread: sites done")
                    return (scanned, styleTokens, guessedBase)
                })
            return (parsed, scanned, styleTokens, guessedBase, work)
        }

        /// The line index, made by the first thread free to make it: the parse thread before it
        /// hands its parse over (the scanning thread, on the synthetic page the longer path to
        /// the lookups, made it before: 1.6 ms), or the scanning thread while it waits for the
        /// parse (on the corpus page the parse is the longer path). The other thread then finds
        /// it made, or waits for it under the lock.
        private func makeLines() {
            linesMade.withLock { made in
                guard !made else { return }
                lines = LineIndex(page)
                made = true
            }
        }

        /// Both threads: reads and applies the image sites a chunk at a time, with the
        /// decisions of the scanning thread when the parse confirms its base.
        private func share(_ parsed: Parsed, _ work: SiteWork) {
            let size = SiteWork.chunkSize
            let count = (parsed.matched.count + size - 1) / size
            let confirmedBase = parsed.base.href
            work.run(
                chunks: count,
                read: { [page] chunk in
                    let start = chunk * size
                    let end = min(start + size, parsed.matched.count)
                    return Sites.read(parsed.matched, start..<end, page: page)
                },
                apply: { [self] sites, known, guessed in
                    guard confirmedBase == guessed.href else { return nil }
                    return applyDecided(sites, known)
                })
        }

        /// The scanning thread: decides the references the scan suggests, each distinct one
        /// resolved once and its URL looked up, all together. (Distinct references that name
        /// the same URL, `a.png` and `./a.png`, are rare: each looks it up, the same answer,
        /// rather than every URL going through a dictionary first.)
        private func decideLikely(_ parts: [[String]], against base: URLText.Base, loop: LoopRunner) {
            var urls: [String] = []
            var (slots, resolvedOnes, urlOf, asWrittenOf): ([Int], [URLText.Resolved], [Int], [Int?]) = ([], [], [], [])
            let total = parts.reduce(0) { $0 + $1.count }
            decisions.reserveCapacity(total)
            // Each made once at its size (grown from empty, the 20,000 resolutions were copied
            // into new memory at every doubling, and its pages faulted in).
            urls.reserveCapacity(total)
            slots.reserveCapacity(total)
            resolvedOnes.reserveCapacity(total)
            urlOf.reserveCapacity(total)
            asWrittenOf.reserveCapacity(total)
            func index(_ key: String) -> Int {
                urls.append(key)
                return urls.count - 1
            }
            for reference in parts.joined() {
                guard let slot = decisions.add(reference), let resolved = URLText.resolve(reference, against: base)
                else { continue }
                slots.append(slot)
                resolvedOnes.append(resolved)
                urlOf.append(index(resolved.withoutFragment))
                asWrittenOf.append(resolved.asWritten.map(index))
            }
            Trace.mark("resolved, \(urls.count) URLs")
            let found = lookupMany(urls, loop)
            Trace.mark("looked up")
            prefetched = (urls, found)
            let made = makeDecisions(
                resolvedOnes, found: found,
                copy: { [urlOf, asWrittenOf] i in
                    guard let asWritten = asWrittenOf[i] else { return found[urlOf[i]] }
                    return PageRewriter.preferred([found[asWritten], found[urlOf[i]]])
                }, loop: loop)
            for (slot, decision) in zip(slots, made) { decisions.set(decision, at: slot) }
            decidingLeftovers = (resolvedOnes, made)
        }

        /// What the chunks gave, in order (their references kept in parts, not copied into
        /// one array), then the sites left undecided, applied with decisions made now.
        private func collect(_ chunks: [Chunk], against base: URLText.Base)
            -> (
                edits: [Edit], references: [ImageReference], referenceParts: [[ImageReference]], rewrittenAny: Bool,
                undecided: [Sites.Element], rewrittenValues: [Int]
            )
        {
            var edits: [Edit] = []
            var rewrittenValues: [Int] = []
            var rewrittenAny = false
            var undecided: [Sites.Element] = []
            var referenceParts: [[ImageReference]] = []
            var references: [ImageReference] = []
            edits.reserveCapacity(chunks.reduce(0) { $0 + ($1.output?.edits.count ?? 0) })
            for chunk in chunks {
                guard let output = chunk.output else {
                    undecided += chunk.sites
                    continue
                }
                referenceParts.append(output.references)
                edits += output.edits
                rewrittenValues += output.rewrittenValues
                rewrittenAny = rewrittenAny || output.rewrittenAny
                undecided += output.deferred.map { chunk.sites[$0] }
            }
            if !undecided.isEmpty {
                prefetch(undecided.flatMap(\.references), against: base)
                let rest = PageRewriter.apply(
                    undecided[...], eager: options.eager, lines: lines,
                    account: { [self] url, range, element, attribute, references in
                        .some(
                            account(
                                url, range: range, element: element, attribute: attribute, decide(url, against: base),
                                into: &references))
                    })
                references += rest.references
                edits += rest.edits
                rewrittenValues += rest.rewrittenValues
                rewrittenAny = rewrittenAny || rest.rewrittenAny
            }
            return (edits, references, referenceParts, rewrittenAny, undecided, rewrittenValues)
        }

        /// A local reference under `<base href>` would resolve against the base: the base is
        /// neutralised, and every other relative reference made absolute so it still means
        /// what it meant. False when the page has no base with an href.
        private func neutralizeBase(_ parsed: Parsed, scanned: Scanned, base: URLText.Base, edits: inout [Edit]) -> Bool
        {
            guard let baseTag = parsed.baseAttribute, let hrefRange = baseTag.tag.attribute("href")?.value else {
                return false
            }
            edits.append(Edit(range: hrefRange, text: ""))
            let taken = edits.map(\.range)
            // Every URL attribute is wanted now, not only the image sites': parse once more
            // (unless the one parse collected them).
            let everyElement =
                moving
                ? parsed.matched
                : PageRewriter.align(LibXML2.startElements(ofUTF8: parserInput, everyURLAttribute: true), scanned.tags)
            edits += PageRewriter.absolutize(
                everyElement, page: page, base: base, styleTexts: scanned.styleTexts, avoiding: taken,
                choose: { [self] in fileChoice($0, against: base) })
            return true
        }

        /// The edits applied to the original bytes (through the view's offsets if any).
        private func splice(_ edits: inout [Edit]) -> Spliced {
            // Mostly in order already (chunks in document order).
            if !edits.indices.dropFirst().allSatisfy({ edits[$0 - 1].range.lowerBound <= edits[$0].range.lowerBound }) {
                edits.sort { $0.range.lowerBound < $1.range.lowerBound }
            }
            guard let view else { return Spliced(original: original, edits: edits) }
            // Another charset: the edits' texts encoded, at the original's offsets.
            let ranges = edits.map { Edit(range: view.originalRange($0.range), text: "") }
            return Spliced(original: original, edits: ranges, encoded: edits.map { view.encode($0.text) })
        }

        /// The references at the original's offsets and lines, by offset, stably. Sites come
        /// in document order, each in order within itself; the references of deferred sites
        /// and of `<style>` elements come last, and then all are put in order: offsets with
        /// indices are sorted rather than the large values.
        private func inOrder(_ parts: [[ImageReference]]) -> [[ImageReference]] {
            var parts = parts
            if let view {
                let lines = LineIndex(original)
                for p in parts.indices {
                    for i in parts[p].indices {
                        let reference = parts[p][i]
                        let range = view.originalRange(reference.offset..<(reference.offset + reference.length))
                        parts[p][i].offset = range.lowerBound
                        parts[p][i].length = range.count
                        parts[p][i].line = lines.line(of: range.lowerBound)
                    }
                }
            }
            var previous = Int.min
            let ordered = parts.joined().allSatisfy { reference in
                defer { previous = reference.offset }
                return previous <= reference.offset
            }
            guard !ordered else { return parts }
            let references = Array(parts.joined())
            // Stable: equal offsets keep their order (the index breaks ties).
            let order = references.indices.map { (offset: references[$0].offset, index: $0) }
                .sorted { ($0.offset, $0.index) < ($1.offset, $1.index) }
            return [order.map { references[$0.index] }]
        }
    }
}
