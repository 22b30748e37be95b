/* bench_spawn.c - what the jail costs at start-up: the same bot started as a plain child
 * (fork + exec, mode off) and in the jail (the best mode this host gives: namespaces, mounts,
 * rlimits, seccomp, cgroup in full mode), rounds interleaved so both see the same machine.
 * Two times per start: spawn to execve (ar_spawn_start returns once the program has exec'ed)
 * and spawn to the bot's Ready (Hello sent, Identify and Ready read). Every process is killed
 * and reaped before the next start.
 *
 *   bench_spawn [--rounds N] [--gap MS] [--netns-per-bot] [--netns-only] BUILD_DIR SOURCE_DIR
 *
 * Bots: BUILD_DIR/bots/random_bot (native) and python3 SOURCE_DIR/bots/random/random_bot.py
 * (interpreted). The jail's time includes making the bot's cgroup (full mode), as in a match.
 * --gap MS: sleep MS before every start, as between matches (a cgroup migration after a pause
 * can wait for an RCU grace period: docs/sandbox.md). --netns-per-bot: do not share one
 * network namespace (ar_spawn_share_netns), create one per jail as where Landlock cannot scope
 * abstract sockets. --netns-only: also time a bare clone(CLONE_NEWNET) + exit + wait.
 * Prints a table: median and p90 in ms per bot and mode, and the ratio jail / plain. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "codec.h"
#include "frame.h"
#include "jail/cgroup.h"
#include "jail/sandbox.h"
#include "jail/seccomp.h"
#include "jail/spawn.h"
#include "okr.pb-c.h"
#include "util/util.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double pct(double *x, int n, double q)
{
    qsort(x, (size_t)n, sizeof *x, cmp_double);
    int k = (int)(q * (n - 1) + 0.5);
    return x[k];
}

/* The Hello frame every start gets. */
static okrpb_buf hello_frame(void)
{
    okrpb_buf b = {0};
    okrpb_arena *pa = okrpb_arena_new();
    okr_rules rules;
    okr_refusal why;
    memset(&why, 0, sizeof why);
    if (!pa || okr_rules_preset(&rules, "gin", &why) != OKR_OK)
        abort();
    Okrpb__Clocks clocks = OKRPB__CLOCKS__INIT;
    clocks.startup_ms = 10000;
    clocks.decision_ms = 1000;
    clocks.hard_ms = 5000;
    Okrpb__Hello hello = OKRPB__HELLO__INIT;
    hello.major = 1;
    hello.match_id = "bench";
    hello.players = 2;
    hello.rules = okrpb_rules_from(pa, &rules);
    hello.clocks = &clocks;
    hello.max_frame = OKRPB_MAX_FROM_BOT;
    hello.bot_name = "bench";
    Okrpb__ToBot tb = OKRPB__TO_BOT__INIT;
    tb.msg_case = OKRPB__TO_BOT__MSG_HELLO;
    tb.hello = &hello;
    if (okrpb_frame_append(&b, &tb.base) < 0)
        abort();
    okrpb_arena_free(pa);
    return b;
}

/* Wait (at most 20 s) for Ready on fd; returns 0 or -1. */
static int wait_ready(int fd)
{
    okrpb_reader rd;
    if (okrpb_reader_init(&rd, OKRPB_MAX_FROM_BOT) < 0)
        abort();
    double end = ar_now_ms() + 20000;
    int rc = -1;
    while (rc < 0 && ar_now_ms() < end) {
        struct pollfd pf = {fd, POLLIN, 0};
        if (poll(&pf, 1, 100) <= 0)
            continue;
        size_t room;
        uint8_t *space = okrpb_reader_space(&rd, &room);
        ssize_t n = read(fd, space, room);
        if (n < 0 && (errno == EAGAIN || errno == EINTR))
            continue;
        if (n <= 0)
            break;
        okrpb_reader_commit(&rd, (size_t)n);
        const uint8_t *msg;
        size_t len;
        while (okrpb_reader_next(&rd, &msg, &len) == OKRPB_FRAME_OK) {
            Okrpb__FromBot *fb = okrpb__from_bot__unpack(NULL, len, msg);
            if (fb && fb->msg_case == OKRPB__FROM_BOT__MSG_READY)
                rc = 0;
            if (fb)
                okrpb__from_bot__free_unpacked(fb, NULL);
        }
    }
    okrpb_reader_free(&rd);
    return rc;
}

typedef struct subject {
    const char *label, *profile;
    char path[4096];
    char *argv[4];
} subject;

/* One start: 0 with the two times, or -1. */
static int one_start(const subject *s, const ar_jail *j, const okrpb_buf *hello, double *exec_ms,
                     double *ready_ms)
{
    ar_proc p;
    char err[512];
    ar_jail jail;
    double t0 = ar_now_ms();
    if (j) {
        /* the bot's cgroup is made at its start, as the arena does (ar_bot's spawn) */
        jail = *j;
        if (jail.mode == AR_SB_FULL &&
            !(jail.cgroup = ar_cgroup_new("bench", jail.mem_bytes, 64, err, sizeof err))) {
            fprintf(stderr, "bench_spawn: cgroup: %s\n", err);
            return -1;
        }
        j = &jail;
    }
    ar_spawn_opts o = {.path = s->path, .argv = s->argv, .jail = j};
    if (ar_spawn_start(&o, &p, err, sizeof err) < 0) {
        fprintf(stderr, "bench_spawn: %s: %s\n", s->label, err);
        if (j)
            ar_cgroup_free(j->cgroup);
        return -1;
    }
    *exec_ms = p.exec_ms;
    int fl = fcntl(p.in_fd, F_GETFL);
    fcntl(p.in_fd, F_SETFL, fl & ~O_NONBLOCK);
    int rc = ar_write_all(p.in_fd, hello->data, hello->len) == 0 ? wait_ready(p.out_fd) : -1;
    *ready_ms = ar_now_ms() - t0;
    ar_spawn_kill(p.pid);
    int st;
    while (waitpid(p.pid, &st, __WALL) < 0 && errno == EINTR)
        ;
    close(p.in_fd);
    close(p.out_fd);
    close(p.err_fd);
    if (p.status_fd >= 0)
        close(p.status_fd);
    if (j)
        ar_cgroup_free(j->cgroup);
    if (rc < 0)
        fprintf(stderr, "bench_spawn: %s: no Ready\n", s->label);
    return rc;
}

/* clone(CLONE_NEWNET [| CLONE_NEWUSER]) + _exit + wait, ms. */
static double bare_netns(int userns)
{
    double t0 = ar_now_ms();
    pid_t pid = (pid_t)syscall(
        SYS_clone, (unsigned long)(CLONE_NEWNET | SIGCHLD | (userns ? CLONE_NEWUSER : 0)), 0, 0, 0,
        0);
    if (pid == 0)
        _exit(0);
    if (pid < 0)
        return -1;
    int st;
    waitpid(pid, &st, 0);
    return ar_now_ms() - t0;
}

int main(int argc, char **argv)
{
    int rounds = 20, netns = 0, share_net = 1, gap_ms = 0;
    const char *build = NULL, *src = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--netns-only") == 0)
            netns = 1;
        else if (strcmp(argv[i], "--netns-per-bot") == 0)
            share_net = 0;
        else if (strcmp(argv[i], "--gap") == 0 && i + 1 < argc)
            gap_ms = atoi(argv[++i]);
        else if (!build)
            build = argv[i];
        else
            src = argv[i];
    }
    if (!build || !src || rounds < 1) {
        fprintf(stderr,
                "usage: bench_spawn [--rounds N] [--gap MS] [--netns-per-bot] [--netns-only] "
                "BUILD_DIR SOURCE_DIR\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    ar_sb_caps caps;
    ar_sandbox_probe(&caps);
    printf("%s\n", caps.summary);
    if (caps.mode < AR_SB_SECCOMP_ONLY) {
        fprintf(stderr, "bench_spawn: no sandbox on this host\n");
        return 1;
    }

    subject subj[2];
    memset(subj, 0, sizeof subj);
    subj[0].label = "C random_bot";
    subj[0].profile = "native";
    snprintf(subj[0].path, sizeof subj[0].path, "%s/bots/random_bot", build);
    subj[0].argv[0] = subj[0].path;
    subj[1].label = "Python random_bot.py";
    subj[1].profile = "interpreted";
    if (ar_spawn_resolve_in("python3", AR_JAIL_PATH, subj[1].path, sizeof subj[1].path) < 0) {
        fprintf(stderr, "bench_spawn: no python3\n");
        return 1;
    }
    static char script[4096];
    snprintf(script, sizeof script, "%s/bots/random/random_bot.py", src);
    subj[1].argv[0] = "python3";
    subj[1].argv[1] = script;

    if (share_net) {
        char why[256];
        ar_spawn_share_netns(why, sizeof why);
        printf("network: %s\n", why);
    }
    okrpb_buf hello = hello_frame();
    printf("%-22s %-11s %8s %8s %8s %8s %7s %7s\n", "bot", "mode", "exec p50", "exec p90",
           "ready50", "ready90", "x exec", "x ready");
    for (int s = 0; s < 2; s++) {
        ar_bpf bpf;
        char err[256];
        if (ar_seccomp_build(subj[s].profile, &bpf, err, sizeof err) < 0) {
            fprintf(stderr, "bench_spawn: %s\n", err);
            return 1;
        }
        ar_jail_view view = {.path = subj[s].path, .argv = subj[s].argv, .runtime = s == 1};
        char **binds = ar_spawn_jail_view(&view, NULL);
        char **env = ar_spawn_jail_sdk_env();
        ar_jail jail = {.mode = caps.mode,
                        .userns = caps.userns,
                        .filter = &bpf,
                        .profile = subj[s].profile,
                        .mem_bytes = (uint64_t)256 << 20,
                        .cpu_s = 3600,
                        .binds = binds,
                        .env_extra = env};
        double *ex[2], *rd[2];
        int n[2] = {0, 0};
        for (int m = 0; m < 2; m++) {
            ex[m] = ar_xcalloc((size_t)rounds, sizeof(double));
            rd[m] = ar_xcalloc((size_t)rounds, sizeof(double));
        }
        for (int r = 0; r < rounds; r++)
            for (int m = 0; m < 2; m++) { /* 0 plain, 1 jail */
                if (gap_ms > 0)
                    usleep((useconds_t)gap_ms * 1000);
                double e, y;
                if (one_start(&subj[s], m ? &jail : NULL, &hello, &e, &y) == 0) {
                    ex[m][n[m]] = e;
                    rd[m][n[m]] = y;
                    n[m]++;
                }
            }
        for (int m = 0; m < 2; m++) {
            if (!n[m])
                continue;
            double e50 = pct(ex[m], n[m], 0.5), e90 = pct(ex[m], n[m], 0.9);
            double r50 = pct(rd[m], n[m], 0.5), r90 = pct(rd[m], n[m], 0.9);
            char xe[16] = "", xr[16] = "";
            if (m == 1 && n[0]) {
                snprintf(xe, sizeof xe, "%.2f", e50 / pct(ex[0], n[0], 0.5));
                snprintf(xr, sizeof xr, "%.2f", r50 / pct(rd[0], n[0], 0.5));
            }
            printf("%-22s %-11s %8.2f %8.2f %8.2f %8.2f %7s %7s\n", subj[s].label,
                   m ? ar_sb_mode_name(caps.mode) : "plain", e50, e90, r50, r90, xe, xr);
        }
        for (int m = 0; m < 2; m++) {
            free(ex[m]);
            free(rd[m]);
        }
        ar_spawn_argv_free(binds);
        ar_spawn_argv_free(env);
        ar_bpf_free(&bpf);
    }
    if (netns) {
        double *t = ar_xcalloc((size_t)rounds, sizeof(double));
        for (int u = 0; u < 2; u++) {
            int k = 0;
            for (int r = 0; r < rounds; r++) {
                double v = bare_netns(u);
                if (v >= 0)
                    t[k++] = v;
            }
            if (k)
                printf("bare clone(CLONE_NEWNET%s)+exit+wait: p50 %.2f ms, p90 %.2f ms\n",
                       u ? "|CLONE_NEWUSER" : "", pct(t, k, 0.5), pct(t, k, 0.9));
        }
        free(t);
    }
    okrpb_buf_free(&hello);
    return 0;
}
