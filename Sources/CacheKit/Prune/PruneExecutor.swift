#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What executing a plan did.
public struct PruneOutcome: Sendable {
    public var removed: [PlannedDeletion] = []
    /// Deletions that failed, with the cause; each one is a reason for exit status 1.
    public var failures: [(deletion: PlannedDeletion, message: String)] = []
    /// Entries that were already gone when their turn came (not an error).
    public var vanished = 0

    public var freedBytes: Int64 { removed.reduce(0) { $0 + $1.freesBytes } }
}

/// Live count of deletions, for a caller's progress display.
public final class PruneProgress: @unchecked Sendable {
    private let lock = ConditionLock()
    private var done = 0
    public private(set) var total = 0
    public init() {}
    func start(_ count: Int) { lock.withLock { total = count; done = 0 } }
    func advance(_ n: Int = 1) { lock.withLock { done += n } }
    public var snapshot: (done: Int, total: Int) { lock.withLock { (done, total) } }
}

public enum PruneExecutor {
    /// Carries out `plan` on `format`'s cache. Index rows go before their bodies (native:
    /// one transaction for the rows; plist: one atomic rewrite keeping every other key), so a
    /// crash leaves orphans for the next prune, never a row without its body. Files are
    /// deleted only through `SafeRemover`; directories left empty are removed, never the
    /// root, its tag or its index.
    public static func execute(_ plan: PrunePlan, on format: any CacheFormat, progress: PruneProgress? = nil) -> PruneOutcome {
        var outcome = PruneOutcome()
        progress?.start(plan.deletions.count)
        let remover: SafeRemover
        do { remover = try SafeRemover(root: format.root) } catch {
            outcome.failures = plan.deletions.map { ($0, "\(error)") }
            return outcome
        }
        let indexed = plan.deletions.filter { $0.entry.indexKey != nil }
        var unindexed = plan.deletions.filter { $0.entry.indexKey == nil }

        // 1. Index rows first.
        switch format {
        case let native as NativeFormat:
            do {
                try native.store.deleteRows(indexed.compactMap(\.entry.indexKey))
                unindexed += indexed // their bodies are unindexed files now
            } catch {
                outcome.failures += indexed.map { ($0, "\(error)") }
            }
        case let plist as PlistDownloadCache:
            do {
                _ = try plist.removingItems(Set(indexed.compactMap(\.entry.indexKey)))
                unindexed += indexed
            } catch {
                outcome.failures += indexed.map { ($0, "\(error)") }
            }
        default:
            unindexed += indexed
        }
        CrashPoint.reach("prune.afterIndex")

        // 2. Then the files, each through a safe remover. Unlinking dominates the run, so
        // several workers share it, each taking whole directories (and its own descriptors).
        var groups: [[UInt8]: [PlannedDeletion]] = [:]
        for deletion in unindexed {
            let path = deletion.entry.path.bytes
            let parent = path.lastIndex(of: UInt8(ascii: "/")).map { Array(path[..<$0]) } ?? []
            groups[parent, default: []].append(deletion)
        }
        let workers = max(1, min(4, groups.count))
        var shares = [[PlannedDeletion]](repeating: [], count: workers)
        for (index, key) in groups.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }).enumerated() {
            shares[index % workers] += groups[key]!
        }
        let collected = ResultLock<(PruneOutcome, Set<[UInt8]>)>()
        runThreads(workers) { index in
            var partial = PruneOutcome()
            var parents = Set<[UInt8]>()
            guard let remover = try? SafeRemover(root: format.root) else {
                partial.failures = shares[index].map { ($0, "cannot open the cache root") }
                collected.append((partial, parents))
                return
            }
            for deletion in shares[index] {
                defer { progress?.advance() }
                let path = deletion.entry.path
                if deletion.entry.indexKey != nil && !path.exists {
                    partial.removed.append(deletion) // a row whose body was already missing
                    continue
                }
                switch remover.remove(path) {
                case .success:
                    partial.removed.append(deletion)
                    if let slash = path.bytes.lastIndex(of: UInt8(ascii: "/")) { parents.insert(Array(path.bytes[..<slash])) }
                case .failure(let error) where error == .noEntry:
                    partial.vanished += 1
                    partial.removed.append(deletion)
                case .failure(let error):
                    let why: String
                    switch error.code {
                    case EXDEV: why = "on another file system (a mount point inside the cache): not deleted"
                    case ELOOP, ENOTDIR: why = "a directory on its path is now a symlink or not a directory: not deleted"
                    case EPERM where remover.relative(path) == nil: why = "outside the cache: not deleted"
                    default: why = error.description
                    }
                    partial.failures.append((deletion, why))
                }
            }
            collected.append((partial, parents))
        }
        var parents = Set<[UInt8]>()
        for (partial, dirs) in collected.items {
            outcome.removed += partial.removed
            outcome.failures += partial.failures
            outcome.vanished += partial.vanished
            parents.formUnion(dirs)
        }
        CrashPoint.reach("prune.afterFiles")

        // 3. Directories left empty, deepest first; the root and the native layout stay.
        let keep: Set<[UInt8]> = [format.root.bytes, format.root.appending("objects").bytes, format.root.appending("tmp").bytes]
        var candidates = parents
        while !candidates.isEmpty {
            let deepest = candidates.max { $0.count < $1.count }!
            candidates.remove(deepest)
            guard !keep.contains(deepest), remover.relative(RawPath(bytes: deepest)) != nil else { continue }
            if remover.removeIfEmpty(RawPath(bytes: deepest)), let slash = deepest.lastIndex(of: UInt8(ascii: "/")) {
                candidates.insert(Array(deepest[..<slash]))
            }
        }
        return outcome
    }
}

/// Results gathered from several threads.
final class ResultLock<T>: @unchecked Sendable {
    private let lock = ConditionLock()
    private(set) var items: [T] = []
    func append(_ item: T) { lock.withLock { items.append(item) } }
}
