/* test_probe_quiet.c - the start-up probe writes no seccomp line to the kernel log. Without
 * auditd the kernel prints seccomp kills through the printk rate limit (10 lines per 5 s): a
 * kill in the probe (which runs at the start of every arena) used up that budget, and the
 * bots' SV verdicts then lost their syscall names. The probe must check its filter with errno
 * rules only. Needs a readable /dev/kmsg (root), else skipped. Its own program (not
 * test_probe), because the probe runs once per process. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "jail/sandbox.h"

/* Records of /dev/kmsg from fd's position on: how many are seccomp lines (type=1326) of a
 * process whose command name is ours (the probe's children inherit it). */
static int count_ours(int fd, const char *comm)
{
    char want[64], rec[8192];
    snprintf(want, sizeof want, "comm=\"%.15s\"", comm);
    int n = 0;
    for (;;) {
        ssize_t r = read(fd, rec, sizeof rec - 1);
        if (r < 0 && (errno == EINTR || errno == EPIPE))
            continue;
        if (r <= 0)
            break;
        rec[r] = '\0';
        if (strstr(rec, "type=1326") && strstr(rec, want))
            n++;
    }
    return n;
}

static void test_probe_writes_no_seccomp_line(void **state)
{
    (void)state;
    int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        print_message("skipped: /dev/kmsg is not readable here (%s)\n", strerror(errno));
        skip();
    }
    lseek(fd, 0, SEEK_END);
    char comm[32] = "";
    FILE *f = fopen("/proc/self/comm", "re");
    assert_non_null(f);
    assert_non_null(fgets(comm, sizeof comm, f));
    fclose(f);
    comm[strcspn(comm, "\n")] = '\0';

    ar_sb_caps caps;
    assert_int_equal(ar_sandbox_probe(&caps), 0);
    assert_true(caps.seccomp);                    /* the filter was checked */
    struct timespec nap = {0, 200 * 1000 * 1000}; /* kauditd prints asynchronously */
    nanosleep(&nap, NULL);
    int n = count_ours(fd, comm);
    close(fd);
    if (n)
        fail_msg("the probe caused %d seccomp line(s) in the kernel log", n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_probe_writes_no_seccomp_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
