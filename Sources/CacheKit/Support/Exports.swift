// CacheKit's public API speaks in the system layer's value types (`RawPath`, `FileTime`,
// `Errno`, `AnchoredDirectory`): a program that imports CacheKit gets them too.
@_exported import CacheKitSystem
