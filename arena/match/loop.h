/* loop.h - the match's one libevent loop: the event_base, SIGCHLD/SIGINT/SIGTERM as events,
 * and the reaping of children (waitpid(-1, WNOHANG) until none is left, with their rusage).
 * Everything else (pipes, timers) registers its own events on ar_loop_base(). */
#ifndef AR_LOOP_H
#define AR_LOOP_H

#include <sys/resource.h>
#include <sys/types.h>

struct event_base;

typedef struct ar_loop ar_loop;

/* Called once when a watched child has been reaped. status is waitpid's; ru its rusage. The
 * watch is gone when the callback runs. */
typedef void (*ar_exit_cb)(pid_t pid, int status, const struct rusage *ru, void *ud);

/* A new loop. Ignores SIGPIPE for the whole process (a bot closing its stdin must give EPIPE,
 * not kill the arena) and turns SIGCHLD, SIGINT and SIGTERM into loop events. NULL if libevent
 * fails. */
ar_loop *ar_loop_new(void);
/* The same; precise 0: timers on libevent's default clock (CLOCK_MONOTONIC_COARSE, a kernel
 * tick behind), for a loop whose timers are only the clocks' limits (a match without pace).
 * The precise clock costs a timerfd_settime per wait that has a timer pending, one per
 * decision; ar_loop_new is precise 1, which the pace's wait needs (loop.c). */
ar_loop *ar_loop_new_timers(int precise);
/* Frees the loop (accepts NULL). Events other modules registered must be freed before. */
void ar_loop_free(ar_loop *l);

struct event_base *ar_loop_base(ar_loop *l);

/* Call cb when pid is reaped. Returns 0. A pid reaped without a watch is just reaped. */
int ar_loop_watch(ar_loop *l, pid_t pid, ar_exit_cb cb, void *ud);
/* Forget the watch of pid (the child is still reaped when it exits). */
void ar_loop_unwatch(ar_loop *l, pid_t pid);
/* Number of watched children not yet reaped. */
int ar_loop_watching(const ar_loop *l);

/* Run one iteration: wait for at least one event (or a timer) and dispatch what is ready.
 * Returns 0, or -1 when libevent has nothing to wait for (a bug in the caller). */
int ar_loop_once(ar_loop *l);
/* Dispatch what is ready now without waiting. */
void ar_loop_poll(ar_loop *l);

/* Reap every exited child now (also done on SIGCHLD). Returns 1 if children of ours (watched
 * or not: adopted descendants of bots too) are still running, 0 if there are none. */
int ar_loop_reap(ar_loop *l);

/* The signal (SIGINT or SIGTERM) that asked us to stop, or 0. */
int ar_loop_interrupted(const ar_loop *l);

#endif
