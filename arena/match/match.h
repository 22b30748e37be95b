/* match.h - one match: N seats, K bots, duplicate deals with rotated seats, one process per
 * slot for the whole match, all on one libevent loop. The driver asks the bots, applies
 * their actions with the engine, keeps the clocks' banks, applies the error policy, and hands
 * each finished game to record.c. A bot's behaviour never makes a match fail; only the arena's
 * own problems do (an unwritable output directory, an engine bug). */
#ifndef AR_MATCH_H
#define AR_MATCH_H

#include <stdint.h>

#include "bot.h"
#include "jail/sandbox.h"
#include "jail/spawn.h"
#include "okr/okr.h"
#include "policy.h"
#include "record.h"

/* ---- Schedule ------------------------------------------------------------------------------- */

/* Seed of deal d: the first output of splitmix64 seeded with seed + d (policy.c's ar_rng). */
uint64_t ar_match_deal_seed(uint64_t seed, long long deal);
/* Rotation r: seat i holds slot (i + r) mod players. */
int ar_match_seat_slot(int seat, int rotation, int players);
/* Deals needed for `games` games at `players` seats: ceil(games / players). */
long long ar_match_deals(long long games, int players);
/* "m<seed>-d<deal>-r<rotation>" */
void ar_match_game_id(char *buf, size_t cap, uint64_t seed, long long deal, int rotation);
/* An entrant's name as its log file names it (LOGS/[prefix]slot<k>-<safe>.log): every
 * character but [A-Za-z0-9._-] made '_', so that no name reaches outside the folder. The
 * report finds the logs by the same rule. */
void ar_match_log_name(const char *name, char *out, size_t cap);

/* The rules of duplicate play (docs/rules.md, RULES 2.3 Decision): `dealer=rotate` unless the
 * user set `dealer` himself, so that hand h of every rotation deals the same cards to the same
 * seats, and `stock=streams` unless he set `stock` (RULES 4.2 Decision: seat i's k-th card from
 * the stock is the same in every rotation, however the play diverges). hands > 0: a fixed number of
 * hands per game, scored as the sum of the hand scores (target=0, max_hands=hands, no winner's
 * bonus, no settlement). set[0..nset) are the user's overrides as written ("opt=value", spaces
 * allowed around the name). Refused, with the rule in why: dealer=winner with hands (2.3:
 * hand-by-hand scores need the same deal in every rotation), and target, max_hands, winner_bonus or
 * settlement set together with hands (their own rule: a fixed number of hands replaces them).
 * Returns 0 or -EINVAL. */
int ar_match_duplicate_rules(okr_rules *r, const char *const *set, int nset, long long hands,
                             okr_refusal *why);
enum { AR_MATCH_MAX_HANDS = 1000 }; /* the largest `hands` (a game of hands is one record) */

/* ---- Configuration -------------------------------------------------------------------------- */

/* One entrant: a program, or a built-in policy (no process). */
typedef struct ar_entrant {
    const char *name;    /* unique, for tables and GameStart.names */
    const char *command; /* as the user wrote it */
    char *const *argv;   /* split command; NULL for a built-in */
    const char *path;    /* resolved program; NULL for a built-in */
    int builtin;         /* 1: in-process `policy` */
    ar_policy policy;
    const char *profile;     /* sandbox profile ("native", "interpreted", ...); NULL: chosen from
                                the program (docs/sandbox.md) */
    uint32_t memory_mb;      /* sandbox memory limit; 0: the match's default */
    uint32_t startup_ms;     /* start-up clock; 0: the match's clocks.startup_ms */
    char *const *own;        /* folders and files the entrant declares as its own (--files, a
                                tour's `files =`), shown to it in the jail; NULL: none */
    const char *cwd;         /* its working folder, against which relative words of its command
                                and `own` are taken (a tour file's folder); NULL: the arena's */
    ar_seat_connect connect; /* a seat with no process, a human (bot.h); argv, path NULL */
    void *connect_ud;
    ar_seat_gone gone;       /* why the human's end closed (bot.h); NULL: RE */
    const ar_clocks *clocks; /* its own clocks (a human's); NULL: the match's */
} ar_entrant;

/* A path no bot may see (besides the output folder and the other entrants' files, which a
 * match hides by itself): the tournament file, or the files of a tournament's entrants (its
 * up-front check, ar_match_view with every entrant). owner: the entrant whose file it is (its
 * own bot sees it), NULL: nobody's. */
typedef struct ar_hidden {
    const char *path;
    const char *what; /* for messages: "the tournament file" */
    const char *owner;
} ar_hidden;

enum { AR_ON_ERROR_FORFEIT = 0, AR_ON_ERROR_SUBSTITUTE = 1 };
enum { AR_SUB_FIRST = -1 }; /* substitute the first legal action (else an ar_policy) */

typedef struct ar_match_config {
    okr_rules rules;
    int players;
    long long deals; /* games = deals * players */
    long long games_requested;
    int hands; /* > 0: a fixed number of hands per game (ar_match_duplicate_rules); reported */
    uint64_t seed;
    const ar_entrant *bots;
    int nbots;           /* 1 .. players */
    const int *slot_bot; /* [players]: bot of each slot; NULL: slot k runs bot k mod nbots */
    ar_clocks clocks;
    int on_error;   /* AR_ON_ERROR_* */
    int substitute; /* AR_SUB_FIRST or an ar_policy */
    double max_error_share;
    int dq_min_games;     /* disqualification is judged from this many games on (4) */
    const char *out_dir;  /* NULL: no files (check-bot) */
    int progress;         /* a line per game on stderr */
    int quiet;            /* not even verdict lines */
    size_t max_pending;   /* bytes queued for one bot before TLE "input" */
    size_t log_cap;       /* stderr bytes kept per slot in DIR/logs */
    uint32_t bye_ms;      /* grace after Bye before SIGKILL */
    uint32_t eof_ms;      /* wait for an exit status after EOF */
    long long stop_after; /* > 0: stop once slot 0 erred, or at the end of the game in which
                             it answered this many Decisions */
    long long min_games;  /* with stop_after: play at least this many games before stopping
                             for enough Decisions (check-bot: `players`, one per rotation, so
                             slot 0 sits at every seat) */
    uint64_t stdout_cap;  /* OLE beyond this many stdout bytes per decision (0: none) */
    ar_sandbox_cfg sandbox;
    /* 1 (ponder = on, --ponder): bots run all the time, as before issue 20; 0: a bot runs only
     * while it starts, decides or says goodbye, and is frozen the rest of the time (ar_bot
     * freeze), so no channel that needs two bots awake at once exists (docs/sandbox.md) */
    int ponder;
    /* > 0 (pace = MS, --pace MS): a Decision is handed to a bot no earlier than pace_ms after
     * the previous one was handed to a bot, so a decision that takes less than pace_ms tells
     * the others nothing by its time (docs/sandbox.md, "What remains") */
    uint32_t pace_ms;
    /* ---- tournaments (all zero for a plain match) ---- */
    long long first_deal; /* play deals first_deal .. first_deal + deals - 1: deal d is the
                             same deal (seed, game id, decision ids) whatever the first one */
    /* the game id of (deal, rotation); NULL: ar_match_game_id */
    void (*game_id)(char *buf, size_t cap, long long deal, int rotation, void *ud);
    /* called once per finished game (forfeited ones too), after its record is closed; the
     * outcome and what it points to are only valid during the call */
    void (*on_game)(const ar_game_outcome *o, void *ud);
    void *ud;               /* for game_id and on_game */
    int no_summary;         /* 1: write records/ and logs/ but no games.jsonl or results.json */
    const char *log_prefix; /* prepended to the DIR/logs file names (NULL: none) */
    const ar_hidden *hide;  /* [nhide]: more paths no bot may see */
    int nhide;
    /* --trace: every frame of the chosen bots as text to `trace` (not owned; NULL: none);
     * trace_sel is "all", a slot number, or an entrant's name */
    FILE *trace;
    const char *trace_sel;
    /* --serve: records are flushed line by line, so the spectator server (arena/live) can
     * show the games being played (record.h's ar_record_header.live) */
    int live_records;
    long long max_games; /* > 0: stop after this many games (arena play: one game, rotation 0,
                            where slot k is seat k) */
    FILE *log_stream;    /* without out_dir: every bot's stderr goes here (check-bot --stderr),
                            up to log_cap bytes; not owned */
    /* ---- practice (arena play --practice; all zero otherwise) ---- */
    /* the first game's first nforced actions, in the notation: applied as recorded without
     * asking their seat (the seats get their Events as usual), so a takeback replays the game
     * to the human's previous decision with the same deal */
    const char *const *forced;
    long long nforced;
    int takebacks;    /* > 0: the record says "practice" with this many takebacks */
    int practice;     /* 1: the record says "practice" (takebacks allowed, never a rated game) */
    uint32_t id_base; /* added to the Decision ids' counter: a restarted game reuses no id */
    /* the event loop to run on (not owned; NULL: the match's own): a practice game is
     * restarted on the loop where the page already serves the human */
    ar_loop *loop;
    /* called after every recorded action (the text is only valid during the call) */
    void (*on_action)(long long n, int seat, const char *text, void *ud);
    void *action_ud;
} ar_match_config;

/* The program entrant e runs as inside the jail: a bare command name is looked up in the
 * jail's PATH (where the system's folders are), not in the arena's (maybe a pyenv shim). */
const char *ar_match_jail_program(const ar_entrant *e, char *buf, size_t cap);

/* Does the --trace selection sel pick slot k running entrant `name`? */
int ar_match_traced(const char *sel, int k, const char *name);

typedef struct ar_match ar_match;

/* Copies cfg (not the entrants, which must outlive the match). Never NULL. */
ar_match *ar_match_new(const ar_match_config *cfg);
void ar_match_free(ar_match *m); /* accepts NULL; kills what still runs */

/* What the jail shows bot `bot` of cfg (its binds, ar_spawn_jail_view): its program and
 * scripts, its declared files, the SDKs for an interpreted bot, --bind; never cfg->out_dir,
 * cfg->hide, or another entrant's program, scripts or declared files (but the ones it shares).
 * NULL when something it would see must stay hidden, with a message in msg ("its declared
 * folder /t would show it the tournament file ... (/t/x.tour). Keep ...") and, if clash is not
 * NULL, why. An empty list for a built-in or without a jail (mode below rootless). Free with
 * ar_spawn_argv_free. */
char **ar_match_view(const ar_match_config *cfg, int bot, char *msg, size_t cap,
                     ar_jail_clash *clash);
/* The same, as checked once when a run starts (every entrant, before the first game): also
 * refused when a shown folder holds a mount point, or a file that is the same file as a hidden
 * one (a hard link); the message names it (ar_jail_view's deep). */
char **ar_match_view_check(const ar_match_config *cfg, int bot, char *msg, size_t cap,
                           ar_jail_clash *clash);
/* The paths bot `bot` owns (ar_spawn_jail_own: program outside the system folders, scripts,
 * declared files): what the other entrants may not see. Never NULL. */
char **ar_match_own(const ar_match_config *cfg, int bot);

/* A connection (ar_bot_new, not started) for entrant `bot` of cfg outside the match's seats
 * (arena play's hint bot), jailed exactly as the match jails its bots: cfg's sandbox, the
 * seccomp program filter (built for ar_match_profile of the entrant; NULL without a jail), its
 * view (ar_match_view: its own files only), cfg's clocks; its stderr goes to log (may be
 * NULL). NULL with a message in msg when its view would show what must stay hidden. */
struct ar_bpf;
ar_bot *ar_match_spare_bot(ar_loop *loop, const ar_match_config *cfg, int bot,
                           const struct ar_bpf *filter, FILE *log, char *msg, size_t cap);

/* The seccomp profile entrant e runs under: its own, else ar_seccomp_auto of its program. */
const char *ar_match_profile(const ar_entrant *e);

/* Play the whole match, write the outputs, say Bye, make sure no process is left.
 * Returns 0; -EINTR if SIGINT/SIGTERM stopped it (partial results are written); or -errno for
 * an arena failure (message printed). */
int ar_match_run(ar_match *m);
/* Stop the game being played at the next Decision or action, its record marked aborted
 * ("stopped"); ar_match_run then returns 0. For a takeback (arena play --practice). */
void ar_match_stop(ar_match *m);

/* ---- After the run -----------------------------------------------------------------------------
 */

const ar_results *ar_match_results(const ar_match *m);
const ar_match_totals *ar_match_totals_of(const ar_match *m);
/* The connection of slot k (NULL for a built-in), for check-bot's report. */
const ar_bot *ar_match_bot(const ar_match *m, int slot);
/* Verdicts against slot k over the match, and the first of them (NULL if none). */
int ar_match_verdicts(const ar_match *m, int slot, const ar_verdict **first);
/* Times of slot k's answered Decisions, in order (ms). */
const double *ar_match_latencies(const ar_match *m, int slot, long long *n);

#endif
