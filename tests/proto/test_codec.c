/* test_codec.c - proto/codec.c: engine values -> messages -> wire -> messages -> engine
 * values, on real random games of every preset (views, every legal action of sampled
 * states, events for every seat, hand and game ends, rules), the wrapping ToBot/FromBot
 * messages, and hostile input: out-of-range values are refused with rule "protocol", and a
 * fuzz loop of random and mutated bytes through okrpb__from_bot__unpack / okrpb__to_bot__unpack
 * and the decoders must never crash. */
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

static int sanitized(void)
{
    const char *s = getenv("OKR_SANITIZE");
    return s && *s == '1';
}

static const char *const presets[] = {"laws", "parlett", "arlington", "german", "gin"};
enum { NPRESETS = sizeof presets / sizeof presets[0] };

static okr_action acts[OKR_MAX_ACTIONS];

/* Pack a message, unpack it again as `desc` (protobuf-c's generic unpack). The caller frees
 * the result with protobuf_c_message_free_unpacked. */
static ProtobufCMessage *wire(const ProtobufCMessage *m, const ProtobufCMessageDescriptor *desc)
{
    size_t n = protobuf_c_message_get_packed_size(m);
    uint8_t *buf = malloc(n ? n : 1);
    assert_non_null(buf);
    assert_int_equal(protobuf_c_message_pack(m, buf), n);
    ProtobufCMessage *u = protobuf_c_message_unpack(desc, NULL, n, buf);
    assert_non_null(u);
    free(buf);
    return u;
}

/* Through a frame and the reader, as on a pipe: ToBot. */
static Okrpb__ToBot *wire_to_bot(const Okrpb__ToBot *m)
{
    okrpb_buf b = {0};
    assert_int_equal(okrpb_frame_append(&b, &m->base), 0);
    okrpb_reader r;
    assert_int_equal(okrpb_reader_init(&r, OKRPB_MAX_TO_BOT), 0);
    size_t room;
    uint8_t *p = okrpb_reader_space(&r, &room);
    assert_true(b.len <= room);
    memcpy(p, b.data, b.len);
    okrpb_reader_commit(&r, b.len);
    const uint8_t *msg;
    size_t len;
    assert_int_equal(okrpb_reader_next(&r, &msg, &len), OKRPB_FRAME_OK);
    Okrpb__ToBot *u = okrpb__to_bot__unpack(NULL, len, msg);
    assert_non_null(u);
    assert_int_equal(okrpb_reader_next(&r, &msg, &len), OKRPB_FRAME_MORE);
    okrpb_reader_free(&r);
    okrpb_buf_free(&b);
    return u;
}

static okr_rules rules_of(const char *preset)
{
    okr_rules r;
    okr_refusal why;
    memset(&r, 0, sizeof r);
    assert_int_equal(okr_rules_preset(&r, preset, &why), OKR_OK);
    return r;
}

static void assert_rules_equal(const okr_rules *a, const okr_rules *b)
{
    char ta[2048], tb[2048];
    assert_true(okr_rules_format(a, ta, sizeof ta) > 0);
    assert_true(okr_rules_format(b, tb, sizeof tb) > 0);
    assert_string_equal(ta, tb);
    assert_string_equal(a->preset, b->preset);
    assert_int_equal(a->family, b->family);
    assert_int_equal(a->min_players, b->min_players);
    assert_int_equal(a->max_players, b->max_players);
}

/* ---- Per-state checks ------------------------------------------------------------------ */

typedef struct stats {
    long views, actions, events, hand_ends, game_ends, decisions;
    long showdowns, layoffs;        /* gin knocks, and cards laid off in them */
    long type[OKR_A_PASS + 1];      /* actions checked, by type */
    long how[2][OKR_HOW_JOKER + 1]; /* TAKE and CLAIM actions checked, by how */
    long phase[OKR_PH_GAME_OVER + 1];
} stats;

static stats st;

static void check_view(okrpb_arena *a, const okr_game *g, int seat)
{
    okr_view v, back;
    okr_refusal why;
    okr_view_of(g, seat, &v);
    Okrpb__View *m = okrpb_view_from(a, &v);
    assert_non_null(m);
    Okrpb__View *u = (Okrpb__View *)wire(&m->base, &okrpb__view__descriptor);
    memset(&back, 0xAB, sizeof back); /* the decoder must set every byte */
    int rc = okrpb_view_to(u, &back, &why);
    if (rc != OKR_OK)
        fail_msg("view_to: [%s] %s", why.rule, why.reason);
    assert_memory_equal(&v, &back, sizeof v);
    protobuf_c_message_free_unpacked(&u->base, NULL);
    st.views++;
}

/* Every legal action (or a sample of them) through a Decision message on a frame. */
static void check_decision(okrpb_arena *a, const okr_game *g, int n)
{
    okr_view v, back;
    okr_refusal why;
    okr_view_of(g, g->to_act, &v);
    enum { SAMPLE = 48 };
    int idx[SAMPLE + 2];
    int k = 0;
    if (n <= SAMPLE) {
        for (int i = 0; i < n; i++)
            idx[k++] = i;
    } else {
        idx[k++] = 0;
        idx[k++] = n - 1;
        while (k < SAMPLE)
            idx[k++] = (int)rng_below((size_t)n);
    }
    Okrpb__Decision d = OKRPB__DECISION__INIT;
    d.id = rng_next();
    d.view = okrpb_view_from(a, &v);
    assert_non_null(d.view);
    Okrpb__Action *legal[SAMPLE + 2];
    for (int i = 0; i < k; i++) {
        legal[i] = okrpb_action_from(a, &acts[idx[i]]);
        assert_non_null(legal[i]);
        assert_true(legal[i]->text[0] != '\0'); /* every legal action has a notation */
    }
    d.n_legal = (size_t)k;
    d.legal = legal;
    d.time_ms = 1000;
    d.bank_ms = 30000;
    d.hard_ms = 60000;
    Okrpb__ToBot tb = OKRPB__TO_BOT__INIT;
    tb.msg_case = OKRPB__TO_BOT__MSG_DECISION;
    tb.decision = &d;
    Okrpb__ToBot *u = wire_to_bot(&tb);
    assert_int_equal(u->msg_case, OKRPB__TO_BOT__MSG_DECISION);
    assert_true(u->decision->id == d.id);
    assert_int_equal(u->decision->time_ms, 1000);
    assert_int_equal(u->decision->bank_ms, 30000);
    assert_int_equal(u->decision->hard_ms, 60000);
    assert_int_equal(okrpb_view_to(u->decision->view, &back, &why), OKR_OK);
    assert_memory_equal(&v, &back, sizeof v);
    assert_int_equal(u->decision->n_legal, (size_t)k);
    for (int i = 0; i < k; i++) {
        okr_action x;
        const okr_action *want = &acts[idx[i]];
        memset(&x, 0xCD, sizeof x);
        int rc = okrpb_action_to(u->decision->legal[i], &x, &why);
        if (rc != OKR_OK)
            fail_msg("action_to: [%s] %s", why.rule, why.reason);
        okr_action_normalize(&g->rules, &x);
        assert_memory_equal(&x, want, sizeof x);
        /* The text is the action's notation: parsing it gives the same action back. */
        okr_action y;
        memset(&y, 0, sizeof y);
        rc = okr_action_parse(g, u->decision->legal[i]->text, &y, &why);
        if (rc != OKR_OK)
            fail_msg("parse '%s': %s", u->decision->legal[i]->text, why.reason);
        okr_action_normalize(&g->rules, &y);
        assert_memory_equal(&y, want, sizeof y);

        /* The same action as a bot's full-action Choice. */
        Okrpb__Choice c = OKRPB__CHOICE__INIT;
        c.id = d.id;
        c.pick_case = OKRPB__CHOICE__PICK_ACTION;
        c.action = u->decision->legal[i];
        Okrpb__FromBot fb = OKRPB__FROM_BOT__INIT;
        fb.msg_case = OKRPB__FROM_BOT__MSG_CHOICE;
        fb.choice = &c;
        Okrpb__FromBot *fu = (Okrpb__FromBot *)wire(&fb.base, &okrpb__from_bot__descriptor);
        assert_int_equal(fu->msg_case, OKRPB__FROM_BOT__MSG_CHOICE);
        assert_int_equal(fu->choice->pick_case, OKRPB__CHOICE__PICK_ACTION);
        assert_true(fu->choice->id == d.id);
        assert_int_equal(okrpb_action_to(fu->choice->action, &x, &why), OKR_OK);
        okr_action_normalize(&g->rules, &x);
        assert_memory_equal(&x, want, sizeof x);
        protobuf_c_message_free_unpacked(&fu->base, NULL);
        st.actions++;
        st.type[want->type]++;
        if (want->type == OKR_A_TAKE || want->type == OKR_A_CLAIM)
            st.how[want->type == OKR_A_CLAIM][want->how]++;
    }
    okrpb__to_bot__free_unpacked(u, NULL);
    st.decisions++;
    st.phase[g->phase]++;
}

/* One applied action's event, redacted for each seat, in an Events message. */
static void check_events(okrpb_arena *a, const okr_game *g, const okr_event *ev)
{
    okr_refusal why;
    for (int s = 0; s < g->players; s++) {
        okr_event r, back;
        okr_event_redact(ev, s, &r);
        Okrpb__Event *e = okrpb_event_from(a, &r);
        assert_non_null(e);
        if (r.type == OKR_A_DRAW) {
            char want[16] = "draw";
            if (r.card != OKR_NOCARD) {
                char c[3];
                snprintf(want, sizeof want, "draw %s", okr_card_str(r.card, c));
            }
            assert_string_equal(e->text, want);
        }
        /* A hidden card never shows up in the text. */
        if (ev->card < OKR_KINDS && r.card == OKR_NOCARD) {
            char c[3];
            assert_null(strstr(e->text, okr_card_str(ev->card, c)));
        }
        Okrpb__Event *list[1] = {e};
        Okrpb__Events es = OKRPB__EVENTS__INIT;
        es.n_events = 1;
        es.events = list;
        Okrpb__ToBot tb = OKRPB__TO_BOT__INIT;
        tb.msg_case = OKRPB__TO_BOT__MSG_EVENTS;
        tb.events = &es;
        Okrpb__ToBot *u = (Okrpb__ToBot *)wire(&tb.base, &okrpb__to_bot__descriptor);
        assert_int_equal(u->msg_case, OKRPB__TO_BOT__MSG_EVENTS);
        assert_int_equal(u->events->n_events, 1);
        memset(&back, 0xEE, sizeof back);
        int rc = okrpb_event_to(u->events->events[0], &back, &why);
        if (rc != OKR_OK)
            fail_msg("event_to: [%s] %s", why.rule, why.reason);
        assert_memory_equal(&back, &r, sizeof r);
        assert_string_equal(u->events->events[0]->text, e->text);
        okrpb__to_bot__free_unpacked(u, NULL);
        st.events++;
    }
}

static void check_hand_end(okrpb_arena *a, const okr_game *g)
{
    Okrpb__HandEnd *m = okrpb_hand_end_from(a, g);
    assert_non_null(m);
    Okrpb__ToBot tb = OKRPB__TO_BOT__INIT;
    tb.msg_case = OKRPB__TO_BOT__MSG_HAND_END;
    tb.hand_end = m;
    Okrpb__ToBot *u = (Okrpb__ToBot *)wire(&tb.base, &okrpb__to_bot__descriptor);
    const Okrpb__HandEnd *h = u->hand_end;
    const okr_hand_result *l = &g->last;
    size_t p = g->players;
    assert_int_equal(h->hand_no, g->hand_no);
    assert_int_equal(h->ended, l->ended);
    assert_int_equal(h->winner, l->winner);
    assert_int_equal(h->knocker, l->knocker);
    assert_int_equal(h->n_melded, p);
    assert_int_equal(h->n_total, p);
    assert_int_equal(h->n_hand_sizes, p);
    size_t at = 0;
    for (size_t s = 0; s < p; s++) {
        assert_int_equal(h->melded[s], l->melded[s]);
        assert_int_equal(h->debit[s], l->debit[s]);
        assert_int_equal(h->out_bonus[s], l->out_bonus[s]);
        assert_int_equal(h->concealed[s], l->concealed[s]);
        assert_int_equal(h->deadwood[s], l->deadwood[s]);
        assert_int_equal(h->score[s], l->score[s]);
        assert_int_equal(h->total[s], l->total[s]);
        assert_int_equal(h->hand_sizes[s], g->hand_n[s]);
        uint8_t count[OKR_KINDS] = {0};
        for (uint32_t i = 0; i < h->hand_sizes[s]; i++, at++) {
            assert_true(at < h->n_hands);
            assert_true(h->hands[at] < OKR_KINDS);
            if (i)
                assert_true(h->hands[at - 1] <= h->hands[at]); /* ascending */
            count[h->hands[at]]++;
        }
        assert_memory_equal(count, g->hand[s], OKR_KINDS);
    }
    assert_int_equal(at, h->n_hands);
    /* 1.1: a gin knock's showdown survives the wire card by card */
    assert_int_equal(h->n_knock_melds, l->knocker >= 0 ? l->knock_nmelds : 0);
    for (size_t i = 0; i < h->n_knock_melds; i++) {
        assert_int_equal(h->knock_melds[i]->n_cards, l->knock_meld[i].n);
        for (size_t j = 0; j < h->knock_melds[i]->n_cards; j++)
            assert_int_equal(h->knock_melds[i]->cards[j], l->knock_meld[i].card[j]);
    }
    if (h->n_knock_melds) {
        assert_int_equal(h->n_knock_deadwood, l->knock_dead_n);
        for (size_t i = 0; i < h->n_knock_deadwood; i++)
            assert_int_equal(h->knock_deadwood[i], l->knock_dead[i]);
        assert_int_equal(h->n_layoffs, l->layoff_n);
        for (size_t i = 0; i < h->n_layoffs; i++) {
            assert_int_equal(h->layoffs[i]->card, l->layoff_card[i]);
            assert_int_equal(h->layoffs[i]->meld, l->layoff_meld[i]);
            st.layoffs++;
        }
        st.showdowns++;
    }
    okrpb__to_bot__free_unpacked(u, NULL);
    st.hand_ends++;
}

static void check_game_end(okrpb_arena *a, const okr_game *g)
{
    for (int seat = 0; seat < g->players; seat++) {
        Okrpb__GameEnd *m = okrpb_game_end_from(a, g, seat, "g-42", seat == 1 ? "TLE" : NULL);
        assert_non_null(m);
        Okrpb__ToBot tb = OKRPB__TO_BOT__INIT;
        tb.msg_case = OKRPB__TO_BOT__MSG_GAME_END;
        tb.game_end = m;
        Okrpb__ToBot *u = wire_to_bot(&tb);
        const Okrpb__GameEnd *e = u->game_end;
        const okr_game_result *r = &g->result;
        assert_string_equal(e->game_id, "g-42");
        assert_string_equal(e->verdict, seat == 1 ? "TLE" : "");
        assert_int_equal(e->seat, seat);
        assert_int_equal(e->n_winners, g->players);
        assert_int_equal(e->n_settlement, g->players);
        int any = 0;
        for (int s = 0; s < g->players; s++) {
            assert_int_equal(e->winners[s], (r->winners >> s) & 1);
            any |= e->winners[s];
            assert_int_equal(e->score[s], r->score[s]);
            assert_int_equal(e->concealed[s], r->concealed[s]);
            assert_int_equal(e->winner_bonus[s], r->winner_bonus[s]);
            assert_int_equal(e->final_total[s], r->final_total[s]);
            assert_int_equal(e->placement[s], r->placement[s]);
            assert_int_equal(e->settlement[s], r->settlement[s]);
        }
        assert_true(any);
        okrpb__to_bot__free_unpacked(u, NULL);
    }
    st.game_ends++;
}

static void check_rules(okrpb_arena *a, const okr_rules *r)
{
    okr_rules back;
    okr_refusal why;
    Okrpb__Rules *m = okrpb_rules_from(a, r);
    assert_non_null(m);
    for (int i = 0; okr_rules_option_name(i); i++) {
        assert_true((size_t)i < m->n_options);
        assert_string_equal(m->options[i]->name, okr_rules_option_name(i));
    }
    /* Through a Hello, as the arena sends it. */
    Okrpb__Clocks clocks = OKRPB__CLOCKS__INIT;
    clocks.startup_ms = 10000;
    clocks.decision_ms = 1000;
    Okrpb__Hello hello = OKRPB__HELLO__INIT;
    hello.major = 1;
    hello.players = 4;
    hello.match_id = "m1";
    hello.rules = m;
    hello.clocks = &clocks;
    hello.max_frame = OKRPB_MAX_FROM_BOT;
    hello.bot_name = "bob";
    Okrpb__ToBot tb = OKRPB__TO_BOT__INIT;
    tb.msg_case = OKRPB__TO_BOT__MSG_HELLO;
    tb.hello = &hello;
    Okrpb__ToBot *u = wire_to_bot(&tb);
    assert_int_equal(u->msg_case, OKRPB__TO_BOT__MSG_HELLO);
    assert_int_equal(u->hello->major, 1);
    assert_int_equal(u->hello->clocks->startup_ms, 10000);
    assert_int_equal(u->hello->max_frame, OKRPB_MAX_FROM_BOT);
    assert_string_equal(u->hello->bot_name, "bob");
    assert_string_equal(u->hello->rules->text, m->text);
    memset(&back, 0x5A, sizeof back);
    int rc = okrpb_rules_to(u->hello->rules, &back, &why);
    if (rc != OKR_OK)
        fail_msg("rules_to: [%s] %s", why.rule, why.reason);
    assert_rules_equal(r, &back);
    okrpb__to_bot__free_unpacked(u, NULL);
}

/* ---- Whole games ----------------------------------------------------------------------- */

/* Play one random game, checking everything along the way. */
static void play(okrpb_arena *a, const okr_rules *r, int players, uint64_t seed, int max_steps)
{
    static okr_game g;
    okr_refusal why;
    memset(&g, 0, sizeof g);
    int rc = okr_game_init(&g, r, players, seed, NULL, 0, &why);
    if (rc != OKR_OK)
        fail_msg("init %s/%d: %s", r->preset, players, why.reason);
    for (int step = 0; step < max_steps; step++) {
        okrpb_arena_reset(a);
        if (g.phase == OKR_PH_GAME_OVER) {
            check_hand_end(a, &g);
            check_game_end(a, &g);
            for (int s = 0; s < players; s++)
                check_view(a, &g, s);
            return;
        }
        if (g.phase == OKR_PH_HAND_OVER) {
            check_hand_end(a, &g);
            check_view(a, &g, (int)rng_below((size_t)players));
            assert_int_equal(okr_next_hand(&g, NULL, 0, &why), OKR_OK);
            continue;
        }
        int n = okr_legal(&g, acts, OKR_MAX_ACTIONS);
        assert_true(n > 0);
        /* Check every third decision in depth, the views of all seats now and then. */
        int rare = 0; /* knocks, Joker exchanges: check every time they are on offer */
        for (int i = 0; i < n && !rare; i++)
            rare = acts[i].type == OKR_A_KNOCK || acts[i].type == OKR_A_REPLACE ||
                   ((acts[i].type == OKR_A_TAKE || acts[i].type == OKR_A_CLAIM) &&
                    acts[i].how == OKR_HOW_JOKER);
        if (step % 3 == 0 || rare)
            check_decision(a, &g, n);
        if (step % 7 == 0)
            for (int s = 0; s < players; s++)
                check_view(a, &g, s);
        /* Prefer actions that end the hand sooner: melds, adds, knocks; not passes. */
        int pick = (int)rng_below((size_t)n);
        for (int t = 0; t < 3 && acts[pick].type == OKR_A_PASS && n > 1; t++)
            pick = (int)rng_below((size_t)n);
        if (acts[n - 1].type == OKR_A_KNOCK && rng_below(2)) /* knocks are listed last */
            while (acts[pick].type != OKR_A_KNOCK)
                pick = (int)rng_below((size_t)n);
        okr_event ev;
        rc = okr_apply(&g, &acts[pick], &ev, &why);
        if (rc != OKR_OK)
            fail_msg("apply: [%s] %s", why.rule, why.reason);
        check_events(a, &g, &ev);
    }
}

static void test_games_every_preset(void **state)
{
    (void)state;
    okrpb_arena *a = okrpb_arena_new();
    assert_non_null(a);
    rng_state = 2024;
    int games = sanitized() ? 4 : 20;
    for (int p = 0; p < NPRESETS; p++) {
        okr_rules r = rules_of(presets[p]);
        okr_refusal why;
        /* Short games, so each reaches GAME_OVER: few hands, a low turn cap. */
        assert_int_equal(okr_rules_set(&r, "max_hands", "3", &why), OKR_OK);
        assert_int_equal(okr_rules_set(&r, "max_turns", "60", &why), OKR_OK);
        for (int i = 0; i < games; i++) {
            int lo = r.min_players, hi = r.max_players;
            int players = lo + (int)rng_below((size_t)(hi - lo + 1));
            okr_rules rr = r;
            /* Big tables need more packs (RULES 1.5); else fewer seats. */
            if (okr_rules_check(&rr, players, &why) != OKR_OK)
                (void)okr_rules_set(&rr, "decks", "3", &why);
            while (okr_rules_check(&rr, players, &why) != OKR_OK && players > lo)
                players--;
            play(a, &rr, players, rng_next(), 100000);
        }
    }
    /* Knocks are rare under random play: more gin games until some were checked. */
    okr_rules gin = rules_of("gin");
    for (int i = 0; i < 500 && (st.type[OKR_A_KNOCK] < 5 || st.layoffs < 3); i++)
        play(a, &gin, 2, rng_next(), 100000);
    okrpb_arena_free(a);
    print_message("proto: %ld decisions, %ld actions, %ld views, %ld events, %ld hand ends, "
                  "%ld game ends\n",
                  st.decisions, st.actions, st.views, st.events, st.hand_ends, st.game_ends);
    assert_true(st.game_ends >= NPRESETS * games);
    /* showdowns with lay-offs went over the wire (1.1) */
    print_message("proto: %ld gin showdowns, %ld lay-offs\n", st.showdowns, st.layoffs);
    assert_true(st.showdowns >= 5 && st.layoffs >= 3);
    /* The sample reached every kind of action and every phase with a decision. */
    for (int t = OKR_A_DRAW; t <= OKR_A_PASS; t++) {
        print_message("proto: type %d: %ld actions\n", t, st.type[t]);
        assert_true(st.type[t] > 0);
    }
    for (int h = OKR_HOW_PLAIN; h <= OKR_HOW_JOKER; h++)
        print_message("proto: take how %d: %ld, claim how %d: %ld\n", h, st.how[0][h], h,
                      st.how[1][h]);
    assert_true(st.how[0][OKR_HOW_PLAIN] && st.how[0][OKR_HOW_NEW] && st.how[0][OKR_HOW_ADD]);
    assert_true(st.how[1][OKR_HOW_NEW]);
    for (int p = OKR_PH_UPCARD; p <= OKR_PH_PLAY; p++) {
        print_message("proto: phase %d: %ld decisions\n", p, st.phase[p]);
        assert_true(st.phase[p] > 0);
    }
}

/* A full-length game of every preset (no caps), with fewer checks per state. */
static void test_full_games(void **state)
{
    (void)state;
    okrpb_arena *a = okrpb_arena_new();
    rng_state = 77;
    for (int p = 0; p < NPRESETS; p++) {
        okr_rules r = rules_of(presets[p]);
        long before = st.game_ends;
        play(a, &r, r.min_players, rng_next(), 1000000);
        assert_int_equal(st.game_ends, before + 1);
    }
    okrpb_arena_free(a);
}

static void test_rules_round_trip(void **state)
{
    (void)state;
    okrpb_arena *a = okrpb_arena_new();
    okr_refusal why;
    for (int p = 0; p < NPRESETS; p++) {
        okr_rules r = rules_of(presets[p]);
        check_rules(a, &r);
        okrpb_arena_reset(a);
    }
    /* With overrides. */
    okr_rules r = rules_of("laws");
    assert_int_equal(okr_rules_set(&r, "qs_discard", "any", &why), OKR_OK);
    assert_int_equal(okr_rules_set(&r, "decks", "3", &why), OKR_OK);
    assert_int_equal(okr_rules_set(&r, "target", "500", &why), OKR_OK);
    assert_int_equal(okr_rules_set(&r, "ace", "high", &why), OKR_OK);
    check_rules(a, &r);
    r = rules_of("gin");
    assert_int_equal(okr_rules_set(&r, "gin_bonus", "50", &why), OKR_OK);
    check_rules(a, &r);
    okrpb_arena_free(a);
}

/* The arena's other messages: GameStart, Refused, Bye; the bot's Identify and Ready. */
static void test_other_messages(void **state)
{
    (void)state;
    okrpb_arena *a = okrpb_arena_new();
    char *names[3] = {"alice", "bob", "carol"};
    Okrpb__GameStart gs = OKRPB__GAME_START__INIT;
    gs.game_id = "r1-t2-g3";
    gs.seat = 2;
    gs.players = 3;
    gs.n_names = 3;
    gs.names = names;
    gs.bank_ms = 30000;
    Okrpb__ToBot tb = OKRPB__TO_BOT__INIT;
    tb.msg_case = OKRPB__TO_BOT__MSG_GAME_START;
    tb.game_start = &gs;
    Okrpb__ToBot *u = wire_to_bot(&tb);
    assert_int_equal(u->msg_case, OKRPB__TO_BOT__MSG_GAME_START);
    assert_string_equal(u->game_start->game_id, "r1-t2-g3");
    assert_int_equal(u->game_start->n_names, 3);
    assert_string_equal(u->game_start->names[2], "carol");
    okrpb__to_bot__free_unpacked(u, NULL);

    okr_action x;
    memset(&x, 0, sizeof x);
    x.type = OKR_A_DISCARD;
    x.seat = 1;
    x.card = OKR_KIND(3, 12);
    Okrpb__Refused rf = OKRPB__REFUSED__INIT;
    rf.id = 99;
    rf.rule = "4.5";
    rf.reason = "the Q of spades may not be discarded now";
    rf.substituted = okrpb_action_from(a, &x);
    assert_string_equal(rf.substituted->text, "discard QS");
    tb.msg_case = OKRPB__TO_BOT__MSG_REFUSED;
    tb.refused = &rf;
    u = wire_to_bot(&tb);
    assert_true(u->refused->id == 99);
    assert_string_equal(u->refused->rule, "4.5");
    okr_action y;
    okr_refusal why;
    assert_int_equal(okrpb_action_to(u->refused->substituted, &y, &why), OKR_OK);
    assert_memory_equal(&x, &y, sizeof x);
    okrpb__to_bot__free_unpacked(u, NULL);

    Okrpb__Bye bye = OKRPB__BYE__INIT;
    bye.reason = "match over";
    tb.msg_case = OKRPB__TO_BOT__MSG_BYE;
    tb.bye = &bye;
    u = wire_to_bot(&tb);
    assert_string_equal(u->bye->reason, "match over");
    okrpb__to_bot__free_unpacked(u, NULL);

    Okrpb__Identify id = OKRPB__IDENTIFY__INIT;
    id.major = 1;
    id.minor = 0;
    id.name = "mybot";
    id.version = "0.1";
    Okrpb__FromBot fb = OKRPB__FROM_BOT__INIT;
    fb.msg_case = OKRPB__FROM_BOT__MSG_IDENTIFY;
    fb.identify = &id;
    Okrpb__FromBot *fu = (Okrpb__FromBot *)wire(&fb.base, &okrpb__from_bot__descriptor);
    assert_int_equal(fu->msg_case, OKRPB__FROM_BOT__MSG_IDENTIFY);
    assert_string_equal(fu->identify->name, "mybot");
    assert_string_equal(fu->identify->version, "0.1");
    protobuf_c_message_free_unpacked(&fu->base, NULL);

    Okrpb__Ready ready = OKRPB__READY__INIT;
    fb.msg_case = OKRPB__FROM_BOT__MSG_READY;
    fb.ready = &ready;
    fu = (Okrpb__FromBot *)wire(&fb.base, &okrpb__from_bot__descriptor);
    assert_int_equal(fu->msg_case, OKRPB__FROM_BOT__MSG_READY);
    protobuf_c_message_free_unpacked(&fu->base, NULL);

    Okrpb__Choice c = OKRPB__CHOICE__INIT;
    c.id = UINT64_MAX;
    c.pick_case = OKRPB__CHOICE__PICK_INDEX;
    c.index = 0; /* index 0 is not the default "not set": the oneof case says it is there */
    fb.msg_case = OKRPB__FROM_BOT__MSG_CHOICE;
    fb.choice = &c;
    fu = (Okrpb__FromBot *)wire(&fb.base, &okrpb__from_bot__descriptor);
    assert_int_equal(fu->choice->pick_case, OKRPB__CHOICE__PICK_INDEX);
    assert_int_equal(fu->choice->index, 0);
    assert_true(fu->choice->id == UINT64_MAX);
    protobuf_c_message_free_unpacked(&fu->base, NULL);
    okrpb_arena_free(a);
}

/* Event text: the notation words, redacted like the card. */
static void test_event_text(void **state)
{
    (void)state;
    okrpb_arena *a = okrpb_arena_new();
    okr_event e;
    memset(&e, 0, sizeof e);
    e.seq = 5;
    e.type = OKR_A_DRAW;
    e.card = OKR_NOCARD;
    e.meld = 255;
    assert_string_equal(okrpb_event_from(a, &e)->text, "draw");
    e.card = OKR_KIND(2, 7);
    assert_string_equal(okrpb_event_from(a, &e)->text, "draw 7H");
    e.type = OKR_A_DISCARD;
    e.card = OKR_KIND(3, 12);
    assert_string_equal(okrpb_event_from(a, &e)->text, "discard QS");
    e.type = OKR_A_TAKE;
    e.how = OKR_HOW_ADD;
    e.meld = 2;
    e.card = OKR_KIND(2, 9);
    assert_string_equal(okrpb_event_from(a, &e)->text, "take add 2 9H");
    e.how = OKR_HOW_NEW;
    assert_string_equal(okrpb_event_from(a, &e)->text, "take new 9H");
    e.how = OKR_HOW_PLAIN;
    assert_string_equal(okrpb_event_from(a, &e)->text, "take 9H");
    e.type = OKR_A_MELD;
    e.card = OKR_NOCARD;
    assert_string_equal(okrpb_event_from(a, &e)->text, "meld");
    e.type = OKR_A_REPLACE;
    e.card = OKR_KIND(0, 5);
    e.meld = 0;
    assert_string_equal(okrpb_event_from(a, &e)->text, "replace 0 5C");
    e.type = OKR_A_PASS;
    assert_string_equal(okrpb_event_from(a, &e)->text, "pass");
    e.type = OKR_A_CLAIM;
    e.how = OKR_HOW_ADD;
    e.meld = 3;
    e.card = OKR_JOKER;
    assert_string_equal(okrpb_event_from(a, &e)->text, "claim add 3 JK");
    okrpb_arena_free(a);
}

/* ---- Hostile input --------------------------------------------------------------------- */

/* `local`: the message holds NULL pointers protobuf-c cannot pack; check it directly only. */
static void expect_bad_action_(const Okrpb__Action *m, const char *what, int local)
{
    okr_action x;
    okr_refusal why;
    memset(&why, 0, sizeof why);
    int rc = okrpb_action_to(m, &x, &why);
    if (rc != OKR_EINVAL)
        fail_msg("action with %s was accepted", what);
    assert_string_equal(why.rule, "protocol");
    assert_true(why.reason[0] != '\0');
    /* The same after a trip over the wire (hostile values survive packing). */
    if (m && !local) {
        Okrpb__Action *u = (Okrpb__Action *)wire(&m->base, &okrpb__action__descriptor);
        assert_int_equal(okrpb_action_to(u, &x, &why), OKR_EINVAL);
        protobuf_c_message_free_unpacked(&u->base, NULL);
    }
}

#define expect_bad_action(m, what) expect_bad_action_((m), (what), 0)

static void test_action_range_checks(void **state)
{
    (void)state;
    okr_action x;
    okr_refusal why;
    uint32_t cards[20] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19};
    Okrpb__Action ok = OKRPB__ACTION__INIT;
    ok.type = OKRPB__ACTION_TYPE__DISCARD;
    ok.card = 52;
    assert_int_equal(okrpb_action_to(&ok, &x, &why), OKR_OK);
    assert_int_equal(x.card, 52);
    ok.card = 255;
    assert_int_equal(okrpb_action_to(&ok, &x, &why), OKR_OK);

    expect_bad_action(NULL, "NULL");
    Okrpb__Action m;
#define RESET() (m = ok, m.card = 5)
    RESET();
    m.type = (Okrpb__ActionType)0;
    expect_bad_action(&m, "type 0");
    m.type = (Okrpb__ActionType)10;
    expect_bad_action(&m, "type 10");
    m.type = (Okrpb__ActionType)-1;
    expect_bad_action(&m, "type -1");
    RESET();
    m.seat = 8;
    expect_bad_action(&m, "seat 8");
    m.seat = UINT32_MAX;
    expect_bad_action(&m, "seat 2^32-1");
    RESET();
    m.how = (Okrpb__How)4;
    expect_bad_action(&m, "how 4");
    m.how = (Okrpb__How)-7;
    expect_bad_action(&m, "how -7");
    RESET();
    m.card = 53;
    expect_bad_action(&m, "card 53");
    m.card = 254;
    expect_bad_action(&m, "card 254");
    m.card = 256 + 5; /* would alias card 5 if truncated to 8 bits */
    expect_bad_action(&m, "card 261");
    RESET();
    m.as = 53;
    expect_bad_action(&m, "as 53");
    RESET();
    m.meld = 64;
    expect_bad_action(&m, "meld 64");
    m.meld = 255;
    expect_bad_action(&m, "meld 255");
    RESET();
    m.pos = 14;
    expect_bad_action(&m, "pos 14");
    m.pos = 256 + 255;
    expect_bad_action(&m, "pos 511");
    m.pos = 255;
    assert_int_equal(okrpb_action_to(&m, &x, &why), OKR_OK);

    /* Specs. */
    Okrpb__MeldSpec spec = OKRPB__MELD_SPEC__INIT;
    spec.type = OKRPB__MELD_TYPE__RUN;
    spec.lo = 3;
    spec.n_cards = 3;
    spec.cards = cards;
    RESET();
    m.type = OKRPB__ACTION_TYPE__MELD;
    m.spec = &spec;
    assert_int_equal(okrpb_action_to(&m, &x, &why), OKR_OK); /* `as` left empty: naturals */
    assert_int_equal(x.u.spec.n, 3);
    assert_int_equal(x.u.spec.as[2], 2);
    spec.n_cards = OKR_SPEC_CARDS;
    assert_int_equal(okrpb_action_to(&m, &x, &why), OKR_OK);
    spec.n_cards = OKR_SPEC_CARDS + 1;
    expect_bad_action(&m, "15 spec cards");
    spec.n_cards = 3;
    spec.n_as = 2;
    spec.as = cards;
    expect_bad_action(&m, "spec as/cards mismatch");
    spec.n_as = 3;
    assert_int_equal(okrpb_action_to(&m, &x, &why), OKR_OK);
    uint32_t badc[3] = {1, 99, 2};
    spec.as = badc;
    expect_bad_action(&m, "spec as 99");
    spec.as = cards;
    spec.cards = badc;
    expect_bad_action(&m, "spec card 99");
    spec.cards = cards;
    spec.lo = 14;
    expect_bad_action(&m, "spec lo 14");
    spec.lo = 0;
    spec.type = (Okrpb__MeldType)0;
    expect_bad_action(&m, "spec type 0");
    spec.type = (Okrpb__MeldType)3;
    expect_bad_action(&m, "spec type 3");
    spec.type = OKRPB__MELD_TYPE__SET;
    spec.n_cards = 3;
    spec.cards = NULL; /* hand-built message with a count and no data */
    expect_bad_action_(&m, "spec cards NULL", 1);
    spec.cards = cards;

    /* Knocks. */
    Okrpb__GinMeld gm = OKRPB__GIN_MELD__INIT;
    gm.n_cards = 13;
    gm.cards = cards;
    Okrpb__GinMeld *gms[5] = {&gm, &gm, &gm, &gm, &gm};
    RESET();
    m.type = OKRPB__ACTION_TYPE__KNOCK;
    m.n_knock = 4;
    m.knock = gms;
    assert_int_equal(okrpb_action_to(&m, &x, &why), OKR_OK);
    assert_int_equal(x.nmelds, 4);
    assert_int_equal(x.u.knock[3].n, 13);
    assert_int_equal(x.u.knock[3].card[12], 12);
    m.n_knock = 5;
    expect_bad_action(&m, "5 knock melds");
    m.n_knock = 1;
    gm.n_cards = 14;
    expect_bad_action(&m, "a 14-card knock meld");
    gm.n_cards = 3;
    gm.cards = badc;
    expect_bad_action(&m, "knock card 99");
    gm.cards = cards;
    gms[0] = NULL;
    expect_bad_action_(&m, "a NULL knock meld", 1);
    gms[0] = &gm;
    /* A knock list on a non-knock action is range-checked too, then ignored. */
    m.type = OKRPB__ACTION_TYPE__DISCARD;
    assert_int_equal(okrpb_action_to(&m, &x, &why), OKR_OK);
    assert_int_equal(x.nmelds, 0);
    gm.n_cards = 40;
    expect_bad_action(&m, "a 40-card knock meld on a discard");
#undef RESET
}

static void expect_bad_view(const Okrpb__View *m, const char *what)
{
    okr_view v;
    okr_refusal why;
    memset(&why, 0, sizeof why);
    if (okrpb_view_to(m, &v, &why) != OKR_EINVAL)
        fail_msg("view with %s was accepted", what);
    assert_string_equal(why.rule, "protocol");
}

static void test_view_range_checks(void **state)
{
    (void)state;
    okrpb_arena *a = okrpb_arena_new();
    static okr_game g;
    okr_refusal why;
    okr_rules r = rules_of("laws");
    assert_int_equal(okr_game_init(&g, &r, 3, 5, NULL, 0, &why), OKR_OK);
    /* Play until somebody has melded, so the view has melds. */
    rng_state = 99;
    for (int step = 0; step < 5000 && g.meld_n == 0; step++) {
        if (g.phase == OKR_PH_HAND_OVER) {
            assert_int_equal(okr_next_hand(&g, NULL, 0, &why), OKR_OK);
            continue;
        }
        assert_true(g.phase != OKR_PH_GAME_OVER);
        int n = okr_legal(&g, acts, OKR_MAX_ACTIONS);
        int pick = (int)rng_below((size_t)n);
        for (int i = 0; i < n; i++)
            if (acts[i].type == OKR_A_MELD)
                pick = i;
        assert_int_equal(okr_apply(&g, &acts[pick], NULL, &why), OKR_OK);
    }
    assert_true(g.meld_n > 0);
    okr_view v, back;
    okr_view_of(&g, 0, &v);
    const Okrpb__View *good = okrpb_view_from(a, &v);
    assert_non_null(good);
    assert_int_equal(okrpb_view_to(good, &back, &why), OKR_OK);
    assert_memory_equal(&v, &back, sizeof v);

    Okrpb__View m;
    Okrpb__Meld meld;
    Okrpb__Meld *melds[OKR_MAX_MELDS + 1];
    uint32_t big[200];
    int32_t ints[9] = {0};
    protobuf_c_boolean bools[9] = {0};
    for (int i = 0; i < 200; i++)
        big[i] = (uint32_t)(i % 52);
#define RESET() (m = *good)
    expect_bad_view(NULL, "NULL");
    RESET();
    m.players = 9;
    expect_bad_view(&m, "9 players");
    m.players = 1;
    expect_bad_view(&m, "1 player");
    RESET();
    m.seat = 3;
    expect_bad_view(&m, "seat 3 of 3");
    RESET();
    m.dealer = 8;
    expect_bad_view(&m, "dealer 8");
    RESET();
    m.to_act = 200;
    expect_bad_view(&m, "to_act 200");
    RESET();
    m.turn_seat = 3;
    expect_bad_view(&m, "turn_seat 3");
    RESET();
    m.discarder = 3;
    expect_bad_view(&m, "discarder 3");
    RESET();
    m.phase = (Okrpb__Phase)0;
    expect_bad_view(&m, "phase 0");
    m.phase = (Okrpb__Phase)9;
    expect_bad_view(&m, "phase 9");
    RESET();
    m.stock_size = 158;
    expect_bad_view(&m, "stock 158");
    RESET();
    m.upcard = 53;
    expect_bad_view(&m, "upcard 53");
    RESET();
    m.hand_no = 65536;
    expect_bad_view(&m, "hand_no 65536");
    RESET();
    m.turns = 70000;
    expect_bad_view(&m, "turns 70000");
    RESET();
    m.claim_meld = 64;
    expect_bad_view(&m, "claim_meld 64");
    RESET();
    m.upcard_passes = 4;
    expect_bad_view(&m, "upcard_passes 4");
    RESET();
    m.n_hand = 158;
    m.hand = big;
    expect_bad_view(&m, "158 hand cards");
    m.n_hand = 157; /* as many as the biggest pack: every count still fits */
    assert_int_equal(okrpb_view_to(&m, &back, &why), OKR_OK);
    uint32_t bad1[1] = {53};
    m.n_hand = 1;
    m.hand = bad1;
    expect_bad_view(&m, "hand card 53");
    RESET();
    m.n_pile = 158;
    m.pile = big;
    expect_bad_view(&m, "158 pile cards");
    m.n_pile = 1;
    m.pile = bad1;
    expect_bad_view(&m, "pile card 53");
    RESET();
    m.n_hand_sizes = 2;
    expect_bad_view(&m, "2 hand sizes for 3 players");
    m.n_hand_sizes = 9;
    m.hand_sizes = big;
    expect_bad_view(&m, "9 hand sizes");
    RESET();
    uint32_t sizes[3] = {1, 158, 1};
    m.hand_sizes = sizes;
    expect_bad_view(&m, "hand size 158");
    RESET();
    m.n_scores = 4;
    m.scores = ints;
    expect_bad_view(&m, "4 scores");
    RESET();
    m.n_concealed = 0;
    expect_bad_view(&m, "no concealed");
    RESET();
    uint32_t drawn[3] = {0, 3, 0};
    m.turns_drawn = drawn;
    expect_bad_view(&m, "turns_drawn 3");
    RESET();
    m.n_melded_before = 8;
    m.melded_before = bools;
    expect_bad_view(&m, "8 melded_before");
    RESET();
    m.n_melded_before = 3;
    m.melded_before = NULL;
    expect_bad_view(&m, "melded_before NULL");

    /* Melds. */
    RESET();
    for (int i = 0; i <= OKR_MAX_MELDS; i++)
        melds[i] = good->melds[0];
    m.n_melds = OKR_MAX_MELDS;
    m.melds = melds;
    assert_int_equal(okrpb_view_to(&m, &back, &why), OKR_OK);
    m.n_melds = OKR_MAX_MELDS + 1;
    expect_bad_view(&m, "65 melds");
    m.n_melds = 1;
    meld = *good->melds[0];
    melds[0] = &meld;
    meld.owner = 3;
    expect_bad_view(&m, "meld owner 3");
    meld = *good->melds[0];
    meld.type = (Okrpb__MeldType)0;
    expect_bad_view(&m, "meld type 0");
    meld = *good->melds[0];
    meld.lo = 14;
    expect_bad_view(&m, "meld lo 14");
    meld = *good->melds[0];
    meld.suit = 4;
    expect_bad_view(&m, "meld suit 4");
    meld = *good->melds[0];
    meld.rank = 14;
    expect_bad_view(&m, "meld rank 14");
    meld = *good->melds[0];
    meld.n_cards = meld.n_as = OKR_MELD_CARDS + 1;
    meld.cards = meld.as = big;
    expect_bad_view(&m, "29-card meld");
    meld.n_cards = meld.n_as = OKR_MELD_CARDS;
    assert_int_equal(okrpb_view_to(&m, &back, &why), OKR_OK);
    meld.n_as = 3;
    expect_bad_view(&m, "meld as/cards mismatch");
    meld = *good->melds[0];
    meld.cards = bad1;
    meld.n_cards = meld.n_as = 1;
    expect_bad_view(&m, "meld card 53");
    melds[0] = NULL;
    expect_bad_view(&m, "a NULL meld");
#undef RESET
    okrpb_arena_free(a);
}

static void test_event_range_checks(void **state)
{
    (void)state;
    okr_event e;
    okr_refusal why;
    Okrpb__Event ok = OKRPB__EVENT__INIT;
    ok.seq = UINT32_MAX;
    ok.type = OKRPB__ACTION_TYPE__DRAW;
    ok.card = 255;
    ok.meld = 255;
    ok.hand_size = 157;
    ok.taken = 157;
    ok.ended = 7;
    assert_int_equal(okrpb_event_to(&ok, &e, &why), OKR_OK);
    assert_int_equal(e.seq, UINT32_MAX);
    Okrpb__Event m;
    struct {
        const char *what;
        int field;
        uint32_t value;
    } cases[] = {{"seat 8", 0, 8},   {"type 0", 1, 0},      {"type 10", 1, 10},
                 {"how 4", 2, 4},    {"card 53", 3, 53},    {"card 254", 3, 254},
                 {"meld 64", 4, 64}, {"taken 158", 5, 158}, {"hand_size 158", 6, 158},
                 {"ended 8", 7, 8}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        m = ok;
        switch (cases[i].field) {
        case 0:
            m.seat = cases[i].value;
            break;
        case 1:
            m.type = (Okrpb__ActionType)cases[i].value;
            break;
        case 2:
            m.how = (Okrpb__How)cases[i].value;
            break;
        case 3:
            m.card = cases[i].value;
            break;
        case 4:
            m.meld = cases[i].value;
            break;
        case 5:
            m.taken = cases[i].value;
            break;
        case 6:
            m.hand_size = cases[i].value;
            break;
        default:
            m.ended = cases[i].value;
            break;
        }
        memset(&why, 0, sizeof why);
        if (okrpb_event_to(&m, &e, &why) != OKR_EINVAL)
            fail_msg("event with %s was accepted", cases[i].what);
        assert_string_equal(why.rule, "protocol");
    }
    assert_int_equal(okrpb_event_to(NULL, &e, &why), OKR_EINVAL);
}

static void test_rules_range_checks(void **state)
{
    (void)state;
    okr_rules r;
    okr_refusal why;
    Okrpb__Option o1 = OKRPB__OPTION__INIT, o2 = OKRPB__OPTION__INIT;
    Okrpb__Option *opts[2] = {&o1, &o2};
    Okrpb__Rules m = OKRPB__RULES__INIT;
    m.preset = "laws";
    assert_int_equal(okrpb_rules_to(&m, &r, &why), OKR_OK); /* the preset alone */
    okr_rules laws = rules_of("laws");
    assert_rules_equal(&r, &laws);
    o1.name = "qs_discard";
    o1.value = "any";
    o2.name = "decks";
    o2.value = "3";
    m.n_options = 2;
    m.options = opts;
    assert_int_equal(okrpb_rules_to(&m, &r, &why), OKR_OK);
    assert_int_equal(r.qs_discard, OKR_QS_ANY);
    assert_int_equal(r.decks, 3);

    o2.value = "4";
    assert_int_equal(okrpb_rules_to(&m, &r, &why), OKR_EINVAL);
    assert_string_equal(why.rule, "protocol");
    o2.value = "99999999999999999999";
    assert_int_equal(okrpb_rules_to(&m, &r, &why), OKR_EINVAL);
    o2.name = "no_such_option";
    o2.value = "1";
    assert_int_equal(okrpb_rules_to(&m, &r, &why), OKR_EINVAL);
    assert_string_equal(why.rule, "protocol");
    o2.name = "gin_bonus"; /* a gin option changed in a rummy preset */
    o2.value = "1";
    assert_int_equal(okrpb_rules_to(&m, &r, &why), OKR_EINVAL);
    m.n_options = 1;
    m.preset = "poker";
    assert_int_equal(okrpb_rules_to(&m, &r, &why), OKR_EINVAL);
    assert_string_equal(why.rule, "protocol");
    m.preset = "";
    assert_int_equal(okrpb_rules_to(&m, &r, &why), OKR_EINVAL);
    m.preset = "laws";
    opts[0] = NULL;
    assert_int_equal(okrpb_rules_to(&m, &r, &why), OKR_EINVAL);
    assert_int_equal(okrpb_rules_to(NULL, &r, &why), OKR_EINVAL);
}

/* Hostile bytes on the wire: an enum value out of range survives unpacking as a number, and
 * the decoder refuses it. */
static void test_hostile_wire_enum(void **state)
{
    (void)state;
    /* Action{type: 1000, seat: 1} written with protobuf-c from a hand-set field. */
    Okrpb__Action m = OKRPB__ACTION__INIT;
    m.type = (Okrpb__ActionType)1000;
    m.seat = 1;
    Okrpb__Action *u = (Okrpb__Action *)wire(&m.base, &okrpb__action__descriptor);
    assert_int_equal((int)u->type, 1000);
    okr_action x;
    okr_refusal why;
    assert_int_equal(okrpb_action_to(u, &x, &why), OKR_EINVAL);
    protobuf_c_message_free_unpacked(&u->base, NULL);
}

/* ---- Fuzz ------------------------------------------------------------------------------ */

/* Decode whatever a FromBot holds, as the arena does. */
static void decode_from_bot(const Okrpb__FromBot *fb)
{
    okr_action x;
    okr_refusal why;
    if (fb->msg_case == OKRPB__FROM_BOT__MSG_CHOICE && fb->choice &&
        fb->choice->pick_case == OKRPB__CHOICE__PICK_ACTION) {
        if (okrpb_action_to(fb->choice->action, &x, &why) == OKR_OK) {
            /* Whatever passed the decoder is safe for the engine. */
            okr_rules r = rules_of("laws");
            okr_action_normalize(&r, &x);
            char text[512];
            (void)okr_action_format(&x, text, sizeof text);
        } else {
            assert_string_equal(why.rule, "protocol");
        }
    }
}

/* Decode whatever a ToBot holds, as an SDK does. */
static void decode_to_bot(const Okrpb__ToBot *tb)
{
    okr_refusal why;
    okr_action x;
    okr_view v;
    okr_event e;
    okr_rules r;
    switch (tb->msg_case) {
    case OKRPB__TO_BOT__MSG_DECISION:
        if (tb->decision->view && okrpb_view_to(tb->decision->view, &v, &why) == OKR_OK) {
            okr_game g;
            okr_rules laws = rules_of("laws");
            (void)okr_determinize(&laws, &v, 1, &g, &why);
        }
        for (size_t i = 0; i < tb->decision->n_legal; i++)
            (void)okrpb_action_to(tb->decision->legal[i], &x, &why);
        break;
    case OKRPB__TO_BOT__MSG_EVENTS:
        for (size_t i = 0; i < tb->events->n_events; i++)
            (void)okrpb_event_to(tb->events->events[i], &e, &why);
        break;
    case OKRPB__TO_BOT__MSG_HELLO:
        if (tb->hello->rules)
            (void)okrpb_rules_to(tb->hello->rules, &r, &why);
        break;
    case OKRPB__TO_BOT__MSG_REFUSED:
        if (tb->refused->substituted)
            (void)okrpb_action_to(tb->refused->substituted, &x, &why);
        break;
    default:
        break;
    }
}

/* Random bytes, and valid messages with random mutations, into unpack and the decoders. */
static void test_fuzz_unpack(void **state)
{
    (void)state;
    rng_state = 31337;
    okrpb_arena *a = okrpb_arena_new();
    /* Seeds: real FromBot choices and ToBot decisions from a game. */
    enum { NSEEDS = 64, SEEDMAX = 1 << 16 };
    static uint8_t seeds[NSEEDS][SEEDMAX];
    static size_t seedlen[NSEEDS];
    int nseeds = 0;
    static okr_game g;
    okr_refusal why;
    okr_rules r = rules_of("gin");
    assert_int_equal(okr_game_init(&g, &r, 2, 11, NULL, 0, &why), OKR_OK);
    r = rules_of("german");
    static okr_game g2;
    assert_int_equal(okr_game_init(&g2, &r, 4, 12, NULL, 0, &why), OKR_OK);
    for (int step = 0; nseeds < NSEEDS && step < 20000; step++) {
        okr_game *gg = step % 2 ? &g : &g2;
        if (gg->phase == OKR_PH_HAND_OVER) {
            assert_int_equal(okr_next_hand(gg, NULL, 0, &why), OKR_OK);
            continue;
        }
        if (gg->phase == OKR_PH_GAME_OVER)
            continue;
        int n = okr_legal(gg, acts, OKR_MAX_ACTIONS);
        int pick = (int)rng_below((size_t)n);
        okrpb_arena_reset(a);
        if (step % 5 == 0) {
            Okrpb__Choice c = OKRPB__CHOICE__INIT;
            c.id = (uint64_t)step;
            c.pick_case = OKRPB__CHOICE__PICK_ACTION;
            c.action = okrpb_action_from(a, &acts[pick]);
            Okrpb__FromBot fb = OKRPB__FROM_BOT__INIT;
            fb.msg_case = OKRPB__FROM_BOT__MSG_CHOICE;
            fb.choice = &c;
            size_t len = okrpb__from_bot__get_packed_size(&fb);
            if (len <= SEEDMAX) {
                seedlen[nseeds] = okrpb__from_bot__pack(&fb, seeds[nseeds]);
                nseeds++;
            }
        } else if (step % 5 == 1) {
            okr_view v;
            okr_view_of(gg, gg->to_act, &v);
            Okrpb__Decision d = OKRPB__DECISION__INIT;
            d.view = okrpb_view_from(a, &v);
            Okrpb__Action *l[4];
            for (int i = 0; i < 4 && i < n; i++)
                l[d.n_legal++] = okrpb_action_from(a, &acts[(pick + i) % n]);
            d.legal = l;
            Okrpb__ToBot tb = OKRPB__TO_BOT__INIT;
            tb.msg_case = OKRPB__TO_BOT__MSG_DECISION;
            tb.decision = &d;
            size_t len = okrpb__to_bot__get_packed_size(&tb);
            if (len <= SEEDMAX) {
                seedlen[nseeds] = okrpb__to_bot__pack(&tb, seeds[nseeds]);
                nseeds++;
            }
        }
        assert_int_equal(okr_apply(gg, &acts[pick], NULL, &why), OKR_OK);
    }
    assert_true(nseeds > 8);

    static uint8_t buf[SEEDMAX + 64];
    int rounds = sanitized() ? 20000 : 200000;
    long parsed = 0;
    for (int round = 0; round < rounds; round++) {
        size_t n;
        int kind = (int)rng_below(3);
        if (kind == 0) { /* pure random bytes */
            n = rng_below(256);
            for (size_t i = 0; i < n; i++)
                buf[i] = (uint8_t)rng_next();
        } else { /* a seed with a few mutations */
            int s = (int)rng_below((size_t)nseeds);
            n = seedlen[s];
            memcpy(buf, seeds[s], n);
            int muts = 1 + (int)rng_below(4);
            for (int k = 0; k < muts && n; k++) {
                size_t at = rng_below(n);
                switch (rng_below(4)) {
                case 0:
                    buf[at] ^= (uint8_t)(1u << rng_below(8));
                    break;
                case 1:
                    buf[at] = (uint8_t)rng_next();
                    break;
                case 2: /* a large varint-ish byte run */
                    buf[at] = 0xFF;
                    break;
                default: /* truncate */
                    n = at;
                    break;
                }
            }
        }
        Okrpb__FromBot *fb = okrpb__from_bot__unpack(NULL, n, buf);
        if (fb) {
            decode_from_bot(fb);
            okrpb__from_bot__free_unpacked(fb, NULL);
            parsed++;
        }
        Okrpb__ToBot *tb = okrpb__to_bot__unpack(NULL, n, buf);
        if (tb) {
            decode_to_bot(tb);
            okrpb__to_bot__free_unpacked(tb, NULL);
            parsed++;
        }
    }
    print_message("proto fuzz: %d inputs, %ld parsed\n", rounds, parsed);
    assert_true(parsed > rounds / 10);
    okrpb_arena_free(a);
}

/* The largest legal-action lists the rules allow (a seat holding three whole packs, as in
 * tests/engine/test_limits.c) still make a Decision frame within OKRPB_MAX_TO_BOT, and it
 * decodes back to the same actions. */
static void test_worst_case_decision_fits(void **state)
{
    (void)state;
    okrpb_arena *a = okrpb_arena_new();
    static okr_game g;
    const char *big[] = {"laws", "german"};
    size_t largest = 0;
    int most = 0;
    for (int i = 0; i < 2; i++) {
        for (int top = 0; top < 2; top++) { /* a natural ace, then a wild 2 of clubs */
            okr_rules r = rules_of(big[i]);
            okr_refusal why;
            assert_int_equal(okr_rules_set(&r, "decks", "3", &why), OKR_OK);
            assert_int_equal(okr_game_init(&g, &r, 2, 1, NULL, 0, &why), OKR_OK);
            int topcard = top == 0 ? OKR_KIND(0, 1) : OKR_KIND(0, 2), stock = OKR_KIND(0, 6);
            memset(g.hand, 0, sizeof g.hand);
            for (int k = 0; k < 52; k++)
                g.hand[0][k] = r.decks;
            g.hand[0][OKR_JOKER] = r.jokers;
            g.hand[0][topcard]--;
            g.hand[0][stock]--;
            g.pile[0] = (uint8_t)topcard;
            g.pile_n = 1;
            g.stock[0] = (uint8_t)stock;
            g.stock_n = 1;
            g.hand_n[0] = (uint8_t)(okr_pack_size(&r) - 2);
            g.hand_n[1] = 0;
            g.to_act = g.turn_seat = 0;
            g.phase = OKR_PH_DRAW;
            int n = okr_legal(&g, acts, OKR_MAX_ACTIONS);
            assert_true(n > 0);
            okrpb_arena_reset(a);
            okr_view v, back;
            okr_view_of(&g, 0, &v);
            Okrpb__Decision d = OKRPB__DECISION__INIT;
            d.id = 1;
            d.view = okrpb_view_from(a, &v);
            Okrpb__Action **legal = malloc((size_t)n * sizeof *legal);
            assert_non_null(legal);
            for (int k = 0; k < n; k++) {
                legal[k] = okrpb_action_from(a, &acts[k]);
                assert_non_null(legal[k]);
            }
            d.n_legal = (size_t)n;
            d.legal = legal;
            Okrpb__ToBot tb = OKRPB__TO_BOT__INIT;
            tb.msg_case = OKRPB__TO_BOT__MSG_DECISION;
            tb.decision = &d;
            size_t size = okrpb__to_bot__get_packed_size(&tb);
            assert_true(size <= OKRPB_MAX_TO_BOT);
            if (size > largest)
                largest = size;
            most = n > most ? n : most;
            Okrpb__ToBot *u = wire_to_bot(&tb);
            okr_refusal why2;
            assert_int_equal(okrpb_view_to(u->decision->view, &back, &why2), OKR_OK);
            assert_memory_equal(&v, &back, sizeof v);
            assert_int_equal(u->decision->n_legal, (size_t)n);
            for (int k = 0; k < n; k++) {
                okr_action x;
                assert_int_equal(okrpb_action_to(u->decision->legal[k], &x, &why2), OKR_OK);
                okr_action_normalize(&g.rules, &x);
                assert_memory_equal(&x, &acts[k], sizeof x);
            }
            okrpb__to_bot__free_unpacked(u, NULL);
            free(legal);
        }
    }
    print_message("proto: worst case %d legal actions, %zu bytes (limit %d)\n", most, largest,
                  OKRPB_MAX_TO_BOT);
    okrpb_arena_free(a);
}

/* The arena: many resets, big and small allocations, NULL tolerated by free. */
static void test_arena(void **state)
{
    (void)state;
    okrpb_arena_free(NULL);
    okrpb_arena_reset(NULL);
    okrpb_arena *a = okrpb_arena_new();
    assert_non_null(a);
    okr_action x;
    memset(&x, 0, sizeof x);
    x.type = OKR_A_DISCARD;
    x.card = 7;
    for (int round = 0; round < 50; round++) {
        okrpb_arena_reset(a);
        for (int i = 0; i < 3000; i++) { /* several blocks' worth */
            Okrpb__Action *m = okrpb_action_from(a, &x);
            assert_non_null(m);
            assert_int_equal(m->card, 7);
            assert_string_equal(m->text, "discard 8C");
        }
    }
    okrpb_arena_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arena),
        cmocka_unit_test(test_rules_round_trip),
        cmocka_unit_test(test_other_messages),
        cmocka_unit_test(test_event_text),
        cmocka_unit_test(test_games_every_preset),
        cmocka_unit_test(test_full_games),
        cmocka_unit_test(test_action_range_checks),
        cmocka_unit_test(test_view_range_checks),
        cmocka_unit_test(test_event_range_checks),
        cmocka_unit_test(test_rules_range_checks),
        cmocka_unit_test(test_hostile_wire_enum),
        cmocka_unit_test(test_worst_case_decision_fits),
        cmocka_unit_test(test_fuzz_unpack),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
