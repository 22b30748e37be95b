/* fastread.c - the bot side of fastpack.h: a ToBot Decision or Events frame in canonical form
 * decoded straight into engine structs.
 *
 * "Canonical" is what protobuf-c and fastpack.c write: in every message the fields come in
 * increasing number order, each once, except the elements of a repeated message field, which
 * come together; repeated scalars are packed; field numbers and wire types are the ones of
 * okr.proto; no key or length prefix is longer than five bytes (protobuf-c's limit), and no
 * value is longer than ten bytes or overflows its field (uint32 values stay below 2^32, card
 * lists hold one-byte kinds). Every value then goes through the checks of
 * the codec.h decoders (okrpb_view_to, okrpb_action_to, okrpb_event_to) and of the C SDK
 * (a Decision has a view and 1..OKR_MAX_ACTIONS legal actions).
 *
 * Whatever fails any of this is declined (return 0), never refused: the caller then unpacks
 * the frame with protobuf-c and the codec, which accept what protobuf-c accepts and refuse
 * the rest with their usual message. Declining is always safe; accepting must agree with the
 * slow path exactly, which tests/proto/test_fastread.c checks on real and corrupted frames.
 */
#include "fastpack.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { WT_VARINT = 0, WT_LEN = 2 };

typedef struct rd {
    const uint8_t *p, *end;
} rd;

/* A varint of at most max bytes (10 for values) that fits 64 bits. 0 when truncated, longer
 * or malformed. */
static inline int get_varint_max(rd *r, uint64_t *v, unsigned max)
{
    const uint8_t *p = r->p;
    if (p < r->end && *p < 0x80) {
        *v = *p;
        r->p = p + 1;
        return 1;
    }
    uint64_t x = 0;
    for (unsigned i = 0; i < max; i++) {
        if (i >= (size_t)(r->end - p))
            return 0;
        uint8_t c = p[i];
        if (i == 9 && c > 1)
            return 0;
        x |= (uint64_t)(c & 0x7f) << (7 * i);
        if (!(c & 0x80)) {
            *v = x;
            r->p = p + i + 1;
            return 1;
        }
    }
    return 0;
}

static inline int get_varint(rd *r, uint64_t *v)
{
    return get_varint_max(r, v, 10);
}

/* protobuf-c 1.4.1 reads keys and length prefixes of at most 5 bytes (parse_tag_and_wiretype,
 * scan_length_prefix) and refuses longer ones, 0x80 padding included; so must we. */
enum { KEY_MAX = 5, PREFIX_MAX = 5 };

static inline int get_u32(rd *r, uint32_t *v)
{
    uint64_t x;
    if (!get_varint(r, &x) || x > UINT32_MAX)
        return 0;
    *v = (uint32_t)x;
    return 1;
}

/* The body of a length-delimited field: *sub covers it and r moves past it. */
static inline int get_sub(rd *r, rd *sub)
{
    uint64_t n;
    if (!get_varint_max(r, &n, PREFIX_MAX) || n > (uint64_t)(r->end - r->p))
        return 0;
    sub->p = r->p;
    sub->end = r->p + n;
    r->p = sub->end;
    return 1;
}

/* The next key, with the ordering rule: a field number below the previous one, or equal to
 * it unless `again` (a repeated message field), declines. */
static inline int get_key(rd *r, uint32_t *last, uint32_t again, uint32_t *field, uint32_t *wt)
{
    uint64_t k;
    if (!get_varint_max(r, &k, KEY_MAX) || k > UINT32_MAX)
        return 0;
    *field = (uint32_t)(k >> 3);
    *wt = (uint32_t)(k & 7);
    if (*field < *last || (*field == *last && *field != again))
        return 0;
    *last = *field;
    return 1;
}

/* Varint field of wire type 0 into a uint32. */
#define U32(r, wt, dst)                                                                            \
    do {                                                                                           \
        if ((wt) != WT_VARINT || !get_u32((r), &(dst)))                                            \
            return 0;                                                                              \
    } while (0)

/* A packed list of card kinds (0..52, so one byte each), at most max of them. */
static int get_cards(rd *r, uint32_t wt, uint8_t *out, size_t max, size_t *n)
{
    rd s;
    if (wt != WT_LEN || !get_sub(r, &s))
        return 0;
    size_t k = (size_t)(s.end - s.p);
    if (k > max)
        return 0;
    for (size_t i = 0; i < k; i++) {
        if (s.p[i] >= OKR_KINDS)
            return 0;
        out[i] = s.p[i];
    }
    *n = k;
    return 1;
}

/* A packed list of uint32 values, at most max of them. */
static int get_u32s(rd *r, uint32_t wt, uint32_t *out, size_t max, size_t *n)
{
    rd s;
    if (wt != WT_LEN || !get_sub(r, &s))
        return 0;
    size_t k = 0;
    while (s.p < s.end) {
        if (k == max || !get_u32(&s, &out[k]))
            return 0;
        k++;
    }
    *n = k;
    return 1;
}

/* A packed list of int32 values: the low 32 bits of each varint, as protobuf-c reads them. */
static int get_i32s(rd *r, uint32_t wt, int32_t *out, size_t max, size_t *n)
{
    rd s;
    if (wt != WT_LEN || !get_sub(r, &s))
        return 0;
    size_t k = 0;
    while (s.p < s.end) {
        uint64_t v;
        if (k == max || !get_varint(&s, &v))
            return 0;
        out[k++] = (int32_t)(uint32_t)v;
    }
    *n = k;
    return 1;
}

static int card_ok(uint32_t c, int none)
{
    return c < OKR_KINDS || (none && c == OKR_NOCARD);
}

/* ---- Action ------------------------------------------------------------------------------ */

/* MeldSpec into s, as okrpb_action_to's spec_to: `as` empty means naturals. */
static int spec(rd *r, okr_spec *s)
{
    uint32_t last = 0, f, wt, type = 0, lo = 0;
    size_t nc = 0, na = 0;
    uint8_t as[OKR_SPEC_CARDS];
    memset(s, 0, sizeof *s);
    while (r->p < r->end) {
        if (!get_key(r, &last, 0, &f, &wt))
            return 0;
        switch (f) {
        case 1:
            U32(r, wt, type);
            break;
        case 2:
            U32(r, wt, lo);
            break;
        case 3:
            if (!get_cards(r, wt, s->card, OKR_SPEC_CARDS, &nc))
                return 0;
            break;
        case 4:
            if (!get_cards(r, wt, as, OKR_SPEC_CARDS, &na))
                return 0;
            break;
        default:
            return 0;
        }
    }
    if ((type != OKR_SET && type != OKR_RUN) || lo > 13 || (na != 0 && na != nc))
        return 0;
    s->type = (uint8_t)type;
    s->lo = (uint8_t)lo;
    s->n = (uint8_t)nc;
    if (na)
        memcpy(s->as, as, nc);
    else
        memcpy(s->as, s->card, nc);
    return 1;
}

static int action(rd *r, okr_action *out)
{
    uint32_t last = 0, f, wt, type = 0, seat = 0, how = 0, card = 0, as = 0, meld = 0, pos = 0;
    int has_spec = 0;
    okr_spec sp;
    okr_ginmeld knock[OKR_GIN_MELDS];
    size_t nk = 0;
    memset(out, 0, sizeof *out);
    while (r->p < r->end) {
        if (!get_key(r, &last, 9, &f, &wt))
            return 0;
        switch (f) {
        case 1:
            U32(r, wt, type);
            break;
        case 2:
            U32(r, wt, seat);
            break;
        case 3:
            U32(r, wt, how);
            break;
        case 4:
            U32(r, wt, card);
            break;
        case 5:
            U32(r, wt, as);
            break;
        case 6:
            U32(r, wt, meld);
            break;
        case 7:
            U32(r, wt, pos);
            break;
        case 8: {
            rd s;
            if (wt != WT_LEN || !get_sub(r, &s) || !spec(&s, &sp))
                return 0;
            has_spec = 1;
            break;
        }
        case 9: { /* GinMeld { repeated uint32 cards = 1; } */
            rd s;
            if (wt != WT_LEN || nk == OKR_GIN_MELDS || !get_sub(r, &s))
                return 0;
            size_t n = 0;
            if (s.p < s.end) {
                uint32_t gl = 0, gf, gwt;
                if (!get_key(&s, &gl, 0, &gf, &gwt) || gf != 1 ||
                    !get_cards(&s, gwt, knock[nk].card, 13, &n) || s.p != s.end)
                    return 0;
            }
            knock[nk++].n = (uint8_t)n;
            break;
        }
        case 10: { /* text: informational, not decoded (as okrpb_action_to) */
            rd s;
            if (wt != WT_LEN || !get_sub(r, &s))
                return 0;
            break;
        }
        default:
            return 0;
        }
    }
    if (type < OKR_A_DRAW || type > OKR_A_PASS || seat >= OKR_MAX_PLAYERS || how > OKR_HOW_JOKER ||
        !card_ok(card, 1) || !card_ok(as, 1) || meld >= OKR_MAX_MELDS || (pos > 13 && pos != 255))
        return 0;
    out->type = (uint8_t)type;
    out->seat = (uint8_t)seat;
    out->how = (uint8_t)how;
    out->card = (uint8_t)card;
    out->as = (uint8_t)as;
    out->meld = (uint8_t)meld;
    out->pos = (uint8_t)pos;
    if (type == OKR_A_KNOCK) {
        out->nmelds = (uint8_t)nk;
        for (size_t i = 0; i < nk; i++) {
            out->u.knock[i].n = knock[i].n;
            memcpy(out->u.knock[i].card, knock[i].card, knock[i].n);
        }
    } else if (has_spec) {
        out->u.spec = sp;
    }
    return 1;
}

/* ---- View ------------------------------------------------------------------------------- */

static int meld(rd *r, uint32_t players, okr_meld *x)
{
    uint32_t last = 0, f, wt, owner = 0, type = 0, lo = 0, rank = 0, suit = 0;
    size_t nc = 0, na = 0;
    while (r->p < r->end) {
        if (!get_key(r, &last, 0, &f, &wt))
            return 0;
        switch (f) {
        case 1:
            U32(r, wt, owner);
            break;
        case 2:
            U32(r, wt, type);
            break;
        case 3:
            U32(r, wt, lo);
            break;
        case 4:
            U32(r, wt, rank);
            break;
        case 5:
            U32(r, wt, suit);
            break;
        case 6:
            if (!get_cards(r, wt, x->card, OKR_MELD_CARDS, &nc))
                return 0;
            break;
        case 7:
            if (!get_cards(r, wt, x->as, OKR_MELD_CARDS, &na))
                return 0;
            break;
        default:
            return 0;
        }
    }
    if (owner >= players || (type != OKR_SET && type != OKR_RUN) || lo > 13 || rank > 13 ||
        suit > 3 || na != nc)
        return 0;
    x->owner = (uint8_t)owner;
    x->type = (uint8_t)type;
    x->n = (uint8_t)nc;
    x->lo = (uint8_t)lo;
    x->rank = (uint8_t)rank;
    x->suit = (uint8_t)suit;
    return 1;
}

static int view(rd *r, okr_view *out, uint32_t *knock_limit)
{
    uint32_t last = 0, f, wt, limit = 0;
    uint32_t seat = 0, p = 0, phase = 0, dealer = 0, turn_seat = 0, to_act = 0, stock = 0;
    uint32_t upcard = 0, hand_no = 0, turns = 0, discarder = 0, claim_meld = 0, passes = 0;
    uint32_t hand_sizes[OKR_MAX_PLAYERS], drawn[OKR_MAX_PLAYERS];
    int32_t scores[OKR_MAX_PLAYERS], concealed[OKR_MAX_PLAYERS];
    uint8_t hand[OKR_MAX_CARDS], before[OKR_MAX_PLAYERS];
    size_t n_hand = 0, n_pile = 0, n_melds = 0, n_sizes = 0, n_scores = 0, n_conc = 0;
    size_t n_drawn = 0, n_before = 0;
    uint64_t locked = 0;
    memset(out, 0, sizeof *out);
    while (r->p < r->end) {
        if (!get_key(r, &last, 15, &f, &wt))
            return 0;
        switch (f) {
        case 1:
            U32(r, wt, seat);
            break;
        case 2:
            U32(r, wt, p);
            break;
        case 3:
            U32(r, wt, phase);
            break;
        case 4:
            U32(r, wt, dealer);
            break;
        case 5:
            U32(r, wt, turn_seat);
            break;
        case 6:
            U32(r, wt, to_act);
            break;
        case 7:
            U32(r, wt, stock);
            break;
        case 8:
            U32(r, wt, upcard);
            break;
        case 9: /* bool: protobuf-c reads any non-zero varint as true */
            if (wt != WT_VARINT || !get_varint(r, &locked))
                return 0;
            break;
        case 10:
            U32(r, wt, hand_no);
            break;
        case 11:
            U32(r, wt, turns);
            break;
        case 12:
            if (!get_cards(r, wt, hand, OKR_MAX_CARDS, &n_hand))
                return 0;
            break;
        case 13:
            if (!get_u32s(r, wt, hand_sizes, OKR_MAX_PLAYERS, &n_sizes))
                return 0;
            break;
        case 14:
            if (!get_cards(r, wt, out->pile, OKR_MAX_CARDS, &n_pile))
                return 0;
            break;
        case 15: {
            rd s;
            if (wt != WT_LEN || n_melds == OKR_MAX_MELDS || !get_sub(r, &s) ||
                !meld(&s, p, &out->meld[n_melds]))
                return 0;
            n_melds++;
            break;
        }
        case 16:
            if (!get_i32s(r, wt, scores, OKR_MAX_PLAYERS, &n_scores))
                return 0;
            break;
        case 17:
            if (!get_i32s(r, wt, concealed, OKR_MAX_PLAYERS, &n_conc))
                return 0;
            break;
        case 18:
            U32(r, wt, discarder);
            break;
        case 19:
            if (!get_u32s(r, wt, drawn, OKR_MAX_PLAYERS, &n_drawn))
                return 0;
            break;
        case 20: { /* packed bools: protobuf-c refuses bytes other than 0 and 1 */
            rd s;
            if (wt != WT_LEN || !get_sub(r, &s) || (size_t)(s.end - s.p) > OKR_MAX_PLAYERS)
                return 0;
            for (n_before = 0; s.p < s.end; n_before++, s.p++) {
                if (*s.p > 1)
                    return 0;
                before[n_before] = *s.p;
            }
            break;
        }
        case 21:
            U32(r, wt, claim_meld);
            break;
        case 22:
            U32(r, wt, passes);
            break;
        case 23: /* 1.1 */
            U32(r, wt, limit);
            break;
        default:
            return 0;
        }
    }
    /* okrpb_view_to's checks, in substance (the order only matters for its messages) */
    if (p < 2 || p > OKR_MAX_PLAYERS || seat >= p || dealer >= p || turn_seat >= p || to_act >= p ||
        discarder >= p || phase < OKR_PH_UPCARD || phase > OKR_PH_GAME_OVER ||
        stock > OKR_MAX_CARDS || !card_ok(upcard, 1) || hand_no > UINT16_MAX ||
        turns > UINT16_MAX || (claim_meld >= OKR_MAX_MELDS && claim_meld != 255) || passes > p ||
        n_sizes != p || n_scores != p || n_conc != p || n_drawn != p || n_before != p)
        return 0;
    for (uint32_t s = 0; s < p; s++) {
        if (hand_sizes[s] > OKR_MAX_CARDS || drawn[s] > 2)
            return 0;
        out->hand_n[s] = (uint8_t)hand_sizes[s];
        out->score[s] = scores[s];
        out->concealed[s] = concealed[s];
        out->drew[s] = (uint8_t)drawn[s];
        out->melded_before[s] = before[s];
    }
    out->seat = (uint8_t)seat;
    out->players = (uint8_t)p;
    out->phase = (uint8_t)phase;
    out->dealer = (uint8_t)dealer;
    out->turn_seat = (uint8_t)turn_seat;
    out->to_act = (uint8_t)to_act;
    out->stock_n = (uint8_t)stock;
    out->pile_n = (uint8_t)n_pile;
    out->meld_n = (uint8_t)n_melds;
    out->stock_locked = locked != 0;
    out->upcard = (uint8_t)upcard;
    out->hand_no = (uint16_t)hand_no;
    out->turns = (uint16_t)turns;
    for (size_t i = 0; i < n_hand; i++) /* at most 157 cards: no count passes 255 */
        out->hand[hand[i]]++;
    out->discarder = (uint8_t)discarder;
    out->claim_meld = (uint8_t)claim_meld;
    out->upcard_passes = (uint8_t)passes;
    *knock_limit = limit;
    return 1;
}

/* ---- Event -------------------------------------------------------------------------------- */

static int event(rd *r, okr_event *out)
{
    uint32_t last = 0, f, wt, seq = 0, seat = 0, type = 0, how = 0, card = 0, meld = 0;
    uint32_t taken = 0, hand_size = 0, ended = 0;
    while (r->p < r->end) {
        if (!get_key(r, &last, 0, &f, &wt))
            return 0;
        switch (f) {
        case 1:
            U32(r, wt, seq);
            break;
        case 2:
            U32(r, wt, seat);
            break;
        case 3:
            U32(r, wt, type);
            break;
        case 4:
            U32(r, wt, how);
            break;
        case 5:
            U32(r, wt, card);
            break;
        case 6:
            U32(r, wt, meld);
            break;
        case 7:
            U32(r, wt, taken);
            break;
        case 8:
            U32(r, wt, hand_size);
            break;
        case 9:
            U32(r, wt, ended);
            break;
        case 10: {
            rd s;
            if (wt != WT_LEN || !get_sub(r, &s))
                return 0;
            break;
        }
        default:
            return 0;
        }
    }
    if (seat >= OKR_MAX_PLAYERS || type < OKR_A_DRAW || type > OKR_A_PASS || how > OKR_HOW_JOKER ||
        !card_ok(card, 1) || (meld >= OKR_MAX_MELDS && meld != 255) || taken > OKR_MAX_CARDS ||
        hand_size > OKR_MAX_CARDS || ended > OKR_END_DRAWN)
        return 0;
    memset(out, 0, sizeof *out);
    out->seq = seq;
    out->seat = (uint8_t)seat;
    out->type = (uint8_t)type;
    out->how = (uint8_t)how;
    out->card = (uint8_t)card;
    out->meld = (uint8_t)meld;
    out->taken = (uint8_t)taken;
    out->hand_n = (uint8_t)hand_size;
    out->ended = (uint8_t)ended;
    return 1;
}

/* ---- Top level -------------------------------------------------------------------------- */

/* Room for one more element in a growing array; 0 declines (over max), -ENOMEM. */
static int more(void **arr, size_t *cap, size_t n, size_t size, size_t max)
{
    if (n < *cap)
        return 1;
    if (n >= max)
        return 0;
    size_t want = *cap ? *cap * 2 : 64;
    if (want > max)
        want = max;
    void *q = realloc(*arr, want * size);
    if (!q)
        return -ENOMEM;
    *arr = q;
    *cap = want;
    return 1;
}

static int decision(rd *r, okrpb_fast_in *in)
{
    uint32_t last = 0, f, wt;
    int has_view = 0;
    in->id = 0;
    in->time_ms = in->bank_ms = in->hard_ms = 0;
    in->n_legal = 0;
    while (r->p < r->end) {
        if (!get_key(r, &last, 3, &f, &wt))
            return 0;
        switch (f) {
        case 1:
            if (wt != WT_VARINT || !get_varint(r, &in->id))
                return 0;
            break;
        case 2: {
            rd s;
            if (wt != WT_LEN || !get_sub(r, &s) || !view(&s, &in->view, &in->knock_limit))
                return 0;
            has_view = 1;
            break;
        }
        case 3: {
            rd s;
            int rc = more((void **)&in->legal, &in->cap_legal, in->n_legal, sizeof *in->legal,
                          OKR_MAX_ACTIONS);
            if (rc <= 0)
                return rc;
            if (wt != WT_LEN || !get_sub(r, &s) || !action(&s, &in->legal[in->n_legal]))
                return 0;
            in->n_legal++;
            break;
        }
        case 4:
            U32(r, wt, in->time_ms);
            break;
        case 5:
            U32(r, wt, in->bank_ms);
            break;
        case 6:
            U32(r, wt, in->hard_ms);
            break;
        default:
            return 0;
        }
    }
    return has_view && in->n_legal >= 1;
}

static int events(rd *r, okrpb_fast_in *in)
{
    uint32_t last = 0, f, wt;
    in->n_events = 0;
    while (r->p < r->end) {
        rd s;
        if (!get_key(r, &last, 1, &f, &wt) || f != 1 || wt != WT_LEN || !get_sub(r, &s))
            return 0;
        int rc = more((void **)&in->events, &in->cap_events, in->n_events, sizeof *in->events,
                      INT32_MAX / 2);
        if (rc <= 0)
            return rc;
        if (!event(&s, &in->events[in->n_events]))
            return 0;
        in->n_events++;
    }
    return 1;
}

int okrpb_fast_decode(okrpb_fast_in *in, const uint8_t *p, size_t n)
{
    in->kind = OKRPB_FAST_NONE;
    if (!p)
        return 0;
    rd r = {p, p + n}, s;
    uint32_t last = 0, f, wt;
    /* ToBot: exactly one field, the Decision (3) or the Events (4), and nothing after it */
    if (!get_key(&r, &last, 0, &f, &wt) || wt != WT_LEN || (f != 3 && f != 4) || !get_sub(&r, &s) ||
        r.p != r.end)
        return 0;
    int rc = f == 3 ? decision(&s, in) : events(&s, in);
    if (rc == 1)
        in->kind = f == 3 ? OKRPB_FAST_DECISION : OKRPB_FAST_EVENTS;
    return rc;
}

void okrpb_fast_free(okrpb_fast_in *in)
{
    if (!in)
        return;
    free(in->legal);
    free(in->events);
    memset(in, 0, sizeof *in);
}

/* ---- FromBot ------------------------------------------------------------------------------ */

Okrpb__FromBot *okrpb_from_bot_unpack(size_t len, const uint8_t *data)
{
    if (!data)
        goto slow;
    rd r = {data, data + len}, s;
    uint32_t last = 0, f, wt;
    uint64_t id = 0, index;
    /* FromBot { choice (3) = Choice { id (1) optional; index (2) } } and nothing else */
    if (!get_key(&r, &last, 0, &f, &wt) || f != 3 || wt != WT_LEN || !get_sub(&r, &s) ||
        r.p != r.end)
        goto slow;
    last = 0;
    if (!get_key(&s, &last, 0, &f, &wt) || wt != WT_VARINT)
        goto slow;
    if (f == 1) {
        if (!get_varint(&s, &id) || !get_key(&s, &last, 0, &f, &wt) || wt != WT_VARINT)
            goto slow;
    }
    if (f != 2 || !get_varint(&s, &index) || index > UINT32_MAX || s.p != s.end)
        goto slow;
    /* two blocks, as protobuf-c allocates them, so that free_unpacked frees them */
    Okrpb__FromBot *m = malloc(sizeof *m);
    Okrpb__Choice *c = malloc(sizeof *c);
    if (!m || !c) {
        free(m);
        free(c);
        return NULL;
    }
    okrpb__from_bot__init(m);
    okrpb__choice__init(c);
    c->id = id;
    c->pick_case = OKRPB__CHOICE__PICK_INDEX;
    c->index = (uint32_t)index;
    m->msg_case = OKRPB__FROM_BOT__MSG_CHOICE;
    m->choice = c;
    return m;
slow:
    return okrpb__from_bot__unpack(NULL, len, data);
}
