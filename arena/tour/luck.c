/* luck.c - the luck-adjusted score (luck.h, docs/luck.md). */
#include "luck.h"

#include <stdlib.h>
#include <string.h>

#include "match/record_read.h"

/* Points of final score per point of hand strength, fixed before the games they judge: fitted
 * once (the least-squares slope of the final-total difference on the summed luck terms at
 * scale 1) on calibration tournaments of strong_bot against greedy_bot whose seeds no
 * measurement uses (seed 7, 60 deals each; docs/luck.md "Calibration"), then rounded. */
#define SCALE_GIN 0.75
#define SCALE_RUMMY 1.0

/* Chance that a card in the hand ends in a meld, by what it has around it (rummy). */
#define P_WILD 0.9
#define P_LINKED 0.6
#define P_ALONE 0.25

#define ROLL_N 32 /* the default number of playouts (docs/luck.md: the noise they leave) */
#define ROLL_MAX 4096

int ar_luck_v_parse(const char *name)
{
    if (!strcmp(name, "hand"))
        return AR_LUCK_V_HAND;
    if (!strcmp(name, "const"))
        return AR_LUCK_V_CONST;
    if (!strcmp(name, "noise"))
        return AR_LUCK_V_NOISE;
    if (!strcmp(name, "rollout"))
        return AR_LUCK_V_ROLLOUT;
    if (!strncmp(name, "rollout:", 8)) { /* rollout:N, N playouts (measurements) */
        char *end;
        long n = strtol(name + 8, &end, 10);
        if (*end || end == name + 8 || n < 1 || n > ROLL_MAX)
            return -1;
        return AR_LUCK_V_ROLLOUT | (int)(n << 8);
    }
    return -1;
}

void ar_luck_init(ar_luck *L, int v, int players)
{
    memset(L, 0, sizeof *L);
    L->v = v & 0xFF;
    L->rollouts = v >> 8 ? v >> 8 : ROLL_N;
    L->players = players;
}

/* Gin: minus the deadwood after the best melds (G5), each unmelded card counted at LINKED_GIN
 * of its value when another unmelded card could make a meld with it (its rank, or its suit one
 * or two ranks away): meld potential. With 11 cards (the drawer before its discard) the
 * costliest unmelded card is left out, as the discard it would be. */
#define LINKED_GIN 0.5

static double gin_strength(const okr_rules *r, const uint8_t hand[OKR_KINDS])
{
    okr_ginmeld m[OKR_GIN_MELDS];
    int nm = 0, n = 0;
    for (int k = 0; k < OKR_KINDS; k++)
        n += hand[k];
    (void)okr_gin_best(r, hand, m, &nm);
    uint8_t left[OKR_KINDS];
    memcpy(left, hand, OKR_KINDS);
    for (int i = 0; i < nm; i++)
        for (int c = 0; c < m[i].n; c++)
            left[m[i].card[c]]--;
    double cost = 0, worst = 0;
    for (int k = 0; k < 52; k++) {
        if (!left[k])
            continue;
        int suit = OKR_SUIT(k), rank = OKR_RANK(k), linked = 0;
        for (int s = 0; s < 4 && !linked; s++)
            linked = s != suit && left[OKR_KIND(s, rank)];
        for (int q = rank - 2; q <= rank + 2 && !linked; q++)
            linked = q != rank && q >= 1 && q <= 13 && left[OKR_KIND(suit, q)];
        double c = okr_card_debit(r, k) * (linked ? LINKED_GIN : 1.0);
        cost += c;
        if (c > worst)
            worst = c;
    }
    if (n > r->hand_size)
        cost -= worst;
    return -cost;
}

static int is_wild(const okr_rules *r, int k)
{
    return k == OKR_JOKER || (r->wild_twos && OKR_RANK(k) == 2);
}

/* Rummy: each card's expected end value, P x its melded value - (1 - P) x its debit (7.1),
 * where P is P_WILD for a wild card, P_LINKED for a natural with a partner in the hand (a wild
 * card, another of its rank, or one of its suit one or two ranks away) and P_ALONE else. The
 * melded value of a natural is taken as its debit, of a 2 as 10, of the Joker as 100. */
static double rummy_strength(const okr_rules *r, const uint8_t hand[OKR_KINDS])
{
    int wilds = 0;
    for (int k = 0; k < OKR_KINDS; k++)
        if (hand[k] && is_wild(r, k))
            wilds += hand[k];
    double g = 0;
    for (int k = 0; k < OKR_KINDS; k++) {
        if (!hand[k])
            continue;
        double d = okr_card_debit(r, k), m, p;
        if (is_wild(r, k)) {
            m = k == OKR_JOKER ? 100 : 10;
            p = P_WILD;
        } else {
            int suit = OKR_SUIT(k), rank = OKR_RANK(k), linked = wilds > 0 || hand[k] > 1;
            for (int dr = -2; dr <= 2 && !linked; dr++) {
                int q = rank + dr;
                if (!dr)
                    continue;
                if (q == 0 || q == 14) /* the ace at either end of the ladder */
                    q = 1;
                if (q < 1 || q > 13)
                    continue;
                int kk = OKR_KIND(suit, q);
                linked = kk != k && hand[kk] && !is_wild(r, kk);
            }
            for (int s = 0; s < 4 && !linked; s++)
                linked = s != suit && hand[OKR_KIND(s, rank)];
            m = d;
            p = linked ? P_LINKED : P_ALONE;
        }
        g += hand[k] * (p * m - (1 - p) * d);
    }
    return g;
}

/* A fixed pseudo-random value of a hand and the upcard, in [-20, 20] (FNV-1a). */
static double noise_strength(const uint8_t hand[OKR_KINDS], int upcard)
{
    uint64_t h = 0xCBF29CE484222325u;
    for (int k = 0; k < OKR_KINDS; k++) {
        h ^= hand[k];
        h *= 0x100000001B3u;
    }
    h ^= (uint64_t)upcard;
    h *= 0x100000001B3u;
    h ^= h >> 29;
    return (double)(h % 41) - 20;
}

static double strength(int v, const okr_rules *r, const uint8_t hand[OKR_KINDS], int upcard)
{
    switch (v) {
    case AR_LUCK_V_CONST:
        return 0;
    case AR_LUCK_V_NOISE:
        return noise_strength(hand, upcard);
    default:
        return r->family == OKR_FAMILY_GIN ? gin_strength(r, hand) : rummy_strength(r, hand);
    }
}

/* v from the seats' strengths: scale x (own - the table's mean). */
static void relative(const okr_rules *r, int p, const double *g, double *out)
{
    double mean = 0, a = r->family == OKR_FAMILY_GIN ? SCALE_GIN : SCALE_RUMMY;
    for (int s = 0; s < p; s++)
        mean += g[s];
    mean /= p;
    for (int s = 0; s < p; s++)
        out[s] = a * (g[s] - mean);
}

void ar_luck_value(int v, const okr_game *g, double *out)
{
    double st[OKR_MAX_PLAYERS] = {0};
    for (int s = 0; s < g->players; s++)
        st[s] = strength(v & 0xFF, &g->rules, g->hand[s], g->upcard);
    relative(&g->rules, g->players, st, out);
}

static void rollout_deal(ar_luck *L, const okr_game *g);

void ar_luck_deal(ar_luck *L, const okr_game *g)
{
    if (L->v == AR_LUCK_V_ROLLOUT && g->rules.family == OKR_FAMILY_GIN && g->players == 2) {
        rollout_deal(L, g);
        return;
    }
    double now[OKR_MAX_PLAYERS] = {0};
    ar_luck_value(L->v, g, now);
    for (int s = 0; s < g->players; s++) { /* E[v] = 0: exchangeable hands, luck.h */
        L->luck[s] += now[s];
        L->by_type[AR_LUCK_DEAL][s] += now[s];
    }
    L->events[AR_LUCK_DEAL]++;
}

/* ---- The rollout estimate (gin) --------------------------------------------------------- *
 * v(state after seat s drew card c) = the mean over L->rollouts playouts (ROLL_N unless asked)
 * of the rest of the hand of each seat's hand points minus the table's mean, the playouts by a
 * fixed reference policy (ref_from_draw, ref_playout) written here, on stock orders drawn from a
 * generator seeded by the state before the draw: its hands, the stock's cards as a multiset (never
 * their order, which the draw's expectation averages over), the pile's top, the scores and the
 * turn. Every alternative card c is played out on the same orders with c taken out (common random
 * numbers: the alternatives differ by the card, not by the noise of their playouts; filling c's
 * place with the bottom card instead, so that the stocks differ in one place only, measured no
 * better; seeding from the stock's cards and the seat only, so that a set's two rotations share
 * orders where their stocks agree, measured 0.35 (deck) and 0.52 (streams) against 0.35 and 0.45).
 * Being a fixed function of the state before and of c, the term v(c*) - mean over the cards the
 * draw could give of v(c) has mean zero exactly, as for the cheap estimate. Under stock=streams the
 * referee also knows each stream's cards (not their order): the expectation over the drawing
 * seat's own stream, each stream played out on its own, is unbiased as well but measured no
 * better (0.50 against 0.49; with lay-offs 0.454 against 0.449), and the whole stock's
 * expectation also takes out which stream holds the better cards, which a duplicate set
 * cancels but a game without rotations does not. So the whole stock. Only the hand is played
 * out: the game's later hands are symmetric under one reference policy, and in gin the final total
 * is the sum of the hands' points (G7, G8), so the hand's points are the part of the final score a
 * draw moves. */

static uint64_t mix64(uint64_t z)
{
    z += 0x9E3779B97F4A7C15u;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static int gin_dw(const okr_rules *r, const uint8_t h[OKR_KINDS])
{
    okr_ginmeld m[OKR_GIN_MELDS];
    int nm;
    return okr_gin_best(r, h, m, &nm);
}

/* The reference discard of an 11-card hand h (never `keep`, the card just taken from the
 * pile): the costliest card left out of the hand's best melds (G5), so one arrangement per
 * turn instead of one per card. Returns the card; *dw the deadwood of the 10 kept, counted
 * with the same melds (the best arrangement of the 10 is at most that). Discarding instead
 * the card left out that counts most when a card that could still meld with another counts
 * half (keeping pairs and near-runs) measured worse: 0.57 against 0.37 (docs/luck.md). */
static int ref_discard(const okr_rules *r, uint8_t h[OKR_KINDS], int keep, int *dw)
{
    okr_ginmeld m[OKR_GIN_MELDS];
    int nm = 0, total = okr_gin_best(r, h, m, &nm);
    uint8_t left[OKR_KINDS];
    memcpy(left, h, OKR_KINDS);
    for (int i = 0; i < nm; i++)
        for (int c = 0; c < m[i].n; c++)
            left[m[i].card[c]]--;
    int best = -1;
    for (int k = 0; k < 52; k++)
        if (left[k] && k != keep && (best < 0 || okr_card_debit(r, k) > okr_card_debit(r, best)))
            best = k;
    if (best >= 0) {
        *dw = total - okr_card_debit(r, best);
        return best;
    }
    /* every card but `keep` is melded: break a meld, the costliest card but keep */
    for (int k = 0; k < 52; k++)
        if (h[k] && k != keep && (best < 0 || okr_card_debit(r, k) > okr_card_debit(r, best)))
            best = k;
    h[best]--;
    *dw = gin_dw(r, h);
    h[best]++;
    return best;
}

/* The defender's deadwood at a showdown (G5, G7): his least deadwood after laying off onto
 * the knocker's melds k[] (none on gin). The lay-offs tried: none, every card that extends a
 * meld (a set's fourth card; a run's next card at either end, repeatedly), and each of those
 * alone; the least of the defender's best deadwood over what is left. The engine searches
 * all of them; this is at most a few points above it and a fixed function of the hands. */
int ar_luck_gin_defender(const okr_rules *r, const uint8_t kn[OKR_KINDS],
                         const uint8_t def[OKR_KINDS], int gin)
{
    int D = gin_dw(r, def);
    if (gin)
        return D;
    okr_ginmeld m[OKR_GIN_MELDS];
    int nm = 0;
    (void)okr_gin_best(r, kn, m, &nm);
    uint8_t h[OKR_KINDS], lay[OKR_KINDS] = {0};
    memcpy(h, def, OKR_KINDS);
    for (int i = 0; i < nm; i++) {
        int a = m[i].card[0], b = m[i].card[m[i].n - 1];
        if (a % 13 == b % 13) { /* a set: the missing suits */
            for (int q = 0; q < 4; q++)
                if (h[q * 13 + a % 13])
                    lay[q * 13 + a % 13] = 1, h[q * 13 + a % 13] = 0;
            continue;
        }
        int lo = 13, hi = -1, suit = a / 13; /* a run: its ends */
        for (int c = 0; c < m[i].n; c++) {
            int rk = m[i].card[c] % 13;
            lo = rk < lo ? rk : lo, hi = rk > hi ? rk : hi;
        }
        while (lo > 0 && h[suit * 13 + lo - 1])
            lo--, lay[suit * 13 + lo] = 1, h[suit * 13 + lo] = 0;
        while (hi < 12 && h[suit * 13 + hi + 1])
            hi++, lay[suit * 13 + hi] = 1, h[suit * 13 + hi] = 0;
    }
    int all = gin_dw(r, h);
    D = all < D ? all : D;
    memcpy(h, def, OKR_KINDS);
    for (int k = 0; k < 52; k++)
        if (lay[k]) {
            h[k]--;
            int one = gin_dw(r, h);
            D = one < D ? one : D;
            h[k]++;
        }
    return D;
}

/* A card could meld with h: another of its rank, or its suit one or two ranks away. */
static int ref_linked(const uint8_t h[OKR_KINDS], int k)
{
    int suit = k / 13, rank = k % 13;
    for (int s = 0; s < 4; s++)
        if (s != suit && h[s * 13 + rank])
            return 1;
    for (int q = rank - 2; q <= rank + 2; q++)
        if (q != rank && q >= 0 && q < 13 && h[suit * 13 + q])
            return 1;
    return 0;
}

/* Plays the hand out from seat s holding 11 cards (it must discard), h the two hands, st[0..sn)
 * the stock (st[sn - 1] drawn next). Reference policy (greedy_bot's gin policy, rewritten
 * here): discard as ref_discard; knock as soon as the deadwood allows, the defender laying off
 * (ar_luck_gin_defender; counting his deadwood without lay-offs measured 0.37 against 0.35
 * with deck, 0.49 against 0.45 with streams, docs/luck.md); take the pile's top when it could
 * meld and lowers the best deadwood, else draw. pts[] gets the hand's points (0 for both on a
 * drawn hand, G6). */
static void ref_playout(const okr_rules *r, int limit, int dbl, uint8_t h[2][OKR_KINDS],
                        const uint8_t *st, int sn, int s, int keep, int cur[2], int pts[2])
{
    pts[0] = pts[1] = 0;
    for (int turn = 0; turn < 64; turn++) {
        int dw, d = ref_discard(r, h[s], keep, &dw), o = 1 - s;
        h[s][d]--;
        cur[s] = dw;
        if (dw <= limit) {
            int D = ar_luck_gin_defender(r, h[s], h[o], dw == 0); /* G5, G7 */
            if (dw == 0)
                pts[s] = (int)r->gin_bonus + D;
            else if (dw < D)
                pts[s] = D - dw;
            else
                pts[o] = (int)r->undercut_bonus + dw - D;
            pts[0] *= dbl, pts[1] *= dbl;
            return;
        }
        if (sn <= 2)
            return; /* G6: a drawn hand */
        s = o;
        keep = -1;
        if (ref_linked(h[s], d)) { /* the pile's top is d */
            int tdw;
            h[s][d]++;
            (void)ref_discard(r, h[s], d, &tdw);
            if (tdw < cur[s]) {
                keep = d;
                continue;
            }
            h[s][d]--;
        }
        h[s][st[--sn]]++;
    }
}

/* Plays the hand out from seat s's draw, the pile's top being `top` (-1: none): the reference
 * policy takes it when it could meld and lowers the best deadwood, else draws; then
 * ref_playout. */
static void ref_from_draw(const okr_rules *r, int limit, int dbl, uint8_t h[2][OKR_KINDS],
                          const uint8_t *st, int sn, int s, int top, int cur[2], int pts[2])
{
    int keep = -1;
    if (top >= 0 && top < 52 && ref_linked(h[s], top)) {
        int tdw;
        h[s][top]++;
        (void)ref_discard(r, h[s], top, &tdw);
        if (tdw < cur[s])
            keep = top;
        else
            h[s][top]--;
    }
    if (keep < 0) {
        if (sn <= 0) {
            pts[0] = pts[1] = 0;
            return;
        }
        h[s][st[--sn]]++;
    }
    ref_playout(r, limit, dbl, h, st, sn, s, keep, cur, pts);
}

static uint64_t fnv_hand(const uint8_t hand[OKR_KINDS])
{
    uint64_t h = 0xCBF29CE484222325u;
    for (int k = 0; k < OKR_KINDS; k++)
        h = (h ^ hand[k]) * 0x100000001B3u;
    return h;
}

/* A stock order from the multiset cnt[] (sn cards), the i-th of the generator seeded h. */
static void roll_order(const int cnt[], int sn, uint64_t h, int i, uint8_t *ord)
{
    int n = 0;
    for (int k = 0; k < OKR_KINDS; k++)
        for (int c = 0; c < cnt[k]; c++)
            ord[n++] = (uint8_t)k;
    uint64_t z = h + (uint64_t)i * 0x632BE59BD9B4E019u;
    for (int j = sn - 1; j > 0; j--) {
        z = mix64(z);
        int x = (int)(z % (uint64_t)(j + 1));
        uint8_t t = ord[j];
        ord[j] = ord[x], ord[x] = t;
    }
}

/* The deal's term with the rollout estimate: v(seat 0) = the mean, over the playouts and over
 * both orders of play (seat 0 first, seat 1 first), of half seat 0's hand points minus seat
 * 1's; v(seat 1) = -v(seat 0). The playouts' seed is symmetric in the two hands (a sum of their
 * hashes) and reads the stock as a multiset, so swapping the hands negates v exactly; the hands
 * of a uniformly shuffled pack are exchangeable given the upcard and the stock, so E[v] = 0
 * exactly, as for the hand estimate, and the term is v itself. Who really plays first is left
 * out on purpose: it would make v seat-asymmetric and its expectation unknown. */
static void rollout_deal(ar_luck *L, const okr_game *g)
{
    const okr_rules *r = &g->rules;
    int limit = okr_knock_limit(r, g->upcard), sn = g->stock_n, cnt[OKR_KINDS] = {0};
    int dbl = r->spade_double && g->upcard < 52 && g->upcard / 13 == 3 ? 2 : 1;
    int top = g->pile_n ? g->pile[g->pile_n - 1] : -1;
    for (int i = 0; i < sn; i++)
        cnt[g->stock[i]]++;
    uint64_t h = 0xCBF29CE484222325u;
    for (int k = 0; k < OKR_KINDS; k++)
        h = (h ^ (uint64_t)cnt[k]) * 0x100000001B3u;
    h = mix64(h ^ mix64(fnv_hand(g->hand[0]) + fnv_hand(g->hand[1])) ^ ((uint64_t)top << 8));
    int cur0[2] = {gin_dw(r, g->hand[0]), gin_dw(r, g->hand[1])};
    double v0 = 0;
    uint8_t ord[OKR_MAX_CARDS];
    for (int i = 0; i < L->rollouts; i++) {
        roll_order(cnt, sn, h, i, ord);
        for (int first = 0; first < 2; first++) {
            uint8_t hh[2][OKR_KINDS];
            memcpy(hh, g->hand, sizeof hh);
            int cur[2] = {cur0[0], cur0[1]}, pts[2];
            ref_from_draw(r, limit, dbl, hh, ord, sn, first, top, cur, pts);
            v0 += (pts[0] - pts[1]) / 2.0 / (2.0 * L->rollouts);
        }
    }
    L->luck[0] += v0, L->luck[1] -= v0;
    L->by_type[AR_LUCK_DEAL][0] += v0, L->by_type[AR_LUCK_DEAL][1] -= v0;
    L->events[AR_LUCK_DEAL]++;
}

static void rollout_draw(ar_luck *L, const okr_game *b, int seat, int card, const int cnt[])
{
    const okr_rules *r = &b->rules;
    int limit = okr_knock_limit(r, b->upcard), sn = b->stock_n;
    int dbl = r->spade_double && b->upcard < 52 && b->upcard / 13 == 3 ? 2 : 1;
    uint64_t h = 0xCBF29CE484222325u;
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < OKR_KINDS; k++)
            h = (h ^ b->hand[s][k]) * 0x100000001B3u;
    for (int k = 0; k < OKR_KINDS; k++)
        h = (h ^ (uint64_t)cnt[k]) * 0x100000001B3u;
    h = mix64(h ^ ((uint64_t)seat << 40) ^ ((uint64_t)b->upcard << 32) ^
              ((uint64_t)b->turns << 16) ^ (b->pile_n ? b->pile[b->pile_n - 1] : 255u) ^
              ((uint64_t)(uint32_t)b->score[0] << 20) ^ ((uint64_t)(uint32_t)b->score[1] << 48));
    /* L->rollouts orders of the stock's cards, from the kinds in order so that only the
     * multiset matters; every alternative card is played out on each */
    uint8_t sorted[OKR_MAX_CARDS], ord[OKR_MAX_CARDS];
    int n = 0;
    for (int k = 0; k < OKR_KINDS; k++)
        for (int c = 0; c < cnt[k]; c++)
            sorted[n++] = (uint8_t)k;
    int cur0[2] = {0, 0};
    cur0[1 - seat] = gin_dw(r, b->hand[1 - seat]);
    double v[OKR_KINDS][2];
    memset(v, 0, sizeof v);
    for (int i = 0; i < L->rollouts; i++) {
        memcpy(ord, sorted, (size_t)sn);
        uint64_t z = h + (uint64_t)i * 0x632BE59BD9B4E019u;
        for (int j = sn - 1; j > 0; j--) {
            z = mix64(z);
            int x = (int)(z % (uint64_t)(j + 1));
            uint8_t t = ord[j];
            ord[j] = ord[x], ord[x] = t;
        }
        for (int k = 0; k < OKR_KINDS; k++) {
            if (!cnt[k])
                continue;
            uint8_t hh[2][OKR_KINDS], st[OKR_MAX_CARDS];
            memcpy(hh, b->hand, sizeof hh);
            hh[seat][k]++;
            int m = 0, skipped = 0;
            for (int j = 0; j < sn; j++) /* the order without one copy of k */
                if (!skipped && ord[j] == k)
                    skipped = 1;
                else
                    st[m++] = ord[j];
            int cur[2] = {cur0[0], cur0[1]}, pts[2];
            ref_playout(r, limit, dbl, hh, st, m, seat, -1, cur, pts);
            double mid = (pts[0] + pts[1]) / 2.0;
            v[k][0] += (pts[0] - mid) / L->rollouts, v[k][1] += (pts[1] - mid) / L->rollouts;
        }
    }
    double mean[2] = {0, 0}, got[2] = {v[card][0], v[card][1]};
    for (int k = 0; k < OKR_KINDS; k++)
        for (int s = 0; s < 2; s++)
            mean[s] += cnt[k] * v[k][s] / sn;
    for (int s = 0; s < 2; s++) {
        L->luck[s] += got[s] - mean[s];
        L->by_type[AR_LUCK_DRAW][s] += got[s] - mean[s];
    }
    L->events[AR_LUCK_DRAW]++;
}

void ar_luck_draw(ar_luck *L, const okr_game *before, int seat, int card)
{
    int p = before->players, cnt[OKR_KINDS] = {0};
    if (!before->stock_n || seat < 0 || seat >= p || card < 0 || card >= OKR_KINDS)
        return;
    for (int i = 0; i < before->stock_n; i++)
        cnt[before->stock[i]]++;
    if (L->v == AR_LUCK_V_ROLLOUT && before->rules.family == OKR_FAMILY_GIN && p == 2 &&
        cnt[card]) {
        rollout_draw(L, before, seat, card, cnt);
        return;
    }
    double st[OKR_MAX_PLAYERS], mean[OKR_MAX_PLAYERS] = {0}, got[OKR_MAX_PLAYERS] = {0};
    for (int s = 0; s < p; s++)
        st[s] = strength(L->v, &before->rules, before->hand[s], before->upcard);
    uint8_t hand[OKR_KINDS];
    memcpy(hand, before->hand[seat], OKR_KINDS);
    for (int k = 0; k < OKR_KINDS; k++) {
        if (!cnt[k])
            continue;
        double v[OKR_MAX_PLAYERS];
        hand[k]++;
        st[seat] = strength(L->v, &before->rules, hand, before->upcard);
        hand[k]--;
        relative(&before->rules, p, st, v);
        for (int s = 0; s < p; s++) {
            mean[s] += cnt[k] * v[s] / before->stock_n;
            if (k == card)
                got[s] = v[s];
        }
    }
    for (int s = 0; s < p; s++) {
        L->luck[s] += got[s] - mean[s];
        L->by_type[AR_LUCK_DRAW][s] += got[s] - mean[s];
    }
    L->events[AR_LUCK_DRAW]++;
}

/* ---- From a record ---------------------------------------------------------------------- */

typedef struct rctx {
    ar_luck *L;
    int v;
    okr_game before; /* the state before a draw */
    int have;
} rctx;

static int r_header(void *ctx, ar_record_reader *rd, json_t *j)
{
    (void)j;
    rctx *c = ctx;
    ar_luck_init(c->L, c->v, rd->players);
    ar_luck_deal(c->L, &rd->g);
    return 0;
}

static int r_dealt(void *ctx, ar_record_reader *rd)
{
    rctx *c = ctx;
    ar_luck_deal(c->L, &rd->g);
    return 0;
}

static int r_before(void *ctx, ar_record_reader *rd, json_t *j, int seat)
{
    (void)j;
    (void)seat;
    rctx *c = ctx;
    c->have = rd->g.phase == OKR_PH_DRAW;
    if (c->have)
        c->before = rd->g;
    return 0;
}

static int r_action(void *ctx, ar_record_reader *rd, json_t *j, int seat, const okr_action *a,
                    const okr_event *ev)
{
    (void)rd;
    (void)j;
    rctx *c = ctx;
    if (c->have && a->type == OKR_A_DRAW && ev->card != OKR_NOCARD)
        ar_luck_draw(c->L, &c->before, seat, ev->card);
    c->have = 0;
    return 0;
}

int ar_luck_record(FILE *f, const char *path, int v, ar_luck *L, int32_t *final_total,
                   int *completed, char *err, size_t cap)
{
    rctx c;
    memset(&c, 0, sizeof c);
    c.L = L;
    c.v = v;
    ar_record_visitor vis = {.ctx = &c,
                             .header = r_header,
                             .dealt = r_dealt,
                             .before_action = r_before,
                             .action = r_action};
    ar_record_reader rd;
    int rc = ar_record_read(f, path, &vis, &rd);
    if (rc != 0) {
        snprintf(err, cap, "%s", rd.err[0] ? rd.err : "the record does not replay");
        return -1;
    }
    for (int s = 0; s < rd.players; s++)
        final_total[s] = rd.final_total[s];
    *completed = rd.completed;
    return 0;
}
