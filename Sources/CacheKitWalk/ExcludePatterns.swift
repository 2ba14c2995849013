#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
