/* tournament.h - the tournament driver: plays a tour file's schedule (schedule.h) as one
 * match per duplicate set (match.h), up to J sets at once in forked worker processes, journals
 * every finished game (journal.h) and computes the results from the journal alone (rank.h), so
 * that an uninterrupted run, a killed-and-resumed run and a merge of shards write byte-identical
 * results.json, standings.csv and games.jsonl. Formats and semantics: docs/tournaments.md. */
#ifndef AR_TOURNAMENT_H
#define AR_TOURNAMENT_H

#include "match/match.h"
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

#endif
