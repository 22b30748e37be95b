/* test_position.c - okr_game_from_position: a described position becomes the game it
 * describes (round trip over many reached states: same digest, same legal list), a stock
 * may be "the rest, shuffled", and every inconsistency is refused with its rule. */
#include "testkit.h"

static okr_action other[OKR_MAX_ACTIONS];

/* Every reached state of random games in every preset rebuilds into the same game. */
static void test_position_round_trip(void **state)
{
    (void)state;
    const char *presets[] = {"laws", "parlett", "arlington", "german", "gin"};
    const int players[] = {3, 4, 5, 4, 2};
    int games = getenv("OKR_SANITIZE") ? 2 : 8, states = 0;
    static okr_position p;
    for (int pi = 0; pi < 5; pi++) {
        okr_rules r = tk_rules(presets[pi], NULL);
        okr_refusal why;
        for (int gi = 0; gi < games; gi++) {
            okr_game g, h;
            assert_int_equal(okr_game_init(&g, &r, players[pi], 100u + (unsigned)gi, NULL, 0, &why),
                             OKR_OK);
            uint64_t rng = (uint64_t)gi * 31 + 7;
            for (int step = 0; step < 3000 && g.phase != OKR_PH_GAME_OVER; step++) {
                if (g.phase == OKR_PH_HAND_OVER) {
                    assert_int_equal(okr_next_hand(&g, NULL, 0, &why), OKR_OK);
                    continue;
                }
                okr_position_of(&g, &p);
                int rc = okr_game_from_position(&h, &r, &p, &why);
                if (rc != OKR_OK)
                    fail_msg("%s step %d phase %d: refused %s %s", presets[pi], step, g.phase,
                             why.rule, why.reason);
                assert_int_equal(okr_digest(&h), okr_digest(&g));
                int n1 = okr_legal(&g, tk_acts, OKR_MAX_ACTIONS);
                int n2 = okr_legal(&h, other, OKR_MAX_ACTIONS);
                assert_int_equal(n1, n2);
                assert_memory_equal(tk_acts, other, sizeof(okr_action) * (size_t)n1);
                states++;
                okr_action a;
                tk_policy(&g, &rng, &a);
                assert_int_equal(okr_apply(&g, &a, NULL, &why), OKR_OK);
            }
        }
    }
    assert_true(states > 1000);
}

/* A gin puzzle: seat 0 to discard from 11 cards, the stock "the rest, shuffled". */
static void describe_gin(okr_position *p)
{
    memset(p, 0, sizeof *p);
    p->players = 2;
    p->phase = OKR_PH_PLAY;
    p->dealer = 1;
    p->turn_seat = 0;
    p->to_act = p->discarder = p->upcard = OKR_POS_AUTO;
    p->hand_no = 1;
    p->turns = 3;
    p->seed = 42;
    p->shuffle_stock = 1;
    tk_multiset("AS 2S 3S 7H 7D 7C KC KD QH 9S 5D", p->hand[0]);
    tk_multiset("AH 2H 3H 4H 8C 8D 8S JC JD 6S", p->hand[1]);
    p->pile_n = (uint8_t)tk_cards("TC 4C", p->pile, OKR_MAX_CARDS);
    p->drew[0] = p->drew[1] = 2;
}

static void test_position_gin_puzzle_shuffled_stock(void **state)
{
    (void)state;
    okr_rules r = tk_rules("gin", NULL);
    static okr_position p;
    okr_refusal why;
    okr_game g, g2;
    describe_gin(&p);
    assert_int_equal(okr_game_from_position(&g, &r, &p, &why), OKR_OK);
    assert_int_equal(okr_check(&g), OKR_OK);
    assert_int_equal(g.stock_n, 52 - 21 - 2);
    assert_int_equal(g.upcard, tk_kind("TC")); /* the pile's bottom card: knock limit 10 */
    assert_int_equal(g.discarder, 1);
    tk_assert_hand(&g, 0, "AS 2S 3S 7H 7D 7C KC KD QH 9S 5D");
    /* the same seed gives the same stock; another seed another order */
    assert_int_equal(okr_game_from_position(&g2, &r, &p, &why), OKR_OK);
    assert_memory_equal(g.stock, g2.stock, g.stock_n);
    p.seed = 43;
    assert_int_equal(okr_game_from_position(&g2, &r, &p, &why), OKR_OK);
    assert_memory_not_equal(g.stock, g2.stock, g.stock_n);
    /* it plays: knocking with AS-3S, 7s, and KC KD QH 9S 5D minus a discard is too much
     * deadwood, so the legal list is discards only; discarding 5D hands the turn on */
    assert_int_equal(tk_legal_count(&g, OKR_A_KNOCK), 0);
    tk_do(&g, "discard 5D");
    assert_int_equal(g.phase, OKR_PH_DRAW);
    assert_int_equal(g.to_act, 1);
}

/* A rummy position with melds: declarations normalised, header fields derived. */
static void test_position_melds_normalised(void **state)
{
    (void)state;
    okr_rules r = tk_rules("laws", NULL);
    static okr_position p;
    okr_refusal why;
    okr_game g;
    memset(&p, 0, sizeof p);
    p.players = 2;
    p.phase = OKR_PH_DRAW;
    p.dealer = 0;
    p.turn_seat = 1;
    p.to_act = p.discarder = p.upcard = OKR_POS_AUTO;
    p.hand_no = 1;
    p.turns = 4;
    p.shuffle_stock = 1;
    tk_multiset("KH KS 9D", p.hand[0]);
    tk_multiset("4C 5C 6D", p.hand[1]);
    p.pile_n = (uint8_t)tk_cards("8C", p.pile, OKR_MAX_CARDS);
    okr_meld *m = &p.meld[0];
    m->owner = 0;
    m->type = OKR_SET;
    m->n = 3;
    tk_cards("5H 5S 2H", m->card, OKR_MELD_CARDS);
    tk_cards("5H 5S 5D", m->as, OKR_MELD_CARDS); /* a 2 declares clubs (docs/engine.md) */
    m = &p.meld[1];
    m->owner = 1;
    m->type = OKR_RUN;
    m->n = 4;
    m->lo = 8; /* 9H */
    tk_cards("9H TH JK QH", m->card, OKR_MELD_CARDS);
    tk_cards("9H TH JH QH", m->as, OKR_MELD_CARDS);
    p.meld_n = 2;
    assert_int_equal(okr_game_from_position(&g, &r, &p, &why), OKR_OK);
    assert_int_equal(g.meld[0].as[2], tk_kind("5C"));
    assert_int_equal(g.meld[0].rank, 5);
    assert_int_equal(g.meld[1].suit, 2);
    assert_int_equal(okr_check(&g), OKR_OK);
    /* seat 1 may take 8C onto its run's low end? No: 8H is needed; 8C is not of the suit */
    tk_do(&g, "draw");
    assert_int_equal(g.phase, OKR_PH_PLAY);
}

/* Each inconsistency is refused with its rule, and the output is left alone. */
static void expect(const okr_rules *r, const okr_position *p, const char *rule)
{
    okr_game g;
    okr_refusal why;
    memset(&g, 0xAB, sizeof g);
    memset(&why, 0, sizeof why);
    assert_int_equal(okr_game_from_position(&g, r, p, &why), OKR_EINVAL);
    if (strcmp(why.rule, rule) != 0)
        fail_msg("expected RULES %s, got %s (%s)", rule, why.rule, why.reason);
    assert_true(why.reason[0] != '\0');
    for (size_t i = 0; i < sizeof g; i++)
        assert_int_equal(((unsigned char *)&g)[i], 0xAB);
}

static void test_position_refusals(void **state)
{
    (void)state;
    okr_rules gin = tk_rules("gin", NULL), laws = tk_rules("laws", NULL);
    static okr_position p;

    describe_gin(&p); /* a card twice */
    p.hand[1][tk_kind("AS")]++;
    p.hand[1][tk_kind("6S")]--;
    expect(&gin, &p, "1.2");

    describe_gin(&p); /* a card missing from an explicit stock */
    p.shuffle_stock = 0;
    p.stock_n = 1;
    p.stock[0] = (uint8_t)tk_kind("KH");
    expect(&gin, &p, "1.2");

    describe_gin(&p); /* 10 cards for the player who drew */
    p.hand[0][tk_kind("5D")]--;
    p.pile[p.pile_n++] = (uint8_t)tk_kind("5D");
    expect(&gin, &p, "G4");

    describe_gin(&p); /* melds on the table in gin */
    p.meld_n = 1;
    p.meld[0].type = OKR_SET;
    p.meld[0].n = 3;
    tk_cards("JC JD JH", p.meld[0].card, OKR_MELD_CARDS);
    tk_cards("JC JD JH", p.meld[0].as, OKR_MELD_CARDS);
    p.hand[1][tk_kind("JC")]--;
    p.hand[1][tk_kind("JD")]--;
    expect(&gin, &p, "G5");

    describe_gin(&p); /* two stock cards left in the draw phase: the hand is drawn */
    p.phase = OKR_PH_DRAW;
    p.hand[0][tk_kind("5D")]--;
    p.shuffle_stock = 0;
    {
        uint8_t left[OKR_KINDS];
        memset(left, 1, sizeof left);
        left[OKR_JOKER] = 0;
        for (int s = 0; s < 2; s++)
            for (int k = 0; k < 52; k++)
                left[k] = (uint8_t)(left[k] - p.hand[s][k]);
        left[tk_kind("TC")] = left[tk_kind("4C")] = left[tk_kind("5D")] = 0;
        p.pile_n = 0;
        for (int k = 0; k < 52; k++)
            if (left[k])
                p.pile[p.pile_n++] = (uint8_t)k;
        p.pile_n = (uint8_t)(p.pile_n - 2);
        p.stock_n = 2;
        p.stock[0] = p.pile[p.pile_n];
        p.stock[1] = p.pile[p.pile_n + 1];
        p.pile[p.pile_n++] = (uint8_t)tk_kind("TC");
        p.pile[p.pile_n++] = (uint8_t)tk_kind("4C");
        p.pile[p.pile_n++] = (uint8_t)tk_kind("5D");
    }
    p.turn_seat = 1;
    expect(&gin, &p, "G6");

    describe_gin(&p); /* the hand is over: not a position to act in */
    p.phase = OKR_PH_HAND_OVER;
    expect(&gin, &p, "4.1");

    describe_gin(&p); /* the game would be over (G8) */
    p.score[1] = 100;
    expect(&gin, &p, "G8");

    describe_gin(&p); /* out of turn outside claims */
    p.to_act = 1;
    expect(&gin, &p, "4.8");

    describe_gin(&p); /* a seat that is not at the table */
    p.dealer = 2;
    expect(&gin, &p, "2.2");

    describe_gin(&p); /* a rummy phase in gin */
    p.phase = OKR_PH_UPCARD;
    expect(&gin, &p, "6.1");

    describe_gin(&p); /* claims outside german */
    p.phase = OKR_PH_CLAIM;
    expect(&laws, &p, "6.G");

    describe_gin(&p); /* a bad table for the rules */
    p.players = 9;
    expect(&gin, &p, "2.1");

    /* rummy: an invalid meld, an empty hand */
    memset(&p, 0, sizeof p);
    p.players = 2;
    p.phase = OKR_PH_DRAW;
    p.turn_seat = 1;
    p.to_act = p.discarder = p.upcard = OKR_POS_AUTO;
    p.hand_no = 1;
    p.turns = 2;
    p.shuffle_stock = 1;
    tk_multiset("KH KS 9D", p.hand[0]);
    tk_multiset("4C 5C 6D", p.hand[1]);
    p.pile_n = (uint8_t)tk_cards("8C", p.pile, OKR_MAX_CARDS);
    p.meld_n = 1;
    p.meld[0].type = OKR_RUN;
    p.meld[0].n = 3;
    p.meld[0].lo = 3;
    tk_cards("4H 6H 5H", p.meld[0].card, OKR_MELD_CARDS);
    tk_cards("4H 6H 5H", p.meld[0].as, OKR_MELD_CARDS);
    expect(&laws, &p, "3.3");
    tk_cards("2C 2D 2H", p.meld[0].card, OKR_MELD_CARDS);
    tk_cards("4H 5H 6H", p.meld[0].as, OKR_MELD_CARDS);
    expect(&laws, &p, "3.6");
    p.meld_n = 0;
    memset(p.hand[0], 0, OKR_KINDS);
    expect(&laws, &p, "4.6");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_position_round_trip),
        cmocka_unit_test(test_position_gin_puzzle_shuffled_stock),
        cmocka_unit_test(test_position_melds_normalised),
        cmocka_unit_test(test_position_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
