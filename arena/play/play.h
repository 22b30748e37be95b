/* play.h - the two faces of a human seat (seat.h): a page served on 127.0.0.1 (web.h) and a
 * terminal. Both show only what the seat was told and offer only the waiting Decision's legal
 * actions, answered by index with the Decision's id (an old or replayed answer is refused and
 * changes nothing). */
#ifndef AP_PLAY_H
#define AP_PLAY_H

#include <stdio.h>

#include "seat.h"

/* ---- Browser ---- */

typedef struct ap_browser ap_browser;

/* Serve the seat on 127.0.0.1:port (0: any free port). Routes: GET / (the page), GET /state
 * (the seat's JSON and "polls", the long polls held; ?since=VERSION waits up to 20 s for a
 * newer one, at most 64 at once: 503 beyond), POST /act {"id": "<decision id>", "index": N} or
 * {"id": ..., "move": "<the move in the notation>"} (200; 409 for a Decision that is not the
 * waiting one or when none waits; 403 for an optional "seat" that is not this one; 422
 * {"error", "rule", "reason"} for a move the engine refuses, with its RULES number; 400 for
 * anything else; a refusal changes nothing), POST /check {"id", "move"} (what /act would do with
 * the move, changing nothing: 200 {"ok": true, "index"} or {"ok": false, "error", "rule",
 * "reason"}; the page asks it before sending a typed move), POST /quit (leave the game). NULL with
 * a message in err. */
ap_browser *ap_browser_new(struct event_base *base, ap_seat *seat, int port, char *err, size_t cap);
/* The same on a socket from aw_listen (web.h), made before the sandbox moved the arena into
 * its empty network namespace. */
ap_browser *ap_browser_new_fd(struct event_base *base, ap_seat *seat, int listen_fd, char *err,
                              size_t cap);
void ap_browser_free(ap_browser *b);
/* A page that was opened and then asks nothing for seconds (and holds no long poll) was
 * closed: the seat is gone, the human's TLE (ap_seat_gone). 0: never (the default). */
void ap_browser_set_page_timeout(ap_browser *b, double seconds);
/* The URL with the token, to print. */
void ap_browser_url(const ap_browser *b, char *out, size_t cap);

/* ---- Terminal ---- */

typedef struct ap_tty ap_tty;

/* Read commands from in_fd (lines) and draw the table on out after every change, with ANSI
 * colours if colour. Commands: a number from the list, a move in the notation ("discard qs"),
 * help, quit. End of input (the terminal closed) is the human's timeout (ap_seat_gone). */
ap_tty *ap_tty_new(struct event_base *base, ap_seat *seat, int in_fd, FILE *out, int colour);
void ap_tty_free(ap_tty *t);

#endif
