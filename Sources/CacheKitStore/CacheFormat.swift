/// One cache layout: how to list its entries with their state by that library's own rules,
/// find the entry for a URL where its naming allows, and remove entries by its own rules.
///
/// Every file is reached through `anchor`, the root opened once: listing and deletion never
/// re-open the root by path.
public protocol CacheFormat {
    var kind: CacheFormatKind { get }
    /// What the cache is, for a person: the format's name, or what this one holds where a
    /// format keeps several kinds of data (a Chromium folder of a site's own data).
    var displayName: String { get }
    /// The root as the caller named it (for messages and entry paths).
    var root: RawPath { get }
    /// The root, opened once (see `AnchoredDirectory`).
    var anchor: AnchoredDirectory { get }
    /// Every entry with its state and the reason for it.
    func entries(_ context: InspectionContext) throws -> [CacheEntry]
    /// The same entries, stored compactly (what `prune` plans over; see `CacheEntries`).
    func entryTable(_ context: InspectionContext) throws -> CacheEntries
    /// The entry holding `url`, if the naming lets us find it and it is there.
    func locate(url: String, _ context: InspectionContext) throws -> CacheEntry?
    /// Removes the index records of these entries (`indexKey` set) where they still name
    /// what was inspected; says, in order, which went. Their bodies are deleted after, so a
    /// crash leaves orphans, never a record without its body. Formats without an index:
    /// every entry "went".
    func forgetIndexed(_ entries: [CacheEntry]) throws -> [Bool]
    /// Deletes files no record names (orphans, leftovers) with `remove`, in whatever way
    /// keeps a concurrent writer from recording one of them meanwhile.
    func removeUnindexed(_ entries: [CacheEntry], _ remove: ([CacheEntry]) -> [DeletionResult]) throws
        -> [DeletionResult]
    /// Directories below the root that stay even when empty (the store's `objects/`, `tmp/`).
    var keptDirectories: Set<[UInt8]> { get }
    /// Called once deletions are done (the native store keeps its disk-full reserve again).
    func didRemove()
    /// The body of an entry held inside the cache's own database (`entry.inlineBody`).
    func inlineBody(_ entry: CacheEntry) throws -> [UInt8]?
    /// How the owner trims to its size limit (ratio, metric, comparisons): what `prune
    /// --max-size` follows unless `--trim-to` names a ratio.
    var sizeRule: SizeRule { get }
    /// Keeps the cache's own writers out until the returned value is released (the native
    /// store's writers' lock, taken exclusively), for `clear`; nil when the format has none.
    func excludeWriters() throws -> AnyObject?
    /// Housekeeping before a prune inspects the entries (the native store releases the pins
    /// of saved pages deleted since). Nothing by default.
    func prepareForPrune()
}

extension CacheFormat {
    /// The path the cache was opened at.
    public var root: RawPath { anchor.path }
    /// By default the format's name.
    public var displayName: String { kind.displayName }
    /// By default the entries, each stored as compactly as it fits.
    public func entryTable(_ context: InspectionContext) throws -> CacheEntries { CacheEntries(try entries(context)) }
    /// By default no writers' lock: nil.
    public func excludeWriters() throws -> AnyObject? { nil }
    /// By default nothing to do before a prune.
    public func prepareForPrune() {}
    /// By default there is no index: every entry may go.
    public func forgetIndexed(_ entries: [CacheEntry]) throws -> [Bool] { entries.map { _ in true } }
    /// By default every entry is a file of its own: removed by `remove`.
    public func removeUnindexed(_ entries: [CacheEntry], _ remove: ([CacheEntry]) -> [DeletionResult]) throws
        -> [DeletionResult]
    {
        remove(entries)
    }
    /// By default no directory is kept when emptied.
    public var keptDirectories: Set<[UInt8]> { [] }
    /// By default nothing to do after a prune.
    public func didRemove() {}
    /// By default bodies are files of their own: nil.
    public func inlineBody(_ entry: CacheEntry) throws -> [UInt8]? { nil }
    /// By default the seed design's rule: down to half the cap, allocated bytes.
    public var sizeRule: SizeRule { .seed }
}
