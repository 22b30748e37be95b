/* fuzzkit.h - what the fuzz targets of arena commands share: a private temporary folder, files
 * written into it, and a subcommand run in-process with an argv. Header-only. */
#ifndef OKR_FUZZKIT_H
#define OKR_FUZZKIT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char fk_dir[64];

/* The folder, made once per process and removed at exit. */
static void fk_rmdir(void)
{
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fk_dir);
    if (system(cmd) != 0)
        fprintf(stderr, "fuzzkit: could not remove %s\n", fk_dir);
}

static const char *fk_tmp(void)
{
    if (!fk_dir[0]) {
        snprintf(fk_dir, sizeof fk_dir, "/tmp/okr-fuzz-XXXXXX");
        if (!mkdtemp(fk_dir))
            abort();
        atexit(fk_rmdir);
    }
    return fk_dir;
}

/* fk_tmp()/name, in buf. */
static char *fk_path(char *buf, size_t cap, const char *name)
{
    snprintf(buf, cap, "%s/%s", fk_tmp(), name);
    return buf;
}

static void fk_write(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n || fclose(f) != 0)
        abort();
}

/* A whole file into a malloc'd buffer (NUL-terminated); NULL if it is missing. */
static inline char *fk_read(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    char *b = malloc(cap);
    size_t got;
    while (b && (got = fread(b + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (len + 1 == cap)
            b = realloc(b, cap *= 2);
    }
    fclose(f);
    if (!b)
        abort();
    b[len] = '\0';
    *n = len;
    return b;
}

/* A shell command with the two paths a and b substituted for "%A" and "%B" (quoted there). */
static inline void fk_sh(const char *fmt, const char *a, const char *b)
{
    char cmd[1024];
    size_t n = 0;
    for (const char *p = fmt; *p && n + 200 < sizeof cmd; p++) {
        if (p[0] == '%' && (p[1] == 'A' || p[1] == 'B')) {
            n += (size_t)snprintf(cmd + n, sizeof cmd - n, "'%s'", p[1] == 'A' ? a : b);
            p++;
        } else {
            cmd[n++] = *p;
        }
    }
    cmd[n] = '\0';
    if (system(cmd) != 0) {
        fprintf(stderr, "fuzzkit: %s failed\n", cmd);
        abort();
    }
}

/* Run a subcommand's main in-process; argv is NULL-terminated. */
static int fk_main(int (*fn)(int, char **), const char **argv)
{
    int argc = 0;
    while (argv[argc])
        argc++;
    fflush(stdout);
    return fn(argc, (char **)argv);
}

#endif
