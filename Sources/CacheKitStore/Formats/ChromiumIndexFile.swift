import CacheKitSystem

/// The last use of each entry, as Chromium's simple cache keeps it in `index-dir/the-real-index`
/// and evicts by it (simple_index.cc `StartEvictionIfNeeded`: `RawTimeForSorting`).
///
/// The file is a `base::Pickle` (net/disk_cache/simple/simple_index_file.cc): an 8-byte header
/// (payload size, then the CRC-32 of the payload, `PickleHeader`), then, each field 4-byte
/// aligned and little-endian, `IndexMetadata` (magic 0x656e74657220796f, version, entry count,
/// cache size, and from version 7 on the reason it was written), each entry (its hash, then
/// `EntryMetadata::Serialize`: the last use as a `base::Time` internal value, microseconds since
/// 1601-01-01 UTC, and the size in 256-byte chunks with the in-memory hints), and last the cache
/// directory's modification time when the file was written.
///
/// Chromium loads the file only when it is fresh, when the directory has not been modified since
/// (`SyncLoadIndexEntries`: `cache_last_modified <= last_cache_seen_by_index`); otherwise it
/// rebuilds its index from the entry files, each last used when its file was last accessed
/// (`ProcessEntryFile`). `parse` does the same: nil for a missing, damaged or stale file.
struct ChromiumIndexFile {
    static let path = Array("index-dir/the-real-index".utf8)
    static let magic: UInt64 = 0x656e_7465_7220_796f
    /// kMaxEntriesInIndex: Chromium refuses a file claiming more.
    static let maxEntries = 1_000_000
    /// Microseconds from 1601-01-01 to 1970-01-01 (`base::Time`'s internal epoch).
    static let windowsEpochOffset: Int64 = 11_644_473_600 * 1_000_000

    /// Each entry's last use, by the hash its files are named after.
    let lastUse: [UInt64: FileTime]
    /// The entries marked `HINT_HIGH_PRIORITY` (a main frame's page: net/disk_cache/
    /// memory_entry_data_hints.h), whose eviction weight Chromium divides while they were used
    /// within a day (`prioritizedWeightDivisor`).
    let highPriority: Set<UInt64>

    /// What Chromium divides a high-priority entry's weight by, while its last use is less than
    /// `prioritizedPeriod` seconds old (simple_index.cc `StartEvictionIfNeeded`; net/base/
    /// features.cc `kSimpleCachePrioritizedCaching`, on by default, factor 10, period one day).
    static let prioritizedWeightDivisor: Int64 = 10
    static let prioritizedPeriod: Int64 = 86_400
    /// `HINT_HIGH_PRIORITY`, in the low two bits of an entry's packed size and hints.
    static let highPriorityHint: UInt64 = 1 << 1

    static let headerSize = 8
    static let metadataSize = 32
    static let entrySize = 24
    static let trailerSize = 8

    /// The file below `anchor` (up to the largest index Chromium reads) and the directory's
    /// modification time, read once for `parse` and `recordsNoUse`; nil when either is missing.
    static func read(_ anchor: AnchoredDirectory) -> (bytes: [UInt8], directoryModified: FileTime)? {
        let limit = headerSize + metadataSize + maxEntries * entrySize + trailerSize
        guard case .success(let bytes) = anchor.readPrefix(path, count: limit + 1),
            case .success(let directory) = anchor.status(of: [])
        else { return nil }
        return (bytes, directory.modified)
    }

    /// Whether the index is a cache's in `net::APP_CACHE` mode (a site's own data): Chromium
    /// records there each entry's trailer prefetch size, a count of bytes, where other caches
    /// record its last use (`EntryMetadata::Serialize`), and keeps no last use at all. True for
    /// a valid index with entries, each holding such a count.
    static func recordsNoUse(_ bytes: [UInt8]) -> Bool {
        guard let records = records(bytes), !records.isEmpty else { return false }
        // (Each record's packed size and hints says nothing either way.)
        return records.allSatisfy { (-1..<(1 << 31)).contains($0.stored) }
    }

    /// Each entry's hash, stored use (a `base::Time` internal value, or, in `APP_CACHE` mode, a
    /// prefetch size), and size in 256-byte chunks with its hints in the low two bits (`packed`:
    /// simple_index.cc `PackEntrySizeAndInMemoryData`); nil unless the file is whole and of a
    /// version Chromium loads, with no packed field over 38 bits (`EntryMetadata::Deserialize`).
    static func records(_ bytes: [UInt8]) -> [(hash: UInt64, stored: Int64, packed: UInt64)]? {
        guard bytes.count <= headerSize + metadataSize + maxEntries * entrySize + trailerSize,
            bytes.count >= headerSize + metadataSize + trailerSize
        else { return nil }
        let b = bytes[...]
        let payload = Int(ChromiumSimpleCacheFormat.le32(b, 0))
        guard payload == bytes.count - headerSize,
            CRC32.finish(CRC32.update(CRC32.initial, b[headerSize...])) == ChromiumSimpleCacheFormat.le32(b, 4),
            ChromiumSimpleCacheFormat.le64(b, 8) == magic
        else { return nil }
        // Versions 7 to 9 (simple_index_file.cc `CheckIndexMetadata`); an index of version 6,
        // without the reason field, is left to the files' access times.
        let version = ChromiumSimpleCacheFormat.le32(b, 16)
        let count = ChromiumSimpleCacheFormat.le64(b, 20)
        guard (7...9).contains(version), count <= UInt64(maxEntries),
            bytes.count == headerSize + metadataSize + Int(count) * entrySize + trailerSize
        else { return nil }
        var out: [(hash: UInt64, stored: Int64, packed: UInt64)] = []
        out.reserveCapacity(Int(count))
        for i in 0..<Int(count) {
            let at = headerSize + metadataSize + i * entrySize
            let packed = ChromiumSimpleCacheFormat.le64(b, at + 16)
            guard packed >> 38 == 0 else { return nil }
            out.append(
                (
                    ChromiumSimpleCacheFormat.le64(b, at), Int64(bitPattern: ChromiumSimpleCacheFormat.le64(b, at + 8)),
                    packed
                ))
        }
        return out
    }

    /// The index in `bytes`, when Chromium would load it in a directory last modified then.
    static func parse(_ bytes: [UInt8], directoryModified: FileTime) -> ChromiumIndexFile? {
        guard let records = records(bytes) else { return nil }
        // Fresh only if the directory has not changed since the file was written (both in
        // microseconds, as base::Time has them).
        let seen = Int64(bitPattern: ChromiumSimpleCacheFormat.le64(bytes[...], bytes.count - trailerSize))
        let (seenSince1970, o1) = seen.subtractingReportingOverflow(windowsEpochOffset)
        let (seconds, o2) = directoryModified.seconds.multipliedReportingOverflow(by: 1_000_000)
        let (modified, o3) = seconds.addingReportingOverflow(Int64(directoryModified.nanoseconds / 1000))
        guard !o1, !o2, !o3, modified <= seenSince1970 else { return nil }
        var lastUse: [UInt64: FileTime] = Dictionary(minimumCapacity: records.count)
        var highPriority = Set<UInt64>()
        for (hash, stored, packed) in records {
            if packed & highPriorityHint != 0 { highPriority.insert(hash) }
            // Stored in whole seconds since 1970 (`last_used_time_seconds_since_epoch_`); 0 is none.
            let (unix, overflow) = stored.subtractingReportingOverflow(windowsEpochOffset)
            guard !overflow, unix > 0 else { continue }
            lastUse[hash] = FileTime(seconds: unix / 1_000_000, nanoseconds: Int32(unix % 1_000_000) * 1000)
        }
        return ChromiumIndexFile(lastUse: lastUse, highPriority: highPriority)
    }
}
