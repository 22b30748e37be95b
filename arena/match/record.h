/* record.h - what a match leaves behind: one JSON-lines record per game
 * (DIR/records/<game_id>.jsonl, replayable with `arena replay`), one line per game in
 * DIR/games.jsonl, and DIR/results.json with per-bot statistics; plus the terminal summary
 * and the small statistics the results need (t-intervals, forfeit placements).
 * Pure bookkeeping: no processes, no protocol. Formats: docs/cli.md "arena match". */
#ifndef AR_RECORD_H
#define AR_RECORD_H

#include <stdint.h>
#include <stdio.h>

#include "bot.h"
#include "okr/okr.h"

/* ---- Statistics ---------------------------------------------------------------------------- */

/* The 0.975 quantile of Student's t with df degrees of freedom (df >= 1): exact to 3
 * decimals from a table up to 30, a Cornish-Fisher expansion above. */
double ar_t975(int df);

/* Mean of x[0..n) and the half width of its two-sided 95% t-interval (sd / sqrt(n) times
 * ar_t975(n - 1)). With n < 2 the half width is NaN (no interval). */
void ar_mean_ci(const double *x, int n, double *mean, double *half);

/* The forfeit margin of a rule set (the arena's Decision, docs/rules.md "Forfeits"): how far
 * below everybody a forfeiting seat scores. Twice what a whole game can be won by, so that
 * giving up never pays however badly the game was going: 2 x (target + winner's bonus) when
 * the game has a target (RULES 7.4, G8: laws 2400, arlington 2000, german 2200, gin 200),
 * else 2 x max_hands x a hand's reach (500 points in the rummy family, 100 in gin, 200 with
 * spade_double: RULES 7.7, G7). Always > 0. */
int32_t ar_forfeit_margin(const okr_rules *r);

/* Result of a forfeited game. so_far[s] is seat s's running total when the game stopped
 * (game score + concealed bonuses of the hands completed); bit s of forfeits marks a seat
 * that forfeited. Seats that did not forfeit keep so_far and are placed among themselves by
 * it (1 = best, ties share the better place); every forfeiting seat gets the last place
 * (players - number of forfeits + 1) and the total min(so_far[s], lowest total of the others)
 * - margin, so a forfeit always scores below everyone who played on, and below what the seat
 * itself had. margin 0 is the rule of arenas before 0.3 (records without "forfeit_margin").
 * winners gets a bit for every non-forfeiting seat in 1st place (none if everyone
 * forfeited). */
void ar_forfeit_result(int players, const int32_t *so_far, unsigned forfeits, int32_t margin,
                       int32_t *final_total, uint8_t *placement, unsigned *winners);

/* ---- Notes on choices ---------------------------------------------------------------------- */

/* A bot's note on a Choice (protocol 1.1) is kept up to this many bytes. */
enum { AR_NOTE_MAX = 280 };

/* Copy the longest valid UTF-8 prefix of the n bytes at in (at most AR_NOTE_MAX bytes, ending
 * at a character boundary) into out, with control characters as spaces, and NUL-terminate.
 * Returns 1 if anything was left out or changed (too long, invalid UTF-8, a NUL or a control
 * character), 0 if out is the note as sent. */
int ar_note_clean(const char *in, size_t n, char out[AR_NOTE_MAX + 1]);

/* ---- One game ----------------------------------------------------------------------------- */

/* A verdict against one seat in one game. */
typedef struct ar_seat_verdict {
    int seat;
    ar_verdict v;
    long long action; /* actions applied in the game before it (0-based), -1 before the deal */
    int hand;         /* hand number, 0 before the deal */
} ar_seat_verdict;

/* Everything games.jsonl and results.json need about one game. Arrays are per seat. */
typedef struct ar_game_outcome {
    const char *game_id;
    long long index; /* 0-based game number in the match */
    long long deal;
    int rotation;
    uint64_t deal_seed;
    int players;
    int entrant[OKR_MAX_PLAYERS];     /* bot index per seat */
    int slot[OKR_MAX_PLAYERS];        /* process slot per seat */
    const char *log[OKR_MAX_PLAYERS]; /* the seat's stderr log relative to the output folder
                                         ("logs/slot0-x.log"), NULL if none (built-in, no --out) */
    int played;                       /* 0: forfeited before the deal (disqualification, startup) */
    int completed;                    /* the game reached its end under the rules */
    int nhands;                       /* hands finished */
    int hand;                         /* hand number when it stopped (dealt but maybe not begun) */
    const int32_t (*hand_scores)[OKR_MAX_PLAYERS]; /* [nhands][players]: each hand's score */
    int32_t final_total[OKR_MAX_PLAYERS];
    uint8_t placement[OKR_MAX_PLAYERS];
    unsigned winners;       /* bit per seat */
    unsigned forfeits;      /* bit per seat */
    int32_t forfeit_margin; /* ar_forfeit_margin of the game's rules (0 if none forfeited) */
    const ar_seat_verdict *verdicts;
    int nverdicts;
    long long actions;
    double seconds;
    uint64_t digest; /* okr_digest of the final state, 0 if not played */
    /* per seat, this game only */
    long long decisions[OKR_MAX_PLAYERS]; /* Decisions answered by the bot */
    double wall_ms[OKR_MAX_PLAYERS];      /* their summed times */
    double max_ms[OKR_MAX_PLAYERS];
    double cpu_ms[OKR_MAX_PLAYERS]; /* CPU of the seat's process during the game */
    long long substituted[OKR_MAX_PLAYERS];
    long long notes_cut[OKR_MAX_PLAYERS]; /* notes cut or cleaned (ar_note_clean) */
} ar_game_outcome;

/* ---- Game records ---------------------------------------------------------------------------- */

typedef struct ar_record ar_record;

typedef struct ar_record_header {
    const char *game_id;
    const okr_rules *rules;
    int players;
    uint64_t match_seed, deal_seed;
    long long deal;
    int rotation;
    const char *const *names; /* entrant name per seat */
    const int *entrant;       /* bot index per seat */
    const char *on_error;
    int practice;  /* 1: a practice game (arena play --practice), never a rated one */
    int takebacks; /* how many times it was taken back */
    int live;      /* written out every AR_RECORD_LIVE_MS (ar_record_flush), so a spectator
                      (arena/live) can read a game in progress; 0: one write() per 64 KiB */
} ar_record_header;

/* Create path and write the header line. Returns NULL (after printing why) if the file cannot
 * be created; every ar_record_* function accepts NULL and then does nothing. */
ar_record *ar_record_open(const char *path, const ar_record_header *h);
/* One action: seat, hand, its notation, the bot's time in ms (-1 for built-ins), the
 * verdict name when the arena played it for the seat ("" otherwise), and the bot's note
 * (cleaned by ar_note_clean; NULL or "" for none). */
void ar_record_action(ar_record *r, long long n, int hand, int seat, const char *text, double ms,
                      const char *substituted, const char *note);
/* The action line is kept back until the next record call or ar_record_flush, so that the
 * caller can write it while a bot thinks. A live record (ar_record_header.live) is written
 * out at most every AR_RECORD_LIVE_MS, not per line (a write per action cost the run several
 * percent): this returns 1 when lines are left in the buffer, and the caller then calls
 * ar_record_sync within AR_RECORD_LIVE_MS, so that a spectator sees a move at most that late
 * even when the next bot thinks long. 0 otherwise. */
enum { AR_RECORD_LIVE_MS = 100 };
int ar_record_flush(ar_record *r);
/* A live record: write out what is buffered now. */
void ar_record_sync(ar_record *r);
/* A hand ended: g is in HAND_OVER or GAME_OVER. */
void ar_record_hand_end(ar_record *r, const okr_game *g);
void ar_record_verdict(ar_record *r, const ar_seat_verdict *v);
/* The game stopped without a result (interrupted, or check-bot had enough): write an
 * {"type":"aborted"} line and close. Accepts NULL. */
void ar_record_abort(ar_record *r, const char *why);
/* Write the result line and close. Returns 0 or -errno (write error). Accepts NULL. */
int ar_record_close(ar_record *r, const ar_game_outcome *o);

/* ---- The match's results ------------------------------------------------------------------- */

typedef struct ar_results ar_results;

typedef struct ar_results_info {
    const char *out_dir; /* NULL: nothing is written */
    const okr_rules *rules;
    int players;
    uint64_t seed;
    long long deals, games_requested;
    long long max_games;  /* > 0: the match stops after this many (arena play), fewer than
                             deals x players: the games it was to play */
    int hands;            /* a fixed number of hands per game; 0: games to the rules' target */
    long long first_deal; /* deals first_deal .. first_deal + deals - 1 */
    int no_summary;       /* 1: records/ only, no games.jsonl or results.json */
    int nbots;
    const char *const *names;    /* per bot */
    const char *const *commands; /* per bot */
    const int *slots;            /* per bot: processes (seats per game) */
    const char *on_error;        /* "forfeit" / "substitute" */
    const char *substitute;      /* policy for substitutes */
    double max_error_share;
    ar_clocks clocks;
    const char *sandbox;         /* mode name ("rootless"...); NULL: not written */
    const char *const *profiles; /* per bot: seccomp profile ("" for a built-in); may be NULL */
    uint32_t memory_mb;          /* the match's default memory limit per bot, 0: none */
} ar_results_info;

/* Per-bot facts only the match knows, given at the end. */
typedef struct ar_bot_summary {
    int restarts;          /* processes started beyond the first of each slot */
    int disqualified;      /* 1 if disqualified */
    long long dq_after;    /* games played when it was */
    double startup_ms;     /* mean spawn-to-Ready, -1 if never ready */
    char id_name[64];      /* Identify.name of the last process */
    char id_version[64];   /* Identify.version */
    uint32_t major, minor; /* Identify protocol version */
    double cpu_ms;         /* CPU of all its processes over the whole match */
    uint64_t log_bytes;    /* stderr bytes received */
} ar_bot_summary;

typedef struct ar_match_totals {
    double seconds;
    long long decisions;       /* Decisions answered by bot processes */
    long long actions;         /* actions applied, all seats */
    long long games_completed; /* games played to their end under the rules (GameEnd) */
    uint64_t bytes_to_bots, bytes_from_bots;
    int interrupted;                    /* signal number, or 0 */
    long arena_max_rss_kb;              /* the arena's own peak resident set (getrusage) */
    double arena_user_ms, arena_sys_ms; /* the arena's own CPU time (getrusage) */
    uint64_t connection_bytes;          /* bot connections: structs + frame buffers allocated */
    const ar_bot_summary *bots;
} ar_match_totals;

/* Creates DIR, DIR/records and DIR/games.jsonl (if out_dir). NULL after printing why. */
ar_results *ar_results_new(const ar_results_info *info);
void ar_results_free(ar_results *r); /* accepts NULL */
/* Count one game and append its games.jsonl line. Returns 0 or -errno. */
int ar_results_add(ar_results *r, const ar_game_outcome *o);
/* Games played by bot b so far, and how many of them had a verdict against it. */
void ar_results_error_share(const ar_results *r, int b, long long *games, long long *error_games);
/* Write results.json (if out_dir). Returns 0 or -errno. */
int ar_results_finish(ar_results *r, const ar_match_totals *t);
/* The readable summary table. */
void ar_results_print(const ar_results *r, const ar_match_totals *t, FILE *out);
/* Path of the records directory ("DIR/records"), or NULL. */
const char *ar_results_records_dir(const ar_results *r);

#endif
