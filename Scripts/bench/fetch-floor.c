/* The least a fetch that keeps cachectl's promises can take on this machine: what any client
 * must do to store the bench's files the way cachectl's store does, and nothing else.
 * Scripts/bench/fetch times it as a process beside cachectl and curl, on the same list and
 * the same file system, so its ratio to curl bounds what cachectl can reach.
 *
 * It opens N keep-alive HTTP/1.1 connections to 127.0.0.1 (one thread each, blocking reads
 * into one buffer, as curl does), takes the URLs in turn, writes each body to a file of its
 * own in OUT, hashes it with SHA-256 as it arrives (OpenSSL, which uses the CPU's SHA
 * instructions; cachectl records each body's SHA-256 for prune's corruption check), and with
 * SYNC=1 makes everything durable with one syncfs at the end: the least a store that flushes
 * its bodies before an index row names them can do (cachectl flushes once per batch; one
 * flush at the end measured no faster for it). No index, no parsing beyond Content-Length,
 * no redirects, no freshness: a response without Content-Length stops it.
 *
 * Usage: fetch-floor LIST OUT CONNECTIONS SYNC   (LIST: one http://127.0.0.1:PORT/... per line) */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/tcp.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static char **targets; /* the request target (path and query) of each URL */
static int count, port, next_url;
static const char *out;

static void fail(const char *what) {
    perror(what);
    exit(1);
}

static int connect_loopback(void) {
    int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (s < 0 || connect(s, (struct sockaddr *)&address, sizeof address) != 0) fail("connect");
    int one = 1;
    setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return s;
}

static void write_all(int fd, const char *bytes, size_t size) {
    while (size > 0) {
        ssize_t n = write(fd, bytes, size);
        if (n <= 0) fail("write");
        bytes += n;
        size -= (size_t)n;
    }
}

/* One connection: GET a URL, read the head, stream Content-Length bytes into a file and the
 * hash; the bytes past the body (none, without pipelining) stay in the buffer. */
static void *connection(void *unused) {
    (void)unused;
    int s = connect_loopback();
    size_t capacity = 1 << 18, have = 0;
    char *buffer = malloc(capacity);
    EVP_MD_CTX *hash = EVP_MD_CTX_new();
    for (int i; (i = __atomic_fetch_add(&next_url, 1, __ATOMIC_RELAXED)) < count;) {
        char request[2048];
        int n = snprintf(request, sizeof request, "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n", targets[i], port);
        write_all(s, request, (size_t)n);
        char *end;
        while (!(end = memmem(buffer, have, "\r\n\r\n", 4))) {
            ssize_t r = read(s, buffer + have, capacity - have);
            if (r <= 0) fail("read");
            have += (size_t)r;
        }
        *end = 0;
        char *length = strcasestr(buffer, "\r\ncontent-length:");
        if (!length || strncmp(buffer, "HTTP/1.1 200", 12) != 0) {
            fprintf(stderr, "fetch-floor: %s: not a 200 with Content-Length\n", targets[i]);
            exit(1);
        }
        long remaining = atol(length + 17);
        size_t head = (size_t)(end + 4 - buffer);
        char name[64];
        snprintf(name, sizeof name, "%s/%d", out, i);
        int file = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (file < 0) fail(name);
        EVP_DigestInit_ex(hash, EVP_sha256(), NULL);
        size_t first = have - head < (size_t)remaining ? have - head : (size_t)remaining;
        write_all(file, buffer + head, first);
        EVP_DigestUpdate(hash, buffer + head, first);
        remaining -= (long)first;
        memmove(buffer, buffer + head + first, have - head - first);
        have -= head + first;
        while (remaining > 0) {
            ssize_t r = read(s, buffer, capacity < (size_t)remaining ? capacity : (size_t)remaining);
            if (r <= 0) fail("read");
            write_all(file, buffer, (size_t)r);
            EVP_DigestUpdate(hash, buffer, (size_t)r);
            remaining -= r;
        }
        unsigned char digest[EVP_MAX_MD_SIZE];
        EVP_DigestFinal_ex(hash, digest, NULL);
        close(file);
    }
    close(s);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: fetch-floor LIST OUT CONNECTIONS SYNC\n");
        return 2;
    }
    FILE *list = fopen(argv[1], "r");
    if (!list) fail(argv[1]);
    out = argv[2];
    int connections = atoi(argv[3]);
    targets = calloc(1 << 20, sizeof *targets);
    char line[4096];
    while (fgets(line, sizeof line, list) && count < 1 << 20) {
        line[strcspn(line, "\r\n")] = 0;
        char *authority = strstr(line, "://");
        char *path = authority ? strchr(authority + 3, '/') : NULL;
        if (!path || sscanf(authority + 3, "127.0.0.1:%d", &port) != 1) continue;
        targets[count++] = strdup(path);
    }
    pthread_t threads[64];
    if (connections < 1 || connections > 64) connections = 8;
    for (int i = 0; i < connections; i++) pthread_create(&threads[i], NULL, connection, NULL);
    for (int i = 0; i < connections; i++) pthread_join(threads[i], NULL);
    if (atoi(argv[4])) {
        int directory = open(out, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (directory < 0 || syncfs(directory) != 0) fail("syncfs");
    }
    return 0;
}
