extension CacheDirTag {
    /// Writes cachectl's tag into the anchored directory (atomically), unless one is there.
    static func write(in anchor: AnchoredDirectory) throws {
        if isTagged(anchor) { return }
        try FileIO.writeAtomically(in: anchor, Array(fileName.utf8), Array(contents.utf8))
    }
}
