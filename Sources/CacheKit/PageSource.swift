import PageRewrite
import URLStandard

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A page to localize, read from a file, from standard input, or from a cache by its URL.
public struct PageSource: Sendable {
    /// The page's bytes, as read.
    public var bytes: [UInt8]
    /// The URL relative references resolve against: the URL a page read from a cache came
    /// from (its key, or where redirects from it led), else a `file://` URL.
    public var url: String
    /// How messages name the page: the path or URL as given, or `stdin`.
    public var label: String
    /// The name an output directory gives the page (`stdin.html` for standard input, the URL's
    /// last path segment or `index.html` for a page from a cache).
    public var fileName: [UInt8]
    /// Whether the page is a file (`--in-place` needs one).
    public var isFile: Bool
    /// The file's permission bits, which `--in-place` keeps (nil: not a file).
    public var mode: mode_t?
    /// The `Content-Type` it was served with (a page from a cache or fetched); its charset
    /// decides how the page is read unless a BOM or `--charset` does.
    public var contentType: String?

    /// A page from its parts.
    public init(bytes: [UInt8], url: String, label: String, fileName: [UInt8], isFile: Bool, mode: mode_t?) {
        self.bytes = bytes
        self.url = url
        self.label = label
        self.fileName = fileName
        self.isFile = isFile
        self.mode = mode
    }

    /// The largest page read (1 GiB): a page is parsed in memory, at 3 to 9 times its size;
    /// `/dev/zero` or an endless pipe is refused once it has given more, not read until the
    /// memory is gone.
    public static let largestPage = FileIO.Limit(bytes: 1 << 30, what: "a page")

    /// Reads the page `text` names: `-` is standard input; an http(s) URL that is not also a
    /// file's path is read from the first of `caches` holding a fresh copy (any copy with
    /// `allowStale`); anything else is the file at `input` (`text` as a path).
    /// A page just fetched may be stored already expired (a response that said `no-cache` or
    /// gave no lifetime): `allowStale` takes it, as it is still the page that came.
    public static func read(_ text: String, input: RawPath, caches: [RawPath], allowStale: Bool = false) throws
        -> PageSource
    {
        if text == "-" {
            // A page on stdin: relative references resolve as for a page in the current
            // directory (give --base-url for its real address); --output-dir names it stdin.html.
            let bytes = try FileIO.readStandardInput(limit: largestPage)
            return PageSource(
                bytes: bytes, url: PageRewriter.fileURL(of: RawPath(".").canonical.appending("stdin.html")),
                label: "stdin", fileName: Array("stdin.html".utf8), isFile: false, mode: nil)
        }
        if StandardURL(text)?.isHTTP == true && !input.exists {
            guard let key = URLKey(text) else { throw StoreError.notAURL(text) }
            var lastError: StoreError = .notFound(text)
            for root in caches {
                do {
                    let body = try CacheReader.body(url: text, root: root, allowStale: allowStale)
                    let bytes = try FileIO.readAll(body.path, limit: largestPage)
                    var page = PageSource(
                        bytes: bytes, url: body.responseURL ?? key.normalized, label: URLKey.redacted(text),
                        fileName: StandardURL(key.normalized).map(fileName(for:)) ?? Array("index.html".utf8),
                        isFile: false, mode: nil)
                    page.contentType = body.contentType
                    return page
                } catch let error as StoreError { lastError = error }
            }
            throw lastError
        }
        let bytes = try FileIO.readNamed(input, limit: largestPage)
        return PageSource(
            bytes: bytes, url: PageRewriter.fileURL(of: input.canonical), label: input.description,
            fileName: input.lastComponent, isFile: true, mode: FileIO.mode(of: input.canonical))
    }

    /// The name a page from `url` is saved under, as `wget -E` names it: the last path
    /// segment as written (percent-encoded), `index.html` for a URL ending in `/`, with
    /// `.html` added unless it ends in `.html` or `.htm`; at most 200 bytes before that.
    public static func fileName(for url: StandardURL) -> [UInt8] {
        let path = url.path
        guard !path.hasSuffix("/"), let last = path.split(separator: "/").last else { return Array("index.html".utf8) }
        var name = Array(last.utf8.prefix(200))
        // Not a name a folder can hold under it (the URL parser removes `.` and `..` segments;
        // an opaque path may still hold them).
        if name == Array(".".utf8) || name == Array("..".utf8) { name = Array("index".utf8) }
        let lowered = String(decoding: name, as: UTF8.self).lowercased()
        if !lowered.hasSuffix(".html") && !lowered.hasSuffix(".htm") { name += Array(".html".utf8) }
        return name
    }
}
