/* test_completeness.c - nothing legal is missing from okr_legal.
 *
 * States are sampled from uniform-random games of every preset and table size. At each
 * sampled state a brute force, written here from the rule book and independent of the
 * engine's generators, builds a large superset of candidate actions for the seat to act and
 * applies each one to a copy of the game:
 *   - DRAW, PASS, and DISCARD of every kind 0..52 (and 53, 255), from every seat;
 *   - ADD, and TAKE / CLAIM by 4.3(a), to every meld index (and one past the last), with
 *     every card 0..52, at every position 0..13 and 255, declaring every kind of the rank
 *     that position or set needs (all four suits) and the card itself;
 *   - TAKE / CLAIM by 4.3(b) (Joker exchange) and REPLACE: every meld, every card, several
 *     `as`; TAKE / CLAIM plain (gin) with every card; TAKE / CLAIM with a bad `how`;
 *   - MELD and TAKE / CLAIM by 4.3(c): every three-card set of every rank from the hand
 *     (plus the top card), each card a natural of the rank, a natural declared as another
 *     suit (a decoy), or a wild card declared as any suit of the rank; every three-card run
 *     of every suit at every ladder position lo 0..13 (lo 12, 13 go round the corner), each
 *     slot the natural, another suit's natural (decoy) or a wild card; and when the top card
 *     is wild, every run of 4..14 cards holding wild cards between its two ends;
 *   - gin: every KNOCK (each discard, every arrangement of up to four melds found here), and
 *     each accepted knock again with its melds and cards in reverse order.
 * Every accepted candidate (OKR_OK) must be in the legal list once normalised
 * (okr_action_normalize + memcmp). For every category enumerated exhaustively the number of
 * distinct accepted candidates must equal the number listed, i.e. the brute force reaches
 * every listed action. (A wild-top long-run enumeration that outgrows its budget makes that
 * state's TAKE/CLAIM-new count non-exhaustive; such states are counted and reported.)
 *
 * OKR_SANITIZE=1 samples fewer states. Measured (shared 2-core machine): about 1,900 states,
 * 280 M candidates, 9 s CPU at -O2; about 420 states, 7 s CPU under ASan+UBSan.
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

enum {
    GAMES_PER_CFG = 40,     /* games played per configuration (capped at 3 hands); x5 in gin */
    RANDOM_QUOTA = 100,     /* uniformly sampled states per configuration */
    SPECIAL_QUOTA = 5,      /* extra states per rare feature per configuration; x8 for knocks */
    SAMPLE_RATE = 150,      /* a random state is sampled with probability 1/150 */
    SAN_GAMES_PER_CFG = 12, /* the same under OKR_SANITIZE=1 */
    SAN_RANDOM_QUOTA = 15,
    SAN_SPECIAL_QUOTA = 2,
    LONG_BUDGET = 400000, /* candidates for wild-top long runs, per state and type */
    MAX_EXAMPLES = 8
};

#define SEED_BASE 0xC0DE0000ULL

typedef struct cfg {
    const char *preset;
    int players;
} cfg;

/* ---- Categories ------------------------------------------------------------------------ */

enum {
    C_DRAW,
    C_TAKE_PLAIN,
    C_TAKE_NEW,
    C_TAKE_ADD,
    C_TAKE_JOKER,
    C_MELD,
    C_ADD,
    C_REPLACE,
    C_DISCARD,
    C_CLAIM_NEW,
    C_CLAIM_ADD,
    C_KNOCK,
    C_PASS,
    C_OTHER,
    N_CATS
};

static const char *const cat_name[N_CATS] = {
    "draw",    "take-plain", "take-new",  "take-add",  "take-joker", "meld", "add",
    "replace", "discard",    "claim-new", "claim-add", "knock",      "pass", "other"};

static int category(const okr_action *a)
{
    switch (a->type) {
    case OKR_A_DRAW:
        return C_DRAW;
    case OKR_A_TAKE:
        switch (a->how) {
        case OKR_HOW_PLAIN:
            return C_TAKE_PLAIN;
        case OKR_HOW_NEW:
            return C_TAKE_NEW;
        case OKR_HOW_ADD:
            return C_TAKE_ADD;
        case OKR_HOW_JOKER:
            return C_TAKE_JOKER;
        default:
            return C_OTHER;
        }
    case OKR_A_MELD:
        return C_MELD;
    case OKR_A_ADD:
        return C_ADD;
    case OKR_A_REPLACE:
        return C_REPLACE;
    case OKR_A_DISCARD:
        return C_DISCARD;
    case OKR_A_CLAIM:
        return a->how == OKR_HOW_NEW ? C_CLAIM_NEW : a->how == OKR_HOW_ADD ? C_CLAIM_ADD : C_OTHER;
    case OKR_A_KNOCK:
        return C_KNOCK;
    case OKR_A_PASS:
        return C_PASS;
    default:
        return C_OTHER;
    }
}

/* ---- Per-test statistics and violations --------------------------------------------- */

typedef struct stats {
    long games, states, candidates, accepted, listed, long_skipped;
    long listed_cat[N_CATS], hit_cat[N_CATS];
    long phase[OKR_PH_GAME_OVER + 1];
    long fails;
    int nex;
    int exkey[MAX_EXAMPLES];
    char ex[MAX_EXAMPLES][1400];
} stats;

typedef struct where {
    const cfg *c;
    uint64_t seed;
    long step;
    int phase;
} where;

static stats st;

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

static int wants_example(int key)
{
    for (int i = 0; i < st.nex; i++)
        if (st.exkey[i] == key)
            return 0;
    return st.nex < MAX_EXAMPLES;
}

static void violation(const where *w, int key, const char *fmt, ...)
{
    st.fails++;
    if (!wants_example(key))
        return;
    char msg[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    st.exkey[st.nex] = key;
    snprintf(st.ex[st.nex], sizeof st.ex[0], "%s/%d seed %llu step %ld phase %d: %s", w->c->preset,
             w->c->players, (unsigned long long)w->seed, w->step, w->phase, msg);
    st.nex++;
}

/* ---- Helpers --------------------------------------------------------------------------- */

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

/* RULES 1.4, written here. */
static int is_wild(const okr_rules *r, int k)
{
    return k == OKR_JOKER || (r->wild_twos && k < OKR_JOKER && k % 13 == 1);
}

/* Rank at ladder position p; past the high ace the ladder "goes round the corner" (2, 3),
 * which no rule allows: those candidates must be refused. */
static int pos_rank(int p)
{
    return p <= 13 ? OKR_POS_RANK(p) : p - 12;
}

/* ---- The brute force for one state ------------------------------------------------------ */

enum { HBITS = 15, HSIZE = 1 << HBITS };

typedef struct bf {
    const okr_game *g;
    okr_game w; /* working copy; restored after every accepted candidate */
    const okr_rules *r;
    int seat, n;
    const okr_action *list;
    int32_t table[HSIZE]; /* hash of the legal list: index + 1, 0 = empty */
    uint8_t hit[OKR_MAX_ACTIONS];
    uint8_t avail[OKR_KINDS]; /* hand, plus the top card for takes and claims */
    const where *where;
    long budget; /* long-run candidates left */
    long cands, acc;
} bf;

static okr_game game;
static okr_action acts[OKR_MAX_ACTIONS];
static bf B;

static uint32_t hash_action(const okr_action *a)
{
    const uint8_t *p = (const uint8_t *)a;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < sizeof *a; i++) {
        h ^= p[i];
        h *= 16777619u;
    }
    return h;
}

static void build_table(bf *b)
{
    memset(b->table, 0, sizeof b->table);
    for (int i = 0; i < b->n; i++) {
        uint32_t h = hash_action(&b->list[i]) & (HSIZE - 1);
        while (b->table[h])
            h = (h + 1) & (HSIZE - 1);
        b->table[h] = i + 1;
    }
}

static int lookup(const bf *b, const okr_action *a)
{
    uint32_t h = hash_action(a) & (HSIZE - 1);
    while (b->table[h]) {
        int i = b->table[h] - 1;
        if (memcmp(&b->list[i], a, sizeof *a) == 0)
            return i;
        h = (h + 1) & (HSIZE - 1);
    }
    return -1;
}

/* Apply one candidate to the working copy. Returns 1 if accepted. */
static int try_action(bf *b, const okr_action *a, int key)
{
    b->cands++;
    if (okr_apply(&b->w, a, NULL, NULL) != OKR_OK)
        return 0;
    memcpy(&b->w, b->g, sizeof b->w);
    b->acc++;
    okr_action x = *a;
    okr_action_normalize(b->r, &x);
    int i = lookup(b, &x);
    if (i < 0) {
        char d1[520] = "", d2[520] = "";
        if (wants_example(key)) {
            describe(a, d1, sizeof d1);
            describe(&x, d2, sizeof d2);
        }
        violation(b->where, key, "accepted but not in the legal list: %s; normalised: %s", d1, d2);
        return 1;
    }
    b->hit[i] = 1;
    return 1;
}

static void base(okr_action *a, int type, int seat, int how)
{
    memset(a, 0, sizeof *a);
    a->type = (uint8_t)type;
    a->seat = (uint8_t)seat;
    a->how = (uint8_t)how;
}

/* DRAW, PASS, DISCARD of every kind, from every seat (and one seat too many); other types. */
static void enum_simple(bf *b)
{
    okr_action a;
    for (int s = 0; s <= b->g->players; s++) {
        base(&a, OKR_A_DRAW, s, 0);
        try_action(b, &a, 1);
        base(&a, OKR_A_PASS, s, 0);
        try_action(b, &a, 2);
        for (int k = 0; k <= OKR_KINDS + 1; k++) {
            base(&a, OKR_A_DISCARD, s, 0);
            a.card = (uint8_t)(k == OKR_KINDS + 1 ? 255 : k);
            try_action(b, &a, 3);
        }
    }
    static const int bad_types[] = {0, 10, 11, 255};
    for (size_t i = 0; i < sizeof bad_types / sizeof bad_types[0]; i++) {
        base(&a, bad_types[i], b->seat, 0);
        try_action(b, &a, 4);
    }
}

/* Declarations worth trying for `card` at position pos (255: set) of meld m: every suit of
 * the rank the slot needs, and the card itself. */
static int add_decls(const okr_meld *m, int card, int pos, int *out)
{
    int n = 0, rank;
    if (pos == 255)
        rank = m->type == OKR_SET ? m->rank : (card < OKR_JOKER ? OKR_RANK(card) : 1);
    else
        rank = OKR_POS_RANK(pos);
    if (rank < 1 || rank > 13)
        rank = 1;
    for (int s = 0; s < 4; s++)
        out[n++] = OKR_KIND(s, rank);
    out[n++] = card;
    return n;
}

/* ADD, TAKE/CLAIM by 4.3(a): every meld (and one past the end), card, position, decl. */
static void enum_adds(bf *b, int type, int how)
{
    okr_action a;
    static const okr_meld none; /* for the meld index past the end */
    for (int m = 0; m <= b->g->meld_n && m < OKR_MAX_MELDS; m++) {
        const okr_meld *md = m < b->g->meld_n ? &b->g->meld[m] : &none;
        for (int k = 0; k < OKR_KINDS; k++)
            for (int pi = 0; pi < 15; pi++) {
                int pos = pi == 14 ? 255 : pi, decl[8];
                int nd = add_decls(md, k, pos, decl);
                for (int d = 0; d < nd; d++) {
                    base(&a, type, b->seat, how);
                    a.meld = (uint8_t)m;
                    a.card = (uint8_t)k;
                    a.as = (uint8_t)decl[d];
                    a.pos = (uint8_t)pos;
                    try_action(b, &a, 10 + type);
                }
            }
    }
}

/* TAKE by 4.3(b), REPLACE (5.2): every meld, every card, a few `as`; TAKE/CLAIM plain and
 * with a bad `how`, every card. */
static void enum_jokers_and_plain(bf *b)
{
    okr_action a;
    for (int m = 0; m <= b->g->meld_n && m < OKR_MAX_MELDS; m++)
        for (int k = 0; k < OKR_KINDS; k++) {
            const int as_try[3] = {OKR_JOKER, 0, k};
            for (int i = 0; i < 3; i++) {
                base(&a, OKR_A_TAKE, b->seat, OKR_HOW_JOKER);
                a.meld = (uint8_t)m;
                a.card = (uint8_t)k;
                a.as = (uint8_t)as_try[i];
                try_action(b, &a, 20);
                a.type = OKR_A_CLAIM;
                try_action(b, &a, 21);
                base(&a, OKR_A_REPLACE, b->seat, 0);
                a.meld = (uint8_t)m;
                a.card = (uint8_t)k;
                a.as = (uint8_t)as_try[i];
                try_action(b, &a, 22);
            }
        }
    for (int type = OKR_A_TAKE; type <= OKR_A_CLAIM; type += OKR_A_CLAIM - OKR_A_TAKE)
        for (int k = 0; k <= OKR_KINDS; k++) {
            int card = k == OKR_KINDS ? 255 : k;
            base(&a, type, b->seat, OKR_HOW_PLAIN);
            a.card = (uint8_t)card;
            try_action(b, &a, 23);
            a.as = 7; /* unused by a plain take: normalised away */
            a.meld = 3;
            try_action(b, &a, 24);
            for (int how = 4; how <= 5; how++) {
                base(&a, type, b->seat, how);
                a.card = (uint8_t)card;
                try_action(b, &a, 25);
            }
        }
}

typedef struct slot {
    uint8_t card, as;
} slot;

static int wild_kinds(const okr_rules *r, const uint8_t *avail, int *out)
{
    int n = 0;
    for (int s = 0; s < 4; s++)
        if (is_wild(r, OKR_KIND(s, 2)) && avail[OKR_KIND(s, 2)])
            out[n++] = OKR_KIND(s, 2);
    if (avail[OKR_JOKER] && is_wild(r, OKR_JOKER))
        out[n++] = OKR_JOKER;
    return n;
}

static int fits(const bf *b, const slot *sl, int n)
{
    uint8_t use[OKR_KINDS] = {0};
    for (int i = 0; i < n; i++)
        if (++use[sl[i].card] > b->avail[sl[i].card])
            return 0;
    return 1;
}

static void try_spec(bf *b, int type, int how, int stype, int lo, const slot *sl, int n, int key)
{
    okr_action a;
    base(&a, type, b->seat, how);
    a.u.spec.type = (uint8_t)stype;
    a.u.spec.n = (uint8_t)n;
    a.u.spec.lo = (uint8_t)lo;
    for (int i = 0; i < n; i++) {
        a.u.spec.card[i] = sl[i].card;
        a.u.spec.as[i] = sl[i].as;
    }
    try_action(b, &a, key);
}

/* Three-card sets of every rank: naturals of the rank, naturals declared as another suit
 * (decoys), wild cards declared as every suit of the rank. */
static void enum_sets(bf *b, int type, int how)
{
    const okr_rules *r = b->r;
    int wk[5];
    int nw = wild_kinds(r, b->avail, wk);
    for (int rank = 1; rank <= 13; rank++) {
        slot o[48];
        int no = 0;
        for (int s = 0; s < 4; s++) {
            int k = OKR_KIND(s, rank);
            if (!b->avail[k] || is_wild(r, k))
                continue;
            for (int t = 0; t < 4; t++)
                o[no++] = (slot){(uint8_t)k, (uint8_t)OKR_KIND((s + t) % 4, rank)};
        }
        for (int i = 0; i < nw; i++)
            for (int s = 0; s < 4; s++)
                o[no++] = (slot){(uint8_t)wk[i], (uint8_t)OKR_KIND(s, rank)};
        for (int i = 0; i < no; i++)
            for (int j = i; j < no; j++)
                for (int l = j; l < no; l++) {
                    slot sl[3] = {o[i], o[j], o[l]};
                    if (fits(b, sl, 3))
                        try_spec(b, type, how, OKR_SET, 0, sl, 3, 30 + type);
                }
    }
}

/* Options for a run slot that stands for `as`: the natural, another suit's natural of the
 * rank (decoy), each wild card. */
static int run_opts(const bf *b, int as, const int *wk, int nw, slot *o)
{
    const okr_rules *r = b->r;
    int no = 0;
    if (as >= OKR_JOKER)
        return 0;
    if (b->avail[as] && !is_wild(r, as))
        o[no++] = (slot){(uint8_t)as, (uint8_t)as};
    for (int s = 1; s < 4; s++) {
        int k = OKR_KIND((OKR_SUIT(as) + s) % 4, OKR_RANK(as));
        if (b->avail[k] && !is_wild(r, k)) {
            o[no++] = (slot){(uint8_t)k, (uint8_t)as};
            break;
        }
    }
    for (int i = 0; i < nw; i++)
        o[no++] = (slot){(uint8_t)wk[i], (uint8_t)as};
    return no;
}

static void enum_runs3(bf *b, int type, int how)
{
    int wk[5];
    int nw = wild_kinds(b->r, b->avail, wk);
    for (int suit = 0; suit < 4; suit++)
        for (int lo = 0; lo <= 13; lo++) {
            slot o[3][8];
            int no[3];
            for (int i = 0; i < 3; i++)
                no[i] = run_opts(b, OKR_KIND(suit, pos_rank(lo + i)), wk, nw, o[i]);
            for (int x = 0; x < no[0]; x++)
                for (int y = 0; y < no[1]; y++)
                    for (int z = 0; z < no[2]; z++) {
                        slot sl[3] = {o[0][x], o[1][y], o[2][z]};
                        if (fits(b, sl, 3))
                            try_spec(b, type, how, OKR_RUN, lo, sl, 3, 40 + type);
                    }
        }
}

/* Wild top card: runs of 4..14 cards, ends anything that fits, wild cards between. */
static void long_dfs(bf *b, int type, int how, int suit, int lo, int len, int i, slot *sl,
                     uint8_t *use, const int *wk, int nw)
{
    if (b->budget <= 0)
        return;
    if (i == len) {
        b->budget--;
        try_spec(b, type, how, OKR_RUN, lo, sl, len, 50 + type);
        return;
    }
    int as = OKR_KIND(suit, OKR_POS_RANK(lo + i));
    slot o[8];
    int no = 0;
    if (i == 0 || i == len - 1) {
        no = run_opts(b, as, wk, nw, o);
    } else {
        for (int k = 0; k < nw; k++)
            o[no++] = (slot){(uint8_t)wk[k], (uint8_t)as};
    }
    for (int k = 0; k < no; k++) {
        if (use[o[k].card] >= b->avail[o[k].card])
            continue;
        use[o[k].card]++;
        sl[i] = o[k];
        long_dfs(b, type, how, suit, lo, len, i + 1, sl, use, wk, nw);
        use[o[k].card]--;
    }
}

static int enum_long_runs(bf *b, int type, int how)
{
    int wk[5];
    int nw = wild_kinds(b->r, b->avail, wk);
    b->budget = LONG_BUDGET;
    for (int suit = 0; suit < 4; suit++)
        for (int len = 4; len <= 14; len++)
            for (int lo = 0; lo + len - 1 <= 13; lo++) {
                slot sl[14];
                uint8_t use[OKR_KINDS] = {0};
                long_dfs(b, type, how, suit, lo, len, 0, sl, use, wk, nw);
            }
    return b->budget > 0;
}

/* ---- Gin knocks --------------------------------------------------------------------- */

typedef struct gmeld {
    uint8_t n, card[13];
    uint8_t use[52];
} gmeld;

static gmeld gm[2048];

static int gmeld_cmp(const void *x, const void *y)
{
    const gmeld *a = x, *b = y;
    int n = a->n < b->n ? a->n : b->n;
    for (int i = 0; i < n; i++)
        if (a->card[i] != b->card[i])
            return a->card[i] < b->card[i] ? -1 : 1;
    return (int)a->n - (int)b->n;
}

/* Every gin meld of hand h (G5: sets of 3+ of a rank, runs of 3+ in a suit, ace low),
 * cards ascending, sorted in canonical order. */
static int gin_melds(const uint8_t *h)
{
    int n = 0;
    for (int rank = 0; rank < 13; rank++) {
        int c[4];
        for (int s = 0; s < 4; s++)
            c[s] = h[s * 13 + rank];
        for (int a0 = 0; a0 <= c[0]; a0++)
            for (int a1 = 0; a1 <= c[1]; a1++)
                for (int a2 = 0; a2 <= c[2]; a2++)
                    for (int a3 = 0; a3 <= c[3]; a3++) {
                        int a[4] = {a0, a1, a2, a3}, k = a0 + a1 + a2 + a3;
                        if (k < 3 || k > 13 || n == 2048)
                            continue;
                        gmeld *m = &gm[n++];
                        memset(m, 0, sizeof *m);
                        for (int s = 0; s < 4; s++)
                            for (int i = 0; i < a[s]; i++) {
                                m->card[m->n++] = (uint8_t)(s * 13 + rank);
                                m->use[s * 13 + rank]++;
                            }
                    }
    }
    for (int s = 0; s < 4; s++)
        for (int lo = 0; lo < 13; lo++)
            for (int hi = lo + 2; hi < 13; hi++) {
                int ok = 1;
                for (int r = lo; r <= hi; r++)
                    ok &= h[s * 13 + r] > 0;
                if (!ok)
                    break;
                if (n == 2048)
                    break;
                gmeld *m = &gm[n++];
                memset(m, 0, sizeof *m);
                for (int r = lo; r <= hi; r++) {
                    m->card[m->n++] = (uint8_t)(s * 13 + r);
                    m->use[s * 13 + r]++;
                }
            }
    qsort(gm, (size_t)n, sizeof gm[0], gmeld_cmp);
    return n;
}

static void knock_dfs(bf *b, int nm, int start, int depth, int *cur, uint8_t *left, int discard)
{
    okr_action a;
    base(&a, OKR_A_KNOCK, b->seat, 0);
    a.card = (uint8_t)discard;
    a.nmelds = (uint8_t)depth;
    for (int i = 0; i < depth; i++) {
        a.u.knock[i].n = gm[cur[i]].n;
        memcpy(a.u.knock[i].card, gm[cur[i]].card, gm[cur[i]].n);
    }
    if (try_action(b, &a, 60)) {
        /* The same knock with melds and cards in reverse order means the same. */
        okr_action r;
        base(&r, OKR_A_KNOCK, b->seat, 0);
        r.card = a.card;
        r.nmelds = a.nmelds;
        for (int i = 0; i < depth; i++) {
            const okr_ginmeld *src = &a.u.knock[depth - 1 - i];
            r.u.knock[i].n = src->n;
            for (int j = 0; j < src->n; j++)
                r.u.knock[i].card[j] = src->card[src->n - 1 - j];
        }
        if (memcmp(&r, &a, sizeof r) != 0)
            try_action(b, &r, 61);
    }
    if (depth == OKR_GIN_MELDS)
        return;
    for (int j = start; j < nm; j++) {
        int ok = 1;
        for (int i = 0; i < gm[j].n && ok; i++)
            ok = left[gm[j].card[i]] >= gm[j].use[gm[j].card[i]];
        if (!ok)
            continue;
        for (int i = 0; i < gm[j].n; i++)
            left[gm[j].card[i]]--;
        cur[depth] = j;
        knock_dfs(b, nm, j, depth + 1, cur, left, discard);
        for (int i = 0; i < gm[j].n; i++)
            left[gm[j].card[i]]++;
    }
}

static void enum_knocks(bf *b)
{
    const uint8_t *h = b->g->hand[b->seat];
    int nm = gin_melds(h);
    int decoy = -1;
    for (int k = 0; k < 52 && decoy < 0; k++)
        if (!h[k])
            decoy = k;
    for (int d = 0; d < 52; d++) {
        if (!h[d] && d != decoy)
            continue;
        uint8_t left[52];
        memcpy(left, h, 52); /* the discard's copy stays available: a superset */
        int cur[OKR_GIN_MELDS];
        knock_dfs(b, nm, 0, 0, cur, left, d);
    }
}

/* ---- One state ---------------------------------------------------------------------- */

static void check_state(const okr_game *g, const okr_action *list, int n, const where *w)
{
    bf *b = &B;
    b->g = g;
    b->r = &g->rules;
    b->seat = g->to_act;
    b->list = list;
    b->n = n;
    b->where = w;
    b->cands = b->acc = 0;
    memcpy(&b->w, g, sizeof b->w);
    memset(b->hit, 0, (size_t)n);
    build_table(b);

    int long_ok[2] = {1, 1}; /* TAKE, CLAIM */
    enum_simple(b);
    enum_jokers_and_plain(b);
    enum_adds(b, OKR_A_ADD, 0);
    if (g->rules.family == OKR_FAMILY_GIN) {
        enum_knocks(b);
    } else {
        enum_adds(b, OKR_A_TAKE, OKR_HOW_ADD);
        enum_adds(b, OKR_A_CLAIM, OKR_HOW_ADD);
        memcpy(b->avail, g->hand[b->seat], OKR_KINDS);
        enum_sets(b, OKR_A_MELD, 0);
        enum_runs3(b, OKR_A_MELD, 0);
        if (g->pile_n) {
            int top = g->pile[g->pile_n - 1];
            b->avail[top]++;
            for (int t = 0; t < 2; t++) {
                int type = t ? OKR_A_CLAIM : OKR_A_TAKE;
                enum_sets(b, type, OKR_HOW_NEW);
                enum_runs3(b, type, OKR_HOW_NEW);
                if (is_wild(b->r, top))
                    long_ok[t] = enum_long_runs(b, type, OKR_HOW_NEW);
            }
        }
    }

    /* Counts: every listed action of an exhaustive category was reached. */
    long listed[N_CATS] = {0}, hit[N_CATS] = {0};
    int first_miss[N_CATS];
    for (int c = 0; c < N_CATS; c++)
        first_miss[c] = -1;
    for (int i = 0; i < n; i++) {
        int c = category(&list[i]);
        listed[c]++;
        hit[c] += b->hit[i];
        if (!b->hit[i] && first_miss[c] < 0)
            first_miss[c] = i;
    }
    for (int c = 0; c < N_CATS; c++) {
        st.listed_cat[c] += listed[c];
        st.hit_cat[c] += hit[c];
        int exhaustive = !(c == C_TAKE_NEW && !long_ok[0]) && !(c == C_CLAIM_NEW && !long_ok[1]);
        if (!exhaustive) {
            st.long_skipped++;
            continue;
        }
        if (hit[c] != listed[c]) {
            char d[520] = "";
            if (wants_example(100 + c))
                describe(&list[first_miss[c]], d, sizeof d);
            violation(w, 100 + c,
                      "%s: %ld listed, %ld reached by the brute force; first unreached: %s",
                      cat_name[c], listed[c], hit[c], d);
        }
    }
    st.states++;
    st.phase[g->phase]++;
    st.candidates += b->cands;
    st.accepted += b->acc;
    st.listed += n;
}

/* ---- Sampling ----------------------------------------------------------------------- */

enum { F_LONG, F_JOKER, F_REPLACE, F_KNOCK, F_CLAIM, F_CLAIM_MELD, F_UPCARD, F_TAKE_ADD, N_F };

static unsigned features(const okr_game *g, const okr_action *list, int n)
{
    unsigned f = 0;
    if (g->phase == OKR_PH_CLAIM)
        f |= 1u << F_CLAIM;
    if (g->phase == OKR_PH_CLAIM_MELD)
        f |= 1u << F_CLAIM_MELD;
    if (g->phase == OKR_PH_UPCARD || g->phase == OKR_PH_GIN_UPCARD)
        f |= 1u << F_UPCARD;
    for (int i = 0; i < n; i++) {
        const okr_action *a = &list[i];
        if ((a->type == OKR_A_TAKE || a->type == OKR_A_CLAIM) && a->how == OKR_HOW_NEW &&
            a->u.spec.n > 3)
            f |= 1u << F_LONG;
        if (a->type == OKR_A_TAKE && a->how == OKR_HOW_JOKER)
            f |= 1u << F_JOKER;
        if ((a->type == OKR_A_TAKE || a->type == OKR_A_CLAIM) && a->how == OKR_HOW_ADD)
            f |= 1u << F_TAKE_ADD;
        if (a->type == OKR_A_REPLACE)
            f |= 1u << F_REPLACE;
        if (a->type == OKR_A_KNOCK)
            f |= 1u << F_KNOCK;
    }
    return f;
}

static long feature_states[N_F];

static void run_preset(const char *preset)
{
    static const cfg cfgs[] = {
        {"laws", 2},      {"laws", 3},      {"laws", 4},      {"parlett", 2},   {"parlett", 3},
        {"parlett", 4},   {"parlett", 5},   {"arlington", 2}, {"arlington", 3}, {"arlington", 4},
        {"arlington", 5}, {"arlington", 6}, {"arlington", 7}, {"arlington", 8}, {"german", 2},
        {"german", 3},    {"german", 4},    {"german", 5},    {"german", 6},    {"gin", 2},
    };
    int san = sanitize_build();
    int games = san ? SAN_GAMES_PER_CFG : GAMES_PER_CFG;
    int rquota = san ? SAN_RANDOM_QUOTA : RANDOM_QUOTA;
    int squota = san ? SAN_SPECIAL_QUOTA : SPECIAL_QUOTA;
    double t0 = now_s();
    memset(&st, 0, sizeof st);
    memset(feature_states, 0, sizeof feature_states);
    for (size_t ci = 0; ci < sizeof cfgs / sizeof cfgs[0]; ci++) {
        const cfg *c = &cfgs[ci];
        if (strcmp(c->preset, preset) != 0)
            continue;
        okr_rules r;
        okr_refusal why;
        assert_int_equal(okr_rules_preset(&r, c->preset, &why), OKR_OK);
        if (c->players == 8)
            assert_int_equal(okr_rules_set(&r, "decks", "3", &why), OKR_OK);
        assert_int_equal(okr_rules_set(&r, "max_hands", "3", &why), OKR_OK);
        int taken_random = 0, taken_f[N_F] = {0};
        int cfg_games = r.family == OKR_FAMILY_GIN ? 5 * games : games;
        for (int gi = 0; gi < cfg_games; gi++) {
            uint64_t seed = SEED_BASE + ci * 1000 + (uint64_t)gi;
            uint64_t rng = xs_seed(seed);
            assert_int_equal(okr_game_init(&game, &r, c->players, seed, NULL, 0, &why), OKR_OK);
            st.games++;
            where w = {c, seed, 0, 0};
            for (;;) {
                if (game.phase == OKR_PH_GAME_OVER)
                    break;
                if (game.phase == OKR_PH_HAND_OVER) {
                    assert_int_equal(okr_next_hand(&game, NULL, 0, &why), OKR_OK);
                    continue;
                }
                int n = okr_legal(&game, acts, OKR_MAX_ACTIONS);
                assert_true(n > 0);
                unsigned f = features(&game, acts, n);
                int take = 0;
                for (int k = 0; k < N_F; k++)
                    if ((f >> k & 1) && taken_f[k] < (k == F_KNOCK ? 8 * squota : squota)) {
                        taken_f[k]++;
                        feature_states[k]++;
                        take = 1;
                    }
                if (!take && taken_random < rquota && rnd(&rng, SAMPLE_RATE) == 0) {
                    taken_random++;
                    take = 1;
                }
                if (take) {
                    w.phase = game.phase;
                    check_state(&game, acts, n, &w);
                }
                assert_int_equal(okr_apply(&game, &acts[rnd(&rng, n)], NULL, &why), OKR_OK);
                w.step++;
            }
        }
    }
    double el = now_s() - t0;

    printf("[ %-8s ] %ld games, %ld states (phases: upcard %ld, gin-upcard %ld, draw %ld, "
           "claim %ld, claim-meld %ld, play %ld), %ld candidates, %ld accepted, %.1f s\n",
           preset, st.games, st.states, st.phase[OKR_PH_UPCARD], st.phase[OKR_PH_GIN_UPCARD],
           st.phase[OKR_PH_DRAW], st.phase[OKR_PH_CLAIM], st.phase[OKR_PH_CLAIM_MELD],
           st.phase[OKR_PH_PLAY], st.candidates, st.accepted, el);
    printf("[ %-8s ] listed/reached by category:", preset);
    for (int c = 0; c < N_CATS; c++)
        if (st.listed_cat[c])
            printf(" %s %ld/%ld", cat_name[c], st.listed_cat[c], st.hit_cat[c]);
    printf("; states with long wild-top runs %ld, joker takes %ld, replaces %ld, knocks %ld%s\n",
           feature_states[F_LONG], feature_states[F_JOKER], feature_states[F_REPLACE],
           feature_states[F_KNOCK], st.long_skipped ? " (some long-run budgets exceeded)" : "");
    if (st.long_skipped)
        printf("[ %-8s ] %ld state-categories not counted: long-run budget exceeded\n", preset,
               st.long_skipped);
    for (int i = 0; i < st.nex; i++)
        printf("[ violation] %s\n", st.ex[i]);
    printf("[ %-8s ] %ld violations\n", preset, st.fails);
    fflush(stdout);
    assert_true(st.states > 0);
    assert_int_equal(st.fails, 0);
}

/* ---- Tests ----------------------------------------------------------------------------- */

/* RULES 4.2-4.5, 5.2, 6.1: laws 2-4 players. */
static void test_nothing_legal_missing_laws(void **state)
{
    (void)state;
    run_preset("laws");
}

/* RULES 4.2-4.5, 5.2, 6.1: parlett 2-5 players. */
static void test_nothing_legal_missing_parlett(void **state)
{
    (void)state;
    run_preset("parlett");
}

/* RULES 3.4, 3.6, 3.7, 4.3, 6.2: arlington 2-8 players. */
static void test_nothing_legal_missing_arlington(void **state)
{
    (void)state;
    run_preset("arlington");
}

/* RULES 3.3, 6.G: german 2-6 players, claims. */
static void test_nothing_legal_missing_german(void **state)
{
    (void)state;
    run_preset("german");
}

/* RULES G3-G5: gin. */
static void test_nothing_legal_missing_gin(void **state)
{
    (void)state;
    run_preset("gin");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nothing_legal_missing_laws),
        cmocka_unit_test(test_nothing_legal_missing_parlett),
        cmocka_unit_test(test_nothing_legal_missing_arlington),
        cmocka_unit_test(test_nothing_legal_missing_german),
        cmocka_unit_test(test_nothing_legal_missing_gin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
