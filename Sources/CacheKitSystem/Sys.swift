import CSystemShims

// Every system call of the package goes through this file: thin wrappers that retry on
// EINTR in one place and return `Result<_, Errno>`, in the spirit of swift-system's
// `Syscalls.swift` and swift-nio's `System.swift`. Nothing outside this target calls
// `open`, `stat`, `unlink`, `rename`, `rmdir` and their relatives directly (a test checks).
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - The one EINTR loop

/// Calls `call` again while it fails with EINTR; its value, or the errno it failed with.
@inline(__always)
package func valueOrErrno<I: FixedWidthInteger>(_ call: () -> I) -> Result<I, Errno> {
    while true {
        let value = call()
        if value != -1 { return .success(value) }
        let code = errno
        if code != EINTR { return .failure(Errno(code)) }
    }
}

/// `valueOrErrno` for calls whose only result is success.
@inline(__always)
package func nothingOrErrno<I: FixedWidthInteger>(_ call: () -> I) -> Result<Void, Errno> {
    valueOrErrno(call).map { _ in () }
}

// MARK: - Wrappers

/// The system calls, one thin wrapper each. Names are C strings (hot paths) or raw bytes.
/// (A public type so that its inlinable members' bodies are serialized for the walk's loop in
/// another module: see `ByteSet`. The members stay `package`.)
public enum Sys {
    package static let openDirectoryFlags: Int32 = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
    package static let directoryType = UInt8(DT_DIR)
    package static let unknownType = UInt8(DT_UNKNOWN)
    /// O_NOATIME on Linux; 0 where the system has none.
    package static let noAtime: Int32 = cachectl_o_noatime()

    // MARK: Opening

    package static func open(_ path: UnsafePointer<CChar>, _ flags: Int32, mode: mode_t = 0) -> Result<Int32, Errno> {
        valueOrErrno { sysOpenat(AT_FDCWD, path, flags, mode) }
    }

    package static func open(_ path: RawPath, _ flags: Int32, mode: mode_t = 0) -> Result<Int32, Errno> {
        path.withCString { open($0, flags, mode: mode) }
    }

    package static func openat(_ dirfd: Int32, _ name: UnsafePointer<CChar>, _ flags: Int32, mode: mode_t = 0)
        -> Result<Int32, Errno>
    {
        valueOrErrno { sysOpenat(dirfd, name, flags, mode) }
    }

    package static func openat(_ dirfd: Int32, _ name: [UInt8], _ flags: Int32, mode: mode_t = 0) -> Result<
        Int32, Errno
    > {
        name.withCString { openat(dirfd, $0, flags, mode: mode) }
    }

    /// `openat2` with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV; ENOSYS where
    /// the kernel or platform has none.
    package static func openBeneath(_ dirfd: Int32, _ path: UnsafePointer<CChar>, _ flags: Int32, mode: mode_t = 0)
        -> Result<Int32, Errno>
    {
        valueOrErrno { cachectl_openat2(dirfd, path, flags, UInt32(mode), cachectl_resolve_beneath_strict()) }
    }

    /// `open` that leaves the access time alone where the system allows it (the owner, or
    /// a privileged process); with `strict`, failing (EPERM) rather than reading without it.
    package static func openWithoutAtime(
        at dirfd: Int32, _ name: UnsafePointer<CChar>, _ flags: Int32, strict: Bool = false
    ) -> Result<Int32, Errno> {
        if noAtime != 0 {
            let result = openat(dirfd, name, flags | noAtime)
            if case .failure(let error) = result, error.code == EPERM, !strict { return openat(dirfd, name, flags) }
            return result
        }
        return openat(dirfd, name, flags)
    }

    package static func openWithoutAtime(_ path: RawPath, _ flags: Int32, strict: Bool = false) -> Result<Int32, Errno>
    {
        path.withCString { openWithoutAtime(at: AT_FDCWD, $0, flags, strict: strict) }
    }

    /// A descriptor that holds the file `name` in `dirfd` without opening it (O_PATH: no
    /// side effect, whatever the file is), so that its storage outlives its last link until
    /// the descriptor is closed; nil where the system has no such descriptor, or the file
    /// cannot be reached.
    package static func hold(at dirfd: Int32, _ name: [UInt8]) -> Int32? {
        let path = cachectl_o_path()
        guard path != 0, case .success(let fd) = openat(dirfd, name, path | O_NOFOLLOW | O_CLOEXEC) else {
            return nil
        }
        return fd
    }

    package static func close(_ fd: Int32) {
        // Never retried: on Linux the descriptor is gone even when close reports EINTR.
        _ = sysClose(fd)
    }

    package static func dup(_ fd: Int32) -> Result<Int32, Errno> {
        valueOrErrno { sysDup(fd) }
    }

    // MARK: Status

    /// `fstatat(dirfd, name, AT_SYMLINK_NOFOLLOW)`.
    @inline(__always)
    package static func lstat(at dirfd: Int32, _ name: UnsafePointer<CChar>) -> Result<StatInfo, Errno> {
        var st = CStat()
        return nothingOrErrno { sysFstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) }.map { StatInfo(st) }
    }

    package static func lstat(at dirfd: Int32, _ name: [UInt8]) -> Result<StatInfo, Errno> {
        name.withCString { lstat(at: dirfd, $0) }
    }

    package static func lstat(path: RawPath) -> Result<StatInfo, Errno> {
        path.withCString { lstat(at: AT_FDCWD, $0) }
    }

    /// `stat`, following symlinks.
    package static func stat(path: RawPath) -> Result<StatInfo, Errno> {
        var st = CStat()
        return path.withCString { name in nothingOrErrno { sysFstatat(AT_FDCWD, name, &st, 0) } }.map { StatInfo(st) }
    }

    package static func fstat(_ fd: Int32) -> Result<StatInfo, Errno> {
        var st = CStat()
        return nothingOrErrno { sysFstat(fd, &st) }.map { StatInfo(st) }
    }

    /// `statx` (Linux): `fstatat` plus the mount id and birth time; falls back to `fstatat`
    /// where there is no statx. An empty name stats `dirfd` itself.
    package static func statx(at dirfd: Int32, _ name: UnsafePointer<CChar>) -> Result<StatInfo, Errno> {
        var sx = cachectl_stat()
        switch nothingOrErrno({ cachectl_statx(dirfd, name, 1, &sx) }) {
        case .success: return .success(StatInfo(sx))
        case .failure(let error) where error.code == ENOSYS:
            return name.pointee == 0 ? fstat(dirfd) : lstat(at: dirfd, name)
        case .failure(let error): return .failure(error)
        }
    }

    package static func statx(at dirfd: Int32, _ name: [UInt8]) -> Result<StatInfo, Errno> {
        name.withCString { statx(at: dirfd, $0) }
    }

    package static func statx(_ fd: Int32) -> Result<StatInfo, Errno> {
        statx(at: fd, "")
    }

    /// An extended attribute of the open file `fd`; nil when it has none of that name (or the
    /// file system keeps none).
    package static func extendedAttribute(_ fd: Int32, _ name: String) -> Result<[UInt8]?, Errno> {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = name.withCString { key in
            valueOrErrno {
                buffer.withUnsafeMutableBytes { raw -> Int in
                    Int(cachectl_fgetxattr(fd, key, raw.baseAddress, UInt(raw.count)))
                }
            }
        }
        switch n {
        case .success(let count): return .success(Array(buffer[0..<count]))
        case .failure(let error) where error.code == ENODATA || error.code == ENOTSUP || error.code == EOPNOTSUPP:
            return .success(nil)
        case .failure(let error): return .failure(error)
        }
    }

    /// Bytes available to this user on the file system holding `fd`.
    package static func availableBytes(_ fd: Int32) -> Result<Int64, Errno> {
        var info = statvfs()
        return nothingOrErrno { fstatvfs(fd, &info) }.map { Int64(info.f_bavail) &* Int64(info.f_frsize) }
    }

    /// Whether this process may write in the directory `fd` (EROFS, EACCES when not).
    package static func accessWritable(_ fd: Int32) -> Result<Void, Errno> {
        nothingOrErrno { faccessat(fd, ".", W_OK, AT_EACCESS) }
    }

    // MARK: Changing names

    package static func unlinkat(_ dirfd: Int32, _ name: UnsafePointer<CChar>, directory: Bool = false) -> Result<
        Void, Errno
    > {
        nothingOrErrno { sysUnlinkat(dirfd, name, directory ? AT_REMOVEDIR : 0) }
    }

    package static func unlinkat(_ dirfd: Int32, _ name: [UInt8], directory: Bool = false) -> Result<Void, Errno> {
        name.withCString { unlinkat(dirfd, $0, directory: directory) }
    }

    /// `renameat`, replacing what `to` names.
    package static func renameat(_ fromDir: Int32, _ from: [UInt8], _ toDir: Int32, _ to: [UInt8]) -> Result<
        Void, Errno
    > {
        from.withCString { f in to.withCString { t in nothingOrErrno { sysRenameat(fromDir, f, toDir, t) } } }
    }

    /// `renameat2(RENAME_NOREPLACE)`: EEXIST instead of replacing; where the system has no
    /// such flag, a hard link and an unlink do the same without ever replacing.
    package static func renameNoReplace(_ fromDir: Int32, _ from: [UInt8], _ toDir: Int32, _ to: [UInt8]) -> Result<
        Void, Errno
    > {
        from.withCString { f in
            to.withCString { t in
                switch nothingOrErrno({ cachectl_renameat_noreplace(fromDir, f, toDir, t) }) {
                case .failure(let error) where error.code == ENOSYS || error.code == EINVAL:
                    return nothingOrErrno { sysLinkat(fromDir, f, toDir, t, 0) }.flatMap {
                        nothingOrErrno { sysUnlinkat(fromDir, f, 0) }
                    }
                case let other: return other
                }
            }
        }
    }

    /// `linkat(AT_FDCWD, from, dirfd, name, 0)`: `name` in `dirfd` made a new name of the file
    /// at `from` (symlinks not followed; never replacing a file: EEXIST).
    package static func link(_ from: RawPath, to name: [UInt8], in dirfd: Int32) -> Result<Void, Errno> {
        from.withCString { f in name.withCString { n in nothingOrErrno { sysLinkat(AT_FDCWD, f, dirfd, n, 0) } } }
    }

    /// Makes `output` share all of `input`'s blocks (`FICLONE`: a reflink, copy on write),
    /// where the file system can (btrfs, XFS); EOPNOTSUPP, EINVAL or ENOTTY where it cannot,
    /// EXDEV across file systems.
    package static func cloneFile(_ input: Int32, to output: Int32) -> Result<Void, Errno> {
        nothingOrErrno { cachectl_clone_file(output, input) }
    }

    /// Copies what is left of `input` (from its offset) to `output` (at its offset): by the
    /// kernel where it can (`copy_file_range`, sharing blocks where the file system clones
    /// them, else `sendfile`), else through a buffer. The bytes copied.
    package static func copyContents(from input: Int32, to output: Int32) -> Result<Int64, Errno> {
        var total: Int64 = 0
        while true {
            switch valueOrErrno({ cachectl_copy_range(input, output, 1 << 30) }) {
            case .success(0): return .success(total)
            case .success(let n): total += Int64(n)
            case .failure(let error) where total == 0 && (error.code == ENOSYS || error.code == EINVAL):
                return copyThroughBuffer(from: input, to: output)
            case .failure(let error): return .failure(error)
            }
        }
    }

    private static func copyThroughBuffer(from input: Int32, to output: Int32) -> Result<Int64, Errno> {
        let size = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        var total: Int64 = 0
        while true {
            switch read(input, buffer, size) {
            case .success(0): return .success(total)
            case .success(let n):
                if case .failure(let error) = writeAll(output, UnsafeRawBufferPointer(start: buffer, count: n)) {
                    return .failure(error)
                }
                total += Int64(n)
            case .failure(let error): return .failure(error)
            }
        }
    }

    package static func mkdirat(_ dirfd: Int32, _ name: [UInt8], mode: mode_t = 0o755) -> Result<Void, Errno> {
        name.withCString { n in nothingOrErrno { sysMkdirat(dirfd, n, mode) } }
    }

    package static func mkdir(_ path: RawPath, mode: mode_t = 0o755) -> Result<Void, Errno> {
        path.withCString { p in nothingOrErrno { sysMkdirat(AT_FDCWD, p, mode) } }
    }

    /// `mkdtemp(template)`: the directory made, its path.
    package static func makeTemporaryDirectory(_ template: RawPath) -> Result<RawPath, Errno> {
        var buffer = template.bytes.map { CChar(bitPattern: $0) } + [0]
        let made = buffer.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else { return .failure(Errno.current) }
        return .success(RawPath(bytes: buffer.dropLast().map { UInt8(bitPattern: $0) }))
    }

    // MARK: Contents

    package static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Result<Int, Errno> {
        valueOrErrno { sysRead(fd, buffer, count) }
    }

    package static func pread(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, at offset: Int64) -> Result<
        Int, Errno
    > {
        valueOrErrno { sysPread(fd, buffer, count, off_t(offset)) }
    }

    /// Moves the offset to `offset` from the start.
    package static func lseekSet(_ fd: Int32, _ offset: Int64) -> Result<Int64, Errno> {
        let result = lseek(fd, off_t(offset), SEEK_SET)
        return result < 0 ? .failure(Errno(errno)) : .success(Int64(result))
    }

    /// Moves the offset to the end of the file (to append after reading).
    @discardableResult
    package static func lseekEnd(_ fd: Int32) -> Result<Int64, Errno> {
        let offset = lseek(fd, 0, SEEK_END)
        return offset < 0 ? .failure(Errno(errno)) : .success(Int64(offset))
    }

    package static func write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Result<Int, Errno> {
        valueOrErrno { sysWrite(fd, buffer, count) }
    }

    /// Writes all of `buffer` (short writes continued).
    package static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Result<Void, Errno> {
        var offset = 0
        while offset < buffer.count {
            switch write(fd, buffer.baseAddress! + offset, buffer.count - offset) {
            case .success(let n): offset += n
            case .failure(let error): return .failure(error)
            }
        }
        return .success(())
    }

    package static func fsync(_ fd: Int32) -> Result<Void, Errno> {
        nothingOrErrno { sysFsync(fd) }
    }

    /// The process's arguments, program name first, as raw bytes: from `main`'s own argv
    /// (saved at start-up), so they are there even when /proc is not mounted (where Swift's
    /// `CommandLine` on Linux has none); `CommandLine` elsewhere.
    package static var processArguments: [[UInt8]] {
        let count = Int(cachectl_saved_argc())
        if count > 0, let argv = cachectl_saved_argv() {
            return (0..<count).compactMap { index in
                argv[index].map {
                    Array(
                        UnsafeBufferPointer(
                            start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: strlen($0)))
                }
            }
        }
        return (0..<Int(CommandLine.argc)).compactMap { index in
            CommandLine.unsafeArgv[index].map {
                Array(
                    UnsafeBufferPointer(
                        start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: strlen($0)))
            }
        }
    }

    /// Whether `syncFileSystem` exists here (Linux's `syncfs`).
    #if os(Linux)
        package static let canSyncFileSystem = true
    #else
        package static let canSyncFileSystem = false
    #endif

    /// Flushes every file of the file system holding `fd` (Linux's `syncfs`, which reports
    /// write-back errors since 5.8): one call instead of an fsync per file for a batch.
    /// ENOSYS where there is no such call.
    package static func syncFileSystem(_ fd: Int32) -> Result<Void, Errno> {
        #if os(Linux)
            nothingOrErrno { cachectl_syncfs(fd) }
        #else
            .failure(Errno(ENOSYS))
        #endif
    }

    /// Fills `buffer` by `fill`, its whole pages faulted in first in one call (Linux's
    /// `madvise(MADV_POPULATE_WRITE)`, 5.14 and later) rather than a fault a page as it
    /// fills: a 9.7 MB page read into fresh memory, 4.1 -> 3.5 ms. While a helper is expected
    /// (`expectPrefaultHelper`), the filling starts at once and the helper faults the pages in
    /// from the buffer's end meanwhile (`SharedPrefault`). A hint: where the call is missing
    /// or fails, the pages fault in as before. Buffers under 1 MiB are left alone.
    package static func prefaulting<R>(_ buffer: UnsafeMutableRawBufferPointer, _ fill: () -> R) -> R {
        #if os(Linux)
            guard buffer.count >= 1 << 20, let base = buffer.baseAddress else { return fill() }
            let page = Int(getpagesize())
            let start = (Int(bitPattern: base) + page - 1) & ~(page - 1)
            let end = (Int(bitPattern: base) + buffer.count) & ~(page - 1)
            guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return fill() }
            guard SharedPrefault.isHelperComing else {
                _ = populateWrite(aligned, end - start)
                return fill()
            }
            let shared = SharedPrefault(start: aligned, length: end - start)
            SharedPrefault.offer(shared)
            defer {
                shared.stop()
                SharedPrefault.offer(nil)
            }
            return fill()
        #else
            return fill()
        #endif
    }

    /// Says that another thread will call `helpPrefault` soon (true), so that a buffer filled
    /// meanwhile is not faulted in first by its filler, or no longer (false).
    package static func expectPrefaultHelper(_ coming: Bool) {
        SharedPrefault.expectHelper(coming)
    }

    /// Helps the `prefaulting` fill another thread is doing now, if any, while it lasts (it
    /// does not wait for one).
    package static func helpPrefault() {
        SharedPrefault.help()
    }

    /// `madvise(MADV_POPULATE_WRITE)` on whole pages: false where it fails or is missing.
    static func populateWrite(_ start: UnsafeMutableRawPointer, _ count: Int) -> Bool {
        #if os(Linux)
            return madvise(start, count, MADV_POPULATE_WRITE) == 0
        #else
            return false
        #endif
    }

    /// Until `keepOnInterrupt`, Ctrl-C removes `name` in the open directory `directory` if
    /// it is still the file `identity` describes, then does what it did before: by default,
    /// ends the process by the signal (`cachectl_interrupt_cleanup_arm`). One file at a
    /// time. False when nothing was arranged (SIGINT ignored, as in a script's background
    /// job, stays ignored; or a failure).
    package static func removeOnInterrupt(_ name: [UInt8], in directory: Int32, identity: StatInfo) -> Bool {
        name.withCString { cachectl_interrupt_cleanup_arm(directory, $0, identity.device, identity.inode) } == 0
    }

    /// Ctrl-C does again what it did before `removeOnInterrupt`, removing nothing.
    package static func keepOnInterrupt() { cachectl_interrupt_cleanup_disarm() }

    package static func fchmod(_ fd: Int32, _ mode: mode_t) -> Result<Void, Errno> {
        nothingOrErrno { sysFchmod(fd, mode) }
    }

    package static func ftruncate(_ fd: Int32, _ length: Int64) -> Result<Void, Errno> {
        nothingOrErrno { sysFtruncate(fd, off_t(length)) }
    }

    /// Starts writing `count` bytes of `fd` from `offset` back to the disk, without waiting
    /// (Linux's `sync_file_range` with `SYNC_FILE_RANGE_WRITE`): a later `fsync` then waits
    /// for less. A hint: nothing elsewhere, and errors are the `fsync`'s to report.
    package static func startWriteback(_ fd: Int32, offset: Int64, count: Int64) {
        #if os(Linux)
            _ = cachectl_start_writeback(fd, offset, count)
        #endif
    }

    // MARK: Locks

    /// `flock`; with `wait` false, EWOULDBLOCK when another holder has it.
    package static func flock(_ fd: Int32, exclusive: Bool, wait: Bool) -> Result<Void, Errno> {
        let operation = (exclusive ? LOCK_EX : LOCK_SH) | (wait ? 0 : LOCK_NB)
        return nothingOrErrno { sysFlock(fd, operation) }
    }

    /// The pid of another process holding a lock over `[start, start + length)` of `fd`
    /// (length 0: to the end), 0 when it is held but the system does not say by whom; nil
    /// when no other process holds one.
    package static func lockHolder(_ fd: Int32, start: Int64, length: Int64) -> Result<Int32?, Errno> {
        var pid: Int32 = 0
        return valueOrErrno { cachectl_lock_holder(fd, start, length, &pid) }.map { $0 == 1 ? pid : nil }
    }

    package static func unlock(_ fd: Int32) {
        _ = nothingOrErrno { sysFlock(fd, LOCK_UN) }
    }

    // MARK: Directories

    /// A `DIR*` reading the directory `fd` (the caller keeps `fd`). By default it reads a
    /// duplicate, which shares `fd`'s position: right for a descriptor opened to be read
    /// once (the walker). With `independent`, it reads a new open of the same directory
    /// (`openat(fd, ".")`), for descriptors listed more than once (an anchor).
    package static func openDirectoryStream(_ fd: Int32, independent: Bool = false, noAtime: Bool = false) -> Result<
        OpaquePointer, Errno
    > {
        let copied =
            independent ? openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC | (noAtime ? self.noAtime : 0)) : dup(fd)
        switch copied {
        case .failure(let error): return .failure(error)
        case .success(let copy):
            guard let stream = fdopendir(copy) else {
                let error = Errno.current
                close(copy)
                return .failure(error)
            }
            return .success(stream)
        }
    }

    /// The next entry; nil at the end (`error` set when reading failed).
    @inline(__always)
    package static func readDirectory(_ stream: OpaquePointer, error: inout Errno?) -> UnsafeMutablePointer<dirent>? {
        errno = 0
        let entry = readdir(stream)
        if entry == nil && errno != 0 { error = Errno.current }
        return entry
    }

    package static func closeDirectoryStream(_ stream: OpaquePointer) {
        _ = closedir(stream)
    }

    /// The NUL-terminated name of a directory entry, valid until the next `readDirectory` of
    /// its stream (no closure, no copy: the walk reads a million of these).
    @inlinable @inline(__always)
    package static func name(of entry: UnsafeMutablePointer<dirent>) -> UnsafePointer<CChar> {
        UnsafeRawPointer(entry).advanced(by: MemoryLayout<dirent>.offset(of: \dirent.d_name)!).assumingMemoryBound(
            to: CChar.self)
    }

    /// The entry's name as a C string pointer, inside `body`; valid until the next `readdir`.
    @inlinable
    package static func withName<R>(_ entry: UnsafeMutablePointer<dirent>, _ body: (UnsafePointer<CChar>) -> R) -> R {
        withUnsafePointer(to: &entry.pointee.d_name) { tuple in
            tuple.withMemoryRebound(to: CChar.self, capacity: 256) { body($0) }
        }
    }

    @inlinable
    package static func type(of entry: UnsafeMutablePointer<dirent>) -> UInt8 { UInt8(entry.pointee.d_type) }

    // MARK: Paths

    /// `realpath`: the canonical absolute path, symlinks resolved.
    package static func realpath(_ path: RawPath) -> Result<RawPath, Errno> {
        guard let resolved = path.withCString({ sysRealpath($0, nil) }) else { return .failure(Errno.current) }
        defer { free(resolved) }
        return .success(RawPath(bytes: Array(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)))))
    }

    /// `readlink`: a symlink's target bytes.
    package static func readlink(_ path: RawPath) -> Result<[UInt8], Errno> {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = path.withCString { p in
            valueOrErrno {
                buffer.withUnsafeMutableBytes {
                    sysReadlink(p, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count)
                }
            }
        }
        return n.map { Array(buffer[0..<$0]) }
    }

    /// `readlinkat`: the target bytes of the symlink `name` in the directory `dirfd`.
    package static func readlink(at dirfd: Int32, _ name: [UInt8]) -> Result<[UInt8], Errno> {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = (name + [0]).withUnsafeBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { cName in
                valueOrErrno {
                    buffer.withUnsafeMutableBytes {
                        sysReadlinkat(dirfd, cName, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count)
                    }
                }
            }
        }
        return n.map { Array(buffer[0..<$0]) }
    }

    // MARK: Sockets

    /// Why a TCP connection was not made.
    package enum ConnectFailure: Error, Sendable {
        /// The name did not resolve (getaddrinfo's words).
        case resolve(String)
        /// The last address tried refused, or another system error.
        case system(Errno)
        /// No address answered within the time given.
        case timedOut
        /// `cancelled` said so while a connection was being waited for.
        case cancelled
    }

    /// A blocking TCP socket connected to `host`:`port`, by the first of its addresses to
    /// answer within `timeout` milliseconds (`connectFirst`). Close-on-exec, no Nagle delay, no
    /// SIGPIPE; a receive or send waiting longer than `ioTimeout` milliseconds fails with
    /// EAGAIN. `cancelled` is asked every 50 ms while the name is resolved or a connection
    /// waited for (a host that drops the connection request leaves `connect` waiting for the
    /// whole timeout): when it says so, the attempt ends.
    package static func connectTCP(
        host: String, port: Int, timeout: Int32, ioTimeout: Int, cancelled: () -> Bool = { false }
    ) -> Result<Int32, ConnectFailure> {
        let addresses: [Address]
        switch resolve(host: host, port: port, cancelled: cancelled) {
        case .success(let found): addresses = found
        case .failure(let failure): return .failure(failure)
        }
        return connectFirst(addresses, timeout: timeout, cancelled: cancelled).map { fd in
            setSocketOptions(fd, ioTimeout: ioTimeout)
            return fd
        }
    }

    /// An address the resolver gave: what `socket` and `connect` take.
    package struct Address: Sendable {
        var family, type, proto: Int32
        var bytes: [UInt8]
    }

    /// The addresses of `host` in the resolver's order. A name is resolved on a thread of its
    /// own, waited for in slices of 50 ms, asking `cancelled` between them: `getaddrinfo`
    /// cannot be interrupted, and a resolver that does not answer holds it for its timeouts
    /// (5 s per try and server). A cancelled wait leaves the thread to end on its own, as
    /// curl's threaded resolver does. A numeric address is resolved here.
    private static func resolve(host: String, port: Int, cancelled: () -> Bool) -> Result<[Address], ConnectFailure> {
        if isNumericAddress(host) { return lookUp(host, port) }
        final class Pending: @unchecked Sendable {
            // @unchecked Sendable: `result` is only touched with `lock` held.
            let lock = ConditionLock()
            var result: Result<[Address], ConnectFailure>?
        }
        let pending = Pending()
        guard
            WorkerPool.spawn({
                let result = lookUp(host, port)
                pending.lock.withLock {
                    pending.result = result
                    pending.lock.broadcast()
                }
            })
        else { return lookUp(host, port) }
        pending.lock.lock()
        defer { pending.lock.unlock() }
        while true {
            if let result = pending.result { return result }
            pending.lock.wait(milliseconds: 50)
            if pending.result == nil && cancelled() { return .failure(.cancelled) }
        }
    }

    /// Whether `host` is an IPv4 or IPv6 address (no brackets), not a name.
    package static func isNumericAddress(_ host: String) -> Bool {
        var bytes = [UInt8](repeating: 0, count: 16)
        return inet_pton(AF_INET, host, &bytes) == 1 || inet_pton(AF_INET6, host, &bytes) == 1
    }

    /// `getaddrinfo` for a TCP connection to `host`:`port`, its list copied.
    package static func lookUp(_ host: String, _ port: Int) -> Result<[Address], ConnectFailure> {
        var hints = addrinfo()
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        hints.ai_protocol = Int32(IPPROTO_TCP)
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0 else {
            if rc == EAI_SYSTEM { return .failure(.system(Errno(errno))) }
            return .failure(.resolve(String(cString: gai_strerror(rc))))
        }
        defer { freeaddrinfo(list) }
        var addresses: [Address] = []
        var entry = list
        while let info = entry?.pointee {
            entry = info.ai_next
            guard let address = info.ai_addr else { continue }
            let bytes = UnsafeRawBufferPointer(start: address, count: Int(info.ai_addrlen))
            addresses.append(
                Address(family: info.ai_family, type: info.ai_socktype, proto: info.ai_protocol, bytes: Array(bytes)))
        }
        return .success(addresses)
    }

    /// Happy Eyeballs (RFC 8305 §5, as curl and NIO connect): the addresses are tried in the
    /// resolver's order with the families interleaved (§4), the next one started when the one
    /// before has not answered within `delay` milliseconds, or has failed; the first to
    /// connect wins and the others are closed. A host whose IPv6 addresses are silently
    /// dropped is reached over IPv4 after 250 ms instead of after the whole timeout. Ends with
    /// `timedOut` once `timeout` milliseconds have passed since the first attempt, `cancelled`
    /// when `cancelled` says so (asked every 50 ms at most), or the last failure.
    package static func connectFirst(
        _ addresses: [Address], timeout: Int32, delay: Int64 = 250, cancelled: () -> Bool
    ) -> Result<Int32, ConnectFailure> {
        let order = interleavedByFamily(addresses)
        let deadline = monotonicMilliseconds() + Int64(timeout)
        var waiting: [Int32] = []
        defer { for fd in waiting { close(fd) } }
        var (next, nextStart) = (0, Int64.min)
        var failure = ConnectFailure.resolve("no address")
        while true {
            let now = monotonicMilliseconds()
            if next < order.count && (waiting.isEmpty || now >= nextStart) {
                switch startConnect(order[next]) {
                case .success(let (fd, connected)) where connected: return .success(blocking(fd))
                case .success(let (fd, _)): waiting.append(fd)
                case .failure(let error): failure = error
                }
                (next, nextStart) = (next + 1, now + delay)
                continue
            }
            if waiting.isEmpty { return .failure(failure) }
            if now >= deadline { return .failure(.timedOut) }
            if cancelled() { return .failure(.cancelled) }
            let until = min(deadline, next < order.count ? nextStart : deadline) - now
            var polled = waiting.map { pollfd(fd: $0, events: Int16(POLLOUT), revents: 0) }
            if case .failure(let error) = valueOrErrno({ poll(&polled, nfds_t(polled.count), Int32(min(50, until))) }) {
                return .failure(.system(error))
            }
            for entry in polled where entry.revents != 0 {
                waiting.removeAll { $0 == entry.fd }
                var problem: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                _ = getsockopt(entry.fd, SOL_SOCKET, SO_ERROR, &problem, &length)
                if problem == 0 { return .success(blocking(entry.fd)) }
                close(entry.fd)
                (failure, nextStart) = (.system(Errno(problem)), now)
            }
        }
    }

    /// `addresses` with their families taking turns, starting with the first one's (RFC 8305 §4).
    private static func interleavedByFamily(_ addresses: [Address]) -> [Address] {
        guard let first = addresses.first?.family else { return [] }
        let (preferred, others) = (addresses.filter { $0.family == first }, addresses.filter { $0.family != first })
        var order: [Address] = []
        for i in 0..<max(preferred.count, others.count) {
            if i < preferred.count { order.append(preferred[i]) }
            if i < others.count { order.append(others[i]) }
        }
        return order
    }

    /// A non-blocking socket connecting to `address`: its descriptor, and whether it is
    /// already connected (else in progress).
    private static func startConnect(_ address: Address) -> Result<(Int32, Bool), ConnectFailure> {
        let fd = socket(address.family, address.type, address.proto)
        guard fd >= 0 else { return .failure(.system(Errno(errno))) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        let started = address.bytes.withUnsafeBytes { raw in
            sysConnect(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
        }
        if started == 0 { return .success((fd, true)) }
        let code = errno
        guard code == EINPROGRESS || code == EINTR else {
            close(fd)
            return .failure(.system(Errno(code)))
        }
        return .success((fd, false))
    }

    /// `fd` made blocking again.
    private static func blocking(_ fd: Int32) -> Int32 {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    private static func monotonicMilliseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }

    private static func setSocketOptions(_ fd: Int32, ioTimeout: Int) {
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
            _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var wait = timeval(tv_sec: ioTimeout / 1000, tv_usec: .init((ioTimeout % 1000) * 1000))
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Receives into `buffer`: the bytes received, 0 at the end of the stream.
    package static func receive(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, flags: Int32 = 0)
        -> Result<Int, Errno>
    {
        valueOrErrno { recv(fd, buffer.baseAddress, buffer.count, flags) }
    }

    /// What `receive` gives without waiting: `EAGAIN` when nothing has arrived.
    package static let dontWait = Int32(MSG_DONTWAIT)
    /// With `dontWait`: whether anything has arrived, leaving it to be received.
    package static let peek = Int32(MSG_PEEK)

    /// Sends all of `buffer` (short sends continued), never raising SIGPIPE.
    package static func sendAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Result<Void, Errno> {
        #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
        #else
            let flags: Int32 = 0
        #endif
        var offset = 0
        while offset < buffer.count {
            switch valueOrErrno({ send(fd, buffer.baseAddress! + offset, buffer.count - offset, flags) }) {
            case .success(let n): offset += n
            case .failure(let error): return .failure(error)
            }
        }
        return .success(())
    }

    /// Ends both directions of a socket: a thread blocked receiving on it returns at once.
    package static func shutdownSocket(_ fd: Int32) {
        #if canImport(Glibc)
            _ = shutdown(fd, Int32(SHUT_RDWR))
        #else
            _ = shutdown(fd, SHUT_RDWR)
        #endif
    }

    // MARK: Process

    /// Raises the soft limit on open descriptors to the hard limit: a deep tree keeps one
    /// descriptor per level with pending subdirectories.
    package static func raiseDescriptorLimit() {
        var limit = rlimit()
        #if canImport(Glibc)
            let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        var raised = limit
        raised.rlim_cur = limit.rlim_max
        #if canImport(Darwin)
            raised.rlim_cur = min(limit.rlim_max, rlim_t(OPEN_MAX))
        #endif
        _ = setrlimit(resource, &raised)
    }

    package static var processorCount: Int {
        let n = sysconf(Int32(_SC_NPROCESSORS_ONLN))
        return n > 0 ? n : 1
    }

    /// The effective user id.
    package static var effectiveUser: UInt32 { UInt32(geteuid()) }

    /// For `Trace`: monotonic wall-clock milliseconds, the calling thread's CPU milliseconds,
    /// its kernel thread id, and the page faults it has taken (minor ones: memory touched for
    /// the first time; on Linux, where a thread's own count is kept, else the process's).
    package static func traceClocks() -> (wall: Double, cpu: Double, thread: Int, faults: Int) {
        func milliseconds(_ clock: clockid_t) -> Double {
            var time = timespec()
            clock_gettime(clock, &time)
            return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1_000_000
        }
        var usage = rusage()
        #if os(Linux)
            getrusage(__rusage_who_t(1), &usage)  // RUSAGE_THREAD (not imported)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        return (
            milliseconds(CLOCK_MONOTONIC), milliseconds(CLOCK_THREAD_CPUTIME_ID), Int(cachectl_thread_id()),
            Int(usage.ru_minflt)
        )
    }

    /// Writes `text` to stderr at once, unbuffered (a line from one thread stays whole).
    package static func writeDiagnostic(_ text: String) {
        var text = text
        text.withUTF8 { _ = writeAll(2, UnsafeRawBufferPointer($0)) }
    }

    /// The environment variable's value, nil when unset.
    package static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// A user's login name, nil when the password database has none.
    package static func userName(_ uid: UInt32) -> String? {
        guard let entry = getpwuid(uid_t(uid)), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }

    /// The home directory from the password database, for when `HOME` is unset.
    package static func passwordHome() -> String? {
        guard let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir else { return nil }
        return String(cString: dir)
    }
}

// MARK: - The C functions, named once

// The libc functions as values (swift-nio's `private let sysClose = close`): inside `Sys`
// the names `open` and `stat` are the wrappers, and this keeps the C names in this one file.
#if canImport(Glibc)
    private typealias CStat = Glibc.stat
#else
    private typealias CStat = Darwin.stat
#endif
private let sysOpenat: @Sendable (Int32, UnsafePointer<CChar>, Int32, mode_t) -> Int32 = openat
private let sysClose: @Sendable (Int32) -> Int32 = close
private let sysConnect: @Sendable (Int32, UnsafePointer<sockaddr>?, socklen_t) -> Int32 = connect
private let sysDup: @Sendable (Int32) -> Int32 = dup
private let sysFstat: @Sendable (Int32, UnsafeMutablePointer<CStat>) -> Int32 = fstat
private let sysFstatat: @Sendable (Int32, UnsafePointer<CChar>, UnsafeMutablePointer<CStat>, Int32) -> Int32 = fstatat
private let sysUnlinkat: @Sendable (Int32, UnsafePointer<CChar>, Int32) -> Int32 = unlinkat
private let sysRenameat: @Sendable (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>) -> Int32 = renameat
private let sysLinkat: @Sendable (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, Int32) -> Int32 = linkat
private let sysMkdirat: @Sendable (Int32, UnsafePointer<CChar>, mode_t) -> Int32 = mkdirat
private let sysRead: @Sendable (Int32, UnsafeMutableRawPointer?, Int) -> Int = read
private let sysPread: @Sendable (Int32, UnsafeMutableRawPointer?, Int, off_t) -> Int = pread
private let sysWrite: @Sendable (Int32, UnsafeRawPointer?, Int) -> Int = write
private let sysFsync: @Sendable (Int32) -> Int32 = fsync
private let sysFchmod: @Sendable (Int32, mode_t) -> Int32 = fchmod
private let sysFtruncate: @Sendable (Int32, off_t) -> Int32 = ftruncate
private let sysFlock: @Sendable (Int32, Int32) -> Int32 = flock
private let sysRealpath:
    @Sendable (UnsafePointer<CChar>, UnsafeMutablePointer<CChar>?) -> UnsafeMutablePointer<CChar>? = realpath
private let sysReadlink: @Sendable (UnsafePointer<CChar>, UnsafeMutablePointer<CChar>, Int) -> Int = readlink
private let sysReadlinkat: @Sendable (Int32, UnsafePointer<CChar>, UnsafeMutablePointer<CChar>, Int) -> Int = readlinkat

extension Sys {
    /// The last `byte` in `bytes` (`memrchr`), or nil.
    package static func lastIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress, let found = cachectl_memrchr(base, Int32(byte), bytes.count) else {
            return nil
        }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }
}

extension Sys {
    /// A hint to bring the cache line holding `buffer[offset]` in for reading (nothing when
    /// `offset` is out of the buffer).
    @inlinable @inline(__always)
    package static func prefetch(_ buffer: UnsafeBufferPointer<UInt8>, at offset: Int) {
        guard offset >= 0, offset < buffer.count, let base = buffer.baseAddress else { return }
        cachectl_prefetch(base + offset)
    }
}
