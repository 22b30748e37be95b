/* test_frame.c - varint length-delimited frames (proto/frame.c): varints, the writer, and the
 * bounded reader on whole, split (1-byte reads), truncated, back-to-back, zero-length,
 * oversized and garbage input, plus a random-bytes fuzz loop. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "codec.h"
#include "frame.h"
#include "okr.pb-c.h"

/* ---- Helpers --------------------------------------------------------------------------- */

static uint64_t rng_state;

static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static size_t rng_below(size_t n)
{
    return n ? (size_t)(rng_next() % n) : 0;
}

/* Fewer iterations under the sanitizers (OKR_SANITIZE=1 in the environment). */
static int iterations(int normal)
{
    const char *s = getenv("OKR_SANITIZE");
    return s && *s == '1' ? normal / 10 : normal;
}

/* Feed data[0..n) into the reader in chunks of at most `chunk` bytes (0: random sizes),
 * collecting frames. Each frame is recorded as (offset into out, length) after copying its
 * bytes to out. Returns the last non-MORE status seen after the input ran out (OK if all
 * frames were taken and the reader is idle), or the first error. */
typedef struct collected {
    uint8_t *bytes;
    size_t nbytes;
    size_t len[4096];
    int n;
} collected;

static int feed(okrpb_reader *r, const uint8_t *data, size_t n, size_t chunk, collected *c)
{
    size_t at = 0;
    for (;;) {
        const uint8_t *msg;
        size_t len;
        int rc;
        while ((rc = okrpb_reader_next(r, &msg, &len)) == OKRPB_FRAME_OK) {
            assert_true(len <= r->max_frame);
            assert_true(msg >= r->buf && msg + len <= r->buf + r->cap);
            if (c) {
                assert_true(c->n < 4096);
                memcpy(c->bytes + c->nbytes, msg, len);
                c->nbytes += len;
                c->len[c->n++] = len;
            }
        }
        if (rc < 0)
            return rc;
        assert_int_equal(rc, OKRPB_FRAME_MORE);
        if (at == n)
            return OKRPB_FRAME_MORE;
        size_t room;
        uint8_t *p = okrpb_reader_space(r, &room);
        assert_true(room > 0); /* MORE means no whole frame is pending, so there is room */
        assert_true(p + room == r->buf + r->cap);
        size_t want = chunk ? chunk : 1 + rng_below(64);
        if (want > room)
            want = room;
        if (want > n - at)
            want = n - at;
        memcpy(p, data + at, want);
        okrpb_reader_commit(r, want);
        at += want;
    }
}

/* ---- Varints --------------------------------------------------------------------------- */

static void test_varint_round_trip(void **state)
{
    (void)state;
    static const uint64_t values[] = {
        0, 1, 127, 128, 300, 16383, 16384, (1ull << 32) - 1, 1ull << 32, 1ull << 63, UINT64_MAX};
    static const int sizes[] = {1, 1, 1, 2, 2, 2, 3, 5, 5, 10, 10};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        uint8_t b[10];
        size_t n = okrpb_varint_put(values[i], b);
        assert_int_equal(n, sizes[i]);
        uint64_t v = 0;
        assert_int_equal(okrpb_varint_get(b, n, &v), (int)n);
        assert_true(v == values[i]);
        /* Every proper prefix asks for more. */
        for (size_t k = 0; k < n; k++)
            assert_int_equal(okrpb_varint_get(b, k, &v), 0);
    }
    uint8_t b[2] = {0xAC, 0x02}; /* 300, the protobuf docs' example */
    uint64_t v;
    assert_int_equal(okrpb_varint_get(b, 2, &v), 2);
    assert_true(v == 300);
}

static void test_varint_malformed(void **state)
{
    (void)state;
    uint8_t b[16];
    uint64_t v;
    memset(b, 0x80, sizeof b); /* continuation bytes forever */
    assert_int_equal(okrpb_varint_get(b, 9, &v), 0);
    assert_int_equal(okrpb_varint_get(b, 10, &v), -1);
    assert_int_equal(okrpb_varint_get(b, 16, &v), -1);
    memset(b, 0xFF, 9);
    b[9] = 0x02; /* bit 64: overflows */
    assert_int_equal(okrpb_varint_get(b, 10, &v), -1);
    b[9] = 0x01;
    assert_int_equal(okrpb_varint_get(b, 10, &v), 10);
    assert_true(v == UINT64_MAX);
    /* A non-minimal encoding is still a varint (protobuf parsers accept it). */
    uint8_t z[3] = {0x80, 0x80, 0x00};
    assert_int_equal(okrpb_varint_get(z, 3, &v), 3);
    assert_true(v == 0);
}

/* ---- Writer ---------------------------------------------------------------------------- */

/* The worked example of docs/protocol.md: FromBot{choice{id: 7, index: 2}}. */
static void test_doc_example_bytes(void **state)
{
    (void)state;
    Okrpb__Choice choice = OKRPB__CHOICE__INIT;
    choice.id = 7;
    choice.pick_case = OKRPB__CHOICE__PICK_INDEX;
    choice.index = 2;
    Okrpb__FromBot fb = OKRPB__FROM_BOT__INIT;
    fb.msg_case = OKRPB__FROM_BOT__MSG_CHOICE;
    fb.choice = &choice;
    okrpb_buf b = {0};
    assert_int_equal(okrpb_frame_append(&b, &fb.base), 0);
    static const uint8_t want[] = {0x06, 0x1a, 0x04, 0x08, 0x07, 0x10, 0x02};
    assert_int_equal(b.len, sizeof want);
    assert_memory_equal(b.data, want, sizeof want);

    /* Ready: FromBot{ready{}} is 0x12 0x00; an empty FromBot is a zero-length frame. */
    Okrpb__Ready ready = OKRPB__READY__INIT;
    fb.msg_case = OKRPB__FROM_BOT__MSG_READY;
    fb.ready = &ready;
    b.len = 0;
    assert_int_equal(okrpb_frame_append(&b, &fb.base), 0);
    static const uint8_t want_ready[] = {0x02, 0x12, 0x00};
    assert_int_equal(b.len, sizeof want_ready);
    assert_memory_equal(b.data, want_ready, sizeof want_ready);
    Okrpb__FromBot empty = OKRPB__FROM_BOT__INIT;
    b.len = 0;
    assert_int_equal(okrpb_frame_append(&b, &empty.base), 0);
    assert_int_equal(b.len, 1);
    assert_int_equal(b.data[0], 0);
    okrpb_buf_free(&b);
    okrpb_buf_free(&b); /* twice: NULL contents are fine */
    okrpb_buf_free(NULL);
}

static void test_writer_grows(void **state)
{
    (void)state;
    okrpb_buf b = {0};
    Okrpb__Identify id = OKRPB__IDENTIFY__INIT;
    char name[3000];
    memset(name, 'x', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    id.name = name;
    id.major = 1;
    Okrpb__FromBot fb = OKRPB__FROM_BOT__INIT;
    fb.msg_case = OKRPB__FROM_BOT__MSG_IDENTIFY;
    fb.identify = &id;
    size_t one = 0;
    for (int i = 0; i < 100; i++) {
        assert_int_equal(okrpb_frame_append(&b, &fb.base), 0);
        if (i == 0)
            one = b.len;
    }
    assert_int_equal(b.len, 100 * one);
    assert_true(b.cap >= b.len);
    /* Read them all back and unpack each. */
    okrpb_reader r;
    assert_int_equal(okrpb_reader_init(&r, OKRPB_MAX_FROM_BOT), 0);
    size_t at = 0;
    int frames = 0;
    while (at < b.len) {
        size_t room;
        uint8_t *p = okrpb_reader_space(&r, &room);
        size_t n = b.len - at < room ? b.len - at : room;
        memcpy(p, b.data + at, n);
        okrpb_reader_commit(&r, n);
        at += n;
        const uint8_t *msg;
        size_t len;
        while (okrpb_reader_next(&r, &msg, &len) == OKRPB_FRAME_OK) {
            Okrpb__FromBot *u = okrpb__from_bot__unpack(NULL, len, msg);
            assert_non_null(u);
            assert_int_equal(u->msg_case, OKRPB__FROM_BOT__MSG_IDENTIFY);
            assert_string_equal(u->identify->name, name);
            okrpb__from_bot__free_unpacked(u, NULL);
            frames++;
        }
    }
    assert_int_equal(frames, 100);
    okrpb_reader_free(&r);
    okrpb_buf_free(&b);
}

/* ---- Reader ---------------------------------------------------------------------------- */

static void test_reader_init(void **state)
{
    (void)state;
    okrpb_reader r;
    assert_int_equal(okrpb_reader_init(&r, 100), 0);
    assert_int_equal(r.cap, 110);
    assert_int_equal(r.max_frame, 100);
    size_t room;
    uint8_t *p = okrpb_reader_space(&r, &room);
    assert_ptr_equal(p, r.buf);
    assert_int_equal(room, 110);
    const uint8_t *msg;
    size_t len;
    assert_int_equal(okrpb_reader_next(&r, &msg, &len), OKRPB_FRAME_MORE);
    okrpb_reader_free(&r);
    okrpb_reader_free(&r); /* idempotent */
    okrpb_reader_free(NULL);
    assert_int_equal(okrpb_reader_init(&r, SIZE_MAX), -ENOMEM);
}

/* Several frames of assorted sizes, written back to back, read whole and 1 byte at a time. */
static void check_stream(size_t chunk)
{
    okrpb_reader r;
    assert_int_equal(okrpb_reader_init(&r, 1000), 0);
    static const size_t sizes[] = {0, 1, 5, 0, 127, 128, 1000, 0, 999, 300, 2};
    enum { N = sizeof sizes / sizeof sizes[0] };
    uint8_t data[8000], expect[8000];
    size_t n = 0, ne = 0;
    for (size_t i = 0; i < N; i++) {
        n += okrpb_varint_put(sizes[i], data + n);
        for (size_t k = 0; k < sizes[i]; k++)
            data[n++] = expect[ne++] = (uint8_t)(i * 31 + k);
    }
    static collected c;
    static uint8_t got[8000];
    memset(&c, 0, sizeof c);
    c.bytes = got;
    assert_int_equal(feed(&r, data, n, chunk, &c), OKRPB_FRAME_MORE);
    assert_int_equal(c.n, N);
    for (size_t i = 0; i < N; i++)
        assert_int_equal(c.len[i], sizes[i]);
    assert_int_equal(c.nbytes, ne);
    assert_memory_equal(got, expect, ne);
    assert_int_equal(r.len, 0); /* idle: nothing left over */
    okrpb_reader_free(&r);
}

static void test_reader_back_to_back(void **state)
{
    (void)state;
    check_stream(8000); /* everything in one read */
}

static void test_reader_split_bytes(void **state)
{
    (void)state;
    check_stream(1); /* one byte per read */
    check_stream(3);
    check_stream(0); /* random sizes */
}

static void test_reader_zero_length(void **state)
{
    (void)state;
    okrpb_reader r;
    assert_int_equal(okrpb_reader_init(&r, 16), 0);
    size_t room;
    uint8_t *p = okrpb_reader_space(&r, &room);
    p[0] = 0x00;
    p[1] = 0x80; /* non-minimal zero: 0x80 0x00 */
    p[2] = 0x00;
    okrpb_reader_commit(&r, 3);
    const uint8_t *msg = NULL;
    size_t len = 99;
    assert_int_equal(okrpb_reader_next(&r, &msg, &len), OKRPB_FRAME_OK);
    assert_int_equal(len, 0);
    assert_non_null(msg);
    len = 99;
    assert_int_equal(okrpb_reader_next(&r, &msg, &len), OKRPB_FRAME_OK);
    assert_int_equal(len, 0);
    assert_int_equal(okrpb_reader_next(&r, &msg, &len), OKRPB_FRAME_MORE);
    assert_int_equal(r.len, 0);
    okrpb_reader_free(&r);
}

static void test_reader_truncated(void **state)
{
    (void)state;
    okrpb_reader r;
    assert_int_equal(okrpb_reader_init(&r, 64), 0);
    size_t room;
    uint8_t *p = okrpb_reader_space(&r, &room);
    p[0] = 10;
    memcpy(p + 1, "abcde", 5);
    okrpb_reader_commit(&r, 6);
    const uint8_t *msg;
    size_t len;
    assert_int_equal(okrpb_reader_next(&r, &msg, &len), OKRPB_FRAME_MORE);
    assert_int_equal(okrpb_reader_next(&r, &msg, &len), OKRPB_FRAME_MORE);
    assert_int_equal(r.len, 6); /* the partial frame stays, nothing else */
    p = okrpb_reader_space(&r, &room);
    assert_int_equal(room, 74 - 6);
    memcpy(p, "fghij", 5);
    okrpb_reader_commit(&r, 4); /* still one byte short */
    assert_int_equal(okrpb_reader_next(&r, &msg, &len), OKRPB_FRAME_MORE);
    p = okrpb_reader_space(&r, &room);
    *p = 'j';
    okrpb_reader_commit(&r, 1);
    assert_int_equal(okrpb_reader_next(&r, &msg, &len), OKRPB_FRAME_OK);
    assert_int_equal(len, 10);
    assert_memory_equal(msg, "abcdefghij", 10);
    /* A prefix cut in the middle of its varint. */
    p = okrpb_reader_space(&r, &room);
    p[0] = 0xC0; /* 64 = 0xC0 0x00 */
    okrpb_reader_commit(&r, 1);
    assert_int_equal(okrpb_reader_next(&r, &msg, &len), OKRPB_FRAME_MORE);
    assert_int_equal(r.len, 1);
    okrpb_reader_free(&r);
}

static void test_reader_oversized(void **state)
{
    (void)state;
    okrpb_reader r;
    assert_int_equal(okrpb_reader_init(&r, 100), 0);
    /* Exactly max_frame is fine, and fills the whole buffer minus the unused prefix bytes. */
    uint8_t data[200];
    size_t n = okrpb_varint_put(100, data);
    memset(data + n, 'a', 100);
    collected *c = calloc(1, sizeof *c);
    uint8_t got[200];
    c->bytes = got;
    assert_int_equal(feed(&r, data, n + 100, 1, c), OKRPB_FRAME_MORE);
    assert_int_equal(c->n, 1);
    assert_int_equal(c->len[0], 100);
    okrpb_reader_free(&r);

    /* max_frame + 1 is refused as soon as the prefix is complete, before any body byte. */
    assert_int_equal(okrpb_reader_init(&r, 100), 0);
    size_t room;
    uint8_t *p = okrpb_reader_space(&r, &room);
    p[0] = 101;
    okrpb_reader_commit(&r, 1);
    const uint8_t *msg;
    size_t len;
    assert_int_equal(okrpb_reader_next(&r, &msg, &len), OKRPB_FRAME_ETOOBIG);
    assert_int_equal(okrpb_reader_next(&r, &msg, &len), OKRPB_FRAME_ETOOBIG); /* sticky */
    okrpb_reader_free(&r);

    /* A frame declared with the largest 32-bit length: ETOOBIG, not a 4 GB wait. */
    assert_int_equal(okrpb_reader_init(&r, OKRPB_MAX_FROM_BOT), 0);
    p = okrpb_reader_space(&r, &room);
    n = okrpb_varint_put(UINT32_MAX, p);
    okrpb_reader_commit(&r, n);
    assert_int_equal(okrpb_reader_next(&r, &msg, &len), OKRPB_FRAME_ETOOBIG);
    okrpb_reader_free(&r);

    /* After a good frame, an oversized one in the same read. */
    assert_int_equal(okrpb_reader_init(&r, 100), 0);
    n = 0;
    data[n++] = 2;
    data[n++] = 'o';
    data[n++] = 'k';
    n += okrpb_varint_put(5000, data + n);
    memset(c, 0, sizeof *c);
    c->bytes = got;
    assert_int_equal(feed(&r, data, n, 0, c), OKRPB_FRAME_ETOOBIG);
    assert_int_equal(c->n, 1);
    assert_int_equal(c->len[0], 2);
    okrpb_reader_free(&r);
    free(c);
}

static void test_reader_garbage_varint(void **state)
{
    (void)state;
    okrpb_reader r;
    const uint8_t *msg;
    size_t len;
    size_t room;
    uint8_t *p;

    /* 11 continuation bytes, fed one at a time: MORE for 9, EVARINT at the 10th. */
    assert_int_equal(okrpb_reader_init(&r, OKRPB_MAX_TO_BOT), 0);
    for (int i = 0; i < 11; i++) {
        p = okrpb_reader_space(&r, &room);
        *p = 0xFF;
        okrpb_reader_commit(&r, 1);
        int rc = okrpb_reader_next(&r, &msg, &len);
        assert_int_equal(rc, i < 9 ? OKRPB_FRAME_MORE : OKRPB_FRAME_EVARINT);
    }
    okrpb_reader_free(&r);

    /* 2^32 (five bytes 80 80 80 80 10) and more: EVARINT even with a huge max_frame. */
    static const uint64_t big[] = {1ull << 32, (1ull << 40) + 3, UINT64_MAX};
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
        assert_int_equal(okrpb_reader_init(&r, 1000), 0);
        p = okrpb_reader_space(&r, &room);
        size_t n = okrpb_varint_put(big[i], p);
        okrpb_reader_commit(&r, n);
        assert_int_equal(okrpb_reader_next(&r, &msg, &len), OKRPB_FRAME_EVARINT);
        assert_int_equal(okrpb_reader_next(&r, &msg, &len), OKRPB_FRAME_EVARINT);
        okrpb_reader_free(&r);
    }
    /* The 10th byte may only carry bit 63. */
    assert_int_equal(okrpb_reader_init(&r, 1000), 0);
    p = okrpb_reader_space(&r, &room);
    memset(p, 0x80, 9);
    p[9] = 0x7F;
    okrpb_reader_commit(&r, 10);
    assert_int_equal(okrpb_reader_next(&r, &msg, &len), OKRPB_FRAME_EVARINT);
    okrpb_reader_free(&r);
}

/* Random frames of random sizes (0..max_frame) fed in random chunks: the reader returns
 * exactly the frames written, and its buffer never grows. */
static void test_reader_random_streams(void **state)
{
    (void)state;
    rng_state = 42;
    enum { MAX = 300 };
    static uint8_t data[1 << 20], expect[1 << 20], got[1 << 20];
    static collected c;
    for (int round = 0; round < iterations(200); round++) {
        okrpb_reader r;
        assert_int_equal(okrpb_reader_init(&r, MAX), 0);
        uint8_t *buf = r.buf;
        size_t n = 0, ne = 0;
        int frames = 1 + (int)rng_below(200);
        size_t sizes[200];
        for (int i = 0; i < frames; i++) {
            size_t s = rng_below(4) == 0 ? MAX - rng_below(3) : rng_below(MAX + 1);
            sizes[i] = s;
            n += okrpb_varint_put(s, data + n);
            for (size_t k = 0; k < s; k++)
                data[n++] = expect[ne++] = (uint8_t)rng_next();
        }
        memset(&c, 0, sizeof c);
        c.bytes = got;
        size_t chunk = rng_below(3) == 0 ? 1 : 0;
        assert_int_equal(feed(&r, data, n, chunk, &c), OKRPB_FRAME_MORE);
        assert_int_equal(c.n, frames);
        for (int i = 0; i < frames; i++)
            assert_int_equal(c.len[i], sizes[i]);
        assert_memory_equal(got, expect, ne);
        assert_ptr_equal(r.buf, buf);
        assert_int_equal(r.cap, MAX + 10);
        okrpb_reader_free(&r);
    }
}

/* Random bytes into the reader: never a crash, never a frame over max_frame or outside the
 * buffer (checked in feed), and once an error is reported it stays. */
static void test_reader_fuzz(void **state)
{
    (void)state;
    rng_state = 7;
    static uint8_t data[4096];
    for (int round = 0; round < iterations(20000); round++) {
        size_t max = rng_below(4) == 0 ? rng_below(4) : rng_below(2000);
        okrpb_reader r;
        assert_int_equal(okrpb_reader_init(&r, max), 0);
        size_t n = rng_below(sizeof data);
        int style = (int)rng_below(3);
        for (size_t i = 0; i < n; i++) {
            uint8_t b = (uint8_t)rng_next();
            if (style == 1) /* mostly small lengths: many frames parse */
                b &= 0x0F;
            else if (style == 2 && rng_below(4)) /* mostly continuation bytes */
                b |= 0x80;
            data[i] = b;
        }
        int rc = feed(&r, data, n, rng_below(2) ? 1 : 0, NULL);
        if (rc < 0) {
            const uint8_t *msg;
            size_t len;
            assert_int_equal(okrpb_reader_next(&r, &msg, &len), rc);
        }
        assert_true(r.len <= r.cap);
        okrpb_reader_free(&r);
    }
}

/* ---- The head of a FromBot frame ---------------------------------------------------------- */

/* Worst verdict over every prefix of p[0..n): -1 as soon as any prefix is refused, else the
 * verdict of the whole. Sets *at to the length of the first refused prefix. */
static int head_over_prefixes(const uint8_t *p, size_t n, size_t *at)
{
    int last = 0;
    for (size_t k = 0; k <= n; k++) {
        last = okrpb_from_bot_head(p, k);
        if (last < 0) {
            *at = k;
            return -1;
        }
    }
    return last;
}

static void append_from_bot(okrpb_buf *b, Okrpb__FromBot *fb)
{
    assert_int_equal(okrpb_frame_append(b, &fb->base), 0);
}

/* Every real FromBot (every kind, short and long, index and action choices) is accepted at
 * every prefix; text and junk are refused within their first few bytes. */
static void test_from_bot_head(void **state)
{
    (void)state;
    static char name[300];
    for (size_t nl = 0; nl < sizeof name - 1; nl += 7) {
        memset(name, 'a', nl);
        name[nl] = '\0';
        Okrpb__Identify id = OKRPB__IDENTIFY__INIT;
        id.major = 1;
        id.name = name;
        id.version = "1.0";
        Okrpb__FromBot fb = OKRPB__FROM_BOT__INIT;
        fb.msg_case = OKRPB__FROM_BOT__MSG_IDENTIFY;
        fb.identify = &id;
        okrpb_buf b = {0};
        append_from_bot(&b, &fb);
        size_t at = 0;
        assert_int_equal(head_over_prefixes(b.data, b.len, &at), 1);
        okrpb_buf_free(&b);
    }
    Okrpb__Ready rd = OKRPB__READY__INIT;
    Okrpb__FromBot fr = OKRPB__FROM_BOT__INIT;
    fr.msg_case = OKRPB__FROM_BOT__MSG_READY;
    fr.ready = &rd;
    Okrpb__Action a = OKRPB__ACTION__INIT;
    a.type = OKRPB__ACTION_TYPE__DISCARD;
    a.card = 51;
    for (uint64_t dec = 0; dec < (1ull << 40); dec = dec * 3 + 1) {
        Okrpb__Choice c = OKRPB__CHOICE__INIT;
        c.id = dec;
        c.pick_case = dec & 1 ? OKRPB__CHOICE__PICK_ACTION : OKRPB__CHOICE__PICK_INDEX;
        if (dec & 1)
            c.action = &a;
        else
            c.index = (uint32_t)dec;
        Okrpb__FromBot fc = OKRPB__FROM_BOT__INIT;
        fc.msg_case = OKRPB__FROM_BOT__MSG_CHOICE;
        fc.choice = &c;
        okrpb_buf b = {0};
        append_from_bot(&b, &fr);
        append_from_bot(&b, &fc);
        size_t at = 0, first = (size_t)(b.data[0] + 1);
        assert_int_equal(head_over_prefixes(b.data, first, &at), 1);
        assert_int_equal(head_over_prefixes(b.data + first, b.len - first, &at), 1);
        okrpb_buf_free(&b);
    }
    static const uint8_t empty[] = {0x00};
    size_t at = 0;
    assert_int_equal(head_over_prefixes(empty, 1, &at), 1);

    /* text: "debug..." ('d' = a length of 100, 'e' no FromBot field) is refused at 2 bytes */
    static const char *const texts[] = {"debug: thinking\n", "Traceback (most recent call)\n",
                                        "hello\n",           "{\"move\": 3}\n",
                                        "# comment\n",       NULL};
    for (int i = 0; texts[i]; i++) {
        assert_int_equal(head_over_prefixes((const uint8_t *)texts[i], strlen(texts[i]), &at), -1);
        assert_true(at <= 3);
    }
    /* "d\n" is a length of 100 and the Identify tag; the real frame after it gives an inner
     * length that does not fill the 100 bytes */
    Okrpb__Identify id = OKRPB__IDENTIFY__INIT;
    id.major = 1;
    id.name = "x";
    Okrpb__FromBot fb = OKRPB__FROM_BOT__INIT;
    fb.msg_case = OKRPB__FROM_BOT__MSG_IDENTIFY;
    fb.identify = &id;
    okrpb_buf b = {0};
    b.data = malloc(2);
    b.cap = 2;
    b.data[0] = 'd';
    b.data[1] = '\n';
    b.len = 2;
    append_from_bot(&b, &fb);
    assert_int_equal(head_over_prefixes(b.data, b.len, &at), -1);
    assert_int_equal(at, 3);
    okrpb_buf_free(&b);
    /* junk: an unknown field, a varint-typed field 1, a malformed length */
    static const uint8_t junk1[] = {16, 0xff, 0xff}, junk2[] = {5, 0x08, 0x01, 0, 0, 0},
                         junk3[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
                                    0x80, 0x80, 0x80, 0x80, 0x80};
    assert_int_equal(head_over_prefixes(junk1, sizeof junk1, &at), -1);
    assert_int_equal(head_over_prefixes(junk2, sizeof junk2, &at), -1);
    assert_int_equal(head_over_prefixes(junk3, sizeof junk3, &at), -1);
    /* an inner length longer than the frame, and one that stops short of it */
    static const uint8_t longer[] = {3, 0x1a, 5, 0, 0}, shorter[] = {5, 0x1a, 1, 0, 0, 0};
    assert_int_equal(head_over_prefixes(longer, sizeof longer, &at), -1);
    assert_int_equal(head_over_prefixes(shorter, sizeof shorter, &at), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_varint_round_trip),     cmocka_unit_test(test_varint_malformed),
        cmocka_unit_test(test_doc_example_bytes),     cmocka_unit_test(test_writer_grows),
        cmocka_unit_test(test_reader_init),           cmocka_unit_test(test_reader_back_to_back),
        cmocka_unit_test(test_reader_split_bytes),    cmocka_unit_test(test_reader_zero_length),
        cmocka_unit_test(test_reader_truncated),      cmocka_unit_test(test_reader_oversized),
        cmocka_unit_test(test_reader_garbage_varint), cmocka_unit_test(test_reader_random_streams),
        cmocka_unit_test(test_reader_fuzz),           cmocka_unit_test(test_from_bot_head),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
