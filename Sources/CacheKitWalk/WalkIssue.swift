/// A problem met during a walk. The walk goes on; the caller decides how to show it.
public struct WalkIssue: Error, Sendable, CustomStringConvertible {
    /// The system call that failed, in du's words.
    public enum Operation: String, Sendable {
        /// A directory could not be opened or read (its own blocks are still counted).
        case readDirectory
        /// An entry could not be examined (it vanished, or its directory is not searchable).
        case access
    }
    /// The path it failed on.
    public var path: RawPath
    /// What was being done.
    public var operation: Operation
    /// Why it failed.
    public var error: Errno

    /// `cannot read directory 'x': Permission denied`, worded as GNU du words it.
    public var description: String {
        switch operation {
        case .readDirectory: return "cannot read directory \(path.quoted): \(error)"
        case .access: return "cannot access \(path.quoted): \(error)"
        }
    }
}
