/* frame.c - varint length-delimited frames (frame.h).
 *
 * Writer: okrpb_frame_append packs a message behind its varint length. The messages of every
 * turn (ToBot Decision and Events, FromBot Choice by index) go through the hand-written
 * encoder of fastpack.c, which writes protobuf-c's bytes exactly; everything else through
 * protobuf-c's own get_packed_size/pack.
 *
 * Reader: one buffer of max_frame + 10 bytes, allocated once, never grown. Bytes arrive at
 * buf[len..cap) (okrpb_reader_space/commit); okrpb_reader_next parses frames from
 * buf[consumed..len). Frames handed out are dropped lazily: `consumed` counts the bytes of the
 * frames already returned, and they are compacted away with one memmove when more room is
 * asked for or when no whole frame is left (okrpb_reader_next returning MORE), so a read that
 * brings many small frames costs one move, not one per frame. After MORE, buf[0..len) holds
 * exactly the bytes of the incomplete frame. A length prefix is judged as soon as it is
 * complete: a declared length over max_frame is refused at once (ETOOBIG), before any of its
 * body is buffered. Errors are sticky: the offending bytes stay in the buffer, so every later
 * call reports the same error.
 */
#include "frame.h"

#include "fastpack.h"
#include "wire.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { VARINT_MAX = 10 };

/* ---- Writer ---------------------------------------------------------------------------- */

static int buf_reserve(okrpb_buf *b, size_t extra)
{
    if (extra > SIZE_MAX - b->len)
        return -ENOMEM;
    size_t need = b->len + extra;
    if (need <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    uint8_t *p = realloc(b->data, cap);
    if (!p)
        return -ENOMEM;
    b->data = p;
    b->cap = cap;
    return 0;
}

int okrpb_frame_append(okrpb_buf *b, const ProtobufCMessage *m)
{
    if (m->descriptor == &okrpb__to_bot__descriptor) {
        int fast = okrpb_fastpack_to_bot(b, (const Okrpb__ToBot *)m);
        if (fast != -ENOTSUP)
            return fast;
    } else if (m->descriptor == &okrpb__from_bot__descriptor) {
        int fast = okrpb_fastpack_from_bot(b, (const Okrpb__FromBot *)m);
        if (fast != -ENOTSUP)
            return fast;
    }
    size_t size = protobuf_c_message_get_packed_size(m);
    if (size > SIZE_MAX - VARINT_MAX)
        return -ENOMEM;
    int rc = buf_reserve(b, VARINT_MAX + size);
    if (rc)
        return rc;
    size_t n = okrpb_varint_put((uint64_t)size, b->data + b->len);
    size_t packed = protobuf_c_message_pack(m, b->data + b->len + n);
    b->len += n + packed;
    return 0;
}

/* ---- Reader ---------------------------------------------------------------------------- */

int okrpb_reader_init(okrpb_reader *r, size_t max_frame)
{
    memset(r, 0, sizeof *r);
    if (max_frame > SIZE_MAX - VARINT_MAX)
        return -ENOMEM;
    r->buf = malloc(max_frame + VARINT_MAX);
    if (!r->buf)
        return -ENOMEM;
    r->cap = max_frame + VARINT_MAX;
    r->max_frame = max_frame;
    return 0;
}

void okrpb_reader_free(okrpb_reader *r)
{
    if (!r)
        return;
    free(r->buf);
    memset(r, 0, sizeof *r);
}

/* Drop the bytes of frames already returned. */
static void compact(okrpb_reader *r)
{
    if (!r->consumed)
        return;
    size_t rest = r->len - r->consumed;
    if (rest)
        memmove(r->buf, r->buf + r->consumed, rest);
    r->len = rest;
    r->consumed = 0;
}

uint8_t *okrpb_reader_space(okrpb_reader *r, size_t *room)
{
    compact(r);
    *room = r->cap - r->len;
    return r->buf + r->len;
}

void okrpb_reader_commit(okrpb_reader *r, size_t n)
{
    size_t room = r->cap - r->len;
    r->len += n < room ? n : room; /* a caller bug must not push len past the buffer */
}

int okrpb_reader_next(okrpb_reader *r, const uint8_t **msg, size_t *len)
{
    const uint8_t *p = r->buf + r->consumed;
    size_t have = r->len - r->consumed;
    uint64_t size = 0;
    int used = okrpb_varint_get(p, have, &size);
    if (used < 0 || (used > 0 && size > UINT32_MAX))
        return OKRPB_FRAME_EVARINT;
    if (used > 0 && size > r->max_frame)
        return OKRPB_FRAME_ETOOBIG;
    if (used == 0 || have - (size_t)used < size) {
        compact(r);
        return OKRPB_FRAME_MORE;
    }
    *msg = p + used;
    *len = (size_t)size;
    r->consumed += (size_t)used + (size_t)size;
    return OKRPB_FRAME_OK;
}

int okrpb_from_bot_head(const uint8_t *p, size_t n)
{
    uint64_t size = 0, inner = 0;
    int used = okrpb_varint_get(p, n, &size);
    if (used < 0)
        return -1;
    if (used == 0)
        return 0;
    if (size == 0)
        return 1;
    if ((size_t)used == n)
        return 0;
    uint8_t tag = p[used];
    if (tag != 0x0A && tag != 0x12 && tag != 0x1A)
        return -1;
    /* the inner length lies within the frame's size - 1 bytes after the tag */
    size_t avail = n - (size_t)used - 1;
    int whole = avail >= size - 1;
    if (whole)
        avail = (size_t)(size - 1);
    int iu = okrpb_varint_get(p + used + 1, avail, &inner);
    if (iu < 0 || (iu == 0 && whole))
        return -1;
    if (iu == 0)
        return 0;
    return 1 + (uint64_t)iu + inner == size ? 1 : -1;
}
