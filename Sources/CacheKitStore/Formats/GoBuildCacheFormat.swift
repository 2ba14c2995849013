import Foundation

/// Go's build cache (`GOCACHE`, `go-build/`): 256 folders `00`…`ff` of `<id>-a` action
/// entries — exactly `v1 <64-hex action> <64-hex output> <size %20d> <unixnano %20d>\n` —
/// and `<id>-d` outputs named by their content's SHA-256. The modification time is the last
/// use; `go` trims entries unused for 5 days + 1 hour (`trimLimit`); `README`, `trim.txt`,
/// `testexpire.txt` and `fuzz/` (never trimmed) are bookkeeping
/// (golang/go@06261062 src/cmd/go/internal/cache/cache.go: `fileName`, `get`, `GetFile`,
/// `Trim`, `trimSubdir`; shared/reference/cache-layouts.md §6). An action and the output
/// only it names go together; an output several actions name, or none, is its own entry.
struct GoBuildCacheFormat: CacheFormat {
    let anchor: AnchoredDirectory
    var kind: CacheFormatKind { .gobuild }
    static let readme = "This directory holds cached build artifacts from the Go build system."
    static let bookkeeping: Set<String> = ["README", "trim.txt", "testexpire.txt"]
    static let trimLimit: Double = 5 * 86_400 + 3600
    static let actionLength = 175

    static func recognises(_ anchor: AnchoredDirectory) -> Bool {
        guard case .success(let head) = anchor.readPrefix(Array("README".utf8), count: readme.utf8.count) else {
            return false
        }
        return head == Array(readme.utf8)
    }

    /// The 256 folders stay when emptied: `go` makes them only when it opens the cache
    /// (cache.go `Open`), and a `go` already running fails each write into one removed
    /// (go 1.19 then reports "package net is not in GOROOT"). Its own trim deletes files only
    /// (`trimSubdir`).
    var keptDirectories: Set<[UInt8]> {
        Set((0..<256).map { Array(String(format: "%02x", $0).utf8) })
    }

    var sizeRule: SizeRule {
        SizeRule(
            ratio: 0.5, metric: .allocated, trimsAtLimit: false, stopsStrictlyBelow: false,
            owner: "go has no size cap (only its 5-day trim); the seed design's half, least recently used first")
    }

    private struct Action {
        var file: FileTree.File
        var output: [UInt8]?
        var size: Int64?
        var problem: String?
    }

    /// The output id and size an action file names, or why it is not a valid action.
    static func parseAction(_ bytes: [UInt8]) -> (output: String, size: Int64)? {
        guard bytes.count == actionLength, bytes.starts(with: Array("v1 ".utf8)), bytes.last == UInt8(ascii: "\n")
        else { return nil }
        let text = String(decoding: bytes.dropLast(), as: UTF8.self)
        let fields = text.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count == 5, fields[1].count == 64, fields[2].count == 64,
            CacheFormats.isHex(String(fields[1]), count: 64), CacheFormats.isHex(String(fields[2]), count: 64),
            let size = Int64(fields[3]), size >= 0, Int64(fields[4]) != nil
        else { return nil }
        return (String(fields[2]), size)
    }

    func entries(_ context: InspectionContext) throws -> [CacheEntry] {
        let files = FileTree.files(
            in: anchor,
            enter: { directory in
                // fuzz/ is not the build cache's (go clean -fuzzcache removes it).
                directory.anchorRelative != Array("fuzz".utf8)
            })
        let (actions, outputs, other) = classify(files)
        var references: [[UInt8]: Int] = [:]
        for action in actions { if let output = action.output { references[output, default: 0] += 1 } }

        var result: [CacheEntry] = []
        var claimed = Set<[UInt8]>()
        for action in actions {
            var entry = byAge(action.file, context)
            if let problem = action.problem {
                (entry.state, entry.reason) =
                    context.isOlderThanGrace(action.file.lastWritten)
                    ? (.corrupted, problem)
                    : (.fresh, "being written (within the grace period)")
            } else if let output = action.output, let file = outputs[output], references[output] == 1 {
                claimed.insert(output)
                entry.companions = [CacheEntry.Companion(relativePath: output, identity: file.identity)]
                entry.allocatedBytes = entry.allocatedBytes.saturatingPlus(file.allocatedBytes)
                entry.apparentBytes = entry.apparentBytes.saturatingPlus(file.apparentBytes)
                if let size = action.size, size != file.apparentBytes, entry.state == .fresh {
                    (entry.state, entry.reason) = (
                        .corrupted,
                        "its output is \(file.apparentBytes) bytes, the action says \(size) (go: file incomplete)"
                    )
                } else if context.verify, entry.state == .fresh,
                    case .success(let digest) = Digest.sri("sha256", ofFile: output, in: anchor),
                    digest.map({ $0 + "-d" }) != String(decoding: file.path.lastComponent, as: UTF8.self)
                {
                    (entry.state, entry.reason) = (
                        .corrupted, "its output does not hash to its name (go: bad checksum)"
                    )
                }
            }
            result.append(entry)
        }
        for (relative, file) in outputs where !claimed.contains(relative) {
            var entry = byAge(file, context)
            if references[relative] == nil, entry.state == .fresh {
                entry.reason = "an output no action names (" + entry.reason + ")"
            }
            result.append(entry)
        }
        for file in other {
            var entry = CacheEntry(
                url: nil, path: file.path, relativePath: file.anchorRelative, allocatedBytes: file.allocatedBytes,
                apparentBytes: file.apparentBytes, modified: file.modified, state: .fresh,
                reason: "not a build cache entry: kept")
            entry.removedOnlyWhenNamed = true
            entry.identity = file.identity
            result.append(entry)
        }
        return result
    }

    /// The cache's files sorted: actions (`-a`, parsed), outputs (`-d`), and anything else;
    /// go's bookkeeping files are left out.
    private func classify(_ files: [FileTree.File])
        -> (actions: [Action], outputs: [[UInt8]: FileTree.File], other: [FileTree.File])
    {
        var actions: [Action] = []
        var outputs: [[UInt8]: FileTree.File] = [:]
        var other: [FileTree.File] = []
        for file in files {
            let name = String(decoding: file.path.lastComponent, as: UTF8.self)
            if file.anchorRelative == file.path.lastComponent,
                Self.bookkeeping.contains(name) || name == CacheDirTag.fileName
            {
                continue
            }
            if name.hasSuffix("-a"), CacheFormats.isHex(String(name.dropLast(2)), count: 64) {
                var action = Action(file: file)
                if case .success(let bytes) = anchor.readPrefix(file.anchorRelative, count: Self.actionLength + 1),
                    let parsed = Self.parseAction(bytes)
                {
                    action.output = Array("\(parsed.output.prefix(2))/\(parsed.output)-d".utf8)
                    action.size = parsed.size
                } else {
                    action.problem = "not a valid action entry (go reports it as an invalid header)"
                }
                actions.append(action)
            } else if name.hasSuffix("-d"), CacheFormats.isHex(String(name.dropLast(2)), count: 64), file.isRegular {
                outputs[file.anchorRelative] = file
            } else {
                other.append(file)
            }
        }
        return (actions, outputs, other)
    }

    /// go's trim rule on one file: unused (modification time) for 5 days and an hour.
    private func byAge(_ file: FileTree.File, _ context: InspectionContext) -> CacheEntry {
        let idle = context.now.timeInterval - file.modified.timeInterval
        var entry = CacheEntry(
            url: nil, path: file.path, relativePath: file.anchorRelative, allocatedBytes: file.allocatedBytes,
            apparentBytes: file.apparentBytes, modified: file.modified, lastAccess: file.modified,
            state: idle > Self.trimLimit ? .expired : .fresh,
            reason: idle > Self.trimLimit
                ? "unused for \(NativeStore.span(idle)): go trims after 5 days and an hour"
                : "used \(NativeStore.span(max(0, idle))) ago")
        entry.identity = file.identity
        return entry
    }

    func locate(url: String, _ context: InspectionContext) throws -> CacheEntry? {
        guard URLKey(url) != nil else { throw StoreError.notAURL(url) }
        return nil  // build actions, not URLs
    }
}
