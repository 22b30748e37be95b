/* util.c - allocation that never returns NULL, EINTR-safe writes, the clock, mkdir -p. */
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void oom(void)
{
    fputs("arena: out of memory\n", stderr);
    abort();
}

void *ar_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        oom();
    return p;
}

void *ar_xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        oom();
    return p;
}

void *ar_xrealloc(void *p, size_t n)
{
    if (n == 0) {
        free(p);
        return NULL;
    }
    void *q = realloc(p, n);
    if (!q)
        oom();
    return q;
}

char *ar_xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = ar_xmalloc(n);
    memcpy(p, s, n);
    return p;
}

double ar_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

int ar_write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -errno;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int ar_mkdir_p(const char *path)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof buf)
        return -ENAMETOOLONG;
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] != '/' && buf[i] != '\0')
            continue;
        char c = buf[i];
        buf[i] = '\0';
        if (mkdir(buf, 0777) < 0 && errno != EEXIST)
            return -errno;
        buf[i] = c;
    }
    struct stat st;
    if (stat(path, &st) < 0)
        return -errno;
    return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

void ar_sanitize(const char *s, size_t n, char *out, size_t cap)
{
    size_t k = 0;
    if (cap == 0)
        return;
    for (size_t i = 0; i < n && s[i] && k + 1 < cap; i++) {
        unsigned char c = (unsigned char)s[i];
        out[k++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
    }
    out[k] = '\0';
}
