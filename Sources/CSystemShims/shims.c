#define _GNU_SOURCE
#include "CSystemShims.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/xattr.h>

#if defined(__linux__)
#include <sys/ioctl.h>
#include <sys/sendfile.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <linux/openat2.h>
#endif

int cachectl_openat2(int dirfd, const char *path, int flags, unsigned int mode, uint64_t resolve) {
#if defined(__linux__) && defined(SYS_openat2)
    struct open_how how;
    memset(&how, 0, sizeof how);
    how.flags = (uint64_t)(unsigned int)flags;
    how.mode = (flags & O_CREAT) ? mode : 0;
    how.resolve = resolve;
    return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof how);
#else
    (void)dirfd; (void)path; (void)flags; (void)mode; (void)resolve;
    errno = ENOSYS;
    return -1;
#endif
}

static int saved_argc;
static char *const *saved_argv;

#if defined(__linux__)
__attribute__((constructor)) static void cachectl_save_arguments(int argc, char **argv, char **envp) {
    (void)envp;
    saved_argc = argc;
    saved_argv = argv;
}

/* Sizes the descriptor table for 1,024 descriptors (or the soft limit) while the process still
 * has one thread. The kernel grows the table on demand, and in a process whose table is shared
 * by several threads every growth waits for an RCU grace period (`synchronize_rcu` in
 * `expand_fdtable`, fs/file.c): localize, opening a store's 256 body directories while libxml2
 * parses on another thread, stood about 10 ms in openat2 -> alloc_fd -> expand_files ->
 * synchronize_rcu (sched_switch), and fetch grew its table three times so. A table grown
 * before any thread exists costs no wait, and it never shrinks. F_DUPFD takes the lowest free
 * descriptor from the number up, so no inherited descriptor is touched. */
__attribute__((constructor)) static void cachectl_size_descriptor_table(void) {
    long want = 1023;
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY && (long)limit.rlim_cur <= want) {
        want = (long)limit.rlim_cur - 1;
    }
    if (want < 64) return;
    int fd = open("/", O_PATH | O_CLOEXEC);
    if (fd < 0) return;
    int high = fcntl(fd, F_DUPFD_CLOEXEC, (int)want);
    if (high >= 0) close(high);
    close(fd);
}
#endif

int cachectl_saved_argc(void) { return saved_argc; }
char *const *cachectl_saved_argv(void) { return saved_argv; }

long cachectl_copy_range(int in, int out, unsigned long count) {
#if defined(__linux__)
    ssize_t copied = copy_file_range(in, NULL, out, NULL, count, 0);
    if (copied >= 0 || (errno != EXDEV && errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)) {
        return copied;
    }
    return sendfile(out, in, NULL, count);
#else
    (void)in;
    (void)out;
    (void)count;
    errno = ENOSYS;
    return -1;
#endif
}

#if defined(__linux__) && !defined(FICLONE)
#define FICLONE _IOW(0x94, 9, int) /* include/uapi/linux/fs.h */
#endif

int cachectl_clone_file(int out, int in) {
#if defined(__linux__)
    return ioctl(out, FICLONE, in);
#else
    (void)out;
    (void)in;
    errno = ENOSYS;
    return -1;
#endif
}

int cachectl_syncfs(int fd) {
#if defined(__linux__)
    return syncfs(fd);
#else
    (void)fd;
    errno = ENOSYS;
    return -1;
#endif
}

uint64_t cachectl_resolve_beneath_strict(void) {
#if defined(__linux__) && defined(SYS_openat2)
    return RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV;
#else
    return 0;
#endif
}

#if defined(__linux__) && defined(SYS_statx)
/* The kernel's struct statx (linux/stat.h), spelled out: glibc's own definition may lack
   stx_mnt_id, and both headers cannot be included together. */
struct cachectl_kernel_timestamp { int64_t tv_sec; uint32_t tv_nsec; int32_t reserved; };
struct cachectl_kernel_statx {
    uint32_t mask; uint32_t blksize; uint64_t attributes;
    uint32_t nlink; uint32_t uid; uint32_t gid; uint16_t mode; uint16_t spare0;
    uint64_t ino; uint64_t size; uint64_t blocks; uint64_t attributes_mask;
    struct cachectl_kernel_timestamp atime, btime, ctime, mtime;
    uint32_t rdev_major, rdev_minor, dev_major, dev_minor;
    uint64_t mnt_id;
    uint64_t spare[13];
};
#define CACHECTL_STATX_BASIC 0x000007ffU
#define CACHECTL_STATX_BTIME 0x00000800U
#define CACHECTL_STATX_MNT_ID 0x00001000U
#endif

int cachectl_statx(int dirfd, const char *path, int nofollow, struct cachectl_stat *out) {
#if defined(__linux__) && defined(SYS_statx)
    struct cachectl_kernel_statx sx;
    memset(&sx, 0, sizeof sx);
    int flags = 0; /* AT_STATX_SYNC_AS_STAT */
    if (nofollow) flags |= AT_SYMLINK_NOFOLLOW;
    if (path[0] == 0) flags |= AT_EMPTY_PATH;
    unsigned int want = CACHECTL_STATX_BASIC | CACHECTL_STATX_BTIME | CACHECTL_STATX_MNT_ID;
    if (syscall(SYS_statx, dirfd, path, flags, want, &sx) != 0) return -1;
    memset(out, 0, sizeof *out);
    out->dev = makedev(sx.dev_major, sx.dev_minor);
    out->ino = sx.ino;
    out->nlink = sx.nlink;
    out->size = (int64_t)sx.size;
    out->blocks = (int64_t)sx.blocks;
    out->mode = sx.mode;
    out->uid = sx.uid;
    out->gid = sx.gid;
    out->atime_sec = sx.atime.tv_sec; out->atime_nsec = sx.atime.tv_nsec;
    out->mtime_sec = sx.mtime.tv_sec; out->mtime_nsec = sx.mtime.tv_nsec;
    out->ctime_sec = sx.ctime.tv_sec; out->ctime_nsec = sx.ctime.tv_nsec;
    if (sx.mask & CACHECTL_STATX_BTIME) {
        out->mask |= CACHECTL_STAT_BTIME;
        out->btime_sec = sx.btime.tv_sec; out->btime_nsec = sx.btime.tv_nsec;
    }
    if (sx.mask & CACHECTL_STATX_MNT_ID) {
        out->mask |= CACHECTL_STAT_MNT_ID;
        out->mnt_id = sx.mnt_id;
    }
    return 0;
#else
    (void)dirfd; (void)path; (void)nofollow; (void)out;
    errno = ENOSYS;
    return -1;
#endif
}

int cachectl_renameat_noreplace(int olddirfd, const char *oldpath, int newdirfd, const char *newpath) {
#if defined(__linux__) && defined(SYS_renameat2)
    return (int)syscall(SYS_renameat2, olddirfd, oldpath, newdirfd, newpath, 1 /* RENAME_NOREPLACE */);
#elif defined(__APPLE__)
    extern int renameatx_np(int, const char *, int, const char *, unsigned int);
    return renameatx_np(olddirfd, oldpath, newdirfd, newpath, 0x00000004 /* RENAME_EXCL */);
#else
    (void)olddirfd; (void)oldpath; (void)newdirfd; (void)newpath;
    errno = ENOSYS;
    return -1;
#endif
}

int cachectl_lock_holder(int fd, int64_t start, int64_t length, int32_t *pid) {
    struct flock probe;
    memset(&probe, 0, sizeof probe);
    probe.l_type = F_WRLCK; /* conflicts with any lock, shared or exclusive */
    probe.l_whence = SEEK_SET;
    probe.l_start = (off_t)start;
    probe.l_len = (off_t)length;
#ifdef F_OFD_GETLK
    /* As an open-file-description lock, the probe conflicts with this process's own POSIX
       locks too; those are filtered out by pid below. */
    if (fcntl(fd, F_OFD_GETLK, &probe) != 0) {
        if (errno != EINVAL) return -1;
        probe.l_type = F_WRLCK;
        if (fcntl(fd, F_GETLK, &probe) != 0) return -1;
    }
#else
    if (fcntl(fd, F_GETLK, &probe) != 0) return -1;
#endif
    if (probe.l_type == F_UNLCK) return 0;
    if (probe.l_pid == getpid()) return 0;
    *pid = (int32_t)probe.l_pid;
    return 1;
}

long cachectl_fgetxattr(int fd, const char *name, void *buffer, unsigned long size) {
#if defined(__APPLE__)
    long n = fgetxattr(fd, name, buffer, size, 0, 0);
    if (n < 0 && errno == ENOATTR) errno = ENODATA;
    return n;
#else
    return (long)fgetxattr(fd, name, buffer, size);
#endif
}

int cachectl_o_noatime(void) {
#if defined(__linux__)
    return O_NOATIME;
#else
    return 0;
#endif
}

int cachectl_o_path(void) {
#if defined(__linux__)
    return O_PATH;
#else
    return 0;
#endif
}

#if defined(__GLIBC__)
#include <malloc.h>
/* The mmap threshold last set here (0: glibc's own, which starts at 128 KiB). */
static _Atomic size_t set_mmap_threshold;

int cachectl_malloc_thresholds(int mmap, int trim) {
    int done = mallopt(M_MMAP_THRESHOLD, mmap) && mallopt(M_TRIM_THRESHOLD, trim);
    if (done && mmap > 0) set_mmap_threshold = (size_t)mmap;
    return done;
}

/* glibc grows the heap of any arena but the main one (each thread that allocates gets one) by
 * what the allocation lacks, rounded to a page: one mprotect per growth, with no top pad
 * (sysmalloc -> grow_heap, malloc/malloc.c and malloc/arena.c of glibc 2.36), and a page fault
 * after it. A thread building a page's tags and references grows its heap some 4,500 times
 * so. A heap keeps its protected size when it is trimmed (shrink_heap advises the pages away
 * and leaves mprotect_size), so growing it once through blocks just under the mmap threshold,
 * then freeing them in order (they coalesce into the top, trimmed once, or kept whole under a
 * trim threshold above them, as localize sets it: MemoryReturn.keepFreedMemory), leaves the
 * heap ready to grow that far with no mprotect. Not on the main thread, whose heap grows by
 * brk with a top pad. */
int cachectl_reserve_thread_heap(size_t bytes) {
    static __thread size_t reserved;
    if (reserved >= bytes || (pid_t)syscall(SYS_gettid) == getpid()) return 0;
    /* Blocks as large as the threshold set here allows (each growth is one mprotect: a 29 MiB
     * reservation in 120 KiB blocks was 240 of them), else just under glibc's own 128 KiB. */
    enum { most = 560 };
    size_t threshold = set_mmap_threshold;
    size_t block = threshold > (1 << 20) ? threshold - (64 << 10) : 120 * 1024;
    if (block > bytes) block = bytes;
    void *held[most];
    size_t count = 0;
    while (count < most && count * block < bytes) {
        void *p = malloc(block);
        if (p == NULL) break;
        held[count++] = p;
    }
    for (size_t i = 0; i < count; i++) free(held[i]);
    reserved = bytes;
    return (int)count;
}
#else
int cachectl_reserve_thread_heap(size_t bytes) {
    (void)bytes;
    return 0;
}
int cachectl_malloc_thresholds(int mmap, int trim) {
    (void)mmap;
    (void)trim;
    return 0;
}
#endif

#if defined(__linux__)
#include <sys/resource.h>
int cachectl_lowest_thread_priority(void) { return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19); }
#elif defined(__APPLE__)
#include <pthread.h>
int cachectl_lowest_thread_priority(void) {
    int error = pthread_set_qos_class_self_np(QOS_CLASS_BACKGROUND, 0);
    if (error) errno = error;
    return error ? -1 : 0;
}
#else
int cachectl_lowest_thread_priority(void) {
    errno = ENOSYS;
    return -1;
}
#endif

static volatile sig_atomic_t cleanup_armed;
static struct sigaction cleanup_previous;
static int cleanup_installed;
static int cleanup_dirfd = -1;
static char cleanup_name[256];
static uint64_t cleanup_dev, cleanup_ino;

static void cachectl_interrupt_cleanup_handler(int sig) {
    if (cleanup_armed) {
        struct stat st;
        if (fstatat(cleanup_dirfd, cleanup_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && (uint64_t)st.st_dev == cleanup_dev
            && (uint64_t)st.st_ino == cleanup_ino) {
            unlinkat(cleanup_dirfd, cleanup_name, 0);
        }
    }
    sigaction(sig, &cleanup_previous, NULL);
    raise(sig);
}

int cachectl_interrupt_cleanup_arm(int dirfd, const char *name, uint64_t dev, uint64_t ino) {
    size_t length = strlen(name);
    if (length >= sizeof cleanup_name) {
        errno = ENAMETOOLONG;
        return -1;
    }
    cleanup_armed = 0;
    memcpy(cleanup_name, name, length + 1);
    cleanup_dirfd = dirfd;
    cleanup_dev = dev;
    cleanup_ino = ino;
    if (!cleanup_installed) {
        struct sigaction action;
        if (sigaction(SIGINT, NULL, &cleanup_previous) != 0) return -1;
        // Started with Ctrl-C ignored (a background job of a script, nohup): it stays ignored.
        if (cleanup_previous.sa_handler == SIG_IGN) return 1;
        memset(&action, 0, sizeof action);
        action.sa_handler = cachectl_interrupt_cleanup_handler;
        sigemptyset(&action.sa_mask);
        if (sigaction(SIGINT, &action, NULL) != 0) return -1;
        cleanup_installed = 1;
    }
    cleanup_armed = 1;
    return 0;
}

void cachectl_interrupt_cleanup_disarm(void) {
    cleanup_armed = 0;
    if (cleanup_installed) {
        sigaction(SIGINT, &cleanup_previous, NULL);
        cleanup_installed = 0;
    }
}

long cachectl_thread_id(void) {
#if defined(__linux__)
    return (long)syscall(SYS_gettid);
#else
    return 0;
#endif
}

int cachectl_start_writeback(int fd, int64_t offset, int64_t count) {
#if defined(__linux__)
    return sync_file_range(fd, (off64_t)offset, (off64_t)count, SYNC_FILE_RANGE_WRITE);
#else
    (void)fd; (void)offset; (void)count;
    return 0;
#endif
}

const void *cachectl_memrchr(const void *s, int c, size_t n) {
#if defined(__GLIBC__)
    return memrchr(s, c, n);
#else
    const unsigned char *p = (const unsigned char *)s + n;
    while (p != (const unsigned char *)s) {
        if (*--p == (unsigned char)c) return p;
    }
    return NULL;
#endif
}
