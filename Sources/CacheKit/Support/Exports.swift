// CacheKit's public API speaks in the system layer's value types (`RawPath`, `FileTime`,
// `Errno`, `AnchoredDirectory`): a program that imports CacheKit gets them too.
@_exported import CacheKitSystem
@_exported import PageRewrite
// URLs and page rewriting are their own targets; CacheKit's API speaks in their types
// (`StandardURL`, `LocalizeOptions`, `LocalizeResult`), so they come with it.
@_exported import URLStandard
