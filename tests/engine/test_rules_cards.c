/* test_rules_cards.c - RULES 1 (cards) and 2 (players, seats, deal), rule by rule, through
 * the public API (okr.h) and the helpers of testkit.h. */
#include "testkit.h"

static okr_game g1, g2;

static const char *const presets[5] = {"laws", "parlett", "arlington", "german", "gin"};

/* RULES 1.1: a pack is the 52 standard cards, A..K in four suits; kind = suit*13 + rank-1. */
static void test_1_1_pack_is_52_standard_cards(void **state)
{
    (void)state;
    okr_rules r = tk_rules("gin", NULL);
    uint8_t pack[OKR_MAX_CARDS];
    int seen[OKR_KINDS] = {0};
    assert_int_equal(okr_pack_size(&r), 52);
    assert_int_equal(okr_shuffle(&r, 7, 1, pack, OKR_MAX_CARDS), 52);
    for (int i = 0; i < 52; i++)
        seen[pack[i]]++;
    for (int k = 0; k < 52; k++)
        assert_int_equal(seen[k], 1);
    assert_int_equal(seen[OKR_JOKER], 0);
    /* kinds: clubs 0, diamonds 1, hearts 2, spades 3; ace rank 1 */
    assert_int_equal(OKR_KIND(0, 1), 0);
    assert_int_equal(OKR_KIND(3, 12), 50);
    assert_int_equal(tk_kind("QS"), 50);
    assert_int_equal(tk_kind("KD"), 25);
    assert_int_equal(OKR_RANK(tk_kind("TH")), 10);
    assert_int_equal(OKR_SUIT(tk_kind("TH")), 2);
    char b[3];
    assert_string_equal(okr_card_str(0, b), "AC");
    assert_string_equal(okr_card_str(22, b), "TD");
    assert_string_equal(okr_card_str(51, b), "KS");
    assert_string_equal(okr_card_str(OKR_JOKER, b), "JK");
    /* a pack holding something that is no card is refused */
    okr_refusal why;
    pack[5] = 60;
    assert_int_equal(okr_game_init(&g1, &r, 2, 1, pack, 52, &why), OKR_EINVAL);
    assert_string_equal(why.rule, "1.1");
}

/* RULES 1.2: laws/parlett two packs + one Joker (105), the laws Joker optional; arlington and
 * german 104, gin 52. The pack passed in must be exactly that multiset. */
static void test_1_2_pack_sizes_per_preset(void **state)
{
    (void)state;
    const int size[5] = {105, 105, 104, 104, 52};
    const int jokers[5] = {1, 1, 0, 0, 0};
    for (int p = 0; p < 5; p++) {
        okr_rules r = tk_rules(presets[p], NULL);
        uint8_t pack[OKR_MAX_CARDS];
        int count[OKR_KINDS] = {0};
        assert_int_equal(okr_pack_size(&r), size[p]);
        assert_int_equal(okr_shuffle(&r, 99, 1, pack, OKR_MAX_CARDS), size[p]);
        for (int i = 0; i < size[p]; i++)
            count[pack[i]]++;
        for (int k = 0; k < 52; k++)
            assert_int_equal(count[k], p == 4 ? 1 : 2);
        assert_int_equal(count[OKR_JOKER], jokers[p]);
    }
    okr_refusal why;
    okr_rules r = tk_rules("laws", "jokers=0", NULL);
    assert_int_equal(okr_pack_size(&r), 104);
    assert_int_equal(okr_rules_set(&r, "jokers", "2", &why), OKR_EINVAL);
    assert_string_equal(why.rule, "1.2");
    /* arlington/german values have no Joker: a Joker there is a bad configuration */
    r = tk_rules("arlington", NULL);
    assert_int_equal(okr_rules_set(&r, "jokers", "1", &why), OKR_OK);
    assert_int_equal(okr_rules_check(&r, 2, &why), OKR_EINVAL);
    assert_string_equal(why.rule, "1.2");
    /* an explicit pack of the wrong size, or with a card too often, is refused */
    r = tk_rules("laws", NULL);
    uint8_t pack[OKR_MAX_CARDS];
    int n = okr_shuffle(&r, 3, 1, pack, OKR_MAX_CARDS);
    assert_int_equal(okr_game_init(&g1, &r, 2, 1, pack, n - 1, &why), OKR_EINVAL);
    assert_string_equal(why.rule, "1.2");
    for (int i = 0; i < n; i++)
        if (pack[i] == OKR_JOKER)
            pack[i] = 0; /* three ace of clubs, no Joker */
    assert_int_equal(okr_game_init(&g1, &r, 2, 1, pack, n, &why), OKR_EINVAL);
    assert_string_equal(why.rule, "1.2");
}

/* RULES 1.3: copies of a card are interchangeable: hands are multisets, two KH in one set. */
static void test_1_3_copies_are_interchangeable(void **state)
{
    (void)state;
    okr_rules r = tk_rules("laws", NULL);
    const char *a[2] = {"KH 5C KH KS 9D 9C 3H 4D 6S 7S JC JD TC", "AD AD"};
    const char *b[2] = {"5C KH KH KS 9C 9D 3H 4D 6S 7S JC JD TC", "AD AD"};
    tk_start(&g1, &r, 2, a, "8C", NULL);
    tk_start(&g2, &r, 2, b, "8C", NULL);
    assert_int_equal(g1.hand[0][tk_kind("KH")], 2);
    /* the order in which equal multisets were dealt leaves no trace */
    assert_memory_equal(&g1, &g2, sizeof g1);
    assert_int_equal(okr_digest(&g1), okr_digest(&g2));
    tk_pass_and_draw(&g1);
    tk_do(&g1, "meld KH KH KS"); /* two copies of one card in one set */
    tk_assert_meld(&g1, 0, 0, "KH KH KS");
    assert_int_equal(g1.hand[0][tk_kind("KH")], 0);
}

/* RULES 1.4: in laws, parlett, arlington and german every 2 and the Joker are wild; gin has
 * no wild cards (a 2 is a plain two there). */
static void test_1_4_twos_and_joker_are_wild(void **state)
{
    (void)state;
    for (int p = 0; p < 4; p++) {
        okr_rules r = tk_rules(presets[p], NULL);
        const char *h[2] = {r.jokers ? "5H 2C 7H 9C 9D JK" : "5H 2C 7H 9C 9D", NULL};
        tk_start(&g1, &r, 2, h, "KC", NULL);
        assert_true(okr_card_debit(&r, tk_kind("2D")) >= 15); /* a wild card in hand costs */
        tk_pass_and_draw(&g1);
        tk_do(&g1, "meld 5H 2C=6H 7H"); /* the 2 of clubs stands for the 6 of hearts */
        tk_assert_meld(&g1, 0, 0, "5H 2C=6H 7H");
        if (r.jokers) {
            tk_do(&g1, "meld 9C JK=9H 9D");
            tk_assert_meld(&g1, 1, 0, "9C 9D JK=9H");
        }
    }
    /* without wild twos (an override) a 2 cannot stand for another card */
    okr_rules r = tk_rules("laws", "wild_twos=0", NULL);
    const char *h[2] = {"5H 2C 7H 9C", NULL};
    tk_start(&g1, &r, 2, h, "KC", NULL);
    tk_pass_and_draw(&g1);
    tk_refuse(&g1, "meld 5H 2C=6H 7H", "3.5");
    /* gin: no wild twos; A-2-3 of clubs is a natural run */
    r = tk_rules("gin", NULL);
    assert_int_equal(r.wild_twos, 0);
    okr_refusal why;
    assert_int_equal(okr_rules_set(&r, "wild_twos", "1", &why), OKR_EINVAL);
    assert_string_equal(why.rule, "G1");
    uint8_t hand[OKR_KINDS];
    okr_ginmeld m[OKR_GIN_MELDS];
    int nm;
    tk_multiset("AC 2C 3C 2D 2H 2S 9S TS JS KD", hand);
    assert_int_equal(okr_gin_best(&r, hand, m, &nm), 10); /* only KD is deadwood */
}

/* RULES 1.5: decks 1..3; players x hand_size + 2 <= cards, with a message naming the
 * option; arlington needs decks=3 for eight players. */
static void test_1_5_decks_and_too_many_players_for_the_pack(void **state)
{
    (void)state;
    okr_refusal why;
    okr_rules r = tk_rules("laws", NULL);
    assert_int_equal(r.decks, 2);
    assert_int_equal(tk_rules("gin", NULL).decks, 1);
    assert_int_equal(okr_rules_set(&r, "decks", "3", &why), OKR_OK);
    assert_int_equal(okr_pack_size(&r), 157);
    assert_int_equal(okr_rules_set(&r, "decks", "4", &why), OKR_EINVAL);
    assert_string_equal(why.rule, "1.5");
    tk_assert_contains(why.reason, "decks");
    assert_int_equal(okr_rules_set(&r, "decks", "0", &why), OKR_EINVAL);
    assert_string_equal(why.rule, "1.5");

    /* arlington, eight players: 8 x 13 + 2 = 106 > 104 */
    r = tk_rules("arlington", NULL);
    assert_int_equal(okr_rules_check(&r, 8, &why), OKR_EINVAL);
    assert_string_equal(why.rule, "1.5");
    tk_assert_contains(why.reason, "decks");
    tk_assert_contains(why.reason, "106");
    tk_assert_contains(why.reason, "104");
    assert_int_equal(okr_game_init(&g1, &r, 8, 5, NULL, 0, &why), OKR_EINVAL);
    assert_string_equal(why.rule, "1.5");
    assert_int_equal(okr_rules_check(&r, 7, &why), OKR_OK); /* 93 <= 104 */
    r = tk_rules("arlington", "decks=3", NULL);
    assert_int_equal(okr_game_init(&g1, &r, 8, 5, NULL, 0, &why), OKR_OK);
    assert_int_equal(g1.stock_n, 156 - 8 * 13 - 1);

    /* the bound is inclusive: 5 x 10 + 2 = 52 cards is exactly one pack (one stock card) */
    r = tk_rules("parlett", "decks=1", "jokers=0", "hand_size=10", NULL);
    assert_int_equal(okr_game_init(&g1, &r, 5, 5, NULL, 0, &why), OKR_OK);
    assert_int_equal(g1.stock_n, 1);
    r = tk_rules("parlett", "decks=1", "jokers=0", "hand_size=11", NULL);
    assert_int_equal(okr_rules_check(&r, 5, &why), OKR_EINVAL);
    assert_string_equal(why.rule, "1.5");
    tk_assert_contains(why.reason, "decks");
}

/* Options (RULES preamble, 8.1): an unknown option or a value out of range is refused with a
 * message naming the option and the rule it belongs to. */
static void test_1_5_unknown_option_and_out_of_range_values(void **state)
{
    (void)state;
    okr_refusal why;
    okr_rules r = tk_rules("laws", NULL), before = r;
    assert_int_equal(okr_rules_set(&r, "deks", "2", &why), OKR_EINVAL);
    assert_string_equal(why.rule, "option");
    tk_assert_contains(why.reason, "deks");
    assert_memory_equal(&r, &before, sizeof r);
    assert_int_equal(okr_rules_set(&r, "qs_discard", "sometimes", &why), OKR_EINVAL);
    assert_string_equal(why.rule, "4.5");
    tk_assert_contains(why.reason, "qs_discard");
    assert_int_equal(okr_rules_set(&r, "target", "60001", &why), OKR_EINVAL);
    assert_string_equal(why.rule, "7.4");
    tk_assert_contains(why.reason, "target");
    assert_int_equal(okr_rules_set(&r, "max_turns", "70000", &why), OKR_EINVAL);
    assert_string_equal(why.rule, "4.9");
    assert_int_equal(okr_rules_set(&r, "hand_size", "x", &why), OKR_EINVAL);
    assert_string_equal(why.rule, "2.4");
    assert_memory_equal(&r, &before, sizeof r);
    assert_int_equal(okr_rules_preset(&r, "canasta", &why), OKR_EINVAL);
    /* a value in range is taken */
    assert_int_equal(okr_rules_set(&r, "qs_discard", "any", &why), OKR_OK);
    assert_int_equal(r.qs_discard, OKR_QS_ANY);
}

/* RULES 2.1: laws 2-4, parlett 2-5, arlington 2-8, german 2-6, gin 2. */
static void test_2_1_players_per_preset(void **state)
{
    (void)state;
    const int lo[5] = {2, 2, 2, 2, 2}, hi[5] = {4, 5, 8, 6, 2};
    okr_refusal why;
    for (int p = 0; p < 5; p++) {
        okr_rules r = tk_rules(presets[p], p == 2 ? "decks=3" : NULL, NULL);
        for (int n = 1; n <= 9; n++) {
            int rc = okr_rules_check(&r, n, &why);
            if (n >= lo[p] && n <= hi[p]) {
                assert_int_equal(rc, OKR_OK);
                assert_int_equal(okr_game_init(&g1, &r, n, 1, NULL, 0, &why), OKR_OK);
                assert_int_equal(g1.players, n);
            } else {
                assert_int_equal(rc, OKR_EINVAL);
                assert_string_equal(why.rule, "2.1");
                tk_assert_contains(why.reason, "players");
                assert_int_equal(okr_game_init(&g1, &r, n, 1, NULL, 0, &why), OKR_EINVAL);
                assert_string_equal(why.rule, "2.1");
            }
        }
    }
}

/* RULES 2.1/2.2: a seat outside 0..N-1 never acts (refused as out of turn, 4.8). */
static void test_2_1_seat_out_of_range_refused(void **state)
{
    (void)state;
    okr_rules r = tk_rules("laws", NULL);
    tk_start(&g1, &r, 2, NULL, NULL, NULL);
    okr_action a;
    memset(&a, 0, sizeof a);
    a.type = OKR_A_PASS;
    a.seat = 2;
    tk_refuse_act(&g1, &a, "4.8");
    a.seat = 200;
    tk_refuse_act(&g1, &a, "4.8");
    okr_view v;
    okr_view_of(&g1, 7, &v); /* a view for no seat holds no hand */
    for (int k = 0; k < OKR_KINDS; k++)
        assert_int_equal(v.hand[k], 0);
}

/* RULES 2.2: seats 0..N-1 clockwise; "left" is the next seat number. */
static void test_2_2_left_is_next_seat(void **state)
{
    (void)state;
    okr_rules r = tk_rules("laws", NULL);
    tk_start(&g1, &r, 3, NULL, NULL, NULL);
    assert_int_equal(g1.dealer, 2);
    assert_int_equal(g1.to_act, 0); /* left of the dealer */
    tk_do(&g1, "pass");
    assert_int_equal(g1.to_act, 1);
    tk_do(&g1, "pass");
    assert_int_equal(g1.to_act, 2);
    tk_do(&g1, "pass");
    assert_int_equal(g1.to_act, 0); /* all passed: left of the dealer draws (6.1) */
    int order[6];
    for (int t = 0; t < 6; t++) {
        order[t] = g1.to_act;
        tk_do(&g1, "draw");
        int n = tk_legal(&g1);
        okr_action d = tk_acts[n - 1]; /* a discard is always legal */
        assert_int_equal(d.type, OKR_A_DISCARD);
        tk_act(&g1, &d);
    }
    const int want[6] = {0, 1, 2, 0, 1, 2};
    assert_memory_equal(order, want, sizeof want);
}

/* What the deal of each hand gave: per hand, the dealer, the upcard and every seat's cards. */
enum { DUP_HANDS = 5 };
typedef struct dup_deals {
    int hands;
    uint8_t dealer[DUP_HANDS], upcard[DUP_HANDS];
    uint8_t cards[DUP_HANDS][OKR_MAX_PLAYERS][OKR_KINDS];
    int8_t winner[DUP_HANDS];
} dup_deals;

/* Play one rotation of a duplicate set: seat s holds slot (s + rot) mod n, even slots play
 * tk_policy and odd slots a uniformly random legal action, so the winners of the hands
 * change from one rotation to the next as they do between bots. */
static void dup_play(const okr_rules *r, int n, int rot, uint64_t seed, dup_deals *d)
{
    okr_refusal why;
    memset(d, 0, sizeof *d);
    assert_int_equal(okr_game_init(&g1, r, n, seed, NULL, 0, &why), OKR_OK);
    uint64_t rng = seed * 31 + (uint64_t)rot;
    for (;;) {
        int h = d->hands++;
        d->dealer[h] = g1.dealer;
        d->upcard[h] = g1.upcard;
        memcpy(d->cards[h], g1.hand, sizeof d->cards[h]);
        while (g1.phase != OKR_PH_HAND_OVER && g1.phase != OKR_PH_GAME_OVER) {
            int k = tk_legal(&g1);
            okr_action a;
            if ((g1.to_act + rot) % n % 2 == 0)
                tk_policy(&g1, &rng, &a);
            else
                a = tk_acts[tk_rng(&rng, k)];
            tk_act(&g1, &a);
        }
        d->winner[h] = g1.last.winner >= 0 ? g1.last.winner : g1.last.knocker;
        if (g1.phase == OKR_PH_GAME_OVER)
            break;
        assert_int_equal(okr_next_hand(&g1, NULL, 0, &why), OKR_OK);
    }
}

/* RULES 2.3 Decision, option dealer=rotate: hand h of every rotation of a duplicate set deals
 * the same cards to the same seats (so to the slots rotated exactly as in hand 1), for every
 * preset and table size, whoever won the earlier hands. Under the rule book's dealer=winner
 * the same check fails from hand 2 on, which shows that it can. */
static void test_2_3_dealer_rotate_duplicates_every_hand(void **state)
{
    (void)state;
    static dup_deals base, other;
    int tables = 0, winners_differ = 0, winner_rule_differs = 0;
    for (int p = 0; p < 5; p++) {
        okr_rules r0 = tk_rules(presets[p], "target=0", "max_hands=5", "max_turns=150", NULL);
        for (int n = 2; n <= r0.max_players; n++) {
            for (int mode = 0; mode < 2; mode++) {
                okr_rules r = r0;
                okr_refusal why;
                assert_int_equal(okr_rules_set(&r, "dealer", mode ? "winner" : "rotate", &why),
                                 OKR_OK);
                if (okr_rules_check(&r, n, &why) != OKR_OK) /* 1.5: 8 players need 3 packs */
                    assert_int_equal(okr_rules_set(&r, "decks", "3", &why), OKR_OK);
                uint64_t seed = 1000u + (uint64_t)(p * 10 + n);
                dup_play(&r, n, 0, seed, &base);
                assert_int_equal(base.hands, DUP_HANDS); /* target=0: exactly max_hands */
                for (int rot = 1; rot < n; rot++) {
                    dup_play(&r, n, rot, seed, &other);
                    assert_int_equal(other.hands, DUP_HANDS);
                    int same = 1;
                    for (int h = 0; h < DUP_HANDS; h++) {
                        same &= base.dealer[h] == other.dealer[h] &&
                                base.upcard[h] == other.upcard[h] &&
                                memcmp(base.cards[h], other.cards[h], sizeof base.cards[h]) == 0;
                        if (mode == 0) {
                            assert_int_equal(other.dealer[h], (n - 2 + h + 1) % n);
                            winners_differ +=
                                h < DUP_HANDS - 1 && base.winner[h] != other.winner[h];
                        }
                    }
                    if (mode == 0) {
                        if (!same)
                            fail_msg("%s, %d players, rotation %d: a hand's deal differs",
                                     presets[p], n, rot);
                    } else {
                        winner_rule_differs += !same;
                    }
                }
                tables += mode == 0;
            }
        }
    }
    assert_int_equal(tables, 3 + 4 + 7 + 5 + 1); /* every table size of every preset */
    assert_true(winners_differ > 10);            /* the earlier hands' winners did differ */
    assert_true(winner_rule_differs > 5); /* and under the winner rule that breaks duplicates */
}

/* The option's text form and its range (RULES 2.3). */
static void test_2_3_dealer_option(void **state)
{
    (void)state;
    okr_rules r = tk_rules("gin", NULL);
    okr_refusal why;
    assert_int_equal(r.dealer, OKR_DEALER_WINNER); /* every preset: the rule book's default */
    assert_int_equal(okr_rules_set(&r, "dealer", "rotate", &why), OKR_OK);
    assert_int_equal(r.dealer, OKR_DEALER_ROTATE);
    char text[2048];
    assert_true(okr_rules_format(&r, text, sizeof text) > 0);
    tk_assert_contains(text, " dealer=rotate ");
    assert_int_equal(okr_rules_set(&r, "dealer", "left", &why), OKR_EINVAL);
    assert_string_equal(why.rule, "2.3");
    tk_assert_contains(why.reason, "dealer: expected one of winner rotate");
    /* the digest tells the two dealers apart */
    okr_rules w = tk_rules("gin", NULL);
    assert_int_equal(okr_game_init(&g1, &r, 2, 5, NULL, 0, &why), OKR_OK);
    assert_int_equal(okr_game_init(&g2, &w, 2, 5, NULL, 0, &why), OKR_OK);
    assert_true(okr_digest(&g1) != okr_digest(&g2));
}

/* RULES 2.3: the first dealer is seat N-1 so seat 0 plays first; the hand's winner deals the
 * next hand; if nobody went out, the deal passes left; gin: a drawn hand keeps the dealer. */
static void test_2_3_dealer_rotation(void **state)
{
    (void)state;
    for (int p = 0; p < 5; p++) {
        okr_rules r = tk_rules(presets[p], NULL);
        for (int n = 2; n <= r.max_players && n <= 4; n++) {
            okr_refusal why;
            assert_int_equal(okr_game_init(&g1, &r, n, 11, NULL, 0, &why), OKR_OK);
            assert_int_equal(g1.dealer, n - 1);
            assert_int_equal(g1.turn_seat, 0);
            assert_int_equal(g1.to_act, 0);
        }
    }
    /* the winner deals: seat 1 goes out in hand 1 of a 3-player laws game */
    okr_rules r = tk_rules("laws", "hand_size=4", NULL);
    const char *h[3] = {"9C 9D TC JD", "5H 6H 7H 8H", "3S 4S 8D 8S"};
    tk_start(&g1, &r, 3, h, "QD", "AS KC");
    tk_script(&g1, "pass; pass; pass; draw; discard AS");
    tk_script(&g1, "draw; meld 5H 6H 7H; add 0 8H; discard KC");
    assert_int_equal(g1.phase, OKR_PH_HAND_OVER);
    assert_int_equal(g1.last.ended, OKR_END_OUT);
    assert_int_equal(g1.last.winner, 1);
    okr_refusal why;
    assert_int_equal(okr_next_hand(&g1, NULL, 0, &why), OKR_OK);
    assert_int_equal(g1.dealer, 1);
    assert_int_equal(g1.to_act, 2);
    assert_int_equal(g1.hand_no, 2);

    /* nobody went out (the 4.9 cap here): the deal passes to the left */
    r = tk_rules("laws", "max_turns=1", NULL);
    tk_start(&g1, &r, 3, NULL, NULL, NULL);
    tk_script(&g1, "pass; pass; pass; draw");
    int n = tk_legal(&g1);
    tk_act(&g1, &tk_acts[n - 1]);
    assert_int_equal(g1.phase, OKR_PH_HAND_OVER);
    assert_int_equal(g1.last.winner, -1);
    assert_int_equal(okr_next_hand(&g1, NULL, 0, &why), OKR_OK);
    assert_int_equal(g1.dealer, 0);
    assert_int_equal(g1.to_act, 1);

    /* gin: a drawn hand is dealt again by the same dealer */
    r = tk_rules("gin", "max_turns=1", NULL);
    assert_int_equal(okr_game_init(&g1, &r, 2, 4, NULL, 0, &why), OKR_OK);
    tk_script(&g1, "pass; pass; draw");
    n = tk_legal(&g1);
    for (int i = 0; i < n; i++)
        if (tk_acts[i].type == OKR_A_DISCARD) {
            tk_act(&g1, &tk_acts[i]);
            break;
        }
    assert_int_equal(g1.phase, OKR_PH_HAND_OVER);
    assert_int_equal(g1.last.ended, OKR_END_DRAWN);
    assert_int_equal(okr_next_hand(&g1, NULL, 0, &why), OKR_OK);
    assert_int_equal(g1.dealer, 1);
    assert_int_equal(g1.to_act, 0);
}

/* RULES 2.4: hand_size cards each, one at a time starting left of the dealer; the next card
 * is the upcard, the rest the stock (pack[N*H+1] drawn first). Same for later hands with
 * their dealer. G1: in gin the 21st card is the upcard. */
static void test_2_4_deal_one_at_a_time_from_left_of_dealer(void **state)
{
    (void)state;
    for (int p = 0; p < 5; p++) {
        okr_rules r = tk_rules(presets[p], NULL);
        int players = p == 4 ? 2 : 3, h = r.hand_size;
        uint8_t pack[OKR_MAX_CARDS];
        okr_refusal why;
        int n = okr_shuffle(&r, 1234 + (uint64_t)p, 1, pack, OKR_MAX_CARDS);
        assert_int_equal(okr_game_init(&g1, &r, players, 77, pack, n, &why), OKR_OK);
        for (int s = 0; s < players; s++) {
            uint8_t want[OKR_KINDS] = {0};
            for (int i = 0; i < h; i++)
                want[pack[i * players + s]]++; /* dealer N-1: seat 0 gets pack[0] */
            assert_memory_equal(g1.hand[s], want, OKR_KINDS);
            assert_int_equal(g1.hand_n[s], h);
        }
        assert_int_equal(g1.upcard, pack[players * h]);
        assert_int_equal(g1.pile_n, 1);
        assert_int_equal(g1.pile[0], pack[players * h]);
        assert_int_equal(g1.stock_n, n - players * h - 1);
        if (p == 4)
            assert_int_equal(players * h + 1, 21);
        okr_event ev = tk_pass_and_draw(&g1);
        assert_int_equal(ev.card, pack[players * h + 1]);
        assert_int_equal(g1.stock_n, n - players * h - 2);
    }
    /* a later hand: the dealer is seat 0 (winner), so seat 1 gets pack[0] */
    okr_rules r = tk_rules("laws", "hand_size=4", NULL);
    const char *h[3] = {"9C 9D TC JD", "5H 6H 7H 8H", "3S 4S 8D 8S"};
    tk_start(&g1, &r, 3, h, "QD", "AS KC");
    tk_script(&g1, "pass; pass; pass; draw; discard AS");
    tk_script(&g1, "draw; meld 5H 6H 7H; add 0 8H; discard KC"); /* seat 1 out: deals */
    uint8_t pack[OKR_MAX_CARDS];
    okr_refusal why;
    int n = okr_shuffle(&r, 5, 2, pack, OKR_MAX_CARDS);
    assert_int_equal(okr_next_hand(&g1, pack, n, &why), OKR_OK);
    assert_int_equal(g1.dealer, 1);
    for (int s = 0; s < 3; s++) {
        int off = (s - 1 - 1 + 6) % 3; /* seat 2 first */
        uint8_t want[OKR_KINDS] = {0};
        for (int i = 0; i < 4; i++)
            want[pack[i * 3 + off]]++;
        assert_memory_equal(g1.hand[s], want, OKR_KINDS);
    }
    assert_int_equal(g1.upcard, pack[12]);
}

/* RULES 2.5: one seeded generator; same seed, rules and actions give the same game bit for
 * bit; an explicit pack may replace the seed. */
static void test_2_5_same_seed_same_game(void **state)
{
    (void)state;
    for (int p = 0; p < 5; p++) {
        okr_rules r = tk_rules(presets[p], NULL);
        okr_refusal why;
        uint8_t pack[OKR_MAX_CARDS], pack2[OKR_MAX_CARDS];
        int players = p == 4 ? 2 : 3;
        assert_int_equal(okr_game_init(&g1, &r, players, 0xC0FFEE, NULL, 0, &why), OKR_OK);
        int n = okr_shuffle(&r, 0xC0FFEE, 1, pack, OKR_MAX_CARDS);
        assert_int_equal(okr_game_init(&g2, &r, players, 0xC0FFEE, pack, n, &why), OKR_OK);
        assert_memory_equal(&g1, &g2, sizeof g1); /* seed == the pack it shuffles */
        /* a different seed or hand number gives a different order */
        okr_shuffle(&r, 0xC0FFEF, 1, pack2, OKR_MAX_CARDS);
        assert_memory_not_equal(pack, pack2, (size_t)n);
        okr_shuffle(&r, 0xC0FFEE, 2, pack2, OKR_MAX_CARDS);
        assert_memory_not_equal(pack, pack2, (size_t)n);
        uint64_t rng1 = 42, rng2 = 42;
        for (int step = 0; step < 400 && g1.phase != OKR_PH_GAME_OVER; step++) {
            if (g1.phase == OKR_PH_HAND_OVER) {
                assert_int_equal(okr_next_hand(&g1, NULL, 0, &why), OKR_OK);
                /* hand 2 comes from the seed: the same as the explicit shuffle */
                int m = okr_shuffle(&r, 0xC0FFEE, g2.hand_no + 1, pack2, OKR_MAX_CARDS);
                assert_int_equal(okr_next_hand(&g2, pack2, m, &why), OKR_OK);
            } else {
                okr_action a, b;
                tk_policy(&g1, &rng1, &a);
                tk_policy(&g2, &rng2, &b);
                assert_memory_equal(&a, &b, sizeof a);
                tk_act(&g1, &a);
                tk_act(&g2, &b);
            }
            assert_memory_equal(&g1, &g2, sizeof g1);
            assert_int_equal(okr_digest(&g1), okr_digest(&g2));
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_1_1_pack_is_52_standard_cards),
        cmocka_unit_test(test_1_2_pack_sizes_per_preset),
        cmocka_unit_test(test_1_3_copies_are_interchangeable),
        cmocka_unit_test(test_1_4_twos_and_joker_are_wild),
        cmocka_unit_test(test_1_5_decks_and_too_many_players_for_the_pack),
        cmocka_unit_test(test_1_5_unknown_option_and_out_of_range_values),
        cmocka_unit_test(test_2_1_players_per_preset),
        cmocka_unit_test(test_2_1_seat_out_of_range_refused),
        cmocka_unit_test(test_2_2_left_is_next_seat),
        cmocka_unit_test(test_2_3_dealer_rotation),
        cmocka_unit_test(test_2_3_dealer_rotate_duplicates_every_hand),
        cmocka_unit_test(test_2_3_dealer_option),
        cmocka_unit_test(test_2_4_deal_one_at_a_time_from_left_of_dealer),
        cmocka_unit_test(test_2_5_same_seed_same_game),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
