/* test_worker.c - ar_spawn_worker (spawn.c, the only file that forks): the worker runs the
 * function, holds no fd of ours but 0, 1, 2 and the one kept (as fd 3, close-on-exec), has the
 * parent-death signal armed, no signal blocked, SIGINT at its default; and dies when its
 * parent dies. And the one spared child (ar_spawn_spare) that ar_spawn_kill_adopted leaves
 * alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "jail/spawn.h"

/* Writes "fds=0,1,2,3 cloexec3=1 pdeathsig=9 blocked=0 sigint_dfl=1 arg=42" to fd 3. */
static void report(void *arg)
{
    char buf[512], fds[256] = "";
    DIR *d = opendir("/proc/self/fd");
    int dfd = d ? dirfd(d) : -1;
    struct dirent *e;
    int list[64], n = 0;
    while (d && (e = readdir(d)) && n < 64)
        if (e->d_name[0] != '.' && atoi(e->d_name) != dfd)
            list[n++] = atoi(e->d_name);
    if (d)
        closedir(d);
    for (int i = 0; i < n; i++) /* sort, small */
        for (int j = i + 1; j < n; j++)
            if (list[j] < list[i]) {
                int t = list[i];
                list[i] = list[j];
                list[j] = t;
            }
    for (int i = 0; i < n; i++)
        snprintf(fds + strlen(fds), sizeof fds - strlen(fds), "%s%d", i ? "," : "", list[i]);
    int sig = 0;
    prctl(PR_GET_PDEATHSIG, &sig, 0, 0, 0);
    sigset_t cur;
    sigprocmask(SIG_SETMASK, NULL, &cur);
    int blocked = 0;
    for (int s = 1; s < 32; s++)
        blocked += sigismember(&cur, s) == 1;
    struct sigaction sa;
    sigaction(SIGINT, NULL, &sa);
    int k = snprintf(
        buf, sizeof buf, "fds=%s cloexec3=%d pdeathsig=%d blocked=%d sigint_dfl=%d arg=%d", fds,
        (fcntl(3, F_GETFD) & FD_CLOEXEC) != 0, sig, blocked, sa.sa_handler == SIG_DFL, *(int *)arg);
    if (write(3, buf, (size_t)k) != k)
        _exit(2);
}

static void test_worker_environment(void **state)
{
    (void)state;
    int p[2], extra = open("/dev/null", O_RDONLY); /* not CLOEXEC: must still be closed */
    assert_true(extra >= 0);
    assert_int_equal(pipe(p), 0);
    signal(SIGINT, SIG_IGN);
    sigset_t blockint;
    sigemptyset(&blockint);
    sigaddset(&blockint, SIGUSR1);
    sigprocmask(SIG_BLOCK, &blockint, NULL);
    int arg = 42;
    pid_t pid = ar_spawn_worker(report, &arg, p[1]);
    assert_true(pid > 0);
    close(p[1]);
    char buf[512];
    ssize_t n = read(p[0], buf, sizeof buf - 1);
    assert_true(n > 0);
    buf[n] = '\0';
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    assert_string_equal(buf, "fds=0,1,2,3 cloexec3=1 pdeathsig=9 blocked=0 sigint_dfl=1 arg=42");
    close(p[0]);
    close(extra);
    signal(SIGINT, SIG_DFL);
    sigprocmask(SIG_UNBLOCK, &blockint, NULL);
}

static void sleeper(void *arg)
{
    (void)arg;
    char c = 'r';
    if (write(3, &c, 1) != 1)
        _exit(2);
    sleep(30);
}

/* middle process: starts a sleeping worker, tells its pid, exits: the worker must die */
static void test_worker_dies_with_parent(void **state)
{
    (void)state;
    int p[2];
    assert_int_equal(pipe(p), 0);
    pid_t mid = fork();
    assert_true(mid >= 0);
    if (mid == 0) {
        close(p[0]);
        int q[2];
        if (pipe(q) != 0)
            _exit(3);
        pid_t w = ar_spawn_worker(sleeper, NULL, q[1]);
        char c;
        if (w < 0 || read(q[0], &c, 1) != 1 || write(p[1], &w, sizeof w) != sizeof w)
            _exit(3);
        _exit(0);
    }
    close(p[1]);
    pid_t w = 0;
    assert_int_equal(read(p[0], &w, sizeof w), (ssize_t)sizeof w);
    int st;
    waitpid(mid, &st, 0);
    assert_true(w > 0);
    int gone = 0;
    for (int i = 0; i < 100 && !gone; i++) { /* the worker is reparented: poll, 2 s at most */
        gone = kill(w, 0) < 0 && errno == ESRCH;
        if (!gone) {
            char path[64], stat[256] = "";
            snprintf(path, sizeof path, "/proc/%d/stat", (int)w);
            FILE *f = fopen(path, "re");
            if (f) {
                if (!fgets(stat, sizeof stat, f))
                    stat[0] = '\0';
                fclose(f);
            }
            const char *rp = strrchr(stat, ')');
            gone = rp && rp[1] == ' ' && rp[2] == 'Z'; /* dead, not yet reaped */
            usleep(20000);
        }
    }
    waitpid(w, &st, WNOHANG); /* ours if we are a subreaper */
    assert_true(gone);
    close(p[0]);
}

/* The spared child (the live server): ar_spawn_kill_adopted kills every other child of ours
 * but not it, ar_spawn_children does not count it; once reaped and forgotten, a child is no
 * longer spared. */
static void test_spared_child(void **state)
{
    (void)state;
    int q[2];
    assert_int_equal(pipe(q), 0);
    pid_t server = ar_spawn_worker(sleeper, NULL, q[1]);
    pid_t other = ar_spawn_worker(sleeper, NULL, q[1]);
    assert_true(server > 0 && other > 0);
    close(q[1]);
    char c[2];
    assert_int_equal(read(q[0], c, 1) + read(q[0], c + 1, 1), 2); /* both run */
    ar_spawn_spare(server);
    assert_int_equal(ar_spawn_children(), 1); /* the other one */
    assert_int_equal(ar_spawn_kill_adopted(NULL, 0), 1);
    int st;
    assert_int_equal(waitpid(other, &st, 0), other);
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    assert_int_equal(ar_spawn_children(), 0);
    assert_int_equal(kill(server, 0), 0); /* still running */
    ar_spawn_reaped(other);               /* not the spared one: nothing changes */
    assert_int_equal(ar_spawn_children(), 0);
    ar_spawn_reaped(server); /* as if reaped: forgotten, so it counts and is killed again */
    assert_int_equal(ar_spawn_children(), 1);
    assert_int_equal(ar_spawn_kill_adopted(NULL, 0), 1);
    assert_int_equal(waitpid(server, &st, 0), server);
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    close(q[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_worker_environment),
        cmocka_unit_test(test_worker_dies_with_parent),
        cmocka_unit_test(test_spared_child),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
