import CacheKitSystem

/// huggingface_hub 2.x's cache-wide store of Xet payloads (huggingface/huggingface_hub
/// src/huggingface_hub/utils/_shared_blobs.py, as 2.4.0 ships it): `<hub>/blobs/`, marked by a
/// regular file `.huggingface-shared-blobs` holding `1\n` (`is_shared_blobs_dir`), holds each
/// payload at `blobs/<2 hex>/<64 hex xet hash>` (`shared_blob_path`), a regular file. A
/// repository's `blobs/<etag>` is then a relative symlink to it, and the payload's manifest
/// `<hash>.refs` lists those symlinks (`<repo folder>/blobs/<etag>`, a line each), appended
/// and flushed before a symlink appears, under the lock `<hash>.lock` (`_shared_blob_lock`,
/// `_append_manifest_reference`, `publish_blob_to_shared_store`).
///
/// The owner's rule (`sweep_shared_blob`, `unreferenced_shared_blobs`, used by
/// `delete_revisions` and `hf cache prune`): under the lock, a payload whose manifest names no
/// symlink that still points at it goes, with its manifest; a payload with a missing or
/// unreadable manifest never goes ("leak rather than risk"). cachectl is stricter still: a
/// payload any repository's blob links stays, whatever the manifest says.
struct HuggingFaceSharedStore {
    let anchor: AnchoredDirectory
    static let folder = Array("blobs".utf8)
    static let marker = Array(".huggingface-shared-blobs".utf8)
    /// Manifests larger than this are not read (one line per linking blob: 1 MiB is over
    /// 10,000 of them): such a payload is kept, as one with an unreadable manifest.
    static let largestManifest = 1 << 20

    /// The store of the hub cache at `anchor`, when it has a marked one.
    init?(_ anchor: AnchoredDirectory) {
        let slash = [UInt8(ascii: "/")]
        guard case .success(let folder) = anchor.status(of: Self.folder), folder.isDirectory,
            case .success(let marker) = anchor.status(of: Self.folder + slash + Self.marker), marker.isRegular,
            case .success(let text) = anchor.readPrefix(Self.folder + slash + Self.marker, count: 16),
            text == Array("1\n".utf8)
        else { return nil }
        self.anchor = anchor
    }

    /// Whether `name` is a Xet hash as the store names payloads: 64 lower-case hex digits.
    static func isHash(_ name: some Collection<UInt8>) -> Bool {
        name.count == 64 && name.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// The payload (`blobs/<xx>/<hash>`) a repository's blob (`<repo>/blobs/<etag>`, below
    /// the hub) points at, read off the symlink as `_shared_blob_target` reads it: the target
    /// taken from the link's folder, `.` and `..` resolved by name, must name `blobs/<xx>/<hash>`
    /// of this hub with `<xx>` the hash's start. A link written otherwise (an absolute target,
    /// one that climbs out and back) still holds the payload its last three names give: kept
    /// for nothing at worst, where reading it otherwise could delete what a link still needs.
    func payload(linkedBy blob: [UInt8]) -> [UInt8]? {
        guard case .success(let target) = anchor.readLink(blob) else { return nil }
        let slash = UInt8(ascii: "/")
        if target.first != slash {
            var parts = blob.split(separator: slash).dropLast().map { $0 }
            var inside = true
            for part in target.split(separator: slash) where inside { inside = Self.step(&parts, part) }
            if inside, let payload = Self.payload(parts) { return payload }
        }
        let names = target.split(separator: slash).filter { !$0.elementsEqual([UInt8(ascii: ".")]) }
        return Self.payload(Array(names.suffix(3)))
    }

    /// `blobs/<xx>/<hash>` when `parts` name it.
    private static func payload(_ parts: [ArraySlice<UInt8>]) -> [UInt8]? {
        guard parts.count == 3, parts[0].elementsEqual(folder), parts[1].count == 2, isHash(parts[2]),
            parts[2].starts(with: parts[1])
        else { return nil }
        return Array(parts.joined(separator: [UInt8(ascii: "/")]))
    }

    /// One name of a path resolved by name; false when `..` climbs out of the hub.
    private static func step(_ parts: inout [ArraySlice<UInt8>], _ part: ArraySlice<UInt8>) -> Bool {
        if part.elementsEqual([UInt8(ascii: ".")]) { return true }
        if part.elementsEqual(Array("..".utf8)) {
            guard !parts.isEmpty else { return false }
            parts.removeLast()
            return true
        }
        parts.append(part)
        return true
    }

    /// The store's payloads, given the repositories' blobs that link each (by payload path).
    /// The second element: the payloads that may go once nothing links them (their manifest
    /// can be read); a holder keeps the others in its `holds` for nothing.
    func entries(linkedBy links: [[UInt8]: [[UInt8]]], _ context: InspectionContext)
        -> (entries: [CacheEntry], collectable: Set<[UInt8]>)
    {
        let slash = [UInt8(ascii: "/")]
        var result: [CacheEntry] = []
        var collectable = Set<[UInt8]>()
        for prefix in FileTree.subdirectories(in: anchor, of: Self.folder) where prefix.count == 2 {
            let folder = Self.folder + slash + prefix
            let files = FileTree.files(in: anchor, under: folder, recursive: false)
            let byName = Dictionary(files.map { ($0.relative, $0) }) { a, _ in a }
            for file in files where file.isRegular && Self.isHash(file.relative) && file.relative.starts(with: prefix) {
                let manifest = byName[file.relative + Array(".refs".utf8)]
                let linking = links[file.anchorRelative] ?? []
                var entry = CacheEntry(
                    url: nil, path: file.path, relativePath: file.anchorRelative,
                    allocatedBytes: file.allocatedBytes + (manifest?.allocatedBytes ?? 0),
                    apparentBytes: file.apparentBytes + (manifest?.apparentBytes ?? 0), modified: file.modified,
                    lastAccess: file.accessed, state: .fresh, reason: "")
                entry.identity = file.identity
                entry.ownerLock = file.anchorRelative + Array(".lock".utf8)
                if let manifest {
                    entry.companions.append(.init(relativePath: manifest.anchorRelative, identity: manifest.identity))
                }
                guard let manifest, manifest.isRegular, let named = readManifest(manifest) else {
                    entry.removedOnlyWhenNamed = true
                    let name = String(decoding: file.relative, as: UTF8.self)
                    entry.reason =
                        "a shared Xet payload without a readable manifest (\(name).refs):"
                        + " huggingface_hub never collects it, nor does cachectl"
                    result.append(entry)
                    continue
                }
                collectable.insert(file.anchorRelative)
                let holders = Set(linking).union(named.filter(mayHold))
                if !holders.isEmpty {
                    let sorted = holders.sorted { $0.lexicographicallyPrecedes($1) }
                    let shown = sorted.prefix(3).map { String(decoding: $0, as: UTF8.self) }.joined(separator: ", ")
                    entry.removedOnlyWhenNamed = true
                    let blobs = holders.count == 1 ? "1 repository blob" : "\(holders.count) repository blobs"
                    entry.reason =
                        "a shared Xet payload linked by \(blobs) (\(shown)\(holders.count > 3 ? ", …" : "")):"
                        + " it goes after the last of them"
                } else if context.isOlderThanGrace(max(file.lastWritten, manifest.lastWritten)) {
                    (entry.state, entry.reason) = (
                        .orphan, "a shared Xet payload no repository blob links: hf cache prune deletes it"
                    )
                } else {
                    (entry.state, entry.reason) = (.fresh, "a shared Xet payload written within the grace period")
                    entry.inGracePeriod = true
                }
                result.append(entry)
            }
        }
        return (result, collectable)
    }

    /// Whether a blob a manifest names may hold its payload: anything there does. The hub
    /// counts only a link to the payload; a blob there that is not one (the downloaded file
    /// while the hub publishes it, until the link replaces it) goes first by its own rule, and
    /// the payload after it. A blob that cannot be looked at (reached through a symlinked
    /// repository folder, which the hub follows) holds it too. Only a blob that is gone lets
    /// the payload go.
    private func mayHold(_ blob: [UInt8]) -> Bool {
        if case .failure(let error) = anchor.status(of: blob), error == .noEntry { return false }
        return true
    }

    /// The repository blobs a manifest names, as paths below the hub (`a//b` and `./` read as
    /// pathlib reads them); nil when it cannot be read whole.
    private func readManifest(_ manifest: FileTree.File) -> Set<[UInt8]>? {
        guard manifest.apparentBytes <= Self.largestManifest,
            case .success(let bytes) = anchor.readPrefix(manifest.anchorRelative, count: Self.largestManifest + 1),
            bytes.count <= Self.largestManifest, String(validating: bytes, as: UTF8.self) != nil
        else { return nil }
        var named = Set<[UInt8]>()
        for line in bytes.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D }) where line.first != UInt8(ascii: "/") {
            let parts = line.split(separator: UInt8(ascii: "/")).filter { !$0.elementsEqual([UInt8(ascii: ".")]) }
            guard parts.count == 3, !parts.contains(where: { $0.elementsEqual(Array("..".utf8)) }) else { continue }
            named.insert(Array(parts.joined(separator: [UInt8(ascii: "/")])))
        }
        return named
    }
}
