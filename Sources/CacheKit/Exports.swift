// CacheKit is the top layer (localizing pages) and the library's one public face: a program
// that imports CacheKit gets every layer below it, each its own module so that the compiler
// keeps the layering — Support < Files < Store < Walk, Prune, Fetch < CacheKit.
@_exported import CacheKitFetch
@_exported import CacheKitFiles
@_exported import CacheKitPrune
@_exported import CacheKitStore
@_exported import CacheKitSupport
@_exported import CacheKitWalk
