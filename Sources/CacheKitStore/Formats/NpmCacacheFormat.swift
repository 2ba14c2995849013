import Foundation

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
        anchor.exists(indexFolder) && anchor.exists(Array("content-v2".utf8))
    }

    static let indexFolder = Array("index-v5".utf8)

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
            entry.allocatedBytes = entry.allocatedBytes.saturatingPlus(body.allocatedBytes)
            entry.apparentBytes = entry.apparentBytes.saturatingPlus(body.apparentBytes)
        } else {
            // Content other keys name too: held, and freed with the last of them.
            entry.holds = [path]
        }
        if let size = line.size, size != body.apparentBytes {
            (entry.state, entry.reason) = (
                .corrupted, "its content is \(body.apparentBytes) bytes, the index says \(size)"
            )
        } else if context.verify, case .success(let digest) = Digest.sri(line.algorithm, ofFile: path, in: anchor),
            digest != line.digest
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
