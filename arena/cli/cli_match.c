/* cli_match.c - `arena match`: the command line of a match between bot programs, the entrant
 * list (commands split without a shell and resolved through PATH here, in the parent), and
 * the summary at the end. The match itself is match.c. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_bots.h"
#include "jail/spawn.h"
#include "live/live.h"
#include "match/match.h"
#include "util/outlock.h"
#include "util/util.h"

void ar_match_usage(FILE *out)
{
    fprintf(out,
            "usage: arena match --bot CMD [--name NAME] [--files PATH]... --bot CMD ...\n"
            "                   [--rules R]\n"
            "                   [--rule OPTION=VALUE]... [--players N] [--games G] [--seed S]\n"
            "                   [--hands H] [--first-deal D] [--out DIR] [--on-error "
            "forfeit|substitute]\n"
            "                   [--substitute first|random|greedy] [--max-error-share F]\n"
            "                   [--startup-ms A] [--decision-ms B] [--bank-ms C] [--hard-ms D]\n"
            "                   [--ponder] [--pace MS]\n"
            "                   [--log-cap BYTES] [--progress] [--quiet] [--trace SLOT|NAME|all]\n"
            "                   [--sandbox MIN] [--insecure] [--no-sandbox] [--profile N=P]\n"
            "                   [--memory-mb M] [--pids N] [--stdout-cap B] [--bind DIR]\n"
            "                   [--human SEAT [--tty | --port P] [--human-ms MS]\n"
            "                    [--page-timeout S]]\n"
            "  Play whole games between bot programs over the protocol (docs/protocol.md).\n"
            "  --human SEAT: you play slot SEAT yourself (seat SEAT in the first game; the seats\n"
            "  rotate), in the browser or with --tty in this terminal (docs/play.md).\n"
            "  Duplicate deals: every deal is played N times with the seats rotated; game\n"
            "  (d, r) puts slot (i + r) mod N at seat i; slot k runs bot k mod K (K bots, K <=\n"
            "  N); one process per slot for the whole match. G is rounded up to a multiple of N.\n"
            "  Deal d is dealt from splitmix64(S + d). Game ids: m<S>-d<d>-r<r>.\n"
            "  --bot CMD        a program and its arguments, split on white space (\"...\" keeps\n"
            "                   spaces), found through PATH; @random or @greedy for a built-in\n"
            "  --name NAME      name of the --bot before it (default: from the command)\n"
            "  --files PATH     a folder (or file) of the --bot before it, shown to that bot\n"
            "                   alone (repeatable): its modules, data, a multi-file bot. A bot\n"
            "                   sees only its program, its scripts, these and the SDK\n"
            "                   (docs/sandbox.md)\n"
            "  --rules R        preset: laws parlett arlington german gin (default laws)\n"
            "  --rule OPT=VAL   override one rule option (repeatable)\n"
            "  --players N      seats (default 3; 2 for gin)\n"
            "  --games G        games (default 20, rounded up to a multiple of N)\n"
            "  --seed S         match seed (default 1)\n"
            "  --hands H        a fixed number of hands per game (1-1000), scored as the sum of\n"
            "                   the hand scores (no target, winner's bonus or settlement);\n"
            "                   default: games to the rules' target\n"
            "  --first-deal D   start at deal D (default 0): plays deals D, D+1, ...; deal d is\n"
            "                   the same game whatever D, so one game of a long match or of a\n"
            "                   tournament (docs/tournaments.md) can be replayed on its own\n"
            "  --out DIR        results.json, games.jsonl, records/, logs/ (default match-out);\n"
            "                   those of an earlier match there are removed first\n"
            "  --on-error P     forfeit (default): the erring seat forfeits the game at once;\n"
            "                   substitute: the arena plays for it and the game goes on\n"
            "  --substitute S   the substitute move: first legal action, random (seeded from\n"
            "                   the deal, default) or greedy\n"
            "  --max-error-share F  disqualify a bot with errors in more than F of its games,\n"
            "                   judged from its 4th game on (default 0.5)\n"
            "  --startup-ms A   spawn to Ready (default 10000)\n"
            "  --decision-ms B  free time per decision (default 1000)\n"
            "  --bank-ms C      per-game bank for decisions longer than B (default 10000)\n"
            "  --hard-ms D      ceiling of one decision, always (default 5000)\n"
            "  --ponder         bots run between their decisions (think on the others' time);\n"
            "                   default: a bot runs only while it starts, decides or leaves,\n"
            "                   frozen otherwise, so two bots are never awake at once\n"
            "                   (docs/sandbox.md)\n"
            "  --pace MS        hand a Decision to a bot no earlier than MS after the previous\n"
            "                   one, so that a decision shorter than MS says nothing by its\n"
            "                   time (default 0: none)\n"
            "  --log-cap BYTES  stderr kept per slot in DIR/logs (default 1048576; 0: none)\n"
            "  --progress       a line per game on stderr (default when stderr is a terminal)\n"
            "  --quiet          no progress, no verdict lines; the summary table still prints\n"
            "  --trace WHO      write every frame to and from the bot in slot WHO (0, 1, ...;\n"
            "                   the --bot order), the bot named WHO, or all bots to stderr, as\n"
            "                   text with timestamps: '>' to the bot, '<' from it, '!' starts\n"
            "                   and verdicts\n"
            "  Output: the summary table on stdout; verdicts and progress on stderr.\n"
            "  Verdicts: RE TLE MLE OLE PE IA SV (docs/cli.md).\n"
            "  Exit: 0 match played (bot errors are results), 1 arena failure or interrupted,\n"
            "  2 bad command line (or the sandbox is weaker than --sandbox MIN).\n");
    ar_serve_usage(out);
    ar_sb_usage(out);
}

typedef struct match_opts {
    ar_rules_args rules;
    int players;
    long long games;
    long long hands;
    long long first_deal;
    uint64_t seed;
    const char *out_dir;
    int on_error;
    int substitute;
    double max_error_share;
    ar_clocks clocks;
    int ponder;
    long long pace_ms;
    long long log_cap;
    int progress, quiet;
    const char *trace;
    ar_serve_args serve;
    ar_cli_bots bots;
    ar_sb_args sb;
    int human, human_tty, human_port; /* --human SEAT (-1: none), --tty, --port */
    uint32_t human_ms;
    long long page_timeout_s;
} match_opts;

/* Does name end in suffix? */
static int ends_with(const char *name, const char *suffix)
{
    size_t n = strlen(name), k = strlen(suffix);
    return n >= k && strcmp(name + n - k, suffix) == 0;
}

/* Remove dir/sub/<*suffix> (regular files only). Returns how many. */
static int clear_files(const char *dir, const char *sub, const char *suffix)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, sub);
    DIR *d = opendir(path);
    if (!d)
        return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char f[PATH_MAX + 256];
        struct stat st;
        snprintf(f, sizeof f, "%s/%s", path, e->d_name);
        if (ends_with(e->d_name, suffix) && lstat(f, &st) == 0 && S_ISREG(st.st_mode) &&
            unlink(f) == 0)
            n++;
    }
    closedir(d);
    return n;
}

/* --out into a folder an earlier match wrote: remove what a match writes there (results.json,
 * games.jsonl, records/NAME.jsonl, logs/NAME.log), so that no stale record or log sits beside the
 * new results; anything else in the folder is not ours and stays. */
static void clear_outputs(const char *dir, int quiet)
{
    int n = 0;
    static const char *const top[] = {"results.json", "games.jsonl", NULL};
    for (int i = 0; top[i]; i++) {
        char f[PATH_MAX];
        snprintf(f, sizeof f, "%s/%s", dir, top[i]);
        n += unlink(f) == 0;
    }
    n += clear_files(dir, "records", ".jsonl");
    n += clear_files(dir, "logs", ".log");
    if (n && !quiet)
        fprintf(stderr, "arena: --out %s: removed %d files of an earlier match\n", dir, n);
}

/* Returns AR_EXIT_OK or AR_EXIT_USAGE after printing the problem. */
static int parse_args(int argc, char **argv, match_opts *o)
{
    int players_given = 0;
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        long long n;
        int r;
        if ((r = ar_table_flag(argc, argv, &i, &o->rules, &o->players, &players_given, &o->seed)) !=
            0) {
            if (r < 0)
                return AR_EXIT_USAGE;
        } else if ((r = ar_flag(argc, argv, &i, "--games", &v)) != 0) {
            if (r < 0 || ar_parse_long("--games", v, 1, 1000000000LL, &n) < 0)
                return AR_EXIT_USAGE;
            o->games = n;
        } else if ((r = ar_flag(argc, argv, &i, "--hands", &v)) != 0) {
            if (r < 0 || ar_parse_long("--hands", v, 1, AR_MATCH_MAX_HANDS, &o->hands) < 0)
                return AR_EXIT_USAGE;
        } else if ((r = ar_flag(argc, argv, &i, "--first-deal", &v)) != 0) {
            if (r < 0 || ar_parse_long("--first-deal", v, 0, 1LL << 40, &n) < 0)
                return AR_EXIT_USAGE;
            o->first_deal = n;
        } else if ((r = ar_flag(argc, argv, &i, "--bot", &v)) != 0) {
            if (r < 0 || ar_cli_bots_add(&o->bots, "--bot", v) < 0)
                return AR_EXIT_USAGE;
        } else if ((r = ar_flag(argc, argv, &i, "--name", &v)) != 0) {
            if (r < 0 || ar_cli_bots_name(&o->bots, v) < 0)
                return AR_EXIT_USAGE;
        } else if ((r = ar_flag(argc, argv, &i, "--files", &v)) != 0) {
            if (r < 0 || ar_cli_bots_files(&o->bots, v) < 0)
                return AR_EXIT_USAGE;
        } else if ((r = ar_flag(argc, argv, &i, "--out", &v)) != 0) {
            if (r < 0)
                return AR_EXIT_USAGE;
            o->out_dir = v;
        } else if ((r = ar_flag(argc, argv, &i, "--on-error", &v)) != 0) {
            if (r < 0)
                return AR_EXIT_USAGE;
            if (strcmp(v, "forfeit") == 0)
                o->on_error = AR_ON_ERROR_FORFEIT;
            else if (strcmp(v, "substitute") == 0)
                o->on_error = AR_ON_ERROR_SUBSTITUTE;
            else {
                fprintf(stderr, "arena: --on-error: expected forfeit or substitute, got '%s'\n", v);
                return AR_EXIT_USAGE;
            }
        } else if ((r = ar_flag(argc, argv, &i, "--substitute", &v)) != 0) {
            ar_policy p;
            if (r < 0)
                return AR_EXIT_USAGE;
            if (strcmp(v, "first") == 0)
                o->substitute = AR_SUB_FIRST;
            else if (ar_policy_from_name(v, &p) == 0)
                o->substitute = (int)p;
            else {
                fprintf(stderr, "arena: --substitute: expected first, random or greedy, got '%s'\n",
                        v);
                return AR_EXIT_USAGE;
            }
        } else if ((r = ar_flag(argc, argv, &i, "--max-error-share", &v)) != 0) {
            char *end;
            if (r < 0)
                return AR_EXIT_USAGE;
            errno = 0;
            double f = strtod(v, &end);
            if (errno || end == v || *end || !(f >= 0 && f <= 1)) {
                fprintf(stderr,
                        "arena: --max-error-share: expected a number from 0 to 1, got "
                        "'%s'\n",
                        v);
                return AR_EXIT_USAGE;
            }
            o->max_error_share = f;
        } else if ((r = ar_flag(argc, argv, &i, "--startup-ms", &v)) != 0) {
            if (r < 0 || ar_parse_ms("--startup-ms", v, &o->clocks.startup_ms) < 0)
                return AR_EXIT_USAGE;
        } else if ((r = ar_flag(argc, argv, &i, "--decision-ms", &v)) != 0) {
            if (r < 0 || ar_parse_ms("--decision-ms", v, &o->clocks.decision_ms) < 0)
                return AR_EXIT_USAGE;
        } else if ((r = ar_flag(argc, argv, &i, "--bank-ms", &v)) != 0) {
            long long b;
            if (r < 0 || ar_parse_long("--bank-ms", v, 0, 86400000, &b) < 0)
                return AR_EXIT_USAGE;
            o->clocks.bank_ms = (uint32_t)b;
        } else if ((r = ar_flag(argc, argv, &i, "--hard-ms", &v)) != 0) {
            if (r < 0 || ar_parse_ms("--hard-ms", v, &o->clocks.hard_ms) < 0)
                return AR_EXIT_USAGE;
        } else if ((r = ar_flag(argc, argv, &i, "--log-cap", &v)) != 0) {
            if (r < 0 || ar_parse_long("--log-cap", v, 0, 1LL << 40, &o->log_cap) < 0)
                return AR_EXIT_USAGE;
        } else if ((r = ar_flag(argc, argv, &i, "--pace", &v)) != 0) {
            if (r < 0 || ar_parse_long("--pace", v, 0, 86400000, &o->pace_ms) < 0)
                return AR_EXIT_USAGE;
        } else if (strcmp(argv[i], "--ponder") == 0) {
            o->ponder = 1;
        } else if ((r = ar_sb_flag(argc, argv, &i, &o->sb)) != 0) {
            if (r < 0)
                return AR_EXIT_USAGE;
        } else if ((r = ar_flag(argc, argv, &i, "--human", &v)) != 0) {
            if (r < 0 || ar_parse_long("--human", v, 0, OKR_MAX_PLAYERS - 1, &n) < 0)
                return AR_EXIT_USAGE;
            o->human = (int)n;
        } else if ((r = ar_flag(argc, argv, &i, "--port", &v)) != 0) {
            if (r < 0 || ar_parse_long("--port", v, 0, 65535, &n) < 0)
                return AR_EXIT_USAGE;
            o->human_port = (int)n;
        } else if ((r = ar_flag(argc, argv, &i, "--human-ms", &v)) != 0) {
            if (r < 0 || ar_parse_ms("--human-ms", v, &o->human_ms) < 0)
                return AR_EXIT_USAGE;
        } else if ((r = ar_flag(argc, argv, &i, "--page-timeout", &v)) != 0) {
            if (r < 0 || ar_parse_long("--page-timeout", v, 0, 86400, &o->page_timeout_s) < 0)
                return AR_EXIT_USAGE;
        } else if (strcmp(argv[i], "--tty") == 0) {
            o->human_tty = 1;
        } else if (strcmp(argv[i], "--practice") == 0) {
            fprintf(stderr, "arena match: --practice is refused: a match is recorded as played "
                            "(take moves back in arena play --practice)\n");
            return AR_EXIT_USAGE;
        } else if ((r = ar_flag(argc, argv, &i, "--trace", &v)) != 0) {
            if (r < 0)
                return AR_EXIT_USAGE;
            o->trace = v;
        } else if ((r = ar_serve_flag(argc, argv, &i, &o->serve)) != 0) {
            if (r < 0)
                return AR_EXIT_USAGE;
        } else if (strcmp(argv[i], "--progress") == 0) {
            o->progress = 1;
        } else if (strcmp(argv[i], "--quiet") == 0 || strcmp(argv[i], "-q") == 0) {
            o->quiet = 1;
        } else {
            fprintf(stderr, "arena match: unknown argument '%s'\n", argv[i]);
            ar_match_usage(stderr);
            return AR_EXIT_USAGE;
        }
    }
    if (!players_given && o->rules.preset && strcmp(o->rules.preset, "gin") == 0)
        o->players = 2;
    if (o->bots.n == 0) {
        fprintf(stderr, "arena match: at least one --bot is needed\n");
        ar_match_usage(stderr);
        return AR_EXIT_USAGE;
    }
    if (o->human >= o->players) {
        fprintf(stderr, "arena match: --human %d: the seats are 0 to %d\n", o->human,
                o->players - 1);
        return AR_EXIT_USAGE;
    }
    if (o->human >= 0 && o->bots.n > o->players - 1) {
        fprintf(stderr, "arena match: %d bots for the %d seats the human leaves free\n", o->bots.n,
                o->players - 1);
        return AR_EXIT_USAGE;
    }
    if (o->bots.n > o->players) {
        fprintf(stderr,
                "arena match: %d bots for %d seats: a match seats at most one bot per seat "
                "(give --players, or run a tournament)\n",
                o->bots.n, o->players);
        return AR_EXIT_USAGE;
    }
    return AR_EXIT_OK;
}

int ar_match_main(int argc, char **argv)
{
    match_opts o;
    memset(&o, 0, sizeof o);
    o.players = 3;
    o.games = 20;
    o.seed = 1;
    o.out_dir = "match-out";
    o.on_error = AR_ON_ERROR_FORFEIT;
    o.substitute = AR_POLICY_RANDOM;
    o.max_error_share = 0.5;
    o.clocks = (ar_clocks){10000, 1000, 10000, 5000};
    o.log_cap = 1 << 20;
    o.progress = isatty(2);
    o.serve = (ar_serve_args)AR_SERVE_ARGS_INIT;
    ar_sb_args_init(&o.sb);
    al_server *live = NULL;
    o.human = -1;
    o.human_ms = 1800000;
    o.page_timeout_s = AR_PAGE_TIMEOUT_S;
    ar_cli_human *human = NULL;
    ar_entrant *ents = NULL;
    int slot_bot[OKR_MAX_PLAYERS];
    int lockfd = -1; /* one arena per output folder, for the whole match */

    okr_rules rules;
    int rc = parse_args(argc, argv, &o);
    if (rc == AR_EXIT_OK)
        rc = ar_rules_build(&o.rules, o.players, &rules);
    if (rc == AR_EXIT_OK) { /* duplicate play: the dealer rotates (docs/rules.md, RULES 2.3) */
        okr_refusal why;
        if (ar_match_duplicate_rules(&rules, o.rules.options, o.rules.noptions, o.hands, &why)) {
            ar_print_refusal(o.hands ? "--hands" : NULL, &why);
            rc = AR_EXIT_USAGE;
        }
    }
    if (rc == AR_EXIT_OK)
        rc = ar_cli_bots_finish(&o.bots);
    if (rc == AR_EXIT_OK && o.trace)
        rc = ar_cli_trace_check(o.trace, &o.bots, o.players);
    /* a human seat (docs/play.md): its page's socket before the sandbox's network namespace */
    if (rc == AR_EXIT_OK && o.human >= 0 &&
        !(human = ar_cli_human_new(o.human_tty, o.human_port, o.human, o.human_ms,
                                   o.clocks.startup_ms, o.page_timeout_s)))
        rc = AR_EXIT_USAGE;
    ar_sandbox_cfg sandbox;
    if (rc == AR_EXIT_OK && o.serve.on) /* before the sandbox takes the network away */
        live = ar_serve_bind(&o.serve, o.out_dir, "match", "match", &rc);
    if (rc == AR_EXIT_OK)
        rc = ar_sb_setup(&o.sb, o.quiet, o.bots.e, o.bots.n, &sandbox);
    if (rc == AR_EXIT_OK && human) { /* the bots, then the human in slot --human */
        ents = ar_xcalloc((size_t)o.bots.n + 1, sizeof *ents);
        memcpy(ents, o.bots.e, (size_t)o.bots.n * sizeof *ents);
        ents[o.bots.n] = ar_cli_human_entrant(human);
        for (int k = 0, b = 0; k < o.players; k++)
            slot_bot[k] = k == o.human ? o.bots.n : (b++) % o.bots.n;
    }
    if (rc != AR_EXIT_OK)
        goto out;

    long long deals = ar_match_deals(o.games, o.players);
    if (deals * o.players != o.games && !o.quiet)
        fprintf(stderr,
                "arena: --games %lld rounded up to %lld: every deal is played in all %d "
                "rotations\n",
                o.games, deals * o.players, o.players);

    ar_match_config cfg = {
        .rules = rules,
        .players = o.players,
        .deals = deals,
        .first_deal = o.first_deal,
        .games_requested = o.games,
        .hands = (int)o.hands,
        .seed = o.seed,
        .bots = human ? ents : o.bots.e,
        .nbots = o.bots.n + (human != NULL),
        .slot_bot = human ? slot_bot : NULL,
        .clocks = o.clocks,
        .ponder = o.ponder,
        .pace_ms = (uint32_t)o.pace_ms,
        .on_error = o.on_error,
        .substitute = o.substitute,
        .max_error_share = o.max_error_share,
        .dq_min_games = 4,
        .out_dir = o.out_dir,
        .progress = o.progress && !o.quiet,
        .quiet = o.quiet,
        .max_pending = (size_t)16 << 20,
        .log_cap = (size_t)o.log_cap,
        .bye_ms = 1000,
        .eof_ms = 500,
        .stdout_cap = (uint64_t)o.sb.stdout_cap,
        .sandbox = sandbox,
        .trace = o.trace ? stderr : NULL,
        .trace_sel = o.trace,
        .live_records = live != NULL,
    };
    if ((rc = ar_cli_bots_check_views(&cfg)) != AR_EXIT_OK)
        goto out;
    /* the output folder is ours from here to the end (made now if missing) */
    if ((lockfd = ar_outlock(o.out_dir, "--out")) == -1) {
        rc = AR_EXIT_USAGE;
        goto out;
    }
    clear_outputs(o.out_dir, o.quiet);
    if ((rc = ar_serve_start(live)) != AR_EXIT_OK)
        goto out;
    ar_match *m = ar_match_new(&cfg);
    int mrc = ar_match_run(m);
    if (human && ar_cli_human_end(human) < 0)
        mrc = -EIO;
    if (ar_match_results(m))
        ar_results_print(ar_match_results(m), ar_match_totals_of(m), stdout);
    fflush(stdout);
    if (mrc == -EINTR) {
        fprintf(stderr, "arena: interrupted; partial results are in %s\n", o.out_dir);
        rc = AR_EXIT_FAIL;
    } else if (mrc < 0) {
        rc = AR_EXIT_FAIL;
    }
    ar_match_free(m);
    ar_serve_end(live, &o.serve, rc);
    live = NULL;
out:
    if (lockfd >= 0)
        close(lockfd);
    al_stop(live);
    free(ents);
    ar_cli_human_free(human);
    ar_sb_args_free(&o.sb);
    ar_cli_bots_free(&o.bots);
    ar_rules_args_free(&o.rules);
    return rc;
}
