/* test_fastpack.c - proto/fastpack.c writes exactly protobuf-c's bytes: every Decision and
 * Events message of seeded random games of every preset (and table size, 3-deck games too),
 * the largest legal-action list the rules allow, and hand-made edge cases (zero values,
 * empty lists and strings, negative int32 and enums, values across varint boundaries,
 * buffer growth, frames appended behind others) are encoded both ways and compared byte for
 * byte, and so are the bots' Choice frames; messages it does not handle are declined and left
 * to protobuf-c. */
#include "fastkit.h"

/* The reference frame: varint(size) + protobuf_c_message_pack. */
static uint8_t *ref_frame(const ProtobufCMessage *m, size_t *len)
{
    size_t size = protobuf_c_message_get_packed_size(m);
    uint8_t *buf = malloc(size + 10);
    assert_non_null(buf);
    size_t vl = okrpb_varint_put(size, buf);
    assert_int_equal(protobuf_c_message_pack(m, buf + vl), size);
    *len = vl + size;
    return buf;
}

typedef struct cmp {
    long compared, bytes;
    okrpb_buf out; /* reused between messages, like a bot connection's queue */
} cmp;

/* Encode m both ways and compare; also through okrpb_frame_append, which must take the
 * fast path and write the same. */
static void compare(const Okrpb__ToBot *m, void *ud)
{
    cmp *c = ud;
    size_t rl;
    uint8_t *ref = ref_frame(&m->base, &rl);
    c->out.len = 0;
    assert_int_equal(okrpb_fastpack_to_bot(&c->out, m), 0);
    if (c->out.len != rl || memcmp(c->out.data, ref, rl) != 0) {
        size_t i = 0;
        while (i < rl && i < c->out.len && c->out.data[i] == ref[i])
            i++;
        fail_msg("case %d: fast %zu bytes, protobuf-c %zu, first difference at byte %zu",
                 (int)m->msg_case, c->out.len, rl, i);
    }
    okrpb_buf b = {0};
    assert_int_equal(okrpb_frame_append(&b, &m->base), 0);
    assert_int_equal(b.len, rl);
    assert_memory_equal(b.data, ref, rl);
    okrpb_buf_free(&b);
    c->compared++;
    c->bytes += (long)rl;
    free(ref);
}

static void test_every_message_of_random_games(void **state)
{
    (void)state;
    cmp c = {0};
    kit_stats st = {0};
    kit_rng = 7;
    kit_every_preset(kit_sanitized() ? 3 : 30, compare, &c, &st);
    print_message("fastpack: %ld games, %ld decisions (largest legal list %ld), %ld Events "
                  "messages (%ld events): %ld messages, %ld bytes, identical\n",
                  st.games, st.decisions, st.max_legal, st.events_msgs, st.events, c.compared,
                  c.bytes);
    assert_int_equal(c.compared, st.decisions + st.events_msgs);
    assert_true(st.games >= KIT_NPRESETS * 3);
    okrpb_buf_free(&c.out);
}

/* The worst legal list (64,879 actions in the engine's limits test) in one Decision. */
static void test_largest_legal_list(void **state)
{
    (void)state;
    static okr_game g;
    int n = kit_worst_of_all(&g);
    okrpb_arena *a = okrpb_arena_new();
    cmp c = {0};
    compare(kit_decision(a, &g, kit_acts, n, UINT64_MAX, UINT32_MAX), &c);
    print_message("fastpack: %d legal actions, %ld bytes, identical\n", n, c.bytes);
    assert_true(n > 60000);
    okrpb_arena_free(a);
    okrpb_buf_free(&c.out);
}

/* Hand-made messages: everything zero, empty, negative, NULL, or crossing a varint size. */
static void test_edge_cases(void **state)
{
    (void)state;
    cmp c = {0};
    Okrpb__ToBot tb = OKRPB__TO_BOT__INIT;
    Okrpb__Decision d = OKRPB__DECISION__INIT;
    Okrpb__Events es = OKRPB__EVENTS__INIT;
    tb.msg_case = OKRPB__TO_BOT__MSG_DECISION;
    tb.decision = &d;
    compare(&tb, &c); /* an empty Decision: no view, no legal actions */

    Okrpb__View v = OKRPB__VIEW__INIT;
    d.view = &v;
    compare(&tb, &c); /* an empty view is still written (key, length 0) */

    uint32_t hand[157], sizes[8] = {0, 127, 128, 157, 16383, 16384, UINT32_MAX, 1};
    for (int i = 0; i < 157; i++)
        hand[i] = (uint32_t)(i % 53);
    int32_t scores[8] = {-1, 0, 1, INT32_MIN, INT32_MAX, -128, 127, -300};
    protobuf_c_boolean before[8] = {0, 1, 7, 0, -1, 0, 0, 1}; /* non-0/1 are written as 1 */
    v.seat = 127;
    v.players = 128;
    v.phase = (Okrpb__Phase)-3; /* out of range and negative: a ten-byte varint */
    v.stock_size = UINT32_MAX;
    v.stock_locked = 5;
    v.hand_no = 300;
    v.n_hand = 157;
    v.hand = hand;
    v.n_hand_sizes = 8;
    v.hand_sizes = sizes;
    v.n_scores = v.n_concealed = 8;
    v.scores = v.concealed = scores;
    v.n_melded_before = 8;
    v.melded_before = before;
    v.discarder = 1u << 28;
    v.claim_meld = 255;
    v.upcard_passes = 1;
    Okrpb__Meld m0 = OKRPB__MELD__INIT, m1 = OKRPB__MELD__INIT;
    Okrpb__Meld *melds[2] = {&m0, &m1};
    m1.owner = 3;
    m1.type = OKRPB__MELD_TYPE__RUN;
    m1.n_cards = m1.n_as = 8;
    m1.cards = m1.as = sizes;
    v.n_melds = 2;
    v.melds = melds;

    Okrpb__Action a0 = OKRPB__ACTION__INIT, a1 = OKRPB__ACTION__INIT, a2 = OKRPB__ACTION__INIT;
    Okrpb__MeldSpec sp = OKRPB__MELD_SPEC__INIT;
    Okrpb__GinMeld g0 = OKRPB__GIN_MELD__INIT, g1 = OKRPB__GIN_MELD__INIT;
    Okrpb__GinMeld *knock[2] = {&g0, &g1};
    a1.type = OKRPB__ACTION_TYPE__MELD;
    a1.spec = &sp; /* an empty spec: key, length 0 */
    a1.text = "";  /* an empty string is omitted */
    a2.type = (Okrpb__ActionType)-1;
    a2.how = OKRPB__HOW__JOKER;
    a2.card = 52;
    a2.as = 255;
    a2.pos = 255;
    a2.n_knock = 2;
    a2.knock = knock;
    g1.n_cards = 3;
    g1.cards = hand;
    a2.text = "knock QS \xff\x01 with bytes";
    char long_text[400];
    memset(long_text, 'x', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = '\0';
    a0.text = long_text; /* a two-byte string length */
    Okrpb__Action *legal[3] = {&a0, &a1, &a2};
    d.n_legal = 3;
    d.legal = legal;
    d.id = UINT64_MAX;
    d.time_ms = 128;
    d.bank_ms = UINT32_MAX;
    d.hard_ms = 1;
    compare(&tb, &c);

    tb.msg_case = OKRPB__TO_BOT__MSG_EVENTS;
    tb.events = &es;
    compare(&tb, &c); /* no events: an empty Events */
    Okrpb__Event e0 = OKRPB__EVENT__INIT, e1 = OKRPB__EVENT__INIT;
    Okrpb__Event *evs[2] = {&e0, &e1};
    e1.seq = UINT32_MAX;
    e1.type = (Okrpb__ActionType)INT32_MIN;
    e1.how = OKRPB__HOW__NEW;
    e1.card = 255;
    e1.meld = 255;
    e1.taken = 157;
    e1.hand_size = 200;
    e1.ended = 7;
    e1.text = "draw 7H";
    es.n_events = 2;
    es.events = evs;
    compare(&tb, &c);

    /* Growth: a frame behind bytes already queued, in a buffer with no spare room, then one
     * in a buffer that has just enough capacity for the prefix check to matter. */
    for (size_t pre = 0; pre < 600; pre += 37) {
        okrpb_buf b = {0};
        b.data = malloc(pre ? pre : 1);
        assert_non_null(b.data);
        memset(b.data, 0xab, pre);
        b.len = b.cap = pre;
        Okrpb__ToBot t = OKRPB__TO_BOT__INIT; /* msg is a union: one member at a time */
        if (pre % 2) {
            t.msg_case = OKRPB__TO_BOT__MSG_EVENTS;
            t.events = &es;
        } else {
            t.msg_case = OKRPB__TO_BOT__MSG_DECISION;
            t.decision = &d;
        }
        size_t rl;
        uint8_t *ref = ref_frame(&t.base, &rl);
        assert_int_equal(okrpb_fastpack_to_bot(&b, &t), 0);
        assert_int_equal(b.len, pre + rl);
        for (size_t i = 0; i < pre; i++)
            assert_int_equal(b.data[i], 0xab);
        assert_memory_equal(b.data + pre, ref, rl);
        free(ref);
        okrpb_buf_free(&b);
    }
    okrpb_buf_free(&c.out);
}

/* What the fast encoder does not handle is declined, untouched, and still packed right. */
static void test_declined(void **state)
{
    (void)state;
    okrpb_buf b = {0};
    Okrpb__ToBot tb = OKRPB__TO_BOT__INIT;
    Okrpb__Bye bye = OKRPB__BYE__INIT;
    bye.reason = "done";
    tb.msg_case = OKRPB__TO_BOT__MSG_BYE;
    tb.bye = &bye;
    assert_int_equal(okrpb_fastpack_to_bot(&b, &tb), -ENOTSUP);
    assert_int_equal(b.len, 0);
    tb.msg_case = OKRPB__TO_BOT__MSG_DECISION; /* the case set, the member NULL */
    tb.decision = NULL;
    assert_int_equal(okrpb_fastpack_to_bot(&b, &tb), -ENOTSUP);
    tb.msg_case = OKRPB__TO_BOT__MSG__NOT_SET;
    assert_int_equal(okrpb_fastpack_to_bot(&b, &tb), -ENOTSUP);

    /* An unknown field deep inside: declined, so protobuf-c writes it through */
    Okrpb__Decision d = OKRPB__DECISION__INIT;
    Okrpb__Action a = OKRPB__ACTION__INIT;
    Okrpb__Action *legal[1] = {&a};
    uint8_t raw[2] = {0x07, 0x2a};
    ProtobufCMessageUnknownField uf = {
        .tag = 99, .wire_type = PROTOBUF_C_WIRE_TYPE_VARINT, .len = 1, .data = raw + 1};
    a.base.n_unknown_fields = 1;
    a.base.unknown_fields = &uf;
    a.type = OKRPB__ACTION_TYPE__DRAW;
    d.n_legal = 1;
    d.legal = legal;
    tb.msg_case = OKRPB__TO_BOT__MSG_DECISION;
    tb.decision = &d;
    b.len = 0;
    assert_int_equal(okrpb_fastpack_to_bot(&b, &tb), -ENOTSUP);
    assert_int_equal(b.len, 0);
    size_t rl;
    uint8_t *ref = ref_frame(&tb.base, &rl);
    assert_int_equal(okrpb_frame_append(&b, &tb.base), 0);
    assert_int_equal(b.len, rl);
    assert_memory_equal(b.data, ref, rl);
    free(ref);
    /* Another type's descriptor where an Action belongs */
    Okrpb__Bye *wrong = &bye;
    d.legal = (Okrpb__Action **)&wrong;
    b.len = 0;
    assert_int_equal(okrpb_fastpack_to_bot(&b, &tb), -ENOTSUP);
    okrpb_buf_free(&b);
}

/* FromBot{Choice by index}: the bot's message of every turn. */
static void test_choice(void **state)
{
    (void)state;
    static const uint64_t ids[] = {0, 1, 127, 128, 300, 1ull << 32, UINT64_MAX};
    static const uint32_t idx[] = {0, 1, 127, 128, 16384, 64878, UINT32_MAX};
    okrpb_buf b = {0};
    long n = 0;
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        for (size_t j = 0; j < sizeof idx / sizeof idx[0]; j++) {
            Okrpb__Choice c = OKRPB__CHOICE__INIT;
            Okrpb__FromBot fb = OKRPB__FROM_BOT__INIT;
            c.id = ids[i];
            c.pick_case = OKRPB__CHOICE__PICK_INDEX;
            c.index = idx[j];
            fb.msg_case = OKRPB__FROM_BOT__MSG_CHOICE;
            fb.choice = &c;
            size_t rl;
            uint8_t *ref = ref_frame(&fb.base, &rl);
            size_t before = b.len; /* frames appended one after another */
            assert_int_equal(okrpb_fastpack_from_bot(&b, &fb), 0);
            assert_int_equal(b.len - before, rl);
            assert_memory_equal(b.data + before, ref, rl);
            free(ref);
            n++;
        }
    /* a Choice by action, and other messages, are left to protobuf-c */
    Okrpb__Choice c = OKRPB__CHOICE__INIT;
    Okrpb__Action a = OKRPB__ACTION__INIT;
    Okrpb__FromBot fb = OKRPB__FROM_BOT__INIT;
    c.pick_case = OKRPB__CHOICE__PICK_ACTION;
    c.action = &a;
    fb.msg_case = OKRPB__FROM_BOT__MSG_CHOICE;
    fb.choice = &c;
    assert_int_equal(okrpb_fastpack_from_bot(&b, &fb), -ENOTSUP);
    c.pick_case = OKRPB__CHOICE__PICK__NOT_SET;
    assert_int_equal(okrpb_fastpack_from_bot(&b, &fb), -ENOTSUP);
    Okrpb__Ready ready = OKRPB__READY__INIT;
    fb.msg_case = OKRPB__FROM_BOT__MSG_READY;
    fb.ready = &ready;
    assert_int_equal(okrpb_fastpack_from_bot(&b, &fb), -ENOTSUP);
    print_message("fastpack: %ld Choice frames, identical\n", n);
    okrpb_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_message_of_random_games),
        cmocka_unit_test(test_largest_legal_list),
        cmocka_unit_test(test_edge_cases),
        cmocka_unit_test(test_declined),
        cmocka_unit_test(test_choice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
