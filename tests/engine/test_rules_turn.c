/* test_rules_turn.c - RULES 4 (a turn: draw, take the pile, meld, discard, Q of spades, end
 * of hand, stock exhausted, out of turn, the 4.9 cap and potential) and 5 (Jokers), rule by
 * rule, for every rummy preset where the rule differs. */
#include "testkit.h"

static okr_game g, g2;

/* ---- the pile scenario (4.3, 4.4, 5.x) -------------------------------------------------
 * Seat 0 lays 5H 6H 7H (meld 0) and 9C 9D JK=9H (meld 1; 9C 9D 9S where there is no Joker)
 * and discards TS; seat 1 draws JS and discards `x`. Seat 0 is then to draw, with the pile
 * AC TS x. */
static void pile_scenario(const okr_rules *r, const char *x)
{
    const char *h[2] = {r->jokers ? "5H 6H 7H 9C 9D JK KC KD 3S 4S 5S TD JC"
                                  : "5H 6H 7H 9C 9D 9S KC KD 3S 4S 5S TD JC",
                        "8H 9H KH 2D 3D 4D 6C 7C 8S 6S 7S QC QD"};
    char line[32];
    tk_start(&g, r, 2, h, "AC", "TS JS AD AH");
    tk_pass_and_draw(&g);
    tk_do(&g, "meld 5H 6H 7H");
    tk_do(&g, r->jokers ? "meld 9C 9D JK=9H" : "meld 9C 9D 9S");
    tk_do(&g, "discard TS");
    tk_do(&g, "draw");
    snprintf(line, sizeof line, "discard %s", x);
    tk_do(&g, line);
    assert_int_equal(g.to_act, 0);
    assert_int_equal(g.phase, OKR_PH_DRAW);
    assert_int_equal(g.pile_n, 3);
}

/* RULES 4.1: a turn is draw, melds, one discard; the player cannot meld his last cards (he
 * must keep one to discard): refused under 4.1 and never listed. */
static void test_4_1_turn_order_and_no_melding_the_last_card(void **state)
{
    (void)state;
    okr_rules r = tk_rules("laws", "hand_size=5", NULL);
    const char *h[2] = {"5H 6H 7H KC KD", NULL};
    tk_start(&g, &r, 2, h, "9S", "KS");
    tk_script(&g, "pass; pass");
    tk_refuse(&g, "meld 5H 6H 7H", "4.2"); /* melding comes after the draw */
    tk_do(&g, "draw");
    tk_refuse(&g, "draw", "4.1"); /* one draw per turn */
    tk_do(&g, "meld KC KD KS");
    tk_assert_hand(&g, 0, "5H 6H 7H");
    tk_refuse(&g, "meld 5H 6H 7H", "4.1"); /* would leave nothing to discard */
    assert_int_equal(tk_legal_count(&g, OKR_A_MELD), 0);
    tk_do(&g, "discard 7H"); /* the discard ends the turn */
    assert_int_equal(g.to_act, 1);
    assert_int_equal(g.phase, OKR_PH_DRAW);

    /* the last card cannot be added either */
    r = tk_rules("laws", "hand_size=4", NULL);
    const char *h2[2] = {"5H 6H 7H 8H", NULL};
    tk_start(&g, &r, 2, h2, "KS", "9H");
    tk_pass_and_draw(&g);
    tk_script(&g, "meld 5H 6H 7H; add 0 8H");
    tk_assert_hand(&g, 0, "9H");
    tk_refuse(&g, "add 0 9H", "4.1");
    assert_int_equal(tk_legal_count(&g, OKR_A_ADD), 0);
    assert_int_equal(tk_legal_count(&g, OKR_A_DISCARD), 1);
}

/* RULES 4.1: a pile take cannot empty the hand either: with the pile down to its top card, a
 * hand of 9C 9D cannot take a 9S into 9C 9D 9S (nothing would be left to discard). */
static void test_4_1_pile_take_cannot_empty_the_hand(void **state)
{
    (void)state;
    okr_rules r = tk_rules("laws", "hand_size=6", NULL);
    const char *h[2] = {"5H 6H 7H 8H 9C 9D", "JC JD KD KH 4D 9S"};
    tk_start(&g, &r, 2, h, "JH", "KC AC");
    tk_do(&g, "pass");
    tk_do(&g, "take new JC JD JH"); /* seat 1 takes the upcard */
    tk_do(&g, "discard 4D");
    tk_script(&g, "draw; meld 5H 6H 7H; add 1 8H; discard KC");
    tk_assert_hand(&g, 0, "9C 9D");
    tk_do(&g, "take new KD KH KC"); /* seat 1 takes the pile: the 4D goes to his hand */
    tk_do(&g, "discard 9S");
    assert_int_equal(g.pile_n, 1);
    assert_int_equal(g.to_act, 0);
    tk_refuse(&g, "take new 9C 9D 9S", "4.1");
    assert_int_equal(tk_legal_count(&g, OKR_A_TAKE), 0);
    tk_do(&g, "draw");
}

/* RULES 4.2: the draw takes the top stock card (or the pile, 4.3); nothing else before it. */
static void test_4_2_draw_top_of_stock(void **state)
{
    (void)state;
    okr_rules r = tk_rules("arlington", NULL);
    tk_start(&g, &r, 2, NULL, "AC", "QH KH");
    assert_int_equal(g.phase, OKR_PH_DRAW);
    tk_refuse(&g, "discard AC", "4.2");
    int before = g.stock_n;
    okr_event ev = tk_do(&g, "draw");
    assert_int_equal(ev.card, tk_kind("QH"));
    assert_int_equal(g.stock_n, before - 1);
    assert_int_equal(g.hand_n[0], 14);
    assert_int_equal(g.stock[g.stock_n - 1], tk_kind("KH")); /* the next card */
    assert_int_equal(g.pile_n, 1);
    /* the other seat learns that a card was drawn, not which (8.3) */
    okr_event red;
    okr_event_redact(&ev, 1, &red);
    assert_int_equal(red.card, OKR_NOCARD);
    okr_event_redact(&ev, 0, &red);
    assert_int_equal(red.card, tk_kind("QH"));
}

/* RULES 4.3 laws/parlett: (a) onto an own meld, (b) in place of the own Joker, (c) a new meld
 * with two or more hand cards; the rest of the pile goes to the hand. */
static void test_4_3_laws_parlett_take_pile_a_b_c(void **state)
{
    (void)state;
    const char *names[2] = {"laws", "parlett"};
    for (int p = 0; p < 2; p++) {
        okr_rules r = tk_rules(names[p], NULL);
        /* (a) */
        pile_scenario(&r, "8H");
        okr_event ev = tk_do(&g, "take add 0");
        assert_int_equal(ev.taken, 2);
        assert_int_equal(g.pile_n, 0);
        tk_assert_meld(&g, 0, 0, "5H 6H 7H 8H");
        tk_assert_hand(&g, 0, "KC KD 3S 4S 5S TD JC AC TS");
        assert_int_equal(g.phase, OKR_PH_PLAY);
        /* (b) */
        pile_scenario(&r, "9H");
        tk_refuse(&g, "take joker 0", "5.2"); /* meld 0 has no Joker */
        tk_do(&g, "take joker 1");
        tk_assert_meld(&g, 1, 0, "9C 9D 9H");
        assert_int_equal(g.meld[1].as[2], tk_kind("9H"));
        tk_assert_hand(&g, 0, "KC KD 3S 4S 5S TD JC AC TS JK");
        /* (c) */
        pile_scenario(&r, "KH");
        tk_do(&g, "take new KC KD KH");
        tk_assert_meld(&g, 2, 0, "KC KD KH");
        tk_assert_hand(&g, 0, "3S 4S 5S TD JC AC TS");
    }
}

/* RULES 4.3: the top card must be melded at once: a take whose meld lacks it, or a plain
 * take, is refused under 4.3. */
static void test_4_3_take_without_melding_top_card_refused(void **state)
{
    (void)state;
    const char *names[4] = {"laws", "parlett", "arlington", "german"};
    for (int p = 0; p < 4; p++) {
        okr_rules r = tk_rules(names[p], NULL);
        pile_scenario(&r, "KH");
        tk_refuse(&g, "take new 3S 4S 5S", "4.3");
        okr_action plain;
        memset(&plain, 0, sizeof plain);
        plain.type = OKR_A_TAKE;
        plain.how = OKR_HOW_PLAIN;
        plain.card = (uint8_t)tk_kind("KH");
        tk_refuse_act(&g, &plain, "4.3");
    }
}

/* RULES 4.3 arlington: only (c): the top card with at least two hand cards in a new meld. */
static void test_4_3_arlington_only_new_meld(void **state)
{
    (void)state;
    okr_rules r = tk_rules("arlington", NULL);
    pile_scenario(&r, "8H");
    tk_refuse(&g, "take add 0", "4.3");
    okr_action j;
    memset(&j, 0, sizeof j);
    j.type = OKR_A_TAKE;
    j.how = OKR_HOW_JOKER;
    j.card = (uint8_t)tk_kind("8H");
    j.as = OKR_JOKER;
    j.meld = 1;
    tk_refuse_act(&g, &j, "4.3");
    for (int i = 0, n = tk_legal(&g); i < n; i++)
        if (tk_acts[i].type == OKR_A_TAKE)
            assert_int_equal(tk_acts[i].how, OKR_HOW_NEW);
    pile_scenario(&r, "KH");
    tk_do(&g, "take new KC KD KH");
    tk_assert_hand(&g, 0, "3S 4S 5S TD JC AC TS");
}

/* RULES 4.3 german: (a) and (c); there is no Joker for (b). */
static void test_4_3_german_take_a_and_c(void **state)
{
    (void)state;
    okr_rules r = tk_rules("german", NULL);
    pile_scenario(&r, "8H");
    okr_action j;
    memset(&j, 0, sizeof j);
    j.type = OKR_A_TAKE;
    j.how = OKR_HOW_JOKER;
    j.card = (uint8_t)tk_kind("8H");
    j.as = OKR_JOKER;
    j.meld = 1;
    tk_refuse_act(&g, &j, "4.3");
    tk_do(&g, "take add 0");
    tk_assert_meld(&g, 0, 0, "5H 6H 7H 8H");
    tk_assert_hand(&g, 0, "KC KD 3S 4S 5S TD JC AC TS");
}

/* RULES 4.4: after drawing, new melds, additions to own melds and Joker exchanges in any
 * order, within 3.2-3.4. */
static void test_4_4_melding_in_any_order(void **state)
{
    (void)state;
    okr_rules r = tk_rules("laws", NULL);
    const char *h[2] = {"5H 6H 7H 9C 9D JK 8H 9H 3S 4S 5S TD JC",
                        "KC KD KH QC QD 3C 4C 5C 6D 7D 8D 9S TH"};
    tk_start(&g, &r, 2, h, "AC", "TS JS AD");
    tk_pass_and_draw(&g);
    tk_script(&g, "meld 5H 6H 7H; meld 9C 9D JK=9H; discard TS");
    tk_do(&g, "draw");
    tk_do(&g, "discard JS");
    tk_refuse(&g, "replace 1", "4.2"); /* not before the draw */
    tk_refuse(&g, "add 0 8H", "4.2");
    tk_do(&g, "draw");
    tk_do(&g, "replace 1");     /* 9H in the Joker's place, Joker to hand (5.2) */
    tk_do(&g, "add 0 8H");      /* an addition */
    tk_do(&g, "meld 3S 4S 5S"); /* a new meld */
    tk_do(&g, "add 2 JK=6S");   /* the Joker melded again */
    tk_assert_meld(&g, 0, 0, "5H 6H 7H 8H");
    tk_assert_meld(&g, 1, 0, "9C 9D 9H");
    tk_assert_meld(&g, 2, 0, "3S 4S 5S JK=6S");
    tk_assert_hand(&g, 0, "TD JC AD");
    tk_do(&g, "discard AD");
    assert_int_equal(g.to_act, 1);
}

/* ---- RULES 4.5: the Queen of Spades ------------------------------------------------------
 * Scenario (hand_size 7): seat 0 holds QS 5H 6H 7H 9C 9D KC and draws 8H; it lays 5H 6H 7H
 * + 8H (four cards, legal in arlington too) and keeps QS 9C 9D KC: QS with other cards.
 * It discards KC; next turn it draws 9S, lays 9C 9D 9S and holds only QS, which it discards
 * to go out. qs_free: the option lets QS go at any time. */
static void qs_scenario(const char *preset, const char *opt, int qs_free)
{
    okr_rules r = tk_rules(preset, "hand_size=7", opt, NULL);
    const char *h[2] = {"QS 5H 6H 7H 9C 9D KC", "KD KH 3C 4D TS JD 8C"};
    tk_start(&g, &r, 2, h, "TC", "8H 4S 9S");
    tk_pass_and_draw(&g);
    tk_assert_hand(&g, 0, "QS 5H 6H 7H 9C 9D KC 8H");
    if (qs_free) {
        g2 = g;
        tk_do(&g2, "discard QS");
        assert_int_equal(g2.pile[g2.pile_n - 1], TK_QS);
    } else {
        tk_refuse(&g, "discard QS", "4.5");
        for (int i = 0, n = tk_legal(&g); i < n; i++)
            assert_false(tk_acts[i].type == OKR_A_DISCARD && tk_acts[i].card == TK_QS);
    }
    tk_script(&g, "meld 5H 6H 7H; add 0 8H");
    tk_assert_hand(&g, 0, "QS 9C 9D KC");
    if (qs_free) {
        g2 = g;
        tk_do(&g2, "discard QS");
    } else {
        tk_refuse(&g, "discard QS", "4.5");
    }
    tk_do(&g, "discard KC");
    tk_script(&g, "draw; discard 4S; draw; meld 9C 9D 9S");
    tk_assert_hand(&g, 0, "QS");
    /* the final discard that goes out: allowed under every option (Decision: a hand of only
     * Queens of Spades may always discard one) */
    okr_action d = tk_parse(&g, "discard QS");
    assert_true(tk_legal_has(&g, &d));
    okr_event ev = tk_act(&g, &d);
    assert_int_equal(ev.ended, OKR_END_OUT);
    assert_int_equal(g.last.winner, 0);
}

/* Two Queens of Spades and nothing else (hand_size 5): discardable under every option (laws:
 * the pair; the others: the Decision). Also QS + one other card: refused unless `any`. */
static void qs_pair(const char *preset, const char *opt, int qs_free)
{
    okr_rules r = tk_rules(preset, "hand_size=5", opt, NULL);
    const char *h[2] = {"QS QS 5H 6H 7H", "KC KD 3C 4D 9S"};
    tk_start(&g, &r, 2, h, "TC", "8H 4S");
    tk_pass_and_draw(&g);
    tk_script(&g, "meld 5H 6H 7H; add 0 8H");
    tk_assert_hand(&g, 0, "QS QS");
    tk_do(&g, "discard QS");
    tk_assert_hand(&g, 0, "QS");
    assert_int_equal(g.phase, OKR_PH_DRAW);
    tk_do(&g, "draw"); /* seat 1 */
    tk_do(&g, "discard 4S");
    tk_do(&g, "draw"); /* seat 0: QS + the next stock card */
    assert_int_equal(g.hand_n[0], 2);
    if (qs_free)
        tk_do(&g, "discard QS");
    else
        tk_refuse(&g, "discard QS", "4.5");
}

/* RULES 4.5 laws (out_or_pair): the Q of spades only as the discard that goes out or from a
 * hand of exactly two Queens of Spades. */
static void test_4_5_laws_qs_discard_only_to_go_out(void **state)
{
    (void)state;
    assert_int_equal(tk_rules("laws", NULL).qs_discard, OKR_QS_OUT_OR_PAIR);
    qs_scenario("laws", NULL, 0);
    qs_pair("laws", NULL, 0);
}

/* RULES 4.5 parlett (last_card): only when it is the last card in the hand. */
static void test_4_5_parlett_qs_only_as_last_card(void **state)
{
    (void)state;
    assert_int_equal(tk_rules("parlett", NULL).qs_discard, OKR_QS_LAST_CARD);
    qs_scenario("parlett", NULL, 0);
    qs_pair("parlett", NULL, 0); /* QS QS: the Decision (only Queens of Spades in hand) */
}

/* RULES 4.5 arlington (never): never, except by the Decision (a hand of only QS). */
static void test_4_5_arlington_qs_never(void **state)
{
    (void)state;
    assert_int_equal(tk_rules("arlington", NULL).qs_discard, OKR_QS_NEVER);
    qs_scenario("arlington", NULL, 0);
    qs_pair("arlington", NULL, 0);
}

/* RULES 4.5 german (any): no restriction. */
static void test_4_5_german_qs_any(void **state)
{
    (void)state;
    assert_int_equal(tk_rules("german", NULL).qs_discard, OKR_QS_ANY);
    qs_scenario("german", NULL, 1);
    qs_pair("german", NULL, 1);
}

/* RULES 4.5: the option itself, on one preset, gives the same four behaviours; Decision: a
 * hand of only Queens of Spades may always discard one. */
static void test_4_5_qs_discard_option_all_modes_and_decision(void **state)
{
    (void)state;
    const char *modes[4] = {"any", "out_or_pair", "last_card", "never"};
    for (int m = 0; m < 4; m++) {
        char opt[32];
        snprintf(opt, sizeof opt, "qs_discard=%s", modes[m]);
        qs_scenario("laws", opt, m == 0);
        qs_pair("laws", opt, m == 0);
        qs_scenario("german", opt, m == 0);
    }
}

/* RULES 4.6: the hand ends at once when a player goes out; nobody melds afterwards. */
static void test_4_6_hand_ends_when_a_player_goes_out(void **state)
{
    (void)state;
    okr_rules r = tk_rules("laws", "hand_size=4", NULL);
    const char *h[2] = {"5H 6H 7H 8H", "9C 9D 9S KD"};
    tk_start(&g, &r, 2, h, "KS", "9H");
    tk_pass_and_draw(&g);
    tk_script(&g, "meld 5H 6H 7H; add 0 8H");
    okr_event ev = tk_do(&g, "discard 9H");
    assert_int_equal(ev.ended, OKR_END_OUT);
    assert_int_equal(g.phase, OKR_PH_HAND_OVER);
    assert_int_equal(g.last.ended, OKR_END_OUT);
    assert_int_equal(g.last.winner, 0);
    assert_int_equal(okr_legal(&g, tk_acts, OKR_MAX_ACTIONS), 0);
    /* seat 1 may not lay its nines now */
    okr_action m;
    memset(&m, 0, sizeof m);
    m.type = OKR_A_MELD;
    m.seat = 1;
    m.u.spec.type = OKR_SET;
    m.u.spec.n = (uint8_t)tk_cards("9C 9D 9S", m.u.spec.card, OKR_SPEC_CARDS);
    memcpy(m.u.spec.as, m.u.spec.card, 3);
    tk_refuse_act(&g, &m, "4.6");
    m.type = OKR_A_DRAW;
    tk_refuse_act(&g, &m, "4.6");
    /* seat 1 is debited the whole hand: 9+9+9 = 30, KD 10 -> -40 */
    assert_int_equal(g.last.debit[1], -40);
    assert_int_equal(g.last.melded[1], 0);
}

/* RULES 4.7: the player who draws the last stock card may meld, then discards; the hand ends
 * and nobody gets the going-out bonus, even when that discard empties the hand. */
static void test_4_7_stock_exhausted_no_bonus(void **state)
{
    (void)state;
    /* 4 x 12 + 1 = 49 of 52 cards dealt: the stock holds 3 */
    okr_rules r = tk_rules("laws", "decks=1", "jokers=0", "hand_size=12", NULL);
    const char *h[4] = {NULL, NULL, "3C 4C 5C 3D 4D 5D 6H 7H 8H 9S TS JS", NULL};
    tk_start(&g, &r, 4, h, "KD", "QD QH KS");
    assert_int_equal(g.stock_n, 3);
    tk_script(&g, "pass; pass; pass; pass; draw; discard QD; draw; discard QH");
    assert_int_equal(g.to_act, 2);
    okr_event ev = tk_do(&g, "draw");
    assert_int_equal(ev.card, tk_kind("KS"));
    assert_int_equal(g.stock_n, 0);
    tk_script(&g, "meld 3C 4C 5C; meld 3D 4D 5D; meld 6H 7H 8H; meld 9S TS JS");
    tk_assert_hand(&g, 2, "KS");
    ev = tk_do(&g, "discard KS");
    assert_int_equal(ev.ended, OKR_END_STOCK);
    assert_int_equal(g.phase, OKR_PH_HAND_OVER);
    assert_int_equal(g.last.ended, OKR_END_STOCK);
    assert_int_equal(g.last.winner, -1);
    for (int s = 0; s < 4; s++) {
        assert_int_equal(g.last.out_bonus[s], 0);
        assert_int_equal(g.last.concealed[s], 0);
    }
    /* seat 2: 3C 4C 5C 15, 3D 4D 5D 15, 6H 7H 8H 5+5+10 = 20, 9S TS JS 30: 80 */
    assert_int_equal(g.last.melded[2], 80);
    assert_int_equal(g.last.debit[2], 0);
    assert_int_equal(g.last.score[2], 80);
    /* nobody went out: the deal passes left (2.3) */
    okr_refusal why;
    assert_int_equal(okr_next_hand(&g, NULL, 0, &why), OKR_OK);
    assert_int_equal(g.dealer, 0);
}

/* RULES 4.8: out-of-turn actions are refused (german claims are the exception, 6.G). */
static void test_4_8_out_of_turn_refused(void **state)
{
    (void)state;
    const char *names[4] = {"laws", "parlett", "arlington", "german"};
    for (int p = 0; p < 4; p++) {
        okr_rules r = tk_rules(names[p], NULL);
        tk_start(&g, &r, 3, NULL, NULL, NULL);
        assert_int_equal(g.to_act, 0);
        tk_refuse_as(&g, 1, g.phase == OKR_PH_UPCARD ? "pass" : "draw", "4.8");
        tk_refuse_as(&g, 2, "draw", "4.8");
        tk_pass_and_draw(&g);
        tk_refuse_as(&g, 1, "draw", "4.8");
        int n = tk_legal(&g);
        okr_action d = tk_acts[n - 1];
        d.seat = 1;
        tk_refuse_act(&g, &d, "4.8");
        /* a claim outside the german claim window */
        okr_action c;
        memset(&c, 0, sizeof c);
        c.type = OKR_A_CLAIM;
        c.seat = 0;
        c.how = OKR_HOW_NEW;
        tk_refuse_act(&g, &c, "4.8");
    }
}

/* RULES 4.9: the max_turns cap ends the hand as in 4.7 (no bonus, deal passes left). */
static void test_4_9_max_turns_cap_ends_hand(void **state)
{
    (void)state;
    okr_rules r = tk_rules("laws", "max_turns=3", NULL);
    const char *h[2] = {"5H 6H 7H 9C 9D JC QD 3S 4S 5S TD JD KC",
                        "8H 9H KH 2D 3D 4D 6C 7C 8S 6S 7S QC KD"};
    tk_start(&g, &r, 2, h, "AC", "TS JS AD AH");
    tk_pass_and_draw(&g);
    tk_script(&g, "meld 5H 6H 7H; discard TS");
    assert_int_equal(g.turns, 1);
    tk_script(&g, "draw; discard JS");
    assert_int_equal(g.turns, 2);
    tk_script(&g, "draw; meld 3S 4S 5S");
    okr_event ev = tk_do(&g, "discard AD");
    assert_int_equal(g.turns, 3);
    assert_int_equal(ev.ended, OKR_END_CAP);
    assert_int_equal(g.last.ended, OKR_END_CAP);
    assert_int_equal(g.last.winner, -1);
    assert_int_equal(g.last.out_bonus[0], 0);
    /* seat 0: melded 5H 6H 7H 15 + 3S 4S 5S 15 = 30; hand 9C 9D JC QD TD JD KC = -70 */
    assert_int_equal(g.last.melded[0], 30);
    assert_int_equal(g.last.debit[0], -70);
    assert_int_equal(g.last.score[0], -40);
    /* seat 1: 8H 9H KH 8S QC KD 6 x 10 = 60, 2D 20, 3D 4D 6C 7C 6S 7S 6 x 5 = 30: -110 */
    assert_int_equal(g.last.debit[1], -110);
    assert_int_equal(g.last.score[1], -110);
    assert_int_equal(g.last.total[1], -110);
    assert_int_equal(g.last.total[0], -40);
}

/* RULES 4.9: in the rummy family every turn strictly lowers
 * stock + 2 x (naturals not in melds) + (wild cards not in melds); no action raises it, so
 * the 2000-turn cap is never reached. Random games with a greedy policy, every preset. */
static void test_4_9_potential_strictly_decreases_each_turn(void **state)
{
    (void)state;
    const char *names[4] = {"laws", "parlett", "arlington", "german"};
    int games = getenv("OKR_SANITIZE") ? 3 : 12;
    for (int p = 0; p < 4; p++)
        for (int k = 0; k < games; k++) {
            okr_rules r = tk_rules(names[p], NULL);
            int players = 2 + k % 3;
            okr_refusal why;
            uint64_t rng = 1000 + (uint64_t)k * 7 + (uint64_t)p;
            assert_int_equal(okr_game_init(&g, &r, players, rng * 31, NULL, 0, &why), OKR_OK);
            long pot = tk_potential(&g), at_turn_end = pot + 1;
            int turns = 0;
            while (g.phase != OKR_PH_HAND_OVER && g.phase != OKR_PH_GAME_OVER) {
                okr_action a;
                tk_policy(&g, &rng, &a);
                okr_event ev = tk_act(&g, &a);
                long now = tk_potential(&g);
                assert_true(now <= pot); /* no action raises it */
                pot = now;
                if (ev.type == OKR_A_DISCARD) {
                    assert_true(now < at_turn_end); /* each turn lowers it */
                    at_turn_end = now;
                    turns++;
                }
            }
            assert_int_equal(turns, g.turns);
            assert_true(g.last.ended == OKR_END_OUT || g.last.ended == OKR_END_STOCK);
            assert_true(g.turns < 2000);
        }
}

/* ---- RULES 5: Jokers ---------------------------------------------------------------------- */

/* RULES 5.1: deuces once melded are what they were declared and never move: no exchange, by
 * hand or by the pile, for the natural a 2 stands for; the refusal names 5.1 (RULES 8.1). */
static void test_5_1_melded_deuces_never_move(void **state)
{
    (void)state;
    okr_rules r = tk_rules("laws", NULL);
    const char *h[2] = {"5H 2C 7H 9C 9D 2D 6H KC 3S 4S 5S TD JC",
                        "8H 9H KH 2H 3D 4D 6C 7C 8S 6S 7S QC 9S"};
    tk_start(&g, &r, 2, h, "AC", "TS JS AD AH");
    tk_pass_and_draw(&g);
    tk_script(&g, "meld 5H 2C=6H 7H; meld 9C 9D 2D=9S; discard TS; draw; discard 9S");
    okr_action t;
    memset(&t, 0, sizeof t);
    t.type = OKR_A_TAKE;
    t.how = OKR_HOW_JOKER;
    t.card = (uint8_t)tk_kind("9S");
    t.as = OKR_JOKER;
    t.meld = 1;
    tk_refuse_act(&g, &t, "5.1"); /* the 2D standing for 9S stays */
    tk_do(&g, "draw");
    okr_action x;
    memset(&x, 0, sizeof x);
    x.type = OKR_A_REPLACE;
    x.card = (uint8_t)tk_kind("6H");
    x.as = OKR_JOKER;
    x.meld = 0;
    tk_refuse_act(&g, &x, "5.1"); /* the 6H cannot take the 2C's place */
    assert_int_equal(tk_legal_count(&g, OKR_A_REPLACE), 0);
    tk_assert_meld(&g, 0, 0, "5H 2C=6H 7H");
}

/* RULES 5.2: on his own turn after drawing, the Joker's owner may put the natural it stands
 * for in its place and take the Joker into hand, to meld again or keep; parlett too. */
static void test_5_2_replace_own_joker(void **state)
{
    (void)state;
    const char *names[2] = {"laws", "parlett"};
    for (int p = 0; p < 2; p++) {
        okr_rules r = tk_rules(names[p], NULL);
        const char *h[2] = {"5H JK 7H 9C 9D KC 3S 4S 5S TD JC QD 8D",
                            "8H 9H KH 2H 3D 4D 6C 7C 8S 6S 7S QC 9S"};
        tk_start(&g, &r, 2, h, "AC", "TS JS 6H");
        tk_pass_and_draw(&g);
        tk_do(&g, "meld 5H JK=6H 7H");
        tk_refuse(&g, "replace 0", "5.2"); /* no 6H in hand */
        okr_action x;
        memset(&x, 0, sizeof x);
        x.type = OKR_A_REPLACE;
        x.card = (uint8_t)tk_kind("5S");
        x.as = OKR_JOKER;
        tk_refuse_act(&g, &x, "5.2"); /* the Joker does not stand for 5S */
        tk_script(&g, "discard TS; draw; discard 9S");
        tk_refuse(&g, "replace 0", "4.2"); /* after drawing only */
        tk_do(&g, "draw");                 /* 6H */
        tk_do(&g, "replace 0");
        tk_assert_meld(&g, 0, 0, "5H 6H 7H");
        assert_int_equal(g.hand[0][OKR_JOKER], 1);
        tk_do(&g, "meld 3S 4S 5S");
        tk_do(&g, "add 1 JK=6S"); /* melded again */
        tk_assert_meld(&g, 1, 0, "3S 4S 5S JK=6S");
        tk_do(&g, "discard QD");
    }
    /* no Joker in arlington or german: no exchange */
    okr_rules r = tk_rules("german", NULL);
    tk_start(&g, &r, 2, NULL, NULL, NULL);
    tk_pass_and_draw(&g);
    okr_action x;
    memset(&x, 0, sizeof x);
    x.type = OKR_A_REPLACE;
    x.card = (uint8_t)tk_kind("5S");
    x.as = OKR_JOKER;
    tk_refuse_act(&g, &x, "5.2");
}

/* RULES 5.3: nobody may take an opponent's Joker, by exchange or by the pile. */
static void test_5_3_no_taking_opponents_joker(void **state)
{
    (void)state;
    okr_rules r = tk_rules("laws", NULL);
    const char *h[2] = {"5H JK 7H 6H 9C 9D KC 3S 4S 5S TD JC QD",
                        "8H 9H KH 6H 3D 4D 6C 7C 8S 6S 7S QC 9S"};
    tk_start(&g, &r, 2, h, "AC", "TS JS AD");
    tk_pass_and_draw(&g);
    tk_script(&g, "meld 5H JK=6H 7H; discard 6H");
    tk_refuse(&g, "take joker 0", "5.3"); /* the 6H on top for seat 0's Joker */
    tk_do(&g, "draw");
    tk_refuse(&g, "replace 0", "5.3"); /* seat 1 holds the other 6H */
    for (int i = 0, n = tk_legal(&g); i < n; i++)
        assert_int_not_equal(tk_acts[i].type, OKR_A_REPLACE);
    tk_assert_meld(&g, 0, 0, "5H JK=6H 7H");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_4_1_turn_order_and_no_melding_the_last_card),
        cmocka_unit_test(test_4_1_pile_take_cannot_empty_the_hand),
        cmocka_unit_test(test_4_2_draw_top_of_stock),
        cmocka_unit_test(test_4_3_laws_parlett_take_pile_a_b_c),
        cmocka_unit_test(test_4_3_take_without_melding_top_card_refused),
        cmocka_unit_test(test_4_3_arlington_only_new_meld),
        cmocka_unit_test(test_4_3_german_take_a_and_c),
        cmocka_unit_test(test_4_4_melding_in_any_order),
        cmocka_unit_test(test_4_5_laws_qs_discard_only_to_go_out),
        cmocka_unit_test(test_4_5_parlett_qs_only_as_last_card),
        cmocka_unit_test(test_4_5_arlington_qs_never),
        cmocka_unit_test(test_4_5_german_qs_any),
        cmocka_unit_test(test_4_5_qs_discard_option_all_modes_and_decision),
        cmocka_unit_test(test_4_6_hand_ends_when_a_player_goes_out),
        cmocka_unit_test(test_4_7_stock_exhausted_no_bonus),
        cmocka_unit_test(test_4_8_out_of_turn_refused),
        cmocka_unit_test(test_4_9_max_turns_cap_ends_hand),
        cmocka_unit_test(test_4_9_potential_strictly_decreases_each_turn),
        cmocka_unit_test(test_5_1_melded_deuces_never_move),
        cmocka_unit_test(test_5_2_replace_own_joker),
        cmocka_unit_test(test_5_3_no_taking_opponents_joker),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
