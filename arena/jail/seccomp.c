/* seccomp.c - the bots' system-call allow-lists (as data), compiled with libseccomp in the
 * parent, installed with a raw seccomp(2) call in the child. See seccomp.h and
 * docs/sandbox.md; the lists come from `strace -f -c` of echo bots in every runtime
 * (research note sandbox.md (c)/(d)).
 *
 * Rules of the tables (research pitfalls 1, 2, 4, 5):
 * - default action and bad-architecture action KILL_PROCESS (never KILL_THREAD: a Go or Java
 *   thread would die silently and the bot limp on); only the native architecture;
 * - argument rules only as masked equality, and only to ALLOW or to return an errno for a
 *   listed value: a 64-bit comparison on an `int` argument is bypassed by setting the upper
 *   32 bits (socket((1<<32)|AF_VSOCK)), so "allow if < N" or "deny if == X, else allow" are
 *   never written; the mask keeps only the bits the kernel reads;
 * - clone only for threads, clone3 ENOSYS (so pthread_create falls back to clone, whose flags
 *   we can see), socket/connect EACCES, opening for writing EACCES, path writes EACCES.
 * Everything not listed kills the bot, and the arena names the call (ar_seccomp_killer). */
#include "seccomp.h"

/* libseccomp's <seccomp.h>: angle brackets never look beside this file, and the arena's
 * include root (arena/) holds no seccomp.h, so this is the system's, and ours is "seccomp.h" */
#include <seccomp.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

/* ---- The tables ------------------------------------------------------------------------- */

/* A stand-in for "the bot's own pid" in argument rules (kill, tgkill, prlimit64):
 * ar_seccomp_install replaces it in a copy of the program with getpid() of the process that
 * installs the filter (the bot itself, so inside a pid namespace it is the namespace pid the
 * bot sees). Above pid_max (2^22), so an unpatched rule matches nothing. */
#define AR_SELF_PID 0x7ffe5e1fu

/* Syscalls allowed with any arguments. A name the architecture does not have (arch_prctl
 * outside x86, open/stat/... on arm64) is skipped: every table entry is a name, resolved at
 * build time, and a name unknown to libseccomp itself is an error only when it is known to
 * no architecture (a typo). */
static const char *const allow_common[] = {
    /* I/O on the fds the bot has (0, 1, 2 and files it opened read-only) */
    "read", "write", "readv", "writev", "pread64", "pwrite64", "preadv", "pwritev", "preadv2",
    "pwritev2", "close", "close_range", "lseek", "sendfile", "fsync", "fdatasync", "fadvise64",
    "dup", "dup2", "dup3", "pipe", "pipe2", "poll", "ppoll", "select", "pselect6", "epoll_create",
    "epoll_create1", "epoll_ctl", "epoll_wait", "epoll_pwait", "epoll_pwait2", "eventfd",
    "eventfd2", "timerfd_create", "timerfd_settime", "timerfd_gettime",
    /* file metadata and reading (writes are refused in errno_common, opening below) */
    "fstat", "stat", "lstat", "newfstatat", "statx", "statfs", "fstatfs", "access", "faccessat",
    "faccessat2", "readlink", "readlinkat", "getdents", "getdents64", "getcwd", "chdir", "fchdir",
    "umask",
    /* memory */
    "brk", "mmap", "munmap", "mprotect", "mremap", "madvise", "mincore", "msync", "membarrier",
    "pkey_alloc", "pkey_free", "pkey_mprotect", "get_mempolicy",
    /* signals to itself (kill/tgkill are argument rules below) */
    "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "rt_sigpending", "rt_sigtimedwait",
    "rt_sigsuspend", "sigaltstack", "pause", "restart_syscall", "alarm", "setitimer", "getitimer",
    /* threads, time, identity */
    "futex", "futex_waitv", "set_robust_list", "get_robust_list", "set_tid_address", "rseq",
    "arch_prctl", "sched_yield", "sched_getaffinity", "sched_getparam", "sched_getscheduler",
    "sched_get_priority_max", "sched_get_priority_min", "getpriority", "clock_gettime",
    "clock_getres", "clock_nanosleep", "nanosleep", "gettimeofday", "time", "times", "getrusage",
    "getrandom", "uname", "sysinfo", "getpid", "gettid", "getppid", "getuid", "geteuid", "getgid",
    "getegid", "getresuid", "getresgid", "getgroups", "getpgrp", "getpgid", "getsid", "capget",
    "getcpu", "getrlimit", "setrlimit", "wait4", "waitid",
    /* the filter is installed before execve, so the program itself needs it (pitfall 7: the
     * mount namespace decides what it can run; no_new_privs makes setuid files harmless) */
    "execve", "exit", "exit_group", NULL};

/* Interpreters (Python, Node, Java) use nothing native code may not: the extra calls they
 * make are already in allow_common (epoll, eventfd, membarrier, pkeys, prctl names). The
 * profile differs in its task limit (the caller's default pids) and in what it may grow to
 * (ftruncate for Java's shared-memory perf data, which then fails on a read-only fd). */
static const char *const allow_interpreted[] = {"ftruncate", NULL};

/* Syscalls that fail with an errno instead of killing: the runtimes call them and cope. */
typedef struct errno_rule {
    const char *name;
    int err;
} errno_rule;
static const errno_rule errno_common[] = {
    /* no network: a bot may try and go on (hostile cases 1-4) */
    {"socket", EACCES},
    {"socketpair", EACCES},
    {"connect", EACCES},
    /* glibc 2.34+ pthread_create tries clone3 first and falls back to clone on ENOSYS (never
     * EPERM: that fails the thread, pitfall 2); clone3's flags are behind a pointer */
    {"clone3", ENOSYS},
    {"openat2", ENOSYS}, /* its flags are behind a pointer too; glibc falls back to openat */
    {"io_uring_setup", ENOSYS},
    {"flock", EPERM}, /* a lock on a shared read-only inode is a covert channel (isolate) */
    /* no writes to the file system (the read-only mount namespace is the other layer) */
    {"creat", EACCES},
    {"mkdir", EACCES},
    {"mkdirat", EACCES},
    {"rmdir", EACCES},
    {"unlink", EACCES},
    {"unlinkat", EACCES},
    {"rename", EACCES},
    {"renameat", EACCES},
    {"renameat2", EACCES},
    {"link", EACCES},
    {"linkat", EACCES},
    {"symlink", EACCES},
    {"symlinkat", EACCES},
    {"chmod", EACCES},
    {"fchmod", EACCES},
    {"fchmodat", EACCES},
    {"chown", EACCES},
    {"fchown", EACCES},
    {"lchown", EACCES},
    {"fchownat", EACCES},
    {"mknod", EACCES},
    {"mknodat", EACCES},
    {"truncate", EACCES},
    {"utime", EACCES},
    {"utimes", EACCES},
    {"utimensat", EACCES},
    {"futimesat", EACCES},
    {NULL, 0},
};

/* Masked-equality rules: the call is allowed (err == 0) or fails with err when
 * (arg[arg] & mask) == value. Several rules for one call are alternatives; a call matching
 * none of them is killed, unless a rule with the value AR_ELSE gives every other value (under
 * its mask) its errno. (libseccomp 2.5 lets a rule without arguments override every argument
 * rule of the call, so "else" is built as masked-equality rules for the complement: see
 * add_else.) */
#define AR_ELSE UINT64_MAX
typedef struct arg_rule {
    const char *name;
    int err; /* 0 = allow */
    unsigned arg;
    uint64_t mask, value;
} arg_rule;

#define WRITE_FLAGS ((uint64_t)(O_WRONLY | O_RDWR | O_CREAT | O_TRUNC))
/* The namespace flags of clone (NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET),
 * as Docker's profile masks them. */
#define CLONE_NS_FLAGS 0x7E020000ull
#define LOW32 0xffffffffull

static const arg_rule args_common[] = {
    /* threads only: CLONE_THREAD set (which the kernel only accepts with CLONE_VM and
     * CLONE_SIGHAND) and no namespace flag; fork and vfork have no CLONE_THREAD */
    {"clone", 0, 0, CLONE_THREAD | CLONE_NS_FLAGS, CLONE_THREAD},
    /* open read-only; open for writing -> EACCES (O_TMPFILE needs a write mode) */
    {"openat", 0, 2, WRITE_FLAGS, 0},
    {"openat", EACCES, 2, O_WRONLY, O_WRONLY},
    {"openat", EACCES, 2, O_RDWR, O_RDWR},
    {"openat", EACCES, 2, O_CREAT, O_CREAT},
    {"openat", EACCES, 2, O_TRUNC, O_TRUNC},
    {"open", 0, 1, WRITE_FLAGS, 0},
    {"open", EACCES, 1, O_WRONLY, O_WRONLY},
    {"open", EACCES, 1, O_RDWR, O_RDWR},
    {"open", EACCES, 1, O_CREAT, O_CREAT},
    {"open", EACCES, 1, O_TRUNC, O_TRUNC},
    /* signals only to itself (raise, abort, Go's preemption, Python's os.kill(os.getpid())) */
    {"kill", 0, 0, LOW32, AR_SELF_PID},
    {"tgkill", 0, 0, LOW32, AR_SELF_PID},
    /* resource limits of itself only (pid 0 = the caller) */
    {"prlimit64", 0, 0, LOW32, 0},
    {"prlimit64", 0, 0, LOW32, AR_SELF_PID},
    /* fcntl: fd flags, status flags, dup, pipe size; locks are refused (covert channel) */
    {"fcntl", 0, 1, LOW32, F_DUPFD},
    {"fcntl", 0, 1, LOW32, F_GETFD},
    {"fcntl", 0, 1, LOW32, F_SETFD},
    {"fcntl", 0, 1, LOW32, F_GETFL},
    {"fcntl", 0, 1, LOW32, F_SETFL},
    {"fcntl", 0, 1, LOW32, F_DUPFD_CLOEXEC},
    {"fcntl", 0, 1, LOW32, F_GETPIPE_SZ},
    {"fcntl", EPERM, 1, LOW32, F_GETLK},
    {"fcntl", EPERM, 1, LOW32, F_SETLK},
    {"fcntl", EPERM, 1, LOW32, F_SETLKW},
    {"fcntl", EPERM, 1, LOW32, F_OFD_GETLK},
    {"fcntl", EPERM, 1, LOW32, F_OFD_SETLK},
    {"fcntl", EPERM, 1, LOW32, F_OFD_SETLKW},
    /* ioctl: "is it a terminal", window size, non-blocking, close-on-exec, bytes readable.
     * Not TIOCSTI (typing into a terminal) nor anything else: those fail with ENOTTY, what a
     * pipe answers to a terminal request (runtimes probe ioctls and cope with ENOTTY). The
     * kernel reads the command as 32 bits, so the mask is LOW32 for the else too. */
    {"ioctl", 0, 1, LOW32, TCGETS},
    {"ioctl", 0, 1, LOW32, TIOCGWINSZ},
    {"ioctl", 0, 1, LOW32, TIOCGPGRP},
    {"ioctl", 0, 1, LOW32, FIONBIO},
    {"ioctl", 0, 1, LOW32, FIOCLEX},
    {"ioctl", 0, 1, LOW32, FIONCLEX},
    {"ioctl", 0, 1, LOW32, FIONREAD},
    {"ioctl", ENOTTY, 1, LOW32, AR_ELSE},
    /* prctl: thread names (Java, Rust), anonymous-memory names (Node), harmless queries */
    {"prctl", 0, 0, LOW32, PR_SET_NAME},
    {"prctl", 0, 0, LOW32, PR_GET_NAME},
    {"prctl", 0, 0, LOW32, PR_GET_DUMPABLE},
    {"prctl", 0, 0, LOW32, PR_GET_NO_NEW_PRIVS},
    {"prctl", 0, 0, LOW32, PR_GET_SECCOMP},
    {"prctl", 0, 0, LOW32, PR_CAPBSET_READ},
    {"prctl", 0, 0, LOW32, PR_GET_TIMERSLACK},
    {"prctl", 0, 0, LOW32, 0x53564d41 /* PR_SET_VMA */},
    {NULL, 0, 0, 0, 0},
};

typedef struct profile {
    const char *name;
    const char *const *allow[2];
    const errno_rule *errnos;
    const arg_rule *args;
} profile;

static const profile profiles[] = {
    {"native", {allow_common, NULL}, errno_common, args_common},
    {"interpreted", {allow_common, allow_interpreted}, errno_common, args_common},
};
enum { N_PROFILES = sizeof profiles / sizeof profiles[0] };

const char *ar_seccomp_profiles(void)
{
    return "native interpreted";
}

/* ---- Building --------------------------------------------------------------------------- */

/* "seccomp: <what> <name>: <reason>" */
static void set_err(char *err, size_t errcap, const char *what, const char *name, int rc)
{
    if (err && errcap)
        snprintf(err, errcap, "seccomp: %s%s%s: %s", what, name[0] ? " " : "", name,
                 strerror(rc < 0 ? -rc : rc));
}

/* The syscall number of name on the native architecture; -1 when this architecture has no
 * such call (skip the rule); -2 when no architecture knows it (a typo in a table). */
static int resolve(const char *name)
{
    int nr = seccomp_syscall_resolve_name(name);
    if (nr != __NR_SCMP_ERROR && nr >= 0)
        return nr;
    /* Known elsewhere? x86_64 and aarch64 together cover every name of our tables. */
    if (seccomp_syscall_resolve_name_arch(SCMP_ARCH_X86_64, name) != __NR_SCMP_ERROR ||
        seccomp_syscall_resolve_name_arch(SCMP_ARCH_AARCH64, name) != __NR_SCMP_ERROR)
        return -1;
    return -2;
}

/* The values of bits `mask` that match no value of `vals` (all within mask), as disjoint
 * masked-equality patterns: walk the bits from the highest; a half that holds none of the
 * values is one pattern (known bits `m`, value `v`). About (bits x values) patterns at most. */
static int cover_else(scmp_filter_ctx ctx, uint32_t act, int nr, unsigned arg, uint64_t mask,
                      uint64_t m, uint64_t v, const uint64_t *vals, int nvals)
{
    int any = 0;
    for (int i = 0; i < nvals && !any; i++)
        any = (vals[i] & m) == v;
    if (!any) {
        struct scmp_arg_cmp cmp = {arg, SCMP_CMP_MASKED_EQ, m, v};
        return seccomp_rule_add_array(ctx, act, nr, 1, &cmp);
    }
    if (m == mask)
        return 0; /* a listed value */
    uint64_t bit = 1;
    for (int b = 63; b >= 0; b--)
        if ((mask & ~m) >> b & 1) {
            bit = (uint64_t)1 << b;
            break;
        }
    int rc = cover_else(ctx, act, nr, arg, mask, m | bit, v, vals, nvals);
    if (rc == 0)
        rc = cover_else(ctx, act, nr, arg, mask, m | bit, v | bit, vals, nvals);
    return rc;
}

/* Rule e (value AR_ELSE): e->err for every value of its argument that no other rule of the
 * same call, argument and mask lists. */
static int add_else(scmp_filter_ctx ctx, int nr, const arg_rule *all, const arg_rule *e)
{
    uint64_t vals[64];
    int n = 0;
    for (const arg_rule *a = all; a->name; a++)
        if (a != e && a->value != AR_ELSE && strcmp(a->name, e->name) == 0 && a->arg == e->arg) {
            if (a->mask != e->mask || n == 64)
                return -EINVAL; /* not a partition of one mask's values */
            vals[n++] = a->value;
        }
    return cover_else(ctx, SCMP_ACT_ERRNO((uint32_t)e->err), nr, e->arg, e->mask, 0, 0, vals, n);
}

static int add_rules(scmp_filter_ctx ctx, const profile *p, char *err, size_t errcap)
{
    for (int t = 0; t < 2 && p->allow[t]; t++)
        for (const char *const *n = p->allow[t]; *n; n++) {
            int nr = resolve(*n);
            if (nr == -2) {
                set_err(err, errcap, "unknown syscall", *n, EINVAL);
                return -EINVAL;
            }
            if (nr < 0)
                continue;
            int rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0);
            if (rc < 0) {
                set_err(err, errcap, "allow", *n, rc);
                return rc;
            }
        }
    for (const errno_rule *e = p->errnos; e->name; e++) {
        int nr = resolve(e->name);
        if (nr == -2) {
            set_err(err, errcap, "unknown syscall", e->name, EINVAL);
            return -EINVAL;
        }
        if (nr < 0)
            continue;
        int rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO((uint32_t)e->err), nr, 0);
        if (rc < 0) {
            set_err(err, errcap, "errno rule for", e->name, rc);
            return rc;
        }
    }
    for (const arg_rule *a = p->args; a->name; a++) {
        int nr = resolve(a->name);
        if (nr == -2) {
            set_err(err, errcap, "unknown syscall", a->name, EINVAL);
            return -EINVAL;
        }
        if (nr < 0)
            continue;
        uint32_t act = a->err ? SCMP_ACT_ERRNO((uint32_t)a->err) : SCMP_ACT_ALLOW;
        struct scmp_arg_cmp cmp = {a->arg, SCMP_CMP_MASKED_EQ, a->mask, a->value};
        int rc = a->value == AR_ELSE ? add_else(ctx, nr, p->args, a)
                                     : seccomp_rule_add_array(ctx, act, nr, 1, &cmp);
        if (rc < 0) {
            set_err(err, errcap, "argument rule for", a->name, rc);
            return rc;
        }
    }
    return 0;
}

/* libseccomp 2.5 can only export to an fd: a memfd never blocks (a pipe would, past 64 KiB). */
static int export_bpf(scmp_filter_ctx ctx, ar_bpf *out, char *err, size_t errcap)
{
    int fd = memfd_create("okarena-bpf", MFD_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        set_err(err, errcap, "memfd_create", "", e);
        return -e;
    }
    int rc = seccomp_export_bpf(ctx, fd);
    if (rc < 0) {
        set_err(err, errcap, "export", "", rc);
        close(fd);
        return rc;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size <= 0 ||
        st.st_size % (off_t)sizeof(struct sock_filter) != 0 ||
        st.st_size / (off_t)sizeof(struct sock_filter) > BPF_MAXINSNS) {
        set_err(err, errcap, "exported program has a bad size", "", EINVAL);
        close(fd);
        return -EINVAL;
    }
    size_t n = (size_t)st.st_size;
    void *buf = malloc(n);
    if (!buf) {
        close(fd);
        return -ENOMEM;
    }
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(fd, (char *)buf + got, n - got, (off_t)got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            int e = r < 0 ? errno : EIO;
            set_err(err, errcap, "reading the program back", "", e);
            free(buf);
            close(fd);
            return -e;
        }
        got += (size_t)r;
    }
    close(fd);
    out->filter = buf;
    out->len = (unsigned short)(n / sizeof(struct sock_filter));
    return 0;
}

int ar_seccomp_build(const char *profile_name, ar_bpf *out, char *err, size_t errcap)
{
    out->filter = NULL;
    out->len = 0;
    if (err && errcap)
        err[0] = '\0';
    const profile *p = NULL;
    for (int i = 0; i < N_PROFILES && profile_name; i++)
        if (strcmp(profiles[i].name, profile_name) == 0)
            p = &profiles[i];
    if (!p) {
        if (err && errcap)
            snprintf(err, errcap, "unknown sandbox profile '%s' (known: %s)",
                     profile_name ? profile_name : "(null)", ar_seccomp_profiles());
        return -EINVAL;
    }
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_KILL_PROCESS);
    if (!ctx) {
        set_err(err, errcap, "seccomp_init", "", ENOMEM);
        return -ENOMEM;
    }
    /* seccomp_init adds the native architecture only; a call made through another ABI
     * (int $0x80, x32 numbers) kills the process (pitfall 5). */
    int rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
    /* A binary tree of syscall numbers instead of a linear list: the kernel builds its action
     * cache at install by running the filter for every syscall of every ABI, so a linear
     * 400-instruction filter cost about 0.25 ms per bot start (0.1 ms as a tree), and every
     * call the cache does not cover (argument rules) walks a path of log length. */
    if (rc == 0)
        rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
    if (rc < 0)
        set_err(err, errcap, "filter attributes", "", rc);
    else
        rc = add_rules(ctx, p, err, errcap);
    if (rc == 0)
        rc = export_bpf(ctx, out, err, errcap);
    seccomp_release(ctx);
    return rc;
}

void ar_bpf_free(ar_bpf *p)
{
    if (!p)
        return;
    free(p->filter);
    p->filter = NULL;
    p->len = 0;
}

/* ---- Installing (child side: async-signal-safe) ----------------------------------------- */

int ar_seccomp_install(const ar_bpf *p)
{
    if (!p || !p->filter || p->len == 0 || p->len > BPF_MAXINSNS)
        return -EINVAL;
    /* A private copy on the stack (32 KiB at most), so patching the self-pid placeholder
     * never touches memory the parent may share (vfork, CLONE_VM). */
    struct sock_filter prog_buf[BPF_MAXINSNS];
    memcpy(prog_buf, p->filter, (size_t)p->len * sizeof prog_buf[0]);
    uint32_t self = (uint32_t)syscall(SYS_getpid);
    for (unsigned i = 0; i < p->len; i++)
        if (BPF_CLASS(prog_buf[i].code) == BPF_JMP && BPF_SRC(prog_buf[i].code) == BPF_K &&
            prog_buf[i].k == AR_SELF_PID)
            prog_buf[i].k = self;
    struct sock_fprog prog = {.len = p->len, .filter = prog_buf};
    /* No SECCOMP_FILTER_FLAG_LOG: the kernel logs RET_KILL_PROCESS anyway (the audit line
     * ar_seccomp_killer reads); the flag would also log every errno we return (each refused
     * open, each socket) and flush the kill lines out of the ring buffer. */
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0)
        return -errno;
    return 0;
}

/* ---- Naming programs and syscalls (parent side) ----------------------------------------- */

/* Interpreters and managed runtimes, by the start of their file name. */
static const char *const interpreters[] = {
    "python",  "pypy",   "node",    "nodejs", "deno",   "bun",   "java",  "ruby",   "perl",   "php",
    "lua",     "luajit", "Rscript", "julia",  "dotnet", "mono",  "scala", "kotlin", "elixir", "erl",
    "escript", "racket", "guile",   "sbcl",   "ocaml",  "tclsh", "pwsh",  "dart",   NULL};

static int is_interpreter_name(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    for (const char *const *n = interpreters; *n; n++)
        if (strncmp(base, *n, strlen(*n)) == 0)
            return 1;
    return 0;
}

/* "#!/usr/bin/env python3" or "#!/usr/bin/python3 -u": the interpreter's word. */
static int shebang_is_interpreter(const char *path)
{
    FILE *f = fopen(path, "re");
    if (!f)
        return 0;
    char line[256];
    int yes = 0;
    if (fgets(line, sizeof line, f) && line[0] == '#' && line[1] == '!') {
        char *save = NULL;
        char *w = strtok_r(line + 2, " \t\r\n", &save);
        if (w && strcmp(strrchr(w, '/') ? strrchr(w, '/') + 1 : w, "env") == 0) {
            w = strtok_r(NULL, " \t\r\n", &save);
            while (w && w[0] == '-') /* env -S, env -i */
                w = strtok_r(NULL, " \t\r\n", &save);
        }
        yes = w && is_interpreter_name(w);
    }
    fclose(f);
    return yes;
}

const char *ar_seccomp_auto(const char *path)
{
    if (!path || !*path)
        return "native";
    if (is_interpreter_name(path))
        return "interpreted";
    char real[PATH_MAX];
    if (realpath(path, real) && is_interpreter_name(real))
        return "interpreted";
    /* A script (or a version-manager shim) run directly: judge by its interpreter. */
    if (shebang_is_interpreter(path))
        return "interpreted";
    return "native";
}

enum { NAME_CACHE = 1024 };
static char *name_cache[NAME_CACHE];
static pthread_mutex_t name_lock = PTHREAD_MUTEX_INITIALIZER;

const char *ar_syscall_name(long nr)
{
    if (nr < 0 || nr >= NAME_CACHE)
        return NULL;
    pthread_mutex_lock(&name_lock);
    if (!name_cache[nr])
        name_cache[nr] = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, (int)nr);
    const char *s = name_cache[nr];
    pthread_mutex_unlock(&name_lock);
    return s;
}

/* ---- Who killed it: the kernel's audit line --------------------------------------------- */

/* The number after `key` ("syscall=", decimal, or "arch=", hex) in [t, end); -1 if none. */
static long long field(const char *t, const char *end, const char *key, int base)
{
    size_t kl = strlen(key);
    const char *s = memmem(t, (size_t)(end - t), key, kl);
    if (!s)
        return -1;
    s += kl;
    long long v = 0;
    int digits = 0;
    for (; s < end && digits < 10; s++, digits++) {
        int d = *s >= '0' && *s <= '9'   ? *s - '0'
                : *s >= 'a' && *s <= 'f' ? *s - 'a' + 10
                : *s >= 'A' && *s <= 'F' ? *s - 'A' + 10
                                         : 99;
        if (d >= base)
            break;
        v = v * base + d;
    }
    return digits ? v : -1;
}

/* In one /dev/kmsg record ("6,1234,5678,-;audit: type=1326 audit(...): ... pid=P ...
 * arch=c000003e syscall=N ..."), is this a seccomp record for pid? Returns N (and the
 * architecture in *arch, 0 when the line has none) or -1. */
static long parse_record(const char *rec, size_t n, pid_t pid, double since_ms, uint32_t *arch)
{
    const char *end = rec + n;
    /* the record's prefix "level,seq,usec,flags;": usec on the kernel's log clock since
     * boot. It drifts from CLOCK_MONOTONIC (5 ms behind after 4 hours here), so a line counts
     * from 1 s before since_ms on: pids are not reused within a second, and a line that old
     * cannot be this kill's. */
    const char *c1 = memchr(rec, ',', n);
    const char *c2 = c1 ? memchr(c1 + 1, ',', (size_t)(end - c1 - 1)) : NULL;
    if (since_ms > 0 && c2) {
        double us = strtod(c2 + 1, NULL);
        if (us / 1000.0 < since_ms - 1000.0)
            return -1;
    }
    const char *t = memmem(rec, n, "type=1326", 9);
    if (!t)
        return -1;
    char want[32];
    int wl = snprintf(want, sizeof want, " pid=%d ", (int)pid);
    if (!memmem(t, (size_t)(end - t), want, (size_t)wl))
        return -1;
    long long nr = field(t, end, " syscall=", 10);
    if (nr < 0)
        return -1;
    long long a = field(t, end, " arch=", 16);
    *arch = a < 0 ? 0 : (uint32_t)a;
    return (long)nr;
}

int ar_seccomp_describe(long nr, uint32_t arch, char *out, size_t cap)
{
    if (nr < 0)
        return snprintf(out, cap, "an unknown syscall");
    uint32_t native = seccomp_arch_native();
    if (arch == 0 || arch == native) {
        if (native == SCMP_ARCH_X86_64 && (nr & 0x40000000)) /* __X32_SYSCALL_BIT */
            return snprintf(out, cap, "x32 syscall %ld", nr & ~0x40000000L);
        const char *name = ar_syscall_name(nr);
        return name ? snprintf(out, cap, "syscall %s", name)
                    : snprintf(out, cap, "syscall %ld", nr);
    }
    /* another ABI (int $0x80 on x86_64: arch=40000003): the number means another call there */
    const char *abi = arch == SCMP_ARCH_X86   ? "32-bit (i386)"
                      : arch == SCMP_ARCH_ARM ? "32-bit (arm)"
                                              : NULL;
    char *name = seccomp_syscall_resolve_num_arch(arch, (int)nr);
    int k;
    if (abi)
        k = snprintf(out, cap, "%s syscall %ld%s%s%s", abi, nr, name ? " (" : "", name ? name : "",
                     name ? ")" : "");
    else
        k = snprintf(out, cap, "syscall %ld of architecture %08x%s%s%s", nr, (unsigned)arch,
                     name ? " (" : "", name ? name : "", name ? ")" : "");
    free(name);
    return k;
}

long ar_seccomp_killer(pid_t pid, double since_ms)
{
    uint32_t arch;
    return ar_seccomp_killer_arch(pid, since_ms, &arch);
}

long ar_seccomp_killer_arch(pid_t pid, double since_ms, uint32_t *arch)
{
    *arch = 0;
    if (pid <= 0)
        return -1;
    int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return -1;
    /* Start at the oldest record still in the ring buffer. */
    lseek(fd, 0, SEEK_DATA);
    long found = -1;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    char rec[8192];
    for (long records = 0; records < 200000;) {
        ssize_t r = read(fd, rec, sizeof rec - 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0 && errno == EPIPE) /* a record was overwritten while we read: go on */
            continue;
        if (r < 0 && errno == EAGAIN) {
            /* At the end. kauditd prints the line asynchronously, shortly after the kill:
             * poll for up to 100 ms for it, never longer. */
            if (found >= 0)
                break;
            struct timespec now;
            clock_gettime(CLOCK_MONOTONIC, &now);
            double ms =
                (double)(now.tv_sec - t0.tv_sec) * 1e3 + (double)(now.tv_nsec - t0.tv_nsec) / 1e6;
            if (ms > 100)
                break;
            struct timespec nap = {0, 5 * 1000 * 1000};
            nanosleep(&nap, NULL);
            continue;
        }
        if (r <= 0)
            break;
        records++;
        uint32_t a = 0;
        long nr = parse_record(rec, (size_t)r, pid, since_ms, &a);
        if (nr >= 0) {
            found = nr; /* the newest wins: pids are reused */
            *arch = a;
        }
    }
    close(fd);
    return found;
}
