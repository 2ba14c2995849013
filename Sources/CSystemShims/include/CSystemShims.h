// The system calls Swift cannot reach through Glibc's module: openat2, statx and renameat2
// have no glibc wrapper on Debian 12 (or one behind _GNU_SOURCE), and `syscall` is variadic,
// which Swift does not import. Each returns what the kernel returned, -1 with errno set on
// failure, and ENOSYS where the platform has no such call (macOS, old kernels).
#ifndef CSYSTEMSHIMS_H
#define CSYSTEMSHIMS_H

#include <stddef.h>
#include <stdint.h>

/// `openat2(dirfd, path, {flags, mode, resolve})`.
int cachectl_openat2(int dirfd, const char *path, int flags, unsigned int mode, uint64_t resolve);

/// The process's arguments as `main` got them, saved by an ELF constructor (glibc passes
/// argc, argv and envp to them): Swift's `CommandLine` reads /proc/self/cmdline on Linux and
/// finds nothing when /proc is not mounted. 0 and NULL where no constructor ran.
int cachectl_saved_argc(void);
char *const *cachectl_saved_argv(void);
/* The calling thread's kernel id (gettid on Linux; 0 elsewhere), for trace lines. */
long cachectl_thread_id(void);
/* sync_file_range(SYNC_FILE_RANGE_WRITE) on Linux: starts writeback, does not wait; 0 elsewhere. */
int cachectl_start_writeback(int fd, int64_t offset, int64_t count);

/// `syncfs(fd)`: flushes the whole file system holding `fd` (glibc declares it only with
/// _GNU_SOURCE).
int cachectl_syncfs(int fd);

/// Up to `count` bytes from `in` to `out` at their file offsets, copied by the kernel:
/// `copy_file_range` (which shares the blocks where the file system can clone them), else,
/// where that call cannot join the two files (EXDEV, EINVAL, ENOSYS, EOPNOTSUPP: two file
/// systems), `sendfile`. The bytes copied, 0 at the end of `in`; ENOSYS off Linux.
long cachectl_copy_range(int in, int out, unsigned long count);

/// `ioctl(out, FICLONE, in)`: makes `out` share all of `in`'s blocks (a reflink, copy on
/// write; btrfs, XFS, bcachefs). EOPNOTSUPP, EINVAL or ENOTTY where the file system cannot,
/// EXDEV across file systems, ENOSYS off Linux.
int cachectl_clone_file(int out, int in);

/// glibc's `mallopt(M_MMAP_THRESHOLD, mmap)` and `mallopt(M_TRIM_THRESHOLD, trim)`
/// (<malloc.h> is not in Swift's Glibc module); 0 where there is no glibc.
int cachectl_malloc_thresholds(int mmap, int trim);

/// The last `c` in the `n` bytes at `s`, or NULL: glibc's `memrchr` (declared only with
/// _GNU_SOURCE, so not in Swift's Glibc module), a byte loop where there is none.
const void *cachectl_memrchr(const void *s, int c, size_t n);

/// Makes glibc's heap of the calling thread (not the main thread's) ready to grow to about
/// `bytes` without an mprotect per page (see shims.c); once per thread and size. The blocks
/// allocated for it, 0 where there is nothing to do or no glibc.
int cachectl_reserve_thread_heap(size_t bytes);

/// Gives the calling thread (only) the lowest scheduling priority: nice 19 on Linux (where
/// `setpriority` on a thread id applies to that thread), the background QoS class on Apple
/// systems. 0 on success, else -1 with errno.
int cachectl_lowest_thread_priority(void);

/// RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV (0 where openat2 does not exist).
uint64_t cachectl_resolve_beneath_strict(void);

/// The fields of `statx` cachectl reads. `mask` says which of them the file system filled.
struct cachectl_stat {
    uint64_t dev;
    uint64_t ino;
    uint64_t nlink;
    int64_t size;
    int64_t blocks;
    uint64_t mnt_id;
    uint32_t mode;
    uint32_t uid;
    uint32_t gid;
    uint32_t mask;
    int64_t atime_sec, mtime_sec, ctime_sec, btime_sec;
    uint32_t atime_nsec, mtime_nsec, ctime_nsec, btime_nsec;
};

/// Bits of `cachectl_stat.mask`.
#define CACHECTL_STAT_BTIME 0x1u
#define CACHECTL_STAT_MNT_ID 0x2u

/// `statx(dirfd, path, flags, basic stats | birth time | mount id)`; `nofollow` adds
/// AT_SYMLINK_NOFOLLOW, an empty path adds AT_EMPTY_PATH (the descriptor itself).
int cachectl_statx(int dirfd, const char *path, int nofollow, struct cachectl_stat *out);

/// `renameat2(..., RENAME_NOREPLACE)` (macOS: `renameatx_np(..., RENAME_EXCL)`): fails with
/// EEXIST instead of replacing an existing name.
int cachectl_renameat_noreplace(int olddirfd, const char *oldpath, int newdirfd, const char *newpath);

/// Whether a lock (shared or exclusive, POSIX or open-file-description) held by any process
/// other than this one covers [start, start + length) of the open file `fd` (length 0: to the
/// end): 1 and its holder's pid in `*pid` (0 when the system does not say), 0 when none, -1 with
/// errno on failure. Uses F_OFD_GETLK where the system has it, else F_GETLK.
int cachectl_lock_holder(int fd, int64_t start, int64_t length, int32_t *pid);

/// `fgetxattr` (the byte count, or -1 with errno: ENODATA/ENOATTR when there is none).
long cachectl_fgetxattr(int fd, const char *name, void *buffer, unsigned long size);

/// O_NOATIME on Linux, 0 elsewhere (Glibc's module hides it behind _GNU_SOURCE).
int cachectl_o_noatime(void);

/// O_PATH on Linux (a descriptor that names a file without opening it), 0 elsewhere.
int cachectl_o_path(void);

/// Until `cachectl_interrupt_cleanup_disarm`, Ctrl-C (SIGINT) first removes `name` in the
/// open directory `dirfd` when it is still the file with device `dev` and inode `ino` (a
/// temporary file this process made), then does what it did before (the action found when
/// first armed: the default ends the process by the signal). Only async-signal-safe calls
/// run in the handler (fstatat, unlinkat, sigaction, raise): the one removal outside the
/// deletion engine (`Deleter`), which a signal handler cannot call; like
/// `Deleter.removeOwnFile`, it removes the name only while it is still that file. One file
/// at a time; `name` is copied (at most 255 bytes: -1 and ENAMETOOLONG beyond). 0 when
/// armed, 1 when SIGINT is ignored (nothing done: it stays ignored), -1 on failure.
int cachectl_interrupt_cleanup_arm(int dirfd, const char *name, uint64_t dev, uint64_t ino);

/// Forgets the file and gives SIGINT back the action it had before it was armed.
void cachectl_interrupt_cleanup_disarm(void);

/// Asks the processor to bring the cache line at `address` in for reading (a hint: no
/// effect on what the program computes, nothing for an address that is not mapped).
static inline void cachectl_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

#endif
