/* test_fastread.c - proto/fastread.c, the bots' fast decoder, agrees with the slow path
 * (okrpb__to_bot__unpack + the codec.h decoders + the C SDK's checks) on every frame:
 * - every Decision and Events of seeded random games of every preset, and the 64,879-action
 *   list, is decoded by the fast path (not declined) into exactly the slow path's values;
 * - corrupted copies of them (bit flips, random bytes, truncations, insertions, deletions)
 *   and random garbage: whenever the fast path accepts one, the slow path accepts it too
 *   and decodes the same values; what it declines goes to the slow path, so it never
 *   accepts anything the slow path refuses;
 * - valid but non-canonical encodings (fields out of order, unknown fields) are declined;
 * - okrpb_from_bot_unpack, the arena's reader of Choice frames, returns protobuf-c's message
 *   for real, corrupted, non-canonical and random frames. */
#include "../helpers/tobot_slow.h"
#include "fastkit.h"

/* The slow path into the same struct: 1 when the SDK would accept the message. */
#define slow_decode okrt_slow_decode

static void assert_same(const okrpb_fast_in *f, const okrpb_fast_in *s)
{
    assert_int_equal(f->kind, s->kind);
    if (f->kind == OKRPB_FAST_DECISION) {
        assert_true(f->id == s->id);
        assert_int_equal(f->time_ms, s->time_ms);
        assert_int_equal(f->bank_ms, s->bank_ms);
        assert_int_equal(f->hard_ms, s->hard_ms);
        assert_memory_equal(&f->view, &s->view, sizeof f->view);
        assert_int_equal(f->knock_limit, s->knock_limit);
        assert_int_equal(f->n_legal, s->n_legal);
        assert_memory_equal(f->legal, s->legal, f->n_legal * sizeof *f->legal);
    } else {
        assert_int_equal(f->n_events, s->n_events);
        if (f->n_events)
            assert_memory_equal(f->events, s->events, f->n_events * sizeof *f->events);
    }
}

typedef struct run {
    okrpb_fast_in fast, slow;
    long messages, mutants, fast_ok, slow_ok, both_ok;
    int mutate_every; /* corrupt every n-th message; 0 = none */
} run;

static uint8_t *bare(const ProtobufCMessage *m, size_t *len)
{
    *len = protobuf_c_message_get_packed_size(m);
    uint8_t *buf = malloc(*len + 16);
    assert_non_null(buf);
    assert_int_equal(protobuf_c_message_pack(m, buf), *len);
    return buf;
}

/* One corrupted copy of buf into out (room for n + 16 bytes); returns its length. */
static size_t mutate(const uint8_t *buf, size_t n, uint8_t *out)
{
    memcpy(out, buf, n);
    size_t at = kit_below(n);
    static const uint8_t special[] = {0x00, 0x01, 0x7f, 0x80, 0xff, 0x35, 0x34, 0x08, 0x0a};
    switch (kit_below(7)) {
    case 0: /* flip one bit */
        out[at] ^= (uint8_t)(1u << kit_below(8));
        return n;
    case 1: /* a random byte */
        out[at] = (uint8_t)kit_next();
        return n;
    case 2: /* a boundary value */
        out[at] = special[kit_below(sizeof special)];
        return n;
    case 3: /* truncate */
        return at;
    case 4: /* delete one byte */
        memmove(out + at, out + at + 1, n - at - 1);
        return n - 1;
    case 5: /* insert one byte */
        memmove(out + at + 1, out + at, n - at);
        out[at] = special[kit_below(sizeof special)];
        return n + 1;
    default: /* add one to a byte (a value, a length or a key moves by one) */
        out[at]++;
        return n;
    }
}

static void check(const Okrpb__ToBot *m, void *ud)
{
    run *r = ud;
    size_t n;
    uint8_t *buf = bare(&m->base, &n);
    assert_int_equal(slow_decode(buf, n, &r->slow), 1);
    if (okrpb_fast_decode(&r->fast, buf, n) != 1)
        fail_msg("a canonical frame of %zu bytes (case %d) was declined", n, (int)m->msg_case);
    assert_same(&r->fast, &r->slow);
    r->messages++;
    if (r->mutate_every && r->messages % r->mutate_every == 0 && n > 0) {
        uint8_t *bad = malloc(n + 16);
        assert_non_null(bad);
        for (int k = 0; k < 40; k++) {
            size_t bn = mutate(buf, n, bad);
            int f = okrpb_fast_decode(&r->fast, bad, bn);
            assert_true(f == 0 || f == 1);
            int s = slow_decode(bad, bn, &r->slow);
            r->mutants++;
            r->fast_ok += f;
            r->slow_ok += s;
            if (f) {
                if (!s)
                    fail_msg("fast accepted a frame the slow path refuses (%zu bytes)", bn);
                assert_same(&r->fast, &r->slow);
                r->both_ok++;
            }
        }
        free(bad);
    }
    free(buf);
}

static void test_real_and_corrupted_frames(void **state)
{
    (void)state;
    run r = {.mutate_every = kit_sanitized() ? 13 : 3};
    kit_stats st = {0};
    kit_rng = 11;
    kit_every_preset(kit_sanitized() ? 2 : 12, check, &r, &st);
    print_message("fastread: %ld games, %ld messages decoded identically; %ld corrupted copies: "
                  "slow path accepts %ld, fast path %ld (all identical), the rest declined\n",
                  st.games, r.messages, r.mutants, r.slow_ok, r.fast_ok);
    assert_int_equal(r.messages, st.decisions + st.events_msgs);
    /* the corruptions reach both outcomes: some still valid, most refused */
    assert_true(r.fast_ok > 0 && r.slow_ok < r.mutants);
    okrpb_fast_free(&r.fast);
    okrpb_fast_free(&r.slow);
}

static void test_largest_list_and_every_prefix(void **state)
{
    (void)state;
    static okr_game g;
    run r = {0};
    okrpb_arena *a = okrpb_arena_new();
    int n = kit_worst_of_all(&g);
    check(kit_decision(a, &g, kit_acts, n, 1, 0), &r);
    assert_int_equal(r.fast.n_legal, (size_t)n);
    assert_true(n > 60000);
    print_message("fastread: a Decision of %d legal actions decoded identically\n", n);
    /* every prefix of a small real Decision is declined or agrees */
    okrpb_arena_reset(a);
    okr_refusal why;
    okr_rules rules = kit_rules("german");
    assert_int_equal(okr_game_init(&g, &rules, 4, 3, NULL, 0, &why), OKR_OK);
    n = okr_legal(&g, kit_acts, OKR_MAX_ACTIONS);
    const Okrpb__ToBot *m = kit_decision(a, &g, kit_acts, n, 77, 10);
    size_t len;
    uint8_t *buf = bare(&m->base, &len);
    for (size_t k = 0; k < len; k++) {
        int f = okrpb_fast_decode(&r.fast, buf, k);
        if (f) {
            assert_int_equal(slow_decode(buf, k, &r.slow), 1);
            assert_same(&r.fast, &r.slow);
        }
    }
    assert_int_equal(okrpb_fast_decode(&r.fast, buf, len), 1);
    assert_int_equal(okrpb_fast_decode(&r.fast, NULL, 0), 0);
    free(buf);
    okrpb_arena_free(a);
    okrpb_fast_free(&r.fast);
    okrpb_fast_free(&r.slow);
}

static void test_garbage(void **state)
{
    (void)state;
    okrpb_fast_in f = {0}, s = {0};
    uint8_t buf[512];
    kit_rng = 5;
    long fast_ok = 0;
    for (int i = 0; i < (kit_sanitized() ? 20000 : 200000); i++) {
        size_t n = kit_below(sizeof buf);
        for (size_t k = 0; k < n; k++)
            buf[k] = (uint8_t)kit_next();
        if (i % 2) /* a plausible start: ToBot field 3 or 4, length-delimited */
            buf[0] = i % 4 == 1 ? 0x1a : 0x22;
        if (okrpb_fast_decode(&f, buf, n) == 1) {
            fast_ok++;
            assert_int_equal(slow_decode(buf, n, &s), 1);
            assert_same(&f, &s);
        }
    }
    print_message("fastread: random frames accepted by the fast path: %ld (all agree)\n", fast_ok);
    okrpb_fast_free(&f);
    okrpb_fast_free(&s);
}

/* Valid encodings other than the canonical one: the slow path takes them, the fast declines. */
static void test_noncanonical_declined(void **state)
{
    (void)state;
    okrpb_fast_in f = {0}, s = {0};
    /* Events { Event { type = DRAW (3), seat = 1 (2) } }: fields out of order */
    const uint8_t swapped[] = {0x22, 0x06, 0x0a, 0x04, 0x18, 0x01, 0x10, 0x01};
    /* the same in order: accepted by both */
    const uint8_t ordered[] = {0x22, 0x06, 0x0a, 0x04, 0x10, 0x01, 0x18, 0x01};
    /* ordered, plus an unknown field 50 in the Event */
    const uint8_t unknown[] = {0x22, 0x09, 0x0a, 0x07, 0x10, 0x01, 0x18, 0x01, 0x90, 0x03, 0x05};
    /* the seat given twice (protobuf-c keeps the last) */
    const uint8_t twice[] = {0x22, 0x08, 0x0a, 0x06, 0x10, 0x01, 0x10, 0x02, 0x18, 0x01};
    /* the Events field given twice in the ToBot (protobuf-c keeps the last) */
    const uint8_t two_msgs[] = {0x22, 0x00, 0x22, 0x06, 0x0a, 0x04, 0x10, 0x01, 0x18, 0x01};
    assert_int_equal(slow_decode(ordered, sizeof ordered, &s), 1);
    assert_int_equal(okrpb_fast_decode(&f, ordered, sizeof ordered), 1);
    assert_same(&f, &s);
    assert_int_equal(f.events[0].seat, 1);
    assert_int_equal(f.events[0].type, OKR_A_DRAW);
    const struct {
        const uint8_t *p;
        size_t n;
    } cases[] = {{swapped, sizeof swapped},
                 {unknown, sizeof unknown},
                 {twice, sizeof twice},
                 {two_msgs, sizeof two_msgs}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(slow_decode(cases[i].p, cases[i].n, &s), 1);
        assert_int_equal(okrpb_fast_decode(&f, cases[i].p, cases[i].n), 0);
    }
    okrpb_fast_free(&f);
    okrpb_fast_free(&s);
}

/* protobuf-c 1.4.1 reads a key or a length prefix of at most 5 bytes and refuses a longer
 * one, even when the extra bytes are 0x80 padding; values may take 10. The fast path must
 * refuse (decline) exactly the same frames, or a verdict would depend on an unrelated field. */
static void test_overlong_varints(void **state)
{
    (void)state;
    okrpb_fast_in f = {0}, s = {0};
    /* ToBot { events (4) = Events {} } with the length prefix padded to 7 bytes */
    const uint8_t long_len[] = {0x22, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00};
    /* the same with the key 0x22 padded to 6 bytes */
    const uint8_t long_key[] = {0xa2, 0x80, 0x80, 0x80, 0x80, 0x00, 0x00};
    /* 5 bytes each: the longest protobuf-c takes */
    const uint8_t five[] = {0xa2, 0x80, 0x80, 0x80, 0x00, 0x80, 0x80, 0x80, 0x80, 0x00};
    assert_int_equal(slow_decode(long_len, sizeof long_len, &s), 0);
    assert_int_equal(okrpb_fast_decode(&f, long_len, sizeof long_len), 0);
    assert_int_equal(slow_decode(long_key, sizeof long_key, &s), 0);
    assert_int_equal(okrpb_fast_decode(&f, long_key, sizeof long_key), 0);
    assert_int_equal(slow_decode(five, sizeof five, &s), 1);
    if (okrpb_fast_decode(&f, five, sizeof five) == 1)
        assert_same(&f, &s);
    /* an Event inside: the sub-message prefix of the Event padded to 6 bytes */
    const uint8_t inner[] = {0x22, 0x0a, 0x0a, 0x84, 0x80, 0x80, 0x80,
                             0x80, 0x00, 0x10, 0x01, 0x18, 0x01};
    assert_int_equal(slow_decode(inner, sizeof inner, &s), 0);
    assert_int_equal(okrpb_fast_decode(&f, inner, sizeof inner), 0);
    okrpb_fast_free(&f);
    okrpb_fast_free(&s);
}

/* okrpb_from_bot_unpack gives protobuf-c's result for real Choice frames, their corrupted
 * copies, non-canonical encodings and garbage. */
static void assert_same_from_bot(const uint8_t *p, size_t n)
{
    Okrpb__FromBot *f = okrpb_from_bot_unpack(n, p);
    Okrpb__FromBot *s = okrpb__from_bot__unpack(NULL, n, p);
    assert_int_equal(f == NULL, s == NULL);
    if (f) {
        /* the same message, whichever path made it: compare the encodings */
        size_t fl = protobuf_c_message_get_packed_size(&f->base);
        size_t sl = protobuf_c_message_get_packed_size(&s->base);
        assert_int_equal(fl, sl);
        uint8_t *fb = malloc(fl + 1), *sb = malloc(sl + 1);
        assert_non_null(fb);
        assert_non_null(sb);
        protobuf_c_message_pack(&f->base, fb);
        protobuf_c_message_pack(&s->base, sb);
        assert_memory_equal(fb, sb, fl);
        free(fb);
        free(sb);
    }
    okrpb__from_bot__free_unpacked(f, NULL);
    okrpb__from_bot__free_unpacked(s, NULL);
}

static void test_from_bot(void **state)
{
    (void)state;
    static const uint64_t ids[] = {0, 1, 127, 128, 1ull << 40, UINT64_MAX};
    static const uint32_t idx[] = {0, 1, 200, 64878, UINT32_MAX};
    uint8_t bad[64];
    kit_rng = 3;
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        for (size_t j = 0; j < sizeof idx / sizeof idx[0]; j++) {
            Okrpb__Choice c = OKRPB__CHOICE__INIT;
            Okrpb__FromBot fb = OKRPB__FROM_BOT__INIT;
            c.id = ids[i];
            c.pick_case = OKRPB__CHOICE__PICK_INDEX;
            c.index = idx[j];
            fb.msg_case = OKRPB__FROM_BOT__MSG_CHOICE;
            fb.choice = &c;
            size_t n;
            uint8_t *buf = bare(&fb.base, &n);
            Okrpb__FromBot *f = okrpb_from_bot_unpack(n, buf);
            assert_non_null(f);
            assert_int_equal(f->msg_case, OKRPB__FROM_BOT__MSG_CHOICE);
            assert_true(f->choice->id == ids[i]);
            assert_int_equal(f->choice->pick_case, OKRPB__CHOICE__PICK_INDEX);
            assert_int_equal(f->choice->index, idx[j]);
            okrpb__from_bot__free_unpacked(f, NULL);
            for (size_t k = 0; k <= n; k++)
                assert_same_from_bot(buf, k); /* every prefix */
            for (int k = 0; k < 300; k++) {
                size_t bn = mutate(buf, n, bad);
                assert_same_from_bot(bad, bn);
            }
            free(buf);
        }
    /* non-canonical: index before id, id twice, an unknown field, index as a 6-byte varint */
    const uint8_t swapped[] = {0x1a, 0x04, 0x10, 0x05, 0x08, 0x07};
    const uint8_t twice[] = {0x1a, 0x06, 0x08, 0x01, 0x08, 0x02, 0x10, 0x05};
    const uint8_t unknown[] = {0x1a, 0x06, 0x08, 0x01, 0x10, 0x05, 0x28, 0x01};
    const uint8_t wide[] = {0x1a, 0x08, 0x10, 0x85, 0x80, 0x80, 0x80, 0x80, 0x10};
    assert_same_from_bot(swapped, sizeof swapped);
    assert_same_from_bot(twice, sizeof twice);
    assert_same_from_bot(unknown, sizeof unknown);
    assert_same_from_bot(wide, sizeof wide);
    /* a Choice whose length prefix is padded to 7 bytes, its index key to 6, and both at
     * the 5-byte limit: protobuf-c refuses the first two and takes the third */
    const uint8_t long_len[] = {0x1a, 0x84, 0x80, 0x80, 0x80, 0x80,
                                0x80, 0x00, 0x08, 0x01, 0x10, 0x05};
    const uint8_t long_key[] = {0x1a, 0x07, 0x90, 0x80, 0x80, 0x80, 0x80, 0x00, 0x05};
    const uint8_t five[] = {0x9a, 0x80, 0x80, 0x80, 0x00, 0x86, 0x80, 0x80,
                            0x80, 0x00, 0x90, 0x80, 0x80, 0x80, 0x00, 0x05};
    assert_null(okrpb__from_bot__unpack(NULL, sizeof long_len, long_len));
    assert_null(okrpb__from_bot__unpack(NULL, sizeof long_key, long_key));
    assert_same_from_bot(long_len, sizeof long_len);
    assert_same_from_bot(long_key, sizeof long_key);
    assert_same_from_bot(five, sizeof five);
    assert_same_from_bot(NULL, 0);
    for (int k = 0; k < 20000; k++) {
        size_t n = kit_below(sizeof bad);
        for (size_t i = 0; i < n; i++)
            bad[i] = (uint8_t)kit_next();
        bad[0] = k % 2 ? 0x1a : bad[0];
        assert_same_from_bot(bad, n);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_and_corrupted_frames),
        cmocka_unit_test(test_largest_list_and_every_prefix),
        cmocka_unit_test(test_garbage),
        cmocka_unit_test(test_noncanonical_declined),
        cmocka_unit_test(test_overlong_varints),
        cmocka_unit_test(test_from_bot),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
