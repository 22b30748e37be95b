/* testkit.h - header-only helpers for the rule-by-rule engine tests (test_rules_*.c).
 *
 *  - cards and packs:   tk_kind("QS"), tk_cards("7H 8H 9H", out, cap),
 *                       tk_pack(): a full pack from per-seat hands, an upcard and the first
 *                       stock cards, the rest filled in a fixed order;
 *  - rules:             tk_rules("laws", "jokers=0", "hand_size=4", NULL);
 *  - games:             tk_start(): okr_game_init from such a pack;
 *  - actions by text:   tk_do(g, "meld 4H 2C=5H 6H") fails the test with the refusal;
 *                       tk_refuse(g, "discard QS", "4.5") checks rule and unchanged state;
 *  - legal lists:       tk_legal_has(g, &a) via okr_action_normalize + memcmp;
 *  - hands:             tk_assert_hand(g, seat, "AS KD KD");
 *  - a deterministic policy for whole games (tk_policy) and the RULES 4.9 potential.
 *
 * Every helper is static: each test file is its own program. */
#ifndef OKR_TESTKIT_H
#define OKR_TESTKIT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "okr/okr.h"

#define TK_QS OKR_KIND(3, 12)

/* Shared scratch for legal lists (OKR_MAX_ACTIONS actions are large: keep them static). */
static okr_action tk_acts[OKR_MAX_ACTIONS];

/* ---- Cards ---------------------------------------------------------------------------- */

/* "AS", "TH", "10H", "2c", "JK" -> kind. Independent of notation.c. Fails the test on junk.
 * *len (may be NULL) receives the characters used. */
static inline int tk_kind_n(const char *s, int *len)
{
    static const char ranks[] = "A23456789TJQK";
    static const char suits[] = "CDHS";
    char c0 = s[0], c1 = s[1];
    if (c0 >= 'a' && c0 <= 'z')
        c0 = (char)(c0 - 32);
    if (c1 >= 'a' && c1 <= 'z')
        c1 = (char)(c1 - 32);
    if (c0 == 'J' && c1 == 'K') {
        if (len)
            *len = 2;
        return OKR_JOKER;
    }
    int used = 2;
    int rank = 0;
    if (c0 == '1' && c1 == '0') {
        rank = 10;
        c1 = s[2];
        if (c1 >= 'a' && c1 <= 'z')
            c1 = (char)(c1 - 32);
        used = 3;
    } else if (c0) {
        const char *p = strchr(ranks, c0);
        rank = p ? (int)(p - ranks) + 1 : 0;
    }
    const char *u = c1 ? strchr(suits, c1) : NULL;
    if (!rank || !u)
        fail_msg("testkit: bad card '%.4s'", s);
    if (len)
        *len = used;
    return OKR_KIND((int)(u - suits), rank);
}

static inline int tk_kind(const char *s)
{
    return tk_kind_n(s, NULL);
}

/* Space-separated cards into out; returns the count. */
static inline int tk_cards(const char *s, uint8_t *out, int cap)
{
    int n = 0;
    while (s && *s) {
        if (*s == ' ' || *s == ',') {
            s++;
            continue;
        }
        int len;
        int k = tk_kind_n(s, &len);
        if (n >= cap)
            fail_msg("testkit: too many cards in '%s'", s);
        out[n++] = (uint8_t)k;
        s += len;
    }
    return n;
}

/* Multiset of a card list. */
static inline void tk_multiset(const char *s, uint8_t ms[OKR_KINDS])
{
    uint8_t c[OKR_MAX_CARDS];
    int n = tk_cards(s, c, OKR_MAX_CARDS);
    memset(ms, 0, OKR_KINDS);
    for (int i = 0; i < n; i++)
        ms[c[i]]++;
}

static inline const char *tk_str(int kind, char buf[3])
{
    return okr_card_str(kind, buf);
}

/* ---- Rules ----------------------------------------------------------------------------- */

/* A preset with "name=value" overrides, NULL-terminated. Fails the test if one is refused. */
static inline okr_rules tk_rules(const char *preset, ...)
{
    okr_rules r;
    okr_refusal why;
    memset(&r, 0, sizeof r);
    memset(&why, 0, sizeof why);
    if (okr_rules_preset(&r, preset, &why) != OKR_OK)
        fail_msg("testkit: preset %s refused: %s", preset, why.reason);
    va_list ap;
    va_start(ap, preset);
    for (const char *kv = va_arg(ap, const char *); kv; kv = va_arg(ap, const char *)) {
        char name[64];
        const char *eq = strchr(kv, '=');
        if (!eq || (size_t)(eq - kv) >= sizeof name)
            fail_msg("testkit: bad override '%s'", kv);
        memcpy(name, kv, (size_t)(eq - kv));
        name[eq - kv] = '\0';
        if (okr_rules_set(&r, name, eq + 1, &why) != OKR_OK)
            fail_msg("testkit: override %s refused: [%s] %s", kv, why.rule, why.reason);
    }
    va_end(ap);
    return r;
}

/* ---- Packs ----------------------------------------------------------------------------- */

/* Build a full pack in dealing order (pack[0] dealt first) for `players` with `dealer`:
 * hands[seat] lists the seat's first cards (may be shorter than hand_size, or NULL), `up` is
 * the upcard (NULL: from the filler), `stock` the stock's first cards in drawing order
 * (pack[N*H+1] is drawn first). Everything not named fills the gaps in a fixed order: the
 * remaining copies by kind, clubs first, ace to king, then the Joker. Returns the size. */
static inline int tk_pack_d(const okr_rules *r, int players, int dealer, const char *const *hands,
                            const char *up, const char *stock, uint8_t *pack)
{
    int n = okr_pack_size(r), h = r->hand_size;
    uint8_t left[OKR_KINDS];
    uint8_t named[OKR_MAX_CARDS];
    int fixed[OKR_MAX_CARDS];
    for (int k = 0; k < 52; k++)
        left[k] = r->decks;
    left[OKR_JOKER] = r->jokers;
    for (int i = 0; i < n; i++)
        fixed[i] = -1;
    /* hands */
    for (int s = 0; s < players; s++) {
        if (!hands || !hands[s])
            continue;
        int c = tk_cards(hands[s], named, OKR_MAX_CARDS);
        if (c > h)
            fail_msg("testkit: seat %d has %d cards, hand_size %d", s, c, h);
        int off = (s - dealer - 1 + 2 * players) % players; /* 0 for the seat left of dealer */
        for (int i = 0; i < c; i++)
            fixed[i * players + off] = named[i];
    }
    if (up) {
        int c = tk_cards(up, named, 1);
        fixed[players * h] = c ? named[0] : -1;
    }
    if (stock) {
        int c = tk_cards(stock, named, OKR_MAX_CARDS);
        if (players * h + 1 + c > n)
            fail_msg("testkit: stock list too long");
        for (int i = 0; i < c; i++)
            fixed[players * h + 1 + i] = named[i];
    }
    for (int i = 0; i < n; i++)
        if (fixed[i] >= 0) {
            if (!left[fixed[i]]) {
                char b[3];
                fail_msg("testkit: card %s named too often for this pack", tk_str(fixed[i], b));
            }
            left[fixed[i]]--;
        }
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (fixed[i] >= 0) {
            pack[i] = (uint8_t)fixed[i];
            continue;
        }
        while (k < OKR_KINDS && !left[k])
            k++;
        assert_true(k < OKR_KINDS);
        left[k]--;
        pack[i] = (uint8_t)k;
    }
    return n;
}

/* Same for the first hand (dealer N-1). */
static inline int tk_pack(const okr_rules *r, int players, const char *const *hands, const char *up,
                          const char *stock, uint8_t *pack)
{
    return tk_pack_d(r, players, players - 1, hands, up, stock, pack);
}

/* okr_game_init from such a pack; fails the test if refused. */
static inline void tk_start(okr_game *g, const okr_rules *r, int players, const char *const *hands,
                            const char *up, const char *stock)
{
    uint8_t pack[OKR_MAX_CARDS];
    okr_refusal why;
    int n = tk_pack(r, players, hands, up, stock, pack);
    int rc = okr_game_init(g, r, players, 1, pack, n, &why);
    if (rc != OKR_OK)
        fail_msg("testkit: okr_game_init refused: [%s] %s", why.rule, why.reason);
    assert_int_equal(okr_check(g), OKR_OK);
}

/* okr_next_hand from such a pack (dealer as the engine chose it). */
static inline void tk_next(okr_game *g, const char *const *hands, const char *up, const char *stock)
{
    uint8_t pack[OKR_MAX_CARDS];
    okr_refusal why;
    /* the next dealer (RULES 2.3) is what okr_next_hand will choose: try it on a copy */
    okr_game *probe = malloc(sizeof *probe);
    assert_non_null(probe);
    *probe = *g;
    assert_int_equal(okr_next_hand(probe, NULL, 0, &why), OKR_OK);
    int dealer = probe->dealer;
    free(probe);
    int n = tk_pack_d(&g->rules, g->players, dealer, hands, up, stock, pack);
    int rc = okr_next_hand(g, pack, n, &why);
    if (rc != OKR_OK)
        fail_msg("testkit: okr_next_hand refused: [%s] %s", why.rule, why.reason);
}

/* ---- Actions --------------------------------------------------------------------------- */

/* Parse for the seat that must act; fails the test on a notation error. */
static inline okr_action tk_parse(const okr_game *g, const char *text)
{
    okr_action a;
    okr_refusal why;
    memset(&why, 0, sizeof why);
    if (okr_action_parse(g, text, &a, &why) != OKR_OK)
        fail_msg("testkit: cannot parse '%s': %s", text, why.reason);
    return a;
}

/* Apply; fails the test with the refusal. Returns the event. */
static inline okr_event tk_act(okr_game *g, const okr_action *a)
{
    okr_event ev;
    okr_refusal why;
    char buf[256];
    memset(&ev, 0, sizeof ev);
    memset(&why, 0, sizeof why);
    int rc = okr_apply(g, a, &ev, &why);
    if (rc != OKR_OK) {
        if (okr_action_format(a, buf, sizeof buf) < 0)
            strcpy(buf, "(unformattable)");
        fail_msg("testkit: '%s' by seat %d refused: [%s] %s", buf, a->seat, why.rule, why.reason);
    }
    assert_int_equal(okr_check(g), OKR_OK);
    return ev;
}

static inline okr_event tk_do(okr_game *g, const char *text)
{
    okr_action a = tk_parse(g, text);
    okr_event ev;
    okr_refusal why;
    memset(&ev, 0, sizeof ev);
    memset(&why, 0, sizeof why);
    if (okr_apply(g, &a, &ev, &why) != OKR_OK)
        fail_msg("testkit: '%s' by seat %d refused: [%s] %s", text, a.seat, why.rule, why.reason);
    assert_int_equal(okr_check(g), OKR_OK);
    return ev;
}

/* Several actions separated by ';'. */
static inline void tk_script(okr_game *g, const char *script)
{
    char line[512];
    const char *p = script;
    while (*p) {
        const char *e = strchr(p, ';');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        assert_true(len < sizeof line);
        memcpy(line, p, len);
        line[len] = '\0';
        const char *q = line;
        while (*q == ' ')
            q++;
        if (*q)
            tk_do(g, q);
        p += len;
        if (*p == ';')
            p++;
    }
}

/* The action must be refused under `rule`, with a reason, and leave the game unchanged. */
static inline void tk_refuse_act(okr_game *g, const okr_action *a, const char *rule)
{
    okr_game *before = malloc(sizeof *before);
    assert_non_null(before);
    memcpy(before, g, sizeof *before);
    uint64_t d = okr_digest(g);
    okr_refusal why;
    okr_event ev;
    memset(&why, 0, sizeof why);
    int rc = okr_apply(g, a, &ev, &why);
    if (rc != OKR_EILLEGAL) {
        free(before);
        fail_msg("testkit: expected a refusal under %s, got rc %d", rule, rc);
    }
    if (strcmp(why.rule, rule) != 0) {
        char r[8], m[120];
        memcpy(r, why.rule, sizeof r);
        memcpy(m, why.reason, sizeof m);
        free(before);
        fail_msg("testkit: refused under [%s] (%s), expected [%s]", r, m, rule);
    }
    assert_true(why.reason[0] != '\0'); /* RULES 8.1: a one-line reason */
    assert_null(strchr(why.reason, '\n'));
    int same = memcmp(before, g, sizeof *before) == 0;
    free(before);
    assert_true(same);
    assert_int_equal(okr_digest(g), d);
}

/* Text form; the action is parsed for the seat that must act, or for `seat` if >= 0. */
static inline void tk_refuse_as(okr_game *g, int seat, const char *text, const char *rule)
{
    okr_action a = tk_parse(g, text);
    if (seat >= 0)
        a.seat = (uint8_t)seat;
    tk_refuse_act(g, &a, rule);
}

static inline void tk_refuse(okr_game *g, const char *text, const char *rule)
{
    tk_refuse_as(g, -1, text, rule);
}

/* Pass while an upcard round (6.1, G3) is open, then draw for the player in turn; in german
 * every claim offered is passed. Ends in OKR_PH_PLAY. Returns the event of the draw. */
static inline okr_event tk_pass_and_draw(okr_game *g)
{
    okr_event ev;
    memset(&ev, 0, sizeof ev);
    while (g->phase == OKR_PH_UPCARD || g->phase == OKR_PH_GIN_UPCARD)
        tk_do(g, "pass");
    for (int i = 0; i < 16 && g->phase != OKR_PH_PLAY; i++)
        ev = tk_do(g, g->phase == OKR_PH_CLAIM ? "pass" : "draw");
    assert_int_equal(g->phase, OKR_PH_PLAY);
    return ev;
}

/* Does the reason text contain `needle`? */
static inline void tk_assert_contains(const char *hay, const char *needle)
{
    if (!strstr(hay, needle))
        fail_msg("testkit: '%s' does not mention '%s'", hay, needle);
}

/* ---- Legal lists ------------------------------------------------------------------------- */

static inline int tk_legal(const okr_game *g)
{
    int n = okr_legal(g, tk_acts, OKR_MAX_ACTIONS);
    assert_true(n >= 0);
    return n;
}

/* Is *a (normalised) in the legal list? */
static inline int tk_legal_has(const okr_game *g, const okr_action *in)
{
    okr_action a = *in;
    okr_action_normalize(&g->rules, &a);
    int n = tk_legal(g);
    for (int i = 0; i < n; i++)
        if (memcmp(&tk_acts[i], &a, sizeof a) == 0)
            return 1;
    return 0;
}

static inline int tk_legal_has_text(const okr_game *g, const char *text)
{
    okr_action a = tk_parse(g, text);
    return tk_legal_has(g, &a);
}

/* Number of legal actions of a type. */
static inline int tk_legal_count(const okr_game *g, int type)
{
    int n = tk_legal(g), c = 0;
    for (int i = 0; i < n; i++)
        c += tk_acts[i].type == type;
    return c;
}

/* ---- State ------------------------------------------------------------------------------- */

static inline void tk_assert_hand(const okr_game *g, int seat, const char *cards)
{
    uint8_t ms[OKR_KINDS];
    tk_multiset(cards, ms);
    int n = 0;
    for (int k = 0; k < OKR_KINDS; k++)
        n += ms[k];
    for (int k = 0; k < OKR_KINDS; k++)
        if (ms[k] != g->hand[seat][k]) {
            char b[3];
            fail_msg("testkit: seat %d holds %d x %s, expected %d (hand %s)", seat,
                     g->hand[seat][k], tk_str(k, b), ms[k], cards);
        }
    assert_int_equal(g->hand_n[seat], n);
}

/* A meld's physical cards and declarations in table order, e.g. "5H 2C=6H 7H". */
static inline void tk_assert_meld(const okr_game *g, int mi, int owner, const char *cards)
{
    char buf[256] = "";
    assert_true(mi < g->meld_n);
    const okr_meld *m = &g->meld[mi];
    for (int i = 0; i < m->n; i++) {
        char b[3];
        if (i)
            strcat(buf, " ");
        strcat(buf, tk_str(m->card[i], b));
        if (m->as[i] != m->card[i]) {
            strcat(buf, "=");
            strcat(buf, tk_str(m->as[i], b));
        }
    }
    assert_int_equal(m->owner, owner);
    assert_string_equal(buf, cards);
}

/* RULES 4.9 potential: stock + 2 x (naturals not in melds) + (wild cards not in melds). */
static inline long tk_potential(const okr_game *g)
{
    const okr_rules *r = &g->rules;
    long p = g->stock_n;
    uint8_t count[OKR_KINDS] = {0};
    for (int s = 0; s < g->players; s++)
        for (int k = 0; k < OKR_KINDS; k++)
            count[k] = (uint8_t)(count[k] + g->hand[s][k]);
    for (int i = 0; i < g->stock_n; i++)
        count[g->stock[i]]++;
    for (int i = 0; i < g->pile_n; i++)
        count[g->pile[i]]++;
    for (int k = 0; k < OKR_KINDS; k++) {
        int wild = k == OKR_JOKER || (r->wild_twos && k % 13 == 1);
        p += (long)count[k] * (wild ? 1 : 2);
    }
    return p;
}

/* ---- A deterministic policy for whole games ---------------------------------------------- */

static inline uint64_t tk_rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static inline int tk_rng(uint64_t *s, int n)
{
    return (int)(tk_rng_next(s) % (uint64_t)n);
}

/* Choose an action for g->to_act into *out: a greedy melder for the rummy family (takes and
 * claims whenever it can, melds and adds whenever it can, discards its costliest card), and
 * for gin a player who knocks as soon as it can and otherwise discards to keep the least
 * deadwood. Deterministic in *rng. */
static inline void tk_policy(const okr_game *g, uint64_t *rng, okr_action *out)
{
    int n = tk_legal(g);
    assert_true(n > 0);
    int first[16], count[16];
    for (int t = 0; t < 16; t++)
        first[t] = -1, count[t] = 0;
    for (int i = 0; i < n; i++) {
        int t = tk_acts[i].type;
        if (first[t] < 0)
            first[t] = i;
        count[t]++;
    }
#define TK_PICK(t) (*out = tk_acts[first[t] + tk_rng(rng, count[t])])
    if (g->rules.family == OKR_FAMILY_GIN) {
        if (count[OKR_A_KNOCK]) {
            *out = tk_acts[first[OKR_A_KNOCK]];
            return;
        }
        if (count[OKR_A_DISCARD]) {
            int best = -1, bestdw = 1 << 30;
            uint8_t h[OKR_KINDS];
            for (int i = first[OKR_A_DISCARD]; i < first[OKR_A_DISCARD] + count[OKR_A_DISCARD];
                 i++) {
                okr_ginmeld m[OKR_GIN_MELDS];
                int nm;
                memcpy(h, g->hand[g->to_act], OKR_KINDS);
                h[tk_acts[i].card]--;
                int dw = okr_gin_best(&g->rules, h, m, &nm);
                if (dw < bestdw)
                    bestdw = dw, best = i;
            }
            *out = tk_acts[best];
            return;
        }
        /* upcard or draw: take the discard one time in three */
        if (count[OKR_A_TAKE] && tk_rng(rng, 3) == 0)
            TK_PICK(OKR_A_TAKE);
        else if (count[OKR_A_DRAW])
            TK_PICK(OKR_A_DRAW);
        else
            TK_PICK(OKR_A_PASS);
        return;
    }
    if (count[OKR_A_TAKE])
        TK_PICK(OKR_A_TAKE);
    else if (count[OKR_A_CLAIM])
        TK_PICK(OKR_A_CLAIM);
    else if (count[OKR_A_DRAW])
        TK_PICK(OKR_A_DRAW);
    else if (count[OKR_A_MELD])
        TK_PICK(OKR_A_MELD);
    else if (count[OKR_A_ADD])
        TK_PICK(OKR_A_ADD);
    else if (count[OKR_A_REPLACE])
        TK_PICK(OKR_A_REPLACE);
    else if (count[OKR_A_DISCARD]) {
        int best = first[OKR_A_DISCARD];
        for (int i = best; i < first[OKR_A_DISCARD] + count[OKR_A_DISCARD]; i++)
            if (okr_card_debit(&g->rules, tk_acts[i].card) >
                okr_card_debit(&g->rules, tk_acts[best].card))
                best = i;
        *out = tk_acts[best];
    } else
        TK_PICK(OKR_A_PASS);
#undef TK_PICK
}

/* Play the current hand to its end with tk_policy; returns the number of actions. */
static inline int tk_play_hand(okr_game *g, uint64_t *rng)
{
    int steps = 0;
    while (g->phase != OKR_PH_HAND_OVER && g->phase != OKR_PH_GAME_OVER) {
        okr_action a;
        tk_policy(g, rng, &a);
        tk_act(g, &a);
        steps++;
        assert_true(steps < 200000);
    }
    return steps;
}

#endif
