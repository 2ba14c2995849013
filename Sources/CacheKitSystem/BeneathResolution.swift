#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How paths below an anchored directory are resolved.
package enum BeneathResolution: Sendable {
    /// `openat2` with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV (Linux ≥ 5.6):
    /// the kernel refuses symlinks, `..` escapes and every mount crossing, bind mounts included.
    case kernel
    /// One component at a time with `openat(O_NOFOLLOW | O_DIRECTORY)`, each directory's mount
    /// id (`statx` STATX_MNT_ID; `st_dev` where there is none) compared with the anchor's:
    /// macOS, kernels before 5.6, or tests that set `CACHECTL_TEST_NO_OPENAT2`.
    case componentwise

    /// What this process uses: the kernel's when `openat2` works here.
    package static let current: BeneathResolution = {
        #if DEBUG
            if Sys.environment("CACHECTL_TEST_NO_OPENAT2") != nil { return .componentwise }
        #endif
        switch Sys.openBeneath(AT_FDCWD, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) {
        case .success(let fd):
            Sys.close(fd)
            return .kernel
        case .failure:
            return .componentwise  // ENOSYS, or a sandbox that forbids it
        }
    }()
}
