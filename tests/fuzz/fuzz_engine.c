/* fuzz_engine.c - the engine's apply from fuzz bytes: a game (preset, players, seed, maybe a
 * packed deal) from the first bytes, then actions three ways: an index into okr_legal's
 * list (must be accepted), a legal action with one field changed, and raw action bytes.
 * A refused action must leave the game byte-identical; after every accepted one okr_check
 * holds and the digest is a function of the state (a copy gives the same). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "okr/okr.h"

static okr_action acts[OKR_MAX_ACTIONS];

static const char *const presets[] = {"laws", "parlett", "arlington", "german", "gin"};

typedef struct src {
    const uint8_t *p;
    size_t n;
} src;

static unsigned take(src *s)
{
    if (!s->n)
        return 0;
    s->n--;
    return *s->p++;
}

#define DIE(...)                                                                                   \
    do {                                                                                           \
        fprintf(stderr, "fuzz_engine: " __VA_ARGS__);                                              \
        abort();                                                                                   \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static okr_game g, before;
    src s = {data, size};
    okr_rules r;
    okr_refusal why;
    memset(&why, 0, sizeof why);
    if (okr_rules_preset(&r, presets[take(&s) % 5], &why) != OKR_OK)
        DIE("a preset is refused\n");
    int players = 2 + (int)(take(&s) % 5);
    uint64_t seed = 0;
    for (int i = 0; i < 8; i++)
        seed = seed << 8 | take(&s);
    if (okr_rules_check(&r, players, &why) != OKR_OK)
        return 0;
    if (okr_game_init(&g, &r, players, seed, NULL, 0, &why) != OKR_OK)
        DIE("game_init refused checked rules: %s\n", why.reason);
    while (s.n) {
        if (okr_check(&g) != OKR_OK)
            DIE("okr_check fails\n");
        if (g.phase == OKR_PH_GAME_OVER)
            break;
        if (g.phase == OKR_PH_HAND_OVER) {
            if (okr_next_hand(&g, NULL, 0, &why) != OKR_OK)
                DIE("next_hand refused: %s\n", why.reason);
            continue;
        }
        int n = okr_legal(&g, acts, OKR_MAX_ACTIONS);
        if (n <= 0)
            DIE("no legal action in phase %d\n", g.phase);
        unsigned mode = take(&s) % 4;
        unsigned pick = take(&s) | take(&s) << 8;
        okr_action a = acts[pick % (unsigned)n];
        if (mode == 1 || mode == 2) { /* one byte of a legal action changed */
            size_t at = take(&s) % sizeof a;
            ((uint8_t *)&a)[at] = (uint8_t)take(&s);
        } else if (mode == 3) { /* raw bytes */
            for (size_t i = 0; i < sizeof a; i++)
                ((uint8_t *)&a)[i] = (uint8_t)take(&s);
        }
        memcpy(&before, &g, sizeof g);
        okr_event ev;
        int rc = okr_apply(&g, &a, &ev, &why);
        if (mode == 0 && rc != OKR_OK)
            DIE("a legal action is refused: %s (RULES %s)\n", why.reason, why.rule);
        if (rc != OKR_OK) {
            if (memcmp(&g, &before, sizeof g) != 0)
                DIE("a refused action changed the game\n");
            continue;
        }
        if (okr_check(&g) != OKR_OK)
            DIE("okr_check fails after an accepted action\n");
        okr_game copy = g;
        if (okr_digest(&copy) != okr_digest(&g))
            DIE("the digest of a copy differs\n");
    }
    return 0;
}
