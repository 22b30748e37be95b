/* strong_bot.c - determinised Monte-Carlo search over the current decision.
 *
 * For each candidate action (the best few by the greedy heuristic, always including the
 * greedy choice and the best action of every type), the bot repeatedly
 *   1. deals the cards it cannot see at random, consistently with its view
 *      (okr_determinize: other hands by their sizes, the rest as the stock), then puts the
 *      cards it knows another seat holds into that hand (cards taken from the pile), and in
 *      gin reshapes the opponent's hand to fit his play (what he declined and discarded);
 *   2. plays the candidate in that game;
 *   3. plays the rest of the hand out with the greedy policy for every seat
 *      (bots/greedy/greedy_bot.c); and
 *   4. scores the result: its own hand score minus the mean of the others' (concealed
 *      bonuses included), from g->last.
 * Every candidate sees the same deals (common random numbers), so two candidates are
 * compared deal by deal, which is far sharper than their means. Candidates clearly worse
 * than the greedy choice are dropped as the deals come in (racing). At the end the bot
 * leaves the greedy choice only for a candidate whose mean gain over it is more than
 * --z standard errors above zero: with many candidates and few deals the luckiest one
 * would otherwise win.
 *
 * Time: min(time_ms * 0.8, --cap-ms) per decision, measured from the Decision's arrival,
 * and never fewer than --min-rounds deals (but never past half of hard_ms). One legal
 * action is answered at once.
 *
 *   strong_bot [--cap-ms N] [--top-k K] [--min-rounds R] [--z Z] [--seed S] [--verbose]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "greedy.h"
#include "okbot.h"

enum {
    GIN_MEMORY = 6,      /* gin: declined or discarded cards remembered per seat */
    GIN_POOL = 16,       /* gin: opponent hands consistent with his play, per decision */
    RACE_EVERY = 8,      /* deals between two eliminations of losing candidates */
    MAX_CAND = 32,       /* candidates considered at most (--top-k) */
    ROLLOUT_STEPS = 5000 /* a simulated hand longer than this is cut short (never seen) */
};

typedef struct strong_opts {
    int cap_ms;     /* per-decision ceiling whatever time_ms says */
    int default_ms; /* budget when the arena gives no time_ms */
    int top_k;      /* candidates per decision */
    int min_rounds; /* deals per candidate, at least */
    uint64_t seed;  /* mixed into every deal's seed */
    double z;       /* leave the greedy choice only this many standard errors clear */
    int verbose;    /* log each search */
} strong_opts;

static strong_opts opts = {.cap_ms = 250,
                           .default_ms = 100,
                           .top_k = 8,
                           .min_rounds = 4,
                           .seed = 0,
                           .z = 1.5,
                           .verbose = 0};

static okr_action sim_legal[OKR_MAX_ACTIONS]; /* legal lists inside simulations */
static int scores[OKR_MAX_ACTIONS];           /* greedy scores of the real legal list */

/* ---- What the others hold ------------------------------------------------------------- */

/* Cards another seat surely holds: what it took from the pile into its hand (the rest of a
 * rummy pile, a gin top discard), until it discards or melds them. okr_determinize deals the
 * unseen cards uniformly; place_known() then moves these cards into the right hands, which
 * matters most in gin, where a taken discard tells what the opponent is building.
 *
 * The pile is mirrored from the events between our decisions (each decision's view resets
 * the mirror); melds are compared view to view to see which known cards were laid. */
typedef struct tracker {
    int me;
    int pile_ok; /* the mirror is right (from a view, or empty after a take) */
    int pile_n;
    uint8_t pile[OKR_MAX_CARDS];
    uint8_t known[OKR_MAX_PLAYERS][OKR_KINDS];
    uint8_t melded[OKR_MAX_PLAYERS][OKR_KINDS]; /* cards in each seat's melds at the last view */
    /* gin: the last few top discards each seat declined and cards it discarded */
    uint8_t passed[OKR_MAX_PLAYERS][GIN_MEMORY];
    int npassed[OKR_MAX_PLAYERS];
    int last_discard[OKR_MAX_PLAYERS]; /* card, or -1 before the seat's first discard */
} tracker;

static tracker tr;

static void tracker_reset(int me)
{
    memset(&tr, 0, sizeof tr);
    tr.me = me;
    for (int s = 0; s < OKR_MAX_PLAYERS; s++)
        tr.last_discard[s] = -1;
}

/* The rest of the mirrored pile went to seat s's hand. */
static void pile_to_known(int s)
{
    if (tr.pile_ok && s != tr.me)
        for (int i = 0; i < tr.pile_n; i++)
            if (tr.known[s][tr.pile[i]] < UINT8_MAX)
                tr.known[s][tr.pile[i]]++;
    tr.pile_n = 0;
    tr.pile_ok = 1;
}

/* Seat s showed it did not want card k: it declined it on the pile, or discarded it. */
static void remember_pass(int s, int k)
{
    if (s == tr.me || k >= OKR_JOKER)
        return;
    if (tr.npassed[s] == GIN_MEMORY) {
        memmove(tr.passed[s], tr.passed[s] + 1, GIN_MEMORY - 1);
        tr.npassed[s]--;
    }
    tr.passed[s][tr.npassed[s]++] = (uint8_t)k;
}

static void tracker_event(const okr_event *e)
{
    int s = e->seat;
    if (s >= OKR_MAX_PLAYERS)
        return;
    int card = e->card < OKR_KINDS ? e->card : -1;
    switch (e->type) {
    case OKR_A_TAKE:
    case OKR_A_CLAIM:
        if (tr.pile_n)
            tr.pile_n--; /* the top card: into a meld, or (gin) into the hand */
        if (e->how == OKR_HOW_PLAIN && card >= 0 && s != tr.me && tr.known[s][card] < UINT8_MAX)
            tr.known[s][card]++;
        if (e->taken && e->how != OKR_HOW_PLAIN)
            pile_to_known(s);
        break;
    case OKR_A_PASS:
        if (e->taken) /* a german claimant's meld is done: the pile joins his hand */
            pile_to_known(s);
        else if (tr.pile_ok && tr.pile_n) /* declined the upcard (6.1, G3) */
            remember_pass(s, tr.pile[tr.pile_n - 1]);
        break;
    case OKR_A_DRAW: /* drew rather than take the top discard */
        if (tr.pile_ok && tr.pile_n)
            remember_pass(s, tr.pile[tr.pile_n - 1]);
        break;
    case OKR_A_DISCARD:
    case OKR_A_KNOCK:
        if (card >= 0 && tr.known[s][card])
            tr.known[s][card]--;
        if (card >= 0)
            remember_pass(s, card);
        tr.last_discard[s] = card;
        if (card >= 0 && tr.pile_n < OKR_MAX_CARDS)
            tr.pile[tr.pile_n++] = (uint8_t)card;
        break;
    default: /* MELD / ADD / REPLACE: seen in the next view's melds */
        break;
    }
}

/* At a decision: the view is the truth for the pile and the melds. */
static void tracker_sync(const okr_view *v)
{
    uint8_t melded[OKR_MAX_PLAYERS][OKR_KINDS];
    memset(melded, 0, sizeof melded);
    for (int m = 0; m < v->meld_n && m < OKR_MAX_MELDS; m++)
        for (int i = 0;
             i < v->meld[m].n && i < OKR_MELD_CARDS && v->meld[m].owner < OKR_MAX_PLAYERS; i++)
            if (v->meld[m].card[i] < OKR_KINDS)
                melded[v->meld[m].owner][v->meld[m].card[i]]++;
    for (int s = 0; s < v->players; s++) {
        int total = 0;
        for (int k = 0; k < OKR_KINDS; k++) {
            int now = melded[s][k], before = tr.melded[s][k];
            if (now > before) /* laid from the hand (or the pile's top: rare, harmless) */
                tr.known[s][k] =
                    (uint8_t)(tr.known[s][k] > now - before ? tr.known[s][k] - (now - before) : 0);
            else if (now < before && k == OKR_JOKER && s != tr.me) /* a Joker exchange */
                tr.known[s][k] = (uint8_t)(tr.known[s][k] + before - now);
            total += tr.known[s][k];
        }
        if (s == tr.me || total > v->hand_n[s]) /* never about us; never more than he has */
            memset(tr.known[s], 0, OKR_KINDS);
    }
    memcpy(tr.melded, melded, sizeof melded);
    tr.pile_n = v->pile_n;
    memcpy(tr.pile, v->pile, v->pile_n);
    tr.pile_ok = 1;
}

/* Move the known cards into their holders' hands in a determinised game, swapping each
 * with a card the holder is not known to have. Cards stay conserved: a swap exchanges one
 * card between two places (another hand or the stock). */
static void place_known(okr_game *g)
{
    for (int s = 0; s < g->players; s++) {
        if (s == tr.me)
            continue;
        for (int k = 0; k < OKR_KINDS; k++) {
            while (tr.known[s][k] > g->hand[s][k]) {
                /* a free card of s to give away */
                int x = -1;
                for (int c = 0; c < OKR_KINDS && x < 0; c++)
                    if (g->hand[s][c] > tr.known[s][c])
                        x = c;
                if (x < 0)
                    return;
                int moved = 0;
                for (int t = 0; t < g->players && !moved; t++) /* from another hand */
                    if (t != s && t != tr.me && g->hand[t][k] > tr.known[t][k]) {
                        g->hand[t][k]--, g->hand[t][x]++;
                        moved = 1;
                    }
                for (int i = 0; i < g->stock_n && !moved; i++) /* or from the stock */
                    if (g->stock[i] == k) {
                        g->stock[i] = (uint8_t)x;
                        moved = 1;
                    }
                if (!moved)
                    break; /* not in any unseen place: the tracker was wrong */
                g->hand[s][x]--, g->hand[s][k]++;
            }
        }
    }
}

/* ---- Gin: hands consistent with the opponent's play ----------------------------------- */

/* A uniform deal gives the gin opponent a random hand, but his play says more: a card he
 * declined or discarded did not join a meld of his (that is how the greedy policy, a fair
 * model of most bots, takes and discards), and a card he took from the pile did. Count how
 * often hand h contradicts that. */
static int gin_misfits(const okr_rules *r, int limit, int s, uint8_t h[OKR_KINDS])
{
    okr_ginmeld melds[OKR_GIN_MELDS];
    int nm, bad = 0;
    int dw = okr_gin_best(r, h, melds, &nm);
    int x = tr.last_discard[s];
    if (x >= 0 && x < OKR_JOKER) {
        /* His last turn: from h + x he discarded x and did not knock, so no discard of
         * h + x leaves `limit` or less (G5), and x was one of the best discards. */
        h[x]++;
        for (int y = 0; y < OKR_JOKER; y++)
            if (h[y] && y != x) {
                h[y]--;
                int other = okr_gin_best(r, h, melds, &nm);
                h[y]++;
                bad += 3 * (other < dw) + 3 * (other <= limit);
            }
        h[x]--;
        bad += 3 * (dw <= limit);
    }
    for (int i = 0; i < tr.npassed[s]; i++) {
        int k = tr.passed[s][i];
        if (k == x)
            continue;
        h[k]++;
        bad += okr_gin_best(r, h, melds, &nm) - dw < okr_card_debit(r, k); /* it would meld */
        h[k]--;
    }
    for (int k = 0; k < OKR_JOKER; k++)
        if (tr.known[s][k] && h[k]) {
            h[k]--;
            bad += dw - okr_gin_best(r, h, melds, &nm) >= okr_card_debit(r, k); /* deadwood */
            h[k]++;
        }
    return bad;
}

/* The knock limit of this hand (G2). */
static int gin_limit(const okr_rules *r, int upcard)
{
    if (upcard >= OKR_JOKER)
        return 10;
    if (r->ace_gin_only && OKR_RANK(upcard) == 1)
        return 0;
    return okr_card_debit(r, upcard);
}

/* Make the opponent's hand in g fit his play better: swap his unknown cards with stock
 * cards while that does not add contradictions (a short random local search). */
static void gin_fit(okr_game *g, int s, uint64_t *rng)
{
    const okr_rules *r = &g->rules;
    int limit = gin_limit(r, g->upcard);
    int bad = gin_misfits(r, limit, s, g->hand[s]);
    for (int step = 0; step < 200 && bad > 0 && g->stock_n > 0; step++) {
        uint8_t free_cards[OKR_MAX_CARDS];
        int nfree = 0;
        for (int k = 0; k < OKR_KINDS; k++)
            for (int c = tr.known[s][k]; c < g->hand[s][k]; c++)
                free_cards[nfree++] = (uint8_t)k;
        if (nfree == 0)
            return;
        int x = free_cards[okb_rand_below(rng, (uint32_t)nfree)];
        int i = (int)okb_rand_below(rng, g->stock_n);
        int y = g->stock[i];
        g->hand[s][x]--, g->hand[s][y]++;
        int now = gin_misfits(r, limit, s, g->hand[s]);
        if (now <= bad) {
            g->stock[i] = (uint8_t)x;
            bad = now;
        } else {
            g->hand[s][y]--, g->hand[s][x]++;
        }
    }
}

/* Give the opponent in g the hand `want` (a multiset of the same size drawn from the same
 * unseen cards); the cards it replaces go to the stock where the wanted ones were. */
static void gin_force(okr_game *g, int s, const uint8_t want[OKR_KINDS])
{
    for (int k = 0; k < OKR_KINDS; k++)
        while (g->hand[s][k] < want[k]) {
            int x = -1; /* a card of his he should not have */
            for (int c = 0; c < OKR_KINDS && x < 0; c++)
                if (g->hand[s][c] > want[c])
                    x = c;
            int i = 0;
            while (i < g->stock_n && g->stock[i] != k)
                i++;
            if (x < 0 || i == g->stock_n)
                return;
            g->stock[i] = (uint8_t)x;
            g->hand[s][x]--, g->hand[s][k]++;
        }
}

/* ---- Candidates ----------------------------------------------------------------------- */

/* Two knocks with the same discard end the hand the same way but for the arrangement; the
 * greedy score already picks the least deadwood, so only the best knock per discard is a
 * candidate. */
static int same_group(const okr_action *a, const okr_action *b)
{
    return a->type == OKR_A_KNOCK && b->type == OKR_A_KNOCK && a->card == b->card;
}

/* Choose up to `max` candidates from d->legal into cand[]: the best action of each type
 * first (so that, say, a discard is weighed against laying a meld), then the rest by greedy
 * score. cand[0] is the greedy choice. Returns the count. */
static int pick_candidates(const okb_decision *d, int *cand, int max)
{
    greedy_table t;
    greedy_table_of_view(&t, d->rules, d->view);
    greedy_scores(&t, d->legal, d->n, scores);
    int nc = 0;
    for (int pass = 0; pass < 2 && nc < max; pass++) {
        /* pass 0: the best of each type; pass 1: the best of what is left */
        for (;;) {
            int best = -1;
            for (int i = 0; i < d->n; i++) {
                int taken = 0;
                for (int c = 0; c < nc && !taken; c++)
                    taken = cand[c] == i || same_group(&d->legal[cand[c]], &d->legal[i]) ||
                            (pass == 0 && d->legal[cand[c]].type == d->legal[i].type);
                if (!taken && (best < 0 || scores[i] > scores[best]))
                    best = i;
            }
            if (best < 0 || nc >= max)
                break;
            cand[nc++] = best;
        }
    }
    /* cand[0] must be the greedy choice: the best score, earliest index */
    int g = 0;
    for (int c = 1; c < nc; c++)
        if (scores[cand[c]] > scores[cand[g]] ||
            (scores[cand[c]] == scores[cand[g]] && cand[c] < cand[g]))
            g = c;
    int tmp = cand[0];
    cand[0] = cand[g];
    cand[g] = tmp;
    return nc;
}

/* ---- Simulation ----------------------------------------------------------------------- */

/* Hand score of `me` minus the mean of the others', concealed bonuses included (RULES 7.3:
 * they count in the final total). For gin it is the plain difference. */
static double hand_value(const okr_game *g, int me)
{
    const okr_hand_result *r = &g->last;
    double others = 0;
    for (int s = 0; s < g->players; s++)
        if (s != me)
            others += r->score[s] + r->concealed[s];
    others /= g->players - 1;
    return r->score[me] + r->concealed[me] - others;
}

/* Play the hand out with the greedy policy for every seat. Returns 0 if it ended. */
static int rollout(okr_game *g)
{
    for (int step = 0; step < ROLLOUT_STEPS; step++) {
        if (g->phase == OKR_PH_HAND_OVER || g->phase == OKR_PH_GAME_OVER)
            return 0;
        int n = okr_legal(g, sim_legal, OKR_MAX_ACTIONS);
        if (n <= 0)
            return -1;
        int k = 0;
        if (n > 1) {
            greedy_table t;
            greedy_table_of_game(&t, g);
            k = greedy_choose(&t, sim_legal, n);
        }
        if (okr_apply(g, &sim_legal[k], NULL, NULL) != OKR_OK)
            return -1;
    }
    return -1;
}

static uint64_t mix(uint64_t a, uint64_t b)
{
    uint64_t s = a ^ (b * 0x9e3779b97f4a7c15ULL);
    return okb_rand(&s);
}

/* ---- The decision --------------------------------------------------------------------- */

static int decide(const okb_decision *d, void *ud)
{
    (void)ud;
    tracker_sync(d->view);
    if (d->n <= 1)
        return 0;
    int cand[MAX_CAND];
    int nc = pick_candidates(d, cand, opts.top_k < MAX_CAND ? opts.top_k : MAX_CAND);
    if (nc <= 1)
        return cand[0];

    /* the budget, from the Decision's arrival */
    double budget = d->time_ms ? d->time_ms * 0.8 : opts.default_ms;
    if (budget > opts.cap_ms)
        budget = opts.cap_ms;
    double ceiling = d->hard_ms ? d->hard_ms * 0.5 : budget * 4 + 1000;
    int64_t soft = d->start_ns + (int64_t)(budget * 1e6);
    int64_t hard = d->start_ns + (int64_t)(ceiling * 1e6);

    /* per candidate, over the deals where it and the greedy choice (cand[0]) both finished:
     * the sum and sum of squares of (its value - greedy's value) */
    double diff[MAX_CAND] = {0}, diff2[MAX_CAND] = {0}, value[MAX_CAND];
    int paired[MAX_CAND] = {0}, active[MAX_CAND];
    for (int c = 0; c < nc; c++)
        active[c] = 1;
    int rounds = 0;
    okr_game base, g;

    /* gin: a pool of opponent hands that fit his play, dealt in turn */
    static uint8_t pool[GIN_POOL][OKR_KINDS];
    int npool = 0, opp = 1 - d->seat;
    if (d->rules->family == OKR_FAMILY_GIN && d->players == 2)
        for (; npool < GIN_POOL; npool++) {
            uint64_t rng = mix(mix(opts.seed, d->id), 0x9001 + (uint64_t)npool);
            if (okr_determinize(d->rules, d->view, rng, &base, NULL) != OKR_OK)
                break;
            place_known(&base);
            gin_fit(&base, opp, &rng);
            memcpy(pool[npool], base.hand[opp], OKR_KINDS);
        }
    for (;;) {
        int64_t now = okb_now_ns();
        if (now >= hard || (rounds >= opts.min_rounds && now >= soft))
            break;
        uint64_t seed = mix(mix(opts.seed, d->id), (uint64_t)rounds);
        if (okr_determinize(d->rules, d->view, seed, &base, NULL) != OKR_OK)
            break; /* a view the engine cannot deal from: play greedy */
        place_known(&base);
        if (npool)
            gin_force(&base, opp, pool[rounds % npool]);
        int ok[MAX_CAND];
        for (int c = 0; c < nc; c++) {
            if (!active[c])
                continue;
            g = base;
            ok[c] = okr_apply(&g, &d->legal[cand[c]], NULL, NULL) == OKR_OK && rollout(&g) == 0;
            value[c] = ok[c] ? hand_value(&g, d->seat) : 0;
        }
        for (int c = 1; c < nc; c++)
            if (active[c] && ok[0] && ok[c]) {
                double x = value[c] - value[0];
                diff[c] += x, diff2[c] += x * x, paired[c]++;
            }
        rounds++;
        /* racing: drop candidates clearly worse than the greedy choice, so the others get
         * the deals; stop when none is left to compare */
        if (rounds % RACE_EVERY == 0) {
            int left = 0;
            for (int c = 1; c < nc; c++) {
                if (active[c] && paired[c] >= RACE_EVERY) {
                    double mean = diff[c] / paired[c];
                    double var = (diff2[c] - paired[c] * mean * mean) / (paired[c] - 1);
                    if (mean + 2 * sqrt(var > 0 ? var / paired[c] : 0) < 0)
                        active[c] = 0;
                }
                left += active[c];
            }
            if (!left)
                break;
        }
    }

    /* Leave the greedy choice only for a candidate that beats it clearly: mean gain more
     * than opts.z standard errors above zero. Many candidates and few deals would
     * otherwise crown whichever was luckiest. */
    int best = 0;
    double best_gain = 0;
    for (int c = 1; c < nc; c++) {
        if (!active[c] || paired[c] < 2)
            continue;
        double mean = diff[c] / paired[c];
        double var = (diff2[c] - paired[c] * mean * mean) / (paired[c] - 1);
        double se = var > 0 ? sqrt(var / paired[c]) : 0;
        if (mean - opts.z * se > 0 && mean > best_gain)
            best = c, best_gain = mean;
    }
    if (opts.verbose) {
        char text[256];
        okr_action_format(&d->legal[cand[best]], text, sizeof text);
        fprintf(stderr,
                "strong: decision %llu: %d legal, %d candidates, %d deals, %.1f ms: %s%s "
                "(%+.1f)\n",
                (unsigned long long)d->id, d->n, nc, rounds, okb_elapsed_ms(d), text,
                best ? "" : " (greedy)", best_gain);
    }
    return cand[best];
}

/* ---- Hooks ---------------------------------------------------------------------------- */

static void game_start(const okb_game_start *gs, void *ud)
{
    (void)ud;
    tracker_reset(gs->seat);
}

static void events(const okr_event *ev, int n, void *ud)
{
    (void)ud;
    for (int i = 0; i < n; i++)
        tracker_event(&ev[i]);
}

static void hand_end(const okb_hand_end *he, void *ud)
{
    (void)he, (void)ud;
    tracker_reset(tr.me);
}

/* ---- Command line --------------------------------------------------------------------- */

static int number(const char *s, long long lo, long long hi, long long *out)
{
    char *end;
    long long v = strtoll(s, &end, 10);
    if (!*s || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int real(const char *s, double lo, double hi, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (!*s || *end || !(v >= lo && v <= hi))
        return -1;
    *out = v;
    return 0;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        long long v = 0;
        const char *arg = argv[i], *val = i + 1 < argc ? argv[i + 1] : "";
        if (strcmp(arg, "--verbose") == 0) {
            opts.verbose = 1;
            continue;
        }
        if (strcmp(arg, "--cap-ms") == 0 && number(val, 1, 3600000, &v) == 0)
            opts.cap_ms = (int)v;
        else if (strcmp(arg, "--top-k") == 0 && number(val, 1, MAX_CAND, &v) == 0)
            opts.top_k = (int)v;
        else if (strcmp(arg, "--min-rounds") == 0 && number(val, 1, 100000, &v) == 0)
            opts.min_rounds = (int)v;
        else if (strcmp(arg, "--seed") == 0 && number(val, 0, INT64_MAX, &v) == 0)
            opts.seed = (uint64_t)v;
        else if (strcmp(arg, "--z") == 0 && real(val, 0, 10, &opts.z) == 0)
            ;
        else {
            fprintf(stderr, "usage: strong_bot [--cap-ms N] [--top-k K] [--min-rounds R] [--z Z] "
                            "[--seed S] [--verbose]\n");
            return 2;
        }
        i++;
    }
    okb_bot bot = {.name = "strong",
                   .version = "1.0",
                   .decide = decide,
                   .on_game_start = game_start,
                   .on_events = events,
                   .on_hand_end = hand_end};
    return okb_run(&bot, NULL);
}
