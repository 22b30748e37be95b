/* test_okbot.c - the C SDK's loop (sdk/c/src/okbot.c) driven through pipes: each test builds
 * a stream of ToBot frames with protobuf-c (proto/codec.h), runs okb_run with a test bot in a
 * forked child whose stdin, stdout and stderr are pipes, and checks what comes back: the
 * FromBot frames, the log, and the exit status. */
#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "codec.h"
#include "frame.h"
#include "okbot.h"

/* ---- The test bot ----------------------------------------------------------------------- */

enum {
    PICK_LAST,     /* the last legal index */
    PICK_ACTION,   /* the last legal action, as a full action */
    PICK_BAD,      /* an index out of range */
    PICK_HELLO_NO, /* on_hello fails */
    PICK_NOTE,     /* the last index, with a note too long for the arena (okb_note) */
    PICK_SEATLESS, /* the last legal action, built by hand: its seat left 0 */
    PICK_SEAT1     /* the last legal action with seat 1 written in */
};

typedef struct script {
    int pick;
} script;

/* Everything the hooks see is printed with printf, which the SDK must send to stderr. */
static int tb_decide(const okb_decision *d, void *ud)
{
    const script *s = ud;
    printf("STRAY decide id=%llu n=%d seat=%d phase=%d hand_no=%d time=%u knock_limit=%d\n",
           (unsigned long long)d->id, d->n, d->seat, d->view->phase, d->view->hand_no, d->time_ms,
           d->knock_limit);
    switch (s->pick) {
    case PICK_ACTION:
        *d->action = d->legal[d->n - 1];
        return OKB_ACTION;
    case PICK_BAD:
        return d->n + 7;
    case PICK_SEATLESS:
    case PICK_SEAT1:
        *d->action = d->legal[d->n - 1];
        d->action->seat = s->pick == PICK_SEAT1 ? 1 : 0;
        return OKB_ACTION;
    case PICK_NOTE: {
        /* "x" and 200 two-byte characters: 401 bytes, cut to 1 + 2 * 139 = 279 */
        char e[401];
        for (int i = 0; i < 200; i++)
            memcpy(e + 2 * i, "\xc3\xa9", 2);
        e[400] = '\0';
        okb_note(d, "first %s", "draft"); /* replaced by the next call */
        okb_note(d, "x%s", e);
        return d->n - 1;
    }
    default:
        return d->n - 1;
    }
}

static int tb_hello(const okb_hello *h, void *ud)
{
    const script *s = ud;
    printf("HOOK hello match=%s players=%d preset=%s decision_ms=%u\n", h->match_id, h->players,
           h->rules->preset, h->decision_ms);
    return s->pick == PICK_HELLO_NO ? -1 : 0;
}

static void tb_game_start(const okb_game_start *g, void *ud)
{
    (void)ud;
    printf("HOOK game_start id=%s seat=%d players=%d name0=%s\n", g->game_id, g->seat, g->players,
           g->names[0]);
}

static void tb_events(const okr_event *ev, int n, void *ud)
{
    (void)ud;
    for (int i = 0; i < n; i++)
        printf("HOOK event seq=%u seat=%d type=%d card=%d\n", ev[i].seq, ev[i].seat, ev[i].type,
               ev[i].card);
}

static void tb_refused(const okb_refused *r, void *ud)
{
    (void)ud;
    printf("HOOK refused id=%llu rule=%s substituted=%d\n", (unsigned long long)r->id, r->rule,
           r->substituted);
}

static void tb_hand_end(const okb_hand_end *h, void *ud)
{
    (void)ud;
    int cards = 0;
    for (int s = 0; s < h->players; s++)
        cards += h->hand_n[s];
    printf("HOOK hand_end hand=%d ended=%d cards=%d total0=%d\n", h->hand_no, h->result.ended,
           cards, h->result.total[0]);
    const okr_hand_result *r = &h->result;
    if (r->knock_nmelds) {
        char c[3];
        printf("HOOK showdown");
        for (int i = 0; i < r->knock_nmelds; i++) {
            printf(" meld");
            for (int j = 0; j < r->knock_meld[i].n; j++)
                printf(" %s", okr_card_str(r->knock_meld[i].card[j], c));
        }
        printf(" dead");
        for (int i = 0; i < r->knock_dead_n; i++)
            printf(" %s", okr_card_str(r->knock_dead[i], c));
        for (int i = 0; i < r->layoff_n; i++)
            printf(" off %s>%d", okr_card_str(r->layoff_card[i], c), r->layoff_meld[i]);
        printf("\n");
    }
}

static void tb_game_end(const okb_game_end *g, void *ud)
{
    (void)ud;
    printf("HOOK game_end id=%s winners=%d place=%d\n", g->game_id, g->result.winners,
           g->result.placement[g->seat]);
}

static const okb_bot test_bot = {
    .name = "tester",
    .version = "9.8",
    .decide = tb_decide,
    .on_hello = tb_hello,
    .on_game_start = tb_game_start,
    .on_events = tb_events,
    .on_refused = tb_refused,
    .on_hand_end = tb_hand_end,
    .on_game_end = tb_game_end,
};

/* ---- Running it ------------------------------------------------------------------------- */

typedef struct run_result {
    okrpb_buf out; /* the channel: FromBot frames */
    okrpb_buf err; /* the log, NUL-terminated */
    int status;    /* waitpid status */
} run_result;

static void buf_add(okrpb_buf *b, const void *p, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = (b->len + n + 1) * 2;
        b->data = realloc(b->data, cap);
        assert_non_null(b->data);
        b->cap = cap;
    }
    memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = 0;
}

static void run_free(run_result *r)
{
    okrpb_buf_free(&r->out);
    okrpb_buf_free(&r->err);
}

/* Feed `in` to okb_run(test_bot) in a child and collect everything until it exits. */
static void run_bot(const okrpb_buf *in, int pick, run_result *r)
{
    int to[2], from[2], log[2];
    memset(r, 0, sizeof *r);
    buf_add(&r->err, "", 0);
    assert_int_equal(pipe(to), 0);
    assert_int_equal(pipe(from), 0);
    assert_int_equal(pipe(log), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        dup2(log[1], 2);
        close(to[0]), close(to[1]), close(from[0]), close(from[1]), close(log[0]), close(log[1]);
        script s = {pick};
        int rc = okb_run(&test_bot, &s);
        fflush(NULL);
        _exit(rc);
    }
    close(to[0]), close(from[1]), close(log[1]);
    signal(SIGPIPE, SIG_IGN);
    size_t sent = 0;
    int wfd = to[1], open_fds = 2;
    if (in->len == 0) {
        close(wfd);
        wfd = -1;
    }
    struct pollfd p[3] = {{.fd = from[0], .events = POLLIN},
                          {.fd = log[0], .events = POLLIN},
                          {.fd = wfd, .events = POLLOUT}};
    while (open_fds > 0) {
        int np = wfd >= 0 ? 3 : 2;
        int rc = poll(p, (nfds_t)np, 20000);
        assert_true(rc > 0); /* a child that hangs fails the test */
        for (int i = 0; i < 2; i++)
            if (p[i].fd >= 0 && p[i].revents) {
                uint8_t chunk[4096];
                ssize_t got = read(p[i].fd, chunk, sizeof chunk);
                if (got > 0) {
                    buf_add(i == 0 ? &r->out : &r->err, chunk, (size_t)got);
                } else if (got == 0 || errno != EINTR) {
                    close(p[i].fd);
                    p[i].fd = -1;
                    open_fds--;
                }
            }
        if (wfd >= 0 && p[2].revents) {
            ssize_t w = write(wfd, in->data + sent, in->len - sent);
            if (w > 0)
                sent += (size_t)w;
            if ((w < 0 && errno != EINTR && errno != EAGAIN) || sent == in->len) {
                close(wfd);
                wfd = -1;
            }
        }
    }
    if (wfd >= 0)
        close(wfd);
    assert_int_equal(waitpid(pid, &r->status, 0), pid);
}

static int exit_code(const run_result *r)
{
    return WIFEXITED(r->status) ? WEXITSTATUS(r->status) : 128 + WTERMSIG(r->status);
}

/* The FromBot frames of r, unpacked: out[0..n). Returns n. */
static int replies(const run_result *r, Okrpb__FromBot **out, int cap)
{
    int n = 0;
    size_t at = 0;
    while (at < r->out.len && n < cap) {
        uint64_t len;
        int used = okrpb_varint_get(r->out.data + at, r->out.len - at, &len);
        assert_true(used > 0);
        assert_true(at + (size_t)used + len <= r->out.len);
        out[n] = okrpb__from_bot__unpack(NULL, (size_t)len, r->out.data + at + used);
        assert_non_null(out[n]);
        n++;
        at += (size_t)used + (size_t)len;
    }
    assert_int_equal(at, r->out.len);
    return n;
}

static void replies_free(Okrpb__FromBot **m, int n)
{
    for (int i = 0; i < n; i++)
        okrpb__from_bot__free_unpacked(m[i], NULL);
}

/* ---- Building the input ------------------------------------------------------------------ */

static okrpb_arena *pool;

static void put(okrpb_buf *b, Okrpb__ToBot *m)
{
    assert_int_equal(okrpb_frame_append(b, &m->base), 0);
    okrpb_arena_reset(pool);
}

static void put_hello(okrpb_buf *b, const okr_rules *r, int players)
{
    Okrpb__Clocks clocks = OKRPB__CLOCKS__INIT;
    clocks.startup_ms = 1000, clocks.decision_ms = 50, clocks.bank_ms = 500, clocks.hard_ms = 900;
    Okrpb__Hello h = OKRPB__HELLO__INIT;
    h.major = 1;
    h.match_id = "m7";
    h.players = (uint32_t)players;
    h.rules = okrpb_rules_from(pool, r);
    h.clocks = &clocks;
    h.max_frame = OKRPB_MAX_FROM_BOT;
    h.bot_name = "tester";
    Okrpb__ToBot m = OKRPB__TO_BOT__INIT;
    m.msg_case = OKRPB__TO_BOT__MSG_HELLO;
    m.hello = &h;
    put(b, &m);
}

static void put_game_start(okrpb_buf *b, int seat, int players)
{
    static char *names[] = {"alice", "bob", "carol", "dave"};
    Okrpb__GameStart gs = OKRPB__GAME_START__INIT;
    gs.game_id = "g1";
    gs.seat = (uint32_t)seat;
    gs.players = (uint32_t)players;
    gs.n_names = (size_t)players;
    gs.names = names;
    gs.bank_ms = 500;
    Okrpb__ToBot m = OKRPB__TO_BOT__INIT;
    m.msg_case = OKRPB__TO_BOT__MSG_GAME_START;
    m.game_start = &gs;
    put(b, &m);
}

static okr_action legal[OKR_MAX_ACTIONS];

/* A Decision for g->to_act with the engine's legal list. Returns the number of actions. */
static int put_decision(okrpb_buf *b, const okr_game *g, uint64_t id)
{
    okr_view v;
    okr_view_of(g, g->to_act, &v);
    int n = okr_legal(g, legal, OKR_MAX_ACTIONS);
    assert_true(n > 0);
    Okrpb__Decision d = OKRPB__DECISION__INIT;
    d.id = id;
    d.view = okrpb_view_from(pool, &v);
    assert_non_null(d.view);
    d.view->knock_limit = (uint32_t)okr_knock_limit(&g->rules, v.upcard); /* as match.c */
    Okrpb__Action **acts = calloc((size_t)n, sizeof *acts);
    assert_non_null(acts);
    for (int i = 0; i < n; i++)
        assert_non_null(acts[i] = okrpb_action_from(pool, &legal[i]));
    d.n_legal = (size_t)n;
    d.legal = acts;
    d.time_ms = 50, d.bank_ms = 500, d.hard_ms = 900;
    Okrpb__ToBot m = OKRPB__TO_BOT__INIT;
    m.msg_case = OKRPB__TO_BOT__MSG_DECISION;
    m.decision = &d;
    put(b, &m);
    free(acts);
    return n;
}

static void put_bye(okrpb_buf *b)
{
    Okrpb__Bye bye = OKRPB__BYE__INIT;
    bye.reason = "done";
    Okrpb__ToBot m = OKRPB__TO_BOT__INIT;
    m.msg_case = OKRPB__TO_BOT__MSG_BYE;
    m.bye = &bye;
    put(b, &m);
}

/* A raw frame: varint length + bytes. */
static void put_raw(okrpb_buf *b, const void *p, size_t n)
{
    uint8_t v[10];
    buf_add(b, v, okrpb_varint_put(n, v));
    buf_add(b, p, n);
}

static okr_rules rules_of(const char *preset)
{
    okr_rules r;
    okr_refusal why;
    assert_int_equal(okr_rules_preset(&r, preset, &why), OKR_OK);
    return r;
}

static int setup(void **state)
{
    (void)state;
    pool = okrpb_arena_new();
    return pool ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    okrpb_arena_free(pool);
    return 0;
}

/* ---- Tests ------------------------------------------------------------------------------- */

/* Hello -> Identify{1, 0, name, version}, then on_hello, then Ready; Bye -> exit 0. */
static void test_handshake_identify_then_ready(void **state)
{
    (void)state;
    okr_rules r = rules_of("laws");
    okrpb_buf in = {0};
    put_hello(&in, &r, 3);
    put_bye(&in);
    run_result res;
    run_bot(&in, PICK_LAST, &res);
    assert_int_equal(exit_code(&res), 0);
    Okrpb__FromBot *m[8];
    int n = replies(&res, m, 8);
    assert_int_equal(n, 2);
    assert_int_equal(m[0]->msg_case, OKRPB__FROM_BOT__MSG_IDENTIFY);
    assert_int_equal(m[0]->identify->major, 1);
    assert_int_equal(m[0]->identify->minor, OKB_MINOR); /* 1.1 */
    ;
    assert_string_equal(m[0]->identify->name, "tester");
    assert_string_equal(m[0]->identify->version, "9.8");
    assert_int_equal(m[1]->msg_case, OKRPB__FROM_BOT__MSG_READY);
    assert_non_null(
        strstr((char *)res.err.data, "HOOK hello match=m7 players=3 preset=laws decision_ms=50"));
    replies_free(m, n);
    run_free(&res);
    okrpb_buf_free(&in);
}

/* A failing on_hello: Identify but no Ready, exit 1. */
static void test_handshake_hook_failure_no_ready(void **state)
{
    (void)state;
    okr_rules r = rules_of("gin");
    okrpb_buf in = {0};
    put_hello(&in, &r, 2);
    run_result res;
    run_bot(&in, PICK_HELLO_NO, &res);
    assert_int_equal(exit_code(&res), 1);
    Okrpb__FromBot *m[8];
    int n = replies(&res, m, 8);
    assert_int_equal(n, 1);
    assert_int_equal(m[0]->msg_case, OKRPB__FROM_BOT__MSG_IDENTIFY);
    replies_free(m, n);
    run_free(&res);
    okrpb_buf_free(&in);
}

/* Every Choice echoes its Decision's id and carries decide's index; the game's events,
 * hand end and game end reach the hooks decoded; EOF at a frame boundary is exit 0. */
static void test_decisions_echo_ids_and_hooks_see_the_game(void **state)
{
    (void)state;
    okr_rules r = rules_of("gin");
    okr_refusal why;
    okr_game g;
    assert_int_equal(okr_game_init(&g, &r, 2, 42, NULL, 0, &why), OKR_OK);
    okrpb_buf in = {0};
    put_hello(&in, &r, 2);
    put_game_start(&in, 0, 2);
    uint64_t ids[64];
    int expect[64], nd = 0, nev = 0;
    /* seat 0 plays the last legal action, seat 1 the first, until the hand is over */
    while (g.phase != OKR_PH_HAND_OVER && g.phase != OKR_PH_GAME_OVER && nd < 64) {
        int n = okr_legal(&g, legal, OKR_MAX_ACTIONS);
        int k = 0;
        if (g.to_act == 0) {
            ids[nd] = 1000003ULL * (uint64_t)(nd + 1) + (1ULL << 40);
            assert_int_equal(put_decision(&in, &g, ids[nd]), n);
            expect[nd++] = k = n - 1;
        }
        okr_event ev, red;
        assert_int_equal(okr_apply(&g, &legal[k], &ev, &why), OKR_OK);
        okr_event_redact(&ev, 0, &red);
        Okrpb__Event *pe = okrpb_event_from(pool, &red);
        Okrpb__Events evs = OKRPB__EVENTS__INIT;
        evs.n_events = 1;
        evs.events = &pe;
        Okrpb__ToBot m = OKRPB__TO_BOT__INIT;
        m.msg_case = OKRPB__TO_BOT__MSG_EVENTS;
        m.events = &evs;
        put(&in, &m);
        nev++;
    }
    assert_true(nd >= 2);
    assert_true(g.phase == OKR_PH_HAND_OVER || g.phase == OKR_PH_GAME_OVER);
    {
        Okrpb__ToBot m = OKRPB__TO_BOT__INIT;
        m.msg_case = OKRPB__TO_BOT__MSG_HAND_END;
        m.hand_end = okrpb_hand_end_from(pool, &g);
        assert_non_null(m.hand_end);
        put(&in, &m);
    }
    run_result res;
    run_bot(&in, PICK_LAST, &res);
    assert_int_equal(exit_code(&res), 0);
    Okrpb__FromBot *m[80];
    int n = replies(&res, m, 80);
    assert_int_equal(n, 2 + nd);
    for (int i = 0; i < nd; i++) {
        assert_int_equal(m[2 + i]->msg_case, OKRPB__FROM_BOT__MSG_CHOICE);
        assert_true(m[2 + i]->choice->id == ids[i]);
        assert_int_equal(m[2 + i]->choice->pick_case, OKRPB__CHOICE__PICK_INDEX);
        assert_int_equal(m[2 + i]->choice->index, expect[i]);
    }
    const char *log = (const char *)res.err.data;
    assert_non_null(strstr(log, "HOOK game_start id=g1 seat=0 players=2 name0=alice"));
    {
        /* 1.1: the gin knock limit reaches decide, whichever decoder read the Decision */
        char kl[48];
        snprintf(kl, sizeof kl, "knock_limit=%d\n", okr_knock_limit(&r, g.upcard));
        assert_true(okr_knock_limit(&r, g.upcard) > 0);
        assert_non_null(strstr(log, kl));
        assert_null(strstr(log, "knock_limit=0\n"));
    }
    assert_non_null(strstr(log, "HOOK event seq=1 seat="));
    char last_event[64];
    snprintf(last_event, sizeof last_event, "HOOK event seq=%d ", nev);
    assert_non_null(strstr(log, last_event));
    {
        char he[64];
        snprintf(he, sizeof he, "HOOK hand_end hand=1 ended=%d cards=%d", g.last.ended,
                 g.hand_n[0] + g.hand_n[1]);
        assert_non_null(strstr(log, he));
    }
    replies_free(m, n);
    run_free(&res);
    okrpb_buf_free(&in);
}

/* A gin knock's showdown (protocol 1.1, RULES G5) reaches on_hand_end decoded; a lay-off onto
 * a meld the knocker did not show is a broken message, never a crash. */
static void test_hand_end_carries_the_showdown(void **state)
{
    (void)state;
    okr_rules r = rules_of("gin");
    okr_refusal why;
    okr_game g;
    for (int hostile = 0; hostile < 2; hostile++) {
        assert_int_equal(okr_game_init(&g, &r, 2, 42, NULL, 0, &why), OKR_OK);
        okr_hand_result *h = &g.last;
        h->ended = OKR_END_KNOCK;
        h->winner = h->knocker = 0;
        h->knock_nmelds = 2;
        h->knock_meld[0] = (okr_ginmeld){3, {3, 4, 5}};   /* 4C 5C 6C */
        h->knock_meld[1] = (okr_ginmeld){3, {8, 21, 47}}; /* 9C 9D 9S */
        h->knock_dead_n = 1;
        h->knock_dead[0] = 14; /* 2D */
        h->layoff_n = 2;
        h->layoff_card[0] = 6; /* 7C onto meld 0 */
        h->layoff_meld[0] = 0;
        h->layoff_card[1] = 34; /* 9H onto meld 1, or onto a meld 5 that is not there */
        h->layoff_meld[1] = hostile ? 5 : 1;
        okrpb_buf in = {0};
        put_hello(&in, &r, 2);
        put_game_start(&in, 1, 2);
        Okrpb__ToBot m = OKRPB__TO_BOT__INIT;
        m.msg_case = OKRPB__TO_BOT__MSG_HAND_END;
        m.hand_end = okrpb_hand_end_from(pool, &g);
        assert_non_null(m.hand_end);
        assert_int_equal(m.hand_end->n_knock_melds, 2);
        put(&in, &m);
        run_result res;
        run_bot(&in, PICK_LAST, &res);
        const char *log = (const char *)res.err.data;
        if (!hostile) {
            assert_int_equal(exit_code(&res), 0);
            assert_non_null(
                strstr(log, "HOOK showdown meld 4C 5C 6C meld 9C 9D 9S dead 2D off 7C>0 off 9H>1"));
        } else {
            assert_int_equal(exit_code(&res), 1);
            assert_null(strstr(log, "HOOK showdown"));
            assert_non_null(strstr(log, "HandEnd: lay-off 1"));
        }
        run_free(&res);
        okrpb_buf_free(&in);
    }
}

/* okb_note (protocol 1.1): the Choice carries the note, cut to OKB_NOTE_MAX bytes at a
 * character boundary; without a call there is no note (the fast index-only frame). */
static void test_note_goes_with_the_choice(void **state)
{
    (void)state;
    okr_rules r = rules_of("laws");
    okr_refusal why;
    okr_game g;
    for (int with = 0; with < 2; with++) {
        assert_int_equal(okr_game_init(&g, &r, 3, 5, NULL, 0, &why), OKR_OK);
        okrpb_buf in = {0};
        put_hello(&in, &r, 3);
        put_game_start(&in, g.to_act, 3);
        int n = put_decision(&in, &g, 77);
        put_bye(&in);
        run_result res;
        run_bot(&in, with ? PICK_NOTE : PICK_LAST, &res);
        assert_int_equal(exit_code(&res), 0);
        Okrpb__FromBot *m[8];
        int k = replies(&res, m, 8);
        assert_int_equal(k, 3);
        const Okrpb__Choice *c = m[2]->choice;
        assert_non_null(c);
        assert_int_equal(c->index, n - 1);
        if (with) {
            assert_int_equal(strlen(c->note), 279);
            assert_memory_equal(c->note, "x\xc3\xa9\xc3\xa9", 5);
            assert_memory_equal(c->note + 277, "\xc3\xa9", 2);
        } else {
            assert_string_equal(c->note, "");
        }
        replies_free(m, k);
        run_free(&res);
        okrpb_buf_free(&in);
    }
}

/* printf in decide goes to the log, never into the channel. */
static void test_stray_printf_goes_to_stderr(void **state)
{
    (void)state;
    okr_rules r = rules_of("laws");
    okr_refusal why;
    okr_game g;
    assert_int_equal(okr_game_init(&g, &r, 3, 5, NULL, 0, &why), OKR_OK);
    okrpb_buf in = {0};
    put_hello(&in, &r, 3);
    put_game_start(&in, g.to_act, 3);
    put_decision(&in, &g, 77);
    put_bye(&in);
    run_result res;
    run_bot(&in, PICK_LAST, &res);
    assert_int_equal(exit_code(&res), 0);
    assert_non_null(strstr((const char *)res.err.data, "STRAY decide id=77"));
    assert_null(memmem(res.out.data, res.out.len, "STRAY", 5));
    Okrpb__FromBot *m[8];
    int n = replies(&res, m, 8); /* the channel holds whole frames and nothing else */
    assert_int_equal(n, 3);
    assert_true(m[2]->choice->id == 77);
    replies_free(m, n);
    run_free(&res);
    okrpb_buf_free(&in);
}

/* decide may answer with a full action; an index out of range is replaced by 0. */
static void test_full_action_and_bad_index(void **state)
{
    (void)state;
    okr_rules r = rules_of("laws");
    okr_refusal why;
    okr_game g;
    assert_int_equal(okr_game_init(&g, &r, 3, 9, NULL, 0, &why), OKR_OK);
    for (int pick = PICK_ACTION; pick <= PICK_BAD; pick++) {
        okrpb_buf in = {0};
        put_hello(&in, &r, 3);
        put_game_start(&in, g.to_act, 3);
        int n = put_decision(&in, &g, 5);
        run_result res;
        run_bot(&in, pick, &res);
        assert_int_equal(exit_code(&res), 0);
        Okrpb__FromBot *m[8];
        int nm = replies(&res, m, 8);
        assert_int_equal(nm, 3);
        Okrpb__Choice *c = m[2]->choice;
        assert_true(c->id == 5);
        if (pick == PICK_ACTION) {
            assert_int_equal(c->pick_case, OKRPB__CHOICE__PICK_ACTION);
            okr_action a;
            assert_int_equal(okrpb_action_to(c->action, &a, &why), OKR_OK);
            okr_action_normalize(&r, &a);
            assert_memory_equal(&a, &legal[n - 1], sizeof a);
        } else {
            assert_int_equal(c->pick_case, OKRPB__CHOICE__PICK_INDEX);
            assert_int_equal(c->index, 0);
            assert_non_null(strstr((const char *)res.err.data, "sending index 0"));
        }
        replies_free(m, nm);
        run_free(&res);
        okrpb_buf_free(&in);
    }
}

/* An action built by hand with seat 0 (C's zero initialisation, protobuf's default) goes out
 * with the decision's seat, so it is right at every seat (RULES 2.2; the arena refuses an
 * action for another seat); seat 1 written by the bot is sent as it is, for the arena to
 * refuse. */
static void test_hand_built_action_gets_the_seat(void **state)
{
    (void)state;
    okr_rules r = rules_of("laws");
    okr_refusal why;
    okr_game g;
    assert_int_equal(okr_game_init(&g, &r, 3, 9, NULL, 0, &why), OKR_OK);
    while (g.to_act != 2) { /* seats 0 and 1 pass the upcard */
        int n = okr_legal(&g, legal, OKR_MAX_ACTIONS);
        okr_event ev;
        assert_int_equal(okr_apply(&g, &legal[n - 1], &ev, &why), OKR_OK);
    }
    for (int pick = PICK_SEATLESS; pick <= PICK_SEAT1; pick++) {
        okrpb_buf in = {0};
        put_hello(&in, &r, 3);
        put_game_start(&in, 2, 3);
        int n = put_decision(&in, &g, 6);
        run_result res;
        run_bot(&in, pick, &res);
        assert_int_equal(exit_code(&res), 0);
        Okrpb__FromBot *m[8];
        int nm = replies(&res, m, 8);
        assert_int_equal(nm, 3);
        Okrpb__Choice *c = m[2]->choice;
        assert_int_equal(c->pick_case, OKRPB__CHOICE__PICK_ACTION);
        assert_int_equal(c->action->seat, pick == PICK_SEAT1 ? 1 : 2);
        okr_action a;
        assert_int_equal(okrpb_action_to(c->action, &a, &why), OKR_OK);
        okr_action_normalize(&r, &a);
        if (pick == PICK_SEATLESS)
            assert_memory_equal(&a, &legal[n - 1], sizeof a);
        replies_free(m, nm);
        run_free(&res);
        okrpb_buf_free(&in);
    }
}

/* Refused reaches its hook; a frame of an unknown kind (here: empty) is skipped. */
static void test_refused_and_unknown_messages(void **state)
{
    (void)state;
    okr_rules r = rules_of("german");
    okrpb_buf in = {0};
    put_hello(&in, &r, 3);
    put_raw(&in, "", 0);
    Okrpb__Refused rf = OKRPB__REFUSED__INIT;
    rf.id = 31;
    rf.rule = "4.5";
    rf.reason = "no";
    Okrpb__ToBot m = OKRPB__TO_BOT__INIT;
    m.msg_case = OKRPB__TO_BOT__MSG_REFUSED;
    m.refused = &rf;
    put(&in, &m);
    put_bye(&in);
    run_result res;
    run_bot(&in, PICK_LAST, &res);
    assert_int_equal(exit_code(&res), 0);
    assert_non_null(
        strstr((const char *)res.err.data, "HOOK refused id=31 rule=4.5 substituted=0"));
    assert_non_null(strstr((const char *)res.err.data, "unknown kind"));
    run_free(&res);
    okrpb_buf_free(&in);
}

/* Broken input ends the run with 1 after a log line, never a crash. */
static void test_broken_input_exits_1(void **state)
{
    (void)state;
    okr_rules r = rules_of("laws");
    okr_refusal why;
    okr_game g;
    assert_int_equal(okr_game_init(&g, &r, 3, 1, NULL, 0, &why), OKR_OK);
    for (int c = 0; c < 9; c++) {
        okrpb_buf in = {0};
        switch (c) {
        case 0: /* text instead of frames: a length, then too few bytes */
            buf_add(&in, "hello arena\n", 12);
            break;
        case 1: /* a frame that is no protobuf message */
            put_raw(&in, "\xff\xff\xff\xff", 4);
            break;
        case 2: /* a length prefix longer than 10 bytes */
            buf_add(&in, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 12);
            break;
        case 3: /* a frame longer than the SDK accepts */
            buf_add(&in, "\xff\xff\xff\xff\x0f", 5);
            break;
        case 4: /* a Decision before Hello */
            put_decision(&in, &g, 1);
            break;
        case 5: /* a Decision outside a game */
            put_hello(&in, &r, 3);
            put_decision(&in, &g, 1);
            break;
        case 6: { /* a Decision with no legal action */
            put_hello(&in, &r, 3);
            put_game_start(&in, g.to_act, 3);
            okr_view v;
            okr_view_of(&g, g.to_act, &v);
            Okrpb__Decision d = OKRPB__DECISION__INIT;
            d.id = 3;
            d.view = okrpb_view_from(pool, &v);
            Okrpb__ToBot m = OKRPB__TO_BOT__INIT;
            m.msg_case = OKRPB__TO_BOT__MSG_DECISION;
            m.decision = &d;
            put(&in, &m);
            break;
        }
        case 7: { /* a view with a card that does not exist */
            put_hello(&in, &r, 3);
            put_game_start(&in, g.to_act, 3);
            okr_view v;
            okr_view_of(&g, g.to_act, &v);
            Okrpb__View *pv = okrpb_view_from(pool, &v);
            pv->hand[0] = 99;
            assert_true(okr_legal(&g, legal, OKR_MAX_ACTIONS) > 0);
            Okrpb__Action *a = okrpb_action_from(pool, &legal[0]);
            Okrpb__Decision d = OKRPB__DECISION__INIT;
            d.id = 3;
            d.view = pv;
            d.n_legal = 1;
            d.legal = &a;
            Okrpb__ToBot m = OKRPB__TO_BOT__INIT;
            m.msg_case = OKRPB__TO_BOT__MSG_DECISION;
            m.decision = &d;
            put(&in, &m);
            break;
        }
        default: /* input that ends inside a frame */
            put_hello(&in, &r, 3);
            in.len -= 3;
            break;
        }
        run_result res;
        run_bot(&in, PICK_LAST, &res);
        if (exit_code(&res) != 1)
            print_error("case %d: exit %d, log:\n%s\n", c, exit_code(&res), (char *)res.err.data);
        assert_int_equal(exit_code(&res), 1);
        assert_non_null(strstr((const char *)res.err.data, "tester: "));
        run_free(&res);
        okrpb_buf_free(&in);
    }
}

/* No input at all is a clean end. */
static void test_empty_input_exits_0(void **state)
{
    (void)state;
    okrpb_buf in = {0};
    run_result res;
    run_bot(&in, PICK_LAST, &res);
    assert_int_equal(exit_code(&res), 0);
    assert_int_equal(res.out.len, 0);
    run_free(&res);
}

/* Mutated streams (bytes flipped, cut, duplicated) end with 0 or 1, never a signal. */
static void test_mutated_streams_never_crash(void **state)
{
    (void)state;
    okr_rules r = rules_of("laws");
    okr_refusal why;
    okr_game g;
    assert_int_equal(okr_game_init(&g, &r, 3, 17, NULL, 0, &why), OKR_OK);
    okrpb_buf good = {0};
    put_hello(&good, &r, 3);
    put_game_start(&good, g.to_act, 3);
    put_decision(&good, &g, 8);
    put_bye(&good);
    uint64_t rng = 12345;
    int rounds = getenv("OKR_SANITIZE") ? 60 : 300;
    for (int i = 0; i < rounds; i++) {
        okrpb_buf in = {0};
        buf_add(&in, good.data, good.len);
        int flips = 1 + (int)okb_rand_below(&rng, 8);
        for (int f = 0; f < flips; f++)
            in.data[okb_rand_below(&rng, (uint32_t)in.len)] = (uint8_t)okb_rand(&rng);
        if (okb_rand_below(&rng, 4) == 0)
            in.len = okb_rand_below(&rng, (uint32_t)in.len);
        run_result res;
        run_bot(&in, PICK_LAST, &res);
        int code = exit_code(&res);
        if (code != 0 && code != 1)
            print_error("round %d: exit %d, log:\n%s\n", i, code, (char *)res.err.data);
        assert_true(code == 0 || code == 1);
        run_free(&res);
        okrpb_buf_free(&in);
    }
    okrpb_buf_free(&good);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_handshake_identify_then_ready),
        cmocka_unit_test(test_handshake_hook_failure_no_ready),
        cmocka_unit_test(test_decisions_echo_ids_and_hooks_see_the_game),
        cmocka_unit_test(test_hand_end_carries_the_showdown),
        cmocka_unit_test(test_note_goes_with_the_choice),
        cmocka_unit_test(test_stray_printf_goes_to_stderr),
        cmocka_unit_test(test_full_action_and_bad_index),
        cmocka_unit_test(test_hand_built_action_gets_the_seat),
        cmocka_unit_test(test_refused_and_unknown_messages),
        cmocka_unit_test(test_broken_input_exits_1),
        cmocka_unit_test(test_empty_input_exits_0),
        cmocka_unit_test(test_mutated_streams_never_crash),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
