/* test_rules_scoring.c - RULES 7 (card values, going out, concealed, game, final total,
 * settlement, the hand cap) and 8 (what the engine reports), rule by rule. Every preset has
 * a hand scored by hand from an explicit pack and a whole game checked for the invariants. */
#include "testkit.h"

static okr_game g;

/* ---- 7.1 card values ----------------------------------------------------------------------- */

/* RULES 7.1: the hand debits of every preset, card by card. */
static void test_7_1_hand_debits_per_preset(void **state)
{
    (void)state;
    /*                      JK   QS   AS  KH  TH  8C  7D  3S  2C */
    const int laws[9] = {200, 100, 20, 10, 10, 10, 5, 5, 20};
    const int parl[9] = {200, 100, 20, 20, 20, 20, 5, 5, 20};
    const int arl[9] = {0, 100, 20, 10, 10, 10, 5, 5, 20};
    const int ger[9] = {0, 100, 15, 10, 10, 10, 5, 5, 15};
    const char *cards[9] = {"JK", "QS", "AS", "KH", "TH", "8C", "7D", "3S", "2C"};
    const int *tab[4] = {laws, parl, arl, ger};
    const char *names[4] = {"laws", "parlett", "arlington", "german"};
    for (int p = 0; p < 4; p++) {
        okr_rules r = tk_rules(names[p], NULL);
        for (int i = 0; i < 9; i++) {
            if (!r.jokers && i == 0)
                continue;
            assert_int_equal(okr_card_debit(&r, tk_kind(cards[i])), tab[p][i]);
        }
    }
    /* parlett as printed: the Q of spades stays 100, the other queens 20 */
    okr_rules r = tk_rules("parlett", NULL);
    assert_int_equal(okr_card_debit(&r, tk_kind("QH")), 20);
    assert_int_equal(okr_card_debit(&r, tk_kind("9D")), 20);
}

/* A two-player hand: both pass any upcard round (there is none in arlington/german), seat 0
 * draws `draw`, plays `script` and goes out. */
static void out_first_turn(const okr_rules *r, const char *h0, const char *h1, const char *draw,
                           const char *script)
{
    const char *h[2] = {h0, h1};
    tk_start(&g, r, 2, h, "8C", draw);
    okr_event ev = tk_pass_and_draw(&g);
    assert_int_equal(ev.card, tk_kind(draw));
    tk_script(&g, script);
    assert_int_equal(g.phase, OKR_PH_HAND_OVER);
    assert_int_equal(g.last.ended, OKR_END_OUT);
    assert_int_equal(g.last.winner, 0);
}

/* RULES 7.1, 7.2, 8.2 laws: a hand scored by hand. */
static void test_7_1_laws_hand_scored_by_hand(void **state)
{
    (void)state;
    okr_rules r = tk_rules("laws", NULL);
    out_first_turn(&r, "QH QD 2C AH 2D 3H 9C 9D JK JS QS KS KD",
                   "QS 2H AC KC 8D 7D 3C 4C 5D 6H TC JD 9S", "AS",
                   "meld QH QD 2C=QS; meld AH 2D=2H 3H; meld 9C 9D JK=9H; meld JS QS KS;"
                   "add 3 AS; discard KD");
    /* melded: QH QD 2C=QS: 10 + 10 + 10 (a 2 as the Q of spades) = 30
     *         AH 2D=2H 3H: 20 + 5 (a 2 as a two) + 5 = 30
     *         9C 9D JK=9H: 10 + 10 + 100 (the Joker) = 120
     *         JS QS KS AS: 10 + 50 + 10 + 20 = 90            total 270
     * going out: +100 (laws: also on the first turn); concealed: none on the first turn */
    assert_int_equal(g.last.melded[0], 270);
    assert_int_equal(g.last.debit[0], 0);
    assert_int_equal(g.last.out_bonus[0], 100);
    assert_int_equal(g.last.concealed[0], 0);
    assert_int_equal(g.last.score[0], 370);
    assert_int_equal(g.last.total[0], 370);
    /* seat 1: QS 100, 2H 20, AC 20, KC 8D TC JD 9S 5 x 10, 7D 3C 4C 5D 6H 5 x 5: -215 */
    assert_int_equal(g.last.melded[1], 0);
    assert_int_equal(g.last.debit[1], -215);
    assert_int_equal(g.last.out_bonus[1], 0);
    assert_int_equal(g.last.score[1], -215);
    assert_int_equal(g.last.total[1], -215);
    assert_int_equal(g.score[0], 370);
}

/* RULES 7.1, 7.2 parlett: the same hand; the 8..K debits are 20, and no bonus for going out
 * on the first turn. */
static void test_7_2_parlett_no_bonus_on_first_turn(void **state)
{
    (void)state;
    okr_rules r = tk_rules("parlett", NULL);
    out_first_turn(&r, "QH QD 2C AH 2D 3H 9C 9D JK JS QS KS KD",
                   "QS 2H AC KC 8D 7D 3C 4C 5D 6H TC JD 9S", "AS",
                   "meld QH QD 2C=QS; meld AH 2D=2H 3H; meld 9C 9D JK=9H; meld JS QS KS;"
                   "add 3 AS; discard KD");
    /* melded 270 as in laws; out bonus 0 (first turn) */
    assert_int_equal(g.last.melded[0], 270);
    assert_int_equal(g.last.out_bonus[0], 0);
    assert_int_equal(g.last.score[0], 270);
    /* seat 1: QS 100, 2H 20, AC 20, KC 8D TC JD 9S 5 x 20 = 100, five low cards 25: -265 */
    assert_int_equal(g.last.debit[1], -265);
    assert_int_equal(g.last.score[1], -265);
}

/* RULES 7.2 parlett: going out on a later turn earns the 100 (melds made before: not
 * concealed). */
static void test_7_2_parlett_bonus_on_later_turn(void **state)
{
    (void)state;
    okr_rules r = tk_rules("parlett", NULL);
    const char *h[2] = {"3C 4C 5C 3D 4D 5D 3H 4H 5H 7S 8S 9S KD",
                        "QS 2H AC KC 8D 7D 3S 4S 5S 6H TC JD 9S"};
    tk_start(&g, &r, 2, h, "8C", "KC 6D 6S");
    tk_pass_and_draw(&g);
    tk_script(&g, "meld 3C 4C 5C; discard KC");
    tk_script(&g, "draw; discard 6D");
    tk_script(&g, "draw; meld 3D 4D 5D; meld 3H 4H 5H; meld 6S 7S 8S; add 3 9S; discard KD");
    assert_int_equal(g.last.ended, OKR_END_OUT);
    assert_int_equal(g.last.winner, 0);
    /* melded 3C 4C 5C 15 + 3D 4D 5D 15 + 3H 4H 5H 15 + 6S 7S 8S 9S (5 + 5 + 10 + 10) 30 = 75;
     * the +20 of parlett's 8..K is a hand debit only */
    assert_int_equal(g.last.melded[0], 75);
    assert_int_equal(g.last.out_bonus[0], 100);
    assert_int_equal(g.last.concealed[0], 0); /* he had melded before that turn */
    assert_int_equal(g.last.score[0], 175);
    /* seat 1 (drew 6D, discarded it): QS 100, 2H AC 40, KC 8D TC JD 9S 5 x 20 = 100,
     * 7D 3S 4S 5S 6H 25: -265 */
    assert_int_equal(g.last.debit[1], -265);
}

/* RULES 7.1, 7.2 arlington: all-twos set +25 a two, no Joker, +100 for going out even on the
 * first turn; no winner's bonus (checked in the full game). */
static void test_7_1_arlington_hand_scored_by_hand(void **state)
{
    (void)state;
    okr_rules r = tk_rules("arlington", NULL);
    out_first_turn(&r, "2C 2D 2H QH KH AH 9C 9D 9S JS QS KS KD",
                   "QS 2S AC KC 8D 7D 3C 4C 5D 6H TC JD 9H", "AS",
                   "meld 2C 2D 2H; meld QH KH AH; meld 9C 9D 9S; meld JS QS KS; add 3 AS;"
                   "discard KD");
    /* 2C 2D 2H all twos: 3 x 25 = 75; QH KH AH 10 + 10 + 20 = 40; 9C 9D 9S 30;
     * JS QS KS AS 10 + 50 + 10 + 20 = 90: melded 235, +100 going out = 335 */
    assert_int_equal(g.last.melded[0], 235);
    assert_int_equal(g.last.out_bonus[0], 100);
    assert_int_equal(g.last.score[0], 335);
    /* seat 1: QS 100, 2S 20, AC 20, KC 8D TC JD 9H 50, 7D 3C 4C 5D 6H 25: -215 */
    assert_int_equal(g.last.debit[1], -215);
    assert_int_equal(g.last.score[1], -215);
}

/* RULES 7.1, 7.2 german: ace 15, a 2 counts as the card it stands for, 2 in hand -15, no bonus
 * for going out. */
static void test_7_1_german_hand_scored_by_hand(void **state)
{
    (void)state;
    okr_rules r = tk_rules("german", NULL);
    out_first_turn(&r, "QH QD 2C QC KC AC 5S 6S 7S 9C 9D 9H KD",
                   "QS 2H AD KS 8D 7D 3C 4C 5D 6H TC JD 9S", "9S",
                   "meld QH QD 2C=QC; meld QC KC AC; meld 5S 6S 7S; meld 9C 9D 9H; add 3 9S;"
                   "discard KD");
    /* QH QD 2C=QC 30; QC KC AC 10 + 10 + 15 = 35; 5S 6S 7S 15; 9C 9D 9H 9S 40: 120 */
    assert_int_equal(g.last.melded[0], 120);
    assert_int_equal(g.last.out_bonus[0], 0);
    assert_int_equal(g.last.concealed[0], 0);
    assert_int_equal(g.last.score[0], 120);
    /* seat 1: QS 100, 2H 15, AD 15, KS 8D TC JD 9S 50, 7D 3C 4C 5D 6H 25: -205 */
    assert_int_equal(g.last.debit[1], -205);
    assert_int_equal(g.last.score[1], -205);
}

/* RULES 7.1 german: "as the card it stands for" (source: "alle Zweier ... Wert der Karten,
 * fuer die sie in einer Figur stehen"): a 2 standing for the Q of spades is worth 50 in german
 * (only laws/parlett have the 10 for a 2 as the Q of spades). */
static void test_7_1_german_deuce_as_queen_of_spades_scores_fifty(void **state)
{
    (void)state;
    okr_rules r = tk_rules("german", NULL);
    out_first_turn(&r, "QH QD 2C QC KC AC 5S 6S 7S 9C 9D 9H KD",
                   "QS 2H AD KS 8D 7D 3C 4C 5D 6H TC JD 9S", "9S",
                   "meld QH QD 2C=QS; meld QC KC AC; meld 5S 6S 7S; meld 9C 9D 9H; add 3 9S;"
                   "discard KD");
    /* QH QD 2C=QS 10 + 10 + 50 = 70; the rest 90 as above: 160 */
    assert_int_equal(g.last.melded[0], 160);
}

/* ---- 7.3 concealed -------------------------------------------------------------------------
 * Seat 0 draws KC and discards it (no meld), seat 1 lays 250 points, seat 0 then lays its
 * whole hand on its second turn and goes out concealed. */
static void concealed_hand(const char *preset, const char *opt1, const char *opt2)
{
    okr_rules r = tk_rules(preset, opt1, opt2, NULL);
    const char *h[2] = {"3C 4C 5C 6C 3D 4D 5D 3H 4H 5H 7S 8S 9D",
                        "JS QS KS AH AD AC 9H JK 9C 3S 4D 5S 6H"};
    tk_start(&g, &r, 2, h, "KH", "KC TC 6S");
    tk_script(&g, "pass; pass; draw; discard KC");
    tk_script(&g, "draw; meld JS QS KS; meld AH AD AC; meld 9H 9C JK=9D; discard TC");
    tk_script(&g, "draw; meld 3C 4C 5C; add 3 6C; meld 3D 4D 5D; meld 3H 4H 5H;"
                  "meld 6S 7S 8S; discard 9D");
    assert_int_equal(g.last.ended, OKR_END_OUT);
    assert_int_equal(g.last.winner, 0);
}

/* RULES 7.3 laws/parlett: +250 for going out concealed, kept apart from the score; it does
 * not count toward the target. */
static void test_7_3_concealed_bonus_kept_apart_from_target(void **state)
{
    (void)state;
    const char *names[2] = {"laws", "parlett"};
    for (int p = 0; p < 2; p++) {
        concealed_hand(names[p], "target=300", NULL);
        /* seat 0: 3C-6C 20, 3D 4D 5D 15, 3H 4H 5H 15, 6S 7S 8S 20: 70 + 100 out = 170 */
        assert_int_equal(g.last.melded[0], 70);
        assert_int_equal(g.last.out_bonus[0], 100);
        assert_int_equal(g.last.concealed[0], 250);
        assert_int_equal(g.last.score[0], 170); /* the 250 is not in the hand score */
        assert_int_equal(g.last.total[0], 170);
        assert_int_equal(g.score[0], 170);
        assert_int_equal(g.concealed[0], 250);
        /* seat 1: JS QS KS 70, AH AD AC 60, 9H 9C JK 120 = 250; 3S 4D 5S 6H -20 = 230 */
        assert_int_equal(g.last.melded[1], 250);
        assert_int_equal(g.last.debit[1], -20);
        assert_int_equal(g.last.score[1], 230);
        /* 170 + 250 >= 300 but the concealed bonus does not count: the game goes on */
        assert_int_equal(g.phase, OKR_PH_HAND_OVER);
        okr_view v;
        okr_view_of(&g, 1, &v);
        assert_int_equal(v.concealed[0], 250);
    }
    /* no concealed bonus in arlington or german */
    assert_int_equal(tk_rules("arlington", NULL).concealed_bonus, 0);
    assert_int_equal(tk_rules("german", NULL).concealed_bonus, 0);
}

/* RULES 7.3, 7.4, 7.5: the concealed bonus is added only after the winner is known: the
 * winner is the highest game score; final total = score + concealed + winner's bonus. */
static void test_7_3_concealed_added_after_winner_known(void **state)
{
    (void)state;
    concealed_hand("laws", "max_hands=1", NULL); /* the game ends after this hand (7.7) */
    assert_int_equal(g.phase, OKR_PH_GAME_OVER);
    const okr_game_result *res = &g.result;
    /* scores 170 and 230: seat 1 wins although 170 + 250 > 230 */
    assert_int_equal(res->winners, 1u << 1);
    assert_int_equal(res->score[0], 170);
    assert_int_equal(res->score[1], 230);
    assert_int_equal(res->concealed[0], 250);
    assert_int_equal(res->winner_bonus[0], 0);
    assert_int_equal(res->winner_bonus[1], 200);
    assert_int_equal(res->final_total[0], 420); /* 170 + 250 */
    assert_int_equal(res->final_total[1], 430); /* 230 + 200 */
    assert_int_equal(res->placement[1], 1);
    assert_int_equal(res->placement[0], 2);
    /* settlement: 420 and 430 both round to 400: nothing changes hands */
    assert_int_equal(res->settlement[0], 0);
    assert_int_equal(res->settlement[1], 0);
}

/* ---- 7.4 ties ------------------------------------------------------------------------------
 * Two players whose hands are worth the same; seat 0 draws one card and discards it; the
 * max_turns cap ends the hand, max_hands the game: equal scores, a shared win. */
static void tie_game(const char *preset)
{
    okr_rules r = tk_rules(preset, "max_turns=1", "max_hands=1", NULL);
    const char *h[2] = {"3C 4D 5H 6S 7C 8D 9H TS JC QD KH AS AC",
                        "3D 4H 5S 6C 7D 8H 9S TC JD QH KS AH AD"};
    tk_start(&g, &r, 2, h, "4C", "5C");
    tk_pass_and_draw(&g);
    okr_event ev = tk_do(&g, "discard 5C");
    assert_int_equal(ev.ended, OKR_END_CAP);
    assert_int_equal(g.phase, OKR_PH_GAME_OVER);
}

/* RULES 7.4: ties share the win and the winner's bonus (laws/parlett 200, german 100,
 * arlington none). */
static void test_7_4_tie_shares_winners_bonus(void **state)
{
    (void)state;
    const char *names[4] = {"laws", "parlett", "arlington", "german"};
    /* each hand: five of 3..7 (25), six of 8..K (60; parlett 120), two aces (40; german 30) */
    const int hand[4] = {-125, -185, -125, -115};
    const int share[4] = {100, 100, 0, 50};
    for (int p = 0; p < 4; p++) {
        tie_game(names[p]);
        const okr_game_result *res = &g.result;
        assert_int_equal(res->winners, 3);
        for (int s = 0; s < 2; s++) {
            assert_int_equal(res->score[s], hand[p]);
            assert_int_equal(res->winner_bonus[s], share[p]);
            assert_int_equal(res->final_total[s], hand[p] + share[p]);
            assert_int_equal(res->placement[s], 1);
            assert_int_equal(res->settlement[s], 0);
        }
    }
}

/* ---- whole games ---------------------------------------------------------------------------- */

/* Nearest hundred, 50 rounding up, written independently of the engine (RULES 7.6). */
static long round_hundred(long x)
{
    long q = x + 50;
    long f = q / 100;
    if (q % 100 != 0 && q < 0)
        f--;
    return f * 100;
}

/* Play a whole game with the greedy policy and check RULES 7.1-7.7 and 8.2 invariants after
 * every hand and at the end. Returns the number of hands. */
static int full_game(const okr_rules *r, int players, uint64_t seed)
{
    okr_refusal why;
    assert_int_equal(okr_game_init(&g, r, players, seed, NULL, 0, &why), OKR_OK);
    uint64_t rng = seed ^ 0x5555;
    int32_t prev[OKR_MAX_PLAYERS] = {0}, concealed[OKR_MAX_PLAYERS] = {0};
    int hands = 0;
    for (;;) {
        tk_play_hand(&g, &rng);
        hands++;
        const okr_hand_result *h = &g.last;
        assert_true(h->ended == OKR_END_OUT || h->ended == OKR_END_STOCK);
        for (int s = 0; s < players; s++) {
            assert_true(h->melded[s] >= 0);
            assert_true(h->debit[s] <= 0);
            assert_int_equal(h->score[s], h->melded[s] + h->debit[s] + h->out_bonus[s]);
            assert_int_equal(h->total[s], prev[s] + h->score[s]);
            if (h->ended != OKR_END_OUT || s != h->winner) {
                assert_int_equal(h->out_bonus[s], 0); /* 7.2: never after 4.7 */
                assert_int_equal(h->concealed[s], 0);
            } else {
                assert_true(h->out_bonus[s] == r->out_bonus ||
                            (h->out_bonus[s] == 0 && !r->out_first_turn));
                assert_true(h->concealed[s] == 0 || h->concealed[s] == r->concealed_bonus);
                assert_int_equal(h->debit[s], 0);
            }
            prev[s] = h->total[s];
            concealed[s] += h->concealed[s];
        }
        if (g.phase == OKR_PH_GAME_OVER)
            break;
        for (int s = 0; s < players; s++)
            assert_true(g.score[s] < r->target); /* 7.4: nobody reached it yet */
        assert_true(g.hand_no < r->max_hands);
        assert_int_equal(okr_next_hand(&g, NULL, 0, &why), OKR_OK);
        assert_true(hands < 500);
    }
    const okr_game_result *res = &g.result;
    int32_t best = INT32_MIN;
    int reached = 0, nwin = 0;
    for (int s = 0; s < players; s++) {
        best = res->score[s] > best ? res->score[s] : best;
        reached |= res->score[s] >= r->target;
    }
    assert_true(reached || g.hand_no >= r->max_hands); /* 7.4, 7.7 */
    for (int s = 0; s < players; s++) {
        assert_int_equal(res->score[s], g.score[s]);
        assert_int_equal(res->score[s], prev[s]);
        assert_int_equal(res->concealed[s], concealed[s]);
        int won = res->score[s] == best; /* 7.4: the highest game score wins */
        assert_int_equal(!!(res->winners & (1u << s)), won);
        nwin += won;
    }
    long settle_sum = 0;
    for (int s = 0; s < players; s++) {
        int won = (res->winners >> s) & 1;
        assert_int_equal(res->winner_bonus[s], won ? r->winner_bonus / nwin : 0);
        /* 7.5 */
        assert_int_equal(res->final_total[s],
                         res->score[s] + res->concealed[s] + res->winner_bonus[s]);
        int better = 0;
        for (int t = 0; t < players; t++)
            better += res->final_total[t] > res->final_total[s];
        assert_int_equal(res->placement[s], better + 1);
        /* 7.6 laws settlement: wins the rounded difference from every lower player and
         * pays every higher one; zero elsewhere */
        long want = 0;
        for (int t = 0; t < players; t++)
            want += round_hundred(res->final_total[s]) - round_hundred(res->final_total[t]);
        assert_int_equal(res->settlement[s], r->values == OKR_VALUES_LAWS ? want : 0);
        settle_sum += res->settlement[s];
    }
    assert_int_equal(settle_sum, 0);
    return hands;
}

/* RULES 7.4-7.6: whole laws games to 1000; settlement zero-sum and equal to the rounded
 * differences. */
static void test_7_4_laws_full_game_invariants(void **state)
{
    (void)state;
    okr_rules r = tk_rules("laws", NULL);
    for (int k = 0; k < 6; k++) {
        int hands = full_game(&r, 2 + k % 3, 500 + (uint64_t)k);
        assert_true(hands >= 2);
        assert_int_not_equal(g.result.winners, 0);
        assert_int_equal(g.phase, OKR_PH_GAME_OVER);
    }
}

/* RULES 7.4-7.6 parlett: whole games to 1000, winner's bonus 200, no settlement. */
static void test_7_4_parlett_full_game_invariants(void **state)
{
    (void)state;
    okr_rules r = tk_rules("parlett", NULL);
    for (int k = 0; k < 6; k++)
        full_game(&r, 2 + k % 4, 600 + (uint64_t)k);
}

/* RULES 7.4-7.6 arlington: whole games to 1000, no winner's bonus, no settlement. */
static void test_7_4_arlington_full_game_invariants(void **state)
{
    (void)state;
    okr_rules r = tk_rules("arlington", NULL);
    for (int k = 0; k < 6; k++) {
        full_game(&r, 2 + k % 5, 700 + (uint64_t)k);
        for (int s = 0; s < g.players; s++)
            assert_int_equal(g.result.winner_bonus[s], 0);
    }
}

/* RULES 7.4-7.6 german: whole games to 1000, winner's bonus 100 (shared on a tie). */
static void test_7_4_german_full_game_invariants(void **state)
{
    (void)state;
    okr_rules r = tk_rules("german", NULL);
    for (int k = 0; k < 6; k++) {
        full_game(&r, 2 + k % 5, 800 + (uint64_t)k);
        int nwin = 0;
        for (int s = 0; s < g.players; s++)
            nwin += (g.result.winners >> s) & 1;
        for (int s = 0; s < g.players; s++)
            if ((g.result.winners >> s) & 1)
                assert_int_equal(g.result.winner_bonus[s], 100 / nwin);
    }
}

/* RULES 7.5: final total = game score + concealed bonuses + winner's bonus. */
static void test_7_5_final_total(void **state)
{
    (void)state;
    tie_game("laws");
    for (int s = 0; s < 2; s++)
        assert_int_equal(g.result.final_total[s], -125 + 0 + 100);
    concealed_hand("parlett", "max_hands=1", NULL);
    assert_int_equal(g.result.final_total[0], 170 + 250 + 0);
    assert_int_equal(g.result.final_total[1], 230 + 0 + 200);
}

/* RULES 7.6 laws settlement, rounding edge cases: final totals 150, -100 and -150 round to
 * 200, -100 and -100 (50 rounds up, also below zero); each player wins the rounded difference
 * from every lower player and pays every higher one; the sum is zero. */
static void test_7_6_laws_settlement_zero_sum(void **state)
{
    (void)state;
    okr_rules r = tk_rules("laws", "hand_size=10", "max_turns=1", "max_hands=1", NULL);
    /* seat 0: ten of 3..7 = -50; seat 1: ten of 8..K = -100;
     * seat 2: QS 100 + eight of 3..7 40 + TD 10 = -150 */
    const char *h[3] = {"3C 4C 5C 6C 7C 3D 4D 5D 6D 7D", "8C 9C TC JC QC KC 8H 9H TH JH",
                        "QS 3H 4H 5H 6H 7H 3S 4S 5S TD"};
    tk_start(&g, &r, 3, h, "KC", "KD");
    tk_pass_and_draw(&g);
    tk_do(&g, "discard KD");
    assert_int_equal(g.phase, OKR_PH_GAME_OVER);
    const okr_game_result *res = &g.result;
    assert_int_equal(res->score[0], -50);
    assert_int_equal(res->score[1], -100);
    assert_int_equal(res->score[2], -150);
    assert_int_equal(res->winners, 1);
    assert_int_equal(res->final_total[0], 150); /* -50 + 200 */
    assert_int_equal(res->final_total[1], -100);
    assert_int_equal(res->final_total[2], -150);
    /* rounded: 200, -100, -100 */
    assert_int_equal(res->settlement[0], 300 + 300);
    assert_int_equal(res->settlement[1], -300 + 0);
    assert_int_equal(res->settlement[2], -300 + 0);
    assert_int_equal(res->settlement[0] + res->settlement[1] + res->settlement[2], 0);
    assert_int_equal(res->placement[0], 1);
    assert_int_equal(res->placement[1], 2);
    assert_int_equal(res->placement[2], 3);
    /* not laws: no settlement */
    r = tk_rules("parlett", "hand_size=10", "max_turns=1", "max_hands=1", NULL);
    tk_start(&g, &r, 3, h, "KC", "KD");
    tk_pass_and_draw(&g);
    tk_do(&g, "discard KD");
    for (int s = 0; s < 3; s++)
        assert_int_equal(g.result.settlement[s], 0);
}

/* RULES 7.7: the max_hands cap ends the game; the highest total wins. */
static void test_7_7_max_hands_cap(void **state)
{
    (void)state;
    okr_rules r = tk_rules("laws", "max_hands=2", "target=60000", NULL);
    int hands = full_game(&r, 3, 4242);
    assert_int_equal(hands, 2);
    assert_int_equal(g.hand_no, 2);
    assert_int_equal(g.phase, OKR_PH_GAME_OVER);
    okr_refusal why;
    assert_int_not_equal(okr_next_hand(&g, NULL, 0, &why), OKR_OK);
    assert_int_equal(okr_legal(&g, tk_acts, OKR_MAX_ACTIONS), 0);
    okr_action a;
    memset(&a, 0, sizeof a);
    a.type = OKR_A_DRAW;
    a.seat = g.to_act;
    tk_refuse_act(&g, &a, "7.4");
}

/* ---- 8: reports ------------------------------------------------------------------------------ */

/* RULES 8.1: every action is accepted (with an event numbered in sequence) or refused with a
 * rule number and a one-line reason, leaving the game unchanged. */
static void test_8_1_accept_or_refuse_with_rule(void **state)
{
    (void)state;
    okr_rules r = tk_rules("laws", NULL);
    tk_start(&g, &r, 2, NULL, NULL, NULL);
    okr_action a;
    memset(&a, 0, sizeof a);
    a.type = 77;
    tk_refuse_act(&g, &a, "8.1");
    uint32_t seq = g.seq;
    okr_event ev = tk_do(&g, "pass");
    assert_int_equal(ev.seq, seq + 1);
    assert_int_equal(ev.type, OKR_A_PASS);
    assert_int_equal(ev.seat, 0);
    ev = tk_do(&g, "pass");
    assert_int_equal(ev.seq, seq + 2);
    tk_refuse(&g, "pass", "4.2");
    assert_int_equal(g.seq, seq + 2);
}

/* Melded credit of one card (RULES 7.1), written independently of the engine. */
static int credit(const okr_rules *r, int card, int as, int all_twos)
{
    int wild = card == OKR_JOKER || (r->wild_twos && OKR_RANK(card) == 2);
    if (card == OKR_JOKER)
        return 100;
    if (wild && all_twos)
        return 25;
    if (wild && as == TK_QS && r->values != OKR_VALUES_GERMAN)
        return 10;
    int rank = OKR_RANK(as);
    if (as == TK_QS)
        return 50;
    if (rank == 1)
        return r->values == OKR_VALUES_GERMAN ? 15 : 20;
    return rank >= 8 ? 10 : 5;
}

/* RULES 8.2: per hand, per player: melded, debit, bonuses, hand score, running total; the
 * totals run on over hands. Checked against an independent count of the table. */
static void test_8_2_hand_report_and_running_totals(void **state)
{
    (void)state;
    const char *names[4] = {"laws", "parlett", "arlington", "german"};
    for (int p = 0; p < 4; p++) {
        okr_rules r = tk_rules(names[p], "target=60000", NULL);
        okr_refusal why;
        assert_int_equal(okr_game_init(&g, &r, 3, 99 + (uint64_t)p, NULL, 0, &why), OKR_OK);
        uint64_t rng = 3;
        int32_t total[3] = {0};
        for (int hand = 0; hand < 3; hand++) {
            tk_play_hand(&g, &rng);
            assert_int_equal(g.phase, OKR_PH_HAND_OVER);
            int32_t melded[3] = {0};
            for (int m = 0; m < g.meld_n; m++) {
                const okr_meld *x = &g.meld[m];
                int twos = r.all_twos && x->type == OKR_SET && x->rank == 2;
                for (int i = 0; i < x->n; i++)
                    melded[x->owner] += credit(&r, x->card[i], x->as[i], twos);
            }
            for (int s = 0; s < 3; s++) {
                int32_t debit = 0;
                for (int k = 0; k < OKR_KINDS; k++)
                    debit -= g.hand[s][k] * okr_card_debit(&r, k);
                assert_int_equal(g.last.debit[s], debit);
                assert_int_equal(g.last.melded[s], melded[s]);
                assert_int_equal(g.last.score[s], melded[s] + debit + g.last.out_bonus[s]);
                total[s] += g.last.score[s];
                assert_int_equal(g.last.total[s], total[s]);
                assert_int_equal(g.score[s], total[s]);
            }
            assert_int_equal(okr_next_hand(&g, NULL, 0, &why), OKR_OK);
        }
    }
}

/* RULES 8.3: a view holds the own hand, every meld, the whole pile, hand sizes, stock size,
 * scores, dealer, turn and phase; never another hand or the stock's order. */
static void test_8_3_view_hides_other_hands_and_stock(void **state)
{
    (void)state;
    okr_rules r = tk_rules("laws", NULL);
    okr_refusal why;
    assert_int_equal(okr_game_init(&g, &r, 3, 123, NULL, 0, &why), OKR_OK);
    uint64_t rng = 9;
    for (int i = 0; i < 40 && g.phase != OKR_PH_HAND_OVER; i++) {
        okr_action a;
        tk_policy(&g, &rng, &a);
        tk_act(&g, &a);
    }
    for (int seat = 0; seat < 3; seat++) {
        okr_view v;
        okr_view_of(&g, seat, &v);
        assert_int_equal(v.seat, seat);
        assert_memory_equal(v.hand, g.hand[seat], OKR_KINDS);
        assert_memory_equal(v.hand_n, g.hand_n, sizeof v.hand_n);
        assert_int_equal(v.pile_n, g.pile_n);
        assert_memory_equal(v.pile, g.pile, g.pile_n);
        assert_int_equal(v.meld_n, g.meld_n);
        for (int m = 0; m < g.meld_n; m++)
            assert_memory_equal(&v.meld[m], &g.meld[m], sizeof(okr_meld));
        assert_int_equal(v.stock_n, g.stock_n);
        assert_int_equal(v.dealer, g.dealer);
        assert_int_equal(v.turn_seat, g.turn_seat);
        assert_int_equal(v.phase, g.phase);
        /* the view of another game that differs only in the other hands and the stock order
         * is the same: nothing of them leaks */
        okr_game *other = malloc(sizeof *other);
        assert_non_null(other);
        *other = g;
        int a = (seat + 1) % 3, b = (seat + 2) % 3;
        memcpy(other->hand[a], g.hand[b], OKR_KINDS); /* swap two other hands' contents */
        memcpy(other->hand[b], g.hand[a], OKR_KINDS);
        other->hand_n[a] = g.hand_n[a];
        other->hand_n[b] = g.hand_n[b];
        for (int i = 0; i < g.stock_n; i++)
            other->stock[i] = g.stock[g.stock_n - 1 - i];
        okr_view w;
        okr_view_of(other, seat, &w);
        free(other);
        assert_memory_equal(&v, &w, sizeof v);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_7_1_hand_debits_per_preset),
        cmocka_unit_test(test_7_1_laws_hand_scored_by_hand),
        cmocka_unit_test(test_7_2_parlett_no_bonus_on_first_turn),
        cmocka_unit_test(test_7_2_parlett_bonus_on_later_turn),
        cmocka_unit_test(test_7_1_arlington_hand_scored_by_hand),
        cmocka_unit_test(test_7_1_german_hand_scored_by_hand),
        cmocka_unit_test(test_7_1_german_deuce_as_queen_of_spades_scores_fifty),
        cmocka_unit_test(test_7_3_concealed_bonus_kept_apart_from_target),
        cmocka_unit_test(test_7_3_concealed_added_after_winner_known),
        cmocka_unit_test(test_7_4_tie_shares_winners_bonus),
        cmocka_unit_test(test_7_4_laws_full_game_invariants),
        cmocka_unit_test(test_7_4_parlett_full_game_invariants),
        cmocka_unit_test(test_7_4_arlington_full_game_invariants),
        cmocka_unit_test(test_7_4_german_full_game_invariants),
        cmocka_unit_test(test_7_5_final_total),
        cmocka_unit_test(test_7_6_laws_settlement_zero_sum),
        cmocka_unit_test(test_7_7_max_hands_cap),
        cmocka_unit_test(test_8_1_accept_or_refuse_with_rule),
        cmocka_unit_test(test_8_2_hand_report_and_running_totals),
        cmocka_unit_test(test_8_3_view_hides_other_hands_and_stock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
