import CacheKitSystem
import Foundation
import URLStandard

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How to localize a page.
public struct LocalizeOptions: Sendable {
    /// The page's own URL: the base for relative references (and for `<base href>`).
    /// Default `http://localhost/` when unknown.
    public var pageURL: String = "http://localhost/"
    /// The directory the output will live in: local paths are relative to it.
    public var outputDirectory: RawPath = RawPath(".")
    /// `file://` URLs instead of relative paths. Default false.
    public var absolute = false
    /// Rewrite references whose cached copy has expired too. Default false.
    public var allowStale = false
    /// References (without fragment) fetched or revalidated during this run: their copy is
    /// used even when it has already expired, as a response whose lifetime is zero (no
    /// explicit freshness and a `Last-Modified` of just now) is still the newest there is.
    /// Default empty.
    public var justFetched: Set<String> = []
    /// Give lazy images (`data-src`, …) a real `src`/`srcset` pointing at the local copy
    /// when theirs is missing, empty or a `data:` placeholder. Default false.
    public var eager = false
    /// Decoding charset, overriding the page's own declarations.
    public var charset: String?
    /// The `Content-Type` the page was served with (a page from a cache or fetched), whose
    /// charset comes before the page's `<meta>`, as in a browser. Default nil.
    public var contentType: String?
    /// The directory the page was read from (nil for a page from stdin or a cache): a
    /// relative reference naming a file there is `local`, not missing, so localizing a
    /// localized page again changes nothing.
    public var pageDirectory: RawPath?
    /// When the output does not live at the page's URL (another folder, or a page whose URL
    /// is remote), make every relative reference that is not made local absolute against the
    /// page's base, so it keeps its meaning (`wget -k`'s rule; the command does). Default false.
    public var absolutizeWhenMoved = false
    /// Whether absolutizing passes over the values whose every reference was made local
    /// (none is left to make absolute): always, but for tests that compare the output with
    /// and without the shortcut.
    var passesOverRewrittenValues = true
    /// A folder to place the cached bodies the page is pointed at in (hard links where the
    /// file system allows, copies otherwise), so the page does not depend on the cache; nil:
    /// the page points into the caches. Default nil.
    public var assets: RawPath?
    /// Work for the scanning thread while libxml2 is still parsing (it has made its
    /// decisions and would otherwise wait): it is handed the start of the page as given that
    /// the output is likely to share (up to the first tag the decisions foresee a change in;
    /// the whole page when none), so the command writes those bytes to the output early. The
    /// output's true shared start is `LocalizeResult.unchangedPrefix`. Called at most once,
    /// and not at all when the parse is done by then. Default nil.
    public var whileParsing: (@Sendable (ArraySlice<UInt8>) -> Void)?

    /// Every option at its default (each property states it).
    public init() {}
}
