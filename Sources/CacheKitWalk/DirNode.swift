#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A directory in the walk: enough to rebuild its path and to find where its sizes go.
final class DirNode: @unchecked Sendable {
    // @unchecked Sendable: its `var`s are set by the worker that reads the directory before its children are queued;
    // `WorkerPool.Jobs`'s lock orders those writes before any reader.
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
