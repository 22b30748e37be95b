/* fuzz_notation.c - the text notation (docs/notation.md) from fuzz bytes. The first byte picks
 * what the rest is read as:
 *   0 cards   okr_cards_parse; whatever it accepts prints back (okr_card_str) to the same cards
 *   1 pack    a deal in dealing order: okr_game_init accepts it only as a permutation of the
 *             configured pack, and the game it starts passes okr_check
 *   2 action  okr_action_parse against a seeded game's position; an accepted action formats
 *             (okr_action_format) and parses back to the same normalised action
 *   3 rules   "option=value ..." through okr_rules_set; okr_rules_format of the result, read
 *             back into the same preset, gives the same rules */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "okr/okr.h"

static const char *const presets[] = {"laws", "parlett", "arlington", "german", "gin"};
static okr_action acts[OKR_MAX_ACTIONS];

#define DIE(...)                                                                                   \
    do {                                                                                           \
        fprintf(stderr, "fuzz_notation: " __VA_ARGS__);                                            \
        abort();                                                                                   \
    } while (0)

static void cards(const char *text)
{
    uint8_t out[256], back[256];
    okr_refusal why;
    memset(&why, 0, sizeof why);
    for (const char *p = text; *p; p++) { /* the single-card reader from every position */
        const char *end = NULL;
        int k = okr_card_parse(p, &end);
        if (k >= 0 && (k >= OKR_KINDS || !end || end <= p))
            DIE("okr_card_parse returned %d\n", k);
    }
    int n = okr_cards_parse(text, out, 256, &why);
    if (n < 0)
        return;
    char buf[256 * 3 + 1], c[3];
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (out[i] >= OKR_KINDS)
            DIE("okr_cards_parse gave kind %d\n", out[i]);
        strcat(buf, okr_card_str(out[i], c));
        strcat(buf, " ");
    }
    if (okr_cards_parse(buf, back, 256, &why) != n || memcmp(out, back, (size_t)n) != 0)
        DIE("cards do not print back: \"%s\"\n", buf);
}

static void pack(const char *text, unsigned sel)
{
    static okr_game g;
    okr_rules r;
    okr_refusal why;
    uint8_t out[512];
    memset(&why, 0, sizeof why);
    okr_rules_preset(&r, presets[sel % 5], &why);
    int players = sel % 5 == 4 ? 2 : 3 + (int)(sel / 5 % 2);
    int n = okr_cards_parse(text, out, 512, &why);
    if (n < 0)
        return;
    if (okr_game_init(&g, &r, players, 1, out, n, &why) != OKR_OK)
        return;
    if (okr_check(&g) != OKR_OK)
        DIE("a game from an accepted pack fails okr_check\n");
}

static void action(const char *text, unsigned sel)
{
    static okr_game g;
    okr_rules r;
    okr_refusal why;
    memset(&why, 0, sizeof why);
    okr_rules_preset(&r, presets[sel % 5], &why);
    int players = sel % 5 == 4 ? 2 : 3;
    if (okr_game_init(&g, &r, players, sel, NULL, 0, &why) != OKR_OK)
        DIE("game_init: %s\n", why.reason);
    /* a few legal moves in, so more than the first phase is reached */
    for (unsigned i = 0; i < (sel >> 4) % 24 && g.phase < OKR_PH_HAND_OVER; i++) {
        int n = okr_legal(&g, acts, OKR_MAX_ACTIONS);
        if (n <= 0 || okr_apply(&g, &acts[(i * 7 + sel) % (unsigned)n], NULL, &why) != OKR_OK)
            DIE("a legal action is refused\n");
    }
    okr_action a, b;
    memset(&a, 0, sizeof a);
    if (okr_action_parse(&g, text, &a, &why) != OKR_OK)
        return;
    char buf[1024];
    if (okr_action_format(&a, buf, sizeof buf) < 0)
        return; /* parsed, but not all of it has a notation: nothing to compare */
    memset(&b, 0, sizeof b);
    if (okr_action_parse(&g, buf, &b, &why) != OKR_OK)
        DIE("\"%s\" formats as \"%s\", which does not parse: %s\n", text, buf, why.reason);
    okr_action_normalize(&r, &a);
    okr_action_normalize(&r, &b);
    if (memcmp(&a, &b, sizeof a) != 0)
        DIE("\"%s\" formats as \"%s\", which parses to another action\n", text, buf);
    okr_game copy;
    memcpy(&copy, &g, sizeof g);
    if (okr_apply(&g, &a, NULL, &why) != OKR_OK && memcmp(&copy, &g, sizeof g) != 0)
        DIE("a refused action changed the game\n");
}

static void rules(char *text, unsigned sel)
{
    okr_rules r, r2;
    okr_refusal why;
    memset(&why, 0, sizeof why);
    okr_rules_preset(&r, presets[sel % 5], &why);
    for (char *tok = strtok(text, " \t\n"); tok; tok = strtok(NULL, " \t\n")) {
        char *eq = strchr(tok, '=');
        if (!eq)
            continue;
        *eq = '\0';
        okr_rules_set(&r, tok, eq + 1, &why);
    }
    char buf[4096], buf2[4096];
    if (okr_rules_format(&r, buf, sizeof buf) < 0)
        DIE("okr_rules_format overflows\n");
    okr_rules_preset(&r2, presets[sel % 5], &why);
    char copy[4096];
    memcpy(copy, buf, sizeof copy);
    for (char *tok = strtok(copy, " "); tok; tok = strtok(NULL, " ")) {
        char *eq = strchr(tok, '=');
        if (!eq)
            DIE("okr_rules_format wrote \"%s\"\n", tok);
        *eq = '\0';
        if (okr_rules_set(&r2, tok, eq + 1, &why) != OKR_OK)
            DIE("okr_rules_format wrote %s=%s, which is refused: %s\n", tok, eq + 1, why.reason);
    }
    if (okr_rules_format(&r2, buf2, sizeof buf2) < 0 || strcmp(buf, buf2) != 0)
        DIE("rules do not read back:\n%s\n%s\n", buf, buf2);
    for (int p = 2; p <= OKR_MAX_PLAYERS; p++)
        okr_rules_check(&r, p, &why);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2 || size > 4096)
        return 0;
    unsigned kind = data[0] % 4, sel = data[1];
    char *text = malloc(size - 1);
    if (!text)
        return 0;
    memcpy(text, data + 2, size - 2);
    text[size - 2] = '\0';
    switch (kind) {
    case 0:
        cards(text);
        break;
    case 1:
        pack(text, sel);
        break;
    case 2:
        action(text, sel);
        break;
    default:
        rules(text, sel);
        break;
    }
    free(text);
    return 0;
}
