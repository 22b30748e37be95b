/* policy.c - the built-in policies of `arena selfplay`: random and greedy.
 * Deterministic given the seed; no I/O. */
#include "policy.h"

#include <string.h>

/* ---- RNG ------------------------------------------------------------------------------- */

void ar_rng_seed(ar_rng *rng, uint64_t seed)
{
    rng->state = seed;
}

uint64_t ar_rng_next(ar_rng *rng)
{
    uint64_t z = (rng->state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint32_t ar_rng_below(ar_rng *rng, uint32_t n)
{
    /* Rejection sampling: drop the top partial block of 2^64 so that every residue is equally
     * likely. */
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do
        x = ar_rng_next(rng);
    while (x >= limit);
    return (uint32_t)(x % n);
}

/* ---- Names ----------------------------------------------------------------------------- */

static const char *const policy_names[] = {"random", "greedy"};

int ar_policy_from_name(const char *name, ar_policy *out)
{
    for (int i = 0; i < (int)(sizeof policy_names / sizeof policy_names[0]); i++)
        if (strcmp(name, policy_names[i]) == 0) {
            *out = (ar_policy)i;
            return 0;
        }
    return -1;
}

const char *ar_policy_name(ar_policy p)
{
    return (unsigned)p < sizeof policy_names / sizeof policy_names[0] ? policy_names[p] : "?";
}

const char *ar_policy_names(void)
{
    return "random greedy";
}

/* ---- Greedy ---------------------------------------------------------------------------- */

/* The greedy policy, deterministic (ties go to the earlier action in okr_legal's canonical
 * order). It prefers, in this order:
 *   1. KNOCK (gin): the knock that leaves the least deadwood;
 *   2. MELD: the largest new meld; then ADD: the first addition listed;
 *   3. TAKE / CLAIM: the one that melds the most cards (a new meld counts its size, an
 *      addition or a Joker swap one). In gin, where a take melds nothing at once, it takes
 *      the discard only when that card joins a meld (the best arrangement's deadwood grows
 *      by less than the card's value); otherwise it falls through to DRAW or PASS;
 *   4. DRAW;
 *   5. DISCARD: in the rummy family the card with the highest hand debit (okr_card_debit)
 *      that is not the Q of spades (the Q of spades only if nothing else may go); in gin the
 *      card whose removal leaves the least deadwood, then the highest value;
 *   6. PASS (declining the upcard or a claim only when nothing above applies);
 *   7. anything else (REPLACE): the first action listed.
 * It never swaps out its own Joker (REPLACE) by choice: a Joker in hand costs 200. */

enum { QS = OKR_KIND(3, 12) };

static int hand_deadwood(const okr_game *g, const uint8_t hand[OKR_KINDS])
{
    okr_ginmeld melds[2 * OKR_GIN_MELDS];
    int nmelds = 0;
    memset(melds, 0, sizeof melds);
    return okr_gin_best(&g->rules, hand, melds, &nmelds);
}

/* Deadwood left by a knock: the hand less the discard and the declared melds. */
static int knock_deadwood(const okr_game *g, const okr_action *a)
{
    uint8_t h[OKR_KINDS];
    memcpy(h, g->hand[a->seat < OKR_MAX_PLAYERS ? a->seat : 0], sizeof h);
    if (a->card < OKR_KINDS && h[a->card])
        h[a->card]--;
    for (int m = 0; m < a->nmelds && m < OKR_GIN_MELDS; m++)
        for (int i = 0; i < a->u.knock[m].n && i < 13; i++) {
            int k = a->u.knock[m].card[i];
            if (k < OKR_KINDS && h[k])
                h[k]--;
        }
    int dw = 0;
    for (int k = 0; k < OKR_KINDS; k++)
        dw += h[k] * okr_card_debit(&g->rules, k);
    return dw;
}

/* Gin: would the top of the pile join a meld in the acting seat's hand? */
static int gin_take_helps(const okr_game *g)
{
    if (g->pile_n == 0)
        return 0;
    int top = g->pile[g->pile_n - 1];
    if (top >= OKR_KINDS)
        return 0;
    uint8_t h[OKR_KINDS];
    memcpy(h, g->hand[g->to_act], sizeof h);
    int before = hand_deadwood(g, h);
    h[top]++;
    int after = hand_deadwood(g, h);
    return after - before < okr_card_debit(&g->rules, top);
}

static int take_size(const okr_action *a)
{
    return a->how == OKR_HOW_NEW ? a->u.spec.n : 1;
}

static int greedy(const okr_game *g, const okr_action *acts, int n)
{
    int gin = g->rules.family == OKR_FAMILY_GIN;
    int best = -1, best_score = 0;

    /* 1. knock with the least deadwood */
    for (int i = 0; i < n; i++)
        if (acts[i].type == OKR_A_KNOCK) {
            int dw = knock_deadwood(g, &acts[i]);
            if (best < 0 || dw < best_score)
                best = i, best_score = dw;
        }
    if (best >= 0)
        return best;

    /* 2. the largest new meld, then the first addition */
    for (int i = 0; i < n; i++)
        if (acts[i].type == OKR_A_MELD && (best < 0 || acts[i].u.spec.n > best_score))
            best = i, best_score = acts[i].u.spec.n;
    if (best >= 0)
        return best;
    for (int i = 0; i < n; i++)
        if (acts[i].type == OKR_A_ADD)
            return i;

    /* 3. take the pile (or claim it) */
    if (!gin || gin_take_helps(g)) {
        for (int i = 0; i < n; i++)
            if ((acts[i].type == OKR_A_TAKE || acts[i].type == OKR_A_CLAIM) &&
                (best < 0 || take_size(&acts[i]) > best_score))
                best = i, best_score = take_size(&acts[i]);
        if (best >= 0)
            return best;
    }

    /* 4. draw */
    for (int i = 0; i < n; i++)
        if (acts[i].type == OKR_A_DRAW)
            return i;

    /* 5. discard */
    int best_qs = -1;
    for (int i = 0; i < n; i++) {
        if (acts[i].type != OKR_A_DISCARD)
            continue;
        int k = acts[i].card;
        if (gin) {
            uint8_t h[OKR_KINDS];
            memcpy(h, g->hand[g->to_act], sizeof h);
            if (k < OKR_KINDS && h[k])
                h[k]--;
            /* least deadwood first, then the highest value: score = dw * 16 - value */
            int score = hand_deadwood(g, h) * 16 - okr_card_debit(&g->rules, k);
            if (best < 0 || score < best_score)
                best = i, best_score = score;
        } else if (k == QS) {
            if (best_qs < 0)
                best_qs = i;
        } else {
            int debit = okr_card_debit(&g->rules, k);
            if (best < 0 || debit > best_score)
                best = i, best_score = debit;
        }
    }
    if (best >= 0)
        return best;
    if (best_qs >= 0)
        return best_qs;

    /* 6. pass */
    for (int i = 0; i < n; i++)
        if (acts[i].type == OKR_A_PASS)
            return i;

    /* 7. whatever is left */
    return 0;
}

int ar_policy_choose(ar_policy p, const okr_game *g, const okr_action *acts, int n, ar_rng *rng)
{
    if (n <= 1)
        return 0;
    if (p == AR_POLICY_GREEDY)
        return greedy(g, acts, n);
    return (int)ar_rng_below(rng, (uint32_t)n);
}
