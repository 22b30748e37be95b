/* cli_checkbot.c - `arena check-bot`: a compliance check for one bot program, like fastchess
 * --compliance. The bot plays seat after seat against built-in random opponents, one game per
 * seat rotation so that it sits at every seat of the table (a bot can be right at seat 0 only:
 * an action built with the protobuf default seat 0), and on until it has answered K decisions;
 * any verdict makes it fail. Uses the match driver (min_games, stop_after, on_game). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_bots.h"
#include "jail/sandbox.h"
#include "match/match.h"
#include "util/util.h"

void ar_checkbot_usage(FILE *out)
{
    fprintf(
        out,
        "usage: arena check-bot --bot CMD [--files PATH]... [--rules R] [--rule OPT=VALUE]...\n"
        "                       [--players N] [--decisions K] [--seed S]\n"
        "                       [--startup-ms A] [--decision-ms B] [--bank-ms C] [--hard-ms D]\n"
        "                       [--sandbox MIN] [--insecure] [--no-sandbox] [--profile 1=P]\n"
        "                       [--memory-mb M] [--pids N] [--stdout-cap B] [--bind DIR]\n"
        "                       [--stderr] [--trace]\n"
        "  Check that a bot speaks the protocol: spawn it, run the handshake, and play\n"
        "  whole games (the other seats built-in random players), one per seat rotation so\n"
        "  that it sits at every seat of the table, and on until it has answered K\n"
        "  decisions and seen the GameEnd of the game it was in. Reports the program as the\n"
        "  jail runs it, the handshake, protocol version, name and version, the seats it\n"
        "  played, every reply's validity, games played to their end, startup time and\n"
        "  latency p50/p95/max.\n"
        "  --bot CMD        the program (split on white space, found through PATH)\n"
        "  --files PATH     a folder or file of the bot's own, shown to it (repeatable)\n"
        "  --rules R        preset (default laws); --players N (default 3; 2 for gin)\n"
        "  --decisions K    decisions to answer (default 20)\n"
        "  --seed S         deal seed (default 1)\n"
        "  --stderr         show the bot's stderr as it runs (on stderr, up to 1 MiB)\n"
        "  --trace          every frame to and from the bot, as text with timestamps, on\n"
        "                   stderr ('>' to the bot, '<' from it, '!' starts and verdicts)\n"
        "  clocks as for `arena match` (defaults 10000, 1000, 10000, 5000 ms)\n"
        "  The bot runs in the same sandbox as in `arena match`.\n"
        "  Exit: 0 compliant, 1 not compliant, 2 bad command line.\n");
    ar_sb_usage(out);
}

/* --startup-ms, --decision-ms, --bank-ms, --hard-ms: 1 if argv[*i] is one (stored in *c),
 * 0 if not, -1 after printing an error. */
static int clock_flag(int argc, char **argv, int *i, ar_clocks *c)
{
    static const char *const flags[] = {"--startup-ms", "--decision-ms", "--bank-ms", "--hard-ms"};
    uint32_t *fields[] = {&c->startup_ms, &c->decision_ms, &c->bank_ms, &c->hard_ms};
    for (int f = 0; f < 4; f++) {
        const char *v = NULL;
        long long n;
        int r = ar_flag(argc, argv, i, flags[f], &v);
        if (r == 0)
            continue;
        if (r < 0 || ar_parse_long(flags[f], v, f == 2 ? 0 : 1, 86400000, &n) < 0)
            return -1;
        *fields[f] = (uint32_t)n;
        return 1;
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Nearest-rank percentile of sorted x[0..n). */
static double pct(const double *x, long long n, double q)
{
    long long k = (long long)ceil(q * (double)n);
    if (k < 1)
        k = 1;
    if (k > n)
        k = n;
    return x[k - 1];
}

static void print_tail(const ar_bot *b)
{
    if (!b || b->tail_len == 0)
        return;
    /* the last lines of its stderr, at most ~1 KiB */
    size_t start = b->tail_len > 1024 ? b->tail_len - 1024 : 0;
    while (start > 0 && start < b->tail_len && b->tail[start - 1] != '\n')
        start++;
    printf("  last stderr:\n");
    int bol = 1;
    for (size_t i = start; i < b->tail_len; i++) {
        unsigned char c = (unsigned char)b->tail[i];
        if (bol)
            fputs("    | ", stdout);
        putchar(c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f) ? c : '?');
        bol = c == '\n';
    }
    if (!bol)
        putchar('\n');
}

/* What the jail showed the bot besides the system folders, one path a line. */
static void print_view(const ar_bot *b)
{
    if (!b || b->jail.mode < AR_SB_ROOTLESS)
        return;
    const char *head = "  jail shows   ";
    for (int i = 0; b->jail.binds && b->jail.binds[i]; i++, head = "               ")
        printf("%s%s\n", head, b->jail.binds[i]);
    printf("%sthe system folders (/usr, /lib, /bin...), nothing else; more: --files DIR\n", head);
}

/* What the bot (slot 0) did at each seat, from the match's on_game. */
typedef struct seat_log {
    int games[OKR_MAX_PLAYERS];           /* games played at the seat */
    long long decisions[OKR_MAX_PLAYERS]; /* Decisions answered there */
    int order[OKR_MAX_PLAYERS];           /* seats in the order first played */
    int norder;
    int verdict_seat; /* the seat of the bot's first verdict, -1 none */
    char verdict_game[64];
} seat_log;

static void on_game(const ar_game_outcome *o, void *ud)
{
    seat_log *sl = ud;
    for (int s = 0; s < o->players && s < OKR_MAX_PLAYERS; s++) {
        if (o->slot[s] != 0)
            continue;
        if (sl->games[s]++ == 0 && sl->norder < OKR_MAX_PLAYERS)
            sl->order[sl->norder++] = s;
        sl->decisions[s] += o->decisions[s];
        for (int v = 0; v < o->nverdicts && sl->verdict_seat < 0; v++)
            if (o->verdicts[v].seat == s) {
                sl->verdict_seat = s;
                snprintf(sl->verdict_game, sizeof sl->verdict_game, "%s", o->game_id);
            }
    }
}

/* The "seats" line: which seats the bot played, in the order played, with its decisions at
 * each. Returns 1 if it played every seat. */
static int print_seats(const seat_log *sl, int players)
{
    int all = sl->norder == players;
    if (all)
        printf("  seats        every seat of %d played:", players);
    else
        printf("  seats        played");
    for (int i = 0; i < sl->norder; i++)
        printf("%s seat %d (%lld%s)", i ? "," : "", sl->order[i], sl->decisions[sl->order[i]],
               i ? "" : " decisions");
    if (sl->norder == 0)
        printf(" no seat");
    if (!all) {
        printf("; not");
        for (int s = 0, k = 0; s < players; s++)
            if (!sl->games[s])
                printf("%s seat %d", k++ ? "," : "", s);
    }
    printf("\n");
    return all;
}

int ar_checkbot_main(int argc, char **argv)
{
    ar_rules_args ra;
    memset(&ra, 0, sizeof ra);
    ar_cli_bots bots;
    memset(&bots, 0, sizeof bots);
    int players = 3, players_given = 0, rc = AR_EXIT_OK;
    long long decisions = 20;
    uint64_t seed = 1;
    ar_clocks clocks = {10000, 1000, 10000, 5000};
    ar_sb_args sb;
    ar_sb_args_init(&sb);
    int show_stderr = 0, trace = 0;

    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        long long n;
        int r;
        if ((r = ar_flag(argc, argv, &i, "--bot", &v)) != 0) {
            if (r < 0 || ar_cli_bots_add(&bots, "--bot", v) < 0)
                rc = AR_EXIT_USAGE;
        } else if ((r = ar_flag(argc, argv, &i, "--files", &v)) != 0) {
            if (r < 0 || ar_cli_bots_files(&bots, v) < 0)
                rc = AR_EXIT_USAGE;
        } else if ((r = ar_flag(argc, argv, &i, "--rules", &v)) != 0) {
            if (r < 0)
                rc = AR_EXIT_USAGE;
            else
                ra.preset = v;
        } else if ((r = ar_flag(argc, argv, &i, "--rule", &v)) != 0) {
            if (r < 0)
                rc = AR_EXIT_USAGE;
            else
                ar_rules_args_add(&ra, v);
        } else if ((r = ar_flag(argc, argv, &i, "--players", &v)) != 0) {
            if (r < 0 || ar_parse_long("--players", v, 1, OKR_MAX_PLAYERS, &n) < 0)
                rc = AR_EXIT_USAGE;
            else
                players = (int)n, players_given = 1;
        } else if ((r = ar_flag(argc, argv, &i, "--decisions", &v)) != 0) {
            if (r < 0 || ar_parse_long("--decisions", v, 1, 100000000LL, &decisions) < 0)
                rc = AR_EXIT_USAGE;
        } else if ((r = ar_flag(argc, argv, &i, "--seed", &v)) != 0) {
            if (r < 0 || ar_parse_u64("--seed", v, &seed) < 0)
                rc = AR_EXIT_USAGE;
        } else if ((r = clock_flag(argc, argv, &i, &clocks)) != 0) {
            if (r < 0)
                rc = AR_EXIT_USAGE;
        } else if ((r = ar_sb_flag(argc, argv, &i, &sb)) != 0) {
            if (r < 0)
                rc = AR_EXIT_USAGE;
        } else if (strcmp(argv[i], "--stderr") == 0) {
            show_stderr = 1;
        } else if (strcmp(argv[i], "--trace") == 0) {
            trace = 1;
        } else {
            fprintf(stderr, "arena check-bot: unknown argument '%s'\n", argv[i]);
            ar_checkbot_usage(stderr);
            rc = AR_EXIT_USAGE;
        }
        if (rc != AR_EXIT_OK)
            goto out;
    }
    if (bots.n != 1 || bots.b[0].builtin) {
        fprintf(stderr, "arena check-bot: give exactly one --bot program\n");
        ar_checkbot_usage(stderr);
        rc = AR_EXIT_USAGE;
        goto out;
    }
    if (!players_given && ra.preset && strcmp(ra.preset, "gin") == 0)
        players = 2;
    okr_rules rules;
    if ((rc = ar_rules_build(&ra, players, &rules)) != AR_EXIT_OK)
        goto out;
    if (players > 1 && ar_cli_bots_add(&bots, "--bot", "@random") < 0) {
        rc = AR_EXIT_FAIL;
        goto out;
    }
    if ((rc = ar_cli_bots_finish(&bots)) != AR_EXIT_OK)
        goto out;
    ar_sandbox_cfg sandbox;
    if ((rc = ar_sb_setup(&sb, 0, bots.e, bots.n, &sandbox)) != AR_EXIT_OK)
        goto out;

    int slot_bot[OKR_MAX_PLAYERS] = {0};
    for (int k = 1; k < players; k++)
        slot_bot[k] = 1;
    seat_log seats;
    memset(&seats, 0, sizeof seats);
    seats.verdict_seat = -1;
    ar_match_config cfg = {
        .rules = rules,
        .players = players,
        .deals = decisions + 1, /* more than enough: it stops after K decisions */
        .games_requested = 0,
        .seed = seed,
        .bots = bots.e,
        .nbots = bots.n,
        .slot_bot = slot_bot,
        .clocks = clocks,
        .on_error = AR_ON_ERROR_FORFEIT,
        .substitute = AR_SUB_FIRST,
        .max_error_share = 1.0,
        .dq_min_games = 1 << 30,
        .out_dir = NULL,
        .quiet = 1,
        .max_pending = (size_t)16 << 20,
        .log_cap = show_stderr ? (size_t)1 << 20 : 0,
        .log_stream = show_stderr ? stderr : NULL,
        .trace = trace ? stderr : NULL,
        .trace_sel = "0",
        .bye_ms = 1000,
        .eof_ms = 500,
        .stop_after = decisions,
        .min_games = players, /* games 0..players-1 are deal 0's rotations: every seat */
        .on_game = on_game,
        .ud = &seats,
        .stdout_cap = (uint64_t)sb.stdout_cap,
        .sandbox = sandbox,
    };
    if ((rc = ar_cli_bots_check_views(&cfg)) != AR_EXIT_OK)
        goto out;
    ar_match *m = ar_match_new(&cfg);
    int mrc = ar_match_run(m);
    const ar_bot *b = ar_match_bot(m, 0);
    const ar_verdict *first = NULL;
    int nverdicts = ar_match_verdicts(m, 0, &first);
    long long nlat = 0;
    const double *lat = ar_match_latencies(m, 0, &nlat);
    int ok = 1, warnings = 0;

    printf("check-bot: %s\n", bots.b[0].command);
    printf("  program      %s\n", bots.b[0].path);
    if (sandbox.mode != AR_SB_OFF) {
        /* what the jail execs may differ: a bare name is found in the jail's PATH */
        char prog[PATH_MAX];
        const char *jp = ar_match_jail_program(&bots.e[0], prog, sizeof prog);
        printf("  in the jail  %s", jp);
        for (int a = 1; bots.b[0].argv && bots.b[0].argv[a]; a++)
            printf(" %s", bots.b[0].argv[a]);
        printf("%s\n",
               strcmp(jp, bots.b[0].path) ? " (the jail's PATH finds another program)" : "");
    }
    printf("  sandbox      %s%s%s\n", ar_sb_mode_name(sandbox.mode),
           sandbox.mode != 0 ? ", profile " : "",
           sandbox.mode != 0 ? ar_match_profile(&bots.e[0]) : "");
    print_view(b);
    printf("  rules        %s, %d players (one game per seat rotation, other seats @random), "
           "seed %llu\n",
           rules.preset, players, (unsigned long long)seed);
    int identified = b && (b->major || b->bot_name[0] || b->bot_version[0]);
    if (!identified) {
        printf("  handshake    FAIL: no Identify\n");
        ok = 0;
    } else if (b->major != 1) {
        printf("  handshake    FAIL: Identify says protocol %u.%u; the arena speaks 1.x\n",
               b->major, b->minor);
        ok = 0;
    } else {
        printf("  handshake    ok: Identify protocol %u.%u, name \"%s\", version \"%s\"\n",
               b->major, b->minor, b->bot_name, b->bot_version);
        if (!b->bot_name[0] || !b->bot_version[0]) {
            printf("  warning      the Identify has an empty %s\n",
                   !b->bot_name[0] ? "name" : "version");
            warnings++;
        }
    }
    if (b && b->ready_ms >= 0)
        printf("  ready        ok: %.1f ms after spawn (startup budget %u ms)\n", b->ready_ms,
               clocks.startup_ms);
    else {
        printf("  ready        FAIL: no Ready\n");
        ok = 0;
    }
    printf(
        "  decisions    %lld answered (%lld asked for, a game at every seat, each to its end)%s\n",
        nlat, decisions,
        nverdicts == 0 && nlat >= decisions ? ", every reply valid and legal" : "");
    const ar_match_totals *tot = ar_match_totals_of(m);
    printf("  games        %lld played to their end (GameEnd sent)\n", tot->games_completed);
    if (nverdicts == 0 && nlat >= decisions && tot->games_completed == 0) {
        printf("  games        FAIL: no game reached its end\n");
        ok = 0;
    }
    if (nlat < decisions && nverdicts == 0) {
        printf("  decisions    FAIL: stopped early\n");
        ok = 0;
    }
    if (!print_seats(&seats, players) && nverdicts == 0 && mrc == 0) {
        printf("  seats        FAIL: the check ended before the bot played every seat\n");
        ok = 0;
    }
    if (nlat > 0) {
        double *sorted = ar_xmalloc((size_t)nlat * sizeof *sorted);
        memcpy(sorted, lat, (size_t)nlat * sizeof *sorted);
        qsort(sorted, (size_t)nlat, sizeof *sorted, cmp_double);
        printf("  latency      p50 %.3f ms, p95 %.3f ms, max %.3f ms (decision limit %u ms)\n",
               pct(sorted, nlat, 0.5), pct(sorted, nlat, 0.95), sorted[nlat - 1],
               clocks.decision_ms);
        free(sorted);
    }
    if (first) {
        printf("  verdict      FAIL: %s%s%s%s%s: %s\n", ar_verdict_name(first->kind),
               first->clock[0] ? " " : "", first->clock, first->rule[0] ? " RULES " : "",
               first->rule, first->detail);
        if (seats.verdict_seat >= 0)
            printf("               at seat %d, game %s\n", seats.verdict_seat, seats.verdict_game);
        ok = 0;
    }
    if (b && b->bye_exit == 1)
        printf("  goodbye      ok: exited %.1f ms after Bye\n", b->bye_ms);
    else if (b && b->bye_exit == 2) {
        printf("  goodbye      warning: still running %u ms after Bye; killed\n", cfg.bye_ms);
        warnings++;
    }
    if (b)
        printf("  stderr       %llu bytes\n", (unsigned long long)b->log_total);
    char missing[80];
    if (!ok && b && b->jail.mode >= AR_SB_ROOTLESS &&
        ar_bot_missing_file(b, missing, sizeof missing))
        printf("  hint         \"%s\": the jail shows the bot only the paths above;\n"
               "               declare the folder it needs with --files DIR\n",
               missing);
    if (!ok)
        print_tail(b);
    if (mrc < 0 && mrc != -EINTR) {
        printf("result: arena failure\n");
        rc = AR_EXIT_FAIL;
    } else if (mrc == -EINTR) {
        printf("result: interrupted\n");
        rc = AR_EXIT_FAIL;
    } else {
        printf("result: %s%s\n", ok ? "compliant" : "NOT compliant",
               ok && warnings ? " (with warnings)" : "");
        rc = ok ? AR_EXIT_OK : AR_EXIT_FAIL;
    }
    ar_match_free(m);
out:
    ar_sb_args_free(&sb);
    ar_cli_bots_free(&bots);
    ar_rules_args_free(&ra);
    return rc;
}
