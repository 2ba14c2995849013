// The layer below: dates, HTTP header grammar, tags (and the system layer through it).
@_exported import CacheKitSupport
