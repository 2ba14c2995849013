#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The Cache Directory Tagging convention: a regular file `CACHEDIR.TAG` whose first 43 bytes
/// are exactly the signature below marks its directory as a cache.
public enum CacheDirTag {
    /// `CACHEDIR.TAG`.
    public static let fileName = "CACHEDIR.TAG"
    /// The first line a valid tag begins with (bford.info/cachedir).
    public static let signature = "Signature: 8a477f597d28d172789f06886806bc55"
    /// The tag cachectl writes: the signature plus the customary comment lines.
    public static let contents =
        signature
            + """
            \n# This file is a cache directory tag created by cachectl.\n# For information about cache directory tags \
            see https://bford.info/cachedir/\n
            """

    static let fileNameC: [CChar] = Array(fileName.utf8CString)
    static let fileNameBytes: [UInt8] = Array(fileName.utf8)
    static let signatureBytes: [UInt8] = Array(signature.utf8)

    /// True when `name` (NUL-terminated) is `CACHEDIR.TAG`.
    @inline(__always)
    package static func isTagName(_ name: UnsafePointer<CChar>) -> Bool {
        strcmp(name, fileNameC) == 0
    }

    /// Whether the entry `name` in the directory `dirfd` is a valid tag: a regular file
    /// (not a symlink) starting with the signature. Read without changing its access time
    /// where the system allows (always, or not at all, with `strict`).
    package static func isValidTag(in dirfd: Int32, name: UnsafePointer<CChar>, strict: Bool = false) -> Bool {
        owner(in: dirfd, name: name, strict: strict) != nil
    }

    /// The owner of a valid tag `name` in `dirfd`; nil when it is not one.
    private static func owner(in dirfd: Int32, name: UnsafePointer<CChar>, strict: Bool) -> UInt32? {
        guard
            case .success(let raw) = Sys.openWithoutAtime(
                at: dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, strict: strict)
        else {
            return nil
        }
        let file = FileDescriptor(adopting: raw)
        guard case .success(let st) = Sys.fstat(file.raw), st.isRegular else { return nil }
        guard case .success(let head) = AnchoredDirectory.read(file.raw, upTo: signatureBytes.count),
            head == signatureBytes
        else { return nil }
        return st.owner
    }

    /// Whether `directory` carries a valid tag (by path: for measuring, never for deciding
    /// what may be deleted — see `trust(in:)`).
    public static func isTagged(_ directory: RawPath) -> Bool {
        guard case .success(let raw) = Sys.openWithoutAtime(directory, Sys.openDirectoryFlags) else { return false }
        let fd = FileDescriptor(adopting: raw)
        return fileNameC.withUnsafeBufferPointer { isValidTag(in: fd.raw, name: $0.baseAddress!) }
    }

    /// What the tag of an anchored directory says about deleting in it.
    public enum Trust: Equatable, Sendable {
        /// No valid tag.
        case absent
        /// A valid tag owned by the invoking user, by root, or by the directory's owner.
        case trusted
        /// A valid tag owned by someone else (planted in a directory they do not own): it
        /// does not make the directory a cache.
        case untrusted(owner: UInt32)
    }

    /// Whether the anchored directory's tag may be believed: its owner must be the invoking
    /// user, root, or the directory's owner. Read through the anchor's descriptor, with the
    /// anchor's access-time rule (dry runs change no timestamp).
    public static func trust(in anchor: AnchoredDirectory) -> Trust {
        let found = fileNameC.withUnsafeBufferPointer {
            owner(in: anchor.fd, name: $0.baseAddress!, strict: anchor.mustPreserveAccessTimes)
        }
        guard let owner = found else { return .absent }
        if owner == Sys.effectiveUser || owner == 0 || owner == anchor.status.owner { return .trusted }
        return .untrusted(owner: owner)
    }

    /// Whether the anchored directory carries a valid tag, trusted or not.
    package static func isTagged(_ anchor: AnchoredDirectory) -> Bool { trust(in: anchor) != .absent }
}
