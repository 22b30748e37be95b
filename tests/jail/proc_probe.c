/* proc_probe.c - a native bot that lists what it can read, for tests/jail/proc.sh: it walks the
 * whole file system it is shown but the system folders (it writes one line for each of those
 * it finds) and its own process (/proc/pid/2, listed, not entered), and writes to stderr "SEE
 * PATH" for every entry, "READ PATH" for every regular file it could read, then, after burning
 * CPU for 200 ms, "LIVE PATH" for every file outside its own process whose text changed
 * meanwhile. It does not speak the protocol: it exits 0 and the arena judges it RE. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const skip[] = {
    "/usr", "/lib",  "/lib32",      "/lib64",         "/libx32",
    "/bin", "/sbin", "/proc/pid/2", "/proc/pid/self", "/proc/pid/thread-self",
    NULL};

enum { MAXF = 4096, CAP = 65536 };
static char *path[MAXF], *text[MAXF];
static int nf;

static char *slurp(const char *p)
{
    int fd = open(p, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return NULL;
    char *b = calloc(1, CAP + 1);
    ssize_t k, n = 0;
    while (b && n < CAP && (k = read(fd, b + n, (size_t)(CAP - n))) > 0)
        n += k;
    k = n == 0 ? read(fd, b, 0) : 0; /* an empty file: still readable? */
    close(fd);
    if (k < 0) {
        free(b);
        return NULL;
    }
    return b;
}

static int visit(const char *p, const struct stat *st, int flag, struct FTW *f)
{
    (void)st;
    (void)f;
    fprintf(stderr, "SEE %s\n", p);
    for (int i = 0; skip[i]; i++)
        if (strcmp(p, skip[i]) == 0)
            return FTW_SKIP_SUBTREE;
    if (flag == FTW_F && S_ISREG(st->st_mode)) {
        char *t = slurp(p);
        if (t) {
            fprintf(stderr, "READ %s\n", p);
            if (nf < MAXF) {
                path[nf] = strdup(p);
                text[nf++] = t;
            } else {
                free(t);
            }
        }
    }
    return FTW_CONTINUE;
}

int main(void)
{
    nftw("/", visit, 32, FTW_PHYS | FTW_ACTIONRETVAL);
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    volatile unsigned long x = 0;
    do {
        for (int i = 0; i < 100000; i++)
            x += (unsigned long)i;
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < 200);
    for (int i = 0; i < nf; i++) {
        char *now = slurp(path[i]);
        if (!now || strcmp(now, text[i]) != 0)
            fprintf(stderr, "LIVE %s\n", path[i]);
        free(now);
    }
    fprintf(stderr, "DONE %d files read\n", nf);
    return 0;
}
