import Foundation

// MARK: - freedesktop.org thumbnails

/// The freedesktop.org Thumbnail Managing Standard: `thumbnails/{normal,large,x-large,
/// xx-large}` of `md5(URI).png`, and `fail/<app>/` for failed attempts (live spec §4.1;
/// stefwalter/xdg-specs@e9be1b76 thumbnail/thumbnail-spec.sgml:417-445, :610-625). Each PNG
/// carries `Thumb::URI` and `Thumb::MTime` in tEXt chunks (sgml:276-370). A thumbnail is
/// stale when its `file:` source no longer exists or the source's modification time is not
/// `Thumb::MTime` — inequality, and a missing MTime is stale too (sgml:550-575); one of a
/// remote source not read for 30 days may go (sgml:632-680). Writers write a temporary name
/// and rename (sgml:478-503), so another file left in a size folder past the grace period is
/// an interrupted write. Facts: shared/reference/cache-layouts.md §3.
struct ThumbnailsFormat: CacheFormat {
    let anchor: AnchoredDirectory
    var kind: CacheFormatKind { .thumbnails }
    static let sizeFolders = ["normal", "large", "x-large", "xx-large", "fail"]
    static let remoteAgeLimit: Double = 30 * 86_400

    /// `thumbnails/` holding a size folder, or one size folder of it.
    static func recognises(_ anchor: AnchoredDirectory) -> Bool {
        let parts = anchor.canonicalPath.bytes.split(separator: UInt8(ascii: "/")).map {
            String(decoding: $0, as: UTF8.self)
        }
        guard let last = parts.last else { return false }
        if last == "thumbnails" || last == ".thumbnails" {
            return sizeFolders.contains { anchor.exists(Array($0.utf8)) }
        }
        return parts.count >= 2 && ["thumbnails", ".thumbnails"].contains(parts[parts.count - 2])
            && sizeFolders.contains(last)
    }

    func entries(_ context: InspectionContext) throws -> [CacheEntry] {
        FileTree.files(in: anchor).compactMap { file in
            let name = String(decoding: file.path.lastComponent, as: UTF8.self)
            if name == CacheDirTag.fileName { return nil }
            var entry = CacheEntry(
                url: nil, path: file.path, relativePath: file.anchorRelative, allocatedBytes: file.allocatedBytes,
                apparentBytes: file.apparentBytes, modified: file.modified, lastAccess: file.accessed,
                state: .fresh, reason: "")
            entry.identity = file.identity
            guard name.hasSuffix(".png"), file.isRegular else {
                let old = context.isOlderThanGrace(file.lastWritten)
                (entry.state, entry.reason) =
                    old
                    ? (.incomplete, "not a thumbnail: a temporary left by an interrupted write")
                    : (.fresh, "being written (within the grace period)")
                entry.inGracePeriod = !old
                return entry
            }
            if case .image(let verdict) = FileKind.of(file, in: anchor),
                let health = ImageHealth.state(verdict, file, context)
            {
                (entry.state, entry.reason, entry.inGracePeriod) = health
                return entry
            }
            guard case .success(let bytes) = anchor.readAll(file.anchorRelative),
                ImageSignature.kind(ofPrefix: bytes) == .png
            else {
                (entry.state, entry.reason) = (.corrupted, "not a PNG")
                return entry
            }
            let text = Self.textChunks(bytes)
            entry.url = text["Thumb::URI"]
            (entry.state, entry.reason) = Self.state(
                uri: text["Thumb::URI"], mtime: text["Thumb::MTime"], accessed: file.accessed, context)
            return entry
        }
    }

    /// The spec's rule for one thumbnail.
    static func state(uri: String?, mtime: String?, accessed: FileTime, _ context: InspectionContext) -> (
        EntryState, String
    ) {
        guard let uri, !uri.isEmpty else { return (.expired, "no Thumb::URI: no source can claim it") }
        guard uri.lowercased().hasPrefix("file://") else {
            let idle = context.now.timeInterval - accessed.timeInterval
            return idle > remoteAgeLimit
                ? (.expired, "remote source, not read for \(NativeStore.span(idle)) (the spec suggests 30 days)")
                : (.fresh, "remote source, read within 30 days")
        }
        guard let path = sourcePath(uri) else { return (.expired, "Thumb::URI is not a usable file URI") }
        switch Sys.stat(path: path) {
        case .failure(let error) where error == .noEntry || error == .notDirectory:
            return (.expired, "its source \(path.quoted) no longer exists")
        case .failure(let error):
            return (.fresh, "its source cannot be checked (\(error.description)): kept")
        case .success(let st):
            guard let text = mtime, let recorded = Int64(text.trimmingCharacters(in: .whitespaces)) else {
                return (.expired, "no Thumb::MTime: stale by the spec")
            }
            return recorded == st.modified.seconds
                ? (.fresh, "its source is unchanged since the thumbnail was made")
                : (.expired, "its source changed since (Thumb::MTime \(recorded), now \(st.modified.seconds))")
        }
    }

    /// The local path of a `file://` URI (host empty or `localhost`), percent-decoded bytes.
    static func sourcePath(_ uri: String) -> RawPath? {
        var rest = Array(uri.utf8.dropFirst(7))
        if rest.first != UInt8(ascii: "/") {
            guard let slash = rest.firstIndex(of: UInt8(ascii: "/")),
                String(decoding: rest[..<slash], as: UTF8.self).lowercased() == "localhost"
            else { return nil }
            rest = Array(rest[slash...])
        }
        var out: [UInt8] = []
        var i = 0
        while i < rest.count {
            if rest[i] == UInt8(ascii: "%"), i + 2 < rest.count,
                let byte = UInt8(String(decoding: rest[i + 1...i + 2], as: UTF8.self), radix: 16)
            {
                out.append(byte)
                i += 3
            } else {
                out.append(rest[i])
                i += 1
            }
        }
        guard !out.contains(0) else { return nil }
        return RawPath(bytes: out)
    }

    /// tEXt keyword → text (Latin-1) of a PNG, read up to the first IDAT.
    static func textChunks(_ bytes: [UInt8]) -> [String: String] {
        var out: [String: String] = [:]
        var offset = 8
        while offset + 12 <= bytes.count {
            let length =
                Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
                | Int(bytes[offset + 3])
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            let start = offset + 8
            guard length >= 0, length <= bytes.count - start - 4 else { break }
            if type == "IDAT" || type == "IEND" { break }
            if type == "tEXt", let nul = bytes[start..<start + length].firstIndex(of: 0) {
                let key = String(decoding: bytes[start..<nul], as: UTF8.self)
                out[key] = String(bytes[(nul + 1)..<(start + length)].map { Character(Unicode.Scalar($0)) })
            }
            offset = start + length + 4
        }
        return out
    }

    func locate(url: String, _ context: InspectionContext) throws -> CacheEntry? {
        // Thumbnails are named by the MD5 of their source's URI.
        let name = Digest.md5(url) + ".png"
        for folder in Self.sizeFolders.dropLast() {
            let relative = Array("\(folder)/\(name)".utf8)
            if anchor.exists(relative) { return try entries(context).first { $0.relativePath == relative } }
        }
        return nil
    }
}

// MARK: - Go build cache

/// Go's build cache (`GOCACHE`, `go-build/`): 256 folders `00`…`ff` of `<id>-a` action
/// entries — exactly `v1 <64-hex action> <64-hex output> <size %20d> <unixnano %20d>\n` —
/// and `<id>-d` outputs named by their content's SHA-256. The modification time is the last
/// use; `go` trims entries unused for 5 days + 1 hour (`trimLimit`); `README`, `trim.txt`,
/// `testexpire.txt` and `fuzz/` (never trimmed) are bookkeeping
/// (golang/go@06261062 src/cmd/go/internal/cache/cache.go: `fileName`, `get`, `GetFile`,
/// `Trim`, `trimSubdir`; shared/reference/cache-layouts.md §6). An action and the output
/// only it names go together; an output several actions name, or none, is its own entry.
struct GoBuildCacheFormat: CacheFormat {
    let anchor: AnchoredDirectory
    var kind: CacheFormatKind { .gobuild }
    static let readme = "This directory holds cached build artifacts from the Go build system."
    static let bookkeeping: Set<String> = ["README", "trim.txt", "testexpire.txt"]
    static let trimLimit: Double = 5 * 86_400 + 3600
    static let actionLength = 175

    static func recognises(_ anchor: AnchoredDirectory) -> Bool {
        guard case .success(let head) = anchor.readPrefix(Array("README".utf8), count: readme.utf8.count) else {
            return false
        }
        return head == Array(readme.utf8)
    }

    var sizeRule: SizeRule {
        SizeRule(
            ratio: 0.5, metric: .allocated, trimsAtLimit: false, stopsStrictlyBelow: false,
            owner: "go has no size cap (only its 5-day trim); the seed design's half, least recently used first")
    }

    private struct Action {
        var file: FileTree.File
        var output: [UInt8]?
        var size: Int64?
        var problem: String?
    }

    /// The output id and size an action file names, or why it is not a valid action.
    static func parseAction(_ bytes: [UInt8]) -> (output: String, size: Int64)? {
        guard bytes.count == actionLength, bytes.starts(with: Array("v1 ".utf8)), bytes.last == UInt8(ascii: "\n")
        else { return nil }
        let text = String(decoding: bytes.dropLast(), as: UTF8.self)
        let fields = text.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count == 5, fields[1].count == 64, fields[2].count == 64,
            CacheFormats.isHex(String(fields[1]), count: 64), CacheFormats.isHex(String(fields[2]), count: 64),
            let size = Int64(fields[3]), size >= 0, Int64(fields[4]) != nil
        else { return nil }
        return (String(fields[2]), size)
    }

    func entries(_ context: InspectionContext) throws -> [CacheEntry] {
        let files = FileTree.files(
            in: anchor,
            enter: { directory in
                // fuzz/ is not the build cache's (go clean -fuzzcache removes it).
                directory.anchorRelative != Array("fuzz".utf8)
            })
        let (actions, outputs, other) = classify(files)
        var references: [[UInt8]: Int] = [:]
        for action in actions { if let output = action.output { references[output, default: 0] += 1 } }

        var result: [CacheEntry] = []
        var claimed = Set<[UInt8]>()
        for action in actions {
            var entry = byAge(action.file, context)
            if let problem = action.problem {
                (entry.state, entry.reason) =
                    context.isOlderThanGrace(action.file.lastWritten)
                    ? (.corrupted, problem)
                    : (.fresh, "being written (within the grace period)")
            } else if let output = action.output, let file = outputs[output], references[output] == 1 {
                claimed.insert(output)
                entry.companions = [CacheEntry.Companion(relativePath: output, identity: file.identity)]
                entry.allocatedBytes += file.allocatedBytes
                entry.apparentBytes += file.apparentBytes
                if let size = action.size, size != file.apparentBytes, entry.state == .fresh {
                    (entry.state, entry.reason) = (
                        .corrupted,
                        "its output is \(file.apparentBytes) bytes, the action says \(size) (go: file incomplete)"
                    )
                } else if context.verify, entry.state == .fresh, case .success(let bytes) = anchor.readAll(output),
                    Digest.sha256(bytes: bytes) + "-d" != String(decoding: file.path.lastComponent, as: UTF8.self)
                {
                    (entry.state, entry.reason) = (
                        .corrupted, "its output does not hash to its name (go: bad checksum)"
                    )
                }
            }
            result.append(entry)
        }
        for (relative, file) in outputs where !claimed.contains(relative) {
            var entry = byAge(file, context)
            if references[relative] == nil, entry.state == .fresh {
                entry.reason = "an output no action names (" + entry.reason + ")"
            }
            result.append(entry)
        }
        for file in other {
            var entry = CacheEntry(
                url: nil, path: file.path, relativePath: file.anchorRelative, allocatedBytes: file.allocatedBytes,
                apparentBytes: file.apparentBytes, modified: file.modified, state: .fresh,
                reason: "not a build cache entry: kept")
            entry.removedOnlyWhenNamed = true
            entry.identity = file.identity
            result.append(entry)
        }
        return result
    }

    /// The cache's files sorted: actions (`-a`, parsed), outputs (`-d`), and anything else;
    /// go's bookkeeping files are left out.
    private func classify(_ files: [FileTree.File])
        -> (actions: [Action], outputs: [[UInt8]: FileTree.File], other: [FileTree.File])
    {
        var actions: [Action] = []
        var outputs: [[UInt8]: FileTree.File] = [:]
        var other: [FileTree.File] = []
        for file in files {
            let name = String(decoding: file.path.lastComponent, as: UTF8.self)
            if file.anchorRelative == file.path.lastComponent,
                Self.bookkeeping.contains(name) || name == CacheDirTag.fileName
            {
                continue
            }
            if name.hasSuffix("-a"), CacheFormats.isHex(String(name.dropLast(2)), count: 64) {
                var action = Action(file: file)
                if case .success(let bytes) = anchor.readPrefix(file.anchorRelative, count: Self.actionLength + 1),
                    let parsed = Self.parseAction(bytes)
                {
                    action.output = Array("\(parsed.output.prefix(2))/\(parsed.output)-d".utf8)
                    action.size = parsed.size
                } else {
                    action.problem = "not a valid action entry (go reports it as an invalid header)"
                }
                actions.append(action)
            } else if name.hasSuffix("-d"), CacheFormats.isHex(String(name.dropLast(2)), count: 64), file.isRegular {
                outputs[file.anchorRelative] = file
            } else {
                other.append(file)
            }
        }
        return (actions, outputs, other)
    }

    /// go's trim rule on one file: unused (modification time) for 5 days and an hour.
    private func byAge(_ file: FileTree.File, _ context: InspectionContext) -> CacheEntry {
        let idle = context.now.timeInterval - file.modified.timeInterval
        var entry = CacheEntry(
            url: nil, path: file.path, relativePath: file.anchorRelative, allocatedBytes: file.allocatedBytes,
            apparentBytes: file.apparentBytes, modified: file.modified, lastAccess: file.modified,
            state: idle > Self.trimLimit ? .expired : .fresh,
            reason: idle > Self.trimLimit
                ? "unused for \(NativeStore.span(idle)): go trims after 5 days and an hour"
                : "used \(NativeStore.span(max(0, idle))) ago")
        entry.identity = file.identity
        return entry
    }

    func locate(url: String, _ context: InspectionContext) throws -> CacheEntry? {
        guard URLKey(url) != nil else { throw StoreError.notAURL(url) }
        return nil  // build actions, not URLs
    }
}

// MARK: - pip

/// pip's cache (`~/.cache/pip`): HTTP responses in `http-v2/` (pip ≥ 23.3: a metadata file
/// and its `.body`) or the legacy `http/` (one file), each named by the SHA-224 of the URL
/// under five one-character folders (network/cache.py:62-68); built wheels in `wheels/`;
/// `selfcheck/` bookkeeping (self_outdated_check.py). The metadata is CacheControl's `cc=4,`
/// + msgpack `{response: {body, headers, status, …}, vary}` (_vendor/cachecontrol/
/// serialize.py:17-81). Freshness is CacheControl's (controller.py `cached_request`): a
/// permanent redirect is always served; without `Date` it is deleted on read unless it has
/// an ETag; lifetime `max-age`, else `Expires − Date`, against `now − Date`; stale without
/// an ETag is deleted on read, with one it is revalidated (kept). pip has no size or age
/// cap of its own. A metadata file and its body are one entry; a wheel folder is one unit.
/// Facts: shared/reference/cache-layouts.md §4 (pypa/pip@6d309205, psf/cachecontrol@7f04affb).
struct PipCacheFormat: CacheFormat {
    let anchor: AnchoredDirectory
    var kind: CacheFormatKind { .pip }
    static let httpFolders = ["http-v2", "http"]

    static func recognises(_ anchor: AnchoredDirectory) -> Bool {
        let has = { (name: String) in anchor.exists(Array(name.utf8)) }
        if has("http-v2") { return true }
        let named = anchor.canonicalPath.lastComponent == Array("pip".utf8)
        return (has("http") && (named || has("wheels") || has("selfcheck"))) || (named && has("wheels"))
    }

    var sizeRule: SizeRule {
        SizeRule(
            ratio: 0.5, metric: .allocated, trimsAtLimit: false, stopsStrictlyBelow: false,
            owner: "pip has no size cap; the seed design's half, least recently used first")
    }

    func entries(_ context: InspectionContext) throws -> [CacheEntry] {
        var result: [CacheEntry] = []
        for folder in Self.httpFolders where anchor.exists(Array(folder.utf8)) {
            let separateBodies = folder == "http-v2"
            let files = FileTree.files(in: anchor, under: Array(folder.utf8))
            var bodies: [[UInt8]: FileTree.File] = [:]
            for file in files where file.relative.count > 5 && file.relative.suffix(5) == Array(".body".utf8) {
                bodies[file.anchorRelative] = file
            }
            var claimed = Set<[UInt8]>()
            for file in files where bodies[file.anchorRelative] == nil {
                var entry = CacheEntry(
                    url: nil, path: file.path, relativePath: file.anchorRelative, allocatedBytes: file.allocatedBytes,
                    apparentBytes: file.apparentBytes, modified: file.modified, lastAccess: file.accessed,
                    state: .fresh, reason: "")
                entry.identity = file.identity
                let name = String(decoding: file.path.lastComponent, as: UTF8.self)
                guard file.isRegular, name.utf8.count == 56, CacheFormats.isHex(name, count: 56) else {
                    let old = context.isOlderThanGrace(file.lastWritten)
                    (entry.state, entry.reason) =
                        old
                        ? (.incomplete, "not a pip cache entry: a temporary left by an interrupted write")
                        : (.fresh, "being written (within the grace period)")
                    entry.inGracePeriod = !old
                    result.append(entry)
                    continue
                }
                let bodyPath = file.anchorRelative + Array(".body".utf8)
                if separateBodies {
                    if let body = bodies[bodyPath] {
                        claimed.insert(bodyPath)
                        entry.companions = [CacheEntry.Companion(relativePath: bodyPath, identity: body.identity)]
                        entry.allocatedBytes += body.allocatedBytes
                        entry.apparentBytes += body.apparentBytes
                    } else if context.isOlderThanGrace(file.lastWritten) {
                        (entry.state, entry.reason) = (
                            .corrupted, "no .body beside it: pip reads an entry only with both files"
                        )
                        result.append(entry)
                        continue
                    }
                }
                switch anchor.readAll(file.anchorRelative) {
                case .success(let bytes): (entry.state, entry.reason) = Self.state(bytes, context)
                case .failure(let error):
                    (entry.state, entry.reason) = (.fresh, "cannot be read (\(error.description)): kept")
                }
                result.append(entry)
            }
            for (relative, body) in bodies where !claimed.contains(relative) {
                let old = context.isOlderThanGrace(body.lastWritten)
                var entry = CacheEntry(
                    url: nil, path: body.path, relativePath: relative, allocatedBytes: body.allocatedBytes,
                    apparentBytes: body.apparentBytes, modified: body.modified, state: old ? .orphan : .fresh,
                    reason: old
                        ? "a body without its metadata: pip cannot use it" : "being written (within the grace period)")
                entry.inGracePeriod = !old
                entry.identity = body.identity
                result.append(entry)
            }
        }
        // Built wheels: each folder holding .whl files is a unit, with no age rule.
        let wheels = Array("wheels".utf8)
        if anchor.exists(wheels) {
            var folders = Set<[UInt8]>()
            for file in FileTree.files(in: anchor, under: wheels) {
                folders.insert(AnchoredDirectory.split(file.anchorRelative).parent)
            }
            let plain = PlainFormat(anchor: anchor, declaredFileByFile: false)
            for folder in folders.sorted(by: { $0.lexicographicallyPrecedes($1) }) where folder != wheels {
                if var unit = plain.unit(at: folder, context) {
                    unit.reason = "a wheel pip built (no age rule; pip cache remove deletes it)"
                    result.append(unit)
                }
            }
        }
        return result
    }

    /// CacheControl's verdict on one metadata file.
    static func state(_ bytes: [UInt8], _ context: InspectionContext) -> (EntryState, String) {
        let prefix = Array("cc=4,".utf8)
        guard bytes.starts(with: prefix), let data = MessagePack.decode(bytes[prefix.count...]),
            let response = data["response"], case .map(let fields)? = response["headers"]
        else {
            return (.corrupted, "not CacheControl's cc=4 metadata: pip never reads it")
        }
        var headers: [String: String] = [:]
        for (key, value) in fields { if let k = key.string, let v = value.string { headers[k.lowercased()] = v } }
        if case .int(let status)? = response["status"], status == 301 || status == 308 {
            return (.fresh, "a permanent redirect: pip serves it whatever its date")
        }
        let etag = headers["etag"] != nil
        guard let date = headers["date"].flatMap(HTTPDate.parse) else {
            return etag
                ? (.fresh, "no Date, but an ETag: pip revalidates it")
                : (.expired, "no Date and no ETag: pip deletes it on the next read")
        }
        let age = max(0, context.now.timeInterval - date)
        let directives = CacheControl(headers["cache-control"] ?? "")
        var lifetime: Double = 0
        if let maxAge = directives.seconds("max-age") {
            lifetime = maxAge
        } else if let expires = headers["expires"].flatMap(HTTPDate.parse) {
            lifetime = max(0, expires - date)
        }
        if lifetime > age { return (.fresh, "fresh for another \(NativeStore.span(lifetime - age))") }
        return etag
            ? (.fresh, "stale, but pip revalidates it by its ETag")
            : (.expired, "stale since \(NativeStore.span(age - lifetime)) and no ETag: pip deletes it on the next read")
    }

    func locate(url: String, _ context: InspectionContext) throws -> CacheEntry? {
        guard URLKey(url) != nil else { throw StoreError.notAURL(url) }
        return nil  // named by SHA-224 of pip's own key
    }
}

// MARK: - npm cacache

/// npm's cache, cacache (`~/.npm/_cacache`): append-only index buckets
/// `index-v5/<s[0:2]>/<s[2:4]>/<s[4:]>` (s = SHA-256 of the key) of lines
/// `\n<sha1(json)>\t<json>` with `{key, integrity, time, size, metadata}` — a line whose SHA-1
/// does not match is ignored, the last matching one wins, `integrity: null` deletes
/// (npm/cacache@6e8eb4d7 lib/entry-index.js:115-179, :252-320) — and content addressed by
/// its integrity, `content-v2/<algo>/<hex[0:2]>/<hex[2:4]>/<hex[4:]>` (lib/content/path.js:
/// 8-29), shared by keys. `npm cache verify` (lib/verify.js:29-251) deletes content no entry
/// names and content that does not hash to its name, drops entries whose content is missing
/// and empties `tmp/`; nothing expires on its own (npm revalidates stale HTTP responses).
/// A key's bucket is one entry with the content only it names; content several keys name
/// goes with the last of them. Facts: shared/reference/cache-layouts.md §5.
struct NpmCacacheFormat: CacheFormat {
    let anchor: AnchoredDirectory
    var kind: CacheFormatKind { .npm }

    static func recognises(_ anchor: AnchoredDirectory) -> Bool {
        anchor.exists(Array("index-v5".utf8)) && anchor.exists(Array("content-v2".utf8))
    }

    /// The live entry of a bucket: the last line whose SHA-1 matches, unless it deletes.
    struct Line {
        var key: String
        var algorithm: String
        var digest: String
        var size: Int64?
        var time: Double?
    }

    static func liveLine(_ bytes: [UInt8]) -> (line: Line?, valid: Int) {
        var live: Line?
        var valid = 0
        for raw in bytes.split(separator: UInt8(ascii: "\n")) {
            guard let tab = raw.firstIndex(of: UInt8(ascii: "\t")) else { continue }
            let hash = String(decoding: raw[raw.startIndex..<tab], as: UTF8.self)
            let json = Array(raw[(tab + 1)...])
            guard Digest.sri("sha1", json) == hash,
                let object = (try? JSONSerialization.jsonObject(with: Data(json))) as? [String: Any],
                let key = object["key"] as? String
            else { continue }
            valid += 1
            guard let integrity = object["integrity"] as? String, let (algorithm, digest) = parseIntegrity(integrity)
            else {
                if live?.key == key || live == nil { live = nil }  // a tombstone
                continue
            }
            live = Line(
                key: key, algorithm: algorithm, digest: digest, size: (object["size"] as? NSNumber)?.int64Value,
                time: (object["time"] as? NSNumber).map { $0.doubleValue / 1000 })
        }
        return (live, valid)
    }

    /// The first hash of an SRI string (`sha512-<base64>`) as (algorithm, hex).
    static func parseIntegrity(_ text: String) -> (String, String)? {
        for token in text.split(separator: " ") {
            guard let dash = token.firstIndex(of: "-") else { continue }
            let algorithm = String(token[..<dash])
            let base64 = token[token.index(after: dash)...].split(separator: "?").first.map(String.init) ?? ""
            guard ["sha512", "sha384", "sha256", "sha1"].contains(algorithm), let data = Data(base64Encoded: base64)
            else { continue }
            return (algorithm, Digest.hex(Array(data)))
        }
        return nil
    }

    static func contentPath(_ algorithm: String, _ hex: String) -> [UInt8] {
        guard hex.count > 4 else { return [] }
        let chars = Array(hex)
        return Array(
            "content-v2/\(algorithm)/\(String(chars[0..<2]))/\(String(chars[2..<4]))/\(String(chars[4...]))".utf8)
    }

    func entries(_ context: InspectionContext) throws -> [CacheEntry] {
        let content = Dictionary(
            FileTree.files(in: anchor, under: Array("content-v2".utf8)).map { ($0.anchorRelative, $0) }
        ) { a, _ in a }
        var buckets: [(file: FileTree.File, line: Line?, valid: Int)] = []
        for file in FileTree.files(in: anchor, under: Array("index-v5".utf8)) {
            let read = anchor.readAll(file.anchorRelative)
            guard case .success(let bytes) = read else {
                buckets.append((file, nil, -1))
                continue
            }
            let (line, valid) = Self.liveLine(bytes)
            buckets.append((file, line, valid))
        }
        var references: [[UInt8]: Int] = [:]
        for bucket in buckets {
            if let line = bucket.line { references[Self.contentPath(line.algorithm, line.digest), default: 0] += 1 }
        }

        var result = buckets.map { bucket in
            bucketEntry(bucket.file, bucket.line, valid: bucket.valid, content: content, references, context)
        }
        result += orphanedContent(content, references, context)
        result += temporaries(context)
        return result
    }

    /// An index bucket's entry: its live line's key, with its content as a companion when no
    /// other key names it.
    private func bucketEntry(
        _ file: FileTree.File, _ line: Line?, valid: Int, content: [[UInt8]: FileTree.File],
        _ references: [[UInt8]: Int], _ context: InspectionContext
    ) -> CacheEntry {
        var entry = CacheEntry(
            url: nil, path: file.path, relativePath: file.anchorRelative, allocatedBytes: file.allocatedBytes,
            apparentBytes: file.apparentBytes, modified: file.modified,
            lastAccess: line?.time.map(FileTime.init(timeInterval:)) ?? file.modified, state: .fresh, reason: "")
        entry.identity = file.identity
        guard let line else {
            let old = context.isOlderThanGrace(file.lastWritten)
            (entry.state, entry.reason) =
                valid < 0
                ? (.fresh, "cannot be read: kept")
                : old
                    ? (
                        .orphan,
                        valid == 0 ? "an index bucket with no valid line" : "an index bucket whose key was deleted"
                    )
                    : (.fresh, "being written (within the grace period)")
            entry.inGracePeriod = !old
            return entry
        }
        entry.url = line.key
        let path = Self.contentPath(line.algorithm, line.digest)
        guard let body = content[path] else {
            (entry.state, entry.reason) = (
                .corrupted, "its content is missing (npm cache verify drops such entries)"
            )
            return entry
        }
        if references[path] == 1 {
            entry.companions = [CacheEntry.Companion(relativePath: path, identity: body.identity)]
            entry.allocatedBytes += body.allocatedBytes
            entry.apparentBytes += body.apparentBytes
        }
        if let size = line.size, size != body.apparentBytes {
            (entry.state, entry.reason) = (
                .corrupted, "its content is \(body.apparentBytes) bytes, the index says \(size)"
            )
        } else if context.verify, case .success(let bytes) = anchor.readAll(path),
            Digest.sri(line.algorithm, bytes) != line.digest
        {
            (entry.state, entry.reason) = (
                .corrupted, "its content does not match its integrity (npm cache verify deletes it)"
            )
        } else {
            entry.reason = "npm never expires entries (it revalidates stale responses)"
        }
        return entry
    }

    /// Content no key names (orphans), or several keys name (removed with the last of them).
    private func orphanedContent(
        _ content: [[UInt8]: FileTree.File], _ references: [[UInt8]: Int], _ context: InspectionContext
    ) -> [CacheEntry] {
        var result: [CacheEntry] = []
        for (path, file) in content where references[path, default: 0] != 1 {
            var entry = CacheEntry(
                url: nil, path: file.path, relativePath: path, allocatedBytes: file.allocatedBytes,
                apparentBytes: file.apparentBytes, modified: file.modified, state: .fresh, reason: "")
            entry.identity = file.identity
            if let count = references[path] {
                entry.removedOnlyWhenNamed = true
                entry.reason = "content \(count) keys name: it goes with the last of them"
            } else if context.isOlderThanGrace(file.lastWritten) {
                (entry.state, entry.reason) = (.orphan, "content no index entry names (npm cache verify deletes it)")
            } else {
                (entry.reason, entry.inGracePeriod) = ("being written (within the grace period)", true)
            }
            result.append(entry)
        }
        return result
    }

    /// `tmp/`: what an interrupted write left.
    private func temporaries(_ context: InspectionContext) -> [CacheEntry] {
        var result: [CacheEntry] = []
        for file in FileTree.files(in: anchor, under: Array("tmp".utf8)) {
            let old = context.isOlderThanGrace(file.lastWritten)
            var entry = CacheEntry(
                url: nil, path: file.path, relativePath: file.anchorRelative, allocatedBytes: file.allocatedBytes,
                apparentBytes: file.apparentBytes, modified: file.modified, state: old ? .incomplete : .fresh,
                reason: old
                    ? "a temporary of an interrupted write (npm cache verify empties tmp/)"
                    : "being written (within the grace period)")
            entry.inGracePeriod = !old
            entry.identity = file.identity
            result.append(entry)
        }
        return result
    }

    var keptDirectories: Set<[UInt8]> { [Array("index-v5".utf8), Array("content-v2".utf8), Array("tmp".utf8)] }

    func locate(url: String, _ context: InspectionContext) throws -> CacheEntry? {
        guard URLKey(url) != nil else { throw StoreError.notAURL(url) }
        let key = "make-fetch-happen:request-cache:" + url
        let bucket = Digest.sha256(key)
        let chars = Array(bucket)
        let relative = Array("index-v5/\(String(chars[0..<2]))/\(String(chars[2..<4]))/\(String(chars[4...]))".utf8)
        guard anchor.exists(relative) else { return nil }
        return try entries(context).first { $0.relativePath == relative }
    }
}

// MARK: - ccache

/// ccache's local storage (4.x): entries at `<k0>/<k1>[/…]/<name>` — `<digest>R` (result) and
/// `<digest>M` (manifest) up to 4.12, 40-hex names from 4.13 — each beginning with the
/// magic `0xccac` and ending in an XXH3-128 checksum (src/ccache/core/cacheentry.hpp:63,
/// cacheentry.cpp:241-254); a result's raw files (`<digest><n>W`, or `<name>_NN`) go with it.
/// Bookkeeping never deleted: `ccache.conf`, the `stats` counters in each subdirectory,
/// `lock/`, the `CACHEDIR.TAG` it writes in each top-level subdirectory, `tmp/.cleaned`.
/// Temporaries (`.tmp.` in the name) older than the grace period are interrupted writes. A
/// hit refreshes the modification time. Cleanup, as ccache 4.7 (Debian 12's) does it and its
/// manual says ("Automatic cleanup", `limit_multiple`): each of the 16 top-level
/// subdirectories holding more than max_size/16 is trimmed oldest modification first until it
/// holds at most `limit_multiple` × max_size/16 (`limit_multiple` from `ccache.conf`,
/// default 0.8). ccache ≥ 4.8 trims by file count per second-level directory instead
/// (news.adoc:1302-1307). No age rule.
/// Facts: ccache/ccache@e5731387 src/ccache/storage/local/localstorage.cpp (:97-120,
/// :318-376, :418-439, :594-598, :1103-1113, :1218-1320, :1572-1611),
/// shared/reference/cache-layouts.md §7. The magic is always checked; with `--verify`, the
/// XXH3-128 epilogue (the last 16 bytes, big-endian, over everything before them) too.
struct CcacheFormat: CacheFormat {
    let anchor: AnchoredDirectory
    var kind: CacheFormatKind { .ccache }
    static let magic: [UInt8] = [0xCC, 0xAC]
    static let topLevel = (0..<16).map { String($0, radix: 16) }
    static let bookkeeping: Set<String> = ["ccache.conf", "stats", "CACHEDIR.TAG", ".cleaned"]

    static func recognises(_ anchor: AnchoredDirectory) -> Bool {
        if anchor.exists(Array("ccache.conf".utf8)) { return true }
        return topLevel.contains { anchor.exists(Array("\($0)/stats".utf8)) }
            && topLevel.contains {
                anchor.exists(Array("\($0)/CACHEDIR.TAG".utf8)) || anchor.exists(Array("\($0)/stats".utf8))
            }
    }

    var sizeRule: SizeRule {
        let ratio = limitMultiple ?? 0.8
        return SizeRule(
            ratio: ratio, metric: .allocated, trimsAtLimit: false, stopsStrictlyBelow: false,
            owner:
                "ccache: each of its 16 subdirectories over its share of the limit, oldest modification first, down to "
                + "limit_multiple \(ratio) of that share (ccache manual, Automatic cleanup)",
            partitions: 16)
    }

    /// `limit_multiple` as `ccache.conf` sets it.
    var limitMultiple: Double? {
        guard case .success(let bytes) = anchor.readAll(Array("ccache.conf".utf8)) else { return nil }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, parts[0] == "limit_multiple", let value = Double(parts[1]), value > 0, value <= 1 {
                return value
            }
        }
        return nil
    }

    /// The result or manifest a raw file belongs to: `<digest><n>W` (≤ 4.12) or `<name>_NN`.
    static func owner(ofRaw name: String) -> String? {
        if let underscore = name.lastIndex(of: "_"), name[name.index(after: underscore)...].allSatisfy(\.isNumber),
            underscore != name.startIndex
        {
            return String(name[..<underscore])
        }
        if name.hasSuffix("W") {
            let stem = name.dropLast().reversed().drop(while: \.isNumber)
            let base = String(stem.reversed())
            return base.count < name.count - 1 ? base + "R" : nil
        }
        return nil
    }

    func entries(_ context: InspectionContext) throws -> [CacheEntry] {
        let files = FileTree.files(in: anchor, enter: { directory in directory.anchorRelative != Array("lock".utf8) })
        var byName: [[UInt8]: FileTree.File] = [:]
        for file in files { byName[file.anchorRelative] = file }
        var raws: [[UInt8]: [FileTree.File]] = [:]
        var mains: [FileTree.File] = []
        var others: [FileTree.File] = []
        for file in files {
            let name = String(decoding: file.path.lastComponent, as: UTF8.self)
            if Self.bookkeeping.contains(name) || file.anchorRelative == file.path.lastComponent { continue }
            if name.contains(".tmp.") || file.anchorRelative.starts(with: Array("tmp/".utf8)) {
                others.append(file)
                continue
            }
            let parent = AnchoredDirectory.split(file.anchorRelative).parent
            if let owner = Self.owner(ofRaw: name) {
                let ownerPath = parent + [UInt8(ascii: "/")] + Array(owner.utf8)
                if byName[ownerPath] != nil {
                    raws[ownerPath, default: []].append(file)
                    continue
                }
            }
            mains.append(file)
        }
        var result: [CacheEntry] = mains.map { file in
            var entry = CacheEntry(
                url: nil, path: file.path, relativePath: file.anchorRelative, allocatedBytes: file.allocatedBytes,
                apparentBytes: file.apparentBytes, modified: file.modified, lastAccess: file.modified,
                state: .fresh, reason: "ccache has no age rule (a hit refreshes it)")
            entry.identity = file.identity
            for raw in raws[file.anchorRelative] ?? [] {
                entry.companions.append(CacheEntry.Companion(relativePath: raw.anchorRelative, identity: raw.identity))
                entry.allocatedBytes += raw.allocatedBytes
                entry.apparentBytes += raw.apparentBytes
            }
            var problem: String?
            if case .success(let head) = anchor.readPrefix(file.anchorRelative, count: 2), head != Self.magic {
                problem = "not a ccache entry (no 0xccac magic): ccache discards it"
            } else if context.verify, case .success(let bytes) = anchor.readAll(file.anchorRelative),
                bytes.count < 18 || XXH3.digest128(bytes.dropLast(16)) != Array(bytes.suffix(16))
            {
                problem = "its XXH3-128 checksum does not match: ccache discards it"
            }
            if let problem {
                if context.isOlderThanGrace(file.lastWritten) {
                    (entry.state, entry.reason) = (.corrupted, problem)
                } else {
                    (entry.reason, entry.inGracePeriod) = ("being written (within the grace period)", true)
                }
            }
            return entry
        }
        for file in others {
            let old = context.isOlderThanGrace(file.lastWritten)
            var entry = CacheEntry(
                url: nil, path: file.path, relativePath: file.anchorRelative, allocatedBytes: file.allocatedBytes,
                apparentBytes: file.apparentBytes, modified: file.modified, state: old ? .incomplete : .fresh,
                reason: old
                    ? "a temporary of an interrupted write (ccache sweeps them)"
                    : "being written (within the grace period)")
            entry.inGracePeriod = !old
            entry.identity = file.identity
            result.append(entry)
        }
        return result
    }

    var keptDirectories: Set<[UInt8]> {
        Set(Self.topLevel.map { Array($0.utf8) } + [Array("tmp".utf8), Array("lock".utf8)])
    }

    func locate(url: String, _ context: InspectionContext) throws -> CacheEntry? {
        guard URLKey(url) != nil else { throw StoreError.notAURL(url) }
        return nil  // compilation results, not URLs
    }
}

// MARK: - Hugging Face hub

/// The Hugging Face hub cache (`~/.cache/huggingface/hub`): one folder per repository,
/// `<type>s--<org>--<name>`, holding `refs/<ref>` (a commit hash), `snapshots/<commit>/…`
/// (relative symlinks to `../../blobs/<etag>`) and `blobs/<etag>`; downloads go to
/// `blobs/<etag>[.<8hex>].incomplete` and are renamed into place; `.locks/` and the root's
/// `CACHEDIR.TAG` are bookkeeping (huggingface/huggingface_hub@ee0a4510
/// src/huggingface_hub/file_download.py:645, :720-728, :1064, :1173, :1199-1200, :1942-1949).
/// A revision is one unit: its snapshot folder, the refs naming it and the blobs no other
/// revision links (`delete_revisions`, utils/_cache_manager.py:294-326, :393-500). A revision
/// no ref names is detached — what `hf cache prune` deletes (cli/cache.py:626-700) — so it is
/// expired; one with a link to a missing blob is corrupted; a blob no snapshot links is an
/// orphan; an `.incomplete` blob past the grace period is an interrupted download. Its clock
/// is its blobs' newest access, as the hub's cache scan reports it. Nothing expires by age.
/// Facts: shared/reference/cache-layouts.md §8.
struct HuggingFaceHubFormat: CacheFormat {
    let anchor: AnchoredDirectory
    var kind: CacheFormatKind { .huggingface }
    static let repoPrefixes = ["models--", "datasets--", "spaces--"]

    static func recognises(_ anchor: AnchoredDirectory) -> Bool {
        // The first names only: a folder of a million files is not read twice to say no.
        let repos = CacheFormats.sampleNames(anchor).filter { name in
            let text = String(decoding: name, as: UTF8.self)
            return repoPrefixes.contains { text.hasPrefix($0) }
        }
        return repos.contains {
            anchor.exists($0 + Array("/snapshots".utf8)) || anchor.exists($0 + Array("/blobs".utf8))
        }
    }

    func entries(_ context: InspectionContext) throws -> [CacheEntry] {
        var result: [CacheEntry] = []
        for repo in FileTree.subdirectories(in: anchor) {
            let text = String(decoding: repo, as: UTF8.self)
            guard Self.repoPrefixes.contains(where: { text.hasPrefix($0) }) else { continue }
            result += repoEntries(repo, context)
        }
        return result
    }

    private func repoEntries(_ repo: [UInt8], _ context: InspectionContext) -> [CacheEntry] {
        let slash = [UInt8(ascii: "/")]
        let blobsFolder = repo + Array("/blobs".utf8)
        let blobs = Dictionary(FileTree.files(in: anchor, under: blobsFolder).map { ($0.path.lastComponent, $0) }) {
            a, _ in a
        }
        // Refs: commit → the ref files naming it.
        var refs: [String: [FileTree.File]] = [:]
        for file in FileTree.files(in: anchor, under: repo + Array("/refs".utf8)) {
            guard case .success(let bytes) = anchor.readPrefix(file.anchorRelative, count: 128) else { continue }
            refs[String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines), default: []]
                .append(file)
        }
        // Snapshots: commit → blob names its links resolve to, and links that resolve to none.
        let snapshotsFolder = repo + Array("/snapshots".utf8)
        let (revisions, linkCount) = scanSnapshots(snapshotsFolder, blobs: blobs)
        var result: [CacheEntry] = []
        let plain = PlainFormat(anchor: anchor, declaredFileByFile: false)
        for revision in revisions {
            let folder = snapshotsFolder + slash + revision.commit
            guard var entry = plain.unit(at: folder, context) else { continue }
            let commit = String(decoding: revision.commit, as: UTF8.self)
            entry.url = String(decoding: repo, as: UTF8.self) + "@" + commit
            var newestAccess = entry.modified ?? FileTime(seconds: 0)
            for name in revision.blobs.sorted(by: { $0.lexicographicallyPrecedes($1) }) where linkCount[name] == 1 {
                let blob = blobs[name]!
                entry.companions.append(
                    CacheEntry.Companion(relativePath: blob.anchorRelative, identity: blob.identity))
                entry.allocatedBytes += blob.allocatedBytes
                entry.apparentBytes += blob.apparentBytes
            }
            for name in revision.blobs { if let blob = blobs[name] { newestAccess = max(newestAccess, blob.accessed) } }
            for ref in refs[commit] ?? [] {
                entry.companions.append(CacheEntry.Companion(relativePath: ref.anchorRelative, identity: ref.identity))
            }
            entry.lastAccess = newestAccess
            let named = (refs[commit] ?? []).map { String(decoding: $0.relative, as: UTF8.self) }
            if revision.broken > 0 {
                (entry.state, entry.reason) = (
                    .corrupted, "\(revision.broken) link\(revision.broken == 1 ? "" : "s") to a missing blob"
                )
            } else if named.isEmpty {
                (entry.state, entry.reason) = (
                    .expired, "a detached revision (no ref names it): hf cache prune deletes it"
                )
            } else {
                entry.reason = "the revision \(named.joined(separator: ", ")) names; no age rule"
            }
            result.append(entry)
        }
        result += blobEntries(blobs, linkCount: linkCount, context)
        return result
    }

    /// A snapshot: its commit folder, its files, the blobs its links resolve to, and how many
    /// of its links resolve to none.
    private typealias Revision = (commit: [UInt8], files: [FileTree.File], blobs: Set<[UInt8]>, broken: Int)

    /// Every snapshot of a repository, and for each blob how many snapshots link it.
    private func scanSnapshots(_ snapshotsFolder: [UInt8], blobs: [[UInt8]: FileTree.File])
        -> (revisions: [Revision], linkCount: [[UInt8]: Int])
    {
        let slash = [UInt8(ascii: "/")]
        var revisions: [(commit: [UInt8], files: [FileTree.File], blobs: Set<[UInt8]>, broken: Int)] = []
        var linkCount: [[UInt8]: Int] = [:]
        for commit in FileTree.subdirectories(in: anchor, of: snapshotsFolder) {
            let files = FileTree.files(in: anchor, under: snapshotsFolder + slash + commit)
            var used = Set<[UInt8]>()
            var broken = 0
            for file in files {
                if file.isSymlink, case .success(let target) = anchor.readLink(file.anchorRelative) {
                    let name = Array(target.split(separator: UInt8(ascii: "/")).last ?? [])
                    let pointsIntoBlobs =
                        target.split(separator: UInt8(ascii: "/")).dropLast().last.map(Array.init)
                        == Array("blobs".utf8)
                    if pointsIntoBlobs, blobs[name] != nil { used.insert(name) } else { broken += 1 }
                } else if !file.isSymlink {
                    // A real file in a snapshot (a copy, not a link): part of the revision.
                    continue
                } else {
                    broken += 1
                }
            }
            for name in used { linkCount[name, default: 0] += 1 }
            revisions.append((commit, files, used, broken))
        }
        return (revisions, linkCount)
    }

    /// Blobs not linked by exactly one snapshot: unfinished downloads, blobs several
    /// revisions share (removed with the last of them), and blobs none links (orphans).
    private func blobEntries(
        _ blobs: [[UInt8]: FileTree.File], linkCount: [[UInt8]: Int], _ context: InspectionContext
    ) -> [CacheEntry] {
        var result: [CacheEntry] = []
        for (name, blob) in blobs where linkCount[name] != 1 {
            var entry = CacheEntry(
                url: nil, path: blob.path, relativePath: blob.anchorRelative, allocatedBytes: blob.allocatedBytes,
                apparentBytes: blob.apparentBytes, modified: blob.modified, lastAccess: blob.accessed,
                state: .fresh, reason: "")
            entry.identity = blob.identity
            let old = context.isOlderThanGrace(blob.lastWritten)
            if name.count > 11, name.suffix(11) == Array(".incomplete".utf8) {
                (entry.state, entry.reason) =
                    old
                    ? (.incomplete, "a download left unfinished \(NativeStore.age(blob.lastWritten, context)) ago")
                    : (.fresh, "a download in progress (within the grace period)")
                entry.inGracePeriod = !old
            } else if let count = linkCount[name] {
                entry.removedOnlyWhenNamed = true
                entry.reason = "a blob \(count) revisions link: it goes with the last of them"
            } else {
                (entry.state, entry.reason) =
                    old ? (.orphan, "a blob no snapshot links") : (.fresh, "written within the grace period")
                entry.inGracePeriod = !old
            }
            result.append(entry)
        }
        return result
    }

    var keptDirectories: Set<[UInt8]> { [Array(".locks".utf8)] }

    func locate(url: String, _ context: InspectionContext) throws -> CacheEntry? {
        guard URLKey(url) != nil else { throw StoreError.notAURL(url) }
        return nil  // files of repositories, not URLs
    }
}

// MARK: - Chromium simple cache

/// Chromium's (and Electron's, CEF's) simple disk cache (`Cache/Cache_Data`, `Code Cache/js`):
/// per entry `<hash>_0` (streams 0 and 1), `<hash>_1` (stream 2) and `<hash>_s` (sparse), the
/// hash the first 8 bytes of SHA-1(key) little-endian as `%016x` (net/disk_cache/simple/
/// simple_util.cc:55-77). `<hash>_0` is a `SimpleFileHeader` (initial magic
/// 0xfcfb6d1ba7725c30, version, key length, key hash; 24 bytes), the key, stream 1, a
/// `SimpleFileEOF` (final magic 0xf4fa6f45970d41d8, flags, CRC-32 of the stream, size; 24
/// bytes), stream 0, the key's SHA-256 when flagged, and stream 0's EOF
/// (simple_entry_format.h:16-84). A missing or wrong magic, an impossible size or a CRC
/// that does not match is an incomplete or corrupt entry. `index` and `index-dir/` are
/// rebuildable bookkeeping; `todelete_*` files are doomed. Eviction: above 95 % of the
/// maximum, down to 90 %, largest `(now − last use) × (size + 512)` first (simple_index.cc).
/// Facts: shared/reference/cache-layouts.md §9.
struct ChromiumSimpleCacheFormat: CacheFormat {
    let anchor: AnchoredDirectory
    var kind: CacheFormatKind { .chromium }
    static let initialMagic: UInt64 = 0xfcfb_6d1b_a772_5c30
    static let finalMagic: UInt64 = 0xf4fa_6f45_970d_41d8
    static let headerSize = 24, eofSize = 24

    static func recognises(_ anchor: AnchoredDirectory) -> Bool {
        guard case .success(let head) = anchor.readPrefix(Array("index".utf8), count: 8), head.count == 8 else {
            return false
        }
        return le64(head[...], 0) == initialMagic
    }

    var sizeRule: SizeRule {
        SizeRule(
            ratio: 0.9, metric: .allocated, trimsAtLimit: false, stopsStrictlyBelow: false,
            owner:
                "Chromium: above 95 % of the maximum, down to 90 %, largest (idle time × (size + 512)) first (simple_index.cc)",
            startsAbove: 0.95, byAgeTimesSize: true)
    }

    static func le64(_ b: ArraySlice<UInt8>, _ at: Int) -> UInt64 {
        (0..<8).reduce(UInt64(0)) { $0 | UInt64(b[b.startIndex + at + $1]) << (8 * UInt64($1)) }
    }

    static func le32(_ b: ArraySlice<UInt8>, _ at: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(b[b.startIndex + at + $1]) << (8 * UInt32($1)) }
    }

    /// The key of a whole `_0` file, or why it is not whole.
    static func check(_ bytes: [UInt8]) -> Result<String, CheckFailure> {
        let b = bytes[...]
        guard bytes.count >= headerSize + 2 * eofSize, le64(b, 0) == initialMagic else {
            return .failure(.init("no simple-cache header"))
        }
        let keyLength = Int(le32(b, 12))
        guard keyLength <= bytes.count - headerSize - 2 * eofSize else {
            return .failure(.init("a key longer than the file"))
        }
        let eof0 = bytes.count - eofSize
        guard le64(b, eof0) == finalMagic else {
            return .failure(.init("no end-of-file record (cut short or still being written)"))
        }
        let flags = le32(b, eof0 + 8)
        let crc0 = le32(b, eof0 + 12)
        let size0 = Int(Int32(bitPattern: le32(b, eof0 + 16)))
        let end0 = eof0 - (flags & 2 != 0 ? 32 : 0)
        let start0 = end0 - size0
        let eof1 = start0 - eofSize
        guard size0 >= 0, eof1 >= headerSize + keyLength, le64(b, eof1) == finalMagic else {
            return .failure(.init("stream sizes that do not fit the file"))
        }
        if flags & 1 != 0, CRC32.finish(CRC32.update(CRC32.initial, b[start0..<end0])) != crc0 {
            return .failure(.init("stream 0's CRC-32 does not match"))
        }
        let flags1 = le32(b, eof1 + 8)
        let crc1 = le32(b, eof1 + 12)
        if flags1 & 1 != 0, CRC32.finish(CRC32.update(CRC32.initial, b[(headerSize + keyLength)..<eof1])) != crc1 {
            return .failure(.init("stream 1's CRC-32 does not match"))
        }
        return .success(String(decoding: bytes[headerSize..<headerSize + keyLength], as: UTF8.self))
    }

    /// The key in a header, whole or not.
    static func key(of bytes: [UInt8]) -> String? {
        guard bytes.count >= headerSize, le64(bytes[...], 0) == initialMagic else { return nil }
        let length = Int(le32(bytes[...], 12))
        guard length <= bytes.count - headerSize else { return nil }
        return String(decoding: bytes[headerSize..<headerSize + length], as: UTF8.self)
    }

    struct CheckFailure: Error {
        var why: String
        init(_ why: String) { self.why = why }
    }

    /// The URL at the end of an HTTP cache key (`1/0/_dk_<site> <site> <url>`).
    static func url(ofKey key: String) -> String? {
        guard let last = key.split(separator: " ").last.map(String.init), URLKey(last) != nil else { return nil }
        return last
    }

    func entries(_ context: InspectionContext) throws -> [CacheEntry] {
        let files = FileTree.files(in: anchor, recursive: false)
        var groups: [String: [FileTree.File]] = [:]
        var result: [CacheEntry] = []
        for file in files {
            let name = String(decoding: file.path.lastComponent, as: UTF8.self)
            if name == "index" || name == CacheDirTag.fileName { continue }
            if name.hasPrefix("todelete_") {
                var entry = CacheEntry(
                    url: nil, path: file.path, relativePath: file.anchorRelative, allocatedBytes: file.allocatedBytes,
                    apparentBytes: file.apparentBytes, modified: file.modified, state: .orphan,
                    reason: "a doomed entry file (Chromium deletes it at its next index rebuild)")
                entry.identity = file.identity
                result.append(entry)
                continue
            }
            let parts = name.split(separator: "_")
            if parts.count == 2, parts[0].count == 16, CacheFormats.isHex(String(parts[0]), count: 16),
                ["0", "1", "s"].contains(parts[1])
            {
                groups[String(parts[0]), default: []].append(file)
            } else {
                var entry = CacheEntry(
                    url: nil, path: file.path, relativePath: file.anchorRelative, allocatedBytes: file.allocatedBytes,
                    apparentBytes: file.apparentBytes, modified: file.modified, state: .fresh,
                    reason: "not a simple-cache entry file: kept")
                entry.removedOnlyWhenNamed = true
                entry.identity = file.identity
                result.append(entry)
            }
        }
        for (hash, members) in groups.sorted(by: { $0.key < $1.key }) {
            let main = members.first { $0.relative.last == UInt8(ascii: "0") } ?? members[0]
            var entry = CacheEntry(
                url: nil, path: main.path, relativePath: main.anchorRelative, allocatedBytes: 0, apparentBytes: 0,
                modified: members.map(\.modified).max(), lastAccess: members.map(\.accessed).max(),
                state: .fresh, reason: "Chromium revalidates by the stored headers; no age rule here")
            entry.identity = main.identity
            for member in members {
                entry.allocatedBytes += member.allocatedBytes
                entry.apparentBytes += member.apparentBytes
                if member.anchorRelative != main.anchorRelative {
                    entry.companions.append(
                        CacheEntry.Companion(relativePath: member.anchorRelative, identity: member.identity))
                }
            }
            if main.relative.last != UInt8(ascii: "0") {
                (entry.state, entry.reason) = (.orphan, "stream files of \(hash) without its _0 file")
            } else if case .success(let bytes) = anchor.readAll(main.anchorRelative) {
                switch Self.check(bytes) {
                case .success(let key): entry.url = Self.url(ofKey: key)
                case .failure(let failure):
                    entry.url = Self.key(of: bytes).flatMap(Self.url(ofKey:))
                    let old = context.isOlderThanGrace(main.lastWritten)
                    (entry.state, entry.reason) =
                        old ? (.corrupted, failure.why) : (.fresh, failure.why + ": within the grace period")
                    entry.inGracePeriod = !old
                }
            }
            result.append(entry)
        }
        return result
    }

    func locate(url: String, _ context: InspectionContext) throws -> CacheEntry? {
        guard URLKey(url) != nil else { throw StoreError.notAURL(url) }
        return try entries(context).first { $0.url == url }
    }
}

// MARK: - git mirrors

/// A folder of bare git repositories — SwiftPM's `repositories/<name>-<8 hex>` mirrors
/// (swiftlang/swift-package-manager@cac6bb7b Sources/SourceControl/RepositoryManager.swift:
/// 644-657), or any folder of `git clone --mirror`s. A repository is one unit, whole: its
/// packs, refs and config are never deleted apart (`swift package purge-cache` removes a
/// mirror whole, :523-548). Its time is its newest file's; there is no age or size rule.
/// Facts: shared/reference/cache-layouts.md §12.
struct GitMirrorsFormat: CacheFormat {
    let anchor: AnchoredDirectory
    var kind: CacheFormatKind { .gitmirrors }

    static func isBareRepository(_ anchor: AnchoredDirectory, _ relative: [UInt8]) -> Bool {
        let slash = [UInt8(ascii: "/")]
        return ["HEAD", "objects", "refs"].allSatisfy { anchor.exists(relative + slash + Array($0.utf8)) }
            && !anchor.exists(relative + slash + Array(".git".utf8))
    }

    static func recognises(_ anchor: AnchoredDirectory) -> Bool {
        let names = CacheFormats.sampleNames(anchor).filter { $0.first != UInt8(ascii: ".") }
        let bare = names.prefix(16).filter { isBareRepository(anchor, $0) }.count
        return bare > 0 && bare * 2 >= min(names.count, 16)
    }

    func entries(_ context: InspectionContext) throws -> [CacheEntry] {
        try PlainFormat(anchor: anchor, declaredFileByFile: false).entries(context).map { entry in
            var entry = entry
            if entry.isUnit, let relative = entry.relativePath, Self.isBareRepository(anchor, relative) {
                entry.reason =
                    "a git repository, kept whole"
                    + (entry.reason.split(separator: ":", maxSplits: 1).last.map { ":" + $0 } ?? "")
            }
            return entry
        }
    }

    func locate(url: String, _ context: InspectionContext) throws -> CacheEntry? {
        guard URLKey(url) != nil else { throw StoreError.notAURL(url) }
        return nil
    }
}

// MARK: - Firefox cache2

/// Firefox's disk cache (`cache2/`): one file per entry in `entries/`, named by the SHA-1 of
/// its key in upper-case hex; data in 256 KiB chunks, then the metadata — a hash32 of the rest,
/// one hash16 per chunk, a header {version, fetch count, last fetched, last modified,
/// frecency, expiration time, key size, flags} in big-endian, the key and its NUL, the
/// elements — and last the metadata's offset as 4 big-endian bytes
/// (mozilla/gecko-dev@0dfb26d1 netwerk/cache2/CacheFileMetadata.cpp `WriteMetadata`,
/// `ReadMetadata`; CacheFileMetadata.h; CacheFileChunk.h `kChunkSize`; the hashes are
/// CacheHash::Hash, Bob Jenkins' lookup2 over unsigned bytes). An entry whose offset, hash or
/// key does not hold is corrupt (what `ReadMetadata` rejects); with `--verify` each chunk's
/// hash16 is checked too. `doomed/` holds entries Firefox has already dropped; `index*` is its
/// rebuildable bookkeeping. A response past its expiration time is not deleted by Firefox
/// (it revalidates it) but goes first when the cache is over its capacity, so it is kept
/// here and ordered first. Facts: shared/reference/cache-layouts.md §10.
struct FirefoxCacheFormat: CacheFormat {
    let anchor: AnchoredDirectory
    var kind: CacheFormatKind { .firefox }
    static let chunkSize = 256 * 1024

    static func recognises(_ anchor: AnchoredDirectory) -> Bool {
        anchor.exists(Array("entries".utf8))
            && (anchor.exists(Array("doomed".utf8)) || anchor.exists(Array("index".utf8)))
    }

    /// Bob Jenkins' lookup2 hash (CacheHash::Hash), over unsigned bytes, initial value 0.
    static func lookup2(_ k: ArraySlice<UInt8>) -> UInt32 {
        var a: UInt32 = 0x9e37_79b9
        var b: UInt32 = 0x9e37_79b9
        var c: UInt32 = 0
        func mix() {
            a = a &- b &- c
            a ^= c >> 13
            b = b &- c &- a
            b ^= a << 8
            c = c &- a &- b
            c ^= b >> 13
            a = a &- b &- c
            a ^= c >> 12
            b = b &- c &- a
            b ^= a << 16
            c = c &- a &- b
            c ^= b >> 5
            a = a &- b &- c
            a ^= c >> 3
            b = b &- c &- a
            b ^= a << 10
            c = c &- a &- b
            c ^= b >> 15
        }
        func word(_ i: Int) -> UInt32 {
            let s = k.startIndex + i
            return UInt32(k[s]) | UInt32(k[s + 1]) << 8 | UInt32(k[s + 2]) << 16 | UInt32(k[s + 3]) << 24
        }
        var i = 0
        var n = k.count
        while n >= 12 {
            a = a &+ word(i)
            b = b &+ word(i + 4)
            c = c &+ word(i + 8)
            mix()
            i += 12
            n -= 12
        }
        c = c &+ UInt32(truncatingIfNeeded: k.count)
        let tail = k[(k.startIndex + i)...].map(UInt32.init)
        for (index, byte) in tail.enumerated() {
            switch index {
            case 0...3: a = a &+ (byte << (8 * UInt32(index)))
            case 4...7: b = b &+ (byte << (8 * UInt32(index - 4)))
            default: c = c &+ (byte << (8 * UInt32(index - 8 + 1)))
            }
        }
        mix()
        return c
    }

    struct Metadata {
        var key: String
        var expiration: UInt32
        var lastFetched: UInt32
    }

    /// The metadata of a whole entry file, or why it is not whole.
    static func parse(_ b: [UInt8], name: String, verifyChunks: Bool) -> Result<
        Metadata, ChromiumSimpleCacheFormat.CheckFailure
    > {
        func be32(_ at: Int) -> UInt32 { (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(b[at + $1]) } }
        guard b.count >= 4 else { return .failure(.init("shorter than its metadata offset")) }
        let offset = Int(be32(b.count - 4))
        let chunks = (offset + chunkSize - 1) / chunkSize
        let headerAt = offset + 4 + 2 * chunks
        guard offset <= b.count - 4, headerAt + 32 < b.count - 4 else {
            return .failure(.init("a metadata offset outside the file"))
        }
        let hash = be32(offset)
        let body = b[(offset + 4)..<(b.count - 4)]
        // Firefox 153 writes 4 more bytes after the elements; older versions none.
        guard lookup2(body.dropLast(4)) == hash || lookup2(body) == hash else {
            return .failure(.init("its metadata hash does not match"))
        }
        let version = be32(headerAt)
        guard version >= 1 && version <= 16 else { return .failure(.init("an unknown metadata version \(version)")) }
        let keySize = Int(be32(headerAt + 24))
        let keyAt = headerAt + 32
        guard keySize >= 0, keyAt + keySize < b.count - 4, b[keyAt + keySize] == 0 else {
            return .failure(.init("a key that does not fit"))
        }
        let keyBytes = Array(b[keyAt..<keyAt + keySize])
        guard Digest.sri("sha1", keyBytes)?.uppercased() == name else {
            return .failure(.init("its key does not hash to its name"))
        }
        if verifyChunks {
            for chunk in 0..<chunks {
                let start = chunk * chunkSize
                let end = min(offset, start + chunkSize)
                let stored = UInt16(b[offset + 4 + 2 * chunk]) << 8 | UInt16(b[offset + 5 + 2 * chunk])
                if UInt16(truncatingIfNeeded: lookup2(b[start..<end])) != stored {
                    return .failure(.init("chunk \(chunk) does not match its hash"))
                }
            }
        }
        return .success(
            Metadata(
                key: String(decoding: keyBytes, as: UTF8.self), expiration: be32(headerAt + 20),
                lastFetched: be32(headerAt + 8)))
    }

    /// The URI of a key (`<tags>:<uri>`, e.g. `O^partitionKey=…,:http://…` or `a,:http://…`).
    static func url(ofKey key: String) -> String? {
        if let range = key.range(of: ",:") { return String(key[range.upperBound...]) }
        if key.hasPrefix(":") { return String(key.dropFirst()) }
        return nil
    }

    func entries(_ context: InspectionContext) throws -> [CacheEntry] {
        var result: [CacheEntry] = []
        for file in FileTree.files(in: anchor, under: Array("entries".utf8)) {
            let name = String(decoding: file.path.lastComponent, as: UTF8.self)
            var entry = CacheEntry(
                url: nil, path: file.path, relativePath: file.anchorRelative, allocatedBytes: file.allocatedBytes,
                apparentBytes: file.apparentBytes, modified: file.modified, lastAccess: file.modified,
                state: .fresh, reason: "")
            entry.identity = file.identity
            guard name.utf8.count == 40,
                name.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x46) }),
                case .success(let bytes) = anchor.readAll(file.anchorRelative)
            else {
                entry.reason = "not a cache2 entry file: kept"
                entry.removedOnlyWhenNamed = true
                result.append(entry)
                continue
            }
            switch Self.parse(bytes, name: name, verifyChunks: context.verify) {
            case .failure(let failure):
                let old = context.isOlderThanGrace(file.lastWritten)
                (entry.state, entry.reason) =
                    old
                    ? (.corrupted, failure.why) : (.fresh, failure.why + ": being written (within the grace period)")
                entry.inGracePeriod = !old
            case .success(let metadata):
                entry.url = Self.url(ofKey: metadata.key)
                let never = metadata.expiration == UInt32.max
                if !never && Double(metadata.expiration) <= context.now.timeInterval {
                    entry.reason =
                        "past its expiration time: Firefox revalidates it, and evicts it first when over its capacity"
                    entry.lastAccess = FileTime(seconds: 0)
                } else {
                    entry.reason = never ? "no expiration time" : "fresh until its expiration time"
                    entry.lastAccess = FileTime(seconds: Int64(metadata.lastFetched))
                }
                entry.expires = never ? nil : FileTime(seconds: Int64(metadata.expiration))
            }
            result.append(entry)
        }
        for file in FileTree.files(in: anchor, under: Array("doomed".utf8)) {
            var entry = CacheEntry(
                url: nil, path: file.path, relativePath: file.anchorRelative, allocatedBytes: file.allocatedBytes,
                apparentBytes: file.apparentBytes, modified: file.modified, state: .orphan,
                reason: "a doomed entry (Firefox has dropped it)")
            entry.identity = file.identity
            result.append(entry)
        }
        return result
    }

    var keptDirectories: Set<[UInt8]> { [Array("entries".utf8), Array("doomed".utf8)] }

    func locate(url: String, _ context: InspectionContext) throws -> CacheEntry? {
        guard URLKey(url) != nil else { throw StoreError.notAURL(url) }
        return try entries(context).first { $0.url == url }
    }
}
