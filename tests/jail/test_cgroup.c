/* test_cgroup.c - one cgroup per bot, on the real kernel: a memory limit gets a child that
 * allocates past it OOM-killed and counted (the MLE evidence), pids.max stops a fork loop,
 * CPU time of the tree grows with a spinning child, kill empties the cgroup including a
 * setsid'ed grandchild, free leaves no directory behind, and sweep removes a dead arena's
 * leftovers but not a live one's. Skipped (with the reason) where cgroups are unavailable,
 * e.g. as an unprivileged user without v2 delegation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "jail/cgroup.h"

static int need_cgroups(void)
{
    char why[512];
    int v = ar_cgroup_available(why, sizeof why);
    if (v == 0)
        print_message("skipped: no cgroups here: %s\n", why);
    return v;
}

/* A child that waits for one byte on the returned fd before running fn; the test attaches
 * it to the cgroup in between (as the jail does before releasing a bot). */
static pid_t start_held(int (*fn)(void), int *go_fd)
{
    int p[2];
    assert_int_equal(pipe2(p, O_CLOEXEC), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(p[1]);
        char x;
        if (read(p[0], &x, 1) != 1)
            _exit(100);
        close(p[0]);
        _exit(fn());
    }
    close(p[0]);
    *go_fd = p[1];
    return pid;
}

static void release(int go_fd)
{
    assert_int_equal(write(go_fd, "g", 1), 1);
    close(go_fd);
}

/* Reap every child we have (we are a subreaper, so orphaned grandchildren come here too). */
static void reap_all(void)
{
    while (waitpid(-1, NULL, WNOHANG) > 0)
        ;
}

static void nap_ms(int ms)
{
    struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* ---- memory ----------------------------------------------------------------------------- */

static int allocate_64m(void)
{
    size_t n = 64u << 20;
    char *m = malloc(n);
    if (!m)
        return 2;
    /* touch every page, through volatile so the compiler cannot drop the allocation */
    volatile char *v = m;
    for (size_t i = 0; i < n; i += 4096)
        v[i] = 1;
    int ok = v[n - 4096] == 1;
    free(m);
    return ok ? 0 : 3;
}

static void test_memory_limit_oom(void **state)
{
    (void)state;
    if (!need_cgroups())
        skip();
    char err[512];
    ar_cgroup *c = ar_cgroup_new("oom", 32u << 20, 16, err, sizeof err);
    if (!c)
        fail_msg("ar_cgroup_new: %s", err);
    assert_int_equal(ar_cgroup_oom_kills(c), 0);
    int go;
    pid_t pid = start_held(allocate_64m, &go);
    assert_int_equal(ar_cgroup_attach(c, pid), 0);
    release(go);
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGKILL)
        fail_msg("a 64 MiB child under a 32 MiB limit was not OOM-killed (status 0x%x)", st);
    assert_true(ar_cgroup_oom_kills(c) >= 1);
    uint64_t peak = ar_cgroup_mem_peak(c);
    assert_true(peak > (16u << 20) && peak <= (33u << 20));
    ar_cgroup_free(c);
}

static void test_no_limit_no_oom(void **state)
{
    (void)state;
    if (!need_cgroups())
        skip();
    char err[512];
    ar_cgroup *c = ar_cgroup_new("nolimit", 256u << 20, 16, err, sizeof err);
    if (!c)
        fail_msg("ar_cgroup_new: %s", err);
    int go;
    pid_t pid = start_held(allocate_64m, &go);
    assert_int_equal(ar_cgroup_attach(c, pid), 0);
    release(go);
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    assert_int_equal(ar_cgroup_oom_kills(c), 0);
    assert_true(ar_cgroup_mem_peak(c) >= (64u << 20));
    ar_cgroup_free(c);
}

/* ---- pids ------------------------------------------------------------------------------- */

/* Fork until refused; exit with 0 when it was refused with EAGAIN after exactly 7 forks
 * (8 tasks with ourselves), else with the count + 10. */
static int fork_loop(void)
{
    int n = 0;
    for (; n < 100; n++) {
        pid_t p = fork();
        if (p == 0) {
            for (;;)
                pause();
        }
        if (p < 0)
            break;
    }
    int e = errno;
    return n == 7 && e == EAGAIN ? 0 : 10 + n;
}

static void test_pids_limit_stops_fork_loop(void **state)
{
    (void)state;
    if (!need_cgroups())
        skip();
    char err[512];
    ar_cgroup *c = ar_cgroup_new("pids", 0, 8, err, sizeof err);
    if (!c)
        fail_msg("ar_cgroup_new: %s", err);
    int go;
    pid_t pid = start_held(fork_loop, &go);
    assert_int_equal(ar_cgroup_attach(c, pid), 0);
    assert_int_equal(ar_cgroup_pids(c), 1);
    release(go);
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        fail_msg("fork loop under pids.max 8: exit %d (10 + forks made)", WEXITSTATUS(st));
    /* the 7 grandchildren are still inside */
    assert_int_equal(ar_cgroup_pids(c), 7);
    assert_int_equal(ar_cgroup_kill(c), 0);
    for (int i = 0; i < 100 && ar_cgroup_pids(c) > 0; i++) {
        reap_all();
        nap_ms(10);
    }
    assert_int_equal(ar_cgroup_pids(c), 0);
    ar_cgroup_free(c);
}

/* ---- cpu -------------------------------------------------------------------------------- */

static int spin_300ms(void)
{
    struct timespec t;
    do
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    while (t.tv_sec == 0 && t.tv_nsec < 300000000L);
    return 0;
}

static void test_cpu_grows(void **state)
{
    (void)state;
    if (!need_cgroups())
        skip();
    char err[512];
    ar_cgroup *c = ar_cgroup_new("cpu", 0, 0, err, sizeof err);
    if (!c)
        fail_msg("ar_cgroup_new: %s", err);
    double before = ar_cgroup_cpu_ms(c);
    if (before < 0) {
        ar_cgroup_free(c);
        print_message("skipped: no CPU accounting (no cpuacct hierarchy, no v2 cpu.stat)\n");
        skip();
    }
    assert_true(before < 50);
    int go;
    pid_t pid = start_held(spin_300ms, &go);
    assert_int_equal(ar_cgroup_attach(c, pid), 0);
    release(go);
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    double after = ar_cgroup_cpu_ms(c);
    if (after < 290 || after > 5000)
        fail_msg("cpu of a child that spun 300 ms CPU: %.1f ms", after);
    ar_cgroup_free(c);
}

/* ---- kill, free, sweep ------------------------------------------------------------------ */

static int daemonize_and_wait(void)
{
    int p[2];
    if (pipe(p) != 0)
        return 2;
    pid_t g = fork();
    if (g == 0) {
        setsid(); /* out of the process group: a kill(-pgid) would miss it */
        if (write(p[1], "d", 1) != 1)
            _exit(3);
        for (;;)
            pause();
    }
    char x;
    if (g < 0 || read(p[0], &x, 1) != 1)
        return 4;
    for (;;)
        pause();
}

static void test_kill_reaches_setsid_grandchild(void **state)
{
    (void)state;
    if (!need_cgroups())
        skip();
    char err[512];
    ar_cgroup *c = ar_cgroup_new("kill", 0, 16, err, sizeof err);
    if (!c)
        fail_msg("ar_cgroup_new: %s", err);
    int go;
    pid_t pid = start_held(daemonize_and_wait, &go);
    assert_int_equal(ar_cgroup_attach(c, pid), 0);
    release(go);
    for (int i = 0; i < 200 && ar_cgroup_pids(c) < 2; i++)
        nap_ms(5);
    assert_int_equal(ar_cgroup_pids(c), 2);
    assert_int_equal(ar_cgroup_kill(c), 0);
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    for (int i = 0; i < 100 && ar_cgroup_pids(c) > 0; i++) {
        reap_all();
        nap_ms(10);
    }
    assert_int_equal(ar_cgroup_pids(c), 0);
    ar_cgroup_free(c);
}

static int wait_forever(void)
{
    for (;;)
        pause();
    return 0;
}

static void test_free_leaves_nothing(void **state)
{
    (void)state;
    if (!need_cgroups())
        skip();
    char err[512];
    ar_cgroup *c = ar_cgroup_new("free", 64u << 20, 16, err, sizeof err);
    if (!c)
        fail_msg("ar_cgroup_new: %s", err);
    char paths[4][PATH_MAX];
    int n = 0;
    for (const char *p; n < 4 && (p = ar_cgroup_path(c, n)); n++) {
        snprintf(paths[n], sizeof paths[n], "%s", p);
        struct stat st;
        assert_int_equal(stat(paths[n], &st), 0);
        assert_non_null(strstr(paths[n], "okarena-"));
    }
    assert_true(n >= 1);
    int go;
    pid_t pid = start_held(wait_forever, &go);
    assert_int_equal(ar_cgroup_attach(c, pid), 0);
    release(go);
    ar_cgroup_free(c); /* with a live task inside */
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    for (int i = 0; i < n; i++) {
        struct stat sb;
        if (stat(paths[i], &sb) == 0)
            fail_msg("%s is still there after ar_cgroup_free", paths[i]);
    }
}

static void test_sweep(void **state)
{
    (void)state;
    if (!need_cgroups())
        skip();
    char err[512];
    ar_cgroup *c = ar_cgroup_new("live", 0, 0, err, sizeof err);
    if (!c)
        fail_msg("ar_cgroup_new: %s", err);
    /* a dead pid: a child that has exited and been reaped */
    pid_t dead = fork();
    if (dead == 0)
        _exit(0);
    assert_int_equal(waitpid(dead, NULL, 0), dead);
    char parent[PATH_MAX], stale[PATH_MAX + 64];
    snprintf(parent, sizeof parent, "%s", ar_cgroup_path(c, 0));
    dirname(parent);
    snprintf(stale, sizeof stale, "%s/okarena-%d-1-stale", parent, (int)dead);
    assert_int_equal(mkdir(stale, 0755), 0);
    int removed = ar_cgroup_sweep();
    struct stat sb;
    assert_int_equal(stat(stale, &sb), -1);
    assert_true(removed >= 1);
    /* ours (a live arena: this process) stays */
    assert_int_equal(stat(ar_cgroup_path(c, 0), &sb), 0);
    ar_cgroup_free(c);
}

static void test_unavailable_is_explained(void **state)
{
    (void)state;
    char why[512];
    int v = ar_cgroup_available(why, sizeof why);
    assert_true(v >= 0 && v <= 2);
    if (v == 0) {
        assert_true(strlen(why) > 0);
        char err[512];
        assert_null(ar_cgroup_new("x", 0, 0, err, sizeof err));
        assert_true(strlen(err) > 0);
    }
    /* NULL-safe accessors */
    assert_int_equal(ar_cgroup_dirfd(NULL), -1);
    assert_int_equal(ar_cgroup_pids(NULL), -1);
    assert_int_equal(ar_cgroup_oom_kills(NULL), -1);
    assert_true(ar_cgroup_cpu_ms(NULL) < 0);
    ar_cgroup_free(NULL);
}

int main(void)
{
    /* orphaned grandchildren come back to us, so their zombies can be reaped */
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unavailable_is_explained),
        cmocka_unit_test(test_memory_limit_oom),
        cmocka_unit_test(test_no_limit_no_oom),
        cmocka_unit_test(test_pids_limit_stops_fork_loop),
        cmocka_unit_test(test_cpu_grows),
        cmocka_unit_test(test_kill_reaches_setsid_grandchild),
        cmocka_unit_test(test_free_leaves_nothing),
        cmocka_unit_test(test_sweep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
