/* spawn.c - the one place that forks and execs (aesthetics B6). The parent does everything
 * that may allocate: the argv, the PATH search, the pipes. The child between fork() and
 * execve() makes only async-signal-safe calls and raw syscalls; on failure it writes
 * {step, errno} to a CLOEXEC pipe and _exit(127)s. EOF on that pipe means execve succeeded. */
#include "spawn.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

extern char **environ;

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

static int make_absolute(const char *path, char *out, size_t cap)
{
    if (path[0] == '/') {
        if (strlen(path) >= cap)
            return -ENAMETOOLONG;
        strcpy(out, path);
        return 0;
    }
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        return -errno;
    const char *rel = path;
    while (rel[0] == '.' && rel[1] == '/')
        rel += 2;
    int n = snprintf(out, cap, "%s/%s", strcmp(cwd, "/") == 0 ? "" : cwd, rel);
    return n < 0 || (size_t)n >= cap ? -ENAMETOOLONG : 0;
}

int ar_spawn_resolve(const char *name, char *out, size_t cap)
{
    if (!name || !*name)
        return -ENOENT;
    if (strchr(name, '/')) {
        int rc = executable(name);
        if (rc < 0)
            return rc == -ENOENT || rc == -ENOTDIR ? -ENOENT : rc;
        return make_absolute(name, out, cap);
    }
    const char *path = getenv("PATH");
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

/* ---- Processes ------------------------------------------------------------------------- */

const char *ar_spawn_step_name(int step)
{
    switch (step) {
    case AR_STEP_SIGNALS:
        return "signals";
    case AR_STEP_SETPGID:
        return "setpgid";
    case AR_STEP_PDEATHSIG:
        return "pdeathsig";
    case AR_STEP_PARENT:
        return "parent check";
    case AR_STEP_FDS:
        return "fds";
    case AR_STEP_CHDIR:
        return "chdir";
    case AR_STEP_RLIMIT:
        return "rlimit";
    case AR_STEP_SIGMASK:
        return "sigmask";
    case AR_STEP_EXEC:
        return "exec";
    }
    return "?";
}

int ar_spawn_init(void)
{
    if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0)
        return -errno;
    return 0;
}

/* What the child tells the parent when a step fails. */
typedef struct child_report {
    int step;
    int err;
} child_report;

/* Everything the child needs, prepared by the parent. */
typedef struct child_args {
    const char *path;
    char *const *argv;
    char *const *envp;
    const char *cwd;
    pid_t ppid;
    int in_r, out_w, err_w; /* become 0, 1, 2 */
    int report_fd;          /* becomes 3, CLOEXEC */
} child_args;

_Noreturn static void child_fail(int fd, int step)
{
    child_report r = {step, errno};
    ssize_t w;
    do
        w = write(fd, &r, sizeof r);
    while (w < 0 && errno == EINTR);
    _exit(127);
}

/* Move fd to a number >= 4 if it is below, keeping CLOEXEC. Returns the fd or -1. */
static int lift_fd(int fd)
{
    return fd >= 4 ? fd : fcntl(fd, F_DUPFD_CLOEXEC, 4);
}

/* The child, between fork and execve: async-signal-safe calls only (no malloc, stdio,
 * libevent, execvp). */
_Noreturn static void child_main(const child_args *a)
{
    int rep = a->report_fd;

    /* 1. default dispositions (SIG_IGN survives execve; the arena ignores SIGPIPE), own group */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    for (int sig = 1; sig < 32; sig++)
        if (sig != SIGKILL && sig != SIGSTOP)
            sigaction(sig, &dfl, NULL); /* EINVAL for reserved numbers is harmless */
    if (setpgid(0, 0) < 0)
        child_fail(rep, AR_STEP_SETPGID);

    /* 2. die with the arena; the arena may already be gone */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
        child_fail(rep, AR_STEP_PDEATHSIG);
    if (getppid() != a->ppid) {
        errno = ESRCH;
        child_fail(rep, AR_STEP_PARENT);
    }

    /* 3. fds: lift everything out of 0..3 first so no dup2 clobbers a source, then 0/1/2,
     * then the report pipe to 3 (dup3 keeps CLOEXEC: plain dup2 would clear it and the
     * parent would wait for EOF forever), then close the rest. */
    int in_r = lift_fd(a->in_r), out_w = lift_fd(a->out_w), err_w = lift_fd(a->err_w);
    int r = lift_fd(rep);
    if (in_r < 0 || out_w < 0 || err_w < 0 || r < 0)
        child_fail(rep, AR_STEP_FDS);
    rep = r;
    if (dup2(in_r, 0) < 0 || dup2(out_w, 1) < 0 || dup2(err_w, 2) < 0)
        child_fail(rep, AR_STEP_FDS);
    if (dup3(rep, 3, O_CLOEXEC) < 0)
        child_fail(rep, AR_STEP_FDS);
    rep = 3;
    if (syscall(SYS_close_range, 4U, ~0U, 0U) < 0) {
        if (errno != ENOSYS)
            child_fail(rep, AR_STEP_FDS);
        struct rlimit rl;
        long max = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY
                       ? (long)rl.rlim_cur
                       : 65536;
        for (long fd = 4; fd < max; fd++)
            close((int)fd);
    }

    /* 4. working directory and limits (the sandbox adds more later) */
    if (a->cwd && chdir(a->cwd) < 0)
        child_fail(rep, AR_STEP_CHDIR);
    struct rlimit core = {0, 0};
    if (setrlimit(RLIMIT_CORE, &core) < 0)
        child_fail(rep, AR_STEP_RLIMIT);

    /* 5. the parent blocked every signal around fork(): the program starts with none blocked */
    sigset_t none;
    sigemptyset(&none);
    if (sigprocmask(SIG_SETMASK, &none, NULL) < 0)
        child_fail(rep, AR_STEP_SIGMASK);

    /* 6. exec (never execvp: its PATH search may allocate) */
    execve(a->path, a->argv, a->envp);
    child_fail(rep, AR_STEP_EXEC);
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

int ar_spawn_start(const ar_spawn_opts *o, ar_proc *p, char *err, size_t errcap)
{
    int in[2] = {-1, -1}, out[2] = {-1, -1}, errp[2] = {-1, -1}, rep[2] = {-1, -1};
    int rc = 0;
    char msg[256];

    if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0 || pipe2(errp, O_CLOEXEC) < 0 ||
        pipe2(rep, O_CLOEXEC) < 0) {
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
    };

    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_SETMASK, &all, &old);
    pid_t pid = fork();
    if (pid == 0)
        child_main(&a);
    int fork_errno = errno;
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (pid < 0) {
        rc = -fork_errno;
        snprintf(msg, sizeof msg, "fork: %s", strerror(fork_errno));
        set_err(err, errcap, msg);
        goto fail;
    }
    /* Both sides set the group: whoever runs first wins the race with our kill(-pid). */
    setpgid(pid, pid);
    close_quiet(&in[0]);
    close_quiet(&out[1]);
    close_quiet(&errp[1]);
    close_quiet(&rep[1]);

    child_report r;
    size_t got = 0;
    while (got < sizeof r) {
        ssize_t n = read(rep[0], (char *)&r + got, sizeof r - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close_quiet(&rep[0]);
    if (got == sizeof r) {
        int st;
        while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
            ;
        rc = r.err > 0 ? -r.err : -EIO;
        snprintf(msg, sizeof msg, "spawn failed at %s: %s", ar_spawn_step_name(r.step),
                 strerror(r.err));
        set_err(err, errcap, msg);
        goto fail;
    }
    if (got != 0)
        abort(); /* a partial report cannot happen with an 8-byte write to a pipe */

    if ((rc = set_nonblock(in[1])) < 0 || (rc = set_nonblock(out[0])) < 0 ||
        (rc = set_nonblock(errp[0])) < 0) {
        snprintf(msg, sizeof msg, "fcntl: %s", strerror(-rc));
        set_err(err, errcap, msg);
        ar_spawn_kill(pid);
        int st;
        while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
            ;
        goto fail;
    }
    p->pid = pid;
    p->in_fd = in[1];
    p->out_fd = out[0];
    p->err_fd = errp[0];
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
    return rc;
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

int ar_spawn_kill_adopted(const pid_t *keep, int nkeep)
{
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    pid_t self = getpid();
    int killed = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        if (*end || pid <= 0 || pid == self)
            continue;
        char buf[1024];
        const char *p = proc_stat((pid_t)pid, buf, sizeof buf);
        long long ppid;
        if (!p || stat_field(p, 1, &ppid) || ppid != self)
            continue;
        int kept = 0;
        for (int i = 0; i < nkeep; i++)
            if (keep[i] == (pid_t)pid)
                kept = 1;
        if (!kept) {
            kill((pid_t)pid, SIGKILL);
            killed++;
        }
    }
    closedir(d);
    return killed;
}
