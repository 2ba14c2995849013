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
    /// The URL relative references resolve against: the cache key of a page read from a cache,
    /// else a `file://` URL.
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

    /// A page from its parts.
    public init(bytes: [UInt8], url: String, label: String, fileName: [UInt8], isFile: Bool, mode: mode_t?) {
        self.bytes = bytes
        self.url = url
        self.label = label
        self.fileName = fileName
        self.isFile = isFile
        self.mode = mode
    }

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
            let bytes = try FileIO.readStandardInput()
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
                    let bytes = try FileIO.readAll(body.path)
                    let name =
                        StandardURL(key.normalized).flatMap { $0.path.split(separator: "/").last.map(String.init) }
                        ?? "index.html"
                    return PageSource(
                        bytes: bytes, url: key.normalized, label: text, fileName: Array(name.utf8), isFile: false,
                        mode: nil)
                } catch let error as StoreError { lastError = error }
            }
            throw lastError
        }
        let bytes = try FileIO.readAll(input)
        return PageSource(
            bytes: bytes, url: PageRewriter.fileURL(of: input.canonical), label: input.description,
            fileName: input.lastComponent, isFile: true, mode: FileIO.mode(of: input))
    }
}
