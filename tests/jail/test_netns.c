/* test_netns.c - the network's second layer, with the first one (the filter's refusal of
 * socket()) switched off: jailed Python helpers without a seccomp filter try to reach each other
 * and the arena through abstract unix sockets, and the host through TCP on loopback.
 *
 * Where Landlock scopes abstract sockets (ABI 6), ar_spawn_share_netns moves this process into
 * one empty network namespace that every jail shares (docs/sandbox.md; not as root, in a user
 * namespace of its own);
 * the helpers are then in the same namespace as the arena, and Landlock refuses every connect
 * outside their own domain with EPERM. Elsewhere each jail has its own namespace, where nothing
 * listens (ECONNREFUSED); `jail_test_netns --per-bot` tests that path on any host. Either
 * way nothing connects, and loopback is unreachable.
 * The control: the same helpers as plain processes (mode off) in the same namespace DO connect,
 * so a helper that could not connect for another reason would fail the test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "jail/sandbox.h"
#include "jail/spawn.h"
#include "util/util.h"

/* listen NAME: bind @NAME, print "listening", accept for ever, printing "accepted" each time.
 * connect NAME...: print "connect NAME RESULT" for each (RESULT "ok" or the errno's name),
 * then "tcp RESULT" for 127.0.0.1:PORT (argv's last word), "netns ID", and exit. */
static const char helper_py[] =
    "import errno, os, socket, sys\n"
    "def res(f):\n"
    "    try:\n"
    "        f(); return 'ok'\n"
    "    except OSError as e:\n"
    "        return errno.errorcode.get(e.errno, str(e.errno))\n"
    "print('netns', os.readlink('/proc/self/ns/net'), flush=True)\n"
    "if sys.argv[1] == 'listen':\n"
    "    s = socket.socket(socket.AF_UNIX); s.bind('\\0' + sys.argv[2]); s.listen(8)\n"
    "    print('listening', flush=True)\n"
    "    while True:\n"
    "        s.accept(); print('accepted', flush=True)\n"
    "for n in sys.argv[2:-1]:\n"
    "    print('connect', n, res(lambda: socket.socket(socket.AF_UNIX).connect('\\0' + n)),"
    " flush=True)\n"
    "port = int(sys.argv[-1])\n"
    "print('tcp', res(lambda: socket.create_connection(('127.0.0.1', port), 2)), flush=True)\n";

static ar_sb_caps caps;
static int shared;  /* ar_spawn_share_netns said 1 */
static int per_bot; /* --per-bot: do not share */
static char python[4096], name_arena[64], name_a[64], self_ns[64];

static int setup(void **state)
{
    (void)state;
    signal(SIGPIPE, SIG_IGN);
    ar_sandbox_probe(&caps);
    if (ar_spawn_resolve_in("python3", AR_JAIL_PATH, python, sizeof python) < 0)
        return -1;
    char why[256] = "a network namespace per bot (--per-bot)";
    shared = per_bot ? 0 : ar_spawn_share_netns(why, sizeof why);
    print_message("mode %s; network: %s\n", ar_sb_mode_name(caps.mode), why);
    ssize_t n = readlink("/proc/self/ns/net", self_ns, sizeof self_ns - 1);
    if (n <= 0)
        return -1;
    self_ns[n] = '\0';
    snprintf(name_arena, sizeof name_arena, "okr-l2-%d-arena", (int)getpid());
    snprintf(name_a, sizeof name_a, "okr-l2-%d-a", (int)getpid());
    return 0;
}

typedef struct helper {
    ar_proc p;
    char out[4096];
    size_t len;
} helper;

static void start(helper *h, int jailed, char **argv)
{
    memset(h, 0, sizeof *h);
    ar_jail_view view = {.path = python, .argv = argv, .runtime = 1};
    char **binds = ar_spawn_jail_view(&view, NULL);
    ar_jail j = {.mode = caps.mode,
                 .userns = caps.userns,
                 .filter = NULL, /* the first layer off */
                 .profile = "interpreted",
                 .mem_bytes = (uint64_t)256 << 20,
                 .binds = binds};
    ar_spawn_opts o = {.path = python, .argv = argv, .jail = jailed ? &j : NULL};
    char err[512];
    if (ar_spawn_start(&o, &h->p, err, sizeof err) < 0)
        fail_msg("spawn: %s", err);
    ar_spawn_argv_free(binds);
}

/* Read the helper's stdout until `want` appears or it closes (at most ms milliseconds). */
static int wait_for(helper *h, const char *want, double ms)
{
    double end = ar_now_ms() + ms;
    while (!strstr(h->out, want) && ar_now_ms() < end) {
        struct pollfd pf = {h->p.out_fd, POLLIN, 0};
        if (poll(&pf, 1, 100) <= 0)
            continue;
        ssize_t n = read(h->p.out_fd, h->out + h->len, sizeof h->out - 1 - h->len);
        if (n < 0 && (errno == EAGAIN || errno == EINTR))
            continue;
        if (n <= 0)
            break;
        h->len += (size_t)n;
        h->out[h->len] = '\0';
    }
    return strstr(h->out, want) != NULL;
}

static void stop(helper *h)
{
    ar_spawn_kill(h->p.pid);
    int st;
    while (waitpid(h->p.pid, &st, __WALL) < 0 && errno == EINTR)
        ;
    close(h->p.in_fd);
    close(h->p.out_fd);
    close(h->p.err_fd);
    if (h->p.status_fd >= 0)
        close(h->p.status_fd);
}

/* A listening abstract socket of the arena's (this process's). */
static int arena_listener(void)
{
    int u = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    assert_true(u >= 0);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    size_t n = strlen(name_arena);
    memcpy(a.sun_path + 1, name_arena, n);
    assert_int_equal(
        bind(u, (struct sockaddr *)&a, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n)),
        0);
    assert_int_equal(listen(u, 8), 0);
    return u;
}

/* Helper a listens on its abstract socket, then helper b tries a's, the arena's and loopback;
 * both jailed or both plain. Returns when b has reported everything. */
static void start_pair(int jailed, helper *a, helper *b)
{
    char port[] = "9"; /* discard: loopback is down in every namespace a jail is in */
    char *argv_a[] = {"python3", "-c", (char *)helper_py, "listen", name_a, NULL};
    start(a, jailed, argv_a);
    assert_true(wait_for(a, "listening", 20000));
    char *argv_b[] = {"python3", "-c", (char *)helper_py, "connect", name_a, name_arena,
                      port,      NULL};
    start(b, jailed, argv_b);
    assert_true(wait_for(b, "tcp ", 20000));
}

/* b's line "connect NAME RESULT" */
static void want_connect(const helper *b, const char *name, const char *result)
{
    char line[128];
    snprintf(line, sizeof line, "connect %s %s\n", name, result);
    if (!strstr(b->out, line))
        fail_msg("want \"%s\" in:\n%s", line, b->out);
}

static void test_jailed_helpers_reach_nothing(void **state)
{
    (void)state;
    if (caps.mode < AR_SB_ROOTLESS) {
        print_message("no namespaces here (%s): nothing to test\n", ar_sb_mode_name(caps.mode));
        skip();
    }
    int u = arena_listener();
    helper a, b;
    start_pair(1, &a, &b);

    /* the namespace: the arena's own when shared, another one otherwise */
    char line[128];
    snprintf(line, sizeof line, "netns %s\n", self_ns);
    if (shared)
        assert_non_null(strstr(b.out, line));
    else
        assert_null(strstr(b.out, line));

    /* the other bot and the arena: refused, with Landlock's EPERM when shared */
    const char *refused = shared ? "EPERM" : "ECONNREFUSED";
    want_connect(&b, name_a, refused);
    want_connect(&b, name_arena, refused);
    if (!strstr(b.out, "tcp ENETUNREACH\n"))
        fail_msg("want loopback unreachable in:\n%s", b.out);
    /* nothing arrived */
    assert_int_equal(accept(u, NULL, NULL), -1);
    assert_int_equal(errno, EAGAIN);
    assert_false(wait_for(&a, "accepted", 300));

    stop(&a);
    stop(&b);
    close(u);
}

/* The control: plain processes in this (possibly shared) namespace connect to each other and
 * to the arena, so the jailed refusals above are the jail's doing. */
static void test_plain_helpers_connect(void **state)
{
    (void)state;
    int u = arena_listener();
    helper a, b;
    start_pair(0, &a, &b);
    want_connect(&b, name_a, "ok");
    want_connect(&b, name_arena, "ok");
    assert_true(wait_for(&a, "accepted", 20000));
    int c = accept(u, NULL, NULL);
    assert_true(c >= 0);
    close(c);
    stop(&a);
    stop(&b);
    close(u);
}

int main(int argc, char **argv)
{
    per_bot = argc > 1 && strcmp(argv[1], "--per-bot") == 0;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jailed_helpers_reach_nothing),
        cmocka_unit_test(test_plain_helpers_connect),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
