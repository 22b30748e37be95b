/* cgroup.c - one control group per bot: see cgroup.h.
 *
 * Layout. v2: one directory below the v2 cgroup the arena is in, whose subtree_control must
 * hold memory and pids (delegated). If they are available but not enabled, the arena moves
 * itself into a leaf okarena-<pid>-arena first ("no internal processes" rule) and enables
 * them. v1 (hybrid hosts, like the Firecracker VM this was written on): one directory in each
 * of the memory, pids and (if mounted) cpuacct hierarchies, below the arena's own cgroup in
 * that hierarchy when we may create there, else below the hierarchy's root; plus, when the
 * v2 hierarchy is mounted and writable, a controller-less v2 directory, which still gives
 * cgroup.kill, cpu.stat and "populated" (the v2 core needs no controller).
 *
 * Every directory is named okarena-<arena pid>-<n>-<name>, so ar_cgroup_sweep can tell a dead
 * arena's leftovers from a live one's. Nothing here runs in a child: it all allocates. */
#include "cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { V1_MEMORY, V1_PIDS, V1_CPUACCT, V1_N };
static const char *const v1_names[V1_N] = {"memory", "pids", "cpuacct"};

struct ar_cgroup {
    int version;              /* 2 or 1 */
    char dir[V1_N][PATH_MAX]; /* v1: per hierarchy ("" = absent); v2: dir[0] */
    char core[PATH_MAX];      /* v1 only: the controller-less v2 directory, "" if none */
    int dirfd;                /* v2: O_DIRECTORY fd of dir[0]; else -1 */
    int freeze_fd;            /* cgroup.freeze of the v2 directory, opened at first use */
};

/* ---- Small file helpers ----------------------------------------------------------------- */

static int read_text(const char *path, char *buf, size_t cap)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    size_t got = 0;
    while (got + 1 < cap) {
        ssize_t r = read(fd, buf + got, cap - 1 - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int e = errno;
            close(fd);
            return -e;
        }
        if (r == 0)
            break;
        got += (size_t)r;
    }
    buf[got] = '\0';
    close(fd);
    return (int)got;
}

static int write_text(const char *path, const char *s)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    size_t n = strlen(s);
    ssize_t w;
    do
        w = write(fd, s, n);
    while (w < 0 && errno == EINTR);
    int e = w < 0 ? errno : (size_t)w != n ? EIO : 0;
    close(fd);
    return -e;
}

static int path_join(char *out, size_t cap, const char *a, const char *b)
{
    int n = snprintf(out, cap, "%s/%s", a, b);
    return n < 0 || (size_t)n >= cap ? -ENAMETOOLONG : 0;
}

static int write_in(const char *dir, const char *file, const char *s)
{
    char p[PATH_MAX];
    int rc = path_join(p, sizeof p, dir, file);
    return rc ? rc : write_text(p, s);
}

static int read_in(const char *dir, const char *file, char *buf, size_t cap)
{
    char p[PATH_MAX];
    int rc = path_join(p, sizeof p, dir, file);
    return rc ? rc : read_text(p, buf, cap);
}

/* The number after "key " in a flat-keyed file ("oom_kill 3"); -1 if absent. */
static long long keyed(const char *text, const char *key)
{
    size_t kl = strlen(key);
    for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (strncmp(l, key, kl) == 0 && l[kl] == ' ')
            return strtoll(l + kl + 1, NULL, 10);
    return -1;
}

/* Copy a path into a PATH_MAX buffer (truncating; our paths come from PATH_MAX buffers). */
static void copy_path(char *dst, const char *src)
{
    size_t n = strnlen(src, PATH_MAX - 1);
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* ---- Finding the hierarchies ------------------------------------------------------------ */

typedef struct layout {
    char v2_base[PATH_MAX];       /* the arena's own v2 cgroup directory, "" if no v2 mount */
    char v2_mount[PATH_MAX];      /* the v2 mount point */
    char v1_base[V1_N][PATH_MAX]; /* the arena's own cgroup in each v1 hierarchy */
    char v1_mount[V1_N][PATH_MAX];
} layout;

/* Does the comma-separated option list hold `word`? */
static int has_option(const char *opts, const char *word)
{
    size_t wl = strlen(word);
    for (const char *p = opts; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (strncmp(p, word, wl) == 0 &&
            (p[wl] == ',' || p[wl] == '\0' || p[wl] == ' ' || p[wl] == '\n'))
            return 1;
    return 0;
}

/* From /proc/self/mountinfo: where the cgroup hierarchies are mounted. From
 * /proc/self/cgroup: where in each our process is. */
static void find_layout(layout *L)
{
    memset(L, 0, sizeof *L);
    FILE *f = fopen("/proc/self/mountinfo", "re");
    if (f) {
        char line[4096];
        while (fgets(line, sizeof line, f)) {
            /* id parent maj:min root mountpoint opts [optional...] - fstype source superopts */
            char root[PATH_MAX], mnt[PATH_MAX];
            if (sscanf(line, "%*s %*s %*s %4095s %4095s", root, mnt) != 2)
                continue;
            const char *dash = strstr(line, " - ");
            if (!dash)
                continue;
            char fstype[64], source[256], super[1024];
            if (sscanf(dash + 3, "%63s %255s %1023s", fstype, source, super) != 3)
                continue;
            if (strcmp(root, "/") != 0) /* a bind of a sub-cgroup (container): skip */
                continue;
            if (strcmp(fstype, "cgroup2") == 0 && !L->v2_mount[0])
                snprintf(L->v2_mount, sizeof L->v2_mount, "%s", mnt);
            else if (strcmp(fstype, "cgroup") == 0)
                for (int i = 0; i < V1_N; i++)
                    if (!L->v1_mount[i][0] && has_option(super, v1_names[i]))
                        snprintf(L->v1_mount[i], sizeof L->v1_mount[i], "%s", mnt);
        }
        fclose(f);
    }
    /* Default to the roots; refine with our own position. */
    snprintf(L->v2_base, sizeof L->v2_base, "%s", L->v2_mount);
    for (int i = 0; i < V1_N; i++)
        snprintf(L->v1_base[i], sizeof L->v1_base[i], "%s", L->v1_mount[i]);
    f = fopen("/proc/self/cgroup", "re");
    if (!f)
        return;
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *c1 = strchr(line, ':');
        char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2)
            continue;
        *c1 = *c2 = '\0';
        const char *ctrls = c1 + 1;
        const char *path = c2 + 1;
        char cand[PATH_MAX];
        struct stat st;
        if (strcmp(path, "/") == 0)
            path = ""; /* the root: no trailing slash in messages */
        if (strcmp(line, "0") == 0 && !ctrls[0] && L->v2_mount[0]) {
            if (snprintf(cand, sizeof cand, "%s%s", L->v2_mount, path) < (int)sizeof cand &&
                stat(cand, &st) == 0 && S_ISDIR(st.st_mode))
                snprintf(L->v2_base, sizeof L->v2_base, "%s", cand);
        } else {
            for (int i = 0; i < V1_N; i++)
                if (L->v1_mount[i][0] && has_option(ctrls, v1_names[i]) &&
                    snprintf(cand, sizeof cand, "%s%s", L->v1_mount[i], path) < (int)sizeof cand &&
                    stat(cand, &st) == 0 && S_ISDIR(st.st_mode))
                    snprintf(L->v1_base[i], sizeof L->v1_base[i], "%s", cand);
        }
    }
    fclose(f);
}

/* ---- Choosing a version (once) ---------------------------------------------------------- */

static int g_version = -1; /* -1 = not decided yet */
static char g_why[512];    /* why not better */
static layout g_layout;
static char g_v2_parent[PATH_MAX];       /* v2 mode: where our dirs go */
static char g_v1_parent[V1_N][PATH_MAX]; /* v1 mode: where our dirs go, per hierarchy */
static char g_core_parent[PATH_MAX];     /* v1 mode: where the controller-less v2 dirs go */
static unsigned g_counter;

/* Add "; <message>" to g_why. */
__attribute__((format(printf, 1, 2))) static void append_why(const char *fmt, ...)
{
    size_t n = strlen(g_why);
    if (n + 3 >= sizeof g_why)
        return;
    if (n)
        n += (size_t)snprintf(g_why + n, sizeof g_why - n, "; ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g_why + n, sizeof g_why - n, fmt, ap);
    va_end(ap);
}

/* Is word one of the space-separated words of list? */
static int has_word(const char *list, const char *word)
{
    size_t wl = strlen(word);
    for (const char *p = list; (p = strstr(p, word)); p += wl)
        if ((p == list || p[-1] == ' ') && (p[wl] == ' ' || p[wl] == '\n' || p[wl] == '\0'))
            return 1;
    return 0;
}

/* Can we make a directory in parent (and remove it again)? 0 or -errno. */
static int try_mkdir(const char *parent)
{
    char p[PATH_MAX];
    if (snprintf(p, sizeof p, "%s/okarena-%d-probe", parent, (int)getpid()) >= (int)sizeof p)
        return -ENAMETOOLONG;
    if (mkdir(p, 0755) != 0 && errno != EEXIST)
        return -errno;
    rmdir(p);
    return 0;
}

/* v2: do the memory and pids controllers reach the children of base? Try to make it so. */
static int v2_setup(const char *base)
{
    char buf[1024];
    int rc = read_in(base, "cgroup.controllers", buf, sizeof buf);
    if (rc < 0) {
        append_why("v2: %s/cgroup.controllers: %s", base, strerror(-rc));
        return rc;
    }
    if (!has_word(buf, "memory") || !has_word(buf, "pids")) {
        append_why("v2: the memory and pids controllers are not delegated to %s (it has: %s)", base,
                   buf[0] && buf[0] != '\n' ? strtok(buf, "\n") : "none");
        return -ENOTSUP;
    }
    rc = read_in(base, "cgroup.subtree_control", buf, sizeof buf);
    if (rc >= 0 && has_word(buf, "memory") && has_word(buf, "pids"))
        return 0;
    rc = write_in(base, "cgroup.subtree_control", "+memory +pids");
    if (rc == -EBUSY) {
        /* We are an internal process of base: move the arena into a leaf of its own. */
        char leaf[PATH_MAX], pid[32];
        snprintf(pid, sizeof pid, "%d", (int)getpid());
        if (snprintf(leaf, sizeof leaf, "%s/okarena-%d-arena", base, (int)getpid()) >=
            (int)sizeof leaf)
            return -ENAMETOOLONG;
        if (mkdir(leaf, 0755) != 0 && errno != EEXIST) {
            int e = errno;
            append_why("v2: cannot create a leaf for the arena in %s: %s", base, strerror(e));
            return -e;
        }
        rc = write_in(leaf, "cgroup.procs", pid);
        if (rc == 0)
            rc = write_in(base, "cgroup.subtree_control", "+memory +pids");
    }
    if (rc < 0)
        append_why("v2: cannot enable memory+pids in %s/cgroup.subtree_control: %s", base,
                   strerror(-rc));
    return rc;
}

static void decide(void)
{
    if (g_version >= 0)
        return;
    g_why[0] = '\0';
    find_layout(&g_layout);
    const layout *L = &g_layout;
    /* v2 */
    if (L->v2_mount[0]) {
        if (v2_setup(L->v2_base) == 0) {
            int rc = try_mkdir(L->v2_base);
            if (rc == 0) {
                copy_path(g_v2_parent, L->v2_base);
                g_version = 2;
                return;
            }
            append_why("v2: cannot create cgroups in %s: %s", L->v2_base, strerror(-rc));
        }
    } else {
        append_why("no cgroup v2 mount");
    }
    /* v1: memory and pids are required, cpuacct is optional */
    int ok = 1;
    for (int i = 0; i < V1_N; i++) {
        g_v1_parent[i][0] = '\0';
        if (!L->v1_mount[i][0]) {
            if (i != V1_CPUACCT) {
                append_why("v1: no %s hierarchy", v1_names[i]);
                ok = 0;
            }
            continue;
        }
        /* Our own cgroup first (nested: the arena's limits still apply), else the root. */
        const char *cands[2] = {L->v1_base[i], L->v1_mount[i]};
        int rc = -ENOENT;
        for (int k = 0; k < 2 && g_v1_parent[i][0] == '\0'; k++)
            if ((rc = try_mkdir(cands[k])) == 0)
                copy_path(g_v1_parent[i], cands[k]);
        if (!g_v1_parent[i][0] && i != V1_CPUACCT) {
            append_why("v1: cannot create cgroups in %s: %s", L->v1_base[i], strerror(-rc));
            ok = 0;
        }
    }
    if (!ok) {
        g_version = 0;
        return;
    }
    /* v2 core next to v1 (hybrid): cgroup.kill and cpu.stat without controllers. */
    g_core_parent[0] = '\0';
    if (L->v2_mount[0] && try_mkdir(L->v2_base) == 0)
        copy_path(g_core_parent, L->v2_base);
    g_version = 1;
    g_why[0] = '\0';
}

int ar_cgroup_available(char *why, size_t cap)
{
    decide();
    if (why && cap)
        snprintf(why, cap, "%s", g_version > 0 ? "" : g_why);
    return g_version;
}

/* ---- Creating and filling --------------------------------------------------------------- */

static void sanitize_name(const char *in, char *out, size_t cap)
{
    size_t k = 0;
    for (const char *p = in ? in : ""; *p && k + 1 < cap && k < 40; p++)
        out[k++] = ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                    (*p >= '0' && *p <= '9') || *p == '-' || *p == '_')
                       ? *p
                       : '_';
    out[k] = '\0';
}

static void remove_dirs(ar_cgroup *c)
{
    for (int i = 0; i < V1_N; i++)
        if (c->dir[i][0])
            rmdir(c->dir[i]);
    if (c->core[0])
        rmdir(c->core);
}

static int make_dir(char *out, const char *parent, const char *leaf)
{
    if (path_join(out, PATH_MAX, parent, leaf) != 0)
        return -ENAMETOOLONG;
    if (mkdir(out, 0755) != 0) {
        int e = errno;
        out[0] = '\0';
        return -e;
    }
    return 0;
}

ar_cgroup *ar_cgroup_new(const char *name, uint64_t mem_bytes, int pids_max, char *err,
                         size_t errcap)
{
    if (err && errcap)
        err[0] = '\0';
    decide();
    if (g_version <= 0) {
        if (err && errcap)
            snprintf(err, errcap, "cgroups unavailable: %s", g_why);
        return NULL;
    }
    char clean[48], leaf[128];
    sanitize_name(name, clean, sizeof clean);
    snprintf(leaf, sizeof leaf, "okarena-%d-%u%s%s", (int)getpid(), ++g_counter,
             clean[0] ? "-" : "", clean);
    ar_cgroup *c = calloc(1, sizeof *c);
    if (!c) {
        if (err && errcap)
            snprintf(err, errcap, "out of memory");
        return NULL;
    }
    c->version = g_version;
    c->dirfd = -1;
    c->freeze_fd = -1;
    char num[32];
    const char *what = "";
    int rc = 0;
    if (c->version == 2) {
        if ((rc = make_dir(c->dir[0], g_v2_parent, leaf)) != 0) {
            what = "mkdir";
            goto fail;
        }
        if (mem_bytes) {
            snprintf(num, sizeof num, "%llu", (unsigned long long)mem_bytes);
            if ((rc = write_in(c->dir[0], "memory.max", num)) != 0) {
                what = "memory.max";
                goto fail;
            }
            /* no swap: an "out of memory" bot must not just get slow. Absent without swap
             * accounting (then there is nothing to limit). */
            rc = write_in(c->dir[0], "memory.swap.max", "0");
            if (rc != 0 && rc != -ENOENT) {
                what = "memory.swap.max";
                goto fail;
            }
        }
        if (pids_max > 0) {
            snprintf(num, sizeof num, "%d", pids_max);
            if ((rc = write_in(c->dir[0], "pids.max", num)) != 0) {
                what = "pids.max";
                goto fail;
            }
        }
        c->dirfd = open(c->dir[0], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (c->dirfd < 0) {
            rc = -errno;
            what = "open";
            goto fail;
        }
        return c;
    }
    /* v1 */
    for (int i = 0; i < V1_N; i++) {
        if (!g_v1_parent[i][0])
            continue;
        if ((rc = make_dir(c->dir[i], g_v1_parent[i], leaf)) != 0) {
            what = "mkdir";
            goto fail;
        }
    }
    if (mem_bytes) {
        snprintf(num, sizeof num, "%llu", (unsigned long long)mem_bytes);
        if ((rc = write_in(c->dir[V1_MEMORY], "memory.limit_in_bytes", num)) != 0) {
            what = "memory.limit_in_bytes";
            goto fail;
        }
        /* memory+swap, when swap accounting is on (must come after limit_in_bytes) */
        rc = write_in(c->dir[V1_MEMORY], "memory.memsw.limit_in_bytes", num);
        if (rc != 0 && rc != -ENOENT) {
            what = "memory.memsw.limit_in_bytes";
            goto fail;
        }
        write_in(c->dir[V1_MEMORY], "memory.swappiness", "0"); /* best effort */
    }
    if (pids_max > 0) {
        snprintf(num, sizeof num, "%d", pids_max);
        if ((rc = write_in(c->dir[V1_PIDS], "pids.max", num)) != 0) {
            what = "pids.max";
            goto fail;
        }
    }
    if (g_core_parent[0] && make_dir(c->core, g_core_parent, leaf) != 0)
        c->core[0] = '\0'; /* optional */
    return c;
fail:
    if (err && errcap)
        snprintf(err, errcap, "cgroup %s: %s: %s", leaf, what, strerror(-rc));
    if (c->dirfd >= 0)
        close(c->dirfd);
    remove_dirs(c);
    free(c);
    return NULL;
}

int ar_cgroup_dirfd(const ar_cgroup *c)
{
    return c && c->version == 2 ? c->dirfd : -1;
}

int ar_cgroup_attach(ar_cgroup *c, pid_t pid)
{
    if (!c || pid <= 0)
        return -EINVAL;
    char num[32];
    snprintf(num, sizeof num, "%d", (int)pid);
    for (int i = 0; i < V1_N; i++)
        if (c->dir[i][0]) {
            int rc = write_in(c->dir[i], "cgroup.procs", num);
            if (rc != 0)
                return rc;
        }
    /* best effort: the v1 dirs are the limit; a core directory the tree is not in would
     * kill and freeze nothing, so it is forgotten */
    if (c->core[0] && write_in(c->core, "cgroup.procs", num) != 0) {
        rmdir(c->core);
        c->core[0] = '\0';
    }
    return 0;
}

const char *ar_cgroup_path(const ar_cgroup *c, int i)
{
    if (!c || i < 0)
        return NULL;
    for (int k = 0; k < V1_N; k++)
        if (c->dir[k][0] && i-- == 0)
            return c->dir[k];
    if (c->core[0] && i == 0)
        return c->core;
    return NULL;
}

/* ---- Reading ---------------------------------------------------------------------------- */

double ar_cgroup_cpu_ms(const ar_cgroup *c)
{
    if (!c)
        return -1;
    char buf[1024];
    const char *v2 = c->version == 2 ? c->dir[0] : c->core;
    if (c->version == 1 && c->dir[V1_CPUACCT][0] &&
        read_in(c->dir[V1_CPUACCT], "cpuacct.usage", buf, sizeof buf) > 0)
        return (double)strtoull(buf, NULL, 10) / 1e6;
    if (v2[0] && read_in(v2, "cpu.stat", buf, sizeof buf) > 0) {
        long long us = keyed(buf, "usage_usec");
        if (us >= 0)
            return (double)us / 1e3;
    }
    return -1;
}

int ar_cgroup_oom_kills(const ar_cgroup *c)
{
    if (!c)
        return -1;
    char buf[1024];
    long long n = -1;
    if (c->version == 2 && read_in(c->dir[0], "memory.events", buf, sizeof buf) > 0)
        n = keyed(buf, "oom_kill");
    else if (c->version == 1 && c->dir[V1_MEMORY][0] &&
             read_in(c->dir[V1_MEMORY], "memory.oom_control", buf, sizeof buf) > 0)
        n = keyed(buf, "oom_kill");
    return n < 0 ? -1 : n > INT_MAX ? INT_MAX : (int)n;
}

uint64_t ar_cgroup_mem_peak(const ar_cgroup *c)
{
    if (!c)
        return 0;
    char buf[64];
    int rc = c->version == 2 ? read_in(c->dir[0], "memory.peak", buf, sizeof buf)
             : c->dir[V1_MEMORY][0]
                 ? read_in(c->dir[V1_MEMORY], "memory.max_usage_in_bytes", buf, sizeof buf)
                 : -ENOENT;
    return rc > 0 ? strtoull(buf, NULL, 10) : 0;
}

int ar_cgroup_pids(const ar_cgroup *c)
{
    if (!c)
        return -1;
    char buf[64];
    const char *d = c->version == 2 ? c->dir[0] : c->dir[V1_PIDS];
    if (!d[0] || read_in(d, "pids.current", buf, sizeof buf) <= 0)
        return -1;
    return atoi(buf);
}

/* ---- Freezing --------------------------------------------------------------------------- */

int ar_cgroup_freeze(ar_cgroup *c, int frozen)
{
    if (!c)
        return -EINVAL;
    const char *v2 = c->version == 2 ? c->dir[0] : c->core;
    if (!v2[0])
        return -ENOTSUP;
    if (c->freeze_fd < 0) {
        char p[PATH_MAX];
        if (path_join(p, sizeof p, v2, "cgroup.freeze") != 0)
            return -ENAMETOOLONG;
        c->freeze_fd = open(p, O_WRONLY | O_CLOEXEC);
        if (c->freeze_fd < 0)
            return errno == ENOENT ? -ENOTSUP : -errno; /* before Linux 5.2: no freezer */
    }
    ssize_t w;
    do
        w = pwrite(c->freeze_fd, frozen ? "1" : "0", 1, 0);
    while (w < 0 && errno == EINTR);
    return w == 1 ? 0 : w < 0 ? -errno : -EIO;
}

int ar_cgroup_frozen(const ar_cgroup *c)
{
    if (!c)
        return -EINVAL;
    const char *v2 = c->version == 2 ? c->dir[0] : c->core;
    char buf[256];
    if (!v2[0] || read_in(v2, "cgroup.events", buf, sizeof buf) <= 0)
        return -ENOTSUP;
    long long f = keyed(buf, "frozen");
    return f < 0 ? -ENOTSUP : (int)f;
}

/* ---- Killing and removing --------------------------------------------------------------- */

/* SIGKILL every pid listed in dir/cgroup.procs; returns how many were listed, -errno. */
static int kill_listed(const char *dir)
{
    char p[PATH_MAX];
    if (path_join(p, sizeof p, dir, "cgroup.procs") != 0)
        return -ENAMETOOLONG;
    FILE *f = fopen(p, "re");
    if (!f)
        return -errno;
    int n = 0;
    long pid;
    while (fscanf(f, "%ld", &pid) == 1)
        if (pid > 0 && pid != getpid()) {
            kill((pid_t)pid, SIGKILL);
            n++;
        }
    fclose(f);
    return n;
}

/* Tasks still inside (v2 cgroup.events populated; else cgroup.procs); -errno unknown. */
static int remaining(const char *dir)
{
    char buf[4096];
    int rc = read_in(dir, "cgroup.procs", buf, sizeof buf);
    if (rc < 0)
        return rc;
    int n = 0;
    for (char *s = buf; *s; s++)
        if (*s == '\n')
            n++;
    return n;
}

static void nap_ms(int ms)
{
    struct timespec t = {0, (long)ms * 1000000L};
    nanosleep(&t, NULL);
}

/* One kill round over every directory of c; returns how many tasks were still listed. */
static int kill_round(ar_cgroup *c)
{
    int left = 0;
    if (c->version == 2) {
        /* cgroup.kill (5.14+) kills the whole subtree at once, forks included. */
        if (write_in(c->dir[0], "cgroup.kill", "1") != 0) {
            int n = kill_listed(c->dir[0]);
            left += n > 0 ? n : 0;
        }
        int r = remaining(c->dir[0]);
        return r > 0 ? r : left;
    }
    if (c->core[0])
        write_in(c->core, "cgroup.kill", "1");
    for (int i = 0; i < V1_N; i++)
        if (c->dir[i][0]) {
            int n = kill_listed(c->dir[i]);
            left += n > 0 ? n : 0;
        }
    return left;
}

int ar_cgroup_kill(ar_cgroup *c)
{
    if (!c)
        return -EINVAL;
    /* Bounded: ~1 s. pids.max keeps a fork loop from outrunning us. */
    for (int round = 0; round < 200; round++) {
        if (kill_round(c) == 0)
            return 0;
        nap_ms(5);
    }
    return -EBUSY;
}

void ar_cgroup_free(ar_cgroup *c)
{
    if (!c)
        return;
    if (c->freeze_fd >= 0) {
        ar_cgroup_freeze(c, 0); /* nothing is left frozen, whatever the kill does */
        close(c->freeze_fd);
    }
    ar_cgroup_kill(c);
    if (c->dirfd >= 0)
        close(c->dirfd);
    /* A killed task leaves its cgroup when it exits (zombies no longer count), which may be a
     * moment after the signal: retry rmdir for up to ~1 s. A leftover is swept later. */
    for (int round = 0; round < 100; round++) {
        int busy = 0;
        for (int i = 0; i < V1_N; i++)
            if (c->dir[i][0]) {
                if (rmdir(c->dir[i]) == 0 || errno == ENOENT)
                    c->dir[i][0] = '\0';
                else
                    busy = 1;
            }
        if (c->core[0]) {
            if (rmdir(c->core) == 0 || errno == ENOENT)
                c->core[0] = '\0';
            else
                busy = 1;
        }
        if (!busy)
            break;
        kill_round(c);
        nap_ms(10);
    }
    free(c);
}

/* ---- Sweeping dead arenas' leftovers ---------------------------------------------------- */

static int sweep_dir(const char *parent)
{
    if (!parent[0])
        return 0;
    DIR *d = opendir(parent);
    if (!d)
        return 0;
    int removed = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        int pid = 0, used = 0;
        if (sscanf(e->d_name, "okarena-%d-%n", &pid, &used) != 1 || used == 0 || pid <= 0)
            continue;
        if (pid == (int)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue; /* its arena is alive (or not ours to judge) */
        char p[PATH_MAX];
        if (path_join(p, sizeof p, parent, e->d_name) != 0)
            continue;
        for (int round = 0; round < 50; round++) {
            write_in(p, "cgroup.kill", "1");
            if (kill_listed(p) <= 0 && rmdir(p) == 0) {
                removed++;
                break;
            }
            if (errno == ENOENT || errno == ENOTDIR)
                break;
            nap_ms(10);
        }
    }
    closedir(d);
    return removed;
}

int ar_cgroup_sweep(void)
{
    layout L;
    find_layout(&L);
    int n = 0;
    /* Everywhere ar_cgroup_new or decide() may have created something. */
    n += sweep_dir(L.v2_base);
    if (strcmp(L.v2_base, L.v2_mount) != 0)
        n += sweep_dir(L.v2_mount);
    /* An arena that moved itself into a leaf okarena-<pid>-arena (v2_setup) puts its
     * cgroups next to that leaf. */
    char *slash = strrchr(L.v2_base, '/');
    if (slash && strncmp(slash + 1, "okarena-", 8) == 0) {
        *slash = '\0';
        if (strcmp(L.v2_base, L.v2_mount) != 0)
            n += sweep_dir(L.v2_base);
    }
    for (int i = 0; i < V1_N; i++) {
        n += sweep_dir(L.v1_base[i]);
        if (strcmp(L.v1_base[i], L.v1_mount[i]) != 0)
            n += sweep_dir(L.v1_mount[i]);
    }
    return n;
}
