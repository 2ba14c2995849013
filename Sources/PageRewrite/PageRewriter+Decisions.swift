import CacheKitSystem
import URLStandard

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// A job's decisions: what each reference becomes, and its account in the result.

extension PageRewriter.Job {
    typealias Decision = PageRewriter.Decision

    /// The decision for a resolved reference whose copy is known: its local path when the
    /// copy may be used (fresh, or `--allow-stale`), placed in the assets folder if any.
    func decision(_ resolved: URLText.Resolved, copy found: CachedCopy?) -> Decision {
        decision(resolved, copy: found, prefix: directoryPrefix)
    }

    /// The relative prefix from the output to a directory, worked out once per directory.
    private func directoryPrefix(_ directory: ArraySlice<UInt8>) -> String {
        if let known = directoryPrefixes[BytesKey(directory)] { return known }
        let prefix = URLText.relativePrefix(from: outputParts, toDirectory: directory)
        directoryPrefixes[BytesKey(directory)] = prefix
        return prefix
    }

    /// `decision`, with the relative prefix from the output to a directory from `prefix`.
    private func decision(
        _ resolved: URLText.Resolved, copy found: CachedCopy?, prefix: (ArraySlice<UInt8>) -> String
    ) -> Decision {
        guard let copy = found, usable(copy, resolved) else {
            return Decision(resolved: resolved, copy: found, local: nil)
        }
        let target = placer?.place(copy.path, url: resolved.withoutFragment) ?? copy.path
        if options.absolute { return Decision(resolved: resolved, copy: copy, local: URLText.fileURL(target)) }
        return Self.decision(resolved, copy: copy, at: target, prefix: prefix)
    }

    /// Whether a reference's copy may be used: fresh, or stale with `--allow-stale`, or just
    /// fetched for this page.
    private func usable(_ copy: CachedCopy, _ resolved: URLText.Resolved) -> Bool {
        copy.isFresh || options.allowStale || options.justFetched.contains(resolved.withoutFragment)
    }

    /// The decision pointing at `target` relative to the output: one relative prefix per
    /// directory (a store has 256), then the file name.
    private static func decision(
        _ resolved: URLText.Resolved, copy: CachedCopy, at target: RawPath, prefix: (ArraySlice<UInt8>) -> String
    ) -> Decision {
        let bytes = target.bytes
        let slash = bytes.lastIndex(of: UInt8(ascii: "/")) ?? -1
        return Decision(
            resolved: resolved, copy: copy,
            local: URLText.joined(prefix(bytes[..<max(slash, 0)]), segment: bytes[(slash + 1)...]))
    }

    /// The decisions for references resolved and looked up together (`copy` picks each one's
    /// copy from what was found), in their order. Without copies to place (`--assets` places
    /// them one at a time) they are made in blocks through `loop`, so that the parse thread,
    /// idle while the scanning thread decides, makes some: the directories' prefixes are
    /// worked out first, here, and the blocks only read them, as bytes. (Read as the strings
    /// of `directoryPrefixes`, each shared by the references of its directory, they were
    /// retained and released by both threads for every reference.)
    func makeDecisions(
        _ resolved: [URLText.Resolved], found: [CachedCopy?], copy: @escaping (Int) -> CachedCopy?, loop: LoopRunner
    ) -> [Decision] {
        guard placer == nil, !options.absolute else {
            // The copies to place handed over together first (the assets folder links them on
            // two threads), then the decisions made in order, each finding its copy placed.
            if let placer {
                placer.placeAll(
                    resolved.indices.compactMap { i in
                        copy(i).flatMap { usable($0, resolved[i]) ? ($0.path, resolved[i].withoutFragment) : nil }
                    })
            }
            return resolved.indices.map { decision(resolved[$0], copy: copy($0)) }
        }
        var table = PrefixTable()
        for case let found? in found {
            let bytes = found.path.bytes
            let slash = bytes.withUnsafeBufferPointer { Sys.lastIndex(of: UInt8(ascii: "/"), in: $0) }
            let directory = bytes[..<(slash ?? 0)]
            table.add(directory) { directoryPrefix(directory) }
        }
        let (prefixes, outputParts) = (table, outputParts)
        let (allowStale, justFetched) = (options.allowStale, options.justFetched)
        return [Decision](unsafeUninitializedCapacity: resolved.count) { buffer, initialized in
            let made = buffer.baseAddress!
            loop.run(resolved.count) { range in
                prefixes.withPrefixes { prefixOf in
                    for i in range {
                        let found = copy(i)
                        guard let copy = found,
                            copy.isFresh || allowStale || justFetched.contains(resolved[i].withoutFragment)
                        else {
                            (made + i).initialize(
                                to: Decision(
                                    absolute: resolved[i].absolute, fragment: resolved[i].fragment,
                                    hasCopy: found != nil, copyNote: found?.note, local: nil))
                            continue
                        }
                        let local = copy.path.bytes.withUnsafeBufferPointer { path in
                            let slash = Sys.lastIndex(of: UInt8(ascii: "/"), in: path)
                            let directory = UnsafeBufferPointer(rebasing: path[..<(slash ?? 0)])
                            let name = UnsafeBufferPointer(rebasing: path[(slash.map { $0 + 1 } ?? 0)...])
                            guard let prefix = prefixOf(directory) else {
                                return URLText.joined(
                                    URLText.relativePrefix(
                                        from: outputParts, toDirectory: copy.path.bytes[..<(slash ?? 0)]),
                                    segment: copy.path.bytes[(slash.map { $0 + 1 } ?? 0)...])
                            }
                            return URLText.joined(prefix: prefix, segment: name)
                        }
                        (made + i).initialize(
                            to: Decision(
                                absolute: resolved[i].absolute, fragment: resolved[i].fragment, hasCopy: true,
                                copyNote: copy.note, local: local))
                    }
                }
            }
            initialized = resolved.count
        }
    }

    /// Directories and their relative prefixes, held as bytes in two arrays and found through
    /// an open-addressing table of their hashes (`hash`): read by both threads of
    /// `makeDecisions` without a reference count touched.
    struct PrefixTable {
        private struct Slot {
            var hash: UInt64
            var directory: Range<Int>
            var prefix: Range<Int>
        }
        private var directories: [UInt8] = []
        private var prefixes: [UInt8] = []
        private var slots = [Slot?](repeating: nil, count: 16)
        private var count = 0

        /// Adds a directory's prefix, made by `prefix` (once: a directory added before is left
        /// as it is, and `prefix` not called).
        mutating func add(_ directory: ArraySlice<UInt8>, prefix: () -> String) {
            let hash = directory.withUnsafeBufferPointer { Self.hash($0) }
            let i = directory.withUnsafeBufferPointer { directory in
                slots.withUnsafeBufferPointer { slots in
                    directories.withUnsafeBufferPointer { Self.find(directory, hash: hash, in: slots, $0) }
                }
            }
            guard slots[i] == nil else { return }
            let start = (directories.count, prefixes.count)
            directories += directory
            prefixes += prefix().utf8
            slots[i] = Slot(hash: hash, directory: start.0..<directories.count, prefix: start.1..<prefixes.count)
            count += 1
            if count * 2 > slots.count { grow() }
        }

        /// A directory's hash: its length and last 16 bytes (a store's directories differ at
        /// their ends, `objects/c4`; equal hashes are compared whole), FNV-1a for a shorter one.
        private static func hash(_ directory: UnsafeBufferPointer<UInt8>) -> UInt64 {
            guard directory.count >= 16 else { return FNV1a.hash(directory) }
            let tail = UnsafeRawPointer(directory.baseAddress! + directory.count - 16)
            let (a, b) = (tail.loadUnaligned(as: UInt64.self), tail.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            // MurmurHash3's finalizer: every bit of the tail reaches the low bits the table uses.
            var hash = (a &* 0x9E37_79B9_7F4A_7C15) ^ b ^ UInt64(directory.count)
            hash = (hash ^ (hash >> 33)) &* 0xFF51_AFD7_ED55_8CCD
            hash = (hash ^ (hash >> 33)) &* 0xC4CE_B9FE_1A85_EC53
            return hash ^ (hash >> 33)
        }

        /// The slot holding `directory`, else the empty one where it goes.
        private static func find(
            _ directory: UnsafeBufferPointer<UInt8>, hash: UInt64, in slots: UnsafeBufferPointer<Slot?>,
            _ directories: UnsafeBufferPointer<UInt8>
        ) -> Int {
            var i = Int(truncatingIfNeeded: hash) & (slots.count - 1)
            while let slot = slots[i] {
                if slot.hash == hash && slot.directory.count == directory.count
                    && (directory.isEmpty
                        || memcmp(
                            directories.baseAddress! + slot.directory.lowerBound, directory.baseAddress!,
                            directory.count) == 0)
                {
                    return i
                }
                i = (i + 1) & (slots.count - 1)
            }
            return i
        }

        private mutating func grow() {
            let old = slots
            slots = [Slot?](repeating: nil, count: old.count * 2)
            for case let slot? in old {
                var i = Int(truncatingIfNeeded: slot.hash) & (slots.count - 1)
                while slots[i] != nil { i = (i + 1) & (slots.count - 1) }
                slots[i] = slot
            }
        }

        /// Runs `body` with a function giving a directory's prefix (nil: not added), valid
        /// only inside `body`.
        func withPrefixes<R>(
            _ body: ((UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>?) -> R
        ) -> R {
            prefixes.withUnsafeBufferPointer { prefixes in
                slots.withUnsafeBufferPointer { slots in
                    directories.withUnsafeBufferPointer { directories in
                        body { directory in
                            slots[Self.find(directory, hash: Self.hash(directory), in: slots, directories)].map {
                                UnsafeBufferPointer(rebasing: prefixes[$0.prefix])
                            }
                        }
                    }
                }
            }
        }
    }

    /// The batch looked up while the parse ran, made into `copies`.
    private func takePrefetched() {
        guard !prefetched.urls.isEmpty else { return }
        copies.reserveCapacity(prefetched.urls.count)
        for (url, copy) in zip(prefetched.urls, prefetched.found) { copies[url] = copy }
        prefetched = ([], [])
    }

    /// Looks up, in one batch, the copies of references not decided yet (so that deciding
    /// them one by one afterwards makes no lookup each).
    func prefetch(_ references: [String], against base: URLText.Base) {
        takePrefetched()
        var wanted: [String] = []
        var seen = Set<String>()
        for reference in references where decisions[reference] == nil {
            guard let resolved = URLText.resolve(reference, against: base) else { continue }
            for key in resolved.lookupKeys where copies[key] == nil && seen.insert(key).inserted { wanted.append(key) }
        }
        guard !wanted.isEmpty else { return }
        for (url, copy) in zip(wanted, lookupMany(wanted, .serial)) { copies[url] = copy }
    }

    /// The decision for a reference as written, made (and looked up) when not known yet.
    func decide(_ url: String, against base: URLText.Base) -> Decision {
        if let known = decisions[url] { return known }
        guard let resolved = URLText.resolve(url, against: base) else {
            decisions.set(.unresolvable, for: url)
            return .unresolvable
        }
        takePrefetched()
        let keys = resolved.lookupKeys
        let unknown = keys.filter { copies[$0] == nil }
        if !unknown.isEmpty {
            for (key, copy) in zip(unknown, lookupMany(unknown, .serial)) { copies[key] = copy }
        }
        let made = decision(resolved, copy: PageRewriter.preferred(keys.map { copies[$0] ?? nil }))
        decisions.set(made, for: url)
        return made
    }

    /// The file a relative reference (no scheme, not `/`- or `//`-rooted) names in the
    /// page's directory, or a `file:` URL names (the reference itself, or what it resolved
    /// to under a `file:` base), when it is a regular file.
    func localFile(_ reference: String, resolved: String? = nil) -> RawPath? {
        let text = reference.trimmingWhitespace()
        var candidates: [RawPath] = []
        if Self.startsWithFileScheme(text) {
            candidates.append(contentsOf: Self.filePath(text).map { [$0] } ?? [])
        } else {
            if let directory = options.pageDirectory, URLText.isRelative(text), !text.hasPrefix("/"),
                !text.hasPrefix("\\"), !text.hasPrefix("#"), !text.hasPrefix("?")
            {
                let relative = String(text.prefix { $0 != "?" && $0 != "#" })
                candidates.append(
                    RawPath(
                        bytes: directory.bytes + [UInt8(ascii: "/")] + HostParser.percentDecode(Array(relative.utf8))))
            }
            // `/img/a.png` on a page read from disk, or any reference under `--base-url file:…`.
            if let resolved, resolved.hasPrefix("file:"), let path = Self.filePath(resolved), path != candidates.first {
                candidates.append(path)
            }
        }
        for path in candidates {
            guard !path.bytes.contains(0), case .success(let st) = Sys.stat(path: path), st.isRegular else { continue }
            // Its directory without `.`, `..` or symlinks (the name itself is kept).
            return path.parentDirectory.canonical.appending(path.lastComponent)
        }
        return nil
    }

    /// Whether `text` starts with `file:`, in any case (read as bytes: lower-casing the whole
    /// reference made a string for each of a page's references left remote).
    private static func startsWithFileScheme(_ text: String) -> Bool {
        text.withBytes { bytes in
            bytes.count >= 5 && bytes[0] | 0x20 == UInt8(ascii: "f") && bytes[1] | 0x20 == UInt8(ascii: "i")
                && bytes[2] | 0x20 == UInt8(ascii: "l") && bytes[3] | 0x20 == UInt8(ascii: "e")
                && bytes[4] == UInt8(ascii: ":")
        }
    }

    /// How the output names a file on disk: relative to where it lives, or by a `file:` URL
    /// (`--absolute`).
    private func pathFromOutput(to file: RawPath) -> String {
        options.absolute ? URLText.fileURL(file) : URLText.relativePath(from: outputParts, to: file)
    }

    /// The text that points `reference` at `path` with its fragment, or nil when it says
    /// that already.
    private static func pointing(_ reference: String, at path: String, fragment: String?) -> String? {
        let trimmed = reference.trimmingWhitespace()
        guard trimmed != path, trimmed.split(separator: "#", maxSplits: 1).first.map(String.init) != path else {
            return nil
        }
        return path + (fragment.map { "#" + URLText.encodeFragment($0) } ?? "")
    }

    /// What absolutizing does with a relative reference outside the image sites: one that
    /// names a file on disk (`localFile`) is pointed at it from where the output lives, or
    /// kept when it does so already (kept as written, it would name another file once the
    /// output is in another folder); any other is made absolute.
    func fileChoice(_ reference: String, against base: URLText.Base) -> Absolutizer.Choice {
        guard let file = localFile(reference) else { return .absolute }
        let fragment = URLText.resolve(reference, against: base, keepUnfetchable: true)?.fragment
        return Self.pointing(reference, at: pathFromOutput(to: file), fragment: fragment).map { .local($0) } ?? .keep
    }

    /// The path of a `file:` URL on this machine (no host, or `localhost`, which the URL
    /// Standard makes empty), percent-decoded; nil for another host or not a `file:` URL.
    private static func filePath(_ text: String) -> RawPath? {
        guard let url = StandardURL(text), url.scheme == "file", (url.hostname ?? "").isEmpty else { return nil }
        return RawPath(bytes: HostParser.percentDecode(Array(url.path.utf8)))
    }

    /// Accounts for one URL occurrence under a decision; returns the replacement text when
    /// it is rewritten.
    func account(
        _ url: String, range: Range<Int>, element: String, attribute: String?, _ decision: Decision,
        into references: inout [ImageReference]
    ) -> PageRewriter.Replacement? {
        var reference = ImageReference(
            offset: range.lowerBound, length: range.count, line: lines.line(of: range.lowerBound),
            element: element, attribute: attribute, original: url, resolved: nil, outcome: .skipped)
        let replacement = settle(&reference, url, decision)
        // Appended as its last use, so moved rather than copied (a `defer` copied it: a retain
        // and a release for each of its strings, on each of a page's tens of thousands).
        references.append(consume reference)
        return replacement
    }

    /// What became of a reference (its outcome, resolved URL, local path, note), and the
    /// replacement text when it is rewritten.
    private func settle(_ reference: inout ImageReference, _ url: String, _ decision: Decision)
        -> PageRewriter.Replacement?
    {
        guard let absolute = decision.absolute else {
            reference.note = "not a fetchable URL"
            return nil
        }
        reference.resolved = absolute
        if decision.local == nil, let file = localFile(url, resolved: absolute) {
            reference.outcome = .local
            let path = pathFromOutput(to: file)
            reference.localPath = path
            guard let text = Self.pointing(url, at: path, fragment: decision.fragment) else { return nil }
            return .init(text: text, isPlain: URLText.isPlain(text))
        }
        guard decision.hasCopy else {
            reference.outcome = .missing
            return nil
        }
        guard var local = decision.local else {
            reference.outcome = .stale
            reference.note = decision.copyNote
            return nil
        }
        var isPlain = decision.localIsPlain
        if let fragment = decision.fragment {
            let encoded = "#" + URLText.encodeFragment(fragment)
            local += encoded
            isPlain = isPlain && URLText.isPlain(encoded)
        }
        reference.outcome = .rewritten
        reference.localPath = local
        return .init(text: local, isPlain: isPlain)
    }

    /// Applies sites with the decisions made so far (a site holding a reference not decided
    /// yet is deferred).
    func applyDecided(_ sites: [PageRewriter.Sites.Element], _ known: PageRewriter.DecisionTable)
        -> PageRewriter.SitesOutput
    {
        PageRewriter.apply(
            sites[...], eager: options.eager, lines: lines,
            account: { [self] url, range, element, attribute, references in
                known[url].map {
                    account(url, range: range, element: element, attribute: attribute, $0, into: &references)
                }
            })
    }
}
