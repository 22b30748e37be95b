/* test_rules_gin_flow.c - Oklahoma Gin through okr_apply: the first turn (G3), a normal turn
 * (G4), the drawn hand (G6), the 4.9 cap, a knocked hand scored by hand and whole games to
 * 100 (G8). The knock arithmetic itself (G5, G7) is test_gin.c's. */
#include "testkit.h"

static okr_game g;

static const char *const s0_hand = "2C 3C 4C 7D 7H 7S 9S TS JS KD";
static const char *const s1_hand = "KC KH 5D 6D AS 2S 4S 8D TD JD";

static void gin_deal(const char *up, const char *stock, const char *opt)
{
    okr_rules r = tk_rules("gin", opt, NULL);
    const char *h[2] = {s0_hand, s1_hand};
    tk_start(&g, &r, 2, h, up, stock);
    assert_int_equal(g.dealer, 1);
    assert_int_equal(g.phase, OKR_PH_GIN_UPCARD);
    assert_int_equal(g.to_act, 0); /* the non-dealer first */
    assert_int_equal(g.stock_n, 52 - 21);
}

/* RULES G3: the non-dealer may take the upcard; whoever takes it discards and the other then
 * takes a normal turn. */
static void test_G3_non_dealer_takes_upcard(void **state)
{
    (void)state;
    gin_deal("QH", "8S 3D", NULL);
    int n = tk_legal(&g);
    assert_int_equal(n, 2); /* take or pass */
    assert_int_equal(tk_acts[0].type, OKR_A_TAKE);
    assert_int_equal(tk_acts[1].type, OKR_A_PASS);
    tk_refuse(&g, "draw", "G3");
    okr_event ev = tk_do(&g, "take");
    assert_int_equal(ev.card, tk_kind("QH"));
    assert_int_equal(g.hand_n[0], 11);
    assert_int_equal(g.pile_n, 0);
    assert_int_equal(g.phase, OKR_PH_PLAY);
    tk_do(&g, "discard KD");
    assert_int_equal(g.to_act, 1);
    assert_int_equal(g.phase, OKR_PH_DRAW);
    assert_true(tk_legal_has_text(&g, "draw"));
    assert_true(tk_legal_has_text(&g, "take")); /* the KD: a normal turn */
}

/* RULES G3: if the non-dealer declines, the dealer may take it; then the non-dealer takes a
 * normal turn. */
static void test_G3_dealer_takes_after_decline(void **state)
{
    (void)state;
    gin_deal("QH", "8S 3D", NULL);
    tk_do(&g, "pass");
    assert_int_equal(g.to_act, 1);
    assert_int_equal(g.phase, OKR_PH_GIN_UPCARD);
    tk_do(&g, "take");
    assert_int_equal(g.hand_n[1], 11);
    tk_do(&g, "discard 2S");
    assert_int_equal(g.to_act, 0);
    assert_int_equal(g.phase, OKR_PH_DRAW);
    assert_int_equal(g.stock_locked, 0);
    assert_true(tk_legal_has_text(&g, "take"));
}

/* RULES G3: both decline: the non-dealer draws from the stock (the upcard may not be taken). */
static void test_G3_both_decline_non_dealer_draws(void **state)
{
    (void)state;
    gin_deal("QH", "8S 3D", NULL);
    tk_script(&g, "pass; pass");
    assert_int_equal(g.phase, OKR_PH_DRAW);
    assert_int_equal(g.to_act, 0);
    tk_refuse(&g, "take", "G3");
    assert_int_equal(tk_legal(&g), 1);
    okr_event ev = tk_do(&g, "draw");
    assert_int_equal(ev.card, tk_kind("8S"));
    assert_int_equal(g.pile_n, 1); /* the upcard stays */
}

/* RULES G4: a normal turn takes the top stock card or the top discard (one card, never the
 * pile), then discards one card; gin has no rummy melds. */
static void test_G4_normal_turn_one_card(void **state)
{
    (void)state;
    gin_deal("QH", "8S 3D 5H", NULL);
    tk_script(&g, "pass; pass; draw; discard KD");
    assert_int_equal(g.to_act, 1);
    assert_int_equal(g.pile_n, 2); /* QH KD */
    okr_action nw;
    memset(&nw, 0, sizeof nw);
    nw.type = OKR_A_TAKE;
    nw.seat = 1;
    nw.how = OKR_HOW_NEW;
    tk_refuse_act(&g, &nw, "G4");
    okr_action other;
    memset(&other, 0, sizeof other);
    other.type = OKR_A_TAKE;
    other.seat = 1;
    other.how = OKR_HOW_PLAIN;
    other.card = (uint8_t)tk_kind("QH"); /* not the top */
    tk_refuse_act(&g, &other, "G4");
    okr_event ev = tk_do(&g, "take");
    assert_int_equal(ev.card, tk_kind("KD"));
    assert_int_equal(ev.taken, 1);
    assert_int_equal(g.pile_n, 1); /* only the top card moved */
    assert_int_equal(g.hand_n[1], 11);
    okr_action m;
    memset(&m, 0, sizeof m);
    m.type = OKR_A_MELD;
    m.seat = 1;
    m.u.spec.type = OKR_SET;
    m.u.spec.n = (uint8_t)tk_cards("KC KH KD", m.u.spec.card, OKR_SPEC_CARDS);
    memcpy(m.u.spec.as, m.u.spec.card, 3);
    tk_refuse_act(&g, &m, "G4");
    tk_refuse(&g, "draw", "G4");
    tk_do(&g, "discard 2S");
    assert_int_equal(g.to_act, 0);
    assert_int_equal(g.hand_n[1], 10);
}

/* RULES G6: after a discard with only two stock cards left and no knock, the hand is drawn:
 * nobody scores and the same dealer deals again. */
static void test_G6_drawn_hand_same_dealer(void **state)
{
    (void)state;
    gin_deal("AC", NULL, NULL); /* knock limit 1: nobody is tempted */
    tk_script(&g, "pass; pass");
    int discards = 0;
    while (g.phase != OKR_PH_HAND_OVER) {
        okr_event ev = tk_do(&g, "draw");
        char line[32], b[3];
        snprintf(line, sizeof line, "discard %s", tk_str(ev.card, b));
        int stock_before = g.stock_n;
        ev = tk_do(&g, line);
        discards++;
        if (stock_before > 2)
            assert_int_equal(ev.ended, OKR_END_NONE);
        else
            assert_int_equal(ev.ended, OKR_END_DRAWN);
    }
    assert_int_equal(discards, 29); /* 31 stock cards, two left */
    assert_int_equal(g.stock_n, 2);
    assert_int_equal(g.last.ended, OKR_END_DRAWN);
    assert_int_equal(g.last.winner, -1);
    for (int s = 0; s < 2; s++) {
        assert_int_equal(g.last.score[s], 0);
        assert_int_equal(g.score[s], 0);
    }
    okr_refusal why;
    assert_int_equal(okr_next_hand(&g, NULL, 0, &why), OKR_OK);
    assert_int_equal(g.dealer, 1);
    assert_int_equal(g.to_act, 0);
    assert_int_equal(g.hand_no, 2);
}

/* RULES 4.9 in gin: the cap can be reached when both players keep taking the discard back;
 * the hand then ends drawn (G6). */
static void test_4_9_gin_cap_ends_drawn(void **state)
{
    (void)state;
    gin_deal("QH", "8S", "max_turns=4");
    tk_script(&g, "take; discard QH"); /* turn 1: seat 0 takes the upcard, gives it back */
    tk_script(&g, "take; discard QH"); /* turn 2 */
    tk_script(&g, "take; discard QH"); /* turn 3 */
    assert_int_equal(g.phase, OKR_PH_DRAW);
    tk_do(&g, "take");
    okr_event ev = tk_do(&g, "discard QH"); /* turn 4 */
    assert_int_equal(ev.ended, OKR_END_DRAWN);
    assert_int_equal(g.turns, 4);
    assert_int_equal(g.stock_n, 31); /* nothing was drawn */
    okr_refusal why;
    assert_int_equal(okr_next_hand(&g, NULL, 0, &why), OKR_OK);
    assert_int_equal(g.dealer, 1);
}

/* RULES G5, G7, 2.3, 8.2 gin: a hand scored by hand. Both decline the QH (limit 10); seat 0
 * draws 8S and knocks with gin discarding KD. */
static void test_G7_gin_hand_scored_by_hand(void **state)
{
    (void)state;
    gin_deal("QH", "8S", NULL);
    tk_script(&g, "pass; pass; draw");
    okr_action k = tk_parse(&g, "knock KD | 2C 3C 4C | 7D 7H 7S | 8S 9S TS JS");
    assert_true(tk_legal_has(&g, &k));
    okr_event ev = tk_act(&g, &k);
    assert_int_equal(ev.ended, OKR_END_GIN);
    assert_int_equal(g.phase, OKR_PH_HAND_OVER);
    assert_int_equal(g.last.ended, OKR_END_GIN);
    assert_int_equal(g.last.knocker, 0);
    assert_int_equal(g.last.winner, 0);
    /* defender KC KH 5D 6D AS 2S 4S 8D TD JD: no meld, no lay-off on a gin hand:
     * 10 + 10 + 5 + 6 + 1 + 2 + 4 + 8 + 10 + 10 = 66; gin: 25 + 66 = 91 */
    assert_int_equal(g.last.deadwood[0], 0);
    assert_int_equal(g.last.deadwood[1], 66);
    assert_int_equal(g.last.score[0], 91);
    assert_int_equal(g.last.score[1], 0);
    assert_int_equal(g.last.total[0], 91);
    assert_int_equal(g.score[0], 91);
    /* 91 < 100: the game goes on; the scorer deals the next hand (2.3) */
    okr_refusal why;
    assert_int_equal(okr_next_hand(&g, NULL, 0, &why), OKR_OK);
    assert_int_equal(g.dealer, 0);
    assert_int_equal(g.to_act, 1);
}

/* RULES G2, G5 through okr_apply: the knock limit is the upcard's value; a knock over it or
 * with a false meld is refused under G5 and not listed; within it the hand ends and is
 * scored (knocker 4, defender 66: the knocker scores 62). */
static void test_G2_G5_knock_limit_through_apply(void **state)
{
    (void)state;
    gin_deal("3H", "4D", NULL);                                       /* limit 3 */
    tk_refuse(&g, "knock KD | 2C 3C 4C | 7D 7H 7S | 9S TS JS", "G3"); /* not before drawing */
    tk_script(&g, "pass; pass; draw");
    assert_int_equal(tk_legal_count(&g, OKR_A_KNOCK), 0);
    tk_refuse(&g, "knock KD | 2C 3C 4C | 7D 7H 7S | 9S TS JS", "G5"); /* deadwood 4 > 3 */
    tk_refuse(&g, "knock KD | 2C 3C 4D | 7D 7H 7S | 9S TS JS", "G5"); /* not a meld */

    gin_deal("4H", "4D", NULL); /* limit 4 */
    tk_script(&g, "pass; pass; draw");
    okr_action k = tk_parse(&g, "knock KD | 2C 3C 4C | 7D 7H 7S | 9S TS JS");
    assert_true(tk_legal_has(&g, &k));
    okr_event ev = tk_act(&g, &k);
    assert_int_equal(ev.ended, OKR_END_KNOCK);
    assert_int_equal(g.last.knocker, 0);
    assert_int_equal(g.last.deadwood[0], 4);
    assert_int_equal(g.last.deadwood[1], 66); /* nothing to lay off */
    assert_int_equal(g.last.score[0], 62);
    assert_int_equal(g.last.score[1], 0);
    assert_int_equal(g.pile[g.pile_n - 1], tk_kind("KD")); /* the knock discarded KD */
}

/* RULES G8: hands until a player's total reaches 100; that player wins. Whole games with a
 * deterministic policy; the result invariants of 7.5 hold (no bonuses in gin). */
static void test_G8_game_to_100(void **state)
{
    (void)state;
    okr_rules r = tk_rules("gin", NULL);
    int games = getenv("OKR_SANITIZE") ? 3 : 10;
    for (int k = 0; k < games; k++) {
        okr_refusal why;
        assert_int_equal(okr_game_init(&g, &r, 2, 900 + (uint64_t)k, NULL, 0, &why), OKR_OK);
        uint64_t rng = 77 + (uint64_t)k;
        int32_t prev[2] = {0, 0};
        int hands = 0;
        for (;;) {
            int dealer = g.dealer;
            tk_play_hand(&g, &rng);
            hands++;
            const okr_hand_result *h = &g.last;
            for (int s = 0; s < 2; s++) {
                assert_true(h->score[s] >= 0);
                assert_int_equal(h->total[s], prev[s] + h->score[s]);
                prev[s] = h->total[s];
            }
            if (h->ended == OKR_END_DRAWN) {
                assert_int_equal(h->score[0] + h->score[1], 0);
            } else {
                assert_true(h->ended == OKR_END_KNOCK || h->ended == OKR_END_UNDERCUT ||
                            h->ended == OKR_END_GIN);
                assert_true(h->winner == 0 || h->winner == 1);
                assert_true(h->score[h->winner] > 0);
                assert_int_equal(h->score[1 - h->winner], 0);
            }
            if (g.phase == OKR_PH_GAME_OVER)
                break;
            assert_true(g.score[0] < 100 && g.score[1] < 100);
            int ended = h->ended, winner = h->winner;
            assert_int_equal(okr_next_hand(&g, NULL, 0, &why), OKR_OK);
            if (ended == OKR_END_DRAWN)
                assert_int_equal(g.dealer, dealer); /* G6 */
            else
                assert_int_equal(g.dealer, winner); /* 2.3: the scorer deals */
            assert_true(hands < 300);
        }
        const okr_game_result *res = &g.result;
        int w = res->score[0] >= res->score[1] ? 0 : 1;
        assert_true(res->score[w] >= 100);
        assert_true(res->winners & (1u << w));
        for (int s = 0; s < 2; s++) {
            assert_int_equal(res->winner_bonus[s], 0);
            assert_int_equal(res->concealed[s], 0);
            assert_int_equal(res->final_total[s], res->score[s]);
            assert_int_equal(res->settlement[s], 0);
        }
        assert_int_equal(res->placement[w], 1);
        if (res->score[0] != res->score[1])
            assert_int_equal(res->placement[1 - w], 2);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_G3_non_dealer_takes_upcard),
        cmocka_unit_test(test_G3_dealer_takes_after_decline),
        cmocka_unit_test(test_G3_both_decline_non_dealer_draws),
        cmocka_unit_test(test_G4_normal_turn_one_card),
        cmocka_unit_test(test_G6_drawn_hand_same_dealer),
        cmocka_unit_test(test_4_9_gin_cap_ends_drawn),
        cmocka_unit_test(test_G7_gin_hand_scored_by_hand),
        cmocka_unit_test(test_G2_G5_knock_limit_through_apply),
        cmocka_unit_test(test_G8_game_to_100),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
