import Foundation

/// A folder of bare git repositories — SwiftPM's `repositories/<name>-<8 hex>` mirrors
/// (swiftlang/swift-package-manager@cac6bb7b Sources/SourceControl/RepositoryManager.swift:
/// 644-657), or any folder of `git clone --mirror`s. A repository is one unit, whole: its
/// packs, refs and config are never deleted apart (`swift package purge-cache` removes a
/// mirror whole, :523-548). Its time is its newest file's; there is no age or size rule.
/// Facts: shared/reference/cache-layouts.md §12.
struct GitMirrorsFormat: CacheFormat {
    let anchor: AnchoredDirectory
    var kind: CacheFormatKind { .gitmirrors }

    static func isBareRepository(_ anchor: AnchoredDirectory, _ relative: [UInt8]) -> Bool {
        let slash = [UInt8(ascii: "/")]
        return ["HEAD", "objects", "refs"].allSatisfy { anchor.exists(relative + slash + Array($0.utf8)) }
            && !anchor.exists(relative + slash + Array(".git".utf8))
    }

    static func recognises(_ anchor: AnchoredDirectory) -> Bool {
        let names = CacheFormats.sampleNames(anchor).filter { $0.first != UInt8(ascii: ".") }
        let bare = names.prefix(16).filter { isBareRepository(anchor, $0) }.count
        return bare > 0 && bare * 2 >= min(names.count, 16)
    }

    func entries(_ context: InspectionContext) throws -> [CacheEntry] {
        try PlainFormat(anchor: anchor, declaredFileByFile: false).entries(context).map { entry in
            var entry = entry
            if entry.isUnit, let relative = entry.relativePath, Self.isBareRepository(anchor, relative) {
                entry.reason =
                    "a git repository, kept whole"
                    + (entry.reason.split(separator: ":", maxSplits: 1).last.map { ":" + $0 } ?? "")
            }
            return entry
        }
    }

    func locate(url: String, _ context: InspectionContext) throws -> CacheEntry? {
        guard URLKey(url) != nil else { throw StoreError.notAURL(url) }
        return nil
    }
}
