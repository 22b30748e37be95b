/* cli.h - the arena's subcommands and the helpers they share (flags, rule options, error
 * lines). Each subcommand returns its exit status (util.h: AR_EXIT_*); only main.c exits.
 * The top room: nothing outside arena/cli/ includes this header. */
#ifndef AR_CLI_H
#define AR_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "match/refusal.h"
#include "okr/okr.h"
#include "util/util.h"

/* ---- Subcommands ----------------------------------------------------------------------- */

/* argv[0] is the subcommand's name; flags follow. */
int ar_selfplay_main(int argc, char **argv);
void ar_selfplay_usage(FILE *out);
int ar_script_main(int argc, char **argv);
void ar_script_usage(FILE *out);
int ar_play_main(int argc, char **argv);
void ar_play_usage(FILE *out);
int ar_match_main(int argc, char **argv);
void ar_match_usage(FILE *out);
int ar_replay_main(int argc, char **argv);
void ar_replay_usage(FILE *out);
int ar_checkbot_main(int argc, char **argv);
void ar_checkbot_usage(FILE *out);
int ar_tournament_main(int argc, char **argv);
void ar_tournament_usage(FILE *out);
int ar_merge_main(int argc, char **argv);
void ar_merge_usage(FILE *out);
int ar_luck_main(int argc, char **argv);
void ar_luck_usage(FILE *out);
int ar_sandbox_main(int argc, char **argv);
void ar_sandbox_usage(FILE *out);
int ar_report_main(int argc, char **argv);
void ar_report_usage(FILE *out);
int ar_league_main(int argc, char **argv);
void ar_league_usage(FILE *out);

/* `arena replay ... --html` (cli_view.c), and the record of a game in a match's folder
 * (cli_view.c too): DIR/records/ID.jsonl, or the K-th game of DIR/games.jsonl (malloc'd; NULL
 * after printing why). */
int ar_replay_html_main(int argc, char **argv);
void ar_replay_html_usage(FILE *out);
char *ar_replay_find_record(const char *dir, const char *game);

/* ---- The program ----------------------------------------------------------------------- */

/* How the user ran the arena (main's argv[0], "build/arena/arena"), for the commands a
 * message tells them to type next; "arena" until main.c sets it. */
void ar_cli_set_program(const char *argv0);
const char *ar_cli_program(void);
/* Append s to buf (at *len, capacity cap) as one shell word: as is when it holds only
 * characters no shell treats specially, else in single quotes. */
void ar_cli_shell_word(char *buf, size_t cap, size_t *len, const char *s);

/* ---- Flags ----------------------------------------------------------------------------- */

/* Does argv[*i] name the flag `name` ("--seed 5" or "--seed=5")? Returns 1 and sets *value
 * (advancing *i past a separate value), 0 if it is another argument, or -1 (after printing
 * "arena: --seed: missing value") when the value is missing. */
int ar_flag(int argc, char **argv, int *i, const char *name, const char **value);

/* Strict decimal parse of an integer in [min, max]; prints "arena: FLAG: ..." and returns
 * -1 on error. */
int ar_parse_long(const char *flag, const char *s, long long min, long long max, long long *out);
/* A time flag in milliseconds, 1 ms to a day; -1 after printing the problem. */
int ar_parse_ms(const char *flag, const char *v, uint32_t *out);
int ar_parse_u64(const char *flag, const char *s, uint64_t *out);

/* ---- Rules ----------------------------------------------------------------------------- */

/* The rule set a command line asks for: a preset and "opt=val" overrides, in order. */
typedef struct ar_rules_args {
    const char *preset;   /* default "laws" */
    const char **options; /* argv strings "opt=val" */
    int noptions;
} ar_rules_args;

/* Remember one --rule value (argv strings live as long as main's argv). Returns 0. */
int ar_rules_args_add(ar_rules_args *ra, const char *opt_eq_val);
void ar_rules_args_free(ar_rules_args *ra);

/* The flags of every command that sets up a table: --rules R, --rule opt=val (repeatable),
 * --players N (sets *players_given), --seed S. If argv[*i] is one of them, consume it and its
 * value and return 1; return 0 for any other argument; -1 on a bad value (printed). */
int ar_table_flag(int argc, char **argv, int *i, ar_rules_args *rules, int *players,
                  int *players_given, uint64_t *seed);

/* Load the preset, apply the overrides (okr_rules_set) and check them for `players`
 * (okr_rules_check). On any refusal prints "arena: <option>: <reason> (RULES x.y)" to
 * stderr and returns AR_EXIT_USAGE; otherwise AR_EXIT_OK. */
int ar_rules_build(const ar_rules_args *ra, int players, okr_rules *out);

/* ---- Sandbox -------------------------------------------------------------------------- */

struct ar_entrant;
struct ar_sandbox_cfg;

/* The sandbox flags of every command that runs bots (docs/cli.md):
 *   --sandbox MIN  --insecure  --no-sandbox  --profile N=PROFILE  --memory-mb M  --pids N
 *   --stdout-cap BYTES  --bind DIR */
typedef struct ar_sb_args {
    const char *min;       /* minimum mode, default "rootless" */
    int insecure;          /* run below the minimum (warning) */
    int off;               /* --no-sandbox */
    long long memory_mb;   /* default 256 */
    long long pids;        /* 0: by profile */
    long long stdout_cap;  /* default 1 MiB */
    const char **profiles; /* argv strings "N=PROFILE" */
    int nprofiles;
    char **binds; /* --bind values, NULL-terminated */
    int nbinds;
} ar_sb_args;

void ar_sb_args_init(ar_sb_args *a);
void ar_sb_args_free(ar_sb_args *a);

/* If argv[*i] is a sandbox flag, consume it (and its value) and return 1; 0 for another
 * argument; -1 on a bad value (printed). */
int ar_sb_flag(int argc, char **argv, int *i, ar_sb_args *a);

/* Decide the mode: run the probe, print its summary line on stderr (unless quiet), refuse
 * (AR_EXIT_USAGE, the message says what is missing) when the best mode is weaker than the
 * minimum and --insecure was not given; apply --profile to the entrants e[0..n). Fills *out
 * (binds point into a). Returns AR_EXIT_OK or AR_EXIT_USAGE. */
int ar_sb_setup(const ar_sb_args *a, int quiet, struct ar_entrant *e, int n,
                struct ar_sandbox_cfg *out);

/* Usage lines of the sandbox flags, for the subcommands' usage texts. */
void ar_sb_usage(FILE *out);

/* Seconds on a monotonic clock. */
double ar_now(void);

/* ---- --serve (cli_serve.c, docs/live.md) ------------------------------------------------ */

typedef struct ar_serve_args {
    int on;         /* --serve given */
    long long port; /* 0: any free port */
    double delay;   /* --serve-delay SECONDS */
    double linger;  /* --serve-linger SECONDS after the run; < 0: until Ctrl-C */
} ar_serve_args;

#define AR_SERVE_ARGS_INIT                                                                         \
    {                                                                                              \
        0, 0, 0, -1                                                                                \
    }
/* --serve [PORT], --serve-delay S, --serve-linger S: 1 consumed, 0 not ours, -1 bad (printed). */
int ar_serve_flag(int argc, char **argv, int *i, ar_serve_args *sa);
/* The usage lines of the three flags. */
void ar_serve_usage(FILE *out);

struct al_server;
/* Bind the spectator server's socket (before the sandbox moves the arena out of the network)
 * and print its address. NULL without --serve; exits the command (AR_EXIT_USAGE) on failure
 * through *status. */
struct al_server *ar_serve_bind(const ar_serve_args *sa, const char *dir, const char *kind,
                                const char *title, int *status);
/* Start serving (the folder is ready). Returns AR_EXIT_OK or AR_EXIT_FAIL (printed). */
int ar_serve_start(struct al_server *s);
/* After the run: with status OK, keep serving for --serve-linger; then stop. */
void ar_serve_end(struct al_server *s, const ar_serve_args *sa, int status);

#endif
