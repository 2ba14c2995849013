import Foundation

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
        // By the name as given or as it resolves (a `~/.cache/pip` linked to another disk).
        let named = [anchor.path, anchor.canonicalPath].contains { $0.lastComponent == Array("pip".utf8) }
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
                        entry.allocatedBytes = entry.allocatedBytes.saturatingPlus(body.allocatedBytes)
                        entry.apparentBytes = entry.apparentBytes.saturatingPlus(body.apparentBytes)
                    } else if context.isOlderThanGrace(file.lastWritten) {
                        (entry.state, entry.reason) = (
                            .corrupted, "no .body beside it: pip reads an entry only with both files"
                        )
                        result.append(entry)
                        continue
                    }
                }
                switch Self.metadata(in: anchor, file.anchorRelative) {
                case .success(let metadata): (entry.state, entry.reason) = Self.state(metadata, context)
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

    /// CacheControl's metadata prefix: `cc=` and the serializer version, then msgpack of a map
    /// whose `response` holds the body first (pip 23.2.1's _vendor/cachecontrol/serialize.py:
    /// 44-70: `"body": body, # Empty bytestring if body is stored separately`).
    static let metadataPrefix = Array("cc=4,".utf8)

    /// The metadata in the regular file at `relative`, read from its start without the body:
    /// a legacy `http/` entry holds the whole response body (a wheel, up to 4 GiB) inside the
    /// map, ahead of the headers; it is stepped over, not read. Nil inside when the file does
    /// not start as CacheControl's cc=4 metadata.
    static func metadata(in anchor: AnchoredDirectory, _ relative: [UInt8]) -> Result<MessagePack.Value?, Errno> {
        FileIO.withRegularFile(relative, in: anchor) { size, read in
            guard try read(0, metadataPrefix.count) == metadataPrefix else { return nil }
            return try MessagePack.decode(size: size, from: metadataPrefix.count, read: read)
        }
    }

    /// The entry's state by its metadata (nil: not CacheControl's cc=4 metadata).
    static func state(_ data: MessagePack.Value?, _ context: InspectionContext) -> (EntryState, String) {
        guard let data, let response = data["response"], case .map(let fields)? = response["headers"]
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
