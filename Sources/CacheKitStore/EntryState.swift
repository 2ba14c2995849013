/// The state of one cache entry, decided by the owning format's own rules.
public enum EntryState: String, CaseIterable, Sendable {
    /// Usable as it is.
    case fresh
    /// Past its expiry, or beyond the format's age rule.
    case expired
    /// A download that never completed, older than the grace period.
    case incomplete
    /// Body missing, size or checksum not matching, empty or truncated image.
    case corrupted
    /// A body no index refers to, older than the grace period.
    case orphan
    /// Indexed at a path outside the cache root or through a symlink: reported, never deleted.
    case outside
}
