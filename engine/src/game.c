/* game.c - starting a game, dealing hands from the pinned generator (RULES 2), the per-seat
 * view (RULES 8.3), the digest and the card-conservation check.
 * Pure: no I/O, no allocation; randomness only from the seed the caller passes. */
#include "internal.h"

/* ---- Pinned PRNG: splitmix64 seeds xoshiro256** (docs/engine.md) ----------------------- */

typedef struct rng {
    uint64_t s[4];
} rng;

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static uint64_t next(rng *g)
{
    uint64_t *s = g->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* Uniform in [0, n): reject the low (2^64 mod n) values so every outcome is equally likely. */
static uint64_t bounded(rng *g, uint64_t n)
{
    uint64_t threshold = (0 - n) % n;
    for (;;) {
        uint64_t x = next(g);
        if (x >= threshold)
            return x % n;
    }
}

/* The generator for hand `hand_no` of a game with this seed (docs/engine.md). */
static void seed_rng(rng *g, uint64_t seed, int hand_no)
{
    uint64_t x = seed + (uint64_t)hand_no * 0xD1B54A32D192ED03u;
    for (int i = 0; i < 4; i++)
        g->s[i] = splitmix64(&x);
}

int okr_shuffle(const okr_rules *r, uint64_t seed, int hand_no, uint8_t *out, int cap)
{
    int n = okr_pack_size(r);
    if (n > cap || n > OKR_MAX_CARDS)
        return OKR_EOVERFLOW;
    /* Unshuffled order: each deck's 52 kinds in kind order, then the Jokers. */
    for (int i = 0; i < n; i++)
        out[i] = (uint8_t)(i < 52 * r->decks ? i % 52 : OKR_JOKER);
    rng g;
    seed_rng(&g, seed, hand_no);
    for (int i = n - 1; i > 0; i--) { /* Fisher-Yates */
        int j = (int)bounded(&g, (uint64_t)i + 1);
        uint8_t t = out[i];
        out[i] = out[j];
        out[j] = t;
    }
    return n;
}

void okr__shuffle_cards(uint8_t *cards, int n, uint64_t seed, int salt)
{
    rng g;
    seed_rng(&g, seed, salt);
    for (int i = n - 1; i > 0; i--) { /* Fisher-Yates, as okr_shuffle */
        int j = (int)bounded(&g, (uint64_t)i + 1);
        uint8_t t = cards[i];
        cards[i] = cards[j];
        cards[j] = t;
    }
}

/* ---- Per-seat stock streams (option stock=streams, docs/rules.md) ---------------------- */

void okr__streams_cut(okr_game *g, int first)
{
    int p = g->players, n = g->stock_n, k = 0;
    uint8_t deck[OKR_MAX_CARDS];
    memcpy(deck, g->stock, (size_t)n);
    memset(g->stream_n, 0, sizeof g->stream_n);
    for (int j = 0; j < n; j++)
        g->stream_n[(first + j) % p]++;
    /* Seat s's block holds its cards j = s', s' + p, ... (draw order) with the first at the
     * block's top: fill each block from its bottom with the seat's last card first. */
    for (int s = 0; s < p; s++) {
        int first_j = ((s - first) % p + p) % p;
        for (int c = g->stream_n[s] - 1; c >= 0; c--)
            g->stock[k++] = deck[n - 1 - (first_j + c * p)];
    }
}

int okr__streams_next(const okr_game *g, int seat)
{
    int p = g->players, base[OKR_MAX_PLAYERS], b = 0;
    if (!g->stock_n)
        return -1;
    for (int s = 0; s < p; s++) {
        base[s] = b;
        b += g->stream_n[s];
    }
    if (g->stream_n[seat])
        return base[seat] + g->stream_n[seat] - 1;
    int best = -1;
    for (int i = 1; i < p; i++) { /* leftwards from the seat: the first longest wins */
        int s = (seat + i) % p;
        if (g->stream_n[s] && (best < 0 || g->stream_n[s] > g->stream_n[best]))
            best = s;
    }
    return base[best]; /* the bottom of its block: the card that seat would draw last */
}

/* ---- Dealing (RULES 2.3-2.5) --------------------------------------------------------- */

static int is_pack(const okr_rules *r, const uint8_t *pack, int n, okr_refusal *why)
{
    uint8_t want[OKR_KINDS] = {0}, got[OKR_KINDS] = {0};
    if (n != okr_pack_size(r))
        return okr__invalid(why, "1.2", "the pack has the wrong number of cards");
    for (int k = 0; k < 52; k++)
        want[k] = r->decks;
    want[OKR_JOKER] = r->jokers;
    for (int i = 0; i < n; i++) {
        if (pack[i] >= OKR_KINDS)
            return okr__invalid(why, "1.1", "the pack holds an unknown card");
        if (++got[pack[i]] > want[pack[i]])
            return okr__invalid(why, "1.2", "the pack holds a card too many times");
    }
    return OKR_OK;
}

static void deal(okr_game *g, const uint8_t *pack, int n)
{
    const okr_rules *r = &g->rules;
    int p = g->players, k = 0;
    memset(g->hand, 0, sizeof g->hand);
    memset(g->hand_n, 0, sizeof g->hand_n);
    memset(g->drew, 0, sizeof g->drew);
    memset(g->melded_before, 0, sizeof g->melded_before);
    memset(g->meld, 0, sizeof g->meld);
    memset(g->stock, 0, sizeof g->stock);
    memset(g->pile, 0, sizeof g->pile);
    memset(&g->last, 0, sizeof g->last);
    for (int round = 0; round < r->hand_size; round++)
        for (int i = 1; i <= p; i++) { /* one at a time, starting left of the dealer */
            int seat = (g->dealer + i) % p;
            g->hand[seat][pack[k++]]++;
            g->hand_n[seat]++;
        }
    g->upcard = pack[k++];
    g->pile[0] = g->upcard;
    g->pile_n = 1;
    g->stock_n = (uint8_t)(n - k);
    for (int i = 0; i < g->stock_n; i++) /* stock[stock_n - 1] is the next card */
        g->stock[i] = pack[n - 1 - i];
    g->meld_n = 0;
    g->turns = 0;
    g->upcard_passes = 0;
    g->stock_locked = 0;
    g->claim_meld = 255;
    if (r->stock == OKR_STOCK_STREAMS) /* the first stock card to the seat left of the dealer */
        okr__streams_cut(g, (g->dealer + 1) % p);
    g->discarder = g->dealer; /* RULES 6.G: the upcard counts as the dealer's discard */
    g->turn_seat = g->to_act = (uint8_t)((g->dealer + 1) % p);
    if (r->family == OKR_FAMILY_GIN)
        g->phase = OKR_PH_GIN_UPCARD; /* G3 */
    else if (r->upcard_round)
        g->phase = OKR_PH_UPCARD; /* RULES 6.1 */
    else
        g->phase = OKR_PH_DRAW; /* RULES 6.2, 6.G */
}

static int deal_hand(okr_game *g, const uint8_t *pack, int n, okr_refusal *why)
{
    uint8_t buf[OKR_MAX_CARDS];
    if (pack) {
        int rc = is_pack(&g->rules, pack, n, why);
        if (rc)
            return rc;
    } else {
        n = okr_shuffle(&g->rules, g->seed, g->hand_no, buf, OKR_MAX_CARDS);
        pack = buf;
    }
    deal(g, pack, n);
    return OKR_OK;
}

int okr_game_init(okr_game *g, const okr_rules *r, int players, uint64_t seed, const uint8_t *pack,
                  int n, okr_refusal *why)
{
    int rc = okr_rules_check(r, players, why);
    if (rc)
        return rc;
    memset(g, 0, sizeof *g);
    g->rules = *r;
    g->seed = seed;
    g->players = (uint8_t)players;
    g->dealer = (uint8_t)(players - 1); /* RULES 2.3: seat 0 plays first */
    g->hand_no = 1;
    return deal_hand(g, pack, n, why);
}

int okr_next_hand(okr_game *g, const uint8_t *pack, int n, okr_refusal *why)
{
    if (g->phase != OKR_PH_HAND_OVER) {
        okr__refuse(why, "2.3",
                    g->phase == OKR_PH_GAME_OVER ? "the game is over" : "the hand is not over");
        return OKR_EPHASE;
    }
    okr_game next = *g;
    /* RULES 2.3: the hand's winner deals; nobody out: to the left; gin draw: same dealer.
     * Option dealer=rotate: always to the left, so that the dealer of hand h depends on h
     * alone and duplicate rotations deal every hand's pack to the same seats. */
    if (g->rules.dealer == OKR_DEALER_ROTATE)
        next.dealer = (uint8_t)((g->dealer + 1) % g->players);
    else if (g->last.ended == OKR_END_DRAWN)
        next.dealer = g->dealer;
    else if (g->last.winner >= 0)
        next.dealer = (uint8_t)g->last.winner;
    else
        next.dealer = (uint8_t)((g->dealer + 1) % g->players);
    next.hand_no++;
    int rc = deal_hand(&next, pack, n, why);
    if (rc == OKR_OK)
        *g = next;
    return rc;
}

/* ---- Views and events (RULES 8.3) ---------------------------------------------------- */

void okr_view_of(const okr_game *g, int seat, okr_view *v)
{
    memset(v, 0, sizeof *v);
    v->seat = (uint8_t)seat;
    v->players = g->players;
    v->phase = g->phase;
    v->dealer = g->dealer;
    v->turn_seat = g->turn_seat;
    v->to_act = g->to_act;
    v->stock_n = g->stock_n;
    v->pile_n = g->pile_n;
    v->meld_n = g->meld_n;
    v->stock_locked = g->stock_locked;
    v->upcard = g->upcard;
    v->hand_no = g->hand_no;
    v->turns = g->turns;
    if (seat >= 0 && seat < g->players)
        memcpy(v->hand, g->hand[seat], OKR_KINDS);
    memcpy(v->hand_n, g->hand_n, sizeof v->hand_n);
    memcpy(v->pile, g->pile, g->pile_n);
    memcpy(v->meld, g->meld, sizeof(okr_meld) * g->meld_n);
    memcpy(v->score, g->score, sizeof v->score);
    memcpy(v->concealed, g->concealed, sizeof v->concealed);
    memcpy(v->drew, g->drew, sizeof v->drew);
    memcpy(v->melded_before, g->melded_before, sizeof v->melded_before);
    v->discarder = g->discarder;
    v->claim_meld = g->claim_meld;
    v->upcard_passes = g->upcard_passes;
}

int okr_determinize(const okr_rules *r, const okr_view *v, uint64_t seed, okr_game *out,
                    okr_refusal *why)
{
    return okr_determinize_known(r, v, NULL, seed, out, why);
}

int okr_determinize_known(const okr_rules *r, const okr_view *v,
                          const uint8_t known[OKR_MAX_PLAYERS][OKR_KINDS], uint64_t seed,
                          okr_game *out, okr_refusal *why)
{
    int rc = okr_rules_check(r, v->players, why);
    if (rc)
        return rc;
    if (v->seat >= v->players || v->pile_n > OKR_MAX_CARDS || v->meld_n > OKR_MAX_MELDS)
        return okr__invalid(why, "8.3", "the view is not a view of this game");
    /* Unseen = the pack minus own hand, melds and pile. */
    int unseen[OKR_KINDS];
    for (int k = 0; k < OKR_KINDS; k++)
        unseen[k] = k == OKR_JOKER ? r->jokers : r->decks;
    for (int k = 0; k < OKR_KINDS; k++)
        unseen[k] -= v->hand[k];
    for (int i = 0; i < v->pile_n; i++) {
        if (v->pile[i] >= OKR_KINDS)
            return okr__invalid(why, "1.1", "the view's pile holds an unknown card");
        unseen[v->pile[i]]--;
    }
    for (int m = 0; m < v->meld_n; m++) {
        if (v->meld[m].n > OKR_MELD_CARDS)
            return okr__invalid(why, "8.3", "the view holds an impossible meld");
        for (int i = 0; i < v->meld[m].n; i++) {
            if (v->meld[m].card[i] >= OKR_KINDS)
                return okr__invalid(why, "1.1", "the view's melds hold an unknown card");
            unseen[v->meld[m].card[i]]--;
        }
    }
    uint8_t cards[OKR_MAX_CARDS];
    int n = 0, need = v->stock_n;
    for (int s = 0; s < v->players; s++)
        if (s != v->seat)
            need += v->hand_n[s];
    for (int k = 0; k < OKR_KINDS; k++)
        if (unseen[k] < 0)
            return okr__invalid(why, "1.2", "the view shows a card more often than the pack has");
    /* Known cards are set aside for their hands first; only the rest is shuffled, so every
     * world is equally likely among those that agree with the view and the known cards. */
    int known_n[OKR_MAX_PLAYERS] = {0};
    if (known) {
        for (int s = 0; s < v->players; s++) {
            for (int k = 0; k < OKR_KINDS; k++) {
                if (!known[s][k])
                    continue;
                if (s == v->seat)
                    return okr__invalid(why, "8.3", "known cards are for the other hands");
                unseen[k] -= known[s][k];
                known_n[s] += known[s][k];
                if (unseen[k] < 0)
                    return okr__invalid(why, "8.3", "a known card is not among the unseen ones");
            }
            if (known_n[s] > v->hand_n[s])
                return okr__invalid(why, "8.3", "more known cards than the hand holds");
        }
        for (int s = 0; s < v->players; s++)
            need -= known_n[s];
    }
    for (int k = 0; k < OKR_KINDS; k++) {
        for (int c = 0; c < unseen[k]; c++)
            cards[n++] = (uint8_t)k;
    }
    if (n != need)
        return okr__invalid(why, "8.3", "hand sizes and stock do not add up to the unseen cards");
    okr__shuffle_cards(cards, n, seed, 0);
    memset(out, 0, sizeof *out);
    out->rules = *r;
    out->seed = seed;
    out->players = v->players;
    out->phase = v->phase;
    out->dealer = v->dealer;
    out->turn_seat = v->turn_seat;
    out->to_act = v->to_act;
    out->discarder = v->discarder;
    out->claim_meld = v->claim_meld;
    out->upcard_passes = v->upcard_passes;
    out->stock_locked = v->stock_locked;
    out->upcard = v->upcard;
    out->hand_no = v->hand_no;
    out->turns = v->turns;
    out->pile_n = v->pile_n;
    out->meld_n = v->meld_n;
    memcpy(out->pile, v->pile, v->pile_n);
    memcpy(out->meld, v->meld, sizeof(okr_meld) * v->meld_n);
    memcpy(out->score, v->score, sizeof out->score);
    memcpy(out->concealed, v->concealed, sizeof out->concealed);
    memcpy(out->drew, v->drew, sizeof out->drew);
    memcpy(out->melded_before, v->melded_before, sizeof out->melded_before);
    memcpy(out->hand_n, v->hand_n, sizeof out->hand_n);
    memcpy(out->hand[v->seat], v->hand, OKR_KINDS);
    int k = 0;
    for (int s = 0; s < v->players; s++) {
        if (s == v->seat)
            continue;
        if (known)
            for (int c = 0; c < OKR_KINDS; c++)
                out->hand[s][c] = (uint8_t)(out->hand[s][c] + known[s][c]);
        for (int c = known_n[s]; c < v->hand_n[s]; c++)
            out->hand[s][cards[k++]]++;
    }
    out->stock_n = v->stock_n;
    for (int i = 0; i < v->stock_n; i++)
        out->stock[i] = cards[k++];
    if (r->stock == OKR_STOCK_STREAMS) /* a fresh cut: the streams are as unseen as the rest */
        okr__streams_cut(out, out->turn_seat);
    return OKR_OK;
}

void okr_event_redact(const okr_event *e, int seat, okr_event *out)
{
    *out = *e;
    /* Only the drawer sees a card drawn from the stock; everything else is laid face up. */
    if (e->type == OKR_A_DRAW && e->seat != seat)
        out->card = OKR_NOCARD;
}

/* ---- Digest and invariant -------------------------------------------------------------- */

typedef struct fnv {
    uint64_t h;
} fnv;

static void mix(fnv *f, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        f->h ^= p[i];
        f->h *= 0x100000001B3u;
    }
}

static void mix32(fnv *f, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    mix(f, b, 4);
}

uint64_t okr_digest(const okr_game *g)
{
    fnv f = {0xCBF29CE484222325u};
    uint32_t opts[64];
    int n = okr__rules_values(&g->rules, opts, 64);
    for (int i = 0; i < n; i++)
        mix32(&f, opts[i]);
    mix32(&f, (uint32_t)g->seed);
    mix32(&f, (uint32_t)(g->seed >> 32));
    const uint8_t small[] = {g->players,      g->phase,     g->dealer,     g->turn_seat,
                             g->to_act,       g->discarder, g->claim_meld, g->upcard_passes,
                             g->stock_locked, g->upcard,    g->stock_n,    g->pile_n,
                             g->meld_n};
    mix(&f, small, sizeof small);
    mix32(&f, g->hand_no);
    mix32(&f, g->turns);
    mix32(&f, g->seq);
    for (int s = 0; s < g->players; s++) {
        mix(&f, g->hand[s], OKR_KINDS);
        const uint8_t per[] = {g->hand_n[s], g->drew[s], g->melded_before[s]};
        mix(&f, per, sizeof per);
        mix32(&f, (uint32_t)g->score[s]);
        mix32(&f, (uint32_t)g->concealed[s]);
    }
    mix(&f, g->stock, g->stock_n);
    if (g->rules.stock == OKR_STOCK_STREAMS) /* stock=deck: the digest it always had */
        mix(&f, g->stream_n, g->players);
    mix(&f, g->pile, g->pile_n);
    for (int m = 0; m < g->meld_n; m++) {
        const okr_meld *x = &g->meld[m];
        const uint8_t head[] = {x->owner, x->type, x->n, x->lo, x->rank, x->suit};
        mix(&f, head, sizeof head);
        mix(&f, x->card, x->n);
        mix(&f, x->as, x->n);
    }
    return f.h;
}

int okr_check(const okr_game *g)
{
    int count[OKR_KINDS] = {0};
    for (int s = 0; s < g->players; s++) {
        int n = 0;
        for (int k = 0; k < OKR_KINDS; k++) {
            count[k] += g->hand[s][k];
            n += g->hand[s][k];
        }
        if (n != g->hand_n[s])
            return OKR_EINVAL;
    }
    for (int i = 0; i < g->stock_n; i++)
        count[g->stock[i]]++;
    for (int i = 0; i < g->pile_n; i++)
        count[g->pile[i]]++;
    for (int m = 0; m < g->meld_n; m++)
        for (int i = 0; i < g->meld[m].n; i++)
            count[g->meld[m].card[i]]++;
    for (int k = 0; k < OKR_KINDS; k++)
        if (count[k] != (k == OKR_JOKER ? g->rules.jokers : g->rules.decks))
            return OKR_EINVAL;
    int streams = 0;
    for (int s = 0; s < OKR_MAX_PLAYERS; s++)
        streams += g->stream_n[s];
    if (g->rules.stock == OKR_STOCK_STREAMS ? streams != g->stock_n : streams != 0)
        return OKR_EINVAL;
    return OKR_OK;
}
