import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

extension Fetcher {
    /// RFC 9111 §4.2.2's heuristically cacheable statuses other than 200 and 203 (which are
    /// content): kept as negative answers when explicitly fresh.
    static let keptNegativeStatuses: Set<Int> = [204, 300, 301, 308, 404, 405, 410, 414, 501]

    /// Bodies up to this size are kept in memory until their batch is committed (written
    /// once, straight to their place); longer ones stream to `tmp/`. With `--jobs` downloads
    /// and the commit queue's 64 MiB of waiting bodies, at most 65 MiB at the default of 8 jobs.
    static let inMemoryBodyLimit = 128 << 10

    /// Downloads at once at most, each with a thread of its own (curl's `--parallel-max` is
    /// 300).
    static let maxLanes = 256
}

/// Downloads URLs into a native store: fresh entries are served without a request, expired
/// ones with validators are revalidated, the rest downloaded (concurrently, each distinct
/// URL once), streamed to `tmp/` and committed only when complete.
///
/// The library never prints: progress goes to the `progress` callback.
public final class Fetcher: @unchecked Sendable {
    // @unchecked Sendable: immutable after `init` (its pool and store are Sendable themselves).
    /// The store responses are cached in.
    public let store: NativeStore
    /// How the fetcher requests and stores (see `FetchOptions` for defaults).
    public let options: FetchOptions
    private let pool: HTTPConnectionPool
    /// The headers every request sends: `User-Agent: cachectl` and `Accept-Encoding:
    /// identity` unless `--header` names them, then the `--header` ones.
    let requestHeaders: [(String, String)]
    /// The request's own Cache-Control, given with `--header` (RFC 9111 §5.2.1).
    let requestDirectives: CacheControl

    /// A fetcher for `store`; call `shutdown()` when done. `options` default to `FetchOptions()`.
    public init(store: NativeStore, options: FetchOptions = FetchOptions()) {
        self.store = store
        self.options = options
        func given(_ name: String) -> Bool { options.headers.contains { HTTPText.equals($0.name, lowercase: name) } }
        let agent = given("user-agent") ? [] : [("User-Agent", "cachectl")]
        // The bytes as they are (wget asks so too): without the field a server may compress
        // (RFC 9110 §12.5.3), and a compressed body would be stored as the file.
        let coding = given("accept-encoding") ? [] : [("Accept-Encoding", "identity")]
        requestHeaders = agent + coding + options.headers.map { ($0.name, $0.value) }
        requestDirectives = CacheControl(
            options.headers.filter { HTTPText.equals($0.name, lowercase: "cache-control") }.map(\.value)
                .joined(separator: ","))
        pool = HTTPConnectionPool(
            settings: .init(
                connectTimeout: .milliseconds(Int64(saturating: options.connectTimeout * 1000)),
                stallTimeout: .milliseconds(Int64(saturating: options.stallTimeout * 1000)),
                caFile: options.caFile, proxies: options.proxies))
    }

    /// Ends the fetcher's use. Each `fetch` closes its connections when it returns, so there
    /// is nothing left to close; kept so that callers need not know.
    public func shutdown() async {}

    /// Fetches `urls`; results in the same order (a repeated URL is fetched once, and its
    /// later occurrences marked `duplicate`).
    public func fetch(_ urls: [String], progress: (@Sendable (FetchProgress) -> Void)? = nil) async -> [FetchResult] {
        var firstIndex: [String: Int] = [:]
        var distinct: [Int] = []
        var keys: [String?] = []
        for (i, url) in urls.enumerated() {
            let key = URLKey(url)?.normalized
            keys.append(key)
            if let key {
                if firstIndex[key] == nil {
                    firstIndex[key] = i
                    distinct.append(i)
                }
            } else {
                distinct.append(i)
            }
        }
        let tracker = ProgressTracker(total: distinct.count, report: progress)
        var results = [FetchResult?](repeating: nil, count: urls.count)
        // The cache first, for every URL in one read: fresh entries need no task at all.
        let stored = (try? store.storedEntries(distinct.compactMap { keys[$0] })) ?? [:]
        var queued: [(index: Int, known: Known)] = []
        for index in distinct {
            let known: Known = keys[index].map { stored[$0].map(Known.entry) ?? .absent } ?? .unknown
            if case .entry(let entry) = known, let answer = answerFromCache(urls[index], entry) {
                results[index] = answer
                tracker.itemDone()
            } else {
                queued.append((index, known))
            }
        }
        let commits = CommitQueue(store: store)
        let run = Run(tracker: tracker, commits: commits, partials: Locked(store.hasPartials()))
        for (index, result) in await download(queued, urls: urls, run: run) { results[index] = result }
        let committed = await commits.finish()
        for i in results.indices {
            guard let ticket = results[i]?.commitTicket, let outcome = committed[ticket] else { continue }
            results[i]!.commitTicket = nil
            switch outcome {
            case .success(let record):
                guard results[i]!.outcome == .downloaded else { continue }
                results[i]!.path = store.root.appending(record.bodyPath)
                results[i]!.expires = record.expires.map(FileTime.init(timeInterval:))
            case .failure(let error):
                results[i] = failed(results[i]!, error)
            }
        }
        return urls.indices.map { i in
            if let result = results[i] { return result }
            var copy = results[firstIndex[keys[i]!]!]!
            copy.url = urls[i]
            copy.duplicate = true
            copy.unstoredBody = nil
            return copy
        }
    }

    /// Downloads the queued URLs in `--jobs` lanes, each a task on a thread of its own
    /// (`FetchLane`) taking the next queued URL; the results by index.
    private func download(_ pending: [(index: Int, known: Known)], urls: [String], run: Run) async -> [(
        Int, FetchResult
    )] {
        let taken = Locked(0)
        let wanted = min(max(1, options.jobs), pending.count, Self.maxLanes)
        // Fewer lanes where the system refuses threads; with none at all, one lane blocks one
        // of Swift's threads rather than nothing being fetched.
        let started = (0..<wanted).compactMap { _ in ThreadExecutor.start() }
        let lanes: [ThreadExecutor?] = started.isEmpty && wanted > 0 ? [nil] : started
        defer { for executor in lanes { executor?.stop() } }
        return await withTaskGroup(of: [(Int, FetchResult)].self) { group in
            for executor in lanes {
                let work: @Sendable () async -> [(Int, FetchResult)] = { [self] in
                    let lane = FetchLane()
                    defer { lane.closeAll() }
                    return await FetchLane.$current.withValue(lane) {
                        var done: [(Int, FetchResult)] = []
                        while let (index, known) = taken.withLock({ next -> (Int, Known)? in
                            guard next < pending.count else { return nil }
                            next += 1
                            return pending[next - 1]
                        }) {
                            done.append((index, await fetchOne(urls[index], known: known, run: run)))
                            run.tracker.itemDone()
                        }
                        return done
                    }
                }
                if let executor {
                    group.addTask(executorPreference: executor, operation: work)
                } else {
                    group.addTask(operation: work)
                }
            }
            var all: [(Int, FetchResult)] = []
            for await done in group { all += done }
            return all
        }
    }

    // MARK: One URL

    /// What the run's first read of the index knew of a URL.
    enum Known: Sendable {
        /// Not looked up (not a URL the store can key).
        case unknown
        case absent
        case entry(NativeStore.StoredEntry)
    }

    /// What one run shares among its downloads.
    struct Run: Sendable {
        let tracker: ProgressTracker
        let commits: CommitQueue
        /// Whether `tmp/` may hold a partial download to resume: it did when the run began,
        /// or the run kept one since.
        let partials: Locked<Bool>
    }

    /// The answer the cache alone gives for `url`: a fresh intact entry (or a kept negative
    /// answer), nil when a request is needed.
    private func answerFromCache(_ url: String, _ entry: NativeStore.StoredEntry) -> FetchResult? {
        var result = FetchResult(url: url, outcome: .failed)
        do {
            guard try cachedAnswer(url, entry, now: FileTime.now, into: &result) == nil, result.outcome == .hit else {
                return nil
            }
            return result
        } catch {
            return failed(result, error)
        }
    }

    /// Decides from a stored entry: fills `result` and returns nil when the entry answers
    /// (a fresh intact hit; a kept negative answer throws `storedStatus`), else the
    /// validators for a conditional request (nil inside when there are none: a plain
    /// download), as `.some`.
    private func cachedAnswer(
        _ url: String, _ entry: NativeStore.StoredEntry, now: FileTime,
        into result: inout FetchResult
    ) throws -> Revalidation?? {
        let hit = entry.hit
        guard entry.vary.map({ Self.varyLines($0, sending: requestHeaders) == $0 }) ?? true else { return .some(nil) }
        let intact = NativeFormat(store: store).entry(for: hit).state != .corrupted
        let directives = requestDirectives
        let fresh = hit.isFresh && Self.answers(directives, hit.record, now: now)
        if intact && fresh && entry.status != 200 && entry.status != 203 {
            // A kept negative answer (a 404 with max-age): the URL is not available.
            result.attempts = 0
            result.status = entry.status
            throw FetchError.storedStatus(entry.status)
        }
        if intact && fresh {
            if options.sliding || hit.record.sliding {
                try store.slide(url: url, lifetime: options.expires ?? hit.record.lifetimeSeconds, now: now)
            }
            let current = options.sliding || hit.record.sliding ? try store.lookup(url: url, now: now) ?? hit : hit
            result.attempts = 0
            result.outcome = .hit
            result.path = current.bodyPath
            result.expires = current.record.expires.map(FileTime.init(timeInterval:))
            return nil
        }
        // A request that says no-store stores no part of the response, a 304's fields included.
        if intact && !directives.has("no-store") && (hit.record.etag != nil || hit.record.lastModified != nil) {
            return .some(
                Revalidation(
                    etag: hit.record.etag, lastModified: hit.record.lastModified, lifetime: hit.record.lifetimeSeconds,
                    url: entry.validatorsURL))
        }
        return .some(nil)
    }

    /// Whether a fresh stored response may answer a request with these directives (RFC 9111
    /// §5.2.1): not with `no-cache` (it is revalidated), not older than `max-age` (its age
    /// counted from when its lifetime began), not with less than `min-fresh` left.
    static func answers(_ directives: CacheControl, _ record: NativeRecord, now: FileTime) -> Bool {
        if directives.has("no-cache") { return false }
        let now = now.timeInterval
        if let maxAge = directives.seconds("max-age") {
            let began = record.expires.flatMap { expires in record.lifetimeSeconds.map { expires - $0 } }
            guard let began = began ?? record.downloadCompleted, now - began <= maxAge else { return false }
        }
        if let minFresh = directives.seconds("min-fresh") {
            guard let expires = record.expires, expires - now >= minFresh else { return false }
        }
        return true
    }

    private func fetchOne(_ url: String, known: Known, run: Run) async -> FetchResult {
        var result = FetchResult(url: url, outcome: .failed)
        var attempt = 0
        var known = known
        while true {
            do {
                try Task.checkCancellation()
                try await fetchOne(url, known: known, into: &result, run: run)
                return result
            } catch {
                attempt += 1
                guard attempt <= options.retries, !Task.isCancelled,
                    let wait = retryWait(after: error, attempt: attempt)
                else {
                    return failed(result, error)
                }
                result = FetchResult(url: url, outcome: .failed)
                result.attempts = attempt
                known = .unknown  // looked up again: the entry may have changed meanwhile
                try? await Task.sleep(nanoseconds: UInt64(wait * 1_000_000_000))
            }
        }
    }

    /// How long to wait before retrying after `error`; nil when it is not worth a retry (a
    /// 4xx other than 408 and 429, a bad URL, a body over --max-body, the store).
    func retryWait(after error: Error, attempt: Int) -> Double? {
        let backoff = min(600, options.retryDelay * Double(1 << min(attempt - 1, 20)))
        if let status = error as? HTTPStatusError {
            guard status.code >= 500 || status.code == 408 || status.code == 429 else { return nil }
            return status.retryAfter.map { min(600, max(0, $0)) } ?? backoff
        }
        if let error = error as? FetchError {
            switch error {
            case .truncated: return backoff
            default: return nil
            }
        }
        if error is StoreError || error is CancellationError { return nil }
        return backoff  // the connection: refused, reset, timed out, stalled, closed early
    }

    private func failed(_ partial: FetchResult, _ error: Error) -> FetchResult {
        var result = partial
        result.outcome = .failed
        if error is CancellationError || Task.isCancelled {
            result.error = "interrupted"
            result.interrupted = true
            return result
        }
        do {
            throw error
        } catch let error as HTTPStatusError {
            result.status = error.code
            result.error = FetchError.http(error.code, error.reason).description
        } catch let error as FetchError {
            result.outcome = .failed
            result.error = error.description
        } catch let error as StoreError {
            result.outcome = .failed
            result.error = error.description
        } catch {
            result.outcome = .failed
            result.error = Self.describe(error)
        }
        return result
    }

    private func fetchOne(_ url: String, known: Known, into result: inout FetchResult, run: Run) async throws {
        guard let parsed = StandardURL(url) else { throw FetchError.malformedURL(StandardURL.failureReason(url)) }
        guard parsed.scheme == "http" || parsed.scheme == "https" else {
            throw FetchError.unsupportedScheme(parsed.scheme)
        }
        guard parsed.isHTTP else { throw FetchError.malformedURL(nil) }
        let now = FileTime.now
        result.attempts += 1
        // The cache first: a fresh, intact entry needs no request.
        var entry: NativeStore.StoredEntry?
        switch known {
        case .absent: entry = nil
        case .entry(let known): entry = known
        case .unknown:
            if let key = URLKey(url)?.normalized { entry = try store.storedEntries([key], now: now)[key] }
        }
        var validators: Revalidation?
        if let entry {
            guard let decision = try cachedAnswer(url, entry, now: now, into: &result) else { return }
            validators = decision
        }
        if requestDirectives.has("only-if-cached") {
            result.status = 504
            throw FetchError.notCached
        }
        // Body bytes received, reported for a download that fails too.
        let received = Locked<Int64>(0)
        do {
            do {
                try await request(parsed, originalURL: url, revalidation: validators, into: &result, run: run, received)
            } catch FetchError.otherRepresentation {
                // The 304 validated another representation than the stored one (§4.3.4): the
                // stored one cannot be renewed, so it is downloaded anew.
                try await request(parsed, originalURL: url, revalidation: nil, into: &result, run: run, received)
            } catch FetchError.resumeRefused {
                // The kept partial download is gone (discarded): the whole body, from the start.
                try await request(parsed, originalURL: url, revalidation: nil, into: &result, run: run, received)
            }
        } catch {
            result.bytesReceived = received.withLock { $0 }
            throw error
        }
    }

    /// What the redirects followed so far say about storing the final response under the URL
    /// asked for.
    struct Chain {
        /// Their least lifetime (a chain is as fresh as its least fresh hop).
        var lifetime: Double?
        /// Their `Vary` fields.
        var vary: [(name: String, value: String)] = []
        /// Where they led (the URL of the response stored under the one asked for); nil
        /// when none was followed.
        var target: String?
    }

    /// What a conditional request knows of the stored entry.
    struct Revalidation {
        var etag: String?
        var lastModified: String?
        /// The stored lifetime, which a 304 without freshness information keeps.
        var lifetime: Double?
        /// The URL the stored response came from, when a redirect led there; nil: the URL
        /// asked for.
        var url: String?
    }

    /// The conditional fields for a request of `current`: the stored validators go only to
    /// the URL whose response they came from (RFC 9110 §13.1: a validator describes a
    /// representation of its target resource). A redirect's own URL does not get the
    /// validators of the response it led to; a server that compared them with its own
    /// resource could answer 304 for a body it never sent.
    static func conditionals(_ revalidation: Revalidation?, for current: StandardURL, asked url: StandardURL)
        -> [(String, String)]
    {
        guard let revalidation, current.hrefWithoutFragment == revalidation.url ?? url.hrefWithoutFragment else {
            return []
        }
        var fields: [(String, String)] = []
        if let etag = revalidation.etag { fields.append(("If-None-Match", etag)) }
        if let modified = revalidation.lastModified { fields.append(("If-Modified-Since", modified)) }
        return fields
    }

    /// What one hop of a request gave.
    private enum Hop {
        case redirect(location: String, status: Int, headers: [(name: String, value: String)])
        case done(FetchResult)
    }

    /// Requests `url`, following redirects (each `Location` resolved by the URL Standard
    /// against the URL that gave it), and handles the final response.

    /// The `Vary` lines of a response: for each request header it names (lower-case, in
    /// order), `name: value` as this request sent it (empty when not sent). `stored` is
    /// either such lines (their names are read back) or a `Vary` header value.
    static func varyLines(_ stored: String, sending headers: [(String, String)]) -> String {
        let names =
            stored.contains("\n") || stored.contains(": ") || stored.hasSuffix(":")
            ? stored.split(separator: "\n").map { String($0.prefix { $0 != ":" }) }
            : stored.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter {
                !$0.isEmpty
            }
        // A header not sent is a bare name: absent matches only absent, not an empty value
        // (RFC 9111 §4.1).
        return Set(names).sorted().map { name in
            let sent = headers.filter { $0.0.lowercased() == name }.map(\.1)
            return sent.isEmpty ? name : name + ": " + sent.joined(separator: ", ")
        }.joined(separator: "\n")
    }

    private func request(
        _ url: StandardURL, originalURL: String, revalidation: Revalidation?,
        into result: inout FetchResult, run: Run, _ received: Locked<Int64>
    ) async throws {
        var headers = requestHeaders
        // A partial download kept from an earlier attempt: ask for the rest, if the
        // representation is still the one it began (RFC 9110 §14.2, §13.1.5).
        let resumed =
            revalidation == nil && run.partials.withLock({ $0 })
            ? (try? store.claimPartial(url: originalURL)) ?? nil : nil
        if let resumed, let validator = resumed.partial.validator {
            headers.append(("Range", "bytes=\(resumed.body.length)-"))
            headers.append(("If-Range", validator))
        }
        let resumeUsed = Locked(false)
        defer { if !resumeUsed.withLock({ $0 }) { resumed?.body.discard() } }
        var current = url
        var visited: Set<String> = [url.hrefWithoutFragment]
        var chain = Chain()
        let started = FileTime.now
        for hop in 0...options.maxRedirects {
            let snapshot = result
            if let refusal = options.proxies.refusal(for: current) { throw FetchError.transport(refusal) }
            let sending = headers + Self.conditionals(revalidation, for: current, asked: url)
            // The exchange runs on the connection's task: it captures copies of this
            // function's variables and hands back what it decided in `Hop`.
            let step: Hop = try await pool.withConnection(pool.route(for: current)) {
                [self, current, sending, chain] connection in
                let sent = FileTime.now.timeInterval
                let head = try await connection.get(current, headers: sending)
                let pairs = head.headers.map { (name: $0.name, value: $0.value) }
                if [301, 302, 303, 307, 308].contains(head.status.code),
                    let location = head.headers.first(name: "location")
                {
                    try await connection.discardBody()
                    return .redirect(location: location, status: Int(head.status.code), headers: pairs)
                }
                if head.status.code == 416, resumed != nil {
                    // Range Not Satisfiable: the kept part no longer fits the representation
                    // (RFC 9110 §15.5.17); it is dropped (below) and the whole body asked for.
                    try? await connection.discardBody()
                    throw FetchError.resumeRefused
                }
                var final = snapshot
                let partial = head.status.code == 206 ? resumed : nil
                // Set before `finish`: a download cut again keeps its partial for the next try.
                if partial != nil { resumeUsed.withLock { $0 = true } }
                try await finish(
                    originalURL, head: head, headers: pairs, sent: sending, connection: connection,
                    revalidation: revalidation,
                    resumed: partial, chain: chain, started: started, sent: sent, into: &final, run: run,
                    counting: received)
                return .done(final)
            }
            switch step {
            case .done(let final):
                result = final
                return
            case .redirect(let location, let status, let hopHeaders):
                result.status = status
                let next = try Self.redirectTarget(location, from: current, visited: &visited)
                let lifetime = Self.redirectLifetime(status: status, headers: hopHeaders)
                chain.lifetime = min(chain.lifetime ?? lifetime, lifetime)
                chain.vary += hopHeaders.filter { HTTPText.equals($0.name, lowercase: "vary") }
                chain.target = next.hrefWithoutFragment
                if hop == options.maxRedirects { break }
                headers = Self.headers(headers, from: url, redirectedTo: next)
                current = next
            }
        }
        throw FetchError.transport("too many redirects")
    }

    /// Where a redirect's `Location` leads, resolved by the URL Standard against the URL
    /// that gave it: an http(s) URL not visited before.
    static func redirectTarget(_ location: String, from current: StandardURL, visited: inout Set<String>) throws
        -> StandardURL
    {
        guard let next = StandardURL(location, base: current) else {
            let why = StandardURL.failureReason(location, base: current).map { ": " + $0 } ?? ""
            throw FetchError.transport("redirect to a malformed URL (\(location))\(why)")
        }
        guard next.scheme == "http" || next.scheme == "https" else { throw FetchError.unsupportedScheme(next.scheme) }
        guard visited.insert(next.hrefWithoutFragment).inserted else { throw FetchError.transport("redirect loop") }
        return next
    }

    /// The headers for a redirect's next request: credentials given with --header go to the
    /// origin they were given for only, as curl has done since CVE-2018-1000007 (its
    /// --location-trusted aside).
    static func headers(
        _ headers: [(String, String)], from url: StandardURL, redirectedTo next: StandardURL
    ) -> [(String, String)] {
        guard (next.scheme, next.hostValue) != (url.scheme, url.hostValue) else { return headers }
        return headers.filter {
            !HTTPText.equals($0.0, lowercase: "authorization") && !HTTPText.equals($0.0, lowercase: "cookie")
        }
    }

    /// What undoes a response's codings (`ContentDecoder`), from all its `Content-Encoding`
    /// and `Transfer-Encoding` field lines (several lines of a field are one list, RFC 9110
    /// §5.3); nil when the body comes as it is.
    static func bodyDecoder(_ head: HTTPResponseHead) throws -> ContentDecoder? {
        func joined(_ name: String) -> String? {
            let lines = head.headers[name]
            return lines.isEmpty ? nil : lines.joined(separator: ", ")
        }
        return try ContentDecoder.make(
            contentEncoding: joined("content-encoding"), transferEncoding: joined("transfer-encoding"))
    }

    /// `bytes FIRST-LAST/TOTAL` (TOTAL may be `*`), RFC 9110 §14.4.
    static func contentRange(_ text: String?) -> (first: Int64, last: Int64, total: Int64?)? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), text.hasPrefix("bytes ") else { return nil }
        let rest = text.dropFirst(6)
        let parts = rest.split(separator: "/", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let bounds = parts[0].split(separator: "-", maxSplits: 1)
        guard bounds.count == 2, let first = Int64(bounds[0]), let last = Int64(bounds[1]), first <= last else {
            return nil
        }
        let total = parts[1] == "*" ? nil : Int64(parts[1])
        if parts[1] != "*" && total == nil { return nil }
        return (first, last, total)
    }

    /// How long a redirect may be reused (RFC 9111 §4.2): 301 and 308 are heuristically
    /// cacheable (§4.2.2), 302, 303 and 307 only with explicit freshness.
    static func redirectLifetime(status: Int, headers: [(name: String, value: String)]) -> Double {
        let freshness = Freshness.decide(headers: headers, responseTime: FileTime.now.timeInterval)
        guard freshness.storable else { return 0 }
        if status == 301 || status == 308 { return freshness.lifetime }
        return freshness.source == .heuristic ? 0 : freshness.lifetime
    }

    /// The final response: a 304 renews the entry, a 200 is streamed to `tmp/` and
    /// committed when complete, anything else fails.
    private func finish(
        _ url: String, head: HTTPResponseHead, headers: [(name: String, value: String)],
        sent requestHeaders: [(String, String)],
        connection: SocketConnection, revalidation: Revalidation?,
        resumed: (body: NativeStore.PendingBody, partial: NativeStore.PartialDownload)?,
        chain: Chain, started: FileTime, sent: Double,
        into result: inout FetchResult, run: Run, counting counter: Locked<Int64>
    ) async throws {
        result.status = Int(head.status.code)
        // A hop's Vary is the stored response's too: the chain answers only requests that
        // would have been redirected alike (a hop's `Vary: *`, none).
        let headers = headers + chain.vary
        var freshness = Freshness.decide(
            headers: headers, responseTime: FileTime.now.timeInterval, requestTime: sent, override: options.expires)
        if let chainLifetime = chain.lifetime, freshness.storable, freshness.source != .option {
            freshness.lifetime = min(freshness.lifetime, chainLifetime)
        }
        result.freshnessSource = freshness.source
        let validators = Validators(
            etag: head.headers.first(name: "etag"), lastModified: head.headers.first(name: "last-modified"))
        if head.status == .notModified, let revalidation {
            try await connection.discardBody()
            try renew(
                url, headers: headers, freshness: freshness, validators: validators, revalidation: revalidation,
                into: &result)
            return
        }
        let (negative, resumeTotal) = try await acceptStatus(head, freshness: freshness, resumed: resumed, connection)
        let (body, received) = try await receiveBody(
            url, head: head, connection: connection, resumed: resumed?.body, resumeTotal: resumeTotal,
            validators: validators, started: started, run: run, counting: counter)
        result.bytesReceived = received
        result.contentType = head.headers.first(name: "content-type")
        result.responseURL = chain.target
        guard freshness.storable, !requestDirectives.has("no-store") else {
            if options.keepUnstoredBodies {
                result.unstoredBody = body.keepUncommitted()
            } else {
                body.discard()
            }
            result.outcome = .notStored
            return
        }
        let varyValue = headers.compactMap { HTTPText.equals($0.name, lowercase: "vary") ? $0.value : nil }
            .joined(separator: ",")
        let code = Int(head.status.code)
        var put = PutOptions(
            lifetime: freshness.lifetime, sliding: options.sliding,
            contentType: head.headers.first(name: "content-type"))
        put.etag = validators.etag
        put.lastModified = validators.lastModified
        put.downloadStarted = started
        put.status = code == 206 ? 200 : code  // a resumed body is the whole 200 representation
        put.vary = varyValue.isEmpty ? nil : Self.varyLines(varyValue, sending: requestHeaders)
        put.validatorsURL = chain.target
        // Committed with the run's next batch (the path and expiry are filled in then).
        try body.seal(flush: false)
        result.commitTicket = await run.commits.submit(body, put)
        if negative {
            result.outcome = .failed
            result.error = FetchError.http(code, head.status.reasonPhrase).description
            return
        }
        result.outcome = .downloaded
    }

    /// A response's validators.
    private struct Validators {
        var etag: String?
        var lastModified: String?
    }

    /// A 304 answering a revalidation: the stored entry renewed, by RFC 9111 §4.3.4.
    private func renew(
        _ url: String, headers: [(name: String, value: String)], freshness: Freshness, validators: Validators,
        revalidation: Revalidation, into result: inout FetchResult
    ) throws {
        // §4.3.4: the stored response is renewed only if the 304's validator selects it: the
        // same entity-tag (weakly compared, RFC 9110 §8.8.3.2: strong against strong is the
        // same comparison). A 304 without an ETag, or a stored response without one
        // (validated by date), selects it.
        if let tag = validators.etag, let stored = revalidation.etag, Self.opaqueTag(tag) != Self.opaqueTag(stored) {
            throw FetchError.otherRepresentation
        }
        // §4.3.4: the stored response's fields stay unless the 304 replaces them, so a
        // 304 with no Cache-Control or Expires keeps the stored lifetime (a stored
        // no-cache keeps being revalidated; no new heuristic is made up).
        let explicit = headers.contains {
            HTTPText.equals($0.name, lowercase: "cache-control") || HTTPText.equals($0.name, lowercase: "expires")
        }
        let lifetime: Double?
        if freshness.source == .option || explicit {
            lifetime = freshness.storable ? freshness.lifetime : 0
        } else {
            lifetime = revalidation.lifetime ?? freshness.lifetime
        }
        result.freshnessSource = explicit || freshness.source == .option ? freshness.source : .stored
        guard
            try store.renew(
                url: url, lifetime: lifetime, etag: validators.etag, lastModified: validators.lastModified,
                contentType: headers.first { HTTPText.equals($0.name, lowercase: "content-type") }?.value)
        else {
            throw FetchError.store("the entry vanished while it was revalidated")
        }
        let renewed = try store.lookup(url: url)
        result.outcome = .revalidated
        result.path = renewed?.bodyPath
        result.expires = renewed?.record.expires.map(FileTime.init(timeInterval:))
    }

    /// An entity-tag without its weakness indicator (`W/"a"` and `"a"` are weakly equal).
    static func opaqueTag(_ tag: String) -> Substring {
        let trimmed = HTTPText.trimmingOWS(Substring(tag))
        return trimmed.hasPrefix("W/") ? trimmed.dropFirst(2) : trimmed
    }

    /// Whether the status gives a body to keep: content (200, 203, a 206 resuming the kept
    /// partial download exactly where it ended) or a negative answer with explicit freshness.
    /// Throws for anything else (`HTTPStatusError`, with `Retry-After`).
    private func acceptStatus(
        _ head: HTTPResponseHead, freshness: Freshness,
        resumed: (body: NativeStore.PendingBody, partial: NativeStore.PartialDownload)?, _ connection: SocketConnection
    ) async throws -> (negative: Bool, resumeTotal: Int64?) {
        let code = Int(head.status.code)
        // 203 (Non-Authoritative Information) is content like 200 (RFC 9110 §15.3.4). The
        // other heuristically cacheable statuses (RFC 9111 §4.2.2) are kept when their
        // freshness is explicit, as a negative answer; anything else is not kept.
        let negative =
            Self.keptNegativeStatuses.contains(code) && freshness.storable
            && [.maxAge, .expires].contains(freshness.source) && freshness.lifetime > 0
        // 206: the rest of a kept partial download, from exactly where it ended.
        var resumeTotal: Int64?
        if code == 206 {
            guard let resumed else {
                connection.abandon()
                throw FetchError.transport("the server sent part of the body (206) when asked for all of it")
            }
            // A coded rest cannot continue the decoded part kept (its range counts coded bytes).
            guard let range = Self.contentRange(head.headers.first(name: "content-range")),
                range.first == resumed.body.length,
                range.total.map({ total in resumed.partial.total.map { $0 == total } ?? true }) ?? true,
                (try? Self.bodyDecoder(head)) == nil
            else {
                // Another range than the rest of the kept part: it is dropped, and the whole body asked for.
                connection.abandon()
                resumed.body.discard()
                throw FetchError.resumeRefused
            }
            resumeTotal = range.total ?? resumed.partial.total
        }
        guard head.status == .ok || code == 203 || code == 206 || negative else {
            try? await connection.discardBody()
            let retryAfter = head.headers.first(name: "retry-after").flatMap { text -> Double? in
                let trimmed = String(HTTPText.trimmingOWS(text))
                return CacheControl.deltaSeconds(trimmed)
                    ?? HTTPDate.parse(trimmed).map { $0 - FileTime.now.timeInterval }
            }
            throw HTTPStatusError(code: code, reason: head.status.reasonPhrase, retryAfter: retryAfter)
        }
        return (negative, resumeTotal)
    }

    /// The body, streamed into a pending body (the resumed one, or a new one: in memory while
    /// small, else in `tmp/`) and checked against the declared length. A download cut off
    /// whose representation has a validator is kept for a resume; anything else goes.
    private func receiveBody(
        _ url: String, head: HTTPResponseHead, connection: SocketConnection, resumed: NativeStore.PendingBody?,
        resumeTotal: Int64?, validators: Validators, started: FileTime, run: Run, counting counter: Locked<Int64>
    ) async throws -> (body: NativeStore.PendingBody, received: Int64) {
        let declared = head.headers.first(name: "content-length").flatMap {
            Int64(HTTPText.trimmingOWS($0))
        }
        if let declared {
            if declared > options.maxBody {
                connection.abandon()
                throw FetchError.tooLarge(limit: options.maxBody, declared: declared)
            }
            run.tracker.expect(declared)
        }
        let decoder: ContentDecoder?
        do {
            decoder = try Self.bodyDecoder(head)
        } catch {
            connection.abandon()
            throw error
        }
        let body = try resumed ?? store.beginBody(url: url, started: started, inMemoryUpTo: Self.inMemoryBodyLimit)
        var received: Int64 = 0
        do {
            while let buffer = try await connection.nextBody() {
                try Task.checkCancellation()
                received += Int64(buffer.readableBytes)
                if let decoder {
                    // Checked as it is decoded: a small coded body may decode to gigabytes.
                    let limit = options.maxBody
                    try buffer.withUnsafeReadableBytes {
                        try decoder.decode($0) { piece in
                            try body.append(piece)
                            if body.length > limit { throw FetchError.tooLarge(limit: limit, declared: nil) }
                        }
                    }
                } else {
                    try buffer.withUnsafeReadableBytes { try body.append($0) }
                }
                // --max-body bounds what is stored (decoded) as well as what comes.
                if received > options.maxBody || body.length > options.maxBody {
                    connection.abandon()
                    throw FetchError.tooLarge(limit: options.maxBody, declared: nil)
                }
                run.tracker.received(Int64(buffer.readableBytes))
                counter.withLock { $0 += Int64(buffer.readableBytes) }
            }
            if let declared, received != declared { throw FetchError.truncated(expected: declared, received: received) }
            try decoder?.finish()
            if let resumeTotal, body.length != resumeTotal {
                throw FetchError.truncated(expected: resumeTotal, received: body.length)
            }
        } catch {
            let strongETag = validators.etag.flatMap { $0.hasPrefix("W/") ? nil : $0 }
            var overLimit = false
            if case FetchError.tooLarge = error { overLimit = true }
            // A decoded part cannot be resumed: a range counts the coded bytes.
            if !(error is CancellationError), !Task.isCancelled, !overLimit, body.length > 0, decoder == nil,
                strongETag != nil || validators.lastModified != nil
            {
                let partial = NativeStore.PartialDownload(
                    url: URLKey(url)?.normalized ?? url, etag: strongETag, lastModified: validators.lastModified,
                    total: resumeTotal ?? declared)
                if body.keepForResume(partial) { run.partials.withLock { $0 = true } }
            } else {
                body.discard()
            }
            throw error
        }
        return (body, received)
    }

    /// A transport error in words.
    static func describe(_ error: Error) -> String {
        if let error = error as? HTTPConnectionError { return error.description }
        if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname {
            return "TLS: the server's certificate does not name this host"
        }
        if let error = error as? NIOSSLError { return "TLS: \(error)" }
        if let error = error as? BoringSSLError { return "TLS: \(error)" }
        if let error = error as? ChannelError {
            switch error {
            case .connectTimeout: return "connection timed out"
            case .ioOnClosedChannel, .eof: return "connection closed by the server before the response was complete"
            default: return "\(error)"
            }
        }
        if let error = error as? NIOHTTPDecoderError, error == .unsolicitedResponse {
            return "malformed response (a second response came with it, unasked)"
        }
        if let error = error as? HTTPParserError {
            if error == .invalidEOFState { return "connection ended before the body was complete (truncated)" }
            return "malformed response (\(error))"
        }
        if let error = error as? IOError {
            switch error.errnoCode {
            case ECONNREFUSED: return "connection refused"
            case ECONNRESET: return "connection reset by the server"
            case ETIMEDOUT: return "connection timed out"
            case EHOSTUNREACH, ENETUNREACH: return "host unreachable"
            default: return error.description
            }
        }
        let text = String(describing: error)
        if text.contains("connectionRefused") || text.contains("Connection refused") { return "connection refused" }
        return text
    }
}
