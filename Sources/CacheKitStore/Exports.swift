// The layers below: files (`FileTree`, `FileIdentity`), and through them Support and the system layer.
@_exported import CacheKitFiles
