/* meld.c - what a meld is (RULES 3) and which melds and additions a hand can make.
 *
 * Action model (docs/engine.md): a new meld is laid minimal, with three cards; it grows by
 * one-card additions in the same turn. RULES 3.9 makes every step final, so the tables a
 * player can reach are exactly those of laying the whole meld at once, while the legal list
 * stays small. The one meld that cannot be built that way is a pile or claim meld whose top
 * card is wild and whose nearest natural is more than two places away: it is laid whole, as
 * the wild top card at one end, a natural at the other and only wilds between.
 * Pure: no I/O, no allocation. */
#include "internal.h"

#define QS OKR_KIND(3, 12)

/* May wild `card` stand for `as` (RULES 3.5, 3.7)? */
static int may_stand_for(const okr_rules *r, int card, int as)
{
    if (as < 0 || as >= OKR_JOKER)
        return 0;
    if (card != OKR_JOKER && as == QS && !r->deuce_as_qs)
        return 0; /* RULES 3.7 */
    return 1;
}

static int is_all_twos_set(const okr_rules *r, int type, int rank)
{
    return type == OKR_SET && rank == 2 && r->all_twos && r->wild_twos;
}

/* Shape check shared by new melds: cards, declarations, set/run, sizes, naturals. */
int okr__spec_valid(const okr_rules *r, const okr_spec *s, okr_refusal *why)
{
    int naturals = 0;
    if (s->n < 3)
        return okr__refuse(why, "3.1", "a meld has at least three cards");
    if (s->n > OKR_SPEC_CARDS)
        return okr__refuse(why, "3.3", "too many cards");
    for (int i = 0; i < s->n; i++) {
        int c = s->card[i], as = s->as[i];
        if (c >= OKR_KINDS || (c == OKR_JOKER && !r->jokers))
            return okr__refuse(why, "1.2", "no such card in this pack");
        if (okr__is_wild(r, c)) {
            if (!may_stand_for(r, c, as))
                return okr__refuse(why, as == QS ? "3.7" : "3.5",
                                   as == QS ? "a 2 may not stand for the Q of spades"
                                            : "a wild card must stand for a card");
        } else {
            if (as != c)
                return okr__refuse(why, "3.5", "only a wild card carries a declaration");
            naturals++;
        }
    }
    if (s->type == OKR_SET) {
        int rank = OKR_RANK(s->as[0]);
        for (int i = 1; i < s->n; i++)
            if (OKR_RANK(s->as[i]) != rank)
                return okr__refuse(why, "3.2", "a set is cards of one rank");
        if (s->lo != 0)
            return okr__refuse(why, "3.2", "a set has no ladder position");
        if (s->n > okr__set_cap(r))
            return okr__refuse(why, "3.2", "set too large");
        if (is_all_twos_set(r, OKR_SET, rank)) {
            for (int i = 0; i < s->n; i++)
                if (s->card[i] == OKR_JOKER)
                    return okr__refuse(why, "3.6", "an all-twos set holds only twos");
            return OKR_OK; /* RULES 3.6 arlington: no natural needed */
        }
    } else if (s->type == OKR_RUN) {
        int suit = OKR_SUIT(s->as[0]);
        if (s->lo < okr__ladder_lo(r) || s->lo + s->n - 1 > okr__ladder_hi(r))
            return okr__refuse(why, "3.3", "the run leaves the ladder (no going round the corner)");
        for (int i = 0; i < s->n; i++)
            if (OKR_SUIT(s->as[i]) != suit || OKR_RANK(s->as[i]) != OKR_POS_RANK(s->lo + i))
                return okr__refuse(why, "3.3", "a run is consecutive cards of one suit");
        if (s->n > okr__run_cap(r))
            return okr__refuse(why, r->run_max ? "3.4" : "3.3", "run too long");
    } else {
        return okr__refuse(why, "3.1", "a meld is a set or a run");
    }
    if (!naturals)
        return okr__refuse(why, "3.6", "a meld needs at least one natural card");
    return OKR_OK;
}

/* Wild cards of the same sort: the Joker, or any two 2s (interchangeable; a run keeps its
 * 2s in kind order, so the top card's own 2 may sit elsewhere in it). */
static int same_wild(int a, int b)
{
    return a == b || (a != OKR_JOKER && b != OKR_JOKER && a % 13 == 1 && b % 13 == 1);
}

/* Is the spec minimal for a new meld (docs/engine.md)? top: the pile card it must hold, or
 * OKR_NOCARD. Assumes okr__spec_valid. */
int okr__spec_minimal(const okr_rules *r, const okr_spec *s, int top)
{
    if (s->n == 3)
        return 1;
    if (s->type != OKR_RUN || top == OKR_NOCARD || !okr__is_wild(r, top))
        return 0;
    int last = s->n - 1;
    for (int i = 1; i < last; i++)
        if (!okr__is_wild(r, s->card[i]))
            return 0;
    return (same_wild(s->card[0], top) && !okr__is_wild(r, s->card[last])) ||
           (same_wild(s->card[last], top) && !okr__is_wild(r, s->card[0]));
}

/* Sort a set's cards by (card, as): the canonical order of sets (docs/engine.md). */
void okr__spec_canonical(okr_spec *s)
{
    if (s->type != OKR_SET)
        return;
    for (int i = 1; i < s->n; i++)
        for (int j = i; j > 0; j--) {
            int a = s->card[j - 1] * 64 + s->as[j - 1], b = s->card[j] * 64 + s->as[j];
            if (a <= b)
                break;
            uint8_t t = s->card[j];
            s->card[j] = s->card[j - 1];
            s->card[j - 1] = t;
            t = s->as[j];
            s->as[j] = s->as[j - 1];
            s->as[j - 1] = t;
        }
}

/* May `card` counting as `as` join meld m at ladder position pos (255 for sets)?
 * Checks RULES 3.2-3.7 only (ownership and hand are the caller's). */
int okr__add_valid(const okr_rules *r, const okr_meld *m, int card, int as, int pos,
                   okr_refusal *why)
{
    int wild = okr__is_wild(r, card);
    if (card >= OKR_KINDS || (card == OKR_JOKER && !r->jokers))
        return okr__refuse(why, "1.2", "no such card in this pack");
    if (wild ? !may_stand_for(r, card, as) : as != card)
        return okr__refuse(why, as == QS && wild ? "3.7" : "3.5",
                           wild ? "the wild card's declaration cannot be used"
                                : "only a wild card carries a declaration");
    if (m->type == OKR_SET) {
        if (pos != 255)
            return okr__refuse(why, "3.2", "a set has no ladder position");
        if (OKR_RANK(as) != m->rank)
            return okr__refuse(why, "3.2", "a set is cards of one rank");
        if (m->n >= okr__set_cap(r))
            return okr__refuse(why, "3.2", "the set is closed (full)");
        if (is_all_twos_set(r, OKR_SET, m->rank) && card == OKR_JOKER)
            return okr__refuse(why, "3.6", "an all-twos set holds only twos");
        return OKR_OK;
    }
    if (pos != m->lo - 1 && pos != m->lo + m->n)
        return okr__refuse(why, "3.3", "a card joins a run at either end");
    if (pos < okr__ladder_lo(r) || pos > okr__ladder_hi(r))
        return okr__refuse(why, "3.3", "the run leaves the ladder (no going round the corner)");
    if (OKR_SUIT(as) != m->suit || OKR_RANK(as) != OKR_POS_RANK(pos))
        return okr__refuse(why, "3.3", "the card does not continue the run");
    if (m->n >= okr__run_cap(r))
        return okr__refuse(why, r->run_max ? "3.4" : "3.3", "the run is at its longest");
    return OKR_OK;
}

/* ---- Enumeration ------------------------------------------------------------------- */

typedef struct enum_ctx {
    const okr_rules *r;
    const uint8_t *hand; /* cards available from the hand */
    int top;             /* card that must be in the meld, or OKR_NOCARD */
    const okr_action *tmpl;
    okr_action *out; /* actions out, copies of *tmpl; or */
    okr_spec *specs; /* bare melds out (okr_find_melds) */
    int n, cap;
    uint8_t avail[OKR_KINDS]; /* hand + top */
    uint8_t used[OKR_KINDS];
    int wilds;            /* wild cards in avail: a slot without its natural needs one */
    uint8_t naturals[14]; /* natural cards in avail per rank 1..13 */
    unsigned natmask[4];  /* per suit, bit p: the natural for ladder position p is there */
} enum_ctx;

static int emit(enum_ctx *e, const okr_spec *s)
{
    if (e->n < 0)
        return -1;
    if (e->n >= e->cap) {
        e->n = OKR_EOVERFLOW;
        return -1;
    }
    okr_spec *d;
    if (e->specs) {
        d = &e->specs[e->n++];
    } else {
        okr_action *a = &e->out[e->n++];
        *a = *e->tmpl;
        d = &a->u.spec;
    }
    *d = *s;
    /* the scratch spec may hold a longer earlier try past n */
    memset(d->card + s->n, 0, (size_t)(OKR_SPEC_CARDS - s->n));
    memset(d->as + s->n, 0, (size_t)(OKR_SPEC_CARDS - s->n));
    return 0;
}

static const uint8_t wild_kinds[5] = {OKR_KIND(0, 2), OKR_KIND(1, 2), OKR_KIND(2, 2),
                                      OKR_KIND(3, 2), OKR_JOKER};

/* Declarations a wild card may carry in a set of `rank`, ascending. The Joker's suit
 * matters (it decides which natural may take its place, RULES 5.2), so all four are
 * choices. A 2's suit in a set changes nothing under any rule, except the Q of spades,
 * which may score differently (7.1); so a 2 declares clubs, or the Q of spades.
 * okr__normalize_decl maps any other suit a bot sends to clubs. */
static int set_declarations(const okr_rules *r, int wild, int rank, int *out)
{
    int n = 0;
    if (wild == OKR_JOKER) {
        for (int s = 0; s < 4; s++)
            if (may_stand_for(r, wild, OKR_KIND(s, rank)))
                out[n++] = OKR_KIND(s, rank);
        return n;
    }
    out[n++] = OKR_KIND(0, rank);
    if (rank == 12 && may_stand_for(r, wild, QS))
        out[n++] = QS;
    return n;
}

int okr__normalize_decl(const okr_rules *r, int card, int as)
{
    if (card < OKR_JOKER && okr__is_wild(r, card) && as < OKR_JOKER && as != QS)
        return OKR_KIND(0, OKR_RANK(as));
    return as;
}

void okr__spec_normalize(const okr_rules *r, okr_spec *s)
{
    if (s->n > OKR_SPEC_CARDS)
        return; /* refused later by RULES 3.3; keep the bytes as sent */
    memset(s->card + s->n, 0, (size_t)(OKR_SPEC_CARDS - s->n));
    memset(s->as + s->n, 0, (size_t)(OKR_SPEC_CARDS - s->n));
    if (s->type == OKR_SET) {
        for (int i = 0; i < s->n; i++)
            s->as[i] = (uint8_t)okr__normalize_decl(r, s->card[i], s->as[i]);
        okr__spec_canonical(s);
        return;
    }
    /* Runs: the 2s are interchangeable, so they stand in kind order along the ladder. */
    for (int i = 0; i < s->n; i++)
        for (int j = i + 1; j < s->n; j++) {
            int a = s->card[i], b = s->card[j];
            if (a < OKR_JOKER && b < OKR_JOKER && okr__is_wild(r, a) && okr__is_wild(r, b) &&
                b < a) {
                s->card[i] = (uint8_t)b;
                s->card[j] = (uint8_t)a;
            }
        }
}

/* Candidate kinds for a meld slot in ascending kind order: the naturals `nat` (up to 4,
 * ascending) merged with the wild kinds. Returns the count. */
static int candidates(const okr_rules *r, const int *nat, int nn, int *out)
{
    int k = 0, i = 0;
    for (int w = 0; w < 5; w++) {
        int wk = wild_kinds[w];
        if (!okr__is_wild(r, wk))
            continue;
        while (i < nn && nat[i] < wk)
            out[k++] = nat[i++];
        if (i < nn && nat[i] == wk)
            i++; /* a 2 that is wild is not also a natural */
        out[k++] = wk;
    }
    while (i < nn)
        out[k++] = nat[i++];
    return k;
}

/* Sets of three of one rank (RULES 3.2, 3.6), in (card, as) order. */
static void enum_sets(enum_ctx *e, int rank)
{
    const okr_rules *r = e->r;
    uint8_t sc[24], sa[24];
    int ns = 0, naturals = e->naturals[rank];
    int twos = is_all_twos_set(r, OKR_SET, rank);
    if (rank == 2 && r->wild_twos && !twos)
        return; /* every 2 is wild: no natural, RULES 3.6 */
    if ((!naturals && !twos) || naturals + e->wilds < 3)
        return;
    int nat[4], cand[9];
    for (int s = 0; s < 4; s++)
        nat[s] = OKR_KIND(s, rank);
    int nc = candidates(r, nat, 4, cand);
    for (int c = 0; c < nc; c++) {
        int k = cand[c];
        if (!e->avail[k])
            continue;
        if (!okr__is_wild(r, k)) {
            sc[ns] = (uint8_t)k;
            sa[ns++] = (uint8_t)k;
        } else if (!(twos && k == OKR_JOKER)) {
            int decl[4];
            int nd = set_declarations(r, k, rank, decl);
            for (int d = 0; d < nd; d++) {
                sc[ns] = (uint8_t)k;
                sa[ns++] = (uint8_t)decl[d];
            }
        }
    }
    okr_spec sp;
    memset(&sp, 0, sizeof sp);
    sp.type = OKR_SET;
    sp.n = 3;
    for (int i = 0; i < ns; i++) {
        e->used[sc[i]]++;
        for (int j = i; j < ns; j++) {
            if (e->used[sc[j]] >= e->avail[sc[j]])
                continue;
            e->used[sc[j]]++;
            for (int l = j; l < ns; l++) {
                if (e->used[sc[l]] >= e->avail[sc[l]])
                    continue;
                int nats = (sc[i] == sa[i]) + (sc[j] == sa[j]) + (sc[l] == sa[l]);
                if (!nats && !twos)
                    continue;
                if (e->top != OKR_NOCARD && sc[i] != e->top && sc[j] != e->top && sc[l] != e->top)
                    continue;
                sp.card[0] = sc[i], sp.as[0] = sa[i];
                sp.card[1] = sc[j], sp.as[1] = sa[j];
                sp.card[2] = sc[l], sp.as[2] = sa[l];
                if (emit(e, &sp))
                    goto out;
            }
            e->used[sc[j]]--;
        }
        e->used[sc[i]]--;
    }
    return;
out:
    memset(e->used, 0, sizeof e->used);
}

/* Fill positions i.. of a run spec; at each position the natural first, then wild kinds. */
static int fill_run(enum_ctx *e, okr_spec *sp, int i, int suit, int naturals, int has_top,
                    int min_deuce)
{
    const okr_rules *r = e->r;
    if (i == sp->n) {
        if (!naturals || (e->top != OKR_NOCARD && !has_top))
            return 0;
        if (sp->n > 3 && !okr__spec_minimal(r, sp, e->top))
            return 0;
        return emit(e, sp);
    }
    int as = OKR_KIND(suit, OKR_POS_RANK(sp->lo + i));
    if (sp->n > 3 && i > 0 && i < sp->n - 1) {
        /* long wild-top run: only wilds between the ends */
    } else if (!okr__is_wild(r, as) && e->used[as] < e->avail[as]) {
        e->used[as]++;
        sp->card[i] = (uint8_t)as;
        sp->as[i] = (uint8_t)as;
        int rc = fill_run(e, sp, i + 1, suit, naturals + 1, has_top || as == e->top, min_deuce);
        e->used[as]--;
        if (rc)
            return rc;
    }
    for (int w = 0; w < 5; w++) {
        int k = wild_kinds[w];
        if (!okr__is_wild(r, k) || e->used[k] >= e->avail[k] || !may_stand_for(r, k, as))
            continue;
        if (k != OKR_JOKER && k < min_deuce)
            continue; /* 2s stand in kind order along a run (okr__spec_normalize) */
        e->used[k]++;
        sp->card[i] = (uint8_t)k;
        sp->as[i] = (uint8_t)as;
        int rc = fill_run(e, sp, i + 1, suit, naturals, has_top || k == e->top,
                          k == OKR_JOKER ? min_deuce : k);
        e->used[k]--;
        if (rc)
            return rc;
    }
    return 0;
}

static int popcount14(unsigned x)
{
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

static void enum_runs(enum_ctx *e, int suit)
{
    const okr_rules *r = e->r;
    int lo = okr__ladder_lo(r), hi = okr__ladder_hi(r), cap = okr__run_cap(r);
    unsigned nat = e->natmask[suit];
    int top_wild = e->top != OKR_NOCARD && okr__is_wild(r, e->top);
    int top_pos_mask = 0;
    if (e->top != OKR_NOCARD && !top_wild) {
        if (OKR_SUIT(e->top) != suit)
            return;
        for (int p = lo; p <= hi; p++)
            if (OKR_RANK(e->top) == OKR_POS_RANK(p))
                top_pos_mask |= 1 << p;
    }
    if (!nat)
        return;
    okr_spec sp;
    memset(&sp, 0, sizeof sp);
    sp.type = OKR_RUN;
    for (int start = lo; start + 2 <= hi; start++) {
        int maxlen = top_wild ? OKR_MIN(cap, hi - start + 1) : 3;
        for (int len = 3; len <= maxlen; len++) {
            unsigned window = ((1u << len) - 1) << start;
            if (len == 3 && !(nat & window))
                continue;
            if (popcount14(window & ~nat) > e->wilds)
                continue; /* more gaps than wild cards */
            if (len > 3 && !(nat & ((1u << start) | (1u << (start + len - 1)))))
                continue;
            if (top_pos_mask && !(top_pos_mask & (int)window))
                continue;
            sp.lo = (uint8_t)start;
            sp.n = (uint8_t)len;
            if (fill_run(e, &sp, 0, suit, 0, 0, 0))
                return;
        }
    }
}

static int enum_new(enum_ctx *e, const okr_rules *r, const uint8_t hand[OKR_KINDS], int top)
{
    e->r = r;
    e->hand = hand;
    e->top = top;
    memcpy(e->avail, hand, OKR_KINDS);
    memset(e->used, 0, sizeof e->used);
    if (top != OKR_NOCARD)
        e->avail[top]++;
    /* One pass over the pack: wild cards, naturals per rank, naturals per suit ladder. */
    e->wilds = e->avail[OKR_JOKER];
    memset(e->naturals, 0, sizeof e->naturals);
    for (int suit = 0; suit < 4; suit++) {
        unsigned m = 0;
        for (int rank = 1; rank <= 13; rank++) {
            int k = OKR_KIND(suit, rank);
            if (!e->avail[k])
                continue;
            if (rank == 2 && r->wild_twos) {
                e->wilds += e->avail[k];
                continue;
            }
            e->naturals[rank] = (uint8_t)(e->naturals[rank] + e->avail[k]);
            m |= rank == 1 ? (1u << 0) | (1u << 13) : 1u << (rank - 1);
        }
        e->natmask[suit] = m;
    }
    int top_natural = top != OKR_NOCARD && !okr__is_wild(r, top);
    for (int rank = 1; rank <= 13 && e->n >= 0; rank++)
        if (!top_natural || OKR_RANK(top) == rank)
            enum_sets(e, rank);
    for (int suit = 0; suit < 4 && e->n >= 0; suit++)
        enum_runs(e, suit);
    return e->n;
}

int okr__enum_new(const okr_rules *r, const uint8_t hand[OKR_KINDS], int top,
                  const okr_action *tmpl, okr_action *out, int n, int cap)
{
    enum_ctx e;
    e.tmpl = tmpl;
    e.out = out;
    e.specs = NULL;
    e.n = n;
    e.cap = cap;
    return enum_new(&e, r, hand, top);
}

int okr_find_melds(const okr_rules *r, const uint8_t hand[OKR_KINDS], okr_spec *out, int cap)
{
    if (r->family == OKR_FAMILY_GIN)
        return 0; /* gin melds: okr_gin_best */
    enum_ctx e;
    e.tmpl = NULL;
    e.out = NULL;
    e.specs = out;
    e.n = 0;
    e.cap = cap;
    return enum_new(&e, r, hand, OKR_NOCARD);
}

/* Append every way a hand card can join meld m (index mi), by card, then declaration and
 * end (low end first). Only the few kinds that can fit are looked at. */
int okr__enum_adds(const okr_rules *r, const okr_meld *m, int mi, const uint8_t *hand,
                   const okr_action *tmpl, okr_action *out, int n, int cap)
{
    int nat[4], nn = 0, cand[9];
    if (m->type == OKR_SET) {
        for (int s = 0; s < 4; s++)
            nat[nn++] = OKR_KIND(s, m->rank);
    } else {
        if (m->lo > 0)
            nat[nn++] = OKR_KIND(m->suit, OKR_POS_RANK(m->lo - 1));
        if (m->lo + m->n <= 13)
            nat[nn++] = OKR_KIND(m->suit, OKR_POS_RANK(m->lo + m->n));
        if (nn == 2 && nat[0] > nat[1]) {
            int t = nat[0];
            nat[0] = nat[1];
            nat[1] = t;
        }
        if (nn == 2 && nat[0] == nat[1])
            nn = 1; /* a 12-card run 2..K: the ace fits at both ends */
    }
    int nc = candidates(r, nat, nn, cand);
    for (int c = 0; c < nc && n >= 0; c++)
        if (hand[cand[c]])
            n = okr__enum_add_card(r, m, mi, cand[c], tmpl, out, n, cap);
    return n;
}

/* Append the additions of `card` to meld m (index mi) for every declaration and end. */
int okr__enum_add_card(const okr_rules *r, const okr_meld *m, int mi, int card,
                       const okr_action *tmpl, okr_action *out, int n, int cap)
{
    int cand_as[8], cand_pos[8], nc = 0;
    if (m->type == OKR_SET) {
        if (!okr__is_wild(r, card)) {
            cand_as[nc] = card, cand_pos[nc++] = 255;
        } else {
            int decl[4];
            int nd = set_declarations(r, card, m->rank, decl);
            for (int d = 0; d < nd; d++)
                cand_as[nc] = decl[d], cand_pos[nc++] = 255;
        }
    } else {
        int ends[2] = {m->lo - 1, m->lo + m->n};
        for (int i = 0; i < 2; i++) {
            if (ends[i] < 0 || ends[i] > 13)
                continue;
            int as = OKR_KIND(m->suit, OKR_POS_RANK(ends[i]));
            if (okr__is_wild(r, card) || card == as)
                cand_as[nc] = as, cand_pos[nc++] = ends[i];
        }
    }
    for (int i = 0; i < nc; i++) {
        if (okr__add_valid(r, m, card, cand_as[i], cand_pos[i], NULL) != OKR_OK)
            continue;
        if (n >= cap)
            return OKR_EOVERFLOW;
        okr_action *a = &out[n++];
        *a = *tmpl;
        a->meld = (uint8_t)mi;
        a->card = (uint8_t)card;
        a->as = (uint8_t)cand_as[i];
        a->pos = (uint8_t)cand_pos[i];
    }
    return n;
}
