#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The distinct index keys of many URLs, found by their bytes: a page names most of its images
/// more than once, by URLs that are nearly always their own key already (the standard's
/// serialization, perhaps with a fragment). Each URL's bytes up to any `#` are hashed and
/// looked up in an open-addressing table, compared byte for byte on a hit; a key seen for the
/// first time is copied into one array of bytes (no String each, no reference count touched
/// for a repeat), and only a URL that is not its own key is parsed.
package struct PinKeys {
    /// The keys' bytes, one after another; key `i` ends at `ends[i]`.
    private var bytes: [UInt8] = []
    private var ends: [Int] = []
    /// Each key's hash, by its index.
    private var hashes: [UInt64] = []
    /// Slots of the table: a key's index, or -1. Its size is a power of two, at least twice
    /// the keys'.
    private var slots: [Int32]
    /// URLs seen that are not their own key (each parsed once).
    private var unnormalized: Set<String> = []
    private let hash: (UnsafeRawBufferPointer) -> UInt64

    /// `capacity`: about how many URLs will be inserted. `hash` is for tests (one that
    /// collides); the default is the standard library's seeded one.
    package init(capacity: Int = 0, hash: @escaping (UnsafeRawBufferPointer) -> UInt64 = PinKeys.seededHash) {
        var size = 16
        while size < 2 * capacity { size *= 2 }
        slots = [Int32](repeating: -1, count: size)
        self.hash = hash
    }

    /// How many distinct keys.
    package var count: Int { ends.count }

    /// The keys, sorted.
    package func sorted() -> [String] {
        bytes.withUnsafeBufferPointer { all in
            ends.indices.map { String(decoding: all[range(of: $0)], as: UTF8.self) }
        }.sorted()
    }

    package static func seededHash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(bytes: bytes)
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }

    /// Adds the key of `url`: its bytes up to any `#`, normalized when they are not already
    /// a key (`URLKey`); a URL with no key (`data:`, `file:`) adds nothing.
    package mutating func insert(_ url: String) {
        let own =
            url.utf8.withContiguousStorageIfAvailable { insert(ownKey: $0) }
            ?? {
                var copy = url
                return copy.withUTF8 { insert(ownKey: $0) }
            }()
        // Not its own key (a password, an upper-case host, a dot segment, not http(s)): parsed.
        guard !own, unnormalized.insert(url).inserted, var key = URLKey(url)?.normalized else { return }
        key.withUTF8 { key in
            let h = hash(UnsafeRawBufferPointer(key))
            if find(UnsafeRawBufferPointer(key), hash: h) == nil { add(key, hash: h) }
        }
    }

    /// Adds `url`'s bytes up to any `#` when they are a key; false when they are not.
    private mutating func insert(ownKey url: UnsafeBufferPointer<UInt8>) -> Bool {
        let key = UnsafeBufferPointer(rebasing: url[..<(url.firstIndex(of: UInt8(ascii: "#")) ?? url.count)])
        let h = hash(UnsafeRawBufferPointer(key))
        if find(UnsafeRawBufferPointer(key), hash: h) != nil { return true }
        guard URLKey.isNormalized(bytes: key) else { return false }
        add(key, hash: h)
        return true
    }

    /// Whether `bytes` are one of the keys.
    package func contains(_ bytes: UnsafeRawBufferPointer) -> Bool {
        find(bytes, hash: hash(bytes)) != nil
    }

    private func range(of index: Int) -> Range<Int> {
        (index == 0 ? 0 : ends[index - 1])..<ends[index]
    }

    private func find(_ key: UnsafeRawBufferPointer, hash h: UInt64) -> Int? {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: h) & mask
        return bytes.withUnsafeBytes { all in
            while true {
                let index = Int(slots[slot])
                if index < 0 { return nil }
                if hashes[index] == h {
                    let range = range(of: index)
                    if range.count == key.count
                        && (key.isEmpty
                            || memcmp(all.baseAddress! + range.lowerBound, key.baseAddress!, key.count) == 0)
                    {
                        return index
                    }
                }
                slot = (slot + 1) & mask
            }
        }
    }

    private mutating func add(_ key: UnsafeBufferPointer<UInt8>, hash h: UInt64) {
        if 2 * (ends.count + 1) > slots.count { grow() }
        bytes.append(contentsOf: key)
        ends.append(bytes.count)
        hashes.append(h)
        place(ends.count - 1)
    }

    private mutating func place(_ index: Int) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hashes[index]) & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(index)
    }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: 2 * slots.count)
        for index in ends.indices { place(index) }
    }
}
