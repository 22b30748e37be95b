/* test_notation.c - the text notation of cards and actions (docs/notation.md): every card,
 * every action form, errors that name the bad token, round trips over every action the
 * engine lists in seeded games, and fuzzing with random bytes and token soups. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "okr/okr.h"

/* ---- Helpers --------------------------------------------------------------------------- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int rnd_below(int n)
{
    return (int)(rnd() % (uint64_t)n);
}

static int K(const char *s)
{
    int k = okr_card_parse(s, NULL);
    assert_true(k >= 0);
    return k;
}

static void set_rules(okr_game *g, const char *preset)
{
    okr_refusal why;
    assert_int_equal(okr_rules_preset(&g->rules, preset, &why), OKR_OK);
}

/* A hand-built table (only the fields the parser reads): seat 1 to act, pile top `top`,
 * and these melds:
 *   0: run 2H..KH (lo 1, 12 cards)      1: run 3H 4H 5H (lo 2)
 *   2: set KS KD KH                      3: run 7S JK=8S 9S (lo 6)
 *   4: run AD 2D 3D (lo 0)               5: run QC KC AC (lo 11) */
static void table(okr_game *g, const char *preset, const char *top)
{
    memset(g, 0, sizeof *g);
    set_rules(g, preset);
    g->players = 3;
    g->to_act = 1;
    g->phase = OKR_PH_DRAW;
    g->pile_n = 2;
    g->pile[0] = (uint8_t)K("4C");
    g->pile[1] = (uint8_t)K(top);
    okr_meld *m = g->meld;
    m[0].type = OKR_RUN, m[0].lo = 1, m[0].n = 12, m[0].suit = 2;
    for (int i = 0; i < 12; i++)
        m[0].card[i] = m[0].as[i] = (uint8_t)OKR_KIND(2, i + 2);
    m[1].type = OKR_RUN, m[1].lo = 2, m[1].n = 3, m[1].suit = 2;
    for (int i = 0; i < 3; i++)
        m[1].card[i] = m[1].as[i] = (uint8_t)OKR_KIND(2, i + 3);
    m[2].type = OKR_SET, m[2].n = 3, m[2].rank = 13;
    m[2].card[0] = m[2].as[0] = (uint8_t)K("KS");
    m[2].card[1] = m[2].as[1] = (uint8_t)K("KD");
    m[2].card[2] = m[2].as[2] = (uint8_t)K("KH");
    m[3].type = OKR_RUN, m[3].lo = 6, m[3].n = 3, m[3].suit = 3;
    m[3].card[0] = m[3].as[0] = (uint8_t)K("7S");
    m[3].card[1] = OKR_JOKER, m[3].as[1] = (uint8_t)K("8S");
    m[3].card[2] = m[3].as[2] = (uint8_t)K("9S");
    m[4].type = OKR_RUN, m[4].lo = 0, m[4].n = 3, m[4].suit = 1;
    for (int i = 0; i < 3; i++)
        m[4].card[i] = m[4].as[i] = (uint8_t)OKR_KIND(1, i + 1);
    m[5].type = OKR_RUN, m[5].lo = 11, m[5].n = 3, m[5].suit = 0;
    m[5].card[0] = m[5].as[0] = (uint8_t)K("QC");
    m[5].card[1] = m[5].as[1] = (uint8_t)K("KC");
    m[5].card[2] = m[5].as[2] = (uint8_t)K("AC");
    for (int i = 0; i < 6; i++)
        m[i].owner = 1;
    g->meld_n = 6;
}

/* Parse, expecting success. */
static okr_action parse_ok(const okr_game *g, const char *s)
{
    okr_action a;
    okr_refusal why;
    memset(&why, 0, sizeof why);
    int rc = okr_action_parse(g, s, &a, &why);
    if (rc != OKR_OK)
        fail_msg("parse '%s' failed: %s", s, why.reason);
    return a;
}

/* Parse, expecting OKR_EINVAL with a reason containing `needle`. */
static void parse_bad(const okr_game *g, const char *s, const char *needle)
{
    okr_action a;
    okr_refusal why;
    memset(&why, 0, sizeof why);
    int rc = okr_action_parse(g, s, &a, &why);
    const char *shown = s ? s : "(null)";
    if (rc != OKR_EINVAL)
        fail_msg("parse '%.60s': expected OKR_EINVAL, got %d", shown, rc);
    if (!strstr(why.reason, needle))
        fail_msg("parse '%.60s': reason '%s' lacks '%s'", shown, why.reason, needle);
}

/* format(a) == text, and parse(format(a)) == a byte for byte. */
static void round_trip(const okr_game *g, const okr_action *a, const char *text)
{
    char buf[512];
    int n = okr_action_format(a, buf, sizeof buf);
    assert_true(n > 0);
    assert_int_equal((size_t)n, strlen(buf));
    if (text)
        assert_string_equal(buf, text);
    okr_action b = parse_ok(g, buf);
    if (memcmp(a, &b, sizeof b) != 0)
        fail_msg("round trip of '%s' changed the action", buf);
}

/* ---- Cards ----------------------------------------------------------------------------- */

static void test_card_all_kinds(void **state)
{
    (void)state;
    static const char ranks[] = "A23456789TJQK", suits[] = "CDHS";
    for (int k = 0; k < OKR_KINDS; k++) {
        char buf[3], lower[3];
        okr_card_str(k, buf);
        if (k == OKR_JOKER)
            assert_string_equal(buf, "JK");
        else {
            assert_int_equal(buf[0], ranks[OKR_RANK(k) - 1]);
            assert_int_equal(buf[1], suits[OKR_SUIT(k)]);
        }
        assert_int_equal(buf[2], '\0');
        const char *end = NULL;
        assert_int_equal(okr_card_parse(buf, &end), k);
        assert_ptr_equal(end, buf + 2);
        lower[0] = (char)(buf[0] >= 'A' && buf[0] <= 'Z' ? buf[0] - 'A' + 'a' : buf[0]);
        lower[1] = (char)(buf[1] - 'A' + 'a');
        lower[2] = '\0';
        assert_int_equal(okr_card_parse(lower, NULL), k); /* case-insensitive */
    }
    assert_int_equal(okr_card_parse("AC", NULL), 0);
    assert_int_equal(okr_card_parse("KS", NULL), 51);
    assert_int_equal(okr_card_parse("QS", NULL), OKR_KIND(3, 12));
    assert_int_equal(okr_card_parse("Jk", NULL), OKR_JOKER);
    assert_int_equal(okr_card_parse("JH", NULL), OKR_KIND(2, 11)); /* a jack, not the Joker */
}

static void test_card_ten(void **state)
{
    (void)state;
    const char *s = "10H rest", *end = NULL;
    assert_int_equal(okr_card_parse(s, &end), OKR_KIND(2, 10));
    assert_ptr_equal(end, s + 3);
    assert_int_equal(okr_card_parse("10h", NULL), okr_card_parse("TH", NULL));
    assert_int_equal(okr_card_parse("ts", NULL), OKR_KIND(3, 10));
    char buf[3];
    assert_string_equal(okr_card_str(OKR_KIND(2, 10), buf), "TH");
}

static void test_card_bad(void **state)
{
    (void)state;
    static const char *const bad[] = {"",   " AS", "1",        "1H", "11H", "0H", "XH",
                                      "AX", "A",   "J",        "K",  "ZK",  "KJ", "=5H",
                                      "|",  "#",   "\xff\xfe", "10", "1 0H"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *end = bad[i] + 1;
        if (okr_card_parse(bad[i], &end) != -1)
            fail_msg("'%s' parsed as a card", bad[i]);
        assert_ptr_equal(end, bad[i]); /* nothing consumed */
    }
    assert_int_equal(okr_card_parse(NULL, NULL), -1);
    /* a card may be followed by anything: end says where it stopped */
    const char *s = "JKX", *end = NULL;
    assert_int_equal(okr_card_parse(s, &end), OKR_JOKER);
    assert_ptr_equal(end, s + 2);
    char buf[3];
    assert_string_equal(okr_card_str(-1, buf), "??");
    assert_string_equal(okr_card_str(53, buf), "??");
    assert_string_equal(okr_card_str(255, buf), "??");
}

static void test_cards_list(void **state)
{
    (void)state;
    uint8_t out[8];
    okr_refusal why;
    assert_int_equal(okr_cards_parse("AS 2c\t10H  jk\n", out, 8, &why), 4);
    assert_int_equal(out[0], K("AS"));
    assert_int_equal(out[1], K("2C"));
    assert_int_equal(out[2], K("TH"));
    assert_int_equal(out[3], OKR_JOKER);
    assert_int_equal(okr_cards_parse("", out, 8, &why), 0);
    assert_int_equal(okr_cards_parse("   ", out, 8, &why), 0);

    memset(&why, 0, sizeof why);
    assert_int_equal(okr_cards_parse("AS XX 2C", out, 8, &why), OKR_EINVAL);
    assert_non_null(strstr(why.reason, "unknown card 'XX'"));
    assert_int_equal(okr_cards_parse("AS 2C=5H", out, 8, &why), OKR_EINVAL);
    assert_non_null(strstr(why.reason, "'2C=5H'"));
    assert_int_equal(okr_cards_parse("AS ASX", out, 8, &why), OKR_EINVAL);
    assert_non_null(strstr(why.reason, "'ASX'"));
    assert_int_equal(okr_cards_parse("AS 2C 3C", out, 2, &why), OKR_EINVAL);
    assert_non_null(strstr(why.reason, "too many"));
    assert_int_equal(okr_cards_parse(NULL, out, 8, &why), OKR_EINVAL);
    /* a long bad token is cut short in the message, and control bytes are masked */
    assert_int_equal(okr_cards_parse("QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ\x01", out, 8, &why),
                     OKR_EINVAL);
    assert_true(strlen(why.reason) < sizeof why.reason);
    assert_non_null(strstr(why.reason, "..."));
    assert_null(strchr(why.reason, '\x01'));
}

/* ---- Actions: each form ----------------------------------------------------------------- */

static void test_action_simple(void **state)
{
    (void)state;
    okr_game g;
    table(&g, "laws", "6H");
    okr_action a = parse_ok(&g, "draw");
    assert_int_equal(a.type, OKR_A_DRAW);
    assert_int_equal(a.seat, 1); /* the seat that must act */
    round_trip(&g, &a, "draw");
    a = parse_ok(&g, "  DRAW   # from the stock");
    assert_int_equal(a.type, OKR_A_DRAW);
    a = parse_ok(&g, "Pass\r\n");
    assert_int_equal(a.type, OKR_A_PASS);
    round_trip(&g, &a, "pass");
    a = parse_ok(&g, "discard qs");
    assert_int_equal(a.type, OKR_A_DISCARD);
    assert_int_equal(a.card, K("QS"));
    round_trip(&g, &a, "discard QS");
    a = parse_ok(&g, "discard 10D#comment");
    assert_int_equal(a.card, K("TD"));
    round_trip(&g, &a, "discard TD");
}

static void test_action_take(void **state)
{
    (void)state;
    okr_game g;
    table(&g, "laws", "6H");
    /* gin-style plain take: the top card */
    okr_action a = parse_ok(&g, "take");
    assert_int_equal(a.type, OKR_A_TAKE);
    assert_int_equal(a.how, OKR_HOW_PLAIN);
    assert_int_equal(a.card, K("6H"));
    round_trip(&g, &a, "take");

    /* new meld holding the top card */
    a = parse_ok(&g, "take new 6H 6C 2D=6S");
    assert_int_equal(a.how, OKR_HOW_NEW);
    assert_int_equal(a.u.spec.type, OKR_SET);
    assert_int_equal(a.u.spec.n, 3);
    assert_int_equal(a.u.spec.card[2], K("2D"));
    assert_int_equal(a.u.spec.as[2], K("6S"));
    assert_int_equal(a.card, 0);
    round_trip(&g, &a, "take new 6H 6C 2D=6S");

    /* addition: card omitted = the top card; computed position */
    a = parse_ok(&g, "take add 1");
    assert_int_equal(a.how, OKR_HOW_ADD);
    assert_int_equal(a.meld, 1);
    assert_int_equal(a.card, K("6H"));
    assert_int_equal(a.as, K("6H"));
    assert_int_equal(a.pos, 5);
    round_trip(&g, &a, "take add 1 6H");
    okr_action b = parse_ok(&g, "take add 1 6H");
    assert_memory_equal(&a, &b, sizeof a);

    /* a wild top card must be declared */
    table(&g, "laws", "2C");
    parse_bad(&g, "take add 1", "wild");
    a = parse_ok(&g, "take add 1 2C=2H");
    assert_int_equal(a.card, K("2C"));
    assert_int_equal(a.as, K("2H"));
    assert_int_equal(a.pos, 1);
    round_trip(&g, &a, "take add 1 2C=2H");
    a = parse_ok(&g, "take add 2 2C=KC");
    assert_int_equal(a.pos, 255); /* a set */
    round_trip(&g, &a, "take add 2 2C=KC");

    /* an ace on top, onto 2H..KH: the end must be named */
    table(&g, "laws", "AH");
    parse_bad(&g, "take add 0", "both ends");
    a = parse_ok(&g, "take add 0 hi");
    assert_int_equal(a.card, K("AH"));
    assert_int_equal(a.pos, 13);
    round_trip(&g, &a, "take add 0 AH hi");
    a = parse_ok(&g, "take add 0 AH lo");
    assert_int_equal(a.pos, 0);

    /* the Joker exchange: the top card takes the Joker's place (RULES 4.3(b)) */
    table(&g, "laws", "8S");
    a = parse_ok(&g, "take joker 3");
    assert_int_equal(a.how, OKR_HOW_JOKER);
    assert_int_equal(a.meld, 3);
    assert_int_equal(a.card, K("8S"));
    assert_int_equal(a.as, OKR_JOKER);
    round_trip(&g, &a, "take joker 3");

    /* empty pile */
    g.pile_n = 0;
    a = parse_ok(&g, "take");
    assert_int_equal(a.card, OKR_NOCARD);
    parse_bad(&g, "take add 1", "pile is empty");
    parse_bad(&g, "take foo", "'foo'");
    parse_bad(&g, "take new", "expected the cards");
    parse_bad(&g, "take joker", "meld number");
}

static void test_action_claim(void **state)
{
    (void)state;
    okr_game g;
    table(&g, "german", "6H");
    okr_action a = parse_ok(&g, "claim new 4H 5H 6H");
    assert_int_equal(a.type, OKR_A_CLAIM);
    assert_int_equal(a.how, OKR_HOW_NEW);
    assert_int_equal(a.u.spec.type, OKR_RUN);
    assert_int_equal(a.u.spec.lo, 3);
    round_trip(&g, &a, "claim new 4H 5H 6H");
    a = parse_ok(&g, "CLAIM ADD 1");
    assert_int_equal(a.type, OKR_A_CLAIM);
    assert_int_equal(a.how, OKR_HOW_ADD);
    assert_int_equal(a.pos, 5);
    round_trip(&g, &a, "claim add 1 6H");
}

static void test_action_meld(void **state)
{
    (void)state;
    okr_game g;
    table(&g, "laws", "6H");
    okr_action a = parse_ok(&g, "meld QH KH AH"); /* a high-ace run */
    assert_int_equal(a.type, OKR_A_MELD);
    assert_int_equal(a.u.spec.type, OKR_RUN);
    assert_int_equal(a.u.spec.lo, 11);
    assert_int_equal(a.u.spec.n, 3);
    round_trip(&g, &a, "meld QH KH AH");

    a = parse_ok(&g, "meld AH 2C=2H 3H"); /* a low-ace run */
    assert_int_equal(a.u.spec.type, OKR_RUN);
    assert_int_equal(a.u.spec.lo, 0);
    assert_int_equal(a.u.spec.card[1], K("2C"));
    assert_int_equal(a.u.spec.as[1], K("2H"));
    round_trip(&g, &a, "meld AH 2C=2H 3H");

    a = parse_ok(&g, "meld KH KH 2C=KS"); /* a set, copies allowed */
    assert_int_equal(a.u.spec.type, OKR_SET);
    assert_int_equal(a.u.spec.lo, 0);
    round_trip(&g, &a, "meld KH KH 2C=KS");

    a = parse_ok(&g, "meld AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"); /* 14 cards */
    assert_int_equal(a.u.spec.n, 14);
    assert_int_equal(a.u.spec.lo, 0);
    round_trip(&g, &a, NULL);

    a = parse_ok(&g, "meld 5s JK=6S 7s");
    assert_int_equal(a.u.spec.card[1], OKR_JOKER);
    assert_int_equal(a.u.spec.as[1], K("6S"));
    round_trip(&g, &a, "meld 5S JK=6S 7S");

    a = parse_ok(&g, "meld 2C 2D 2H"); /* all twos: a set of twos */
    assert_int_equal(a.u.spec.type, OKR_SET);
    a = parse_ok(&g, "meld 4H 5H"); /* shape only: legality is okr_apply's business */
    assert_int_equal(a.u.spec.n, 2);
    assert_int_equal(a.u.spec.type, OKR_RUN);
    a = parse_ok(&g, "meld 9D");
    assert_int_equal(a.u.spec.type, OKR_SET);

    parse_bad(&g, "meld", "expected the cards");
    parse_bad(&g, "meld 4H 6H", "not a set or a run");
    parse_bad(&g, "meld 4H 5D 6H", "not a set or a run");
    parse_bad(&g, "meld 6H 5H 4H", "not a set or a run"); /* runs are listed ascending */
    parse_bad(&g, "meld KH AH 2H", "not a set or a run"); /* never round the corner */
    parse_bad(&g, "meld AH KH QH", "not a set or a run");
    /* the hints name the player's own wild card and a card that fits this meld */
    parse_bad(&g, "meld 4H 2C 6H", "say what the wild 2C stands for, e.g. 2C=5H");
    parse_bad(&g, "meld 9S 2D JS", "say what the wild 2D stands for, e.g. 2D=TS");
    parse_bad(&g, "meld 9S TS 2D QS", "e.g. 2D=JS");
    parse_bad(&g, "meld JK 5H 6H", "say what the Joker stands for: 'JK' (e.g. JK=7H)");
    parse_bad(&g, "meld 8C 8D jk", "'jk' (e.g. jk=8H)");
    parse_bad(&g, "meld QD KD JK", "(e.g. JK=AD)");
    parse_bad(&g, "meld 2C=JK 5H 6H", "cannot stand for a Joker");
    parse_bad(&g, "meld 4H 5H XH", "unknown card 'XH'");
    parse_bad(&g, "meld 4H 5H=", "'5H='");
    parse_bad(&g, "meld 4H 5H=6", "'5H=6'");
    parse_bad(&g, "meld 4H | 5H", "'|'");
    parse_bad(&g, "meld AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 2C=2H", "too many cards");
}

static void test_action_add(void **state)
{
    (void)state;
    okr_game g;
    table(&g, "laws", "6H");
    okr_action a = parse_ok(&g, "add 1 6H");
    assert_int_equal(a.type, OKR_A_ADD);
    assert_int_equal(a.meld, 1);
    assert_int_equal(a.card, K("6H"));
    assert_int_equal(a.as, K("6H"));
    assert_int_equal(a.pos, 5);
    round_trip(&g, &a, "add 1 6H");
    a = parse_ok(&g, "add 1 2h");
    assert_int_equal(a.pos, 1); /* a 2 standing for itself at the low end */
    round_trip(&g, &a, "add 1 2H");
    a = parse_ok(&g, "add 1 jk=6h");
    assert_int_equal(a.card, OKR_JOKER);
    assert_int_equal(a.pos, 5);
    round_trip(&g, &a, "add 1 JK=6H");
    a = parse_ok(&g, "add 2 KC");
    assert_int_equal(a.pos, 255);
    round_trip(&g, &a, "add 2 KC");

    /* an ace onto 2..K: both ends, so lo/hi is needed (RULES 3.3) */
    parse_bad(&g, "add 0 AH", "both ends");
    a = parse_ok(&g, "add 0 AH lo");
    assert_int_equal(a.pos, 0);
    round_trip(&g, &a, "add 0 AH lo");
    a = parse_ok(&g, "add 0 AH HI");
    assert_int_equal(a.pos, 13);
    round_trip(&g, &a, "add 0 AH hi");
    a = parse_ok(&g, "add 0 2C=AH hi");
    assert_int_equal(a.as, K("AH"));
    round_trip(&g, &a, "add 0 2C=AH hi");
    /* german: the ace is only high, so there is no choice */
    table(&g, "german", "6H");
    a = parse_ok(&g, "add 0 AH");
    assert_int_equal(a.pos, 13);
    round_trip(&g, &a, "add 0 AH hi");
    table(&g, "laws", "6H");

    /* an ace where only one end fits: written with lo/hi all the same */
    a = parse_ok(&g, "add 5 JC");
    assert_int_equal(a.pos, 10);
    a = parse_ok(&g, "add 4 4D");
    assert_int_equal(a.pos, 3);
    a = parse_ok(&g, "add 1 AH"); /* fits neither end: the engine refuses it */
    assert_int_equal(a.pos, 13);
    round_trip(&g, &a, "add 1 AH hi");
    a = parse_ok(&g, "add 1 9H");
    assert_int_equal(a.pos, 8);
    round_trip(&g, &a, "add 1 9H");

    /* a meld that does not exist: okr_apply refuses it (RULES 3.8) */
    a = parse_ok(&g, "add 63 5H");
    assert_int_equal(a.meld, 63);
    assert_int_equal(a.pos, 255);
    round_trip(&g, &a, "add 63 5H");
    a = parse_ok(&g, "add 255 5H");
    assert_int_equal(a.meld, 255);

    parse_bad(&g, "add", "meld number");
    parse_bad(&g, "add x 5H", "bad meld number 'x'");
    parse_bad(&g, "add -1 5H", "'-1'");
    parse_bad(&g, "add 256 5H", "'256'");
    parse_bad(&g, "add 0001 5H", "'0001'");
    parse_bad(&g, "add 1", "expected the card");
    parse_bad(&g, "add 1 JK", "Joker");
    parse_bad(&g, "add 2 KC lo", "only for an ace");
    parse_bad(&g, "add 2 AC lo", "is a set");
    parse_bad(&g, "add 1 6H lo", "only for an ace");
    parse_bad(&g, "add 1 6H 7H", "unexpected '7H'");
    parse_bad(&g, "add 1 6H lo hi", "only for an ace");
    parse_bad(&g, "add 0 AH lo hi", "unexpected 'hi'");
}

static void test_action_replace(void **state)
{
    (void)state;
    okr_game g;
    table(&g, "laws", "6H");
    okr_action a = parse_ok(&g, "replace 3");
    assert_int_equal(a.type, OKR_A_REPLACE);
    assert_int_equal(a.meld, 3);
    assert_int_equal(a.card, K("8S")); /* what the Joker stands for (RULES 5.2) */
    assert_int_equal(a.as, OKR_JOKER);
    round_trip(&g, &a, "replace 3");
    a = parse_ok(&g, "replace 1"); /* no Joker there: okr_apply refuses it */
    assert_int_equal(a.card, OKR_NOCARD);
    round_trip(&g, &a, "replace 1");
    parse_bad(&g, "replace", "meld number");
    parse_bad(&g, "replace 3 8S", "unexpected '8S'");
}

static void test_action_knock(void **state)
{
    (void)state;
    okr_game g;
    table(&g, "gin", "6H");
    okr_action a = parse_ok(&g, "knock 9S");
    assert_int_equal(a.type, OKR_A_KNOCK);
    assert_int_equal(a.card, K("9S"));
    assert_int_equal(a.nmelds, 0);
    round_trip(&g, &a, "knock 9S");
    a = parse_ok(&g, "knock 9S | 3H 4H 5H | 7C 7D 7S");
    assert_int_equal(a.nmelds, 2);
    assert_int_equal(a.u.knock[0].n, 3);
    assert_int_equal(a.u.knock[0].card[0], K("3H"));
    assert_int_equal(a.u.knock[1].card[2], K("7S"));
    round_trip(&g, &a, "knock 9S | 3H 4H 5H | 7C 7D 7S");
    a = parse_ok(&g, "knock 9S|AC 2C 3C|4D 4H 4S|5C 5D 5H|KC KD KH");
    assert_int_equal(a.nmelds, 4);
    round_trip(&g, &a, "knock 9S | AC 2C 3C | 4D 4H 4S | 5C 5D 5H | KC KD KH");

    parse_bad(&g, "knock", "expected the card");
    parse_bad(&g, "knock | 3H 4H 5H", "before '|'");
    parse_bad(&g, "knock 9S |", "empty meld");
    parse_bad(&g, "knock 9S | | 3H", "empty meld");
    parse_bad(&g, "knock 9S 3H 4H 5H", "expected '|'");
    parse_bad(&g, "knock 9S | 3H 4H 2C=5H", "no declaration");
    parse_bad(&g, "knock 9S=8S", "no declaration");
    parse_bad(&g, "knock 9S | AC | 2C | 3C | 4C | 5C", "too many melds");
    parse_bad(&g, "knock 9S | AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AD", "too many cards");
}

static void test_action_errors(void **state)
{
    (void)state;
    okr_game g;
    table(&g, "laws", "6H");
    parse_bad(&g, "", "empty");
    parse_bad(&g, "   \t ", "empty");
    parse_bad(&g, "# just a comment", "empty");
    parse_bad(&g, NULL, "empty");
    parse_bad(&g, "frobnicate", "unknown action 'frobnicate'");
    parse_bad(&g, "draw now", "unexpected 'now'");
    parse_bad(&g, "discard", "expected the card");
    parse_bad(&g, "discard 2C=5H", "no declaration");
    parse_bad(&g, "discard QS QS", "unexpected 'QS'");
    parse_bad(&g, "discard ZZ", "unknown card 'ZZ'");
    parse_bad(&g, "pass pass", "unexpected 'pass'");
    /* a refused line leaves a zeroed action, and never touches more than the struct */
    okr_action a;
    memset(&a, 0xAB, sizeof a);
    okr_refusal why;
    assert_int_equal(okr_action_parse(&g, "meld 4H XX", &a, &why), OKR_EINVAL);
    assert_int_equal(a.type, 0);
    assert_int_equal(a.u.spec.n, 0);
    assert_int_equal(okr_action_parse(&g, "draw", NULL, &why), OKR_EINVAL);
    assert_int_equal(okr_action_parse(&g, "draw", &a, NULL), OKR_OK); /* why may be NULL */
    assert_int_equal(okr_action_parse(&g, "drow", &a, NULL), OKR_EINVAL);
    /* no game: seat 0, nothing to look up */
    a = parse_ok(NULL, "discard 5H");
    assert_int_equal(a.seat, 0);
    a = parse_ok(NULL, "add 0 5H");
    assert_int_equal(a.pos, 255);
    parse_bad(NULL, "take add 0", "pile is empty");
}

static void test_format(void **state)
{
    (void)state;
    okr_action a;
    char buf[64];
    memset(&a, 0, sizeof a);
    a.type = OKR_A_DISCARD;
    a.card = (uint8_t)K("QS");
    assert_int_equal(okr_action_format(&a, buf, sizeof buf), 10);
    assert_string_equal(buf, "discard QS");
    assert_int_equal(okr_action_format(&a, buf, 11), 10);
    assert_int_equal(okr_action_format(&a, buf, 10), OKR_EOVERFLOW);
    assert_int_equal(strlen(buf), 9); /* truncated, still terminated */
    assert_int_equal(okr_action_format(&a, buf, 0), OKR_EOVERFLOW);

    a.type = 0;
    assert_int_equal(okr_action_format(&a, buf, sizeof buf), OKR_EINVAL);
    assert_string_equal(buf, "");
    a.type = 200;
    assert_int_equal(okr_action_format(&a, buf, sizeof buf), OKR_EINVAL);
    a.type = OKR_A_TAKE;
    a.how = 9;
    assert_int_equal(okr_action_format(&a, buf, sizeof buf), OKR_EINVAL);
    a.type = OKR_A_MELD;
    a.u.spec.n = 0;
    assert_int_equal(okr_action_format(&a, buf, sizeof buf), OKR_EINVAL);
    a.u.spec.n = OKR_SPEC_CARDS + 1;
    assert_int_equal(okr_action_format(&a, buf, sizeof buf), OKR_EINVAL);
    assert_int_equal(okr_action_format(NULL, buf, sizeof buf), OKR_EINVAL);

    /* random bytes never crash the formatter */
    rng_state = 7;
    char big[1024];
    for (int i = 0; i < 100000; i++) {
        uint8_t raw[sizeof(okr_action)];
        for (size_t j = 0; j < sizeof raw; j++)
            raw[j] = (uint8_t)rnd();
        memcpy(&a, raw, sizeof a);
        a.type = (uint8_t)(1 + rnd_below(10));
        if (rnd_below(2))
            a.u.spec.n = (uint8_t)rnd_below(16);
        if (rnd_below(2))
            a.nmelds = (uint8_t)rnd_below(6);
        size_t cap = (size_t)rnd_below(3) == 0 ? (size_t)rnd_below(40) : sizeof big;
        int n = okr_action_format(&a, big, cap);
        assert_true(n >= 0 || n == OKR_EINVAL || n == OKR_EOVERFLOW);
        if (n >= 0)
            assert_int_equal((size_t)n, strlen(big));
    }
}

/* ---- Round trips over every action the engine lists -------------------------------------- */

/* Do a and b differ only in u.spec.card[] / u.spec.as[] slots at or past u.spec.n? */
static int stale_tail(const okr_action *a, const okr_action *b)
{
    okr_action x = *a, y = *b;
    if (x.u.spec.n > OKR_SPEC_CARDS)
        return 0;
    for (int i = x.u.spec.n; i < OKR_SPEC_CARDS; i++) {
        x.u.spec.card[i] = x.u.spec.as[i] = 0;
        y.u.spec.card[i] = y.u.spec.as[i] = 0;
    }
    return memcmp(&x, &y, sizeof x) == 0;
}

static void legal_round_trips(const char *preset, int players, int games, uint64_t seed)
{
    okr_rules r;
    okr_refusal why;
    assert_int_equal(okr_rules_preset(&r, preset, &why), OKR_OK);
    /* static: a failing check longjmps out, and must not leak */
    static okr_action acts[OKR_MAX_ACTIONS];
    static okr_game game_store;
    okr_game *g = &game_store;
    long checked = 0;
    rng_state = seed;
    for (int game = 0; game < games; game++) {
        assert_int_equal(okr_game_init(g, &r, players, seed + (uint64_t)game, NULL, 0, &why),
                         OKR_OK);
        for (int step = 0; step < 200000 && g->phase != OKR_PH_GAME_OVER; step++) {
            if (g->phase == OKR_PH_HAND_OVER) {
                assert_int_equal(okr_next_hand(g, NULL, 0, &why), OKR_OK);
                continue;
            }
            int n = okr_legal(g, acts, OKR_MAX_ACTIONS);
            assert_true(n > 0);
            for (int i = 0; i < n; i++) {
                char buf[512];
                int len = okr_action_format(&acts[i], buf, sizeof buf);
                if (len < 0)
                    fail_msg("%s: cannot format legal action %d (type %d)", preset, i,
                             acts[i].type);
                okr_action b;
                memset(&why, 0, sizeof why);
                if (okr_action_parse(g, buf, &b, &why) != OKR_OK)
                    fail_msg("%s: '%s' (legal) does not parse: %s", preset, buf, why.reason);
                if (memcmp(&acts[i], &b, sizeof b) != 0)
                    fail_msg("%s: '%s' (legal) does not round-trip: %s", preset, buf,
                             stale_tail(&acts[i], &b)
                                 ? "okr_legal left stale bytes past u.spec.n (unused bytes "
                                   "of a listed action must be zero)"
                                 : "the parsed action differs");
                checked++;
            }
            int pick = rnd_below(n);
            assert_int_equal(okr_apply(g, &acts[pick], NULL, &why), OKR_OK);
        }
    }
    assert_true(checked > 0);
}

static int sanitized(void)
{
    const char *s = getenv("OKR_SANITIZE");
    return s && *s && strcmp(s, "0") != 0;
}

static void test_round_trip_laws(void **state)
{
    (void)state;
    legal_round_trips("laws", 3, sanitized() ? 3 : 12, 100);
    legal_round_trips("laws", 2, sanitized() ? 2 : 6, 200);
}

static void test_round_trip_parlett(void **state)
{
    (void)state;
    legal_round_trips("parlett", 4, sanitized() ? 2 : 8, 300);
}

static void test_round_trip_arlington(void **state)
{
    (void)state;
    legal_round_trips("arlington", 3, sanitized() ? 2 : 8, 400);
}

static void test_round_trip_german(void **state)
{
    (void)state;
    legal_round_trips("german", 4, sanitized() ? 2 : 8, 500);
}

static void test_round_trip_gin(void **state)
{
    (void)state;
    legal_round_trips("gin", 2, sanitized() ? 3 : 12, 600);
}

/* ---- Fuzzing ------------------------------------------------------------------------------ */

static const char *const vocabulary[] = {
    "draw",  "pass", "take", "new", "add",   "joker", "meld",  "replace", "discard", "claim",
    "knock", "lo",   "hi",   "|",   "#",     "next",  "0",     "1",       "3",       "5",
    "63",    "255",  "256",  "-1",  "AH",    "2C",    "2C=5H", "JK",      "JK=8S",   "10H",
    "TH",    "QS",   "KS",   "KH",  "6H",    "7H",    "8H",    "9H",      "4H",      "5H",
    "3H",    "2H",   "AC",   "=",   "2C=JK", "10",    "X",     "DRAW",    "Take",    "ADD"};

/* The fuzz property: never crash; OKR_OK or OKR_EINVAL with a terminated reason; whatever
 * parses formats and parses back to the same action. */
static void fuzz_one(const okr_game *g, const char *s)
{
    okr_action a;
    okr_refusal why;
    memset(&why, 0x5A, sizeof why);
    int rc = okr_action_parse(g, s, &a, &why);
    if (rc == OKR_EINVAL) {
        assert_non_null(memchr(why.reason, '\0', sizeof why.reason));
        assert_non_null(memchr(why.rule, '\0', sizeof why.rule));
        assert_true(why.reason[0] != '\0');
        return;
    }
    assert_int_equal(rc, OKR_OK);
    char buf[512];
    int n = okr_action_format(&a, buf, sizeof buf);
    if (n < 0)
        fail_msg("'%s' parsed but does not format", s);
    okr_action b;
    if (okr_action_parse(g, buf, &b, &why) != OKR_OK)
        fail_msg("'%s' -> '%s' does not parse: %s", s, buf, why.reason);
    if (memcmp(&a, &b, sizeof a) != 0)
        fail_msg("'%s' -> '%s' does not round-trip", s, buf);
}

static void test_fuzz(void **state)
{
    (void)state;
    okr_game tables[3];
    table(&tables[0], "laws", "6H");
    table(&tables[1], "german", "2C");
    table(&tables[2], "gin", "8S");
    tables[2].pile_n = 0;
    rng_state = 42;
    long parsed = 0;
    char s[128];
    for (int i = 0; i < 200000; i++) {
        const okr_game *g = rnd_below(8) == 0 ? NULL : &tables[rnd_below(3)];
        if (i % 2 == 0) { /* random bytes, NUL-terminated */
            int len = rnd_below(40);
            for (int j = 0; j < len; j++) {
                int c =
                    rnd_below(4) == 0 ? rnd_below(256) : " 0123456789AJQKTCDHS=|#\n"[rnd_below(24)];
                s[j] = (char)(c == 0 ? ' ' : c);
            }
            s[len] = '\0';
        } else { /* a soup of tokens, mostly from the notation's own words */
            size_t len = 0;
            int ntok = 1 + rnd_below(8);
            for (int t = 0; t < ntok; t++) {
                const char *w =
                    vocabulary[rnd_below((int)(sizeof vocabulary / sizeof vocabulary[0]))];
                char card[4];
                if (rnd_below(3) == 0) {
                    okr_card_str(rnd_below(OKR_KINDS), card);
                    w = card;
                }
                size_t wl = strlen(w);
                if (len + wl + 2 >= sizeof s)
                    break;
                memcpy(s + len, w, wl);
                len += wl;
                s[len++] = rnd_below(10) == 0 ? '=' : ' ';
            }
            s[len] = '\0';
        }
        okr_action a;
        okr_refusal why;
        if (okr_action_parse(g, s, &a, &why) == OKR_OK)
            parsed++;
        fuzz_one(g, s);
    }
    assert_true(parsed > 1000); /* the soup does reach the parser's good paths */

    /* okr_cards_parse never crashes either */
    for (int i = 0; i < 20000; i++) {
        int len = rnd_below(60);
        for (int j = 0; j < len; j++) {
            int c = rnd_below(256);
            s[j] = (char)(c == 0 ? ' ' : c);
        }
        s[len] = '\0';
        uint8_t out[OKR_MAX_CARDS];
        okr_refusal why;
        int n = okr_cards_parse(s, out, rnd_below(4) == 0 ? 2 : OKR_MAX_CARDS, &why);
        assert_true(n >= 0 || n == OKR_EINVAL);
    }
}

/* A very long line: no fixed-size buffer anywhere in the parser. */
static void test_long_input(void **state)
{
    (void)state;
    okr_game g;
    table(&g, "laws", "6H");
    enum { n = 1 << 20 };
    static char s[n + 1];
    memset(s, ' ', n);
    memcpy(s + n - 5, "draw", 4);
    s[n] = '\0';
    okr_action a = parse_ok(&g, s);
    assert_int_equal(a.type, OKR_A_DRAW);
    memset(s, 'Q', n);
    s[n] = '\0';
    parse_bad(&g, s, "unknown action 'QQQQ");
    memcpy(s, "meld ", 5);
    for (size_t i = 5; i + 3 < n; i += 3)
        memcpy(s + i, "4H ", 3);
    parse_bad(&g, s, "too many cards");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_card_all_kinds),
        cmocka_unit_test(test_card_ten),
        cmocka_unit_test(test_card_bad),
        cmocka_unit_test(test_cards_list),
        cmocka_unit_test(test_action_simple),
        cmocka_unit_test(test_action_take),
        cmocka_unit_test(test_action_claim),
        cmocka_unit_test(test_action_meld),
        cmocka_unit_test(test_action_add),
        cmocka_unit_test(test_action_replace),
        cmocka_unit_test(test_action_knock),
        cmocka_unit_test(test_action_errors),
        cmocka_unit_test(test_format),
        cmocka_unit_test(test_round_trip_laws),
        cmocka_unit_test(test_round_trip_parlett),
        cmocka_unit_test(test_round_trip_arlington),
        cmocka_unit_test(test_round_trip_german),
        cmocka_unit_test(test_round_trip_gin),
        cmocka_unit_test(test_fuzz),
        cmocka_unit_test(test_long_input),
    };
    return cmocka_run_group_tests_name("notation", tests, NULL, NULL);
}
