/* tournament.h - the tournament driver: plays a tour file's schedule (schedule.h) as one
 * match per duplicate set (match.h), up to J sets at once in forked worker processes, journals
 * every finished game (journal.h) and computes the results from the journal alone (rank.h), so
 * that an uninterrupted run, a killed-and-resumed run and a merge of shards write byte-identical
 * results.json, standings.csv and games.jsonl. Formats and semantics: docs/tournaments.md. */
#ifndef AR_TOURNAMENT_H
#define AR_TOURNAMENT_H

#include <sys/types.h>

#include "journal.h"
#include "match/match.h"
#include "rank.h"
#include "schedule.h"
#include "tourfile.h"

/* Sets of a gauntlet the SPRT needs before it may decide: the normal approximation of its
 * log-likelihood ratio means nothing on a handful of sets. */
enum { AR_TOUR_SPRT_MIN_SETS = 8 };
/* Error budgets (errors.max_error_share) are judged from this many games on, within a set and
 * over the whole tournament. */
enum { AR_TOUR_DQ_MIN_GAMES = 4 };

typedef struct ar_tour_run_opts {
    const char *out_dir;    /* the output folder */
    int jobs;               /* sets played at once, >= 1 */
    int resume;             /* continue the tournament already in out_dir */
    int shard_k, shard_n;   /* shard_n == 0: the whole tournament */
    int quiet;              /* no progress and no table */
    int progress;           /* 1: a progress bar (a terminal), 0: plain lines */
    const char *command;    /* how this run was started, for the "resume with" hint */
    int plan;               /* only print the schedule (nothing runs, commands not resolved) */
    ar_sandbox_cfg sandbox; /* how the bots are confined (sandbox.h's ar_sandbox_choose) */
    uint64_t stdout_cap;    /* OLE beyond this many stdout bytes per decision */
    const char *trace;      /* --trace: an entrant's name or "all" (NULL: none); each set's
                               frames go to out_dir/traces/s<set>.trace */
    int live;               /* --serve: records flushed line by line (match.h live_records) */
} ar_tour_run_opts;

/* Play the tournament (or one shard of it) into o->out_dir, then, unsharded, write its results
 * and print the table. Returns the exit status (util.h: AR_EXIT_*): 0 done, 1 failure or
 * interrupted (what is finished stays in the journal; the message says how to resume), 2 bad use (a
 * non-empty folder without --resume, a folder of another tournament). */
int ar_tournament_run(const ar_tour *t, const ar_tour_run_opts *o);

/* `arena merge`: check that dirs[0..ndirs) are the shards 0..N-1 of one tournament, each
 * complete, none twice, and write the tournament's outputs into out_dir. Returns the exit
 * status. */
int ar_tournament_merge(const char *const *dirs, int ndirs, const char *out_dir, int quiet);

/* ---- Pieces a league shares (arena/league/) ---------------------------------------------- */

/* One set to play in a worker process (ar_spawn_worker: a fork without exec): the match of
 * one deal in all k rotations, its games streamed back on a pipe as lines "G <payload>" (the
 * journal's payload, docs/tournaments.md) and "T <timing>". */
typedef struct ar_tour_set_job {
    const ar_tour *t;          /* rules, seats, seed, clocks, errors */
    const ar_tour_run_opts *o; /* out_dir (records/, logs/), sandbox, stdout_cap, trace, live */
    const ar_entrant *e;       /* entrants by index: plan->order[] indexes it */
    const int *id;             /* NULL, or the number the payload gives entrant index i */
    const ar_set_plan *plan;   /* set, table, deal and circular seat order */
    const ar_hidden *hide;     /* what no bot may see besides the match's own */
    int nhide;
    /* the game ids (NULL: ar_schedule_game_id with t->seed) */
    void (*game_id)(char *buf, size_t cap, const ar_set_plan *p, int rotation, void *ud);
    void *ud;
} ar_tour_set_job;

/* A running set's worker, as the parent sees it. */
typedef struct ar_tour_set_proc {
    pid_t pid; /* -1: none */
    int fd;    /* the read end of its pipe */
    long long set;
    int k;
    char *buf; /* partial line */
    size_t len, cap;
    char **games; /* [k] payloads by rotation */
    int ngames;
    char **timings;
    int ntimings;
    int bad; /* sent something we cannot use */
} ar_tour_set_proc;

/* Start job's worker into w (its fields are overwritten). 0, or -errno after printing why. */
int ar_tour_set_start(const ar_tour_set_job *job, ar_tour_set_proc *w);
/* Read what the worker sent. 1: read (or interrupted), 0: the pipe is closed (reap it). */
int ar_tour_set_read(ar_tour_set_proc *w);
/* Wait for the worker's exit (after the pipe closed); its wait status. */
int ar_tour_set_reap(ar_tour_set_proc *w);
/* Did the worker play the whole set (status from ar_tour_set_reap)? */
int ar_tour_set_whole(const ar_tour_set_proc *w, int status);
/* Free what w holds and mark it empty (pid -1, fd -1). Does not close fd. */
void ar_tour_set_reset(ar_tour_set_proc *w);

/* A game payload, parsed (the fields the results use). */
enum { AR_TOUR_NVERDICTS = 8 }; /* RE TLE MLE OLE PE IA SV DQ */
typedef struct ar_tour_game {
    long long index, set;
    int rotation, k;
    char game_id[96];
    int entrant[AR_SCHED_MAX_SEATS];
    double total[AR_SCHED_MAX_SEATS];
    int has_adj;                    /* luck_adjusted given (docs/luck.md) */
    double adj[AR_SCHED_MAX_SEATS]; /* luck-adjusted totals */
    uint8_t place[AR_SCHED_MAX_SEATS];
    int verdicts[AR_SCHED_MAX_SEATS][AR_TOUR_NVERDICTS]; /* per seat */
    int other_verdicts[AR_SCHED_MAX_SEATS];
    int forfeit[AR_SCHED_MAX_SEATS];
    int completed;                           /* reached its end under the rules */
    int nhands;                              /* finished hands with scores in `hand` */
    int32_t (*hand)[AR_RANK_MAX_SEATS];      /* [nhands][seat]: hand scores (rho per hand) */
    long long decisions[AR_SCHED_MAX_SEATS]; /* answered by the seat's bot */
} ar_tour_game;

/* Parse a payload of k seats (its shape only; the tournament checks it against its schedule
 * too). 0, or -EINVAL with why. g->hand is left empty: ar_tour_game_hands fills it (free it). */
int ar_tour_game_parse(const char *payload, int k, ar_tour_game *g, char *why, size_t cap);
int ar_tour_game_hands(const char *payload, long long index, int k, ar_tour_game *g, char *why,
                       size_t cap);

/* What results.json says besides the games. */
typedef struct ar_tour_results_in {
    const char *dir;  /* where results.json, standings.csv and games.jsonl go */
    int print;        /* the table on stdout */
    const char *kind; /* "tournament" or "league": the table's first word */
    const char *name, *rules, *format;
    int k, n;                 /* seats; entrants (seating values are 0..n-1) */
    const char *const *names; /* [n] */
    int bootstrap;
    uint64_t seed;
    double max_error_share;
    const struct json_t *config; /* copied into results.json */
    const char *hash;
    int complete, schedule_complete;
    long long tables, sets_scheduled, games_scheduled;
    long long sets; /* the sets counted: the games given are theirs, in order */
    /* a gauntlet's sequential test (sprt 0: none) */
    int sprt, challenger, baseline, decision;
    int sprt_adj; /* the SPRT tested luck-adjusted totals ([sprt] score, docs/luck.md) */
    double s0, s1, alpha, beta, llr;
} ar_tour_results_in;

/* Fit the ratings over games e[0..ngames) (parsed in g, with hands) and write results.json,
 * standings.csv and games.jsonl into in->dir atomically (docs/tournaments.md), and print the
 * table when in->print. 0 or a negative errno (printed). */
int ar_tour_results_write(const ar_tour_results_in *in, const ar_journal_entry *e,
                          const ar_tour_game *g, long long ngames);

#endif
