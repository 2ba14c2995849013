extension RawPath {
    /// The canonical absolute path (symlinks resolved), or the path as it is when it cannot
    /// be resolved (it does not exist). For policy checks and messages: to act on a
    /// directory, anchor it (`AnchoredDirectory`) and go through its descriptor.
    public var canonical: RawPath {
        (try? Sys.realpath(self).get()) ?? self
    }

    /// Whether something (anything, a dangling symlink included) exists at this path.
    public var exists: Bool {
        if case .success = Sys.lstat(path: self) { return true }
        return false
    }
}
