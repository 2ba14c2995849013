#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
    /// The argument's own blocks and its direct non-directories (`-S`), guarded by `registryLock`.
    private var rootOwn = UsageTotals()

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
        // An argument is matched as any entry is (du: before it is even examined, so an
        // excluded missing argument is no error).
        if !options.exclude.isEmpty && options.exclude.excludes(path: rootPath) {
            usage.excluded = true
            return usage
        }
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
            if options.separateDirectories { usage.separateTotals = result.totals }
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
            let stack = WorkerPool.Jobs(children)
            let threadCount = max(1, options.threads)
            let collected = Locked([WorkerResult]())
            WorkerPool.run(threadCount) { _ in
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
        if options.separateDirectories { usage.separateTotals = registryLock.withLock { rootOwn } }
        finishBreakdown(into: &usage)
        return usage
    }

    // MARK: Worker loop

    private func work(_ stack: WorkerPool.Jobs<WalkJob>, _ result: inout WorkerResult) {
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
        own.noteDirectoryModified(st.modified)
        if node.depth == 0 { registryLock.withLock { rootOwn = own } }
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
        own.noteDirectoryModified(st.modified)
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
            wantTag && !tagged && isRecognised(node, marked: marked || hexChildren > 0)
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
        WorkerPool.run(options.threads) { index in
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

    /// Whether a directory is a cache in a recognised layout, by its markers: the root
    /// always looked at (`du ~/.cache/pip` is one pip cache, not its `http/` and `wheels/`),
    /// one below it when a marker was seen and no ancestor is a cache already.
    private func isRecognised(_ node: DirNode, marked: Bool) -> Bool {
        (node.depth == 0 || (marked && isInsideNoCache(node))) && CacheFormats.detectByMarkers(node.path) != nil
    }

    /// Whether no ancestor is already a cache of its own (tagged or recognised).
    private func isInsideNoCache(_ node: DirNode) -> Bool {
        guard let bucket = node.parent?.bucket else { return true }
        return bucket.kind != .tagged && bucket.kind != .recognised
    }

    private func finishDirectory(
        _ node: DirNode, own: UsageTotals, tagged: Bool, recognised: Bool = false, result: inout WorkerResult
    ) {
        if node.depth == 0 { registryLock.withLock { rootOwn = own } }
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
        if st.linkCount > 1 && !options.countLinks && !shared.hardLinks.insert(key) { return false }
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
        if st.linkCount > 1 && !options.countLinks && !shared.hardLinks.insert(key) { return false }
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
                // With -S nothing below a directory counts in its row.
                node.anchor = options.separateDirectories ? nil : node.parent?.anchor
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
            // With -S (`separateDirectories`) each row is its directory's own: nothing rolls up.
            for acc in accumulators.sorted(by: { $0.node.depth > $1.node.depth }) where !options.separateDirectories {
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

// MARK: - Helpers of the walk

private func largestFirst<T: HasTotalsAndPath>(_ a: T, _ b: T) -> Bool {
    a.totals.allocatedBytes != b.totals.allocatedBytes
        ? a.totals.allocatedBytes > b.totals.allocatedBytes
        : a.path.bytes.lexicographicallyPrecedes(b.path.bytes)
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
