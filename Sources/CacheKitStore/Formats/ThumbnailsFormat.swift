import Foundation

/// The freedesktop.org Thumbnail Managing Standard: `thumbnails/{normal,large,x-large,
/// xx-large}` of `md5(URI).png`, and `fail/<app>/` for failed attempts (live spec §4.1;
/// stefwalter/xdg-specs@e9be1b76 thumbnail/thumbnail-spec.sgml:417-445, :610-625). Each PNG
/// carries `Thumb::URI` and `Thumb::MTime` in tEXt chunks (sgml:276-370). A thumbnail is
/// stale when its `file:` source no longer exists or the source's modification time is not
/// `Thumb::MTime` — inequality, and a missing MTime is stale too (sgml:550-575); one of a
/// remote source not read for 30 days may go (sgml:632-680). Writers write a temporary name
/// and rename (sgml:478-503), so another file left in a size folder past the grace period is
/// an interrupted write. Facts: shared/reference/cache-layouts.md §3.
struct ThumbnailsFormat: CacheFormat {
    let anchor: AnchoredDirectory
    var kind: CacheFormatKind { .thumbnails }
    static let sizeFolders = ["normal", "large", "x-large", "xx-large", "fail"]
    static let remoteAgeLimit: Double = 30 * 86_400

    /// `thumbnails/` holding a size folder, or one size folder of it: by the path as given
    /// or as it resolves (a `~/.cache/thumbnails` that links to a folder on another disk).
    static func recognises(_ anchor: AnchoredDirectory) -> Bool {
        [anchor.path, anchor.canonicalPath].contains { path in
            let parts = path.bytes.split(separator: UInt8(ascii: "/")).map { String(decoding: $0, as: UTF8.self) }
            guard let last = parts.last else { return false }
            if last == "thumbnails" || last == ".thumbnails" {
                return sizeFolders.contains { anchor.exists(Array($0.utf8)) }
            }
            return parts.count >= 2 && ["thumbnails", ".thumbnails"].contains(parts[parts.count - 2])
                && sizeFolders.contains(last)
        }
    }

    func entries(_ context: InspectionContext) throws -> [CacheEntry] {
        FileTree.files(in: anchor).compactMap { file in
            let name = String(decoding: file.path.lastComponent, as: UTF8.self)
            if name == CacheDirTag.fileName { return nil }
            var entry = CacheEntry(
                url: nil, path: file.path, relativePath: file.anchorRelative, allocatedBytes: file.allocatedBytes,
                apparentBytes: file.apparentBytes, modified: file.modified, lastAccess: file.accessed,
                state: .fresh, reason: "")
            entry.identity = file.identity
            guard name.hasSuffix(".png"), file.isRegular else {
                let old = context.isOlderThanGrace(file.lastWritten)
                (entry.state, entry.reason) =
                    old
                    ? (.incomplete, "not a thumbnail: a temporary left by an interrupted write")
                    : (.fresh, "being written (within the grace period)")
                entry.inGracePeriod = !old
                return entry
            }
            if case .image(let verdict) = FileKind.of(file, in: anchor),
                let health = ImageHealth.state(verdict, file, context)
            {
                (entry.state, entry.reason, entry.inGracePeriod) = health
                return entry
            }
            guard case .success(let bytes) = anchor.readAll(file.anchorRelative),
                ImageSignature.kind(ofPrefix: bytes) == .png
            else {
                (entry.state, entry.reason) = (.corrupted, "not a PNG")
                return entry
            }
            let text = Self.textChunks(bytes)
            entry.url = text["Thumb::URI"]
            (entry.state, entry.reason) = Self.state(
                uri: text["Thumb::URI"], mtime: text["Thumb::MTime"], accessed: file.accessed, context)
            return entry
        }
    }

    /// The spec's rule for one thumbnail.
    static func state(uri: String?, mtime: String?, accessed: FileTime, _ context: InspectionContext) -> (
        EntryState, String
    ) {
        guard let uri, !uri.isEmpty else { return (.expired, "no Thumb::URI: no source can claim it") }
        guard uri.lowercased().hasPrefix("file://") else {
            let idle = context.now.timeInterval - accessed.timeInterval
            return idle > remoteAgeLimit
                ? (.expired, "remote source, not read for \(NativeStore.span(idle)) (the spec suggests 30 days)")
                : (.fresh, "remote source, read within 30 days")
        }
        guard let path = sourcePath(uri) else { return (.expired, "Thumb::URI is not a usable file URI") }
        switch Sys.stat(path: path) {
        case .failure(let error) where error == .noEntry || error == .notDirectory:
            if let volume = unmountedVolume(of: path) {
                // Removable media not mounted now: the spec's rule for remote sources.
                let idle = context.now.timeInterval - accessed.timeInterval
                return idle > remoteAgeLimit
                    ? (
                        .expired,
                        "its source is on \(volume.quoted), not mounted, and not read for \(NativeStore.span(idle))"
                    )
                    : (.fresh, "its source is on \(volume.quoted), not mounted now: kept 30 days from its last read")
            }
            return (.expired, "its source \(path.quoted) no longer exists")
        case .failure(let error):
            return (.fresh, "its source cannot be checked (\(error.description)): kept")
        case .success(let st):
            guard let text = mtime, let recorded = Int64(text.trimmingCharacters(in: .whitespaces)) else {
                return (.expired, "no Thumb::MTime: stale by the spec")
            }
            return recorded == st.modified.seconds
                ? (.fresh, "its source is unchanged since the thumbnail was made")
                : (.expired, "its source changed since (Thumb::MTime \(recorded), now \(st.modified.seconds))")
        }
    }

    /// The removable volume a path lies on (`/media/<volume>`, `/media/<user>/<volume>`,
    /// `/run/media/<user>/<volume>`, `/mnt/<volume>`) when it is not mounted now (missing, or on
    /// its parent's device); nil for any other path. The spec keeps thumbnails of removable
    /// media as it keeps remote ones: until not read for 30 days (thumbnail-spec.sgml:632-680).
    static func unmountedVolume(of path: RawPath) -> RawPath? {
        let parts = path.bytes.split(separator: UInt8(ascii: "/")).map(Array.init)
        let depth: Int
        switch parts.first.map({ String(decoding: $0, as: UTF8.self) }) {
        case "media", "mnt": depth = 2
        case "run" where parts.count > 1 && parts[1] == Array("media".utf8): depth = 4
        default: return nil
        }
        func prefix(_ count: Int) -> RawPath {
            RawPath(bytes: parts[..<count].flatMap { [UInt8(ascii: "/")] + $0 })
        }
        // The file's folders from the volume's level down (one more: `/media/<user>/<volume>`,
        // as udisks2 mounts them): missing means not mounted; a mount point means mounted, so
        // the source is really gone; a folder on its parent's device is looked below.
        guard parts.count > depth else { return nil }
        var level = depth
        while level <= min(depth + 1, parts.count - 1) {
            let volume = prefix(level)
            guard case .success(let st) = Sys.stat(path: volume) else { return volume }
            guard case .success(let above) = Sys.stat(path: volume.parentDirectory), st.device == above.device else {
                return nil
            }
            level += 1
        }
        return prefix(level - 1)
    }

    /// The local path of a `file://` URI (host empty or `localhost`), percent-decoded bytes.
    static func sourcePath(_ uri: String) -> RawPath? {
        var rest = Array(uri.utf8.dropFirst(7))
        if rest.first != UInt8(ascii: "/") {
            guard let slash = rest.firstIndex(of: UInt8(ascii: "/")),
                String(decoding: rest[..<slash], as: UTF8.self).lowercased() == "localhost"
            else { return nil }
            rest = Array(rest[slash...])
        }
        var out: [UInt8] = []
        var i = 0
        while i < rest.count {
            if rest[i] == UInt8(ascii: "%"), i + 2 < rest.count,
                let byte = UInt8(String(decoding: rest[i + 1...i + 2], as: UTF8.self), radix: 16)
            {
                out.append(byte)
                i += 3
            } else {
                out.append(rest[i])
                i += 1
            }
        }
        guard !out.contains(0) else { return nil }
        return RawPath(bytes: out)
    }

    /// tEXt keyword → text (Latin-1) of a PNG, read up to the first IDAT.
    static func textChunks(_ bytes: [UInt8]) -> [String: String] {
        var out: [String: String] = [:]
        var offset = 8
        while offset + 12 <= bytes.count {
            let length =
                Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
                | Int(bytes[offset + 3])
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            let start = offset + 8
            guard length >= 0, length <= bytes.count - start - 4 else { break }
            if type == "IDAT" || type == "IEND" { break }
            if type == "tEXt", let nul = bytes[start..<start + length].firstIndex(of: 0) {
                let key = String(decoding: bytes[start..<nul], as: UTF8.self)
                out[key] = String(bytes[(nul + 1)..<(start + length)].map { Character(Unicode.Scalar($0)) })
            }
            offset = start + length + 4
        }
        return out
    }

    func locate(url: String, _ context: InspectionContext) throws -> CacheEntry? {
        // Thumbnails are named by the MD5 of their source's URI.
        let name = Digest.md5(url) + ".png"
        for folder in Self.sizeFolders.dropLast() {
            let relative = Array("\(folder)/\(name)".utf8)
            if anchor.exists(relative) { return try entries(context).first { $0.relativePath == relative } }
        }
        return nil
    }
}
