/* test_match_units.c - the pure pieces of `arena match`: the duplicate schedule (match.c:
 * seats, deal seeds, game ids), the statistics and forfeit placements (record.c) and verdict
 * names. Command splitting and PATH lookup are tested in tests/jail/test_spawn_argv.c, entrant
 * names in tests/cli/test_cli_bots.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "match/match.h"
#include "match/policy.h"
#include "match/record.h"

/* ---- Schedule ------------------------------------------------------------------------------- */

static void test_seating_rotation(void **state)
{
    (void)state;
    for (int n = 1; n <= OKR_MAX_PLAYERS; n++) {
        int count[OKR_MAX_PLAYERS][OKR_MAX_PLAYERS] = {{0}}; /* [slot][seat] */
        for (int r = 0; r < n; r++) {
            int seen[OKR_MAX_PLAYERS] = {0};
            for (int seat = 0; seat < n; seat++) {
                int k = ar_match_seat_slot(seat, r, n);
                assert_in_range(k, 0, n - 1);
                seen[k]++;
                count[k][seat]++;
            }
            for (int k = 0; k < n; k++)
                assert_int_equal(seen[k], 1); /* each rotation is a permutation */
        }
        for (int k = 0; k < n; k++)
            for (int seat = 0; seat < n; seat++)
                assert_int_equal(count[k][seat], 1); /* every slot sits everywhere once */
    }
    /* the documented formula: game (d, r) seats slot (i + r) mod N at seat i */
    assert_int_equal(ar_match_seat_slot(0, 1, 3), 1);
    assert_int_equal(ar_match_seat_slot(2, 1, 3), 0);
    assert_int_equal(ar_match_seat_slot(1, 2, 3), 0);
}

static void test_deals_and_ids(void **state)
{
    (void)state;
    assert_int_equal(ar_match_deals(10, 3), 4);
    assert_int_equal(ar_match_deals(9, 3), 3);
    assert_int_equal(ar_match_deals(1, 8), 1);
    assert_int_equal(ar_match_deals(16, 2), 8);
    char id[64];
    ar_match_game_id(id, sizeof id, 7, 2, 1);
    assert_string_equal(id, "m7-d2-r1");
    ar_match_game_id(id, sizeof id, UINT64_MAX, 0, 0);
    assert_string_equal(id, "m18446744073709551615-d0-r0");

    /* deal seeds: splitmix64(S + d), deterministic and distinct */
    ar_rng rng;
    ar_rng_seed(&rng, 100 + 3);
    assert_true(ar_match_deal_seed(100, 3) == ar_rng_next(&rng));
    assert_true(ar_match_deal_seed(100, 3) == ar_match_deal_seed(100, 3));
    assert_true(ar_match_deal_seed(100, 3) != ar_match_deal_seed(100, 4));
    assert_true(ar_match_deal_seed(100, 3) == ar_match_deal_seed(101, 2)); /* S + d only */
}

/* ---- Statistics ----------------------------------------------------------------------------- */

static void test_t_quantiles(void **state)
{
    (void)state;
    assert_true(isnan(ar_t975(0)));
    assert_float_equal(ar_t975(1), 12.706, 1e-9);
    assert_float_equal(ar_t975(2), 4.303, 1e-9);
    assert_float_equal(ar_t975(10), 2.228, 1e-9);
    assert_float_equal(ar_t975(30), 2.042, 1e-9);
    /* the expansion above the table, against published values */
    assert_float_equal(ar_t975(40), 2.021, 0.001);
    assert_float_equal(ar_t975(60), 2.000, 0.001);
    assert_float_equal(ar_t975(120), 1.980, 0.001);
    assert_float_equal(ar_t975(100000), 1.960, 0.001);
    /* continuous at the seam and decreasing */
    assert_true(ar_t975(31) < ar_t975(30) && ar_t975(31) > 2.035);
    for (int df = 1; df < 500; df++)
        assert_true(ar_t975(df + 1) < ar_t975(df));
}

static void test_mean_ci(void **state)
{
    (void)state;
    double mean, half;
    const double x[] = {1, 2, 3, 4, 5};
    ar_mean_ci(x, 5, &mean, &half);
    assert_float_equal(mean, 3.0, 1e-12);
    /* sd = sqrt(2.5); half = t(4) * sd / sqrt(5) */
    assert_float_equal(half, 2.776 * sqrt(2.5) / sqrt(5.0), 1e-9);
    const double same[] = {7, 7, 7};
    ar_mean_ci(same, 3, &mean, &half);
    assert_float_equal(mean, 7.0, 1e-12);
    assert_float_equal(half, 0.0, 1e-12);
    ar_mean_ci(x, 1, &mean, &half);
    assert_float_equal(mean, 1.0, 1e-12);
    assert_true(isnan(half));
    ar_mean_ci(x, 0, &mean, &half);
    assert_true(isnan(mean) && isnan(half));
}

/* ---- Forfeits -------------------------------------------------------------------------------- */

static void test_forfeit_result(void **state)
{
    (void)state;
    int32_t fin[OKR_MAX_PLAYERS];
    uint8_t place[OKR_MAX_PLAYERS];
    unsigned winners;

    /* seat 0 forfeits while leading: below the lowest other total by the margin, placed last */
    const int32_t a[] = {555, 360, 395};
    ar_forfeit_result(3, a, 1u << 0, 2400, fin, place, &winners);
    assert_int_equal(fin[0], 360 - 2400);
    assert_int_equal(fin[1], 360);
    assert_int_equal(fin[2], 395);
    assert_int_equal(place[0], 3);
    assert_int_equal(place[1], 2);
    assert_int_equal(place[2], 1);
    assert_int_equal(winners, 1u << 2);

    /* a trailing forfeiter loses the margin from its own (lower) total; others tie for 1st */
    const int32_t b[] = {100, 100, -50, 40};
    ar_forfeit_result(4, b, 1u << 2, 2400, fin, place, &winners);
    assert_int_equal(fin[2], -50 - 2400);
    assert_int_equal(place[0], 1);
    assert_int_equal(place[1], 1);
    assert_int_equal(place[3], 3);
    assert_int_equal(place[2], 4);
    assert_int_equal(winners, (1u << 0) | (1u << 1));

    /* margin 0 is the rule of older arenas: capped at the lowest other total */
    ar_forfeit_result(3, a, 1u << 0, 0, fin, place, &winners);
    assert_int_equal(fin[0], 360);

    /* a game not played: the others keep 0 and share 1st; two forfeiters share the last
     * places' best, both a margin below */
    const int32_t z[] = {0, 0, 0, 0};
    ar_forfeit_result(4, z, (1u << 1) | (1u << 3), 200, fin, place, &winners);
    assert_int_equal(fin[0], 0);
    assert_int_equal(fin[1], -200);
    assert_int_equal(fin[3], -200);
    assert_int_equal(place[0], 1);
    assert_int_equal(place[2], 1);
    assert_int_equal(place[1], 3);
    assert_int_equal(place[3], 3);
    assert_int_equal(winners, (1u << 0) | (1u << 2));

    /* everybody forfeits: nobody wins */
    ar_forfeit_result(2, z, 3u, 200, fin, place, &winners);
    assert_int_equal(place[0], 1);
    assert_int_equal(place[1], 1);
    assert_int_equal(winners, 0);
}

/* The margin is twice what a game can be won by (docs/rules.md "Forfeits"). */
static void test_forfeit_margin(void **state)
{
    (void)state;
    static const struct {
        const char *preset;
        int32_t margin;
    } want[] = {
        {"laws", 2400}, {"parlett", 2400}, {"arlington", 2000}, {"german", 2200}, {"gin", 200}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        okr_rules r;
        okr_refusal why;
        assert_int_equal(okr_rules_preset(&r, want[i].preset, &why), 0);
        assert_int_equal(ar_forfeit_margin(&r), want[i].margin);
        /* a fixed number of hands (--hands 5): no target, the hands' reach */
        r.target = 0;
        r.winner_bonus = 0;
        r.max_hands = 5;
        assert_int_equal(ar_forfeit_margin(&r), r.family == OKR_FAMILY_GIN ? 1000 : 5000);
    }
}

static void test_verdict_names(void **state)
{
    (void)state;
    assert_string_equal(ar_verdict_name(AR_V_RE), "RE");
    assert_string_equal(ar_verdict_name(AR_V_TLE), "TLE");
    assert_string_equal(ar_verdict_name(AR_V_PE), "PE");
    assert_string_equal(ar_verdict_name(AR_V_IA), "IA");
    assert_string_equal(ar_verdict_name(AR_V_DQ), "DQ");
    assert_string_equal(ar_verdict_name(AR_V_NONE), "");
}

/* A bot's note (protocol 1.1): the longest valid UTF-8 prefix of at most AR_NOTE_MAX bytes,
 * control characters as spaces; 1 whenever the note was changed. */
static void test_note_clean(void **state)
{
    (void)state;
    char out[AR_NOTE_MAX + 1], in[1024];
    assert_int_equal(ar_note_clean("kept 7H 8H \xe2\x99\xa5", 14, out), 0);
    assert_string_equal(out, "kept 7H 8H \xe2\x99\xa5");
    assert_int_equal(ar_note_clean("", 0, out), 0);
    assert_string_equal(out, "");
    /* control characters and DEL become spaces */
    assert_int_equal(ar_note_clean("a\nb\x1b[2Jc\x7f", 9, out), 1);
    assert_string_equal(out, "a b [2Jc ");
    /* invalid: a lone continuation byte, a cut character, overlong, a surrogate, > U+10FFFF */
    static const char *const bad[] = {
        "ok \x80x", "ok \xc3", "ok \xc0\xafx", "ok \xed\xa0\x80x", "ok \xf4\x90\x80\x80x",
        "ok \xffx"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(ar_note_clean(bad[i], strlen(bad[i]), out), 1);
        assert_string_equal(out, "ok ");
    }
    /* too long: cut at AR_NOTE_MAX bytes, or before the character that would cross it */
    memset(in, 'a', sizeof in);
    assert_int_equal(ar_note_clean(in, sizeof in, out), 1);
    assert_int_equal(strlen(out), AR_NOTE_MAX);
    in[0] = 'x';
    for (int i = 0; i < 250; i++)
        memcpy(in + 1 + 4 * i, "\xf0\x9f\x83\x8f", 4); /* U+1F0CF, a playing card */
    assert_int_equal(ar_note_clean(in, 1 + 4 * 250, out), 1);
    assert_int_equal(strlen(out), 1 + 4 * 69); /* 277: a 70th would make 281 */
    /* exactly AR_NOTE_MAX bytes is kept whole */
    memset(in, 'b', AR_NOTE_MAX);
    assert_int_equal(ar_note_clean(in, AR_NOTE_MAX, out), 0);
    assert_int_equal(strlen(out), AR_NOTE_MAX);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seating_rotation), cmocka_unit_test(test_deals_and_ids),
        cmocka_unit_test(test_note_clean),       cmocka_unit_test(test_t_quantiles),
        cmocka_unit_test(test_mean_ci),          cmocka_unit_test(test_forfeit_result),
        cmocka_unit_test(test_forfeit_margin),   cmocka_unit_test(test_verdict_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
