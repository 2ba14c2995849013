#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How `DiskUsage.measure` should walk and what it should collect beyond the totals.
public struct DiskUsageOptions: Sendable {
    /// What to break each root's total down into.
    public enum Breakdown: Sendable, Equatable {
        /// Only the per-argument totals (`du -s`).
        case totalsOnly
        /// Caches under each root: tagged directories (`CACHEDIR.TAG`) wherever they are,
        /// otherwise the immediate subdirectories.
        case caches
        /// Every directory at most `maxDepth` levels below the root, with its subtree total.
        case directories(maxDepth: Int)
    }

    /// Stay on each argument's file system (`-x`). Default false.
    public var oneFileSystem = false
    /// Default `.totalsOnly`.
    public var breakdown: Breakdown = .totalsOnly
    /// How many of the largest files to keep per root. Default 0 (none).
    public var largestFiles = 0
    /// Worker threads. Default: twice the online processors, at least 2.
    public var threads = max(2, Sys.processorCount * 2)
    /// Counters updated as the walk goes, for a caller's progress display. Default nil.
    public var progress: WalkProgress?
    /// Names left out of the walk altogether (du's `--exclude`, `-X`). Default none.
    public var exclude = ExcludePatterns()
    /// With `.directories(maxDepth:)`, also list every counted non-directory at most
    /// `maxDepth` levels below the root (du's `-a`) in `RootUsage.files`. Default false.
    public var listFiles = false

    /// Every option at its default (each property states it): totals only, as `du -s` counts.
    public init() {}
}

/// Disk usage as GNU du counts it, measured by a parallel walk over directory descriptors.
///
/// Rules (coreutils): allocated size is `st_blocks × 512`, directories' own blocks included;
/// symlinks are not followed; a file with several hard links counts once, keyed by
/// `(st_dev, st_ino)`. With several arguments every file and directory is keyed, as du does,
/// so an argument's part already counted under an earlier argument is skipped; each
/// argument's number then equals du's for the same argument list.
public enum DiskUsage {
    /// Walks `paths` in order (each one in parallel) and returns what was found.
    /// Never prints; problems come back in `DiskUsageReport.issues`.
    public static func measure(_ paths: [RawPath], options: DiskUsageOptions = DiskUsageOptions()) -> DiskUsageReport {
        Sys.raiseDescriptorLimit()
        let shared = SharedWalkState(hashAll: paths.count > 1)
        var roots: [RootUsage] = []
        for (index, path) in paths.enumerated() {
            let firstIssue = shared.issues.count
            let walk = RootWalk(
                path: path, options: options, shared: shared, recordSeen: paths.count > 1 && index < paths.count - 1)
            roots.append(walk.run())
            // Threads report in any order; by path is stable from run to run.
            shared.sortIssues(from: firstIssue)
        }
        return DiskUsageReport(roots: roots, issues: shared.issues)
    }
}

// MARK: - Shared state across arguments

struct DevIno: Hashable {
    var device: UInt64
    var inode: UInt64
}

/// The `(st_dev, st_ino)` set, sharded so threads rarely wait on each other.
final class InodeSet: @unchecked Sendable {
    // @unchecked Sendable: each shard is only touched with its own lock held.
    private static let shardCount = 16
    private let locks = (0..<shardCount).map { _ in ConditionLock() }
    private var shards = [Set<DevIno>](repeating: [], count: shardCount)

    /// Inserts the key; false when it was already present.
    func insert(_ key: DevIno) -> Bool {
        let shard = Int(truncatingIfNeeded: (key.inode &* 0x9E37_79B9_7F4A_7C15) >> 60) & (Self.shardCount - 1)
        return locks[shard].withLock { shards[shard].insert(key).inserted }
    }
}

final class SharedWalkState: @unchecked Sendable {
    // @unchecked Sendable: `issues` is guarded by `issueLock`; `seenByEarlierArguments` is written between arguments,
    // when no worker runs.
    /// With several arguments du keys every entry; with one, only multiply-linked files.
    let hashAll: Bool
    /// Multiply-linked non-directories seen so far (all arguments).
    let hardLinks = InodeSet()
    /// Every entry of the arguments already finished (only with several arguments).
    var seenByEarlierArguments = Set<DevIno>()
    private let issueLock = ConditionLock()
    private(set) var issues: [WalkIssue] = []

    init(hashAll: Bool) { self.hashAll = hashAll }

    func report(_ issue: WalkIssue) { issueLock.withLock { issues.append(issue) } }

    func sortIssues(from start: Int) {
        issueLock.withLock {
            issues[start...].sort { $0.path.bytes.lexicographicallyPrecedes($1.path.bytes) }
        }
    }
}

// MARK: - Per-root walk

/// A directory in the walk: enough to rebuild its path and to find where its sizes go.
final class DirNode: @unchecked Sendable {
    // @unchecked Sendable: its `var`s are set by the worker that reads the directory before its children are queued;
    // `JobStack`'s lock orders those writes before any reader.
    let parent: DirNode?
    /// The name bytes (for the root: the argument path as given).
    let name: [UInt8]
    let depth: Int
    /// Where this directory's own entries are summed in a cache breakdown; set by the worker
    /// that reads the directory, before its children are queued.
    var bucket: Accumulator?
    /// The nearest ancestor-or-self at most `maxDepth` deep, in a directory breakdown.
    var anchor: Accumulator?
    /// The directory's `(st_dev, st_ino)`, set once it is opened and before its children are
    /// queued: a child whose identity equals an ancestor's closes a cycle (a bind mount of a
    /// directory inside itself) and is not entered, as du does.
    var identity: DevIno?

    init(parent: DirNode?, name: [UInt8], depth: Int) {
        self.parent = parent
        self.name = name
        self.depth = depth
    }

    /// Whether a directory with this identity below this node would be one of its ancestors.
    func closesCycle(_ identity: DevIno) -> Bool {
        var node = parent
        while let ancestor = node {
            if ancestor.identity == identity { return true }
            node = ancestor.parent
        }
        return false
    }

    var path: RawPath {
        var chain: [DirNode] = []
        var node: DirNode? = self
        while let current = node {
            chain.append(current)
            node = current.parent
        }
        var path = RawPath(bytes: chain.removeLast().name)
        while let next = chain.popLast() { path = path.appending(next.name) }
        return path
    }
}

/// Totals shared by the threads that add to them.
final class Accumulator: @unchecked Sendable {
    // @unchecked Sendable: `totals` is only touched with `lock` held (and read once the workers have joined).
    let node: DirNode
    let kind: CacheUnitKind
    private let lock = ConditionLock()
    private(set) var totals = UsageTotals()

    init(node: DirNode, kind: CacheUnitKind) {
        self.node = node
        self.kind = kind
    }

    func add(_ more: UsageTotals) { lock.withLock { totals.add(more) } }
}

/// A directory descriptor shared by the jobs of its subdirectories; closed when the last
/// of them has opened its own directory, so a deep chain holds O(1) descriptors.
final class SharedDescriptor {
    let fd: Int32
    init(_ fd: Int32) { self.fd = fd }
    deinit { Sys.close(fd) }
}

struct WalkJob {
    let node: DirNode
    /// The parent's descriptor and the NUL-terminated name to open relative to it.
    var parent: SharedDescriptor?
    let nameC: [CChar]
}

/// What one worker thread gathers; merged when the root is done.
struct WorkerResult {
    var totals = UsageTotals()
    var seen: [DevIno] = []
    var largest = LargestFiles(limit: 0)
    /// Every counted non-directory shallow enough to list (`DiskUsageOptions.listFiles`).
    var files: [FileUsage] = []
}

final class RootWalk: @unchecked Sendable {
    // @unchecked Sendable: `rootDevice` is set before the workers start; `accumulators` is guarded by `registryLock`.
    let rootPath: RawPath
    let options: DiskUsageOptions
    let shared: SharedWalkState
    /// Record every entry for the arguments that follow.
    let recordSeen: Bool
    private var rootDevice: UInt64 = 0
    /// Files in directories shallower than this are listed (-1: none are).
    private let listFilesBelowDepth: Int
    private let registryLock = ConditionLock()
    private var accumulators: [Accumulator] = []

    init(path: RawPath, options: DiskUsageOptions, shared: SharedWalkState, recordSeen: Bool) {
        self.rootPath = path
        self.options = options
        self.shared = shared
        self.recordSeen = recordSeen
        if options.listFiles, case .directories(let maxDepth) = options.breakdown {
            listFilesBelowDepth = maxDepth
        } else {
            listFilesBelowDepth = -1
        }
    }

    func run() -> RootUsage {
        var usage = RootUsage(
            path: rootPath, exists: true, alreadyCounted: false, isDirectory: false,
            totals: UsageTotals(), caches: [], directories: [], largestFiles: [], files: [])
        let st: StatInfo
        switch Sys.lstat(path: rootPath) {
        case .success(let info): st = info
        case .failure(let error):
            shared.report(WalkIssue(path: rootPath, operation: .access, error: error))
            usage.exists = false
            return usage
        }
        rootDevice = st.device
        let rootNode = DirNode(parent: nil, name: rootPath.bytes, depth: 0)
        rootNode.identity = DevIno(device: st.device, inode: st.inode)
        var result = WorkerResult()
        result.largest = LargestFiles(limit: options.largestFiles)

        guard st.isDirectory else {
            // A file argument: counted like any entry, never followed if a symlink.
            let counted = account(file: st, result: &result, name: nil, in: nil)
            usage.alreadyCounted = !counted
            usage.totals = result.totals
            usage.largestFiles = result.largest.sorted()
            usage.files = result.files
            if recordSeen { shared.seenByEarlierArguments.formUnion(result.seen) }
            return usage
        }
        usage.isDirectory = true
        if isAlreadyCounted(DevIno(device: st.device, inode: st.inode), result: &result) {
            usage.alreadyCounted = true
            return usage
        }

        // The root is opened by path; everything below it relative to descriptors.
        let opened = Sys.open(rootPath, Sys.openDirectoryFlags)
        var results: [WorkerResult]
        switch opened {
        case .failure(let error):
            countUnreadable(rootNode, st, error, result: &result)
            results = [result]
        case .success(let opened):
            var rootResult = result
            let children = readDirectory(rootNode, fd: opened, st: st, result: &rootResult)
            let stack = JobStack(children)
            let threadCount = max(1, options.threads)
            let collected = Locked([WorkerResult]())
            runThreads(threadCount) { _ in
                var local = WorkerResult()
                local.largest = LargestFiles(limit: self.options.largestFiles)
                self.work(stack, &local)
                collected.withLock { $0.append(local) }
            }
            results = [rootResult] + collected.withLock { $0 }
        }

        var largest = LargestFiles(limit: options.largestFiles)
        for partial in results {
            usage.totals.add(partial.totals)
            largest.merge(partial.largest)
            usage.files += partial.files
            if recordSeen { shared.seenByEarlierArguments.formUnion(partial.seen) }
        }
        usage.largestFiles = largest.sorted()
        usage.files.sort(by: largestFirst)
        finishBreakdown(into: &usage)
        return usage
    }

    // MARK: Worker loop

    private func work(_ stack: JobStack<WalkJob>, _ result: inout WorkerResult) {
        while let first = stack.pop() {
            var next: WalkJob? = first
            // Keep one child to go on with; share the rest.
            while var job = next {
                next = nil
                var children = process(&job, result: &result)
                if let last = children.popLast() {
                    next = last
                    if !children.isEmpty { stack.push(children) }
                }
            }
            stack.finish()
        }
    }

    /// Opens and reads one directory job; returns the jobs of its subdirectories.
    private func process(_ job: inout WalkJob, result: inout WorkerResult) -> [WalkJob] {
        guard let parent = job.parent else { return [] }
        let opened = job.nameC.withUnsafeBufferPointer {
            Sys.openat(parent.fd, $0.baseAddress!, Sys.openDirectoryFlags)
        }
        switch opened {
        case .success(let fd):
            job.parent = nil  // the parent's descriptor may close now
            switch Sys.fstat(fd) {
            case .success(let st):
                if options.oneFileSystem && st.device != rootDevice {
                    Sys.close(fd)
                    return []
                }
                let identity = DevIno(device: st.device, inode: st.inode)
                if job.node.closesCycle(identity) {
                    Sys.close(fd)
                    return []
                }
                if isAlreadyCounted(identity, result: &result) {
                    Sys.close(fd)
                    return []
                }
                job.node.identity = identity
                return readDirectory(job.node, fd: fd, st: st, result: &result)
            case .failure(let error):
                Sys.close(fd)
                shared.report(WalkIssue(path: job.node.path, operation: .access, error: error))
                return []
            }
        case .failure(let openError):
            // Not openable: say why, but count what can be counted, as du does.
            let statted = job.nameC.withUnsafeBufferPointer { Sys.lstat(at: parent.fd, $0.baseAddress!) }
            job.parent = nil
            switch statted {
            case .failure(let error):
                shared.report(WalkIssue(path: job.node.path, operation: .access, error: error))
            case .success(let st) where !st.isDirectory:
                // Replaced by a non-directory since it was listed: count it as what it is now.
                if options.oneFileSystem && st.device != rootDevice { return [] }
                _ = account(file: st, result: &result, name: job.node.name, in: job.node.parent)
            case .success(let st):
                if options.oneFileSystem && st.device != rootDevice { return [] }
                if isAlreadyCounted(DevIno(device: st.device, inode: st.inode), result: &result) { return [] }
                countUnreadable(job.node, st, openError, result: &result)
            }
            return []
        }
    }

    /// A directory that cannot be read still contributes its own blocks.
    private func countUnreadable(_ node: DirNode, _ st: StatInfo, _ error: Errno, result: inout WorkerResult) {
        shared.report(WalkIssue(path: node.path, operation: .readDirectory, error: error))
        var own = UsageTotals()
        own.allocatedBytes = st.allocatedBytes
        own.directories = 1
        result.totals.add(own)
        assignUnits(node, tagged: false, recognised: false)
        node.bucket?.add(own)
        node.anchor?.add(own)
        options.progress?.add(files: 0, directories: 1, allocatedBytes: own.allocatedBytes)
    }

    /// Reads the open directory `fd` (taking ownership of it), counts its non-directories and
    /// itself, and returns jobs for its subdirectories.
    private func readDirectory(_ node: DirNode, fd: Int32, st: StatInfo, result: inout WorkerResult) -> [WalkJob] {
        var own = UsageTotals()
        own.allocatedBytes = st.allocatedBytes
        own.directories = 1
        var subdirectories: [[CChar]] = []
        var tagged = false
        let wantTag = options.breakdown == .caches
        // A layout's marker seen among the names (or in the directory's own name): confirmed
        // by `CacheFormats.detectByMarkers` once the directory is read.
        var marked =
            wantTag && node.depth > 0
            && node.parent?.bucket.map({ $0.kind != .tagged && $0.kind != .recognised }) ?? true
            && LayoutMarkers.isMarkerFolderName(node.name)
        var hexChildren = 0

        let descriptor = SharedDescriptor(fd)
        // readdir's stream owns a duplicate: the original stays open for the children.
        let stream: OpaquePointer
        switch Sys.openDirectoryStream(fd) {
        case .success(let opened): stream = opened
        case .failure(let error):
            shared.report(WalkIssue(path: node.path, operation: .readDirectory, error: error))
            finishDirectory(node, own: own, tagged: false, result: &result)
            return []
        }
        var inline = 0
        var large = false
        let threshold = options.threads > 1 ? Self.parallelThreshold : Int.max
        while true {
            var readError: Errno?
            guard let entry = Sys.readDirectory(stream, error: &readError) else {
                if let readError {
                    shared.report(WalkIssue(path: node.path, operation: .readDirectory, error: readError))
                }
                break
            }
            let type = Sys.type(of: entry)
            let name = Sys.name(of: entry)
            // Skip "." and "..".
            if name[0] == 0x2E && (name[1] == 0 || (name[1] == 0x2E && name[2] == 0)) { continue }
            if !options.exclude.isEmpty && options.exclude.excludes(name, in: node.path) { continue }
            if type == Sys.directoryType {
                if wantTag && !marked { LayoutMarkers.noteDirectory(name, marked: &marked, hexChildren: &hexChildren) }
                subdirectories.append(copyName(name))
                continue
            }
            if wantTag && !marked && LayoutMarkers.isMarkerFile(name) { marked = true }
            inline += 1
            examine(
                name, fd: fd, node: node, wantTag: wantTag, tagged: &tagged, subdirectories: &subdirectories, own: &own,
                result: &result)
            // A very large directory: the rest is examined by every worker at once.
            if inline >= threshold {
                large = true
                break
            }
        }
        if large {
            let rest = examineInParallel(stream, fd: fd, node: node, wantTag: wantTag)
            own.add(rest.own)
            result.largest.merge(rest.result.largest)
            result.files += rest.result.files
            result.seen += rest.result.seen
            subdirectories += rest.subdirectories
            tagged = tagged || rest.tagged
            marked = marked || rest.marked
            hexChildren += rest.hexChildren
        }
        Sys.closeDirectoryStream(stream)
        let recognised =
            wantTag && !tagged && node.depth > 0 && (marked || hexChildren > 0) && isInsideNoCache(node)
            && CacheFormats.detectByMarkers(node.path) != nil
        finishDirectory(node, own: own, tagged: tagged, recognised: recognised, result: &result)
        return subdirectories.map { name in
            let bytes = name.dropLast().map { UInt8(bitPattern: $0) }
            return WalkJob(
                node: DirNode(parent: node, name: bytes, depth: node.depth + 1), parent: descriptor, nameC: name)
        }
    }

    /// Entries of one directory examined on one thread before the rest is shared out.
    static let parallelThreshold = 8192
    /// Names handed to a worker at a time, and how many such batches may wait (bounding memory).
    static let batchSize = 2048, batchesWaiting = 8

    /// One non-directory name: lstat in the directory, counted, or queued as a subdirectory.
    @inline(__always)
    private func examine(
        _ name: UnsafePointer<CChar>, fd: Int32, node: DirNode, wantTag: Bool, tagged: inout Bool,
        subdirectories: inout [[CChar]], own: inout UsageTotals, result: inout WorkerResult
    ) {
        switch Sys.lstat(at: fd, name) {
        case .failure(let error):
            shared.report(WalkIssue(path: node.path.appending(nameBytes(name)), operation: .access, error: error))
        case .success(let info):
            if info.isDirectory {
                subdirectories.append(copyName(name))
            } else {
                if options.oneFileSystem && info.device != rootDevice { return }
                if wantTag && !tagged && info.isRegular && CacheDirTag.isTagName(name) {
                    tagged = CacheDirTag.isValidTag(in: fd, name: name)
                }
                _ = account(file: info, result: &result, ownTotals: &own, nameC: name, in: node)
            }
        }
    }

    /// What the workers sharing one large directory found.
    private final class SharedScan: @unchecked Sendable {
        // @unchecked Sendable: every field is only touched with `lock` held.
        // Guarded by `lock`: the batches waiting, whether reading is done, and the merged finds.
        let lock = ConditionLock()
        var batches: [[CChar]] = []
        var done = false
        var own = UsageTotals()
        var result = WorkerResult()
        var subdirectories: [[CChar]] = []
        var tagged = false
        var marked = false
        var hexChildren = 0
    }

    /// The rest of a large directory: one thread reads names into bounded batches (NUL-separated
    /// in one buffer each) while every thread, the reader too once it is done, examines them.
    private func examineInParallel(_ stream: OpaquePointer, fd: Int32, node: DirNode, wantTag: Bool)
        -> (
            own: UsageTotals, result: WorkerResult, subdirectories: [[CChar]], tagged: Bool, marked: Bool,
            hexChildren: Int
        )
    {
        let scan = SharedScan()
        scan.result.largest = LargestFiles(limit: options.largestFiles)
        // nonisolated(unsafe): the directory stream is read by the reader thread only.
        nonisolated(unsafe) let stream = stream
        runThreads(options.threads) { index in
            var own = UsageTotals()
            var result = WorkerResult()
            result.largest = LargestFiles(limit: self.options.largestFiles)
            var subdirectories: [[CChar]] = []
            var tagged = false
            if index == 0 {
                self.readNames(stream, node: node, wantTag: wantTag, into: scan, subdirectories: &subdirectories)
            }
            // Every thread: examine batches until reading is done and none is left.
            self.examineBatches(
                scan, fd: fd, node: node, wantTag: wantTag, tagged: &tagged, subdirectories: &subdirectories,
                own: &own, result: &result)
            scan.lock.withLock {
                scan.own.add(own)
                scan.result.largest.merge(result.largest)
                scan.result.files += result.files
                scan.result.seen += result.seen
                scan.subdirectories += subdirectories
                scan.tagged = scan.tagged || tagged
            }
        }
        return (scan.own, scan.result, scan.subdirectories, scan.tagged, scan.marked, scan.hexChildren)
    }

    /// The reader's part of `examineInParallel`: names read into NUL-separated batches handed
    /// to the workers (at most `batchesWaiting` waiting), subdirectories kept aside, and the
    /// layout markers noted.
    private func readNames(
        _ stream: OpaquePointer, node: DirNode, wantTag: Bool, into scan: SharedScan, subdirectories: inout [[CChar]]
    ) {
        var marked = false
        var hexChildren = 0
        var batch: [CChar] = []
        var count = 0
        func hand(_ full: [CChar]) {
            scan.lock.lock()
            while scan.batches.count >= Self.batchesWaiting { scan.lock.wait() }
            scan.batches.append(full)
            scan.lock.signal()
            scan.lock.unlock()
        }
        while true {
            var readError: Errno?
            guard let entry = Sys.readDirectory(stream, error: &readError) else {
                if let readError {
                    self.shared.report(WalkIssue(path: node.path, operation: .readDirectory, error: readError))
                }
                break
            }
            let type = Sys.type(of: entry)
            let name = Sys.name(of: entry)
            if name[0] == 0x2E && (name[1] == 0 || (name[1] == 0x2E && name[2] == 0)) { continue }
            if !self.options.exclude.isEmpty && self.options.exclude.excludes(name, in: node.path) { continue }
            if type == Sys.directoryType {
                if wantTag && !marked {
                    LayoutMarkers.noteDirectory(name, marked: &marked, hexChildren: &hexChildren)
                }
                subdirectories.append(copyName(name))
                continue
            }
            if wantTag && !marked && LayoutMarkers.isMarkerFile(name) { marked = true }
            batch.append(contentsOf: UnsafeBufferPointer(start: name, count: strlen(name) + 1))
            count += 1
            if count >= Self.batchSize {
                hand(batch)
                batch = []
                count = 0
            }
        }
        if count > 0 { hand(batch) }
        scan.lock.withLock {
            scan.done = true
            scan.marked = marked
            scan.hexChildren = hexChildren
            scan.lock.broadcast()
        }
    }

    /// Every thread's part of `examineInParallel`: batches examined until reading is done and
    /// none is left.
    private func examineBatches(
        _ scan: SharedScan, fd: Int32, node: DirNode, wantTag: Bool, tagged: inout Bool,
        subdirectories: inout [[CChar]], own: inout UsageTotals, result: inout WorkerResult
    ) {
        while true {
            scan.lock.lock()
            while scan.batches.isEmpty && !scan.done { scan.lock.wait() }
            if scan.batches.isEmpty {
                scan.lock.unlock()
                break
            }
            let batch = scan.batches.removeLast()
            scan.lock.broadcast()
            scan.lock.unlock()
            batch.withUnsafeBufferPointer { buffer in
                var start = 0
                while start < buffer.count {
                    let name = buffer.baseAddress! + start
                    let length = strlen(name)
                    self.examine(
                        name, fd: fd, node: node, wantTag: wantTag, tagged: &tagged,
                        subdirectories: &subdirectories,
                        own: &own, result: &result)
                    start += length + 1
                }
            }
        }
    }

    /// Whether no ancestor is already a cache of its own (tagged or recognised).
    private func isInsideNoCache(_ node: DirNode) -> Bool {
        guard let bucket = node.parent?.bucket else { return true }
        return bucket.kind != .tagged && bucket.kind != .recognised
    }

    private func finishDirectory(
        _ node: DirNode, own: UsageTotals, tagged: Bool, recognised: Bool = false, result: inout WorkerResult
    ) {
        result.totals.add(own)
        assignUnits(node, tagged: tagged, recognised: recognised)
        node.bucket?.add(own)
        node.anchor?.add(own)
        options.progress?.add(files: own.files, directories: 1, allocatedBytes: own.allocatedBytes)
    }

    // MARK: Counting rules

    /// With several arguments, true when an earlier argument counted this entry; records it
    /// for later arguments otherwise.
    @inline(__always)
    private func isAlreadyCounted(_ key: DevIno, result: inout WorkerResult) -> Bool {
        guard shared.hashAll else { return false }
        if shared.seenByEarlierArguments.contains(key) { return true }
        if recordSeen { result.seen.append(key) }
        return false
    }

    /// Counts a non-directory into `own` unless it was counted already; true when counted.
    @inline(__always)
    private func account(
        file st: StatInfo, result: inout WorkerResult, ownTotals own: inout UsageTotals,
        nameC: UnsafePointer<CChar>, in node: DirNode
    ) -> Bool {
        let key = DevIno(device: st.device, inode: st.inode)
        if isAlreadyCounted(key, result: &result) { return false }
        if st.linkCount > 1 && !shared.hardLinks.insert(key) { return false }
        own.allocatedBytes &+= st.allocatedBytes
        own.apparentBytes &+= st.apparentBytes
        own.files += 1
        own.noteModified(st.modified)
        if result.largest.wouldKeep(st.allocatedBytes) {
            result.largest.offer(
                FileUsage(
                    path: node.path.appending(nameBytes(nameC)), allocatedBytes: st.allocatedBytes,
                    apparentBytes: st.apparentBytes, modified: st.modified))
        }
        if node.depth < listFilesBelowDepth {
            result.files.append(
                FileUsage(
                    path: node.path.appending(nameBytes(nameC)), allocatedBytes: st.allocatedBytes,
                    apparentBytes: st.apparentBytes, modified: st.modified))
        }
        return true
    }

    /// Counts a lone non-directory (a file argument, or a directory replaced by a file).
    private func account(file st: StatInfo, result: inout WorkerResult, name: [UInt8]?, in parent: DirNode?) -> Bool {
        var own = UsageTotals()
        let key = DevIno(device: st.device, inode: st.inode)
        if isAlreadyCounted(key, result: &result) { return false }
        if st.linkCount > 1 && !shared.hardLinks.insert(key) { return false }
        own.allocatedBytes = st.allocatedBytes
        own.apparentBytes = st.apparentBytes
        own.files = 1
        own.noteModified(st.modified)
        result.totals.add(own)
        let path = name.map { parent?.path.appending($0) ?? RawPath(bytes: $0) } ?? rootPath
        if result.largest.wouldKeep(st.allocatedBytes) {
            result.largest.offer(
                FileUsage(
                    path: path, allocatedBytes: st.allocatedBytes,
                    apparentBytes: st.apparentBytes, modified: st.modified))
        }
        if (parent?.depth ?? -1) < listFilesBelowDepth {
            result.files.append(
                FileUsage(
                    path: path, allocatedBytes: st.allocatedBytes,
                    apparentBytes: st.apparentBytes, modified: st.modified))
        }
        if let parent {
            parent.bucket?.add(own)
            parent.anchor?.add(own)
        }
        options.progress?.add(files: 1, directories: 0, allocatedBytes: own.allocatedBytes)
        return true
    }

    // MARK: Breakdowns

    /// Decides which cache unit and which depth anchor a directory's own entries go to.
    private func assignUnits(_ node: DirNode, tagged: Bool, recognised: Bool = false) {
        switch options.breakdown {
        case .totalsOnly:
            return
        case .caches:
            if let inherited = node.parent?.bucket, inherited.kind == .tagged || inherited.kind == .recognised {
                node.bucket = inherited
            } else if tagged {
                node.bucket = register(Accumulator(node: node, kind: .tagged))
            } else if recognised {
                node.bucket = register(Accumulator(node: node, kind: .recognised))
            } else if node.depth == 0 {
                node.bucket = register(Accumulator(node: node, kind: .rootFiles))
            } else if node.depth == 1 {
                node.bucket = register(Accumulator(node: node, kind: .directory))
            } else {
                node.bucket = node.parent?.bucket
            }
        case .directories(let maxDepth):
            if node.depth <= maxDepth {
                node.anchor = register(Accumulator(node: node, kind: .directory))
            } else {
                node.anchor = node.parent?.anchor
            }
        }
    }

    private func register(_ accumulator: Accumulator) -> Accumulator {
        registryLock.withLock { accumulators.append(accumulator) }
        return accumulator
    }

    private func finishBreakdown(into usage: inout RootUsage) {
        switch options.breakdown {
        case .totalsOnly:
            return
        case .caches:
            // Every unit is kept, the root's own one too, so the lines add up to the total.
            usage.caches =
                accumulators
                .map { CacheUsage(path: $0.node.path, kind: $0.kind, totals: $0.totals) }
                .sorted(by: largestFirst)
        case .directories:
            // Roll subtree totals up: deepest first, each into its parent's anchor.
            var subtree: [ObjectIdentifier: UsageTotals] = [:]
            for acc in accumulators { subtree[ObjectIdentifier(acc.node)] = acc.totals }
            for acc in accumulators.sorted(by: { $0.node.depth > $1.node.depth }) {
                guard let parent = acc.node.parent, let total = subtree[ObjectIdentifier(acc.node)] else { continue }
                subtree[ObjectIdentifier(parent), default: UsageTotals()].add(total)
            }
            usage.directories =
                accumulators
                .map {
                    DirectoryUsage(
                        path: $0.node.path, depth: $0.node.depth,
                        totals: subtree[ObjectIdentifier($0.node)] ?? UsageTotals())
                }
                .sorted(by: largestFirst)
        }
    }
}

private func largestFirst<T: HasTotalsAndPath>(_ a: T, _ b: T) -> Bool {
    a.totals.allocatedBytes != b.totals.allocatedBytes
        ? a.totals.allocatedBytes > b.totals.allocatedBytes
        : a.path.bytes.lexicographicallyPrecedes(b.path.bytes)
}

protocol HasTotalsAndPath {
    var totals: UsageTotals { get }
    var path: RawPath { get }
}
extension CacheUsage: HasTotalsAndPath {}
extension DirectoryUsage: HasTotalsAndPath {}
extension FileUsage: HasTotalsAndPath {}

@inline(__always)
private func copyName(_ name: UnsafePointer<CChar>) -> [CChar] {
    let length = strlen(name)
    return Array(UnsafeBufferPointer(start: name, count: length + 1))
}

@inline(__always)
private func nameBytes(_ name: UnsafePointer<CChar>) -> [UInt8] {
    let length = strlen(name)
    return name.withMemoryRebound(to: UInt8.self, capacity: length) {
        Array(UnsafeBufferPointer(start: $0, count: length))
    }
}

// MARK: - Largest files

/// The `limit` largest files seen, kept in a min-heap so each offer is O(log limit).
struct LargestFiles {
    let limit: Int
    private var heap: [FileUsage] = []

    init(limit: Int) { self.limit = limit }

    @inline(__always)
    func wouldKeep(_ allocated: Int64) -> Bool {
        limit > 0 && (heap.count < limit || allocated > heap[0].allocatedBytes)
    }

    mutating func offer(_ file: FileUsage) {
        guard wouldKeep(file.allocatedBytes) else { return }
        if heap.count < limit {
            heap.append(file)
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                if heap[child].allocatedBytes >= heap[parent].allocatedBytes { break }
                heap.swapAt(child, parent)
                child = parent
            }
        } else {
            heap[0] = file
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < heap.count && heap[left].allocatedBytes < heap[smallest].allocatedBytes { smallest = left }
                if right < heap.count && heap[right].allocatedBytes < heap[smallest].allocatedBytes { smallest = right }
                if smallest == parent { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
    }

    mutating func merge(_ other: LargestFiles) {
        for file in other.heap { offer(file) }
    }

    /// Largest first; ties by path.
    func sorted() -> [FileUsage] {
        heap.sorted {
            $0.allocatedBytes != $1.allocatedBytes
                ? $0.allocatedBytes > $1.allocatedBytes
                : $0.path.bytes.lexicographicallyPrecedes($1.path.bytes)
        }
    }
}

/// du's `--exclude PATTERN` and `-X FILE`: shell patterns (fnmatch) matched against a file's
/// path as du sees it and against every part of it after a slash, so `*.log` and
/// `node_modules` match names anywhere and `build/tmp` a path tail. An excluded directory is
/// not entered and counts nothing.
public struct ExcludePatterns: Sendable {
    private var patterns: [[CChar]] = []

    /// Patterns as du's `--exclude` takes them (empty ones ignored). Default none.
    public init(_ patterns: [String] = []) {
        self.patterns = patterns.filter { !$0.isEmpty }.map { Array($0.utf8CString) }
    }

    /// Whether nothing is excluded.
    public var isEmpty: Bool { patterns.isEmpty }

    /// Whether `name` (a NUL-terminated entry name) in the directory at `directory` is excluded.
    func excludes(_ name: UnsafePointer<CChar>, in directory: RawPath) -> Bool {
        var path = directory.bytes
        if path.last != UInt8(ascii: "/") { path.append(UInt8(ascii: "/")) }
        path += UnsafeBufferPointer(
            start: UnsafeRawPointer(name).assumingMemoryBound(to: UInt8.self), count: strlen(name))
        path.append(0)
        return path.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            for pattern in patterns {
                if fnmatch(pattern, base, 0) == 0 { return true }
                // Every tail after a slash.
                for index in 0..<(buffer.count - 1) where buffer[index] == UInt8(ascii: "/") {
                    if fnmatch(pattern, base + index + 1, 0) == 0 { return true }
                }
            }
            return false
        }
    }
}
