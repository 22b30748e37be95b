/* league.h - a league (docs/league.md): one folder that stays up for weeks, takes new bots and
 * new versions of bots while it plays, plays whole duplicate sets chosen by matchmaking, and
 * refits the tournament's ratings (tour/rank.h) as sets finish.
 *
 * The folder:
 *   league.ini    the league file given to `init` without its [entrant] sections (tourfile.h)
 *   league.db     SQLite (WAL): entrants and their versions, sets, games, rating snapshots
 *   league.lock   flock'd by the one `run`, which writes its pid into it
 *   records/ logs/            the games' records and the bots' logs, as a tournament's
 *   checks/                   the check games of new versions (records/, logs/)
 *   results.json standings.csv games.jsonl   written after each refit, in the tournament's
 *                 formats, so that `arena report DIR` reads a league folder unchanged
 *
 * A set counts only when all its games are committed in one transaction: a run killed in the
 * middle of a set plays it again from scratch (a new set) and never counts a game twice. */
#ifndef AR_LEAGUE_H
#define AR_LEAGUE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "jail/sandbox.h"
#include "tour/tournament.h"
#include "unpack.h"

/* `arena league init DIR FILE`: check FILE (every error names FILE:LINE), create DIR (new or
 * empty), copy FILE into it as league.ini, create league.db and add FILE's entrants. Returns
 * an exit status (util.h). */
int ar_league_init(const char *dir, const char *file);

/* `arena league add DIR NAME [--files PATH]... -- COMMAND...`: a new entrant, or a new version
 * of NAME (linked to the one before, which retires when the new one is accepted). The command
 * and files are resolved to absolute paths now, against the current folder. The version is
 * checked by `run` before it plays. */
int ar_league_add(const char *dir, const char *name, char *const *files, int nfiles,
                  char *const *cmd, int ncmd);

/* An uploaded version (docs/league.md, "Archive submissions"). */
typedef struct ar_league_upload {
    const void *data;       /* the archive (.tar.gz, .tar, .zip), in memory */
    size_t len;             /* at most lim.max_total */
    const char *cmd;        /* its command, a command string (spawn.h ar_spawn_split): a program
                               of its own as ./PROGRAM, relative to its folder, or a name in
                               PATH (python3 bot.py); run with its folder as the current one */
    const char *build;      /* NULL or "": no build step; else a command string run in the jail
                               in its folder (jail/build.h) */
    double build_secs;      /* the build's time limit; 0: 120 */
    uint32_t build_mb;      /* the build's memory; 0: 1024 */
    ar_unpack_limits lim;   /* all zero: ar_unpack_limits_default */
    ar_sandbox_cfg sandbox; /* mode and userns, for the build */
} ar_league_upload;

/* `arena league add DIR NAME --archive FILE --cmd COMMAND [--build COMMAND]`: unpack the
 * archive into the version's own folder, DIR.bots/NAME/vN (beside the league's folder, which
 * no bot may see; `ar_league_bots_dir`), run the build step there in the jail (its log is
 * DIR.bots/NAME/vN.build.log), and add the version as `add` does: `run` checks it before it
 * plays. A refusal (the archive, the build, the command) removes the version's folder, is
 * stored as a refused version with the reason (so that its author sees it), and is in why.
 * Returns AR_EXIT_OK, AR_EXIT_FAIL (refused or failed: why says why) or AR_EXIT_USAGE.
 * It blocks until the build ends (its time limit at most): call it off a server's event loop,
 * and let no waitpid(-1) reap the build's process meanwhile (it waits for that pid). Uploads
 * of one NAME are serialized by a lock in DIR.bots/NAME/. */
int ar_league_add_archive(const char *dir, const char *name, const ar_league_upload *up, char *why,
                          size_t cap);

/* The folder of DIR's uploaded versions: realpath(DIR) + ".bots", into out. 0 or -errno. */
int ar_league_bots_dir(const char *dir, char *out, size_t cap);

/* `arena league retire DIR NAME`: the latest version of NAME leaves the live table; its games
 * stay counted. */
int ar_league_retire(const char *dir, const char *name);

/* `arena league status DIR`: entrants with their versions, status and reasons; sets and games
 * counted; the running `run`, if any. */
int ar_league_status(const char *dir);

/* `arena league standings DIR [--format text|json]`: the standings of DIR/results.json (the
 * last refit); retired versions are left out of the text table unless all. */
int ar_league_standings(const char *dir, int json, int all);

typedef struct ar_league_run_opts {
    int jobs;               /* sets at once; 0: the file's jobs, else the online CPUs */
    int quiet;              /* no lines on stderr but errors */
    long long max_sets;     /* > 0: stop once the league has this many counted sets */
    double hold_s;          /* how long an entrant whose recent games failed is held back */
    ar_sandbox_cfg sandbox; /* how the bots are confined */
    uint64_t stdout_cap;
    char *const *sb_argv; /* the sandbox flags `run` was given (NULL-terminated; NULL: none):
                             runner = slurm passes them on to its jobs */
} ar_league_run_opts;

/* `arena league slurm-set JOBDIR`: play the one set of a Slurm job that `run` wrote into
 * JOBDIR (DIR/slurm/s<SET>, league/slurm.h) as a local set worker would, into the league's
 * records/ and logs/, and write JOBDIR/games (the set's games, then the file renamed into
 * place: the job's done marker). Never opens league.db. o: sandbox and stdout cap. Returns
 * an exit status: AR_EXIT_OK when the set was played whole. */
int ar_league_slurm_set(const char *jobdir, const ar_league_run_opts *o);

/* `arena league run DIR`: play until SIGINT/SIGTERM (the sets in flight finish, or are
 * played again by the next run) or max_sets. Refuses at once when another run holds the
 * folder, naming its pid. Returns an exit status. */
int ar_league_run(const char *dir, const ar_league_run_opts *o);

/* `arena league final DIR`: freeze the league (no add, no run) and play a balanced rerun among
 * the latest live versions: a round-robin tournament of `deals` deals per table, with the
 * league's rules, clocks and seed, into DIR/final (resumed when it is there). base: jobs,
 * sandbox, stdout cap, quiet, progress. Returns an exit status. */
int ar_league_final(const char *dir, long long deals, const ar_tour_run_opts *base);
/* The host's freeze (the web face's host page): no entrant joins, no test is asked, and a
 * running `run` starts no more sets (those in flight finish and count) but stays up; with
 * final_deals > 0 the final is asked too: the run then returns once its sets are in, and
 * `run` plays the final (ar_league_final with those deals) before it ends. Exit status. */
int ar_league_freeze(const char *dir, long long final_deals);
/* The final's deals the host asked for (0: none asked), or -1 (printed). */
long long ar_league_final_asked(const char *dir);
/* 1 if DIR's league is frozen by `final`, 0 if not, -1 (printed) if unreadable. */
int ar_league_frozen(const char *dir);

/* `arena league export DIR OUT`: entrants.json (every version with its links, status and
 * reason), ratings.csv (every round's snapshot), sets.csv, and the latest results.json,
 * standings.csv and games.jsonl, all of one moment. Returns an exit status. */
int ar_league_export(const char *dir, const char *out);

/* Take the folder's lock, the one every arena takes on the folder it writes (util/outlock.h:
 * a tournament or match aimed at a league's folder is refused too, and so is a second run),
 * into *folder_fd; then DIR/league.lock (flock LOCK_EX|LOCK_NB) with our pid in it, which
 * `status` reads. Returns the league.lock fd (keep both open as long as the lock is wanted),
 * or -1 after printing who holds it (*folder_fd is then -1). */
int ar_league_lock(const char *dir, int *folder_fd);

/* ---- Authors and the host, for the web face (authors.c, arena/lweb) --------------------------
 * An author signs in with a secret link; league.db keeps only the secret's SHA-256. */

struct sqlite3;

/* `arena league author add DIR NAME`: a new secret for NAME (a new author, or a new link that
 * voids the old one), printed as the sign-in link (DIR/web.url's base when `run --serve` wrote
 * one). `author revoke DIR NAME`: the link and every session of NAME stop working. Exit
 * statuses. */
int ar_league_author_add(const char *dir, const char *name);
int ar_league_author_revoke(const char *dir, const char *name);
/* The same without printing: the new secret into secret. 0, or -1 (a bad name: printed). */
int ar_league_author_new(const char *dir, const char *name, char secret[33]);
/* Set meta key to value (the web face's settings: "web_reveal"). 0 or -1 (printed). */
int ar_league_meta_set(const char *dir, const char *key, const char *value);
/* 1 when name is an author's name: 1 to 32 of [A-Za-z0-9_-]. */
int ar_league_author_name_ok(const char *name);
/* Make the authors' tables if missing, and the host's secret: DIR/host.token (mode 0600, made
 * when missing, refused when others may read it) into host_secret, its hash stored as the
 * author "@host". 0, or -1 printed. */
int ar_league_web_prepare(const char *dir, char host_secret[33]);
/* 1 when secret (32 hex digits) is name's (or "@host"'s), on any connection to league.db;
 * the hashes are compared in constant time. */
int ar_league_author_check(struct sqlite3 *db, const char *name, const char *secret);
/* The author who owns entrant NAME into author (1), or 0 (none: the host added it). */
int ar_league_owner(struct sqlite3 *db, const char *entrant, char *author, size_t cap);
/* Make author the owner of entrant (a name new to the league, or theirs already): 0, or -1
 * with the reason in err (another's, or the host's). */
int ar_league_claim(const char *dir, const char *entrant, const char *author, char *err,
                    size_t cap);
/* The live version of NAME is held back for seconds (it comes back by itself). Exit status. */
int ar_league_hold(const char *dir, const char *name, double seconds);
/* An author's test games (docs/league.md, "Test games"): one unrated duplicate set of
 * author's bot mine (the live version) against the entrant opponent (built-ins fill any other
 * seat), asked now and played by the running league between its rated sets (run.c: at most
 * one slot at a time), its games kept in league.db's test_games, never in the rated games,
 * the ratings, the standings or the results. At most the league file's test_sets_per_hour
 * requests an hour per author. Returns AR_EXIT_OK (why: what was asked),
 * AR_LEAGUE_TEST_LIMITED (why: the limit and when the next may be asked), AR_EXIT_USAGE
 * (why: not the author's bot, an entrant not playing, the league frozen) or AR_EXIT_FAIL. */
enum { AR_LEAGUE_TEST_LIMITED = 3 };
int ar_league_test_ask(const char *dir, const char *author, const char *mine, const char *opponent,
                       char *why, size_t cap);

/* SHA-256 of n bytes as 64 lowercase hex digits. */
void ar_sha256_hex(const void *data, size_t n, char out[65]);

#endif
