/* bench_view.c - what the visible-set check costs (ar_spawn_jail_view, docs/sandbox.md "What a
 * bot sees") for a bot whose declared folder holds many files:
 *   bench_view DIR [FILES [ROUNDS]]
 * makes DIR/bots/alice with FILES empty files (default 10000, in folders of 100) beside
 * DIR/class.tour and DIR/bots/bob/bob (hidden from alice), then times the check as every bot
 * start runs it (ROUNDS times, default 200: p50 and p90 in ms) and, where the jail has it, the
 * deep check a run makes once at its start (ar_jail_view.deep: mount points, hard links, the
 * folders listed): its first call in this process, then ROUNDS more (the folders in the page
 * cache by then). The check at every start is timed last. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "jail/spawn.h"

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void touch(const char *p)
{
    int fd = open(p, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        perror(p);
        exit(1);
    }
    close(fd);
}

static double time_view(ar_jail_view *v)
{
    ar_jail_clash c;
    double t0 = now_ms();
    char **b = ar_spawn_jail_view(v, &c);
    double t = now_ms() - t0;
    if (!b) {
        fprintf(stderr, "bench_view: refused: %s\n", c.shown);
        exit(1);
    }
    ar_spawn_argv_free(b);
    return t;
}

static void report(const char *what, double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, cmp_d);
    printf("%-44s p50 %8.3f ms  p90 %8.3f ms  (%d calls)\n", what, t[n / 2], t[n * 9 / 10], n);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_view DIR [FILES [ROUNDS]]\n");
        return 2;
    }
    const char *dir = argv[1];
    if (strlen(dir) > 1000) {
        fprintf(stderr, "bench_view: DIR too long\n");
        return 2;
    }
    int files = argc > 2 ? atoi(argv[2]) : 10000, rounds = argc > 3 ? atoi(argv[3]) : 200;
    char p[8192], alice[2048], tour[2048], bob[2048], prog[2048];
    snprintf(alice, sizeof alice, "%s/bots/alice", dir);
    snprintf(tour, sizeof tour, "%s/class.tour", dir);
    snprintf(bob, sizeof bob, "%s/bots/bob", dir);
    snprintf(prog, sizeof prog, "%s/bots/alice/bot", dir);
    snprintf(p, sizeof p, "%s/bots", dir);
    mkdir(dir, 0755);
    mkdir(p, 0755);
    mkdir(alice, 0755);
    mkdir(bob, 0755);
    touch(tour);
    touch(prog);
    snprintf(p, sizeof p, "%s/bob", bob);
    touch(p);
    struct stat st;
    snprintf(p, sizeof p, "%s/d%d/f%d", alice, (files - 1) / 100, files - 1);
    if (stat(p, &st) < 0)
        for (int i = 0; i < files; i++) {
            if (i % 100 == 0) {
                snprintf(p, sizeof p, "%s/d%d", alice, i / 100);
                mkdir(p, 0755);
            }
            snprintf(p, sizeof p, "%s/d%d/f%d", alice, i / 100, i);
            touch(p);
        }
    char *argv_bot[] = {prog, NULL};
    char *own[] = {alice, NULL};
    char out[4096];
    snprintf(out, sizeof out, "%s/results", dir);
    char *hide[] = {tour, out, bob, NULL};
    ar_jail_view v = {.path = prog, .argv = argv_bot, .cwd = dir, .own = own, .hide = hide};
    double *t = calloc((size_t)rounds, sizeof *t);
    printf("a declared folder of %d files\n", files);
#ifndef OKR_VIEW_OLD /* built against the jail before the deep check: -DOKR_VIEW_OLD */
    v.deep = 1;
    double first = time_view(&v);
    printf("%-44s      %8.3f ms\n", "deep check at a run's start, first call", first);
    for (int i = 0; i < rounds; i++) {
        ar_spawn_view_forget(); /* as at a run's start: the folders listed again */
        t[i] = time_view(&v);
    }
    report("deep check at a run's start, again", t, rounds);
    v.deep = 0;
#endif
    for (int i = 0; i < rounds; i++)
        t[i] = time_view(&v);
    report("check at every bot start", t, rounds);
    free(t);
    return 0;
}
