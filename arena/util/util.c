/* util.c - allocation that never returns NULL, EINTR-safe writes, the clock, mkdir -p. */
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <ftw.h>
#include <math.h>
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

void ar_sleep_until_ms(double ms)
{
    if (ms <= 0)
        return;
    struct timespec ts;
    ts.tv_sec = (time_t)(ms / 1e3);
    ts.tv_nsec = (long)((ms - (double)ts.tv_sec * 1e3) * 1e6);
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
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

/* Levenshtein distance, case-insensitive, of two short strings (longer ones: a big number). */
static int distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return 1000;
    int row[65];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int up = row[j];
            int cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            int best = diag + cost;
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

/* Closest of names[0..n) to word if it is a plausible typo (at most 2 edits, and fewer than
 * the word's length), else NULL. */
const char *ar_near_miss(const char *word, const char *const *names, int n)
{
    const char *best = NULL;
    int bd = 3;
    int len = (int)strlen(word);
    for (int i = 0; i < n && names[i]; i++) {
        int d = distance(word, names[i]);
        if (d < bd && d < len) {
            bd = d;
            best = names[i];
        }
    }
    return best;
}

void ar_fmt_num(char *buf, size_t cap, double v, int stored, int shown, int sign)
{
    if (stored > 6)
        stored = 6;
    if (shown > stored)
        shown = stored;
    if (shown < 0)
        shown = 0;
    double p = pow(10, stored);
    if (!isfinite(v) || fabs(v * p) > 9e17) {
        if (isfinite(v))
            snprintf(buf, cap, sign ? "%+.*f" : "%.*f", shown, v);
        else
            snprintf(buf, cap, "-");
        return;
    }
    long long k = llround(v * p); /* as results.json stores it: half away from zero */
    long long d = 1;
    for (int i = shown; i < stored; i++)
        d *= 10;
    long long q = k / d, rem = k % d;
    if (2 * (rem < 0 ? -rem : rem) >= d)
        q += k < 0 ? -1 : 1; /* half away from zero, on the decimal value */
    long long one = 1;
    for (int i = 0; i < shown; i++)
        one *= 10;
    long long a = q < 0 ? -q : q;
    const char *s = q < 0 ? "-" : sign ? "+" : "";
    if (shown)
        snprintf(buf, cap, "%s%lld.%0*lld", s, a / one, shown, a % one);
    else
        snprintf(buf, cap, "%s%lld", s, a);
}

int ar_copy_file(const char *from, const char *to, int sync)
{
    FILE *a = fopen(from, "rb");
    if (!a)
        return -errno;
    FILE *b = fopen(to, "wb");
    if (!b) {
        int e = errno;
        fclose(a);
        return -e;
    }
    char buf[65536];
    size_t n;
    int rc = 0;
    while ((n = fread(buf, 1, sizeof buf, a)) > 0)
        if (fwrite(buf, 1, n, b) != n)
            rc = -EIO;
    fclose(a);
    if (sync && (fflush(b) != 0 || fsync(fileno(b)) != 0))
        rc = rc ? rc : -errno;
    if (fclose(b) != 0 && rc == 0)
        rc = -errno;
    return rc;
}

/* ar_rm_tree: a folder made writable where its owner may not write (a bot's or a build's
 * 0500 folders), then removed with everything in it, links as links (nftw FTW_PHYS) */
static int rm_chmod(const char *path, const struct stat *st, int flag, struct FTW *f)
{
    (void)f;
    if (flag == FTW_D && (st->st_mode & 0700) != 0700)
        chmod(path, 0700);
    return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
    (void)st;
    (void)f;
    if (flag == FTW_DP)
        rmdir(path);
    else
        unlink(path);
    return 0;
}

void ar_rm_tree(const char *path)
{
    nftw(path, rm_chmod, 16, FTW_PHYS);
    nftw(path, rm_one, 16, FTW_PHYS | FTW_DEPTH);
}
