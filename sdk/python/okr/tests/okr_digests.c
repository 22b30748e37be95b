/* okr_digests.c - the C side of the Python module's cross-check (test_okr.py).
 *
 *   okr_digests PRESET PLAYERS FIRST_SEED COUNT [option=value ...]
 *
 * Plays COUNT games with seeds FIRST_SEED.. under PRESET and the options, choosing uniformly
 * among the legal actions with bench_engine's generator (xorshift64*, seeded by splitmix64 of
 * the game's seed, the top 32 bits scaled), and prints each final okr_digest in hex, one a
 * line. test_okr.py plays the same games through `import okr` with the same generator
 * written in Python and must reach the same digests. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "okr/okr.h"

static okr_action acts[OKR_MAX_ACTIONS];

static uint64_t xs_next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1DULL;
}

static uint64_t xs_seed(uint64_t seed)
{
    uint64_t z = seed + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return z ? z : 1;
}

static int fail(const char *what, const okr_refusal *why)
{
    fprintf(stderr, "okr_digests: %s: RULES %s: %s\n", what, why->rule, why->reason);
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: okr_digests PRESET PLAYERS FIRST_SEED COUNT [option=value...]\n");
        return 2;
    }
    okr_rules r;
    okr_refusal why;
    if (okr_rules_preset(&r, argv[1], &why) != OKR_OK)
        return fail("preset", &why);
    for (int i = 5; i < argc; i++) {
        char opt[64];
        snprintf(opt, sizeof opt, "%s", argv[i]);
        char *eq = strchr(opt, '=');
        if (!eq) {
            fprintf(stderr, "okr_digests: %s: expected option=value\n", argv[i]);
            return 2;
        }
        *eq = 0;
        if (okr_rules_set(&r, opt, eq + 1, &why) != OKR_OK)
            return fail("option", &why);
    }
    int players = atoi(argv[2]);
    uint64_t first = strtoull(argv[3], NULL, 10);
    long count = atol(argv[4]);
    for (long k = 0; k < count; k++) {
        uint64_t seed = first + (uint64_t)k, rng = xs_seed(seed);
        okr_game g;
        if (okr_game_init(&g, &r, players, seed, NULL, 0, &why) != OKR_OK)
            return fail("okr_game_init", &why);
        while (g.phase != OKR_PH_GAME_OVER) {
            if (g.phase == OKR_PH_HAND_OVER) {
                if (okr_next_hand(&g, NULL, 0, &why) != OKR_OK)
                    return fail("okr_next_hand", &why);
                continue;
            }
            int n = okr_legal(&g, acts, OKR_MAX_ACTIONS);
            if (n <= 0) {
                fprintf(stderr, "okr_digests: okr_legal returned %d\n", n);
                return 2;
            }
            int pick = (int)(((xs_next(&rng) >> 32) * (uint64_t)n) >> 32);
            if (okr_apply(&g, &acts[pick], NULL, &why) != OKR_OK)
                return fail("okr_apply", &why);
        }
        printf("%016" PRIx64 "\n", okr_digest(&g));
    }
    return 0;
}
