// The layers below: the store and every format, and through it Files, Support and the system layer.
@_exported import CacheKitStore
