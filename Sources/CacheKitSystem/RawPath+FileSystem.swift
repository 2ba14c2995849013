extension RawPath {
    /// The canonical absolute path (symlinks resolved), or the path as it is when it cannot
    /// be resolved (it does not exist). For policy checks and messages: to act on a
    /// directory, anchor it (`AnchoredDirectory`) and go through its descriptor.
    public var canonical: RawPath {
        (try? Sys.realpath(self).get()) ?? self
    }

    /// The canonical absolute path of a file that may not exist (yet, or any more): the
    /// file's when it resolves, else its directory's resolved (as far up as one exists)
    /// with the remaining components after it, so a relative path is never returned.
    /// `canonical` gives the path as it is for a missing file (a bare `out.html`).
    public var canonicalFile: RawPath {
        if case .success(let resolved) = Sys.realpath(self) { return resolved }
        var missing: [[UInt8]] = []
        var directory = self
        while true {
            missing.append(directory.lastComponent)
            let parent = directory.parentDirectory
            if case .success(let resolved) = Sys.realpath(parent) {
                return missing.reversed().reduce(resolved) { $0.appending($1) }
            }
            // `.` and `/` always resolve; a parent equal to its child cannot be climbed.
            guard parent != directory else { return self }
            directory = parent
        }
    }

    /// Whether something (anything, a dangling symlink included) exists at this path.
    public var exists: Bool {
        if case .success = Sys.lstat(path: self) { return true }
        return false
    }
}
