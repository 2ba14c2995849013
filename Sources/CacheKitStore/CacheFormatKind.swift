/// The cache layouts cachectl knows.
public enum CacheFormatKind: String, CaseIterable, Sendable {
    case native, sdwebimage, kingfisher, pincache, nuke, plist, urlcache, foundationurlcache, thumbnails, gobuild, pip,
        npm, clangmodules, uv, ccache, huggingface, chromium, firefox, gitmirrors, plain

    /// The name people know it by.
    public var displayName: String {
        switch self {
        case .native: return "cachectl store"
        case .sdwebimage: return "SDWebImage"
        case .kingfisher: return "Kingfisher"
        case .pincache: return "PINCache"
        case .nuke: return "Nuke DataCache"
        case .plist: return "plist download cache"
        case .urlcache: return "Apple URLCache"
        case .foundationurlcache: return "swift-corelibs-foundation URLCache"
        case .thumbnails: return "freedesktop thumbnails"
        case .gobuild: return "Go build cache"
        case .pip: return "pip cache"
        case .npm: return "npm cache (cacache)"
        case .clangmodules: return "clang module cache"
        case .uv: return "uv cache"
        case .ccache: return "ccache"
        case .huggingface: return "Hugging Face hub"
        case .chromium: return "Chromium simple cache"
        case .gitmirrors: return "git mirrors"
        case .firefox: return "Firefox cache2"
        case .plain: return "plain directory"
        }
    }
}
