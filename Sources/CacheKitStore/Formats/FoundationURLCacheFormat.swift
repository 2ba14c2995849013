import Foundation

/// swift-corelibs-foundation's URLCache, what URLSession writes on Linux:
/// `~/.cache/org.swift.foundation.URLCache/<bundle id or process name>/`, one flat file per
/// response, `<seconds since 2001 as Int64>.<identifier>.storedcachedurlresponse`, no index.
/// Every fact is from swift-corelibs-foundation@249a466c Sources/FoundationNetworking/
/// URLCache.swift (line numbers as in shared/reference/cache-layouts.md §2):
/// - `identifier` = standard Base64 of the lower-cased host, NUL, the port or -1, NUL, the
///   URL's path, NUL (`identifier(for:)`, :354-371): scheme and query are not in the key;
/// - a file is an entry only when its name splits into exactly those two parts
///   (`DiskEntry.init`, :374-394), listed in the app folder only (`contentsOfDirectory`);
/// - each file is an NSKeyedArchiver archive of `response`, `data`, `storagePolicy`,
///   `userInfo`, `date` (`StoredCachedURLResponse.encode`, :55-61); written `.atomic` through a
///   `.dat.nosync<pid>.XXXXXX` temporary (an incomplete write when left behind);
/// - eviction: oldest name date first, by file size, while the total exceeds the capacity
///   (`evictFromDiskCache`, :284-301) — down to the capacity itself; of several files of one
///   identifier only the newest is kept (:517-531); default capacity 20 MiB.
/// Freshness is HTTPURLProtocol's (HTTPURLProtocol.swift:119-247): expiry = min(Date, stored
/// date) + max-age, else `Expires` (unparsable = expired); with neither it never expires.
struct FoundationURLCacheFormat: CacheFormat {
    static let folderName = "org.swift.foundation.URLCache"
    static let suffix = ".storedcachedurlresponse"
    static let referenceDate: Double = 978_307_200  // 2001-01-01 in Unix time
    let anchor: AnchoredDirectory
    var kind: CacheFormatKind { .foundationurlcache }

    var sizeRule: SizeRule {
        SizeRule(
            ratio: 1.0, metric: .apparent, trimsAtLimit: false, stopsStrictlyBelow: false,
            owner: "swift-corelibs-foundation URLCache: oldest first by file size while the total exceeds the capacity "
                + "(URLCache.swift:284-301)")
    }

    /// `<Int64>.<identifier>.storedcachedurlresponse` → (date, identifier).
    static func parseName(_ name: [UInt8]) -> (date: Double, identifier: String)? {
        let text = String(decoding: name, as: UTF8.self)
        guard text.lowercased().hasSuffix(suffix) else { return nil }
        let parts = text.dropLast(suffix.count).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let seconds = Int64(parts[0]) else { return nil }
        return (Double(seconds) + referenceDate, String(parts[1]))
    }

    /// The identifier the cache files a URL under.
    static func identifier(for url: String) -> String? {
        guard let components = URLComponents(string: url), let host = components.host else { return nil }
        var bytes = Array(host.lowercased().utf8) + [0]
        bytes += Array("\(components.port ?? -1)".utf8) + [0]
        bytes += Array((components.path.removingPercentEncoding ?? components.path).utf8) + [0]
        return Data(bytes).base64EncodedString()
    }

    func entries(_ context: InspectionContext) throws -> [CacheEntry] {
        let files = FileTree.files(in: anchor, recursive: true)
        // The newest file of each identifier in each folder is the live one.
        var newest: [String: Double] = [:]
        for file in files {
            if let (date, id) = Self.parseName(AnchoredDirectory.split(file.anchorRelative).name) {
                let key =
                    String(decoding: AnchoredDirectory.split(file.anchorRelative).parent, as: UTF8.self) + "/" + id
                newest[key] = max(newest[key] ?? -.infinity, date)
            }
        }
        return files.map { file in
            let name = AnchoredDirectory.split(file.anchorRelative).name
            var entry = CacheEntry(
                url: nil, path: file.path, relativePath: file.anchorRelative, allocatedBytes: file.allocatedBytes,
                apparentBytes: file.apparentBytes, modified: file.modified, state: .fresh, reason: "")
            entry.identity = file.identity
            guard let (date, id) = Self.parseName(name) else {
                if name.starts(with: Array(".dat.nosync".utf8)) {
                    let old = context.isOlderThanGrace(file.lastWritten)
                    (entry.state, entry.reason) =
                        old
                        ? (.incomplete, "a temporary of an interrupted write")
                        : (.fresh, "being written (within the grace period)")
                    entry.inGracePeriod = !old
                } else {
                    entry.reason = "not a URLCache file: kept"
                    entry.removedOnlyWhenNamed = true
                }
                return entry
            }
            entry.lastAccess = FileTime(timeInterval: date)  // the clock URLCache evicts by
            let key = String(decoding: AnchoredDirectory.split(file.anchorRelative).parent, as: UTF8.self) + "/" + id
            if let latest = newest[key], latest > date {
                (entry.state, entry.reason) = (
                    .expired, "a newer response for the same URL is stored; URLCache keeps only the newest"
                )
                return entry
            }
            guard case .success(let bytes) = anchor.readAll(file.anchorRelative),
                let archive = KeyedArchive.decode(bytes)
            else {
                (entry.state, entry.reason) = (.corrupted, "not a readable keyed archive (URLCache cannot read it)")
                return entry
            }
            let response = archive["response"]
            entry.url = Self.url(of: response)
            let headers = Self.headers(of: response)
            let stored = archive["date"]?.double.map { $0 + Self.referenceDate } ?? date
            let expiry = Self.expiry(headers, stored: stored)
            entry.expires = expiry.map(FileTime.init(timeInterval:))
            if let expiry, expiry <= context.now.timeInterval {
                (entry.state, entry.reason) = (.expired, "past its expiry (URLCache deletes it on the next read)")
            } else {
                entry.reason = expiry == nil ? "no max-age or Expires: never expires" : "fresh until its expiry"
            }
            return entry
        }
    }

    /// HTTPURLProtocol's expiry: min(Date, stored) + max-age, else Expires (unparsable:
    /// expired), else none.
    static func expiry(_ headers: [String: String], stored: Double) -> Double? {
        let directives = CacheControl(headers["cache-control"] ?? "")
        if let maxAge = directives.seconds("max-age") {
            let date = headers["date"].flatMap(HTTPDate.parse).map { min($0, stored) } ?? stored
            return date + maxAge
        }
        if let expires = headers["expires"] { return HTTPDate.parse(expires) ?? 0 }
        return nil
    }

    static func headers(of response: PlistValue?) -> [String: String] {
        var out: [String: String] = [:]
        for (name, value) in response?["NS.allHeaderFields"]?.dictionary ?? [:] {
            if let text = value.string { out[name.lowercased()] = text }
        }
        return out
    }

    /// The response's URL (`NS.url`: an archived NSURL, `NS.relative` against `NS.base`).
    static func url(of response: PlistValue?) -> String? {
        guard let url = response?["NS.url"] else { return nil }
        if let text = url.string { return text }
        return url["NS.relative"]?.string
    }

    func locate(url: String, _ context: InspectionContext) throws -> CacheEntry? {
        guard URLKey(url) != nil else { throw StoreError.notAURL(url) }
        guard let id = Self.identifier(for: url) else { return nil }
        let candidates = try entries(context).filter { entry in
            entry.relativePath.flatMap { Self.parseName(AnchoredDirectory.split($0).name) }?.identifier == id
        }
        guard
            var best = candidates.max(by: {
                ($0.lastAccess ?? FileTime(seconds: 0)) < ($1.lastAccess ?? FileTime(seconds: 0))
            })
        else {
            return nil
        }
        best.inlineBody = true
        best.url = url
        return best
    }

    /// The body is the archive's `data`.
    func inlineBody(_ entry: CacheEntry) throws -> [UInt8]? {
        guard let relative = entry.relativePath, case .success(let bytes) = anchor.readAll(relative),
            let archive = KeyedArchive.decode(bytes)
        else { return nil }
        return archive["data"]?.data
    }
}
