/* test_schedule.c - the tournament plan (arena/tour/schedule.c): complete round robins, balanced
 * designs and their bounds, gauntlets, circular seat orders across deals, common deal seeds
 * within a round, determinism, shards, game ids and refused options. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match/match.h"
#include "tour/schedule.h"

static ar_schedule_opts opts(int n, int k, long long max_tables, uint64_t seed)
{
    ar_schedule_opts o;
    memset(&o, 0, sizeof o);
    o.n = n;
    o.k = k;
    o.format = AR_FORMAT_ROUND_ROBIN;
    o.challenger = -1;
    o.baseline = -1;
    o.deals = 1;
    o.max_tables = max_tables;
    o.seed = seed;
    return o;
}

static void make(const ar_schedule_opts *o, ar_schedule *s)
{
    char err[256] = "";
    int rc = ar_schedule_make(o, s, err, sizeof err);
    if (rc != 0)
        fail_msg("ar_schedule_make(n=%d k=%d): %d %s", o->n, o->k, rc, err);
}

/* Tables per entrant, from the tables themselves (not from pair_meets). */
static void table_counts(const ar_schedule *s, int *count)
{
    memset(count, 0, (size_t)s->o.n * sizeof *count);
    for (int t = 0; t < s->ntables; t++)
        for (int i = 0; i < s->o.k; i++)
            count[s->table[t].entrant[i]]++;
}

/* Pair counts recomputed from the tables; also checks pair_meets agrees and every table is
 * k distinct entrants in ascending order. lo/hi over pairs of entrants in [from, n). */
static void pair_range(const ar_schedule *s, int from, int *lo, int *hi)
{
    int n = s->o.n, k = s->o.k;
    int *m = calloc((size_t)n * (size_t)n, sizeof *m);
    assert_non_null(m);
    for (int t = 0; t < s->ntables; t++) {
        const int *e = s->table[t].entrant;
        for (int i = 0; i < k; i++) {
            assert_true(e[i] >= 0 && e[i] < n);
            if (i > 0)
                assert_true(e[i - 1] < e[i]);
            for (int j = 0; j < k; j++)
                if (i != j)
                    m[e[i] * n + e[j]]++;
        }
    }
    *lo = 1 << 30;
    *hi = -1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            assert_int_equal(m[i * n + j], s->pair_meets[i * n + j]);
            if (i >= from && j > i) {
                if (m[i * n + j] < *lo)
                    *lo = m[i * n + j];
                if (m[i * n + j] > *hi)
                    *hi = m[i * n + j];
            }
        }
    free(m);
}

static void test_round_robin_complete(void **state)
{
    (void)state;
    ar_schedule_opts o = opts(5, 3, 2000, 7);
    o.deals = 4;
    ar_schedule s;
    make(&o, &s);
    assert_int_equal(s.complete, 1);
    assert_int_equal(s.ntables, 10); /* C(5, 3) */
    assert_int_equal(s.nsets, 40);
    assert_int_equal(s.ngames, 120);
    int lo, hi, count[5];
    pair_range(&s, 0, &lo, &hi);
    assert_int_equal(lo, 3); /* C(3, 1): tables holding a given pair */
    assert_int_equal(hi, 3);
    table_counts(&s, count);
    for (int i = 0; i < 5; i++)
        assert_int_equal(count[i], 6); /* C(4, 2) */
    /* Every table is a different subset. */
    for (int a = 0; a < s.ntables; a++)
        for (int b = a + 1; b < s.ntables; b++)
            assert_memory_not_equal(s.table[a].entrant, s.table[b].entrant, 3 * sizeof(int));
    ar_schedule_free(&s);
    ar_schedule_free(&s); /* freeing twice is allowed */
}

static void test_balanced_design(void **state)
{
    (void)state;
    ar_schedule_opts o = opts(12, 4, 30, 1);
    ar_schedule s;
    make(&o, &s);
    assert_int_equal(s.complete, 0); /* C(12, 4) = 495 > 30 */
    assert_int_equal(s.ntables, 30);
    int lo, hi, count[12];
    pair_range(&s, 0, &lo, &hi);
    assert_true(hi - lo <= 2);
    table_counts(&s, count);
    for (int i = 0; i < 12; i++)
        assert_int_equal(count[i], 10); /* 30 x 4 / 12, and counts are within 1 */
    ar_schedule_free(&s);
}

/* The bounds over a grid of sizes, seeds and table budgets, including the large tables on
 * few entrants where a plain greedy leaves spreads of 3 and 4. */
static void test_balanced_grid(void **state)
{
    (void)state;
    static const long long budgets[] = {1, 2, 5, 7, 13, 20, 31, 50, 77};
    int cases = 0;
    for (int k = 2; k <= 8; k++)
        for (int n = k + 1; n <= 20; n += (k >= 6 ? 1 : 3))
            for (size_t b = 0; b < sizeof budgets / sizeof budgets[0]; b++) {
                if (ar_schedule_choose(n, k) <= budgets[b])
                    continue;
                ar_schedule_opts o = opts(n, k, budgets[b], 1000 + (uint64_t)n);
                ar_schedule s;
                make(&o, &s);
                int lo, hi, count[20], clo = 1 << 30, chi = -1;
                pair_range(&s, 0, &lo, &hi);
                table_counts(&s, count);
                for (int i = 0; i < n; i++) {
                    clo = count[i] < clo ? count[i] : clo;
                    chi = count[i] > chi ? count[i] : chi;
                }
                if (hi - lo > 2 || chi - clo > 1)
                    fail_msg("n=%d k=%d tables=%lld: pairs %d..%d, tables per entrant %d..%d", n, k,
                             budgets[b], lo, hi, clo, chi);
                ar_schedule_free(&s);
                cases++;
            }
    assert_true(cases > 100);
}

static void test_gauntlet(void **state)
{
    (void)state;
    /* Small field: every subset of it. */
    ar_schedule_opts o = opts(6, 3, 2000, 3);
    o.format = AR_FORMAT_GAUNTLET;
    o.challenger = 2;
    ar_schedule s;
    make(&o, &s);
    assert_int_equal(s.complete, 1);
    assert_int_equal(s.ntables, 10); /* C(5, 2) */
    int count[40];
    table_counts(&s, count);
    assert_int_equal(count[2], s.ntables);
    for (int i = 0; i < 6; i++)
        if (i != 2)
            assert_int_equal(count[i], 4);
    ar_schedule_free(&s);

    /* With a baseline. */
    o.baseline = 5;
    make(&o, &s);
    assert_int_equal(s.ntables, 4); /* C(4, 1) */
    table_counts(&s, count);
    assert_int_equal(count[2], 4);
    assert_int_equal(count[5], 4);
    for (int i = 0; i < 5; i++)
        if (i != 2)
            assert_int_equal(count[i], 1);
    ar_schedule_free(&s);

    /* Large field: a design over the field; every field member exactly as often. */
    o = opts(40, 4, 100, 9);
    o.format = AR_FORMAT_GAUNTLET;
    o.challenger = 0;
    o.baseline = 1;
    make(&o, &s);
    assert_int_equal(s.complete, 0);
    assert_int_equal(s.ntables, 95); /* field 38, 2 free seats: multiples of 19 */
    table_counts(&s, count);
    assert_int_equal(count[0], 95);
    assert_int_equal(count[1], 95);
    for (int i = 2; i < 40; i++)
        assert_int_equal(count[i], 5);
    int lo, hi;
    pair_range(&s, 2, &lo, &hi);
    assert_true(hi - lo <= 2);
    ar_schedule_free(&s);

    /* Two seats, no baseline: the challenger meets each other entrant once per deal. */
    o = opts(4, 2, 2000, 9);
    o.format = AR_FORMAT_GAUNTLET;
    o.challenger = 3;
    make(&o, &s);
    assert_int_equal(s.ntables, 3);
    pair_range(&s, 0, &lo, &hi);
    for (int i = 0; i < 3; i++)
        assert_int_equal(s.pair_meets[3 * 4 + i], 1);
    ar_schedule_free(&s);

    /* Two seats with a baseline: fine when the field is just the baseline. */
    o = opts(2, 2, 2000, 9);
    o.format = AR_FORMAT_GAUNTLET;
    o.challenger = 0;
    o.baseline = 1;
    make(&o, &s);
    assert_int_equal(s.ntables, 1);
    ar_schedule_free(&s);
}

/* Circular orders: for k = 3 and 4, (k - 1)! consecutive deals of one table use every
 * circular order exactly once, so every ordered neighbour pair (a passes to b) occurs equally
 * often; in each set every entrant sits in every seat once over the k rotations. */
static void check_orders(int k)
{
    ar_schedule_opts o = opts(k, k, 10, 5);
    int norders = k == 3 ? 2 : 6;
    o.deals = 3 * norders;
    ar_schedule s;
    make(&o, &s);
    assert_int_equal(s.ntables, 1);
    for (long long start = 0; start + norders <= o.deals; start += 1) {
        int succ[8][8];
        memset(succ, 0, sizeof succ);
        for (long long d = start; d < start + norders; d++) {
            ar_set_plan p;
            ar_schedule_set(&s, d, &p);
            assert_int_equal(p.deal, d);
            int seen[8][8];
            memset(seen, 0, sizeof seen);
            for (int r = 0; r < k; r++)
                for (int seat = 0; seat < k; seat++)
                    seen[ar_schedule_seat(&p, k, seat, r)][seat]++;
            for (int e = 0; e < k; e++)
                for (int seat = 0; seat < k; seat++)
                    assert_int_equal(seen[e][seat], 1);
            for (int i = 0; i < k; i++)
                succ[p.order[i]][p.order[(i + 1) % k]]++;
        }
        int want = norders * k / (k * (k - 1)); /* ordered pairs occur equally: 1 or 2 */
        for (int a = 0; a < k; a++)
            for (int b = 0; b < k; b++)
                assert_int_equal(succ[a][b], a == b ? 0 : want);
    }
    ar_schedule_free(&s);
}

static void test_seat_orders(void **state)
{
    (void)state;
    check_orders(3);
    check_orders(4);
    /* k >= 5: the orders are permutations of the table and they vary across deals. */
    ar_schedule_opts o = opts(6, 6, 10, 5);
    o.deals = 8;
    ar_schedule s;
    make(&o, &s);
    int distinct = 0;
    ar_set_plan first;
    ar_schedule_set(&s, 0, &first);
    for (long long d = 0; d < o.deals; d++) {
        ar_set_plan p;
        ar_schedule_set(&s, d, &p);
        int seen[6] = {0};
        for (int i = 0; i < 6; i++)
            seen[p.order[i]]++;
        for (int i = 0; i < 6; i++)
            assert_int_equal(seen[i], 1);
        if (memcmp(p.order, first.order, sizeof first.order) != 0)
            distinct++;
    }
    assert_true(distinct >= 5);
    ar_schedule_free(&s);
    /* k = 2: one circular order, the rotations swap the seats. */
    o = opts(2, 2, 10, 5);
    make(&o, &s);
    ar_set_plan p;
    ar_schedule_set(&s, 0, &p);
    assert_int_equal(ar_schedule_seat(&p, 2, 0, 0), ar_schedule_seat(&p, 2, 1, 1));
    assert_int_not_equal(ar_schedule_seat(&p, 2, 0, 0), ar_schedule_seat(&p, 2, 0, 1));
    ar_schedule_free(&s);
}

/* Set s plays table s % ntables on deal s / ntables, and every table of a round shares the
 * deal seed, which is `arena match`'s seed for that deal. */
static void test_sets_and_crn(void **state)
{
    (void)state;
    ar_schedule_opts o = opts(6, 3, 2000, 0xdeadbeefcafef00dULL);
    o.deals = 3;
    ar_schedule s;
    make(&o, &s);
    assert_int_equal(s.ntables, 20);
    for (long long set = 0; set < s.nsets; set++) {
        ar_set_plan p;
        ar_schedule_set(&s, set, &p);
        assert_int_equal(p.set, set);
        assert_int_equal(p.table, set % 20);
        assert_int_equal(p.deal, set / 20);
        assert_true(p.deal_seed == ar_match_deal_seed(o.seed, p.deal));
        /* The order is the table's entrants. */
        int seen[6] = {0};
        for (int i = 0; i < 3; i++)
            seen[p.order[i]]++;
        for (int i = 0; i < 3; i++)
            assert_int_equal(seen[s.table[p.table].entrant[i]], 1);
    }
    ar_set_plan a, b;
    ar_schedule_set(&s, 20, &a);
    ar_schedule_set(&s, 39, &b);
    assert_true(a.deal_seed == b.deal_seed);
    ar_schedule_set(&s, 40, &b);
    assert_true(a.deal_seed != b.deal_seed);
    ar_schedule_free(&s);
}

static void test_determinism(void **state)
{
    (void)state;
    ar_schedule_opts o = opts(15, 5, 60, 77);
    o.deals = 3;
    ar_schedule s1, s2, s3;
    make(&o, &s1);
    make(&o, &s2);
    assert_int_equal(s1.ntables, s2.ntables);
    assert_memory_equal(s1.table, s2.table, (size_t)s1.ntables * sizeof *s1.table);
    for (long long set = 0; set < s1.nsets; set++) {
        ar_set_plan p1, p2;
        ar_schedule_set(&s1, set, &p1);
        ar_schedule_set(&s2, set, &p2);
        assert_memory_equal(&p1, &p2, sizeof p1);
    }
    /* Another seed gives another design (the seed is used, not ignored). */
    o.seed = 78;
    make(&o, &s3);
    assert_memory_not_equal(s1.table, s3.table, (size_t)s1.ntables * sizeof *s1.table);
    ar_schedule_free(&s1);
    ar_schedule_free(&s2);
    ar_schedule_free(&s3);
}

static void test_shards(void **state)
{
    (void)state;
    for (int n = 1; n <= 7; n++) {
        long long per[7] = {0};
        for (long long set = 0; set < 100; set++) {
            int owners = 0;
            for (int k = 0; k < n; k++)
                if (ar_schedule_in_shard(set, k, n)) {
                    owners++;
                    per[k]++;
                }
            assert_int_equal(owners, 1);
        }
        for (int k = 0; k < n; k++)
            assert_true(per[k] == 100 / n || per[k] == 100 / n + 1);
    }
    assert_false(ar_schedule_in_shard(3, 0, 0));
    assert_false(ar_schedule_in_shard(3, 2, 2));
    assert_false(ar_schedule_in_shard(3, -1, 2));
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

static void test_game_ids(void **state)
{
    (void)state;
    ar_schedule_opts o = opts(5, 4, 2000, 123);
    o.deals = 3;
    ar_schedule s;
    make(&o, &s);
    size_t n = (size_t)s.ngames;
    char(*ids)[64] = calloc(n, sizeof *ids);
    assert_non_null(ids);
    size_t g = 0;
    for (long long set = 0; set < s.nsets; set++) {
        ar_set_plan p;
        ar_schedule_set(&s, set, &p);
        for (int r = 0; r < o.k; r++)
            ar_schedule_game_id(ids[g++], sizeof ids[0], o.seed, &p, r);
    }
    assert_int_equal(g, n);
    ar_set_plan p;
    ar_schedule_set(&s, 7, &p);
    char one[64];
    ar_schedule_game_id(one, sizeof one, o.seed, &p, 2);
    assert_string_equal(one, "t123-s7-d1-T2-r2");
    qsort(ids, n, sizeof *ids, cmp_str);
    for (size_t i = 1; i < n; i++)
        assert_string_not_equal(ids[i - 1], ids[i]);
    free(ids);
    ar_schedule_free(&s);
}

static void expect_einval(ar_schedule_opts o, const char *fragment)
{
    ar_schedule s;
    char err[256] = "";
    assert_int_equal(ar_schedule_make(&o, &s, err, sizeof err), -EINVAL);
    if (!strstr(err, fragment))
        fail_msg("expected \"%s\" in \"%s\"", fragment, err);
    assert_null(s.table);
    ar_schedule_free(&s);
}

static void test_bad_options(void **state)
{
    (void)state;
    expect_einval(opts(5, 1, 10, 1), "seats");
    expect_einval(opts(5, 9, 10, 1), "seats");
    expect_einval(opts(3, 4, 10, 1), "3 entrants for 4 seats");
    expect_einval(opts(2000, 4, 10, 1), "entrants");
    expect_einval(opts(5, 3, 0, 1), "max_tables");
    expect_einval(opts(5, 3, AR_SCHED_MAX_TABLES + 1LL, 1), "max_tables");
    ar_schedule_opts o = opts(5, 3, 10, 1);
    o.deals = 0;
    expect_einval(o, "deals");
    o = opts(5, 3, 10, 1);
    o.deals = INT64_MAX / 2;
    expect_einval(o, "more than the limit of");
    /* the limit itself (a resumed tournament.json is checked here too): 10 tables x 3 seats */
    o = opts(5, 3, 10, 1);
    o.deals = AR_SCHED_MAX_GAMES / 30 + 1;
    expect_einval(o, "more than the limit of");
    o.deals = AR_SCHED_MAX_GAMES / 30;
    ar_schedule s;
    char err[256];
    assert_int_equal(ar_schedule_make(&o, &s, err, sizeof err), 0);
    assert_true(s.ngames <= AR_SCHED_MAX_GAMES);
    /* ar_schedule_ntables agrees with the tables it makes */
    assert_int_equal(ar_schedule_ntables(5, 3, 0, AR_FORMAT_ROUND_ROBIN, 10), s.ntables);
    ar_schedule_free(&s);
    o = opts(5, 3, 10, 1);
    o.format = 7;
    expect_einval(o, "format");
    o.format = AR_FORMAT_GAUNTLET;
    o.challenger = 5;
    expect_einval(o, "challenger");
    o.challenger = 1;
    o.baseline = 1;
    expect_einval(o, "its own baseline");
    o.baseline = 9;
    expect_einval(o, "baseline");
    o = opts(5, 2, 10, 1);
    o.format = AR_FORMAT_GAUNTLET;
    o.challenger = 0;
    o.baseline = 1;
    expect_einval(o, "never play");
}

static void test_choose(void **state)
{
    (void)state;
    assert_int_equal(ar_schedule_choose(5, 3), 10);
    assert_int_equal(ar_schedule_choose(12, 4), 495);
    assert_int_equal(ar_schedule_choose(100, 4), 3921225);
    assert_int_equal(ar_schedule_choose(1024, 7), 229479463334370304LL); /* fits */
    assert_int_equal(ar_schedule_choose(1024, 8), INT64_MAX);            /* 2.9e19 does not */
    assert_int_equal(ar_schedule_choose(1024, 1016), INT64_MAX);
    assert_int_equal(ar_schedule_choose(3, 5), 0);
    /* A huge C(n, k) goes to the design without overflowing. */
    ar_schedule_opts o = opts(1024, 8, 50, 1);
    ar_schedule s;
    make(&o, &s);
    assert_int_equal(s.complete, 0);
    assert_int_equal(s.ntables, 50);
    ar_schedule_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_robin_complete),
        cmocka_unit_test(test_balanced_design),
        cmocka_unit_test(test_balanced_grid),
        cmocka_unit_test(test_gauntlet),
        cmocka_unit_test(test_seat_orders),
        cmocka_unit_test(test_sets_and_crn),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_shards),
        cmocka_unit_test(test_game_ids),
        cmocka_unit_test(test_bad_options),
        cmocka_unit_test(test_choose),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
