/* play.c - who may do what now (okr_legal) and doing it (okr_apply): RULES 4-6, G3-G6.
 *
 * One validation path serves both: okr_apply refuses exactly what okr_legal does not list.
 * The list is in canonical order: by action type (the OKR_A_* order), then as documented
 * for each generator below and in docs/engine.md.
 * Pure: no I/O, no allocation. */
#include "internal.h"

#define QS OKR_KIND(3, 12)

static int is_gin(const okr_game *g)
{
    return g->rules.family == OKR_FAMILY_GIN;
}

static int top_card(const okr_game *g)
{
    return g->pile_n ? g->pile[g->pile_n - 1] : OKR_NOCARD;
}

static void tmpl(okr_action *t, int type, int seat, int how)
{
    memset(t, 0, sizeof *t);
    t->type = (uint8_t)type;
    t->seat = (uint8_t)seat;
    t->how = (uint8_t)how;
}

static int push(okr_action *out, int n, int cap, const okr_action *a)
{
    if (n < 0)
        return n;
    if (n >= cap)
        return OKR_EOVERFLOW;
    out[n] = *a;
    return n + 1;
}

/* Drop new-meld actions that would leave the hand empty (RULES 4.1). `after` is the hand
 * size after the action if the meld took no card from the hand (for a take: the hand plus
 * the pile below the top card). */
static int keep_a_card(okr_action *out, int from, int n, int after)
{
    if (n < 0)
        return n;
    int k = from;
    for (int i = from; i < n; i++) {
        int from_hand = out[i].u.spec.n - (out[i].type == OKR_A_MELD ? 0 : 1);
        if (after - from_hand >= 1)
            out[k++] = out[i];
    }
    return k;
}

/* RULES 4.5: may `seat` discard the Q of spades now? */
static int qs_allowed(const okr_game *g, int seat)
{
    int n = g->hand_n[seat];
    if (g->hand[seat][QS] == n)
        return 1; /* Decision: a hand of only Queens of Spades may always discard one */
    switch (g->rules.qs_discard) {
    case OKR_QS_ANY:
        return 1;
    case OKR_QS_OUT_OR_PAIR:
        return n == 1 || (n == 2 && g->hand[seat][QS] == 2);
    case OKR_QS_LAST_CARD:
        return n == 1;
    default:
        return 0;
    }
}

/* RULES 5.1: is there a melded 2 standing for `natural` in meld m (which never moves)? */
static int deuce_for(const okr_rules *r, const okr_meld *m, int natural)
{
    for (int i = 0; i < m->n; i++) /* in a set a 2 stands for the rank (meld.c) */
        if (m->card[i] != OKR_JOKER && okr__is_wild(r, m->card[i]) &&
            (m->type == OKR_SET ? OKR_RANK(m->as[i]) == OKR_RANK(natural) : m->as[i] == natural))
            return 1;
    return 0;
}

/* Joker of meld m standing for `natural`, or -1. */
static int joker_for(const okr_meld *m, int natural)
{
    for (int i = 0; i < m->n; i++)
        if (m->card[i] == OKR_JOKER && m->as[i] == natural)
            return i;
    return -1;
}

/* May `natural` take the place of a Joker in meld m (RULES 5.2)? A melded 2 standing for it
 * never moves (5.1), and the refusal says so. */
static int check_exchange(const okr_rules *r, const okr_meld *m, int natural, okr_refusal *why)
{
    if (joker_for(m, natural) >= 0)
        return OKR_OK;
    if (deuce_for(r, m, natural))
        return okr__refuse(why, "5.1", "a melded 2 never moves");
    return okr__refuse(why, "5.2", "no Joker in that meld stands for that natural");
}

/* ---- Generators --------------------------------------------------------------------- */

/* Pile or claim takes of the top card, 4.3: new melds (c), additions (a), Joker (b). */
static int gen_takes(const okr_game *g, int type, int seat, int allow_add, int allow_joker,
                     okr_action *out, int n, int cap)
{
    const okr_rules *r = &g->rules;
    int top = top_card(g);
    okr_action t;
    tmpl(&t, type, seat, OKR_HOW_NEW);
    int from = n;
    n = okr__enum_new(r, g->hand[seat], top, &t, out, n, cap);
    n = keep_a_card(out, from, n, g->hand_n[seat] + g->pile_n - 1);
    if (allow_add) {
        tmpl(&t, type, seat, OKR_HOW_ADD);
        for (int m = 0; m < g->meld_n && n >= 0; m++)
            if (g->meld[m].owner == seat)
                n = okr__enum_add_card(r, &g->meld[m], m, top, &t, out, n, cap);
    }
    if (allow_joker && g->rules.jokers && !okr__is_wild(r, top)) {
        tmpl(&t, type, seat, OKR_HOW_JOKER);
        for (int m = 0; m < g->meld_n && n >= 0; m++)
            if (g->meld[m].owner == seat && joker_for(&g->meld[m], top) >= 0) {
                t.meld = (uint8_t)m;
                t.card = (uint8_t)top;
                t.as = OKR_JOKER;
                n = push(out, n, cap, &t);
            }
    }
    return n;
}

/* Additions of hand cards to own melds (all, or only meld `only`), by meld then card. */
static int gen_adds(const okr_game *g, int seat, int only, okr_action *out, int n, int cap)
{
    okr_action t;
    tmpl(&t, OKR_A_ADD, seat, 0);
    for (int m = 0; m < g->meld_n && n >= 0; m++) {
        if (g->meld[m].owner != seat || (only >= 0 && m != only))
            continue;
        n = okr__enum_adds(&g->rules, &g->meld[m], m, g->hand[seat], &t, out, n, cap);
    }
    return n;
}

static int gen_play(const okr_game *g, int seat, okr_action *out, int n, int cap)
{
    okr_action t;
    const uint8_t *h = g->hand[seat];
    if (is_gin(g)) {
        tmpl(&t, OKR_A_DISCARD, seat, 0);
        for (int k = 0; k < OKR_KINDS && n >= 0; k++)
            if (h[k]) {
                t.card = (uint8_t)k;
                n = push(out, n, cap, &t);
            }
        return n < 0 ? n : okr__gin_knocks(g, out, n, cap);
    }
    if (g->hand_n[seat] >= 4) { /* RULES 4.1: a card must stay for the discard */
        tmpl(&t, OKR_A_MELD, seat, 0);
        n = okr__enum_new(&g->rules, h, OKR_NOCARD, &t, out, n, cap);
    }
    if (g->hand_n[seat] >= 2)
        n = gen_adds(g, seat, -1, out, n, cap);
    if (g->rules.jokers) {
        tmpl(&t, OKR_A_REPLACE, seat, 0);
        for (int m = 0; m < g->meld_n && n >= 0; m++) {
            const okr_meld *x = &g->meld[m];
            if (x->owner != seat)
                continue;
            for (int i = 0; i < x->n; i++)
                if (x->card[i] == OKR_JOKER && !okr__is_wild(&g->rules, x->as[i]) && h[x->as[i]]) {
                    t.meld = (uint8_t)m;
                    t.card = x->as[i];
                    t.as = OKR_JOKER;
                    n = push(out, n, cap, &t);
                }
        }
    }
    tmpl(&t, OKR_A_DISCARD, seat, 0);
    for (int k = 0; k < OKR_KINDS && n >= 0; k++)
        if (h[k] && (k != QS || qs_allowed(g, seat))) {
            t.card = (uint8_t)k;
            n = push(out, n, cap, &t);
        }
    return n;
}

static int gen_claims(const okr_game *g, int seat, okr_action *out, int n, int cap)
{
    return gen_takes(g, OKR_A_CLAIM, seat, g->rules.take_add, 0, out, n, cap);
}

int okr_legal(const okr_game *g, okr_action *out, int cap)
{
    int seat = g->to_act, n = 0;
    okr_action t;
    switch (g->phase) {
    case OKR_PH_UPCARD: /* RULES 6.1: only to make a new meld, 4.3(c) */
        n = gen_takes(g, OKR_A_TAKE, seat, 0, 0, out, n, cap);
        tmpl(&t, OKR_A_PASS, seat, 0);
        return push(out, n, cap, &t);
    case OKR_PH_GIN_UPCARD: /* G3 */
        tmpl(&t, OKR_A_TAKE, seat, OKR_HOW_PLAIN);
        t.card = (uint8_t)top_card(g);
        n = push(out, n, cap, &t);
        tmpl(&t, OKR_A_PASS, seat, 0);
        return push(out, n, cap, &t);
    case OKR_PH_DRAW:
        tmpl(&t, OKR_A_DRAW, seat, 0);
        if (g->stock_n)
            n = push(out, n, cap, &t);
        if (g->stock_locked || !g->pile_n)
            return n;
        if (is_gin(g)) { /* G4: the top discard only */
            tmpl(&t, OKR_A_TAKE, seat, OKR_HOW_PLAIN);
            t.card = (uint8_t)top_card(g);
            return push(out, n, cap, &t);
        }
        return gen_takes(g, OKR_A_TAKE, seat, g->rules.take_add, g->rules.take_joker, out, n, cap);
    case OKR_PH_CLAIM:
        n = gen_claims(g, seat, out, n, cap);
        tmpl(&t, OKR_A_PASS, seat, 0);
        return push(out, n, cap, &t);
    case OKR_PH_CLAIM_MELD:
        if (g->hand_n[seat] + g->pile_n >= 2)
            n = gen_adds(g, seat, g->claim_meld, out, n, cap);
        tmpl(&t, OKR_A_PASS, seat, 0);
        return push(out, n, cap, &t);
    case OKR_PH_PLAY:
        return gen_play(g, seat, out, n, cap);
    default:
        return 0;
    }
}

/* ---- Validation --------------------------------------------------------------------- */

static const char *phase_rule(const okr_game *g)
{
    switch (g->phase) {
    case OKR_PH_UPCARD:
        return "6.1";
    case OKR_PH_GIN_UPCARD:
        return "G3";
    case OKR_PH_DRAW:
        return is_gin(g) ? "G4" : "4.2";
    case OKR_PH_CLAIM:
    case OKR_PH_CLAIM_MELD:
        return "6.G";
    case OKR_PH_PLAY:
        return is_gin(g) ? "G4" : "4.1";
    default:
        return "4.6";
    }
}

/* Cards of a new meld must come from the hand, plus the top card once if top is given. */
static int spec_in_hand(const okr_game *g, int seat, const okr_spec *s, int top, okr_refusal *why)
{
    uint8_t need[OKR_KINDS] = {0};
    for (int i = 0; i < s->n; i++)
        need[s->card[i]]++;
    if (top != OKR_NOCARD) {
        if (!need[top])
            return okr__refuse(why, "4.3", "the meld must hold the top card of the pile");
        need[top]--;
    }
    for (int k = 0; k < OKR_KINDS; k++)
        if (need[k] > g->hand[seat][k])
            return okr__refuse(why, "4.4", "a card of the meld is not in the hand");
    return OKR_OK;
}

static int check_spec(const okr_game *g, int seat, const okr_action *a, int top, okr_refusal *why)
{
    const okr_spec *s = &a->u.spec;
    int rc = okr__spec_valid(&g->rules, s, why);
    if (rc)
        return rc;
    if (!okr__spec_minimal(&g->rules, s, top))
        return okr__refuse(why, OKR_RULE_THREE_CARDS,
                           "new melds are laid three cards at a time (docs/rules.md decision "
                           "(a)): lay three, then add the rest one by one");
    rc = spec_in_hand(g, seat, s, top, why);
    if (rc)
        return rc;
    int from_hand = s->n - (top != OKR_NOCARD);
    int rest = top != OKR_NOCARD ? g->pile_n - 1 : 0;
    if (g->hand_n[seat] - from_hand + rest < 1)
        return okr__refuse(why, "4.1", "a card must be left to discard");
    return OKR_OK;
}

static int check_add(const okr_game *g, int seat, int card, const okr_action *a, okr_refusal *why)
{
    if (a->meld >= g->meld_n)
        return okr__refuse(why, "3.8", "no such meld");
    if (g->meld[a->meld].owner != seat)
        return okr__refuse(why, "3.8", "cards are added only to one's own melds");
    return okr__add_valid(&g->rules, &g->meld[a->meld], card, a->as, a->pos, why);
}

/* TAKE or CLAIM of the top card (4.3). */
static int check_take(const okr_game *g, int seat, const okr_action *a, int allow_add,
                      int allow_joker, okr_refusal *why)
{
    const okr_rules *r = &g->rules;
    int top = top_card(g);
    if (top == OKR_NOCARD)
        return okr__refuse(why, "4.3", "the pile is empty");
    switch (a->how) {
    case OKR_HOW_NEW:
        return check_spec(g, seat, a, top, why);
    case OKR_HOW_ADD:
        if (!allow_add)
            return okr__refuse(why, "4.3", "here the top card must make a new meld, 4.3(c)");
        if (a->card != top)
            return okr__refuse(why, "4.3", "the card melded must be the top of the pile");
        return check_add(g, seat, top, a, why);
    case OKR_HOW_JOKER:
        if (!allow_joker || !r->jokers)
            return okr__refuse(why, "4.3", "the pile cannot be taken by a Joker exchange here");
        if (a->card != top || okr__is_wild(r, top))
            return okr__refuse(why, "5.2", "the top card must be the natural the Joker stands for");
        if (a->meld >= g->meld_n || g->meld[a->meld].owner != seat)
            return okr__refuse(why, "5.3", "only one's own Joker may be exchanged");
        return check_exchange(r, &g->meld[a->meld], top, why);
    default:
        return okr__refuse(why, "4.3", "the top card must be melded at once");
    }
}

static int check(const okr_game *g, const okr_action *a, okr_refusal *why)
{
    const okr_rules *r = &g->rules;
    int seat = a->seat, ph = g->phase;
    if (ph == OKR_PH_HAND_OVER || ph == OKR_PH_GAME_OVER)
        return okr__refuse(why, ph == OKR_PH_GAME_OVER ? "7.4" : "4.6", "the hand is over");
    if (seat != g->to_act)
        return okr__refuse(why, "4.8", "it is not this seat's turn to act");
    const char *rule = phase_rule(g);
    switch (a->type) {
    case OKR_A_DRAW:
        if (ph != OKR_PH_DRAW)
            return okr__refuse(why, rule, "no draw now");
        if (!g->stock_n)
            return okr__refuse(why, "4.7", "the stock is empty");
        return OKR_OK;
    case OKR_A_TAKE:
        if (ph == OKR_PH_DRAW && g->stock_locked)
            return okr__refuse(why,
                               is_gin(g)   ? "G3"
                               : r->claims ? "6.G"
                                           : "6.1",
                               "this turn must draw from the stock");
        if (is_gin(g)) {
            if (ph != OKR_PH_DRAW && ph != OKR_PH_GIN_UPCARD)
                return okr__refuse(why, rule, "no take now");
            if (a->how != OKR_HOW_PLAIN || a->card != top_card(g))
                return okr__refuse(why, "G4", "take the top discard, one card");
            return OKR_OK;
        }
        if (ph == OKR_PH_UPCARD)
            return a->how == OKR_HOW_NEW
                       ? check_take(g, seat, a, 0, 0, why)
                       : okr__refuse(why, "6.1", "the upcard is taken only to make a new meld");
        if (ph != OKR_PH_DRAW)
            return okr__refuse(why, rule, "no take now");
        return check_take(g, seat, a, r->take_add, r->take_joker, why);
    case OKR_A_MELD:
        if (ph != OKR_PH_PLAY || is_gin(g))
            return okr__refuse(why, is_gin(g) ? "G4" : rule, "no meld now");
        return check_spec(g, seat, a, OKR_NOCARD, why);
    case OKR_A_ADD: {
        if (is_gin(g) || (ph != OKR_PH_PLAY && ph != OKR_PH_CLAIM_MELD))
            return okr__refuse(why, is_gin(g) ? "G4" : rule, "no addition now");
        if (ph == OKR_PH_CLAIM_MELD && a->meld != g->claim_meld)
            return okr__refuse(why, "6.G", "the claimant makes no other meld");
        if (a->card >= OKR_KINDS || !g->hand[seat][a->card])
            return okr__refuse(why, "4.4", "the card is not in the hand");
        int rest = ph == OKR_PH_CLAIM_MELD ? g->pile_n : 0;
        if (g->hand_n[seat] - 1 + rest < 1)
            return okr__refuse(why, "4.1", "a card must be left to discard");
        return check_add(g, seat, a->card, a, why);
    }
    case OKR_A_REPLACE: {
        if (ph != OKR_PH_PLAY || !r->jokers)
            return okr__refuse(why, ph != OKR_PH_PLAY ? rule : "5.2", "no Joker exchange now");
        if (a->meld >= g->meld_n || g->meld[a->meld].owner != seat)
            return okr__refuse(why, "5.3", "only one's own Joker may be exchanged");
        if (a->card >= OKR_JOKER || okr__is_wild(r, a->card))
            return okr__refuse(why, "5.2", "only a natural card takes a Joker's place");
        int rc = check_exchange(r, &g->meld[a->meld], a->card, why);
        if (rc)
            return rc;
        if (!g->hand[seat][a->card])
            return okr__refuse(why, "5.2", "the natural card is not in the hand");
        return OKR_OK;
    }
    case OKR_A_DISCARD:
        if (ph != OKR_PH_PLAY)
            return okr__refuse(why, rule, "no discard now");
        if (a->card >= OKR_KINDS || !g->hand[seat][a->card])
            return okr__refuse(why, is_gin(g) ? "G4" : "4.5", "the card is not in the hand");
        if (!is_gin(g) && a->card == QS && !qs_allowed(g, seat))
            return okr__refuse(why, "4.5", "the Q of spades may not be discarded now");
        return OKR_OK;
    case OKR_A_CLAIM:
        if (ph != OKR_PH_CLAIM)
            return okr__refuse(why, "4.8", "claims only in the claim window (german)");
        if (a->how == OKR_HOW_JOKER)
            return okr__refuse(why, "6.G", "a claim melds by 4.3(a) or (c)");
        return check_take(g, seat, a, r->take_add, 0, why);
    case OKR_A_KNOCK:
        if (!is_gin(g) || ph != OKR_PH_PLAY)
            return okr__refuse(why, is_gin(g) ? rule : "4.1", "no knock now");
        return okr__gin_knock_check(g, a, why);
    case OKR_A_PASS:
        if (ph != OKR_PH_UPCARD && ph != OKR_PH_GIN_UPCARD && ph != OKR_PH_CLAIM &&
            ph != OKR_PH_CLAIM_MELD)
            return okr__refuse(why, rule, "nothing to pass on now");
        return OKR_OK;
    default:
        return okr__refuse(why, "8.1", "unknown action type");
    }
}

/* ---- Mutation ------------------------------------------------------------------------ */

static void hand_take(okr_game *g, int seat, int k)
{
    g->hand[seat][k]--;
    g->hand_n[seat]--;
}

static void hand_give(okr_game *g, int seat, int k)
{
    g->hand[seat][k]++;
    g->hand_n[seat]++;
}

/* RULES 6.3, 7.3: a turn begins when the seat draws or takes. */
static void turn_start(okr_game *g, int seat)
{
    g->turns++;
    if (g->drew[seat] < 2)
        g->drew[seat]++;
    int has = 0;
    for (int m = 0; m < g->meld_n; m++)
        has |= g->meld[m].owner == seat;
    g->melded_before[seat] = (uint8_t)has;
    g->turn_seat = (uint8_t)seat;
}

/* The rest of the pile goes into the hand (4.3). Returns the number of cards. */
static int pile_to_hand(okr_game *g, int seat)
{
    int n = g->pile_n;
    for (int i = 0; i < n; i++)
        hand_give(g, seat, g->pile[i]);
    g->pile_n = 0;
    return n;
}

/* Lay a new meld; cards come from the hand except one copy of `top`. */
static int lay(okr_game *g, int seat, const okr_spec *s, int top)
{
    okr_spec c = *s;
    okr__spec_canonical(&c);
    okr_meld *m = &g->meld[g->meld_n];
    memset(m, 0, sizeof *m);
    m->owner = (uint8_t)seat;
    m->type = c.type;
    m->n = c.n;
    m->lo = c.lo;
    if (c.type == OKR_SET)
        m->rank = (uint8_t)OKR_RANK(c.as[0]);
    else
        m->suit = (uint8_t)OKR_SUIT(c.as[0]);
    for (int i = 0; i < c.n; i++) {
        m->card[i] = c.card[i];
        m->as[i] = c.as[i];
        if (c.card[i] == top)
            top = OKR_NOCARD; /* this one came from the pile */
        else
            hand_take(g, seat, c.card[i]);
    }
    return g->meld_n++;
}

static void join(okr_game *g, int mi, int card, int as, int pos)
{
    okr_meld *m = &g->meld[mi];
    if (m->type == OKR_RUN && pos < m->lo) {
        memmove(m->card + 1, m->card, m->n);
        memmove(m->as + 1, m->as, m->n);
        m->card[0] = (uint8_t)card;
        m->as[0] = (uint8_t)as;
        m->lo--;
    } else {
        m->card[m->n] = (uint8_t)card;
        m->as[m->n] = (uint8_t)as;
    }
    m->n++;
}

/* The top card melded by a take or claim, 4.3(a)-(c). Returns the meld index. */
static int meld_top(okr_game *g, int seat, const okr_action *a)
{
    int top = g->pile[--g->pile_n];
    if (a->how == OKR_HOW_NEW)
        return lay(g, seat, &a->u.spec, top);
    if (a->how == OKR_HOW_ADD) {
        join(g, a->meld, top, a->as, a->pos);
        return a->meld;
    }
    okr_meld *m = &g->meld[a->meld]; /* 4.3(b): the natural takes the Joker's place */
    m->card[joker_for(m, top)] = (uint8_t)top;
    hand_give(g, seat, OKR_JOKER);
    return a->meld;
}

/* Seat with a claim on the top card after `after`, before the player in turn; or -1. */
static int next_claimant(const okr_game *g, int after)
{
    okr_action buf[16];
    for (int s = (after + 1) % g->players; s != g->turn_seat; s = (s + 1) % g->players) {
        if (s == g->discarder)
            continue;
        int n = gen_claims(g, s, buf, 0, 16);
        if (n != 0)
            return s; /* RULES 6.G: a player with no legal claim is not asked */
    }
    return -1;
}

/* The claim window is closed: the player in turn now draws from the stock (6.G). */
static void claims_closed(okr_game *g)
{
    g->claim_meld = 255;
    g->phase = OKR_PH_DRAW;
    g->to_act = g->turn_seat;
    g->stock_locked = 1;
}

static void next_turn(okr_game *g, int seat)
{
    g->turn_seat = g->to_act = (uint8_t)((seat + 1) % g->players);
    g->phase = OKR_PH_DRAW;
    g->stock_locked = 0;
}

static int after_discard(okr_game *g, int seat)
{
    const okr_rules *r = &g->rules;
    g->discarder = (uint8_t)seat;
    if (is_gin(g)) {
        if (g->stock_n <= 2 || g->turns >= r->max_turns) { /* G6, 4.9 */
            okr__end_gin_hand(g, OKR_END_DRAWN, -1, NULL);
            return OKR_END_DRAWN;
        }
    } else if (g->stock_n == 0) { /* RULES 4.7, even if the hand is empty */
        okr__end_rummy_hand(g, OKR_END_STOCK, -1);
        return OKR_END_STOCK;
    } else if (g->hand_n[seat] == 0) { /* RULES 4.6 */
        okr__end_rummy_hand(g, OKR_END_OUT, seat);
        return OKR_END_OUT;
    } else if (g->turns >= r->max_turns) { /* RULES 4.9 */
        okr__end_rummy_hand(g, OKR_END_CAP, -1);
        return OKR_END_CAP;
    }
    next_turn(g, seat);
    return OKR_END_NONE;
}

static void draw_card(okr_game *g, int seat, okr_event *e)
{
    int k;
    if (g->rules.stock == OKR_STOCK_STREAMS) { /* the seat's own stream (docs/rules.md) */
        int i = okr__streams_next(g, seat), s = 0;
        for (int b = g->stream_n[0]; b <= i; b += g->stream_n[++s])
            ;
        k = g->stock[i];
        memmove(g->stock + i, g->stock + i + 1, (size_t)(g->stock_n - 1 - i));
        g->stream_n[s]--;
        g->stock_n--;
    } else {
        k = g->stock[--g->stock_n];
    }
    hand_give(g, seat, k);
    turn_start(g, seat);
    g->phase = OKR_PH_PLAY;
    g->stock_locked = 0;
    e->card = (uint8_t)k;
}

static void mutate(okr_game *g, const okr_action *a, okr_event *e)
{
    int seat = a->seat;
    e->card = OKR_NOCARD;
    e->meld = 255;
    switch (a->type) {
    case OKR_A_DRAW:
        if (g->rules.claims && !g->stock_locked && g->pile_n) {
            int c = next_claimant(g, seat);
            if (c >= 0) { /* RULES 6.G: others may claim before the draw */
                g->phase = OKR_PH_CLAIM;
                g->to_act = (uint8_t)c;
                break;
            }
        }
        draw_card(g, seat, e);
        break;
    case OKR_A_TAKE:
        e->card = (uint8_t)top_card(g);
        turn_start(g, seat);
        g->phase = OKR_PH_PLAY;
        g->stock_locked = 0;
        if (a->how == OKR_HOW_PLAIN) { /* gin: one card */
            hand_give(g, seat, g->pile[--g->pile_n]);
            e->taken = 1;
            break;
        }
        e->meld = (uint8_t)meld_top(g, seat, a);
        e->taken = (uint8_t)pile_to_hand(g, seat);
        break;
    case OKR_A_MELD:
        e->meld = (uint8_t)lay(g, seat, &a->u.spec, OKR_NOCARD);
        break;
    case OKR_A_ADD:
        hand_take(g, seat, a->card);
        join(g, a->meld, a->card, a->as, a->pos);
        e->card = a->card;
        e->meld = a->meld;
        break;
    case OKR_A_REPLACE: {
        okr_meld *m = &g->meld[a->meld]; /* RULES 5.2 */
        m->card[joker_for(m, a->card)] = a->card;
        hand_take(g, seat, a->card);
        hand_give(g, seat, OKR_JOKER);
        e->card = a->card;
        e->meld = a->meld;
        break;
    }
    case OKR_A_DISCARD:
    case OKR_A_KNOCK:
        hand_take(g, seat, a->card);
        g->pile[g->pile_n++] = a->card;
        e->card = a->card;
        if (a->type == OKR_A_KNOCK) {
            g->discarder = (uint8_t)seat;
            okr__end_gin_hand(g, OKR_END_KNOCK, seat, a);
            e->ended = g->last.ended;
        } else {
            e->ended = (uint8_t)after_discard(g, seat);
        }
        break;
    case OKR_A_CLAIM:
        e->card = (uint8_t)top_card(g);
        e->meld = (uint8_t)meld_top(g, seat, a);
        if (a->how == OKR_HOW_NEW) { /* the claimant may still lengthen this meld */
            g->phase = OKR_PH_CLAIM_MELD;
            g->claim_meld = e->meld;
        } else {
            e->taken = (uint8_t)pile_to_hand(g, seat);
            claims_closed(g);
        }
        break;
    case OKR_A_PASS:
        if (g->phase == OKR_PH_UPCARD || g->phase == OKR_PH_GIN_UPCARD) {
            g->upcard_passes++;
            int all = g->phase == OKR_PH_GIN_UPCARD ? 2 : g->players;
            if (g->upcard_passes >= all) { /* 6.1, G3: left of the dealer draws */
                g->phase = OKR_PH_DRAW;
                g->turn_seat = g->to_act = (uint8_t)((g->dealer + 1) % g->players);
                g->stock_locked = 1;
            } else {
                g->to_act = (uint8_t)((g->to_act + 1) % g->players);
            }
        } else if (g->phase == OKR_PH_CLAIM) {
            int c = next_claimant(g, seat);
            if (c >= 0)
                g->to_act = (uint8_t)c;
            else
                claims_closed(g);
        } else { /* OKR_PH_CLAIM_MELD: done; the pile joins the claimant's hand */
            e->taken = (uint8_t)pile_to_hand(g, seat);
            claims_closed(g);
        }
        break;
    default:
        break;
    }
    e->hand_n = g->hand_n[seat];
}

/* Order of gin melds: card lists compared lexicographically, a proper prefix first. */
static int ginmeld_cmp(const okr_ginmeld *x, const okr_ginmeld *y)
{
    for (int i = 0; i < x->n && i < y->n; i++)
        if (x->card[i] != y->card[i])
            return x->card[i] < y->card[i] ? -1 : 1;
    return x->n - y->n;
}

/* A knock as okr_legal lists it (gin.c): each meld's cards ascending, unused bytes zero,
 * melds in ginmeld_cmp order. Over-long melds are left for G5 to refuse. */
static void knock_canonical(okr_action *a)
{
    for (int i = 0; i < a->nmelds; i++) {
        okr_ginmeld *m = &a->u.knock[i];
        if (m->n > sizeof m->card)
            return;
        memset(m->card + m->n, 0, sizeof m->card - m->n);
        for (int j = 1; j < m->n; j++)
            for (int k = j; k > 0 && m->card[k - 1] > m->card[k]; k--) {
                uint8_t t = m->card[k];
                m->card[k] = m->card[k - 1];
                m->card[k - 1] = t;
            }
    }
    for (int i = 1; i < a->nmelds; i++)
        for (int k = i; k > 0 && ginmeld_cmp(&a->u.knock[k - 1], &a->u.knock[k]) > 0; k--) {
            okr_ginmeld t = a->u.knock[k];
            a->u.knock[k] = a->u.knock[k - 1];
            a->u.knock[k - 1] = t;
        }
}

void okr_action_normalize(const okr_rules *r, okr_action *a)
{
    okr_action c;
    memset(&c, 0, sizeof c);
    c.type = a->type;
    c.seat = a->seat;
    switch (a->type) {
    case OKR_A_TAKE:
    case OKR_A_CLAIM:
        c.how = a->how;
        if (a->how == OKR_HOW_NEW) {
            c.u.spec = a->u.spec;
            okr__spec_normalize(r, &c.u.spec);
            break;
        }
        c.card = a->card;
        if (a->how == OKR_HOW_ADD) {
            c.meld = a->meld;
            c.pos = a->pos;
            c.as = (uint8_t)(a->pos == 255 ? okr__normalize_decl(r, a->card, a->as) : a->as);
        } else if (a->how == OKR_HOW_JOKER) {
            c.meld = a->meld;
            c.as = OKR_JOKER;
        }
        break;
    case OKR_A_MELD:
        c.u.spec = a->u.spec;
        okr__spec_normalize(r, &c.u.spec);
        break;
    case OKR_A_ADD:
        c.card = a->card;
        c.as = (uint8_t)(a->pos == 255 ? okr__normalize_decl(r, a->card, a->as) : a->as);
        c.meld = a->meld;
        c.pos = a->pos;
        break;
    case OKR_A_REPLACE:
        c.card = a->card;
        c.as = OKR_JOKER;
        c.meld = a->meld;
        break;
    case OKR_A_DISCARD:
        c.card = a->card;
        break;
    case OKR_A_KNOCK:
        c.card = a->card;
        c.nmelds = a->nmelds;
        for (int i = 0; i < a->nmelds && i < OKR_GIN_MELDS; i++)
            c.u.knock[i] = a->u.knock[i];
        if (a->nmelds <= OKR_GIN_MELDS)
            knock_canonical(&c);
        break;
    default:
        break;
    }
    *a = c;
}

int okr_apply(okr_game *g, const okr_action *in, okr_event *ev, okr_refusal *why)
{
    okr_action copy = *in;
    okr_action_normalize(&g->rules, &copy);
    const okr_action *a = &copy;
    int rc = check(g, a, why);
    if (rc)
        return rc;
    okr_event e;
    memset(&e, 0, sizeof e);
    e.seat = a->seat;
    e.type = a->type;
    e.how = a->how;
    mutate(g, a, &e);
    e.seq = ++g->seq;
    if (ev)
        *ev = e;
    return OKR_OK;
}
