#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Moments tests can act at, in debug builds only (release builds compile them away).
///
/// - `CACHECTL_CRASH_AT=<name>`: the process kills itself with SIGKILL there, so a test can
///   prove what a crash at that moment leaves behind.
/// - `CACHECTL_STOP_AT=<name>`: the process stops itself with SIGSTOP there; the test sees it
///   stopped (`waitpid(WUNTRACED)`), changes the world (swaps a directory for a symlink,
///   say) and resumes it with SIGCONT: a deterministic interleaving.
package enum TestPoint {
    #if DEBUG
        private static let crashAt: String? = Sys.environment("CACHECTL_CRASH_AT")
        private static let stopAt: String? = Sys.environment("CACHECTL_STOP_AT")
    #endif

    @inline(__always)
    package static func reach(_ name: StaticString) {
        #if DEBUG
            let text = name.description
            if crashAt == text { kill(getpid(), SIGKILL) }
            if stopAt == text { kill(getpid(), SIGSTOP) }
        #endif
    }
}
