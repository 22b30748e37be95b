/* test_determinize.c - okr_determinize builds a game a seat cannot tell from the real one:
 * same public state, same own hand, same legal actions, every card in one place. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "okr/okr.h"

static okr_action real[OKR_MAX_ACTIONS], sim[OKR_MAX_ACTIONS];

/* RULES 8.3: what the acting seat sees decides its legal actions; a determinised game must
 * offer exactly the same list, and its view of that seat must equal the real view. */
static void test_8_3_determinized_game_matches_view(void **state)
{
    (void)state;
    const char *presets[] = {"laws", "parlett", "arlington", "german", "gin"};
    const int players[] = {3, 4, 5, 4, 2};
    int games = getenv("OKR_SANITIZE") ? 2 : 10;
    for (int p = 0; p < 5; p++) {
        okr_rules r;
        okr_refusal why;
        assert_int_equal(okr_rules_preset(&r, presets[p], &why), OKR_OK);
        for (int gi = 0; gi < games; gi++) {
            okr_game g;
            assert_int_equal(okr_game_init(&g, &r, players[p], (uint64_t)gi, NULL, 0, &why),
                             OKR_OK);
            uint64_t x = (uint64_t)gi * 7 + 1;
            for (int step = 0; step < 5000 && g.phase != OKR_PH_GAME_OVER; step++) {
                if (g.phase == OKR_PH_HAND_OVER) {
                    assert_int_equal(okr_next_hand(&g, NULL, 0, &why), OKR_OK);
                    continue;
                }
                okr_view v, v2;
                okr_game d;
                okr_view_of(&g, g.to_act, &v);
                assert_int_equal(okr_determinize(&r, &v, (uint64_t)step, &d, &why), OKR_OK);
                assert_int_equal(okr_check(&d), OKR_OK);
                okr_view_of(&d, g.to_act, &v2);
                assert_memory_equal(&v, &v2, sizeof v);
                int n1 = okr_legal(&g, real, OKR_MAX_ACTIONS);
                int n2 = okr_legal(&d, sim, OKR_MAX_ACTIONS);
                assert_int_equal(n1, n2);
                assert_true(n1 > 0);
                assert_memory_equal(real, sim, sizeof(okr_action) * (size_t)n1);
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                assert_int_equal(okr_apply(&g, &real[x % (uint64_t)n1], NULL, &why), OKR_OK);
            }
        }
    }
}

/* A view that does not fit the pack is refused, not trusted. */
static void test_8_3_determinize_refuses_impossible_view(void **state)
{
    (void)state;
    okr_rules r;
    okr_refusal why;
    okr_game g, d;
    okr_view v;
    assert_int_equal(okr_rules_preset(&r, "gin", &why), OKR_OK);
    assert_int_equal(okr_game_init(&g, &r, 2, 3, NULL, 0, &why), OKR_OK);
    okr_view_of(&g, 0, &v);
    v.hand[OKR_KIND(2, 13)] = 3; /* three kings of hearts from one pack */
    assert_int_equal(okr_determinize(&r, &v, 1, &d, &why), OKR_EINVAL);
    okr_view_of(&g, 0, &v);
    v.stock_n++;
    assert_int_equal(okr_determinize(&r, &v, 1, &d, &why), OKR_EINVAL);
}

/* okr_determinize_known: the known cards are in their hands in every world, the world is
 * otherwise one the seat cannot tell from the real one, no known cards give exactly
 * okr_determinize's world, and known cards that cannot be there are refused (RULES 8.3). */
static void test_8_3_determinize_known_cards_go_to_their_hands(void **state)
{
    (void)state;
    okr_rules r;
    okr_refusal why;
    assert_int_equal(okr_rules_preset(&r, "laws", &why), OKR_OK);
    int worlds = 0;
    for (int gi = 0; gi < (getenv("OKR_SANITIZE") ? 2 : 10); gi++) {
        okr_game g;
        assert_int_equal(okr_game_init(&g, &r, 3, (uint64_t)gi, NULL, 0, &why), OKR_OK);
        for (int step = 0; step < 300 && g.phase < OKR_PH_HAND_OVER; step++) {
            okr_view v, v2;
            okr_game d, plain;
            int me = g.to_act;
            okr_view_of(&g, me, &v);
            /* known: a few true cards of each other hand (every third kind it holds) */
            uint8_t known[OKR_MAX_PLAYERS][OKR_KINDS] = {{0}};
            for (int s = 0; s < g.players; s++)
                for (int k = 0; s != me && k < OKR_KINDS; k += 3)
                    known[s][k] = g.hand[s][k];
            uint64_t seed = (uint64_t)step * 31 + (uint64_t)gi;
            assert_int_equal(okr_determinize_known(&r, &v, known, seed, &d, &why), OKR_OK);
            assert_int_equal(okr_check(&d), OKR_OK);
            okr_view_of(&d, me, &v2);
            assert_memory_equal(&v, &v2, sizeof v);
            for (int s = 0; s < g.players; s++)
                for (int k = 0; k < OKR_KINDS; k++)
                    assert_true(d.hand[s][k] >= known[s][k]);
            /* nothing known: the same world as okr_determinize */
            uint8_t none[OKR_MAX_PLAYERS][OKR_KINDS] = {{0}};
            assert_int_equal(okr_determinize_known(&r, &v, none, seed, &d, &why), OKR_OK);
            assert_int_equal(okr_determinize(&r, &v, seed, &plain, &why), OKR_OK);
            assert_true(okr_digest(&d) == okr_digest(&plain));
            worlds++;
            int n = okr_legal(&g, real, OKR_MAX_ACTIONS);
            assert_int_equal(okr_apply(&g, &real[seed % (uint64_t)n], NULL, &why), OKR_OK);
        }
    }
    assert_true(worlds > 100);
    /* refused: a card of the seat's own hand, a card of its own as another's, too many */
    okr_game g, d;
    okr_view v;
    assert_int_equal(okr_game_init(&g, &r, 3, 9, NULL, 0, &why), OKR_OK);
    okr_view_of(&g, 0, &v);
    uint8_t known[OKR_MAX_PLAYERS][OKR_KINDS] = {{0}};
    int mine = 0;
    while (!g.hand[0][mine])
        mine++;
    known[0][mine] = 1;
    assert_int_equal(okr_determinize_known(&r, &v, known, 1, &d, &why), OKR_EINVAL);
    assert_string_equal(why.rule, "8.3");
    known[0][mine] = 0;
    known[1][mine] = (uint8_t)(r.decks + 1); /* more copies than are unseen */
    assert_int_equal(okr_determinize_known(&r, &v, known, 1, &d, &why), OKR_EINVAL);
    memcpy(known[1], g.hand[1], OKR_KINDS); /* the whole hand known: fine */
    assert_int_equal(okr_determinize_known(&r, &v, known, 1, &d, &why), OKR_OK);
    assert_memory_equal(d.hand[1], g.hand[1], OKR_KINDS);
    int other = 0; /* one card more than the hand holds: refused */
    while (!g.hand[2][other])
        other++;
    known[1][other]++;
    assert_int_equal(okr_determinize_known(&r, &v, known, 1, &d, &why), OKR_EINVAL);
    assert_string_equal(why.rule, "8.3");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_8_3_determinized_game_matches_view),
        cmocka_unit_test(test_8_3_determinize_refuses_impossible_view),
        cmocka_unit_test(test_8_3_determinize_known_cards_go_to_their_hands),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
