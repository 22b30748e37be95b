/* okbot.c - the C SDK's loop: frames in on stdin, hooks, frames out on a private copy of
 * stdout (okbot.h).
 *
 * Everything read is hostile until checked: frames are bounded (frame.h), messages are
 * unpacked by protobuf-c, values reach the bot only through the range-checked decoders of
 * codec.h or the checks below. A broken frame ends the run with 1; nothing here may crash.
 *
 * The two messages of every turn, Decision and Events, are first offered to the fast decoder
 * of fastpack.h, which reads the canonical encoding the arena writes straight into engine
 * structs with the same checks; whatever it declines takes the protobuf-c path above, so a
 * bad frame gets the same verdict and message either way.
 */
#include "okbot.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "codec.h"
#include "fastpack.h"
#include "frame.h"

enum { IN_FD = 0 };

/* The run's whole state. Invariant: `legal` holds `legal_cap` actions; `game_id` is a
 * malloc'd copy (or NULL) of the current game's id; `seat`/`players` are valid while
 * `in_game`. */
typedef struct okb_state {
    const okb_bot *bot;
    void *ud;
    const char *name;
    int chan_fd;         /* private duplicate of the original stdout: frames only */
    okrpb_reader reader; /* ToBot frames */
    okrpb_buf out;       /* FromBot frame being written */
    okrpb_arena *arena;  /* protobuf-c messages we build */
    uint32_t max_frame;  /* largest frame the arena accepts from us */
    int have_hello;
    okr_rules rules;
    int in_game, seat, players;
    char *game_id;
    okr_action *legal;
    int legal_cap;
    okr_event *events;
    int events_cap;
    okr_view view;
    okr_action reply;
    char note[OKB_NOTE_MAX + 1]; /* decide's note on the choice (okb_note) */
    okrpb_fast_in fast;          /* Decision / Events decoded by the fast path */
} okb_state;

/* ---- Helpers ---------------------------------------------------------------------------- */

int64_t okb_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

double okb_elapsed_ms(const okb_decision *d)
{
    return (double)(okb_now_ns() - d->start_ns) / 1e6;
}

uint64_t okb_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint32_t okb_rand_below(uint64_t *state, uint32_t n)
{
    if (n <= 1)
        return 0;
    /* Rejection: drop the top partial block of 2^64 so every residue is equally likely. */
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do
        x = okb_rand(state);
    while (x >= limit);
    return (uint32_t)(x % n);
}

static void say(const okb_state *st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", st->name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* Log a protocol error; returns 1, the run's exit status. */
static int broken(const okb_state *st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: protocol error: ", st->name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 1;
}

static int refusal(const okb_state *st, const char *what, const okr_refusal *why)
{
    return broken(st, "%s: %s (%s)", what, why->reason, why->rule);
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s ? s : "") + 1;
    char *p = malloc(n);
    if (p)
        memcpy(p, s ? s : "", n);
    return p;
}

/* ---- Output ------------------------------------------------------------------------------ */

static int write_all(int fd, const uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            struct pollfd pfd = {.fd = fd, .events = POLLOUT};
            (void)poll(&pfd, 1, -1);
            continue;
        }
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static int send_msg(okb_state *st, Okrpb__FromBot *msg)
{
    st->out.len = 0;
    if (okrpb_frame_append(&st->out, &msg->base) != 0) {
        say(st, "out of memory");
        return 1;
    }
    if (write_all(st->chan_fd, st->out.data, st->out.len) != 0) {
        say(st, "cannot write to the arena: %s", strerror(errno));
        return 1;
    }
    return 0;
}

static int send_identify(okb_state *st)
{
    Okrpb__Identify id = OKRPB__IDENTIFY__INIT;
    id.major = OKB_MAJOR;
    id.minor = OKB_MINOR;
    id.name = (char *)st->name;
    id.version = (char *)(st->bot->version ? st->bot->version : "0");
    Okrpb__FromBot msg = OKRPB__FROM_BOT__INIT;
    msg.msg_case = OKRPB__FROM_BOT__MSG_IDENTIFY;
    msg.identify = &id;
    return send_msg(st, &msg);
}

static int send_ready(okb_state *st)
{
    Okrpb__Ready ready = OKRPB__READY__INIT;
    Okrpb__FromBot msg = OKRPB__FROM_BOT__INIT;
    msg.msg_case = OKRPB__FROM_BOT__MSG_READY;
    msg.ready = &ready;
    return send_msg(st, &msg);
}

/* pick >= 0: an index; pick == OKB_ACTION: st->reply as a full action. */
static int send_choice(okb_state *st, uint64_t id, int pick)
{
    Okrpb__Choice choice = OKRPB__CHOICE__INIT;
    choice.id = id;
    if (st->note[0])
        choice.note = st->note;
    if (pick == OKB_ACTION) {
        /* seat 0 is what an action built by hand ({.type = OKR_A_PASS}) holds: it means "my
         * seat", the seat this decision is for; another seat is sent as written (and refused) */
        if (st->reply.seat == 0)
            st->reply.seat = (uint8_t)st->seat;
        okrpb_arena_reset(st->arena);
        choice.action = okrpb_action_from(st->arena, &st->reply);
        if (choice.action)
            choice.pick_case = OKRPB__CHOICE__PICK_ACTION;
        else
            say(st, "decision %llu: the action cannot be encoded, sending index 0",
                (unsigned long long)id);
    }
    if (choice.pick_case != OKRPB__CHOICE__PICK_ACTION) {
        choice.pick_case = OKRPB__CHOICE__PICK_INDEX;
        choice.index = (uint32_t)(pick >= 0 ? pick : 0);
    }
    Okrpb__FromBot msg = OKRPB__FROM_BOT__INIT;
    msg.msg_case = OKRPB__FROM_BOT__MSG_CHOICE;
    msg.choice = &choice;
    if (choice.pick_case == OKRPB__CHOICE__PICK_ACTION &&
        protobuf_c_message_get_packed_size(&msg.base) + 10 > st->max_frame) {
        say(st, "decision %llu: the action is larger than the arena accepts, sending index 0",
            (unsigned long long)id);
        choice.pick_case = OKRPB__CHOICE__PICK_INDEX;
        choice.index = 0;
    }
    return send_msg(st, &msg);
}

/* ---- Messages ------------------------------------------------------------------------------ */

static int on_hello(okb_state *st, const Okrpb__Hello *h)
{
    if (st->have_hello)
        return broken(st, "a second Hello");
    if (h->players < 1 || h->players > OKR_MAX_PLAYERS)
        return broken(st, "Hello: %u players", h->players);
    if (!h->rules)
        return broken(st, "Hello without rules");
    okr_refusal why;
    if (okrpb_rules_to(h->rules, &st->rules, &why) != OKR_OK)
        return refusal(st, "Hello: rules", &why);
    if (h->major != OKB_MAJOR)
        say(st, "the arena speaks protocol %u.%u, this SDK %d.%d", h->major, h->minor, OKB_MAJOR,
            OKB_MINOR);
    st->have_hello = 1;
    st->max_frame = h->max_frame ? h->max_frame : OKRPB_MAX_FROM_BOT;

    if (send_identify(st))
        return 1;
    if (st->bot->on_hello) {
        okb_hello info = {
            .major = h->major,
            .minor = h->minor,
            .match_id = h->match_id ? h->match_id : "",
            .bot_name = h->bot_name ? h->bot_name : "",
            .players = (int)h->players,
            .rules = &st->rules,
            .rules_text = h->rules->text ? h->rules->text : "",
            .max_frame = st->max_frame,
        };
        if (h->clocks) {
            info.startup_ms = h->clocks->startup_ms;
            info.decision_ms = h->clocks->decision_ms;
            info.bank_ms = h->clocks->bank_ms;
            info.hard_ms = h->clocks->hard_ms;
        }
        if (st->bot->on_hello(&info, st->ud) != 0) {
            say(st, "on_hello failed, giving up");
            return 1;
        }
    }
    return send_ready(st);
}

static int on_game_start(okb_state *st, const Okrpb__GameStart *m)
{
    if (m->players < 1 || m->players > OKR_MAX_PLAYERS || m->seat >= m->players)
        return broken(st, "GameStart: seat %u of %u players", m->seat, m->players);
    if (m->n_names != m->players)
        return broken(st, "GameStart: %zu names for %u players", m->n_names, m->players);
    const char *names[OKR_MAX_PLAYERS];
    for (size_t i = 0; i < m->n_names; i++)
        names[i] = m->names[i] ? m->names[i] : "";
    free(st->game_id);
    st->game_id = dup_str(m->game_id);
    if (!st->game_id) {
        say(st, "out of memory");
        return 1;
    }
    st->in_game = 1;
    st->seat = (int)m->seat;
    st->players = (int)m->players;
    if (st->bot->on_game_start) {
        okb_game_start info = {
            .game_id = st->game_id,
            .seat = st->seat,
            .players = st->players,
            .names = names,
            .bank_ms = m->bank_ms,
        };
        st->bot->on_game_start(&info, st->ud);
    }
    return 0;
}

/* A buffer of *cap elements of `size` bytes grown (by doubling) to hold n: returns the
 * buffer, moved or not, or NULL when memory is short (p is then still valid). */
static void *reserve(void *p, int *cap, size_t n, size_t size)
{
    if (p && n <= (size_t)*cap)
        return p;
    size_t want = *cap ? (size_t)*cap : 64;
    while (want < n)
        want *= 2;
    void *q = realloc(p, want * size);
    if (q)
        *cap = (int)want;
    return q;
}

static int wrong_seat(const okb_state *st, uint64_t id, const okr_view *v)
{
    return broken(st, "Decision %llu: a view of seat %d of %d, we are seat %d of %d",
                  (unsigned long long)id, v->seat, v->players, st->seat, st->players);
}

/* Ask the bot about a decoded Decision (d: id, view, legal, n, clocks, start_ns) and send
 * its Choice. */
static int decide(okb_state *st, okb_decision *d)
{
    memset(&st->reply, 0, sizeof st->reply);
    st->note[0] = '\0';
    d->note = st->note;
    d->seat = st->seat;
    d->players = st->players;
    d->rules = &st->rules;
    d->game_id = st->game_id ? st->game_id : "";
    d->action = &st->reply;
    int pick = st->bot->decide(d, st->ud);
    if (pick != OKB_ACTION && (pick < 0 || pick >= d->n)) {
        say(st, "decision %llu: decide returned %d of %d actions, sending index 0",
            (unsigned long long)d->id, pick, d->n);
        pick = 0;
    }
    return send_choice(st, d->id, pick);
}

void okb_note(const okb_decision *d, const char *fmt, ...)
{
    if (!d || !d->note || !fmt)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(d->note, OKB_NOTE_MAX + 1, fmt, ap);
    va_end(ap);
    if (n < 0) {
        d->note[0] = '\0';
        return;
    }
    /* cut: step back off a partial UTF-8 character so the arena keeps every byte */
    size_t k = strlen(d->note);
    if ((size_t)n > k) {
        size_t end = k;
        while (end > 0 && ((unsigned char)d->note[end - 1] & 0xC0) == 0x80)
            end--;
        if (end > 0 && ((unsigned char)d->note[end - 1] & 0x80)) {
            unsigned char lead = (unsigned char)d->note[end - 1];
            size_t need = (lead & 0xE0) == 0xC0 ? 2 : (lead & 0xF0) == 0xE0 ? 3 : 4;
            if (k - (end - 1) < need)
                d->note[end - 1] = '\0';
        }
    }
}

static int on_decision(okb_state *st, const Okrpb__Decision *m, int64_t start_ns)
{
    if (!st->in_game)
        return broken(st, "Decision %llu outside a game", (unsigned long long)m->id);
    if (!m->view)
        return broken(st, "Decision %llu without a view", (unsigned long long)m->id);
    if (m->n_legal < 1 || m->n_legal > OKR_MAX_ACTIONS)
        return broken(st, "Decision %llu with %zu legal actions", (unsigned long long)m->id,
                      m->n_legal);
    okr_refusal why;
    if (okrpb_view_to(m->view, &st->view, &why) != OKR_OK)
        return refusal(st, "Decision: view", &why);
    if (st->view.seat != st->seat || st->view.players != st->players)
        return wrong_seat(st, m->id, &st->view);
    okr_action *legal = reserve(st->legal, &st->legal_cap, m->n_legal, sizeof *legal);
    if (!legal) {
        say(st, "out of memory");
        return 1;
    }
    st->legal = legal;
    for (size_t i = 0; i < m->n_legal; i++) {
        if (!m->legal[i])
            return broken(st, "Decision: legal action %zu missing", i);
        if (okrpb_action_to(m->legal[i], &st->legal[i], &why) != OKR_OK)
            return refusal(st, "Decision: legal action", &why);
    }
    okb_decision d = {
        .id = m->id,
        .view = &st->view,
        .legal = st->legal,
        .n = (int)m->n_legal,
        .time_ms = m->time_ms,
        .bank_ms = m->bank_ms,
        .hard_ms = m->hard_ms,
        .start_ns = start_ns,
        .knock_limit = m->view->knock_limit <= 10 ? (int)m->view->knock_limit : 0,
    };
    return decide(st, &d);
}

/* A Decision the fast decoder read: view, legal list and clocks are already checked. */
static int on_fast_decision(okb_state *st, const okrpb_fast_in *in, int64_t start_ns)
{
    if (!st->in_game)
        return broken(st, "Decision %llu outside a game", (unsigned long long)in->id);
    if (in->view.seat != st->seat || in->view.players != st->players)
        return wrong_seat(st, in->id, &in->view);
    okb_decision d = {
        .id = in->id,
        .view = &in->view,
        .legal = in->legal,
        .n = (int)in->n_legal,
        .time_ms = in->time_ms,
        .bank_ms = in->bank_ms,
        .hard_ms = in->hard_ms,
        .start_ns = start_ns,
        .knock_limit = in->knock_limit <= 10 ? (int)in->knock_limit : 0,
    };
    return decide(st, &d);
}

static int on_events(okb_state *st, const Okrpb__Events *m)
{
    if (!st->have_hello)
        return broken(st, "Events before Hello");
    if (m->n_events > INT32_MAX / 2)
        return broken(st, "%zu events", m->n_events);
    okr_event *events = reserve(st->events, &st->events_cap, m->n_events, sizeof *events);
    if (!events) {
        say(st, "out of memory");
        return 1;
    }
    st->events = events;
    okr_refusal why;
    for (size_t i = 0; i < m->n_events; i++) {
        if (!m->events[i])
            return broken(st, "Events: event %zu missing", i);
        if (okrpb_event_to(m->events[i], &st->events[i], &why) != OKR_OK)
            return refusal(st, "Events", &why);
    }
    if (st->bot->on_events && m->n_events)
        st->bot->on_events(st->events, (int)m->n_events, st->ud);
    return 0;
}

/* Copy per-seat values, which must be exactly `players` of them (okr.proto). */
static int seat_values(const okb_state *st, int32_t *dst, const int32_t *src, size_t n, int players,
                       const char *what)
{
    if (n != (size_t)players)
        return broken(st, "%s: %zu values for %d seats", what, n, players);
    for (size_t i = 0; i < n; i++)
        dst[i] = src[i];
    return 0;
}

static int on_hand_end(okb_state *st, const Okrpb__HandEnd *m)
{
    if (!st->in_game)
        return broken(st, "HandEnd outside a game");
    okb_hand_end he;
    memset(&he, 0, sizeof he);
    int np = st->players;
    he.hand_no = (int)(m->hand_no <= INT32_MAX ? m->hand_no : 0);
    he.players = np;
    if (m->ended < OKR_END_OUT || m->ended > OKR_END_DRAWN)
        return broken(st, "HandEnd: ended %u", m->ended);
    if (m->winner < -1 || m->winner >= np || m->knocker < -1 || m->knocker >= np)
        return broken(st, "HandEnd: winner %d, knocker %d", m->winner, m->knocker);
    he.result.ended = (uint8_t)m->ended;
    he.result.winner = (int8_t)m->winner;
    he.result.knocker = (int8_t)m->knocker;
    okr_hand_result *r = &he.result;
    if (seat_values(st, r->melded, m->melded, m->n_melded, np, "HandEnd melded") ||
        seat_values(st, r->debit, m->debit, m->n_debit, np, "HandEnd debit") ||
        seat_values(st, r->out_bonus, m->out_bonus, m->n_out_bonus, np, "HandEnd out_bonus") ||
        seat_values(st, r->concealed, m->concealed, m->n_concealed, np, "HandEnd concealed") ||
        seat_values(st, r->deadwood, m->deadwood, m->n_deadwood, np, "HandEnd deadwood") ||
        seat_values(st, r->score, m->score, m->n_score, np, "HandEnd score") ||
        seat_values(st, r->total, m->total, m->n_total, np, "HandEnd total"))
        return 1;
    if (m->n_hand_sizes != (size_t)np)
        return broken(st, "HandEnd hand_sizes: %zu values for %d seats", m->n_hand_sizes, np);
    size_t k = 0;
    for (int s = 0; s < np; s++) {
        if (m->hand_sizes[s] > OKR_MAX_CARDS || m->hand_sizes[s] > m->n_hands - k)
            return broken(st, "HandEnd: hand sizes do not match the %zu cards", m->n_hands);
        he.hand_n[s] = (uint8_t)m->hand_sizes[s];
        for (uint32_t c = 0; c < m->hand_sizes[s]; c++, k++) {
            uint32_t card = m->hands[k];
            if (card >= OKR_KINDS)
                return broken(st, "HandEnd: card %u", card);
            if (he.hands[s][card] == UINT8_MAX)
                return broken(st, "HandEnd: too many copies of card %u", card);
            he.hands[s][card]++;
        }
    }
    if (k != m->n_hands)
        return broken(st, "HandEnd: hand sizes do not match the %zu cards", m->n_hands);
    /* 1.1: a gin knock's showdown (absent from a 1.0 arena: all zero) */
    if (m->n_knock_melds > OKR_GIN_MELDS || m->n_knock_deadwood > OKR_GIN_HAND_MAX ||
        m->n_layoffs > OKR_GIN_HAND_MAX)
        return broken(st, "HandEnd: a showdown of %zu melds, %zu deadwood, %zu lay-offs",
                      m->n_knock_melds, m->n_knock_deadwood, m->n_layoffs);
    for (size_t i = 0; i < m->n_knock_melds; i++) {
        const Okrpb__GinMeld *gm = m->knock_melds[i];
        if (!gm || gm->n_cards > 13)
            return broken(st, "HandEnd: knock meld %zu", i);
        for (size_t j = 0; j < gm->n_cards; j++) {
            if (gm->cards[j] >= OKR_JOKER)
                return broken(st, "HandEnd: knock meld card %u", gm->cards[j]);
            r->knock_meld[i].card[j] = (uint8_t)gm->cards[j];
        }
        r->knock_meld[i].n = (uint8_t)gm->n_cards;
    }
    r->knock_nmelds = (uint8_t)m->n_knock_melds;
    for (size_t i = 0; i < m->n_knock_deadwood; i++) {
        if (m->knock_deadwood[i] >= OKR_JOKER)
            return broken(st, "HandEnd: knock deadwood card %u", m->knock_deadwood[i]);
        r->knock_dead[i] = (uint8_t)m->knock_deadwood[i];
    }
    r->knock_dead_n = (uint8_t)m->n_knock_deadwood;
    for (size_t i = 0; i < m->n_layoffs; i++) {
        const Okrpb__LayOff *lo = m->layoffs[i];
        if (!lo || lo->card >= OKR_JOKER || lo->meld >= m->n_knock_melds)
            return broken(st, "HandEnd: lay-off %zu", i);
        r->layoff_card[i] = (uint8_t)lo->card;
        r->layoff_meld[i] = (uint8_t)lo->meld;
    }
    r->layoff_n = (uint8_t)m->n_layoffs;
    if (st->bot->on_hand_end)
        st->bot->on_hand_end(&he, st->ud);
    return 0;
}

static int on_game_end(okb_state *st, const Okrpb__GameEnd *m)
{
    if (!st->in_game)
        return broken(st, "GameEnd outside a game");
    okb_game_end ge;
    memset(&ge, 0, sizeof ge);
    int np = st->players;
    if (m->n_winners != (size_t)np)
        return broken(st, "GameEnd winners: %zu values for %d seats", m->n_winners, np);
    for (int s = 0; s < np; s++)
        if (m->winners[s])
            ge.result.winners |= (uint8_t)(1u << s);
    okr_game_result *r = &ge.result;
    if (seat_values(st, r->score, m->score, m->n_score, np, "GameEnd score") ||
        seat_values(st, r->concealed, m->concealed, m->n_concealed, np, "GameEnd concealed") ||
        seat_values(st, r->winner_bonus, m->winner_bonus, m->n_winner_bonus, np,
                    "GameEnd winner_bonus") ||
        seat_values(st, r->final_total, m->final_total, m->n_final_total, np,
                    "GameEnd final_total") ||
        seat_values(st, r->settlement, m->settlement, m->n_settlement, np, "GameEnd settlement"))
        return 1;
    if (m->n_placement != (size_t)np)
        return broken(st, "GameEnd placement: %zu values for %d seats", m->n_placement, np);
    for (int s = 0; s < np; s++) {
        if (m->placement[s] < 1 || m->placement[s] > (uint32_t)np)
            return broken(st, "GameEnd: placement %u", m->placement[s]);
        ge.result.placement[s] = (uint8_t)m->placement[s];
    }
    ge.game_id = m->game_id ? m->game_id : "";
    ge.seat = st->seat;
    ge.players = np;
    ge.verdict = m->verdict ? m->verdict : "";
    if (ge.verdict[0])
        say(st, "game %s: verdict %s", ge.game_id, ge.verdict);
    st->in_game = 0;
    if (st->bot->on_game_end)
        st->bot->on_game_end(&ge, st->ud);
    return 0;
}

static int on_refused(okb_state *st, const Okrpb__Refused *m)
{
    if (!st->have_hello)
        return broken(st, "Refused before Hello");
    okb_refused rf;
    memset(&rf, 0, sizeof rf);
    rf.id = m->id;
    rf.rule = m->rule ? m->rule : "";
    rf.reason = m->reason ? m->reason : "";
    if (m->substituted) {
        okr_refusal why;
        if (okrpb_action_to(m->substituted, &rf.action, &why) != OKR_OK)
            return refusal(st, "Refused: substituted action", &why);
        rf.substituted = 1;
    }
    say(st, "decision %llu refused: %s (RULES %s)%s", (unsigned long long)rf.id, rf.reason, rf.rule,
        rf.substituted ? ", an action was played for us" : "");
    if (st->bot->on_refused)
        st->bot->on_refused(&rf, st->ud);
    return 0;
}

/* Handle one frame. Returns 0 to go on, 1 on error, 2 after Bye. */
static int dispatch(okb_state *st, const uint8_t *data, size_t len, int64_t start_ns)
{
    int fast = okrpb_fast_decode(&st->fast, data, len);
    if (fast < 0) {
        say(st, "out of memory");
        return 1;
    }
    if (fast == 1 && !st->have_hello)
        return broken(st, "message %d before Hello",
                      st->fast.kind == OKRPB_FAST_DECISION ? (int)OKRPB__TO_BOT__MSG_DECISION
                                                           : (int)OKRPB__TO_BOT__MSG_EVENTS);
    if (fast == 1 && st->fast.kind == OKRPB_FAST_DECISION)
        return on_fast_decision(st, &st->fast, start_ns);
    if (fast == 1) {
        if (st->bot->on_events && st->fast.n_events)
            st->bot->on_events(st->fast.events, (int)st->fast.n_events, st->ud);
        return 0;
    }
    Okrpb__ToBot *m = okrpb__to_bot__unpack(NULL, len, data);
    if (!m)
        return broken(st, "a frame of %zu bytes that is not a ToBot message", len);
    int rc = 0;
    if (!st->have_hello && m->msg_case != OKRPB__TO_BOT__MSG_HELLO &&
        m->msg_case != OKRPB__TO_BOT__MSG_BYE && m->msg_case != OKRPB__TO_BOT__MSG__NOT_SET) {
        rc = broken(st, "message %d before Hello", (int)m->msg_case);
        goto out;
    }
    switch (m->msg_case) {
    case OKRPB__TO_BOT__MSG_HELLO:
        rc = on_hello(st, m->hello);
        break;
    case OKRPB__TO_BOT__MSG_GAME_START:
        rc = on_game_start(st, m->game_start);
        break;
    case OKRPB__TO_BOT__MSG_DECISION:
        rc = on_decision(st, m->decision, start_ns);
        break;
    case OKRPB__TO_BOT__MSG_EVENTS:
        rc = on_events(st, m->events);
        break;
    case OKRPB__TO_BOT__MSG_HAND_END:
        rc = on_hand_end(st, m->hand_end);
        break;
    case OKRPB__TO_BOT__MSG_GAME_END:
        rc = on_game_end(st, m->game_end);
        break;
    case OKRPB__TO_BOT__MSG_REFUSED:
        rc = on_refused(st, m->refused);
        break;
    case OKRPB__TO_BOT__MSG_BYE:
        if (m->bye && m->bye->reason && m->bye->reason[0])
            say(st, "bye: %s", m->bye->reason);
        rc = 2;
        break;
    default: /* a message of a newer minor version, or an empty frame */
        say(st, "skipping a message of unknown kind (%zu bytes)", len);
        break;
    }
out:
    okrpb__to_bot__free_unpacked(m, NULL);
    return rc;
}

/* ---- The loop ------------------------------------------------------------------------------ */

/* Move the channel off fd 1 (okbot.h). Returns the private fd, or -1. */
static int take_stdout(void)
{
    fflush(stdout);
    int fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    if (fd < 0)
        return -1;
    if (dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        close(fd);
        return -1;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    return fd;
}

static int loop(okb_state *st)
{
    for (;;) {
        const uint8_t *frame;
        size_t len;
        int rc = okrpb_reader_next(&st->reader, &frame, &len);
        if (rc == OKRPB_FRAME_OK) {
            rc = dispatch(st, frame, len, okb_now_ns());
            if (rc)
                return rc == 2 ? 0 : 1;
            continue;
        }
        if (rc == OKRPB_FRAME_EVARINT)
            return broken(st, "a malformed frame length");
        if (rc == OKRPB_FRAME_ETOOBIG)
            return broken(st, "a frame longer than %zu bytes", st->reader.max_frame);
        size_t room;
        uint8_t *space = okrpb_reader_space(&st->reader, &room);
        ssize_t got = read(IN_FD, space, room);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            struct pollfd pfd = {.fd = IN_FD, .events = POLLIN};
            (void)poll(&pfd, 1, -1);
            continue;
        }
        if (got < 0) {
            say(st, "cannot read from the arena: %s", strerror(errno));
            return 1;
        }
        if (got == 0) {
            if (st->reader.len > 0)
                return broken(st, "input ends inside a frame (%zu bytes)", st->reader.len);
            return 0;
        }
        okrpb_reader_commit(&st->reader, (size_t)got);
    }
}

int okb_run(const okb_bot *bot, void *ud)
{
    okb_state st;
    memset(&st, 0, sizeof st);
    st.bot = bot;
    st.ud = ud;
    st.name = bot && bot->name && bot->name[0] ? bot->name : "okbot";
    st.chan_fd = -1;
    st.max_frame = OKRPB_MAX_FROM_BOT;
    static int started; /* fd 1 has been moved: a second run would write frames to stderr */
    if (!bot || !bot->decide || started) {
        say(&st, started ? "okb_run runs once per process" : "okb_run needs a decide function");
        return 1;
    }
    started = 1;
    signal(SIGPIPE, SIG_IGN);
    int rc = 1;
    st.chan_fd = take_stdout();
    if (st.chan_fd < 0) {
        say(&st, "cannot set up the channel on stdout: %s", strerror(errno));
        goto out;
    }
    if (okrpb_reader_init(&st.reader, OKRPB_MAX_TO_BOT) != 0 || !(st.arena = okrpb_arena_new())) {
        say(&st, "out of memory");
        goto out;
    }
    rc = loop(&st);
out:
    okrpb_reader_free(&st.reader);
    okrpb_buf_free(&st.out);
    okrpb_arena_free(st.arena);
    okrpb_fast_free(&st.fast);
    free(st.legal);
    free(st.events);
    free(st.game_id);
    if (st.chan_fd >= 0)
        close(st.chan_fd);
    fflush(stdout);
    return rc;
}
