/* journal.c - the tournament journal: framing, checksums, durable appends, checked reads and
 * atomic repair (journal.h). */
#include "journal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "util/util.h"

uint64_t ar_fnv1a64(const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

int ar_fsync_dir_of(const char *path)
{
    char dir[PATH_MAX];
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    int rc = fsync(fd) < 0 && errno != EINVAL ? -errno : 0; /* some filesystems refuse: fine */
    close(fd);
    return rc;
}

/* ---- Reading ------------------------------------------------------------------------------- */

static const char PFX_GAME[] = "{\"game\":";
static const char PFX_SUM[] = ",\"sum\":\"";
static const char PFX_DATA[] = "\",\"data\":";

/* Parse one line without its '\n'. Returns NULL and sets *index and payload bounds, or the
 * reason it is not a valid line. */
static const char *parse_line(const char *s, size_t n, long long *index, size_t *p0, size_t *p1)
{
    size_t k = sizeof PFX_GAME - 1;
    *index = -1;
    if (n < k || memcmp(s, PFX_GAME, k) != 0)
        return "not a journal line";
    long long v = 0;
    size_t d0 = k;
    while (k < n && s[k] >= '0' && s[k] <= '9') {
        if (v > (LLONG_MAX - 9) / 10)
            return "not a journal line (game index out of range)";
        v = v * 10 + (s[k] - '0');
        k++;
    }
    if (k == d0 || (s[d0] == '0' && k - d0 > 1))
        return "not a journal line (bad game index)";
    *index = v; /* known from here on, for the report of a dropped line */
    size_t ks = sizeof PFX_SUM - 1;
    if (n - k < ks || memcmp(s + k, PFX_SUM, ks) != 0)
        return "not a journal line";
    k += ks;
    uint64_t sum = 0;
    for (int i = 0; i < 16; i++, k++) {
        if (k >= n)
            return "not a journal line";
        char c = s[k];
        int x = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (x < 0)
            return "not a journal line (bad checksum field)";
        sum = sum << 4 | (uint64_t)x;
    }
    size_t kd = sizeof PFX_DATA - 1;
    if (n - k < kd || memcmp(s + k, PFX_DATA, kd) != 0)
        return "not a journal line";
    k += kd;
    if (n < k + 2 || s[n - 1] != '}')
        return "not a journal line";
    *p0 = k;
    *p1 = n - 1;
    if (ar_fnv1a64(s + k, *p1 - *p0) != sum)
        return "bad checksum";
    json_error_t je;
    json_t *j = json_loadb(s + k, *p1 - *p0, 0, &je);
    int ok = j && json_is_object(j);
    json_decref(j);
    if (!ok)
        return "bad data (not a JSON object)";
    return NULL;
}

static int cmp_entry(const void *a, const void *b)
{
    const ar_journal_entry *x = a, *y = b;
    if (x->index != y->index)
        return x->index < y->index ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

void ar_journal_data_free(ar_journal_data *d)
{
    for (long long i = 0; i < d->n; i++)
        free(d->e[i].payload);
    free(d->e);
    free(d->drop);
    memset(d, 0, sizeof *d);
}

static void add_drop(ar_journal_data *d, long long *cap, int line, long long index, const char *why)
{
    if (d->ndrop == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        d->drop = ar_xrealloc(d->drop, (size_t)*cap * sizeof *d->drop);
    }
    ar_journal_drop *x = &d->drop[d->ndrop++];
    x->line = line;
    x->index = index;
    snprintf(x->why, sizeof x->why, "%s", why);
}

static int cmp_drop(const void *a, const void *b)
{
    const ar_journal_drop *x = a, *y = b;
    return (x->line > y->line) - (x->line < y->line);
}

int ar_journal_read(const char *path, ar_journal_data *d, ar_journal_fits fits, void *ud, char *err,
                    size_t errcap)
{
    memset(d, 0, sizeof *d);
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT)
            return 0;
        int e = errno;
        snprintf(err, errcap, "%s: %s", path, strerror(e));
        return -e;
    }
    d->exists = 1;
    char *buf = NULL;
    size_t cap = 0;
    ssize_t len;
    long long capn = 0, capd = 0;
    int line = 0;
    while ((len = getline(&buf, &cap, f)) > 0) {
        line++;
        const char *why = NULL;
        char fwhy[200];
        long long index = -1;
        size_t p0 = 0, p1 = 0, n = (size_t)len - 1; /* without the line end */
        if (buf[len - 1] != '\n') {
            parse_line(buf, (size_t)len, &index, &p0, &p1); /* only for the game's index */
            why = "torn (no end of line)";
        } else if (memchr(buf, '\0', (size_t)len))
            why = "not a journal line (NUL byte)";
        else {
            if (n > 0 && buf[n - 1] == '\r') /* CRLF: the same line */
                n--;
            why = n == 0 ? "blank line" : parse_line(buf, n, &index, &p0, &p1);
        }
        if (!why && fits) {
            char c = buf[p1];
            buf[p1] = '\0'; /* the payload alone, NUL-terminated, for the check */
            if (fits(ud, index, buf + p0, fwhy, sizeof fwhy) < 0)
                why = fwhy;
            buf[p1] = c;
        }
        if (why) {
            d->bad++;
            add_drop(d, &capd, line, index, why);
            continue;
        }
        if (d->n == capn) {
            capn = capn ? 2 * capn : 256;
            d->e = ar_xrealloc(d->e, (size_t)capn * sizeof *d->e);
        }
        ar_journal_entry *en = &d->e[d->n++];
        en->index = index;
        en->line = line;
        en->payload = ar_xmalloc(p1 - p0 + 1);
        memcpy(en->payload, buf + p0, p1 - p0);
        en->payload[p1 - p0] = '\0';
    }
    int rerr = ferror(f);
    free(buf);
    fclose(f);
    if (rerr) {
        snprintf(err, errcap, "%s: read error", path);
        ar_journal_data_free(d);
        return -EIO;
    }
    if (d->n > 1)
        qsort(d->e, (size_t)d->n, sizeof *d->e, cmp_entry);
    /* duplicates: identical repeats count once, different ones are an error */
    long long w = 0;
    for (long long i = 0; i < d->n; i++) {
        if (w > 0 && d->e[w - 1].index == d->e[i].index) {
            if (strcmp(d->e[w - 1].payload, d->e[i].payload) != 0) {
                snprintf(err, errcap,
                         "%s:%d: game %lld is recorded twice with different results (first at "
                         "line %d)",
                         path, d->e[i].line, d->e[i].index, d->e[w - 1].line);
                for (long long k = i; k < d->n; k++)
                    free(d->e[k].payload);
                d->n = w;
                ar_journal_data_free(d);
                return -EINVAL;
            }
            d->duplicates++;
            char why[96];
            snprintf(why, sizeof why, "game %lld recorded twice (also line %d); counted once",
                     d->e[i].index, d->e[w - 1].line);
            add_drop(d, &capd, d->e[i].line, -1, why);
            free(d->e[i].payload);
            continue;
        }
        d->e[w++] = d->e[i];
    }
    d->n = w;
    if (d->ndrop > 1)
        qsort(d->drop, (size_t)d->ndrop, sizeof *d->drop, cmp_drop);
    d->needs_repair = d->bad || d->duplicates;
    return 0;
}

void ar_journal_report(const ar_journal_data *d, const char *path, FILE *out,
                       const char *(*fate)(void *ud, const ar_journal_drop *x), void *ud)
{
    for (long long i = 0; out && i < d->ndrop; i++) {
        const ar_journal_drop *x = &d->drop[i];
        const char *what = fate ? fate(ud, x) : NULL;
        /* an identical repeat needs no fate: its message says what happens */
        if (strstr(x->why, "; counted once"))
            fprintf(out, "%s:%d: %s\n", path, x->line, x->why);
        else
            fprintf(out, "%s:%d: %s; %s\n", path, x->line, x->why, what ? what : "dropped");
    }
}

int ar_journal_keep(const char *path, char *kept, size_t keptcap)
{
    for (int i = 1; i < 10000; i++) {
        int n = snprintf(kept, keptcap, "%s.orig-%d", path, i);
        if (n < 0 || (size_t)n >= keptcap)
            return -ENAMETOOLONG;
        if (link(path, kept) == 0)
            return ar_fsync_dir_of(kept);
        if (errno == EEXIST)
            continue;
        /* no hard links here: copy */
        FILE *in = fopen(path, "rb");
        if (!in)
            return -errno;
        int fd = open(kept, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd < 0) {
            int e = errno;
            fclose(in);
            if (e == EEXIST)
                continue;
            return -e;
        }
        char b[65536];
        size_t got;
        int rc = 0;
        while (rc == 0 && (got = fread(b, 1, sizeof b, in)) > 0)
            if (write(fd, b, got) != (ssize_t)got)
                rc = -EIO;
        if (rc == 0 && ferror(in))
            rc = -EIO;
        if (rc == 0 && fsync(fd) != 0)
            rc = -errno;
        fclose(in);
        close(fd);
        if (rc < 0) {
            unlink(kept);
            return rc;
        }
        return ar_fsync_dir_of(kept);
    }
    return -EEXIST;
}

/* ---- Writing ------------------------------------------------------------------------------- */

static int put_line(FILE *f, long long index, const char *payload)
{
    uint64_t sum = ar_fnv1a64(payload, strlen(payload));
    if (fprintf(f, "{\"game\":%lld,\"sum\":\"%016" PRIx64 "\",\"data\":%s}\n", index, sum,
                payload) < 0)
        return -EIO;
    return 0;
}

int ar_file_replace(const char *path, int (*fill)(FILE *f, void *ud), void *ud)
{
    size_t len = strlen(path) + 8;
    char *tmp = ar_xmalloc(len);
    snprintf(tmp, len, "%s.tmp", path);
    int rc = 0;
    FILE *f = fopen(tmp, "w");
    if (!f) {
        rc = -errno;
        free(tmp);
        return rc;
    }
    rc = fill(f, ud);
    if (rc == 0 && fflush(f) != 0)
        rc = -errno;
    if (rc == 0 && fsync(fileno(f)) != 0)
        rc = -errno;
    if (fclose(f) != 0 && rc == 0)
        rc = -errno;
    if (rc == 0 && rename(tmp, path) != 0)
        rc = -errno;
    if (rc == 0)
        rc = ar_fsync_dir_of(path);
    if (rc < 0)
        unlink(tmp);
    free(tmp);
    return rc;
}

typedef struct entries {
    const ar_journal_entry *e;
    long long n;
} entries;

static int fill_entries(FILE *f, void *ud)
{
    const entries *x = ud;
    int rc = 0;
    for (long long i = 0; i < x->n && rc == 0; i++)
        rc = put_line(f, x->e[i].index, x->e[i].payload);
    return rc;
}

int ar_journal_rewrite(const char *path, const ar_journal_entry *e, long long n)
{
    entries x = {e, n};
    return ar_file_replace(path, fill_entries, &x);
}

struct ar_journal {
    FILE *f;
};

ar_journal *ar_journal_open(const char *path, char *err, size_t errcap)
{
    int existed = access(path, F_OK) == 0;
    FILE *f = fopen(path, "a");
    if (!f) {
        snprintf(err, errcap, "%s: %s", path, strerror(errno));
        return NULL;
    }
    if (!existed) {
        int rc = ar_fsync_dir_of(path);
        if (rc < 0) {
            snprintf(err, errcap, "%s: fsync of its directory: %s", path, strerror(-rc));
            fclose(f);
            return NULL;
        }
    }
    ar_journal *j = ar_xcalloc(1, sizeof *j);
    j->f = f;
    return j;
}

int ar_journal_append(ar_journal *j, long long index, const char *payload)
{
    if (strchr(payload, '\n'))
        return -EINVAL;
    int rc = put_line(j->f, index, payload);
    if (rc == 0 && fflush(j->f) != 0)
        rc = -errno;
    if (rc == 0 && fsync(fileno(j->f)) != 0)
        rc = -errno;
    return rc;
}

int ar_journal_close(ar_journal *j)
{
    if (!j)
        return 0;
    int rc = fclose(j->f) != 0 ? -errno : 0;
    free(j);
    return rc;
}
