/* test_bot_process.c - spawn.c and bot.c with real processes: what the child inherits (fds,
 * signal dispositions, process group), exec failures reported through the error pipe, the
 * handshake and goodbye, the startup clock, the bounded write queue and the write-stall clock,
 * and killing a bot's whole process group. The helper bots are build/tests/helpers/okrh_*
 * (tests/match/CMakeLists.txt); tests that need one are skipped when it is not built. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "jail/spawn.h"
#include "match/bot.h"
#include "match/loop.h"
#include "util/util.h"

/* ---- helpers ------------------------------------------------------------------------------- */

static int helper_path(const char *mode, char *out, size_t cap)
{
    const char *build = getenv("OKR_BUILD_DIR");
    snprintf(out, cap, "%s/tests/helpers/okrh_%s", build ? build : ".", mode);
    return access(out, X_OK) == 0 ? 0 : -1;
}

/* Run argv with ar_spawn_start and return everything it writes to stdout (malloc'd). */
static char *run_capture(char *const *argv)
{
    ar_proc p;
    char err[256];
    ar_spawn_opts o = {.path = argv[0], .argv = argv};
    assert_int_equal(ar_spawn_start(&o, &p, err, sizeof err), 0);
    close(p.in_fd);
    int fl = fcntl(p.out_fd, F_GETFL);
    fcntl(p.out_fd, F_SETFL, fl & ~O_NONBLOCK);
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    for (;;) {
        ssize_t n = read(p.out_fd, buf + len, cap - len - 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        len += (size_t)n;
        if (len + 1 >= cap)
            buf = realloc(buf, cap *= 2);
    }
    buf[len] = '\0';
    close(p.out_fd);
    close(p.err_fd);
    int st;
    while (waitpid(p.pid, &st, 0) < 0 && errno == EINTR)
        ;
    return buf;
}

typedef struct fixture {
    ar_loop *loop;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->loop = ar_loop_new();
    assert_non_null(f->loop);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    /* reap what the tests killed */
    for (int i = 0; i < 200 && ar_loop_reap(f->loop); i++)
        usleep(10000);
    ar_loop_free(f->loop);
    free(f);
    return 0;
}

static ar_bot *new_bot(fixture *f, const char *path, char *const *argv, ar_clocks c,
                       size_t max_pending)
{
    ar_bot_config cfg = {
        .name = "t",
        .path = path,
        .argv = argv,
        .clocks = c,
        .max_pending = max_pending,
        .eof_ms = 300,
    };
    return ar_bot_new(f->loop, &cfg);
}

static Okrpb__ToBot *hello_msg(void)
{
    static Okrpb__Hello h = OKRPB__HELLO__INIT;
    static Okrpb__ToBot tb = OKRPB__TO_BOT__INIT;
    h.major = 1;
    h.match_id = "test";
    h.players = 2;
    tb.msg_case = OKRPB__TO_BOT__MSG_HELLO;
    tb.hello = &h;
    return &tb;
}

/* Run the loop until the bot leaves the given states (or 5 s pass). */
static void wait_while(fixture *f, ar_bot *b, int s1, int s2)
{
    double end = ar_now_ms() + 5000;
    while (((int)b->state == s1 || (int)b->state == s2) && ar_now_ms() < end)
        ar_loop_once(f->loop);
}

/* Processes whose process group is pgid. */
static int group_members(pid_t pgid)
{
    DIR *d = opendir("/proc");
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        char path[300], buf[512];
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *fp = fopen(path, "r");
        if (!fp)
            continue;
        size_t k = fread(buf, 1, sizeof buf - 1, fp);
        fclose(fp);
        buf[k] = '\0';
        char *rp = strrchr(buf, ')');
        char st;
        int ppid, pgrp;
        if (rp && sscanf(rp + 1, " %c %d %d", &st, &ppid, &pgrp) == 3 && pgrp == pgid && st != 'Z')
            n++;
    }
    if (d)
        closedir(d);
    return n;
}

/* ---- spawn.c --------------------------------------------------------------------------------- */

static void test_child_fds(void **state)
{
    (void)state;
    /* ls lists its own fds: 0 1 2 and the directory it reads (3); the error pipe and every
     * fd of ours are closed */
    char *const argv[] = {"/bin/ls", "/proc/self/fd", NULL};
    char *out = run_capture(argv);
    assert_string_equal(out, "0\n1\n2\n3\n");
    free(out);
}

static void test_child_signals_and_group(void **state)
{
    (void)state;
    signal(SIGPIPE, SIG_IGN); /* as the arena does: must not reach the bot */
    /* the programs read their own /proc entries (a shell's would race with its children) */
    char *const argv[] = {"/bin/grep", "-E", "^(SigIgn|SigBlk)", "/proc/self/status", NULL};
    char *out = run_capture(argv);
    assert_non_null(strstr(out, "SigIgn:\t0000000000000000"));
    assert_non_null(strstr(out, "SigBlk:\t0000000000000000"));
    free(out);
    /* "pid pgrp": the child leads its own process group */
    char *const argv2[] = {"/usr/bin/cut", "-d", " ", "-f1,5", "/proc/self/stat", NULL};
    out = run_capture(argv2);
    int pid = 0, pgrp = -1;
    assert_int_equal(sscanf(out, "%d %d", &pid, &pgrp), 2);
    assert_int_equal(pid, pgrp);
    free(out);
}

static void test_exec_failure(void **state)
{
    (void)state;
    char *const argv[] = {"/no/such/program", NULL};
    ar_spawn_opts o = {.path = argv[0], .argv = argv};
    ar_proc p;
    char err[256] = "";
    assert_int_equal(ar_spawn_start(&o, &p, err, sizeof err), -ENOENT);
    assert_string_equal(err, "spawn failed at exec: No such file or directory");
    o.path = "/bin/sh";
    o.cwd = "/no/such/dir";
    assert_int_equal(ar_spawn_start(&o, &p, err, sizeof err), -ENOENT);
    assert_string_equal(err, "spawn failed at chdir: No such file or directory");
}

static void test_cpu_clock(void **state)
{
    (void)state;
    assert_true(ar_spawn_cpu_ms(getpid()) >= 0);
    assert_true(ar_spawn_cpu_ms(0x7ffffff0) < 0);
}

/* ---- bot.c ------------------------------------------------------------------------------------
 */

static const ar_clocks quick = {2000, 1000, 0, 1000};

static void test_bot_missing_program(void **state)
{
    fixture *f = *state;
    char *const argv[] = {"/no/such/bot", NULL};
    ar_bot *b = new_bot(f, argv[0], argv, quick, 0);
    assert_true(ar_bot_start(b, hello_msg()) < 0);
    assert_int_equal(b->state, AR_BOT_FAILED);
    assert_int_equal(b->verdict.kind, AR_V_RE);
    assert_non_null(strstr(b->verdict.detail, "spawn failed at exec"));
    ar_bot_free(b);
}

static void test_bot_handshake_and_bye(void **state)
{
    fixture *f = *state;
    char path[PATH_MAX];
    if (helper_path("good", path, sizeof path) < 0)
        skip();
    char *const argv[] = {path, NULL};
    ar_bot *b = new_bot(f, path, argv, quick, 0);
    assert_int_equal(ar_bot_start(b, hello_msg()), 0);
    wait_while(f, b, AR_BOT_HELLO, AR_BOT_IDENTIFIED);
    assert_int_equal(b->state, AR_BOT_READY);
    assert_int_equal(b->major, 1);
    assert_string_equal(b->bot_name, "okrh");
    assert_string_equal(b->bot_version, "1.0");
    assert_true(b->ready_ms >= 0 && b->ready_ms < 2000);
    pid_t pid = b->pid;
    ar_bot_close(b, "test over", 2000);
    wait_while(f, b, AR_BOT_CLOSING, -1);
    assert_int_equal(b->state, AR_BOT_OFF);
    assert_int_equal(b->bye_exit, 1); /* it left by itself */
    assert_true(WIFEXITED(b->exit_status) && WEXITSTATUS(b->exit_status) == 0);
    assert_int_equal(group_members(pid), 0);
    ar_bot_free(b);
}

static void test_bot_startup_clock(void **state)
{
    fixture *f = *state;
    char path[PATH_MAX];
    if (helper_path("noready", path, sizeof path) < 0)
        skip();
    char *const argv[] = {path, NULL};
    ar_clocks c = {150, 1000, 0, 1000};
    ar_bot *b = new_bot(f, path, argv, c, 0);
    double t0 = ar_now_ms();
    assert_int_equal(ar_bot_start(b, hello_msg()), 0);
    wait_while(f, b, AR_BOT_HELLO, AR_BOT_IDENTIFIED);
    double took = ar_now_ms() - t0;
    assert_int_equal(b->state, AR_BOT_FAILED);
    assert_int_equal(b->verdict.kind, AR_V_TLE);
    assert_string_equal(b->verdict.clock, "startup");
    assert_true(took >= 140 && took < 1500);
    ar_bot_free(b);
}

/* A bot that never reads: the arena's writes never block; past max_pending it is TLE "input". */
static void test_bot_queue_bound(void **state)
{
    fixture *f = *state;
    char path[PATH_MAX];
    if (helper_path("noread", path, sizeof path) < 0)
        skip();
    char *const argv[] = {path, NULL};
    ar_bot *b = new_bot(f, path, argv, quick, 256 * 1024);
    assert_int_equal(ar_bot_start(b, hello_msg()), 0);
    wait_while(f, b, AR_BOT_HELLO, AR_BOT_IDENTIFIED);
    assert_int_equal(b->state, AR_BOT_READY);
    Okrpb__Bye bye = OKRPB__BYE__INIT;
    char text[1000];
    memset(text, 'x', sizeof text - 1);
    text[sizeof text - 1] = '\0';
    bye.reason = text;
    Okrpb__ToBot tb = OKRPB__TO_BOT__INIT;
    tb.msg_case = OKRPB__TO_BOT__MSG_BYE;
    tb.bye = &bye;
    double t0 = ar_now_ms();
    int rc = 0, sent = 0;
    while (rc == 0 && sent < 100000) {
        rc = ar_bot_send(b, &tb);
        sent++;
    }
    assert_true(ar_now_ms() - t0 < 1000); /* never blocked */
    assert_int_equal(rc, -ENOBUFS);
    assert_int_equal(b->state, AR_BOT_FAILED);
    assert_int_equal(b->verdict.kind, AR_V_TLE);
    assert_string_equal(b->verdict.clock, "input");
    /* about 64 KiB sit in the pipe, 256 KiB in the queue */
    assert_in_range(sent, 256, 400);
    ar_bot_free(b);
}

/* A Decision that cannot be delivered: the hard ceiling runs from when it was queued. */
static void test_bot_write_stall(void **state)
{
    fixture *f = *state;
    char path[PATH_MAX];
    if (helper_path("noread", path, sizeof path) < 0)
        skip();
    char *const argv[] = {path, NULL};
    ar_clocks c = {2000, 50, 0, 200};
    ar_bot *b = new_bot(f, path, argv, c, 0);
    assert_int_equal(ar_bot_start(b, hello_msg()), 0);
    wait_while(f, b, AR_BOT_HELLO, AR_BOT_IDENTIFIED);
    Okrpb__Bye bye = OKRPB__BYE__INIT;
    char text[1000];
    memset(text, 'y', sizeof text - 1);
    text[sizeof text - 1] = '\0';
    bye.reason = text;
    Okrpb__ToBot tb = OKRPB__TO_BOT__INIT;
    tb.msg_case = OKRPB__TO_BOT__MSG_BYE;
    tb.bye = &bye;
    while (b->out.len == b->out_off) /* fill the pipe */
        assert_int_equal(ar_bot_send(b, &tb), 0);
    Okrpb__Decision d = OKRPB__DECISION__INIT;
    d.id = 1;
    Okrpb__ToBot dm = OKRPB__TO_BOT__INIT;
    dm.msg_case = OKRPB__TO_BOT__MSG_DECISION;
    dm.decision = &d;
    double t0 = ar_now_ms();
    assert_int_equal(ar_bot_decide(b, &dm, 1, 0), 0);
    assert_int_equal(b->state, AR_BOT_THINKING);
    assert_true(b->written_at == 0);
    wait_while(f, b, AR_BOT_THINKING, -1);
    double took = ar_now_ms() - t0;
    assert_int_equal(b->state, AR_BOT_FAILED);
    assert_int_equal(b->verdict.kind, AR_V_TLE);
    assert_string_equal(b->verdict.clock, "input");
    assert_true(took >= 190 && took < 1500);
    ar_bot_free(b);
}

/* A bot that left a child behind in its process group: failing the bot kills both. */
static void test_bot_group_killed(void **state)
{
    fixture *f = *state;
    char path[PATH_MAX];
    if (helper_path("fork", path, sizeof path) < 0)
        skip();
    char *const argv[] = {path, NULL};
    ar_bot *b = new_bot(f, path, argv, quick, 0);
    assert_int_equal(ar_bot_start(b, hello_msg()), 0);
    wait_while(f, b, AR_BOT_HELLO, AR_BOT_IDENTIFIED);
    assert_int_equal(b->state, AR_BOT_READY);
    pid_t pgid = b->pid;
    assert_int_equal(group_members(pgid), 2);
    ar_bot_fail(b, AR_V_PE, "", "", "test");
    assert_int_equal(b->state, AR_BOT_FAILED);
    for (int i = 0; i < 200 && group_members(pgid) > 0; i++) {
        ar_loop_reap(f->loop);
        usleep(5000);
    }
    assert_int_equal(group_members(pgid), 0);
    assert_string_equal(b->verdict.detail, "test");
    ar_bot_fail(b, AR_V_RE, "", "", "second"); /* the first verdict stays */
    assert_string_equal(b->verdict.detail, "test");
    ar_bot_free(b);
}

/* A crash is RE with the right signal, even while idle. */
static void test_bot_exit_status(void **state)
{
    fixture *f = *state;
    char *const argv[] = {"/bin/sh", "-c", "kill -SEGV $$", NULL};
    ar_bot *b = new_bot(f, "/bin/sh", argv, quick, 0);
    assert_int_equal(ar_bot_start(b, hello_msg()), 0);
    wait_while(f, b, AR_BOT_HELLO, AR_BOT_IDENTIFIED);
    assert_int_equal(b->state, AR_BOT_FAILED);
    assert_int_equal(b->verdict.kind, AR_V_RE);
    assert_string_equal(b->verdict.detail, "killed by signal 11 (SIGSEGV) before Ready");
    ar_bot_free(b);

    char *const argv2[] = {"/bin/sh", "-c", "exec 1>&-; sleep 5", NULL};
    b = new_bot(f, "/bin/sh", argv2, quick, 0);
    assert_int_equal(ar_bot_start(b, hello_msg()), 0);
    wait_while(f, b, AR_BOT_HELLO, AR_BOT_IDENTIFIED);
    assert_int_equal(b->verdict.kind, AR_V_RE);
    assert_string_equal(b->verdict.detail, "closed its output (stdout) but did not exit");
    ar_bot_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_child_fds),
        cmocka_unit_test(test_child_signals_and_group),
        cmocka_unit_test(test_exec_failure),
        cmocka_unit_test(test_cpu_clock),
        cmocka_unit_test_setup_teardown(test_bot_missing_program, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bot_handshake_and_bye, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bot_startup_clock, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bot_queue_bound, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bot_write_stall, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bot_group_killed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bot_exit_status, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
