/* fastpack.c - the hand-written encoder of ToBot{Decision, Events} (fastpack.h).
 *
 * The message is written backwards, from the end of the output buffer's capacity down
 * towards its used part: a field's value first, then its key; a nested message's fields,
 * then its length (now known), then its key. Repeated fields go last to first. When the
 * free space runs out the buffer is reallocated and the part already written moves to the
 * end of the new capacity. At the end the frame's varint length goes right after the bytes
 * already queued and the body is moved down behind it (one memmove).
 *
 * What protobuf-c does, and so what this does (proto3, protobuf-c 1.4): fields in number
 * order; a zero scalar, a zero enum, false, an empty or NULL string and a NULL message are
 * omitted; a present message is written even when empty (key, length 0), a NULL element of a
 * repeated message field as an empty message; repeated scalars packed (omitted when empty),
 * bools as one byte 0/1, int32 and enums below zero as ten-byte varints (sign-extended).
 */
#include "fastpack.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { VARINT_MAX = 10 };

/* Wire types. */
enum { WT_VARINT = 0, WT_LEN = 2 };
#define KEY(field, wt) ((uint32_t)(field) << 3 | (wt))

/* The small writers below run for every field: inlined even where gcc -O2 would not. */
#define HOT static inline __attribute__((always_inline))

typedef struct bw {
    okrpb_buf *b;
    uint8_t *p;  /* first byte written so far; the message grows down from data + cap */
    uint8_t *lo; /* lowest byte that may be written: room for the frame's length prefix */
    int err;     /* -ENOMEM or -ENOTSUP once something failed; writes then stop */
} bw;

HOT size_t used(const bw *w)
{
    return (size_t)(w->b->data + w->b->cap - w->p);
}

/* Grow so that n more bytes fit below p. Rare: out of line. */
__attribute__((noinline, cold)) static int grow(bw *w, size_t n)
{
    okrpb_buf *b = w->b;
    size_t u = b->data ? used(w) : 0;
    size_t base = b->len + VARINT_MAX;
    if (n > SIZE_MAX / 4 - base || u > SIZE_MAX / 4 - base - n) {
        w->err = -ENOMEM;
        return -1;
    }
    size_t need = base + u + n, cap = b->cap ? b->cap : 256;
    while (cap < need)
        cap *= 2;
    uint8_t *d = realloc(b->data, cap);
    if (!d) {
        w->err = -ENOMEM;
        return -1;
    }
    if (u)
        memmove(d + cap - u, d + b->cap - u, u);
    b->data = d;
    b->cap = cap;
    w->p = d + cap - u;
    w->lo = d + b->len + VARINT_MAX;
    return 0;
}

/* Make room for n bytes. 1 when they fit, 0 after a failure. */
HOT int room(bw *w, size_t n)
{
    if (w->err)
        return 0;
    return (size_t)(w->p - w->lo) >= n || grow(w, n) == 0;
}

HOT unsigned varint_len(uint64_t v)
{
    unsigned n = 1;
    while (v >= 0x80) {
        v >>= 7;
        n++;
    }
    return n;
}

/* Unchecked writers: the caller made room first (at most 10 bytes each). */
HOT void put_varint(bw *w, uint64_t v)
{
    if (v < 0x80) {
        *--w->p = (uint8_t)v;
        return;
    }
    w->p -= varint_len(v);
    uint8_t *q = w->p;
    while (v >= 0x80) {
        *q++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *q = (uint8_t)v;
}

/* uint32 field, omitted when 0. */
HOT void put_u32(bw *w, uint32_t key, uint32_t v)
{
    if (v) {
        put_varint(w, v);
        put_varint(w, key);
    }
}

/* int32 or enum field, omitted when 0; negatives are ten bytes, as protobuf-c writes them. */
HOT void put_i32(bw *w, uint32_t key, int32_t v)
{
    if (v) {
        put_varint(w, (uint64_t)(int64_t)v);
        put_varint(w, key);
    }
}

/* Length prefix and key of a length-delimited field whose body starts `mark` bytes from the
 * end (mark = used() before the body was written). */
HOT void close_len(bw *w, size_t mark, uint32_t field)
{
    size_t len = used(w) - mark;
    if (room(w, 2 * VARINT_MAX)) {
        put_varint(w, len);
        put_varint(w, KEY(field, WT_LEN));
    }
}

HOT void packed_u32(bw *w, uint32_t field, const uint32_t *v, size_t n)
{
    if (n == 0 || n > SIZE_MAX / 8 || !room(w, n * 5 + 2 * VARINT_MAX))
        return;
    size_t mark = used(w);
    for (size_t i = n; i-- > 0;)
        put_varint(w, v[i]);
    close_len(w, mark, field);
}

static void packed_i32(bw *w, uint32_t field, const int32_t *v, size_t n)
{
    if (n == 0 || n > SIZE_MAX / 16 || !room(w, n * VARINT_MAX + 2 * VARINT_MAX))
        return;
    size_t mark = used(w);
    for (size_t i = n; i-- > 0;)
        put_varint(w, (uint64_t)(int64_t)v[i]);
    close_len(w, mark, field);
}

static void packed_bool(bw *w, uint32_t field, const protobuf_c_boolean *v, size_t n)
{
    if (n == 0 || n > SIZE_MAX / 2 || !room(w, n + 2 * VARINT_MAX))
        return;
    size_t mark = used(w);
    for (size_t i = n; i-- > 0;)
        *--w->p = v[i] ? 1 : 0;
    close_len(w, mark, field);
}

static void put_string(bw *w, uint32_t field, const char *s)
{
    if (!s || !*s)
        return;
    size_t n = strlen(s);
    if (n > SIZE_MAX / 2 || !room(w, n + 2 * VARINT_MAX))
        return;
    w->p -= n;
    memcpy(w->p, s, n);
    put_varint(w, n);
    put_varint(w, KEY(field, WT_LEN));
}

/* A nested message must be the generated type with nothing unknown, or we decline. */
static int plain(bw *w, const ProtobufCMessage *m, const ProtobufCMessageDescriptor *d)
{
    if (m->descriptor != d || m->n_unknown_fields) {
        w->err = -ENOTSUP;
        return 0;
    }
    return !w->err;
}

/* ---- Messages, last field first ----------------------------------------------------- */

static void meld(bw *w, const Okrpb__Meld *m)
{
    if (!plain(w, &m->base, &okrpb__meld__descriptor))
        return;
    packed_u32(w, 7, m->as, m->n_as);
    packed_u32(w, 6, m->cards, m->n_cards);
    if (!room(w, 5 * 2 * VARINT_MAX))
        return;
    put_u32(w, KEY(5, WT_VARINT), m->suit);
    put_u32(w, KEY(4, WT_VARINT), m->rank);
    put_u32(w, KEY(3, WT_VARINT), m->lo);
    put_i32(w, KEY(2, WT_VARINT), m->type);
    put_u32(w, KEY(1, WT_VARINT), m->owner);
}

static void view(bw *w, const Okrpb__View *m)
{
    if (!plain(w, &m->base, &okrpb__view__descriptor) || !room(w, 3 * 2 * VARINT_MAX))
        return;
    put_u32(w, KEY(23, WT_VARINT), m->knock_limit);
    put_u32(w, KEY(22, WT_VARINT), m->upcard_passes);
    put_u32(w, KEY(21, WT_VARINT), m->claim_meld);
    packed_bool(w, 20, m->melded_before, m->n_melded_before);
    packed_u32(w, 19, m->turns_drawn, m->n_turns_drawn);
    if (!room(w, 2 * VARINT_MAX))
        return;
    put_u32(w, KEY(18, WT_VARINT), m->discarder);
    packed_i32(w, 17, m->concealed, m->n_concealed);
    packed_i32(w, 16, m->scores, m->n_scores);
    for (size_t i = m->n_melds; i-- > 0 && !w->err;) {
        size_t mark = used(w);
        if (m->melds[i])
            meld(w, m->melds[i]);
        close_len(w, mark, 15);
    }
    packed_u32(w, 14, m->pile, m->n_pile);
    packed_u32(w, 13, m->hand_sizes, m->n_hand_sizes);
    packed_u32(w, 12, m->hand, m->n_hand);
    if (!room(w, 11 * 2 * VARINT_MAX))
        return;
    put_u32(w, KEY(11, WT_VARINT), m->turns);
    put_u32(w, KEY(10, WT_VARINT), m->hand_no);
    if (m->stock_locked) {
        *--w->p = 1;
        *--w->p = KEY(9, WT_VARINT);
    }
    put_u32(w, KEY(8, WT_VARINT), m->upcard);
    put_u32(w, KEY(7, WT_VARINT), m->stock_size);
    put_u32(w, KEY(6, WT_VARINT), m->to_act);
    put_u32(w, KEY(5, WT_VARINT), m->turn_seat);
    put_u32(w, KEY(4, WT_VARINT), m->dealer);
    put_i32(w, KEY(3, WT_VARINT), m->phase);
    put_u32(w, KEY(2, WT_VARINT), m->players);
    put_u32(w, KEY(1, WT_VARINT), m->seat);
}

static void spec(bw *w, const Okrpb__MeldSpec *m)
{
    if (!plain(w, &m->base, &okrpb__meld_spec__descriptor))
        return;
    packed_u32(w, 4, m->as, m->n_as);
    packed_u32(w, 3, m->cards, m->n_cards);
    if (!room(w, 2 * 2 * VARINT_MAX))
        return;
    put_u32(w, KEY(2, WT_VARINT), m->lo);
    put_i32(w, KEY(1, WT_VARINT), m->type);
}

static void action(bw *w, const Okrpb__Action *m)
{
    if (!plain(w, &m->base, &okrpb__action__descriptor))
        return;
    put_string(w, 10, m->text);
    for (size_t i = m->n_knock; i-- > 0 && !w->err;) {
        size_t mark = used(w);
        const Okrpb__GinMeld *g = m->knock[i];
        if (g && plain(w, &g->base, &okrpb__gin_meld__descriptor))
            packed_u32(w, 1, g->cards, g->n_cards);
        close_len(w, mark, 9);
    }
    if (m->spec && !w->err) {
        size_t mark = used(w);
        spec(w, m->spec);
        close_len(w, mark, 8);
    }
    if (!room(w, 7 * 2 * VARINT_MAX))
        return;
    put_u32(w, KEY(7, WT_VARINT), m->pos);
    put_u32(w, KEY(6, WT_VARINT), m->meld);
    put_u32(w, KEY(5, WT_VARINT), m->as);
    put_u32(w, KEY(4, WT_VARINT), m->card);
    put_i32(w, KEY(3, WT_VARINT), m->how);
    put_u32(w, KEY(2, WT_VARINT), m->seat);
    put_i32(w, KEY(1, WT_VARINT), m->type);
}

static void decision(bw *w, const Okrpb__Decision *m)
{
    if (!plain(w, &m->base, &okrpb__decision__descriptor) || !room(w, 3 * 2 * VARINT_MAX))
        return;
    put_u32(w, KEY(6, WT_VARINT), m->hard_ms);
    put_u32(w, KEY(5, WT_VARINT), m->bank_ms);
    put_u32(w, KEY(4, WT_VARINT), m->time_ms);
    for (size_t i = m->n_legal; i-- > 0 && !w->err;) {
        size_t mark = used(w);
        if (m->legal[i])
            action(w, m->legal[i]);
        close_len(w, mark, 3);
    }
    if (m->view && !w->err) {
        size_t mark = used(w);
        view(w, m->view);
        close_len(w, mark, 2);
    }
    if (m->id && room(w, 2 * VARINT_MAX)) {
        put_varint(w, m->id);
        put_varint(w, KEY(1, WT_VARINT));
    }
}

static void event(bw *w, const Okrpb__Event *m)
{
    if (!plain(w, &m->base, &okrpb__event__descriptor))
        return;
    put_string(w, 10, m->text);
    if (!room(w, 9 * 2 * VARINT_MAX))
        return;
    put_u32(w, KEY(9, WT_VARINT), m->ended);
    put_u32(w, KEY(8, WT_VARINT), m->hand_size);
    put_u32(w, KEY(7, WT_VARINT), m->taken);
    put_u32(w, KEY(6, WT_VARINT), m->meld);
    put_u32(w, KEY(5, WT_VARINT), m->card);
    put_i32(w, KEY(4, WT_VARINT), m->how);
    put_i32(w, KEY(3, WT_VARINT), m->type);
    put_u32(w, KEY(2, WT_VARINT), m->seat);
    put_u32(w, KEY(1, WT_VARINT), m->seq);
}

static void events(bw *w, const Okrpb__Events *m)
{
    if (!plain(w, &m->base, &okrpb__events__descriptor))
        return;
    for (size_t i = m->n_events; i-- > 0 && !w->err;) {
        size_t mark = used(w);
        if (m->events[i])
            event(w, m->events[i]);
        close_len(w, mark, 1);
    }
}

int okrpb_fastpack_to_bot(okrpb_buf *b, const Okrpb__ToBot *m)
{
    if (!b || !m || m->base.descriptor != &okrpb__to_bot__descriptor || m->base.n_unknown_fields)
        return -ENOTSUP;
    int which = m->msg_case == OKRPB__TO_BOT__MSG_DECISION && m->decision ? 3
                : m->msg_case == OKRPB__TO_BOT__MSG_EVENTS && m->events   ? 4
                                                                          : 0;
    if (!which)
        return -ENOTSUP;
    bw w = {.b = b};
    if (b->data) {
        w.p = b->data + b->cap;
        w.lo = b->data + b->len + VARINT_MAX;
    }
    if ((!b->data || b->cap - b->len < VARINT_MAX + 64) && grow(&w, 512) < 0)
        return w.err;
    size_t mark = used(&w);
    if (which == 3)
        decision(&w, m->decision);
    else
        events(&w, m->events);
    close_len(&w, mark, (uint32_t)which);
    if (w.err)
        return w.err;
    /* The frame: varint(body length) at the end of the queued bytes, the body right after. */
    size_t body = used(&w);
    uint8_t *at = b->data + b->len;
    size_t vl = okrpb_varint_put(body, at);
    memmove(at + vl, w.p, body);
    b->len += vl + body;
    return 0;
}

int okrpb_fastpack_from_bot(okrpb_buf *b, const Okrpb__FromBot *m)
{
    if (!b || !m || m->base.descriptor != &okrpb__from_bot__descriptor ||
        m->base.n_unknown_fields || m->msg_case != OKRPB__FROM_BOT__MSG_CHOICE || !m->choice)
        return -ENOTSUP;
    const Okrpb__Choice *c = m->choice;
    /* a note (1.1) goes through protobuf-c: only the bare index is the hot path */
    if (c->base.descriptor != &okrpb__choice__descriptor || c->base.n_unknown_fields ||
        c->pick_case != OKRPB__CHOICE__PICK_INDEX || (c->note && c->note[0]))
        return -ENOTSUP;
    /* FromBot { choice (3) = Choice { id (1), omitted when 0; index (2), in a oneof, so
     * written even when 0 } }: at most 1 + 1 + 1 + 10 + 1 + 5 bytes after the prefix */
    uint8_t body[32], *q = body + 3;
    if (c->id) {
        *q++ = KEY(1, WT_VARINT);
        q += okrpb_varint_put(c->id, q);
    }
    *q++ = KEY(2, WT_VARINT);
    q += okrpb_varint_put(c->index, q);
    size_t choice_len = (size_t)(q - body - 3);
    body[1] = KEY(3, WT_LEN);
    body[2] = (uint8_t)choice_len; /* below 128: one byte */
    size_t len = choice_len + 2;
    if (b->cap - b->len < len + 1 || !b->data) {
        bw w = {.b = b};
        if (b->data) {
            w.p = b->data + b->cap;
            w.lo = b->data + b->len + VARINT_MAX;
        }
        if (grow(&w, len + 1) < 0)
            return w.err;
    }
    b->data[b->len] = (uint8_t)len; /* the frame's length prefix, also below 128 */
    memcpy(b->data + b->len + 1, body + 1, len);
    b->len += len + 1;
    return 0;
}
