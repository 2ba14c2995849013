import ArgumentParser
import CacheKit
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value left for the process's exit to reclaim (each store replaces the previous one).
enum KeptUntilExit {
    // nonisolated(unsafe): set by the command's own thread only, never read.
    nonisolated(unsafe) static var value: Any?
}
