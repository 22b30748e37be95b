/* cli_bots.h - the entrant list of `arena match` and `arena check-bot`: each --bot command is
 * split without a shell and its program found through PATH here, in the parent, before
 * anything runs; names are derived from the commands and made unique. */
#ifndef AR_CLI_BOTS_H
#define AR_CLI_BOTS_H

#include "match/match.h"

typedef struct ar_cli_bot {
    char *name;    /* NULL until --name or ar_cli_bots_finish */
    char *command; /* as given */
    char **argv;   /* NULL for a built-in */
    char *path;    /* resolved program; NULL for a built-in */
    int builtin;
    ar_policy policy;
    char **own; /* --files PATH after its --bot: declared folders and files; NULL: none */
} ar_cli_bot;

typedef struct ar_cli_bots {
    ar_cli_bot *b;
    int n;
    ar_entrant *e; /* ar_cli_bots_finish: the entrants, pointing into b */
} ar_cli_bots;

/* Add one entrant: "@random" / "@greedy" for a built-in policy, else a command (see
 * ar_spawn_split) whose program must exist. Prints "arena: --bot 'CMD': ..." and returns -1
 * when it cannot be used. */
int ar_cli_bots_add(ar_cli_bots *l, const char *flag, const char *cmd);
/* Name the last entrant added. -1 (printed) if there is none or the name is empty. */
int ar_cli_bots_name(ar_cli_bots *l, const char *name);
/* Declare a folder or file as the last entrant's own (--files PATH): the jail shows it to that
 * bot (docs/sandbox.md). -1 (printed) if there is no entrant, it is a built-in, or PATH does
 * not exist. */
int ar_cli_bots_files(ar_cli_bots *l, const char *path);
/* Refuse (AR_EXIT_USAGE, message printed) a match whose bots would see what they may not:
 * ar_match_view of each bot. AR_EXIT_OK otherwise. */
int ar_cli_bots_check_views(const ar_match_config *cfg);
/* Default names (program or script file name without extension; "@random"), "#2", "#3"...
 * for repeats, then fill l->e. Returns AR_EXIT_OK or AR_EXIT_USAGE (two equal --name). */
int ar_cli_bots_finish(ar_cli_bots *l);
void ar_cli_bots_free(ar_cli_bots *l);

/* A human seat (cli_play.c; docs/play.md): for `arena play` and `arena match --human`. New:
 * the page's socket is made now, before the sandbox may move the arena into an empty network
 * namespace (NULL after printing why); the entrant to seat; end: after ar_match_run and
 * before ar_match_free (shows how the game ended, closes the page), -1 if the page could not
 * be served; free: last. */
typedef struct ar_cli_human ar_cli_human;
ar_cli_human *ar_cli_human_new(int tty, int port, int seat, uint32_t human_ms, uint32_t startup_ms,
                               long long page_timeout_s);
/* --page-timeout's default: a page silent this long (it asks at least every 20 s) was closed */
enum { AR_PAGE_TIMEOUT_S = 90 };
ar_entrant ar_cli_human_entrant(ar_cli_human *h);
int ar_cli_human_end(ar_cli_human *h);
void ar_cli_human_free(ar_cli_human *h);
/* Check a --trace selection after ar_cli_bots_finish: "all", a slot number below `slots`, or
 * the name of an entrant. Returns AR_EXIT_OK, or AR_EXIT_USAGE after saying what it can be. */
int ar_cli_trace_check(const char *sel, const ar_cli_bots *l, int slots);

#endif
