/* test_probe.c - the start-up probe: its answers agree with independent attempts made here
 * (unshare in a child, the cgroup module, euid), the mode it picks follows from them, the
 * result is cached, and the mode names parse both ways. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "jail/cgroup.h"
#include "jail/sandbox.h"

static ar_sb_caps caps;

static int setup(void **state)
{
    (void)state;
    return ar_sandbox_probe(&caps) == 0 ? 0 : -1;
}

/* Does unshare(flags) work in a child? */
static int can_unshare(int flags)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        _exit(unshare(flags) == 0 ? 0 : 1);
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static void test_agrees_with_independent_checks(void **state)
{
    (void)state;
    print_message("%s\n", caps.summary);
    if (caps.missing[0])
        print_message("missing: %s\n", caps.missing);
    assert_int_equal(caps.root, geteuid() == 0);
    assert_int_equal(caps.netns, can_unshare(CLONE_NEWNET | (caps.root ? 0 : CLONE_NEWUSER)));
    if (!caps.root)
        assert_int_equal(caps.userns, can_unshare(CLONE_NEWUSER));
    char why[512];
    assert_int_equal(caps.cgroup, ar_cgroup_available(why, sizeof why));
    for (int i = 0; i < AR_SBC_N; i++) {
        assert_true(strlen(caps.why[i]) > 0); /* every capability says why */
        assert_string_not_equal(ar_sb_cap_name(i), "?");
    }
    assert_int_equal(ar_sb_cap_value(&caps, AR_SBC_SECCOMP), caps.seccomp);
    assert_int_equal(ar_sb_cap_value(&caps, AR_SBC_N), -1);
}

static void test_mode_follows_from_caps(void **state)
{
    (void)state;
    int ns = caps.pidns && caps.netns && caps.mntns && caps.ipcns && caps.utsns;
    int filt = caps.seccomp && caps.nnp;
    switch (caps.mode) {
    case AR_SB_FULL:
        assert_true(ns && filt && caps.cgroup > 0 && (caps.root || caps.userns));
        assert_string_equal(caps.missing, "");
        break;
    case AR_SB_NO_CGROUPS:
        assert_true(ns && filt && caps.root && caps.cgroup == 0);
        break;
    case AR_SB_ROOTLESS:
        assert_true(ns && filt && caps.userns && !caps.root && caps.cgroup == 0);
        break;
    case AR_SB_SECCOMP_ONLY:
        assert_true(filt && !(ns && (caps.root || caps.userns)));
        break;
    case AR_SB_OFF:
        assert_false(filt);
        break;
    default:
        fail_msg("mode %d", caps.mode);
    }
    if (caps.mode != AR_SB_FULL)
        assert_true(strlen(caps.missing) > 0);
    char want[64];
    snprintf(want, sizeof want, "sandbox: %s", ar_sb_mode_name(caps.mode));
    assert_memory_equal(caps.summary, want, strlen(want));
}

static void test_cached(void **state)
{
    (void)state;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    ar_sb_caps again;
    assert_int_equal(ar_sandbox_probe(&again), 0);
    clock_gettime(CLOCK_MONOTONIC, &b);
    assert_memory_equal(&again, &caps, sizeof caps);
    double ms = (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
    assert_true(ms < 5); /* no children this time */
}

static void test_mode_names(void **state)
{
    (void)state;
    static const char *const names[] = {"off", "seccomp-only", "rootless", "no-cgroups", "full"};
    for (int m = AR_SB_OFF; m <= AR_SB_FULL; m++) {
        assert_string_equal(ar_sb_mode_name(m), names[m]);
        int back = -1;
        assert_int_equal(ar_sb_mode_parse(names[m], &back), 0);
        assert_int_equal(back, m);
    }
    int x = 7;
    assert_int_equal(ar_sb_mode_parse("Full", &x), -EINVAL);
    assert_int_equal(ar_sb_mode_parse("", &x), -EINVAL);
    assert_int_equal(ar_sb_mode_parse(NULL, &x), -EINVAL);
    assert_int_equal(x, 7);
    assert_string_equal(ar_sb_mode_name(-1), "?");
    assert_string_equal(ar_sb_mode_name(5), "?");
    assert_true(AR_SB_OFF < AR_SB_SECCOMP_ONLY && AR_SB_SECCOMP_ONLY < AR_SB_ROOTLESS &&
                AR_SB_ROOTLESS < AR_SB_NO_CGROUPS && AR_SB_NO_CGROUPS < AR_SB_FULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_agrees_with_independent_checks),
        cmocka_unit_test(test_mode_follows_from_caps),
        cmocka_unit_test(test_cached),
        cmocka_unit_test(test_mode_names),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
