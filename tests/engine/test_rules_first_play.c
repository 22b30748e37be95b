/* test_rules_first_play.c - RULES 6 (the laws/parlett upcard round, arlington's plain first
 * turn, what a first turn is, and german claims), rule by rule. */
#include "testkit.h"

static okr_game g;

/* RULES 6.1 laws/parlett: starting left of the dealer each player may take the upcard, only to
 * meld it at once (4.3 (c)); the taker melds, may meld more, discards, and play goes on from
 * his left; those who passed before him get their turns in the normal rotation. */
static void test_6_1_upcard_round_take_by_second_player(void **state)
{
    (void)state;
    const char *names[2] = {"laws", "parlett"};
    for (int p = 0; p < 2; p++) {
        okr_rules r = tk_rules(names[p], NULL);
        const char *h[3] = {"9C 9D 8H TH 3S 4S 5S KC KD 6C 7C JD QD",
                            "7H 8H KS KH KC 3D 4D 6D AS 5C 4C JS TS",
                            "AH AD 3C 5D 6S 7S 8S 9S JC QC QH JH TC"};
        tk_start(&g, &r, 3, h, "9H", "AC 4H QS");
        assert_int_equal(g.phase, OKR_PH_UPCARD);
        assert_int_equal(g.to_act, 0);
        /* only TAKE (new meld) and PASS are listed; seat 0 could take with 8H/TH or 9C 9D */
        int n = tk_legal(&g);
        assert_true(n >= 2);
        for (int i = 0; i < n; i++) {
            assert_true(tk_acts[i].type == OKR_A_TAKE || tk_acts[i].type == OKR_A_PASS);
            if (tk_acts[i].type == OKR_A_TAKE)
                assert_int_equal(tk_acts[i].how, OKR_HOW_NEW);
        }
        assert_true(tk_legal_has_text(&g, "take new 8H 9H TH"));
        tk_refuse(&g, "draw", "6.1");
        tk_refuse(&g, "discard 9C", "6.1");
        okr_action add;
        memset(&add, 0, sizeof add);
        add.type = OKR_A_TAKE;
        add.how = OKR_HOW_ADD;
        add.card = (uint8_t)tk_kind("9H");
        add.as = add.card;
        tk_refuse_act(&g, &add, "6.1");
        tk_do(&g, "pass");
        assert_int_equal(g.to_act, 1);
        assert_int_equal(g.phase, OKR_PH_UPCARD);
        tk_do(&g, "take new 7H 8H 9H"); /* seat 1 takes the upcard */
        assert_int_equal(g.phase, OKR_PH_PLAY);
        assert_int_equal(g.turn_seat, 1);
        assert_int_equal(g.pile_n, 0);
        tk_do(&g, "meld KS KH KC"); /* further melds */
        tk_do(&g, "discard AS");
        /* play goes on from seat 1's left: seat 2, then seat 0 in the normal rotation */
        assert_int_equal(g.to_act, 2);
        assert_int_equal(g.phase, OKR_PH_DRAW);
        assert_true(tk_legal_has_text(&g, "take new AH AD AS")); /* the pile may be taken now */
        tk_do(&g, "draw");
        tk_do(&g, "discard AH");
        assert_int_equal(g.to_act, 0);
        assert_int_equal(g.phase, OKR_PH_DRAW);
        assert_int_equal(g.drew[0], 0); /* declining the upcard was no turn */
        okr_event ev = tk_do(&g, "draw");
        assert_int_equal(ev.card, tk_kind("4H"));
    }
}

/* RULES 6.1: if nobody takes the upcard, the player left of the dealer draws from the stock
 * (he may not take the upcard now) and play goes on normally. */
static void test_6_1_all_pass_forced_stock_draw(void **state)
{
    (void)state;
    const char *names[2] = {"laws", "parlett"};
    for (int p = 0; p < 2; p++) {
        okr_rules r = tk_rules(names[p], NULL);
        const char *h[3] = {"9C 9D 8H TH 3S 4S 5S KC KD 6C 7C JD QD", NULL, NULL};
        tk_start(&g, &r, 3, h, "9H", "AC 4H QS");
        tk_script(&g, "pass; pass");
        assert_int_equal(g.to_act, 2);
        tk_do(&g, "pass");
        assert_int_equal(g.phase, OKR_PH_DRAW);
        assert_int_equal(g.to_act, 0);
        assert_int_equal(g.turn_seat, 0);
        tk_refuse(&g, "take new 9C 9D 9H", "6.1");
        tk_refuse(&g, "take new 8H 9H TH", "6.1");
        assert_int_equal(tk_legal_count(&g, OKR_A_TAKE), 0);
        assert_int_equal(tk_legal_count(&g, OKR_A_DRAW), 1);
        okr_event ev = tk_do(&g, "draw");
        assert_int_equal(ev.card, tk_kind("AC"));
        tk_do(&g, "discard AC");
        /* normal play: seat 1 may draw or take the pile (AC on 9H) */
        assert_int_equal(g.to_act, 1);
        assert_int_equal(g.phase, OKR_PH_DRAW);
        assert_int_equal(g.stock_locked, 0);
        assert_int_equal(g.pile_n, 2);
    }
}

/* RULES 6.2 arlington (and german): no upcard round; from the first turn the player draws or
 * takes the pile by 4.3 (c). */
static void test_6_2_arlington_no_upcard_round(void **state)
{
    (void)state;
    okr_rules r = tk_rules("arlington", NULL);
    const char *h[2] = {"9C 9D 8H TH 3S 4S 5S KC KD 6C 7C JD QD", NULL};
    tk_start(&g, &r, 2, h, "9H", "AC");
    assert_int_equal(g.phase, OKR_PH_DRAW);
    assert_int_equal(g.to_act, 0);
    tk_refuse(&g, "pass", "4.2");
    assert_int_equal(tk_legal_count(&g, OKR_A_PASS), 0);
    assert_int_equal(tk_legal_count(&g, OKR_A_DRAW), 1);
    assert_true(tk_legal_has_text(&g, "take new 9C 9D 9H"));
    tk_do(&g, "take new 8H 9H TH");
    tk_assert_hand(&g, 0, "9C 9D 3S 4S 5S KC KD 6C 7C JD QD");
    assert_int_equal(g.drew[0], 1);
    tk_do(&g, "meld 3S 4S 5S");
    tk_do(&g, "discard QD");
    assert_int_equal(g.to_act, 1);
    /* german starts the same way */
    r = tk_rules("german", NULL);
    tk_start(&g, &r, 2, h, "9H", "AC");
    assert_int_equal(g.phase, OKR_PH_DRAW);
    assert_true(tk_legal_has_text(&g, "take new 8H 9H TH"));
}

/* RULES 6.3: a player's first turn is the first in which he draws; taking the upcard counts,
 * declining it does not. */
static void test_6_3_first_turn_is_first_draw(void **state)
{
    (void)state;
    okr_rules r = tk_rules("laws", NULL);
    const char *h[3] = {"9C 9D 8H TH 3S 4S 5S KC KD 6C 7C JD QD",
                        "7H 8H KS KH KC 3D 4D 6D AS 5C 4C JS TS",
                        "AH AD 3C 5D 6S 7S 8S 9S JC QC QH JH TC"};
    tk_start(&g, &r, 3, h, "9H", "AC 4H 5H AD");
    tk_do(&g, "pass");
    assert_int_equal(g.drew[0], 0);
    tk_do(&g, "take new 7H 8H 9H");
    assert_int_equal(g.drew[1], 1); /* the upcard was his draw */
    tk_do(&g, "discard AS");
    tk_script(&g, "draw; discard AH");
    assert_int_equal(g.drew[2], 1);
    assert_int_equal(g.drew[0], 0);
    tk_do(&g, "draw");
    assert_int_equal(g.drew[0], 1); /* seat 0's first turn only now */
    tk_do(&g, "discard 4H");
    tk_script(&g, "draw; discard 5H");
    assert_int_equal(g.drew[1], 2); /* second turn: no longer the first */
    assert_int_equal(g.turns, 4);
}

/* ---- RULES 6.G: german claims ------------------------------------------------------------- */

/* Four players, dealer seat 3 (the upcard 9H counts as its discard). Seat 1 (9C 9D) and seat 2
 * (7H 8H) can claim it, seat 3 could but is the discarder. */
static void claims_deal(void)
{
    okr_rules r = tk_rules("german", NULL);
    const char *h[4] = {
        "3C 4C 5C KD QD JD 6S 7S 8S TC TD 4H 5D", "9C 9D AC AD KC KS QC QS 3S 4S 5S 6C 7C",
        "7H 8H 6H JC JH 3D 4D 5D 8C TS JS AS KH", "9S 9S 8D 7D AH 3H 5H TH QH KH 7C 8C 6H"};
    tk_start(&g, &r, 4, h, "9H", "KC AC JC");
}

/* RULES 6.G: claim order from the left of the player in turn, the discarder never asked, a
 * player with no legal claim not asked; the claimant melds the top card, may only lengthen
 * that meld, takes the pile, does not discard; then the player in turn draws and plays. */
static void test_6_G_german_claims(void **state)
{
    (void)state;
    claims_deal();
    assert_int_equal(g.phase, OKR_PH_DRAW);
    assert_int_equal(g.discarder, 3);
    tk_do(&g, "draw"); /* seat 0 would draw: the claim window opens first */
    assert_int_equal(g.phase, OKR_PH_CLAIM);
    assert_int_equal(g.turn_seat, 0);
    assert_int_equal(g.to_act, 1);     /* the first seat left of seat 0 with a claim */
    assert_int_equal(g.hand_n[0], 13); /* nothing drawn yet */
    tk_refuse_as(&g, 3, "claim new 9S 9S 9H", "4.8"); /* the discarder is not asked */
    tk_refuse_as(&g, 2, "claim new 7H 8H 9H", "4.8"); /* not his turn to answer yet */
    assert_true(tk_legal_has_text(&g, "claim new 9C 9D 9H"));
    assert_true(tk_legal_has_text(&g, "pass"));
    tk_do(&g, "pass");
    assert_int_equal(g.to_act, 2);
    tk_do(&g, "claim new 7H 8H 9H");
    assert_int_equal(g.phase, OKR_PH_CLAIM_MELD);
    assert_int_equal(g.to_act, 2);
    tk_assert_meld(&g, 0, 2, "7H 8H 9H");
    tk_refuse(&g, "meld 3D 4D 5D", "6.G"); /* no other meld */
    tk_refuse(&g, "discard KH", "6.G");    /* the claimant does not discard */
    tk_do(&g, "add 0 6H");                 /* lengthening the claimed meld is allowed */
    tk_do(&g, "pass");
    /* the player in turn now draws from the stock (the pile is gone anyway) */
    assert_int_equal(g.phase, OKR_PH_DRAW);
    assert_int_equal(g.to_act, 0);
    assert_int_equal(g.hand_n[2], 13 - 3); /* 7H 8H 6H melded, no discard */
    assert_int_equal(g.drew[2], 0);        /* a claim is not a turn */
    okr_event ev = tk_do(&g, "draw");
    assert_int_equal(ev.card, tk_kind("KC"));
    assert_int_equal(g.phase, OKR_PH_PLAY);
    tk_do(&g, "discard 4H");
    assert_int_equal(g.to_act, 1); /* the rotation is unchanged by the claim */

    /* seat 1 in turn, seat 0 discarded 4H: seat 2 cannot use it (not asked), seat 3 can
     * (3H 4H 5H) and passes; seat 0 is the discarder: seat 1 draws */
    tk_do(&g, "draw");
    assert_int_equal(g.phase, OKR_PH_CLAIM);
    assert_int_equal(g.to_act, 3);
    tk_do(&g, "pass");
    assert_int_equal(g.phase, OKR_PH_DRAW);
    assert_int_equal(g.to_act, 1);
    tk_refuse(&g, "take new 3S 4S 5S", "6.G"); /* only the stock now */
    ev = tk_do(&g, "draw");
    assert_int_equal(ev.card, tk_kind("AC"));
    tk_do(&g, "discard 6C");

    /* seat 2 in turn, seat 1 discarded 6C: seat 3 (7C 8C) is asked first, then seat 0
     * (4C 5C) after wrapping round the table */
    tk_do(&g, "draw");
    assert_int_equal(g.to_act, 3);
    tk_do(&g, "pass");
    assert_int_equal(g.to_act, 0);
    tk_do(&g, "claim new 4C 5C 6C");
    tk_do(&g, "add 1 3C");
    tk_assert_meld(&g, 1, 0, "3C 4C 5C 6C");
    okr_event done = tk_do(&g, "pass");
    assert_int_equal(done.taken, 1); /* the rest of the pile: the 4H */
    assert_int_equal(g.hand[0][tk_kind("4H")], 1);
    assert_int_equal(g.pile_n, 0);
    assert_int_equal(g.to_act, 2);
    assert_int_equal(g.turn_seat, 2);
    ev = tk_do(&g, "draw");
    assert_int_equal(ev.card, tk_kind("JC"));
}

/* RULES 6.G: a claim by adding the top card to an own meld (4.3 (a)) takes the pile at once;
 * a player with no legal claim is not asked. */
static void test_6_G_claim_by_addition(void **state)
{
    (void)state;
    claims_deal();
    tk_script(&g, "draw; pass; claim new 7H 8H 9H; pass; draw; discard 4H"); /* seat 0 */
    tk_script(&g, "draw; pass; draw; discard 6C");                           /* seat 1 */
    tk_script(&g, "draw; pass; pass; draw; discard JS");                     /* seat 2 */
    tk_do(&g, "draw"); /* seat 3: seat 1 (QS KS) may claim the JS */
    assert_int_equal(g.to_act, 1);
    tk_do(&g, "pass");
    assert_int_equal(g.phase, OKR_PH_DRAW); /* the window closed: seat 3 draws now */
    assert_int_equal(g.to_act, 3);
    tk_do(&g, "draw");
    assert_int_equal(g.phase, OKR_PH_PLAY);
    tk_do(&g, "discard TH");
    /* seat 0 in turn: seat 1 has no use for TH and is not asked; seat 2 adds it to 7H 8H 9H */
    tk_do(&g, "draw");
    assert_int_equal(g.phase, OKR_PH_CLAIM);
    assert_int_equal(g.to_act, 2);
    okr_event ev = tk_do(&g, "claim add 0");
    tk_assert_meld(&g, 0, 2, "7H 8H 9H TH");
    assert_int_equal(ev.taken, 3); /* 4H 6C JS */
    assert_int_equal(g.pile_n, 0);
    assert_int_equal(g.phase, OKR_PH_DRAW); /* no lengthening after an addition */
    assert_int_equal(g.to_act, 0);
    assert_int_equal(g.stock_locked, 1);
    tk_do(&g, "draw");
    assert_int_equal(g.phase, OKR_PH_PLAY);
}

/* RULES 6.G: nobody but the discarder could use the top card: nobody is asked, the player in
 * turn draws at once. */
static void test_6_G_no_claimant_draw_at_once(void **state)
{
    (void)state;
    okr_rules r = tk_rules("german", NULL);
    const char *h[3] = {"3C 4C 5C 6D 7D 8D 9H TH JH 3S 4S 5S AD",
                        "AC 3D 4D 5D 6C 7C 8C 9D TD JD 6H 7H 8H",
                        "KC KD QS JS 9S 9C TC JC QC 3H 4H 5H AH"};
    tk_start(&g, &r, 3, h, "KS", "AS");
    okr_event ev = tk_do(&g, "draw");
    assert_int_equal(ev.card, tk_kind("AS"));
    assert_int_equal(g.phase, OKR_PH_PLAY);
    assert_int_equal(g.to_act, 0);
    tk_do(&g, "discard AD");
    /* seat 1 in turn: seat 2 has no use for AD (seat 0, the discarder, is never asked) */
    ev = tk_do(&g, "draw");
    assert_int_equal(g.phase, OKR_PH_PLAY);
    assert_int_equal(g.to_act, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_6_1_upcard_round_take_by_second_player),
        cmocka_unit_test(test_6_1_all_pass_forced_stock_draw),
        cmocka_unit_test(test_6_2_arlington_no_upcard_round),
        cmocka_unit_test(test_6_3_first_turn_is_first_draw),
        cmocka_unit_test(test_6_G_german_claims),
        cmocka_unit_test(test_6_G_claim_by_addition),
        cmocka_unit_test(test_6_G_no_claimant_draw_at_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
