import Foundation

/// ccache's local storage (4.x): entries at `<k0>/<k1>[/…]/<name>` — `<digest>R` (result) and
/// `<digest>M` (manifest) up to 4.12, 40-hex names from 4.13 — each beginning with the
/// magic `0xccac` and ending in an XXH3-128 checksum (src/ccache/core/cacheentry.hpp:63,
/// cacheentry.cpp:241-254); a result's raw files (`<digest><n>W`, or `<name>_NN`) go with it.
/// Bookkeeping never deleted: `ccache.conf`, the `stats` counters in each subdirectory,
/// `lock/`, the `CACHEDIR.TAG` it writes in each top-level subdirectory, `tmp/.cleaned`.
/// Temporaries (`.tmp.` in the name) older than the grace period are interrupted writes. A
/// hit refreshes the modification time. Cleanup, as ccache 4.7 (Debian 12's) does it and its
/// manual says ("Automatic cleanup", `limit_multiple`): each of the 16 top-level
/// subdirectories holding more than max_size/16 is trimmed oldest modification first until it
/// holds at most `limit_multiple` × max_size/16 (`limit_multiple` from `ccache.conf`,
/// default 0.8). ccache ≥ 4.8 trims by file count per second-level directory instead
/// (news.adoc:1302-1307). No age rule.
/// Facts: ccache/ccache@e5731387 src/ccache/storage/local/localstorage.cpp (:97-120,
/// :318-376, :418-439, :594-598, :1103-1113, :1218-1320, :1572-1611),
/// shared/reference/cache-layouts.md §7. The magic is always checked; with `--verify`, the
/// XXH3-128 epilogue (the last 16 bytes, big-endian, over everything before them) too.
struct CcacheFormat: CacheFormat {
    let anchor: AnchoredDirectory
    var kind: CacheFormatKind { .ccache }
    static let magic: [UInt8] = [0xCC, 0xAC]
    /// Whether the entry's last 16 bytes are the XXH3-128 of everything before them, as
    /// ccache checks an entry it reads (src/ccache/core/cacheentry.cpp:241-254), read 64 KiB at
    /// a time (an entry can be as large as the object file it holds); false for a file too
    /// short to hold a checksum or cut short while it is read.
    static func checksumHolds(_ relative: [UInt8], in anchor: AnchoredDirectory) -> Result<Bool, Errno> {
        FileIO.withRegularFile(relative, in: anchor) { size, read in
            guard size >= 18 else { return false }
            let stored = try read(size - 16, 16)
            return try XXH3.digest128(count: size - 16, read: read) == stored
        }
    }

    static let topLevel = (0..<16).map { String($0, radix: 16) }
    static let bookkeeping: Set<String> = ["ccache.conf", "stats", "CACHEDIR.TAG", ".cleaned"]

    static func recognises(_ anchor: AnchoredDirectory) -> Bool {
        if anchor.exists(Array("ccache.conf".utf8)) { return true }
        return topLevel.contains { anchor.exists(Array("\($0)/stats".utf8)) }
            && topLevel.contains {
                anchor.exists(Array("\($0)/CACHEDIR.TAG".utf8)) || anchor.exists(Array("\($0)/stats".utf8))
            }
    }

    var sizeRule: SizeRule {
        let ratio = limitMultiple ?? 0.8
        return SizeRule(
            ratio: ratio, metric: .allocated, trimsAtLimit: false, stopsStrictlyBelow: false,
            owner:
                "ccache: each of its 16 subdirectories over its share of the limit, oldest modification first, down to "
                + "limit_multiple \(ratio) of that share (ccache manual, Automatic cleanup)",
            partitions: 16)
    }

    /// `limit_multiple` as `ccache.conf` sets it.
    var limitMultiple: Double? {
        guard case .success(let bytes) = anchor.readAll(Array("ccache.conf".utf8)) else { return nil }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, parts[0] == "limit_multiple", let value = Double(parts[1]), value > 0, value <= 1 {
                return value
            }
        }
        return nil
    }

    /// The result or manifest a raw file belongs to: `<name>_NN`, or (≤ 4.12) the result's
    /// name with its last character replaced by one digit and `W`: `<digest><n>W`, n < 10
    /// (ccache/ccache v4.7 src/storage/local/LocalStorage.cpp `get_raw_file_path`). One digit
    /// only: a digest may itself end in digits.
    static func owner(ofRaw name: String) -> String? {
        if let underscore = name.lastIndex(of: "_"), name[name.index(after: underscore)...].allSatisfy(\.isNumber),
            underscore != name.startIndex
        {
            return String(name[..<underscore])
        }
        let bytes = Array(name.utf8)
        if bytes.count >= 3, bytes.last == UInt8(ascii: "W"), (0x30...0x39).contains(bytes[bytes.count - 2]) {
            return String(decoding: bytes.dropLast(2), as: UTF8.self) + "R"
        }
        return nil
    }

    func entries(_ context: InspectionContext) throws -> [CacheEntry] {
        let files = FileTree.files(in: anchor, enter: { directory in directory.anchorRelative != Array("lock".utf8) })
        var byName: [[UInt8]: FileTree.File] = [:]
        for file in files { byName[file.anchorRelative] = file }
        var raws: [[UInt8]: [FileTree.File]] = [:]
        var mains: [FileTree.File] = []
        var others: [FileTree.File] = []
        for file in files {
            let name = String(decoding: file.path.lastComponent, as: UTF8.self)
            if Self.bookkeeping.contains(name) || file.anchorRelative == file.path.lastComponent { continue }
            // A lock beside what it guards (`stats.lock`, a symlink, and its `.alive`,
            // util/LockFile.cpp): deleting a held one lets two ccaches write `stats` at once.
            if name.hasSuffix(".lock") || name.hasSuffix(".alive") { continue }
            if name.contains(".tmp.") || file.anchorRelative.starts(with: Array("tmp/".utf8)) {
                others.append(file)
                continue
            }
            let parent = AnchoredDirectory.split(file.anchorRelative).parent
            if let owner = Self.owner(ofRaw: name) {
                let ownerPath = parent + [UInt8(ascii: "/")] + Array(owner.utf8)
                if byName[ownerPath] != nil {
                    raws[ownerPath, default: []].append(file)
                    continue
                }
            }
            mains.append(file)
        }
        var result: [CacheEntry] = mains.map { file in
            var entry = CacheEntry(
                url: nil, path: file.path, relativePath: file.anchorRelative, allocatedBytes: file.allocatedBytes,
                apparentBytes: file.apparentBytes, modified: file.modified, lastAccess: file.modified,
                state: .fresh, reason: "ccache has no age rule (a hit refreshes it)")
            entry.identity = file.identity
            for raw in raws[file.anchorRelative] ?? [] {
                entry.companions.append(CacheEntry.Companion(relativePath: raw.anchorRelative, identity: raw.identity))
                entry.allocatedBytes = entry.allocatedBytes.saturatingPlus(raw.allocatedBytes)
                entry.apparentBytes = entry.apparentBytes.saturatingPlus(raw.apparentBytes)
            }
            var problem: String?
            if case .success(let head) = anchor.readPrefix(file.anchorRelative, count: 2), head != Self.magic {
                problem = "not a ccache entry (no 0xccac magic): ccache discards it"
            } else if context.verify, case .success(false) = Self.checksumHolds(file.anchorRelative, in: anchor) {
                problem = "its XXH3-128 checksum does not match: ccache discards it"
            }
            if let problem {
                if context.isOlderThanGrace(file.lastWritten) {
                    (entry.state, entry.reason) = (.corrupted, problem)
                } else {
                    (entry.reason, entry.inGracePeriod) = ("being written (within the grace period)", true)
                }
            }
            return entry
        }
        for file in others {
            let old = context.isOlderThanGrace(file.lastWritten)
            var entry = CacheEntry(
                url: nil, path: file.path, relativePath: file.anchorRelative, allocatedBytes: file.allocatedBytes,
                apparentBytes: file.apparentBytes, modified: file.modified, state: old ? .incomplete : .fresh,
                reason: old
                    ? "a temporary of an interrupted write (ccache sweeps them)"
                    : "being written (within the grace period)")
            entry.inGracePeriod = !old
            entry.identity = file.identity
            result.append(entry)
        }
        return result
    }

    var keptDirectories: Set<[UInt8]> {
        Set(Self.topLevel.map { Array($0.utf8) } + [Array("tmp".utf8), Array("lock".utf8)])
    }

    func locate(url: String, _ context: InspectionContext) throws -> CacheEntry? {
        guard URLKey(url) != nil else { throw StoreError.notAURL(url) }
        return nil  // compilation results, not URLs
    }
}
