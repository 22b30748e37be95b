/* bench_engine.c - speed of the rules engine under uniform-random play, one core.
 *
 * For each benchmark configuration (preset and table size) games are played back to back
 * for a fixed time budget: at every decision the engine lists the legal actions
 * (okr_legal) and one is picked uniformly with a local xorshift generator, then applied
 * (okr_apply). No okr_check and no other verification runs in the timed loop. Reported:
 * hands/s, actions/s, okr_legal calls/s and the mean length of a legal-action list.
 *
 * A final "signature" folds the okr_digest of the last state of N fixed-seed games per
 * configuration into one FNV-1a value, like a chess engine's bench signature: any change
 * of the engine's behaviour (legal lists, their order, dealing, scoring) changes it.
 *
 *   build/bench/bench_engine [--seconds S] [--games N] [--only PRESET]
 *
 * See bench/README.md for the columns and the targets.
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "okr/okr.h"

typedef struct config {
    const char *preset;
    int players;
} config;

static const config configs[] = {
    {"laws", 2},      {"laws", 3},   {"laws", 4}, {"parlett", 3},
    {"arlington", 4}, {"german", 4}, {"gin", 2},
};
enum { N_CONFIGS = sizeof configs / sizeof configs[0] };

/* Targets (bench/README.md). */
#define TARGET_GIN_HANDS_PER_S 30000.0
#define TARGET_LAWS3_ACTIONS_PER_S 1000000.0

static okr_action acts[OKR_MAX_ACTIONS];

/* xorshift64* (local to the bench; the engine has its own pinned generator for dealing). */
static uint64_t xs_next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1DULL;
}

/* Uniform enough in [0, n) for n < 2^32: the top 32 bits scaled. */
static int xs_pick(uint64_t *s, int n)
{
    return (int)(((xs_next(s) >> 32) * (uint64_t)n) >> 32);
}

static uint64_t xs_seed(uint64_t seed)
{
    uint64_t z = seed + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return z ? z : 1;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU time of this process: only to show how much of the wall time the bench really ran
 * (column cpu%); the rates are per wall-clock second. */
static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what, const okr_refusal *why)
{
    fprintf(stderr, "bench_engine: %s: %s %s\n", what, why->rule, why->reason);
    exit(2);
}

static void rules_for(const config *c, okr_rules *r)
{
    okr_refusal why;
    if (okr_rules_preset(r, c->preset, &why) != OKR_OK)
        die("preset", &why);
    if (c->players > 7 && okr_rules_set(r, "decks", "3", &why) != OKR_OK)
        die("decks", &why);
}

typedef struct counters {
    uint64_t games, hands, actions, legal_calls, legal_sum;
} counters;

/* Play one whole game from `seed`; returns the final digest. Counts into *k if given. */
static uint64_t play_game(const okr_rules *r, int players, uint64_t seed, counters *k)
{
    okr_game g;
    okr_refusal why;
    uint64_t rng = xs_seed(seed);
    uint64_t hands = 0, actions = 0, calls = 0, sum = 0;
    if (okr_game_init(&g, r, players, seed, NULL, 0, &why) != OKR_OK)
        die("okr_game_init", &why);
    for (;;) {
        if (g.phase == OKR_PH_GAME_OVER) {
            hands++;
            break;
        }
        if (g.phase == OKR_PH_HAND_OVER) {
            hands++;
            if (okr_next_hand(&g, NULL, 0, &why) != OKR_OK)
                die("okr_next_hand", &why);
            continue;
        }
        int n = okr_legal(&g, acts, OKR_MAX_ACTIONS);
        calls++;
        if (n <= 0) {
            fprintf(stderr, "bench_engine: okr_legal returned %d (seed %" PRIu64 ")\n", n, seed);
            exit(2);
        }
        sum += (uint64_t)n;
        if (okr_apply(&g, &acts[xs_pick(&rng, n)], NULL, &why) != OKR_OK)
            die("okr_apply refused a listed action", &why);
        actions++;
    }
    if (k) {
        k->games++;
        k->hands += hands;
        k->actions += actions;
        k->legal_calls += calls;
        k->legal_sum += sum;
    }
    return okr_digest(&g);
}

static uint64_t fnv_fold(uint64_t h, uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        h ^= (v >> (8 * i)) & 0xFF;
        h *= 0x100000001B3ULL;
    }
    return h;
}

static void usage(void)
{
    fprintf(stderr, "usage: bench_engine [--seconds S] [--games N] [--only PRESET]\n"
                    "  --seconds S   time budget per configuration (default 2)\n"
                    "  --games N     fixed-seed games per configuration for the signature "
                    "(default 20)\n"
                    "  --only P      time only configurations of preset P (the signature "
                    "still covers all)\n");
    exit(2);
}

int main(int argc, char **argv)
{
    double seconds = 2.0;
    int sig_games = 20;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc)
            seconds = atof(argv[++i]);
        else if (strcmp(argv[i], "--games") == 0 && i + 1 < argc)
            sig_games = atoi(argv[++i]);
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = argv[++i];
        else
            usage();
    }
    if (seconds <= 0 || sig_games < 1)
        usage();

    double hps[N_CONFIGS] = {0}, aps[N_CONFIGS] = {0}, lps[N_CONFIGS] = {0};
    double mlen[N_CONFIGS] = {0}, cpu[N_CONFIGS] = {0};
    double hpc[N_CONFIGS] = {0}, apc[N_CONFIGS] = {0}; /* per CPU-second */
    counters k[N_CONFIGS];
    int ran[N_CONFIGS] = {0};
    memset(k, 0, sizeof k);

    printf("okr bench_engine: uniform-random play, one core, %.1f s per configuration\n", seconds);
    printf("sizeof(okr_game)=%zu sizeof(okr_view)=%zu sizeof(okr_action)=%zu\n\n", sizeof(okr_game),
           sizeof(okr_view), sizeof(okr_action));
    printf("%-10s %7s %7s %8s %9s %11s %11s %10s %5s %11s %13s\n", "preset", "players", "games",
           "hands", "hands/s", "actions/s", "legal/s", "mean_legal", "cpu%", "hands/cpu-s",
           "actions/cpu-s");
    for (int c = 0; c < N_CONFIGS; c++) {
        if (only && strcmp(only, configs[c].preset) != 0)
            continue;
        okr_rules r;
        rules_for(&configs[c], &r);
        uint64_t seed = 1000000;
        double t0 = now_s(), t = t0, c0 = cpu_s();
        while (t - t0 < seconds) {
            play_game(&r, configs[c].players, seed++, &k[c]);
            t = now_s();
        }
        double el = t - t0;
        double used = cpu_s() - c0;
        cpu[c] = 100.0 * used / el;
        ran[c] = 1;
        hps[c] = (double)k[c].hands / el;
        aps[c] = (double)k[c].actions / el;
        lps[c] = (double)k[c].legal_calls / el;
        mlen[c] = k[c].legal_calls ? (double)k[c].legal_sum / (double)k[c].legal_calls : 0;
        hpc[c] = used > 0 ? (double)k[c].hands / used : 0;
        apc[c] = used > 0 ? (double)k[c].actions / used : 0;
        printf("%-10s %7d %7" PRIu64 " %8" PRIu64 " %9.0f %11.0f %11.0f %10.2f %5.0f %11.0f "
               "%13.0f\n",
               configs[c].preset, configs[c].players, k[c].games, k[c].hands, hps[c], aps[c],
               lps[c], mlen[c], cpu[c], hpc[c], apc[c]);
        fflush(stdout);
    }

    /* Signature: every configuration, seeds 1..N, whatever --only says. */
    uint64_t sig = 0xCBF29CE484222325ULL;
    double s0 = now_s();
    for (int c = 0; c < N_CONFIGS; c++) {
        okr_rules r;
        rules_for(&configs[c], &r);
        for (int i = 1; i <= sig_games; i++)
            sig = fnv_fold(sig, play_game(&r, configs[c].players, (uint64_t)i, NULL));
    }
    double sig_s = now_s() - s0;

    /* Targets, per wall-clock second (the brief's measure) and per CPU-second (what the
     * engine does on a core of its own when the machine is busy). */
    printf("\ntargets:");
    int gin = N_CONFIGS - 1, laws3 = 1;
    if (ran[gin])
        printf(" gin hands/s >= %.0f: %.0f (%s), per cpu-s %.0f (%s);", TARGET_GIN_HANDS_PER_S,
               hps[gin], hps[gin] >= TARGET_GIN_HANDS_PER_S ? "met" : "MISSED", hpc[gin],
               hpc[gin] >= TARGET_GIN_HANDS_PER_S ? "met" : "MISSED");
    if (ran[laws3])
        printf(" laws/3 actions/s >= %.0f: %.0f (%s), per cpu-s %.0f (%s)",
               TARGET_LAWS3_ACTIONS_PER_S, aps[laws3],
               aps[laws3] >= TARGET_LAWS3_ACTIONS_PER_S ? "met" : "MISSED", apc[laws3],
               apc[laws3] >= TARGET_LAWS3_ACTIONS_PER_S ? "met" : "MISSED");
    double min_cpu = 100;
    for (int c = 0; c < N_CONFIGS; c++)
        if (ran[c] && cpu[c] < min_cpu)
            min_cpu = cpu[c];
    if (min_cpu < 90)
        printf("\nnote: the bench ran only %.0f%% of the wall time at worst (machine busy); the "
               "per-second rates understate the engine, see the cpu-s columns",
               min_cpu);
    printf("\nsignature: %016" PRIx64 " (%d games x %d configurations, %.2f s)\n", sig, sig_games,
           N_CONFIGS, sig_s);

    printf("{\"bench\":\"okr_engine\",\"seconds\":%.3f,\"sizeof_game\":%zu,"
           "\"sizeof_view\":%zu,\"sizeof_action\":%zu,\"results\":[",
           seconds, sizeof(okr_game), sizeof(okr_view), sizeof(okr_action));
    int first = 1;
    for (int c = 0; c < N_CONFIGS; c++) {
        if (!ran[c])
            continue;
        printf("%s{\"preset\":\"%s\",\"players\":%d,\"games\":%" PRIu64 ",\"hands\":%" PRIu64
               ",\"actions\":%" PRIu64 ",\"hands_per_s\":%.1f,\"actions_per_s\":%.1f,"
               "\"legal_calls_per_s\":%.1f,\"mean_legal\":%.3f,\"cpu_percent\":%.1f,"
               "\"hands_per_cpu_s\":%.1f,\"actions_per_cpu_s\":%.1f}",
               first ? "" : ",", configs[c].preset, configs[c].players, k[c].games, k[c].hands,
               k[c].actions, hps[c], aps[c], lps[c], mlen[c], cpu[c], hpc[c], apc[c]);
        first = 0;
    }
    printf("],\"signature\":\"%016" PRIx64 "\",\"signature_games\":%d}\n", sig, sig_games);
    return 0;
}
