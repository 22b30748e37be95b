/* spawn.c - the one place that forks and execs (aesthetics B6). The parent does everything
 * that may allocate: the argv, the PATH search, the pipes, the jail's mount plan, environment
 * and limits. The children between clone() and execve() make only async-signal-safe calls and
 * raw syscalls; on failure they write {step, errno, arg} to a CLOEXEC pipe and _exit(127). EOF
 * on that pipe means execve succeeded. Modes off and seccomp-only: one child, the program. The
 * namespaced modes: arena --clone--> our init (pid 1 of new user/pid/net/mount/ipc/uts
 * namespaces, the network one shared when ar_spawn_share_netns made one: builds the read-only
 * root, pivots) --clone(CLONE_VM)--> the program (pid 2: announces itself, rlimits,
 * capabilities dropped, no_new_privs, Landlock scope with a shared network namespace, seccomp
 * last, waits for the arena's go, execve); the init relays pid 2's raw wait status over a pipe
 * and exits, which kills whatever is left (research/sandbox.md part d). */
#include "spawn.h"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <linux/capability.h>
#include <poll.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "sandbox.h"
#include "seccomp.h"
#include "util/util.h"

#ifndef CLONE_INTO_CGROUP
#define CLONE_INTO_CGROUP 0x200000000ULL
#endif

/* clone3's argument (linux/sched.h, which clashes with <sched.h>) */
struct clone_args {
    uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls, set_tid,
        set_tid_size, cgroup;
};

/* Landlock's scoped ruleset (ABI 6, Linux 6.12); Debian 12's headers predate it. */
struct ll_attr {
    uint64_t handled_access_fs, handled_access_net, scoped;
};
#define LL_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define LL_SCOPE_SIGNAL (1ULL << 1)
/* what a jailed program is scoped for when the network namespace is shared */
#define LL_SCOPES (LL_SCOPE_ABSTRACT_UNIX_SOCKET | LL_SCOPE_SIGNAL)
#define LL_SYS_CREATE_RULESET 444 /* the same number on every architecture */
#define LL_SYS_RESTRICT_SELF 446
#define LL_CREATE_RULESET_VERSION (1U << 0)

extern char **environ;

/* ar_spawn_spare's child (the live server): not a bot's orphan */
static pid_t spared;

/* ---- Command strings -------------------------------------------------------------------- */

static void set_err(char *err, size_t cap, const char *msg)
{
    if (err && cap)
        snprintf(err, cap, "%s", msg);
}

void ar_spawn_argv_free(char **argv)
{
    if (!argv)
        return;
    for (char **a = argv; *a; a++)
        free(*a);
    free(argv);
}

int ar_spawn_split(const char *cmd, char ***argv_out, int *argc_out, char *err, size_t errcap)
{
    size_t len = strlen(cmd);
    char *word = ar_xmalloc(len + 1); /* no word is longer than the command */
    char **argv = NULL;
    int argc = 0;
    const char *p = cmd;

    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\v' || *p == '\f')
            p++;
        if (!*p)
            break;
        size_t n = 0;
        while (*p &&
               !(*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\v' || *p == '\f')) {
            if (*p != '"') {
                word[n++] = *p++;
                continue;
            }
            p++; /* opening quote */
            while (*p && *p != '"') {
                if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
                    p++;
                word[n++] = *p++;
            }
            if (*p != '"') {
                set_err(err, errcap, "unterminated double quote");
                goto fail;
            }
            p++; /* closing quote */
        }
        word[n] = '\0';
        argv = ar_xrealloc(argv, (size_t)(argc + 2) * sizeof *argv);
        argv[argc++] = ar_xstrdup(word);
        argv[argc] = NULL;
    }
    if (argc == 0) {
        set_err(err, errcap, "empty command");
        goto fail;
    }
    free(word);
    *argv_out = argv;
    *argc_out = argc;
    return 0;
fail:
    free(word);
    ar_spawn_argv_free(argv);
    return -EINVAL;
}

/* 0 if path is a regular file we may execute, else -errno. */
static int executable(const char *path)
{
    struct stat st;
    if (stat(path, &st) < 0)
        return -errno;
    if (!S_ISREG(st.st_mode))
        return -EACCES;
    if (access(path, X_OK) < 0)
        return -errno;
    return 0;
}

/* The absolute path of path with a canonical folder (realpath: no "." or ".." parts, no
 * symlinked folders) and its own last name kept (a symlinked program keeps the name it was
 * called by). A canonical folder matters in the jail: only the real folder is shown there, so
 * "/a/tournaments/../bots/x" would not resolve inside it. */
static int make_absolute(const char *path, char *out, size_t cap)
{
    char dir[PATH_MAX], real[PATH_MAX];
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else if ((size_t)(slash - path) >= sizeof dir)
        return -ENAMETOOLONG;
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    if (!realpath(dir, real))
        return -errno;
    int n = snprintf(out, cap, "%s/%s", strcmp(real, "/") == 0 ? "" : real, base);
    return n < 0 || (size_t)n >= cap ? -ENAMETOOLONG : 0;
}

int ar_spawn_resolve(const char *name, char *out, size_t cap)
{
    return ar_spawn_resolve_in(name, getenv("PATH"), out, cap);
}

int ar_spawn_resolve_in(const char *name, const char *path, char *out, size_t cap)
{
    if (!name || !*name)
        return -ENOENT;
    if (strchr(name, '/')) {
        int rc = executable(name);
        if (rc < 0)
            return rc == -ENOENT || rc == -ENOTDIR ? -ENOENT : rc;
        return make_absolute(name, out, cap);
    }
    if (!path)
        path = "/usr/bin:/bin";
    int found_denied = 0;
    for (const char *dir = path;;) {
        const char *end = strchr(dir, ':');
        size_t dn = end ? (size_t)(end - dir) : strlen(dir);
        char cand[PATH_MAX];
        int n = dn == 0 ? snprintf(cand, sizeof cand, "./%s", name)
                        : snprintf(cand, sizeof cand, "%.*s/%s", (int)dn, dir, name);
        if (n > 0 && (size_t)n < sizeof cand) {
            int rc = executable(cand);
            if (rc == 0)
                return make_absolute(cand, out, cap);
            if (rc == -EACCES)
                found_denied = 1;
        }
        if (!end)
            break;
        dir = end + 1;
    }
    return found_denied ? -EACCES : -ENOENT;
}

/* ---- The jail's view ------------------------------------------------------------------- */

/* System folders every runtime needs; each is shown only if it exists here. */
static const char *const system_paths[] = {
    "/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin",
    /* the dynamic loader's cache, time zone, and the alternatives /usr/bin/java points into */
    "/etc/ld.so.cache", "/etc/localtime", "/etc/alternatives", NULL};

/* The three devices a bot may open. */
static const char *const device_paths[] = {"/dev/null", "/dev/zero", "/dev/urandom", NULL};

static const char *const sdk_vars[] = {"OKBOT_PB2_DIR", "OKBOT_NODE_MODULES", "OKBOT_PROTO", NULL};

typedef struct strlist {
    char **v;
    int n, cap;
} strlist;

static void sl_push(strlist *l, const char *s)
{
    if (l->n + 2 > l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->v = ar_xrealloc(l->v, (size_t)l->cap * sizeof *l->v);
    }
    l->v[l->n++] = ar_xstrdup(s);
    l->v[l->n] = NULL;
}

/* Is `in` equal to `dir` or inside it? */
static int path_within(const char *in, const char *dir)
{
    size_t n = strlen(dir);
    if (n == 1 && dir[0] == '/')
        return 1;
    return strncmp(in, dir, n) == 0 && (in[n] == '\0' || in[n] == '/');
}

/* Lexically normalise an absolute path: no "//", "/./", "/../", no trailing '/'. */
static void normalise(char *p)
{
    char out[PATH_MAX];
    size_t k = 0;
    const char *s = p;
    while (*s) {
        while (*s == '/')
            s++;
        const char *e = s;
        while (*e && *e != '/')
            e++;
        size_t n = (size_t)(e - s);
        if (n == 0 || (n == 1 && s[0] == '.')) {
            /* nothing */
        } else if (n == 2 && s[0] == '.' && s[1] == '.') {
            while (k > 0 && out[k - 1] != '/')
                k--;
            if (k > 0)
                k--;
        } else if (k + n + 2 < sizeof out) {
            out[k++] = '/';
            memcpy(out + k, s, n);
            k += n;
        }
        s = e;
    }
    if (k == 0)
        out[k++] = '/';
    out[k] = '\0';
    strcpy(p, out);
}

/* path (relative to `base`, or to the current folder when base is NULL) made absolute with a
 * canonical folder part (make_absolute), lexically normalised; trailing '/' ignored. */
static int abs_in(const char *path, const char *base, char *out, size_t cap)
{
    char buf[PATH_MAX];
    int n = path[0] == '/' || !base ? snprintf(buf, sizeof buf, "%s", path)
                                    : snprintf(buf, sizeof buf, "%s/%s", base, path);
    if (n < 0 || (size_t)n >= sizeof buf)
        return -ENAMETOOLONG;
    while (n > 1 && buf[n - 1] == '/')
        buf[--n] = '\0';
    int rc = make_absolute(buf, out, cap);
    if (rc == 0)
        normalise(out);
    return rc;
}

/* The real path of an absolute path, also for one that does not exist yet (an output folder
 * made later): the real path of its longest existing head, then the rest as written. */
static void canonical(const char *abs, char *out, size_t cap)
{
    char head[PATH_MAX], real[PATH_MAX];
    snprintf(head, sizeof head, "%s", abs);
    size_t cut = strlen(head);
    while (!realpath(head, real)) {
        char *s = strrchr(head, '/');
        if (!s) {
            snprintf(out, cap, "%s", abs);
            return;
        }
        cut = (size_t)(s - head);
        s[s == head ? 1 : 0] = '\0';
    }
    snprintf(out, cap, "%s%s", strcmp(real, "/") == 0 ? "" : real, abs + cut);
    if (!out[0])
        snprintf(out, cap, "/");
    normalise(out); /* ".." in the part that does not exist */
}

static int in_system(const char *abs)
{
    for (int j = 0; system_paths[j]; j++)
        if (path_within(abs, system_paths[j]))
            return 1;
    return 0;
}

/* A folder that holds a home folder (the user's, $HOME) or is "/": never a bot's. */
static int holds_home(const char *canon)
{
    if (strcmp(canon, "/") == 0)
        return 1;
    /* the password database is read once per process (30 us or more a lookup) */
    static char pw_home[PATH_MAX];
    static int pw_read;
    if (!pw_read) {
        struct passwd *pw = getpwuid(geteuid());
        snprintf(pw_home, sizeof pw_home, "%s", pw && pw->pw_dir ? pw->pw_dir : "");
        pw_read = 1;
    }
    const char *homes[2] = {getenv("HOME"), pw_home};
    for (int i = 0; i < 2; i++) {
        char c[PATH_MAX];
        if (!homes[i] || homes[i][0] != '/' || strcmp(homes[i], "/") == 0)
            continue;
        canonical(homes[i], c, sizeof c);
        if (strcmp(c, "/") != 0 && path_within(c, canon))
            return 1;
    }
    return 0;
}

static const char *const kind_names[] = {
    [AR_SHOW_PROGRAM] = "program",     [AR_SHOW_SCRIPT] = "script",
    [AR_SHOW_OWN] = "declared folder", [AR_SHOW_BIND] = "--bind folder",
    [AR_SHOW_SDK] = "SDK folder",      [AR_SHOW_RUNTIME] = "runtime folder"};

const char *ar_spawn_show_kind(int kind)
{
    return kind >= 0 && kind <= AR_SHOW_RUNTIME ? kind_names[kind] : "?";
}

/* What the view shows, before the checks: paths (where they are mounted) and their kinds. */
typedef struct view_list {
    strlist path;
    int *kind;
    int kcap;
} view_list;

static void vl_push(view_list *l, const char *abs, int kind)
{
    sl_push(&l->path, abs);
    if (l->path.n > l->kcap) {
        l->kcap = l->path.cap;
        l->kind = ar_xrealloc(l->kind, (size_t)l->kcap * sizeof *l->kind);
    }
    l->kind[l->path.n - 1] = kind;
}

/* Add `word` (taken against base) if it exists: a regular file always; a folder only for the
 * kinds that may show folders (a folder named on the command line never is). */
static void vl_add(view_list *l, const char *word, const char *base, int kind)
{
    char abs[PATH_MAX];
    struct stat st;
    if (!word || !*word || abs_in(word, base, abs, sizeof abs) < 0 || stat(abs, &st) < 0)
        return;
    if (S_ISREG(st.st_mode) ||
        (S_ISDIR(st.st_mode) && kind != AR_SHOW_PROGRAM && kind != AR_SHOW_SCRIPT))
        vl_push(l, abs, kind);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

#ifndef AR_SOURCE_DIR
#define AR_SOURCE_DIR ""
#endif
#ifndef AR_BINARY_DIR
#define AR_BINARY_DIR ""
#endif

/* The SDKs of this checkout (sdk/python, sdk/js, proto/okr.proto, the generated code, the
 * folder NODE_PATH names, the engine's helpers for both: the Python module okr in python/ and
 * okr.wasm in sdk/js/wasm) and the folders the OKBOT_* variables name. Only code and the
 * rules: nothing there knows a game's seed (RULES 8.3). The first two of sdk_bin_rel pair
 * with sdk_vars (ar_spawn_jail_sdk_env). */
static const char *const sdk_src_rel[] = {"sdk/python", "sdk/js", "proto", NULL};
static const char *const sdk_bin_rel[] = {"sdk/python/okbot_gen",
                                          "sdk/js/node_modules",
                                          "sdk/js/node_path",
                                          "sdk/js/wasm",
                                          "python",
                                          NULL};

static void view_collect(const ar_jail_view *v, view_list *l)
{
    if (v->path) {
        /* a runtime installed outside the system folders (/opt/python/bin/python3): its
         * prefix holds lib/ and share/; the program is then the runtime's, not the bot's */
        char real[PATH_MAX];
        int prefix = 0;
        if (v->runtime && realpath(v->path, real)) {
            char *slash = strrchr(real, '/');
            size_t n = slash ? (size_t)(slash - real) : 0;
            if (n > 4 && strncmp(real + n - 4, "/bin", 4) == 0) {
                real[n - 4] = '\0';
                prefix = 1;
            }
        }
        vl_add(l, v->path, v->cwd, prefix ? AR_SHOW_RUNTIME : AR_SHOW_PROGRAM);
        if (prefix)
            vl_add(l, real, NULL, AR_SHOW_RUNTIME);
    }
    for (int i = 1; v->argv && v->argv[i]; i++)
        if (v->argv[i][0] != '-')
            vl_add(l, v->argv[i], v->cwd, AR_SHOW_SCRIPT);
    for (int i = 0; v->own && v->own[i]; i++)
        vl_add(l, v->own[i], v->cwd, AR_SHOW_OWN);
    char buf[PATH_MAX];
    for (int i = 0; v->runtime && AR_SOURCE_DIR[0] && sdk_src_rel[i]; i++) {
        snprintf(buf, sizeof buf, "%s/%s", AR_SOURCE_DIR, sdk_src_rel[i]);
        vl_add(l, buf, NULL, AR_SHOW_SDK);
    }
    for (int i = 0; v->runtime && AR_BINARY_DIR[0] && sdk_bin_rel[i]; i++) {
        snprintf(buf, sizeof buf, "%s/%s", AR_BINARY_DIR, sdk_bin_rel[i]);
        vl_add(l, buf, NULL, AR_SHOW_SDK);
    }
    for (int i = 0; v->runtime && sdk_vars[i]; i++)
        vl_add(l, getenv(sdk_vars[i]), NULL, AR_SHOW_SDK);
    for (int i = 0; v->extra && v->extra[i]; i++)
        vl_add(l, v->extra[i], NULL, AR_SHOW_BIND);
}

static void vl_free(view_list *l)
{
    ar_spawn_argv_free(l->path.v);
    free(l->kind);
}

/* ---- Identities: what a path is, not what it is called ------------------------------------ */

/* A file or folder by device and inode. */
typedef struct fid {
    dev_t dev;
    ino_t ino;
} fid;
typedef struct fidlist {
    fid *v;
    size_t n, cap;
} fidlist;

static void fid_push(fidlist *l, dev_t dev, ino_t ino)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 256;
        l->v = ar_xrealloc(l->v, l->cap * sizeof *l->v);
    }
    l->v[l->n++] = (fid){dev, ino};
}

static int fid_cmp(const void *a, const void *b)
{
    const fid *x = a, *y = b;
    if (x->dev != y->dev)
        return x->dev < y->dev ? -1 : 1;
    return x->ino < y->ino ? -1 : x->ino > y->ino;
}

static int fid_has(const fidlist *l, fid f)
{
    return l->n && bsearch(&f, l->v, l->n, sizeof f, fid_cmp) != NULL;
}

static int dot_or_dotdot(const char *n)
{
    return n[0] == '.' && (!n[1] || (n[1] == '.' && !n[2]));
}

/* Every regular file below the folder fd (taken and closed), by the inode its directory entry
 * names: listed, not stat'ed (one fstat per folder, for its device). Symbolic links are not
 * followed; 64 levels at most. */
static void list_files(int fd, fidlist *out, int depth)
{
    struct stat st;
    DIR *d = fstat(fd, &st) == 0 ? fdopendir(fd) : NULL;
    if (!d) {
        close(fd);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (dot_or_dotdot(e->d_name))
            continue;
        unsigned char t = e->d_type;
        ino_t ino = e->d_ino;
        if (t == DT_UNKNOWN) {
            struct stat es;
            if (fstatat(dirfd(d), e->d_name, &es, AT_SYMLINK_NOFOLLOW) < 0)
                continue;
            t = S_ISDIR(es.st_mode) ? DT_DIR : S_ISREG(es.st_mode) ? DT_REG : DT_LNK;
            ino = es.st_ino;
        }
        if (t == DT_REG) {
            fid_push(out, st.st_dev, ino);
        } else if (t == DT_DIR && depth < 64) {
            int c = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (c >= 0)
                list_files(c, out, depth + 1);
        }
    }
    closedir(d);
}

/* The folders listed by deep checks since the last ar_spawn_view_forget (the check at a run's
 * start asks for each entrant's folders once as its own and once as hidden from every other
 * entrant: each is listed once). */
typedef struct listed {
    char *path;
    fidlist files;
} listed;
static listed *listed_cache;
static int n_listed, cap_listed;

void ar_spawn_view_forget(void)
{
    for (int i = 0; i < n_listed; i++) {
        free(listed_cache[i].path);
        free(listed_cache[i].files.v);
    }
    free(listed_cache);
    listed_cache = NULL;
    n_listed = cap_listed = 0;
}

/* The regular files below a folder (canonical path), sorted, listed once (listed_cache). An
 * empty list for a path that is not a folder. */
static const fidlist *files_below(const char *canon)
{
    for (int i = 0; i < n_listed; i++)
        if (strcmp(listed_cache[i].path, canon) == 0)
            return &listed_cache[i].files;
    if (n_listed == cap_listed) {
        cap_listed = cap_listed ? 2 * cap_listed : 16;
        listed_cache = ar_xrealloc(listed_cache, (size_t)cap_listed * sizeof *listed_cache);
    }
    listed *e = &listed_cache[n_listed++];
    e->path = ar_xstrdup(canon);
    memset(&e->files, 0, sizeof e->files);
    int fd = open(canon, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0)
        list_files(fd, &e->files, 0);
    if (e->files.n)
        qsort(e->files.v, e->files.n, sizeof(fid), fid_cmp);
    return &e->files;
}

/* The path of the regular file f below the folder dir (for a message), 1 if found. */
static int find_file(const char *dir, fid f, char *out, size_t cap, int depth)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    struct dirent *e;
    int found = 0;
    while (!found && (e = readdir(d))) {
        char p[PATH_MAX];
        struct stat st;
        if (dot_or_dotdot(e->d_name) ||
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name) >= (int)sizeof p || lstat(p, &st) < 0)
            continue;
        if (S_ISREG(st.st_mode) && st.st_dev == f.dev && st.st_ino == f.ino) {
            snprintf(out, cap, "%s", p);
            found = 1;
        } else if (S_ISDIR(st.st_mode) && depth < 64) {
            found = find_file(p, f, out, cap, depth + 1);
        }
    }
    closedir(d);
    return found;
}

/* The mount points of the arena's mount namespace (/proc/self/mountinfo, escapes decoded). */
static char **mount_points(void)
{
    strlist l = {0};
    FILE *f = fopen("/proc/self/mountinfo", "re");
    char *line = NULL;
    size_t cap = 0;
    while (f && getline(&line, &cap, f) > 0) {
        /* ID PARENT MAJ:MIN ROOT MOUNT-POINT ... */
        char *w = line;
        for (int k = 0; k < 4 && w; k++) {
            w = strchr(w, ' ');
            if (w)
                w++;
        }
        if (!w)
            continue;
        char mp[PATH_MAX];
        size_t n = 0;
        for (; *w && *w != ' ' && *w != '\n' && n + 1 < sizeof mp; w++) {
            if (w[0] == '\\' && w[1] >= '0' && w[1] <= '3' && w[2] >= '0' && w[2] <= '7' &&
                w[3] >= '0' && w[3] <= '7') {
                mp[n++] = (char)((w[1] - '0') * 64 + (w[2] - '0') * 8 + (w[3] - '0'));
                w += 3;
            } else {
                mp[n++] = *w;
            }
        }
        mp[n] = '\0';
        sl_push(&l, mp);
    }
    free(line);
    if (f)
        fclose(f);
    if (!l.v)
        l.v = ar_xcalloc(1, sizeof *l.v);
    return l.v;
}

static void refuse(ar_jail_clash *clash, int why, int hide, int kind, const char *shown,
                   const char *inside, const char *same)
{
    if (!clash)
        return;
    clash->why = why;
    clash->hide = hide;
    clash->kind = kind;
    snprintf(clash->shown, sizeof clash->shown, "%s", shown);
    snprintf(clash->inside, sizeof clash->inside, "%s", inside ? inside : "");
    snprintf(clash->same, sizeof clash->same, "%s", same ? same : "");
}

/* Deep: does the folder c (canonical; shown as `shown`, of kind `kind`) hold a mount point? */
static int holds_mount(char *const *mounts, const char *c, const char *shown, int kind,
                       ar_jail_clash *clash)
{
    for (int m = 0; mounts[m]; m++)
        if (strcmp(mounts[m], c) != 0 && path_within(mounts[m], c)) {
            refuse(clash, AR_CLASH_MOUNT, -1, kind, shown, mounts[m], NULL);
            return 1;
        }
    return 0;
}

/* Deep: is a regular file shown (one of `files`, a shown folder's or a shown file) the same
 * file as a hidden one (a hidden file, or one below a hidden folder)? */
static int links_hidden(const view_list *l, char *const *canon, const fidlist *const *files,
                        int nfiles, int nhide, char (*hidden)[PATH_MAX], ar_jail_clash *clash)
{
    for (int h = 0; h < nhide; h++) {
        struct stat st;
        if (stat(hidden[h], &st) < 0)
            continue;
        fidlist one = {0};
        const fidlist *theirs = &one;
        if (S_ISREG(st.st_mode))
            fid_push(&one, st.st_dev, st.st_ino);
        else if (S_ISDIR(st.st_mode))
            theirs = files_below(hidden[h]);
        for (size_t k = 0; k < theirs->n; k++) {
            int hit = 0;
            for (int f = 0; f < nfiles && !hit; f++)
                hit = fid_has(files[f], theirs->v[k]);
            if (!hit)
                continue;
            /* found: name both (listing again, which only a refusal pays) */
            char in[PATH_MAX] = "", same[PATH_MAX];
            int i = 0;
            for (; i < l->path.n; i++) {
                struct stat ss;
                if (stat(canon[i], &ss) < 0)
                    continue;
                if (S_ISREG(ss.st_mode) && ss.st_dev == theirs->v[k].dev &&
                    ss.st_ino == theirs->v[k].ino) {
                    snprintf(in, sizeof in, "%s", l->path.v[i]);
                    break;
                }
                if (S_ISDIR(ss.st_mode) && find_file(canon[i], theirs->v[k], in, sizeof in, 0))
                    break;
            }
            if (i == l->path.n)
                continue; /* not shown after all (a runtime's prefix) */
            if (theirs == &one || !find_file(hidden[h], theirs->v[k], same, sizeof same, 0))
                snprintf(same, sizeof same, "%s", hidden[h]);
            refuse(clash, AR_CLASH_LINK, h, l->kind[i], l->path.v[i], in, same);
            free(one.v);
            return 1;
        }
        free(one.v);
    }
    return 0;
}

char **ar_spawn_jail_view(const ar_jail_view *v, ar_jail_clash *clash)
{
    view_list l = {0};
    view_collect(v, &l);
    int nhide = 0;
    while (v->hide && v->hide[nhide])
        nhide++;
    char(*hidden)[PATH_MAX] = ar_xcalloc((size_t)nhide + 1, sizeof *hidden);
    char here[PATH_MAX];
    if (!getcwd(here, sizeof here))
        snprintf(here, sizeof here, "/");
    /* deep: what each hidden path and every folder above it is (device, inode): a shown path
     * that is one of them under another name (a bind mount, a hard link) shows the hidden one */
    typedef struct alias {
        fid id;
        int hide;
        char *path;
    } alias;
    alias *al = NULL;
    int nal = 0, alcap = 0;
    for (int h = 0; h < nhide; h++) {
        /* not abs_in: a hidden path may not exist yet, not even its folder (--out a/b/c) */
        char abs[PATH_MAX];
        int k = v->hide[h][0] == '/' ? snprintf(abs, sizeof abs, "%s", v->hide[h])
                                     : snprintf(abs, sizeof abs, "%s/%s", here, v->hide[h]);
        if (k < 0 || (size_t)k >= sizeof abs)
            snprintf(abs, sizeof abs, "/"); /* too long to place: hide everything */
        canonical(abs, hidden[h], sizeof hidden[h]);
        char up[PATH_MAX];
        snprintf(up, sizeof up, "%s", hidden[h]);
        for (; v->deep;) {
            struct stat st;
            if (stat(up, &st) == 0) {
                if (nal == alcap) {
                    alcap = alcap ? 2 * alcap : 32;
                    al = ar_xrealloc(al, (size_t)alcap * sizeof *al);
                }
                al[nal++] = (alias){{st.st_dev, st.st_ino}, h, ar_xstrdup(up)};
            }
            char *s = strrchr(up, '/');
            if (!s || !up[1])
                break;
            s[s == up ? 1 : 0] = '\0';
        }
    }
    char **mounts = v->deep ? mount_points() : NULL;
    char **canon = ar_xcalloc((size_t)l.path.n + 1, sizeof *canon);
    /* deep: every regular file shown: the shown files, then each shown folder's list */
    fidlist shown_files = {0};
    const fidlist **files = ar_xcalloc((size_t)l.path.n + 1, sizeof *files);
    int nfiles = 1;
    files[0] = &shown_files;
    /* every path shown, as the kernel will resolve it, against every path hidden: neither may
     * hold the other, nor be the other (or a folder above it) under another name. A runtime's
     * prefix that would is left out instead (the runtime then runs from the system folders or
     * fails on its own). */
    strlist keep = {0};
    int refused = 0;
    for (int i = 0; i < l.path.n && !refused; i++) {
        char c[PATH_MAX];
        int kind = l.kind[i];
        canonical(l.path.v[i], c, sizeof c);
        canon[i] = ar_xstrdup(c);
        int h = -2, why = AR_CLASH_PATH;
        const char *same = NULL;
        /* every folder: a declared one, --bind, an SDK folder from OKBOT_*, a runtime's
         * prefix (/root/bin/python3 would make it /root) */
        int folder = kind != AR_SHOW_PROGRAM && kind != AR_SHOW_SCRIPT;
        if (folder && holds_home(c))
            h = -1;
        for (int k = 0; k < nhide && h == -2; k++)
            if (path_within(hidden[k], c) || path_within(c, hidden[k]))
                h = k;
        struct stat st;
        int exists = v->deep && stat(c, &st) == 0;
        for (int k = 0; k < nal && h == -2 && exists; k++)
            if (al[k].id.dev == st.st_dev && al[k].id.ino == st.st_ino) {
                h = al[k].hide;
                why = AR_CLASH_SAME;
                same = al[k].path;
            }
        ar_jail_clash mc;
        if (h == -2 && v->deep && exists && S_ISDIR(st.st_mode) &&
            holds_mount(mounts, c, l.path.v[i], kind, &mc)) {
            h = -1;
            why = AR_CLASH_MOUNT;
        }
        if (h == -2) {
            sl_push(&keep, l.path.v[i]);
            if (exists && S_ISREG(st.st_mode))
                fid_push(&shown_files, st.st_dev, st.st_ino);
            else if (exists && S_ISDIR(st.st_mode) && kind != AR_SHOW_RUNTIME)
                files[nfiles++] = files_below(c);
        } else if (kind != AR_SHOW_RUNTIME) {
            refused = 1;
            if (why == AR_CLASH_MOUNT) {
                if (clash)
                    *clash = mc;
            } else {
                refuse(clash, why, h, kind, l.path.v[i], NULL, same);
            }
        }
    }
    if (!refused && v->deep) {
        if (shown_files.n)
            qsort(shown_files.v, shown_files.n, sizeof *shown_files.v, fid_cmp);
        refused = links_hidden(&l, canon, files, nfiles, nhide, hidden, clash);
    }
    free(shown_files.v);
    free(files);
    ar_spawn_argv_free(mounts);
    ar_spawn_argv_free(canon);
    for (int k = 0; k < nal; k++)
        free(al[k].path);
    free(al);
    free(hidden);
    vl_free(&l);
    if (refused) {
        ar_spawn_argv_free(keep.v);
        return NULL;
    }
    /* sorted, a folder before what is inside it: drop duplicates, nested folders, and what
     * the system folders already show */
    if (keep.n)
        qsort(keep.v, (size_t)keep.n, sizeof *keep.v, cmp_str);
    strlist out = {0};
    for (int i = 0; i < keep.n; i++) {
        int covered = in_system(keep.v[i]);
        for (int j = 0; j < out.n && !covered; j++)
            covered = path_within(keep.v[i], out.v[j]);
        if (!covered)
            sl_push(&out, keep.v[i]);
    }
    ar_spawn_argv_free(keep.v);
    if (!out.v)
        out.v = ar_xcalloc(1, sizeof *out.v);
    return out.v;
}

char **ar_spawn_jail_own(const ar_jail_view *v)
{
    view_list l = {0};
    view_collect(v, &l);
    strlist out = {0};
    for (int i = 0; i < l.path.n; i++) {
        int k = l.kind[i];
        if ((k == AR_SHOW_PROGRAM || k == AR_SHOW_SCRIPT || k == AR_SHOW_OWN) &&
            !in_system(l.path.v[i]))
            sl_push(&out, l.path.v[i]);
    }
    vl_free(&l);
    if (!out.v)
        out.v = ar_xcalloc(1, sizeof *out.v);
    return out.v;
}

char **ar_spawn_jail_sdk_env(void)
{
    strlist l = {0};
    char buf[PATH_MAX + 64];
    struct stat st;
    /* defaults: the generated code in this checkout's build folder (the SDKs would look for
     * it in <repo>/build only) */
    for (int i = 0; sdk_vars[i]; i++) {
        const char *v = getenv(sdk_vars[i]);
        if (v && *v && strlen(v) < PATH_MAX) {
            snprintf(buf, sizeof buf, "%s=%s", sdk_vars[i], v);
            sl_push(&l, buf);
        } else if (i < 2 && AR_BINARY_DIR[0]) {
            snprintf(buf, sizeof buf, "%s/%s", AR_BINARY_DIR, sdk_bin_rel[i]);
            if (stat(buf, &st) == 0 && S_ISDIR(st.st_mode)) {
                snprintf(buf, sizeof buf, "%s=%s/%s", sdk_vars[i], AR_BINARY_DIR, sdk_bin_rel[i]);
                sl_push(&l, buf);
            }
        }
    }
    /* `import okbot` and `require('okbot')` work as they are, wherever the bot lives: the jail
     * shows these folders to interpreted bots (docs/sandbox.md, "What a bot sees") */
    snprintf(buf, sizeof buf, "%s/sdk/python/okbot", AR_SOURCE_DIR);
    if (AR_SOURCE_DIR[0] && stat(buf, &st) == 0) {
        /* the built okr module (build/python/okr: __init__.py and _okr*.so) before the
         * sources, whose okr/ holds no compiled part: `import okr` finds the built one */
        char okr[PATH_MAX];
        snprintf(okr, sizeof okr, "%s/python/okr", AR_BINARY_DIR);
        if (AR_BINARY_DIR[0] && stat(okr, &st) == 0 && S_ISDIR(st.st_mode))
            snprintf(buf, sizeof buf, "PYTHONPATH=%s/python:%s/sdk/python", AR_BINARY_DIR,
                     AR_SOURCE_DIR);
        else
            snprintf(buf, sizeof buf, "PYTHONPATH=%s/sdk/python", AR_SOURCE_DIR);
        sl_push(&l, buf);
    }
    snprintf(buf, sizeof buf, "%s/sdk/js/node_path/okbot", AR_BINARY_DIR);
    if (AR_BINARY_DIR[0] && stat(buf, &st) == 0) {
        snprintf(buf, sizeof buf, "NODE_PATH=%s/sdk/js/node_path", AR_BINARY_DIR);
        sl_push(&l, buf);
    }
    if (!l.v)
        l.v = ar_xcalloc(1, sizeof *l.v);
    return l.v;
}

/* What spawning needs to know about a program file, from its first 256 KiB, read once per
 * start (it used to be three reads and five scans: 0.25 ms of every bot start). */
enum { PROG_GO = 1, PROG_SANITIZED = 2 };

/* Does [t, t + n) hold one of the sanitizers' init functions (__asan_init, __tsan_init,
 * __msan_init, __hwasan_init) as a whole name (between NULs)? `edge`: t[0] starts a name. */
static int names_sanitizer(const char *t, size_t n, int edge)
{
    static const char *const marks[] = {"__asan_init", "__tsan_init", "__msan_init",
                                        "__hwasan_init", NULL};
    static const char tail[] = "san_init";
    const size_t tl = sizeof tail - 1;
    for (const char *p = t; (p = memmem(p, n - (size_t)(p - t), tail, tl)); p += tl) {
        if ((size_t)(p + tl - t) < n && p[tl] != '\0')
            continue;
        for (int i = 0; marks[i]; i++) {
            size_t k = strlen(marks[i]) - tl;
            if ((size_t)(p - t) >= k && memcmp(p - k, marks[i], k) == 0 &&
                ((size_t)(p - t) == k ? edge : p[-(long)k - 1] == '\0'))
                return 1;
        }
    }
    return 0;
}

/* Is this ELF64 file (its first n bytes in buf) a Go program? Go's linker puts a note "Go",
 * type 4 (its build id) in a PT_NOTE segment on the first page. */
static int has_go_note(const char *buf, size_t n)
{
    Elf64_Ehdr eh;
    memcpy(&eh, buf, sizeof eh);
    if (buf[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phoff > n ||
        (size_t)eh.e_phnum * sizeof(Elf64_Phdr) > n - eh.e_phoff)
        return 0;
    for (unsigned i = 0; i < eh.e_phnum; i++) {
        Elf64_Phdr ph;
        memcpy(&ph, buf + eh.e_phoff + i * sizeof ph, sizeof ph);
        if (ph.p_type != PT_NOTE || ph.p_offset > n || ph.p_filesz > n - ph.p_offset)
            continue;
        /* notes: {namesz, descsz, type}, the name and the description padded to 4 bytes */
        size_t at = ph.p_offset, end = ph.p_offset + ph.p_filesz;
        while (end - at >= sizeof(Elf64_Nhdr)) {
            Elf64_Nhdr nh;
            memcpy(&nh, buf + at, sizeof nh);
            at += sizeof nh;
            size_t name = ((size_t)nh.n_namesz + 3) & ~(size_t)3;
            size_t desc = ((size_t)nh.n_descsz + 3) & ~(size_t)3;
            if (name > end - at || desc > end - at - name)
                break;
            if (nh.n_type == 4 && (nh.n_namesz == 3 || nh.n_namesz == 4) &&
                memcmp(buf + at, "Go", 3) == 0)
                return 1;
            at += name + desc;
        }
    }
    return 0;
}

static unsigned prog_facts(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    /* read, not mapped (a file truncated under a mapping would kill the arena with SIGBUS), in
     * 64 KiB steps that keep the last 16 bytes of the step before: a name may straddle two */
    enum { STEP = 65536, KEEP = 16, LOOK = 262144 };
    static char buf[KEEP + STEP];
    unsigned f = 0;
    ssize_t n = read(fd, buf, STEP);
    if (n >= (ssize_t)sizeof(Elf64_Ehdr) && memcmp(buf, ELFMAG, SELFMAG) == 0) {
        if (has_go_note(buf, (size_t)n))
            f |= PROG_GO;
        /* Built with AddressSanitizer (or TSan, MSan)? Their shadow memory is terabytes of
         * reserved address space, which RLIMIT_DATA and RLIMIT_AS refuse. The runtime's init
         * function is in the dynamic symbol table near the start of the file (imported from
         * libasan with gcc, exported by clang's static runtime). */
        size_t have = (size_t)n, seen = (size_t)n;
        int edge = 1, found;
        while (!(found = names_sanitizer(buf, have, edge)) && seen < LOOK && have >= KEEP) {
            memmove(buf, buf + have - KEEP, KEEP);
            n = read(fd, buf + KEEP, STEP);
            if (n <= 0)
                break;
            have = KEEP + (size_t)n;
            seen += (size_t)n;
            edge = 0;
        }
        if (found)
            f |= PROG_SANITIZED;
    }
    close(fd);
    return f;
}

int ar_spawn_is_go(const char *path)
{
    return (prog_facts(path) & PROG_GO) != 0;
}

int ar_spawn_is_sanitized(const char *path)
{
    return (prog_facts(path) & PROG_SANITIZED) != 0;
}

/* ---- Processes ------------------------------------------------------------------------- */

const char *ar_spawn_step_name(int step)
{
    static const char *const names[] = {
        [AR_STEP_SIGNALS] = "signals",
        [AR_STEP_SETPGID] = "setpgid",
        [AR_STEP_PDEATHSIG] = "pdeathsig",
        [AR_STEP_PARENT] = "parent check",
        [AR_STEP_FDS] = "fds",
        [AR_STEP_CHDIR] = "chdir",
        [AR_STEP_RLIMIT] = "rlimit",
        [AR_STEP_SIGMASK] = "sigmask",
        [AR_STEP_EXEC] = "exec",
        [AR_STEP_CLONE] = "clone (namespaces)",
        [AR_STEP_CGROUP] = "cgroup",
        [AR_STEP_IDMAP] = "uid/gid map",
        [AR_STEP_SYNC] = "sync",
        [AR_STEP_SETUID] = "setuid",
        [AR_STEP_SETSID] = "setsid",
        [AR_STEP_MOUNT] = "mount",
        [AR_STEP_BIND] = "bind",
        [AR_STEP_PROC] = "proc",
        [AR_STEP_HOSTNAME] = "hostname",
        [AR_STEP_PIVOT] = "pivot_root",
        [AR_STEP_FORK] = "fork",
        [AR_STEP_CAPS] = "capabilities",
        [AR_STEP_NNP] = "no_new_privs",
        [AR_STEP_SECCOMP] = "seccomp",
        [AR_STEP_DUMPABLE] = "dumpable",
        [AR_STEP_LANDLOCK] = "landlock",
    };
    if (step > 0 && step < (int)(sizeof names / sizeof names[0]) && names[step])
        return names[step];
    return "?";
}

int ar_spawn_init(void)
{
    if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0)
        return -errno;
    return 0;
}

/* The shared network namespace (ar_spawn_share_netns), 0 if none: jails check that they are
 * still in it before leaving out CLONE_NEWNET. */
static dev_t shared_net_dev;
static ino_t shared_net_ino;

static int net_ns_id(dev_t *dev, ino_t *ino)
{
    struct stat st;
    if (stat("/proc/self/ns/net", &st) < 0)
        return -errno;
    *dev = st.st_dev;
    *ino = st.st_ino;
    return 0;
}

/* Are we (still) in the namespace ar_spawn_share_netns made? */
static int in_shared_net(void)
{
    dev_t d;
    ino_t i;
    return shared_net_ino && net_ns_id(&d, &i) == 0 && d == shared_net_dev && i == shared_net_ino;
}

static int write_file(const char *path, const char *text);

/* Not root: a network namespace needs a user namespace of our own, in which we map our uid and
 * gid to themselves (files, cgroups and signals see the same ids; we are not root inside, so
 * nothing treats us as root). Returns 0 or -errno. */
static int unshare_user_net(void)
{
    char map[64];
    uid_t u = geteuid();
    gid_t g = getegid();
    if (unshare(CLONE_NEWUSER | CLONE_NEWNET) < 0)
        return -errno;
    int rc = write_file("/proc/self/setgroups", "deny");
    if (rc == 0) {
        snprintf(map, sizeof map, "%u %u 1\n", (unsigned)u, (unsigned)u);
        rc = write_file("/proc/self/uid_map", map);
    }
    if (rc == 0) {
        snprintf(map, sizeof map, "%u %u 1\n", (unsigned)g, (unsigned)g);
        rc = write_file("/proc/self/gid_map", map);
    }
    return rc;
}

/* Would unshare_user_net work? Tried in a throwaway child first: once we are in a user
 * namespace there is no way back, and half of one (no uid map) would leave us owning nothing. */
static int try_user_net(void)
{
    pid_t pid = fork();
    if (pid < 0)
        return -errno;
    if (pid == 0)
        _exit(unshare_user_net() == 0 ? 0 : 1);
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -errno;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -EPERM;
}

int ar_spawn_share_netns(char *why, size_t cap)
{
    static const char shared[] = "one empty network namespace for the arena, bots Landlock-scoped";
    char msg[256];
    if (in_shared_net()) {
        set_err(why, cap, shared);
        return 1;
    }
    /* the scope must work here, not only be known: ABI 6, and a scoped ruleset accepted */
    long abi = syscall(LL_SYS_CREATE_RULESET, NULL, 0, LL_CREATE_RULESET_VERSION);
    struct ll_attr attr = {0, 0, LL_SCOPES};
    long fd = abi >= 6 ? syscall(LL_SYS_CREATE_RULESET, &attr, sizeof attr, 0) : -1;
    if (fd < 0) {
        snprintf(msg, sizeof msg,
                 "a network namespace per bot (Landlock cannot scope abstract sockets: %s)",
                 abi < 0   ? strerror(errno)
                 : abi < 6 ? "ABI below 6"
                           : strerror(errno));
        set_err(why, cap, msg);
        return 0;
    }
    close((int)fd);
    int rc;
    if (geteuid() == 0)
        rc = unshare(CLONE_NEWNET) < 0 ? -errno : 0;
    else if ((rc = try_user_net()) == 0)
        rc = unshare_user_net();
    if (rc == 0)
        rc = net_ns_id(&shared_net_dev, &shared_net_ino);
    if (rc < 0) {
        snprintf(msg, sizeof msg, "a network namespace per bot (%s: %s)",
                 geteuid() == 0 ? "unshare" : "a user namespace of the arena's", strerror(-rc));
        set_err(why, cap, msg);
        shared_net_ino = 0;
        return 0;
    }
    set_err(why, cap, shared);
    return 1;
}

pid_t ar_spawn_worker(void (*fn)(void *arg), void *arg, int keep_fd)
{
    fflush(stdout);
    fflush(stderr);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0)
        return -errno;
    if (pid > 0)
        return pid;
    spared = 0; /* the parent's spared child is not ours */
    /* die with the parent (which may already be gone); its signal handlers are not ours */
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (getppid() != parent)
        _exit(1);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGCHLD, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    /* nothing of the parent's but stdio and keep_fd (as 3, CLOEXEC) */
    unsigned first = 3;
    if (keep_fd >= 0) {
        if (keep_fd != 3 && dup3(keep_fd, 3, O_CLOEXEC) < 0)
            _exit(1);
        if (keep_fd == 3)
            fcntl(3, F_SETFD, FD_CLOEXEC);
        first = 4;
    }
    if (syscall(SYS_close_range, first, ~0U, 0U) < 0)
        for (int i = (int)first; i < 65536; i++)
            close(i);
    fn(arg);
    _exit(0);
}

/* What the child tells the parent when a step fails (arg: the mount entry, or -1). */
typedef struct child_report {
    int step;
    int err;
    int arg;
} child_report;

/* One entry of the jail's file system, prepared by the parent. */
enum { MNT_DIR, MNT_FILE, MNT_DEV, MNT_LINK };
typedef struct mnt_entry {
    const char *path;      /* absolute, also the source */
    int kind;              /* MNT_* */
    int own;               /* a bot's bind (not the system's): not recursive, so a mount point
                              made inside it after the check at the run's start is not shown
                              (in a user namespace the bind then fails instead) */
    unsigned long remount; /* fallback MS_REMOUNT flags (keeps the source's locked flags) */
    char *target;          /* MNT_LINK: the symbolic link's text (malloc'ed) */
    int rw;                /* a build's own folder (ar_jail.rw_bind): writable */
} mnt_entry;

enum { MAX_RLIMITS = 10 };

/* The jail's /proc is a folder of the read-only root, not a procfs: the files below with fixed
 * texts (what runtimes read at start: the CPU count, the memory size), links to the bot's own
 * process, and under /proc/pid a fresh procfs of the jail's pid namespace that holds only the
 * processes ("subset=pid": no loadavg, stat, pressure, meminfo, vmstat, interrupts, sys, ...).
 * So no host-wide counter, which a pair of bots could signal through (one spins, the other
 * reads the load), and no host facts but what system calls say anyway (docs/sandbox.md). */
enum { AR_PROC_FIXED = 6 };
static const char *const proc_fixed[AR_PROC_FIXED] = {"cpuinfo", "loadavg", "meminfo",
                                                      "stat",    "uptime",  "version"};
/* {name, target} of the links beside them; the program is always pid 2 of its namespace */
static const char *const proc_links[][2] = {{"2", "pid/2"},
                                            {"self", "2"},
                                            {"thread-self", "pid/thread-self"},
                                            {"mounts", "self/mounts"},
                                            {"net", "self/net"}};

/* Pid 2's first word on the status pipe: it exists. (Not a wait status: those
 * fit in 16 bits.) */
#define AR_SPAWN_FORKED 0x7f0f0f0f

/* Everything the child needs, prepared by the parent. */
typedef struct child_args {
    const char *path;
    char *const *argv;
    char *const *envp;
    const char *cwd;
    pid_t ppid;
    int in_r, out_w, err_w; /* become 0, 1, 2 */
    int report_fd;          /* becomes 3, CLOEXEC */
    /* limits and filter (every mode but off) */
    int nrl;
    int rl_res[MAX_RLIMITS];
    struct rlimit rl[MAX_RLIMITS];
    const ar_bpf *filter;
    int nnp;
    int scope; /* Landlock-scope the program (abstract unix sockets, signals) */
    /* the jail */
    int jailed;
    int drop_to;    /* no user namespace (root): the program's uid/gid on the host */
    int ns_regroup; /* root in a user namespace: the init takes group 1000, no groups */
    uintptr_t arg_start, arg_end; /* the arena's argv strings, blanked in the init */
    int sync_fd, status_fd;       /* become 4 and 5 in the init */
    const char *stage;            /* where the new root is built before pivot_root */
    const mnt_entry *mnt;
    int nmnt;
    char *const *proc_text; /* the texts of the jail's fixed /proc files (proc_fixed) */
} child_args;

/* What pid 2 runs before its execve is not instrumented by AddressSanitizer (the project's test
 * build): it runs on a stack ASan does not know (prog_main), where ASan's handling of a call
 * that does not return would mmap, under the bot's memory limits. */
#if defined(__SANITIZE_ADDRESS__)
#define NO_ASAN __attribute__((no_sanitize_address))
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NO_ASAN __attribute__((no_sanitize("address")))
#endif
#endif
#ifndef NO_ASAN
#define NO_ASAN
#endif

NO_ASAN _Noreturn static void child_fail_arg(int fd, int step, int arg)
{
    child_report r = {step, errno, arg};
    ssize_t w;
    do
        w = write(fd, &r, sizeof r);
    while (w < 0 && errno == EINTR);
    _exit(127);
}

NO_ASAN _Noreturn static void child_fail(int fd, int step)
{
    child_fail_arg(fd, step, -1);
}

/* Move fd to a number >= `min` if it is below, keeping CLOEXEC. Returns the fd or -1. */
static int lift_fd(int fd, int min)
{
    return fd >= min ? fd : fcntl(fd, F_DUPFD_CLOEXEC, min);
}

/* Async-signal-safe helpers of the child. */
static size_t c_len(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

/* dst = a + b (NUL-terminated); 0, or -1 if it does not fit. */
static int c_join(char *dst, size_t cap, const char *a, const char *b)
{
    size_t na = c_len(a), nb = c_len(b);
    if (na + nb + 1 > cap)
        return -1;
    memcpy(dst, a, na);
    memcpy(dst + na, b, nb + 1);
    return 0;
}

/* dst = a + b + c; 0, or -1 if it does not fit. */
static int c_join3(char *dst, size_t cap, const char *a, const char *b, const char *c)
{
    size_t na = c_len(a);
    if (c_join(dst, cap, a, b) < 0 || c_join(dst + na, cap - na, b, c) < 0)
        return -1;
    return 0;
}

/* mkdir -p of every folder above the last component of p (p is modified and restored). */
static int c_mkdir_parents(char *p)
{
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        int rc = mkdir(p, 0755);
        int e = errno;
        *s = '/';
        if (rc < 0 && e != EEXIST) {
            errno = e;
            return -1;
        }
    }
    return 0;
}

static void reset_signals(void)
{
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    for (int sig = 1; sig < 65; sig++)
        if (sig != SIGKILL && sig != SIGSTOP)
            sigaction(sig, &dfl, NULL); /* EINVAL for reserved numbers is harmless */
}

/* stdin/stdout/stderr onto the pipes and the report pipe to 3 (CLOEXEC); with `keep` > 0,
 * also sync to 4 and status to 5 (the init). Everything else is closed. Returns the report
 * fd to use (3), or fails the child. */
static int setup_fds(const child_args *a, int jailed)
{
    int rep = a->report_fd;
    /* lift everything out of 0..5 first so no dup2 clobbers a source */
    int in_r = lift_fd(a->in_r, 6), out_w = lift_fd(a->out_w, 6), err_w = lift_fd(a->err_w, 6);
    int r = lift_fd(rep, 6);
    int sync = jailed ? lift_fd(a->sync_fd, 6) : 0, st = jailed ? lift_fd(a->status_fd, 6) : 0;
    if (in_r < 0 || out_w < 0 || err_w < 0 || r < 0 || sync < 0 || st < 0)
        child_fail(rep, AR_STEP_FDS);
    rep = r;
    if (dup2(in_r, 0) < 0 || dup2(out_w, 1) < 0 || dup2(err_w, 2) < 0)
        child_fail(rep, AR_STEP_FDS);
    /* dup3 keeps CLOEXEC: plain dup2 would clear it and the parent would wait for EOF
     * forever */
    if (dup3(rep, 3, O_CLOEXEC) < 0)
        child_fail(rep, AR_STEP_FDS);
    rep = 3;
    if (jailed && (dup3(sync, 4, O_CLOEXEC) < 0 || dup3(st, 5, O_CLOEXEC) < 0))
        child_fail(rep, AR_STEP_FDS);
    unsigned first = jailed ? 6U : 4U;
    if (syscall(SYS_close_range, first, ~0U, 0U) < 0) {
        if (errno != ENOSYS)
            child_fail(rep, AR_STEP_FDS);
        struct rlimit rl;
        long max = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY
                       ? (long)rl.rlim_cur
                       : 65536;
        for (long fd = first; fd < max; fd++)
            close((int)fd);
    }
    return rep;
}

/* The program's confinement, common to every mode: limits, credentials, no_new_privs, the
 * Landlock scope, the filter (last). Only read, close, write (a failure report) and execve may
 * follow. */
NO_ASAN static void confine(const child_args *a, int rep)
{
    for (int i = 0; i < a->nrl; i++)
        if (setrlimit(a->rl_res[i], &a->rl[i]) < 0)
            child_fail(rep, AR_STEP_RLIMIT);

    if (a->drop_to > 0) {
        if (setgroups(0, NULL) < 0 || setresgid(a->drop_to, a->drop_to, a->drop_to) < 0 ||
            setresuid(a->drop_to, a->drop_to, a->drop_to) < 0)
            child_fail(rep, AR_STEP_SETUID);
    }
    if (a->jailed) {
        /* an unprivileged user namespace leaves us uid 1000 with every capability of the
         * namespace until execve: drop them now */
        struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
        struct __user_cap_data_struct d[2];
        memset(d, 0, sizeof d);
        if (syscall(SYS_capset, &h, d) < 0)
            child_fail(rep, AR_STEP_CAPS);
    }
    /* credential changes clear the parent-death signal: arm it again */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
        child_fail(rep, AR_STEP_PDEATHSIG);
    if (a->cwd && chdir(a->cwd) < 0 && (!a->jailed || chdir("/") < 0))
        child_fail(rep, AR_STEP_CHDIR);
    if (a->nnp && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
        child_fail(rep, AR_STEP_NNP);

    /* the parent blocked every signal around fork(): the program starts with none blocked */
    sigset_t none;
    sigemptyset(&none);
    if (sigprocmask(SIG_SETMASK, &none, NULL) < 0)
        child_fail(rep, AR_STEP_SIGMASK);
    /* the shared network namespace's second layer: no abstract unix socket and no signal
     * outside this program's own Landlock domain (the arena, its init, other bots) */
    if (a->scope) {
        struct ll_attr attr = {0, 0, LL_SCOPES};
        long fd = syscall(LL_SYS_CREATE_RULESET, &attr, sizeof attr, 0);
        if (fd < 0)
            child_fail(rep, AR_STEP_LANDLOCK);
        if (syscall(LL_SYS_RESTRICT_SELF, (int)fd, 0) < 0)
            child_fail(rep, AR_STEP_LANDLOCK);
        close((int)fd);
    }
    if (a->filter) {
        int rc = ar_seccomp_install(a->filter);
        if (rc < 0) {
            errno = -rc;
            child_fail(rep, AR_STEP_SECCOMP);
        }
    }
}

NO_ASAN _Noreturn static void exec_program(const child_args *a, int rep)
{
    /* never execvp: its PATH search may allocate */
    execve(a->path, a->argv, a->envp);
    child_fail(rep, AR_STEP_EXEC);
}

/* Mode off and seccomp-only: the child between fork and execve. Async-signal-safe calls only
 * (no malloc, stdio, libevent, execvp). */
_Noreturn static void child_main(const child_args *a)
{
    int rep = a->report_fd;

    /* 1. default dispositions (SIG_IGN survives execve; the arena ignores SIGPIPE), own group */
    reset_signals();
    if (setpgid(0, 0) < 0)
        child_fail(rep, AR_STEP_SETPGID);

    /* 2. die with the arena; the arena may already be gone */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
        child_fail(rep, AR_STEP_PDEATHSIG);
    if (getppid() != a->ppid) {
        errno = ESRCH;
        child_fail(rep, AR_STEP_PARENT);
    }

    /* 3. fds */
    rep = setup_fds(a, 0);

    /* 4. limits, filter, exec */
    confine(a, rep);
    exec_program(a, rep);
}

/* The jail's /proc in the folder `dir` (proc_fixed). A kernel without "subset=pid" (before
 * Linux 5.8) gets the whole procfs there, as before: host-wide counters included. */
static void build_proc(const child_args *a, int rep, const char *dir)
{
    char p[PATH_MAX];
    for (int i = 0; i < AR_PROC_FIXED; i++) {
        if (c_join3(p, sizeof p, dir, "/", proc_fixed[i]) < 0)
            child_fail(rep, AR_STEP_PROC);
        int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0444);
        size_t n = c_len(a->proc_text[i]);
        if (fd < 0 || write(fd, a->proc_text[i], n) != (ssize_t)n)
            child_fail(rep, AR_STEP_PROC);
        close(fd);
    }
    for (size_t i = 0; i < sizeof proc_links / sizeof proc_links[0]; i++)
        if (c_join3(p, sizeof p, dir, "/", proc_links[i][0]) < 0 ||
            symlink(proc_links[i][1], p) < 0)
            child_fail(rep, AR_STEP_PROC);
    if (c_join(p, sizeof p, dir, "/pid") < 0 || mkdir(p, 0555) < 0)
        child_fail(rep, AR_STEP_PROC);
    const unsigned long fl = MS_NOSUID | MS_NODEV | MS_NOEXEC;
    if (mount("proc", p, "proc", fl, "hidepid=2,subset=pid") < 0 &&
        (errno != EINVAL || mount("proc", dir, "proc", fl, "hidepid=2") < 0))
        child_fail(rep, AR_STEP_PROC);
}

/* Build the jail's file system under a->stage and make it the root. */
static void build_root(const child_args *a, int rep)
{
    char p[PATH_MAX];
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
        child_fail(rep, AR_STEP_MOUNT);
    if (mount("okarena", a->stage, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=755") < 0)
        child_fail(rep, AR_STEP_MOUNT);
    for (int i = 0; i < a->nmnt; i++) {
        const mnt_entry *e = &a->mnt[i];
        if (c_join(p, sizeof p, a->stage, e->path) < 0) {
            errno = ENAMETOOLONG;
            child_fail_arg(rep, AR_STEP_BIND, i);
        }
        if (c_mkdir_parents(p) < 0)
            child_fail_arg(rep, AR_STEP_BIND, i);
        if (e->kind == MNT_LINK) {
            if (symlink(e->target, p) < 0 && errno != EEXIST)
                child_fail_arg(rep, AR_STEP_BIND, i);
            continue;
        }
        if (e->kind == MNT_DIR) {
            if (mkdir(p, 0755) < 0 && errno != EEXIST)
                child_fail_arg(rep, AR_STEP_BIND, i);
        } else {
            int fd = open(p, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
            if (fd < 0 && errno != EEXIST && errno != EROFS)
                child_fail_arg(rep, AR_STEP_BIND, i);
            if (fd >= 0)
                close(fd);
        }
        if (mount(e->path, p, NULL, MS_BIND | (e->own ? 0 : MS_REC), NULL) < 0)
            child_fail_arg(rep, AR_STEP_BIND, i);
        /* read-only (but a build's own folder), no set-uid, no devices (but the devices
         * themselves), recursively */
        struct mount_attr ma;
        memset(&ma, 0, sizeof ma);
        ma.attr_set = (e->rw ? 0 : MOUNT_ATTR_RDONLY) | MOUNT_ATTR_NOSUID |
                      (e->kind == MNT_DEV ? MOUNT_ATTR_NOEXEC : MOUNT_ATTR_NODEV);
        if (syscall(SYS_mount_setattr, AT_FDCWD, p, AT_RECURSIVE, &ma, sizeof ma) < 0) {
            if (errno != ENOSYS && errno != EINVAL)
                child_fail_arg(rep, AR_STEP_BIND, i);
            if (mount(NULL, p, NULL, e->remount, NULL) < 0)
                child_fail_arg(rep, AR_STEP_BIND, i);
        }
    }
    /* /proc: fixed files and, in /proc/pid, a fresh procfs of the new pid namespace (build_proc).
     * hidepid=2: a process the bot may not ptrace is
     * not even listed; the init is not dumpable (init_main), so pid 1 and its command line
     * (the arena's: the match seed, the other bots' commands) are invisible to the bot although
     * both have uid 1000 (an unprivileged user namespace maps one uid only) */
    if (c_join(p, sizeof p, a->stage, "/proc") < 0 || (mkdir(p, 0755) < 0 && errno != EEXIST))
        child_fail(rep, AR_STEP_PROC);
    build_proc(a, rep, p);
    /* the working directory's path, so that relative arguments still resolve */
    if (a->cwd && c_join(p, sizeof p, a->stage, a->cwd) == 0 && c_mkdir_parents(p) == 0)
        mkdir(p, 0755);
    if (sethostname("arena", 5) < 0)
        child_fail(rep, AR_STEP_HOSTNAME);
    if (mount(NULL, a->stage, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL) <
        0)
        child_fail(rep, AR_STEP_MOUNT);
    /* pivot_root(".", "."): the old root ends up on top of the new one and is detached */
    if (chdir(a->stage) < 0 || syscall(SYS_pivot_root, ".", ".") < 0 ||
        umount2(".", MNT_DETACH) < 0 || chdir("/") < 0)
        child_fail(rep, AR_STEP_PIVOT);
}

/* Overwrite the argv area [area, area + cap) with "okarena-init\0word\0word..." and zeros,
 * always ending in a zero byte (the kernel then shows no more than the area). */
static void retitle(char *area, size_t cap, char *const *argv)
{
    memset(area, 0, cap);
    size_t k = 0;
    const char *first = "okarena-init";
    for (int i = -1; (i < 0 || argv[i]) && k + 1 < cap; i++) {
        const char *w = i < 0 ? first : argv[i];
        size_t n = c_len(w);
        if (n > cap - 1 - k - 1)
            n = cap - 1 - k - 1;
        memcpy(area + k, w, n);
        k += n + 1; /* the zero after the word */
    }
}

/* Wait for the arena's go on fd 4 (the sync pipe); EOF: the arena died. */
NO_ASAN static void wait_go(int rep)
{
    char go;
    ssize_t n;
    do
        n = read(4, &go, 1);
    while (n < 0 && errno == EINTR);
    if (n != 1) {
        errno = EPIPE;
        child_fail(rep, AR_STEP_SYNC);
    }
}

/* Pid 2, the program, until its execve: cloned with CLONE_VM, so it shares the init's memory
 * and writes none of it but its own stack and errno (the init, meanwhile, only closes fds and
 * waits, whose calls do not fail). */
NO_ASAN static int prog_main(void *arg)
{
    const child_args *a = arg;
    int rep = 3;
    /* tell the arena we exist (a marker before the status on the status pipe): it looks up our
     * host pid, which names the syscall of a seccomp kill in the kernel's audit line, while we
     * confine ourselves */
    int forked = AR_SPAWN_FORKED;
    ssize_t n;
    do
        n = write(5, &forked, sizeof forked);
    while (n < 0 && errno == EINTR);
    close(5);
    confine(a, rep);
    /* then wait until it has our pid */
    wait_go(rep);
    close(4);
    exec_program(a, rep);
}

/* SIGCHLD is blocked in the init and taken by sigwaitinfo: a handler (not SIG_DFL) only so
 * that no kernel path can count the signal as ignored. */
static void on_sigchld(int sig)
{
    (void)sig;
}

/* The namespaced modes: this is our init, pid 1 of a new pid namespace. It builds the jail,
 * forks the program as pid 2, reaps everything, hands pid 2's raw wait status to the arena
 * and exits (which kills whatever is left in the namespace). */
_Noreturn static void init_main(const child_args *a)
{
    int rep = a->report_fd;
    reset_signals(); /* the arena's libevent handlers must not run here */
    rep = setup_fds(a, 1);

    /* 1. wait for the go: maps written, cgroup joined */
    wait_go(rep);

    /* not dumpable: the bot (same uid, no capabilities) may not ptrace the init nor, with
     * /proc's hidepid=2, see it at all, so pid 1's command line, environment and fds (a forked
     * arena's: the match seed, other bots) stay hidden. Before the fork of pid 2, and after
     * the go: the arena has written our uid_map (the files of a non-dumpable process belong
     * to root). The program becomes dumpable again at execve. */
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
        child_fail(rep, AR_STEP_DUMPABLE);
    /* root with a user namespace: leave root's groups for nobody's group (write_maps), which
     * the program inherits */
    if (a->ns_regroup && (setgroups(0, NULL) < 0 || setresgid(1000, 1000, 1000) < 0))
        child_fail(rep, AR_STEP_SETUID);
    /* our copy of the arena's command line (the seed, every bot): replaced by
     * "okarena-init PROGRAM ARGS..." (what ps on the host shows), cut to fit */
    if (a->arg_end > a->arg_start)
        retitle((char *)a->arg_start, a->arg_end - a->arg_start, a->argv);

    /* 2. die with the arena (after any credential change, which would clear it); the arena
     * holds the sync pipe open until the program has exec'ed: a hang-up means it is gone */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
        child_fail(rep, AR_STEP_PDEATHSIG);
    struct pollfd pf = {4, POLLIN, 0};
    if (poll(&pf, 1, 0) > 0 && (pf.revents & (POLLHUP | POLLERR))) {
        errno = ESRCH;
        child_fail(rep, AR_STEP_PARENT);
    }
    if (setsid() < 0)
        child_fail(rep, AR_STEP_SETSID);
    prctl(PR_SET_NAME, "okarena-init", 0, 0, 0);

    /* 3. the file system */
    build_root(a, rep);

    /* 4. the program, sharing our memory until its execve (no copy of the page tables), on a
     * stack of its own. Not CLONE_VFORK: we must close our copy of the report pipe at once,
     * its EOF is the arena's sign that the program has exec'ed (sleeping until then cost
     * 0.5 ms: woken on the program's CPU, we ran only when it blocked) */
    static char prog_stack[256 << 10] __attribute__((aligned(64)));
    pid_t bot = clone(prog_main, prog_stack + sizeof prog_stack, CLONE_VM | SIGCHLD, (void *)a);
    if (bot < 0)
        child_fail(rep, AR_STEP_FORK);
    /* the init keeps none of the program's pipes: EOF must mean the program closed them */
    close(0);
    close(1);
    close(2);
    close(3);
    close(4);
    /* Wait for an exit in sigwaitinfo, not in waitpid: a sleeper in wait4 is woken by every
     * stop and continue of the program (the kernel wakes the parent's wait queue for them
     * whatever the flags), so each freeze and thaw of the bot between its decisions
     * (docs/sandbox.md) would wake us twice for nothing. With SA_NOCLDSTOP a stop or a
     * continue sends no SIGCHLD either; only an exit does. SIGCHLD stays blocked (a blocked
     * signal is queued even where pid 1 would ignore it), so one that comes between the
     * WNOHANG check and the wait is not lost. The handler never runs. */
    struct sigaction chld;
    memset(&chld, 0, sizeof chld);
    chld.sa_handler = on_sigchld;
    chld.sa_flags = SA_NOCLDSTOP;
    sigemptyset(&chld.sa_mask);
    sigaction(SIGCHLD, &chld, NULL);
    sigset_t only_chld;
    sigemptyset(&only_chld);
    sigaddset(&only_chld, SIGCHLD);
    sigprocmask(SIG_SETMASK, &only_chld, NULL);
    for (;;) {
        int st;
        pid_t w = waitpid(-1, &st, __WALL | WNOHANG);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            _exit(1); /* no children left, pid 2 unseen: cannot happen */
        if (w == bot) {
            ssize_t k;
            do
                k = write(5, &st, sizeof st);
            while (k < 0 && errno == EINTR);
            _exit(0);
        }
        if (w == 0)
            sigwaitinfo(&only_chld, NULL); /* EINTR: look again */
    }
}

static void close_quiet(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

static int set_nonblock(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
        return -errno;
    return 0;
}

/* The locked flags of the mount that holds path, for MS_REMOUNT (a user namespace may not
 * clear them). */
static unsigned long remount_flags(const char *path, int dev)
{
    unsigned long f = MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | (dev ? MS_NOEXEC : MS_NODEV);
    struct statvfs sv;
    if (statvfs(path, &sv) == 0) {
        if (sv.f_flag & ST_NOEXEC)
            f |= MS_NOEXEC;
        if (sv.f_flag & ST_NODEV)
            f |= MS_NODEV;
        if (sv.f_flag & ST_NOATIME)
            f |= MS_NOATIME;
        if (sv.f_flag & ST_NODIRATIME)
            f |= MS_NODIRATIME;
        if (sv.f_flag & ST_RELATIME)
            f |= MS_RELATIME;
    }
    return f;
}

/* The jail's file system: system folders, devices, then the bot's binds. */
static mnt_entry *plan_mounts(const ar_jail *j, int *n_out)
{
    int cap = 33, n = 0;
    for (int i = 0; j->binds && j->binds[i]; i++)
        cap++;
    mnt_entry *m = ar_xcalloc((size_t)cap, sizeof *m);
    const char *rw[2] = {j->rw_bind, NULL};
    for (int pass = 0; pass < 4; pass++) {
        const char *const *list = pass == 0   ? system_paths
                                  : pass == 1 ? device_paths
                                  : pass == 2 ? (const char *const *)j->binds
                                              : rw;
        for (int i = 0; list && list[i]; i++) {
            struct stat st;
            if (lstat(list[i], &st) < 0)
                continue;
            mnt_entry *e = &m[n];
            e->path = list[i];
            if (S_ISLNK(st.st_mode)) {
                char t[PATH_MAX];
                ssize_t k = readlink(list[i], t, sizeof t - 1);
                if (k <= 0)
                    continue;
                t[k] = '\0';
                e->kind = MNT_LINK;
                e->target = ar_xstrdup(t);
                /* a link to a file we would not show otherwise (/etc/localtime): show it */
                if (pass == 0 && t[0] == '/' && stat(list[i], &st) == 0 && S_ISREG(st.st_mode)) {
                    e->kind = MNT_FILE;
                    free(e->target);
                    e->target = NULL;
                }
            } else if (S_ISDIR(st.st_mode)) {
                e->kind = MNT_DIR;
            } else if (S_ISCHR(st.st_mode)) {
                e->kind = MNT_DEV;
            } else {
                e->kind = MNT_FILE;
            }
            e->remount = remount_flags(list[i], e->kind == MNT_DEV);
            e->own = pass >= 2;
            if (pass == 3 && e->kind == MNT_DIR) {
                e->rw = 1;
                e->remount &= ~(unsigned long)MS_RDONLY;
            } else if (pass == 3) {
                free(e->target); /* a build's folder is a folder, never a link */
                e->target = NULL;
                continue;
            }
            n++;
        }
    }
    *n_out = n;
    return m;
}

/* The texts of the jail's fixed /proc files (proc_fixed), malloc'ed into a->proc_text: as many
 * CPUs as the arena may run on (sched_getaffinity says as much to the bot), the bot's memory
 * limit as the memory (1 GiB without one), nothing running, no time since boot, the kernel's
 * release (uname says it too). */
static void proc_texts(const ar_jail *j, char **text)
{
    static int ncpu;
    if (!ncpu) {
        cpu_set_t cs;
        ncpu = sched_getaffinity(0, sizeof cs, &cs) == 0 ? CPU_COUNT(&cs) : 1;
        if (ncpu < 1)
            ncpu = 1;
    }
    size_t cap = 256 + (size_t)ncpu * 96;
    char *cpuinfo = ar_xmalloc(cap), *stat = ar_xmalloc(cap);
    size_t ki = 0, ks = 0;
    ks += (size_t)snprintf(stat, cap, "cpu  0 0 0 0 0 0 0 0 0 0\n");
    for (int i = 0; i < ncpu; i++) {
        ki += (size_t)snprintf(cpuinfo + ki, cap - ki,
                               "processor\t: %d\nvendor_id\t: okarena\nmodel name\t: okarena "
                               "CPU\n\n",
                               i);
        ks += (size_t)snprintf(stat + ks, cap - ks, "cpu%d 0 0 0 0 0 0 0 0 0 0\n", i);
    }
    snprintf(stat + ks, cap - ks,
             "intr 0\nctxt 0\nbtime 0\nprocesses 1\nprocs_running 1\nprocs_blocked 0\n"
             "softirq 0 0 0 0 0 0 0 0 0 0 0\n");
    unsigned long long kb = j->mem_bytes ? j->mem_bytes / 1024 : 1ULL << 20;
    char mem[1024];
    size_t km = 0;
    static const char *const mem_keys[] = {
        "MemTotal:",  "MemFree:",  "MemAvailable:", "Buffers:",     "Cached:",      "SwapCached:",
        "SwapTotal:", "SwapFree:", "Shmem:",        "CommitLimit:", "Committed_AS:"};
    for (size_t i = 0; i < sizeof mem_keys / sizeof mem_keys[0]; i++)
        km += (size_t)snprintf(mem + km, sizeof mem - km, "%-16s%8llu kB\n", mem_keys[i],
                               i < 3 || i == 9 ? kb : 0ULL);
    struct utsname u;
    char ver[256];
    snprintf(ver, sizeof ver, "Linux version %s (okarena) #1\n", uname(&u) == 0 ? u.release : "?");
    text[0] = cpuinfo;
    text[1] = ar_xstrdup("0.00 0.00 0.00 1/1 2\n");
    text[2] = ar_xstrdup(mem);
    text[3] = stat;
    text[4] = ar_xstrdup("0.00 0.00\n");
    text[5] = ar_xstrdup(ver);
}

static void free_proc_texts(char **text)
{
    for (int i = 0; i < AR_PROC_FIXED; i++)
        free(text[i]);
}

static void free_mounts(mnt_entry *m, int n)
{
    for (int i = 0; m && i < n; i++)
        free(m[i].target);
    free(m);
}

/* A folder to build the new root on: an existing one that no bind lies in. */
static const char *pick_stage(const mnt_entry *m, int n)
{
    static const char *const cands[] = {"/tmp", "/mnt", "/media", "/srv", "/opt",
                                        "/run", "/var", "/home",  NULL};
    for (int c = 0; cands[c]; c++) {
        struct stat st;
        if (lstat(cands[c], &st) < 0 || !S_ISDIR(st.st_mode))
            continue;
        int clash = 0;
        for (int i = 0; i < n && !clash; i++)
            clash = path_within(m[i].path, cands[c]);
        if (!clash)
            return cands[c];
    }
    return NULL;
}

static int write_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    int rc = ar_write_all(fd, text, strlen(text));
    close(fd);
    return rc;
}

/* uid_map and gid_map of the child's new user namespace: inside 1000 is the user who runs the
 * arena, and nothing else is mapped. The init, created by us, has every capability of the
 * namespace (enough for its mounts) whatever its uid; the program loses them at execve (its
 * uid 1000 is not the namespace's root) and before, with capset. Root gets the same map: a
 * dedicated unprivileged uid could not read bots kept in root's private folders (/root, a
 * mktemp -d), and the program is then root without a single capability, in namespaces where
 * only read-only files exist (its group, though, is nobody's: see below). */
static int write_maps(pid_t pid)
{
    char path[64], map[64];
    int rc, root = geteuid() == 0;
    /* Root: group 1000 is nobody's group outside, and setgroups stays allowed so that the init
     * can leave root's groups (init_main): a member of the host's group 0 would see every
     * process of /proc despite hidepid. Others may only map their own group, after "deny". */
    snprintf(path, sizeof path, "/proc/%d/setgroups", (int)pid);
    if (!root && (rc = write_file(path, "deny")) < 0 && rc != -ENOENT)
        return rc;
    snprintf(path, sizeof path, "/proc/%d/uid_map", (int)pid);
    snprintf(map, sizeof map, "1000 %d 1\n", (int)geteuid());
    if ((rc = write_file(path, map)) < 0)
        return rc;
    snprintf(path, sizeof path, "/proc/%d/gid_map", (int)pid);
    snprintf(map, sizeof map, "1000 %d 1\n", root ? AR_JAIL_NOBODY : (int)getegid());
    return write_file(path, map);
}

/* The fresh environment of a sandboxed program. */
static char **jail_env(const ar_jail *j, unsigned facts)
{
    strlist l = {0};
    char buf[512];
    sl_push(&l, "PATH=" AR_JAIL_PATH);
    sl_push(&l, "LANG=C.UTF-8");
    sl_push(&l, "HOME=/nonexistent");
    /* runtimes size themselves from the host, not from our limits (research pitfall 11) */
    sl_push(&l, "GOMAXPROCS=1");
    sl_push(&l, "UV_THREADPOOL_SIZE=1");
    sl_push(&l, "PYTHONDONTWRITEBYTECODE=1");
    sl_push(&l, "PYTHONNOUSERSITE=1");
    uint64_t mb = j->mem_bytes >> 20;
    if (mb > 0) {
        snprintf(buf, sizeof buf, "GOMEMLIMIT=%lluMiB", (unsigned long long)(mb * 8 / 10));
        sl_push(&l, buf);
        snprintf(buf, sizeof buf, "NODE_OPTIONS=--max-old-space-size=%llu",
                 (unsigned long long)(mb * 3 / 4));
        sl_push(&l, buf);
        snprintf(buf, sizeof buf,
                 "JAVA_TOOL_OPTIONS=-Xmx%llum -Xss512k -XX:+UseSerialGC -XX:-UsePerfData "
                 "-XX:ActiveProcessorCount=1 -XX:TieredStopAtLevel=1 "
                 "-XX:ReservedCodeCacheSize=32m -XX:CompressedClassSpaceSize=32m "
                 /* the JVM's own messages ("There is insufficient memory...") on stderr,
                  * not on stdout where they are a protocol error */
                 "-XX:+DisplayVMOutputToStderr -XX:+ErrorFileToStderr",
                 (unsigned long long)(mb * 6 / 10));
        sl_push(&l, buf);
    }
    for (int i = 0; j->env_extra && j->env_extra[i]; i++)
        sl_push(&l, j->env_extra[i]);
    if (facts & PROG_SANITIZED) {
        /* a sanitized build (the project's own ASan tests): keep its options, but no leak
         * check at exit, whose tracer is a new process the filter forbids */
        const char *ao = getenv("ASAN_OPTIONS"), *uo = getenv("UBSAN_OPTIONS");
        snprintf(buf, sizeof buf, "ASAN_OPTIONS=%.400s%sdetect_leaks=0:quarantine_size_mb=16",
                 ao ? ao : "", ao && *ao ? ":" : "");
        sl_push(&l, buf);
        if (uo) {
            snprintf(buf, sizeof buf, "UBSAN_OPTIONS=%.480s", uo);
            sl_push(&l, buf);
        }
    }
    return l.v;
}

/* Limits of the program. */
static void plan_rlimits(const ar_jail *j, unsigned facts, child_args *a)
{
    a->nrl = 0;
#define RL(res, v)                                                                                 \
    do {                                                                                           \
        a->rl_res[a->nrl] = (res);                                                                 \
        a->rl[a->nrl].rlim_cur = a->rl[a->nrl].rlim_max = (rlim_t)(v);                             \
        a->nrl++;                                                                                  \
    } while (0)
    RL(RLIMIT_CORE, 0);
    if (!j || j->mode == AR_SB_OFF)
        return;
    RL(RLIMIT_FSIZE, j->fsize_bytes);
    RL(RLIMIT_NOFILE, j->nofile ? j->nofile : 64);
    if (j->nproc)
        RL(RLIMIT_NPROC, j->nproc);
    RL(RLIMIT_MSGQUEUE, 0);
    int native = !j->profile || strcmp(j->profile, "interpreted") != 0;
    /* a sanitized build (the project's ASan tests) cannot start under either limit: only the
     * cgroup (full mode) limits its memory */
    if (j->mem_bytes && !(facts & PROG_SANITIZED)) {
        uint64_t grace = native ? (uint64_t)32 << 20 : (uint64_t)64 << 20;
        RL(RLIMIT_DATA, j->mem_bytes + grace);
        /* address space only where nothing else counts shared memory, and never for Go,
         * which reserves hundreds of MiB it never touches */
        if (native && !j->cgroup && !(facts & PROG_GO))
            RL(RLIMIT_AS, j->mem_bytes + ((uint64_t)64 << 20));
    }
    if (j->cpu_s) {
        a->rl_res[a->nrl] = RLIMIT_CPU;
        a->rl[a->nrl].rlim_cur = j->cpu_s;
        a->rl[a->nrl].rlim_max = (rlim_t)j->cpu_s + 5;
        a->nrl++;
    }
#undef RL
}

static const char *proc_stat(pid_t pid, char *buf, size_t cap);
static int stat_field(const char *p, int k, long long *v);

/* Where the arena's own argv strings are (arg_start and arg_end of /proc/self/stat, fields 48
 * and 49): the init, a copy of the arena, blanks them. Read once; 0, 0 if unknown. */
static void arena_args(uintptr_t *start, uintptr_t *end)
{
    static uintptr_t s0, e0;
    static int done;
    if (!done) {
        char buf[2048];
        const char *p = proc_stat(getpid(), buf, sizeof buf);
        long long a, b;
        if (p && stat_field(p, 45, &a) == 0 && stat_field(p, 46, &b) == 0 && a > 0 && b > a &&
            b - a < (1LL << 24)) {
            s0 = (uintptr_t)a;
            e0 = (uintptr_t)b;
        }
        done = 1;
    }
    *start = s0;
    *end = e0;
}

/* The program's pid as the arena sees it: the init's only child. */
static pid_t find_prog(pid_t init)
{
    char path[64], buf[64];
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)init, (int)init);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        ssize_t n = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (n > 0) {
            buf[n] = '\0';
            long v = strtol(buf, NULL, 10);
            if (v > 0)
                return (pid_t)v;
        }
    }
    return 0;
}

/* Read one report from the child (blocking until it fails or exec closes the pipe). Returns
 * 1 with *r filled, 0 on EOF (exec succeeded). */
static int read_report(int fd, child_report *r)
{
    size_t got = 0;
    while (got < sizeof *r) {
        ssize_t n = read(fd, (char *)r + got, sizeof *r - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    if (got != 0 && got != sizeof *r)
        abort(); /* a partial report cannot happen with a 12-byte write to a pipe */
    return got == sizeof *r;
}

static void reap(pid_t pid)
{
    int st;
    while (waitpid(pid, &st, __WALL) < 0 && errno == EINTR)
        ;
}

/* clone the init into new namespaces (and straight into its cgroup with clone3 when we can).
 * Returns the pid in the parent, 0 in the child, -1 with errno. *in_cgroup says whether the
 * kernel placed it. */
static pid_t clone_jail(unsigned long flags, int cgroup_fd, int *in_cgroup)
{
    *in_cgroup = 0;
#ifdef SYS_clone3
    if (cgroup_fd >= 0) {
        struct clone_args ca;
        memset(&ca, 0, sizeof ca);
        ca.flags = flags | CLONE_INTO_CGROUP;
        ca.exit_signal = SIGCHLD;
        ca.cgroup = (uint64_t)cgroup_fd;
        long pid = syscall(SYS_clone3, &ca, sizeof ca);
        if (pid >= 0) {
            *in_cgroup = 1;
            return (pid_t)pid;
        }
        if (errno != ENOSYS && errno != E2BIG && errno != EINVAL)
            return -1;
    }
#else
    (void)cgroup_fd;
#endif
    return (pid_t)syscall(SYS_clone, flags | SIGCHLD, 0, 0, 0, 0);
}

int ar_spawn_start(const ar_spawn_opts *o, ar_proc *p, char *err, size_t errcap)
{
    int in[2] = {-1, -1}, out[2] = {-1, -1}, errp[2] = {-1, -1}, rep[2] = {-1, -1};
    int syn[2] = {-1, -1}, stp[2] = {-1, -1};
    int rc = 0;
    char msg[PATH_MAX + 128];
    const ar_jail *j = o->jail;
    int mode = j ? j->mode : AR_SB_OFF;
    int jailed = mode >= AR_SB_ROOTLESS;
    char **env = NULL;
    mnt_entry *mnt = NULL;
    int nmnt = 0;
    char *ptext[AR_PROC_FIXED] = {0};
    double t0 = ar_now_ms();

    memset(p, 0, sizeof *p);
    p->status_fd = -1;
    if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0 || pipe2(errp, O_CLOEXEC) < 0 ||
        pipe2(rep, O_CLOEXEC) < 0 ||
        (jailed && (pipe2(syn, O_CLOEXEC) < 0 || pipe2(stp, O_CLOEXEC) < 0))) {
        rc = -errno;
        snprintf(msg, sizeof msg, "pipe2: %s", strerror(-rc));
        set_err(err, errcap, msg);
        goto fail;
    }

    child_args a = {
        .path = o->path,
        .argv = o->argv,
        .envp = o->envp ? o->envp : environ,
        .cwd = o->cwd,
        .ppid = getpid(),
        .in_r = in[0],
        .out_w = out[1],
        .err_w = errp[1],
        .report_fd = rep[1],
        .sync_fd = syn[0],
        .status_fd = stp[1],
        .jailed = jailed,
    };
    char cwd[PATH_MAX];
    unsigned facts = mode != AR_SB_OFF ? prog_facts(o->path) : 0;
    if (mode != AR_SB_OFF) {
        env = jail_env(j, facts);
        a.envp = env;
        a.filter = j->filter;
        a.nnp = 1;
        if (!a.cwd && getcwd(cwd, sizeof cwd))
            a.cwd = cwd;
    }
    plan_rlimits(j, facts, &a);
    if (jailed) {
        int root = geteuid() == 0;
        a.drop_to = !j->userns ? AR_JAIL_NOBODY : 0;
        a.ns_regroup = j->userns && root;
        arena_args(&a.arg_start, &a.arg_end);
        if (!j->userns && !root) {
            rc = -EPERM;
            set_err(err, errcap, "spawn failed: the jail needs a user namespace or root");
            goto fail;
        }
        a.scope = in_shared_net();
        proc_texts(j, ptext);
        a.proc_text = ptext;
        mnt = plan_mounts(j, &nmnt);
        a.mnt = mnt;
        a.nmnt = nmnt;
        a.stage = pick_stage(mnt, nmnt);
        if (!a.stage) {
            rc = -ENOENT;
            set_err(err, errcap, "spawn failed: no folder to build the jail's root on");
            goto fail;
        }
    } else if (mode == AR_SB_SECCOMP_ONLY && geteuid() == 0) {
        a.drop_to = AR_JAIL_NOBODY; /* no namespaces: at least not root */
    }

    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_SETMASK, &all, &old);
    pid_t pid;
    int in_cgroup = 0;
    if (jailed) {
        unsigned long flags = CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWUTS |
                              CLONE_NEWCGROUP | (j->userns ? CLONE_NEWUSER : 0) |
                              (a.scope ? 0 : CLONE_NEWNET);
        pid = clone_jail(flags, j->cgroup ? ar_cgroup_dirfd(j->cgroup) : -1, &in_cgroup);
        if (pid == 0)
            init_main(&a);
    } else {
        pid = (pid_t)syscall(SYS_clone, (unsigned long)SIGCHLD, 0, 0, 0, 0);
        if (pid == 0)
            child_main(&a);
    }
    int fork_errno = errno;
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (pid < 0) {
        rc = -fork_errno;
        snprintf(msg, sizeof msg, "spawn failed at %s: %s",
                 jailed ? ar_spawn_step_name(AR_STEP_CLONE) : "fork", strerror(fork_errno));
        set_err(err, errcap, msg);
        goto fail;
    }
    /* Both sides set the group: whoever runs first wins the race with our kill(-pid). The
     * init makes its own session (and group) once released. */
    if (!jailed)
        setpgid(pid, pid);
    close_quiet(&in[0]);
    close_quiet(&out[1]);
    close_quiet(&errp[1]);
    close_quiet(&rep[1]);
    close_quiet(&syn[0]);
    close_quiet(&stp[1]);

    if (jailed) {
        int step = 0;
        if (j->userns && (rc = write_maps(pid)) < 0)
            step = AR_STEP_IDMAP;
        else if (j->cgroup && !in_cgroup && (rc = ar_cgroup_attach(j->cgroup, pid)) < 0)
            step = AR_STEP_CGROUP;
        else if ((rc = ar_write_all(syn[1], "g", 1)) < 0)
            step = AR_STEP_SYNC;
        if (step) {
            kill(pid, SIGKILL);
            reap(pid);
            snprintf(msg, sizeof msg, "spawn failed at %s: %s", ar_spawn_step_name(step),
                     strerror(-rc));
            set_err(err, errcap, msg);
            goto fail;
        }
    }

    if (jailed) {
        /* the init's marker: the program exists (blocked); learn its pid, then release it.
         * EOF instead: the init failed before (its report follows). */
        int marker = 0;
        ssize_t n;
        do
            n = read(stp[0], &marker, sizeof marker);
        while (n < 0 && errno == EINTR);
        if (n == (ssize_t)sizeof marker && marker == AR_SPAWN_FORKED) {
            p->prog_pid = find_prog(pid);
            ar_write_all(syn[1], "g", 1);
        }
    }

    child_report r;
    int failed = read_report(rep[0], &r);
    close_quiet(&rep[0]);
    close_quiet(&syn[1]); /* after the exec: the init no longer looks */
    if (failed) {
        reap(pid);
        rc = r.err > 0 ? -r.err : -EIO;
        if (r.step == AR_STEP_BIND && r.arg >= 0 && r.arg < nmnt)
            snprintf(msg, sizeof msg, "spawn failed at %s %s: %s%s", ar_spawn_step_name(r.step),
                     mnt[r.arg].path, strerror(r.err),
                     r.err == EINVAL && mnt[r.arg].own
                         ? " (a mount point inside it? the jail does not show one)"
                         : "");
        else
            snprintf(msg, sizeof msg, "spawn failed at %s: %s", ar_spawn_step_name(r.step),
                     strerror(r.err));
        set_err(err, errcap, msg);
        goto fail;
    }
    p->exec_ms = ar_now_ms() - t0;

    if ((rc = set_nonblock(in[1])) < 0 || (rc = set_nonblock(out[0])) < 0 ||
        (rc = set_nonblock(errp[0])) < 0 || (jailed && (rc = set_nonblock(stp[0])) < 0)) {
        snprintf(msg, sizeof msg, "fcntl: %s", strerror(-rc));
        set_err(err, errcap, msg);
        ar_spawn_kill(pid);
        reap(pid);
        goto fail;
    }
    p->pid = pid;
    if (!jailed)
        p->prog_pid = pid;
    p->in_fd = in[1];
    p->out_fd = out[0];
    p->err_fd = errp[0];
    p->status_fd = jailed ? stp[0] : -1;
    ar_spawn_argv_free(env);
    free_mounts(mnt, nmnt);
    free_proc_texts(ptext);
    return 0;

fail:
    close_quiet(&in[0]);
    close_quiet(&in[1]);
    close_quiet(&out[0]);
    close_quiet(&out[1]);
    close_quiet(&errp[0]);
    close_quiet(&errp[1]);
    close_quiet(&rep[0]);
    close_quiet(&rep[1]);
    close_quiet(&syn[0]);
    close_quiet(&syn[1]);
    close_quiet(&stp[0]);
    close_quiet(&stp[1]);
    ar_spawn_argv_free(env);
    free_mounts(mnt, nmnt);
    free_proc_texts(ptext);
    return rc;
}

int ar_spawn_prog_status(ar_proc *p, int *status)
{
    if (p->status_fd < 0)
        return 0;
    int st, got = 0;
    ssize_t n;
    do
        n = read(p->status_fd, &st, sizeof st);
    while (n < 0 && errno == EINTR);
    if (n == (ssize_t)sizeof st) {
        *status = st;
        got = 1;
    }
    close_quiet(&p->status_fd);
    return got;
}

int ar_spawn_freeze(pid_t pid, pid_t prog_pid, struct ar_cgroup *cg, int frozen)
{
    if (pid <= 0)
        return -ESRCH;
    /* jailed, the program is stopped alone even where the cgroup freezer works: the freezer
     * also freezes and thaws the init, and each is a wake-up of it, where the stop of a
     * program that cannot fork holds all it runs just as well (docs/sandbox.md) */
    int jailed = prog_pid > 0 && prog_pid != pid;
    if (cg && !getenv("OKR_FREEZE_SIGNALS") && (!jailed || getenv("OKR_FREEZE_CGROUP")) &&
        ar_cgroup_freeze(cg, frozen) == 0)
        return AR_FREEZE_CGROUP;
    int sig = frozen ? SIGSTOP : SIGCONT;
    if (jailed) {
        /* jailed: the program is the only one that may run (it cannot fork: the filter kills
         * fork, vfork and clone without CLONE_THREAD); our init only waits for it, and is not
         * woken for nothing */
        return kill(prog_pid, sig) == 0 ? AR_FREEZE_SIGNALS : -ESRCH;
    }
    /* a plain child: its group, and the pid itself in case it left the group */
    int a = kill(-pid, sig), b = kill(pid, sig);
    return a == 0 || b == 0 ? AR_FREEZE_SIGNALS : -ESRCH;
}

void ar_spawn_kill(pid_t pid)
{
    if (pid <= 0)
        return;
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
}

/* Read /proc/PID/stat into buf; returns a pointer just past the ")" that ends the command
 * name (which may itself hold spaces and parentheses), or NULL. */
static const char *proc_stat(pid_t pid, char *buf, size_t cap)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    ssize_t n;
    do
        n = read(fd, buf, cap - 1);
    while (n < 0 && errno == EINTR);
    close(fd);
    if (n <= 0)
        return NULL;
    buf[n] = '\0';
    const char *rp = strrchr(buf, ')');
    return rp ? rp + 1 : NULL;
}

/* The k-th space-separated field after the command name (field 3 of stat(5) is k = 0). */
static int stat_field(const char *p, int k, long long *v)
{
    for (int i = 0; i <= k; i++) {
        while (*p == ' ')
            p++;
        if (!*p)
            return -1;
        if (i == k) {
            char *end;
            *v = strtoll(p, &end, 10);
            return end == p ? -1 : 0;
        }
        while (*p && *p != ' ')
            p++;
    }
    return -1;
}

double ar_spawn_cpu_ms(pid_t pid)
{
    /* The process's CPU-time clock: nanoseconds, all threads. /proc/PID/stat counts in clock
     * ticks (10 ms) and is only the fallback. */
    clockid_t cid;
    struct timespec ts;
    if (clock_getcpuclockid(pid, &cid) == 0 && clock_gettime(cid, &ts) == 0)
        return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
    char buf[1024];
    const char *p = proc_stat(pid, buf, sizeof buf);
    long long ut, st, cut, cst;
    /* stat(5): utime 14, stime 15, cutime 16, cstime 17; field 3 is k = 0 */
    if (!p || stat_field(p, 11, &ut) || stat_field(p, 12, &st) || stat_field(p, 13, &cut) ||
        stat_field(p, 14, &cst))
        return -1;
    long tck = sysconf(_SC_CLK_TCK);
    if (tck <= 0)
        tck = 100;
    return (double)(ut + st + cut + cst) * 1000.0 / (double)tck;
}

void ar_spawn_spare(pid_t pid)
{
    spared = pid;
}

void ar_spawn_reaped(pid_t pid)
{
    if (pid > 0 && pid == spared)
        spared = 0;
}

/* Our children besides the spared one (alive or zombies) into out[0..cap), from /proc; returns
 * how many there are (possibly more than cap), or -1 when /proc is unreadable. */
static int children_of_ours(pid_t *out, int cap)
{
    DIR *d = opendir("/proc");
    if (!d)
        return -1;
    pid_t self = getpid();
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        if (*end || pid <= 0 || pid == self || pid == spared)
            continue;
        char buf[1024];
        const char *p = proc_stat((pid_t)pid, buf, sizeof buf);
        long long ppid;
        if (!p || stat_field(p, 1, &ppid) || ppid != self)
            continue;
        if (n < cap)
            out[n] = (pid_t)pid;
        n++;
    }
    closedir(d);
    return n;
}

int ar_spawn_kill_adopted(const pid_t *keep, int nkeep)
{
    pid_t kids[1024];
    int n = children_of_ours(kids, 1024);
    int killed = 0;
    for (int k = 0; k < n && k < 1024; k++) {
        int kept = 0;
        for (int i = 0; i < nkeep; i++)
            if (keep[i] == kids[k])
                kept = 1;
        if (!kept) {
            kill(kids[k], SIGKILL);
            killed++;
        }
    }
    return killed;
}

int ar_spawn_children(void)
{
    pid_t none[1];
    int n = children_of_ours(none, 0);
    return n < 0 ? 1 : n;
}
