/* test_gin.c - Oklahoma Gin knocks, knock limit, best arrangement and settlement
 * (RULES G1, G2, G5, G7), engine/src/gin.c.
 *
 * Games are built by hand (no dealing code needed); the only helper from another file is
 * okr__refuse (card.c). The cross-checks compare gin.c against independent brute forces
 * written here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "internal.h"

/* ---- helpers ------------------------------------------------------------------------ */

static okr_game game;
static okr_action acts[OKR_MAX_ACTIONS];

static int kind_of(const char *s)
{
    static const char ranks[] = "A23456789TJQK";
    static const char suits[] = "CDHS";
    const char *r = strchr(ranks, s[0]);
    const char *u = strchr(suits, s[1]);
    assert_non_null(r);
    assert_non_null(u);
    return (int)(u - suits) * 13 + (int)(r - ranks);
}

/* Cards "7H 8H TS" into out; returns the count. */
static int cards(const char *s, uint8_t *out)
{
    int n = 0;
    while (*s) {
        if (*s == ' ') {
            s++;
            continue;
        }
        out[n++] = (uint8_t)kind_of(s);
        s += 2;
    }
    return n;
}

static void gin_game(okr_game *g, int decks, const char *upcard)
{
    memset(g, 0, sizeof *g);
    memcpy(g->rules.preset, "gin", 4);
    g->rules.family = OKR_FAMILY_GIN;
    g->rules.values = OKR_VALUES_GIN;
    g->rules.decks = (uint8_t)decks;
    g->rules.set_max = 4;
    g->rules.gin_bonus = 25;
    g->rules.undercut_bonus = 10;
    g->players = 2;
    g->phase = OKR_PH_PLAY;
    g->to_act = 0;
    g->upcard = (uint8_t)kind_of(upcard);
}

static void give(okr_game *g, int seat, const char *s)
{
    uint8_t c[64];
    int n = cards(s, c);
    for (int i = 0; i < n; i++) {
        g->hand[seat][c[i]]++;
        g->hand_n[seat]++;
    }
}

static okr_ginmeld gm(const char *s)
{
    okr_ginmeld m;
    memset(&m, 0, sizeof m);
    m.n = (uint8_t)cards(s, m.card);
    return m;
}

static okr_action knock(int seat, const char *discard, int nm, const char *m0, const char *m1,
                        const char *m2, const char *m3)
{
    okr_action a;
    const char *ms[4] = {m0, m1, m2, m3};
    memset(&a, 0, sizeof a);
    a.type = OKR_A_KNOCK;
    a.seat = (uint8_t)seat;
    a.card = (uint8_t)kind_of(discard);
    a.nmelds = (uint8_t)nm;
    for (int i = 0; i < nm; i++)
        a.u.knock[i] = gm(ms[i]);
    return a;
}

static void expect_meld(const okr_ginmeld *m, const char *s)
{
    okr_ginmeld e = gm(s);
    assert_int_equal(m->n, e.n);
    assert_memory_equal(m->card, e.card, sizeof e.card);
}

static int value(int kind)
{
    int r = kind % 13 + 1;
    return r > 10 ? 10 : r;
}

/* Settle a knock by seat 0 (its hand must already be the 10 cards after the discard). */
static okr_hand_result settle(const okr_action *a)
{
    okr_hand_result res;
    memset(&res, 0x5a, sizeof res);
    okr__gin_settle(&game, 0, a, &res);
    return res;
}

/* ---- G2: knock limit -------------------------------------------------------------------- */

/* RULES G2: the knock limit is the upcard's value; J Q K T give 10, an ace 1; with
 * ace_gin_only an ace upcard allows only gin. */
static void test_G2_knock_limit_is_upcard_value(void **state)
{
    (void)state;
    const char *up[] = {"AC", "2D", "7H", "9S", "TC", "JD", "QH", "KS"};
    const int lim[] = {1, 2, 7, 9, 10, 10, 10, 10};
    for (int i = 0; i < 8; i++) {
        gin_game(&game, 1, up[i]);
        assert_int_equal(okr__gin_limit(&game), lim[i]);
        /* the public value (protocol 1.1's View.knock_limit) is the one the engine checks */
        assert_int_equal(okr_knock_limit(&game.rules, game.upcard), lim[i]);
        game.rules.ace_gin_only = 1;
        assert_int_equal(okr__gin_limit(&game), i == 0 ? 0 : lim[i]);
        assert_int_equal(okr_knock_limit(&game.rules, game.upcard), i == 0 ? 0 : lim[i]);
    }
    /* no upcard, or not gin: 0 */
    assert_int_equal(okr_knock_limit(&game.rules, OKR_JOKER), 0);
    okr_rules laws;
    okr_refusal why;
    assert_int_equal(okr_rules_preset(&laws, "laws", &why), OKR_OK);
    assert_int_equal(okr_knock_limit(&laws, 6), 0);
}

/* RULES G2: ace_gin_only: with an ace upcard only gin knocks are listed, and any other
 * knock is refused under G2. Without the option an ace allows deadwood 1. */
static void test_G2_ace_gin_only(void **state)
{
    (void)state;
    okr_refusal why;
    gin_game(&game, 1, "AD");
    game.rules.ace_gin_only = 1;
    /* discarding KD leaves 2-3-4C, three 7s, 9-J spades and AH: deadwood 1, not gin */
    give(&game, 0, "2C 3C 4C 7D 7H 7S 9S TS JS AH KD");
    int n = okr__gin_knocks(&game, acts, 0, OKR_MAX_ACTIONS);
    assert_int_equal(n, 0); /* the ace of hearts is deadwood 1: not gin */
    okr_action a = knock(0, "KD", 3, "2C 3C 4C", "7D 7H 7S", "9S TS JS", NULL);
    assert_int_equal(okr__gin_knock_check(&game, &a, &why), OKR_EILLEGAL);
    assert_string_equal(why.rule, "G2");
    assert_string_equal(why.reason, "ace upcard: only gin may end the hand");

    game.rules.ace_gin_only = 0; /* limit 1 */
    assert_int_equal(okr__gin_knock_check(&game, &a, &why), OKR_OK);
    n = okr__gin_knocks(&game, acts, 0, OKR_MAX_ACTIONS);
    assert_int_equal(n, 1);
    assert_memory_equal(&acts[0], &a, sizeof a);

    /* a gin hand: with the option only the gin arrangements are knocks */
    gin_game(&game, 1, "AD");
    game.rules.ace_gin_only = 1;
    give(&game, 0, "2C 3C 4C 7D 7H 7S 9S TS JS QS KD");
    n = okr__gin_knocks(&game, acts, 0, OKR_MAX_ACTIONS);
    assert_int_equal(n, 1);
    okr_action g1 = knock(0, "KD", 3, "2C 3C 4C", "7D 7H 7S", "9S TS JS QS", NULL);
    assert_memory_equal(&acts[0], &g1, sizeof g1);
    assert_int_equal(okr__gin_knock_check(&game, &g1, &why), OKR_OK);
}

/* RULES G2: spade_double: a spade upcard doubles the hand's score (knock, undercut, gin). */
static void test_G2_spade_double(void **state)
{
    (void)state;
    const char *ups[2] = {"7S", "7H"};
    for (int i = 0; i < 2; i++) {
        gin_game(&game, 1, ups[i]);
        game.rules.spade_double = 1;
        give(&game, 0, "2C 3C 4C 7D 7C 7H 9S TS JS 3H"); /* knocker deadwood 3 (3H) */
        give(&game, 1, "KH QH 5D 6D AS 2S 4S 8D TD JD"); /* no melds, no lay-offs: 66 */
        okr_action a = knock(0, "KD", 3, "2C 3C 4C", "7C 7D 7H", "9S TS JS", NULL);
        okr_hand_result res = settle(&a);
        assert_int_equal(res.ended, OKR_END_KNOCK);
        assert_int_equal(res.deadwood[0], 3);
        assert_int_equal(res.deadwood[1], 66);
        assert_int_equal(res.score[0], (66 - 3) * (i == 0 ? 2 : 1));
        assert_int_equal(res.score[1], 0);
    }
    /* an undercut is doubled too */
    gin_game(&game, 1, "5S");
    game.rules.spade_double = 1;
    give(&game, 0, "AC 2C 3C 7D 7H 7S 9S TS JS 8H");
    give(&game, 1, "4C 5C 6C 8D 8S 8C QH QD QC 3H");
    okr_action a = knock(0, "KC", 3, "AC 2C 3C", "7D 7H 7S", "9S TS JS", NULL);
    okr_hand_result res = settle(&a);
    assert_int_equal(res.ended, OKR_END_UNDERCUT);
    assert_int_equal(res.deadwood[0], 8);
    assert_int_equal(res.deadwood[1], 3);
    assert_int_equal(res.score[1], (10 + 5) * 2);
    assert_int_equal(res.score[0], 0);
    /* and gin */
    gin_game(&game, 1, "5S");
    game.rules.spade_double = 1;
    give(&game, 0, "AC 2C 3C 7D 7H 7S 9S TS JS QS");
    give(&game, 1, "4C 5C 7C 8S KS 2H 3H 4H 5D 6D");
    a = knock(0, "KC", 3, "AC 2C 3C", "7D 7H 7S", "9S TS JS QS", NULL);
    res = settle(&a);
    assert_int_equal(res.ended, OKR_END_GIN);
    assert_int_equal(res.score[0], (25 + 45) * 2);
    game.rules.spade_double = 0;
    res = settle(&a);
    assert_int_equal(res.score[0], 25 + 45);
}

/* ---- G1: melds -------------------------------------------------------------------------- */

/* RULES G1: the ace is only low: Q-K-A is no run, A-2-3 is one. */
static void test_G1_ace_low_only(void **state)
{
    (void)state;
    okr_refusal why;
    gin_game(&game, 1, "TC");
    give(&game, 0, "QH KH AH 2H 3H 7C 7D 7S 9D TD JD");
    okr_action a = knock(0, "2H", 3, "QH KH AH", "7C 7D 7S", "9D TD JD", NULL);
    assert_int_equal(okr__gin_knock_check(&game, &a, &why), OKR_EILLEGAL);
    assert_string_equal(why.rule, "G5");
    assert_non_null(strstr(why.reason, "not a valid meld"));
    okr_action b = knock(0, "KH", 3, "AH 2H 3H", "7C 7D 7S", "9D TD JD", NULL);
    assert_int_equal(okr__gin_knock_check(&game, &b, &why), OKR_OK); /* deadwood QH = 10 */

    uint8_t h[OKR_KINDS] = {0};
    uint8_t c[16];
    int n = cards("QH KH AH", c);
    for (int i = 0; i < n; i++)
        h[c[i]]++;
    okr_ginmeld best[OKR_GIN_MELDS];
    int nb = -1;
    assert_int_equal(okr_gin_best(&game.rules, h, best, &nb), 21);
    assert_int_equal(nb, 0);
    h[kind_of("QH")] = 0;
    h[kind_of("KH")] = 0;
    h[kind_of("2H")] = 1;
    h[kind_of("3H")] = 1;
    assert_int_equal(okr_gin_best(&game.rules, h, best, &nb), 0);
    assert_int_equal(nb, 1);
    expect_meld(&best[0], "AH 2H 3H");
    /* J-Q-K is a run; K-A-2 is not */
    memset(h, 0, sizeof h);
    n = cards("JS QS KS KD AD 2D", c);
    for (int i = 0; i < n; i++)
        h[c[i]]++;
    assert_int_equal(okr_gin_best(&game.rules, h, best, &nb), 13);
    assert_int_equal(nb, 1);
    expect_meld(&best[0], "JS QS KS");
    /* runs are one suit */
    okr_action d = knock(0, "KH", 2, "QH JD TD", "7C 7D 7S", NULL, NULL);
    assert_int_equal(okr__gin_knock_check(&game, &d, &why), OKR_EILLEGAL);
    assert_non_null(strstr(why.reason, "not a valid meld"));
}

/* RULES G1: sets hold 3 or 4 cards; a five-card set does not exist even with two decks. */
static void test_G1_set_of_at_most_four(void **state)
{
    (void)state;
    okr_refusal why;
    gin_game(&game, 2, "TC");
    give(&game, 0, "5C 5D 5H 5S 5S 2C 3C 4C 9D TD JD");
    okr_action a = knock(0, "JD", 2, "5C 5D 5H 5S 5S", "2C 3C 4C", NULL, NULL);
    assert_int_equal(okr__gin_knock_check(&game, &a, &why), OKR_EILLEGAL);
    assert_string_equal(why.rule, "G5");
    assert_non_null(strstr(why.reason, "not a valid meld"));
    okr_action b = knock(0, "5H", 3, "5C 5D 5S 5S", "2C 3C 4C", "9D TD JD", NULL);
    assert_int_equal(okr__gin_knock_check(&game, &b, &why), OKR_OK); /* gin */
    /* with set_max 5 the five-card set is a meld */
    game.rules.set_max = 5;
    okr_action c = knock(0, "JD", 2, "5C 5D 5H 5S 5S", "2C 3C 4C", NULL, NULL);
    assert_int_equal(okr__gin_knock_check(&game, &c, &why), OKR_EILLEGAL);
    assert_string_equal(why.reason, "deadwood 19 exceeds the knock limit 10"); /* the set is fine */
}

/* RULES G1, 1.5: with decks=2 a hand may hold two copies of a kind; a set may hold both,
 * two equal runs may be declared, and each arrangement is listed once. */
static void test_G1_decks2_duplicate_kinds(void **state)
{
    (void)state;
    okr_refusal why;
    gin_game(&game, 2, "TD");
    give(&game, 0, "5H 6H 7H 5H 6H 7H 5S 5S 5C 2C KD");
    int n = okr__gin_knocks(&game, acts, 0, OKR_MAX_ACTIONS);
    assert_int_equal(n, 2);
    okr_action a0 = knock(0, "2C", 3, "5C 5S 5S", "5H 6H 7H", "5H 6H 7H", NULL);
    okr_action a1 = knock(0, "KD", 3, "5C 5S 5S", "5H 6H 7H", "5H 6H 7H", NULL);
    assert_memory_equal(&acts[0], &a0, sizeof a0);
    assert_memory_equal(&acts[1], &a1, sizeof a1);
    assert_int_equal(okr__gin_knock_check(&game, &a1, &why), OKR_OK);
    /* a third copy of 5S is not in hand */
    okr_action bad = knock(0, "KD", 3, "5C 5S 5S 5S", "5H 6H 7H", "5H 6H 7H", NULL);
    assert_int_equal(okr__gin_knock_check(&game, &bad, &why), OKR_EILLEGAL);
    assert_string_equal(why.reason,
                        "the melds' card 5S is used twice: each card of the hand goes in one meld");

    uint8_t h[OKR_KINDS];
    memcpy(h, game.hand[0], sizeof h);
    h[kind_of("KD")] = 0;
    okr_ginmeld best[OKR_GIN_MELDS];
    int nb = 0;
    assert_int_equal(okr_gin_best(&game.rules, h, best, &nb), 2);
    assert_int_equal(nb, 3);
    expect_meld(&best[0], "5C 5S 5S");
    expect_meld(&best[1], "5H 6H 7H");
    expect_meld(&best[2], "5H 6H 7H");
}

/* ---- G5: knocking ----------------------------------------------------------------------- */

/* RULES G5: a knock is legal when the deadwood after the discard is within the limit; the
 * refusal names the deadwood and the limit. */
static void test_G5_knock_deadwood_within_limit(void **state)
{
    (void)state;
    okr_refusal why;
    gin_game(&game, 1, "7C");
    give(&game, 0, "AC 2C 3C 7D 7H 7S 9S TS JS 4H KD");
    okr_action a = knock(0, "KD", 3, "AC 2C 3C", "7D 7H 7S", "9S TS JS", NULL);
    assert_int_equal(okr__gin_knock_check(&game, &a, &why), OKR_OK);
    int n = okr__gin_knocks(&game, acts, 0, OKR_MAX_ACTIONS);
    assert_int_equal(n, 1);
    assert_memory_equal(&acts[0], &a, sizeof a);

    okr_action b = knock(0, "4H", 3, "AC 2C 3C", "7D 7H 7S", "9S TS JS", NULL);
    assert_int_equal(okr__gin_knock_check(&game, &b, &why), OKR_EILLEGAL);
    assert_string_equal(why.rule, "G5");
    assert_string_equal(why.reason, "deadwood 10 exceeds the knock limit 7");

    okr_action c = knock(0, "KD", 2, "AC 2C 3C", "9S TS JS", NULL, NULL);
    assert_int_equal(okr__gin_knock_check(&game, &c, &why), OKR_EILLEGAL);
    assert_string_equal(why.reason, "deadwood 25 exceeds the knock limit 7");
}

/* RULES G5: every arrangement within the limit is a knock, also one that leaves meldable
 * cards as deadwood; the list is in the canonical order (discard, then arrangement). */
static void test_G5_knocks_list_every_arrangement_in_order(void **state)
{
    (void)state;
    gin_game(&game, 1, "TC");
    give(&game, 0, "AC 2C 3C 4C 9D 9H 9S 5S 6S 7S KH");
    int n = okr__gin_knocks(&game, acts, 0, OKR_MAX_ACTIONS);
    assert_int_equal(n, 6);
    okr_action e[6];
    e[0] = knock(0, "AC", 3, "2C 3C 4C", "9D 9H 9S", "5S 6S 7S", NULL);
    e[1] = knock(0, "4C", 3, "AC 2C 3C", "9D 9H 9S", "5S 6S 7S", NULL);
    e[2] = knock(0, "KH", 3, "AC 2C 3C", "9D 9H 9S", "5S 6S 7S", NULL);
    e[3] = knock(0, "KH", 3, "AC 2C 3C 4C", "9D 9H 9S", "5S 6S 7S", NULL);
    e[4] = knock(0, "KH", 3, "2C 3C 4C", "9D 9H 9S", "5S 6S 7S", NULL);
    e[5] = knock(0, "KH", 2, "9D 9H 9S", "5S 6S 7S", NULL, NULL);
    for (int i = 0; i < 6; i++)
        assert_memory_equal(&acts[i], &e[i], sizeof e[i]);
    /* appending after existing entries */
    memset(&acts[0], 0x77, sizeof acts[0]);
    assert_int_equal(okr__gin_knocks(&game, acts, 1, OKR_MAX_ACTIONS), 7);
    assert_memory_equal(&acts[1], &e[0], sizeof e[0]);
    assert_memory_equal(&acts[6], &e[5], sizeof e[5]);
}

/* RULES G5: no knock at all when every discard leaves too much deadwood. */
static void test_G5_no_knock_over_limit(void **state)
{
    (void)state;
    gin_game(&game, 1, "3C");
    give(&game, 0, "AC 2C 3C 7D 7H 7S 9S TS JS 4H KD");
    assert_int_equal(okr__gin_knocks(&game, acts, 0, OKR_MAX_ACTIONS), 0);
    gin_game(&game, 1, "KC");
    give(&game, 0, "AC 3C 5C 7D 8H 9S JS KS 4H 6D KD");
    assert_int_equal(okr__gin_knocks(&game, acts, 0, OKR_MAX_ACTIONS), 0);
}

/* RULES G5: a caller's buffer too small gives OKR_EOVERFLOW. */
static void test_G5_knocks_overflow(void **state)
{
    (void)state;
    gin_game(&game, 1, "TC");
    give(&game, 0, "AC 2C 3C 4C 9D 9H 9S 5S 6S 7S KH");
    assert_int_equal(okr__gin_knocks(&game, acts, 0, 5), OKR_EOVERFLOW);
    assert_int_equal(okr__gin_knocks(&game, acts, 0, 6), 6);
    assert_int_equal(okr__gin_knocks(&game, acts, 3, 8), OKR_EOVERFLOW);
}

/* RULES G5: knock content is refused with a reason: discard or meld cards not in hand, a
 * card in two melds, invalid melds, too many melds, melds of fewer than 3 or more than 13
 * cards. Melds and cards may come in any order. */
static void test_G5_knock_check_refusals(void **state)
{
    (void)state;
    okr_refusal why;
    gin_game(&game, 1, "TC");
    give(&game, 0, "AC 2C 3C 4C 9D 9H 9S 5S 6S 7S KH");

    okr_action ok = knock(0, "KH", 3, "7S 5S 6S", "9S 9D 9H", "3C AC 2C", NULL);
    assert_int_equal(okr__gin_knock_check(&game, &ok, &why), OKR_OK);

    okr_action a = knock(0, "QH", 2, "9D 9H 9S", "5S 6S 7S", NULL, NULL);
    assert_int_equal(okr__gin_knock_check(&game, &a, &why), OKR_EILLEGAL);
    assert_string_equal(why.rule, "G5");

    a = knock(0, "KH", 2, "9D 9H 9S 9C", "5S 6S 7S", NULL, NULL);
    assert_int_equal(okr__gin_knock_check(&game, &a, &why), OKR_EILLEGAL);
    assert_string_equal(why.reason, "the melds' card 9C is not in hand");

    a = knock(0, "KH", 2, "AC 2C 3C", "3C 4C 5C", NULL, NULL); /* 3C in both melds */
    assert_int_equal(okr__gin_knock_check(&game, &a, &why), OKR_EILLEGAL);
    assert_string_equal(why.reason,
                        "the melds' card 3C is used twice: each card of the hand goes in one meld");

    a = knock(0, "4C", 2, "2C 3C 4C", "9D 9H 9S", NULL, NULL); /* discard also melded */
    assert_int_equal(okr__gin_knock_check(&game, &a, &why), OKR_EILLEGAL);
    assert_string_equal(why.reason,
                        "the melds' card 4C is the knock's discard: it cannot also be melded");

    a = knock(0, "KH", 2, "AC 2C 4C", "9D 9H 9S", NULL, NULL);
    assert_int_equal(okr__gin_knock_check(&game, &a, &why), OKR_EILLEGAL);
    assert_non_null(strstr(why.reason, "not a valid meld"));

    a = knock(0, "KH", 2, "AC 2C", "9D 9H 9S", NULL, NULL);
    assert_int_equal(okr__gin_knock_check(&game, &a, &why), OKR_EILLEGAL);
    assert_string_equal(why.rule, "G5");

    a = knock(0, "KH", 1, "9D 9H 9S", NULL, NULL, NULL);
    a.u.knock[0].n = 14;
    assert_int_equal(okr__gin_knock_check(&game, &a, &why), OKR_EILLEGAL);
    assert_string_equal(why.rule, "G5");

    a = knock(0, "KH", 3, "AC 2C 3C", "9D 9H 9S", "5S 6S 7S", NULL);
    a.nmelds = 5;
    assert_int_equal(okr__gin_knock_check(&game, &a, &why), OKR_EILLEGAL);
    assert_string_equal(why.rule, "G5");

    a = knock(0, "KH", 1, "9D 9H 9S", NULL, NULL, NULL);
    a.u.knock[0].card[1] = 60; /* not a card */
    assert_int_equal(okr__gin_knock_check(&game, &a, &why), OKR_EILLEGAL);
    a = knock(0, "KH", 1, "9D 9H 9S", NULL, NULL, NULL);
    a.card = OKR_JOKER;
    assert_int_equal(okr__gin_knock_check(&game, &a, &why), OKR_EILLEGAL);
}

/* RULES G5: okr_gin_best finds the least deadwood; ties go to the first arrangement in the
 * canonical order. */
static void test_G5_gin_best_least_deadwood_canonical_tie(void **state)
{
    (void)state;
    okr_rules r;
    memset(&r, 0, sizeof r);
    r.set_max = 3; /* sets of three only: four sevens give four equal choices */
    uint8_t h[OKR_KINDS] = {0};
    uint8_t c[16];
    int n = cards("7C 7D 7H 7S", c);
    for (int i = 0; i < n; i++)
        h[c[i]]++;
    okr_ginmeld best[OKR_GIN_MELDS];
    int nb = 0;
    assert_int_equal(okr_gin_best(&r, h, best, &nb), 7);
    assert_int_equal(nb, 1);
    expect_meld(&best[0], "7C 7D 7H");
    r.set_max = 0; /* default 4 */
    assert_int_equal(okr_gin_best(&r, h, best, &nb), 0);
    expect_meld(&best[0], "7C 7D 7H 7S");
    /* a set or a run through the same card: the better one wins */
    memset(h, 0, sizeof h);
    n = cards("7C 7D 7H 8H 9H KS", c);
    for (int i = 0; i < n; i++)
        h[c[i]]++;
    assert_int_equal(okr_gin_best(&r, h, best, &nb), 24); /* 7H 8H 9H: 7C 7D KS left */
    assert_int_equal(nb, 1);
    expect_meld(&best[0], "7H 8H 9H");
    assert_int_equal(okr_gin_best(NULL, h, NULL, NULL), 24);
    memset(h, 0, sizeof h);
    assert_int_equal(okr_gin_best(&r, h, best, &nb), 0);
    assert_int_equal(nb, 0);
}

/* The showdown of a knock as text: "melds AC 2C 3C | ...; dead 2D; off 7H>0 8H>0" (the
 * arrangement, the knocker's deadwood, each lay-off as card>knocker meld). */
static const char *showdown(const okr_hand_result *r)
{
    static char buf[400];
    char c[3];
    size_t n = (size_t)snprintf(buf, sizeof buf, "melds");
    for (int i = 0; i < r->knock_nmelds; i++) {
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s", i ? " |" : "");
        for (int j = 0; j < r->knock_meld[i].n; j++)
            n += (size_t)snprintf(buf + n, sizeof buf - n, " %s",
                                  okr_card_str(r->knock_meld[i].card[j], c));
    }
    n += (size_t)snprintf(buf + n, sizeof buf - n, "; dead");
    for (int i = 0; i < r->knock_dead_n; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, " %s", okr_card_str(r->knock_dead[i], c));
    n += (size_t)snprintf(buf + n, sizeof buf - n, "; off");
    for (int i = 0; i < r->layoff_n; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, " %s>%d", okr_card_str(r->layoff_card[i], c),
                              r->layoff_meld[i]);
    return buf;
}

/* RULES G5: the defender lays off onto the knocker's runs at both ends, in chains (7 then 8
 * onto 4-5-6), and onto his sets up to four cards. */
static void test_G5_defender_lays_off_chain(void **state)
{
    (void)state;
    gin_game(&game, 1, "TC");
    give(&game, 0, "4H 5H 6H 9C 9D 9S JC QC KC 2D");
    give(&game, 1, "7H 8H AC 2C 3C 9H KS 4S 6D TD");
    okr_action a = knock(0, "3S", 3, "4H 5H 6H", "9C 9D 9S", "JC QC KC", NULL);
    okr_hand_result res = settle(&a);
    assert_int_equal(res.deadwood[0], 2);
    assert_int_equal(res.deadwood[1], 30); /* KS 4S 6D TD */
    /* the showdown the table sees: the arrangement as declared and 2D left; 7H 8H 9H lay off
     * onto 4-5-6H and the 9s, or make the defender's own run: the same deadwood, and the
     * first found (own melds) is shown */
    assert_string_equal(showdown(&res), "melds 4H 5H 6H | 9C 9D 9S | JC QC KC; dead 2D; off");
    assert_int_equal(res.ended, OKR_END_KNOCK);
    assert_int_equal(res.winner, 0);
    assert_int_equal(res.knocker, 0);
    assert_int_equal(res.score[0], 28);
    assert_int_equal(res.score[1], 0);

    /* below the run too: 3H 2H onto 4-5-6H, TC onto J-Q-K clubs, 8C 7C? not (9C in set) */
    gin_game(&game, 1, "TC");
    give(&game, 0, "4H 5H 6H 9C 9D 9S JC QC KC 2D");
    give(&game, 1, "3H 2H TC 8C 7C AS 5S 6S 8S 7D");
    res = settle(&a);
    assert_int_equal(res.deadwood[1], 8 + 7 + 1 + 5 + 6 + 8 + 7);
    assert_string_equal(showdown(&res),
                        "melds 4H 5H 6H | 9C 9D 9S | JC QC KC; dead 2D; off 2H>0 3H>0 TC>2");
}

/* RULES G5: lay-offs and the defender's own melds are chosen together for the least
 * deadwood: a card goes to his own set when that leaves less than laying it off. */
static void test_G5_defender_layoff_minimised(void **state)
{
    (void)state;
    gin_game(&game, 1, "TC");
    give(&game, 0, "4H 5H 6H 9C 9D 9S JC QC KC 2D");
    /* 7H 8H lay off (15), or 7H 7C 7D set (21) with 8H left: the set is better */
    give(&game, 1, "7H 8H 7C 7D AS 3S 5S TD QD KD");
    okr_action a = knock(0, "3D", 3, "4H 5H 6H", "9C 9D 9S", "JC QC KC", NULL);
    okr_hand_result res = settle(&a);
    assert_int_equal(res.deadwood[1], 8 + 1 + 3 + 5 + 10 + 10 + 10);
    /* with 7S too: 7C 7D 7S set and 7H 8H laid off */
    gin_game(&game, 1, "TC");
    give(&game, 0, "4H 5H 6H 9C 9D 9S JC QC KC 2D");
    give(&game, 1, "7H 8H 7C 7D 7S AS 3S 5S TD QD");
    res = settle(&a);
    assert_int_equal(res.deadwood[1], 1 + 3 + 5 + 10 + 10);
    /* 9H could go to the set or extend nothing else; TC TD TH: own set, not a lay-off onto
     * J-Q-K (only TC fits there) */
    gin_game(&game, 1, "TC");
    give(&game, 0, "4H 5H 6H 9C 9D 9S JC QC KC 2D");
    give(&game, 1, "TC TD TH 9H 3S 5S 8D 4C AD 2S");
    res = settle(&a);
    assert_int_equal(res.deadwood[1], 3 + 5 + 8 + 4 + 1 + 2);
}

/* RULES G5, 1.5: lay-offs onto a set stop at four cards, also with two decks. */
static void test_G5_layoff_set_cap(void **state)
{
    (void)state;
    gin_game(&game, 2, "TC");
    give(&game, 0, "4H 5H 6H 9C 9D 9S JC QC KC 2D");
    give(&game, 1, "9H 9H 9C AS 3S 5S 8D 4C AD 2H");
    okr_action a = knock(0, "3D", 3, "4H 5H 6H", "9C 9D 9S", "JC QC KC", NULL);
    okr_hand_result res = settle(&a);
    /* own set 9H 9H 9C is best: everything else is deadwood */
    assert_int_equal(res.deadwood[1], 1 + 3 + 5 + 8 + 4 + 1 + 2);
    gin_game(&game, 2, "TC");
    give(&game, 0, "4H 5H 6H 9C 9D 9S JC QC KC 2D");
    give(&game, 1, "9H 9H 8C AS 3S 5S 8D 4C AD 2H");
    res = settle(&a);
    /* one 9H fits the set (cap 4); the other stays */
    assert_int_equal(res.deadwood[1], 9 + 8 + 1 + 3 + 5 + 8 + 4 + 1 + 2);
}

/* ---- G7: scoring ----------------------------------------------------------------------- */

/* RULES G7: knocker lower: he scores the difference. */
static void test_G7_knock_scores_difference(void **state)
{
    (void)state;
    gin_game(&game, 1, "8C");
    give(&game, 0, "AC 2C 3C 7D 7H 7S 9S TS JS 4H");
    give(&game, 1, "KH KD 5C 5D 2S 3S 4D 6H 8H TD");
    okr_action a = knock(0, "KC", 3, "AC 2C 3C", "7D 7H 7S", "9S TS JS", NULL);
    okr_hand_result res = settle(&a);
    /* defender: no own melds; 8S? none. KH KD 5C 5D 2S 3S 4D 6H 8H TD = 10+10+5+5+2+3+4+6+8+10
     * = 63; lay-offs: 8S/QS/... none; 4C onto A-3C? he has no 4C. 6H? no. */
    assert_int_equal(res.deadwood[0], 4);
    assert_int_equal(res.deadwood[1], 63);
    assert_int_equal(res.ended, OKR_END_KNOCK);
    assert_int_equal(res.winner, 0);
    assert_int_equal(res.score[0], 59);
    assert_int_equal(res.score[1], 0);
}

/* RULES G7: undercut: the defender's deadwood is lower: he scores 10 plus the difference. */
static void test_G7_undercut_scores_ten_plus_difference(void **state)
{
    (void)state;
    gin_game(&game, 1, "TC");
    give(&game, 0, "AC 2C 3C 7D 7H 7S 9S TS JS 8H");
    give(&game, 1, "4C 5C 6C 8D 8S 8C QH QD QC 3H"); /* 4C lays off too: left 3H */
    okr_action a = knock(0, "KC", 3, "AC 2C 3C", "7D 7H 7S", "9S TS JS", NULL);
    okr_hand_result res = settle(&a);
    assert_int_equal(res.deadwood[0], 8);
    assert_int_equal(res.deadwood[1], 3);
    assert_int_equal(res.ended, OKR_END_UNDERCUT);
    assert_int_equal(res.winner, 1);
    assert_int_equal(res.knocker, 0);
    assert_int_equal(res.score[1], 10 + 5);
    assert_int_equal(res.score[0], 0);
    /* the undercut bonus is an option */
    game.rules.undercut_bonus = 20;
    res = settle(&a);
    assert_int_equal(res.score[1], 25);
}

/* RULES G7: equal deadwood is an undercut too (the defender scores 10). */
static void test_G7_undercut_on_equal_deadwood(void **state)
{
    (void)state;
    gin_game(&game, 1, "TC");
    give(&game, 0, "AC 2C 3C 7D 7H 7S 9S TS JS 8H");
    give(&game, 1, "5D 6D 7D 8D 8S 8C QH QD QC 6S");
    /* 7D is in the knocker's hand in one deck: use decks 2 */
    game.rules.decks = 2;
    okr_action a = knock(0, "KC", 3, "AC 2C 3C", "7D 7H 7S", "9S TS JS", NULL);
    okr_hand_result res = settle(&a);
    /* defender: run 5D-8D, QQQ, 8S laid off onto 9S-JS: 8C 6S = 14 left; better
     * 8D 8S 8C set, 5D 6D 7D run, QQQ: 6S = 6 left. 8 > 6: undercut */
    assert_int_equal(res.deadwood[1], 6);
    assert_int_equal(res.deadwood[0], 8);
    assert_int_equal(res.ended, OKR_END_UNDERCUT);
    assert_int_equal(res.score[1], 12);
    /* now equal: knocker deadwood 6 */
    gin_game(&game, 2, "TC");
    give(&game, 0, "AC 2C 3C 7D 7H 7S 9S TS JS 6H");
    give(&game, 1, "5D 6D 7D 8D 8S 8C QH QD QC 6S");
    res = settle(&a);
    assert_int_equal(res.deadwood[0], 6);
    assert_int_equal(res.deadwood[1], 6);
    assert_int_equal(res.ended, OKR_END_UNDERCUT);
    assert_int_equal(res.winner, 1);
    assert_int_equal(res.score[1], 10);
    assert_int_equal(res.score[0], 0);
}

/* RULES G7, G5: gin: the defender may not lay off; the knocker scores 25 plus the
 * defender's deadwood; the defender scores nothing even with no deadwood. */
static void test_G7_gin_no_layoff(void **state)
{
    (void)state;
    gin_game(&game, 1, "5C");
    give(&game, 0, "AC 2C 3C 7D 7H 7S 9S TS JS QS");
    give(&game, 1, "4C 5C 7C 8S KS 2H 3H 4H 5D 6D"); /* 4C 5C, 7C, 8S, KS would lay off */
    okr_action a = knock(0, "KC", 3, "AC 2C 3C", "7D 7H 7S", "9S TS JS QS", NULL);
    okr_hand_result res = settle(&a);
    assert_int_equal(res.deadwood[0], 0);
    /* own melds: 2H 3H 4H; left 4C 5C 7C 8S KS 5D 6D = 4+5+7+8+10+5+6 = 45 */
    assert_int_equal(res.deadwood[1], 45);
    assert_string_equal(showdown(&res), "melds AC 2C 3C | 7D 7H 7S | 9S TS JS QS; dead; off");
    assert_int_equal(res.ended, OKR_END_GIN);
    assert_int_equal(res.winner, 0);
    assert_int_equal(res.score[0], 25 + 45);
    assert_int_equal(res.score[1], 0);

    gin_game(&game, 1, "5C");
    give(&game, 0, "AC 2C 3C 7D 7H 7S 9S TS JS QS");
    give(&game, 1, "4C 5C 6C 8D 8H 8C 2H 3H 4H 5H");
    game.rules.gin_bonus = 20;
    res = settle(&a);
    assert_int_equal(res.deadwood[1], 0);
    assert_int_equal(res.ended, OKR_END_GIN);
    assert_int_equal(res.score[0], 20);
    assert_int_equal(res.score[1], 0);
}

/* ---- brute-force cross-checks (G1, G5, G7) --------------------------------------------- */

static uint64_t lcg_state;

static unsigned rnd(unsigned n)
{
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)((lcg_state >> 33) % n);
}

typedef struct arr {
    int n;
    int dw;
    okr_ginmeld m[OKR_GIN_MELDS];
} arr;

static int cmp_meld(const okr_ginmeld *a, const okr_ginmeld *b)
{
    for (int i = 0; i < a->n && i < b->n; i++)
        if (a->card[i] != b->card[i])
            return a->card[i] < b->card[i] ? -1 : 1;
    return a->n < b->n ? -1 : a->n > b->n ? 1 : 0;
}

static int cmp_arr(const void *pa, const void *pb)
{
    const arr *a = pa, *b = pb;
    for (int i = 0; i < a->n && i < b->n; i++) {
        int c = cmp_meld(&a->m[i], &b->m[i]);
        if (c)
            return c;
    }
    return a->n < b->n ? -1 : a->n > b->n ? 1 : 0;
}

enum { BF_MAX = 200000 };
static arr bf_list[BF_MAX];
static int bf_n;
static int bf_cap_set;

/* Every way to split the multiset c: the lowest card left is deadwood, or the lowest card of
 * a run, or the lowest card of a set. Records each arrangement (duplicates included). */
static void bf_rec(uint8_t c[52], arr *cur, int dw)
{
    int k = 0;
    while (k < 52 && c[k] == 0)
        k++;
    if (k == 52) {
        assert_true(bf_n < BF_MAX);
        arr a = *cur;
        a.dw = dw;
        /* sort melds */
        for (int i = 1; i < a.n; i++)
            for (int j = i; j > 0 && cmp_meld(&a.m[j - 1], &a.m[j]) > 0; j--) {
                okr_ginmeld t = a.m[j];
                a.m[j] = a.m[j - 1];
                a.m[j - 1] = t;
            }
        bf_list[bf_n++] = a;
        return;
    }
    c[k]--;
    bf_rec(c, cur, dw + value(k));
    c[k]++;
    if (cur->n == OKR_GIN_MELDS)
        return;
    /* runs from k up */
    int s = k / 13, r = k % 13;
    for (int len = 3; r + len <= 13; len++) {
        bool ok = true;
        for (int i = 0; i < len; i++)
            if (c[s * 13 + r + i] == 0)
                ok = false;
        if (!ok)
            break;
        okr_ginmeld *m = &cur->m[cur->n++];
        memset(m, 0, sizeof *m);
        m->n = (uint8_t)len;
        for (int i = 0; i < len; i++) {
            m->card[i] = (uint8_t)(s * 13 + r + i);
            c[s * 13 + r + i]--;
        }
        bf_rec(c, cur, dw);
        for (int i = 0; i < len; i++)
            c[s * 13 + r + i]++;
        cur->n--;
    }
    /* sets with k as their lowest card: b[s'] copies of suit s' >= s */
    int b[4] = {0, 0, 0, 0};
    int lim[4];
    for (int t = 0; t < 4; t++)
        lim[t] = t < s ? 0 : c[t * 13 + r];
    for (b[0] = 0; b[0] <= lim[0]; b[0]++)
        for (b[1] = 0; b[1] <= lim[1]; b[1]++)
            for (b[2] = 0; b[2] <= lim[2]; b[2]++)
                for (b[3] = 0; b[3] <= lim[3]; b[3]++) {
                    int tot = b[0] + b[1] + b[2] + b[3];
                    if (b[s] == 0 || tot < 3 || tot > bf_cap_set)
                        continue;
                    okr_ginmeld *m = &cur->m[cur->n++];
                    memset(m, 0, sizeof *m);
                    m->n = (uint8_t)tot;
                    int j = 0;
                    for (int t = 0; t < 4; t++)
                        for (int q = 0; q < b[t]; q++)
                            m->card[j++] = (uint8_t)(t * 13 + r);
                    for (int t = 0; t < 4; t++)
                        c[t * 13 + r] = (uint8_t)(c[t * 13 + r] - b[t]);
                    bf_rec(c, cur, dw);
                    for (int t = 0; t < 4; t++)
                        c[t * 13 + r] = (uint8_t)(c[t * 13 + r] + b[t]);
                    cur->n--;
                }
}

/* All distinct arrangements of hand (sorted canonically); returns the count in bf_list. */
static int bf_all(const uint8_t hand[OKR_KINDS], int cap)
{
    uint8_t c[52];
    arr cur;
    memcpy(c, hand, 52);
    memset(&cur, 0, sizeof cur);
    bf_n = 0;
    bf_cap_set = cap;
    bf_rec(c, &cur, 0);
    qsort(bf_list, (size_t)bf_n, sizeof bf_list[0], cmp_arr);
    int u = 0;
    for (int i = 0; i < bf_n; i++)
        if (u == 0 || cmp_arr(&bf_list[u - 1], &bf_list[i]) != 0)
            bf_list[u++] = bf_list[i];
    bf_n = u;
    return u;
}

/* Least deadwood (first canonical arrangement on ties) by brute force. */
static int bf_best(const uint8_t hand[OKR_KINDS], int cap, arr *best)
{
    int n = bf_all(hand, cap);
    int bi = 0;
    for (int i = 1; i < n; i++)
        if (bf_list[i].dw < bf_list[bi].dw)
            bi = i;
    if (best)
        *best = bf_list[bi];
    return bf_list[bi].dw;
}

/* Deal n cards into h from a pack of `decks` packs; "narrow" hands come from a window of
 * ranks so that melds and knocks are frequent. */
static void deal(uint8_t h[OKR_KINDS], int n, int decks, int narrow, uint8_t used[52])
{
    int lo = (int)rnd(13), width = 3 + (int)rnd(5), suits = 2 + (int)rnd(3);
    memset(h, 0, OKR_KINDS);
    for (int i = 0; i < n; i++) {
        int k, tries = 0;
        do { /* a full window falls back to the whole pack */
            if (narrow && tries++ < 100) {
                int su = (int)rnd((unsigned)suits); /* one call per statement: fixed order */
                k = su * 13 + (lo + (int)rnd((unsigned)width)) % 13;
            } else
                k = (int)rnd(52);
        } while (used[k] >= decks);
        used[k]++;
        h[k]++;
    }
}

static void action_to_arr(const okr_action *a, arr *x)
{
    memset(x, 0, sizeof *x);
    x->n = a->nmelds;
    for (int i = 0; i < a->nmelds; i++)
        x->m[i] = a->u.knock[i];
}

/* RULES G5, G1: random 10- and 11-card hands (1-3 decks): okr_gin_best equals a brute force
 * (deadwood and the first best arrangement); okr__gin_knocks lists exactly the brute-force
 * arrangements within the limit for each discard, in canonical order, each once, each
 * accepted by okr__gin_knock_check (also with melds and cards shuffled), while over-limit
 * arrangements are refused. */
static void test_G5_brute_force_cross_check(void **state)
{
    (void)state;
    static arr want[BF_MAX];
    lcg_state = 12345;
    int hands_with_knocks = 0, total_actions = 0, max_actions = 0, refused_checked = 0;
    for (int it = 0; it < 3000; it++) {
        int decks = it % 5 == 0 ? 2 : it % 17 == 0 ? 3 : 1;
        int narrow = (int)rnd(3) != 0;
        uint8_t used[52] = {0};
        uint8_t h[OKR_KINDS];
        int ncards = it % 2 ? 11 : 10;
        deal(h, ncards, decks, narrow, used);
        int cap = it % 23 == 0 ? 3 : 4;

        /* okr_gin_best */
        okr_rules r;
        memset(&r, 0, sizeof r);
        r.set_max = (uint8_t)cap;
        okr_ginmeld got[OKR_GIN_MELDS];
        int ng = -1;
        arr b;
        int want_dw = bf_best(h, cap, &b);
        int got_dw = okr_gin_best(&r, h, got, &ng);
        assert_int_equal(got_dw, want_dw);
        assert_int_equal(ng, b.n);
        for (int i = 0; i < ng; i++) {
            assert_int_equal(got[i].n, b.m[i].n);
            assert_memory_equal(got[i].card, b.m[i].card, sizeof got[i].card);
        }
        if (ncards != 11)
            continue;

        /* okr__gin_knocks */
        memset(&game, 0, sizeof game);
        game.rules.family = OKR_FAMILY_GIN;
        game.rules.values = OKR_VALUES_GIN;
        game.rules.decks = (uint8_t)decks;
        game.rules.set_max = (uint8_t)cap;
        game.rules.ace_gin_only = (uint8_t)(it % 7 == 0);
        game.players = 2;
        game.phase = OKR_PH_PLAY;
        game.to_act = (uint8_t)(it % 2);
        memcpy(game.hand[game.to_act], h, OKR_KINDS);
        game.hand_n[game.to_act] = 11;
        int k;
        do
            k = (int)rnd(52);
        while (used[k] >= decks);
        game.upcard = (uint8_t)k;
        int limit = okr__gin_limit(&game);
        assert_int_equal(limit, game.rules.ace_gin_only && k % 13 == 0 ? 0 : value(k));

        int n = okr__gin_knocks(&game, acts, 0, OKR_MAX_ACTIONS);
        assert_true(n >= 0);
        /* brute force: for each distinct discard, arrangements within the limit */
        int nw = 0;
        uint8_t rest[OKR_KINDS];
        for (int d = 0; d < 52; d++) {
            if (!h[d])
                continue;
            memcpy(rest, h, OKR_KINDS);
            rest[d]--;
            int na = bf_all(rest, cap);
            for (int i = 0; i < na; i++) {
                if (bf_list[i].dw <= limit) {
                    want[nw] = bf_list[i];
                    want[nw].dw = d; /* remember the discard */
                    nw++;
                } else if (refused_checked < 20000 && rnd(4) == 0) {
                    okr_action x;
                    memset(&x, 0, sizeof x);
                    x.type = OKR_A_KNOCK;
                    x.seat = game.to_act;
                    x.card = (uint8_t)d;
                    x.nmelds = (uint8_t)bf_list[i].n;
                    for (int j = 0; j < bf_list[i].n; j++)
                        x.u.knock[j] = bf_list[i].m[j];
                    okr_refusal why;
                    assert_int_equal(okr__gin_knock_check(&game, &x, &why), OKR_EILLEGAL);
                    assert_string_equal(why.rule,
                                        limit == 0 && game.rules.ace_gin_only ? "G2" : "G5");
                    refused_checked++;
                }
            }
        }
        assert_int_equal(n, nw);
        for (int i = 0; i < n; i++) {
            const okr_action *a = &acts[i];
            okr_action e;
            memset(&e, 0, sizeof e);
            e.type = OKR_A_KNOCK;
            e.seat = game.to_act;
            e.card = (uint8_t)want[i].dw;
            e.nmelds = (uint8_t)want[i].n;
            for (int j = 0; j < want[i].n; j++)
                e.u.knock[j] = want[i].m[j];
            assert_memory_equal(a, &e, sizeof e);
            okr_refusal why;
            assert_int_equal(okr__gin_knock_check(&game, a, &why), OKR_OK);
            /* same knock with melds and cards in another order */
            okr_action sh = *a;
            for (int j = 0; j < sh.nmelds; j++) {
                sh.u.knock[j] = a->u.knock[sh.nmelds - 1 - j];
                okr_ginmeld *m = &sh.u.knock[j];
                for (int q = 0; q < m->n / 2; q++) {
                    uint8_t t = m->card[q];
                    m->card[q] = m->card[m->n - 1 - q];
                    m->card[m->n - 1 - q] = t;
                }
            }
            assert_int_equal(okr__gin_knock_check(&game, &sh, &why), OKR_OK);
            if (i > 0) {
                /* strictly increasing: by discard, then arrangement; hence all distinct */
                arr x, y;
                action_to_arr(&acts[i - 1], &x);
                action_to_arr(a, &y);
                assert_true(acts[i - 1].card < a->card ||
                            (acts[i - 1].card == a->card && cmp_arr(&x, &y) < 0));
                assert_memory_not_equal(&acts[i - 1], a, sizeof *a);
            }
        }
        for (int i = 0; i < n && i < 64; i++)
            for (int j = i + 1; j < n; j++)
                assert_memory_not_equal(&acts[i], &acts[j], sizeof acts[i]);
        if (n > 0)
            hands_with_knocks++;
        total_actions += n;
        if (n > max_actions)
            max_actions = n;
    }
    print_message("brute force: %d hands with knocks, %d knocks, at most %d in a hand, "
                  "%d over-limit arrangements refused\n",
                  hands_with_knocks, total_actions, max_actions, refused_checked);
    assert_true(hands_with_knocks > 100);
    assert_true(refused_checked > 1000);
}

/* Independent settlement: each defender card goes to his own pool or onto one knocker meld;
 * the assignment is kept when every knocker meld stays a valid meld (runs: contiguous,
 * one suit; sets: same rank, at most cap); the pool is then arranged by brute force. */
typedef struct kmeld {
    int set, a, lo, hi, n;
} kmeld;

static int st_best;
static int st_cards[16];
static int st_nc;
static int st_assign[16];
static kmeld st_k[OKR_GIN_MELDS];
static int st_nk;
static int st_cap;

static bool st_valid(void)
{
    for (int m = 0; m < st_nk; m++) {
        const kmeld *km = &st_k[m];
        int cnt = 0;
        uint8_t have[13] = {0};
        for (int i = 0; i < st_nc; i++) {
            if (st_assign[i] != m + 1)
                continue;
            int k = st_cards[i];
            cnt++;
            if (km->set) {
                if (k % 13 != km->a)
                    return false;
            } else {
                if (k / 13 != km->a || (k % 13 >= km->lo && k % 13 <= km->hi) || have[k % 13])
                    return false;
                have[k % 13] = 1;
            }
        }
        if (km->set) {
            if (km->n + cnt > st_cap)
                return false;
        } else {
            for (int q = km->lo - 1; q >= 0 && have[q]; q--)
                have[q] = 0;
            for (int q = km->hi + 1; q < 13 && have[q]; q++)
                have[q] = 0;
            for (int q = 0; q < 13; q++)
                if (have[q])
                    return false; /* not joined to the run */
        }
    }
    return true;
}

static void st_rec(int i, bool layoffs)
{
    if (i == st_nc) {
        if (!st_valid())
            return;
        uint8_t pool[OKR_KINDS] = {0};
        for (int j = 0; j < st_nc; j++)
            if (st_assign[j] == 0)
                pool[st_cards[j]]++;
        int d = bf_best(pool, st_cap, NULL);
        if (d < st_best)
            st_best = d;
        return;
    }
    for (int m = 0; m <= (layoffs ? st_nk : 0); m++) {
        if (m > 0) { /* only cards that could touch the meld at all */
            const kmeld *km = &st_k[m - 1];
            int k = st_cards[i];
            if (km->set ? k % 13 != km->a : k / 13 != km->a)
                continue;
        }
        st_assign[i] = m;
        st_rec(i + 1, layoffs);
    }
}

/* RULES G5, G7: random knocks settled against an independent brute force of the
 * defender's melds and lay-offs, and of the scores. */
static void test_G7_settle_brute_force_cross_check(void **state)
{
    (void)state;
    lcg_state = 987654321;
    int settled = 0, layoff_helped = 0, kinds[8] = {0};
    for (int it = 0; it < 6000 && settled < 400; it++) {
        int decks = it % 4 == 0 ? 2 : 1;
        uint8_t used[52] = {0};
        uint8_t h[OKR_KINDS], dh[OKR_KINDS];
        deal(h, 11, decks, 1, used);
        memset(&game, 0, sizeof game);
        game.rules.family = OKR_FAMILY_GIN;
        game.rules.values = OKR_VALUES_GIN;
        game.rules.decks = (uint8_t)decks;
        game.rules.set_max = 4;
        game.rules.gin_bonus = 25;
        game.rules.undercut_bonus = 10;
        game.rules.spade_double = (uint8_t)(it % 3 == 0);
        game.players = 2;
        game.phase = OKR_PH_PLAY;
        int kn = it % 2;
        game.to_act = (uint8_t)kn;
        memcpy(game.hand[kn], h, OKR_KINDS);
        int up;
        do
            up = (int)rnd(52);
        while (used[up] >= decks);
        used[up]++;
        game.upcard = (uint8_t)up;
        int n = okr__gin_knocks(&game, acts, 0, OKR_MAX_ACTIONS);
        if (n <= 0)
            continue;
        okr_action a = acts[rnd((unsigned)n)];
        game.hand[kn][a.card]--;
        /* the defender's hand: near the knocker's cards, so lay-offs happen */
        deal(dh, 10, decks, (int)rnd(4) != 0, used);
        memcpy(game.hand[1 - kn], dh, OKR_KINDS);

        okr_hand_result res;
        memset(&res, 0x5a, sizeof res);
        okr__gin_settle(&game, kn, &a, &res);

        /* independent */
        int K = 0;
        uint8_t left[52];
        memcpy(left, game.hand[kn], 52);
        st_nk = 0;
        for (int i = 0; i < a.nmelds; i++) {
            const okr_ginmeld *m = &a.u.knock[i];
            kmeld *km = &st_k[st_nk++];
            int mn = 99, mx = -1;
            for (int j = 0; j < m->n; j++) {
                left[m->card[j]]--;
                mn = m->card[j] < mn ? m->card[j] : mn;
                mx = m->card[j] > mx ? m->card[j] : mx;
            }
            km->n = m->n;
            km->set = m->card[0] % 13 == m->card[1] % 13;
            km->a = km->set ? m->card[0] % 13 : m->card[0] / 13;
            km->lo = mn % 13;
            km->hi = mx % 13;
        }
        for (int k = 0; k < 52; k++)
            K += left[k] * value(k);
        st_cap = 4;
        st_nc = 0;
        for (int k = 0; k < 52; k++)
            for (int q = 0; q < dh[k]; q++)
                st_cards[st_nc++] = k;
        st_best = 1 << 30;
        st_rec(0, false);
        int no_lay = st_best;
        if (K > 0) {
            st_best = 1 << 30;
            st_rec(0, true);
        }
        int D = st_best;
        if (D < no_lay)
            layoff_helped++;
        int ended, scorer, score;
        if (K == 0) {
            ended = OKR_END_GIN;
            scorer = kn;
            score = 25 + D;
        } else if (K < D) {
            ended = OKR_END_KNOCK;
            scorer = kn;
            score = D - K;
        } else {
            ended = OKR_END_UNDERCUT;
            scorer = 1 - kn;
            score = 10 + K - D;
        }
        if (game.rules.spade_double && up / 13 == 3)
            score *= 2;
        assert_int_equal(res.deadwood[kn], K);
        assert_int_equal(res.deadwood[1 - kn], D);
        assert_int_equal(res.ended, ended);
        assert_int_equal(res.winner, scorer);
        assert_int_equal(res.knocker, kn);
        assert_int_equal(res.score[scorer], score);
        assert_int_equal(res.score[1 - scorer], 0);
        assert_int_equal(res.melded[0], 0x5a5a5a5a); /* other fields untouched */
        assert_int_equal(res.total[1], 0x5a5a5a5a);
        kinds[ended]++;
        settled++;
    }
    print_message("settle: %d knocks (%d gin, %d knock, %d undercut), lay-offs helped in %d\n",
                  settled, kinds[OKR_END_GIN], kinds[OKR_END_KNOCK], kinds[OKR_END_UNDERCUT],
                  layoff_helped);
    assert_true(settled >= 200);
    assert_true(layoff_helped > 20);
    assert_true(kinds[OKR_END_GIN] > 0 && kinds[OKR_END_KNOCK] > 0 && kinds[OKR_END_UNDERCUT] > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_G2_knock_limit_is_upcard_value),
        cmocka_unit_test(test_G2_ace_gin_only),
        cmocka_unit_test(test_G2_spade_double),
        cmocka_unit_test(test_G1_ace_low_only),
        cmocka_unit_test(test_G1_set_of_at_most_four),
        cmocka_unit_test(test_G1_decks2_duplicate_kinds),
        cmocka_unit_test(test_G5_knock_deadwood_within_limit),
        cmocka_unit_test(test_G5_knocks_list_every_arrangement_in_order),
        cmocka_unit_test(test_G5_no_knock_over_limit),
        cmocka_unit_test(test_G5_knocks_overflow),
        cmocka_unit_test(test_G5_knock_check_refusals),
        cmocka_unit_test(test_G5_gin_best_least_deadwood_canonical_tie),
        cmocka_unit_test(test_G5_defender_lays_off_chain),
        cmocka_unit_test(test_G5_defender_layoff_minimised),
        cmocka_unit_test(test_G5_layoff_set_cap),
        cmocka_unit_test(test_G7_knock_scores_difference),
        cmocka_unit_test(test_G7_undercut_scores_ten_plus_difference),
        cmocka_unit_test(test_G7_undercut_on_equal_deadwood),
        cmocka_unit_test(test_G7_gin_no_layoff),
        cmocka_unit_test(test_G5_brute_force_cross_check),
        cmocka_unit_test(test_G7_settle_brute_force_cross_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
