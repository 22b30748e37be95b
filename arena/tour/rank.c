/* rank.c - ratings from a tournament's finished games (rank.h; design notes:
 * ../shared/research/ranking.md section 5).
 *
 * Pipeline of ar_rank_fit:
 *   1. validate every game (-EINVAL with the input index), then copy and sort the games by
 *      (set, k, entrants, scores, placements): every later sum runs in that canonical order,
 *      so the result is bit-identical for any input order and on every run;
 *   2. duplicate score rating: least squares on relative scores, one Cholesky solve per
 *      connected component of the co-play graph (sum-to-zero gauge in each component);
 *   3. Plackett-Luce on placements (Hunter's MM, Efron-style ties, a weak prior);
 *   4. cluster bootstrap over whole duplicate sets: both fits redone on each replicate (the
 *      PL fit warm-started), percentile intervals, rank intervals, p_next;
 *   5. the head-to-head table, with its own cluster bootstrap over each pair's shared sets;
 *   6. seat effects and the duplicate efficiency rho.
 * Pure arithmetic: no I/O, no globals, no threads. Memory comes from malloc (-ENOMEM on
 * failure), because a failed fit must not take the tournament driver down with it. */
#include "rank.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match/policy.h"

/* Elo points per unit of natural log-strength: 400 / ln 10. */
#define ELO_PER_UNIT (400.0 / 2.302585092994045684)

enum {
    PL_MAX_ITER = 20000, /* MM is linear but monotone; a weak prior can make it slow */
};
static const double PL_TOL_MAIN = 1e-9;  /* max |change of ln gamma| at convergence */
static const double PL_TOL_BOOT = 1e-6;  /* replicates only feed percentiles: 2e-4 Elo */
static const double PL_LOG_CLAMP = 40.0; /* |ln gamma| cap when prior_games == 0 */

static int fail(char *err, size_t errcap, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int fail(char *err, size_t errcap, int code, const char *fmt, ...)
{
    if (err && errcap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errcap, fmt, ap);
        va_end(ap);
    }
    return code;
}

/* ---- Generator -------------------------------------------------------------------------- */

/* Uniform in [0, n), n >= 1, without modulo bias (rejection of the top partial block). */
static uint64_t rng_below64(ar_rng *r, uint64_t n)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do
        x = ar_rng_next(r);
    while (x >= limit);
    return x % n;
}

/* An independent stream per (seed, stream id): replicate r and pair (i, j) each get their own,
 * so a replicate's draws do not depend on how many draws came before it. */
static void rng_stream(ar_rng *r, uint64_t seed, uint64_t stream)
{
    ar_rng tmp;
    ar_rng_seed(&tmp, seed ^ (stream * 0xd1342543de82ef95ULL));
    ar_rng_seed(r, ar_rng_next(&tmp) + stream);
}

/* ---- Validation and canonical order ----------------------------------------------------- */

static int validate(const ar_rank_game *games, long long ngames, int n, const ar_rank_opts *o,
                    char *err, size_t errcap)
{
    if (n < 1 || n > AR_RANK_MAX_ENTRANTS)
        return fail(err, errcap, -EINVAL, "rank: %d entrants (must be 1..%d)", n,
                    AR_RANK_MAX_ENTRANTS);
    if (ngames < 0 || (ngames > 0 && !games))
        return fail(err, errcap, -EINVAL, "rank: bad game list (%lld games)", ngames);
    if (o) {
        if (o->bootstrap < 0)
            return fail(err, errcap, -EINVAL, "rank: bootstrap %d < 0", o->bootstrap);
        if (!(o->prior_games >= 0 && isfinite(o->prior_games)))
            return fail(err, errcap, -EINVAL, "rank: prior_games %g (must be finite, >= 0)",
                        o->prior_games);
    }
    for (long long g = 0; g < ngames; g++) {
        const ar_rank_game *x = &games[g];
        if (x->k < 2 || x->k > AR_RANK_MAX_SEATS)
            return fail(err, errcap, -EINVAL, "rank: game %lld (set %lld): k = %d (must be 2..%d)",
                        g, x->set, x->k, AR_RANK_MAX_SEATS);
        if (x->nhands < 0 || (x->nhands > 0 && !x->hand))
            return fail(err, errcap, -EINVAL, "rank: game %lld (set %lld): %d hands without scores",
                        g, x->set, x->nhands);
        for (int s = 0; s < x->k; s++) {
            int e = x->entrant[s];
            if (e < 0 || e >= n)
                return fail(err, errcap, -EINVAL,
                            "rank: game %lld (set %lld): seat %d: entrant %d (must be 0..%d)", g,
                            x->set, s, e, n - 1);
            for (int t = 0; t < s; t++)
                if (x->entrant[t] == e)
                    return fail(err, errcap, -EINVAL,
                                "rank: game %lld (set %lld): entrant %d at seats %d and %d", g,
                                x->set, e, t, s);
            if (!isfinite(x->score[s]))
                return fail(err, errcap, -EINVAL,
                            "rank: game %lld (set %lld): seat %d: score is not finite", g, x->set,
                            s);
            /* Competition ranking ("1224"): a seat's place is 1 + the seats strictly ahead. */
            int ahead = 0;
            for (int t = 0; t < x->k; t++)
                ahead += x->placement[t] < x->placement[s];
            if (x->placement[s] != ahead + 1)
                return fail(err, errcap, -EINVAL,
                            "rank: game %lld (set %lld): seat %d: placement %d, expected %d "
                            "(1 = best, tied seats share the better place)",
                            g, x->set, s, x->placement[s], ahead + 1);
        }
    }
    return 0;
}

/* Total order on the games' contents: equal keys mean equal games, so sorting by it makes the
 * input order irrelevant. */
static int game_cmp(const void *pa, const void *pb)
{
    const ar_rank_game *a = pa, *b = pb;
    if (a->set != b->set)
        return a->set < b->set ? -1 : 1;
    if (a->k != b->k)
        return a->k < b->k ? -1 : 1;
    for (int s = 0; s < a->k; s++)
        if (a->entrant[s] != b->entrant[s])
            return a->entrant[s] < b->entrant[s] ? -1 : 1;
    for (int s = 0; s < a->k; s++)
        if (a->score[s] != b->score[s])
            return a->score[s] < b->score[s] ? -1 : 1;
    for (int s = 0; s < a->k; s++)
        if (a->placement[s] != b->placement[s])
            return a->placement[s] < b->placement[s] ? -1 : 1;
    if (a->nhands != b->nhands)
        return a->nhands < b->nhands ? -1 : 1;
    for (int h = 0; h < a->nhands; h++)
        for (int s = 0; s < a->k; s++)
            if (a->hand[h][s] != b->hand[h][s])
                return a->hand[h][s] < b->hand[h][s] ? -1 : 1;
    return 0;
}

/* ---- Prepared data ---------------------------------------------------------------------- */

/* Everything the fits need, laid out flat, in canonical order. "obs" = one seat of one game. */
typedef struct prep {
    int n;
    long long ng, ns, nobs;
    ar_rank_game *game;  /* [ng] sorted copy */
    long long *set_game; /* [ns + 1]: games of set c are set_game[c] .. set_game[c+1]-1 */
    long long *obs_off;  /* [ng + 1] */
    double *y;           /* [nobs] relative score, seat order */
    int *pl_ent;         /* [nobs] entrants by placement (best first, ties in seat order) */
    uint8_t *pl_place;   /* [nobs] their placements */
    double *pl_num;      /* [nobs] PL numerator weight of that position (1 or (t-1)/t) */
    /* Per-set least-squares summary: the set's m distinct entrants, its m x m block of L and
     * its m entries of b. A replicate adds w_c times each block. */
    long long *se_off; /* [ns + 1] into se_ent / se_b */
    int *se_ent;
    double *se_b;
    long long *sm_off; /* [ns + 1] into sm */
    double *sm;
} prep;

static void prep_free(prep *p)
{
    free(p->game);
    free(p->set_game);
    free(p->obs_off);
    free(p->y);
    free(p->pl_ent);
    free(p->pl_place);
    free(p->pl_num);
    free(p->se_off);
    free(p->se_ent);
    free(p->se_b);
    free(p->sm_off);
    free(p->sm);
    memset(p, 0, sizeof *p);
}

static int prep_build(prep *p, const ar_rank_game *games, long long ngames, int n)
{
    memset(p, 0, sizeof *p);
    p->n = n;
    p->ng = ngames;
    size_t ng = (size_t)ngames;
    p->game = malloc((ng ? ng : 1) * sizeof *p->game);
    p->obs_off = malloc((ng + 1) * sizeof *p->obs_off);
    if (!p->game || !p->obs_off)
        return -ENOMEM;
    for (size_t g = 0; g < ng; g++) {
        p->game[g] = games[g];
        for (int s = 0; s < AR_RANK_MAX_SEATS; s++) /* -0.0 -> 0.0; unused seats cleared */
            p->game[g].score[s] = s < games[g].k ? games[g].score[s] + 0.0 : 0.0;
    }
    qsort(p->game, ng, sizeof *p->game, game_cmp);

    p->nobs = 0;
    long long ns = 0;
    for (size_t g = 0; g < ng; g++) {
        p->obs_off[g] = p->nobs;
        p->nobs += p->game[g].k;
        ns += g == 0 || p->game[g].set != p->game[g - 1].set;
    }
    p->obs_off[ng] = p->nobs;
    p->ns = ns;
    size_t no = (size_t)p->nobs ? (size_t)p->nobs : 1;
    p->set_game = malloc(((size_t)ns + 1) * sizeof *p->set_game);
    p->y = malloc(no * sizeof *p->y);
    p->pl_ent = malloc(no * sizeof *p->pl_ent);
    p->pl_place = malloc(no * sizeof *p->pl_place);
    p->pl_num = malloc(no * sizeof *p->pl_num);
    if (!p->set_game || !p->y || !p->pl_ent || !p->pl_place || !p->pl_num)
        return -ENOMEM;
    long long c = 0;
    for (size_t g = 0; g < ng; g++)
        if (g == 0 || p->game[g].set != p->game[g - 1].set)
            p->set_game[c++] = (long long)g;
    p->set_game[ns] = ngames;

    for (size_t g = 0; g < ng; g++) {
        const ar_rank_game *x = &p->game[g];
        long long off = p->obs_off[g];
        double sum = 0;
        for (int s = 0; s < x->k; s++)
            sum += x->score[s];
        double mean = sum / x->k;
        for (int s = 0; s < x->k; s++)
            p->y[off + s] = x->score[s] - mean;
        /* Placement order: insertion sort by place, stable (ties keep seat order). */
        int idx[AR_RANK_MAX_SEATS];
        for (int s = 0; s < x->k; s++) {
            int t = s;
            while (t > 0 && x->placement[idx[t - 1]] > x->placement[s]) {
                idx[t] = idx[t - 1];
                t--;
            }
            idx[t] = s;
        }
        for (int r = 0; r < x->k;) {
            int t = 1;
            while (r + t < x->k && x->placement[idx[r + t]] == x->placement[idx[r]])
                t++;
            int last = r + t == x->k;
            for (int u = r; u < r + t; u++) {
                p->pl_ent[off + u] = x->entrant[idx[u]];
                p->pl_place[off + u] = x->placement[idx[u]];
                /* Every member of a group is chosen once in any tie-breaking order, except
                 * the very last seat of the game, which is never a choice: a member of the
                 * last group is that seat with probability 1/t. */
                p->pl_num[off + u] = last ? (double)(t - 1) / t : 1.0;
            }
            r += t;
        }
    }

    /* Per-set LS blocks. m <= min(n, sum of k over the set's games). */
    p->se_off = malloc(((size_t)ns + 1) * sizeof *p->se_off);
    p->sm_off = malloc(((size_t)ns + 1) * sizeof *p->sm_off);
    int *slot = malloc((size_t)n * sizeof *slot);
    if (!p->se_off || !p->sm_off || !slot) {
        free(slot);
        return -ENOMEM;
    }
    for (int i = 0; i < n; i++)
        slot[i] = -1;
    long long ne = 0, nm = 0;
    for (long long cc = 0; cc < ns; cc++) {
        p->se_off[cc] = ne;
        p->sm_off[cc] = nm;
        long long m = 0;
        for (long long g = p->set_game[cc]; g < p->set_game[cc + 1]; g++)
            for (int s = 0; s < p->game[g].k; s++)
                if (slot[p->game[g].entrant[s]] < 0)
                    slot[p->game[g].entrant[s]] = (int)m++;
        for (long long g = p->set_game[cc]; g < p->set_game[cc + 1]; g++)
            for (int s = 0; s < p->game[g].k; s++)
                slot[p->game[g].entrant[s]] = -1;
        ne += m;
        nm += m * m;
    }
    p->se_off[ns] = ne;
    p->sm_off[ns] = nm;
    p->se_ent = malloc((size_t)(ne ? ne : 1) * sizeof *p->se_ent);
    p->se_b = calloc((size_t)(ne ? ne : 1), sizeof *p->se_b);
    p->sm = calloc((size_t)(nm ? nm : 1), sizeof *p->sm);
    if (!p->se_ent || !p->se_b || !p->sm) {
        free(slot);
        return -ENOMEM;
    }
    for (long long cc = 0; cc < ns; cc++) {
        int *ent = p->se_ent + p->se_off[cc];
        double *bb = p->se_b + p->se_off[cc];
        double *mm = p->sm + p->sm_off[cc];
        int m = 0;
        for (long long g = p->set_game[cc]; g < p->set_game[cc + 1]; g++)
            for (int s = 0; s < p->game[g].k; s++)
                if (slot[p->game[g].entrant[s]] < 0) {
                    slot[p->game[g].entrant[s]] = m;
                    ent[m++] = p->game[g].entrant[s];
                }
        for (long long g = p->set_game[cc]; g < p->set_game[cc + 1]; g++) {
            const ar_rank_game *x = &p->game[g];
            double invk = 1.0 / x->k;
            for (int s = 0; s < x->k; s++) {
                int a = slot[x->entrant[s]];
                bb[a] += p->y[p->obs_off[g] + s];
                for (int t = 0; t < x->k; t++) {
                    int b = slot[x->entrant[t]];
                    mm[(size_t)a * (size_t)m + (size_t)b] += (s == t ? 1.0 : 0.0) - invk;
                }
            }
        }
        for (int a = 0; a < m; a++)
            slot[ent[a]] = -1;
    }
    free(slot);
    return 0;
}

/* ---- Work space ------------------------------------------------------------------------- */

typedef struct rank_item {
    double score, elo;
    int idx;
} rank_item;

typedef struct work {
    double *L;        /* [n*n] */
    double *A;        /* [n*n] component system */
    double *b;        /* [n] */
    double *v;        /* [n] */
    int *parent;      /* [n] union-find */
    int *members;     /* [n] */
    int *root;        /* [n] union-find root -> component id */
    int *cid;         /* [n] component of each entrant */
    int *cend;        /* [n + 1] component boundaries in members */
    rank_item *items; /* [n] */
    double *num;      /* [n] PL numerators */
    double *den;      /* [n] PL denominators */
    double *gam;      /* [n] */
    double *lg;       /* [n] */
    double *sq;       /* [4n] SQUAREM iterates */
} work;

static void work_free(work *w)
{
    free(w->L);
    free(w->A);
    free(w->b);
    free(w->v);
    free(w->parent);
    free(w->members);
    free(w->root);
    free(w->cid);
    free(w->cend);
    free(w->items);
    free(w->num);
    free(w->den);
    free(w->gam);
    free(w->lg);
    free(w->sq);
}

static int work_init(work *w, int n)
{
    size_t nn = (size_t)n * (size_t)n, un = (size_t)n;
    memset(w, 0, sizeof *w);
    w->L = malloc(nn * sizeof *w->L);
    w->A = malloc(nn * sizeof *w->A);
    w->b = malloc(un * sizeof *w->b);
    w->v = malloc(un * sizeof *w->v);
    w->parent = malloc(un * sizeof *w->parent);
    w->members = malloc(un * sizeof *w->members);
    w->root = malloc(un * sizeof *w->root);
    w->cid = malloc(un * sizeof *w->cid);
    w->cend = malloc((un + 1) * sizeof *w->cend);
    w->items = malloc(un * sizeof *w->items);
    w->num = malloc(un * sizeof *w->num);
    w->den = malloc(un * sizeof *w->den);
    w->gam = malloc(un * sizeof *w->gam);
    w->lg = malloc(un * sizeof *w->lg);
    w->sq = malloc(4 * un * sizeof *w->sq);
    if (!w->L || !w->A || !w->b || !w->v || !w->parent || !w->members || !w->root || !w->cid ||
        !w->cend || !w->items || !w->num || !w->den || !w->gam || !w->lg || !w->sq)
        return -ENOMEM;
    return 0;
}

static int uf_find(int *parent, int i)
{
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

static void uf_union(int *parent, int a, int b)
{
    a = uf_find(parent, a);
    b = uf_find(parent, b);
    if (a != b) /* the smaller index becomes the root: the result does not depend on order */
        parent[a > b ? a : b] = a < b ? a : b;
}

/* ---- Duplicate score rating ------------------------------------------------------------- */

/* Cholesky solve of the SPD m x m system A x = v in place (A lower triangle overwritten, v
 * becomes x). A pivot that rounding pushed to <= 0 (never for a connected component, where
 * L + c 11^T is positive definite) is floored at a tiny ridge instead of failing. */
static void chol_solve(double *A, double *v, int m)
{
    double scale = 0;
    for (int i = 0; i < m; i++)
        scale += A[(size_t)i * m + i];
    double floor = 1e-13 * (scale > 0 ? scale / m : 1.0);
    for (int j = 0; j < m; j++) {
        double *rj = A + (size_t)j * m;
        double d = rj[j];
        for (int t = 0; t < j; t++)
            d -= rj[t] * rj[t];
        if (!(d > floor))
            d = floor;
        d = sqrt(d);
        rj[j] = d;
        for (int i = j + 1; i < m; i++) {
            double *ri = A + (size_t)i * m;
            double s = ri[j];
            for (int t = 0; t < j; t++)
                s -= ri[t] * rj[t];
            ri[j] = s / d;
        }
    }
    for (int i = 0; i < m; i++) { /* L z = v */
        const double *ri = A + (size_t)i * m;
        double s = v[i];
        for (int t = 0; t < i; t++)
            s -= ri[t] * v[t];
        v[i] = s / ri[i];
    }
    for (int i = m - 1; i >= 0; i--) { /* L^T x = z */
        double s = v[i];
        for (int t = i + 1; t < m; t++)
            s -= A[(size_t)t * m + i] * v[t];
        v[i] = s / A[(size_t)i * m + i];
    }
}

/* Least squares on relative scores, sets weighted by w[c] (NULL: all 1). theta[n] out, sum 0
 * within every connected component of the weighted co-play graph. Returns the number of
 * components (an entrant without games is a component of its own). */
static int ls_fit(const prep *p, const int *w, work *ws, double *theta)
{
    int n = p->n;
    size_t nn = (size_t)n * (size_t)n;
    memset(ws->L, 0, nn * sizeof *ws->L);
    memset(ws->b, 0, (size_t)n * sizeof *ws->b);
    for (int i = 0; i < n; i++)
        ws->parent[i] = i;
    for (long long c = 0; c < p->ns; c++) {
        double wc = w ? w[c] : 1;
        if (wc == 0)
            continue;
        const int *ent = p->se_ent + p->se_off[c];
        const double *bb = p->se_b + p->se_off[c];
        const double *mm = p->sm + p->sm_off[c];
        int m = (int)(p->se_off[c + 1] - p->se_off[c]);
        for (int a = 0; a < m; a++) {
            double *row = ws->L + (size_t)ent[a] * (size_t)n;
            const double *src = mm + (size_t)a * (size_t)m;
            for (int b = 0; b < m; b++)
                row[ent[b]] += wc * src[b];
            ws->b[ent[a]] += wc * bb[a];
            if (a > 0)
                uf_union(ws->parent, ent[0], ent[a]);
        }
    }
    /* Components, each listed in ascending entrant order. */
    int *root = ws->root, *cid = ws->cid, *cnt = ws->cend;
    int ncomp = 0;
    for (int i = 0; i <= n; i++)
        cnt[i] = 0;
    for (int i = 0; i < n; i++)
        root[i] = -1;
    for (int i = 0; i < n; i++) {
        int rt = uf_find(ws->parent, i);
        if (root[rt] < 0)
            root[rt] = ncomp++;
        cid[i] = root[rt];
        cnt[cid[i] + 1]++;
    }
    for (int c = 0; c < ncomp; c++)
        cnt[c + 1] += cnt[c];
    for (int i = 0; i < n; i++)
        ws->members[cnt[cid[i]]++] = i;
    /* cnt[c] is now the end of component c; its start is the previous end. */
    int start = 0;
    for (int c = 0; c < ncomp; c++) {
        int end = cnt[c], m = end - start;
        const int *mem = ws->members + start;
        if (m == 1) {
            theta[mem[0]] = 0;
        } else {
            double tr = 0;
            for (int a = 0; a < m; a++)
                tr += ws->L[(size_t)mem[a] * (size_t)n + (size_t)mem[a]];
            /* Gauge: + c 11^T with c n of the order of L's eigenvalues. b sums to 0 over the
             * component (relative scores sum to 0 per game), so the solution of
             * (L + c 11^T) x = b has 1^T x = 0 and L x = b. */
            double cj = tr / ((double)m * m);
            for (int a = 0; a < m; a++) {
                const double *src = ws->L + (size_t)mem[a] * (size_t)n;
                double *dst = ws->A + (size_t)a * (size_t)m;
                for (int b = 0; b < m; b++)
                    dst[b] = src[mem[b]] + cj;
                ws->v[a] = ws->b[mem[a]];
            }
            chol_solve(ws->A, ws->v, m);
            double mean = 0;
            for (int a = 0; a < m; a++)
                mean += ws->v[a];
            mean /= m;
            for (int a = 0; a < m; a++) /* remove rounding residue from the gauge */
                theta[mem[a]] = ws->v[a] - mean;
        }
        start = end;
    }
    return ncomp;
}

/* ---- Plackett-Luce ---------------------------------------------------------------------- */

/* MM iterations (Hunter 2004) on the placements, games weighted by their set's w (NULL: 1),
 * on ln gamma. The prior: prior_games/2 wins and prior_games/2 losses of every entrant
 * against a virtual entrant of strength 1 (numerator + prior/2, denominator
 * + prior/(gamma + 1)).
 *
 * Ties: the likelihood of a game is the PL likelihood averaged (in log) over the orders in
 * which each tied group could be broken, uniformly; the expectation of each log-denominator is
 * replaced by the log of its expectation (Efron 1977): stage j of a group G of t tied seats
 * with risk set R has denominator S(R) - (j/t) S(G). The last group of the game has t-1
 * stages and numerator weight (t-1)/t per member, since the game's last seat is no choice.
 * Without ties this is exactly PL; for a 2-seat tie it is exactly half a win each. */

/* The data's likelihood does not change when every ln-strength of one connected component
 * moves by the same constant; only the prior does. MM alone crawls along that direction (at a
 * rate set by the weak prior: thousands of iterations), so after every MM step each
 * component is moved to the exact optimum of the prior along it: sum over the component of
 * sigmoid(lg + shift) = size / 2 (safeguarded Newton). The step can only raise the posterior,
 * so the iteration stays monotone. Without a prior, each component is centred instead.
 * Components are those of the last ls_fit (same weights: the same co-play graph). */
static void pl_gauge(const work *ws, int ncomp, double prior, double *v)
{
    int start = 0;
    for (int c = 0; c < ncomp; c++) {
        int end = ws->cend[c], m = end - start;
        const int *mem = ws->members + start;
        double mean = 0, vmin = INFINITY, vmax = -INFINITY;
        for (int a = 0; a < m; a++) {
            double x = v[mem[a]];
            mean += x;
            vmin = x < vmin ? x : vmin;
            vmax = x > vmax ? x : vmax;
        }
        mean /= m;
        double shift = -mean;
        if (prior > 0) {
            double lo = -vmax - 40, hi = -vmin + 40;
            for (int it = 0; it < 200; it++) {
                double f = -0.5 * m, fp = 0;
                for (int a = 0; a < m; a++) {
                    double sg = 1.0 / (1.0 + exp(-(v[mem[a]] + shift)));
                    f += sg;
                    fp += sg * (1.0 - sg);
                }
                if (f > 0)
                    hi = shift;
                else
                    lo = shift;
                double nx = fp > 0 ? shift - f / fp : 0.5 * (lo + hi);
                if (!(nx > lo && nx < hi))
                    nx = 0.5 * (lo + hi);
                int done = fabs(nx - shift) <= 1e-15 * (1.0 + fabs(shift));
                shift = nx;
                if (done)
                    break;
            }
        }
        for (int a = 0; a < m; a++)
            v[mem[a]] += shift;
        start = end;
    }
}

/* One MM step from lg to out (then the gauge step); returns max |out - lg|. ws->num must
 * hold the numerators. */
static double pl_step(const prep *p, const int *w, double prior, work *ws, int ncomp,
                      const double *lg, double *out)
{
    int n = p->n;
    const double *num = ws->num;
    double *den = ws->den, *gam = ws->gam;
    for (int i = 0; i < n; i++) {
        gam[i] = exp(lg[i]);
        den[i] = prior / (gam[i] + 1.0);
    }
    for (long long c = 0; c < p->ns; c++) {
        double wc = w ? w[c] : 1;
        if (wc == 0)
            continue;
        for (long long g = p->set_game[c]; g < p->set_game[c + 1]; g++) {
            long long off = p->obs_off[g];
            int k = p->game[g].k;
            const int *e = p->pl_ent + off;
            const uint8_t *pl = p->pl_place + off;
            double suf[AR_RANK_MAX_SEATS + 1];
            suf[k] = 0;
            for (int r = k - 1; r >= 0; r--)
                suf[r] = suf[r + 1] + gam[e[r]];
            double acc = 0; /* sum of 1/D over the stages of earlier groups */
            for (int r = 0; r < k;) {
                int t = 1;
                while (r + t < k && pl[r + t] == pl[r])
                    t++;
                double sg = suf[r] - suf[r + t], rest = suf[r + t];
                int stages = r + t == k ? t - 1 : t;
                double in_g = 0, out_g = 0;
                for (int j = 0; j < stages; j++) {
                    double f = 1.0 - (double)j / t;
                    double inv = 1.0 / (rest + f * sg);
                    out_g += inv;
                    in_g += f * inv;
                }
                double add = wc * (acc + in_g);
                for (int u = r; u < r + t; u++)
                    den[e[u]] += add;
                acc += out_g;
                r += t;
            }
        }
    }
    for (int i = 0; i < n; i++) {
        double nl = lg[i];
        if (den[i] > 0 && num[i] > 0)
            nl = log(num[i] / den[i]);
        else if (den[i] > 0) /* never chosen, no prior: strength -> 0 */
            nl = -PL_LOG_CLAMP;
        if (prior == 0) {
            if (nl > PL_LOG_CLAMP)
                nl = PL_LOG_CLAMP;
            if (nl < -PL_LOG_CLAMP)
                nl = -PL_LOG_CLAMP;
        }
        out[i] = nl;
    }
    pl_gauge(ws, ncomp, prior, out);
    double delta = 0;
    for (int i = 0; i < n; i++) {
        double d = fabs(out[i] - lg[i]);
        if (d > delta)
            delta = d;
    }
    return delta;
}

/* MM converges linearly (0.5-0.9 per step here), so the fit runs it under SQUAREM (Varadhan &
 * Roland 2008, scheme S3): two MM steps t0 -> t1 -> t2 give r = t1 - t0 and
 * v = t2 - t1 - r; the extrapolation t0 - 2a r + a^2 v with a = -|r|/|v| (clamped to
 * [-64, -1]; a = -1 is t2 itself) is followed by one more MM step, kept only if that step
 * moved no more than the second plain step did (otherwise t2 is kept). Every accepted point
 * is an MM image, so the fixed point and the stopping rule (an MM step that moves no
 * ln gamma by tol or more) are those of plain MM. lg[n] is the start (a warm start in the
 * bootstrap) and the result, not centred. Returns the MM steps used. */
static int pl_fit(const prep *p, const int *w, double prior, double tol, work *ws, int ncomp,
                  double *lg)
{
    int n = p->n;
    double *num = ws->num;
    double *t1 = ws->sq, *t2 = ws->sq + n, *tx = ws->sq + 2 * n, *t3 = ws->sq + 3 * n;
    for (int i = 0; i < n; i++)
        num[i] = prior / 2;
    for (long long c = 0; c < p->ns; c++) {
        double wc = w ? w[c] : 1;
        if (wc == 0)
            continue;
        for (long long o = p->obs_off[p->set_game[c]]; o < p->obs_off[p->set_game[c + 1]]; o++)
            num[p->pl_ent[o]] += wc * p->pl_num[o];
    }
    size_t bytes = (size_t)n * sizeof *lg;
    int it = 0;
    while (it < PL_MAX_ITER) {
        it++;
        if (pl_step(p, w, prior, ws, ncomp, lg, t1) < tol) {
            memcpy(lg, t1, bytes);
            break;
        }
        it++;
        double d2 = pl_step(p, w, prior, ws, ncomp, t1, t2);
        if (d2 < tol) {
            memcpy(lg, t2, bytes);
            break;
        }
        double rr = 0, vv = 0;
        for (int i = 0; i < n; i++) {
            double r = t1[i] - lg[i], v = t2[i] - t1[i] - r;
            rr += r * r;
            vv += v * v;
        }
        double a = vv > 0 ? -sqrt(rr / vv) : -1.0;
        a = a > -1.0 ? -1.0 : a < -64.0 ? -64.0 : a;
        if (a == -1.0) { /* no acceleration: plain MM from t2 */
            memcpy(lg, t2, bytes);
            continue;
        }
        for (int i = 0; i < n; i++) {
            double r = t1[i] - lg[i], v = t2[i] - t1[i] - r;
            double x = lg[i] - 2.0 * a * r + a * a * v;
            tx[i] = x > 4 * PL_LOG_CLAMP    ? 4 * PL_LOG_CLAMP
                    : x < -4 * PL_LOG_CLAMP ? -4 * PL_LOG_CLAMP
                                            : x;
        }
        it++;
        double d3 = pl_step(p, w, prior, ws, ncomp, tx, t3);
        memcpy(lg, d3 <= d2 ? t3 : t2, bytes);
        if (d3 < tol && d3 <= d2)
            break;
    }
    return it;
}

/* ---- Ranking and percentiles ------------------------------------------------------------ */

/* Best first: higher score, then higher elo, then lower index (a total order, so qsort's
 * result is unique). */
static int rank_cmp(const void *pa, const void *pb)
{
    const rank_item *a = pa, *b = pb;
    if (a->score != b->score)
        return a->score > b->score ? -1 : 1;
    if (a->elo != b->elo)
        return a->elo > b->elo ? -1 : 1;
    return (a->idx > b->idx) - (a->idx < b->idx);
}

/* order[0..n) by rank, rank[i] 1-based; items[n] is scratch. */
static void rank_order(int n, const double *score, const double *elo, rank_item *items, int *order,
                       int *rank)
{
    for (int i = 0; i < n; i++)
        items[i] = (rank_item){score[i], elo[i], i};
    qsort(items, (size_t)n, sizeof *items, rank_cmp);
    for (int q = 0; q < n; q++) {
        order[q] = items[q].idx;
        rank[items[q].idx] = q + 1;
    }
}

static int dbl_cmp(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

static int int_cmp(const void *pa, const void *pb)
{
    int a = *(const int *)pa, b = *(const int *)pb;
    return (a > b) - (a < b);
}

/* Quantile q of sorted x[0..m) with linear interpolation between order statistics (R type 7). */
static double quantile(const double *x, int m, double q)
{
    double h = q * (m - 1);
    int lo = (int)floor(h);
    if (lo >= m - 1)
        return x[m - 1];
    return x[lo] + (h - lo) * (x[lo + 1] - x[lo]);
}

/* ---- Head-to-head ----------------------------------------------------------------------- */

/* One pair's totals over one shared set. */
typedef struct pair_cell {
    int pair; /* a * n + b with a < b */
    int games;
    double diff; /* sum of score_a - score_b */
} pair_cell;

static int pairs_fit(const prep *p, const ar_rank_opts *o, ar_rank_result *r)
{
    int n = p->n;
    size_t nn = (size_t)n * (size_t)n;
    double *ahead = calloc(nn, sizeof *ahead);
    double *sdiff = calloc(nn, sizeof *sdiff);
    long long *cnt = calloc(nn, sizeof *cnt);
    /* cells per set: at most C(m, 2) pairs of the set's distinct entrants */
    long long ncell_max = 0;
    for (long long c = 0; c < p->ns; c++) {
        long long m = p->se_off[c + 1] - p->se_off[c];
        ncell_max += m * (m - 1) / 2;
    }
    pair_cell *cell = malloc((size_t)(ncell_max ? ncell_max : 1) * sizeof *cell);
    pair_cell *sorted = malloc((size_t)(ncell_max ? ncell_max : 1) * sizeof *sorted);
    long long *bucket = calloc(nn + 1, sizeof *bucket);
    int *loc = malloc(nn * sizeof *loc); /* pair -> index of its cell in the current set */
    int boot = o ? o->bootstrap : 0;
    double *rep = malloc((size_t)(boot ? boot : 1) * sizeof *rep);
    if (!ahead || !sdiff || !cnt || !cell || !sorted || !bucket || !loc || !rep) {
        free(ahead);
        free(sdiff);
        free(cnt);
        free(cell);
        free(sorted);
        free(bucket);
        free(loc);
        free(rep);
        return -ENOMEM;
    }
    for (size_t q = 0; q < nn; q++)
        loc[q] = -1;
    long long ncell = 0;
    for (long long c = 0; c < p->ns; c++) {
        long long first = ncell;
        for (long long g = p->set_game[c]; g < p->set_game[c + 1]; g++) {
            const ar_rank_game *x = &p->game[g];
            for (int s = 0; s < x->k; s++)
                for (int t = 0; t < x->k; t++) {
                    int a = x->entrant[s], b = x->entrant[t];
                    if (a >= b)
                        continue;
                    size_t q = (size_t)a * (size_t)n + (size_t)b;
                    double d = x->score[s] - x->score[t];
                    double ah = x->placement[s] < x->placement[t]    ? 1.0
                                : x->placement[s] == x->placement[t] ? 0.5
                                                                     : 0.0;
                    cnt[q]++;
                    sdiff[q] += d;
                    ahead[q] += ah;
                    if (loc[q] < 0) {
                        loc[q] = (int)(ncell - first);
                        cell[ncell++] = (pair_cell){(int)q, 0, 0.0};
                    }
                    pair_cell *pc = &cell[first + loc[q]];
                    pc->games++;
                    pc->diff += d;
                }
        }
        for (long long u = first; u < ncell; u++)
            loc[cell[u].pair] = -1;
    }
    /* Group cells by pair, keeping set order (counting sort, stable). */
    for (long long u = 0; u < ncell; u++)
        bucket[cell[u].pair + 1]++;
    for (size_t q = 0; q < nn; q++)
        bucket[q + 1] += bucket[q];
    for (long long u = 0; u < ncell; u++)
        sorted[bucket[cell[u].pair]++] = cell[u];
    /* bucket[q] is now the end of pair q's cells. */
    long long start = 0;
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            size_t q = (size_t)a * (size_t)n + (size_t)b;
            ar_rank_pair *pr = &r->pair[q];
            if (a >= b) {
                if (a == b)
                    *pr = (ar_rank_pair){0, NAN, NAN, NAN, NAN};
                continue;
            }
            long long end = bucket[q], m = end - start;
            ar_rank_pair *mirror = &r->pair[(size_t)b * (size_t)n + (size_t)a];
            pr->games = cnt[q];
            pr->diff = cnt[q] ? sdiff[q] / (double)cnt[q] : NAN;
            pr->ahead = cnt[q] ? ahead[q] / (double)cnt[q] : NAN;
            pr->diff_lo = pr->diff_hi = NAN;
            if (boot > 0 && m >= 2) {
                ar_rng rng;
                rng_stream(&rng, o->seed ^ 0x5bd1e9955bd1e995ULL, (uint64_t)q);
                for (int bi = 0; bi < boot; bi++) {
                    double sd = 0, sg = 0;
                    for (long long u = 0; u < m; u++) {
                        const pair_cell *pc =
                            &sorted[start + (long long)rng_below64(&rng, (uint64_t)m)];
                        sd += pc->diff;
                        sg += pc->games;
                    }
                    rep[bi] = sd / sg;
                }
                qsort(rep, (size_t)boot, sizeof *rep, dbl_cmp);
                pr->diff_lo = quantile(rep, boot, 0.025);
                pr->diff_hi = quantile(rep, boot, 0.975);
            }
            mirror->games = pr->games;
            mirror->diff = -pr->diff;
            mirror->diff_lo = -pr->diff_hi;
            mirror->diff_hi = -pr->diff_lo;
            mirror->ahead = cnt[q] ? 1.0 - pr->ahead : NAN;
            start = end;
        }
    free(ahead);
    free(sdiff);
    free(cnt);
    free(cell);
    free(sorted);
    free(bucket);
    free(loc);
    free(rep);
    return 0;
}

/* ---- Descriptive statistics ------------------------------------------------------------- */

/* Residual of seat s of game g under the score model: relative score minus what the ratings
 * predict for it (own rating minus the table's mean rating). */
static double residual(const prep *p, const double *theta, long long g, int s)
{
    const ar_rank_game *x = &p->game[g];
    double mean = 0;
    for (int t = 0; t < x->k; t++)
        mean += theta[x->entrant[t]];
    mean /= x->k;
    return p->y[p->obs_off[g] + s] - (theta[x->entrant[s]] - mean);
}

/* Residual of seat s in hand h of game g: the seat's hand score minus the table's mean for
 * that hand, minus the game's prediction spread evenly over its hands. */
static double hand_residual(const prep *p, const double *theta, long long g, int h, int s)
{
    const ar_rank_game *x = &p->game[g];
    double mean = 0, rating = 0;
    for (int t = 0; t < x->k; t++) {
        mean += x->hand[h][t];
        rating += theta[x->entrant[t]];
    }
    double pred = theta[x->entrant[s]] - rating / x->k;
    return (x->hand[h][s] - mean / x->k) - pred / x->nhands;
}

/* rho per hand (rank.h): the game-level computation with (set, hand, seat) groups. */
static void hand_rho(const prep *p, const double *theta, ar_rank_result *r)
{
    double ss_rel = 0, ss_within = 0;
    long long nobs = 0, dof = 0;
    for (long long c = 0; c < p->ns; c++) {
        int most = 0;
        for (long long g = p->set_game[c]; g < p->set_game[c + 1]; g++) {
            most = p->game[g].nhands > most ? p->game[g].nhands : most;
            for (int h = 0; h < p->game[g].nhands; h++)
                for (int s = 0; s < p->game[g].k; s++) {
                    double e = hand_residual(p, theta, g, h, s);
                    ss_rel += e * e;
                    nobs++;
                }
        }
        for (int h = 0; h < most; h++)
            for (int s = 0; s < AR_RANK_MAX_SEATS; s++) {
                double sum = 0;
                long long m = 0;
                for (long long g = p->set_game[c]; g < p->set_game[c + 1]; g++)
                    if (s < p->game[g].k && h < p->game[g].nhands) {
                        sum += hand_residual(p, theta, g, h, s);
                        m++;
                    }
                if (m < 2)
                    continue;
                double mean = sum / (double)m;
                for (long long g = p->set_game[c]; g < p->set_game[c + 1]; g++)
                    if (s < p->game[g].k && h < p->game[g].nhands) {
                        double d = hand_residual(p, theta, g, h, s) - mean;
                        ss_within += d * d;
                    }
                dof += m - 1;
            }
    }
    r->hand_obs = nobs;
    r->var_hand_relative = nobs ? ss_rel / (double)nobs : NAN;
    r->var_hand_set_centred = dof ? ss_within / (double)dof : NAN;
    r->rho_hand = r->var_hand_relative > 0 && dof
                      ? 1.0 - r->var_hand_set_centred / r->var_hand_relative
                      : NAN;
}

static int describe(const prep *p, const double *theta, ar_rank_result *r)
{
    int n = p->n;
    long long *last_set = malloc((size_t)n * sizeof *last_set);
    double *sum_place = calloc((size_t)n, sizeof *sum_place);
    double *sum_rel = calloc((size_t)n, sizeof *sum_rel);
    if (!last_set || !sum_place || !sum_rel) {
        free(last_set);
        free(sum_place);
        free(sum_rel);
        return -ENOMEM;
    }
    for (int i = 0; i < n; i++)
        last_set[i] = -1;
    double seat_sum[AR_RANK_MAX_SEATS] = {0};
    long long seat_n[AR_RANK_MAX_SEATS] = {0};
    double ss_rel = 0;
    for (long long c = 0; c < p->ns; c++)
        for (long long g = p->set_game[c]; g < p->set_game[c + 1]; g++) {
            const ar_rank_game *x = &p->game[g];
            if (x->k > r->k_max)
                r->k_max = x->k;
            for (int s = 0; s < x->k; s++) {
                int e = x->entrant[s];
                double y = p->y[p->obs_off[g] + s];
                ar_rank_entry *en = &r->entry[e];
                en->games++;
                if (x->placement[s] == 1 && !x->forfeited) {
                    int firsts = 0;
                    for (int t = 0; t < x->k; t++)
                        firsts += x->placement[t] == 1;
                    if (firsts == 1)
                        en->wins++;
                    else
                        en->draws++;
                }
                if (last_set[e] != c) {
                    last_set[e] = c;
                    en->sets++;
                }
                sum_place[e] += x->placement[s];
                sum_rel[e] += y;
                seat_sum[s] += y;
                seat_n[s]++;
                double e_res = residual(p, theta, g, s);
                ss_rel += e_res * e_res;
            }
        }
    for (int i = 0; i < n; i++) {
        ar_rank_entry *en = &r->entry[i];
        en->mean_place = en->games ? sum_place[i] / (double)en->games : NAN;
        en->mean_rel = en->games ? sum_rel[i] / (double)en->games : NAN;
    }
    for (int s = 0; s < AR_RANK_MAX_SEATS; s++)
        r->seat_effect[s] = seat_n[s] ? seat_sum[s] / (double)seat_n[s] : NAN;
    free(last_set);
    free(sum_place);
    free(sum_rel);

    /* rho, on the residuals of the score model (the ratings' skill taken out, else the skill
     * differences between the entrants who held a seat's cards would count as deal luck and
     * rho could go negative). Within a set every seat holds the same cards in every rotation,
     * so the mean residual of (set, seat) is the deal's (and the seat's) share; what is left
     * after subtracting it is play noise. The within-group sum of squares is divided by its
     * degrees of freedom (count - 1 per group), so that with no deal effect at all rho is 0
     * in expectation, not 1/rotations. */
    double ss_within = 0;
    long long dof = 0;
    for (long long c = 0; c < p->ns; c++)
        for (int s = 0; s < AR_RANK_MAX_SEATS; s++) {
            double sum = 0;
            long long m = 0;
            for (long long g = p->set_game[c]; g < p->set_game[c + 1]; g++)
                if (s < p->game[g].k) {
                    sum += residual(p, theta, g, s);
                    m++;
                }
            if (m < 2)
                continue;
            double mean = sum / (double)m;
            for (long long g = p->set_game[c]; g < p->set_game[c + 1]; g++)
                if (s < p->game[g].k) {
                    double d = residual(p, theta, g, s) - mean;
                    ss_within += d * d;
                }
            dof += m - 1;
        }
    r->var_relative = p->nobs ? ss_rel / (double)p->nobs : NAN;
    r->var_set_centred = dof ? ss_within / (double)dof : NAN;
    r->rho = r->var_relative > 0 && dof ? 1.0 - r->var_set_centred / r->var_relative : NAN;
    r->effective_games = isfinite(r->rho) && r->rho < 1 ? (double)p->ng / (1.0 - r->rho) : NAN;
    hand_rho(p, theta, r);
    return 0;
}

/* ---- The fit ---------------------------------------------------------------------------- */

void ar_rank_free(ar_rank_result *r)
{
    if (!r)
        return;
    free(r->entry);
    free(r->order);
    free(r->pair);
    free(r->rank_p);
    memset(r, 0, sizeof *r);
}

int ar_rank_fit(const ar_rank_game *games, long long ngames, int n, const ar_rank_opts *o,
                ar_rank_result *r, char *err, size_t errcap)
{
    static const ar_rank_opts defaults = {0, 0, 1.0};
    if (!r)
        return fail(err, errcap, -EINVAL, "rank: no result");
    memset(r, 0, sizeof *r);
    int rc = validate(games, ngames, n, o, err, errcap);
    if (rc)
        return rc;
    if (!o)
        o = &defaults;

    prep p;
    work ws;
    memset(&ws, 0, sizeof ws);
    double *theta = NULL, *lg = NULL, *lg_main = NULL, *boot_score = NULL, *boot_elo = NULL;
    double *col = NULL, *elo_c = NULL;
    int *boot_rank = NULL, *wset = NULL, *icol = NULL, *rorder = NULL, *rrank = NULL;
    rc = prep_build(&p, games, ngames, n);
    if (rc == 0)
        rc = work_init(&ws, n);
    size_t un = (size_t)n, nb = (size_t)o->bootstrap;
    r->n = n;
    r->entry = calloc(un, sizeof *r->entry);
    r->order = calloc(un, sizeof *r->order);
    r->pair = calloc(un * un, sizeof *r->pair);
    theta = calloc(un, sizeof *theta);
    lg = malloc(un * sizeof *lg);
    lg_main = malloc(un * sizeof *lg_main);
    elo_c = calloc(un, sizeof *elo_c);
    rorder = malloc(un * sizeof *rorder);
    rrank = malloc(un * sizeof *rrank);
    if (rc == 0 && (!r->entry || !r->order || !r->pair || !theta || !lg || !lg_main || !elo_c ||
                    !rorder || !rrank))
        rc = -ENOMEM;
    if (rc == 0 && nb && p.ns > 0) {
        r->rank_p = calloc(un * un, sizeof *r->rank_p);
        if (!r->rank_p)
            rc = -ENOMEM;
    }
    if (rc == 0 && nb) {
        boot_score = malloc(un * nb * sizeof *boot_score);
        boot_elo = malloc(un * nb * sizeof *boot_elo);
        boot_rank = malloc(un * nb * sizeof *boot_rank);
        wset = malloc((size_t)(p.ns ? p.ns : 1) * sizeof *wset);
        col = malloc(nb * sizeof *col);
        icol = malloc(nb * sizeof *icol);
        if (!boot_score || !boot_elo || !boot_rank || !wset || !col || !icol)
            rc = -ENOMEM;
    }
    if (rc) {
        fail(err, errcap, rc, "rank: out of memory");
        goto out;
    }

    r->games = p.ng;
    r->sets = p.ns;

    /* Main fits. */
    int ncomp = ls_fit(&p, NULL, &ws, theta);
    r->connected = ncomp == 1;
    rc = describe(&p, theta, r);
    if (rc) {
        fail(err, errcap, rc, "rank: out of memory");
        goto out;
    }
    for (int i = 0; i < n; i++)
        lg_main[i] = 0;
    r->iterations = pl_fit(&p, NULL, o->prior_games, PL_TOL_MAIN, &ws, ncomp, lg_main);
    double mean_lg = 0;
    for (int i = 0; i < n; i++)
        mean_lg += lg_main[i];
    mean_lg /= n;
    for (int i = 0; i < n; i++) {
        r->entry[i].score = theta[i];
        r->entry[i].elo = ELO_PER_UNIT * (lg_main[i] - mean_lg);
        elo_c[i] = r->entry[i].elo;
    }
    int *rank_main = rrank;
    rank_order(n, theta, elo_c, ws.items, r->order, rank_main);
    for (int i = 0; i < n; i++) {
        ar_rank_entry *en = &r->entry[i];
        en->rank = rank_main[i];
        en->score_lo = en->score_hi = en->elo_lo = en->elo_hi = en->p_next = NAN;
        en->rank_lo = en->rank_hi = 0;
    }

    /* Cluster bootstrap over sets. */
    if (nb && p.ns > 0) {
        for (size_t bi = 0; bi < nb; bi++) {
            ar_rng rng;
            rng_stream(&rng, o->seed, (uint64_t)bi);
            memset(wset, 0, (size_t)p.ns * sizeof *wset);
            for (long long d = 0; d < p.ns; d++)
                wset[rng_below64(&rng, (uint64_t)p.ns)]++;
            double *bs = boot_score + bi * un, *be = boot_elo + bi * un;
            int nc = ls_fit(&p, wset, &ws, bs);
            memcpy(lg, lg_main, un * sizeof *lg);
            pl_fit(&p, wset, o->prior_games, PL_TOL_BOOT, &ws, nc, lg);
            double ml = 0;
            for (int i = 0; i < n; i++)
                ml += lg[i];
            ml /= n;
            for (int i = 0; i < n; i++)
                be[i] = ELO_PER_UNIT * (lg[i] - ml);
            rank_order(n, bs, be, ws.items, rorder, boot_rank + bi * un);
        }
        for (int i = 0; i < n; i++) {
            ar_rank_entry *en = &r->entry[i];
            for (size_t bi = 0; bi < nb; bi++)
                col[bi] = boot_score[bi * un + (size_t)i];
            qsort(col, nb, sizeof *col, dbl_cmp);
            en->score_lo = quantile(col, (int)nb, 0.025);
            en->score_hi = quantile(col, (int)nb, 0.975);
            for (size_t bi = 0; bi < nb; bi++)
                col[bi] = boot_elo[bi * un + (size_t)i];
            qsort(col, nb, sizeof *col, dbl_cmp);
            en->elo_lo = quantile(col, (int)nb, 0.025);
            en->elo_hi = quantile(col, (int)nb, 0.975);
            for (size_t bi = 0; bi < nb; bi++)
                icol[bi] = boot_rank[bi * un + (size_t)i];
            qsort(icol, nb, sizeof *icol, int_cmp);
            /* Outer order statistics: a rank interval never claims more than the data. */
            en->rank_lo = icol[(size_t)floor(0.025 * (double)(nb - 1))];
            en->rank_hi = icol[(size_t)ceil(0.975 * (double)(nb - 1))];
            /* icol is sorted: count each rank's run of replicates */
            double *row = r->rank_p + (size_t)i * un;
            for (size_t bi = 0; bi < nb; bi++)
                row[icol[bi] - 1] += 1.0;
            for (int k = 0; k < n; k++)
                row[k] /= (double)nb;
        }
        for (int q = 0; q + 1 < n; q++) {
            int a = r->order[q], b = r->order[q + 1];
            double wins = 0;
            for (size_t bi = 0; bi < nb; bi++) {
                double sa = boot_score[bi * un + (size_t)a], sb = boot_score[bi * un + (size_t)b];
                wins += sa > sb ? 1.0 : sa == sb ? 0.5 : 0.0;
            }
            r->entry[a].p_next = wins / (double)nb;
        }
    }

    rc = pairs_fit(&p, o, r);
    if (rc)
        fail(err, errcap, rc, "rank: out of memory");

out:
    prep_free(&p);
    work_free(&ws);
    free(theta);
    free(lg);
    free(lg_main);
    free(elo_c);
    free(rorder);
    free(rrank);
    free(boot_score);
    free(boot_elo);
    free(boot_rank);
    free(wset);
    free(col);
    free(icol);
    if (rc)
        ar_rank_free(r);
    return rc;
}

/* ---- Sequential test -------------------------------------------------------------------- */

double ar_sprt_llr(const double *x, long long n, double s0, double s1)
{
    if (!x || n <= 0)
        return 0.0;
    double r0 = 0, r1 = 0;
    for (long long i = 0; i < n; i++) {
        r0 += (x[i] - s0) * (x[i] - s0);
        r1 += (x[i] - s1) * (x[i] - s1);
    }
    if (r0 == r1) /* s0 == s1, or the data sit exactly midway */
        return 0.0;
    if (r1 == 0)
        return INFINITY; /* every x equals s1 */
    if (r0 == 0)
        return -INFINITY;
    return 0.5 * (double)n * log(r0 / r1);
}

void ar_sprt_bounds(double alpha, double beta, double *lower, double *upper)
{
    if (lower)
        *lower = log(beta / (1.0 - alpha));
    if (upper)
        *upper = log((1.0 - beta) / alpha);
}

int ar_sprt_decide(double llr, double lower, double upper)
{
    if (llr >= upper)
        return 1;
    if (llr <= lower)
        return -1;
    return 0; /* includes NaN */
}
