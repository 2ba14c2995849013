import Foundation

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
/// maximum, down to 90 %, largest `(now − last use) × (size + 512)` first (simple_index.cc),
/// the last use as its index records it (`ChromiumIndexFile`), the size the files' lengths in
/// 256-byte chunks.
/// Facts: shared/reference/cache-layouts.md §9.
struct ChromiumSimpleCacheFormat: CacheFormat {
    let anchor: AnchoredDirectory
    var kind: CacheFormatKind { .chromium }
    /// `isSiteStorage` once worked out (it may read the index file), for the name, the size
    /// rule and the listing alike.
    private let siteStorage = Locked<Bool?>(nil)
    static let initialMagic: UInt64 = 0xfcfb_6d1b_a772_5c30
    static let finalMagic: UInt64 = 0xf4fa_6f45_970d_41d8
    static let headerSize = 24, eofSize = 24

    static func recognises(_ anchor: AnchoredDirectory) -> Bool {
        guard case .success(let head) = anchor.readPrefix(indexFile, count: 8), head.count == 8 else {
            return false
        }
        return le64(head[...], 0) == initialMagic
    }

    static let indexFile = Array("index".utf8)

    /// A code cache (`Code Cache/js`, `Code Cache/wasm`) is evicted least recently used first:
    /// Chromium weighs by size only its other caches (simple_index.cc `StartEvictionIfNeeded`:
    /// `use_size_heuristic` is false for `GENERATED_BYTE_CODE_CACHE`).
    var isCodeCache: Bool {
        [anchor.path, anchor.canonicalPath].contains { path in
            path.parentDirectory.lastComponent == Array("Code Cache".utf8)
        }
    }

    /// A site's own data that Chromium keeps in simple-cache files in `net::APP_CACHE` mode,
    /// where it evicts no entry (a site's storage goes whole, under quota pressure), and a site
    /// expects each one it stored to stay: the web's Cache API storage (a service worker's
    /// `CacheStorage`, Background Fetch's) and its service workers' scripts. Found where
    /// Chromium puts them — a cache beside the `index.txt` listing its site's caches, in or
    /// below a `CacheStorage` or `BackgroundFetch` folder (content/browser/cache_storage/
    /// cache_storage_manager.cc `ConstructOriginPath`, `GetBucketsFromDiskOnTaskRunner`), and
    /// `Service Worker/ScriptCache` (content/browser/service_worker/service_worker_storage.cc
    /// `kDiskCacheName`), or `WebStorage/<bucket>/ScriptCache` for partitioned storage
    /// (components/services/storage/public/cpp/constants.cc) — or by its index, which records no use
    /// (`ChromiumIndexFile.recordsNoUse`).
    var isSiteStorage: Bool { isSiteStorage(indexFile: { ChromiumIndexFile.read(anchor) }) }

    /// `isSiteStorage`, worked out once, with the index file `indexFile` gives if needed.
    private func isSiteStorage(indexFile: () -> (bytes: [UInt8], directoryModified: FileTime)?) -> Bool {
        siteStorage.withLock { known in
            if let known { return known }
            let found =
                liesWhereSiteStorageLies || indexFile().map { ChromiumIndexFile.recordsNoUse($0.bytes) } ?? false
            known = found
            return found
        }
    }

    /// The first half of `isSiteStorage`: by where the cache lies.
    private var liesWhereSiteStorageLies: Bool {
        let owners = [Array("CacheStorage".utf8), Array("BackgroundFetch".utf8)]
        for path in [anchor.path, anchor.canonicalPath] {
            let parent = path.parentDirectory
            if path.lastComponent == Array("ScriptCache".utf8),
                parent.lastComponent == Array("Service Worker".utf8)
                    || parent.parentDirectory.lastComponent == Array("WebStorage".utf8)
            {
                return true
            }
            if owners.contains(parent.lastComponent) || owners.contains(parent.parentDirectory.lastComponent),
                parent.appending("index.txt").exists
            {
                return true
            }
        }
        return false
    }

    /// A site's own data is named as such (the HTTP cache's files hold it).
    var displayName: String {
        isSiteStorage ? "Chromium site data (Cache API storage or service worker scripts)" : kind.displayName
    }

    static let siteStorageReason =
        "a site's own data (Chromium's Cache API storage or service worker scripts), which Chromium never "
        + "evicts entry by entry (only a site's whole storage, under quota pressure): kept"

    var sizeRule: SizeRule {
        if isSiteStorage {
            return SizeRule(
                ratio: 1, metric: .apparent, trimsAtLimit: false, stopsStrictlyBelow: false,
                owner: "Chromium, which trims no entry of a site's own data (it evicts a site's whole storage)"
            )
        }
        let order = isCodeCache ? "least recently used first" : "largest (idle time × (size + 512)) first"
        return SizeRule(
            ratio: 0.9, metric: .apparent, trimsAtLimit: false, stopsStrictlyBelow: false,
            owner:
                """
                Chromium: above 95 % of the maximum, down to 90 %, \(order), sizes as the files' lengths \
                (simple_index.cc, simple_index_file.cc ProcessEntryFile)
                """,
            startsAbove: 0.95, byAgeTimesSize: !isCodeCache)
    }

    static func le64(_ b: ArraySlice<UInt8>, _ at: Int) -> UInt64 {
        (0..<8).reduce(UInt64(0)) { $0 | UInt64(b[b.startIndex + at + $1]) << (8 * UInt64($1)) }
    }

    static func le32(_ b: ArraySlice<UInt8>, _ at: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(b[b.startIndex + at + $1]) << (8 * UInt32($1)) }
    }

    /// The key of an `_0` file of `size` bytes, or why it is not whole: its header, its key and
    /// its end records read where they lie, the streams' CRC-32s computed a block at a time (a
    /// media entry is tens of megabytes; nothing here is held whole). `read` gives the bytes at
    /// an offset (fewer where the file ends), and throws when they cannot be read.
    static func check(size: Int, read: (_ at: Int, _ count: Int) throws -> [UInt8]) rethrows -> Result<
        String, CheckFailure
    > {
        let cutShort = CheckFailure("cut short while it was read")
        guard size >= headerSize + 2 * eofSize else { return .failure(.init("no simple-cache header")) }
        let header = try read(0, headerSize)
        guard header.count == headerSize else { return .failure(cutShort) }
        guard le64(header[...], 0) == initialMagic else { return .failure(.init("no simple-cache header")) }
        let keyLength = Int(le32(header[...], 12))
        guard keyLength <= size - headerSize - 2 * eofSize else {
            return .failure(.init("a key longer than the file"))
        }
        let eof0 = size - eofSize
        let record0 = try read(eof0, eofSize)
        guard record0.count == eofSize else { return .failure(cutShort) }
        guard le64(record0[...], 0) == finalMagic else {
            return .failure(.init("no end-of-file record (cut short or still being written)"))
        }
        let flags = le32(record0[...], 8)
        let crc0 = le32(record0[...], 12)
        let size0 = Int(Int32(bitPattern: le32(record0[...], 16)))
        let end0 = eof0 - (flags & 2 != 0 ? 32 : 0)
        let start0 = end0 - size0
        let eof1 = start0 - eofSize
        guard size0 >= 0, eof1 >= headerSize + keyLength else {
            return .failure(.init("stream sizes that do not fit the file"))
        }
        let record1 = try read(eof1, eofSize)
        guard record1.count == eofSize else { return .failure(cutShort) }
        guard le64(record1[...], 0) == finalMagic else {
            return .failure(.init("stream sizes that do not fit the file"))
        }
        /// The CRC-32 of the file's bytes in `range`, read a block at a time; nil when cut short.
        func crc(_ range: Range<Int>) throws -> UInt32? {
            var crc = CRC32.initial
            var at = range.lowerBound
            while at < range.upperBound {
                let block = try read(at, min(1 << 16, range.upperBound - at))
                guard !block.isEmpty else { return nil }
                crc = CRC32.update(crc, block)
                at += block.count
            }
            return CRC32.finish(crc)
        }
        if flags & 1 != 0 {
            guard let actual = try crc(start0..<end0) else { return .failure(cutShort) }
            if actual != crc0 { return .failure(.init("stream 0's CRC-32 does not match")) }
        }
        let flags1 = le32(record1[...], 8)
        let crc1 = le32(record1[...], 12)
        if flags1 & 1 != 0 {
            guard let actual = try crc((headerSize + keyLength)..<eof1) else { return .failure(cutShort) }
            if actual != crc1 { return .failure(.init("stream 1's CRC-32 does not match")) }
        }
        let key = try read(headerSize, keyLength)
        guard key.count == keyLength else { return .failure(cutShort) }
        return .success(String(decoding: key, as: UTF8.self))
    }

    /// Where stream 1 (the body, as it came over the wire) and stream 0 (the response's
    /// head) lie in an `_0` file of `size` bytes that `check` takes (simple_entry_format.h).
    static func streams(size: Int, read: (_ at: Int, _ count: Int) throws -> [UInt8]) rethrows -> (
        body: Range<Int>, head: Range<Int>
    )? {
        let header = try read(0, headerSize)
        let record0 = try read(size - eofSize, eofSize)
        guard header.count == headerSize, record0.count == eofSize else { return nil }
        let keyLength = Int(le32(header[...], 12))
        let end0 = size - eofSize - (le32(record0[...], 8) & 2 != 0 ? 32 : 0)
        let start0 = end0 - Int(Int32(bitPattern: le32(record0[...], 16)))
        let eof1 = start0 - eofSize
        guard headerSize + keyLength <= eof1, start0 <= end0 else { return nil }
        return ((headerSize + keyLength)..<eof1, start0..<end0)
    }

    /// The body of an entry, as `cat` writes it: stream 1 of its `_0` file, not the file (a
    /// header, the key, end records and the response's head around it). Throws when the
    /// body is stored coded for the transfer (`Content-Encoding`: Chromium keeps the bytes
    /// as they came), or the file is not whole.
    func inlineBody(_ entry: CacheEntry) throws -> [UInt8]? {
        guard let relative = entry.relativePath else { return nil }
        // A media entry fetched in ranges keeps its body in pieces in `_s`, not in stream 1.
        if entry.companions.contains(where: { $0.relativePath.last == UInt8(ascii: "s") }) {
            throw StoreError.cannotRead(entry.path, "the body is stored in ranges (a sparse `_s` file), not whole")
        }
        let read = FileIO.withRegularFile(relative, in: anchor) { size, read -> (body: [UInt8]?, coding: String?) in
            guard case .success = try Self.check(size: size, read: read),
                let (body, head) = try Self.streams(size: size, read: read)
            else { return (nil, nil) }
            if let coding = HTTPHeadText.contentCoding(try read(head.lowerBound, head.count)) { return (nil, coding) }
            let bytes = try read(body.lowerBound, body.count)
            return (bytes.count == body.count ? bytes : nil, nil)
        }
        return try HTTPHeadText.body(read, of: entry.path)
    }

    /// The key of a whole `_0` file in memory, or why it is not whole.
    static func check(_ bytes: [UInt8]) -> Result<String, CheckFailure> {
        check(size: bytes.count) { at, count in Array(bytes[at..<min(bytes.count, at + count)]) }
    }

    /// The key in the header of an `_0` file of `size` bytes, whole or not.
    static func key(size: Int, read: (_ at: Int, _ count: Int) throws -> [UInt8]) rethrows -> String? {
        let header = try read(0, headerSize)
        guard header.count == headerSize, le64(header[...], 0) == initialMagic else { return nil }
        let length = Int(le32(header[...], 12))
        guard length <= size - headerSize else { return nil }
        let key = try read(headerSize, length)
        return key.count == length ? String(decoding: key, as: UTF8.self) : nil
    }

    struct CheckFailure: Error {
        var why: String
        init(_ why: String) { self.why = why }
    }

    /// The URL of a key: at the end of an HTTP cache key (`1/0/_dk_<site> <site> <url>`);
    /// between the prefix and the separator of a code cache's (`_key<url> \n<origin>`,
    /// content/browser/code_cache/generated_code_cache.cc `kPrefix`, `kSeparator`).
    static func url(ofKey key: String) -> String? {
        if key.hasPrefix("_key"), let separator = key.range(of: " \n") {
            let url = String(key[key.index(key.startIndex, offsetBy: 4)..<separator.lowerBound])
            return URLKey(url) != nil ? url : nil
        }
        guard let last = key.split(separator: " ").last.map(String.init), URLKey(last) != nil else { return nil }
        return last
    }

    /// A `todelete_*` file: an orphan once past the grace period (a running browser may still
    /// read an entry it doomed while open).
    private static func doomed(_ file: FileTree.File, _ context: InspectionContext) -> CacheEntry {
        let old = context.isOlderThanGrace(file.lastWritten)
        var entry = CacheEntry(
            url: nil, path: file.path, relativePath: file.anchorRelative, allocatedBytes: file.allocatedBytes,
            apparentBytes: file.apparentBytes, modified: file.modified, state: old ? .orphan : .fresh,
            reason: "a doomed entry file (Chromium deletes it at its next index rebuild)"
                + (old ? "" : ": within the grace period"))
        entry.identity = file.identity
        entry.inGracePeriod = !old
        return entry
    }

    func entries(_ context: InspectionContext) throws -> [CacheEntry] {
        let files = FileTree.files(in: anchor, recursive: false)
        var groups: [String: [FileTree.File]] = [:]
        var result: [CacheEntry] = []
        for file in files {
            let name = String(decoding: file.path.lastComponent, as: UTF8.self)
            if name == "index" || name == CacheDirTag.fileName { continue }
            if name.hasPrefix("todelete_") {
                result.append(Self.doomed(file, context))
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
        // Each entry's last use: Chromium's own record of it when its index is fresh, else what
        // Chromium rebuilds that index from, the files' last access.
        // The index file read once, for both.
        let file = ChromiumIndexFile.read(anchor)
        let index = file.flatMap { ChromiumIndexFile.parse($0.bytes, directoryModified: $0.directoryModified) }
        let siteStorage = isSiteStorage(indexFile: { file })
        for (hash, members) in groups.sorted(by: { $0.key < $1.key }) {
            let key = UInt64(hash, radix: 16)
            let lastUse = key.flatMap { index?.lastUse[$0] } ?? members.map(\.accessed).max()
            var entry = groupEntry(hash, members, lastUse: lastUse, context)
            if let key, let index, let used = index.lastUse[key], index.highPriority.contains(key), !isCodeCache,
                (0..<ChromiumIndexFile.prioritizedPeriod).contains(context.now.seconds - used.seconds)
            {
                entry.evictionWeightDivisor = ChromiumIndexFile.prioritizedWeightDivisor
                entry.reason += "; a page a tab loaded, used within a day: Chromium evicts it later (weight ÷ 10)"
            }
            if siteStorage, entry.state != .orphan {
                entry.removedOnlyWhenNamed = true
                entry.reason =
                    entry.reason == Self.revalidates
                    ? Self.siteStorageReason : entry.reason + "; " + Self.siteStorageReason
            }
            result.append(entry)
        }
        return result
    }

    static let revalidates = "Chromium revalidates by the stored headers; no age rule here"

    /// The entry of one hash: its `_0` file checked (header, key, end records, CRC-32s), its
    /// `_1` and `_s` files its companions.
    private func groupEntry(
        _ hash: String, _ members: [FileTree.File], lastUse: FileTime?, _ context: InspectionContext
    ) -> CacheEntry {
        let main = members.first { $0.relative.last == UInt8(ascii: "0") } ?? members[0]
        var entry = CacheEntry(
            url: nil, path: main.path, relativePath: main.anchorRelative, allocatedBytes: 0, apparentBytes: 0,
            modified: members.map(\.modified).max(), lastAccess: lastUse, state: .fresh, reason: Self.revalidates)
        entry.identity = main.identity
        // The body lies inside the `_0` file: read out by `inlineBody`, never pointed at.
        entry.inlineBody = true
        for member in members {
            entry.allocatedBytes = entry.allocatedBytes.saturatingPlus(member.allocatedBytes)
            entry.apparentBytes = entry.apparentBytes.saturatingPlus(member.apparentBytes)
            if member.anchorRelative != main.anchorRelative {
                entry.companions.append(
                    CacheEntry.Companion(relativePath: member.anchorRelative, identity: member.identity))
            }
        }
        if main.relative.last != UInt8(ascii: "0") {
            // A browser writing the entry may not have made its _0 file yet.
            let old = members.allSatisfy { context.isOlderThanGrace($0.lastWritten) }
            (entry.state, entry.reason) =
                old
                ? (.orphan, "stream files of \(hash) without its _0 file")
                : (.fresh, "stream files of \(hash) without its _0 file: within the grace period")
            entry.inGracePeriod = !old
        } else if case .success(let (checked, key)) = FileIO.withRegularFile(
            main.anchorRelative, in: anchor,
            { size, read -> (Result<String, CheckFailure>, String?) in
                // The key a damaged entry's header names, for its URL.
                let checked = try Self.check(size: size, read: read)
                if case .success = checked { return (checked, nil) }
                return (checked, try Self.key(size: size, read: read))
            })
        {
            switch checked {
            case .success(let key): entry.url = Self.url(ofKey: key)
            case .failure(let failure):
                entry.url = key.flatMap(Self.url(ofKey:))
                let old = context.isOlderThanGrace(main.lastWritten)
                (entry.state, entry.reason) =
                    old ? (.corrupted, failure.why) : (.fresh, failure.why + ": within the grace period")
                entry.inGracePeriod = !old
            }
        }
        return entry
    }

    func locate(url: String, _ context: InspectionContext) throws -> CacheEntry? {
        guard URLKey(url) != nil else { throw StoreError.notAURL(url) }
        return try entries(context).first { $0.url == url }
    }
}
