/* test_seccomp.c - the seccomp profiles on the real kernel: in forked children, each profile
 * is installed (after no_new_privs, as an unprivileged bot would) and then allowed calls must
 * work (threads, getpid, writing to a pipe, reading a file), forbidden ones must kill with
 * SIGSYS (fork, ptrace, unshare, keyctl, a signal to another process, a 32-bit int $0x80
 * call), and errno rules must return their errno (socket EACCES, open for writing EACCES,
 * an ioctl off the list ENOTTY,
 * io_uring_setup and clone3 ENOSYS, flock EPERM), also when the upper 32 bits of an int
 * argument are set. Children leave with _exit: a sanitizer's exit-time work (LeakSanitizer
 * stops the world with ptrace) would be killed by the filter. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "jail/seccomp.h"
#include "util/util.h"

/* Run fn in a child under profile; return the child's wait status. fn's return value is the
 * exit status (0 = every check passed, k = check k failed). out_fd: a pipe the child may
 * write to (read end returned in *rd when rd != NULL). */
typedef int (*child_fn)(int wfd);

static int run_under(const char *profile, child_fn fn, int *rd, pid_t *pid_out)
{
    ar_bpf bpf;
    char err[256];
    int rc = ar_seccomp_build(profile, &bpf, err, sizeof err);
    if (rc != 0)
        fail_msg("build %s: %s", profile, err);
    int p[2];
    assert_int_equal(pipe2(p, O_CLOEXEC), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(p[0]);
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
            _exit(120);
        if (ar_seccomp_install(&bpf) != 0)
            _exit(121);
        _exit(fn(p[1]));
    }
    ar_bpf_free(&bpf);
    close(p[1]);
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    if (rd)
        *rd = p[0];
    else
        close(p[0]);
    if (pid_out)
        *pid_out = pid;
    return st;
}

static const char *const all_profiles[] = {"native", "interpreted"};

static void expect_exit0(int st, const char *what, const char *profile)
{
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        fail_msg("%s under %s: %s %d", what, profile, WIFEXITED(st) ? "exit" : "signal",
                 WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
}

static void expect_sigsys(int st, const char *what, const char *profile)
{
    if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGSYS)
        fail_msg("%s under %s: expected SIGSYS, got %s %d", what, profile,
                 WIFEXITED(st) ? "exit" : "signal", WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
}

/* ---- building --------------------------------------------------------------------------- */

static void test_build(void **state)
{
    (void)state;
    char err[256];
    for (int i = 0; i < 2; i++) {
        ar_bpf b;
        assert_int_equal(ar_seccomp_build(all_profiles[i], &b, err, sizeof err), 0);
        assert_non_null(b.filter);
        assert_true(b.len > 10 && b.len <= 4096);
        ar_bpf_free(&b);
        assert_null(b.filter);
        ar_bpf_free(&b); /* twice is fine */
        assert_non_null(strstr(ar_seccomp_profiles(), all_profiles[i]));
    }
    ar_bpf b;
    assert_int_equal(ar_seccomp_build("bogus", &b, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "bogus"));
    assert_null(b.filter);
    assert_int_equal(ar_seccomp_build(NULL, &b, err, sizeof err), -EINVAL);
    assert_int_equal(ar_seccomp_install(NULL), -EINVAL);
}

/* ---- allowed ---------------------------------------------------------------------------- */

static void *thread_fn(void *arg)
{
    *(int *)arg = (int)syscall(SYS_gettid);
    return arg;
}

static int allowed_child(int wfd)
{
    /* glibc tries clone3 first (ENOSYS from the filter), then clone with CLONE_THREAD */
    pthread_t t;
    int tid = 0;
    if (pthread_create(&t, NULL, thread_fn, &tid) != 0)
        return 1;
    void *ret = NULL;
    if (pthread_join(t, &ret) != 0 || ret != &tid || tid <= 0 || tid == getpid())
        return 2;
    if (getpid() <= 0)
        return 3;
    if (write(wfd, "ok", 2) != 2)
        return 4;
    int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC); /* read-only open is allowed */
    if (fd < 0)
        return 5;
    char buf[64];
    if (read(fd, buf, sizeof buf) <= 0)
        return 6;
    close(fd);
    int fl = fcntl(wfd, F_GETFL);
    if (fl < 0 || fcntl(wfd, F_SETFL, fl | O_NONBLOCK) != 0)
        return 7;
    if (kill(getpid(), 0) != 0) /* a signal to itself is allowed */
        return 8;
    return 0;
}

static void test_allowed(void **state)
{
    (void)state;
    for (int i = 0; i < 2; i++) {
        int rd = -1;
        int st = run_under(all_profiles[i], allowed_child, &rd, NULL);
        expect_exit0(st, "threads, getpid, pipe write, read-only open", all_profiles[i]);
        char buf[8] = {0};
        assert_int_equal(read(rd, buf, sizeof buf), 2);
        assert_string_equal(buf, "ok");
        close(rd);
    }
}

static volatile sig_atomic_t got_usr1;
static void on_usr1(int sig)
{
    (void)sig;
    got_usr1 = 1;
}

static int raise_child(int wfd)
{
    (void)wfd;
    signal(SIGUSR1, on_usr1);
    if (raise(SIGUSR1) != 0 || !got_usr1) /* tgkill to itself */
        return 1;
    abort(); /* must end as SIGABRT (a runtime error), not SIGSYS */
}

static void test_abort_is_not_a_violation(void **state)
{
    (void)state;
    for (int i = 0; i < 2; i++) {
        int st = run_under(all_profiles[i], raise_child, NULL, NULL);
        if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGABRT)
            fail_msg("abort under %s: expected SIGABRT, got status 0x%x", all_profiles[i], st);
    }
}

/* ---- forbidden: killed ------------------------------------------------------------------ */

static int do_fork(int w)
{
    (void)w;
    pid_t p = fork();
    if (p == 0)
        _exit(0);
    return 10; /* reached: not killed */
}
static int do_ptrace(int w)
{
    (void)w;
    syscall(SYS_ptrace, 0 /* PTRACE_TRACEME */, 0, 0, 0);
    return 10;
}
static int do_unshare(int w)
{
    (void)w;
    syscall(SYS_unshare, CLONE_NEWUSER);
    return 10;
}
static int do_keyctl(int w)
{
    (void)w;
    syscall(SYS_keyctl, 0 /* KEYCTL_GET_KEYRING_ID */, -3 /* session */, 0);
    return 10;
}
static int do_kill_parent(int w)
{
    (void)w;
    syscall(SYS_kill, getppid(), 0);
    return 10;
}
static int do_prlimit_parent(int w)
{
    (void)w;
    struct rlimit rl;
    syscall(SYS_prlimit64, getppid(), RLIMIT_NOFILE, NULL, &rl);
    return 10;
}
static int do_clone_highbits(int w)
{
    (void)w;
    /* fork disguised: upper bits set, no CLONE_THREAD in the low ones */
    long r = syscall(SYS_clone, (1UL << 32) | SIGCHLD, 0, 0, 0, 0);
    if (r == 0)
        _exit(0);
    return 10;
}
static int do_clone_ns_thread(int w)
{
    (void)w;
    /* a "thread" asking for a new network namespace (the kernel refuses CLONE_THREAD with
     * namespaces anyway; the filter must kill before that) */
    syscall(SYS_clone, CLONE_THREAD | CLONE_SIGHAND | CLONE_VM | CLONE_NEWNET, 0, 0, 0, 0);
    return 10;
}
static int do_memfd(int w)
{
    (void)w;
    syscall(SYS_memfd_create, "x", 0);
    return 10;
}
static int do_bpf(int w)
{
    (void)w;
    syscall(SYS_bpf, 0, NULL, 0);
    return 10;
}

static void test_forbidden_kills(void **state)
{
    (void)state;
    static const struct {
        const char *what;
        child_fn fn;
    } cases[] = {
        {"fork", do_fork},
        {"ptrace", do_ptrace},
        {"unshare", do_unshare},
        {"keyctl", do_keyctl},
        {"kill(parent)", do_kill_parent},
        {"prlimit64(parent)", do_prlimit_parent},
        {"clone((1<<32)|SIGCHLD)", do_clone_highbits},
        {"clone(THREAD|NEWNET)", do_clone_ns_thread},
        {"memfd_create", do_memfd},
        {"bpf", do_bpf},
    };
    for (int i = 0; i < 2; i++)
        for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
            expect_sigsys(run_under(all_profiles[i], cases[k].fn, NULL, NULL), cases[k].what,
                          all_profiles[i]);
}

static int do_int80(int w)
{
    (void)w;
#if defined(__x86_64__)
    long ret = 20; /* getpid in the i386 table */
    __asm__ volatile("int $0x80" : "+a"(ret) : : "memory");
#endif
    return 10;
}

static void test_int80_kills(void **state)
{
    (void)state;
#if defined(__x86_64__)
    for (int i = 0; i < 2; i++)
        expect_sigsys(run_under(all_profiles[i], do_int80, NULL, NULL), "int $0x80",
                      all_profiles[i]);
#else
    skip();
#endif
}

/* ---- errno rules ------------------------------------------------------------------------ */

static int errno_child(int w)
{
    (void)w;
#define EXPECT_ERR(n, call, e)                                                                     \
    do {                                                                                           \
        errno = 0;                                                                                 \
        long r_ = (long)(call);                                                                    \
        if (r_ != -1 || errno != (e))                                                              \
            return n;                                                                              \
    } while (0)
    EXPECT_ERR(1, socket(AF_INET, SOCK_STREAM, 0), EACCES);
    EXPECT_ERR(2, syscall(SYS_socket, (1UL << 32) | 40 /* AF_VSOCK */, SOCK_STREAM, 0), EACCES);
    EXPECT_ERR(3, socket(AF_UNIX, SOCK_STREAM, 0), EACCES);
    EXPECT_ERR(4, openat(AT_FDCWD, "/dev/null", O_WRONLY), EACCES);
    EXPECT_ERR(5, openat(AT_FDCWD, "/dev/null", O_RDWR), EACCES);
    EXPECT_ERR(6, open("/tmp/okarena-seccomp-test", O_RDONLY | O_CREAT, 0600), EACCES);
    EXPECT_ERR(7, syscall(SYS_openat, AT_FDCWD, "/dev/null", (1UL << 32) | O_WRONLY), EACCES);
    EXPECT_ERR(8, syscall(SYS_io_uring_setup, 1, NULL), ENOSYS);
    EXPECT_ERR(9, syscall(SYS_clone3, NULL, 0), ENOSYS);
    EXPECT_ERR(10, flock(0, LOCK_EX), EPERM);
    EXPECT_ERR(11, mkdir("/tmp/okarena-seccomp-test-dir", 0700), EACCES);
    EXPECT_ERR(12, unlink("/tmp/okarena-seccomp-test"), EACCES);
    EXPECT_ERR(13, syscall(SYS_openat2, AT_FDCWD, "/", NULL, 0), ENOSYS);
    EXPECT_ERR(14, connect(0, NULL, 0), EACCES);
    struct flock fl = {.l_type = F_WRLCK};
    EXPECT_ERR(15, fcntl(0, F_SETLK, &fl), EPERM);
    /* ioctl: a command off the list fails with ENOTTY (never reaches a terminal), also with
     * the upper 32 bits set; a listed one still works */
    char c = 'x';
    EXPECT_ERR(16, syscall(SYS_ioctl, 0, TIOCSTI, &c), ENOTTY);
    EXPECT_ERR(17, syscall(SYS_ioctl, 0, (1UL << 32) | TIOCSTI, &c), ENOTTY);
    EXPECT_ERR(18, syscall(SYS_ioctl, 0, 0xdeadbeefUL, &c), ENOTTY);
    int pf[2], avail = -1;
    if (pipe(pf) != 0 || write(pf[1], "ab", 2) != 2 || ioctl(pf[0], FIONREAD, &avail) != 0 ||
        avail != 2)
        return 19;
    return 0;
#undef EXPECT_ERR
}

static void test_errno_rules(void **state)
{
    (void)state;
    for (int i = 0; i < 2; i++) {
        int st = run_under(all_profiles[i], errno_child, NULL, NULL);
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
            fail_msg("errno rule %d under %s failed (status 0x%x)",
                     WIFEXITED(st) ? WEXITSTATUS(st) : -1, all_profiles[i], st);
    }
    struct stat sb;
    assert_int_equal(stat("/tmp/okarena-seccomp-test", &sb), -1);
    assert_int_equal(stat("/tmp/okarena-seccomp-test-dir", &sb), -1);
}

/* ---- diagnosis -------------------------------------------------------------------------- */

static void test_killer_names_the_syscall(void **state)
{
    (void)state;
    int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        print_message("skipped: /dev/kmsg is not readable here (%s): "
                      "ar_seccomp_killer returns -1\n",
                      strerror(errno));
        skip();
    }
    close(fd);
    /* Without auditd the kernel prints these lines through printk_ratelimit (by default 10
     * per 5 s), so a burst of kills just before (another test, another arena) can swallow
     * ours: try again once after the window. */
    long nr = -1;
    pid_t pid = 0;
    for (int attempt = 0; attempt < 2 && nr < 0; attempt++) {
        if (attempt)
            sleep(6);
        double t0 = ar_now_ms();
        int st = run_under("native", do_ptrace, NULL, &pid);
        expect_sigsys(st, "ptrace", "native");
        nr = ar_seccomp_killer(pid, t0);
        /* a bound in the future leaves nothing: old lines of a reused pid never count */
        assert_int_equal(ar_seccomp_killer(pid, ar_now_ms() + 60000.0), -1);
    }
    if (nr < 0)
        fail_msg("ar_seccomp_killer(%d) found nothing although /dev/kmsg is readable "
                 "(auditd running? CONFIG_AUDIT off?)",
                 (int)pid);
    assert_int_equal(nr, SYS_ptrace);
    assert_string_equal(ar_syscall_name(nr), "ptrace");
    /* a pid that was not killed by seccomp has no line */
    pid_t other = 0;
    int st = run_under("native", allowed_child, NULL, &other);
    expect_exit0(st, "allowed", "native");
    assert_int_equal(ar_seccomp_killer(other, 0), -1);
    assert_int_equal(ar_seccomp_killer(0, 0), -1);
}

/* The audit line's number only means something with its architecture: i386's 20 is getpid,
 * x86_64's 20 is writev. */
static void test_describe_other_abi(void **state)
{
    (void)state;
    char d[128];
    ar_seccomp_describe(SYS_ptrace, 0, d, sizeof d);
    assert_string_equal(d, "syscall ptrace");
#if defined(__x86_64__)
    ar_seccomp_describe(SYS_ptrace, 0xc000003eu, d, sizeof d);
    assert_string_equal(d, "syscall ptrace");
    ar_seccomp_describe(20, 0x40000003u, d, sizeof d); /* AUDIT_ARCH_I386 */
    assert_string_equal(d, "32-bit (i386) syscall 20 (getpid)");
    ar_seccomp_describe(0x40000000L | 39, 0xc000003eu, d, sizeof d);
    assert_string_equal(d, "x32 syscall 39");
#endif
    ar_seccomp_describe(-1, 0, d, sizeof d);
    assert_string_equal(d, "an unknown syscall");
}

/* The real audit line of an int $0x80 kill carries arch=40000003 (when /dev/kmsg is
 * readable and the printk rate limit let the line through). */
static void test_killer_arch_int80(void **state)
{
    (void)state;
#if defined(__x86_64__)
    int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        skip();
    close(fd);
    long nr = -1;
    uint32_t arch = 0;
    pid_t pid = 0;
    for (int attempt = 0; attempt < 2 && nr < 0; attempt++) {
        if (attempt)
            sleep(6);
        double t0 = ar_now_ms();
        expect_sigsys(run_under("native", do_int80, NULL, &pid), "int $0x80", "native");
        nr = ar_seccomp_killer_arch(pid, t0, &arch);
    }
    if (nr < 0)
        fail_msg("no audit line for the int $0x80 kill of %d", (int)pid);
    assert_int_equal(nr, 20);
    assert_int_equal(arch, 0x40000003u);
#else
    skip();
#endif
}

static void test_names_and_auto(void **state)
{
    (void)state;
    assert_string_equal(ar_syscall_name(SYS_ptrace), "ptrace");
    assert_string_equal(ar_syscall_name(SYS_read), "read");
    assert_null(ar_syscall_name(-1));
    assert_null(ar_syscall_name(100000));
    assert_string_equal(ar_seccomp_auto("/usr/bin/python3"), "interpreted");
    assert_string_equal(ar_seccomp_auto("node"), "interpreted");
    assert_string_equal(ar_seccomp_auto("/usr/lib/jvm/bin/java"), "interpreted");
    assert_string_equal(ar_seccomp_auto("/bin/true"), "native");
    assert_string_equal(ar_seccomp_auto("./my_bot"), "native");
    assert_string_equal(ar_seccomp_auto(""), "native");
    assert_string_equal(ar_seccomp_auto(NULL), "native");
    /* a script run directly is judged by its interpreter */
    char path[] = "/tmp/okarena-auto-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *body = "#!/usr/bin/env python3\nprint(1)\n";
    assert_int_equal(write(fd, body, strlen(body)), (long)strlen(body));
    close(fd);
    assert_string_equal(ar_seccomp_auto(path), "interpreted");
    fd = open(path, O_WRONLY | O_TRUNC);
    body = "#!/bin/sh\necho 1\n";
    assert_int_equal(write(fd, body, strlen(body)), (long)strlen(body));
    close(fd);
    assert_string_equal(ar_seccomp_auto(path), "native");
    unlink(path);
    /* through a symlink: the target's name counts */
    char link[64];
    snprintf(link, sizeof link, "/tmp/okarena-auto-link-%d", (int)getpid());
    if (access("/usr/bin/python3", X_OK) == 0 && symlink("/usr/bin/python3", link) == 0) {
        char renamed[80];
        snprintf(renamed, sizeof renamed, "%s-bot", link);
        rename(link, renamed);
        assert_string_equal(ar_seccomp_auto(renamed), "interpreted");
        unlink(renamed);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_killer_names_the_syscall), /* first: kmsg rate limit */
        cmocka_unit_test(test_build),
        cmocka_unit_test(test_allowed),
        cmocka_unit_test(test_abort_is_not_a_violation),
        cmocka_unit_test(test_forbidden_kills),
        cmocka_unit_test(test_int80_kills),
        cmocka_unit_test(test_errno_rules),
        cmocka_unit_test(test_names_and_auto),
        cmocka_unit_test(test_describe_other_abi),
        cmocka_unit_test(test_killer_arch_int80),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
