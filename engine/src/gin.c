/* gin.c - Oklahoma Gin: knock limit, legal knocks, best arrangement, settlement
 * (RULES G1, G2, G5, G7).
 *
 * Melds (G1, G5). Cards are the kinds 0..51 (suit * 13 + rank - 1); the ace is only low.
 * A run is 3+ cards of one suit with consecutive ranks inside A..K (no wrap, no kind
 * twice); a set is 3..cap cards of one rank, cap = rules.set_max if nonzero (at most 13),
 * else 4. Hands are multisets (RULES 1.3): with decks > 1 a set may hold two copies of one
 * kind, and an arrangement may hold two equal melds. The Joker (kind 52) is no gin card:
 * it is never melded, never counted and never a knock's discard.
 *
 * Canonical order (okr__gin_knocks emits in this order; okr__gin_knock_check accepts the
 * melds and their cards in any order):
 *   - a meld is its card list in ascending kind order (sets therefore in suit order, runs
 *     in rank order);
 *   - melds compare by their card lists lexicographically, a proper prefix first:
 *     [0 1 2] < [0 1 2 3] < [0 13 26] < [1 2 3];
 *   - an arrangement lists its melds in ascending meld order (equal melds side by side);
 *   - arrangements compare as sequences of melds, lexicographically, a proper prefix first
 *     (so the zero-meld arrangement, when legal, comes first);
 *   - knocks are ordered by discard kind, then by arrangement.
 * Every arrangement (a multiset of disjoint melds, maximal or not) whose deadwood is within
 * the knock limit is one knock, emitted exactly once. okr_gin_best breaks ties by the same
 * order (the first best arrangement). Arrangements hold at most OKR_GIN_MELDS melds, which
 * is every arrangement of a hand of up to 14 cards.
 *
 * Representation: a multiset is four 64-bit words, one per suit, each with 13 nibbles (the
 * count of the rank's kind). Counts are clamped to 3 (RULES 1.5: at most three packs), so
 * bit 3 of each nibble is a free guard and the nibble-wise sum of the four words still fits
 * in a nibble. Copies beyond a third (impossible in a legal game) are never melded but still
 * count as deadwood. "u fits in r" is ((r | G) - u) & G == G; taking u out of r is r - u.
 * The common case of okr__gin_knocks (a hand that cannot knock at all) is decided with a
 * few word operations: cards that are in no possible meld stay deadwood whatever the
 * arrangement, so when their value less the highest of them exceeds the limit no discard
 * can knock.
 */
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"

#define GIN_G 0x8888888888888ULL    /* bit 3 of each of the 13 nibbles */
#define GIN_ONES 0x1111111111111ULL /* bit 0 of each of the 13 nibbles */

enum {
    GIN_MAXM = 512, /* meld table; a hand of 11 cards has at most a few hundred melds */
    GIN_SET_CAP = 4
};

/* Gin value by rank index 0..12 (G1). */
static const uint8_t gin_rank_value[13] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10};

typedef struct gin_meld {
    uint64_t u[4]; /* cards used, as a multiset */
    int value;     /* sum of the cards' values */
    okr_ginmeld m; /* card list, ascending, zero padded */
} gin_meld;

static int gin_cap(const okr_rules *r)
{
    if (r == NULL || r->set_max == 0)
        return GIN_SET_CAP;
    return r->set_max > 13 ? 13 : (int)r->set_max;
}

static inline bool gin_fits(const uint64_t u[4], const uint64_t r[4])
{
    return (((r[0] | GIN_G) - u[0]) & GIN_G) == GIN_G &&
           (((r[1] | GIN_G) - u[1]) & GIN_G) == GIN_G &&
           (((r[2] | GIN_G) - u[2]) & GIN_G) == GIN_G && (((r[3] | GIN_G) - u[3]) & GIN_G) == GIN_G;
}

static inline void gin_take(uint64_t out[4], const uint64_t r[4], const uint64_t u[4])
{
    out[0] = r[0] - u[0];
    out[1] = r[1] - u[1];
    out[2] = r[2] - u[2];
    out[3] = r[3] - u[3];
}

/* Masks (whole nibbles) of the ranks whose value has bit b set (G1: ace 1 .. ten 10, J Q K 10). */
static const uint64_t gin_vmask[4] = {
    0x0000F0F0F0F0FULL, /* ace 3 5 7 9 */
    0xFFFF00FF00FF0ULL, /* 2 3 6 7 10 J Q K */
    0x000000FFFF000ULL, /* 4 5 6 7 */
    0xFFFFFF0000000ULL, /* 8 9 10 J Q K */
};
#define GIN_BYTES 0x0F0F0F0F0F0F0F0FULL

/* Sum of the nibbles of y (each nibble at most 12). */
static inline unsigned gin_hsum(uint64_t y)
{
    y = (y & GIN_BYTES) + ((y >> 4) & GIN_BYTES);
    return (unsigned)((y * 0x0101010101010101ULL) >> 56);
}

/* Gin value of a multiset given as the nibble-wise sum of its four suit words. */
static inline int gin_value_sum(uint64_t sum)
{
    return (int)(gin_hsum(sum & gin_vmask[0]) + 2u * gin_hsum(sum & gin_vmask[1]) +
                 4u * gin_hsum(sum & gin_vmask[2]) + 8u * gin_hsum(sum & gin_vmask[3]));
}

static int gin_words_value(const uint64_t w[4])
{
    return gin_value_sum(w[0] + w[1] + w[2] + w[3]);
}

/* 13 counts (bytes) to 13 nibbles; *over is set when a count exceeds 3 (then clamped). */
static uint64_t gin_pack13(const uint8_t *h, bool *over)
{
    /* written out so that compilers merge the byte loads */
    uint64_t lo = (uint64_t)h[0] | (uint64_t)h[1] << 8 | (uint64_t)h[2] << 16 |
                  (uint64_t)h[3] << 24 | (uint64_t)h[4] << 32 | (uint64_t)h[5] << 40 |
                  (uint64_t)h[6] << 48 | (uint64_t)h[7] << 56;
    uint64_t hi = (uint64_t)h[8] | (uint64_t)h[9] << 8 | (uint64_t)h[10] << 16 |
                  (uint64_t)h[11] << 24 | (uint64_t)h[12] << 32;
    if (((lo | hi) & 0xFCFCFCFCFCFCFCFCULL) != 0) {
        *over = true;
        lo = hi = 0;
        for (int i = 0; i < 8; i++)
            lo |= (uint64_t)(h[i] > 3 ? 3 : h[i]) << (8 * i);
        for (int i = 0; i < 5; i++)
            hi |= (uint64_t)(h[8 + i] > 3 ? 3 : h[8 + i]) << (8 * i);
    }
    lo = (lo | lo >> 4) & 0x00FF00FF00FF00FFULL;
    lo = (lo | lo >> 8) & 0x0000FFFF0000FFFFULL;
    lo = (lo | lo >> 16) & 0x00000000FFFFFFFFULL;
    hi = (hi | hi >> 4) & 0x00FF00FF00FF00FFULL;
    hi = (hi | hi >> 8) & 0x0000FFFF0000FFFFULL;
    hi = (hi | hi >> 16) & 0x00000000FFFFFFFFULL;
    return lo | hi << 32;
}

/* Load the 52 gin kinds of a hand (the Joker is ignored); returns the total value of the
 * cards, every copy counted. */
static int gin_load(const uint8_t hand[OKR_KINDS], uint64_t w[4])
{
    bool over = false;
    for (int s = 0; s < 4; s++)
        w[s] = gin_pack13(hand + 13 * s, &over);
    if (!over)
        return gin_words_value(w);
    int total = 0;
    for (int k = 0; k < 52; k++)
        total += hand[k] * gin_rank_value[k % 13];
    return total;
}

/* Every meld of the multiset w (runs, then sets; not yet in canonical order). */
static int gin_gen(const uint64_t w[4], int cap, gin_meld *out, int max)
{
    int n = 0;
    for (int s = 0; s < 4; s++) {
        uint64_t x = w[s];
        uint64_t p = (x | x >> 1 | x >> 2) & GIN_ONES; /* nibble r: kind present */
        if ((p & p >> 4 & p >> 8) == 0)
            continue; /* no three in a row */
        for (int lo = 0; lo + 2 < 13; lo++) {
            if (((p >> (4 * lo)) & 0x111u) != 0x111u)
                continue;
            uint64_t u = 0;
            int value = 0;
            for (int hi = lo; hi < 13 && ((p >> (4 * hi)) & 1u); hi++) {
                u |= 1ULL << (4 * hi);
                value += gin_rank_value[hi];
                if (hi - lo < 2)
                    continue;
                if (n == max)
                    return n;
                gin_meld *m = &out[n++];
                memset(m, 0, sizeof *m);
                m->u[s] = u;
                m->value = value;
                m->m.n = (uint8_t)(hi - lo + 1);
                for (int i = lo; i <= hi; i++)
                    m->m.card[i - lo] = (uint8_t)(s * 13 + i);
            }
        }
    }
    for (int r = 0; r < 13; r++) {
        unsigned c[4];
        unsigned sum = 0;
        for (int s = 0; s < 4; s++) {
            c[s] = (unsigned)(w[s] >> (4 * r)) & 15u;
            sum += c[s];
        }
        if (sum < 3)
            continue;
        for (unsigned a0 = 0; a0 <= c[0]; a0++)
            for (unsigned a1 = 0; a1 <= c[1]; a1++)
                for (unsigned a2 = 0; a2 <= c[2]; a2++)
                    for (unsigned a3 = 0; a3 <= c[3]; a3++) {
                        unsigned k = a0 + a1 + a2 + a3;
                        if (k < 3 || k > (unsigned)cap)
                            continue;
                        if (n == max)
                            return n;
                        gin_meld *m = &out[n++];
                        const unsigned a[4] = {a0, a1, a2, a3};
                        int j = 0;
                        memset(m, 0, sizeof *m);
                        for (int s = 0; s < 4; s++) {
                            m->u[s] = (uint64_t)a[s] << (4 * r);
                            for (unsigned i = 0; i < a[s]; i++)
                                m->m.card[j++] = (uint8_t)(s * 13 + r);
                        }
                        m->m.n = (uint8_t)k;
                        m->value = (int)k * gin_rank_value[r];
                    }
    }
    return n;
}

static int gin_meld_cmp(const okr_ginmeld *a, const okr_ginmeld *b)
{
    int n = a->n < b->n ? a->n : b->n;
    for (int i = 0; i < n; i++)
        if (a->card[i] != b->card[i])
            return a->card[i] < b->card[i] ? -1 : 1;
    return (int)a->n - (int)b->n;
}

/* Put the meld table in canonical order (insertion sort: the table is small). */
static void gin_sort(gin_meld *m, int n)
{
    for (int i = 1; i < n; i++) {
        if (gin_meld_cmp(&m[i - 1].m, &m[i].m) <= 0)
            continue;
        gin_meld t = m[i];
        int j = i;
        while (j > 0 && gin_meld_cmp(&m[j - 1].m, &t.m) > 0) {
            m[j] = m[j - 1];
            j--;
        }
        m[j] = t;
    }
}

/* ---- Best arrangement (G5) ----------------------------------------------------------- */

typedef struct gin_best_ctx {
    const gin_meld *m;
    int nm;
    int total; /* value of the whole multiset */
    int best;  /* most value melded so far */
    int best_n;
    int cur[OKR_GIN_MELDS];
    int best_idx[OKR_GIN_MELDS];
} gin_best_ctx;

/* Pre-order walk in canonical order; only a strictly better arrangement replaces the best,
 * so the best kept is the first in canonical order. */
static void gin_best_dfs(gin_best_ctx *c, int start, int depth, const uint64_t r[4], int mv)
{
    if (mv > c->best) {
        c->best = mv;
        c->best_n = depth;
        memcpy(c->best_idx, c->cur, sizeof c->cur);
    }
    if (depth == OKR_GIN_MELDS)
        return;
    for (int j = start; j < c->nm && c->best < c->total; j++) {
        if (!gin_fits(c->m[j].u, r))
            continue;
        uint64_t r2[4];
        gin_take(r2, r, c->m[j].u);
        c->cur[depth] = j;
        gin_best_dfs(c, j, depth + 1, r2, mv + c->m[j].value);
    }
}

/* Least deadwood of the multiset w; with out != NULL also the first best arrangement. */
static int gin_best_words(const uint64_t w[4], int cap, okr_ginmeld *out, int *nout)
{
    gin_meld m[GIN_MAXM];
    gin_best_ctx c;
    memset(&c, 0, sizeof c);
    c.m = m;
    c.nm = gin_gen(w, cap, m, GIN_MAXM);
    c.total = gin_words_value(w);
    if (out != NULL)
        gin_sort(m, c.nm);
    if (c.nm > 0)
        gin_best_dfs(&c, 0, 0, w, 0);
    if (out != NULL)
        for (int i = 0; i < c.best_n; i++)
            out[i] = m[c.best_idx[i]].m;
    if (nout != NULL)
        *nout = c.best_n;
    return c.total - c.best;
}

/* Exact for any hand that needs at most OKR_GIN_MELDS melds and has at most GIN_MAXM melds
 * (every hand of up to 14 cards under the gin set cap). */
int okr_gin_best(const okr_rules *r, const uint8_t hand[OKR_KINDS], okr_ginmeld *melds, int *nmelds)
{
    uint64_t w[4];
    const int total = gin_load(hand, w);
    /* copies beyond the third are never melded: they stay deadwood */
    return total - gin_words_value(w) + gin_best_words(w, gin_cap(r), melds, nmelds);
}

/* ---- Knock limit (G2) ---------------------------------------------------------------- */

int okr_knock_limit(const okr_rules *r, int upcard)
{
    if (r->family != OKR_FAMILY_GIN || upcard < 0 || upcard >= 52)
        return 0; /* no upcard: no knock limit to speak of; only gin */
    if (r->ace_gin_only && upcard % 13 == 0)
        return 0;
    return gin_rank_value[upcard % 13];
}

int okr__gin_limit(const okr_game *g)
{
    return okr_knock_limit(&g->rules, g->upcard);
}

/* ---- Legal knocks (G5) ---------------------------------------------------------------- */

typedef struct gin_knock_ctx {
    const gin_meld *m;
    int nm;
    const uint64_t (*cov)[4]; /* cov[j]: whole nibbles of the cards melds j.. could use */
    int total, limit;
    /* scan: kinds whose discard leaves an arrangement within the limit */
    uint64_t feasible[4];
    /* emission */
    okr_action *out;
    int n, cap;
    int seat, discard;
    int cur[OKR_GIN_MELDS];
} gin_knock_ctx;

/* Most value the melds j.. could still add to an arrangement whose cards left are r. */
static int gin_bound(const gin_knock_ctx *c, int j, const uint64_t r[4])
{
    const uint64_t *cv = c->cov[j];
    return gin_value_sum((r[0] & cv[0]) + (r[1] & cv[1]) + (r[2] & cv[2]) + (r[3] & cv[3]));
}

/* Walk every arrangement of the 11 cards; at a node melding mv, a card d left over may be
 * discarded for a knock when total - value(d) - mv <= limit, i.e. value(d) >= need. */
static void gin_scan_dfs(gin_knock_ctx *c, int start, int depth, const uint64_t r[4], int mv)
{
    const int need = c->total - c->limit - mv;
    if (need <= 10) {
        const int idx = need <= 1 ? 0 : need - 1; /* ranks from idx up are worth >= need */
        const uint64_t mask = (GIN_ONES << (4 * idx)) & GIN_ONES;
        for (int s = 0; s < 4; s++)
            c->feasible[s] |= (r[s] | r[s] >> 1) & mask;
    }
    if (depth == OKR_GIN_MELDS || start == c->nm || need - gin_bound(c, start, r) > 10)
        return;
    for (int j = start; j < c->nm; j++) {
        if (!gin_fits(c->m[j].u, r))
            continue;
        uint64_t r2[4];
        gin_take(r2, r, c->m[j].u);
        gin_scan_dfs(c, j, depth + 1, r2, mv + c->m[j].value);
    }
}

static int gin_emit_dfs(gin_knock_ctx *c, int start, int depth, const uint64_t r[4], int mv)
{
    if (c->total - mv <= c->limit) {
        if (c->n >= c->cap)
            return OKR_EOVERFLOW;
        okr_action *a = &c->out[c->n++];
        memset(a, 0, sizeof *a);
        a->type = OKR_A_KNOCK;
        a->seat = (uint8_t)c->seat;
        a->card = (uint8_t)c->discard;
        a->nmelds = (uint8_t)depth;
        for (int i = 0; i < depth; i++)
            a->u.knock[i] = c->m[c->cur[i]].m;
    }
    if (depth == OKR_GIN_MELDS || start == c->nm ||
        c->total - mv - gin_bound(c, start, r) > c->limit)
        return OKR_OK;
    for (int j = start; j < c->nm; j++) {
        if (!gin_fits(c->m[j].u, r))
            continue;
        uint64_t r2[4];
        gin_take(r2, r, c->m[j].u);
        c->cur[depth] = j;
        int rc = gin_emit_dfs(c, j, depth + 1, r2, mv + c->m[j].value);
        if (rc < 0)
            return rc;
    }
    return OKR_OK;
}

int okr__gin_knocks(const okr_game *g, okr_action *out, int n, int cap)
{
    const int seat = g->to_act;
    const uint8_t *hand = g->hand[seat];
    const int limit = okr__gin_limit(g);
    uint64_t w[4];
    const int total = gin_load(hand, w);

    /* Cheap bound: a card in no possible meld (no run of three through it, fewer than
     * three cards of its rank) stays deadwood in every arrangement, unless discarded. */
    uint64_t dead_sum = 0;
    const uint64_t sum = w[0] + w[1] + w[2] + w[3];
    const uint64_t set3 = ((sum >> 2) | (sum >> 3) | (sum & (sum >> 1))) & GIN_ONES;
    for (int s = 0; s < 4; s++) {
        const uint64_t x = w[s];
        const uint64_t p = (x | x >> 1) & GIN_ONES; /* counts are at most 3 */
        const uint64_t t = p & p >> 4 & p >> 8;
        const uint64_t cover = t | t << 4 | t << 8 | (p & set3);
        dead_sum += x & ~(cover * 15u);
    }
    if (dead_sum != 0) {
        const int dead = gin_value_sum(dead_sum);
        const uint64_t dp = (dead_sum | dead_sum >> 1 | dead_sum >> 2 | dead_sum >> 3) & GIN_ONES;
        int r = 12;
        while (((dp >> (4 * r)) & 1u) == 0)
            r--;
        if (dead - gin_rank_value[r] > limit)
            return n;
    }

    gin_meld m[GIN_MAXM];
    uint64_t cov[GIN_MAXM + 1][4];
    gin_knock_ctx c;
    memset(&c, 0, sizeof c);
    c.m = m;
    c.nm = gin_gen(w, gin_cap(&g->rules), m, GIN_MAXM);
    gin_sort(m, c.nm);
    memset(cov[c.nm], 0, sizeof cov[c.nm]);
    for (int j = c.nm - 1; j >= 0; j--)
        for (int s = 0; s < 4; s++) {
            const uint64_t u = m[j].u[s];
            cov[j][s] = cov[j + 1][s] | ((u | u >> 1) & GIN_ONES) * 15u;
        }
    c.cov = (const uint64_t(*)[4])cov;
    c.total = total;
    c.limit = limit;
    gin_scan_dfs(&c, 0, 0, w, 0);

    c.out = out;
    c.n = n;
    c.cap = cap;
    c.seat = seat;
    for (int d = 0; d < 52; d++) {
        if (((c.feasible[d / 13] >> (4 * (d % 13))) & 1u) == 0)
            continue;
        uint64_t r[4] = {w[0], w[1], w[2], w[3]};
        r[d / 13] -= 1ULL << (4 * (d % 13));
        c.discard = d;
        c.total = total - gin_rank_value[d % 13];
        int rc = gin_emit_dfs(&c, 0, 0, r, 0);
        if (rc < 0)
            return rc;
    }
    return c.n;
}

/* ---- Checking a knock (G2, G5) --------------------------------------------------------- */

static char *gin_put_str(char *p, const char *s)
{
    while (*s)
        *p++ = *s++;
    return p;
}

static char *gin_put_uint(char *p, unsigned v)
{
    char tmp[12];
    int k = 0;
    do {
        tmp[k++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v);
    while (k)
        *p++ = tmp[--k];
    return p;
}

/* Shape of a declared meld. Returns OKR_SET / OKR_RUN, or 0 when it is no gin meld. For a
 * set *a = rank index, for a run *a = suit, *lo, *hi = rank indexes. */
static int gin_shape(const okr_ginmeld *g, int cap, int *a, int *lo, int *hi)
{
    uint8_t c[13];
    int n = g->n;
    if (n < 3 || n > 13)
        return 0;
    for (int i = 0; i < n; i++) {
        uint8_t k = g->card[i];
        if (k >= 52)
            return 0;
        int j = i;
        while (j > 0 && c[j - 1] > k) {
            c[j] = c[j - 1];
            j--;
        }
        c[j] = k;
    }
    bool same_rank = true;
    for (int i = 1; i < n; i++)
        if (c[i] % 13 != c[0] % 13)
            same_rank = false;
    if (same_rank) {
        if (n > cap)
            return 0;
        *a = c[0] % 13;
        *lo = *hi = 0;
        return OKR_SET;
    }
    if (c[n - 1] / 13 != c[0] / 13)
        return 0; /* also rules out K-A wraps: the ace is only low (G1) */
    for (int i = 1; i < n; i++)
        if (c[i] != c[0] + i)
            return 0;
    *a = c[0] / 13;
    *lo = c[0] % 13;
    *hi = c[n - 1] % 13;
    return OKR_RUN;
}

int okr__gin_knock_check(const okr_game *g, const okr_action *a, okr_refusal *why)
{
    const uint8_t *hand = g->hand[g->to_act];
    const int cap = gin_cap(&g->rules);
    uint8_t left[52];

    if (a->nmelds > OKR_GIN_MELDS)
        return okr__refuse(why, "G5", "too many melds in a knock (at most 4)");
    if (a->card >= 52 || hand[a->card] == 0)
        return okr__refuse(why, "G5", "the knock's discard is not in hand");
    memcpy(left, hand, sizeof left);
    left[a->card]--;
    int total = 0;
    for (int k = 0; k < 52; k++)
        total += left[k] * gin_rank_value[k % 13];
    int melded = 0;
    for (int i = 0; i < a->nmelds; i++) {
        const okr_ginmeld *gm = &a->u.knock[i];
        int x, lo, hi;
        if (gin_shape(gm, cap, &x, &lo, &hi) == 0)
            return okr__refuse(
                why, "G5",
                "not a valid meld (sets of 3-4 of a rank, runs of 3+ in one suit, ace low)");
        for (int j = 0; j < gm->n; j++) {
            uint8_t k = gm->card[j];
            if (left[k] == 0) {
                /* say which card and why: not held, the discard itself, or used twice */
                char buf[120], cs[3];
                const char *what = k >= 52 || hand[k] == 0 ? " is not in hand"
                                   : k == a->card && hand[k] == 1
                                       ? " is the knock's discard: it cannot also be melded"
                                       : " is used twice: each card of the hand goes in one meld";
                char *q = gin_put_str(buf, "the melds' card ");
                q = gin_put_str(q, k < 52 ? okr_card_str(k, cs) : "?");
                q = gin_put_str(q, what);
                *q = '\0';
                return okr__refuse(why, "G5", buf);
            }
            left[k]--;
            melded += gin_rank_value[k % 13];
        }
    }
    const int dw = total - melded;
    const int limit = okr__gin_limit(g);
    if (dw > limit) {
        if (g->rules.ace_gin_only && g->upcard < 52 && g->upcard % 13 == 0)
            return okr__refuse(why, "G2", "ace upcard: only gin may end the hand");
        char buf[120];
        char *p = gin_put_str(buf, "deadwood ");
        p = gin_put_uint(p, (unsigned)dw);
        p = gin_put_str(p, " exceeds the knock limit ");
        p = gin_put_uint(p, (unsigned)limit);
        *p = '\0';
        return okr__refuse(why, "G5", buf);
    }
    return OKR_OK;
}

/* ---- Settlement (G5, G7) -------------------------------------------------------------- */

typedef struct gin_lay {
    int type;   /* OKR_SET or OKR_RUN */
    int a;      /* set: rank index; run: suit */
    int lo, hi; /* run: rank indexes */
    int n;      /* cards in the meld */
} gin_lay;

typedef struct gin_lay_ctx {
    gin_lay lay[OKR_GIN_MELDS];
    int nl;
    int cap;
    int best; /* least deadwood so far */
    /* took[i]: the cards (nibbles per suit) laid off onto meld i on the current path;
     * best_took: on the path that gave `best` (the lay-offs shown at the showdown) */
    uint64_t took[OKR_GIN_MELDS][4];
    uint64_t best_took[OKR_GIN_MELDS][4];
} gin_lay_ctx;

/* Try every lay-off onto knocker meld i.. (each card once), then the defender's own best
 * melds of what is left. */
static void gin_lay_dfs(gin_lay_ctx *c, int i, const uint64_t r[4])
{
    if (c->best == 0)
        return;
    if (i == c->nl) {
        int d = gin_best_words(r, c->cap, NULL, NULL);
        if (d < c->best) {
            c->best = d;
            memcpy(c->best_took, c->took, sizeof c->took);
        }
        return;
    }
    const gin_lay *L = &c->lay[i];
    if (L->type == OKR_RUN) {
        const int s = L->a;
        const uint64_t x = r[s];
        int amax = 0, bmax = 0;
        while (L->lo - amax - 1 >= 0 && ((x >> (4 * (L->lo - amax - 1))) & 15u) != 0)
            amax++;
        while (L->hi + bmax + 1 < 13 && ((x >> (4 * (L->hi + bmax + 1))) & 15u) != 0)
            bmax++;
        uint64_t below = 0;
        for (int ai = 0; ai <= amax; ai++) {
            if (ai > 0)
                below |= 1ULL << (4 * (L->lo - ai));
            uint64_t above = 0;
            for (int bi = 0; bi <= bmax; bi++) {
                if (bi > 0)
                    above |= 1ULL << (4 * (L->hi + bi));
                uint64_t r2[4] = {r[0], r[1], r[2], r[3]};
                r2[s] = x - below - above;
                memset(c->took[i], 0, sizeof c->took[i]);
                c->took[i][s] = below + above;
                gin_lay_dfs(c, i + 1, r2);
            }
        }
        return;
    }
    /* a set: add up to cap - n cards of its rank */
    const int room = c->cap - L->n;
    const int sh = 4 * L->a;
    unsigned k[4];
    for (int s = 0; s < 4; s++)
        k[s] = room > 0 ? (unsigned)(r[s] >> sh) & 15u : 0u;
    for (unsigned a0 = 0; a0 <= k[0]; a0++)
        for (unsigned a1 = 0; a1 <= k[1]; a1++)
            for (unsigned a2 = 0; a2 <= k[2]; a2++)
                for (unsigned a3 = 0; a3 <= k[3]; a3++) {
                    if ((int)(a0 + a1 + a2 + a3) > (room > 0 ? room : 0))
                        continue;
                    uint64_t r2[4] = {r[0] - ((uint64_t)a0 << sh), r[1] - ((uint64_t)a1 << sh),
                                      r[2] - ((uint64_t)a2 << sh), r[3] - ((uint64_t)a3 << sh)};
                    c->took[i][0] = (uint64_t)a0 << sh;
                    c->took[i][1] = (uint64_t)a1 << sh;
                    c->took[i][2] = (uint64_t)a2 << sh;
                    c->took[i][3] = (uint64_t)a3 << sh;
                    gin_lay_dfs(c, i + 1, r2);
                }
}

void okr__gin_settle(const okr_game *g, int knocker, const okr_action *knock, okr_hand_result *res)
{
    const int def = 1 - knocker;
    const int cap = gin_cap(&g->rules);
    uint8_t left[52];
    gin_lay_ctx c;

    memset(&c, 0, sizeof c);
    c.cap = cap;
    res->knock_nmelds = res->knock_dead_n = res->layoff_n = 0;
    memcpy(left, g->hand[knocker], sizeof left);
    const int nm = knock->nmelds < OKR_GIN_MELDS ? knock->nmelds : OKR_GIN_MELDS;
    for (int i = 0; i < nm; i++) {
        const okr_ginmeld *gm = &knock->u.knock[i];
        gin_lay *L = &c.lay[c.nl];
        int type = gin_shape(gm, 13, &L->a, &L->lo, &L->hi);
        OKR_ASSERT(type != 0);
        if (type == 0)
            continue;
        /* shown face up (G5); meld c.nl of the lay-offs is knock_meld[c.nl] */
        res->knock_meld[c.nl] = *gm;
        L->type = type;
        L->n = gm->n;
        c.nl++;
        for (int j = 0; j < gm->n; j++)
            if (left[gm->card[j]] > 0)
                left[gm->card[j]]--;
    }
    int K = 0;
    for (int k = 0; k < 52; k++) {
        K += left[k] * gin_rank_value[k % 13];
        for (int j = 0; j < left[k] && res->knock_dead_n < OKR_GIN_HAND_MAX; j++)
            res->knock_dead[res->knock_dead_n++] = (uint8_t)k;
    }
    res->knock_nmelds = (uint8_t)c.nl;

    uint64_t w[4];
    const int extra = gin_load(g->hand[def], w); /* copies beyond a third: deadwood */
    int D;
    if (K == 0) {
        D = gin_best_words(w, cap, NULL, NULL); /* no lay-offs on gin (G5) */
    } else {
        c.best = INT_MAX;
        gin_lay_dfs(&c, 0, w);
        D = c.best;
        /* the lay-offs of that best: card by card, meld by meld */
        for (int i = 0; i < c.nl; i++)
            for (int k = 0; k < 52; k++) {
                unsigned n = (unsigned)(c.best_took[i][k / 13] >> (4 * (k % 13))) & 15u;
                for (; n > 0 && res->layoff_n < OKR_GIN_HAND_MAX; n--) {
                    res->layoff_card[res->layoff_n] = (uint8_t)k;
                    res->layoff_meld[res->layoff_n++] = (uint8_t)i;
                }
            }
    }
    D += extra - gin_words_value(w);

    int scorer, score;
    if (K == 0) {
        res->ended = OKR_END_GIN;
        scorer = knocker;
        score = (int)g->rules.gin_bonus + D;
    } else if (K < D) {
        res->ended = OKR_END_KNOCK;
        scorer = knocker;
        score = D - K;
    } else {
        res->ended = OKR_END_UNDERCUT;
        scorer = def;
        score = (int)g->rules.undercut_bonus + (K - D);
    }
    if (g->rules.spade_double && g->upcard < 52 && g->upcard / 13 == 3)
        score *= 2;
    res->knocker = (int8_t)knocker;
    res->winner = (int8_t)scorer;
    res->deadwood[knocker] = K;
    res->deadwood[def] = D;
    res->score[scorer] = score;
    res->score[scorer == knocker ? def : knocker] = 0;
}
