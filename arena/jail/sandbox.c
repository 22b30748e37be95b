/* sandbox.c - the start-up probe: what confinement does this host allow? Every answer comes
 * from a real attempt in a throwaway child (unshare, clone, a loaded filter, a created and
 * joined cgroup, clone3 into it, cgroup.kill), never from reading sysctls or kernel configs,
 * which lie in containers and under AppArmor. The result is cached per process. */
#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/magic.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#if __has_include(<linux/landlock.h>)
#include <linux/landlock.h>
#endif

#include "cgroup.h"
#include "seccomp.h"
#include "util/util.h"

static const char *const mode_names[] = {"off", "seccomp-only", "rootless", "no-cgroups", "full"};
enum { N_MODES = sizeof mode_names / sizeof mode_names[0] };

int ar_sb_mode_parse(const char *name, int *mode)
{
    for (int i = 0; name && i < N_MODES; i++)
        if (strcmp(name, mode_names[i]) == 0) {
            *mode = i;
            return 0;
        }
    return -EINVAL;
}

const char *ar_sb_mode_name(int mode)
{
    return mode >= 0 && mode < N_MODES ? mode_names[mode] : "?";
}

static const char *const cap_names[AR_SBC_N] = {"root",        "userns", "userns_unprivileged",
                                                "pidns",       "netns",  "mntns",
                                                "ipcns",       "utsns",  "nnp",
                                                "seccomp",     "cgroup", "clone_into_cgroup",
                                                "cgroup_kill", "pidfd",  "landlock"};

const char *ar_sb_cap_name(int cap)
{
    return cap >= 0 && cap < AR_SBC_N ? cap_names[cap] : "?";
}

int ar_sb_cap_value(const ar_sb_caps *c, int cap)
{
    switch (cap) {
    case AR_SBC_ROOT:
        return c->root;
    case AR_SBC_USERNS:
        return c->userns;
    case AR_SBC_USERNS_UNPRIV:
        return c->userns_unpriv;
    case AR_SBC_PIDNS:
        return c->pidns;
    case AR_SBC_NETNS:
        return c->netns;
    case AR_SBC_MNTNS:
        return c->mntns;
    case AR_SBC_IPCNS:
        return c->ipcns;
    case AR_SBC_UTSNS:
        return c->utsns;
    case AR_SBC_NNP:
        return c->nnp;
    case AR_SBC_SECCOMP:
        return c->seccomp;
    case AR_SBC_CGROUP:
        return c->cgroup;
    case AR_SBC_CLONE_INTO_CGROUP:
        return c->clone_into_cgroup;
    case AR_SBC_CGROUP_KILL:
        return c->cgroup_kill;
    case AR_SBC_PIDFD:
        return c->pidfd;
    case AR_SBC_LANDLOCK:
        return c->landlock_abi;
    default:
        return -1;
    }
}

__attribute__((format(printf, 3, 4))) static void set_why(ar_sb_caps *c, int cap, const char *fmt,
                                                          ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->why[cap], sizeof c->why[cap], fmt, ap);
    va_end(ap);
}

/* ---- Throwaway children ----------------------------------------------------------------- */

/* Wait for pid at most ms milliseconds, then SIGKILL it. Returns the wait status. */
static int wait_bounded(pid_t pid, int ms)
{
    int st = 0;
    for (int t = 0; t < ms; t++) {
        pid_t r = waitpid(pid, &st, WNOHANG);
        if (r == pid)
            return st;
        if (r < 0 && errno != EINTR)
            return -1;
        struct timespec nap = {0, 1000000};
        nanosleep(&nap, NULL);
    }
    kill(pid, SIGKILL);
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    return st;
}

/* What a child reports: for each step, 0 = worked, else the errno. */
enum {
    ST_SETUID,
    ST_USER,
    ST_NET,
    ST_MNT,
    ST_MNT_PRIVATE,
    ST_MNT_TMPFS,
    ST_IPC,
    ST_UTS,
    ST_PID,
    ST_PID1,
    ST_NNP,
    ST_INSTALL,
    ST_ERRNO_RULE,
    ST_N
};
typedef struct report {
    int err[ST_N];
    int reached[ST_N];
} report;

static void put(report *r, int step, int ok)
{
    r->reached[step] = 1;
    r->err[step] = ok ? 0 : (errno ? errno : EINVAL);
}

/* Fork; in the child run fn (async-signal-safe calls only) and send its report. Returns the
 * child's wait status (or -1 if fork failed) and fills *r. */
static int run_child(void (*fn)(report *, void *), void *arg, report *r)
{
    memset(r, 0, sizeof *r);
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (pid == 0) {
        close(p[0]);
        report mine;
        memset(&mine, 0, sizeof mine);
        fn(&mine, arg);
        ssize_t w = write(p[1], &mine, sizeof mine);
        _exit(w == (ssize_t)sizeof mine ? 0 : 1);
    }
    close(p[1]);
    int st = wait_bounded(pid, 3000);
    /* The child writes its report only at the end, so a killed child's report is partial;
     * keep whatever came. */
    ssize_t got = read(p[0], r, sizeof *r);
    if (got != (ssize_t)sizeof *r)
        memset(r, 0, sizeof *r);
    close(p[0]);
    return st;
}

/* Each namespace on its own (so the report can say which one is refused), in the order the
 * jail needs them. unpriv: first become nobody (root probing for other users). */
static void ns_child(report *r, void *arg)
{
    int unpriv = *(int *)arg;
    if (unpriv) {
        errno = 0;
        put(r, ST_SETUID,
            setgroups(0, NULL) == 0 && setresgid(65534, 65534, 65534) == 0 &&
                setresuid(65534, 65534, 65534) == 0);
        if (r->err[ST_SETUID])
            return;
    }
    errno = 0;
    put(r, ST_USER, unshare(CLONE_NEWUSER) == 0);
    put(r, ST_NET, unshare(CLONE_NEWNET) == 0);
    put(r, ST_MNT, unshare(CLONE_NEWNS) == 0);
    if (!r->err[ST_MNT]) {
        put(r, ST_MNT_PRIVATE, mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0);
        put(r, ST_MNT_TMPFS, mount("okarena", "/", "tmpfs", MS_NOSUID | MS_NODEV, "size=16k") == 0);
    }
    put(r, ST_IPC, unshare(CLONE_NEWIPC) == 0);
    put(r, ST_UTS, unshare(CLONE_NEWUTS) == 0 && sethostname("arena", 5) == 0);
    put(r, ST_PID, unshare(CLONE_NEWPID) == 0);
    if (!r->err[ST_PID]) {
        pid_t g = fork();
        if (g == 0)
            _exit(getpid() == 1 ? 0 : 1);
        int st = 0;
        if (g < 0) {
            put(r, ST_PID1, 0);
        } else {
            while (waitpid(g, &st, 0) < 0 && errno == EINTR)
                ;
            errno = EPROTO;
            put(r, ST_PID1, WIFEXITED(st) && WEXITSTATUS(st) == 0);
        }
    }
}

/* The jail's own clone: all namespaces at once, as spawn.c asks for them. Returns 0 or errno. */
static int clone_all(int with_userns)
{
    unsigned long flags = CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWUTS |
                          CLONE_NEWCGROUP | (with_userns ? CLONE_NEWUSER : 0);
    /* raw clone without a stack behaves like fork (the child gets a copy of ours) */
    long pid = syscall(SYS_clone, flags | SIGCHLD, NULL, NULL, NULL, NULL);
    if (pid < 0)
        return errno;
    if (pid == 0)
        _exit(getpid() == 1 ? 0 : 3);
    int st = wait_bounded((pid_t)pid, 3000);
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : EPROTO;
}

static void seccomp_child(report *r, void *arg)
{
    const ar_bpf *b = arg;
    errno = 0;
    put(r, ST_NNP, prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0);
    int rc = ar_seccomp_install(b);
    errno = -rc;
    put(r, ST_INSTALL, rc == 0);
    if (rc != 0)
        return;
    /* the filter is active: socket is refused with EACCES (not executed) */
    errno = 0;
    int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int e = errno;
    if (s >= 0)
        close(s);
    /* and an argument rule: open for writing is refused with EACCES (the file exists and is
     * writable, so only the filter can refuse it) */
    int fd = s < 0 && e == EACCES ? open("/dev/null", O_WRONLY | O_CLOEXEC) : -1;
    int e2 = errno;
    if (fd >= 0)
        close(fd);
    errno = s >= 0 ? EPROTO : e != EACCES ? e : fd >= 0 ? EPROTO : e2;
    put(r, ST_ERRNO_RULE, s < 0 && e == EACCES && fd < 0 && e2 == EACCES);
    /* No test of a kill: the kernel logs every seccomp kill through the printk rate limit
     * (10 lines per 5 s without auditd), and the probe's own line would use up the budget
     * that names the syscalls of the bots' SV verdicts. The errno rules show the filter is
     * loaded and checks arguments. */
}

/* ---- Cgroups ---------------------------------------------------------------------------- */

/* A child that waits for a byte, then exits 0 if its /proc/self/cgroup names an okarena-
 * cgroup (it was attached before it was released). Returns 1 if it was, with *move_ms the time
 * the move took (a move after a quiet spell may wait for an RCU grace period:
 * docs/sandbox.md), else 0 and why. */
static int cgroup_join_test(ar_cgroup *cg, double *move_ms, char *why, size_t cap)
{
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0)
        return snprintf(why, cap, "pipe2: %s", strerror(errno)), 0;
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        return snprintf(why, cap, "fork: %s", strerror(errno)), 0;
    }
    if (pid == 0) {
        close(p[1]);
        char x;
        if (read(p[0], &x, 1) != 1)
            _exit(2);
        char buf[4096];
        int fd = open("/proc/self/cgroup", O_RDONLY | O_CLOEXEC);
        ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
        buf[n > 0 ? n : 0] = '\0';
        _exit(strstr(buf, "okarena-") ? 0 : 3);
    }
    close(p[0]);
    double t0 = ar_now_ms();
    int rc = ar_cgroup_attach(cg, pid);
    *move_ms = ar_now_ms() - t0;
    int pids = ar_cgroup_pids(cg);
    ssize_t w = write(p[1], "g", 1);
    close(p[1]);
    int st = wait_bounded(pid, 3000);
    if (rc != 0)
        return snprintf(why, cap, "attach: %s", strerror(-rc)), 0;
    if (w != 1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
        return snprintf(why, cap, "the attached child was not in the cgroup"), 0;
    if (pids == 0)
        return snprintf(why, cap, "pids.current stayed 0 with a task inside"), 0;
    return 1;
}

/* A v2 directory of cg (its own in v2 mode; the controller-less one on hybrid hosts). */
static const char *v2_dir_of(const ar_cgroup *cg)
{
    for (int i = 0;; i++) {
        const char *p = ar_cgroup_path(cg, i);
        struct statfs sf;
        if (!p)
            return NULL;
        if (statfs(p, &sf) == 0 && sf.f_type == CGROUP2_SUPER_MAGIC)
            return p;
    }
}

/* clone3(CLONE_INTO_CGROUP) into dir, then cgroup.kill, then pidfd_open. */
static void clone3_tests(const char *dir, ar_sb_caps *c)
{
#if defined(CLONE_INTO_CGROUP) && defined(SYS_clone3)
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) {
        set_why(c, AR_SBC_CLONE_INTO_CGROUP, "open %s: %s", dir, strerror(errno));
        return;
    }
    struct clone_args ca;
    memset(&ca, 0, sizeof ca);
    ca.flags = CLONE_INTO_CGROUP;
    ca.exit_signal = SIGCHLD;
    ca.cgroup = (uint64_t)dfd;
    long pid = syscall(SYS_clone3, &ca, sizeof ca);
    if (pid == 0) {
        for (;;)
            pause();
    }
    int e = errno;
    close(dfd);
    if (pid < 0) {
        set_why(c, AR_SBC_CLONE_INTO_CGROUP, "clone3: %s", strerror(e));
        return;
    }
    char path[4200], buf[4096];
    snprintf(path, sizeof path, "/proc/%ld/cgroup", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
    if (fd >= 0)
        close(fd);
    buf[n > 0 ? n : 0] = '\0';
    c->clone_into_cgroup = strstr(buf, "okarena-") != NULL;
    set_why(c, AR_SBC_CLONE_INTO_CGROUP, "%s",
            c->clone_into_cgroup ? "clone3 placed a child in its cgroup"
                                 : "clone3 worked but the child is not in the cgroup");
#ifdef SYS_pidfd_open
    int pfd = (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);
    c->pidfd = pfd >= 0;
    set_why(c, AR_SBC_PIDFD, "pidfd_open: %s", pfd >= 0 ? "works" : strerror(errno));
    if (pfd >= 0)
        close(pfd);
#endif
    snprintf(path, sizeof path, "%s/cgroup.kill", dir);
    fd = open(path, O_WRONLY | O_CLOEXEC);
    int killed = 0;
    if (fd >= 0) {
        killed = write(fd, "1", 1) == 1;
        e = errno;
        close(fd);
    } else {
        e = errno;
    }
    int st = wait_bounded((pid_t)pid, killed ? 1000 : 0);
    c->cgroup_kill = killed && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
    if (c->cgroup_kill)
        set_why(c, AR_SBC_CGROUP_KILL, "cgroup.kill killed a child");
    else
        set_why(c, AR_SBC_CGROUP_KILL, "cgroup.kill: %s",
                killed ? "written but the child survived" : strerror(e));
#else
    (void)dir;
    set_why(c, AR_SBC_CLONE_INTO_CGROUP, "built without clone3/CLONE_INTO_CGROUP headers");
#endif
}

/* pidfd_open on a plain child, when clone3_tests did not get that far. */
static void pidfd_test(ar_sb_caps *c)
{
#ifdef SYS_pidfd_open
    pid_t pid = fork();
    if (pid == 0) {
        for (;;)
            pause();
    }
    if (pid < 0) {
        set_why(c, AR_SBC_PIDFD, "fork: %s", strerror(errno));
        return;
    }
    int pfd = (int)syscall(SYS_pidfd_open, pid, 0);
    int e = errno;
    c->pidfd = pfd >= 0;
    set_why(c, AR_SBC_PIDFD, "pidfd_open: %s", pfd >= 0 ? "works" : strerror(e));
    if (pfd >= 0)
        close(pfd);
    kill(pid, SIGKILL);
    wait_bounded(pid, 1000);
#else
    set_why(c, AR_SBC_PIDFD, "built without pidfd_open");
#endif
}

/* ---- The probe -------------------------------------------------------------------------- */

static const char *ns_step_name(int s)
{
    switch (s) {
    case ST_USER:
        return "unshare(CLONE_NEWUSER)";
    case ST_NET:
        return "unshare(CLONE_NEWNET)";
    case ST_MNT:
        return "unshare(CLONE_NEWNS)";
    case ST_MNT_PRIVATE:
        return "mount(/, MS_PRIVATE)";
    case ST_MNT_TMPFS:
        return "mount tmpfs";
    case ST_IPC:
        return "unshare(CLONE_NEWIPC)";
    case ST_UTS:
        return "unshare(CLONE_NEWUTS)";
    case ST_PID:
        return "unshare(CLONE_NEWPID)";
    case ST_PID1:
        return "fork into the new pid namespace";
    default:
        return "?";
    }
}

static void ns_cap(ar_sb_caps *c, const report *r, int cap, int *field, const int *steps,
                   int nsteps)
{
    *field = 1;
    for (int i = 0; i < nsteps; i++)
        if (!r->reached[steps[i]] || r->err[steps[i]]) {
            *field = 0;
            set_why(c, cap, "%s: %s", ns_step_name(steps[i]),
                    r->reached[steps[i]] ? strerror(r->err[steps[i]]) : "not reached");
            return;
        }
    set_why(c, cap, "%s works", ns_step_name(steps[0]));
}

static void append(char *buf, size_t cap, const char *s)
{
    size_t n = strlen(buf);
    snprintf(buf + n, cap - n, "%s%s", n ? "; " : "", s);
}

static int probe(ar_sb_caps *c)
{
    memset(c, 0, sizeof *c);
    c->userns_unpriv = -1;
    c->root = geteuid() == 0;
    set_why(c, AR_SBC_ROOT, "euid %d", (int)geteuid());

    /* namespaces, one by one (as ourselves) */
    report r;
    int unpriv = 0;
    int st = run_child(ns_child, &unpriv, &r);
    if (st < 0)
        return snprintf(c->summary, sizeof c->summary, "sandbox: off (fork failed: %s)",
                        strerror(errno)),
               -errno;
    static const int s_user[] = {ST_USER}, s_net[] = {ST_NET},
                     s_mnt[] = {ST_MNT, ST_MNT_PRIVATE, ST_MNT_TMPFS}, s_ipc[] = {ST_IPC},
                     s_uts[] = {ST_UTS}, s_pid[] = {ST_PID, ST_PID1};
    ns_cap(c, &r, AR_SBC_USERNS, &c->userns, s_user, 1);
    ns_cap(c, &r, AR_SBC_NETNS, &c->netns, s_net, 1);
    ns_cap(c, &r, AR_SBC_MNTNS, &c->mntns, s_mnt, 3);
    ns_cap(c, &r, AR_SBC_IPCNS, &c->ipcns, s_ipc, 1);
    ns_cap(c, &r, AR_SBC_UTSNS, &c->utsns, s_uts, 1);
    ns_cap(c, &r, AR_SBC_PIDNS, &c->pidns, s_pid, 2);
    if (c->root) {
        unpriv = 1;
        run_child(ns_child, &unpriv, &r);
        c->userns_unpriv = r.reached[ST_USER] && !r.err[ST_USER];
        set_why(c, AR_SBC_USERNS_UNPRIV, "as nobody: %s: %s",
                r.reached[ST_USER] ? "unshare(CLONE_NEWUSER)" : "setresuid(65534)",
                r.reached[ST_USER] ? (r.err[ST_USER] ? strerror(r.err[ST_USER]) : "works")
                                   : strerror(r.err[ST_SETUID]));
    } else {
        c->userns_unpriv = c->userns;
        set_why(c, AR_SBC_USERNS_UNPRIV, "we are not root: same as userns");
    }
    /* the jail's real clone: all namespaces at once */
    int all_userns = clone_all(1);
    int all_plain = c->root ? clone_all(0) : EPERM;
    int ns_ok = all_userns == 0 || (c->root && all_plain == 0);
    if (!ns_ok && c->userns && c->pidns)
        set_why(c, AR_SBC_PIDNS, "clone with every namespace flag: %s", strerror(all_userns));
    if (all_userns != 0)
        c->userns = 0;

    /* seccomp (with no_new_privs, as an unprivileged bot needs) */
    ar_bpf bpf;
    char err[256];
    int rc = ar_seccomp_build("native", &bpf, err, sizeof err);
    if (rc != 0) {
        set_why(c, AR_SBC_SECCOMP, "%s", err);
        set_why(c, AR_SBC_NNP, "not tested (no filter)");
    } else {
        run_child(seccomp_child, &bpf, &r);
        c->nnp = r.reached[ST_NNP] && !r.err[ST_NNP];
        set_why(c, AR_SBC_NNP, "prctl(PR_SET_NO_NEW_PRIVS): %s",
                c->nnp ? "works" : strerror(r.err[ST_NNP] ? r.err[ST_NNP] : EPROTO));
        int errno_ok = r.reached[ST_ERRNO_RULE] && !r.err[ST_ERRNO_RULE];
        c->seccomp = errno_ok;
        if (c->seccomp)
            set_why(c, AR_SBC_SECCOMP,
                    "filter loaded: socket -> EACCES, open for writing -> EACCES");
        else if (!r.reached[ST_INSTALL] || r.err[ST_INSTALL])
            set_why(c, AR_SBC_SECCOMP, "seccomp(SET_MODE_FILTER): %s",
                    strerror(r.err[ST_INSTALL] ? r.err[ST_INSTALL] : EPROTO));
        else
            set_why(c, AR_SBC_SECCOMP, "filter loaded but socket or open for writing: %s",
                    strerror(r.err[ST_ERRNO_RULE] ? r.err[ST_ERRNO_RULE] : EPROTO));
        ar_bpf_free(&bpf);
    }

    /* cgroups: create, limit, attach a child; clone3 into it; cgroup.kill */
    char why[512];
    double move_ms = 0;
    c->cgroup = ar_cgroup_available(why, sizeof why);
    set_why(c, AR_SBC_CLONE_INTO_CGROUP, "not tested (no cgroup)");
    set_why(c, AR_SBC_CGROUP_KILL, "not tested (no v2 cgroup)");
    if (c->cgroup > 0) {
        ar_cgroup *cg = ar_cgroup_new("probe", 64u << 20, 16, err, sizeof err);
        if (!cg) {
            set_why(c, AR_SBC_CGROUP, "%s", err);
            c->cgroup = 0;
        } else if (!cgroup_join_test(cg, &move_ms, why, sizeof why)) {
            set_why(c, AR_SBC_CGROUP, "v%d: %s", c->cgroup, why);
            c->cgroup = 0;
        } else {
            set_why(c, AR_SBC_CGROUP,
                    "v%d memory+pids: created, limited and joined by a child (the move took "
                    "%.2f ms%s)",
                    c->cgroup, move_ms,
                    move_ms > 1 ? ": the first bot of each match may wait as long, see "
                                  "favordynmods in docs/sandbox.md"
                                : "");
        }
        const char *v2 = cg ? v2_dir_of(cg) : NULL;
        if (v2)
            clone3_tests(v2, c);
        ar_cgroup_free(cg);
    } else {
        set_why(c, AR_SBC_CGROUP, "%s", why);
    }
    if (!c->pidfd)
        pidfd_test(c);

        /* Landlock (optional extra layer) */
#if defined(SYS_landlock_create_ruleset) && defined(LANDLOCK_CREATE_RULESET_VERSION)
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    c->landlock_abi = abi > 0 ? (int)abi : 0;
    if (abi > 0)
        set_why(c, AR_SBC_LANDLOCK, "ABI %ld", abi);
    else
        set_why(c, AR_SBC_LANDLOCK, "landlock_create_ruleset: %s", strerror(errno));
#else
    set_why(c, AR_SBC_LANDLOCK, "built without Landlock headers");
#endif

    /* The best mode. */
    int ns_all = c->pidns && c->netns && c->mntns && c->ipcns && c->utsns && ns_ok;
    int filt = c->seccomp && c->nnp;
    if (ns_all && filt && c->cgroup > 0 && (c->root || c->userns))
        c->mode = AR_SB_FULL;
    else if (ns_all && filt && c->root)
        c->mode = AR_SB_NO_CGROUPS;
    else if (ns_all && filt && c->userns)
        c->mode = AR_SB_ROOTLESS;
    else if (filt)
        c->mode = AR_SB_SECCOMP_ONLY;
    else
        c->mode = AR_SB_OFF;

    /* What stands between this and full. */
    if (!filt)
        append(c->missing, sizeof c->missing,
               c->seccomp ? c->why[AR_SBC_NNP] : c->why[AR_SBC_SECCOMP]);
    if (!ns_all || !(c->root || c->userns)) {
        int caps[] = {AR_SBC_USERNS, AR_SBC_PIDNS, AR_SBC_NETNS,
                      AR_SBC_MNTNS,  AR_SBC_IPCNS, AR_SBC_UTSNS};
        for (int i = 0; i < 6; i++)
            if (!ar_sb_cap_value(c, caps[i]) && !(caps[i] == AR_SBC_USERNS && c->root)) {
                char m[512];
                snprintf(m, sizeof m, "%s: %s", cap_names[caps[i]], c->why[caps[i]]);
                append(c->missing, sizeof c->missing, m);
                if (caps[i] == AR_SBC_USERNS)
                    append(c->missing, sizeof c->missing,
                           "(unprivileged user namespaces are off: sysctl "
                           "kernel.unprivileged_userns_clone=1, or Ubuntu's "
                           "kernel.apparmor_restrict_unprivileged_userns=0)");
                break;
            }
    }
    if (c->cgroup == 0) {
        char m[512];
        snprintf(m, sizeof m, "no cgroups: %s", c->why[AR_SBC_CGROUP]);
        append(c->missing, sizeof c->missing, m);
    }
    if (c->mode == AR_SB_FULL)
        c->missing[0] = '\0';

    char ns[128] = "";
    if (ns_all)
        snprintf(ns, sizeof ns, "%spid net mount ipc uts namespaces, ", c->userns ? "user " : "");
    char cg[64] = "";
    if (c->mode == AR_SB_FULL)
        snprintf(cg, sizeof cg, ", cgroup v%d memory+pids", c->cgroup);
    if (c->mode == AR_SB_OFF)
        snprintf(c->summary, sizeof c->summary, "sandbox: off (nothing works: %.400s)", c->missing);
    else
        snprintf(c->summary, sizeof c->summary, "sandbox: %s (%sseccomp, rlimits%s)",
                 mode_names[c->mode], c->mode >= AR_SB_ROOTLESS ? ns : "", cg);
    return 0;
}

static ar_sb_caps g_caps;
static int g_probed;
static int g_rc;

int ar_sandbox_probe(ar_sb_caps *c)
{
    if (!g_probed) {
        g_rc = probe(&g_caps);
        g_probed = 1;
    }
    *c = g_caps;
    return g_rc;
}
