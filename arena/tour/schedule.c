/* schedule.c - the tournament's plan (schedule.h): which tables exist, and for each set its
 * deal, deal seed and circular seat order. Everything derives from the options alone (a
 * seeded splitmix64, never the clock), so every shard and every resumed run computes the same
 * plan.
 *
 * Tables. When every k-subset fits in max_tables we use them all (lexicographic order).
 * Otherwise a balanced design is built greedily, table by table:
 *   1. table counts are kept within 1 of each other as a hard rule: the entrants with the
 *      fewest tables are the only candidates (all of them are seated when there are fewer
 *      of them than seats), so after any number of tables every entrant has t or t + 1;
 *   2. among the candidates, each next member is the one that has met the members chosen so
 *      far least often (the smallest sum of pair-meet counts; adding it grows the sum of
 *      squared pair counts least), ties going to fewer tables and then to a seeded shuffle;
 *   3. a seeded local search then swaps members between two tables (which keeps every table
 *      count) whenever that lowers the sum of squared pair counts, until the pair counts
 *      differ by at most 1 or a step budget runs out. The greedy alone leaves spreads of 3
 *      on some sizes; the swaps bring them to <= 2 (tests/tour/test_schedule.c checks
 *      this over a grid of sizes).
 * A gauntlet seats the challenger (and the baseline) at every table and fills the other
 * seats from the field the same way: every subset of the field if there are few enough,
 * else the balanced design over the field, with the table count rounded down to a multiple
 * of field / gcd(field, seats) so that every field member plays exactly as often. */
#include "schedule.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match/match.h"
#include "match/policy.h"

/* Salts so that the design's shuffles and the seat shuffles are independent streams. */
#define SALT_DESIGN 0x5ced0fd35a1b7c3dULL
#define SALT_SEATS 0x9b05688c2b3e6c1fULL

static int fail(char *err, size_t errcap, const char *msg)
{
    if (errcap)
        snprintf(err, errcap, "%s", msg);
    return -EINVAL;
}

/* C(n, k), or cap + 1 when it exceeds cap (so callers never see an overflowed value). */
static long long choose_capped(int n, int k, long long cap)
{
    if (k < 0 || k > n)
        return 0;
    if (k > n - k)
        k = n - k;
    long long c = 1;
    for (int i = 0; i < k; i++) {
        /* c = C(n, i) here; C(n, i + 1) = C(n, i) * (n - i) / (i + 1) exactly. Because k <=
         * n / 2 the sequence grows, so once it passes cap it stays past. */
        if (c > cap || c > (long long)(INT64_MAX / (n - i)))
            return cap + 1;
        c = c * (n - i) / (i + 1);
    }
    return c > cap ? cap + 1 : c;
}

long long ar_schedule_choose(int n, int k)
{
    return choose_capped(n, k, INT64_MAX - 1);
}

static int gcd(int a, int b)
{
    while (b) {
        int t = a % b;
        a = b;
        b = t;
    }
    return a;
}

long long ar_schedule_ntables(int n, int k, int fixed, int format, long long max_tables)
{
    int np = n - fixed, m = k - fixed; /* the pool fills the seats the fixed entrants leave */
    if (np < 0 || m < 0 || max_tables < 1)
        return 0;
    long long all = choose_capped(np, m, max_tables);
    if (all <= max_tables)
        return all;            /* every m-subset of the pool */
    long long nt = max_tables; /* a balanced design */
    if (format == AR_FORMAT_GAUNTLET) {
        int unit = np / gcd(np, m); /* tables after which every field member played equally */
        if (nt >= unit)
            nt -= nt % unit;
    }
    return nt;
}

/* ---- Balanced design over a pool ------------------------------------------------------- */

typedef struct design {
    int np, m, nt;  /* pool size, members per table, tables */
    int *tab;       /* [nt * m]: pool indices */
    int *count;     /* [np]: tables per pool member */
    int *meets;     /* [np * np] */
    long long *sum; /* [np]: scratch, pair-meet sum with the members chosen so far */
    int *maxm;      /* [np]: scratch, largest pair-meet count with a member chosen so far */
    int base;       /* local search: pair counts are scored by (count - base)^4 */
    int *cand;      /* [np]: scratch */
    char *in;       /* [np]: scratch, chosen for the current table */
} design;

static void design_free(design *d)
{
    free(d->tab);
    free(d->count);
    free(d->meets);
    free(d->sum);
    free(d->maxm);
    free(d->cand);
    free(d->in);
    memset(d, 0, sizeof *d);
}

static void shuffle(int *a, int n, ar_rng *rng)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)ar_rng_below(rng, (uint32_t)(i + 1));
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* Add pool member x to the table being built (row `row`, slot `slot`). */
static void design_take(design *d, int *row, int slot, int x)
{
    row[slot] = x;
    d->in[x] = 1;
    for (int c = 0; c < d->np; c++) {
        int v = d->meets[x * d->np + c];
        d->sum[c] += v;
        if (v > d->maxm[c])
            d->maxm[c] = v;
    }
}

/* Pick the best of d->cand[0..nc) (already shuffled, so the first of equals is random):
 * the fewest meetings with any member chosen so far (so no pair runs ahead), then the
 * smallest sum of meetings with them, then the fewest tables. */
static int design_pick(const design *d, int nc)
{
    int best = -1, best_max = 0;
    for (int i = 0; i < nc; i++) {
        int c = d->cand[i];
        if (d->in[c])
            continue;
        int mx = d->maxm[c];
        if (best < 0 || mx < best_max ||
            (mx == best_max && (d->sum[c] < d->sum[best] ||
                                (d->sum[c] == d->sum[best] && d->count[c] < d->count[best])))) {
            best = c;
            best_max = mx;
        }
    }
    return best;
}

static void design_greedy(design *d, ar_rng *rng)
{
    int np = d->np, m = d->m;
    if (np <= 0)
        return;
    for (int t = 0; t < d->nt; t++) {
        int *row = d->tab + (size_t)t * (size_t)m;
        int lo = d->count[0];
        for (int i = 1; i < np; i++)
            if (d->count[i] < lo)
                lo = d->count[i];
        /* A: members with the fewest tables; B: the others (they have lo + 1). */
        int na = 0;
        for (int i = 0; i < np; i++)
            if (d->count[i] == lo)
                d->cand[na++] = i;
        memset(d->in, 0, (size_t)np);
        memset(d->sum, 0, (size_t)np * sizeof *d->sum);
        memset(d->maxm, 0, (size_t)np * sizeof *d->maxm);
        int filled = 0;
        if (na <= m) {
            /* Every member of A must sit here, or the counts would drift apart. */
            for (int i = 0; i < na; i++)
                design_take(d, row, filled++, d->cand[i]);
            int nb = 0;
            for (int i = 0; i < np; i++)
                if (d->count[i] != lo)
                    d->cand[nb++] = i;
            shuffle(d->cand, nb, rng);
            while (filled < m)
                design_take(d, row, filled++, design_pick(d, nb));
        } else {
            shuffle(d->cand, na, rng);
            while (filled < m)
                design_take(d, row, filled++, design_pick(d, na));
        }
        for (int i = 0; i < m; i++) {
            d->count[row[i]]++;
            for (int j = 0; j < m; j++)
                if (i != j)
                    d->meets[row[i] * np + row[j]]++;
        }
    }
}

static long long quartic(long long x)
{
    return x * x * x * x;
}

/* Change the pair count of (a, b) by dir (+1 or -1); returns the change of the local
 * search's cost, sum over pairs of (count - base)^4: convex like the sum of squares, but it
 * prefers lowering the largest count and raising the smallest over evening out the middle,
 * which is what the spread bound asks for. */
static long long bump(design *d, int a, int b, int dir)
{
    int *v = &d->meets[a * d->np + b];
    long long before = quartic(*v - d->base);
    *v += dir;
    d->meets[b * d->np + a] += dir;
    return quartic(*v - d->base) - before;
}

/* Move member at slot s1 of table t1 (b) and slot s2 of table t2 (c) into each other's
 * tables. Returns the change of the cost (bump). */
static long long design_swap(design *d, int t1, int s1, int t2, int s2)
{
    int m = d->m;
    int *r1 = d->tab + (size_t)t1 * (size_t)m, *r2 = d->tab + (size_t)t2 * (size_t)m;
    int b = r1[s1], c = r2[s2];
    long long delta = 0;
    for (int i = 0; i < m; i++)
        if (i != s1) {
            delta += bump(d, b, r1[i], -1);
            delta += bump(d, c, r1[i], +1);
        }
    for (int i = 0; i < m; i++)
        if (i != s2) {
            delta += bump(d, c, r2[i], -1);
            delta += bump(d, b, r2[i], +1);
        }
    r1[s1] = c;
    r2[s2] = b;
    return delta;
}

static int row_has(const int *row, int m, int x)
{
    for (int i = 0; i < m; i++)
        if (row[i] == x)
            return 1;
    return 0;
}

static int design_spread(const design *d)
{
    int lo = 0, hi = 0, first = 1;
    for (int i = 0; i < d->np; i++)
        for (int j = i + 1; j < d->np; j++) {
            int v = d->meets[i * d->np + j];
            if (first || v < lo)
                lo = v;
            if (first || v > hi)
                hi = v;
            first = 0;
        }
    return hi - lo;
}

static void design_improve(design *d, ar_rng *rng)
{
    if (d->nt < 2 || d->m < 2 || design_spread(d) <= 1)
        return;
    /* Centre the cost on the mean pair count. */
    long long pairs = (long long)d->np * (d->np - 1) / 2;
    d->base = (int)(((long long)d->nt * d->m * (d->m - 1) / 2 + pairs / 2) / pairs);
    /* Budget: enough proposals to touch every slot many times on the sizes tournaments use,
     * bounded so a huge design still finishes in well under a second of swaps. */
    long long budget = 200LL * d->nt * d->m;
    if (budget > 4000000)
        budget = 4000000;
    /* The spread check reads every pair: run it rarely enough that it costs no more than
     * the swaps themselves. */
    long long pairs_all = (long long)d->np * d->np, interval = pairs_all / 8;
    if (interval < 64)
        interval = 64;
    for (long long step = 0; step < budget; step++) {
        if (step % interval == interval - 1 && design_spread(d) <= 1)
            return;
        int t1 = (int)ar_rng_below(rng, (uint32_t)d->nt);
        int t2 = (int)ar_rng_below(rng, (uint32_t)d->nt);
        if (t1 == t2)
            continue;
        int s1 = (int)ar_rng_below(rng, (uint32_t)d->m);
        int s2 = (int)ar_rng_below(rng, (uint32_t)d->m);
        const int *r1 = d->tab + (size_t)t1 * (size_t)d->m;
        const int *r2 = d->tab + (size_t)t2 * (size_t)d->m;
        if (row_has(r1, d->m, r2[s2]) || row_has(r2, d->m, r1[s1]))
            continue;
        if (design_swap(d, t1, s1, t2, s2) > 0) {
            /* Worse: undo (the same swap again restores both rows and the counts). Equal
             * moves are kept: they wander along plateaus, out of the local minima that
             * strict descent gets stuck in on large tables. */
            design_swap(d, t1, s1, t2, s2);
        }
    }
}

/* Build nt tables of m members from a pool of np (np > m). Returns 0 or -ENOMEM. */
/* Recompute the counts from the tables. */
static void design_recount(design *d)
{
    int np = d->np, m = d->m;
    memset(d->count, 0, (size_t)np * sizeof *d->count);
    memset(d->meets, 0, (size_t)np * (size_t)np * sizeof *d->meets);
    for (int t = 0; t < d->nt; t++) {
        const int *row = d->tab + (size_t)t * (size_t)m;
        for (int i = 0; i < m; i++) {
            d->count[row[i]]++;
            for (int j = 0; j < m; j++)
                if (i != j)
                    d->meets[row[i] * np + row[j]]++;
        }
    }
}

/* Build nt tables of m members from a pool of np (np > m >= 1). A few seeded attempts when
 * the first leaves pair counts more than 2 apart (large tables on few entrants: the swaps
 * are coarse there); the best attempt is kept. Returns 0 or -ENOMEM. */
static int design_make(design *d, int np, int m, int nt, uint64_t seed)
{
    enum { ATTEMPTS = 8 };
    memset(d, 0, sizeof *d);
    d->np = np;
    d->m = m;
    d->nt = nt;
    size_t cells = (size_t)nt * (size_t)m;
    d->tab = calloc(cells, sizeof *d->tab);
    d->count = calloc((size_t)np, sizeof *d->count);
    d->meets = calloc((size_t)np * (size_t)np, sizeof *d->meets);
    d->sum = calloc((size_t)np, sizeof *d->sum);
    d->maxm = calloc((size_t)np, sizeof *d->maxm);
    d->cand = calloc((size_t)np, sizeof *d->cand);
    d->in = calloc((size_t)np, 1);
    int *best = calloc(cells, sizeof *best);
    if (!d->tab || !d->count || !d->meets || !d->sum || !d->maxm || !d->cand || !d->in || !best) {
        free(best);
        design_free(d);
        return -ENOMEM;
    }
    int best_spread = -1, best_attempt = -1, attempt;
    for (attempt = 0; attempt < ATTEMPTS; attempt++) {
        ar_rng rng;
        ar_rng_seed(&rng, seed ^ SALT_DESIGN);
        ar_rng_seed(&rng, ar_rng_next(&rng) + (uint64_t)attempt);
        memset(d->count, 0, (size_t)np * sizeof *d->count);
        memset(d->meets, 0, (size_t)np * (size_t)np * sizeof *d->meets);
        design_greedy(d, &rng);
        design_improve(d, &rng);
        int spread = design_spread(d);
        if (best_attempt < 0 || spread < best_spread) {
            best_spread = spread;
            best_attempt = attempt;
            memcpy(best, d->tab, cells * sizeof *best);
        }
        if (spread <= 2)
            break;
    }
    if (best_attempt != attempt) {
        memcpy(d->tab, best, cells * sizeof *best);
        design_recount(d);
    }
    free(best);
    return 0;
}

/* ---- The schedule ---------------------------------------------------------------------- */

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int check_opts(const ar_schedule_opts *o, char *err, size_t errcap)
{
    char msg[160];
    if (o->k < 2 || o->k > AR_SCHED_MAX_SEATS) {
        snprintf(msg, sizeof msg, "seats: %d is not from 2 to %d", o->k, AR_SCHED_MAX_SEATS);
        return fail(err, errcap, msg);
    }
    if (o->n < o->k || o->n > AR_SCHED_MAX_ENTRANTS) {
        snprintf(msg, sizeof msg, "%d entrants for %d seats: need %d to %d", o->n, o->k, o->k,
                 AR_SCHED_MAX_ENTRANTS);
        return fail(err, errcap, msg);
    }
    if (o->format != AR_FORMAT_ROUND_ROBIN && o->format != AR_FORMAT_GAUNTLET) {
        snprintf(msg, sizeof msg, "format: unknown format %d", o->format);
        return fail(err, errcap, msg);
    }
    if (o->deals < 1) {
        snprintf(msg, sizeof msg, "deals: %lld is not at least 1", o->deals);
        return fail(err, errcap, msg);
    }
    if (o->max_tables < 1 || o->max_tables > AR_SCHED_MAX_TABLES) {
        snprintf(msg, sizeof msg, "max_tables: %lld is not from 1 to %d", o->max_tables,
                 AR_SCHED_MAX_TABLES);
        return fail(err, errcap, msg);
    }
    if (o->format == AR_FORMAT_GAUNTLET) {
        if (o->challenger < 0 || o->challenger >= o->n) {
            snprintf(msg, sizeof msg, "challenger: entrant %d does not exist", o->challenger);
            return fail(err, errcap, msg);
        }
        if (o->baseline != -1 && (o->baseline < 0 || o->baseline >= o->n)) {
            snprintf(msg, sizeof msg, "baseline: entrant %d does not exist", o->baseline);
            return fail(err, errcap, msg);
        }
        if (o->baseline == o->challenger)
            return fail(err, errcap, "baseline: the challenger cannot be its own baseline");
        if (o->baseline >= 0 && o->k == 2 && o->n > 2)
            return fail(err, errcap,
                        "baseline: with 2 seats the challenger and the baseline fill every "
                        "table, so the rest of the field would never play (use 3 or more "
                        "seats, or no baseline)");
    }
    return 0;
}

/* Tables of a round robin or a gauntlet, into s->table / s->ntables / s->complete. */
static int make_tables(const ar_schedule_opts *o, ar_schedule *s)
{
    int n = o->n, k = o->k;
    int fixed[2] = {-1, -1}, nfixed = 0;
    if (o->format == AR_FORMAT_GAUNTLET) {
        fixed[nfixed++] = o->challenger;
        if (o->baseline >= 0)
            fixed[nfixed++] = o->baseline;
    }
    /* The pool fills the seats the fixed entrants leave. */
    int m = k - nfixed, np = 0;
    int *pool = calloc((size_t)n, sizeof *pool);
    if (!pool)
        return -ENOMEM;
    for (int i = 0; i < n; i++)
        if (!(nfixed > 0 && i == fixed[0]) && !(nfixed > 1 && i == fixed[1]))
            pool[np++] = i;

    long long all = choose_capped(np, m, o->max_tables);
    int rc = 0;
    if (all <= o->max_tables) {
        /* Every m-subset of the pool, lexicographically. */
        s->complete = 1;
        s->ntables = (int)all;
        s->table = calloc((size_t)s->ntables, sizeof *s->table);
        if (!s->table) {
            rc = -ENOMEM;
            goto out;
        }
        int idx[AR_SCHED_MAX_SEATS];
        for (int i = 0; i < m; i++)
            idx[i] = i;
        for (int t = 0; t < s->ntables; t++) {
            int *e = s->table[t].entrant;
            for (int i = 0; i < nfixed; i++)
                e[i] = fixed[i];
            for (int i = 0; i < m; i++)
                e[nfixed + i] = pool[idx[i]];
            qsort(e, (size_t)k, sizeof *e, cmp_int);
            /* Next subset: bump the rightmost index that can still move. */
            int i = m - 1;
            while (i >= 0 && idx[i] == np - m + i)
                i--;
            if (i < 0)
                break;
            idx[i]++;
            for (int j = i + 1; j < m; j++)
                idx[j] = idx[j - 1] + 1;
        }
        goto out;
    }

    /* More subsets than max_tables: a balanced design (np > m >= 1 here). */
    int nt = (int)ar_schedule_ntables(n, k, nfixed, o->format, o->max_tables);
    design d;
    uint64_t seed = o->seed ^ ((uint64_t)n << 32) ^ ((uint64_t)k << 16) ^ (uint64_t)o->format;
    if ((rc = design_make(&d, np, m, nt, seed)) < 0)
        goto out;
    s->complete = 0;
    s->ntables = nt;
    s->table = calloc((size_t)nt, sizeof *s->table);
    if (!s->table) {
        design_free(&d);
        rc = -ENOMEM;
        goto out;
    }
    for (int t = 0; t < nt; t++) {
        int *e = s->table[t].entrant;
        for (int i = 0; i < nfixed; i++)
            e[i] = fixed[i];
        for (int i = 0; i < m; i++)
            e[nfixed + i] = pool[d.tab[(size_t)t * (size_t)m + (size_t)i]];
        qsort(e, (size_t)k, sizeof *e, cmp_int);
    }
    design_free(&d);
out:
    free(pool);
    return rc;
}

int ar_schedule_make(const ar_schedule_opts *o, ar_schedule *s, char *err, size_t errcap)
{
    memset(s, 0, sizeof *s);
    if (errcap)
        err[0] = '\0';
    int rc = check_opts(o, err, errcap);
    if (rc < 0)
        return rc;
    s->o = *o;
    if (o->format != AR_FORMAT_GAUNTLET) {
        s->o.challenger = -1;
        s->o.baseline = -1;
    }
    if ((rc = make_tables(&s->o, s)) < 0)
        goto fail;
    if (o->deals > AR_SCHED_MAX_GAMES / s->ntables / o->k) {
        snprintf(err, errcap,
                 "deals: %lld deals x %d tables x %d seats is more than the limit of %d games",
                 o->deals, s->ntables, o->k, AR_SCHED_MAX_GAMES);
        rc = -EINVAL;
        goto fail;
    }
    s->nsets = (long long)s->ntables * o->deals;
    s->ngames = s->nsets * o->k;
    s->pair_meets = calloc((size_t)o->n * (size_t)o->n, sizeof *s->pair_meets);
    if (!s->pair_meets) {
        rc = -ENOMEM;
        goto fail;
    }
    for (int t = 0; t < s->ntables; t++)
        for (int i = 0; i < o->k; i++)
            for (int j = 0; j < o->k; j++)
                if (i != j)
                    s->pair_meets[s->table[t].entrant[i] * o->n + s->table[t].entrant[j]]++;
    return 0;
fail:
    if (rc == -ENOMEM && errcap)
        snprintf(err, errcap, "out of memory for the schedule");
    ar_schedule_free(s);
    return rc;
}

void ar_schedule_free(ar_schedule *s)
{
    if (!s)
        return;
    free(s->table);
    free(s->pair_meets);
    memset(s, 0, sizeof *s);
}

/* The six circular orders of 4 seats, as positions into the sorted table: position 0 first,
 * then every order of 1, 2, 3. Over six deals each ordered pair of neighbours occurs twice. */
static const int orders4[6][4] = {{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 1, 3},
                                  {0, 2, 3, 1}, {0, 3, 1, 2}, {0, 3, 2, 1}};

void ar_schedule_set(const ar_schedule *s, long long set, ar_set_plan *p)
{
    int k = s->o.k;
    memset(p, 0, sizeof *p);
    p->set = set;
    p->table = (int)(set % s->ntables);
    p->deal = set / s->ntables;
    p->deal_seed = ar_match_deal_seed(s->o.seed, p->deal);
    const int *e = s->table[p->table].entrant;
    /* The table's offset staggers the orders, so that with few deals not every table starts
     * with the same (ascending) order. */
    long long q = p->deal + p->table;
    if (k == 3) {
        static const int orders3[2][3] = {{0, 1, 2}, {0, 2, 1}};
        for (int i = 0; i < 3; i++)
            p->order[i] = e[orders3[q % 2][i]];
    } else if (k == 4) {
        for (int i = 0; i < 4; i++)
            p->order[i] = e[orders4[q % 6][i]];
    } else {
        for (int i = 0; i < k; i++)
            p->order[i] = e[i];
        if (k >= 5) {
            ar_rng rng;
            ar_rng_seed(&rng, s->o.seed ^ SALT_SEATS);
            ar_rng_seed(&rng, ar_rng_next(&rng) + (uint64_t)p->deal);
            ar_rng_seed(&rng, ar_rng_next(&rng) + (uint64_t)p->table);
            shuffle(p->order, k, &rng);
        }
    }
}

int ar_schedule_seat(const ar_set_plan *p, int k, int seat, int rotation)
{
    return p->order[ar_match_seat_slot(seat, rotation, k)];
}

int ar_schedule_in_shard(long long set, int shard_k, int shard_n)
{
    if (shard_n < 1 || shard_k < 0 || shard_k >= shard_n || set < 0)
        return 0;
    return set % shard_n == shard_k;
}

void ar_schedule_game_id(char *buf, size_t cap, uint64_t seed, const ar_set_plan *p, int rotation)
{
    snprintf(buf, cap, "t%" PRIu64 "-s%lld-d%lld-T%d-r%d", seed, p->set, p->deal, p->table,
             rotation);
}
