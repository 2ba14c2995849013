/// The native store seen through the common abstraction.
struct NativeFormat: CacheFormat, BodyBatchLookup {
    let store: NativeStore

    func excludeWriters() throws -> AnyObject? { try store.lockWriters(exclusive: true) }

    func prepareForPrune() {
        // Saved pages deleted since they were localized release their pins.
        if store.readOnlyReason == nil { _ = try? store.releaseDeletedPages() }
    }

    func withBodyLookups<T>(now: FileTime, _ body: (@escaping ([String], LoopRunner) -> [NativeStore.Body?]) -> T)
        throws -> T
    {
        try store.withBodyLookups(now: now, body)
    }

    var kind: CacheFormatKind { .native }
    var anchor: AnchoredDirectory { store.anchor }
    func entries(_ context: InspectionContext) throws -> [CacheEntry] { try store.entries(context) }
    /// By key, without scanning: the row, then its body checked against the row's size.
    func locate(url: String, _ context: InspectionContext) throws -> CacheEntry? {
        try store.lookup(url: url, now: context.now).map(entry(for:))
    }

    func forgetIndexed(_ entries: [CacheEntry]) throws -> [Bool] { try store.deleteRows(naming: entries) }

    func removeUnindexed(_ entries: [CacheEntry], _ remove: ([CacheEntry]) -> [DeletionResult]) throws
        -> [DeletionResult]
    {
        try store.removeUnindexed(entries, remove)
    }

    var keptDirectories: Set<[UInt8]> { [Array("objects".utf8), Array("tmp".utf8)] }

    func didRemove() { store.releaseAndKeepReserve() }

    /// The entry for a looked-up row: its body checked against the row's size.
    func entry(for hit: NativeStore.Hit) -> CacheEntry {
        let relative = Array(hit.record.bodyPath.utf8)
        guard case .success(let st) = store.anchor.status(of: relative), st.isRegular else {
            return CacheEntry(
                url: hit.record.url, path: hit.bodyPath, relativePath: relative, allocatedBytes: 0, apparentBytes: 0,
                modified: nil, state: .corrupted, reason: "body missing", indexKey: hit.record.url)
        }
        let state: EntryState = st.size != hit.record.apparentBytes ? .corrupted : hit.isFresh ? .fresh : .expired
        var entry = CacheEntry(
            url: hit.record.url, path: hit.bodyPath, relativePath: relative, allocatedBytes: st.allocatedBytes,
            apparentBytes: st.size, modified: st.modified, lastAccess: FileTime(timeInterval: hit.record.lastAccess),
            expires: hit.record.expires.map(FileTime.init(timeInterval:)), state: state,
            reason: state == .corrupted ? "body size does not match the index" : state.rawValue,
            indexKey: hit.record.url)
        entry.identity = FileIdentity(st)
        return entry
    }
}
