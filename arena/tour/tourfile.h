/* tourfile.h - tournament files (tournaments/NAME.tour): an INI file read with libinih, checked
 * completely before anything runs. Every error names FILE:LINE. The format is documented in
 * docs/tournaments.md; in short:
 *
 *   [tournament]            name, rules, rule (repeatable: opt=value), seats, format
 *                           (round-robin | gauntlet), challenger, baseline, deals (per
 *                           table), hands (per game), max_tables, seed, out, jobs,
 *                           bootstrap
 *   [clocks]                startup_ms, decision_ms, bank_ms, hard_ms, ponder (off | on:
 *                           bots run between their decisions), pace (ms between two
 *                           Decisions at least; 0: none)
 *   [errors]                on_error (forfeit | substitute), substitute, max_error_share
 *   [sandbox]               minimum (the weakest sandbox mode accepted), memory_mb
 *   [sprt]                  s0, s1 (points per game), alpha, beta, score (raw |
 *                           luck-adjusted: the scores tested, docs/luck.md) (gauntlet only)
 *   [entrant NAME]          command, profile (auto | native | interpreted),
 *                           memory_mb, startup_ms, files (folders and files of its own, shown
 *                           to it in the jail)                (one section per entrant)
 *
 * Required: rules, seats, at least `seats` entrants, a command per entrant, and challenger
 * for a gauntlet. Defaults: name = the file name without .tour, format = round-robin,
 * deals = 1, max_tables = 2000, seed = 1, out = results/<name>, jobs = 0, bootstrap = 1000,
 * clocks 10000/1000/10000/5000 ms, ponder = off, pace = 0 and errors forfeit/random/0.5 (those of
 * `arena match`), minimum = off (no minimum), memory_mb = 0 (the sandbox's default), alpha = beta =
 * 0.05. A key may appear once (rule: any number of times, applied in order after the preset);
 * [sprt] without both s0 and s1 is an error. Numbers are strict decimal; seed may be 0x hex.
 * Values end at an inline " ;" comment (inih); lines are at most 4093 characters.
 *
 * Relative program paths in `command` and relative `files` are taken against the directory of
 * the .tour file, where the entrant's bot also runs.
 * Any key can be overridden from the command line as section.key=value (the entrant
 * sections as entrant.NAME.key=value). Pure apart from reading the one file. */
#ifndef AR_TOURFILE_H
#define AR_TOURFILE_H

#include <stddef.h>
#include <stdint.h>

#include "match/bot.h"
#include "match/policy.h"
#include "okr/okr.h"

typedef struct ar_tour_entrant {
    char *name;          /* [entrant NAME] */
    char *command;       /* as written ("@random" / "@greedy": a built-in policy) */
    char *profile;       /* "auto" unless given */
    uint32_t memory_mb;  /* 0: the [sandbox] default */
    uint32_t startup_ms; /* 0: the [clocks] default */
    int line;            /* line of the section header, for later messages */
    char **files;        /* files = PATH...: its own folders and files, absolute (against the
                            tour file's folder); NULL: none */
    char *files_text;    /* files = as written; NULL: none */
    int files_line;      /* line of files = (0: given by --set, or none) */
    int command_line;    /* line of command = (0: given by --set) */
} ar_tour_entrant;

typedef struct ar_tour {
    char *path; /* the file as given */
    char *dir;  /* its directory, absolute (realpath), for relative commands */
    char *name;
    okr_rules rules;
    char *rules_text; /* okr_rules_format of rules: every option */
    int seats;
    int format;                  /* ar_format (schedule.h) */
    char *challenger, *baseline; /* gauntlet; NULL if not given */
    long long deals;
    int hands; /* > 0: a fixed number of hands per game (`hands = N`); 0: to the target */
    long long max_tables;
    uint64_t seed;
    char *out;        /* output folder: `out =` relative to the .tour file's folder (as typed:
                         "tournaments/demo-out"); without it results/<name> in the current one */
    int jobs;         /* 0: number of online CPUs */
    int bootstrap;    /* replicates */
    int luck_off;     /* `luck = off`: no luck-adjusted scores (docs/luck.md); default on */
    int luck_rollout; /* `luck = rollout`: the rollout value estimate in gin (on, hand: the cheap
                         one) */
    ar_clocks clocks;
    int ponder;       /* ponder = on: bots run between their decisions (match.h) */
    uint32_t pace_ms; /* pace = MS (match.h); 0: none */
    int on_error;     /* AR_ON_ERROR_* (match.h) */
    int substitute;   /* AR_SUB_FIRST or an ar_policy */
    double max_error_share;
    char *sandbox_min; /* "full" | "no-cgroups" | "rootless" | "seccomp-only" | "off" */
    uint32_t memory_mb;
    double sprt_s0, sprt_s1, sprt_alpha, sprt_beta;
    int sprt;          /* 1: [sprt] gave s0 < s1 (gauntlet only); 0: no sequential test */
    int sprt_adjusted; /* [sprt] score = luck-adjusted: test the luck-adjusted totals */
    ar_tour_entrant *entrant;
    int nentrants;
    int league;       /* read by ar_tour_load_league */
    int runner_slurm; /* a league's `runner = slurm`: its sets as Slurm jobs */
    char *sbatch;     /* a league's `sbatch = ARGS`: more sbatch options; NULL: none */
    /* [league] only (docs/league.md, "The web face"): an author's test sets an hour, and an
     * upload's limits: the archive's bytes, its bytes and entries unpacked, the build step's
     * seconds and MB */
    int test_sets_per_hour;
    uint64_t upload_max_bytes, upload_max_unpacked;
    uint32_t upload_max_files, build_mb;
    double build_seconds;
    struct ar_tour_src *src; /* private: the text of every key and where it came from, so
                                that ar_tour_set can re-check and name lines */
} ar_tour;

/* Read and check path. Returns 0, or -errno with "FILE:LINE: what is wrong" in err (for a
 * file that cannot be read: "FILE: strerror"). Unknown sections and keys, bad numbers,
 * duplicate entrants, missing required keys (rules, seats, at least `seats` entrants, a
 * command per entrant) are errors. On failure *t is left freed. */
int ar_tour_load(const char *path, ar_tour *t, char *err, size_t errcap);

/* A league file (arena league init, docs/league.md): the same format with a [league] section
 * in place of [tournament], which takes only name, rules, rule, seats, seed, hands, bootstrap,
 * jobs and the web face's test_sets_per_hour, upload_max_bytes, upload_max_unpacked,
 * upload_max_files, build_seconds and build_mb; no [sprt]; any number of [entrant NAME] sections
 * (entrants come later too). The other keys keep their defaults. Errors name FILE:LINE as for
 * ar_tour_load. */
int ar_tour_load_league(const char *path, ar_tour *t, char *err, size_t errcap);

/* Apply one override "section.key=value" (e.g. "tournament.seed=7",
 * "entrant.greedy.memory_mb=512") as if it were in the file, then re-check. Returns 0 or
 * -EINVAL with a message ("--set tournament.sed=7: unknown key") in err. */
int ar_tour_set(ar_tour *t, const char *assignment, char *err, size_t errcap);

/* Apply n overrides in order, then check once: for overrides that only make sense together
 * (--set tournament.format=gauntlet --set tournament.challenger=x), which one at a time
 * would refuse. All or nothing: on error the tour is unchanged. Give the command line's
 * --set values to this, not to ar_tour_set one by one. */
/* The section a .tour key belongs to ("clocks" for "decision_ms", "entrant.NAME" for a key
 * only entrants have), or NULL: for the hint that turns `--decision-ms 50` into
 * `--set clocks.decision_ms=50`. */
const char *ar_tour_key_section(const char *key);

int ar_tour_set_many(ar_tour *t, const char *const *assignments, int n, char *err, size_t errcap);

void ar_tour_free(ar_tour *t); /* accepts a zeroed or freed tour */

/* Index of the entrant called name, or -1. */
int ar_tour_find(const ar_tour *t, const char *name);

/* Is entrant i a built-in policy ("@random", "@greedy")? Returns 1 and sets *policy (if not
 * NULL), else 0. */
int ar_tour_builtin(const ar_tour *t, int i, ar_policy *policy);

/* Entrant i's command split into an argv (ar_spawn_split), with a relative program path
 * (a first word containing '/', like ./bot or bots/x.py) made absolute against t->dir; a bare
 * word (python3) is left for the PATH lookup. Free with ar_spawn_argv_free. Returns 0, or
 * -EINVAL with a message (built-in, empty command, unterminated quote). */
int ar_tour_argv(const ar_tour *t, int i, char ***argv_out, int *argc_out, char *err,
                 size_t errcap);

#endif
