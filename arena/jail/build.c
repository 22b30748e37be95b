/* build.c - a bot's build step run to its end in the jail (build.h). The process is started
 * by spawn.c (ar_spawn_start, with the folder as its one writable bind and no filter); this
 * file waits for it with a deadline, keeps its output in the log up to a cap, and kills the
 * whole tree (the jail's init, whose pid namespace dies with it, and the cgroup) when it
 * overstays or floods. */
#include "build.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgroup.h"
#include "sandbox.h"
#include "spawn.h"
#include "util/util.h"

static void say(char *why, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *why, size_t cap, const char *fmt, ...)
{
    if (!why || !cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, cap, fmt, ap);
    va_end(ap);
}

/* The C SDK (docs/sdk-c.md) for a C bot's build: okbot.h with the engine's okr/okr.h (the
 * source tree's), and the archives libokbot.a, libokrpb.a and libokr_engine.a (this build's),
 * their folders shown read-only at the same place and named by CPATH and LIBRARY_PATH (gcc and
 * clang read both: `cc bot.c -lokbot -lokrpb -lokr_engine -lprotobuf-c` finds them) and
 * PKG_CONFIG_PATH (okbot-uninstalled.pc). Code and headers only: nothing there knows a seed.
 * A folder that is not there (an installed arena without its trees) is left out. */
static const char *const c_sdk_src[] = {"sdk/c/include", "engine/include", NULL};
static const char *const c_sdk_bin[] = {"sdk/c", "proto", "engine", NULL};
enum { C_SDK_MAX = 5 };

typedef struct c_sdk {
    char *binds[C_SDK_MAX + 1];
    char cpath[2 * PATH_MAX + 16], libpath[3 * PATH_MAX + 16], pcpath[PATH_MAX + 32];
} c_sdk;

static void c_sdk_find(c_sdk *c)
{
    memset(c, 0, sizeof *c);
    int n = 0;
    size_t ci = (size_t)snprintf(c->cpath, sizeof c->cpath, "CPATH=");
    size_t li = (size_t)snprintf(c->libpath, sizeof c->libpath, "LIBRARY_PATH=");
    char p[PATH_MAX];
    struct stat sb;
    for (int k = 0; k < 2; k++) {
        const char *root = k ? AR_BINARY_DIR : AR_SOURCE_DIR;
        const char *const *rel = k ? c_sdk_bin : c_sdk_src;
        for (int i = 0; root[0] && rel[i] && n < C_SDK_MAX; i++) {
            if (snprintf(p, sizeof p, "%s/%s", root, rel[i]) >= (int)sizeof p || stat(p, &sb) < 0 ||
                !S_ISDIR(sb.st_mode))
                continue;
            c->binds[n++] = ar_xstrdup(p);
            char *v = k ? c->libpath : c->cpath;
            size_t *at = k ? &li : &ci, vc = k ? sizeof c->libpath : sizeof c->cpath;
            int w = snprintf(v + *at, vc - *at, "%s%s", v[*at - 1] == '=' ? "" : ":", p);
            if (w > 0 && (size_t)w < vc - *at)
                *at += (size_t)w;
        }
    }
    if (AR_BINARY_DIR[0])
        snprintf(c->pcpath, sizeof c->pcpath, "PKG_CONFIG_PATH=%s/sdk/c", AR_BINARY_DIR);
}

static void c_sdk_free(c_sdk *c)
{
    for (int i = 0; c->binds[i]; i++)
        free(c->binds[i]);
}

/* The program: a name in the jail's PATH, or a path (relative ones against dir) that must
 * lie in the system's folders or in dir, where the jail shows it. 0 or -1 with why. */
static int find_program(const ar_build *b, const char *name, char *out, size_t cap, char *why,
                        size_t wcap)
{
    int rc;
    if (!strchr(name, '/')) {
        rc = ar_spawn_resolve_in(name, AR_JAIL_PATH, out, cap);
    } else {
        char cand[PATH_MAX];
        if (snprintf(cand, sizeof cand, "%s%s%s", name[0] == '/' ? "" : b->dir,
                     name[0] == '/' ? "" : "/", name) >= (int)sizeof cand) {
            say(why, wcap, "cannot start: %s: name too long", name);
            return -1;
        }
        rc = ar_spawn_resolve(cand, out, cap);
    }
    if (rc < 0) {
        say(why, wcap, "cannot start: %s: %s", name,
            rc == -ENOENT   ? "not found (in the bot's folder or " AR_JAIL_PATH ")"
            : rc == -EACCES ? "not an executable file"
                            : strerror(-rc));
        return -1;
    }
    return 0;
}

/* What the folder takes, for the disk limits: a walk that never follows a link nor leaves
 * the file system, and stops as soon as either limit is passed. Per thread: nftw passes no
 * pointer, and a server may run builds on several threads. */
static _Thread_local uint64_t du_bytes, du_max_bytes;
static _Thread_local uint32_t du_files, du_max_files;
static int du_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
    (void)path;
    (void)flag;
    (void)f;
    du_bytes += (uint64_t)st->st_blocks * 512;
    du_files++;
    return du_bytes > du_max_bytes || du_files > du_max_files;
}
/* 1 if dir is over a limit (why says which), else 0. */
static int over_disk(const char *dir, uint64_t max_bytes, uint32_t max_files, char *end, size_t cap)
{
    du_bytes = 0;
    du_files = 0;
    du_max_bytes = max_bytes;
    du_max_files = max_files;
    nftw(dir, du_one, 16, FTW_PHYS | FTW_MOUNT);
    if (du_bytes > max_bytes)
        snprintf(end, cap, "stopped: its folder passed %llu bytes", (unsigned long long)max_bytes);
    else if (du_files > max_files)
        snprintf(end, cap, "stopped: its folder passed %u files and folders", max_files);
    else
        return 0;
    return 1;
}

int ar_build_run(const ar_build *b, char *why, size_t cap)
{
    if (why && cap)
        why[0] = '\0';
    int root = geteuid() == 0;
    if (b->mode < AR_SB_ROOTLESS || (root && !b->userns)) {
        /* no weaker fallback: without a user namespace the build would run with the
         * arena's own rights over the machine; say what to enable, and what works anyway */
        say(why, cap,
            "a build step runs only in the jail with a user namespace (sandbox %s%s), which "
            "this host does not allow: enable unprivileged user namespaces (sysctl "
            "kernel.unprivileged_userns_clone=1 on Debian, "
            "kernel.apparmor_restrict_unprivileged_userns=0 on Ubuntu, and "
            "user.max_user_namespaces above 0; `arena sandbox` shows the result, "
            "docs/sandbox.md), or upload the bot built already (an archive without a build "
            "step)",
            ar_sb_mode_name(b->mode), b->userns ? "" : ", no user namespace");
        return -1;
    }
    if (!b->dir || b->dir[0] != '/' || b->secs <= 0) {
        say(why, cap, "a build needs an absolute folder and a time limit");
        return -1;
    }
    uint32_t mem_mb = b->memory_mb ? b->memory_mb : 1024;
    int pids = b->pids > 0 ? b->pids : 64;
    uint64_t fsize = b->fsize ? b->fsize : (uint64_t)64 << 20;
    uint64_t log_cap = b->log_cap ? b->log_cap : (uint64_t)1 << 20;
    uint64_t max_disk = b->max_disk ? b->max_disk : (uint64_t)512 << 20;
    uint32_t max_files = b->max_files ? b->max_files : 20000;
    char end[256];
    end[0] = '\0';

    char **argv = NULL, prog[PATH_MAX], err[PATH_MAX + 256];
    int argc = 0;
    if (ar_spawn_split(b->command, &argv, &argc, err, sizeof err) < 0) {
        say(why, cap, "the build command: %s", err);
        return -1;
    }
    int rc = -1;
    FILE *log = NULL;
    ar_cgroup *cg = NULL;
    c_sdk sdk;
    c_sdk_find(&sdk);
    char tmpdir[PATH_MAX], tmpenv[PATH_MAX + 16];
    tmpdir[0] = '\0';
    if (find_program(b, argv[0], prog, sizeof prog, why, cap) < 0)
        goto out;
    int lfd = open(b->log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (lfd < 0 || !(log = fdopen(lfd, "w"))) {
        say(why, cap, "the build's log %s: %s", b->log_path, strerror(errno));
        if (lfd >= 0)
            close(lfd);
        goto out;
    }
    /* its temporary files (TMPDIR) in its own folder, the one place it may write; removed
     * after */
    snprintf(tmpdir, sizeof tmpdir, "%s/.build-tmp", b->dir);
    if (mkdir(tmpdir, 0700) < 0) {
        say(why, cap, "%s: %s", tmpdir, strerror(errno));
        tmpdir[0] = '\0';
        goto out;
    }
    snprintf(tmpenv, sizeof tmpenv, "TMPDIR=%s", tmpdir);
    char *env[5] = {tmpenv, NULL};
    int ne = 1;
    if (strlen(sdk.cpath) > sizeof "CPATH=" - 1)
        env[ne++] = sdk.cpath;
    if (strlen(sdk.libpath) > sizeof "LIBRARY_PATH=" - 1)
        env[ne++] = sdk.libpath;
    if (sdk.pcpath[0])
        env[ne++] = sdk.pcpath;
    if (b->mode == AR_SB_FULL) {
        char cgerr[256];
        cg = ar_cgroup_new("build", (uint64_t)mem_mb << 20, pids, cgerr, sizeof cgerr);
        if (!cg)
            fprintf(log, "[arena: no cgroup (%s): memory and tasks are limited by rlimits]\n",
                    cgerr);
    }
    ar_jail j = {.mode = b->mode,
                 .userns = b->userns,
                 .filter = NULL,
                 .profile = "interpreted", /* no RLIMIT_AS: compilers map more than they use */
                 .mem_bytes = (uint64_t)mem_mb << 20,
                 .cpu_s = (uint32_t)b->secs + 1,
                 .cgroup = cg,
                 .env_extra = env,
                 .binds = sdk.binds,
                 .rw_bind = b->dir,
                 .fsize_bytes = fsize,
                 .nofile = 1024,
                 .nproc = (uint32_t)pids};
    ar_spawn_opts o = {.path = prog, .argv = argv, .cwd = b->dir, .jail = &j};
    ar_proc p;
    fflush(log);
    if (ar_spawn_start(&o, &p, err, sizeof err) < 0) {
        say(why, cap, "cannot start: %s", err);
        fprintf(log, "[arena: cannot start: %s]\n", err);
        goto out;
    }
    close(p.in_fd); /* nothing to read: EOF */
    double deadline = ar_now_ms() + b->secs * 1000;
    uint64_t logged = 0;
    int open_fds = 2, flooded = 0, late = 0, full = 0;
    struct pollfd pf[2] = {{p.out_fd, POLLIN, 0}, {p.err_fd, POLLIN, 0}};
    char buf[16384];
    double next_du = ar_now_ms() + 500;
    while (open_fds > 0) {
        double left = deadline - ar_now_ms();
        if (left <= 0) {
            late = 1;
            break;
        }
        if (ar_now_ms() >= next_du) {
            if ((full = over_disk(b->dir, max_disk, max_files, end, sizeof end)) != 0)
                break;
            next_du = ar_now_ms() + 500;
        }
        int n = poll(pf, 2, left > 500 ? 500 : (int)left + 1);
        if (n < 0 && errno != EINTR)
            break;
        for (int i = 0; i < 2 && !flooded; i++) {
            if (pf[i].fd < 0 || !(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ssize_t k = read(pf[i].fd, buf, sizeof buf);
            if (k < 0 && (errno == EAGAIN || errno == EINTR))
                continue;
            if (k <= 0) {
                close(pf[i].fd);
                pf[i].fd = -1;
                open_fds--;
                continue;
            }
            if (logged + (uint64_t)k > log_cap) {
                fwrite(buf, 1, (size_t)(log_cap - logged), log);
                flooded = 1;
            } else {
                fwrite(buf, 1, (size_t)k, log);
            }
            logged += (uint64_t)k;
        }
        if (flooded)
            break;
    }
    if (late || flooded || full || open_fds > 0) {
        ar_spawn_kill(p.pid);
        if (cg)
            ar_cgroup_kill(cg);
    }
    for (int i = 0; i < 2; i++)
        if (pf[i].fd >= 0)
            close(pf[i].fd);
    /* the init ends once the program has: its pid namespace takes the rest along */
    int st = 0;
    double wait_until = ar_now_ms() + 5000;
    pid_t w;
    while ((w = waitpid(p.pid, &st, WNOHANG)) == 0 && ar_now_ms() < wait_until) {
        if (ar_now_ms() >= deadline && !late) {
            late = 1;
            ar_spawn_kill(p.pid);
        }
        usleep(2000);
    }
    if (w == 0) {
        ar_spawn_kill(p.pid);
        waitpid(p.pid, &st, 0);
    }
    int status = 0, have = ar_spawn_prog_status(&p, &status);
    int ooms = cg ? ar_cgroup_oom_kills(cg) : -1;
    /* a last look: what it wrote since the one before */
    if (!full && !late && !flooded)
        full = over_disk(b->dir, max_disk, max_files, end, sizeof end);
    if (full) {
        /* end says which */
    } else if (late)
        snprintf(end, sizeof end, "stopped after %.0f s, its time limit", b->secs);
    else if (flooded)
        snprintf(end, sizeof end, "stopped: its output passed %llu bytes",
                 (unsigned long long)log_cap);
    else if (ooms > 0)
        snprintf(end, sizeof end, "out of memory (the limit is %u MiB)", mem_mb);
    else if (!have)
        snprintf(end, sizeof end, "the jail ended without its status");
    else if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        rc = 0;
    else if (WIFEXITED(status))
        snprintf(end, sizeof end, "exit status %d", WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        snprintf(end, sizeof end, "killed by signal %d (%s)%s", WTERMSIG(status),
                 strsignal(WTERMSIG(status)),
                 WTERMSIG(status) == SIGXFSZ   ? ": a file over its size limit"
                 : WTERMSIG(status) == SIGXCPU ? ": its CPU time limit"
                                               : "");
    else
        snprintf(end, sizeof end, "wait status %d", status);
    if (rc == 0)
        fprintf(log, "\n[arena: the build ended with exit status 0]\n");
    else {
        fprintf(log, "\n[arena: the build failed: %s]\n", end);
        say(why, cap, "%s", end);
    }
out:
    if (tmpdir[0])
        ar_rm_tree(tmpdir);
    if (log && fclose(log) != 0 && rc == 0) {
        say(why, cap, "the build's log: %s", strerror(errno));
        rc = -1;
    }
    ar_cgroup_free(cg);
    c_sdk_free(&sdk);
    ar_spawn_argv_free(argv);
    return rc;
}
