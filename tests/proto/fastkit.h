/* fastkit.h - shared by test_fastpack.c and test_fastread.c: seeded random games of every
 * preset that produce the ToBot messages the arena sends, built the arena's way (codec.h
 * messages in a bump arena): a Decision for the seat to act, with its view and its whole
 * legal list, and before it that seat's pending Events (redacted for it), like match.c. */
#ifndef FASTKIT_H
#define FASTKIT_H

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
#include "fastpack.h"
#include "frame.h"

static uint64_t kit_rng;

static uint64_t kit_next(void)
{
    uint64_t z = (kit_rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static size_t kit_below(size_t n)
{
    return n ? (size_t)(kit_next() % n) : 0;
}

static int kit_sanitized(void)
{
    const char *s = getenv("OKR_SANITIZE");
    return s && *s == '1';
}

static const char *const kit_presets[] = {"laws", "parlett", "arlington", "german", "gin"};
enum { KIT_NPRESETS = sizeof kit_presets / sizeof kit_presets[0] };

static okr_rules kit_rules(const char *preset)
{
    okr_rules r;
    okr_refusal why;
    assert_int_equal(okr_rules_preset(&r, preset, &why), OKR_OK);
    return r;
}

/* ToBot{Decision} for the seat to act in g, built as match.c's ask_bot builds it. */
static Okrpb__ToBot *kit_decision(okrpb_arena *a, const okr_game *g, const okr_action *acts, int n,
                                  uint64_t id, uint32_t bank_ms)
{
    okr_view v;
    okr_view_of(g, g->to_act, &v);
    Okrpb__Action **legal = calloc((size_t)n + 1, sizeof *legal);
    assert_non_null(legal);
    for (int i = 0; i < n; i++) {
        legal[i] = okrpb_action_from(a, &acts[i]);
        assert_non_null(legal[i]);
    }
    static Okrpb__Decision d;
    static Okrpb__ToBot tb;
    static Okrpb__Action **last;
    free(last); /* the previous call's list: one message alive at a time */
    last = legal;
    okrpb__decision__init(&d);
    okrpb__to_bot__init(&tb);
    d.id = id;
    d.view = okrpb_view_from(a, &v);
    assert_non_null(d.view);
    d.view->knock_limit = (uint32_t)okr_knock_limit(&g->rules, v.upcard); /* as match.c */
    d.n_legal = (size_t)n;
    d.legal = legal;
    d.time_ms = 1000;
    d.bank_ms = bank_ms;
    d.hard_ms = 5000;
    tb.msg_case = OKRPB__TO_BOT__MSG_DECISION;
    tb.decision = &d;
    return &tb;
}

/* ToBot{Events} of n events, built as match.c's flush_events builds it. */
static Okrpb__ToBot *kit_events(okrpb_arena *a, const okr_event *ev, int n)
{
    static Okrpb__Events es;
    static Okrpb__ToBot tb;
    static Okrpb__Event **list;
    static int cap;
    if (n > cap) {
        cap = n * 2;
        list = realloc(list, (size_t)cap * sizeof *list);
        assert_non_null(list);
    }
    for (int i = 0; i < n; i++) {
        list[i] = okrpb_event_from(a, &ev[i]);
        assert_non_null(list[i]);
    }
    okrpb__events__init(&es);
    okrpb__to_bot__init(&tb);
    es.n_events = (size_t)n;
    es.events = list;
    tb.msg_case = OKRPB__TO_BOT__MSG_EVENTS;
    tb.events = &es;
    return &tb;
}

/* Called with every message a game produces; the arena is reset after each call. */
typedef void (*kit_fn)(const Okrpb__ToBot *m, void *ud);

typedef struct kit_stats {
    long decisions, events_msgs, events, games, max_legal;
} kit_stats;

static okr_action kit_acts[OKR_MAX_ACTIONS];

/* One random game to the end (or max_steps decisions): every seat's Events before its
 * Decision, and everyone's at each hand end. */
static void kit_play(const okr_rules *r, int players, uint64_t seed, long max_steps, kit_fn fn,
                     void *ud, kit_stats *st)
{
    static okr_game g;
    static okr_event q[OKR_MAX_PLAYERS][4096];
    int qn[OKR_MAX_PLAYERS] = {0};
    okr_refusal why;
    okrpb_arena *a = okrpb_arena_new();
    assert_non_null(a);
    if (okr_game_init(&g, r, players, seed, NULL, 0, &why) != OKR_OK)
        fail_msg("init %s/%d: %s", r->preset, players, why.reason);
    uint64_t id = seed & 0xffffff;
    for (long step = 0; step < max_steps; step++) {
        if (g.phase == OKR_PH_HAND_OVER || g.phase == OKR_PH_GAME_OVER) {
            for (int s = 0; s < players; s++) {
                fn(kit_events(a, q[s], qn[s]), ud); /* also the empty list */
                okrpb_arena_reset(a);
                st->events_msgs++;
                st->events += qn[s];
                qn[s] = 0;
            }
            if (g.phase == OKR_PH_GAME_OVER)
                break;
            assert_int_equal(okr_next_hand(&g, NULL, 0, &why), OKR_OK);
            continue;
        }
        int n = okr_legal(&g, kit_acts, OKR_MAX_ACTIONS);
        assert_true(n > 0);
        int seat = g.to_act;
        if (qn[seat]) {
            fn(kit_events(a, q[seat], qn[seat]), ud);
            okrpb_arena_reset(a);
            st->events_msgs++;
            st->events += qn[seat];
            qn[seat] = 0;
        }
        /* ids and banks cross the one-byte varint boundaries now and then */
        id += 1 + (kit_below(50) == 0 ? (uint64_t)1 << kit_below(60) : 0);
        fn(kit_decision(a, &g, kit_acts, n, id, (uint32_t)kit_below(300000)), ud);
        okrpb_arena_reset(a);
        st->decisions++;
        if (n > st->max_legal)
            st->max_legal = n;
        int pick = (int)kit_below((size_t)n);
        for (int t = 0; t < 3 && kit_acts[pick].type == OKR_A_PASS && n > 1; t++)
            pick = (int)kit_below((size_t)n);
        if (kit_acts[n - 1].type == OKR_A_KNOCK && kit_below(2))
            while (kit_acts[pick].type != OKR_A_KNOCK)
                pick = (int)kit_below((size_t)n);
        okr_event ev;
        if (okr_apply(&g, &kit_acts[pick], &ev, &why) != OKR_OK)
            fail_msg("apply: [%s] %s", why.rule, why.reason);
        for (int s = 0; s < players; s++) {
            assert_true(qn[s] < 4096);
            okr_event_redact(&ev, s, &q[s][qn[s]++]);
        }
    }
    st->games++;
    okrpb_arena_free(a);
}

/* Games of every preset at random table sizes (3 decks where a big table needs them), plus
 * one 3-deck game per preset for long card lists. */
static void kit_every_preset(int games, kit_fn fn, void *ud, kit_stats *st)
{
    okr_refusal why;
    for (int p = 0; p < KIT_NPRESETS; p++) {
        okr_rules r = kit_rules(kit_presets[p]);
        assert_int_equal(okr_rules_set(&r, "max_hands", "3", &why), OKR_OK);
        for (int i = 0; i <= games; i++) {
            int lo = r.min_players, hi = r.max_players;
            int players = lo + (int)kit_below((size_t)(hi - lo + 1));
            okr_rules rr = r;
            if (i == games && okr_rules_set(&rr, "decks", "3", &why) != OKR_OK)
                continue; /* gin has one pack */
            if (okr_rules_check(&rr, players, &why) != OKR_OK)
                (void)okr_rules_set(&rr, "decks", "3", &why);
            while (okr_rules_check(&rr, players, &why) != OKR_OK && players > lo)
                players--;
            kit_play(&rr, players, kit_next(), 20000, fn, ud, st);
        }
    }
}

/* The worst legal lists the rules allow (tests/engine/test_limits.c): seat 0 of a 3-deck
 * game holds the whole pack but the upcard and one stock card, in DRAW or PLAY. */
static int kit_worst_game(okr_game *g, const char *preset, int top, int phase)
{
    okr_rules r = kit_rules(preset);
    okr_refusal why;
    assert_int_equal(okr_rules_set(&r, "decks", "3", &why), OKR_OK);
    assert_int_equal(okr_game_init(g, &r, 2, 1, NULL, 0, &why), OKR_OK);
    memset(g->hand, 0, sizeof g->hand);
    for (int k = 0; k < 52; k++)
        g->hand[0][k] = r.decks;
    g->hand[0][OKR_JOKER] = r.jokers;
    int stock = OKR_KIND(0, 6);
    g->hand[0][top]--;
    g->hand[0][stock]--;
    g->pile[0] = (uint8_t)top;
    g->pile_n = 1;
    g->stock[0] = (uint8_t)stock;
    g->stock_n = 1;
    g->hand_n[0] = (uint8_t)(okr_pack_size(&r) - 2);
    g->hand_n[1] = 0;
    g->to_act = g->turn_seat = 0;
    g->phase = (uint8_t)phase;
    int n = okr_legal(g, kit_acts, OKR_MAX_ACTIONS);
    assert_true(n > 0);
    return n;
}

/* The largest of those lists: returns its length, with g set up for it. */
static int kit_worst_of_all(okr_game *g)
{
    const char *presets[] = {"laws", "parlett", "arlington", "german"};
    int best = 0, best_i = 0;
    for (int i = 0; i < 16; i++) {
        int n = kit_worst_game(g, presets[i / 4], i & 1 ? OKR_KIND(0, 2) : OKR_KIND(0, 1),
                               i & 2 ? OKR_PH_PLAY : OKR_PH_DRAW);
        if (n > best) {
            best = n;
            best_i = i;
        }
    }
    return kit_worst_game(g, presets[best_i / 4], best_i & 1 ? OKR_KIND(0, 2) : OKR_KIND(0, 1),
                          best_i & 2 ? OKR_PH_PLAY : OKR_PH_DRAW);
}

#endif
