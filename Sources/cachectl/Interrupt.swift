import ArgumentParser
import CacheKit
import Foundation

/// Set by the SIGINT handler (all a signal handler may do); a task polls it.
enum Interrupt {
    // nonisolated(unsafe): a `sig_atomic_t` set by the handler and polled, as C allows.
    nonisolated(unsafe) static var requested: sig_atomic_t = 0
}
