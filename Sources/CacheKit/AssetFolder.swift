import CacheKitSystem

/// A page's own folder of the files it shows (`page_files/`, as browsers' "save page"
/// makes): each cached body a page is pointed at is placed there once, under a readable,
/// unique, sanitised name taken from its URL — as a hard link to the cache's body when they
/// share a file system (the same bytes on disk, which outlive a prune of the cache), else as
/// a copy. So the saved page no longer depends on the cache.
public final class AssetFolder: CopyPlacer {
    let directory: RawPath
    private var placed: [RawPath: RawPath] = [:]
    private var names: Set<[UInt8]> = []
    /// Names of the files `placeBytes` wrote, by URL.
    private var written: [String: [UInt8]] = [:]
    /// Bodies hard-linked into the folder (sharing the cache's bytes).
    public private(set) var linked = 0
    /// Bodies copied into the folder (where a link is not possible).
    public private(set) var copied = 0

    /// A folder to place copies in (created when the first copy is placed).
    public init(_ directory: RawPath) { self.directory = directory }

    /// The folder, made on first use, as an absolute path without symlinks (local
    /// references are computed from absolute paths).
    private var made: RawPath?
    private func madeDirectory() -> RawPath? {
        if let made { return made }
        guard (try? FileIO.makeDirectories(directory)) != nil else { return nil }
        made = directory.canonical
        return made
    }

    /// The asset for `body` (the cached file) fetched from `url`; nil when it cannot be
    /// placed (then the page points at the cache, as without assets).
    public func place(_ body: RawPath, url: String) -> RawPath? {
        if let known = placed[body] { return known }
        guard let directory = madeDirectory() else { return nil }
        let (stem, ext) = Self.readableName(for: url)
        var attempt = 1
        while attempt < 1000 {
            let name =
                Array((attempt == 1 ? stem : "\(stem)-\(attempt)").utf8) + (ext.map { Array(".\($0)".utf8) } ?? [])
            attempt += 1
            guard !names.contains(name) else { continue }
            let target = directory.appending(name)
            if case .success(let existing) = Sys.lstat(path: target) {
                // Kept from an earlier run when it is this very body (a link to it, or the
                // same bytes); another file of that name is never replaced.
                guard existing.isRegular, Self.sameContent(target, body) else { continue }
                names.insert(name)
                placed[body] = target
                return target
            }
            if case .success = Sys.link(body, target) {
                linked += 1
            } else {
                guard let bytes = try? FileIO.readAll(body),
                    (try? FileIO.writeAtomically(target, bytes, mode: 0o644)) != nil
                else { return nil }
                copied += 1
            }
            names.insert(name)
            placed[body] = target
            return target
        }
        return nil
    }

    /// Writes `bytes` (a rewritten stylesheet) under a readable unique name from `url`, with
    /// the extension `ext`; a file of that name with the same bytes is reused.
    public func placeBytes(_ bytes: [UInt8], url: String, ext: String) -> RawPath? {
        guard let directory = madeDirectory() else { return nil }
        if let name = written[url] {
            // Written by this folder before (an earlier pass): replaced with the newer bytes.
            let target = directory.appending(name)
            return (try? FileIO.writeAtomically(target, bytes, mode: 0o644)) != nil ? target : nil
        }
        let stem = Self.readableName(for: url).stem
        for attempt in 1..<1000 {
            let name = Array((attempt == 1 ? stem : "\(stem)-\(attempt)").utf8) + Array(".\(ext)".utf8)
            guard !names.contains(name) else { continue }
            let target = directory.appending(name)
            if case .success(let existing) = Sys.lstat(path: target) {
                guard existing.isRegular, (try? FileIO.readAll(target)) == bytes else { continue }
            } else {
                guard (try? FileIO.writeAtomically(target, bytes, mode: 0o644)) != nil else { return nil }
                copied += 1
            }
            names.insert(name)
            written[url] = name
            return target
        }
        return nil
    }

    /// The URL's last path segment, percent-decoded, with every byte other than ASCII
    /// letters, digits, `-` and `_` made `_`, at most 80 bytes, never hidden; its extension
    /// (letters and digits, at most 8) kept apart.
    static func readableName(for url: String) -> (stem: String, ext: String?) {
        let parsed = StandardURL(url)
        let segment =
            parsed.flatMap { $0.hasOpaquePath ? nil : $0.path.split(separator: "/").last.map(String.init) } ?? ""
        let decoded = HostParser.percentDecode(Array(segment.utf8))
        var ext: String?
        var stemBytes = decoded[...]
        if let dot = decoded.lastIndex(of: UInt8(ascii: ".")), dot > 0 {
            let candidate = decoded[(dot + 1)...]
            if !candidate.isEmpty, candidate.count <= 8, candidate.allSatisfy({ isLetterOrDigit($0) }) {
                ext = String(decoding: candidate.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
                stemBytes = decoded[..<dot]
            }
        }
        var stem = String(
            decoding: stemBytes.prefix(80).map {
                isLetterOrDigit($0) || $0 == UInt8(ascii: "-") ? $0 : UInt8(ascii: "_")
            },
            as: UTF8.self)
        if stem.isEmpty || stem.allSatisfy({ $0 == "_" }) { stem = "file" + (stem.isEmpty ? "" : stem) }
        return (stem, ext ?? parsed.flatMap { $0.pathExtension })
    }

    private static func isLetterOrDigit(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c | 0x20 >= 0x61 && c | 0x20 <= 0x7A)
    }

    private static func sameContent(_ a: RawPath, _ b: RawPath) -> Bool {
        guard case .success(let sa) = Sys.stat(path: a), case .success(let sb) = Sys.stat(path: b) else { return false }
        if sa.device == sb.device && sa.inode == sb.inode { return true }
        guard sa.size == sb.size, let x = try? FileIO.readAll(a), let y = try? FileIO.readAll(b) else { return false }
        return x == y
    }
}
