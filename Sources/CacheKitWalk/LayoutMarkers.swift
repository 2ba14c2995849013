#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The names that suggest a recognised cache layout, tested on the names `du`'s one walk
/// reads anyway (no extra system call); a directory they mark is confirmed by
/// `CacheFormats.detectByMarkers` before it is shown as a cache of its own.
enum LayoutMarkers {
    /// Marker files: cachectl's index, the plist index, Apple's `Cache.db`, Nuke's info file,
    /// Go's README, ccache's configuration, Chromium's index, clang's prune stamp.
    static let files: Set<[UInt8]> = Set(
        [
            "index.sqlite", "CachedDownloads.dic", "Cache.db", ".data-cache-info", "README",
            "ccache.conf", "index", "modules.timestamp"
        ].map { Array($0.utf8) })
    static let fileLengths: Set<Int> = Set(files.map(\.count))
    /// Marker subdirectories: pip's, npm's, Chromium's index folder, thumbnails' sizes, uv's
    /// archive bucket.
    static let directories: Set<[UInt8]> = Set(
        [
            "http-v2", "wheels", "index-v5", "content-v2", "index-dir", "entries", "doomed", "normal", "large",
            "x-large", "xx-large", "archive-v0"
        ].map { Array($0.utf8) })
    /// Hugging Face repositories.
    static let directoryPrefixes: [[UInt8]] = ["models--", "datasets--", "spaces--"].map { Array($0.utf8) }
    /// Folder names libraries and tools choose (clang's module cache: `ModuleCache`, and
    /// Xcode's `ModuleCache.noindex`).
    static let folderNames: [[UInt8]] = [
        "com.hackemist.SDImageCache", "com.onevcat.Kingfisher", "com.pinterest.PINDiskCache",
        "com.github.kean.Nuke.DataCache", "org.swift.foundation.URLCache", "thumbnails", "repositories",
        "ModuleCache"
    ].map { Array($0.utf8) }

    static func bytes(_ name: UnsafePointer<CChar>) -> [UInt8] {
        Array(
            UnsafeBufferPointer(start: UnsafeRawPointer(name).assumingMemoryBound(to: UInt8.self), count: strlen(name)))
    }

    static func isMarkerFile(_ name: UnsafePointer<CChar>) -> Bool {
        let length = strlen(name)
        guard fileLengths.contains(length) else { return false }
        return files.contains(bytes(name))
    }

    static func noteDirectory(_ name: UnsafePointer<CChar>, marked: inout Bool, hexChildren: inout Int) {
        let length = strlen(name)
        if length == 1 {
            let c = UInt8(bitPattern: name[0])
            if (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) { hexChildren += 1 }  // ccache's 0…f
            return
        }
        guard length <= 64 else { return }
        let text = bytes(name)
        if directories.contains(text) || directoryPrefixes.contains(where: { text.starts(with: $0) }) { marked = true }
    }

    static func isMarkerFolderName(_ name: [UInt8]) -> Bool {
        folderNames.contains { marker in
            name.count >= marker.count
                && (0...(name.count - marker.count)).contains { name[$0..<($0 + marker.count)].elementsEqual(marker) }
        }
    }
}
