import Foundation

/// clang's implicit module cache (`-fmodules-cache-path`; by default `~/.cache/clang/ModuleCache`
/// on Linux, where Swift's compiler keeps its clang modules too, and `ModuleCache.noindex` in
/// Xcode's DerivedData): a folder per compiler context hash, each holding `<Module>-<hash>.pcm`
/// module files, their `.pcm.timestamp` stamps (`-fmodules-validate-once-per-build-session`),
/// the global index `modules.idx`, and `.lock` files while a module builds; `modules.timestamp`
/// at the top says when clang last pruned.
///
/// clang's own rule (llvm/llvm-project@08a401e4 clang/lib/Serialization/ModuleCache.cpp:26-102,
/// `maybePruneImpl`): at most once a week (`ModuleCachePruneInterval`, the age of
/// `modules.timestamp`), every `.pcm`, `.timestamp` and `modules.idx` inside a context folder
/// whose access time is more than 31 days old (`ModuleCachePruneAfter`, both defaults in
/// clang/include/clang/Lex/HeaderSearchOptions.h@029a21d6) is removed, a module file with its
/// `.timestamp`, and a folder left empty goes too. Nothing else (files at the top, which are
/// Swift's modules built from interfaces, locks, anything unknown) is clang's to remove: kept.
/// A module missing later is rebuilt by the next compile that needs it.
///
/// The contents are never read: a read would move the access time that is clang's clock.
struct ClangModuleCacheFormat: CacheFormat {
    let anchor: AnchoredDirectory
    var kind: CacheFormatKind { .clangmodules }
    /// The stamp of clang's last prune.
    static let pruneStamp = "modules.timestamp"
    static let globalIndex = "modules.idx"
    /// `ModuleCachePruneAfter`'s default: 31 days.
    static let pruneAfter: Double = 31 * 86_400

    static func recognises(_ anchor: AnchoredDirectory) -> Bool {
        if case .success(let stamp) = anchor.status(of: Array(pruneStamp.utf8)), stamp.isRegular { return true }
        // A cache clang has used once only has no stamp yet: a context folder holding a module
        // file or the global index says it.
        for name in CacheFormats.sampleNames(anchor).lazy.filter(isContextHash).prefix(8) {
            if anchor.exists(name + [UInt8(ascii: "/")] + Array(globalIndex.utf8)) { return true }
            guard case .success(let folder) = anchor.anchoring(name),
                case .success(let names) = DirectoryListing.names(folder.descriptor.raw, limit: 64)
            else { continue }
            if names.contains(where: isModuleFile) { return true }
        }
        return false
    }

    /// A context hash as clang names its folders: a 64-bit hash in base 36, upper case
    /// (`llvm::toString(APInt, 36)`), at most 13 characters, and fewer than 8 only for about
    /// one hash in 240 million (single letters and digits, as other caches name folders, are not).
    static func isContextHash(_ name: [UInt8]) -> Bool {
        (8...13).contains(name.count)
            && name.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) }
    }

    /// `<Module>-<hash>.pcm`.
    static func isModuleFile(_ name: [UInt8]) -> Bool {
        endsWith(name, ".pcm") && name.dropLast(4).contains(UInt8(ascii: "-"))
    }

    private static func endsWith(_ name: [UInt8], _ suffix: String) -> Bool {
        name.count > suffix.utf8.count && name.suffix(suffix.utf8.count).elementsEqual(suffix.utf8)
    }

    var sizeRule: SizeRule {
        SizeRule(
            ratio: 0.5, metric: .allocated, trimsAtLimit: false, stopsStrictlyBelow: false,
            owner: "clang has no size cap (only its 31-day prune); the seed design's half, least recently used first")
    }

    /// What a file inside a context folder is to clang's prune.
    private enum Role {
        /// A module file, the global index, or a stamp with no module file: pruned by its age.
        case pruned
        /// A module's `.timestamp`, removed with it.
        case stamp
        /// A module being written (`<Module>-<hash>-XXXXXXXX.pcm.tmp`, renamed when done).
        case temporary
        /// A lock of a module being built (`.lock`, and the unique files LockFileManager
        /// makes beside it), or anything clang does not prune.
        case kept
    }

    private static func role(of name: [UInt8], among names: Set<[UInt8]>) -> Role {
        if isModuleFile(name) || name == Array(globalIndex.utf8) { return .pruned }
        if endsWith(name, ".timestamp") {
            return names.contains(Array(name.dropLast(".timestamp".utf8.count))) ? .stamp : .pruned
        }
        if endsWith(name, ".pcm.tmp") { return .temporary }
        return .kept
    }

    func entries(_ context: InspectionContext) throws -> [CacheEntry] {
        let files = FileTree.files(in: anchor)
        var byFolder: [[UInt8]: [FileTree.File]] = [:]
        var result: [CacheEntry] = []
        for file in files {
            let (parent, name) = AnchoredDirectory.split(file.anchorRelative)
            if parent.isEmpty {
                // clang prunes nothing at the top: its stamp, and Swift's modules built from
                // interfaces, are kept.
                if name != Array(Self.pruneStamp.utf8), name != Array(CacheDirTag.fileName.utf8) {
                    result.append(kept(file, "not in a context folder: clang does not prune it"))
                }
                continue
            }
            guard !parent.contains(UInt8(ascii: "/")) else {
                // clang walks the files of each top folder, not below them.
                result.append(kept(file, "in a folder inside a context folder: clang does not prune it"))
                continue
            }
            byFolder[parent, default: []].append(file)
        }
        for (_, folder) in byFolder {
            let names = Set(folder.map(\.path.lastComponent))
            var stamps: [[UInt8]: FileTree.File] = [:]
            for file in folder where Self.role(of: file.path.lastComponent, among: names) == .stamp {
                stamps[Array(file.anchorRelative.dropLast(".timestamp".utf8.count))] = file
            }
            for file in folder {
                switch Self.role(of: file.path.lastComponent, among: names) {
                case .pruned: result.append(byAccess(file, stamp: stamps[file.anchorRelative], context))
                case .stamp: continue
                case .temporary: result.append(temporary(file, context))
                case .kept: result.append(kept(file, "not a module file: clang does not prune it"))
                }
            }
        }
        return result
    }

    /// clang's rule on a module file (with its stamp), the index or a stray stamp: unused
    /// (access time) for more than 31 days.
    private func byAccess(_ file: FileTree.File, stamp: FileTree.File?, _ context: InspectionContext) -> CacheEntry {
        let idle = context.now.timeInterval - file.accessed.timeInterval
        let expired = idle > Self.pruneAfter
        var entry = CacheEntry(
            url: nil, path: file.path, relativePath: file.anchorRelative, allocatedBytes: file.allocatedBytes,
            apparentBytes: file.apparentBytes, modified: file.modified, lastAccess: file.accessed,
            state: expired ? .expired : .fresh,
            reason: expired
                ? "unused for \(NativeStore.span(idle)): clang prunes module files unused for 31 days"
                : "used \(NativeStore.span(max(0, idle))) ago")
        entry.identity = file.identity
        if let stamp {
            entry.companions = [CacheEntry.Companion(relativePath: stamp.anchorRelative, identity: stamp.identity)]
            entry.allocatedBytes = entry.allocatedBytes.saturatingPlus(stamp.allocatedBytes)
            entry.apparentBytes = entry.apparentBytes.saturatingPlus(stamp.apparentBytes)
        }
        return entry
    }

    /// A module file being written: clang writes a temporary and renames it, so one older than
    /// the grace period is what an interrupted compile left.
    private func temporary(_ file: FileTree.File, _ context: InspectionContext) -> CacheEntry {
        let old = context.isOlderThanGrace(file.lastWritten)
        var entry = CacheEntry(
            url: nil, path: file.path, relativePath: file.anchorRelative, allocatedBytes: file.allocatedBytes,
            apparentBytes: file.apparentBytes, modified: file.modified, state: old ? .incomplete : .fresh,
            reason: old
                ? "a module file an interrupted compile left half written (clang renames a finished one)"
                : "being written (within the grace period)")
        entry.inGracePeriod = !old
        entry.identity = file.identity
        return entry
    }

    private func kept(_ file: FileTree.File, _ reason: String) -> CacheEntry {
        var entry = CacheEntry(
            url: nil, path: file.path, relativePath: file.anchorRelative, allocatedBytes: file.allocatedBytes,
            apparentBytes: file.apparentBytes, modified: file.modified, state: .fresh, reason: reason + ": kept")
        entry.removedOnlyWhenNamed = true
        entry.identity = file.identity
        return entry
    }

    func locate(url: String, _ context: InspectionContext) throws -> CacheEntry? {
        guard URLKey(url) != nil else { throw StoreError.notAURL(url) }
        return nil  // compiled modules, not URLs
    }
}
