/* test_properties.c - properties of the engine over many seeded uniform-random games.
 *
 * One sweep plays OKR_PROPERTY_GAMES games (default 25,000; 1,000 when OKR_SANITIZE=1; the
 * full sweep, 100,000 (4,000 under sanitizers), is ctest's test_properties_full, label
 * "nightly", which scripts/test.sh leaves out: `ctest -L nightly`)
 * spread over every preset and every legal table size (20 configurations: laws 2-4,
 * parlett 2-5, arlington 2-8 with decks=3 at 8, german 2-6, gin 2). At every decision the
 * next action is drawn uniformly from okr_legal's list. The sweep checks every property
 * below at every step (some on a sample of steps, said where) and records each violation
 * with the game, seed, preset, table size, hand and step; each property is then its own
 * cmocka test that reports its checks and fails on any violation.
 *
 * Length of a "game": to keep the sweep within ~10 minutes on one core at -O2, most games
 * are capped at 3 hands (option max_hands=3, RULES 7.7); one game in FULL_EVERY of each
 * configuration (every 25th round over the 20 configurations, 4% of the games) plays to
 * the real end (target or the default max_hands=200). Each game is identified by its index
 * i: configuration i % 20, seed SEED_BASE + i, full iff (i / 20) % 25 == 0. A reported
 * violation is reproduced with OKR_PROPERTY_FIRST=i OKR_PROPERTY_GAMES=1.
 * Measured (shared 2-core machine): 100,000 games, 62 M actions, 435 s CPU at -O2
 * (RelWithDebInfo); 2,000 games under ASan+UBSan (Debug), every step sampled, 106 s CPU.
 * About half of the -O2 time is okr_digest (recorded and replayed at every step).
 *
 * Sampled checks: every listed action is applied to a copy on every LISTED_EVERY-th step,
 * and one seat's view is checked on every VIEW_EVERY-th step (seats in turn); under
 * OKR_SANITIZE=1 both run on every step. Everything else runs on every step.
 *
 * Environment: OKR_PROPERTY_GAMES (number of games), OKR_PROPERTY_FIRST (index of the first
 * game, default 0), OKR_SANITIZE=1 (fewer games, and the per-step samples become every step).
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "okr/okr.h"

/* ---- Configuration ------------------------------------------------------------------- */

enum {
    DEFAULT_GAMES = 25000, /* the nightly sweep: OKR_PROPERTY_GAMES=100000 */
    SANITIZE_GAMES = 1000, /* every step sampled: 50 games of each configuration */
    FULL_EVERY = 25,       /* one round of the 20 configurations in 25 plays full games */
    CAPPED_HANDS = 3,      /* max_hands of the other games */
    LISTED_EVERY = 7,      /* apply every listed action on every 7th step (1 under ASan) */
    VIEW_EVERY = 3,        /* view checks on every 3rd step (1 under ASan) */
    GARBAGE_PER_STEP = 3,  /* random refused-or-accepted actions tried per step */
    MAX_EXAMPLES = 6       /* distinct examples kept per violated property */
};

#define SEED_BASE 0x0C0FFEE000ULL

typedef struct cfg {
    const char *preset;
    int players;
} cfg;

static const cfg cfgs[] = {
    {"laws", 2},      {"laws", 3},      {"laws", 4},      {"parlett", 2},   {"parlett", 3},
    {"parlett", 4},   {"parlett", 5},   {"arlington", 2}, {"arlington", 3}, {"arlington", 4},
    {"arlington", 5}, {"arlington", 6}, {"arlington", 7}, {"arlington", 8}, {"german", 2},
    {"german", 3},    {"german", 4},    {"german", 5},    {"german", 6},    {"gin", 2},
};
enum { N_CFGS = sizeof cfgs / sizeof cfgs[0] };

/* ---- Properties and their violations -------------------------------------------------- */

enum {
    P_CONSERVE,        /* RULES 1.3, 2.4: okr_check after every action and deal */
    P_HAND_ENDS,       /* RULES 4.9: every hand ends within max_turns turns */
    P_POTENTIAL,       /* RULES 4.9: the rummy potential falls every turn */
    P_REPLAY,          /* RULES 2.5: same seed + actions = same digests and result */
    P_VIEW,            /* RULES 8.3: a view holds no hidden card */
    P_REDACT,          /* RULES 8.3: a redacted event hides the drawn card */
    P_NONEMPTY,        /* non-terminal states have a legal action; terminal ones none */
    P_LISTED_OK,       /* every listed action is accepted */
    P_REFUSAL,         /* RULES 8.1: a refusal names a rule and changes nothing */
    P_ACCEPTED_LISTED, /* an accepted (random) action is in the legal list */
    P_DISTINCT,        /* no two listed actions are equal */
    P_NORMALISED,      /* listed actions are already normalised */
    P_ORDER,           /* listed actions are the acting seat's, by type in enum order */
    N_PROPS
};

typedef struct prop {
    const char *name;
    uint64_t checks, fails;
    int nex;
    int key[MAX_EXAMPLES];
    char ex[MAX_EXAMPLES][1400];
} prop;

static prop props[N_PROPS] = {
    [P_CONSERVE] = {.name = "card conservation after every action (RULES 1.3, 2.4)"},
    [P_HAND_ENDS] = {.name = "every hand ends within max_turns turns (RULES 4.9)"},
    [P_POTENTIAL] = {.name = "rummy potential strictly decreases every turn (RULES 4.9)"},
    [P_REPLAY] = {.name = "replay reproduces every digest and the result (RULES 2.5)"},
    [P_VIEW] = {.name = "views carry no hidden card (RULES 8.3)"},
    [P_REDACT] = {.name = "redacted events hide the drawn card (RULES 8.3)"},
    [P_NONEMPTY] = {.name = "every non-terminal state has a legal action"},
    [P_LISTED_OK] = {.name = "every listed action is accepted"},
    [P_REFUSAL] = {.name = "a refused action names a rule and leaves the game unchanged (8.1)"},
    [P_ACCEPTED_LISTED] = {.name = "an accepted random action is in the legal list"},
    [P_DISTINCT] = {.name = "listed actions are distinct"},
    [P_NORMALISED] = {.name = "listed actions are normalised, unused fields zero"},
    [P_ORDER] = {.name = "listed actions belong to the seat to act, in type order"},
};

/* Where the sweep is; every violation message starts with it. */
typedef struct where {
    long game;
    uint64_t seed;
    const cfg *c;
    int full;
    long step;
    int hand_no;
} where;

static void describe(const okr_action *a, char *buf, size_t cap)
{
    char text[256];
    if (okr_action_format(a, text, sizeof text) < 0)
        strcpy(text, "?");
    int n = snprintf(buf, cap, "[%s] type=%d seat=%d how=%d card=%d as=%d meld=%d pos=%d nmelds=%d",
                     text, a->type, a->seat, a->how, a->card, a->as, a->meld, a->pos, a->nmelds);
    if (n < 0 || (size_t)n >= cap)
        return;
    if (a->type == OKR_A_MELD || a->type == OKR_A_TAKE || a->type == OKR_A_CLAIM) {
        const okr_spec *s = &a->u.spec;
        n += snprintf(buf + n, cap - (size_t)n, " spec{type=%d n=%d lo=%d", s->type, s->n, s->lo);
        for (int i = 0; i < OKR_SPEC_CARDS && (size_t)n < cap; i++)
            n += snprintf(buf + n, cap - (size_t)n, " %d=%d", s->card[i], s->as[i]);
        if ((size_t)n < cap)
            snprintf(buf + n, cap - (size_t)n, "}");
    } else if (a->type == OKR_A_KNOCK) {
        for (int m = 0; m < OKR_GIN_MELDS && (size_t)n < cap; m++) {
            n += snprintf(buf + n, cap - (size_t)n, " |n=%d:", a->u.knock[m].n);
            for (int i = 0; i < 13 && (size_t)n < cap; i++)
                n += snprintf(buf + n, cap - (size_t)n, " %d", a->u.knock[m].card[i]);
        }
    }
}

/* Record a violation of property p. `key` groups examples (e.g. by action type): at most one
 * example per key is kept, MAX_EXAMPLES in all. */
static void violation(int p, const where *w, int key, const char *fmt, ...)
{
    prop *q = &props[p];
    q->fails++;
    for (int i = 0; i < q->nex; i++)
        if (q->key[i] == key)
            return;
    if (q->nex == MAX_EXAMPLES)
        return;
    char msg[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    q->key[q->nex] = key;
    snprintf(q->ex[q->nex], sizeof q->ex[0],
             "game %ld (seed %llu, %s, %d players, %s) hand %d step %ld "
             "[reproduce: OKR_PROPERTY_FIRST=%ld OKR_PROPERTY_GAMES=1]: %s",
             w->game, (unsigned long long)w->seed, w->c->preset, w->c->players,
             w->full ? "full game" : "capped game", w->hand_no, w->step, w->game, msg);
    q->nex++;
}

/* Would a violation of p with this key be kept as an example? (Saves formatting.) */
static int wants_example(int p, int key)
{
    const prop *q = &props[p];
    for (int i = 0; i < q->nex; i++)
        if (q->key[i] == key)
            return 0;
    return q->nex < MAX_EXAMPLES;
}

#define CHECK(p, w, key, cond, ...)                                                                \
    do {                                                                                           \
        props[p].checks++;                                                                         \
        if (!(cond))                                                                               \
            violation(p, w, key, __VA_ARGS__);                                                     \
    } while (0)

/* ---- Small helpers ------------------------------------------------------------------- */

static uint64_t xs_next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1DULL;
}

static int rnd(uint64_t *s, int n)
{
    return (int)(((xs_next(s) >> 32) * (uint64_t)n) >> 32);
}

static uint64_t xs_seed(uint64_t seed)
{
    uint64_t z = seed + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return z ? z : 1;
}

static long env_long(const char *name, long dflt)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return dflt;
    return strtol(v, NULL, 10);
}

static int sanitize_build(void)
{
    const char *v = getenv("OKR_SANITIZE");
    return v && strcmp(v, "1") == 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_action(const void *a, const void *b)
{
    return memcmp(a, b, sizeof(okr_action));
}

/* Wild cards, written from RULES 1.4 (not from the engine). */
static int is_wild(const okr_rules *r, int k)
{
    return k == OKR_JOKER || (r->wild_twos && k < OKR_JOKER && k % 13 == 1);
}

/* RULES 4.9: stock size + 2 x (natural cards not in melds) + (wild cards not in melds).
 * "Not in melds" is everywhere else: hands, pile and stock. (Counting only hands and pile
 * would rise by one on every plain draw of a natural, so the stock cards must count.)
 * Computed as stock size + weight of the whole pack - weight of the melded cards, which is
 * the same thing while cards are conserved (checked after every action). */
static int pack_weight(const okr_rules *r)
{
    int p = 0;
    for (int k = 0; k < OKR_KINDS; k++)
        p += (k == OKR_JOKER ? r->jokers : r->decks) * (is_wild(r, k) ? 1 : 2);
    return p;
}

static int potential(const okr_game *g, int weight)
{
    const okr_rules *r = &g->rules;
    int p = g->stock_n + weight;
    for (int m = 0; m < g->meld_n; m++)
        for (int i = 0; i < g->meld[m].n; i++)
            p -= is_wild(r, g->meld[m].card[i]) ? 1 : 2;
    return p;
}

/* Keep only the fields an action's type uses (okr.h: "fields the action type does not use
 * are zeroed"); everything else becomes zero. Written here from the header, not from the
 * engine: a spec uses card[0..n) and as[0..n); a knock uses knock[0..nmelds), each meld
 * card[0..n). */
static void used_fields_only(okr_action *a)
{
    okr_action c;
    memset(&c, 0, sizeof c);
    c.type = a->type;
    c.seat = a->seat;
    int spec = 0;
    switch (a->type) {
    case OKR_A_TAKE:
    case OKR_A_CLAIM:
        c.how = a->how;
        if (a->how == OKR_HOW_NEW) {
            spec = 1;
        } else {
            c.card = a->card;
            if (a->how == OKR_HOW_ADD || a->how == OKR_HOW_JOKER) {
                c.as = a->as;
                c.meld = a->meld;
            }
            if (a->how == OKR_HOW_ADD)
                c.pos = a->pos;
        }
        break;
    case OKR_A_MELD:
        spec = 1;
        break;
    case OKR_A_ADD:
        c.card = a->card;
        c.as = a->as;
        c.meld = a->meld;
        c.pos = a->pos;
        break;
    case OKR_A_REPLACE:
        c.card = a->card;
        c.as = a->as;
        c.meld = a->meld;
        break;
    case OKR_A_DISCARD:
        c.card = a->card;
        break;
    case OKR_A_KNOCK:
        c.card = a->card;
        c.nmelds = a->nmelds;
        for (int m = 0; m < a->nmelds && m < OKR_GIN_MELDS; m++) {
            c.u.knock[m].n = a->u.knock[m].n;
            for (int i = 0; i < a->u.knock[m].n && i < 13; i++)
                c.u.knock[m].card[i] = a->u.knock[m].card[i];
        }
        break;
    default:
        break;
    }
    if (spec) {
        c.u.spec.type = a->u.spec.type;
        c.u.spec.n = a->u.spec.n;
        c.u.spec.lo = a->u.spec.lo;
        for (int i = 0; i < a->u.spec.n && i < OKR_SPEC_CARDS; i++) {
            c.u.spec.card[i] = a->u.spec.card[i];
            c.u.spec.as[i] = a->u.spec.as[i];
        }
    }
    *a = c;
}

/* ---- Views (RULES 8.3) ----------------------------------------------------------------- */

static void check_view(const where *w, const okr_game *g, int seat, uint64_t *rng)
{
    okr_view v, v2;
    okr_view_of(g, seat, &v);
    int same = v.seat == seat && v.players == g->players && v.phase == g->phase &&
               v.dealer == g->dealer && v.turn_seat == g->turn_seat && v.to_act == g->to_act &&
               v.stock_n == g->stock_n && v.pile_n == g->pile_n && v.meld_n == g->meld_n &&
               v.stock_locked == g->stock_locked && v.upcard == g->upcard &&
               v.hand_no == g->hand_no && v.turns == g->turns;
    CHECK(P_VIEW, w, 1, same, "view of seat %d: a public field differs from the game", seat);
    CHECK(P_VIEW, w, 2, memcmp(v.hand, g->hand[seat], OKR_KINDS) == 0,
          "view of seat %d: hand differs from the seat's hand", seat);
    CHECK(P_VIEW, w, 3,
          memcmp(v.hand_n, g->hand_n, sizeof v.hand_n) == 0 &&
              memcmp(v.pile, g->pile, g->pile_n) == 0 &&
              memcmp(v.meld, g->meld, sizeof(okr_meld) * g->meld_n) == 0 &&
              memcmp(v.score, g->score, sizeof v.score) == 0 &&
              memcmp(v.concealed, g->concealed, sizeof v.concealed) == 0 &&
              memcmp(v.drew, g->drew, sizeof v.drew) == 0,
          "view of seat %d: hand sizes, pile, melds, scores or draws differ from the game", seat);

    /* Change what seat may not know: the other hands (same sizes), the stock order and the
     * seed. The view must not change by a single byte. */
    static okr_game h;
    memcpy(&h, g, sizeof h);
    uint8_t pool[OKR_MAX_CARDS];
    int np = 0;
    for (int s = 0; s < g->players; s++) {
        if (s == seat)
            continue;
        for (int k = 0; k < OKR_KINDS; k++)
            for (int c = 0; c < g->hand[s][k]; c++)
                pool[np++] = (uint8_t)k;
        memset(h.hand[s], 0, OKR_KINDS);
    }
    for (int i = 0; i < g->stock_n; i++)
        pool[np++] = g->stock[i];
    for (int i = np - 1; i > 0; i--) {
        int j = rnd(rng, i + 1);
        uint8_t t = pool[i];
        pool[i] = pool[j];
        pool[j] = t;
    }
    int q = 0;
    for (int s = 0; s < g->players; s++) {
        if (s == seat)
            continue;
        for (int c = 0; c < g->hand_n[s]; c++)
            h.hand[s][pool[q++]]++;
    }
    for (int i = 0; i < g->stock_n; i++)
        h.stock[i] = pool[q++];
    h.seed = xs_next(rng);
    CHECK(P_VIEW, w, 4, okr_check(&h) == OKR_OK && q == np,
          "test bug: the reshuffled copy breaks conservation");
    okr_view_of(&h, seat, &v2);
    CHECK(P_VIEW, w, 5, memcmp(&v, &v2, sizeof v) == 0,
          "view of seat %d changed when other hands / the stock order / the seed changed", seat);
}

/* RULES 8.3: only the drawer learns a card drawn from the stock; everything else in an event
 * is public. Also: the event agrees with the game (hand size, sequence number). */
static void check_event(const where *w, const okr_game *before, const okr_game *after,
                        const okr_action *a, const okr_event *e)
{
    for (int t = 0; t < after->players; t++) {
        okr_event r, want = *e;
        okr_event_redact(e, t, &r);
        if (e->type == OKR_A_DRAW && t != e->seat)
            want.card = OKR_NOCARD;
        CHECK(P_REDACT, w, 1, memcmp(&r, &want, sizeof r) == 0,
              "event type %d of seat %d redacted for seat %d: card %d (want %d)", e->type, e->seat,
              t, r.card, want.card);
    }
    CHECK(P_REDACT, w, 2,
          e->seat == a->seat && e->type == a->type && e->seq == after->seq &&
              e->hand_n == after->hand_n[e->seat],
          "event seat/type/seq/hand_n disagree with the action and the game");
    if (e->type == OKR_A_DRAW) {
        int drew = after->stock_n + 1 == before->stock_n;
        if (drew)
            CHECK(P_REDACT, w, 3,
                  e->card < OKR_KINDS &&
                      after->hand[e->seat][e->card] == before->hand[e->seat][e->card] + 1,
                  "draw event's card %d is not the card that reached the hand", e->card);
        else
            CHECK(P_REDACT, w, 4, e->card == OKR_NOCARD,
                  "a draw that drew nothing (claim window) shows card %d", e->card);
    }
}

/* ---- Random actions that the engine should mostly refuse ------------------------------ */

static int rcard(uint64_t *rng, const okr_game *g)
{
    const uint8_t *h = g->hand[g->to_act];
    switch (rnd(rng, 4)) {
    case 0: {
        int k = rnd(rng, OKR_KINDS);
        for (int i = 0; i < OKR_KINDS; i++, k = (k + 1) % OKR_KINDS)
            if (h[k])
                return k;
        return k;
    }
    case 1:
        return g->pile_n ? g->pile[g->pile_n - 1] : OKR_NOCARD;
    case 2:
        return rnd(rng, OKR_KINDS);
    default:
        return rnd(rng, 256);
    }
}

/* Mode 0: random bytes; 1: random fields; 2: a listed action with one field changed;
 * 3: a listed action with bytes its type does not use scribbled over. */
static int garbage(uint64_t *rng, const okr_game *g, const okr_action *list, int n, okr_action *a)
{
    int mode = rnd(rng, 4);
    if (n == 0 && mode >= 2)
        mode = 1;
    memset(a, 0, sizeof *a);
    if (mode == 0) {
        uint8_t *p = (uint8_t *)a;
        for (size_t i = 0; i < sizeof *a; i++)
            p[i] = (uint8_t)rnd(rng, 256);
        return mode;
    }
    if (mode == 1) {
        a->type = (uint8_t)rnd(rng, 11);
        a->seat = (uint8_t)(rnd(rng, 8) == 0 ? rnd(rng, 9) : g->to_act);
        a->how = (uint8_t)rnd(rng, 5);
        a->card = (uint8_t)rcard(rng, g);
        a->as = (uint8_t)rcard(rng, g);
        a->meld = (uint8_t)rnd(rng, g->meld_n + 2);
        a->pos = (uint8_t)(rnd(rng, 3) == 0 ? 255 : rnd(rng, 16));
        if (a->type == OKR_A_KNOCK) {
            a->nmelds = (uint8_t)rnd(rng, 5);
            for (int m = 0; m < a->nmelds; m++) {
                a->u.knock[m].n = (uint8_t)(3 + rnd(rng, 2));
                for (int i = 0; i < a->u.knock[m].n; i++)
                    a->u.knock[m].card[i] = (uint8_t)rcard(rng, g);
            }
        } else {
            okr_spec *s = &a->u.spec;
            s->type = (uint8_t)rnd(rng, 4);
            s->n = (uint8_t)(rnd(rng, 4) == 0 ? rnd(rng, 16) : 3 + rnd(rng, 2));
            s->lo = (uint8_t)rnd(rng, 15);
            for (int i = 0; i < s->n && i < OKR_SPEC_CARDS; i++) {
                s->card[i] = (uint8_t)rcard(rng, g);
                s->as[i] = rnd(rng, 2) ? s->card[i] : (uint8_t)rcard(rng, g);
            }
        }
        return mode;
    }
    *a = list[rnd(rng, n)];
    if (mode == 2) {
        okr_spec *s = &a->u.spec;
        okr_ginmeld *k = &a->u.knock[rnd(rng, OKR_GIN_MELDS)];
        switch (rnd(rng, 14)) {
        case 0:
            a->type = (uint8_t)rnd(rng, 11);
            break;
        case 1:
            a->seat = (uint8_t)rnd(rng, 9);
            break;
        case 2:
            a->how = (uint8_t)rnd(rng, 5);
            break;
        case 3:
            a->card = (uint8_t)rcard(rng, g);
            break;
        case 4:
            a->as = (uint8_t)rcard(rng, g);
            break;
        case 5:
            a->meld = (uint8_t)rnd(rng, g->meld_n + 2);
            break;
        case 6:
            a->pos = (uint8_t)(rnd(rng, 2) ? 255 : rnd(rng, 16));
            break;
        case 7:
            a->nmelds = (uint8_t)rnd(rng, 6);
            break;
        case 8:
            s->n = (uint8_t)rnd(rng, 16);
            break;
        case 9:
            s->lo = (uint8_t)rnd(rng, 15);
            break;
        case 10:
            s->card[rnd(rng, OKR_SPEC_CARDS)] = (uint8_t)rcard(rng, g);
            break;
        case 11:
            s->as[rnd(rng, OKR_SPEC_CARDS)] = (uint8_t)rcard(rng, g);
            break;
        case 12:
            k->card[rnd(rng, 13)] = (uint8_t)rnd(rng, 53);
            break;
        default:
            k->n = (uint8_t)rnd(rng, 14);
            break;
        }
        return mode;
    }
    /* mode 3: scribble what the type does not use */
    uint8_t junk = (uint8_t)(1 + rnd(rng, 255));
    switch (a->type) {
    case OKR_A_MELD:
    case OKR_A_TAKE:
    case OKR_A_CLAIM:
        if (a->type == OKR_A_MELD || a->how == OKR_HOW_NEW) {
            okr_spec *s = &a->u.spec;
            if (s->n < OKR_SPEC_CARDS && rnd(rng, 2))
                s->card[s->n + rnd(rng, OKR_SPEC_CARDS - s->n)] = junk;
            else if (s->n < OKR_SPEC_CARDS)
                s->as[s->n + rnd(rng, OKR_SPEC_CARDS - s->n)] = junk;
            else
                a->nmelds = junk;
        } else if (a->how == OKR_HOW_PLAIN) {
            if (rnd(rng, 2))
                a->as = junk;
            else
                a->meld = junk;
        } else {
            switch (rnd(rng, 3)) {
            case 0:
                a->u.spec.card[rnd(rng, OKR_SPEC_CARDS)] = junk;
                break;
            case 1:
                a->nmelds = junk;
                break;
            default:
                if (a->how == OKR_HOW_JOKER)
                    a->as = (uint8_t)rnd(rng, 52); /* as is not used by a Joker exchange */
                else
                    a->u.spec.type = junk;
                break;
            }
        }
        break;
    case OKR_A_KNOCK: {
        okr_ginmeld *k = &a->u.knock[rnd(rng, a->nmelds ? a->nmelds : 1)];
        if (a->nmelds && k->n < 13 && rnd(rng, 2))
            k->card[k->n + rnd(rng, 13 - k->n)] = junk;
        else if (a->nmelds < OKR_GIN_MELDS)
            a->u.knock[OKR_GIN_MELDS - 1].card[rnd(rng, 13)] = junk;
        else
            a->as = junk;
        break;
    }
    case OKR_A_ADD:
        if (rnd(rng, 2))
            a->u.spec.card[rnd(rng, OKR_SPEC_CARDS)] = junk;
        else
            a->how = junk;
        break;
    default: /* DRAW PASS DISCARD REPLACE */
        switch (rnd(rng, 4)) {
        case 0:
            a->how = junk;
            break;
        case 1:
            a->pos = junk;
            break;
        case 2:
            a->u.spec.card[rnd(rng, OKR_SPEC_CARDS)] = junk;
            break;
        default:
            a->nmelds = junk;
            break;
        }
        break;
    }
    return mode;
}

/* ---- The sweep ----------------------------------------------------------------------- */

static okr_action acts[OKR_MAX_ACTIONS];
static okr_action sorted[OKR_MAX_ACTIONS];

/* The record of one game, for the replay: ops[i].type == 0 is okr_next_hand. */
static okr_action *rec_op;
static okr_event *rec_ev;
static uint64_t *rec_dig;
static size_t rec_n, rec_cap;

static void rec_push(const okr_action *a, const okr_event *e, uint64_t d)
{
    if (rec_n == rec_cap) {
        rec_cap = rec_cap ? rec_cap * 2 : 4096;
        rec_op = realloc(rec_op, rec_cap * sizeof *rec_op);
        rec_ev = realloc(rec_ev, rec_cap * sizeof *rec_ev);
        rec_dig = realloc(rec_dig, rec_cap * sizeof *rec_dig);
        if (!rec_op || !rec_ev || !rec_dig)
            abort();
    }
    if (a)
        rec_op[rec_n] = *a;
    else
        memset(&rec_op[rec_n], 0, sizeof rec_op[0]);
    if (e)
        rec_ev[rec_n] = *e;
    else
        memset(&rec_ev[rec_n], 0, sizeof rec_ev[0]);
    rec_dig[rec_n] = d;
    rec_n++;
}

typedef struct totals {
    long games, full_games, hands, actions, listed_sweeps, replays;
    double seconds;
    int done;
} totals;
static totals tot;

static void rules_for(const cfg *c, int full, okr_rules *r)
{
    okr_refusal why;
    assert_int_equal(okr_rules_preset(r, c->preset, &why), OKR_OK);
    if (c->players == 8)
        assert_int_equal(okr_rules_set(r, "decks", "3", &why), OKR_OK); /* RULES 1.5 */
    if (!full) {
        char v[8];
        snprintf(v, sizeof v, "%d", CAPPED_HANDS);
        assert_int_equal(okr_rules_set(r, "max_hands", v, &why), OKR_OK);
    }
}

static int same_result(const okr_game *a, const okr_game *b)
{
    const okr_game_result *x = &a->result, *y = &b->result;
    const okr_hand_result *p = &a->last, *q = &b->last;
    return a->phase == b->phase && a->hand_no == b->hand_no &&
           memcmp(a->score, b->score, sizeof a->score) == 0 && x->winners == y->winners &&
           memcmp(x->score, y->score, sizeof x->score) == 0 &&
           memcmp(x->concealed, y->concealed, sizeof x->concealed) == 0 &&
           memcmp(x->winner_bonus, y->winner_bonus, sizeof x->winner_bonus) == 0 &&
           memcmp(x->final_total, y->final_total, sizeof x->final_total) == 0 &&
           memcmp(x->placement, y->placement, sizeof x->placement) == 0 &&
           memcmp(x->settlement, y->settlement, sizeof x->settlement) == 0 &&
           p->ended == q->ended && p->winner == q->winner && p->knocker == q->knocker &&
           memcmp(p->score, q->score, sizeof p->score) == 0 &&
           memcmp(p->total, q->total, sizeof p->total) == 0;
}

/* RULES 2.5: replay the recorded ops from the same seed. */
static void replay(where *w, const okr_rules *r, const okr_game *final)
{
    static okr_game g;
    okr_refusal why;
    tot.replays++;
    int rc = okr_game_init(&g, r, w->c->players, w->seed, NULL, 0, &why);
    CHECK(P_REPLAY, w, 1, rc == OKR_OK, "replay: okr_game_init failed");
    if (rc)
        return;
    w->step = 0;
    w->hand_no = 1;
    for (size_t i = 0; i < rec_n; i++) {
        okr_event e;
        memset(&e, 0, sizeof e);
        if (rec_op[i].type == 0) {
            rc = okr_next_hand(&g, NULL, 0, &why);
            w->hand_no = g.hand_no;
        } else {
            rc = okr_apply(&g, &rec_op[i], &e, &why);
            w->step++;
        }
        CHECK(P_REPLAY, w, 2, rc == OKR_OK, "replay: recorded op %zu refused (%s %s)", i, why.rule,
              why.reason);
        if (rc)
            return;
        CHECK(P_REPLAY, w, 3, okr_digest(&g) == rec_dig[i] && memcmp(&e, &rec_ev[i], sizeof e) == 0,
              "replay: digest or event differs after op %zu", i);
    }
    CHECK(P_REPLAY, w, 4, okr_digest(&g) == okr_digest(final) && same_result(&g, final),
          "replay: final digest or game result differs");
}

static void play_one(long i, int all_steps)
{
    static okr_game g, snap, tmp;
    const cfg *c = &cfgs[i % N_CFGS];
    int full = (i / N_CFGS) % FULL_EVERY == 0;
    okr_rules r;
    okr_refusal why;
    rules_for(c, full, &r);
    where w = {i, SEED_BASE + (uint64_t)i, c, full, 0, 1};
    uint64_t play_rng = xs_seed(w.seed), chk_rng = xs_seed(w.seed ^ 0xA5A5A5A5DEADBEEFULL);
    int rummy = r.family == OKR_FAMILY_RUMMY;
    const int weight = pack_weight(&r);

    assert_int_equal(okr_game_init(&g, &r, c->players, w.seed, NULL, 0, &why), OKR_OK);
    tot.games++;
    tot.full_games += full;
    rec_n = 0;
    CHECK(P_CONSERVE, &w, 1, okr_check(&g) == OKR_OK, "conservation broken by the deal");

    long hand_steps = 0;
    int pot_turn = -1; /* potential when the current turn began */
    const long hand_step_cap = 20L * r.max_turns + 1000;
    int abandoned = 0;

    for (;;) {
        if (g.phase == OKR_PH_GAME_OVER || g.phase == OKR_PH_HAND_OVER) {
            int n = okr_legal(&g, acts, OKR_MAX_ACTIONS);
            CHECK(P_NONEMPTY, &w, 2, n == 0, "okr_legal lists %d actions in phase %d", n, g.phase);
            tot.hands++;
            if (g.phase == OKR_PH_GAME_OVER)
                break;
            int rc = okr_next_hand(&g, NULL, 0, &why);
            CHECK(P_HAND_ENDS, &w, 9, rc == OKR_OK, "okr_next_hand refused: %s %s", why.rule,
                  why.reason);
            if (rc) {
                abandoned = 1;
                break;
            }
            w.hand_no = g.hand_no;
            hand_steps = 0;
            pot_turn = -1;
            rec_push(NULL, NULL, okr_digest(&g));
            CHECK(P_CONSERVE, &w, 1, okr_check(&g) == OKR_OK, "conservation broken by the deal");
            continue;
        }
        if (++hand_steps > hand_step_cap) {
            CHECK(P_HAND_ENDS, &w, 1, 0, "hand still running after %ld actions (turns %d)",
                  hand_steps, g.turns);
            abandoned = 1;
            break;
        }

        int n = okr_legal(&g, acts, OKR_MAX_ACTIONS);
        CHECK(P_NONEMPTY, &w, 1, n > 0, "no legal action in phase %d (okr_legal %d)", g.phase, n);
        if (n <= 0) {
            abandoned = 1;
            break;
        }

        /* Order, normal form, distinctness. */
        int ordered = 1, normal = 1;
        for (int k = 0; k < n; k++) {
            okr_action x = acts[k];
            okr_action_normalize(&g.rules, &x);
            if (memcmp(&x, &acts[k], sizeof x) != 0 && normal) {
                char d[520];
                describe(&acts[k], d, sizeof d);
                CHECK(P_NORMALISED, &w, acts[k].type, 0, "listed action %d not normalised: %s", k,
                      d);
                normal = 0;
            }
            x = acts[k];
            used_fields_only(&x);
            if (memcmp(&x, &acts[k], sizeof x) != 0 && normal) {
                char d[520];
                describe(&acts[k], d, sizeof d);
                CHECK(P_NORMALISED, &w, 100 + acts[k].type, 0,
                      "listed action %d has nonzero bytes in fields its type does not use: %s", k,
                      d);
                normal = 0;
            }
            if (acts[k].seat != g.to_act || (k && acts[k].type < acts[k - 1].type))
                ordered = 0;
        }
        props[P_NORMALISED].checks += (uint64_t)n;
        CHECK(P_ORDER, &w, 1, ordered, "list of %d: a seat other than %d, or types out of order", n,
              g.to_act);
        memcpy(sorted, acts, sizeof(okr_action) * (size_t)n);
        qsort(sorted, (size_t)n, sizeof(okr_action), cmp_action);
        int distinct = 1;
        for (int k = 1; k < n; k++)
            if (memcmp(&sorted[k - 1], &sorted[k], sizeof(okr_action)) == 0) {
                char d[520];
                describe(&sorted[k], d, sizeof d);
                CHECK(P_DISTINCT, &w, sorted[k].type, 0, "listed twice: %s", d);
                distinct = 0;
                break;
            }
        if (distinct)
            props[P_DISTINCT].checks++;

        /* Every listed action is accepted (on a sample of steps). */
        if (all_steps || w.step % LISTED_EVERY == 0) {
            tot.listed_sweeps++;
            for (int k = 0; k < n; k++) {
                memcpy(&tmp, &g, sizeof tmp);
                int rc = okr_apply(&tmp, &acts[k], NULL, &why);
                if (rc != OKR_OK) {
                    char d[520];
                    describe(&acts[k], d, sizeof d);
                    CHECK(P_LISTED_OK, &w, acts[k].type, 0, "listed action refused (%s %s): %s",
                          why.rule, why.reason, d);
                } else {
                    CHECK(P_LISTED_OK, &w, 100, okr_check(&tmp) == OKR_OK,
                          "listed action broke conservation");
                }
            }
        }

        /* Views: one seat per sampled step, every seat in turn. */
        if (all_steps || w.step % VIEW_EVERY == 0)
            check_view(&w, &g, (int)((w.step / (all_steps ? 1 : VIEW_EVERY)) % c->players),
                       &chk_rng);

        /* Random actions: a refusal names a rule and changes nothing; an acceptance is a
         * listed action. */
        memcpy(&snap, &g, sizeof snap);
        for (int t = 0; t < GARBAGE_PER_STEP; t++) {
            okr_action a, x;
            int mode = garbage(&chk_rng, &g, acts, n, &a);
            memset(&why, 0, sizeof why);
            int rc = okr_apply(&g, &a, NULL, &why);
            if (rc != OKR_OK) {
                CHECK(P_REFUSAL, &w, 1, rc == OKR_EILLEGAL, "refusal returned %d, not OKR_EILLEGAL",
                      rc);
                CHECK(P_REFUSAL, &w, 2,
                      why.rule[0] && memchr(why.rule, 0, sizeof why.rule) &&
                          memchr(why.reason, 0, sizeof why.reason),
                      "refusal without a rule number");
                CHECK(P_REFUSAL, &w, 3, memcmp(&g, &snap, sizeof g) == 0,
                      "a refused action (mode %d, type %d) changed the game", mode, a.type);
                continue;
            }
            x = a;
            okr_action_normalize(&g.rules, &x);
            int listed = bsearch(&x, sorted, (size_t)n, sizeof(okr_action), cmp_action) != NULL;
            if (!listed) {
                char d1[520] = "", d2[520] = "";
                if (wants_example(P_ACCEPTED_LISTED, a.type * 10 + mode)) {
                    describe(&a, d1, sizeof d1);
                    describe(&x, d2, sizeof d2);
                }
                CHECK(P_ACCEPTED_LISTED, &w, a.type * 10 + mode, 0,
                      "accepted but not listed (mode %d): %s; normalised: %s", mode, d1, d2);
            } else {
                props[P_ACCEPTED_LISTED].checks++;
            }
            memcpy(&g, &snap, sizeof g);
        }

        /* The move. */
        const okr_action *a = &acts[rnd(&play_rng, n)];
        int pot0 = rummy ? potential(&g, weight) : 0;
        int turns0 = g.turns;
        okr_event e;
        memcpy(&snap, &g, sizeof snap);
        int rc = okr_apply(&g, a, &e, &why);
        if (rc != OKR_OK) {
            char d[520];
            describe(a, d, sizeof d);
            CHECK(P_LISTED_OK, &w, a->type, 0, "chosen listed action refused (%s %s): %s", why.rule,
                  why.reason, d);
            abandoned = 1;
            break;
        }
        props[P_LISTED_OK].checks++;
        tot.actions++;
        w.step++;
        CHECK(P_CONSERVE, &w, 2, okr_check(&g) == OKR_OK, "conservation broken by action type %d",
              a->type);
        check_event(&w, &snap, &g, a, &e);
        rec_push(a, &e, okr_digest(&g));

        if (rummy) {
            int pot1 = potential(&g, weight);
            CHECK(P_POTENTIAL, &w, 1, pot1 <= pot0,
                  "action type %d raised the potential from %d to %d", a->type, pot0, pot1);
            if (g.turns != turns0) { /* a turn began with this action (6.3) */
                if (pot_turn >= 0)
                    CHECK(P_POTENTIAL, &w, 2, pot1 < pot_turn,
                          "potential %d at the start of turn %d, %d at the previous turn", pot1,
                          g.turns, pot_turn);
                pot_turn = pot1;
            }
        }
        int over = g.phase == OKR_PH_HAND_OVER || g.phase == OKR_PH_GAME_OVER;
        CHECK(P_HAND_ENDS, &w, 2, over == (e.ended != 0),
              "event 'ended' %d disagrees with phase %d", e.ended, g.phase);
        if (over) {
            CHECK(P_HAND_ENDS, &w, 3, g.turns <= r.max_turns, "hand ended after %d turns (cap %d)",
                  g.turns, r.max_turns);
            if (rummy)
                CHECK(P_HAND_ENDS, &w, 4, g.last.ended != OKR_END_CAP,
                      "a rummy hand reached the max_turns cap (%d turns)", g.turns);
        }
    }
    if (!abandoned)
        replay(&w, &r, &g);
}

static void ensure_sweep(void)
{
    if (tot.done)
        return;
    int san = sanitize_build();
    long games = env_long("OKR_PROPERTY_GAMES", san ? SANITIZE_GAMES : DEFAULT_GAMES);
    long first = env_long("OKR_PROPERTY_FIRST", 0);
    double t0 = now_s();
    for (long i = first; i < first + games; i++)
        play_one(i, san);
    tot.seconds = now_s() - t0;
    tot.done = 1;
    printf("[ sweep    ] %ld games (%ld full, the rest capped at %d hands) over %d "
           "configurations, %ld hands, %ld actions, %ld listed-action sweeps, %ld replays, "
           "%.1f s%s\n",
           tot.games, tot.full_games, CAPPED_HANDS, N_CFGS, tot.hands, tot.actions,
           tot.listed_sweeps, tot.replays, tot.seconds,
           san ? " (OKR_SANITIZE=1: every step sampled)" : "");
    fflush(stdout);
}

static void expect_property(int p)
{
    ensure_sweep();
    const prop *q = &props[p];
    printf("[ property ] %s: %llu checks, %llu violations\n", q->name,
           (unsigned long long)q->checks, (unsigned long long)q->fails);
    for (int i = 0; i < q->nex; i++)
        printf("[ violation] %s\n", q->ex[i]);
    fflush(stdout);
    if (q->checks == 0 && tot.games < N_CFGS)
        skip(); /* a few selected games (OKR_PROPERTY_FIRST/GAMES) may not exercise it */
    assert_true(q->checks > 0);
    assert_int_equal(q->fails, 0);
}

/* ---- Tests ----------------------------------------------------------------------------- */

/* RULES 1.3, 2.4: every card in exactly one place after every deal and every action. */
static void test_conservation_every_step_rules_1_3_2_4(void **state)
{
    (void)state;
    expect_property(P_CONSERVE);
}

/* RULES 4.9: every hand ends within max_turns turns; a rummy hand never hits the cap. */
static void test_every_hand_ends_rules_4_9(void **state)
{
    (void)state;
    expect_property(P_HAND_ENDS);
}

/* RULES 4.9: stock + 2 x naturals not in melds + wilds not in melds never rises and falls
 * from one turn to the next (rummy presets). */
static void test_potential_decreases_every_turn_rules_4_9(void **state)
{
    (void)state;
    expect_property(P_POTENTIAL);
}

/* RULES 2.5: same seed, rules and actions give the same game, digest by digest. */
static void test_replay_same_digests_rules_2_5(void **state)
{
    (void)state;
    expect_property(P_REPLAY);
}

/* RULES 8.3: a view is the own hand plus public facts; other hands, the stock order and the
 * seed do not show in it. */
static void test_view_hides_other_hands_and_stock_rules_8_3(void **state)
{
    (void)state;
    expect_property(P_VIEW);
}

/* RULES 8.3: okr_event_redact hides a stock draw from everyone but the drawer. */
static void test_event_redaction_hides_draw_rules_8_3(void **state)
{
    (void)state;
    expect_property(P_REDACT);
}

/* Every non-terminal state has a legal action (RULES 4.5 Decision: a discard always
 * exists); terminal states have none. */
static void test_nonterminal_state_has_legal_action(void **state)
{
    (void)state;
    expect_property(P_NONEMPTY);
}

/* okr_apply accepts every action okr_legal lists (and conservation holds after it). */
static void test_every_listed_action_accepted(void **state)
{
    (void)state;
    expect_property(P_LISTED_OK);
}

/* RULES 8.1: a refused action returns OKR_EILLEGAL, names a rule and leaves the game
 * byte-identical. */
static void test_refusal_leaves_game_unchanged_rules_8_1(void **state)
{
    (void)state;
    expect_property(P_REFUSAL);
}

/* Random actions the engine accepts are in the legal list after okr_action_normalize. */
static void test_accepted_random_action_is_listed(void **state)
{
    (void)state;
    expect_property(P_ACCEPTED_LISTED);
}

/* okr_legal never lists the same action twice (memcmp of the listed forms). */
static void test_listed_actions_distinct(void **state)
{
    (void)state;
    expect_property(P_DISTINCT);
}

/* okr_action_normalize leaves every listed action unchanged, and no listed action carries
 * bytes in fields its type does not use (okr.h, okr_action_normalize). */
static void test_listed_actions_normalised(void **state)
{
    (void)state;
    expect_property(P_NORMALISED);
}

/* Every listed action is the acting seat's, and the list is by type in OKR_A_* order (okr.h,
 * "Canonical order of a legal-action list"). */
static void test_listed_actions_seat_and_type_order(void **state)
{
    (void)state;
    expect_property(P_ORDER);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_conservation_every_step_rules_1_3_2_4),
        cmocka_unit_test(test_every_hand_ends_rules_4_9),
        cmocka_unit_test(test_potential_decreases_every_turn_rules_4_9),
        cmocka_unit_test(test_replay_same_digests_rules_2_5),
        cmocka_unit_test(test_view_hides_other_hands_and_stock_rules_8_3),
        cmocka_unit_test(test_event_redaction_hides_draw_rules_8_3),
        cmocka_unit_test(test_nonterminal_state_has_legal_action),
        cmocka_unit_test(test_every_listed_action_accepted),
        cmocka_unit_test(test_refusal_leaves_game_unchanged_rules_8_1),
        cmocka_unit_test(test_accepted_random_action_is_listed),
        cmocka_unit_test(test_listed_actions_distinct),
        cmocka_unit_test(test_listed_actions_normalised),
        cmocka_unit_test(test_listed_actions_seat_and_type_order),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    free(rec_op);
    free(rec_ev);
    free(rec_dig);
    return rc;
}
