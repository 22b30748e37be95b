/* live.h - the spectator server of `arena tournament --serve` and `arena match --serve`
 * (docs/live.md): a page on 127.0.0.1 that follows a run as it is played.
 *
 * Many viewers must not slow the games, so the server is never called from the game loop: it
 * runs in a process of its own, forked before the run, and only reads what the run writes
 * anyway (journal.jsonl or games.jsonl, the records as they are written out every 100 ms, and
 * results.json at the end). The arena keeps no thread for it: a tournament forks its set
 * workers, and a fork across another thread can leave a lock held forever in the child.
 * Every change becomes one JSON snapshot, built once and sent as the same bytes to every
 * viewer that long-polls for it. Moves are released to viewers `delay` seconds after the
 * server first saw them, so a viewer cannot help a seat in real time. */
#ifndef AL_LIVE_H
#define AL_LIVE_H

#include <stddef.h>

typedef struct al_opts {
    const char *dir;   /* the run's output folder (may not exist yet) */
    const char *kind;  /* "tournament" or "match" */
    const char *title; /* shown on the page */
    int port;          /* 0: any free port */
    double delay_s;    /* moves are shown this long after they were played, >= 0 */
} al_opts;

typedef struct al_server al_server;

/* Bind 127.0.0.1:port (before the arena leaves its network namespace: a socket keeps the
 * namespace it was made in) and draw a random token; nothing is served yet. NULL with the
 * reason in err. */
al_server *al_bind(const al_opts *o, char *err, size_t cap);
/* Start the server process (once the run's folder holds nothing stale, before the run): it
 * takes the socket (closed here), dies with the arena, and serves until al_stop. Returns 0, or
 * -1 with the reason in err. */
int al_start(al_server *s, char *err, size_t cap);
/* http://127.0.0.1:PORT/?t=TOKEN: the only way in (okr_web's token, web/web.h). */
const char *al_url(const al_server *s);
/* Block until SIGINT or SIGTERM, or for at most seconds (< 0: no limit), or until the server
 * process ends (said on stderr when it failed), while it goes on serving the finished run. */
void al_linger(al_server *s, double seconds);
/* Stop the server process (SIGTERM, SIGKILL after 2 s) and reap it, close the socket if it
 * was never started, free. Accepts NULL. */
void al_stop(al_server *s);

/* ---- For tests (tests/live) -------------------------------------------------------------- */

/* A game id from ?game=: [A-Za-z0-9_.-], 1 to AL_MAX_ID-1 characters, not starting with a dot
 * and without "..", so that RUN/records/ID.jsonl never leaves the run's folder. */
enum { AL_MAX_ID = 128 };
int al_game_id_ok(const char *id);

#endif
