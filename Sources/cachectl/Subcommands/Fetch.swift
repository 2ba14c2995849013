import ArgumentParser
import CacheKit
import Foundation

/// `cachectl fetch URL...`: download into the native store, serving fresh entries without a
/// request and revalidating expired ones.
struct Fetch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Download URLs into the cache store (fresh entries are not requested again).",
        discussion: """
            A URL with a fresh entry is served from the store without a request; an expired \
            entry with an ETag or Last-Modified is revalidated (304 renews it); anything else is \
            downloaded, streamed to tmp/ and committed only when complete. Lifetime: --expires, \
            else Cache-Control max-age, Expires, no-store (not stored), no-cache \
            (stored, revalidated on every use), else 10% of the time since Last-Modified (at most \
            1 day), else 1 hour. URLs are parsed and requested by the WHATWG URL Standard; \
            http_proxy, https_proxy and no_proxy are honoured. Prints one line per URL: \
            outcome, URL, body path. \
            Ctrl-C stops the downloads in flight, removes their temporary files and reports what \
            finished. Exit status: 0 every URL available; 1 some failed (each on stderr); 2 usage \
            error; 130 interrupted.
            """)

    @Argument(help: "URLs to fetch (http or https).") var urls: [String] = []
    @Option(
        name: .long,
        help: "Also read URLs from this file, one per line ('-' for stdin; blank lines and # comments skipped).",
        completion: .file())
    var input: String?
    @Option(
        name: .long, parsing: .unconditional,
        help:
            "Lifetime of what is stored, a systemd time span (90s, 15min, 12h, 7d), overriding the response's headers.",
        transform: TimeSpan.parse)
    var expires: TimeSpan?
    @Flag(name: .long, help: "Each hit moves the expiry to now + lifetime.") var sliding = false
    @Option(name: .long, parsing: .unconditional, help: "Downloads at once (default: 4 × cores).") var jobs: Int?
    @Option(
        name: .long, parsing: .unconditional, help: "Largest body accepted (default: 100M).",
        transform: SizeArgument.parse)
    var maxBody = SizeArgument(bytes: 100 << 20, text: "100M", hasUnit: true)
    @Option(
        name: .long, parsing: .unconditional,
        help: "Give up on a download after this long without data (a systemd time span; default: 30s).",
        transform: Fetch.parsePositiveSpan)
    var timeout = TimeSpan(seconds: 30, text: "30s")
    @Option(
        name: .long, help: "Trust the certificate authorities in this PEM file instead of the system's.",
        completion: .file()) var cacert: String?
    @Option(
        name: .long, parsing: .unconditional,
        help:
            """
            Retry a URL this many times after a connection error, a stall, a truncated body, 5xx, 408 or 429 \
            (waits 1s, 2s, 4s… or the server's Retry-After).
            """
    )
    var retry: Int = 0
    @Option(
        name: [.customShort("o"), .long],
        help: "Also write the body of the (single) URL to this file (atomically); '-' is stdout, as --print.",
        completion: .file()) var output: String?
    @Option(
        name: [.customShort("H"), .long],
        help:
            """
            Send this request header ('Name: value'); repeatable. A stored response that varies on it is used \
            only for the same value.
            """
    )
    var header: [String] = []
    @Flag(name: .long, help: "Write the body of the (single) URL to stdout.") var print = false
    /// `--json`: the result of every URL, as JSON on stdout.
    @OptionGroup var report: OutputOptions
    @OptionGroup var store: StoreOptions

    /// For `--timeout`: a time span above zero.
    static func parsePositiveSpan(_ text: String) throws -> TimeSpan {
        let span = try TimeSpan.parse(text)
        guard span.seconds > 0 else { throw ValidationError("'\(text)' must be longer than 0s") }
        return span
    }

    func validate() throws {
        if urls.isEmpty && input == nil { throw ValidationError("give at least one URL, or --input FILE.") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
        if printsBody && report.json {
            throw ValidationError("\(print ? "--print" : "-o -") and --json both write to stdout; choose one.")
        }
        if print && (urls.count != 1 || input != nil) { throw ValidationError("--print takes exactly one URL.") }
        if output != nil && (urls.count != 1 || input != nil) { throw ValidationError("-o takes exactly one URL.") }
        if print && output != nil { throw ValidationError("--print and -o: choose one.") }
        if retry < 0 { throw ValidationError("--retry must be 0 or more.") }
        for text in header where FetchOptions.header(parsing: text) == nil {
            throw ValidationError("--header: '\(text)' is not 'Name: value' (a token name, no line breaks).")
        }
    }

    /// The lines of a URL list that are neither blank nor comments, without their spaces and
    /// tabs. An ASCII list (nearly all) is split on its bytes: newline characters there are
    /// LF, VT, FF and CR, as `Character.isNewline` has them, and a CR LF pair makes one break.
    static func listedURLs(_ bytes: [UInt8]) -> [String] {
        // A UTF-8 byte order mark (files saved by some editors) is no part of the first URL.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return listedURLs(Array(bytes.dropFirst(3))) }
        guard bytes.allSatisfy({ $0 < 0x80 }) else {
            return String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        }
        return bytes.split(whereSeparator: { $0 >= 0x0A && $0 <= 0x0D }).compactMap { line in
            let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
            guard let start = line.firstIndex(where: { !blank($0) }), let last = line.lastIndex(where: { !blank($0) }),
                line[start] != UInt8(ascii: "#")
            else { return nil }
            return String(decoding: line[start...last], as: UTF8.self)
        }
    }

    /// The largest `--input` list read (1 GiB, some ten million URLs): an endless pipe is
    /// refused once it has given more.
    static let largestList = FileIO.Limit(bytes: 1 << 30, what: "a URL list")

    /// `-o -` writes the body to stdout, as curl's does: `--print`.
    private var printsBody: Bool { print || output == "-" }
    /// The file `-o` names (not `-`).
    private var outputFile: String? { output == "-" ? nil : output }

    func run() async throws {
        var list = urls
        if let input {
            let bytes = try Diagnostics.reporting {
                input == "-"
                    ? try FileIO.readStandardInput(limit: Self.largestList)
                    : try FileIO.readAll(RawArguments.paths([input])[0], limit: Self.largestList)
            }
            list += Self.listedURLs(bytes)
        }
        let root = store.root
        let nativeStore = try Diagnostics.reporting { try NativeStore.open(root, create: true) }
        var options = FetchOptions()
        options.expires = expires?.seconds
        options.sliding = sliding
        if let jobs { options.jobs = jobs }
        options.maxBody = maxBody.bytes
        options.stallTimeout = timeout.seconds
        options.keepUnstoredBodies = print
        options.caFile = cacert
        options.retries = retry
        options.headers = header.compactMap(FetchOptions.header(parsing:))
        options.keepUnstoredBodies = print || output != nil
        let results = await FetchRun.run(list, store: nativeStore, options: options)

        let interrupted = results.contains { $0.interrupted }
        for result in results where result.outcome == .failed && !result.interrupted {
            Diagnostics.error("\(URLKey.redacted(result.url)): \(result.error ?? "failed")")
        }
        // A body that cannot be written to -o fails the run, after the outcome is reported
        // (the entry is stored all the same).
        var outputFailed = false
        if let output = outputFile, let result = results.first, result.succeeded,
            let body = result.unstoredBody ?? result.path
        {
            do {
                try FileIO.copyToOutput(body, RawArguments.paths([output])[0])
            } catch let error as StoreError {
                Diagnostics.error(error)
                outputFailed = true
            }
        }
        if printsBody, let result = results.first, result.succeeded, let path = result.unstoredBody ?? result.path {
            _ = try Diagnostics.reporting { try FileIO.stream(path) { Output.write(raw: $0) } }
        } else if report.json {
            try Output.write(json: FetchJSON(results))
        } else if !printsBody {
            for result in results {
                let shown = Text.show(URLKey.redacted(result.url))
                Output.write("\(result.outcome.rawValue)\t\(shown)\t\(result.path?.escaped ?? "-")\n")
            }
        }
        for result in results { if let temp = result.unstoredBody { FileIO.removeTemporary(temp) } }
        Diagnostics.note((interrupted ? "interrupted: " : "") + FetchPresenter.summary(results))
        Output.flush()
        if interrupted { throw ExitStatus.interrupted }
        if outputFailed || results.contains(where: { !$0.succeeded }) { throw ExitStatus.failure }
    }
}
