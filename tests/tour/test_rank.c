/* test_rank.c - rank.c: the duplicate score rating and Plackett-Luce recover strengths that
 * games simulated here (seeded) were drawn from; the gauge, input-order invariance and
 * determinism; bootstrap coverage over repetitions; disconnected fields, perfect records and
 * ties; rho; seat effects; the head-to-head table; the SPRT; bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match/policy.h"
#include "tour/rank.h"

#define ELO_UNIT (400.0 / log(10.0))

/* ---- Simulation ------------------------------------------------------------------------- */

static double unif(ar_rng *r)
{
    return (double)(ar_rng_next(r) >> 11) * 0x1.0p-53;
}

static double gauss(ar_rng *r)
{
    double u = unif(r), v = unif(r);
    return sqrt(-2.0 * log(1.0 - u)) * cos(2.0 * M_PI * v);
}

/* Competition ranks from scores, higher is better. */
static void place_by_score(ar_rank_game *g)
{
    for (int s = 0; s < g->k; s++) {
        int ahead = 0;
        for (int t = 0; t < g->k; t++)
            ahead += g->score[t] > g->score[s];
        g->placement[s] = (uint8_t)(ahead + 1);
    }
}

typedef struct sim {
    int n, k;
    long long nsets;
    const double *skill; /* [n] true score offset, points per game */
    double deal_sd;      /* card luck of a seat in a set (shared by the set's rotations) */
    double noise_sd;     /* per game and seat */
    double seat_adv[AR_RANK_MAX_SEATS];
    uint64_t seed;
} sim;

/* nsets duplicate sets: a random k-subset in a random circular order, k rotations. The draws
 * do not depend on skill or seat_adv, so two simulations that differ only there share their
 * luck. */
static ar_rank_game *simulate(const sim *s, long long *ngames)
{
    ar_rng rng;
    ar_rng_seed(&rng, s->seed);
    ar_rank_game *g = calloc((size_t)(s->nsets * s->k), sizeof *g);
    assert_non_null(g);
    long long m = 0;
    for (long long c = 0; c < s->nsets; c++) {
        int perm[64];
        for (int i = 0; i < s->n; i++)
            perm[i] = i;
        for (int i = 0; i < s->k; i++) { /* partial Fisher-Yates: the table, in seat order */
            int j = i + (int)ar_rng_below(&rng, (uint32_t)(s->n - i));
            int t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        double deal[AR_RANK_MAX_SEATS];
        for (int st = 0; st < s->k; st++)
            deal[st] = s->deal_sd * gauss(&rng);
        for (int r = 0; r < s->k; r++) {
            ar_rank_game *x = &g[m++];
            x->set = 1000 + c;
            x->k = s->k;
            for (int st = 0; st < s->k; st++) {
                int e = perm[(st + r) % s->k];
                x->entrant[st] = e;
                x->score[st] =
                    100.0 + s->skill[e] + deal[st] + s->seat_adv[st] + s->noise_sd * gauss(&rng);
            }
            place_by_score(x);
        }
    }
    *ngames = m;
    return g;
}

/* ngames single-game sets of k random entrants, finishing orders drawn from Plackett-Luce
 * with strengths gamma. */
static ar_rank_game *simulate_pl(int n, int k, long long ngames, const double *gamma, uint64_t seed)
{
    ar_rng rng;
    ar_rng_seed(&rng, seed);
    ar_rank_game *g = calloc((size_t)ngames, sizeof *g);
    assert_non_null(g);
    for (long long m = 0; m < ngames; m++) {
        ar_rank_game *x = &g[m];
        int perm[64];
        for (int i = 0; i < n; i++)
            perm[i] = i;
        for (int i = 0; i < k; i++) {
            int j = i + (int)ar_rng_below(&rng, (uint32_t)(n - i));
            int t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        x->set = m;
        x->k = k;
        int left[AR_RANK_MAX_SEATS];
        for (int s = 0; s < k; s++) {
            x->entrant[s] = perm[s];
            left[s] = s;
        }
        for (int place = 1; place <= k; place++) {
            int nl = k - place + 1;
            double tot = 0;
            for (int u = 0; u < nl; u++)
                tot += gamma[x->entrant[left[u]]];
            double pick = unif(&rng) * tot;
            int u = 0;
            while (u < nl - 1 && (pick -= gamma[x->entrant[left[u]]]) >= 0)
                u++;
            x->placement[left[u]] = (uint8_t)place;
            x->score[left[u]] = 10.0 * (k - place);
            left[u] = left[nl - 1];
        }
    }
    return g;
}

static void shuffle_games(ar_rank_game *g, long long m, uint64_t seed)
{
    ar_rng rng;
    ar_rng_seed(&rng, seed);
    for (long long i = m - 1; i > 0; i--) {
        long long j = (long long)ar_rng_below(&rng, (uint32_t)(i + 1));
        ar_rank_game t = g[i];
        g[i] = g[j];
        g[j] = t;
    }
}

static void fit_ok(const ar_rank_game *g, long long m, int n, const ar_rank_opts *o,
                   ar_rank_result *r)
{
    char err[256] = "";
    int rc = ar_rank_fit(g, m, n, o, r, err, sizeof err);
    if (rc)
        fail_msg("ar_rank_fit: %d %s", rc, err);
}

/* Bitwise comparison of two results: every field, NaNs included. */
static int same_result(const ar_rank_result *a, const ar_rank_result *b)
{
    size_t n = (size_t)a->n;
    if (a->n != b->n || memcmp(a->entry, b->entry, n * sizeof *a->entry) ||
        memcmp(a->order, b->order, n * sizeof *a->order) ||
        memcmp(a->pair, b->pair, n * n * sizeof *a->pair))
        return 0;
    if (!a->rank_p != !b->rank_p ||
        (a->rank_p && memcmp(a->rank_p, b->rank_p, n * n * sizeof *a->rank_p)))
        return 0;
    return memcmp(a->seat_effect, b->seat_effect, sizeof a->seat_effect) == 0 &&
           memcmp(&a->var_relative, &b->var_relative, sizeof(double)) == 0 &&
           memcmp(&a->var_set_centred, &b->var_set_centred, sizeof(double)) == 0 &&
           memcmp(&a->rho, &b->rho, sizeof(double)) == 0 && a->connected == b->connected &&
           a->games == b->games && a->sets == b->sets && a->k_max == b->k_max &&
           a->iterations == b->iterations;
}

static double sum_scores(const ar_rank_result *r)
{
    double s = 0;
    for (int i = 0; i < r->n; i++)
        s += r->entry[i].score;
    return s;
}

static double sum_elos(const ar_rank_result *r)
{
    double s = 0;
    for (int i = 0; i < r->n; i++)
        s += r->entry[i].elo;
    return s;
}

/* ---- Score rating ----------------------------------------------------------------------- */

static void test_score_recovers_offsets(void **state)
{
    (void)state;
    const double skill[3] = {30, 0, -30};
    sim s = {
        .n = 3, .k = 3, .nsets = 60, .skill = skill, .deal_sd = 40, .noise_sd = 20, .seed = 11};
    long long m;
    ar_rank_game *g = simulate(&s, &m);
    ar_rank_opts o = {.bootstrap = 400, .seed = 5, .prior_games = 1.0};
    ar_rank_result r;
    fit_ok(g, m, 3, &o, &r);
    assert_int_equal(r.games, 180);
    assert_int_equal(r.sets, 60);
    assert_int_equal(r.k_max, 3);
    assert_true(r.connected);
    int inside = 0;
    for (int i = 0; i < 3; i++) {
        const ar_rank_entry *e = &r.entry[i];
        assert_int_equal(e->games, 180);
        assert_int_equal(e->sets, 60);
        assert_int_equal(e->rank, i + 1);
        assert_int_equal(r.order[i], i);
        /* the truth (already centred) within about 3 standard errors (the half-width is about
         * 2), the interval around the estimate, and about as wide as theory says: the deal
         * cancels within sets here, leaving SE = 20 sqrt(2/3) / sqrt(180) = 1.22 */
        double half = (e->score_hi - e->score_lo) / 2;
        inside += e->score_lo <= skill[i] && skill[i] <= e->score_hi;
        assert_true(fabs(e->score - skill[i]) < 1.5 * half);
        assert_true(e->score_lo <= e->score && e->score <= e->score_hi);
        assert_true(half > 1.96 * 1.22 * 0.7 && half < 1.96 * 1.22 * 1.3);
        /* a complete design: the LS rating is the raw mean relative score */
        assert_true(fabs(e->score - e->mean_rel) < 1e-9);
        /* the order is clear: rank interval is the point, elo agrees with the order */
        assert_int_equal(e->rank_lo, i + 1);
        assert_int_equal(e->rank_hi, i + 1);
        assert_true(e->elo_lo <= e->elo && e->elo <= e->elo_hi);
    }
    assert_true(inside >= 2); /* coverage proper: test_bootstrap_coverage */
    assert_true(r.entry[0].elo > r.entry[1].elo && r.entry[1].elo > r.entry[2].elo);
    assert_true(r.entry[0].p_next > 0.99 && r.entry[1].p_next > 0.99);
    assert_true(isnan(r.entry[2].p_next));
    assert_true(fabs(sum_scores(&r)) < 1e-9);
    assert_true(fabs(sum_elos(&r)) < 1e-9);
    ar_rank_free(&r);
    free(g);
}

/* An incomplete design (8 entrants, random 4-tables): strength of schedule matters, the LS
 * fit still recovers every offset. */
static void test_score_incomplete_design(void **state)
{
    (void)state;
    double skill[8];
    for (int i = 0; i < 8; i++)
        skill[i] = 35.0 - 10.0 * i; /* 35 .. -35, sums to 0 */
    sim s = {
        .n = 8, .k = 4, .nsets = 300, .skill = skill, .deal_sd = 30, .noise_sd = 25, .seed = 99};
    long long m;
    ar_rank_game *g = simulate(&s, &m);
    ar_rank_opts o = {.bootstrap = 200, .seed = 1, .prior_games = 1.0};
    ar_rank_result r;
    fit_ok(g, m, 8, &o, &r);
    int inside = 0;
    for (int i = 0; i < 8; i++) {
        assert_true(fabs(r.entry[i].score - skill[i]) < 4.0);
        inside += r.entry[i].score_lo <= skill[i] && skill[i] <= r.entry[i].score_hi;
        assert_true(r.entry[i].rank_lo <= r.entry[i].rank && r.entry[i].rank <= r.entry[i].rank_hi);
    }
    /* 8 correlated 95% intervals: 6 or more held the truth in 98 of 100 seeds tried; the
     * calibration itself is test_bootstrap_coverage's */
    assert_true(inside >= 6);
    assert_int_equal(r.order[0], 0);
    assert_int_equal(r.order[7], 7);
    assert_true(fabs(sum_scores(&r)) < 1e-9);
    ar_rank_free(&r);
    free(g);
}

/* Seat effects are measured and, with every set played in all rotations, leave the score
 * ratings untouched. */
static void test_seat_effects_cancel(void **state)
{
    (void)state;
    const double skill[4] = {10, 5, -5, -10};
    sim s = {.n = 4, .k = 4, .nsets = 80, .skill = skill, .deal_sd = 20, .noise_sd = 15, .seed = 7};
    long long m;
    ar_rank_game *g0 = simulate(&s, &m);
    s.seat_adv[0] = 12;
    ar_rank_game *g1 = simulate(&s, &m);
    ar_rank_result r0, r1;
    fit_ok(g0, m, 4, NULL, &r0);
    fit_ok(g1, m, 4, NULL, &r1);
    /* seat 0 gets +12, i.e. +12 * 3/4 against the table mean; the others -12/4 */
    assert_true(fabs((r1.seat_effect[0] - r0.seat_effect[0]) - 9.0) < 1e-9);
    assert_true(fabs((r1.seat_effect[1] - r0.seat_effect[1]) + 3.0) < 1e-9);
    for (int i = 0; i < 4; i++)
        assert_true(fabs(r0.entry[i].score - r1.entry[i].score) < 1e-9);
    for (int st = 4; st < AR_RANK_MAX_SEATS; st++)
        assert_true(isnan(r0.seat_effect[st]));
    ar_rank_free(&r0);
    ar_rank_free(&r1);
    free(g0);
    free(g1);
}

/* ---- Plackett-Luce ---------------------------------------------------------------------- */

static void test_pl_recovers_gammas(void **state)
{
    (void)state;
    const double elo[5] = {200, 100, 0, -100, -200};
    double gamma[5];
    for (int i = 0; i < 5; i++)
        gamma[i] = exp(elo[i] / ELO_UNIT);
    long long m = 4000;
    ar_rank_game *g = simulate_pl(5, 4, m, gamma, 2024);
    ar_rank_opts o = {.bootstrap = 200, .seed = 3, .prior_games = 1.0};
    ar_rank_result r;
    fit_ok(g, m, 5, &o, &r);
    int inside = 0;
    for (int i = 0; i < 5; i++) {
        assert_true(fabs(r.entry[i].elo - elo[i]) < 25.0);
        inside += r.entry[i].elo_lo <= elo[i] && elo[i] <= r.entry[i].elo_hi;
        /* a 95% interval of a few thousand games is a few tens of Elo wide, not 0 or 500 */
        double w = r.entry[i].elo_hi - r.entry[i].elo_lo;
        assert_true(w > 10 && w < 80);
    }
    assert_true(inside >= 4);
    assert_true(fabs(sum_elos(&r)) < 1e-9);
    assert_true(r.iterations > 1 && r.iterations < 1000);
    ar_rank_free(&r);
    free(g);
}

static ar_rank_game two(long long set, int a, int b, int pa, int pb)
{
    ar_rank_game x;
    memset(&x, 0, sizeof x);
    x.set = set;
    x.k = 2;
    x.entrant[0] = a;
    x.entrant[1] = b;
    x.placement[0] = (uint8_t)pa;
    x.placement[1] = (uint8_t)pb;
    x.score[0] = pa == 1 ? 100 : 0;
    x.score[1] = pb == 1 ? 100 : 0;
    return x;
}

/* k = 2 is Bradley-Terry: with a negligible prior, elo_a - elo_b = 173.7 ln(wins_a / wins_b);
 * a tie is half a win each. */
static void test_pl_two_player_exact(void **state)
{
    (void)state;
    ar_rank_game g[40];
    for (int i = 0; i < 40; i++)
        g[i] = i < 30 ? two(i, 0, 1, 1, 2) : two(i, 1, 0, 1, 2);
    ar_rank_opts o = {.bootstrap = 0, .seed = 0, .prior_games = 1e-9};
    ar_rank_result r;
    fit_ok(g, 40, 2, &o, &r);
    assert_true(fabs((r.entry[0].elo - r.entry[1].elo) - ELO_UNIT * log(3.0)) < 1e-3);
    assert_int_equal(r.entry[0].wins, 30);
    assert_true(fabs(r.entry[0].mean_place - 1.25) < 1e-12);
    assert_true(isnan(r.entry[0].elo_lo) && r.entry[0].rank_lo == 0);
    ar_rank_free(&r);

    /* 20 wins, 10 losses, 10 ties: 25 against 15 */
    for (int i = 0; i < 40; i++)
        g[i] = i < 20 ? two(i, 0, 1, 1, 2) : i < 30 ? two(i, 1, 0, 1, 2) : two(i, 0, 1, 1, 1);
    fit_ok(g, 40, 2, &o, &r);
    assert_true(fabs((r.entry[0].elo - r.entry[1].elo) - ELO_UNIT * log(25.0 / 15.0)) < 1e-3);
    assert_int_equal(r.entry[0].wins, 20); /* a shared first is a draw, not a win */
    assert_int_equal(r.entry[0].draws, 10);
    assert_int_equal(r.entry[1].wins, 10);
    assert_int_equal(r.entry[1].draws, 10);
    assert_true(fabs(r.pair[0 * 2 + 1].ahead - 25.0 / 40.0) < 1e-12);
    assert_true(fabs(r.pair[1 * 2 + 0].ahead - 15.0 / 40.0) < 1e-12);
    double gap_weak_prior = r.entry[0].elo - r.entry[1].elo;
    ar_rank_free(&r);

    /* a stronger prior pulls towards 0 */
    o.prior_games = 20;
    fit_ok(g, 40, 2, &o, &r);
    double gap = r.entry[0].elo - r.entry[1].elo;
    assert_true(gap > 0 && gap < gap_weak_prior - 10);
    ar_rank_free(&r);
}

/* A three-way tie at every table: nobody is better, everybody "won". */
static void test_all_ties(void **state)
{
    (void)state;
    ar_rank_game g[30];
    memset(g, 0, sizeof g);
    for (int i = 0; i < 30; i++) {
        g[i].set = i / 3;
        g[i].k = 3;
        for (int s = 0; s < 3; s++) {
            g[i].entrant[s] = (s + i) % 4; /* 4 entrants, 3 at a table */
            g[i].score[s] = 50;
            g[i].placement[s] = 1;
        }
    }
    ar_rank_opts o = {.bootstrap = 50, .seed = 1, .prior_games = 1.0};
    ar_rank_result r;
    fit_ok(g, 30, 4, &o, &r);
    for (int i = 0; i < 4; i++) {
        assert_true(fabs(r.entry[i].elo) < 1e-6);
        assert_true(fabs(r.entry[i].score) < 1e-9);
        assert_int_equal(r.entry[i].wins, 0);
        assert_int_equal(r.entry[i].draws, r.entry[i].games);
        assert_true(r.entry[i].mean_place == 1.0);
    }
    assert_true(r.pair[0 * 4 + 1].ahead == 0.5);
    assert_true(r.pair[0 * 4 + 1].diff == 0.0);
    ar_rank_free(&r);
}

/* An entrant that wins every game still has a finite rating (the prior), the best one, and
 * finite bounds; a stronger prior shrinks it. */
static void test_perfect_winner(void **state)
{
    (void)state;
    ar_rank_game g[60];
    memset(g, 0, sizeof g);
    for (int i = 0; i < 60; i++) {
        g[i].set = i / 3;
        g[i].k = 3;
        int other = 1 + (i % 3 == 0); /* 0 beats 1 and 2; 1 and 2 alternate */
        for (int s = 0; s < 3; s++) {
            int e = (s + i) % 3;
            g[i].entrant[s] = e;
            g[i].placement[s] = (uint8_t)(e == 0 ? 1 : e == other ? 2 : 3);
            g[i].score[s] = 100.0 - 30.0 * g[i].placement[s];
        }
    }
    double prev = INFINITY;
    for (int q = 0; q < 3; q++) {
        ar_rank_opts o = {.bootstrap = 100, .seed = 9, .prior_games = q == 0 ? 0.5 : q * 4.0};
        ar_rank_result r;
        fit_ok(g, 60, 3, &o, &r);
        assert_true(isfinite(r.entry[0].elo) && isfinite(r.entry[0].elo_hi));
        assert_true(r.entry[0].elo > 200);
        assert_true(r.entry[0].elo > r.entry[1].elo && r.entry[0].elo > r.entry[2].elo);
        assert_true(r.entry[0].elo < prev);
        prev = r.entry[0].elo;
        ar_rank_free(&r);
    }
    /* without a prior: no MLE; the cap keeps it finite */
    ar_rank_opts o = {.bootstrap = 0, .seed = 0, .prior_games = 0};
    ar_rank_result r;
    fit_ok(g, 60, 3, &o, &r);
    assert_true(isfinite(r.entry[0].elo) && r.entry[0].elo > prev);
    ar_rank_free(&r);
}

/* ---- Gauge, order, determinism ---------------------------------------------------------- */

static void test_disconnected(void **state)
{
    (void)state;
    /* {0, 1} only meet each other, {2, 3} too; entrant 4 never plays */
    ar_rank_game g[8];
    for (int i = 0; i < 8; i++) {
        g[i] = i < 4 ? two(i / 2, i % 2 ? 1 : 0, i % 2 ? 0 : 1, 1, 2)
                     : two(i / 2, i % 2 ? 3 : 2, i % 2 ? 2 : 3, 1, 2);
        g[i].score[0] = 80 + i;
        g[i].score[1] = 60;
    }
    ar_rank_opts o = {.bootstrap = 30, .seed = 2, .prior_games = 1.0};
    ar_rank_result r;
    fit_ok(g, 8, 5, &o, &r);
    assert_false(r.connected);
    assert_true(fabs(r.entry[0].score + r.entry[1].score) < 1e-9);
    assert_true(fabs(r.entry[2].score + r.entry[3].score) < 1e-9);
    assert_true(r.entry[0].score != 0);
    assert_true(r.entry[4].score == 0 && r.entry[4].games == 0);
    assert_true(isnan(r.entry[4].mean_rel) && isnan(r.entry[4].mean_place));
    for (int i = 0; i < 5; i++)
        assert_true(isfinite(r.entry[i].elo));
    assert_true(fabs(r.entry[4].elo - 0.0) < 1e-6 + fabs(sum_elos(&r)));
    assert_int_equal(r.pair[0 * 5 + 2].games, 0);
    assert_true(isnan(r.pair[0 * 5 + 2].diff));
    ar_rank_free(&r);

    /* joined by one game: connected */
    ar_rank_game h[9];
    memcpy(h, g, sizeof g);
    h[8] = two(99, 1, 2, 1, 2);
    fit_ok(h, 9, 4, &o, &r);
    assert_true(r.connected);
    assert_true(fabs(sum_scores(&r)) < 1e-9);
    ar_rank_free(&r);
}

static void test_order_invariance(void **state)
{
    (void)state;
    const double skill[6] = {15, 10, 0, 0, -10, -15};
    sim s = {
        .n = 6, .k = 3, .nsets = 60, .skill = skill, .deal_sd = 30, .noise_sd = 20, .seed = 123};
    long long m;
    ar_rank_game *g = simulate(&s, &m);
    ar_rank_opts o = {.bootstrap = 60, .seed = 77, .prior_games = 1.0};
    ar_rank_result a, b;
    fit_ok(g, m, 6, &o, &a);
    for (int t = 0; t < 3; t++) {
        shuffle_games(g, m, 1000 + (uint64_t)t);
        fit_ok(g, m, 6, &o, &b);
        assert_true(same_result(&a, &b));
        ar_rank_free(&b);
    }
    ar_rank_free(&a);
    free(g);
}

static void test_determinism(void **state)
{
    (void)state;
    const double skill[4] = {8, 3, -3, -8};
    sim s = {.n = 4, .k = 2, .nsets = 50, .skill = skill, .deal_sd = 30, .noise_sd = 20, .seed = 5};
    long long m;
    ar_rank_game *g = simulate(&s, &m);
    ar_rank_opts o = {.bootstrap = 100, .seed = 42, .prior_games = 1.0};
    ar_rank_result a, b, c;
    fit_ok(g, m, 4, &o, &a);
    fit_ok(g, m, 4, &o, &b);
    assert_true(same_result(&a, &b));
    o.seed = 43; /* the seed is used: other replicates, other intervals, same estimates */
    fit_ok(g, m, 4, &o, &c);
    assert_false(same_result(&a, &c));
    assert_true(a.entry[0].score == c.entry[0].score && a.entry[0].elo == c.entry[0].elo);
    assert_true(a.entry[0].score_lo != c.entry[0].score_lo);
    ar_rank_free(&a);
    ar_rank_free(&b);
    ar_rank_free(&c);
    free(g);
}

/* Rank probabilities: a distribution per entrant (rows) and per rank (columns: each replicate
 * gives every rank to exactly one entrant), consistent with the rank interval (which holds at
 * least 95% of the row, nothing below rank_lo or above rank_hi is more than 2.5%), with the
 * point rank, and with p_next for two close entrants far from the rest. */
static void test_rank_probabilities(void **state)
{
    (void)state;
    /* 0 and 1 close (their order uncertain), 2 clearly third, 3 and 4 close at the bottom */
    const double skill[5] = {20, 19, 0, -19, -20};
    sim s = {.n = 5, .k = 3, .nsets = 40, .skill = skill, .deal_sd = 30, .noise_sd = 25, .seed = 9};
    long long m;
    ar_rank_game *g = simulate(&s, &m);
    ar_rank_opts o = {.bootstrap = 500, .seed = 3, .prior_games = 1.0};
    ar_rank_result r;
    fit_ok(g, m, 5, &o, &r);
    assert_non_null(r.rank_p);
    double col[5] = {0};
    for (int i = 0; i < 5; i++) {
        const ar_rank_entry *e = &r.entry[i];
        const double *row = r.rank_p + i * 5;
        double sum = 0, inside = 0, below = 0, above = 0;
        for (int k = 1; k <= 5; k++) {
            double p = row[k - 1];
            assert_true(p >= 0 && p <= 1);
            /* a share of 500 replicates */
            assert_true(fabs(p * 500 - round(p * 500)) < 1e-9);
            sum += p;
            col[k - 1] += p;
            if (k < e->rank_lo)
                below += p;
            else if (k > e->rank_hi)
                above += p;
            else
                inside += p;
        }
        assert_true(fabs(sum - 1) < 1e-12);
        assert_true(inside >= 0.95 - 1e-12);
        assert_true(below <= 0.025 + 1e-12 && above <= 0.025 + 1e-12);
        assert_true(row[e->rank_lo - 1] > 0 && row[e->rank_hi - 1] > 0);
    }
    for (int k = 0; k < 5; k++)
        assert_true(fabs(col[k] - 1) < 1e-12);
    /* the close pairs share their ranks; the middle one is certain */
    assert_true(r.rank_p[0 * 5 + 0] > 0.05 && r.rank_p[1 * 5 + 0] > 0.05);
    assert_true(r.rank_p[3 * 5 + 4] > 0.05 && r.rank_p[4 * 5 + 4] > 0.05);
    assert_true(r.rank_p[2 * 5 + 2] > 0.99);
    /* two entrants that only swap with each other: P(first) of the better is about the share
     * in which its score beats the other's (p_next; the rank breaks score ties by elo) */
    int a = r.order[0];
    if (r.rank_p[a * 5 + 0] + r.rank_p[a * 5 + 1] > 0.999)
        assert_true(fabs(r.rank_p[a * 5 + 0] - r.entry[a].p_next) < 0.01);
    ar_rank_free(&r);

    /* no bootstrap: no probabilities */
    o.bootstrap = 0;
    fit_ok(g, m, 5, &o, &r);
    assert_null(r.rank_p);
    ar_rank_free(&r);
    free(g);
}

/* 50 seeded tournaments: the 95% interval holds the truth in between 85% and 100% of them. */
static void test_bootstrap_coverage(void **state)
{
    (void)state;
    const double skill[4] = {20, 5, -5, -20};
    int hit = 0, total = 0, hit_elo_order = 0;
    for (int rep = 0; rep < 50; rep++) {
        sim s = {.n = 4,
                 .k = 4,
                 .nsets = 30,
                 .skill = skill,
                 .deal_sd = 50,
                 .noise_sd = 40,
                 .seed = 5000 + (uint64_t)rep};
        long long m;
        ar_rank_game *g = simulate(&s, &m);
        ar_rank_opts o = {.bootstrap = 200, .seed = (uint64_t)rep, .prior_games = 1.0};
        ar_rank_result r;
        fit_ok(g, m, 4, &o, &r);
        for (int i = 0; i < 4; i++) {
            hit += r.entry[i].score_lo <= skill[i] && skill[i] <= r.entry[i].score_hi;
            total++;
        }
        hit_elo_order += r.entry[0].elo > r.entry[3].elo;
        ar_rank_free(&r);
        free(g);
    }
    double cover = (double)hit / total;
    print_message("coverage %.3f (%d/%d)\n", cover, hit, total);
    assert_true(cover >= 0.85 && cover <= 1.0);
    assert_true(hit_elo_order >= 45);
}

/* ---- rho -------------------------------------------------------------------------------- */

static void test_rho(void **state)
{
    (void)state;
    const double zero[4] = {0, 0, 0, 0};
    /* the deal explains (nearly) everything */
    sim s = {.n = 4, .k = 4, .nsets = 200, .skill = zero, .deal_sd = 50, .noise_sd = 2, .seed = 31};
    long long m;
    ar_rank_game *g = simulate(&s, &m);
    ar_rank_result r;
    fit_ok(g, m, 4, NULL, &r);
    print_message("rho (deal only) %.4f\n", r.rho);
    assert_true(r.rho > 0.95 && r.rho <= 1.0);
    ar_rank_free(&r);
    free(g);
    /* the deal explains nothing */
    s.deal_sd = 0;
    s.noise_sd = 30;
    g = simulate(&s, &m);
    fit_ok(g, m, 4, NULL, &r);
    print_message("rho (no deal) %.4f\n", r.rho);
    assert_true(fabs(r.rho) < 0.08);
    /* pure noise: var of relative scores = sd^2 (1 - 1/k), and so is the set-centred one */
    assert_true(fabs(r.var_relative / (900 * 0.75) - 1) < 0.1);
    assert_true(fabs(r.var_set_centred / (900 * 0.75) - 1) < 0.1);
    ar_rank_free(&r);
    free(g);
    /* big skill differences and no deal effect: still rho ~ 0 (the ratings are taken out
     * before the deal's share is measured; on raw relative scores this came out near -0.3) */
    const double spread[4] = {150, 50, -50, -150};
    s.skill = spread;
    g = simulate(&s, &m);
    fit_ok(g, m, 4, NULL, &r);
    print_message("rho (skill, no deal) %.4f\n", r.rho);
    assert_true(fabs(r.rho) < 0.08);
    ar_rank_free(&r);
    free(g);
    s.skill = zero;
    /* half and half: rho ~ 1/2 */
    s.deal_sd = 30;
    g = simulate(&s, &m);
    fit_ok(g, m, 4, NULL, &r);
    print_message("rho (half) %.4f\n", r.rho);
    assert_true(fabs(r.rho - 0.5) < 0.1);
    ar_rank_free(&r);
    free(g);
}

/* ---- Head-to-head ----------------------------------------------------------------------- */

static void test_pairs(void **state)
{
    (void)state;
    ar_rank_game g[6];
    memset(g, 0, sizeof g);
    /* sets 0 and 1: entrants 0, 1, 2 in rotations of 3 seats with known scores */
    for (int i = 0; i < 6; i++) {
        g[i].set = i / 3;
        g[i].k = 3;
        for (int s = 0; s < 3; s++) {
            int e = (s + i) % 3;
            g[i].entrant[s] = e;
            g[i].score[s] = (e == 0 ? 30.0 : e == 1 ? 20.0 : 10.0) + (i / 3) * (e == 0) * 10;
        }
        place_by_score(&g[i]);
    }
    ar_rank_opts o = {.bootstrap = 100, .seed = 8, .prior_games = 1.0};
    ar_rank_result r;
    fit_ok(g, 6, 3, &o, &r);
    const ar_rank_pair *p01 = &r.pair[0 * 3 + 1], *p10 = &r.pair[1 * 3 + 0];
    assert_int_equal(p01->games, 6);
    assert_true(fabs(p01->diff - 15.0) < 1e-12); /* 10 in set 0, 20 in set 1 */
    assert_true(p01->ahead == 1.0 && p10->ahead == 0.0);
    assert_true(p10->diff == -p01->diff && p10->diff_lo == -p01->diff_hi);
    assert_true(p01->diff_lo >= 10.0 - 1e-12 && p01->diff_hi <= 20.0 + 1e-12);
    assert_true(p01->diff_lo < p01->diff_hi);
    assert_int_equal(r.pair[1 * 3 + 2].games, 6);
    assert_true(fabs(r.pair[1 * 3 + 2].diff - 10.0) < 1e-12);
    assert_int_equal(r.pair[0].games, 0);
    assert_true(isnan(r.pair[0].diff) && isnan(r.pair[4].ahead));
    ar_rank_free(&r);
    /* one shared set: no interval */
    fit_ok(g, 3, 3, &o, &r);
    assert_true(fabs(r.pair[1].diff - 10.0) < 1e-12);
    assert_true(isnan(r.pair[1].diff_lo) && isnan(r.pair[1].diff_hi));
    ar_rank_free(&r);
}

static void test_empty_and_single(void **state)
{
    (void)state;
    ar_rank_result r;
    fit_ok(NULL, 0, 3, NULL, &r);
    assert_int_equal(r.games, 0);
    assert_false(r.connected);
    assert_true(isnan(r.rho));
    for (int i = 0; i < 3; i++)
        assert_true(r.entry[i].score == 0 && fabs(r.entry[i].elo) < 1e-9);
    ar_rank_free(&r);
    ar_rank_free(&r); /* freed twice: fine */
    fit_ok(NULL, 0, 1, NULL, &r);
    assert_true(r.connected && r.entry[0].rank == 1);
    ar_rank_free(&r);
}

/* ---- Bad input -------------------------------------------------------------------------- */

static void expect_einval(const ar_rank_game *g, long long m, int n, const ar_rank_opts *o,
                          const char *needle)
{
    ar_rank_result r;
    char err[256] = "";
    assert_int_equal(ar_rank_fit(g, m, n, o, &r, err, sizeof err), -EINVAL);
    if (!strstr(err, needle))
        fail_msg("message \"%s\" lacks \"%s\"", err, needle);
    assert_null(r.entry);
}

static void test_bad_input(void **state)
{
    (void)state;
    ar_rank_game ok[2] = {two(0, 0, 1, 1, 2), two(0, 1, 0, 1, 2)};
    ar_rank_game g[2];
    ar_rank_opts o = {.bootstrap = 10, .seed = 0, .prior_games = 1.0};

    memcpy(g, ok, sizeof ok);
    g[1].k = 1;
    expect_einval(g, 2, 3, &o, "game 1 (set 0): k = 1");
    g[1].k = 9;
    expect_einval(g, 2, 3, &o, "k = 9");
    memcpy(g, ok, sizeof ok);
    g[0].entrant[1] = 3;
    expect_einval(g, 2, 3, &o, "game 0 (set 0): seat 1: entrant 3");
    g[0].entrant[1] = -1;
    expect_einval(g, 2, 3, &o, "entrant -1");
    g[0].entrant[1] = 0;
    expect_einval(g, 2, 3, &o, "entrant 0 at seats 0 and 1");
    memcpy(g, ok, sizeof ok);
    g[1].placement[0] = 0;
    expect_einval(g, 2, 3, &o, "placement 0");
    g[1].placement[0] = 2;
    g[1].placement[1] = 2; /* a tie shares the better place: 1 1 */
    expect_einval(g, 2, 3, &o, "placement 2, expected 1");
    memcpy(g, ok, sizeof ok);
    g[0].score[1] = NAN;
    expect_einval(g, 2, 3, &o, "score is not finite");
    expect_einval(ok, 2, 0, &o, "0 entrants");
    expect_einval(ok, 2, AR_RANK_MAX_ENTRANTS + 1, &o, "entrants");
    expect_einval(NULL, 2, 3, &o, "bad game list");
    expect_einval(ok, -1, 3, &o, "bad game list");
    o.bootstrap = -1;
    expect_einval(ok, 2, 3, &o, "bootstrap -1");
    o.bootstrap = 0;
    o.prior_games = -1;
    expect_einval(ok, 2, 3, &o, "prior_games");
    o.prior_games = NAN;
    expect_einval(ok, 2, 3, &o, "prior_games");
    /* and the good input passes */
    ar_rank_result r;
    o.prior_games = 1;
    fit_ok(ok, 2, 3, &o, &r);
    ar_rank_free(&r);
}

/* ---- SPRT ------------------------------------------------------------------------------- */

static void test_sprt_llr_bounds(void **state)
{
    (void)state;
    double lo, hi;
    ar_sprt_bounds(0.05, 0.05, &lo, &hi);
    assert_true(fabs(lo + 2.944439) < 1e-6 && fabs(hi - 2.944439) < 1e-6);
    ar_sprt_bounds(0.05, 0.10, &lo, &hi);
    assert_true(fabs(lo - log(0.10 / 0.95)) < 1e-12 && fabs(hi - log(0.90 / 0.05)) < 1e-12);
    const double x[3] = {1, 2, 3};
    /* sum x^2 = 14, sum (x - 2)^2 = 2: (3/2) ln 7 */
    assert_true(fabs(ar_sprt_llr(x, 3, 0, 2) - 1.5 * log(7.0)) < 1e-12);
    assert_true(fabs(ar_sprt_llr(x, 3, 2, 0) + 1.5 * log(7.0)) < 1e-12);
    assert_true(ar_sprt_llr(x, 3, 0, 2) > 0);  /* data near s1 */
    assert_true(ar_sprt_llr(x, 3, 2, 10) < 0); /* data near s0 */
    assert_true(ar_sprt_llr(x, 0, 0, 1) == 0 && ar_sprt_llr(NULL, 3, 0, 1) == 0);
    assert_true(ar_sprt_llr(x, 3, 1, 1) == 0);
    const double c[2] = {1, 1};
    assert_true(ar_sprt_llr(c, 2, 0, 1) == INFINITY);
    assert_true(ar_sprt_decide(3.0, lo, hi) == 1);
    assert_true(ar_sprt_decide(hi, lo, hi) == 1);
    assert_true(ar_sprt_decide(lo, lo, hi) == -1);
    assert_true(ar_sprt_decide(-3.0, lo, hi) == -1);
    assert_true(ar_sprt_decide(0.1, lo, hi) == 0);
    assert_true(ar_sprt_decide(NAN, lo, hi) == 0);
}

/* Sequential runs on normal data: drawn at s1 the test accepts H1, drawn at s0 it accepts H0,
 * in at least 85% of 40 seeded runs each (the design error rates are 5%). */
static void test_sprt_decides(void **state)
{
    (void)state;
    const double s0 = 0, s1 = 5, sd = 20; /* points per game */
    double lo, hi;
    ar_sprt_bounds(0.05, 0.05, &lo, &hi);
    double *x = malloc(100000 * sizeof *x);
    assert_non_null(x);
    for (int truth = 0; truth < 2; truth++) {
        int right = 0, undecided = 0;
        long long total_n = 0;
        for (int run = 0; run < 40; run++) {
            ar_rng rng;
            ar_rng_seed(&rng, 777 + (uint64_t)run + 1000 * (uint64_t)truth);
            int d = 0;
            long long m = 0;
            while (d == 0 && m < 100000) {
                x[m] = (truth ? s1 : s0) + sd * gauss(&rng);
                m++;
                if (m >= 2)
                    d = ar_sprt_decide(ar_sprt_llr(x, m, s0, s1), lo, hi);
            }
            right += d == (truth ? 1 : -1);
            undecided += d == 0;
            total_n += m;
        }
        print_message("truth %s: %d/40 right, mean %lld sets\n", truth ? "s1" : "s0", right,
                      total_n / 40);
        assert_true(right >= 34);
        assert_int_equal(undecided, 0);
        /* about 5.3 sd^2 / (s1 - s0)^2 = 85 sets; far from 10x that */
        assert_true(total_n / 40 < 400);
    }
    free(x);
}

/* Games of a fixed number of hands (`hands = N`): the game's score is the sum of its hands,
 * and rho per hand groups the residuals by (set, hand, seat). A small gin-like fixture of
 * 3 sets x 2 rotations x 3 hands, with entrant 0 at seat 0 in rotation 0 and at seat 1 in
 * rotation 1; everything is recomputed here straight from the definitions in rank.h. */
enum { HF_SETS = 3, HF_HANDS = 3 };
static int32_t hf_hand[HF_SETS][2][HF_HANDS][AR_RANK_MAX_SEATS];

static void hf_games(ar_rank_game *g, int with_hands)
{
    for (int c = 0; c < HF_SETS; c++)
        for (int r = 0; r < 2; r++) {
            ar_rank_game *x = &g[c * 2 + r];
            memset(x, 0, sizeof *x);
            x->set = c;
            x->k = 2;
            x->entrant[0] = r;
            x->entrant[1] = 1 - r;
            for (int h = 0; h < HF_HANDS; h++)
                for (int s = 0; s < 2; s++)
                    x->score[s] += hf_hand[c][r][h][s];
            x->placement[0] = x->score[0] >= x->score[1] ? 1 : 2;
            x->placement[1] = x->score[1] >= x->score[0] ? 1 : 2;
            if (with_hands) {
                x->nhands = HF_HANDS;
                x->hand = (const int32_t(*)[AR_RANK_MAX_SEATS])hf_hand[c][r];
            }
        }
}

static void test_hands_fixture(void **state)
{
    (void)state;
    /* the cards of hand h in set c give seat 0 `luck`; entrant 0 plays 4 points better */
    const int luck[HF_SETS][HF_HANDS] = {{10, -6, 3}, {-2, 8, 5}, {7, 1, -9}};
    const int noise[HF_SETS][2][HF_HANDS] = {
        {{1, 0, -2}, {0, 2, 1}}, {{-1, 1, 0}, {2, -2, 1}}, {{0, 3, -1}, {1, 0, -3}}};
    for (int c = 0; c < HF_SETS; c++)
        for (int r = 0; r < 2; r++)
            for (int h = 0; h < HF_HANDS; h++) {
                int skill = r == 0 ? 4 : -4; /* seat 0's skill edge: entrant 0 sits there in r0 */
                hf_hand[c][r][h][0] = luck[c][h] + skill + noise[c][r][h];
                hf_hand[c][r][h][1] = 0;
            }
    ar_rank_game g[HF_SETS * 2];
    hf_games(g, 1);
    ar_rank_opts o = {.bootstrap = 0, .seed = 1, .prior_games = 1.0};
    ar_rank_result r;
    char err[256];
    assert_int_equal(ar_rank_fit(g, HF_SETS * 2, 2, &o, &r, err, sizeof err), 0);

    /* the score rating: half the mean difference per game, from the summed hands */
    double diff = 0;
    for (int c = 0; c < HF_SETS; c++)
        for (int rot = 0; rot < 2; rot++)
            for (int h = 0; h < HF_HANDS; h++) {
                double d = hf_hand[c][rot][h][0] - hf_hand[c][rot][h][1];
                diff += rot == 0 ? d : -d; /* entrant 0 minus entrant 1 */
            }
    double theta0 = diff / (HF_SETS * 2) / 2;
    assert_true(fabs(r.entry[0].score - theta0) < 1e-9);
    assert_true(fabs(r.entry[1].score + theta0) < 1e-9);

    /* rho per hand: residual = relative hand score - prediction / hands; groups (set, h, s) */
    double ss = 0, within = 0;
    long long nobs = 0, dof = 0;
    for (int c = 0; c < HF_SETS; c++)
        for (int h = 0; h < HF_HANDS; h++)
            for (int s = 0; s < 2; s++) {
                double e[2];
                for (int rot = 0; rot < 2; rot++) {
                    const int32_t *x = hf_hand[c][rot][h];
                    int ent = s == 0 ? rot : 1 - rot;
                    double pred = ent == 0 ? theta0 : -theta0;
                    e[rot] = (x[s] - (x[0] + x[1]) / 2.0) - pred / HF_HANDS;
                    ss += e[rot] * e[rot];
                    nobs++;
                }
                double m = (e[0] + e[1]) / 2;
                within += (e[0] - m) * (e[0] - m) + (e[1] - m) * (e[1] - m);
                dof += 1;
            }
    double rho_hand = 1 - (within / (double)dof) / (ss / (double)nobs);
    assert_int_equal(r.hand_obs, nobs);
    assert_true(fabs(r.rho_hand - rho_hand) < 1e-9);
    assert_true(r.rho_hand > 0.8); /* the luck terms dominate and are shared by the rotations */
    assert_true(fabs(r.effective_games - HF_SETS * 2 / (1 - r.rho)) < 1e-9);
    ar_rank_free(&r);

    /* the same games without hand scores: the same ratings and rho, no rho per hand */
    ar_rank_game plain[HF_SETS * 2];
    hf_games(plain, 0);
    ar_rank_result q;
    assert_int_equal(ar_rank_fit(plain, HF_SETS * 2, 2, &o, &q, err, sizeof err), 0);
    assert_true(fabs(q.entry[0].score - theta0) < 1e-9);
    assert_true(isnan(q.rho_hand));
    assert_int_equal(q.hand_obs, 0);
    ar_rank_free(&q);

    /* a count of hands without their scores is bad input */
    plain[2].nhands = 2;
    assert_int_equal(ar_rank_fit(plain, HF_SETS * 2, 2, &o, &q, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "hands without scores"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_score_recovers_offsets),
        cmocka_unit_test(test_score_incomplete_design),
        cmocka_unit_test(test_seat_effects_cancel),
        cmocka_unit_test(test_pl_recovers_gammas),
        cmocka_unit_test(test_pl_two_player_exact),
        cmocka_unit_test(test_all_ties),
        cmocka_unit_test(test_perfect_winner),
        cmocka_unit_test(test_disconnected),
        cmocka_unit_test(test_order_invariance),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_bootstrap_coverage),
        cmocka_unit_test(test_rank_probabilities),
        cmocka_unit_test(test_rho),
        cmocka_unit_test(test_pairs),
        cmocka_unit_test(test_empty_and_single),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_sprt_llr_bounds),
        cmocka_unit_test(test_sprt_decides),
        cmocka_unit_test(test_hands_fixture),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
