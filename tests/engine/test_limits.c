/* test_limits.c - the legal-action list always fits OKR_MAX_ACTIONS: the worst hands the
 * rules allow (a seat holding every card of three packs) are enumerated in full. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "okr/okr.h"

static okr_action acts[OKR_MAX_ACTIONS];

/* Seat 0 holds the whole pack except `top` (on the pile) and one stock card. */
static void whole_pack_hand(okr_game *g, const char *preset, int top)
{
    okr_rules r;
    okr_refusal why;
    assert_int_equal(okr_rules_preset(&r, preset, &why), OKR_OK);
    assert_int_equal(okr_rules_set(&r, "decks", "3", &why), OKR_OK);
    assert_int_equal(okr_game_init(g, &r, 2, 1, NULL, 0, &why), OKR_OK);
    memset(g->hand, 0, sizeof g->hand);
    for (int k = 0; k < 52; k++)
        g->hand[0][k] = r.decks;
    g->hand[0][OKR_JOKER] = r.jokers;
    int stock = OKR_KIND(0, 6);
    g->hand[0][top]--;
    g->hand[0][stock]--;
    g->pile[0] = (uint8_t)top;
    g->pile_n = 1;
    g->stock[0] = (uint8_t)stock;
    g->stock_n = 1;
    g->hand_n[0] = (uint8_t)(okr_pack_size(&r) - 2);
    g->hand_n[1] = 0;
    g->to_act = g->turn_seat = 0;
}

/* RULES 4.3, 4.4: every take and every meld of the largest possible hand is listed. */
static void test_4_4_worst_case_lists_fit(void **state)
{
    (void)state;
    const char *presets[] = {"laws", "parlett", "arlington", "german"};
    int worst = 0;
    for (int i = 0; i < 4; i++) {
        okr_game g;
        for (int top = 0; top < 2; top++) { /* a natural ace, then a wild 2 of clubs */
            whole_pack_hand(&g, presets[i], top == 0 ? OKR_KIND(0, 1) : OKR_KIND(0, 2));
            g.phase = OKR_PH_DRAW;
            int n = okr_legal(&g, acts, OKR_MAX_ACTIONS);
            assert_true(n > 0);
            worst = n > worst ? n : worst;
            g.phase = OKR_PH_PLAY;
            n = okr_legal(&g, acts, OKR_MAX_ACTIONS);
            assert_true(n > 0);
            worst = n > worst ? n : worst;
        }
    }
    /* Leave head room: if this grows, raise OKR_MAX_ACTIONS and the docs with it. */
    assert_true(worst < OKR_MAX_ACTIONS * 3 / 4);
}

/* okr_legal reports a too-small buffer instead of writing past it. */
static void test_8_1_small_buffer_overflow_reported(void **state)
{
    (void)state;
    okr_game g;
    whole_pack_hand(&g, "laws", OKR_KIND(2, 9));
    g.phase = OKR_PH_PLAY;
    okr_action few[8];
    assert_int_equal(okr_legal(&g, few, 8), OKR_EOVERFLOW);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_4_4_worst_case_lists_fit),
        cmocka_unit_test(test_8_1_small_buffer_overflow_reported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
