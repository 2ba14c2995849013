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
        return excludes(path: RawPath(bytes: path))
    }

    /// Whether the file at `path` (an argument, or an entry's whole path) is excluded: a
    /// pattern matches it or a tail after any slash (gnulib exclude.c `exclude_fnmatch`,
    /// without EXCLUDE_ANCHORED, as du adds its patterns; coreutils 9.1's gnulib tries the
    /// tail after each slash of `//` too, later ones only after the last).
    func excludes(path: RawPath) -> Bool {
        let bytes = path.bytes + [0]
        return bytes.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            for pattern in patterns {
                if fnmatch(pattern, base, 0) == 0 { return true }
                for index in 0..<(buffer.count - 1) where buffer[index] == UInt8(ascii: "/") {
                    if fnmatch(pattern, base + index + 1, 0) == 0 { return true }
                }
            }
            return false
        }
    }
}
