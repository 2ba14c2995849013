import Foundation

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
/// (it revalidates it), so it is kept here; over the capacity, entries go by their frecency
/// (the header's, which Firefox's index is rebuilt from). Facts:
/// shared/reference/cache-layouts.md §10.
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
        /// `FRECENCY2INT` of the entry's frecency: 0 before its first use.
        var frecency: UInt32
    }

    /// The metadata of an entry file of `size` bytes, or why it is not whole, read as Firefox
    /// reads it, from the end: the offset in the last 4 bytes, then the metadata from there on;
    /// the data before it only with `verifyChunks`, a chunk at a time (an entry is up to 50 MiB
    /// by default, and a listing needs none of it). `read` gives the bytes at an offset (fewer
    /// where the file ends), and throws when they cannot be read.
    static func parse(
        size: Int, name: String, verifyChunks: Bool, read: (_ at: Int, _ count: Int) throws -> [UInt8]
    ) rethrows -> Result<Metadata, ChromiumSimpleCacheFormat.CheckFailure> {
        let cutShort = ChromiumSimpleCacheFormat.CheckFailure("cut short while it was read")
        guard size >= 4 else { return .failure(.init("shorter than its metadata offset")) }
        let last = try read(size - 4, 4)
        guard last.count == 4 else { return .failure(cutShort) }
        let offset = Int(Self.be32(last[...], 0))
        let chunks = (offset + chunkSize - 1) / chunkSize
        let headerAt = offset + 4 + 2 * chunks
        guard offset <= size - 4, headerAt + 32 < size - 4 else {
            return .failure(.init("a metadata offset outside the file"))
        }
        // The file from the metadata offset to its end: the file's byte `i` is `m[i - offset]`.
        let m = try read(offset, size - offset)
        guard m.count == size - offset else { return .failure(cutShort) }
        func be32(_ at: Int) -> UInt32 { Self.be32(m[...], at - offset) }
        let hash = be32(offset)
        let body = m[4..<(m.count - 4)]
        // Firefox 153 writes 4 more bytes after the elements; older versions none.
        guard lookup2(body.dropLast(4)) == hash || lookup2(body) == hash else {
            return .failure(.init("its metadata hash does not match"))
        }
        let version = be32(headerAt)
        guard version >= 1 && version <= 16 else { return .failure(.init("an unknown metadata version \(version)")) }
        let keySize = Int(be32(headerAt + 24))
        let keyAt = headerAt + 32 - offset
        guard keySize >= 0, keyAt + keySize < m.count - 4, m[keyAt + keySize] == 0 else {
            return .failure(.init("a key that does not fit"))
        }
        let keyBytes = Array(m[keyAt..<keyAt + keySize])
        guard Digest.sri("sha1", keyBytes)?.uppercased() == name else {
            return .failure(.init("its key does not hash to its name"))
        }
        if verifyChunks {
            for chunk in 0..<chunks {
                let start = chunk * chunkSize
                let end = min(offset, start + chunkSize)
                let data = try read(start, end - start)
                guard data.count == end - start else { return .failure(cutShort) }
                let stored = UInt16(m[4 + 2 * chunk]) << 8 | UInt16(m[5 + 2 * chunk])
                if UInt16(truncatingIfNeeded: lookup2(data[...])) != stored {
                    return .failure(.init("chunk \(chunk) does not match its hash"))
                }
            }
        }
        return .success(
            Metadata(
                key: String(decoding: keyBytes, as: UTF8.self), expiration: be32(headerAt + 20),
                lastFetched: be32(headerAt + 8), frecency: be32(headerAt + 16)))
    }

    /// The metadata of a whole entry file in memory, or why it is not whole.
    static func parse(_ bytes: [UInt8], name: String, verifyChunks: Bool) -> Result<
        Metadata, ChromiumSimpleCacheFormat.CheckFailure
    > {
        parse(size: bytes.count, name: name, verifyChunks: verifyChunks) { at, count in
            Array(bytes[at..<min(bytes.count, at + count)])
        }
    }

    /// The body of an entry, as `cat` writes it: the file's data before its metadata, not
    /// the file. Throws when the body is stored coded for the transfer (`Content-Encoding`
    /// in its `response-head`: Firefox keeps the bytes as they came), or the file is not whole.
    func inlineBody(_ entry: CacheEntry) throws -> [UInt8]? {
        guard let relative = entry.relativePath else { return nil }
        let name = String(decoding: relative.split(separator: UInt8(ascii: "/")).last ?? [], as: UTF8.self)
        let read = FileIO.withRegularFile(relative, in: anchor) { size, read -> (body: [UInt8]?, coding: String?) in
            guard case .success = try Self.parse(size: size, name: name, verifyChunks: true, read: read) else {
                return (nil, nil)
            }
            let offset = Int(Self.be32(try read(size - 4, 4)[...], 0))
            if let coding = HTTPHeadText.contentCoding(try read(offset, size - offset)) { return (nil, coding) }
            let bytes = try read(0, offset)
            return (bytes.count == offset ? bytes : nil, nil)
        }
        return try HTTPHeadText.body(read, of: entry.path)
    }

    /// The big-endian 32-bit number at `at` in `b` (counted from its start).
    static func be32(_ b: ArraySlice<UInt8>, _ at: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(b[b.startIndex + at + $1]) }
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
                case .success(let parsed) = FileIO.withRegularFile(
                    file.anchorRelative, in: anchor,
                    { size, read in
                        try Self.parse(size: size, name: name, verifyChunks: context.verify, read: read)
                    })
            else {
                entry.reason = "not a cache2 entry file: kept"
                entry.removedOnlyWhenNamed = true
                result.append(entry)
                continue
            }
            switch parsed {
            case .failure(let failure):
                let old = context.isOlderThanGrace(file.lastWritten)
                (entry.state, entry.reason) =
                    old
                    ? (.corrupted, failure.why) : (.fresh, failure.why + ": being written (within the grace period)")
                entry.inGracePeriod = !old
            case .success(let metadata):
                entry.url = Self.url(ofKey: metadata.key)
                // The body lies before the metadata: read out by `inlineBody`, never pointed at.
                entry.inlineBody = true
                let never = metadata.expiration == UInt32.max
                if !never && Double(metadata.expiration) <= context.now.timeInterval {
                    entry.reason = "past its expiration time: Firefox revalidates it"
                } else {
                    entry.reason = never ? "no expiration time" : "fresh until its expiration time"
                }
                entry.lastAccess = FileTime(seconds: Int64(metadata.lastFetched))
                entry.evictionClock = Self.evictionClock(frecency: metadata.frecency)
                entry.expires = never ? nil : FileTime(seconds: Int64(metadata.expiration))
            }
            result.append(entry)
        }
        for file in FileTree.files(in: anchor, under: Array("doomed".utf8)) {
            // Firefox keeps a doomed entry's file open while a reader has it.
            let old = context.isOlderThanGrace(file.lastWritten)
            var entry = CacheEntry(
                url: nil, path: file.path, relativePath: file.anchorRelative, allocatedBytes: file.allocatedBytes,
                apparentBytes: file.apparentBytes, modified: file.modified, state: old ? .orphan : .fresh,
                reason: "a doomed entry (Firefox has dropped it)" + (old ? "" : ": within the grace period"))
            entry.identity = file.identity
            entry.inGracePeriod = !old
            result.append(entry)
        }
        return result
    }

    /// Firefox evicts while its usage (file sizes, in KiB) is above the capacity and stops
    /// once it is within it (netwerk/cache2/CacheFileIOManager.cpp,
    /// `OverLimitEvictionInternal`), the entry of lowest frecency first, those of frecency 0
    /// (never used) last (CacheIndex.cpp `GetEntryForEviction`, `FrecencyComparator`).
    var sizeRule: SizeRule {
        SizeRule(
            ratio: 1, metric: .apparent, trimsAtLimit: false, stopsStrictlyBelow: false,
            owner:
                """
                Firefox: above the capacity, down to it, file sizes, lowest frecency first \
                (CacheFileIOManager.cpp OverLimitEvictionInternal, CacheIndex.cpp GetEntryForEviction)
                """)
    }

    /// The time of use an entry's frecency amounts to, for the size trim's order. Firefox
    /// computes a frecency `f` as `ln(Σ exp(t·ln2/H))` over its uses `t` (in seconds, `H` the
    /// half-life) and stores `FRECENCY2INT(f) = f·H` (CacheEntry.cpp `BackgroundOp`,
    /// `FRECENCYUPDATE`; CacheFileMetadata.h): that over ln 2 is a time, the time of one use
    /// worth them all, later than the last use by up to `H·log2(uses)`, whatever the half-life.
    /// Lower frecency, earlier time: evicted first. Frecency 0 (never used) goes last.
    static func evictionClock(frecency: UInt32) -> FileTime {
        frecency == 0
            ? FileTime(seconds: Int64(UInt32.max)) : FileTime(timeInterval: Double(frecency) / M_LN2)
    }

    var keptDirectories: Set<[UInt8]> { [Array("entries".utf8), Array("doomed".utf8)] }

    func locate(url: String, _ context: InspectionContext) throws -> CacheEntry? {
        guard URLKey(url) != nil else { throw StoreError.notAURL(url) }
        return try entries(context).first { $0.url == url }
    }
}
