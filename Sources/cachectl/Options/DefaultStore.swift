import ArgumentParser
import CacheKit

/// cachectl's own store, when a command was given no root. Its not existing yet means
/// nothing is cached: `ls`, `clear` and `prune` say so on stderr and succeed (as `du` does for
/// the default cache root), so a scheduled prune on a fresh machine does not fail.
enum DefaultStore {
    static func isAbsent(_ path: RawPath, defaulted: Bool) -> Bool {
        guard defaulted && !path.exists else { return false }
        Diagnostics.note("default store \(path.quoted) does not exist: nothing is cached yet")
        return true
    }
}
