/* view.h - pages for people: the replay viewer (one self-contained HTML file per game, as the
 * referee or as one seat saw it) and the report of a match, tournament or merge folder (html,
 * md, text or json). Reads records and results files; writes files; plays nothing.
 * Formats and every part of the pages: docs/report.md. */
#ifndef AV_VIEW_H
#define AV_VIEW_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/* ---- The replay page -------------------------------------------------------------------- */

enum { AV_SPECTATOR = -1 };

/* The clocks a game was played with, when known (from the folder's results.json), so the page
 * can show each seat's bank; 0 fields mean unknown. */
typedef struct av_clocks {
    double decision_ms, bank_ms;
} av_clocks;

typedef struct av_replay_opts {
    int seat;         /* AV_SPECTATOR: every hand; else only what this seat knew (RULES 8.3) */
    const char *base; /* file name stem of the sibling views ("m1-d0-r0"): the page links
                         base.html and base.seatK.html; NULL: no links */
    const char *back; /* a link back to the report ("../report.html"), or NULL */
    const char *back_label; /* what that link says ("report" when NULL) */
    av_clocks clocks;
    int partial; /* a game in progress (arena/live): a record without its result line is
                    drawn up to its last action instead of refused */
    int no_seed; /* 1: the referee's page without the deal's seed, and the game id without
                    the run's seed (av_public_id) (arena/live: during a tournament a spectator
                    with the seeds could work out the deals of the games not played yet); the
                    seat pages never show either */
    int publish; /* 1: a page for `arena report --publish`: absolute paths in a verdict's
                    detail are shortened (av_scrub_paths) */
} av_replay_opts;

/* Replay the record at path with the engine and write its page to out. Checks every hand end
 * against the record, as `arena replay` does. Returns 0, or -1 with a message
 * ("FILE:LINE: why") in err. */
int av_replay_html(const char *path, const av_replay_opts *o, FILE *out, char *err, size_t cap);

/* The clocks of a match, tournament or merge folder (results.json), or zeros. */
av_clocks av_folder_clocks(const char *dir);

/* ---- The report ------------------------------------------------------------------------- */

enum { AV_FMT_TEXT = 0, AV_FMT_MD, AV_FMT_HTML, AV_FMT_JSON };

typedef struct av_report_opts {
    int format;             /* AV_FMT_* */
    const char *replays;    /* html: folder of the replay pages, relative to the report
                               ("replays"), or NULL for no links */
    const char *replays_fs; /* the same folder as this process finds it: a game is linked
                               only if its page is there */
    long long max_games;    /* html: games listed (the rest are counted, not listed) */
    const char *log_dir;    /* html: the logs folder relative to the report ("logs"), or NULL */
    int no_seed;            /* game ids without the run's seed (av_public_id), for arena/live */
    int publish;            /* `arena report --publish`: no seed, verdict details without
                               absolute paths, and the handouts below listed */
    const struct av_handout *handouts; /* [nhandouts]: each entrant's folder, or NULL */
    int nhandouts;
    long long total_bytes; /* the published folder's size, this page included */
} av_report_opts;

/* One entrant's handout in a published report: its folder (relative to the report), the
 * pages in it and their size in bytes. */
typedef struct av_handout {
    const char *name, *folder;
    long long pages, bytes;
} av_handout;

/* Write the report of folder dir (results.json, games.jsonl, timings.jsonl) to out. Returns
 * 0, or -1 with a message ("FILE:LINE: why" where it applies) in err. */
int av_report(const char *dir, const av_report_opts *o, FILE *out, char *err, size_t cap);

/* ---- The marks (marks.c) ------------------------------------------------------------------ */

/* What an entrant's rating does not say, shown in its row on every page (docs/report.md, "The
 * marks"): from a results.json standing (tournament) or bot (match), as the arena wrote it. */
typedef struct av_marks {
    int never_played;      /* a verdict in every game and not one decision answered */
    int disqualified;      /* DQ: disqualified in a set, or errors past max_error_share */
    long long error_games; /* games with a verdict against it */
    long long games;       /* its games */
    long long forfeits;    /* games it forfeited */
    long long substituted; /* moves the arena played for it; -1: not known */
} av_marks;

/* The marks of a standing or bot object (substituted from a match's substituted_actions; a
 * tournament's standings have none: -1 until the caller counts games.jsonl's). */
void av_marks_read(const json_t *row, av_marks *m);

/* The marks as text, ", "-separated, in this order: "never played" (unless skip_never),
 * "DQ (errors in N of M)", "N forfeits", "N moves substituted"; "" when there is none.
 * Returns the length written. */
size_t av_marks_text(const av_marks *m, int skip_never, char *buf, size_t cap);

/* ---- Publishing (marks.c) ------------------------------------------------------------------ */

/* Copy s into buf with every absolute path shortened to ".../" and its last part (a verdict's
 * detail may quote the bot's stderr: 'File "/home/ann/bot.py", line 3'), for pages that leave
 * the machine. A path is a '/' that starts s or follows a space, quote, bracket, '=', ':' or
 * ','. */
void av_scrub_paths(const char *s, char *buf, size_t cap);

/* ---- Shared by the two pages (html.c) ---------------------------------------------------- */

/* A game id without the run's seed: "t<seed>-s1-d0-T0-r1" (a tournament's), "m<seed>-d0-r1"
 * (a match's) and "L<seed>-s12-r1" (a league's) name the seed they were dealt from, which a
 * spectator must not learn while games remain to be played; what follows the seed ("s1-d0-T0-r1",
 * "d0-r1") is unique within the run. Any other id is returned as it is. Points into id. */
const char *av_public_id(const char *id);

/* Write s HTML-escaped (& < > " '). */
void av_html_text(FILE *out, const char *s);
/* Write a JSON value for a <script type="application/json"> block: compact, with every '<',
 * '>' and '&' written as \u003c ... so no string in it can close the script element. Returns 0
 * or -1. */
int av_json_script(FILE *out, const json_t *json);
/* Write template tmpl (len bytes), calling fill(ctx, out, NAME) for every @NAME@ in it
 * (NAME: capitals and _); a '@' not followed by NAME@ is written as is. Returns 0 or the
 * first non-zero value fill returned. */
int av_template(FILE *out, const unsigned char *tmpl, unsigned long len,
                int (*fill)(void *ctx, FILE *out, const char *name), void *ctx);

/* ---- The table drawing every page shares -------------------------------------------------- */

/* Write assets/table.js (the script that draws cards, seats, melds, the pile, the stock and a
 * hand's scoring; it defines the global okrTable) or assets/table.css (its style), for a page
 * that draws a table: the replay page and the play page (arena/play) inline them, so a card
 * looks the same on both. */
void av_write_table_js(FILE *out);
void av_write_table_css(FILE *out);

#endif
