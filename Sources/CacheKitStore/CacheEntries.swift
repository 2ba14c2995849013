/// A cache's entries, stored compactly: what `prune` plans over when a cache has millions of
/// files.
///
/// An entry that is a plain file below one of the table's roots — no URL or index key, no
/// access or expiry time, one name, nothing attached — is a fixed-size record (48 bytes: its
/// sizes, time, inode and flags) whose relative path is an offset into one shared byte arena
/// and whose reason is an index into the table's distinct reasons. Any other entry is kept
/// whole beside the records. Reading an element gives back exactly the `CacheEntry` that was
/// appended; the planner and the executor read the records' fields without building one.
public struct CacheEntries: RandomAccessCollection, Sendable {
    /// One entry: compact, or an index into `whole`.
    struct Record {
        /// A compact record's relative path starts here in the arena; a whole entry is
        /// `whole[slot - 1]`.
        var slot: UInt32
        var pathLength: UInt16
        var reason: UInt16
        var allocated: Int64
        var apparent: Int64
        /// Modification time in nanoseconds since 1970 (see `packTime`).
        var modified: Int64
        var inode: UInt64
        var origin: UInt8
        /// Bits 0–2: the state (`EntryState.allCases`); bit 7: a whole entry.
        var stateBits: UInt8
        var flags: UInt8
        var root: UInt8
        var device: UInt8

        static let wholeBit: UInt8 = 0x80

        /// 0 for a compact record; otherwise 1 + the whole entry's index.
        var wholeIndex: UInt32 { stateBits & Self.wholeBit != 0 ? slot : 0 }
        var pathStart: UInt32 { slot }
        var state: UInt8 { stateBits & 0x07 }

        /// A compact record.
        init(
            pathStart: UInt32, pathLength: UInt16, reason: UInt16, allocated: Int64, apparent: Int64, modified: Int64,
            inode: UInt64, origin: UInt8, state: UInt8, flags: UInt8, root: UInt8, device: UInt8
        ) {
            (slot, self.pathLength, self.reason, self.allocated, self.apparent) =
                (pathStart, pathLength, reason, allocated, apparent)
            (self.modified, self.inode, self.origin, stateBits) = (modified, inode, origin, state)
            (self.flags, self.root, self.device) = (flags, root, device)
        }

        /// A whole entry's record: its sizes and state for the planner, the rest in `whole`.
        init(whole index: UInt32, allocated: Int64, apparent: Int64, state: UInt8) {
            self.init(
                pathStart: index, pathLength: 0, reason: 0, allocated: allocated, apparent: apparent, modified: 0,
                inode: 0, origin: 0, state: state | Self.wholeBit, flags: 0, root: 0, device: 0)
        }
    }

    /// A time as nanoseconds since 1970, where it fits (1678 to 2262) and comes back the same.
    static func packTime(_ time: FileTime) -> Int64? {
        let (scaled, over) = time.seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (packed, over2) = scaled.addingReportingOverflow(Int64(time.nanoseconds))
        guard !over, !over2, unpackTime(packed) == time else { return nil }
        return packed
    }

    static func unpackTime(_ packed: Int64) -> FileTime {
        var (seconds, nanoseconds) = packed.quotientAndRemainder(dividingBy: 1_000_000_000)
        if nanoseconds < 0 { (seconds, nanoseconds) = (seconds - 1, nanoseconds + 1_000_000_000) }
        return FileTime(seconds: seconds, nanoseconds: Int32(nanoseconds))
    }

    struct Flags {
        static let hasModified: UInt8 = 1 << 0
        static let hasIdentity: UInt8 = 1 << 1
        static let inGracePeriod: UInt8 = 1 << 2
        static let isUnit: UInt8 = 1 << 3
        static let isDatabase: UInt8 = 1 << 4
        static let removedOnlyWhenNamed: UInt8 = 1 << 5
        static let inlineBody: UInt8 = 1 << 6
        /// A scratch bit for the format that builds the table (a regular file, to be looked at).
        static let regular: UInt8 = 1 << 7
    }

    private(set) var records: [Record] = []
    private var arena: [UInt8] = []
    private var whole: [CacheEntry] = []
    private var roots: [RawPath] = []
    private var devices: [UInt64] = []
    private var reasons: [String] = []
    private var reasonIndex: [String: UInt16] = [:]

    /// No entries.
    public init() {}

    /// These entries, in order.
    public init<S: Sequence>(_ entries: S) where S.Element == CacheEntry {
        for entry in entries { append(entry) }
    }

    /// The position of the first entry (0).
    public var startIndex: Int { 0 }
    /// One past the last entry's position.
    public var endIndex: Int { records.count }

    /// The entry at `position`, as it was appended.
    public subscript(position: Int) -> CacheEntry {
        let r = records[position]
        if r.wholeIndex != 0 { return whole[Int(r.wholeIndex) - 1] }
        let relative = relativeBytes(r)
        var entry = CacheEntry(
            url: nil, path: roots[Int(r.root)].appending(relative), relativePath: relative,
            allocatedBytes: r.allocated, apparentBytes: r.apparent, modified: modified(r),
            state: EntryState.allCases[Int(r.state)], reason: reasons[Int(r.reason)])
        if r.flags & Flags.hasIdentity != 0 {
            entry.identity = FileIdentity(
                device: devices[Int(r.device)], inode: r.inode, linkCount: 1, size: r.apparent,
                modified: modified(r) ?? FileTime(seconds: 0))
        }
        entry.inGracePeriod = r.flags & Flags.inGracePeriod != 0
        entry.isUnit = r.flags & Flags.isUnit != 0
        entry.isDatabase = r.flags & Flags.isDatabase != 0
        entry.removedOnlyWhenNamed = r.flags & Flags.removedOnlyWhenNamed != 0
        entry.inlineBody = r.flags & Flags.inlineBody != 0
        entry.origin = Int(r.origin)
        return entry
    }

    // MARK: - Appending

    /// Appends `entry`: compactly where it fits a record (see the type's summary).
    public mutating func append(_ entry: CacheEntry) {
        if let relative = entry.relativePath, let root = compactRoot(entry, relative),
            let record = compactRecord(entry, relative: relative, root: root)
        {
            records.append(record)
            return
        }
        appendWhole(entry)
    }

    /// Appends every entry of `other`, in order; with `origin`, each entry's origin set to it.
    public mutating func append(contentsOf other: CacheEntries, origin: Int? = nil) {
        records.reserveCapacity(records.count + other.count)
        for position in other.indices {
            let r = other.records[position]
            guard r.wholeIndex == 0, let origin8 = UInt8(exactly: origin ?? Int(r.origin)) else {
                var entry = other[position]
                if let origin { entry.origin = origin }
                appendWhole(entry)
                continue
            }
            let root = rootIndex(other.roots[Int(r.root)])
            let device = r.flags & Flags.hasIdentity != 0 ? deviceIndex(other.devices[Int(r.device)]) : 0
            let reason = reasonCode(other.reasons[Int(r.reason)])
            guard let root, let device, let reason, let start = arenaAppend(other.relativeBytes(r)) else {
                var entry = other[position]
                entry.origin = Int(origin8)
                appendWhole(entry)
                continue
            }
            var copy = r
            (copy.root, copy.device, copy.reason, copy.slot) = (root, device, reason, start)
            copy.origin = origin8
            records.append(copy)
        }
    }

    /// A plain file found by a walk below `root`, fresh unless said otherwise: the fast path
    /// that builds no `CacheEntry`.
    mutating func appendFile(
        root: RawPath, relative: [UInt8], stat st: StatInfo, state: EntryState = .fresh,
        reason: String, inGracePeriod: Bool = false
    ) {
        if st.linkCount == 1, let modified = Self.packTime(st.modified), let length = UInt16(exactly: relative.count),
            let rootCode = rootIndex(root), let device = deviceIndex(st.device), let reasonCode = reasonCode(reason),
            let start = arenaAppend(relative)
        {
            var flags = Flags.hasModified | Flags.hasIdentity
            if inGracePeriod { flags |= Flags.inGracePeriod }
            if st.isRegular { flags |= Flags.regular }
            records.append(
                Record(
                    pathStart: start, pathLength: length, reason: reasonCode, allocated: st.allocatedBytes,
                    apparent: st.apparentBytes, modified: modified, inode: st.inode, origin: 0,
                    state: Self.stateCode(state), flags: flags, root: rootCode, device: device))
            return
        }
        var entry = CacheEntry(
            url: nil, path: root.appending(relative), relativePath: relative, allocatedBytes: st.allocatedBytes,
            apparentBytes: st.apparentBytes, modified: st.modified, state: state, reason: reason)
        entry.identity = FileIdentity(st)
        entry.inGracePeriod = inGracePeriod
        appendWhole(entry)
        if st.isRegular { records[records.count - 1].flags |= Flags.regular }
    }

    private mutating func appendWhole(_ entry: CacheEntry) {
        // A record names at most 4 billion whole entries: more than any memory holds.
        precondition(whole.count < Int(UInt32.max) - 1, "more entries than a table holds")
        whole.append(entry)
        records.append(
            Record(
                whole: UInt32(whole.count), allocated: entry.allocatedBytes, apparent: entry.apparentBytes,
                state: Self.stateCode(entry.state)))
    }

    private mutating func compactRoot(_ entry: CacheEntry, _ relative: [UInt8]) -> UInt8? {
        guard entry.url == nil, entry.indexKey == nil, entry.lastAccess == nil, entry.expires == nil,
            entry.companions.isEmpty, entry.pinnedBy.isEmpty, entry.holds.isEmpty, entry.ownerLock == nil,
            entry.evictionClock == nil, entry.evictionWeightDivisor == 1,
            entry.contentType == nil, entry.etag == nil,
            !relative.isEmpty, UInt8(exactly: entry.origin) != nil, UInt16(exactly: relative.count) != nil
        else { return nil }
        // The path must be the one a root and this relative path give (`RawPath.appending`:
        // no doubled slash after a root that ends in one).
        let path = entry.path.bytes
        guard path.count > relative.count, path.suffix(relative.count).elementsEqual(relative) else { return nil }
        var prefix = Array(path.dropLast(relative.count))
        guard prefix.last == UInt8(ascii: "/") else { return nil }
        if prefix.count > 1 { prefix.removeLast() }
        var candidate = RawPath(bytes: prefix)
        if candidate.appending(relative) != entry.path {
            candidate = RawPath(bytes: Array(path.dropLast(relative.count)))
            guard candidate.appending(relative) == entry.path else { return nil }
        }
        return rootIndex(candidate)
    }

    private mutating func compactRecord(_ entry: CacheEntry, relative: [UInt8], root: UInt8) -> Record? {
        var flags: UInt8 = 0
        var (device, inode): (UInt8, UInt64) = (0, 0)
        if entry.modified != nil { flags |= Flags.hasModified }
        if let id = entry.identity {
            guard id.linkCount == 1, id.size == entry.apparentBytes, id.modified == entry.modified,
                let index = deviceIndex(id.device)
            else { return nil }
            flags |= Flags.hasIdentity
            (device, inode) = (index, id.inode)
        }
        if entry.inGracePeriod { flags |= Flags.inGracePeriod }
        if entry.isUnit { flags |= Flags.isUnit }
        if entry.isDatabase { flags |= Flags.isDatabase }
        if entry.removedOnlyWhenNamed { flags |= Flags.removedOnlyWhenNamed }
        if entry.inlineBody { flags |= Flags.inlineBody }
        guard let modified = entry.modified.map(Self.packTime) ?? 0, let reason = reasonCode(entry.reason),
            let start = arenaAppend(relative)
        else { return nil }
        return Record(
            pathStart: start, pathLength: UInt16(relative.count), reason: reason, allocated: entry.allocatedBytes,
            apparent: entry.apparentBytes, modified: modified, inode: inode, origin: UInt8(entry.origin),
            state: Self.stateCode(entry.state), flags: flags, root: root, device: device)
    }

    private mutating func rootIndex(_ root: RawPath) -> UInt8? {
        if let index = roots.lastIndex(of: root) { return UInt8(index) }
        guard roots.count < Int(UInt8.max) else { return nil }
        roots.append(root)
        return UInt8(roots.count - 1)
    }

    private mutating func deviceIndex(_ device: UInt64) -> UInt8? {
        if let index = devices.lastIndex(of: device) { return UInt8(index) }
        guard devices.count < Int(UInt8.max) else { return nil }
        devices.append(device)
        return UInt8(devices.count - 1)
    }

    private mutating func reasonCode(_ reason: String) -> UInt16? {
        if let code = reasonIndex[reason] { return code }
        guard reasons.count < Int(UInt16.max) else { return nil }
        reasons.append(reason)
        reasonIndex[reason] = UInt16(reasons.count - 1)
        return UInt16(reasons.count - 1)
    }

    private mutating func arenaAppend(_ bytes: [UInt8]) -> UInt32? {
        guard let start = UInt32(exactly: arena.count), UInt32(exactly: arena.count + bytes.count) != nil else {
            return nil
        }
        arena.append(contentsOf: bytes)
        return start
    }

    private static func stateCode(_ state: EntryState) -> UInt8 {
        UInt8(EntryState.allCases.firstIndex(of: state)!)
    }

    // MARK: - Reading fields without building an entry

    private func relativeBytes(_ r: Record) -> [UInt8] {
        Array(arena[Int(r.pathStart)..<Int(r.pathStart) + Int(r.pathLength)])
    }

    private func modified(_ r: Record) -> FileTime? {
        r.flags & Flags.hasModified != 0 ? Self.unpackTime(r.modified) : nil
    }

    /// The entry's allocated bytes.
    package func allocatedBytes(_ position: Int) -> Int64 { records[position].allocated }
    /// The entry's apparent bytes.
    package func apparentBytes(_ position: Int) -> Int64 { records[position].apparent }
    /// The entry's state.
    package func state(_ position: Int) -> EntryState { EntryState.allCases[Int(records[position].state)] }
    /// Which cache of a folder of caches the entry belongs to.
    package func origin(_ position: Int) -> Int {
        let r = records[position]
        return r.wholeIndex == 0 ? Int(r.origin) : whole[Int(r.wholeIndex) - 1].origin
    }

    /// Whether the entry lies within its grace period.
    package func inGracePeriod(_ position: Int) -> Bool {
        let r = records[position]
        return r.wholeIndex == 0 ? r.flags & Flags.inGracePeriod != 0 : whole[Int(r.wholeIndex) - 1].inGracePeriod
    }

    /// The format's clock: its eviction clock where it keeps one, else last access, else
    /// modification.
    package func lastUse(_ position: Int) -> FileTime? {
        let r = records[position]
        if r.wholeIndex != 0 {
            let e = whole[Int(r.wholeIndex) - 1]
            return e.evictionClock ?? e.lastAccess ?? e.modified
        }
        return modified(r)
    }

    /// What the entry's eviction weight is divided by (`CacheEntry.evictionWeightDivisor`).
    package func evictionWeightDivisor(_ position: Int) -> Int64 {
        let r = records[position]
        return r.wholeIndex == 0 ? 1 : whole[Int(r.wholeIndex) - 1].evictionWeightDivisor
    }

    /// Whether the entry is an application's own data, removed only when its format is named.
    package func removedOnlyWhenNamed(_ position: Int) -> Bool {
        let r = records[position]
        return r.wholeIndex == 0
            ? r.flags & Flags.removedOnlyWhenNamed != 0 : whole[Int(r.wholeIndex) - 1].removedOnlyWhenNamed
    }

    /// The paths of the entries this one holds (none for a compact record).
    package func holds(_ position: Int) -> [[UInt8]] {
        let r = records[position]
        return r.wholeIndex == 0 ? [] : whole[Int(r.wholeIndex) - 1].holds
    }

    /// The saved pages that pin the entry (none for a compact record).
    package func pinnedBy(_ position: Int) -> [String] {
        let r = records[position]
        return r.wholeIndex == 0 ? [] : whole[Int(r.wholeIndex) - 1].pinnedBy
    }

    /// Modification time, without building the entry.
    package func modified(_ position: Int) -> FileTime? {
        let r = records[position]
        return r.wholeIndex == 0 ? modified(r) : whole[Int(r.wholeIndex) - 1].modified
    }

    /// Whether an index record names the entry.
    package func isIndexed(_ position: Int) -> Bool {
        let r = records[position]
        return r.wholeIndex != 0 && whole[Int(r.wholeIndex) - 1].indexKey != nil
    }

    /// The identity of an entry with several names (hard links), whose bytes are freed only
    /// with its last name; nil for every other entry.
    package func multiplyLinked(_ position: Int) -> FileIdentity? {
        let r = records[position]
        guard r.wholeIndex != 0, let id = whole[Int(r.wholeIndex) - 1].identity, id.linkCount > 1 else { return nil }
        return id
    }

    /// Whether the entry at `a`'s path sorts before `b`'s (bytewise), without building paths
    /// when both are compact records below the same root.
    package func pathPrecedes(_ a: Int, _ b: Int) -> Bool {
        let (ra, rb) = (records[a], records[b])
        if ra.wholeIndex == 0 && rb.wholeIndex == 0 && ra.root == rb.root {
            let sa = arena[Int(ra.pathStart)..<Int(ra.pathStart) + Int(ra.pathLength)]
            let sb = arena[Int(rb.pathStart)..<Int(rb.pathStart) + Int(rb.pathLength)]
            return sa.lexicographicallyPrecedes(sb)
        }
        return self[a].path.bytes.lexicographicallyPrecedes(self[b].path.bytes)
    }

    /// The entry's path below its root (nil for one outside it), without building the entry.
    package func relativePath(_ position: Int) -> [UInt8]? {
        let r = records[position]
        return r.wholeIndex == 0 ? relativeBytes(r) : whole[Int(r.wholeIndex) - 1].relativePath
    }

    // MARK: - Changing entries in place (for the format that builds the table)

    /// Replaces the entry at `position` (the old one's arena bytes stay, unused).
    mutating func replace(_ position: Int, with entry: CacheEntry) {
        append(entry)
        records[position] = records.removeLast()
    }

    /// Sets a compact record's state, reason and grace flag.
    mutating func setState(_ position: Int, _ state: EntryState, reason: String, inGracePeriod: Bool) {
        guard records[position].wholeIndex == 0, let code = reasonCode(reason) else {
            var entry = self[position]
            (entry.state, entry.reason, entry.inGracePeriod) = (state, reason, inGracePeriod)
            replace(position, with: entry)
            return
        }
        records[position].stateBits = Self.stateCode(state)
        records[position].reason = code
        if inGracePeriod {
            records[position].flags |= Flags.inGracePeriod
        } else {
            records[position].flags &= ~Flags.inGracePeriod
        }
    }

    /// Drops the entries at `positions` (their arena bytes stay, unused).
    mutating func remove(_ positions: Set<Int>) {
        guard !positions.isEmpty else { return }
        var kept = 0
        for position in records.indices where !positions.contains(position) {
            records[kept] = records[position]
            kept += 1
        }
        records.removeLast(records.count - kept)
    }

    /// Whether the builder marked the entry a regular file (compact or whole).
    func isMarkedRegular(_ position: Int) -> Bool { records[position].flags & Flags.regular != 0 }

    /// Clears the builder's scratch bit on every record.
    mutating func clearScratch() {
        for i in records.indices { records[i].flags &= ~Flags.regular }
    }
}
