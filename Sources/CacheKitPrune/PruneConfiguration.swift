import TOMLKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A prune policy kept in a file, in the spirit of `tmpfiles.d` and `ccache.conf`: one TOML
/// table per cache path or glob, each with its own rules.
///
/// ```toml
/// ["~/.cache/pip"]
/// max-size = "2G"
/// max-age = "1M"
///
/// ["/var/cache/myapp/*"]
/// max-size = "500M"
/// trim-to = 0.7
/// format = "plain"
/// grace = "2h"
/// ```
///
/// Paths are absolute or start with `~/` (the home directory); globs are `glob(3)`'s. Sizes
/// need a unit (as `--max-size`), durations are systemd time spans (as `--max-age`).
public struct PruneConfiguration: Sendable {
    /// One table: which caches, and their rules.
    public struct Policy: Sendable {
        /// The table's name as written.
        public var pattern: String
        /// The line of its header.
        public var line: Int
        /// The size and age limits (`max-size`, `max-age`, `trim-to`).
        public var rules: PruneRules
        /// The format the table names (`format`); nil: recognised from the folder.
        public var format: CacheFormatKind?
        /// The grace period for partial files, in seconds (`grace`); nil: the default, one hour.
        public var graceSeconds: Double?
        /// `max-size` and `max-age` as written, for reports.
        public var maxSizeText: String?
        /// `max-age` as written, for reports ("older than max-age 30d").
        public var maxAgeText: String?

        /// The existing directories the pattern names (`~/` expanded, glob matched), sorted.
        public func roots(home: String) -> [RawPath] {
            let expanded = pattern.hasPrefix("~/") ? home + pattern.dropFirst(1) : pattern
            var result = glob_t()
            defer { globfree(&result) }
            guard glob(expanded, 0, nil, &result) == 0 else { return [] }
            var roots: [RawPath] = []
            for index in 0..<Int(result.gl_pathc) {
                guard let pointer = result.gl_pathv[index] else { continue }
                let path = RawPath(
                    bytes: Array(
                        UnsafeBufferPointer(
                            start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self),
                            count: strlen(pointer))))
                if case .success(let st) = Sys.lstat(path: path), st.isDirectory { roots.append(path) }
            }
            return roots.sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
        }
    }

    /// A mistake in a file, with where it is.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        /// The configuration file.
        public var file: RawPath
        /// The line, when the problem has one.
        public var line: Int?
        /// What is wrong, in words.
        public var message: String
        /// `FILE:LINE: message`.
        public var description: String { "\(file.description)\(line.map { ":\($0)" } ?? ""): \(message)" }
    }

    /// Every problem a file has.
    public struct Problems: Error, Sendable {
        /// Every problem found, in file order.
        public var all: [Problem]
    }

    /// The file the policies were read from.
    public var file: RawPath
    /// One policy per table, in file order.
    public var policies: [Policy]

    /// The keys a table may have.
    public static let keys: Set<String> = ["max-size", "max-age", "trim-to", "format", "grace"]

    /// Parses and checks a file: every problem found, each with its line; nil problems and
    /// the configuration when there are none.
    public static func load(_ file: RawPath) -> Result<PruneConfiguration, Problems> {
        let bytes: [UInt8]
        do { bytes = try FileIO.readNamed(file) } catch let StoreError.cannotRead(_, cause) {
            return .failure(Problems(all: [Problem(file: file, line: nil, message: cause)]))
        } catch {
            return .failure(Problems(all: [Problem(file: file, line: nil, message: "\(error)")]))
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .failure(
                Problems(all: [Problem(file: file, line: nil, message: "not UTF-8 text (TOML files are UTF-8)")]))
        }
        return parse(text, file: file)
    }

    static func parse(_ text: String, file: RawPath) -> Result<PruneConfiguration, Problems> {
        let document: TOMLTable
        do { document = try TOMLTable(string: text) } catch let error as TOMLParseError {
            return .failure(
                Problems(all: [Problem(file: file, line: error.source.begin.line, message: error.description)]))
        } catch {
            return .failure(Problems(all: [Problem(file: file, line: nil, message: "\(error)")]))
        }
        let lines = SourceLines(text)
        var problems: [Problem] = []
        var policies: [Policy] = []
        for pattern in document.keys {
            let headerLine = lines.header(pattern)
            guard let table = document[pattern]?.table else {
                problems.append(
                    Problem(
                        file: file, line: lines.key(pattern, after: 0),
                        message: "'\(pattern)' must be a table: [\"/path/to/cache\"]"))
                continue
            }
            guard pattern.hasPrefix("/") || pattern.hasPrefix("~/") else {
                problems.append(
                    Problem(
                        file: file, line: headerLine,
                        message: "'\(pattern)': a cache is an absolute path or starts with ~/"))
                continue
            }
            var policy = Policy(
                pattern: pattern, line: headerLine ?? 0, rules: PruneRules(), format: nil, graceSeconds: nil)
            func problem(_ key: String, _ message: String) {
                problems.append(
                    Problem(
                        file: file, line: lines.key(key, after: headerLine ?? 0),
                        message: "[\(pattern)] \(key): \(message)"))
            }
            for key in table.keys.sorted() {
                guard Self.keys.contains(key) else {
                    problem(key, "unknown key (known: \(Self.keys.sorted().joined(separator: ", ")))")
                    continue
                }
                if let message = Self.apply(key, table[key], to: &policy) { problem(key, message) }
            }
            if policy.rules.maxSize == nil && policy.rules.maxAge == nil && table["max-size"] == nil
                && table["max-age"] == nil
            {
                problems.append(
                    Problem(
                        file: file, line: headerLine,
                        message:
                            """
                            [\(pattern)] sets neither max-size nor max-age: it would only remove damaged entries; \
                            say so with max-age if that is meant
                            """
                    ))
            }
            policies.append(policy)
        }
        if !problems.isEmpty { return .failure(Problems(all: problems.sorted { ($0.line ?? 0) < ($1.line ?? 0) })) }
        return .success(PruneConfiguration(file: file, policies: policies.sorted { $0.line < $1.line }))
    }

    /// Sets `key` of a table on `policy`; what is wrong with the value, if anything.
    private static func apply(_ key: String, _ value: TOMLValueConvertible?, to policy: inout Policy) -> String? {
        switch key {
        case "max-size":
            guard let text = value?.string, let size = Units.parseSizeWithUnit(text) else {
                return "a size with a unit, as a string: \"500M\""
            }
            guard !Units.isForgottenUnit(size) else {
                return "'\(text)' has no unit and is under 4 KiB; write \(text)B if you mean bytes"
            }
            policy.rules.maxSize = size.bytes
            policy.maxSizeText = text
        case "max-age":
            guard let text = value?.string, let seconds = Units.parseDuration(text) else {
                return "a systemd time span, as a string: \"30d\", \"1M\""
            }
            policy.rules.maxAge = seconds
            policy.maxAgeText = text
        case "grace":
            guard let text = value?.string, let seconds = Units.parseDuration(text) else {
                return "a systemd time span, as a string: \"1h\""
            }
            policy.graceSeconds = seconds
        case "trim-to":
            guard let ratio = value?.double ?? value?.int.map(Double.init), ratio > 0, ratio <= 1 else {
                return "a number greater than 0 and at most 1: 0.5"
            }
            policy.rules.trimTo = ratio
        case "format":
            guard let text = value?.string, let kind = CacheFormatKind(rawValue: text) else {
                return "one of \(CacheFormatKind.allCases.map(\.rawValue).joined(separator: ", "))"
            }
            policy.format = kind
        default: break
        }
        return nil
    }

    /// The files read when none is named: the system's, then the user's (whose tables replace
    /// the system's of the same name).
    public static func defaultFiles(environment: (String) -> String? = { getenv($0).map { String(cString: $0) } })
        -> [RawPath]
    {
        let configHome =
            environment("XDG_CONFIG_HOME").flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment("HOME") ?? "/") + "/.config"
        return [RawPath("/etc/cachectl/config.toml"), RawPath(configHome + "/cachectl/config.toml")].filter(\.exists)
    }

    /// Several files as one: later files' tables replace earlier ones' of the same name.
    public static func merged(_ configurations: [PruneConfiguration]) -> [Policy] {
        var byPattern: [String: Policy] = [:]
        var order: [String] = []
        for configuration in configurations {
            for policy in configuration.policies {
                if byPattern[policy.pattern] == nil { order.append(policy.pattern) }
                byPattern[policy.pattern] = policy
            }
        }
        return order.compactMap { byPattern[$0] }
    }
}

/// Finds the lines of table headers and keys in a TOML text (the parser gives positions of
/// syntax errors only).
private struct SourceLines {
    let lines: [Substring]

    init(_ text: String) { lines = text.split(separator: "\n", omittingEmptySubsequences: false) }

    /// The 1-based line of the header `[pattern]` (quoted or bare).
    func header(_ pattern: String) -> Int? {
        let forms = ["[\"\(pattern)\"]", "['\(pattern)']", "[\(pattern)]"]
        return lines.firstIndex { line in
            let trimmed = line.trimmingWhitespace()
            return forms.contains { trimmed.hasPrefix($0) }
        }.map { $0 + 1 }
    }

    /// The 1-based line of `key =` after line `after` (1-based), before the next header.
    func key(_ key: String, after: Int) -> Int? {
        var index = after  // the line after the header (0-based)
        while index < lines.count {
            let trimmed = lines[index].trimmingWhitespace()
            if trimmed.hasPrefix("[") { break }
            for form in [key, "\"\(key)\"", "'\(key)'"] where trimmed.hasPrefix(form) {
                if trimmed.dropFirst(form.count).trimmingWhitespace().hasPrefix("=") { return index + 1 }
            }
            index += 1
        }
        return nil
    }
}

extension Substring {
    fileprivate func trimmingWhitespace() -> String { String(self).trimmingWhitespace() }
}
