/* test_luck.c - the luck adjustment (arena/tour/luck.h, docs/luck.md) is unbiased: every term
 * has mean zero at every chance event type (the deal, a stock draw) in every preset, whatever
 * the value estimate (the arena's, a constant, a pseudo-random function of the state); the
 * expectation of a draw is exact (averaged over every card the stock could give, the terms sum
 * to zero); and an A/A comparison (one policy in every seat) covers 0 in about 95% of runs.
 * Games are played in process with the engine and a fixed policy (tests/engine/testkit.h). */
#include "../engine/testkit.h"

#include <math.h>

#include "tour/luck.h"

static int light(void)
{
    return getenv("OKR_SANITIZE") != NULL;
}

/* One hand with tk_policy (rng seeded per seat rotation so that plays differ), feeding every
 * chance event to L; per event the acting seat's term goes to sum/sum2/n[type]. Returns the
 * hand's scores in score[]. */
typedef struct stats {
    double sum[AR_LUCK_TYPES], sum2[AR_LUCK_TYPES];
    long long n[AR_LUCK_TYPES];
} stats;

static void add(stats *st, int type, double x)
{
    st->sum[type] += x;
    st->sum2[type] += x * x;
    st->n[type]++;
}

static void play_hand(const okr_rules *r, int players, uint64_t seed, uint64_t prng, int v,
                      ar_luck *L, stats *st, int32_t *score)
{
    okr_game g;
    assert_int_equal(okr_game_init(&g, r, players, seed, NULL, 0, NULL), OKR_OK);
    ar_luck_init(L, v, players);
    double before[OKR_MAX_PLAYERS];
    memcpy(before, L->luck, sizeof before);
    ar_luck_deal(L, &g);
    if (st)
        add(st, AR_LUCK_DEAL, L->luck[0] - before[0]);
    int steps = 0;
    while (g.phase != OKR_PH_HAND_OVER && g.phase != OKR_PH_GAME_OVER) {
        okr_action a;
        tk_policy(&g, &prng, &a);
        okr_game pre = g;
        okr_event e;
        assert_int_equal(okr_apply(&g, &a, &e, NULL), OKR_OK);
        if (a.type == OKR_A_DRAW && e.card != OKR_NOCARD) {
            memcpy(before, L->luck, sizeof before);
            ar_luck_draw(L, &pre, a.seat, e.card);
            if (st)
                add(st, AR_LUCK_DRAW, L->luck[a.seat] - before[a.seat]);
        }
        assert_true(++steps < 100000);
    }
    for (int s = 0; s < players; s++)
        score[s] = g.last.score[s];
}

/* Mean zero within 4 standard errors, per event type, preset, stock option and v. */
static void test_terms_mean_zero(void **state)
{
    (void)state;
    const char *pre[] = {"gin", "laws", "german", "arlington", "parlett"};
    const int pl[] = {2, 3, 4, 3, 3};
    const int vs[] = {AR_LUCK_V_HAND, AR_LUCK_V_NOISE, AR_LUCK_V_CONST};
    int hands = light() ? 60 : 400;
    for (int p = 0; p < 5; p++)
        for (int streams = 0; streams < 2; streams++)
            for (int vi = 0; vi < 3; vi++) {
                okr_rules r = tk_rules(pre[p], streams ? "stock=streams" : "stock=deck", NULL);
                stats st;
                memset(&st, 0, sizeof st);
                for (int h = 0; h < hands; h++) {
                    ar_luck L;
                    int32_t score[OKR_MAX_PLAYERS];
                    play_hand(&r, pl[p], 1000 + (uint64_t)h, (uint64_t)h * 31 + 7, vs[vi], &L, &st,
                              score);
                }
                for (int t = 0; t < AR_LUCK_TYPES; t++) {
                    double n = (double)st.n[t], m = st.sum[t] / n;
                    double var = st.sum2[t] / n - m * m, se = sqrt(var / n);
                    assert_true(st.n[t] >= hands);
                    if (vs[vi] == AR_LUCK_V_CONST) {
                        assert_true(st.sum2[t] == 0); /* a constant v: no term at all */
                        continue;
                    }
                    if (fabs(m) > 4 * se + 1e-9)
                        fail_msg("%s %s v=%d, %s terms: mean %.3f, standard error %.3f", pre[p],
                                 streams ? "streams" : "deck", vs[vi],
                                 t == AR_LUCK_DEAL ? "deal" : "draw", m, se);
                }
            }
}

/* The draw's expectation is exact: over every card the stock could give (each stock position
 * once), the terms of every seat average to zero. */
static void test_draw_expectation_exact(void **state)
{
    (void)state;
    const char *pre[] = {"gin", "laws", "german"};
    const int pl[] = {2, 3, 5};
    for (int p = 0; p < 3; p++)
        for (uint64_t seed = 1; seed <= 10; seed++) {
            okr_rules r = tk_rules(pre[p], "stock=streams", NULL);
            okr_game g;
            assert_int_equal(okr_game_init(&g, &r, pl[p], seed, NULL, 0, NULL), OKR_OK);
            for (int v = 0; v < 2; v++) { /* AR_LUCK_V_HAND, AR_LUCK_V_NOISE */
                for (int seat = 0; seat < pl[p]; seat++) {
                    double total[OKR_MAX_PLAYERS] = {0};
                    for (int i = 0; i < g.stock_n; i++) {
                        ar_luck L;
                        ar_luck_init(&L, v == 0 ? AR_LUCK_V_HAND : AR_LUCK_V_NOISE, pl[p]);
                        ar_luck_draw(&L, &g, seat, g.stock[i]);
                        for (int s = 0; s < pl[p]; s++)
                            total[s] += L.luck[s];
                    }
                    for (int s = 0; s < pl[p]; s++)
                        assert_true(fabs(total[s] / g.stock_n) < 1e-9);
                }
            }
        }
}

/* A/A: the same policy in both seats of gin, duplicate sets of two rotations (seats swapped,
 * the same deal, stock=streams); the 95% interval of the mean adjusted difference of "A" minus
 * "B" covers 0 in about 95% of runs. */
static void test_aa_coverage(void **state)
{
    (void)state;
    okr_rules r = tk_rules("gin", "stock=streams", NULL);
    int runs = light() ? 20 : 100, sets = 30, cover = 0, cover_raw = 0;
    for (int run = 0; run < runs; run++) {
        double s1 = 0, s2 = 0, r1 = 0, r2 = 0;
        for (int c = 0; c < sets; c++) {
            uint64_t seed = 77000 + (uint64_t)run * 1000 + (uint64_t)c;
            double d = 0, draw = 0;
            for (int rot = 0; rot < 2; rot++) {
                ar_luck L;
                int32_t score[OKR_MAX_PLAYERS];
                play_hand(&r, 2, seed, seed * 3 + (uint64_t)rot, AR_LUCK_V_HAND, &L, NULL, score);
                int a = rot, b = 1 - rot; /* "A" sits seat 0, then seat 1 */
                d += ((score[a] - L.luck[a]) - (score[b] - L.luck[b])) / 2;
                draw += (score[a] - score[b]) / 2.0;
            }
            s1 += d, s2 += d * d, r1 += draw, r2 += draw * draw;
        }
        double m = s1 / sets, se = sqrt((s2 / sets - m * m) / (sets - 1));
        double mr = r1 / sets, ser = sqrt((r2 / sets - mr * mr) / (sets - 1));
        cover += fabs(m) <= 2.045 * se; /* t, 29 degrees of freedom */
        cover_raw += fabs(mr) <= 2.045 * ser;
    }
    double share = (double)cover / runs;
    print_message("A/A: the adjusted interval covers 0 in %d of %d runs (raw: %d)\n", cover, runs,
                  cover_raw);
    assert_true(share >= (light() ? 0.75 : 0.88));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_draw_expectation_exact),
        cmocka_unit_test(test_terms_mean_zero),
        cmocka_unit_test(test_aa_coverage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
