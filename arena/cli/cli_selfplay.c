/* cli_selfplay.c - `arena selfplay`: whole games in-process between built-in policies, with
 * a readable summary and, as the very last line of stdout, one JSON object. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "match/json_out.h"
#include "match/policy.h"

/* A game that runs longer than this is an engine bug (RULES 4.9 and 7.7 cap every game far
 * below it): report it, never hang. */
#define AR_SELFPLAY_MAX_ACTIONS 10000000LL

void ar_selfplay_usage(FILE *out)
{
    fprintf(
        out,
        "usage: arena selfplay [--rules R] [--players N] [--games G] [--seed S]\n"
        "                      [--rule OPTION=VALUE]... [--policy random|greedy] [--quiet]\n"
        "                      [--max-actions N] [--trace FILE]\n"
        "  Play G whole games in-process, every seat with the same built-in policy.\n"
        "  Game k (0-based) is dealt from seed S+k; the policy's generator is seeded from it\n"
        "  too, so each game can be replayed alone.\n"
        "  --rules R        preset: laws parlett arlington german gin (default laws)\n"
        "  --players N      seats (default 3; 2 for gin)\n"
        "  --games G        games to play (default 20)\n"
        "  --seed S         first game's seed (default 1)\n"
        "  --rule OPT=VAL   override one rule option after the preset (repeatable)\n"
        "  --policy P       random (uniform over the legal actions) or greedy (default random)\n"
        "  --quiet          print only the JSON line\n"
        "  --max-actions N  stop with an error if one game takes more actions (default %lld)\n"
        "  --trace FILE     write every action played, in the notation, to FILE: a\n"
        "                   '# game K seed S' line per game and 'next' between hands, so\n"
        "                   that `arena script --seed S` replays a game\n"
        "  Output: per-seat wins, mean final total and placements; hands, actions, time;\n"
        "  then one JSON line: rules options players games hands actions seconds\n"
        "  actions_per_second seed policy wins mean_final placements.\n"
        "  Exit: 0 done, 1 engine error, 2 bad command line or refused rule option.\n",
        AR_SELFPLAY_MAX_ACTIONS);
}

typedef struct selfplay_opts {
    ar_rules_args rules;
    int players;
    long long games;
    uint64_t seed;
    ar_policy policy;
    int quiet;
    long long max_actions;
    const char *trace_path;
    FILE *trace; /* open while playing when --trace was given */
} selfplay_opts;

typedef struct selfplay_stats {
    long long hands, actions;
    long long wins[OKR_MAX_PLAYERS];
    long long final_sum[OKR_MAX_PLAYERS];
    long long places[OKR_MAX_PLAYERS][OKR_MAX_PLAYERS]; /* [seat][placement - 1] */
} selfplay_stats;

/* Returns AR_EXIT_OK, or AR_EXIT_USAGE after printing the problem. */
static int parse_args(int argc, char **argv, selfplay_opts *o)
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
        } else if ((r = ar_flag(argc, argv, &i, "--policy", &v)) != 0) {
            if (r < 0)
                return AR_EXIT_USAGE;
            if (ar_policy_from_name(v, &o->policy) < 0) {
                fprintf(stderr, "arena: --policy: unknown policy '%s' (known: %s)\n", v,
                        ar_policy_names());
                return AR_EXIT_USAGE;
            }
        } else if ((r = ar_flag(argc, argv, &i, "--max-actions", &v)) != 0) {
            if (r < 0 || ar_parse_long("--max-actions", v, 1, AR_SELFPLAY_MAX_ACTIONS, &n) < 0)
                return AR_EXIT_USAGE;
            o->max_actions = n;
        } else if ((r = ar_flag(argc, argv, &i, "--trace", &v)) != 0) {
            if (r < 0)
                return AR_EXIT_USAGE;
            o->trace_path = v;
        } else if (strcmp(argv[i], "--quiet") == 0 || strcmp(argv[i], "-q") == 0) {
            o->quiet = 1;
        } else {
            fprintf(stderr, "arena selfplay: unknown argument '%s'\n", argv[i]);
            ar_selfplay_usage(stderr);
            return AR_EXIT_USAGE;
        }
    }
    /* gin is a two-player game (RULES 2.1): make the default fit it */
    if (!players_given && o->rules.preset && strcmp(o->rules.preset, "gin") == 0)
        o->players = 2;
    return AR_EXIT_OK;
}

/* Play game k to its end. Returns AR_EXIT_OK or AR_EXIT_FAIL after printing the problem. */
static int play_game(const selfplay_opts *o, const okr_rules *rules, long long k, okr_game *g,
                     okr_action *acts, selfplay_stats *st)
{
    okr_refusal why;
    uint64_t seed = o->seed + (uint64_t)k;
    memset(&why, 0, sizeof why);
    if (okr_game_init(g, rules, o->players, seed, NULL, 0, &why) != OKR_OK) {
        fprintf(stderr, "arena: game %lld (seed %llu): cannot start: %s (RULES %s)\n", k,
                (unsigned long long)seed, why.reason, why.rule);
        return AR_EXIT_FAIL;
    }
    ar_rng rng;
    ar_rng_seed(&rng, seed ^ 0x5851f42d4c957f2dULL);
    if (o->trace)
        fprintf(o->trace, "# game %lld seed %llu rules %s players %d\n", k,
                (unsigned long long)seed, rules->preset, o->players);
    long long steps = 0;
    while (g->phase != OKR_PH_GAME_OVER) {
        if (g->phase == OKR_PH_HAND_OVER) {
            memset(&why, 0, sizeof why);
            if (okr_next_hand(g, NULL, 0, &why) != OKR_OK) {
                fprintf(stderr, "arena: game %lld (seed %llu): next hand refused: %s\n", k,
                        (unsigned long long)seed, why.reason);
                return AR_EXIT_FAIL;
            }
            if (o->trace)
                fputs("next\n", o->trace);
            continue;
        }
        int n = okr_legal(g, acts, OKR_MAX_ACTIONS);
        if (n <= 0) {
            fprintf(stderr,
                    "arena: game %lld (seed %llu): okr_legal returned %d in phase %s, hand %d\n", k,
                    (unsigned long long)seed, n, ar_phase_name(g->phase), g->hand_no);
            return AR_EXIT_FAIL;
        }
        int i = ar_policy_choose(o->policy, g, acts, n, &rng);
        memset(&why, 0, sizeof why);
        if (okr_apply(g, &acts[i], NULL, &why) != OKR_OK) {
            char text[512];
            okr_action_format(&acts[i], text, sizeof text);
            fprintf(stderr,
                    "arena: game %lld (seed %llu): the engine refused its own legal action "
                    "'%s' (RULES %s): %s\n",
                    k, (unsigned long long)seed, text, why.rule, why.reason);
            return AR_EXIT_FAIL;
        }
        if (o->trace) {
            char text[512];
            okr_action_format(&acts[i], text, sizeof text);
            fprintf(o->trace, "%s\n", text);
        }
        st->actions++;
        if (++steps > o->max_actions) {
            fprintf(stderr,
                    "arena: game %lld (seed %llu): no end after %lld actions (hand %d, phase "
                    "%s): stopped\n",
                    k, (unsigned long long)seed, o->max_actions, g->hand_no,
                    ar_phase_name(g->phase));
            return AR_EXIT_FAIL;
        }
    }
    st->hands += g->hand_no;
    for (int s = 0; s < o->players; s++) {
        if (g->result.winners & (1u << s))
            st->wins[s]++;
        st->final_sum[s] += g->result.final_total[s];
        int place = g->result.placement[s];
        if (place >= 1 && place <= o->players)
            st->places[s][place - 1]++;
    }
    return AR_EXIT_OK;
}

static void print_summary(const selfplay_opts *o, const okr_rules *rules, const selfplay_stats *st,
                          double secs)
{
    printf("selfplay: %s, %d players, %lld games, seed %llu, policy %s\n", rules->preset,
           o->players, o->games, (unsigned long long)o->seed, ar_policy_name(o->policy));
    static const char *const ordinal[] = {"1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th"};
    printf("seat   wins  mean_final  placements (");
    for (int p = 0; p < o->players && p < OKR_MAX_PLAYERS; p++)
        printf(p ? " %s" : "%s", ordinal[p]);
    printf(")\n");
    for (int s = 0; s < o->players; s++) {
        printf("%4d %6lld %11.1f ", s, st->wins[s], (double)st->final_sum[s] / (double)o->games);
        for (int p = 0; p < o->players; p++)
            printf(" %lld", st->places[s][p]);
        printf("\n");
    }
    printf("hands %lld, actions %lld, %.3f s, %.0f actions/s\n", st->hands, st->actions, secs,
           secs > 0 ? (double)st->actions / secs : 0.0);
}

static json_t *summary_json(const selfplay_opts *o, const okr_rules *rules,
                            const selfplay_stats *st, double secs)
{
    char options[1024];
    if (okr_rules_format(rules, options, sizeof options) < 0)
        options[0] = '\0';
    json_t *doc = json_object();
    if (!doc)
        return NULL;
    json_object_set_new(doc, "rules", json_string(rules->preset));
    json_object_set_new(doc, "options", json_string(options));
    json_object_set_new(doc, "players", json_integer(o->players));
    json_object_set_new(doc, "games", json_integer(o->games));
    json_object_set_new(doc, "hands", json_integer(st->hands));
    json_object_set_new(doc, "actions", json_integer(st->actions));
    json_object_set_new(doc, "seconds", json_real(secs));
    json_object_set_new(doc, "actions_per_second",
                        json_real(secs > 0 ? (double)st->actions / secs : 0.0));
    /* JSON integers are signed 64-bit in jansson: a seed above that is written as a string */
    if (o->seed <= (uint64_t)INT64_MAX)
        json_object_set_new(doc, "seed", json_integer((json_int_t)o->seed));
    else {
        char s[32];
        snprintf(s, sizeof s, "%llu", (unsigned long long)o->seed);
        json_object_set_new(doc, "seed", json_string(s));
    }
    json_object_set_new(doc, "policy", json_string(ar_policy_name(o->policy)));
    json_t *wins = json_array(), *mean = json_array(), *places = json_array();
    for (int s = 0; s < o->players; s++) {
        json_array_append_new(wins, json_integer(st->wins[s]));
        json_array_append_new(mean, json_real((double)st->final_sum[s] / (double)o->games));
        json_t *row = json_array();
        for (int p = 0; p < o->players; p++)
            json_array_append_new(row, json_integer(st->places[s][p]));
        json_array_append_new(places, row);
    }
    json_object_set_new(doc, "wins", wins);
    json_object_set_new(doc, "mean_final", mean);
    json_object_set_new(doc, "placements", places);
    return doc;
}

int ar_selfplay_main(int argc, char **argv)
{
    selfplay_opts o;
    memset(&o, 0, sizeof o);
    o.players = 3;
    o.games = 20;
    o.seed = 1;
    o.policy = AR_POLICY_RANDOM;
    o.max_actions = AR_SELFPLAY_MAX_ACTIONS;

    okr_rules rules;
    int rc = parse_args(argc, argv, &o);
    if (rc == AR_EXIT_OK)
        rc = ar_rules_build(&o.rules, o.players, &rules);
    if (rc != AR_EXIT_OK) {
        ar_rules_args_free(&o.rules);
        return rc;
    }

    okr_game *g = malloc(sizeof *g);
    okr_action *acts = malloc(OKR_MAX_ACTIONS * sizeof *acts);
    selfplay_stats *st = calloc(1, sizeof *st);
    if (!g || !acts || !st) {
        fprintf(stderr, "arena: out of memory\n");
        rc = AR_EXIT_FAIL;
        goto out;
    }
    if (o.trace_path && !(o.trace = fopen(o.trace_path, "w"))) {
        fprintf(stderr, "arena: --trace: cannot write '%s': %s\n", o.trace_path, strerror(errno));
        rc = AR_EXIT_FAIL;
        goto out;
    }
    double t0 = ar_now();
    for (long long k = 0; k < o.games && rc == AR_EXIT_OK; k++)
        rc = play_game(&o, &rules, k, g, acts, st);
    double secs = ar_now() - t0;
    if (rc != AR_EXIT_OK)
        goto out;

    if (!o.quiet)
        print_summary(&o, &rules, st, secs);
    json_t *doc = summary_json(&o, &rules, st, secs);
    if (ar_json_print_line(doc, stdout) < 0) {
        fprintf(stderr, "arena: cannot write the JSON summary\n");
        rc = AR_EXIT_FAIL;
    }
    json_decref(doc);
out:
    if (o.trace && fclose(o.trace) != 0 && rc == AR_EXIT_OK) {
        fprintf(stderr, "arena: --trace: cannot write '%s': %s\n", o.trace_path, strerror(errno));
        rc = AR_EXIT_FAIL;
    }
    free(st);
    free(acts);
    free(g);
    ar_rules_args_free(&o.rules);
    return rc;
}
