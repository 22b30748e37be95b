/* loop.c - one libevent base per match, signals as events, child reaping. Signals are
 * delivered by libevent's self-pipe, so every callback here runs in normal context. */
#include "loop.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <event2/event.h>

#include "jail/spawn.h"
#include "util/util.h"

typedef struct watch {
    pid_t pid;
    ar_exit_cb cb;
    void *ud;
} watch;

/* Invariant: watches[0..nwatch) are children not reaped yet, each pid at most once. */
struct ar_loop {
    struct event_base *base;
    struct event *ev_chld, *ev_int, *ev_term;
    watch *watches;
    int nwatch, capwatch;
    int interrupted; /* SIGINT or SIGTERM once received */
};

static void on_chld(evutil_socket_t sig, short what, void *ud)
{
    (void)sig;
    (void)what;
    (void)ar_loop_reap(ud);
}

static void on_stop(evutil_socket_t sig, short what, void *ud)
{
    (void)what;
    ar_loop *l = ud;
    if (!l->interrupted)
        l->interrupted = (int)sig;
    event_base_loopbreak(l->base);
}

ar_loop *ar_loop_new(void)
{
    return ar_loop_new_timers(1);
}

ar_loop *ar_loop_new_timers(int precise)
{
    ar_loop *l = ar_xcalloc(1, sizeof *l);
    signal(SIGPIPE, SIG_IGN);
    /* precise timers: libevent's default clock on Linux is CLOCK_MONOTONIC_COARSE, one kernel
     * tick (1-10 ms) behind, so a timer fires up to a tick late by an amount that depends on
     * when in the tick it was set. The pace waits on the loop (match.c pace_wait): a lateness
     * that depends on when the previous bot answered would hand its decision time on to the
     * next bot (a 10 ms tick carried 84 of 119 bits through --pace 60 in CI). */
    struct event_config *cfg = event_config_new();
    if (!cfg)
        goto err;
    if (precise)
        event_config_set_flag(cfg, EVENT_BASE_FLAG_PRECISE_TIMER);
    l->base = event_base_new_with_config(cfg);
    event_config_free(cfg);
    if (!l->base)
        goto err;
    l->ev_chld = evsignal_new(l->base, SIGCHLD, on_chld, l);
    l->ev_int = evsignal_new(l->base, SIGINT, on_stop, l);
    l->ev_term = evsignal_new(l->base, SIGTERM, on_stop, l);
    if (!l->ev_chld || !l->ev_int || !l->ev_term || evsignal_add(l->ev_chld, NULL) < 0 ||
        evsignal_add(l->ev_int, NULL) < 0 || evsignal_add(l->ev_term, NULL) < 0)
        goto err;
    /* SIGCHLD only for exits: a bot stopped and continued between its decisions (SIGSTOP,
     * SIGCONT) must not wake the loop twice per decision for nothing. libevent's handler
     * stays; only its flags change. */
    struct sigaction sa;
    if (sigaction(SIGCHLD, NULL, &sa) == 0 && !(sa.sa_flags & SA_NOCLDSTOP)) {
        sa.sa_flags |= SA_NOCLDSTOP;
        sigaction(SIGCHLD, &sa, NULL);
    }
    return l;
err:
    ar_loop_free(l);
    return NULL;
}

void ar_loop_free(ar_loop *l)
{
    if (!l)
        return;
    if (l->ev_chld)
        event_free(l->ev_chld);
    if (l->ev_int)
        event_free(l->ev_int);
    if (l->ev_term)
        event_free(l->ev_term);
    if (l->base)
        event_base_free(l->base);
    free(l->watches);
    free(l);
}

struct event_base *ar_loop_base(ar_loop *l)
{
    return l->base;
}

int ar_loop_watch(ar_loop *l, pid_t pid, ar_exit_cb cb, void *ud)
{
    ar_loop_unwatch(l, pid);
    if (l->nwatch == l->capwatch) {
        l->capwatch = l->capwatch ? 2 * l->capwatch : 16;
        l->watches = ar_xrealloc(l->watches, (size_t)l->capwatch * sizeof *l->watches);
    }
    l->watches[l->nwatch++] = (watch){pid, cb, ud};
    return 0;
}

void ar_loop_unwatch(ar_loop *l, pid_t pid)
{
    for (int i = 0; i < l->nwatch; i++)
        if (l->watches[i].pid == pid) {
            l->watches[i] = l->watches[--l->nwatch];
            return;
        }
}

int ar_loop_watching(const ar_loop *l)
{
    return l->nwatch;
}

int ar_loop_reap(ar_loop *l)
{
    for (;;) {
        int st;
        struct rusage ru;
        memset(&ru, 0, sizeof ru);
        pid_t pid = wait4(-1, &st, WNOHANG, &ru);
        if (pid < 0 && errno == EINTR)
            continue;
        if (pid == 0)
            return 1; /* children left, none exited */
        if (pid < 0)
            return 0; /* ECHILD: no children at all */
        ar_spawn_reaped(pid);
        for (int i = 0; i < l->nwatch; i++)
            if (l->watches[i].pid == pid) {
                watch w = l->watches[i];
                l->watches[i] = l->watches[--l->nwatch];
                if (w.cb)
                    w.cb(pid, st, &ru, w.ud);
                break;
            }
    }
}

int ar_loop_once(ar_loop *l)
{
    int rc = event_base_loop(l->base, EVLOOP_ONCE);
    return rc < 0 || rc == 1 ? -1 : 0;
}

void ar_loop_poll(ar_loop *l)
{
    event_base_loop(l->base, EVLOOP_NONBLOCK);
}

int ar_loop_interrupted(const ar_loop *l)
{
    return l->interrupted;
}
