/* bench_lweb.c - serve a league folder's web face (arena/lweb) without playing: for
 * bench/bench_lweb.sh, which times its pages over a synthetic league.db.
 *   build/bench/bench_lweb DIR     prints the URL, serves until SIGTERM or SIGINT */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "lweb/lweb.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: bench_lweb DIR\n");
        return 2;
    }
    char err[512];
    lw_opts o = {.dir = argv[1]};
    lw_server *s = lw_bind(&o, err, sizeof err);
    if (!s || lw_start(s, err, sizeof err) < 0) {
        fprintf(stderr, "bench_lweb: %s\n", err);
        return 1;
    }
    printf("%s\n", lw_url(s));
    fflush(stdout);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    sigprocmask(SIG_BLOCK, &set, NULL);
    int sig;
    sigwait(&set, &sig);
    lw_stop(s);
    return 0;
}
