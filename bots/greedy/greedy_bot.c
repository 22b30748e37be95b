/* greedy_bot.c - a deterministic heuristic bot: meld at once, keep a useful hand, take the
 * pile only when it pays, knock as soon as the rules allow.
 *
 * The policy is plain arithmetic on the acting seat's own hand and the public table; it
 * never looks ahead. Every action gets a score and the first best one is played. The same
 * functions are compiled without main() into the strong bot (bots/strong/greedy.h), which
 * uses them to rank candidates and to play simulated hands out.
 *
 * Rummy family (laws, parlett, arlington, german):
 *   - MELD / ADD: always, the most valuable first (credit of the cards laid, RULES 7.1);
 *   - TAKE / CLAIM (and the upcard): when the meld it makes plus what the rest of the pile
 *     does to the hand is worth more than a draw: see take_gain();
 *   - DISCARD: the card that costs most in hand (okr_card_debit) unless it belongs to a pair
 *     or a near-run, never a wild card, and rather not a card that lets an opponent take the
 *     pile onto his meld (RULES 4.3(a));
 *   - never REPLACE (a Joker in hand costs 200).
 * Gin:
 *   - KNOCK whenever allowed, with the least deadwood (gin if possible);
 *   - TAKE the upcard / top discard only when it joins a meld and lowers the deadwood;
 *   - DISCARD the card that leaves the least deadwood, then the highest.
 */
#include <string.h>

#include "greedy.h"
#include "okbot.h"

enum { QS = OKR_KIND(3, 12) };

/* ---- Cards -------------------------------------------------------------------------------- */

static int is_wild(const okr_rules *r, int k)
{
    return k == OKR_JOKER || (r->wild_twos && k < OKR_JOKER && OKR_RANK(k) == 2);
}

/* What a card scores melded, standing for `as` (RULES 7.1; close enough for a heuristic:
 * the arlington set of twos is counted at 5). */
static int meld_credit(const okr_rules *r, int card, int as)
{
    int german = r->values == OKR_VALUES_GERMAN;
    if (card == OKR_JOKER)
        return 100;
    if (as == QS)
        return is_wild(r, card) && !german && r->values != OKR_VALUES_ARLINGTON ? 10 : 50;
    int rank = OKR_RANK(as);
    if (rank == 1)
        return german ? 15 : 20;
    return rank >= 8 ? 10 : 5;
}

/* okr_card_debit, from a table kept for the last rules seen (it depends on three fields;
 * the policy runs millions of times inside the strong bot's simulations). */
static int debit(const okr_rules *r, int k)
{
    static int family = -1, values = -1, wild_twos = -1;
    static int table[OKR_KINDS];
    if (r->family != family || r->values != values || r->wild_twos != wild_twos) {
        family = r->family, values = r->values, wild_twos = r->wild_twos;
        for (int c = 0; c < OKR_KINDS; c++)
            table[c] = okr_card_debit(r, c);
    }
    return (unsigned)k < OKR_KINDS ? table[k] : 0;
}

/* Ladder positions of a natural card (RULES 3.3): an ace may stand low (0), high (13) or
 * both; writes up to two, returns how many. */
static int positions(const okr_rules *r, int k, int pos[2])
{
    int rank = OKR_RANK(k), n = 0;
    if (rank != 1) {
        pos[n++] = rank - 1;
        return n;
    }
    if (r->ace & OKR_ACE_LOW)
        pos[n++] = 0;
    if (r->ace & OKR_ACE_HIGH)
        pos[n++] = 13;
    return n;
}

/* The natural card of `suit` at ladder position p (0..13), or -1. */
static int card_at(const okr_rules *r, int suit, int p)
{
    if (p < 0 || p > 13)
        return -1;
    if ((p == 0 && !(r->ace & OKR_ACE_LOW)) || (p == 13 && !(r->ace & OKR_ACE_HIGH)))
        return -1;
    return OKR_KIND(suit, OKR_POS_RANK(p));
}

/* ---- Melds as shapes ---------------------------------------------------------------------- */

/* A meld reduced to what decides whether a natural card can join it. */
typedef struct shape {
    int type; /* OKR_SET, OKR_RUN */
    int rank; /* sets */
    int suit; /* runs */
    int lo;   /* runs: ladder position of the first card */
    int n;
} shape;

static shape shape_of(const okr_meld *m)
{
    shape s = {m->type, m->rank, m->suit, m->lo, m->n};
    return s;
}

/* Can natural card k join s (RULES 3.2-3.4)? */
static int fits(const okr_rules *r, const shape *s, int k)
{
    if (k >= OKR_JOKER || is_wild(r, k))
        return 0;
    if (s->type == OKR_SET)
        return OKR_RANK(k) == s->rank && (r->set_max == 0 || s->n < r->set_max);
    if (OKR_SUIT(k) != s->suit || (r->run_max && s->n >= r->run_max))
        return 0;
    int pos[2], np = positions(r, k, pos);
    for (int i = 0; i < np; i++)
        if (pos[i] == s->lo - 1 || pos[i] == s->lo + s->n)
            return 1;
    return 0;
}

/* Add natural card k to s (fits() must hold). */
static void grow_shape(const okr_rules *r, shape *s, int k)
{
    if (s->type == OKR_RUN) {
        int pos[2], np = positions(r, k, pos);
        for (int i = 0; i < np; i++)
            if (pos[i] == s->lo - 1) {
                s->lo--;
                break;
            }
    }
    s->n++;
}

/* ---- Rummy: what a hand is worth ---------------------------------------------------------- */

enum { MAX_SPECS = 4096, MAX_SHAPES = OKR_MAX_MELDS + 16 };

static okr_spec specs[MAX_SPECS]; /* scratch for okr_find_melds */

/* What the hand would score if the hand ended after melding what it can now: credit of the
 * cards it can lay (new melds, then additions to them and to our melds on the table) minus
 * the debit of the rest. Greedy, not optimal: natural melds first, then each wild card
 * completes the best pair or near-run, then single cards join any meld they fit. */
static int hand_worth(const greedy_table *t, const uint8_t hand[OKR_KINDS])
{
    const okr_rules *r = t->rules;
    uint8_t h[OKR_KINDS], naturals[OKR_KINDS];
    memcpy(h, hand, sizeof h);
    shape shapes[MAX_SHAPES];
    int nshapes = 0, credit = 0;
    for (int m = 0; m < t->meld_n && nshapes < MAX_SHAPES; m++)
        if (t->meld[m].owner == t->seat)
            shapes[nshapes++] = shape_of(&t->meld[m]);

    /* 1. natural melds, the most valuable first */
    for (int round = 0; round < 12 && nshapes < MAX_SHAPES; round++) {
        memcpy(naturals, h, sizeof naturals);
        for (int k = 0; k < OKR_KINDS; k++)
            if (is_wild(r, k))
                naturals[k] = 0;
        int n = okr_find_melds(r, naturals, specs, MAX_SPECS);
        if (n <= 0)
            break;
        int best = 0, best_value = -1;
        for (int i = 0; i < n; i++) {
            int v = 0;
            for (int c = 0; c < specs[i].n; c++)
                v += meld_credit(r, specs[i].card[c], specs[i].as[c]);
            if (v > best_value)
                best = i, best_value = v;
        }
        const okr_spec *sp = &specs[best];
        for (int c = 0; c < sp->n; c++)
            h[sp->card[c]]--;
        credit += best_value;
        shape s = {sp->type, OKR_RANK(sp->as[0]), OKR_SUIT(sp->as[0]), sp->lo, sp->n};
        shapes[nshapes++] = s;
    }

    /* 2. single naturals onto any meld they fit, repeatedly (a run grows card by card) */
    for (int changed = 1; changed;) {
        changed = 0;
        for (int k = 0; k < OKR_JOKER; k++)
            for (int i = 0; i < nshapes && h[k] && !is_wild(r, k); i++)
                if (fits(r, &shapes[i], k)) {
                    grow_shape(r, &shapes[i], k);
                    h[k]--;
                    credit += meld_credit(r, k, k);
                    changed = 1;
                }
    }

    /* 3. wild cards: each completes the best pair or two cards of a run one gap apart */
    for (int w = 0; w < OKR_KINDS; w++) {
        while (h[w] && is_wild(r, w)) {
            int best_a = -1, best_b = -1, best_value = 0; /* value of the two naturals */
            for (int a = 0; a < OKR_JOKER; a++) {
                if (!h[a] || is_wild(r, a))
                    continue;
                for (int b = a; b < OKR_JOKER; b += 13) { /* a pair: a and its rank */
                    if (is_wild(r, b) || h[b] < 1 + (a == b))
                        continue;
                    int v = meld_credit(r, a, a) + meld_credit(r, b, b);
                    if (v > best_value)
                        best_a = a, best_b = b, best_value = v;
                }
                int pos[2], np = positions(r, a, pos); /* a near-run: a and b above it */
                for (int i = 0; i < np; i++)
                    for (int d = 1; d <= 2; d++) {
                        int b = card_at(r, OKR_SUIT(a), pos[i] + d);
                        if (b < 0 || !h[b] || is_wild(r, b))
                            continue;
                        int v = meld_credit(r, a, a) + meld_credit(r, b, b);
                        if (v > best_value)
                            best_a = a, best_b = b, best_value = v;
                    }
            }
            int wild_credit = w == OKR_JOKER ? 100 : 5;
            if (best_a < 0) {
                if (nshapes == 0)
                    break;
                h[w]--; /* nothing to complete: it joins one of our melds */
                credit += wild_credit;
                continue;
            }
            h[w]--, h[best_a]--, h[best_b]--;
            if (w != OKR_JOKER)
                wild_credit = meld_credit(r, best_a, best_a);
            credit += best_value + wild_credit;
        }
    }

    int owed = 0;
    for (int k = 0; k < OKR_KINDS; k++)
        owed += h[k] * debit(r, k);
    return credit - owed;
}

/* ---- Rummy: scoring actions --------------------------------------------------------------- */

/* Gain of taking the pile (or claiming it, or taking the upcard) by action a, against
 * leaving things as they are: the meld it makes, plus what the rest of the pile does to
 * the hand's worth. */
static int take_gain(const greedy_table *t, const okr_action *a, int worth_now)
{
    const okr_rules *r = t->rules;
    uint8_t h[OKR_KINDS];
    memcpy(h, t->hand, sizeof h);
    int top = t->pile_n ? t->pile[t->pile_n - 1] : -1, credit = 0;
    if (top < 0)
        return -1000;
    if (a->how == OKR_HOW_NEW) {
        int top_seen = 0;
        for (int c = 0; c < a->u.spec.n; c++) {
            int k = a->u.spec.card[c];
            credit += meld_credit(r, k, a->u.spec.as[c]);
            if (k == top && !top_seen)
                top_seen = 1; /* the pile's card, not one of ours */
            else if (h[k])
                h[k]--;
        }
    } else if (a->how == OKR_HOW_ADD) {
        credit = meld_credit(r, top, a->as);
    } else if (a->how == OKR_HOW_JOKER) {
        credit = meld_credit(r, top, top) - 100; /* the Joker leaves the meld... */
        h[OKR_JOKER]++;                          /* ...for the hand */
    }
    for (int i = 0; i + 1 < t->pile_n; i++)
        h[t->pile[i]]++;
    return credit + hand_worth(t, h) - worth_now;
}

/* How many melds on the table each natural card would join: fit[0][k] of ours, fit[1][k] of
 * the opponents'. */
static void table_fits(const greedy_table *t, uint8_t fit[2][OKR_KINDS])
{
    const okr_rules *r = t->rules;
    memset(fit, 0, 2 * OKR_KINDS);
    for (int m = 0; m < t->meld_n; m++) {
        shape sh = shape_of(&t->meld[m]);
        int whose = t->meld[m].owner == t->seat ? 0 : 1;
        int cand[4], nc = 0;
        if (sh.type == OKR_SET) {
            for (int suit = 0; suit < 4; suit++)
                cand[nc++] = OKR_KIND(suit, sh.rank);
        } else {
            cand[nc++] = card_at(r, sh.suit, sh.lo - 1);
            cand[nc++] = card_at(r, sh.suit, sh.lo + sh.n);
        }
        for (int i = 0; i < nc; i++)
            if (cand[i] >= 0 && fits(r, &sh, cand[i]) && fit[whose][cand[i]] < UINT8_MAX)
                fit[whose][cand[i]]++;
    }
}

/* How good a discard of card k is: its debit, less what it is worth to keep (pairs and
 * near-runs in the hand, a meld of ours it will join) and what it would give away (an
 * opponent's meld it fits takes the whole pile, RULES 4.3(a)). fit[] from table_fits. */
static int discard_score(const greedy_table *t, int k, const uint8_t fit[2][OKR_KINDS])
{
    const okr_rules *r = t->rules;
    if (is_wild(r, k))
        return -10000 + debit(r, k);
    if (k == QS && t->avoid_qs)
        return -5000;
    int s = debit(r, k);
    uint8_t h[OKR_KINDS];
    memcpy(h, t->hand, sizeof h);
    h[k]--;
    int same_rank = 0;
    for (int b = OKR_RANK(k) - 1; b < OKR_JOKER; b += 13)
        same_rank += h[b];
    if (same_rank)
        s -= same_rank >= 2 ? 45 : 25;
    int pos[2], np = positions(r, k, pos);
    for (int i = 0; i < np; i++)
        for (int d = -2; d <= 2; d++) {
            int b = d ? card_at(r, OKR_SUIT(k), pos[i] + d) : -1;
            if (b >= 0 && h[b])
                s -= d == 1 || d == -1 ? 20 : 10;
        }
    s -= 40 * fit[0][k]; /* it will join our meld next turn */
    if (r->take_add)
        s -= (30 + 3 * t->pile_n) * fit[1][k]; /* an opponent could take the pile with it */
    return s;
}

/* `melds_only`: the list holds a MELD or an ADD, which always outscores the rest, so the
 * rest is not scored (greedy_choose). */
static void rummy_scores(const greedy_table *t, const okr_action *legal, int n, int *score,
                         int melds_only)
{
    const okr_rules *r = t->rules;
    int worth_now = 0, have_take = 0, have_fits = 0;
    uint8_t fit[2][OKR_KINDS];
    for (int i = 0; i < n && !melds_only; i++)
        have_take |= legal[i].type == OKR_A_TAKE || legal[i].type == OKR_A_CLAIM;
    if (have_take)
        worth_now = hand_worth(t, t->hand);
    for (int i = 0; i < n; i++) {
        const okr_action *a = &legal[i];
        int s = 0;
        if (melds_only && a->type != OKR_A_MELD && a->type != OKR_A_ADD) {
            score[i] = -30000;
            continue;
        }
        switch (a->type) {
        case OKR_A_MELD:
            for (int c = 0; c < a->u.spec.n; c++)
                s += meld_credit(r, a->u.spec.card[c], a->u.spec.as[c]);
            s += 20000; /* laying down comes before anything else */
            break;
        case OKR_A_ADD:
            s = 20000 + meld_credit(r, a->card, a->as);
            break;
        case OKR_A_TAKE:
        case OKR_A_CLAIM:
            s = take_gain(t, a, worth_now);
            break;
        case OKR_A_DISCARD:
            if (!have_fits) {
                table_fits(t, fit);
                have_fits = 1;
            }
            s = discard_score(t, a->card, fit);
            break;
        case OKR_A_REPLACE:
            s = -20000;
            break;
        default: /* DRAW, PASS */
            s = 0;
            break;
        }
        score[i] = s;
    }
}

/* ---- Gin ---------------------------------------------------------------------------------- */

static int deadwood(const okr_rules *r, const uint8_t h[OKR_KINDS])
{
    okr_ginmeld melds[OKR_GIN_MELDS];
    int nmelds = 0;
    return okr_gin_best(r, h, melds, &nmelds);
}

/* Deadwood of hand h less one card, for every kind in h: after[k]. Exact for every k when
 * `all`; otherwise only where it can matter to the least value over the kinds other than
 * `skip` (-1 for none), the others holding a lower bound above it (see below). Returns the
 * deadwood of h itself.
 *
 * Why it is cheap: with A a best arrangement of h (deadwood D), a card x that A leaves as
 * deadwood gives exactly D - value(x) (A without x is an arrangement of h - x, and no
 * arrangement of h - x can do better, or A plus x would beat D). A card in a meld is
 * bounded the same way and only computed when the bound could win. */
static int deadwood_after(const okr_rules *r, uint8_t h[OKR_KINDS], int after[OKR_KINDS], int all,
                          int skip)
{
    okr_ginmeld melds[OKR_GIN_MELDS];
    int nmelds = 0;
    int dw = okr_gin_best(r, h, melds, &nmelds);
    uint8_t in_meld[OKR_KINDS] = {0};
    for (int m = 0; m < nmelds && m < OKR_GIN_MELDS; m++)
        for (int i = 0; i < melds[m].n && i < 13; i++)
            if (melds[m].card[i] < OKR_KINDS)
                in_meld[melds[m].card[i]]++;
    int best = dw + 1; /* the least exact value so far */
    for (int k = 0; k < OKR_JOKER; k++)
        if (h[k] > in_meld[k]) { /* a copy of k is deadwood in A */
            after[k] = dw - debit(r, k);
            if (k != skip && after[k] < best)
                best = after[k];
        }
    for (int k = 0; k < OKR_JOKER; k++)
        if (h[k] && h[k] <= in_meld[k]) {
            after[k] = dw - debit(r, k); /* the bound */
            /* a tie can still win on the card's value, so compute at equality too */
            if (all || after[k] <= best) {
                h[k]--;
                after[k] = deadwood(r, h);
                h[k]++;
                if (k != skip && after[k] < best)
                    best = after[k];
            }
        }
    return dw;
}

/* Deadwood a knock declares: the hand less the discard and the declared melds (G5). */
static int knock_deadwood(const greedy_table *t, const okr_action *a)
{
    uint8_t h[OKR_KINDS];
    memcpy(h, t->hand, sizeof h);
    if (a->card < OKR_KINDS && h[a->card])
        h[a->card]--;
    for (int m = 0; m < a->nmelds && m < OKR_GIN_MELDS; m++)
        for (int i = 0; i < a->u.knock[m].n && i < 13; i++)
            if (a->u.knock[m].card[i] < OKR_KINDS && h[a->u.knock[m].card[i]])
                h[a->u.knock[m].card[i]]--;
    int dw = 0;
    for (int k = 0; k < OKR_KINDS; k++)
        dw += h[k] * debit(t->rules, k);
    return dw;
}

/* Taking the top discard: worth it when the card joins a meld and the best discard after it
 * leaves less deadwood than now. Returns the deadwood saved, or 0. */
static int gin_take_gain(const greedy_table *t)
{
    const okr_rules *r = t->rules;
    if (!t->pile_n)
        return 0;
    int top = t->pile[t->pile_n - 1];
    uint8_t h[OKR_KINDS];
    memcpy(h, t->hand, sizeof h);
    int before = deadwood(r, h);
    h[top]++;
    int after[OKR_KINDS];
    if (deadwood_after(r, h, after, 0, top) - before >= debit(r, top))
        return 0; /* it would be deadwood itself */
    int best = before;
    for (int k = 0; k < OKR_JOKER; k++)
        if (h[k] && k != top && after[k] < best)
            best = after[k];
    return before - best;
}

/* `all`: every score exact (greedy_scores); otherwise scores that cannot be the best may
 * be overestimated (greedy_choose). */
static void gin_scores(const greedy_table *t, const okr_action *legal, int n, int *score, int all)
{
    const okr_rules *r = t->rules;
    int after[OKR_KINDS], have_after = 0;
    for (int i = 0; i < n; i++) {
        const okr_action *a = &legal[i];
        int s = 0;
        if (a->type == OKR_A_KNOCK) {
            s = 100000 - 100 * knock_deadwood(t, a);
        } else if (a->type == OKR_A_DISCARD) {
            if (!have_after) {
                uint8_t h[OKR_KINDS];
                memcpy(h, t->hand, sizeof h);
                deadwood_after(r, h, after, all, -1);
                have_after = 1;
            }
            /* least deadwood first, then the highest card */
            s = -16 * after[a->card] + debit(r, a->card);
        } else if (a->type == OKR_A_TAKE) {
            s = gin_take_gain(t) > 0 ? 1 : -1; /* against 0 for DRAW / PASS */
        }
        score[i] = s;
    }
}

/* ---- The policy --------------------------------------------------------------------------- */

void greedy_table_of_view(greedy_table *t, const okr_rules *r, const okr_view *v)
{
    memset(t, 0, sizeof *t);
    t->rules = r;
    t->seat = v->seat;
    t->players = v->players;
    t->phase = v->phase;
    t->dealer = v->dealer;
    t->stock_n = v->stock_n;
    t->pile_n = v->pile_n;
    t->meld_n = v->meld_n;
    t->upcard = v->upcard;
    t->hand = v->hand;
    t->hand_n = v->hand_n;
    t->pile = v->pile;
    t->meld = v->meld;
}

void greedy_table_of_game(greedy_table *t, const okr_game *g)
{
    memset(t, 0, sizeof *t);
    t->rules = &g->rules;
    t->seat = g->to_act;
    t->players = g->players;
    t->phase = g->phase;
    t->dealer = g->dealer;
    t->stock_n = g->stock_n;
    t->pile_n = g->pile_n;
    t->meld_n = g->meld_n;
    t->upcard = g->upcard;
    t->hand = g->hand[g->to_act];
    t->hand_n = g->hand_n;
    t->pile = g->pile;
    t->meld = g->meld;
}

/* all: every score exact; otherwise only the best must be (greedy_choose). melds_only: see
 * rummy_scores. */
static void scores_of(const greedy_table *t, const okr_action *legal, int n, int *score, int all,
                      int melds_only)
{
    if (t->rules->family == OKR_FAMILY_GIN)
        gin_scores(t, legal, n, score, all);
    else
        rummy_scores(t, legal, n, score, melds_only);
}

void greedy_scores(const greedy_table *t, const okr_action *legal, int n, int *score)
{
    scores_of(t, legal, n, score, 1, 0);
}

int greedy_choose(const greedy_table *t, const okr_action *legal, int n)
{
    enum { CHUNK = 256 };
    int score[CHUNK], best = 0, best_score = 0;
    if (n <= 1)
        return 0;
    int melds = 0;
    for (int i = 0; i < n && !melds; i++)
        melds = legal[i].type == OKR_A_MELD || legal[i].type == OKR_A_ADD;
    /* in chunks: a legal list can be long (OKR_MAX_ACTIONS) */
    for (int base = 0; base < n; base += CHUNK) {
        int m = n - base < CHUNK ? n - base : CHUNK;
        scores_of(t, legal + base, m, score, 0, melds);
        for (int i = 0; i < m; i++)
            if (base + i == 0 || score[i] > best_score)
                best = base + i, best_score = score[i];
    }
    return best;
}

/* ---- The bot ------------------------------------------------------------------------------ */

#ifndef GREEDY_NO_MAIN

static int qs_refused;  /* the arena refused a discard of the Q of spades: never again */
static okr_action last; /* what we sent last */

static int decide(const okb_decision *d, void *ud)
{
    (void)ud;
    greedy_table t;
    greedy_table_of_view(&t, d->rules, d->view);
    t.avoid_qs = qs_refused;
    int pick = greedy_choose(&t, d->legal, d->n);
    last = d->legal[pick];
    /* a note for the replay page (protocol 1.1): the rule of thumb that chose this */
    static const char *const why[] = {
        [OKR_A_DRAW] = "the pile does not pay: draw from the stock",
        [OKR_A_TAKE] = "the pile pays: it makes a meld worth more than a draw",
        [OKR_A_MELD] = "meld at once, the most valuable first",
        [OKR_A_ADD] = "lay off at once, the most valuable first",
        [OKR_A_DISCARD] = "discard the card that costs most in hand",
        [OKR_A_CLAIM] = "the claim makes a meld worth more than a draw",
        [OKR_A_KNOCK] = "knock as soon as the rules allow, with the least deadwood",
        [OKR_A_PASS] = "nothing here pays: pass",
    };
    int type = last.type;
    if (d->n > 1 && type < (int)(sizeof why / sizeof why[0]) && why[type])
        okb_note(d, "%s (1 of %d choices)", why[type], d->n);
    return pick;
}

static void refused(const okb_refused *r, void *ud)
{
    (void)r, (void)ud;
    if ((last.type == OKR_A_DISCARD || last.type == OKR_A_KNOCK) && last.card == QS)
        qs_refused = 1;
}

int main(void)
{
    okb_bot bot = {.name = "greedy", .version = "1.0", .decide = decide, .on_refused = refused};
    return okb_run(&bot, NULL);
}

#endif
