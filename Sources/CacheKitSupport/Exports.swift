// The layers above speak in the system layer's value types (`RawPath`, `FileTime`, `Errno`,
// `AnchoredDirectory`), in URLs (`StandardURL`) and in page rewriting's types
// (`LocalizeOptions`, `LocalizeResult`): a module that imports this layer gets them too.
@_exported import CacheKitSystem
@_exported import PageRewrite
@_exported import URLStandard
