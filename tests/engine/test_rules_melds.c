/* test_rules_melds.c - RULES 3 (melds: sets, runs, wild declarations, naturals, ownership,
 * finality), rule by rule, for every rummy preset where the rule differs. */
#include "testkit.h"

static okr_game g;

/* Two players; seat 0 holds `hand` (13 cards, or fewer and filler), the upcard is `up`, the
 * stock starts with `stock`. Seat 0 has drawn and is to play (upcard round passed). */
static void start_play(const okr_rules *r, const char *hand, const char *up, const char *stock)
{
    const char *h[2] = {hand, NULL};
    tk_start(&g, r, 2, h, up, stock);
    tk_pass_and_draw(&g);
    assert_int_equal(g.to_act, 0);
}

static okr_action meld_spec(int type, int lo, const char *cards, const char *as)
{
    okr_action a;
    memset(&a, 0, sizeof a);
    a.type = OKR_A_MELD;
    a.seat = 0;
    a.u.spec.type = (uint8_t)type;
    a.u.spec.lo = (uint8_t)lo;
    a.u.spec.n = (uint8_t)tk_cards(cards, a.u.spec.card, OKR_SPEC_CARDS);
    assert_int_equal(tk_cards(as, a.u.spec.as, OKR_SPEC_CARDS), a.u.spec.n);
    return a;
}

/* RULES 3.1: a meld is a set or a run, laid face up in front of its owner; anything else,
 * or fewer than three cards, is refused under 3.1. */
static void test_3_1_meld_is_set_or_run_owned_and_visible(void **state)
{
    (void)state;
    okr_rules r = tk_rules("laws", NULL);
    start_play(&r, "5H 6H 7H KC KD KS 9C 9D 3S 4D 8C TD JC", "4C", "AS");
    okr_action bad = meld_spec(OKR_SET, 0, "9C 9D", "9C 9D");
    tk_refuse_act(&g, &bad, "3.1");
    bad = meld_spec(3, 0, "9C 9D JC", "9C 9D JC");
    tk_refuse_act(&g, &bad, "3.1");
    tk_do(&g, "meld 5H 6H 7H");
    tk_do(&g, "meld KC KD KS");
    assert_int_equal(g.meld_n, 2);
    assert_int_equal(g.meld[0].type, OKR_RUN);
    assert_int_equal(g.meld[0].suit, 2);
    assert_int_equal(g.meld[0].lo, 4); /* ladder position of the 5 */
    assert_int_equal(g.meld[1].type, OKR_SET);
    assert_int_equal(g.meld[1].rank, 13);
    tk_assert_meld(&g, 0, 0, "5H 6H 7H");
    tk_assert_meld(&g, 1, 0, "KC KD KS");
    /* face up: the other seat sees both melds (8.3) */
    okr_view v;
    okr_view_of(&g, 1, &v);
    assert_int_equal(v.meld_n, 2);
    assert_memory_equal(&v.meld[0], &g.meld[0], sizeof(okr_meld));
    assert_memory_equal(&v.meld[1], &g.meld[1], sizeof(okr_meld));
    assert_int_equal(v.hand_n[0], 14 - 6);
}

/* RULES 3.2: set of one rank; copies allowed; a four-card set is closed in laws, parlett and
 * arlington (set too large / closed four refused under 3.2); two sets of one rank allowed. */
static void test_3_2_set_closed_at_four_laws_parlett_arlington(void **state)
{
    (void)state;
    const char *names[3] = {"laws", "parlett", "arlington"};
    for (int p = 0; p < 3; p++) {
        okr_rules r = tk_rules(names[p], NULL);
        start_play(&r, "KC KD KS KH 2C 9C 9D 9S 5H 6H 7H 8H 3S", "4C", "KC");
        tk_refuse(&g, "meld KC KC KD KS KH", "3.2"); /* set too large */
        okr_action mixed = meld_spec(OKR_SET, 0, "KC KD 9C", "KC KD 9C");
        tk_refuse_act(&g, &mixed, "3.2"); /* not one rank */
        tk_do(&g, "meld KC KC KD");       /* two copies of KC */
        tk_do(&g, "add 0 KS");
        assert_int_equal(g.meld[0].n, 4); /* closed */
        tk_refuse(&g, "add 0 KH", "3.2");
        tk_refuse(&g, "add 0 2C=KH", "3.2");
        okr_action a = tk_parse(&g, "add 0 KH");
        assert_false(tk_legal_has(&g, &a));
        for (int i = 0, n = tk_legal(&g); i < n; i++)
            assert_false(tk_acts[i].type == OKR_A_ADD && tk_acts[i].meld == 0);
    }
}

/* RULES 3.2: a player may own two separate sets of the same rank. */
static void test_3_2_two_sets_of_one_rank(void **state)
{
    (void)state;
    okr_rules r = tk_rules("laws", NULL);
    start_play(&r, "KC KC KD KS KS KH 9C 9D 3S 4D 8C TD JC", "4C", "AS");
    tk_do(&g, "meld KC KD KS");
    tk_do(&g, "meld KC KH KS");
    assert_int_equal(g.meld_n, 2);
    assert_int_equal(g.meld[0].rank, 13);
    assert_int_equal(g.meld[1].rank, 13);
    assert_int_equal(g.meld[1].owner, 0);
}

/* RULES 3.2 Decision: german sets have no size limit. */
static void test_3_2_german_sets_unlimited(void **state)
{
    (void)state;
    okr_rules r = tk_rules("german", NULL);
    start_play(&r, "KC KC KD KD KH KH KS KS 2C 2D 3S 4S 6D", "9C", "TC");
    tk_refuse(&g, "meld KC KD KH KS", OKR_RULE_THREE_CARDS); /* three cards, then add */
    tk_script(&g, "meld KC KD KH; add 0 KC; add 0 KD; add 0 KH; add 0 KS; add 0 KS");
    tk_script(&g, "add 0 2C=KS; add 0 2D=KS");
    assert_int_equal(g.meld[0].n, 10);
    assert_int_equal(g.meld[0].rank, 13);
    tk_assert_hand(&g, 0, "3S 4S 6D TC");
}

/* RULES 3.3 laws/parlett: the ace low or high, any unbroken stretch of A..K..A (up to 14
 * cards), never round the corner. */
static void test_3_3_laws_parlett_ace_low_or_high_never_round_the_corner(void **state)
{
    (void)state;
    const char *names[2] = {"laws", "parlett"};
    for (int p = 0; p < 2; p++) {
        okr_rules r = tk_rules(names[p], NULL);
        start_play(&r, "AH 2H 3H QD KD AD 4C 5C 2S 8S 9S TS 3D", "JC", "6D");
        tk_do(&g, "meld AH 2H 3H"); /* low ace; the 2 of hearts stands for itself */
        assert_int_equal(g.meld[0].lo, 0);
        tk_do(&g, "meld QD KD AD"); /* high ace */
        assert_int_equal(g.meld[1].lo, 11);
        /* K-A-2 round the corner: refused as a new meld and as an addition */
        okr_action k = meld_spec(OKR_RUN, 12, "KD AD 2S", "KD AD 2D");
        tk_refuse_act(&g, &k, "3.3");
        okr_action add;
        memset(&add, 0, sizeof add);
        add.type = OKR_A_ADD;
        add.meld = 1;
        add.card = (uint8_t)tk_kind("2S");
        add.as = (uint8_t)tk_kind("2D");
        add.pos = 14; /* above the high ace */
        tk_refuse_act(&g, &add, "3.3");
        add.meld = 0;
        add.as = (uint8_t)tk_kind("KH");
        add.pos = 255; /* below the low ace: position -1 does not exist */
        tk_refuse_act(&g, &add, "3.3");
        tk_refuse(&g, "meld 8S 9S TS JS", OKR_RULE_THREE_CARDS);
    }
}

/* RULES 3.3 laws: the longest run is the 14-card A..K..A; nothing joins it. */
static void test_3_3_laws_fourteen_card_run(void **state)
{
    (void)state;
    okr_rules r = tk_rules("laws", "hand_size=20", NULL);
    start_play(&r, "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 5C 5D 9S 9C 2S 3S", "4C", "6C");
    tk_do(&g, "meld AH 2H 3H");
    const char *adds[11] = {"4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"};
    for (int i = 0; i < 11; i++) {
        char line[32];
        snprintf(line, sizeof line, "add 0 %s", adds[i]);
        tk_do(&g, line);
    }
    assert_int_equal(g.meld[0].n, 14);
    assert_int_equal(g.meld[0].lo, 0);
    assert_int_equal(g.meld[0].card[13], tk_kind("AH"));
    for (int i = 0, n = tk_legal(&g); i < n; i++)
        assert_false(tk_acts[i].type == OKR_A_ADD && tk_acts[i].meld == 0);
    okr_action add;
    memset(&add, 0, sizeof add);
    add.type = OKR_A_ADD;
    add.card = (uint8_t)tk_kind("2S");
    add.as = (uint8_t)tk_kind("2H");
    add.pos = 14;
    tk_refuse_act(&g, &add, "3.3");
}

/* RULES 3.3/3.4 arlington: ace low or high, at most four cards, so never both. */
static void test_3_3_arlington_ace_low_or_high_at_most_four(void **state)
{
    (void)state;
    okr_rules r = tk_rules("arlington", NULL);
    start_play(&r, "AH 2H 3H 4H 5H JD QD KD AD 9C 9S 3S 8C", "TC", "6D");
    tk_do(&g, "meld AH 2H 3H");
    tk_do(&g, "add 0 4H");
    tk_refuse(&g, "add 0 5H", "3.4"); /* a fifth card */
    tk_do(&g, "meld JD QD KD");
    tk_do(&g, "add 1 AD");
    assert_int_equal(g.meld[1].lo, 10);
    assert_int_equal(g.meld[1].n, 4);
}

/* RULES 3.3 german: the ace is only high; A-2-3 is refused, Q-K-A is a run. */
static void test_3_3_german_ace_only_high(void **state)
{
    (void)state;
    okr_rules r = tk_rules("german", NULL);
    start_play(&r, "AH 2H 3H 4H QD KD AD 9C 9S 3S 8C 6S 7S", "TC", "6D");
    tk_refuse(&g, "meld AH 2H 3H", "3.3");
    for (int i = 0, n = tk_legal(&g); i < n; i++)
        if (tk_acts[i].type == OKR_A_MELD && tk_acts[i].u.spec.type == OKR_RUN)
            assert_true(tk_acts[i].u.spec.lo >= 1); /* no low ace anywhere */
    tk_do(&g, "meld 2H 3H 4H");
    tk_refuse(&g, "add 0 AH", "3.3"); /* the ace does not go below the 2 */
    tk_do(&g, "meld QD KD AD");
    assert_int_equal(g.meld[1].lo, 11);
}

/* RULES 3.4 arlington: four cards at most for any meld; a five-card new meld is refused,
 * even the long pile meld with a wild top card. */
static void test_3_4_arlington_five_card_meld_refused(void **state)
{
    (void)state;
    okr_rules r = tk_rules("arlington", NULL);
    const char *h[2] = {"2D 2S 2H 9H 5C 6C 7C 8C 9C 3S 4S 5S 6S", NULL};
    tk_start(&g, &r, 2, h, "2C", "KD");
    /* 6.2: the first player may take the pile at once; 2C=5H 2D=6H 2S=7H 2H=8H 9H is five */
    okr_action t = tk_parse(&g, "take new 2C=5H 2D=6H 2H=7H 2S=8H 9H");
    tk_refuse_act(&g, &t, "3.4");
    tk_do(&g, "draw");
    tk_refuse(&g, "meld 5C 6C 7C 8C 9C", "3.4");
    tk_do(&g, "meld 5C 6C 7C");
    tk_do(&g, "add 0 8C");
    tk_refuse(&g, "add 0 9C", "3.4");
    tk_do(&g, "meld 3S 4S 5S");
    tk_do(&g, "add 1 2D=2S");
    tk_refuse(&g, "add 1 6S", "3.4");
}

/* RULES 3.5: every wild card carries a declared card; naturals carry none; a wild card
 * cannot stand for a Joker; in a set the declared suit is free; a declaration never changes. */
static void test_3_5_declarations(void **state)
{
    (void)state;
    okr_rules r = tk_rules("laws", NULL);
    start_play(&r, "5H 7C 7H 2C 2D KC KD 8H 4H JK 9S 9D 3S", "TC", "6D");
    tk_refuse(&g, "meld 5H 7C=6H 7H", "3.5"); /* a natural cannot be declared */
    okr_action a = meld_spec(OKR_RUN, 4, "5H 2C 7H", "5H JK 7H");
    tk_refuse_act(&g, &a, "3.5"); /* a 2 standing for a Joker */
    a = meld_spec(OKR_RUN, 4, "5H 2C 7H", "5H 6C 7H");
    tk_refuse_act(&g, &a, "3.3"); /* a run's declarations are of its suit */
    tk_do(&g, "meld 5H 2C=6H 7H");
    tk_do(&g, "meld KC KD 2D=KS"); /* any suit may be declared in a set */
    assert_int_equal(OKR_RANK(g.meld[1].as[2]), 13);
    tk_do(&g, "add 0 8H");
    tk_do(&g, "add 0 4H");
    tk_do(&g, "meld 9S 9D JK=9H"); /* the Joker's declared suit is kept exactly */
    tk_assert_meld(&g, 2, 0, "9D 9S JK=9H");
    tk_assert_meld(&g, 0, 0, "4H 5H 2C=6H 7H 8H"); /* the 2 still stands for 6H */
    /* nothing can re-declare it: no listed action touches the 2C */
    for (int i = 0, n = tk_legal(&g); i < n; i++)
        assert_int_not_equal(tk_acts[i].type, OKR_A_REPLACE);
    tk_do(&g, "discard 3S");
    tk_assert_meld(&g, 0, 0, "4H 5H 2C=6H 7H 8H");
}

/* RULES 3.6 Decision: a meld needs a natural card (a 2 declared as a two is still wild),
 * except arlington's all-twos set; laws refuses a set of twos. */
static void test_3_6_natural_required_except_arlington_all_twos(void **state)
{
    (void)state;
    okr_rules r = tk_rules("laws", NULL);
    start_play(&r, "2C 2D 2H 2S JK 3H 4H 9C 9D 8S TS JD QC", "5C", "6D");
    tk_refuse(&g, "meld 2C=5H 2D=6H JK=7H", "3.6");
    tk_refuse(&g, "meld 2H 2C=3H 2D=4H", "3.6"); /* 2H as itself: still wild */
    tk_refuse(&g, "meld 2C 2D 2H", "3.6");       /* a set of twos */
    for (int i = 0, n = tk_legal(&g); i < n; i++)
        if (tk_acts[i].type == OKR_A_MELD) {
            int nat = 0;
            for (int j = 0; j < tk_acts[i].u.spec.n; j++) {
                int c = tk_acts[i].u.spec.card[j];
                nat += c != OKR_JOKER && OKR_RANK(c) != 2;
            }
            assert_true(nat >= 1);
        }
    tk_do(&g, "meld 2H 3H 4H"); /* with naturals, a 2 for a two is fine */

    r = tk_rules("arlington", NULL);
    start_play(&r, "2C 2D 2H 2S 3H 4H 9C 9D 8S TS JD QC 5S", "5C", "6D");
    tk_refuse(&g, "meld 2C=5H 2D=6H 2S=7H", "3.6"); /* a run of only twos */
    tk_refuse(&g, "meld 2C=9C 2D=9D 2H=9H", "3.6"); /* twos standing for nines */
    tk_do(&g, "meld 2C 2D 2H");                     /* all twos, each a two */
    assert_int_equal(g.meld[0].type, OKR_SET);
    assert_int_equal(g.meld[0].rank, 2);
    tk_do(&g, "add 0 2S");
    assert_int_equal(g.meld[0].n, 4);
}

/* RULES 3.7 arlington: a 2 may not stand for the Q of spades (laws allows it). */
static void test_3_7_arlington_deuce_not_queen_of_spades(void **state)
{
    (void)state;
    okr_rules r = tk_rules("arlington", NULL);
    start_play(&r, "QH QD 2C 2D JS KS 9C 9D 8S TS JD 3C 4C", "5C", "6D");
    tk_refuse(&g, "meld QH QD 2C=QS", "3.7");
    tk_refuse(&g, "meld JS 2C=QS KS", "3.7");
    for (int i = 0, n = tk_legal(&g); i < n; i++)
        if (tk_acts[i].type == OKR_A_MELD)
            for (int j = 0; j < tk_acts[i].u.spec.n; j++)
                assert_false(tk_acts[i].u.spec.card[j] != OKR_JOKER &&
                             tk_acts[i].u.spec.as[j] == TK_QS &&
                             tk_acts[i].u.spec.card[j] != TK_QS);
    tk_do(&g, "meld QH QD 2C=QH"); /* any other queen is fine */
    tk_refuse(&g, "add 0 2D=QS", "3.7");
    tk_do(&g, "add 0 2D=QD");

    r = tk_rules("laws", NULL);
    start_play(&r, "QH QD 2C JS KS 9C 9D 8S TS JD 3C 4C 5S", "5C", "6D");
    tk_do(&g, "meld JS 2C=QS KS");
    tk_assert_meld(&g, 0, 0, "JS 2C=QS KS");
}

/* RULES 3.8: cards are added only to one's own melds, by an addition or a pile take. */
static void test_3_8_no_adding_to_opponents_meld(void **state)
{
    (void)state;
    okr_rules r = tk_rules("laws", NULL);
    const char *h[2] = {"5H 6H 7H 8H 8H KC 9D 3S 4D 8C TD JC 9C",
                        "4H 9H KD QD 3C 4C 6S 7S 9S TC JD AS 5S"};
    tk_start(&g, &r, 2, h, "2S", "AD AC");
    tk_script(&g, "pass; pass; draw; meld 5H 6H 7H; discard 8H");
    assert_int_equal(g.to_act, 1);
    tk_refuse(&g, "take add 0", "3.8"); /* the top 8H onto seat 0's run */
    for (int i = 0, n = tk_legal(&g); i < n; i++)
        assert_false(tk_acts[i].type == OKR_A_TAKE && tk_acts[i].how == OKR_HOW_ADD);
    tk_do(&g, "draw");
    tk_refuse(&g, "add 0 4H", "3.8");
    for (int i = 0, n = tk_legal(&g); i < n; i++)
        assert_int_not_equal(tk_acts[i].type, OKR_A_ADD);
    /* the owner may */
    tk_do(&g, "discard AS");
    tk_do(&g, "draw");
    assert_int_equal(g.to_act, 0);
    tk_do(&g, "add 0 8H");
    assert_int_equal(g.meld[0].n, 4);
}

/* RULES 3.9: every meld and addition is final at once; new melds are laid with three cards
 * (a longer new meld is refused citing the engine's decision (a), docs/rules.md, not 3.9),
 * except the pile meld whose top card is wild. */
static void test_3_9_melds_final_three_card_new_melds(void **state)
{
    (void)state;
    okr_rules r = tk_rules("laws", NULL);
    const char *h[2] = {"2D 2S 8H 5C 6C 7C 8C KS KD KH 3D 4S 9D", NULL};
    tk_start(&g, &r, 2, h, "2C", "TD");
    /* upcard round: the wild upcard may head a longer meld: wild top, wilds, a natural */
    tk_refuse(&g, "take new 2C=5H 2D=6H 2S=7H 8H 9H", OKR_RULE_THREE_CARDS); /* 2 naturals */
    tk_do(&g, "take new 2C=5H 2D=6H 2S=7H 8H");
    assert_int_equal(g.meld[0].n, 4);
    assert_int_equal(g.meld[0].lo, 4);
    tk_refuse(&g, "meld 5C 6C 7C 8C", OKR_RULE_THREE_CARDS);
    okr_action mixed = meld_spec(OKR_SET, 0, "KS KD KH 3D", "KS KD KH 3D");
    tk_refuse_act(&g, &mixed, "3.2");
    /* finality: no legal action takes a card off the table or changes a declaration */
    tk_do(&g, "meld 5C 6C 7C");
    okr_meld before[2] = {g.meld[0], g.meld[1]};
    int n = tk_legal(&g);
    static okr_action list[OKR_MAX_ACTIONS];
    memcpy(list, tk_acts, sizeof(okr_action) * (size_t)n);
    for (int i = 0; i < n; i++) {
        okr_game copy = g;
        tk_act(&copy, &list[i]);
        for (int m = 0; m < 2; m++) {
            const okr_meld *o = &before[m], *x = &copy.meld[m];
            int off = o->type == OKR_RUN ? o->lo - x->lo : 0;
            assert_true(x->n >= o->n);
            assert_true(off >= 0);
            assert_memory_equal(x->as + off, o->as, o->n);
            assert_memory_equal(x->card + off, o->card, o->n); /* no Joker here */
        }
    }
    tk_do(&g, "discard 9D");
    assert_int_equal(g.meld_n, 2);
    assert_memory_equal(&g.meld[0], &before[0], sizeof(okr_meld));
}

/* RULES 3.9 (design): the long pile meld is wild top at one end, a natural at the other and
 * only wilds between, whichever 2 is on top. okr_action_normalize puts the 2s of a run in
 * kind order, which may move the 2 of spades from the top of the pile away from the end;
 * 2s are interchangeable, so the meld must still be accepted and listed. */
static void test_3_9_long_pile_meld_with_any_wild_top(void **state)
{
    (void)state;
    okr_rules r = tk_rules("laws", NULL);
    const char *h[2] = {"2C 2D 8H 5C 6C 7C KS KD KH 3D 4S 9D TS", NULL};
    tk_start(&g, &r, 2, h, "2S", "TD");
    tk_do(&g, "take new 2S=5H 2C=6H 2D=7H 8H");
    assert_int_equal(g.meld[0].n, 4);
    assert_int_equal(g.meld[0].lo, 4);
    assert_int_equal(g.pile_n, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_3_1_meld_is_set_or_run_owned_and_visible),
        cmocka_unit_test(test_3_2_set_closed_at_four_laws_parlett_arlington),
        cmocka_unit_test(test_3_2_two_sets_of_one_rank),
        cmocka_unit_test(test_3_2_german_sets_unlimited),
        cmocka_unit_test(test_3_3_laws_parlett_ace_low_or_high_never_round_the_corner),
        cmocka_unit_test(test_3_3_laws_fourteen_card_run),
        cmocka_unit_test(test_3_3_arlington_ace_low_or_high_at_most_four),
        cmocka_unit_test(test_3_3_german_ace_only_high),
        cmocka_unit_test(test_3_4_arlington_five_card_meld_refused),
        cmocka_unit_test(test_3_5_declarations),
        cmocka_unit_test(test_3_6_natural_required_except_arlington_all_twos),
        cmocka_unit_test(test_3_7_arlington_deuce_not_queen_of_spades),
        cmocka_unit_test(test_3_8_no_adding_to_opponents_meld),
        cmocka_unit_test(test_3_9_melds_final_three_card_new_melds),
        cmocka_unit_test(test_3_9_long_pile_meld_with_any_wild_top),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
