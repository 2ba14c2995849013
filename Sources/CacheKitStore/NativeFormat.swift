/// The native store seen through the common abstraction.
package struct NativeFormat: CacheFormat, BodyBatchLookup {
    let store: NativeStore

    package init(store: NativeStore) { self.store = store }

    package func excludeWriters() throws -> AnyObject? { try store.lockWriters(exclusive: true) }

    package func prepareForPrune() {
        // Saved pages deleted since they were localized release their pins.
        if store.readOnlyReason == nil { _ = try? store.releaseDeletedPages() }
    }

    package func withBodyLookups<T>(
        now: FileTime, _ body: (@escaping ([String], LoopRunner) -> [NativeStore.Body?]) -> T
    )
        throws -> T
    {
        try store.withBodyLookups(now: now, body)
    }

    package var kind: CacheFormatKind { .native }
    package var anchor: AnchoredDirectory { store.anchor }
    package func entries(_ context: InspectionContext) throws -> [CacheEntry] { try store.entries(context) }
    /// By key, without scanning: the row, then its body checked against the row's size.
    package func locate(url: String, _ context: InspectionContext) throws -> CacheEntry? {
        try store.lookup(url: url, now: context.now).map(entry(for:))
    }

    package func forgetIndexed(_ entries: [CacheEntry]) throws -> [Bool] { try store.deleteRows(naming: entries) }

    package func removeUnindexed(_ entries: [CacheEntry], _ remove: ([CacheEntry]) -> [DeletionResult]) throws
        -> [DeletionResult]
    {
        try store.removeUnindexed(entries, remove)
    }

    package var keptDirectories: Set<[UInt8]> { [Array("objects".utf8), Array("tmp".utf8)] }

    package func didRemove() { store.releaseAndKeepReserve() }

    /// The entry for a looked-up row: its body checked against the row's size.
    package func entry(for hit: NativeStore.Hit) -> CacheEntry {
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
