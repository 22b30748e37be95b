/* lweb.h - the league's web face (docs/league.md, "The web face"): `arena league run DIR
 * --serve [ADDR:]PORT`. A server process of its own (as the live server: the league's run
 * forks its set workers, and no thread may be forked across), reading league.db on a read-only
 * connection, so that viewers never slow the league: the leaderboard, a page per entrant, the
 * authors' sign-in, their bots' games as their seat saw them and their logs, submissions of new
 * versions, and the host's page. `lw_export` writes the public pages as static files.
 *
 * Everything a browser sends is hostile: okr_web checks Host, Origin, methods and sizes before
 * any handler runs; here every page checks who is signed in (an author's secret from its
 * HttpOnly, SameSite=Strict cookie, hashed and compared in constant time against league.db)
 * and every POST must carry this server's Origin. */
#ifndef LW_LWEB_H
#define LW_LWEB_H

#include <stddef.h>

#include "jail/sandbox.h"

typedef struct lw_opts {
    const char *dir;     /* the league's folder */
    const char *addr;    /* NULL: 127.0.0.1; else an IPv4 address to listen on */
    const char *host;    /* NULL, or the name browsers reach it by (a TLS proxy's), for the Host
                            check */
    int port;            /* 0: any free port */
    size_t max_upload;   /* bytes of an upload (0: 8 MiB) */
    const char *uploads; /* NULL: DIR-uploads beside DIR (a bot's files may not lie in the
                            league's folder, whose records hold whole deals) */
} lw_opts;

typedef struct lw_server lw_server;

/* Bind (before the sandbox takes the network), make the authors' tables and the host's secret
 * (DIR/host.token, 0600) and write DIR/web.url. NULL with the reason in err. */
lw_server *lw_bind(const lw_opts *o, char *err, size_t cap);
/* How the builds of uploaded archives are confined (the run's sandbox, once set up). */
void lw_set_sandbox(lw_server *s, const ar_sandbox_cfg *sb);
/* Start the server process. 0, or -1 with the reason in err. */
int lw_start(lw_server *s, char *err, size_t cap);
/* The base URL ("http://127.0.0.1:PORT") and the host's sign-in link. */
const char *lw_url(const lw_server *s);
const char *lw_host_link(const lw_server *s);
/* Stop the server process and free. Accepts NULL. */
void lw_stop(lw_server *s);

/* `arena league export DIR -o SITE`: the public pages (leaderboard, one page per entrant) as
 * static files in SITE. Returns an exit status (printed). */
int lw_export(const char *dir, const char *site);

/* For tests and the fuzzer: a game id ([A-Za-z0-9_.-], no leading dot, no "..") and a log
 * file name (sN-slotN-LABEL.log) with its label into label. */
int lw_game_id_ok(const char *id);
int lw_log_label(const char *file, char *label, size_t cap);

#endif
