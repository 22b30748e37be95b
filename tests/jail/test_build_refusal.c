/* test_build_refusal.c - a build step on a host without user namespaces (jail/build.h): it is
 * refused, never run in a weaker jail, and the refusal says what to enable and what works
 * without it. The sandbox modes are given here as such a host would give them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jail/build.h"
#include "jail/sandbox.h"

static void refused(int mode, int userns)
{
    char dir[] = "/tmp/okr-build-refusal.XXXXXX", log[64], marker[80];
    assert_non_null(mkdtemp(dir));
    snprintf(log, sizeof log, "%s.log", dir);
    snprintf(marker, sizeof marker, "%s/ran", dir);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "touch %s", marker);
    ar_build b = {
        .dir = dir, .command = cmd, .secs = 5, .mode = mode, .userns = userns, .log_path = log};
    char why[1024] = "";
    assert_int_equal(ar_build_run(&b, why, sizeof why), -1);
    assert_non_null(strstr(why, "user namespace"));
    assert_non_null(strstr(why, "kernel.unprivileged_userns_clone=1"));
    assert_non_null(strstr(why, "apparmor_restrict_unprivileged_userns=0"));
    assert_non_null(strstr(why, "without a build step"));
    assert_int_equal(access(marker, F_OK), -1); /* nothing ran */
    rmdir(dir);
    unlink(log);
}

static void test_no_userns(void **state)
{
    (void)state;
    refused(AR_SB_SECCOMP_ONLY, 0);
    refused(AR_SB_OFF, 0);
    if (geteuid() == 0)
        refused(AR_SB_FULL, 0); /* root whose kernel gives no user namespace */
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_no_userns)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
