/* seat.c - the human's end of a human seat (seat.h): frames in and out over two pipes, what
 * the seat was told, and the Choice made from the human's pick. */
#include "seat.h"

#include "codec.h"
#include "frame.h"
#include "match/bot.h"
#include "match/json_out.h"
#include "match/refusal.h"
#include "okr/okr.h"
#include "util/util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MAX_EVENTS = 400 };

struct ap_seat {
    struct event_base *base;
    char *name;
    int rd_fd, wr_fd; /* our ends: we read ToBot frames, write FromBot frames */
    struct event *ev;
    okrpb_reader rd;
    Okrpb__ToBot *decision_msg; /* the waiting Decision's frame, or NULL */
    Okrpb__ToBot *last_view;    /* the last Decision's frame (its View), kept after answering */
    int seat, players, games;
    int hand; /* the hand being played: events are tagged with it */
    char **names;
    int nnames;
    char game_id[64];
    char rules[32];    /* the Hello's preset: "laws", "gin" ... */
    okr_rules okrules; /* the Hello's rules in full, to ask the engine why a move is refused */
    int have_rules;
    json_t *events;   /* [{seat, text}] of the current game, oldest first */
    long long told;   /* events of the current game received (uncapped): the game's step */
    json_t *hand_end; /* the last HandEnd, or NULL */
    json_t *game_end; /* the last GameEnd, or NULL */
    json_t *refused;  /* the last Refused, or NULL */
    uint64_t version;
    int ends;          /* hand and game ends received: the terminal draws the table at each */
    double got_ms;     /* when the waiting Decision came (ar_now_ms): the human's clock runs */
    uint32_t limit_ms; /* the human's time per move (ap_seat_set_limit), 0: the Decision's */
    int over;
    int left;       /* the human left the game (quit): the page says so rather than "ended" */
    char gone[160]; /* why the human went away without leaving (ap_seat_gone), "" if not */
    ap_seat_cb cb;
    void *ud;
    ap_seat_base_cb on_base;
    void *on_base_ud;
    ap_seat_undo_cb undo;
    void *undo_ud;
    /* the hint bot (ap_seat_set_hint) */
    ar_loop *hloop;
    ap_hint_make_cb hmake;
    void *hmake_ud;
    ar_bot *hb;
    Okrpb__ToBot **hlog; /* Hello, then what the seat was told in this game */
    size_t hn, hcap, hsent;
    struct event *htimer;
    uint64_t hask;    /* the human's Decision a hint is wanted for, 0: none */
    uint64_t hbot_id; /* the id the hint bot was asked under, 0: not asked yet */
    uint64_t hnext;
    json_t *hint; /* {"id", "text", "note"} or {"id", "error"}, or NULL */
};

static const char *const PHASES[] = {"",           "upcard", "gin upcard", "draw",     "claim",
                                     "claim meld", "play",   "hand over",  "game over"};
static const char *const TYPES[] = {"",        "draw",    "take",  "meld",  "add",
                                    "replace", "discard", "claim", "knock", "pass"};

static const char *type_name(unsigned t)
{
    return t < sizeof TYPES / sizeof TYPES[0] ? TYPES[t] : "?";
}

static json_t *card(uint32_t k)
{
    char b[3];
    if (k > 52)
        return json_string("??");
    return json_string(okr_card_str((int)k, b));
}

static json_t *cards(const uint32_t *k, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, card(k[i]));
    return a;
}

static json_t *ints(const int32_t *v, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, json_integer(v[i]));
    return a;
}

static json_t *uints(const uint32_t *v, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, json_integer(v[i]));
    return a;
}

static void changed(ap_seat *s)
{
    s->version++;
    if (s->cb)
        s->cb(s, s->ud);
}

static void close_ends(ap_seat *s)
{
    if (s->ev) {
        event_free(s->ev);
        s->ev = NULL;
    }
    if (s->rd_fd >= 0)
        close(s->rd_fd);
    if (s->wr_fd >= 0)
        close(s->wr_fd);
    s->rd_fd = s->wr_fd = -1;
}

static void send_msg(ap_seat *s, const Okrpb__FromBot *m)
{
    if (s->wr_fd < 0)
        return;
    okrpb_buf b = {0};
    if (okrpb_frame_append(&b, &m->base) == 0) {
        /* a FromBot frame is a few bytes and the arena reads as it goes: the pipe has room */
        int fl = fcntl(s->wr_fd, F_GETFL);
        fcntl(s->wr_fd, F_SETFL, fl & ~O_NONBLOCK);
        ar_write_all(s->wr_fd, b.data, b.len);
        fcntl(s->wr_fd, F_SETFL, fl);
    }
    okrpb_buf_free(&b);
}

static void hint_feed(ap_seat *s, const Okrpb__ToBot *m);
static void hint_stop(ap_seat *s);
static void hint_clear_log(ap_seat *s);

static json_t *cards_text(const uint32_t *k, size_t n)
{
    char buf[OKR_MAX_CARDS * 3 + 1], c[3];
    size_t at = 0;
    for (size_t i = 0; i < n && i < OKR_MAX_CARDS; i++)
        if (k[i] <= 52) /* the arena sends no other; a card that is none is left out */
            at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%s", at ? " " : "",
                                   okr_card_str((int)k[i], c));
    buf[at] = '\0';
    return json_string(buf);
}

static int at(const int32_t *v, size_t n, size_t i)
{
    return i < n ? v[i] : 0;
}

/* A HandEnd's scoring in the replay page's form, so that table.js draws it the same on both
 * pages: {ended, winner, knocker, gin, rows: per seat {melded, debit, out, concealed, deadwood,
 * score, total}, sd: a gin knock's showdown (RULES G5), as the record writes it}. Everything
 * in it is what every seat is shown at a hand's end. */
static json_t *hand_scoring(const ap_seat *s, const Okrpb__HandEnd *h)
{
    json_t *rows = json_array();
    for (size_t i = 0; i < h->n_score; i++)
        json_array_append_new(rows, json_pack("{s:i,s:i,s:i,s:i,s:i,s:i,s:i}", "melded",
                                              at(h->melded, h->n_melded, i), "debit",
                                              at(h->debit, h->n_debit, i), "out",
                                              at(h->out_bonus, h->n_out_bonus, i), "concealed",
                                              at(h->concealed, h->n_concealed, i), "deadwood",
                                              at(h->deadwood, h->n_deadwood, i), "score",
                                              h->score[i], "total", at(h->total, h->n_total, i)));
    json_t *o = json_pack("{s:s,s:i,s:i,s:b,s:o}", "ended", ar_end_name((int)h->ended), "winner",
                          (int)h->winner, "knocker", (int)h->knocker, "gin",
                          strcmp(s->rules, "gin") == 0, "rows", rows);
    if (h->knocker >= 0 && h->n_knock_melds > 0) {
        json_t *melds = json_array(), *offs = json_array();
        for (size_t i = 0; i < h->n_knock_melds; i++)
            json_array_append_new(melds,
                                  cards_text(h->knock_melds[i]->cards, h->knock_melds[i]->n_cards));
        for (size_t i = 0; i < h->n_layoffs; i++)
            json_array_append_new(offs, json_pack("{s:o,s:i}", "card",
                                                  cards_text(&h->layoffs[i]->card, 1), "onto",
                                                  (int)h->layoffs[i]->meld));
        json_object_set_new(o, "sd",
                            json_pack("{s:o,s:o,s:o}", "melds", melds, "deadwood",
                                      cards_text(h->knock_deadwood, h->n_knock_deadwood), "layoffs",
                                      offs));
    }
    /* the lines this rule set has (german: no going-out bonus; only laws and parlett a
     * concealed one), as the replay page's record says them: the page leaves the others out
     * rather than show rows of zeros. Without the Hello's rules, every line. */
    if (s->have_rules)
        json_object_set_new(o, "has",
                            json_pack("{s:b,s:b}", "out", s->okrules.out_bonus > 0, "concealed",
                                      s->okrules.concealed_bonus > 0));
    return o;
}

/* ---- Moves in words ------------------------------------------------------------------------- */

/* A card for a person: rank and suit symbol ("10♥", "Q♣", "Joker"); "a card" for one this
 * seat may not know. */
static const char *card_words(uint32_t k, char *buf, size_t cap)
{
    static const char *const SUIT[] = {"\u2663", "\u2666", "\u2665", "\u2660"};
    static const char *const RANK[] = {"A", "2", "3",  "4", "5", "6", "7",
                                       "8", "9", "10", "J", "Q", "K"};
    if (k == OKR_JOKER)
        snprintf(buf, cap, "Joker");
    else if (k < OKR_JOKER)
        snprintf(buf, cap, "%s%s", RANK[k % 13], SUIT[k / 13]);
    else
        snprintf(buf, cap, "a card");
    return buf;
}

/* "2♥ as Q♣, K♣, A♣": a meld's cards, a wild one with what it stands for */
static void meld_words(const uint32_t *c, size_t n, const uint32_t *as, size_t nas, char *out,
                       size_t cap)
{
    size_t at = 0;
    out[0] = 0;
    for (size_t i = 0; i < n && at + 1 < cap; i++) {
        char a[16], b[16];
        card_words(c[i], a, sizeof a);
        if (i < nas && as[i] != c[i] && as[i] < OKR_JOKER)
            at += (size_t)snprintf(out + at, cap - at, "%s%s as %s", i ? ", " : "", a,
                                   card_words(as[i], b, sizeof b));
        else
            at += (size_t)snprintf(out + at, cap - at, "%s%s", i ? ", " : "", a);
    }
}

/* Who: "greedy_bot#2 (seat 2)", "you (seat 0)" */
static void who_words(const ap_seat *s, int seat, char *out, size_t cap)
{
    if (seat == s->seat)
        snprintf(out, cap, "you (seat %d)", seat);
    else if (seat >= 0 && seat < s->nnames)
        snprintf(out, cap, "%s (seat %d)", s->names[seat], seat);
    else
        snprintf(out, cap, "seat %d", seat);
}

/* An event in words, from what the event says; a new meld's cards are not in it (the next
 * view shows them: events_fill). Everything here is public but the card the seat drew. */
static void event_words(const ap_seat *s, const Okrpb__Event *e, char *out, size_t cap)
{
    char who[96], c[16];
    int you = (int)e->seat == s->seat;
    who_words(s, (int)e->seat, who, sizeof who);
    card_words(e->card, c, sizeof c);
    const char *es = you ? "" : "s";
    switch (e->type) {
    case OKRPB__ACTION_TYPE__DRAW:
        if (e->card < OKR_KINDS)
            snprintf(out, cap, "%s draw%s %s from the stock", who, es, c);
        else
            snprintf(out, cap, "%s draw%s a card from the stock", who, es);
        break;
    case OKRPB__ACTION_TYPE__TAKE:
    case OKRPB__ACTION_TYPE__CLAIM: {
        const char *verb = e->type == OKRPB__ACTION_TYPE__TAKE ? "take" : "claim";
        char pile[64] = "the pile (its one card)";
        if (e->taken > 0)
            snprintf(pile, sizeof pile, "the pile (its top card and %u more)", e->taken);
        if (e->how == OKRPB__HOW__NEW)
            snprintf(out, cap, "%s %s%s %s and meld%s %s in meld %u", who, verb, es, pile, es, c,
                     e->meld);
        else if (e->how == OKRPB__HOW__ONTO)
            snprintf(out, cap, "%s %s%s %s, adding %s to meld %u", who, verb, es, pile, c, e->meld);
        else if (e->how == OKRPB__HOW__JOKER) /* the card the Joker stood for (RULES 4.3 b) */
            snprintf(out, cap,
                     "%s %s%s %s, putting the natural %s in place of the Joker of meld %u, "
                     "which stood for %s, and taking the Joker into hand (RULES 5.2)",
                     who, verb, es, pile, c, e->meld, c);
        else
            snprintf(out, cap, "%s %s%s %s", who, verb, es, c);
        break;
    }
    case OKRPB__ACTION_TYPE__MELD:
        snprintf(out, cap, "%s meld%s meld %u", who, es, e->meld);
        break;
    case OKRPB__ACTION_TYPE__ADD:
        snprintf(out, cap, "%s add%s %s to meld %u", who, es, c, e->meld);
        break;
    case OKRPB__ACTION_TYPE__REPLACE:
        /* the natural card is the one the Joker was declared to be (RULES 5.2): both named,
         * so a reader sees which card left the meld's Joker and what it meant */
        snprintf(out, cap,
                 "%s put%s the natural %s in place of the Joker of meld %u, which stood for %s, "
                 "and take%s the Joker into hand (RULES 5.2)",
                 who, es, c, e->meld, c, es);
        break;
    case OKRPB__ACTION_TYPE__DISCARD:
        snprintf(out, cap, "%s discard%s %s", who, es, c);
        break;
    case OKRPB__ACTION_TYPE__KNOCK:
        snprintf(out, cap, "%s knock%s, discarding %s", who, es, c);
        break;
    case OKRPB__ACTION_TYPE__PASS:
        snprintf(out, cap, "%s pass%s", who, you ? "" : "es");
        break;
    default:
        snprintf(out, cap, "%s: ?", who);
        break;
    }
}

/* A new meld's cards once a view shows the table: the events of this hand that made meld M
 * ("pmeld") get its cards as the view shows them, less the cards added to M by later events. */
static void events_fill(ap_seat *s, const Okrpb__View *v)
{
    size_t n = json_array_size(s->events);
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_array_get(s->events, i);
        json_t *pm = json_object_get(e, "pmeld");
        if (!pm)
            continue;
        size_t m = (size_t)json_integer_value(pm);
        if (json_integer_value(json_object_get(e, "hand")) != (json_int_t)v->hand_no ||
            m >= v->n_melds) {
            json_object_del(e, "pmeld");
            continue;
        }
        const Okrpb__Meld *md = v->melds[m];
        uint32_t c[OKR_MAX_CARDS], as[OKR_MAX_CARDS];
        size_t k = 0;
        for (size_t j = 0; j < md->n_cards && k < OKR_MAX_CARDS; j++, k++) {
            c[k] = md->cards[j];
            as[k] = j < md->n_as ? md->as[j] : md->cards[j];
        }
        for (size_t l = i + 1; l < n; l++) { /* cards added to it since */
            json_t *x = json_array_get(s->events, l);
            json_int_t card = json_integer_value(json_object_get(x, "card"));
            if (json_integer_value(json_object_get(x, "meld")) != (json_int_t)m ||
                !json_is_true(json_object_get(x, "adds")))
                continue;
            for (size_t j = 0; j < k; j++)
                if (c[j] == (uint32_t)card) {
                    memmove(c + j, c + j + 1, (k - j - 1) * sizeof *c);
                    memmove(as + j, as + j + 1, (k - j - 1) * sizeof *as);
                    k--;
                    break;
                }
        }
        char cw[400], who[96], out[600];
        meld_words(c, k, as, k, cw, sizeof cw);
        int seat = (int)json_integer_value(json_object_get(e, "seat"));
        who_words(s, seat, who, sizeof who);
        const char *type = json_string_value(json_object_get(e, "type"));
        const char *es = seat == s->seat ? "" : "s";
        json_int_t taken = json_integer_value(json_object_get(e, "taken"));
        char pile[64] = "the pile (its one card)";
        if (taken > 0)
            snprintf(pile, sizeof pile, "the pile (its top card and %lld more)", (long long)taken);
        int w;
        if (type && strcmp(type, "meld") == 0)
            w = snprintf(out, sizeof out, "%s meld%s %s as meld %zu", who, es, cw, m);
        else
            w = snprintf(out, sizeof out, "%s %s%s %s and meld%s %s as meld %zu", who,
                         type ? type : "take", es, pile, es, cw, m);
        if (w < 0 || (size_t)w >= sizeof out) { /* cut short, on a character's start: say so */
            size_t at = sizeof out - 4;
            while (at > 0 && ((unsigned char)out[at] & 0xC0) == 0x80)
                at--;
            memcpy(out + at, "...", 4);
        }
        json_object_set_new(e, "words", json_string(out));
        json_object_del(e, "pmeld");
    }
}

/* Names as the page shows them: one entrant in several seats is "greedy_bot", "greedy_bot#2",
 * ... (the second seat it fills is #2) */
static void unique_names(ap_seat *s)
{
    for (int i = 1; i < s->nnames; i++) {
        int same = 1;
        for (int j = 0; j < i; j++)
            if (strcmp(s->names[j], s->names[i]) == 0 ||
                (strncmp(s->names[j], s->names[i], strlen(s->names[i])) == 0 &&
                 s->names[j][strlen(s->names[i])] == '#'))
                same++;
        if (same > 1) {
            char b[80];
            snprintf(b, sizeof b, "%s#%d", s->names[i], same);
            free(s->names[i]);
            s->names[i] = ar_xstrdup(b);
        }
    }
}

/* A gin hand's end, itemised for a person (RULES G5-G7): the knocker's melds (numbered from 1,
 * as the hand's table on the page numbers them) and deadwood,
 * the defender's lay-offs and deadwood, and how the score is made of them (the gin bonus, the
 * undercut bonus, the difference). Only what HandEnd shows every seat. */
static json_t *gin_showdown(const ap_seat *s, const Okrpb__HandEnd *h)
{
    json_t *out = json_array();
    char line[1200], who[96], cw[600];
    int k = (int)h->knocker, dfd = k == 0 ? 1 : 0;
    if (strcmp(s->rules, "gin") != 0)
        return out;
    if (k < 0 || k > 1 || h->n_deadwood < 2) {
        json_array_append_new(out, json_string(h->ended == OKR_END_DRAWN
                                                   ? "a drawn hand: nobody knocked before the "
                                                     "stock ran down to two cards; nobody scores "
                                                     "(RULES G6)"
                                                   : "nobody knocked: nobody scores"));
        return out;
    }
    int dk = h->deadwood[k], dd = h->deadwood[dfd];
    who_words(s, k, who, sizeof who);
    size_t at =
        (size_t)snprintf(line, sizeof line, "%s knock%s with ", who, k == s->seat ? "" : "s");
    for (size_t i = 0; i < h->n_knock_melds && at + 4 < sizeof line; i++) {
        meld_words(h->knock_melds[i]->cards, h->knock_melds[i]->n_cards, NULL, 0, cw, sizeof cw);
        at += (size_t)snprintf(line + at, sizeof line - at, "%smeld %zu: %s", i ? "; " : "", i + 1,
                               cw);
    }
    meld_words(h->knock_deadwood, h->n_knock_deadwood, NULL, 0, cw, sizeof cw);
    if (at + 4 < sizeof line)
        snprintf(line + at, sizeof line - at, "%sdeadwood %s%s(%d)", h->n_knock_melds ? "; " : "",
                 cw, cw[0] ? " " : "", dk);
    json_array_append_new(out, json_string(line));
    who_words(s, dfd, who, sizeof who);
    if (h->n_layoffs) {
        at = (size_t)snprintf(line, sizeof line, "%s lay%s off ", who, dfd == s->seat ? "" : "s");
        for (size_t i = 0; i < h->n_layoffs && at + 4 < sizeof line; i++) {
            char c[16];
            at += (size_t)snprintf(line + at, sizeof line - at, "%s%s onto meld %u", i ? ", " : "",
                                   card_words(h->layoffs[i]->card, c, sizeof c),
                                   h->layoffs[i]->meld + 1);
        }
        json_array_append_new(out, json_string(line));
    } else if (h->ended != OKR_END_GIN)
        json_array_append_new(
            out, json_pack("s+", who, dfd == s->seat ? " lay off nothing" : " lays off nothing"));
    if (dfd == s->seat)
        snprintf(line, sizeof line, "your deadwood after melds and lay-offs: %d", dd);
    else
        snprintf(line, sizeof line, "%s's deadwood after melds and lay-offs: %d",
                 dfd < s->nnames ? s->names[dfd] : "the defender", dd);
    json_array_append_new(out, json_string(line));
    int gb = s->have_rules ? s->okrules.gin_bonus : 25,
        ub = s->have_rules ? s->okrules.undercut_bonus : 10;
    char kw[96];
    who_words(s, k, kw, sizeof kw);
    if (h->ended == OKR_END_GIN)
        snprintf(line, sizeof line,
                 "gin (no deadwood): %s score%s the gin bonus %d + the defender's deadwood %d = "
                 "%d (RULES G7)",
                 kw, k == s->seat ? "" : "s", gb, dd, gb + dd);
    else if (h->ended == OKR_END_UNDERCUT)
        snprintf(line, sizeof line,
                 "undercut (the knocker's deadwood %d is not lower than %d): %s score%s the "
                 "undercut bonus %d + the difference %d = %d (RULES G7)",
                 dk, dd, who, dfd == s->seat ? "" : "s", ub, dk - dd, ub + dk - dd);
    else
        snprintf(line, sizeof line,
                 "knock: %s score%s the difference of the deadwood, %d - %d = %d (RULES G7)", kw,
                 k == s->seat ? "" : "s", dd, dk, dd - dk);
    json_array_append_new(out, json_string(line));
    return out;
}

static void handle(ap_seat *s, Okrpb__ToBot *m)
{
    hint_feed(s, m);
    switch (m->msg_case) {
    case OKRPB__TO_BOT__MSG_HELLO: {
        s->players = (int)m->hello->players;
        const char *preset =
            m->hello->rules && m->hello->rules->preset ? m->hello->rules->preset : "";
        ar_sanitize(preset, strlen(preset), s->rules, sizeof s->rules);
        okr_refusal why;
        s->have_rules =
            m->hello->rules && okrpb_rules_to(m->hello->rules, &s->okrules, &why) == OKR_OK;
        Okrpb__Identify id = OKRPB__IDENTIFY__INIT;
        id.major = 1;
        id.minor = 0;
        id.name = "human";
        id.version = AR_VERSION;
        Okrpb__FromBot f = OKRPB__FROM_BOT__INIT;
        f.msg_case = OKRPB__FROM_BOT__MSG_IDENTIFY;
        f.identify = &id;
        send_msg(s, &f);
        Okrpb__Ready r = OKRPB__READY__INIT;
        f.msg_case = OKRPB__FROM_BOT__MSG_READY;
        f.ready = &r;
        send_msg(s, &f);
        break;
    }
    case OKRPB__TO_BOT__MSG_GAME_START: {
        Okrpb__GameStart *g = m->game_start;
        s->seat = (int)g->seat;
        s->players = (int)g->players;
        s->games++;
        s->hand = 1;
        snprintf(s->game_id, sizeof s->game_id, "%s", g->game_id ? g->game_id : "");
        for (int i = 0; i < s->nnames; i++)
            free(s->names[i]);
        free(s->names);
        s->nnames = (int)g->n_names;
        s->names = ar_xcalloc((size_t)s->nnames + 1, sizeof(char *));
        for (int i = 0; i < s->nnames; i++) {
            char clean[64];
            ar_sanitize(g->names[i], strlen(g->names[i]), clean, sizeof clean);
            s->names[i] = ar_xstrdup(clean);
        }
        unique_names(s);
        json_array_clear(s->events);
        s->told = 0;
        json_decref(s->hand_end);
        json_decref(s->game_end);
        json_decref(s->refused);
        s->hand_end = s->game_end = s->refused = NULL;
        if (s->last_view) {
            okrpb__to_bot__free_unpacked(s->last_view, NULL);
            s->last_view = NULL;
        }
        break;
    }
    case OKRPB__TO_BOT__MSG_DECISION:
        if (s->decision_msg && s->decision_msg != s->last_view)
            okrpb__to_bot__free_unpacked(s->decision_msg, NULL);
        if (s->last_view)
            okrpb__to_bot__free_unpacked(s->last_view, NULL);
        s->decision_msg = s->last_view = m;
        s->got_ms = ar_now_ms();
        if (m->decision->view) {
            s->hand = (int)m->decision->view->hand_no;
            events_fill(s, m->decision->view);
        }
        json_decref(s->refused);
        s->refused = NULL;
        return; /* kept */
    case OKRPB__TO_BOT__MSG_EVENTS:
        for (size_t i = 0; i < m->events->n_events; i++) {
            Okrpb__Event *e = m->events->events[i];
            s->told++;
            char clean[200];
            const char *t = e->text ? e->text : "";
            ar_sanitize(t, strlen(t), clean, sizeof clean);
            if (json_array_size(s->events) >= MAX_EVENTS)
                json_array_remove(s->events, 0);
            char words[400];
            event_words(s, e, words, sizeof words);
            json_t *x = json_pack("{s:i,s:i,s:s,s:s,s:s,s:i,s:i,s:i}", "hand", s->hand, "seat",
                                  (int)e->seat, "type", type_name(e->type), "text", clean, "words",
                                  words, "card", e->card < OKR_KINDS ? (int)e->card : -1, "meld",
                                  e->meld < 255 ? (int)e->meld : -1, "taken", (int)e->taken);
            int made =
                e->type == OKRPB__ACTION_TYPE__MELD ||
                ((e->type == OKRPB__ACTION_TYPE__TAKE || e->type == OKRPB__ACTION_TYPE__CLAIM) &&
                 e->how == OKRPB__HOW__NEW);
            int adds =
                e->type == OKRPB__ACTION_TYPE__ADD ||
                ((e->type == OKRPB__ACTION_TYPE__TAKE || e->type == OKRPB__ACTION_TYPE__CLAIM) &&
                 e->how == OKRPB__HOW__ONTO);
            if (made && e->meld < 255)
                json_object_set_new(x, "pmeld", json_integer(e->meld));
            if (adds)
                json_object_set_new(x, "adds", json_true());
            json_array_append_new(s->events, x);
        }
        break;
    case OKRPB__TO_BOT__MSG_HAND_END: {
        Okrpb__HandEnd *h = m->hand_end;
        s->hand = (int)h->hand_no + 1;
        json_t *hands = json_array();
        size_t at = 0;
        for (size_t i = 0; i < h->n_hand_sizes; i++) {
            size_t n = h->hand_sizes[i];
            if (at + n > h->n_hands)
                n = at < h->n_hands ? h->n_hands - at : 0;
            json_array_append_new(hands, cards(h->hands + at, n));
            at += n;
        }
        json_decref(s->hand_end);
        s->hand_end =
            json_pack("{s:i,s:i,s:i,s:o,s:o,s:o}", "hand_no", (int)h->hand_no, "ended",
                      (int)h->ended, "winner", (int)h->winner, "score", ints(h->score, h->n_score),
                      "total", ints(h->total, h->n_total), "hands", hands);
        json_object_set_new(s->hand_end, "scoring", hand_scoring(s, h));
        json_object_set_new(s->hand_end, "showdown", gin_showdown(s, h));
        s->ends++;
        break;
    }
    case OKRPB__TO_BOT__MSG_GAME_END: {
        Okrpb__GameEnd *g = m->game_end;
        json_t *w = json_array();
        for (size_t i = 0; i < g->n_winners; i++)
            json_array_append_new(w, json_boolean(g->winners[i]));
        char v[32];
        ar_sanitize(g->verdict ? g->verdict : "", strlen(g->verdict ? g->verdict : ""), v,
                    sizeof v);
        json_decref(s->game_end);
        s->game_end =
            json_pack("{s:o,s:o,s:o,s:s,s:o,s:o,s:o,s:o}", "winners", w, "final_total",
                      ints(g->final_total, g->n_final_total), "placement",
                      uints(g->placement, g->n_placement), "verdict", v, "score",
                      ints(g->score, g->n_score), "concealed", ints(g->concealed, g->n_concealed),
                      "winner_bonus", ints(g->winner_bonus, g->n_winner_bonus), "settlement",
                      ints(g->settlement, g->n_settlement));
        /* the final result's lines this rule set has (gin: no concealed bonus, no winner's
         * bonus, no settlement): the page shows no rows of zeros for the others */
        if (s->have_rules)
            json_object_set_new(
                s->game_end, "has",
                json_pack("{s:b,s:b,s:b}", "concealed", s->okrules.concealed_bonus > 0, "bonus",
                          s->okrules.winner_bonus > 0, "settle", s->okrules.settlement != 0));
        s->ends++;
        if (s->decision_msg)
            s->decision_msg = NULL; /* the game ended under it */
        break;
    }
    case OKRPB__TO_BOT__MSG_REFUSED: {
        char rule[32], reason[300];
        const char *r = m->refused->rule ? m->refused->rule : "";
        const char *why = m->refused->reason ? m->refused->reason : "";
        ar_sanitize(r, strlen(r), rule, sizeof rule);
        ar_sanitize(why, strlen(why), reason, sizeof reason);
        json_decref(s->refused);
        s->refused = json_pack("{s:s,s:s}", "rule", rule, "reason", reason);
        break;
    }
    case OKRPB__TO_BOT__MSG_BYE:
        s->over = 1;
        break;
    default:
        break;
    }
    okrpb__to_bot__free_unpacked(m, NULL);
}

static void on_read(evutil_socket_t fd, short what, void *ud)
{
    (void)what;
    ap_seat *s = ud;
    size_t room;
    uint8_t *p = okrpb_reader_space(&s->rd, &room);
    ssize_t n = read(fd, p, room);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return;
    if (n <= 0) {
        s->over = 1;
        s->decision_msg = NULL;
        close_ends(s);
        changed(s);
        return;
    }
    okrpb_reader_commit(&s->rd, (size_t)n);
    const uint8_t *msg;
    size_t len;
    int rc, any = 0;
    while ((rc = okrpb_reader_next(&s->rd, &msg, &len)) == OKRPB_FRAME_OK) {
        Okrpb__ToBot *m = okrpb__to_bot__unpack(NULL, len, msg);
        if (m) {
            handle(s, m);
            any = 1;
        }
    }
    if (rc < 0) { /* cannot happen with the arena on the other end */
        s->over = 1;
        close_ends(s);
        any = 1;
    }
    if (any)
        changed(s);
}

ap_seat *ap_seat_new(const char *name)
{
    ap_seat *s = ar_xcalloc(1, sizeof *s);
    s->name = ar_xstrdup(name ? name : "human");
    s->rd_fd = s->wr_fd = -1;
    s->seat = -1;
    s->events = json_array();
    if (okrpb_reader_init(&s->rd, OKRPB_MAX_TO_BOT) < 0)
        abort();
    return s;
}

void ap_seat_free(ap_seat *s)
{
    if (!s)
        return;
    close_ends(s);
    okrpb_reader_free(&s->rd);
    if (s->last_view)
        okrpb__to_bot__free_unpacked(s->last_view, NULL);
    for (int i = 0; i < s->nnames; i++)
        free(s->names[i]);
    free(s->names);
    json_decref(s->events);
    json_decref(s->hand_end);
    json_decref(s->game_end);
    json_decref(s->refused);
    hint_stop(s);
    hint_clear_log(s);
    free(s->hlog);
    json_decref(s->hint);
    free(s->name);
    free(s);
}

void ap_seat_on_change(ap_seat *s, ap_seat_cb cb, void *ud)
{
    s->cb = cb;
    s->ud = ud;
}

void ap_seat_on_connect(ap_seat *s, ap_seat_base_cb cb, void *ud)
{
    s->on_base = cb;
    s->on_base_ud = ud;
}

int ap_seat_connect(void *ud, struct event_base *base, int fds[2], char *err, size_t cap)
{
    ap_seat *s = ud;
    s->base = base;
    int to_seat[2], from_seat[2];
    if (pipe2(to_seat, O_CLOEXEC | O_NONBLOCK) < 0) {
        snprintf(err, cap, "pipe: %s", strerror(errno));
        return -errno;
    }
    if (pipe2(from_seat, O_CLOEXEC | O_NONBLOCK) < 0) {
        int e = errno;
        close(to_seat[0]);
        close(to_seat[1]);
        snprintf(err, cap, "pipe: %s", strerror(e));
        return -e;
    }
    close_ends(s);
    s->rd.len = s->rd.consumed = 0;
    s->rd_fd = to_seat[0];
    s->wr_fd = from_seat[1];
    s->over = 0;
    s->ev = event_new(s->base, s->rd_fd, EV_READ | EV_PERSIST, on_read, s);
    event_add(s->ev, NULL);
    fds[0] = to_seat[1];
    fds[1] = from_seat[0];
    if (s->on_base)
        s->on_base(s, base, s->on_base_ud);
    return 0;
}

const Okrpb__Decision *ap_seat_decision(const ap_seat *s)
{
    return s->decision_msg ? s->decision_msg->decision : NULL;
}

int ap_seat_number(const ap_seat *s)
{
    return s->seat;
}

uint64_t ap_seat_version(const ap_seat *s)
{
    return s->version;
}

int ap_seat_over(const ap_seat *s)
{
    return s->over;
}

int ap_seat_choose(ap_seat *s, uint64_t id, long long index)
{
    if (s->wr_fd < 0)
        return AP_GONE;
    const Okrpb__Decision *d = ap_seat_decision(s);
    if (!d || d->id != id)
        return AP_STALE;
    if (index < 0 || (size_t)index >= d->n_legal)
        return AP_RANGE;
    Okrpb__Choice c = OKRPB__CHOICE__INIT;
    c.id = id;
    c.pick_case = OKRPB__CHOICE__PICK_INDEX;
    c.index = (uint32_t)index;
    Okrpb__FromBot f = OKRPB__FROM_BOT__INIT;
    f.msg_case = OKRPB__FROM_BOT__MSG_CHOICE;
    f.choice = &c;
    send_msg(s, &f);
    s->decision_msg = NULL; /* answered: last_view keeps the table on screen */
    changed(s);
    return AP_OK;
}

void ap_seat_set_practice(ap_seat *s, ap_seat_undo_cb undo, void *ud)
{
    s->undo = undo;
    s->undo_ud = ud;
}

int ap_seat_practice(const ap_seat *s)
{
    return s->undo != NULL;
}

int ap_seat_undo(ap_seat *s, uint64_t id)
{
    if (!s->undo)
        return AP_NOT_PRACTICE;
    if (s->wr_fd < 0)
        return AP_GONE;
    const Okrpb__Decision *d = ap_seat_decision(s);
    if (!d || d->id != id)
        return AP_STALE;
    if (s->undo(s, s->undo_ud) < 0)
        return AP_NOTHING;
    s->decision_msg = NULL; /* the match stops: this Decision will never be answered */
    changed(s);
    return AP_OK;
}

/* Lower case without spaces: "Discard QS" and "discard  qs" compare equal. */
static void squash(const char *in, char *out, size_t cap)
{
    size_t j = 0;
    for (; *in && j + 1 < cap; in++)
        if (!isspace((unsigned char)*in))
            out[j++] = (char)tolower((unsigned char)*in);
    out[j] = 0;
}

int ap_seat_find(const ap_seat *s, const char *text)
{
    const Okrpb__Decision *d = ap_seat_decision(s);
    if (!d)
        return -1;
    char want[256], have[256];
    squash(text, want, sizeof want);
    /* "10h" is "th" in the notation */
    for (char *p = strstr(want, "10"); p; p = strstr(p + 1, "10")) {
        p[0] = 't';
        memmove(p + 1, p + 2, strlen(p + 2) + 1);
    }
    for (size_t i = 0; i < d->n_legal; i++) {
        squash(d->legal[i]->text ? d->legal[i]->text : "", have, sizeof have);
        if (have[0] && strcmp(have, want) == 0)
            return (int)i;
    }
    return -1;
}

int ap_seat_move(const ap_seat *s, const char *text, long *index, okr_refusal *why)
{
    memset(why, 0, sizeof *why);
    const Okrpb__Decision *d = ap_seat_decision(s);
    if (!d)
        return AP_STALE;
    int i = ap_seat_find(s, text);
    if (i >= 0) {
        *index = i;
        return AP_OK;
    }
    /* Not written as the list writes it: ask the engine, on a table rebuilt from this seat's
     * own view (the cards it cannot see dealt at random: no rule of a move of this seat looks
     * at them, and nothing of the real game is touched) */
    const Okrpb__View *pv = s->last_view ? s->last_view->decision->view : NULL;
    struct {
        okr_view v;
        okr_game g, copy;
    } *w = ar_xmalloc(sizeof *w);
    okr_action a;
    memset(&a, 0, sizeof a);
    int rc = AP_REFUSED;
    if (!s->have_rules || !pv || okrpb_view_to(pv, &w->v, why) != OKR_OK ||
        okr_determinize(&s->okrules, &w->v, 1, &w->g, why) != OKR_OK) {
        snprintf(why->rule, sizeof why->rule, "%s", "");
        snprintf(why->reason, sizeof why->reason, "%s", "not one of the legal moves listed");
    } else if (okr_action_parse(&w->g, text, &a, why) != OKR_OK) {
        /* rule "notation": the line is not a move */
    } else {
        w->copy = w->g;
        if (okr_apply(&w->copy, &a, NULL, why) == OKR_OK) /* else: the engine's rule and reason */
            rc = AP_OK;
    }
    free(w);
    if (rc != AP_OK)
        return rc;
    okr_action_normalize(&s->okrules, &a); /* the form the legal list holds */
    for (size_t k = 0; k < d->n_legal; k++) {
        okr_action have;
        okr_refusal ignore;
        memset(&have, 0, sizeof have);
        if (okrpb_action_to(d->legal[k], &have, &ignore) != OKR_OK)
            continue;
        okr_action_normalize(&s->okrules, &have);
        if (memcmp(&have, &a, sizeof a) == 0) {
            *index = (long)k;
            return AP_OK;
        }
    }
    snprintf(why->rule, sizeof why->rule, "%s", "");
    snprintf(why->reason, sizeof why->reason, "%s", "not one of the legal moves listed");
    return AP_REFUSED;
}

void ap_refusal_text(const okr_refusal *why, char *out, size_t cap)
{
    char reason[sizeof why->reason], rule[sizeof why->rule];
    ar_sanitize(why->reason, strnlen(why->reason, sizeof why->reason), reason, sizeof reason);
    ar_sanitize(why->rule, strnlen(why->rule, sizeof why->rule), rule, sizeof rule);
    if (ar_is_rule_number(rule))
        snprintf(out, cap, "refused (RULES %s): %s", rule, reason);
    else if (strcmp(rule, "notation") == 0)
        snprintf(out, cap, "not a move in the notation (docs/notation.md): %s", reason);
    else if (rule[0])
        snprintf(out, cap, "refused (%s): %s", rule, reason);
    else
        snprintf(out, cap, "refused: %s", reason);
}

/* ---- Hints (practice) ----------------------------------------------------------------------- */

static void hint_stop(ap_seat *s)
{
    if (s->htimer) {
        event_free(s->htimer);
        s->htimer = NULL;
    }
    ar_bot_free(s->hb); /* kills its process group */
    s->hb = NULL;
    s->hsent = 0;
}

static void hint_clear_log(ap_seat *s)
{
    for (size_t i = 0; i < s->hn; i++)
        okrpb__to_bot__free_unpacked(s->hlog[i], NULL);
    s->hn = s->hsent = 0;
}

static void hint_answer(ap_seat *s, json_t *o)
{
    char id[24];
    snprintf(id, sizeof id, "%llu", (unsigned long long)s->hask);
    json_object_set_new(o, "id", json_string(id));
    json_decref(s->hint);
    s->hint = o;
    s->hask = s->hbot_id = 0;
    changed(s);
}

static void hint_failed(ap_seat *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void hint_failed(ap_seat *s, const char *fmt, ...)
{
    char raw[600], clean[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    ar_sanitize(raw, strlen(raw), clean, sizeof clean);
    char msg[640];
    snprintf(msg, sizeof msg, "the hint bot failed: %s", clean);
    hint_answer(s, json_pack("{s:s}", "error", msg));
}

/* Its Choice, checked against the human's legal list: an index in range, or an action equal
 * to one of the legal ones. */
static void hint_choice(ap_seat *s, Okrpb__FromBot *fb)
{
    const Okrpb__Decision *d = ap_seat_decision(s);
    const Okrpb__Choice *c = fb->choice;
    long idx = -1;
    if (!d || d->id != s->hask)
        return; /* the human moved meanwhile */
    if (c->pick_case == OKRPB__CHOICE__PICK_INDEX) {
        if (c->index < d->n_legal)
            idx = (long)c->index;
    } else if (c->pick_case == OKRPB__CHOICE__PICK_ACTION && c->action) {
        okr_action want, have;
        okr_refusal why;
        memset(&want, 0, sizeof want);
        if (okrpb_action_to(c->action, &want, &why) == OKR_OK)
            for (size_t i = 0; i < d->n_legal && idx < 0; i++) {
                memset(&have, 0, sizeof have);
                if (okrpb_action_to(d->legal[i], &have, &why) == OKR_OK &&
                    memcmp(&have, &want, sizeof have) == 0)
                    idx = (long)i;
            }
    }
    if (idx < 0) {
        hint_failed(s, "PE: its answer is not one of your %zu legal moves", d->n_legal);
        return;
    }
    char text[256], note[300] = "";
    const char *t = d->legal[idx]->text ? d->legal[idx]->text : "";
    ar_sanitize(t, strlen(t), text, sizeof text);
    if (c->note && c->note[0])
        ar_sanitize(c->note, strlen(c->note), note, sizeof note);
    hint_answer(s, json_pack("{s:i,s:s,s:s}", "index", (int)idx, "text", text, "note", note));
}

/* Move the hint bot along: start it, tell it the game so far, ask it, read its answer. Run
 * from a timer while it lives (the ar_bot has no callbacks: the match polls it too). */
static void hint_pump(ap_seat *s)
{
    if (!s->hmake)
        return;
    const Okrpb__Decision *d = ap_seat_decision(s);
    if (s->hask && (!d || d->id != s->hask)) {
        s->hask = s->hbot_id = 0; /* answered or taken back before the hint came */
        if (s->hb && (s->hb->state == AR_BOT_THINKING || s->hb->state == AR_BOT_CHOSE))
            ar_bot_cancel(s->hb);
    }
    if (!s->hb) {
        if (!s->hask || s->hn == 0)
            return;
        if (!(s->hb = s->hmake(s->hmake_ud))) {
            hint_failed(s, "it could not be set up");
            return;
        }
        s->hsent = 1;
        ar_bot_start(s->hb, s->hlog[0]);
    }
    ar_bot *b = s->hb;
    if (b->state == AR_BOT_FAILED) {
        if (s->hask)
            hint_failed(s, "%s%s%s: %s", ar_verdict_name(b->verdict.kind),
                        b->verdict.clock[0] ? " " : "", b->verdict.clock, b->verdict.detail);
        ar_bot_free(b); /* started again, and told the game so far, at the next hint */
        s->hb = NULL;
        return;
    }
    if (b->state == AR_BOT_CHOSE) {
        Okrpb__FromBot *fb = ar_bot_take_choice(b);
        if (s->hask && s->hbot_id)
            hint_choice(s, fb);
        okrpb__from_bot__free_unpacked(fb, NULL);
    }
    if (b->state != AR_BOT_READY)
        return;
    while (s->hsent < s->hn && b->state == AR_BOT_READY)
        ar_bot_send(b, s->hlog[s->hsent++]);
    if (s->hask && !s->hbot_id && b->state == AR_BOT_READY && d) {
        Okrpb__Decision q = *d;
        q.id = s->hbot_id = (1ull << 62) + ++s->hnext; /* fresh: never one of the match's */
        Okrpb__ToBot tb = *s->decision_msg;
        tb.decision = &q;
        ar_bot_decide(b, &tb, q.id, b->clocks.bank_ms);
    }
}

static void hint_tick(evutil_socket_t fd, short what, void *ud)
{
    (void)fd;
    (void)what;
    hint_pump(ud);
}

static void hint_timer(ap_seat *s)
{
    if (s->htimer || !s->hloop)
        return;
    s->htimer = event_new(ar_loop_base(s->hloop), -1, EV_PERSIST, hint_tick, s);
    struct timeval tv = {0, 20000};
    event_add(s->htimer, &tv);
}

/* Keep a copy of what the seat is told for the hint bot (the Hello starts a new log: a
 * takeback replays the game from its start). */
static void hint_feed(ap_seat *s, const Okrpb__ToBot *m)
{
    if (!s->hmake)
        return;
    switch (m->msg_case) {
    case OKRPB__TO_BOT__MSG_HELLO:
        hint_stop(s);
        hint_clear_log(s);
        break;
    case OKRPB__TO_BOT__MSG_GAME_START:
    case OKRPB__TO_BOT__MSG_EVENTS:
    case OKRPB__TO_BOT__MSG_HAND_END:
    case OKRPB__TO_BOT__MSG_GAME_END:
        if (s->hn == 0)
            return;
        break;
    default:
        return;
    }
    size_t len = okrpb__to_bot__get_packed_size(m);
    uint8_t *buf = ar_xmalloc(len ? len : 1);
    okrpb__to_bot__pack(m, buf);
    Okrpb__ToBot *copy = okrpb__to_bot__unpack(NULL, len, buf);
    free(buf);
    if (!copy)
        return;
    if (s->hn == s->hcap) {
        s->hcap = s->hcap ? 2 * s->hcap : 64;
        s->hlog = ar_xrealloc(s->hlog, s->hcap * sizeof *s->hlog);
    }
    s->hlog[s->hn++] = copy;
    hint_timer(s);
}

void ap_seat_set_hint(ap_seat *s, ar_loop *loop, ap_hint_make_cb make, void *ud)
{
    s->hloop = loop;
    s->hmake = make;
    s->hmake_ud = ud;
}

int ap_seat_hint(ap_seat *s, uint64_t id)
{
    if (!s->undo)
        return AP_NOT_PRACTICE;
    if (!s->hmake)
        return AP_NO_HINT;
    if (s->wr_fd < 0)
        return AP_GONE;
    const Okrpb__Decision *d = ap_seat_decision(s);
    if (!d || d->id != id)
        return AP_STALE;
    if (s->hask == id)
        return AP_OK; /* already asked */
    s->hask = id;
    s->hbot_id = 0;
    json_decref(s->hint);
    s->hint = NULL;
    hint_timer(s);
    hint_pump(s);
    changed(s);
    return AP_OK;
}

void ap_seat_detach(ap_seat *s)
{
    s->decision_msg = NULL;
    s->hask = s->hbot_id = 0;
    hint_stop(s);
    close_ends(s);
}

void ap_seat_gone(ap_seat *s, const char *why)
{
    if (s->over)
        return;
    snprintf(s->gone, sizeof s->gone, "%s", why);
    ap_seat_leave(s);
}

int ap_seat_gone_verdict(void *ud, char *detail, size_t cap)
{
    const ap_seat *s = ud;
    if (!s->gone[0])
        return AR_V_RE;
    snprintf(detail, cap, "%s", s->gone);
    return AR_V_TLE;
}

void ap_seat_leave(ap_seat *s)
{
    s->decision_msg = NULL;
    s->over = 1;
    s->left = 1;
    close_ends(s);
    changed(s);
}

static json_t *view_json(const Okrpb__View *v)
{
    json_t *melds = json_array();
    for (size_t i = 0; i < v->n_melds; i++) {
        const Okrpb__Meld *m = v->melds[i];
        json_array_append_new(melds,
                              json_pack("{s:i,s:s,s:o,s:o}", "owner", (int)m->owner, "type",
                                        m->type == OKRPB__MELD_TYPE__RUN ? "run" : "set", "cards",
                                        cards(m->cards, m->n_cards), "as", cards(m->as, m->n_as)));
    }
    return json_pack("{s:i,s:i,s:s,s:i,s:i,s:i,s:i,s:o,s:o,s:o,s:o,s:o,s:o,s:i}", "seat",
                     (int)v->seat, "players", (int)v->players, "phase",
                     v->phase < sizeof PHASES / sizeof PHASES[0] ? PHASES[v->phase] : "?", "dealer",
                     (int)v->dealer, "turn_seat", (int)v->turn_seat, "to_act", (int)v->to_act,
                     "stock_size", (int)v->stock_size, "upcard",
                     v->upcard <= 52 ? card(v->upcard) : json_null(), "hand",
                     cards(v->hand, v->n_hand), "hand_sizes", uints(v->hand_sizes, v->n_hand_sizes),
                     "pile", cards(v->pile, v->n_pile), "melds", melds, "scores",
                     ints(v->scores, v->n_scores), "hand_no", (int)v->hand_no);
}

/* The hand cards a legal action uses (the page and the terminal select them before the
 * action is offered): a meld's, an addition's, a discard's; a pile or claim meld's less the
 * top card; the natural card a Joker replacement puts on the table. Into out (kinds), the
 * count returned. And a key shared by the actions that differ only in what a wild card
 * stands for or a knock's arrangement: type, how, meld, the cards used. */
static size_t action_uses(const Okrpb__Action *a, const Okrpb__View *v, uint32_t *out, size_t cap,
                          char *key, size_t kcap)
{
    size_t n = 0;
    int meld = -1;
    switch (a->type) {
    case OKRPB__ACTION_TYPE__MELD:
    case OKRPB__ACTION_TYPE__TAKE:
    case OKRPB__ACTION_TYPE__CLAIM:
        if (a->type != OKRPB__ACTION_TYPE__MELD && a->how != OKRPB__HOW__NEW) {
            if (a->how == OKRPB__HOW__ONTO || a->how == OKRPB__HOW__JOKER)
                meld = (int)a->meld;
            break;
        }
        if (a->spec) {
            uint32_t top = 255;
            if (a->type != OKRPB__ACTION_TYPE__MELD && v) {
                if ((v->phase == OKRPB__PHASE__UPCARD || v->phase == OKRPB__PHASE__GIN_UPCARD) &&
                    v->upcard <= 52)
                    top = v->upcard;
                else if (v->n_pile)
                    top = v->pile[v->n_pile - 1];
            }
            for (size_t i = 0; i < a->spec->n_cards && n < cap; i++) {
                if (a->spec->cards[i] == top) {
                    top = 255; /* one instance: the top card */
                    continue;
                }
                out[n++] = a->spec->cards[i];
            }
        }
        break;
    case OKRPB__ACTION_TYPE__ADD:
        meld = (int)a->meld;
        /* fall through */
    case OKRPB__ACTION_TYPE__DISCARD:
    case OKRPB__ACTION_TYPE__KNOCK:
        if (cap)
            out[n++] = a->card;
        break;
    case OKRPB__ACTION_TYPE__REPLACE:
        meld = (int)a->meld;
        if (v && a->meld < v->n_melds && cap) {
            const Okrpb__Meld *m = v->melds[a->meld];
            for (size_t i = 0; i < m->n_cards && i < m->n_as; i++)
                if (m->cards[i] == OKR_JOKER && m->as[i] < OKR_JOKER) {
                    out[n++] = m->as[i];
                    break;
                }
        }
        break;
    default:
        break;
    }
    /* sorted, so that the key does not depend on the order the notation lists them in */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && out[j - 1] > out[j]; j--) {
            uint32_t t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    size_t at = (size_t)snprintf(key, kcap, "%s/%d/%d", type_name(a->type), (int)a->how, meld);
    for (size_t i = 0; i < n && at + 4 < kcap; i++) {
        char c[3];
        at += (size_t)snprintf(key + at, kcap - at, " %s",
                               out[i] <= 52 ? okr_card_str((int)out[i], c) : "??");
    }
    return n;
}

/* Gin help for the human's hand (RULES G5, G2, G8): its least deadwood with one best
 * arrangement, the knock limit, the target. From the seat's own view only. */
static json_t *gin_help(const ap_seat *s, const Okrpb__View *v)
{
    if (strcmp(s->rules, "gin") != 0 || !s->have_rules || !v)
        return json_null();
    uint8_t hand[OKR_KINDS] = {0};
    for (size_t i = 0; i < v->n_hand; i++)
        if (v->hand[i] < OKR_KINDS)
            hand[v->hand[i]]++;
    okr_ginmeld melds[OKR_GIN_MELDS + 2];
    int nm = 0;
    int dw = okr_gin_best(&s->okrules, hand, melds, &nm);
    json_t *ms = json_array();
    for (int i = 0; i < nm && i < OKR_GIN_MELDS + 2; i++) {
        json_t *m = json_array();
        for (int k = 0; k < melds[i].n && k < 13; k++)
            json_array_append_new(m, card(melds[i].card[k]));
        json_array_append_new(ms, m);
    }
    int limit = (int)v->knock_limit;
    return json_pack("{s:i,s:o,s:i,s:i,s:i}", "deadwood", dw, "melds", ms, "knock_limit", limit,
                     "target", (int)s->okrules.target, "cards", (int)v->n_hand);
}

/* What is left of the human's time for decision d: its time and bank (at most the hard
 * ceiling) less the time since it came */
static long long human_left_ms(const ap_seat *s, const Okrpb__Decision *d)
{
    long long all = (long long)d->time_ms + d->bank_ms;
    if (d->hard_ms && all > d->hard_ms)
        all = d->hard_ms;
    if (s->limit_ms)
        all = s->limit_ms;
    long long left = all - (long long)(ar_now_ms() - s->got_ms);
    return left > 0 ? left : 0;
}

json_t *ap_seat_json(const ap_seat *s)
{
    json_t *names = json_array();
    for (int i = 0; i < s->nnames; i++)
        json_array_append_new(names, json_string(s->names[i]));
    json_t *o =
        json_pack("{s:I,s:b,s:i,s:i,s:s,s:o,s:O,s:I}", "version", (json_int_t)s->version, "over",
                  s->over, "seat", s->seat, "games", s->games, "game_id", s->game_id, "names",
                  names, "events", s->events, "told", (json_int_t)s->told);
    json_object_set_new(o, "rules", json_string(s->rules));
    if (s->left)
        json_object_set_new(o, "left", json_true());
    json_object_set_new(o, "practice", json_boolean(s->undo != NULL));
    json_object_set_new(o, "hints", json_boolean(s->undo != NULL && s->hmake != NULL));
    json_object_set_new(o, "hint", json_null());
    const Okrpb__Decision *d = ap_seat_decision(s);
    const Okrpb__View *dv = s->last_view ? s->last_view->decision->view : NULL;
    json_object_set_new(o, "gin", gin_help(s, dv));
    if (d) {
        json_t *legal = json_array();
        for (size_t i = 0; i < d->n_legal; i++) {
            const Okrpb__Action *a = d->legal[i];
            char clean[256];
            const char *t = a->text ? a->text : "";
            ar_sanitize(t, strlen(t), clean, sizeof clean);
            json_t *x =
                json_pack("{s:i,s:s,s:s}", "i", (int)i, "type", type_name(a->type), "text", clean);
            if (a->type == OKRPB__ACTION_TYPE__DISCARD || a->type == OKRPB__ACTION_TYPE__KNOCK)
                json_object_set_new(x, "card", card(a->card));
            uint32_t uses[OKR_MAX_CARDS];
            char key[600];
            size_t nu = action_uses(a, dv, uses, OKR_MAX_CARDS, key, sizeof key);
            json_object_set_new(x, "uses", cards(uses, nu));
            json_object_set_new(x, "key", json_string(key));
            json_array_append_new(legal, x);
        }
        /* the id as a string: JavaScript numbers lose digits past 2^53 */
        char id[24];
        snprintf(id, sizeof id, "%llu", (unsigned long long)d->id);
        json_object_set_new(o, "decision", json_pack("{s:s,s:o}", "id", id, "legal", legal));
        /* the human's clock for this move, beside the decision (which stays as it came) */
        json_object_set_new(o, "left_ms", json_integer((json_int_t)human_left_ms(s, d)));
        if (s->hint && strcmp(json_string_value(json_object_get(s->hint, "id")), id) == 0)
            json_object_set(o, "hint", s->hint);
        else if (s->hask == d->id)
            json_object_set_new(o, "hint", json_pack("{s:s,s:b}", "id", id, "pending", 1));
    } else
        json_object_set_new(o, "decision", json_null());
    if (s->last_view && s->last_view->decision->view) {
        json_object_set_new(o, "view", view_json(s->last_view->decision->view));
        /* who put the top card on the pile: a claim window names them (RULES 6.G) */
        json_object_set_new(json_object_get(o, "view"), "discarder",
                            json_integer((json_int_t)s->last_view->decision->view->discarder));
    } else
        json_object_set_new(o, "view", json_null());
    json_object_set(o, "hand_end", s->hand_end ? s->hand_end : json_null());
    json_object_set(o, "game_end", s->game_end ? s->game_end : json_null());
    json_object_set(o, "refused", s->refused ? s->refused : json_null());
    return o;
}

/* ---- The terminal table ------------------------------------------------------------------ */

typedef struct {
    char *p;
    size_t len, cap;
} sbuf;

static void put(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(sbuf *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
        if (n < 0)
            return;
        if ((size_t)n < b->cap - b->len) {
            b->len += (size_t)n;
            return;
        }
        b->cap = b->cap * 2 + (size_t)n + 64;
        b->p = ar_xrealloc(b->p, b->cap);
    }
}

static void put_cards(sbuf *b, const uint32_t *k, size_t n, int colour)
{
    for (size_t i = 0; i < n; i++) {
        char c[3];
        int red = k[i] < 52 && (k[i] / 13 == 1 || k[i] / 13 == 2);
        if (k[i] > 52)
            put(b, " ??");
        else if (colour && red)
            put(b, " \033[31m%s\033[0m", okr_card_str((int)k[i], c));
        else
            put(b, " %s", okr_card_str((int)k[i], c));
    }
}

static const char *seat_name(const ap_seat *s, int i, char *buf, size_t cap)
{
    if (i == s->seat)
        snprintf(buf, cap, "you");
    else if (i >= 0 && i < s->nnames)
        snprintf(buf, cap, "%s", s->names[i]);
    else
        snprintf(buf, cap, "seat %d", i);
    return buf;
}

void ap_seat_set_limit(ap_seat *s, uint32_t ms)
{
    s->limit_ms = ms;
}

int ap_seat_hand_size(const ap_seat *s)
{
    const Okrpb__View *v = s->last_view ? s->last_view->decision->view : NULL;
    return v ? (int)v->n_hand : 0;
}

int ap_seat_ends(const ap_seat *s)
{
    return s->ends;
}

/* The hand as shown: positions into v->hand, by suit (the view's order) or by rank */
static void hand_order(const Okrpb__View *v, size_t n, int by_rank, size_t *ord)
{
    for (size_t i = 0; i < n; i++)
        ord[i] = i;
    if (!by_rank)
        return;
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0; j--) {
            uint32_t a = v->hand[ord[j - 1]], b = v->hand[ord[j]];
            uint32_t ka = a >= OKR_JOKER ? 999 : (a % 13) * 4 + a / 13,
                     kb = b >= OKR_JOKER ? 999 : (b % 13) * 4 + b / 13;
            if (ka <= kb)
                break;
            size_t t = ord[j];
            ord[j] = ord[j - 1];
            ord[j - 1] = t;
        }
}

/* small within big, both sorted */
static int sub_sorted(const uint32_t *small, size_t ns, const uint32_t *big, size_t nb)
{
    size_t j = 0;
    for (size_t i = 0; i < ns; i++) {
        while (j < nb && big[j] < small[i])
            j++;
        if (j == nb || big[j] != small[i])
            return 0;
        j++;
    }
    return 1;
}

static void put_move(sbuf *b, const Okrpb__Decision *d, size_t i, int *first, int *col)
{
    if (*first)
        put(b, "  %-8s", type_name(d->legal[i]->type));
    else if (*col >= 4) {
        put(b, "\n  %-8s", "");
        *col = 0;
    }
    put(b, " %3zu) %-18s", i + 1, d->legal[i]->text ? d->legal[i]->text : "?");
    *first = 0;
    (*col)++;
}

char *ap_seat_text(const ap_seat *s, int colour, const ap_select *sel)
{
    uint32_t selc[AP_MAX_SEL];
    size_t ns = 0;
    size_t ord[OKR_MAX_CARDS];
    sbuf b = {ar_xmalloc(256), 0, 256};
    b.p[0] = 0;
    const char *bold = colour ? "\033[1m" : "", *off = colour ? "\033[0m" : "";
    char nm[80];
    const Okrpb__View *v = s->last_view ? s->last_view->decision->view : NULL;
    if (v) {
        put(&b, "%sgame %s, hand %u, %s%s\n", bold, s->game_id, v->hand_no,
            v->phase < sizeof PHASES / sizeof PHASES[0] ? PHASES[v->phase] : "?", off);
        put(&b, "scores:");
        for (size_t i = 0; i < v->n_scores; i++)
            put(&b, "%s %s %d", i ? "," : "", seat_name(s, (int)i, nm, sizeof nm), v->scores[i]);
        put(&b, "\nhands:");
        for (size_t i = 0; i < v->n_hand_sizes; i++)
            put(&b, "%s %s %u cards", i ? "," : "", seat_name(s, (int)i, nm, sizeof nm),
                v->hand_sizes[i]);
        put(&b, "\nstock %u, pile (top last):", v->stock_size);
        size_t from = v->n_pile > 12 ? v->n_pile - 12 : 0;
        if (from)
            put(&b, " ...");
        put_cards(&b, v->pile + from, v->n_pile - from, colour);
        if (v->upcard <= 52 &&
            (v->phase == OKRPB__PHASE__UPCARD || v->phase == OKRPB__PHASE__GIN_UPCARD)) {
            put(&b, "\nupcard:");
            put_cards(&b, &v->upcard, 1, colour);
        }
        put(&b, "\n");
        for (size_t i = 0; i < v->n_melds; i++) {
            put(&b, "meld %zu (%s):", i, seat_name(s, (int)v->melds[i]->owner, nm, sizeof nm));
            put_cards(&b, v->melds[i]->cards, v->melds[i]->n_cards, colour);
            put(&b, "\n");
        }
        /* the hand with each card's position (sel 1 4 5 selects), the selected in [ ] */
        size_t nh = v->n_hand < OKR_MAX_CARDS ? v->n_hand : OKR_MAX_CARDS;
        hand_order(v, nh, sel && sel->by_rank, ord);
        put(&b, "%syour hand%s (by %s):", bold, off, sel && sel->by_rank ? "rank" : "suit");
        for (size_t i = 0; i < nh; i++) {
            int on = 0;
            for (size_t k = 0; sel && k < sel->n; k++)
                on |= sel->pos[k] == (int)i;
            if (on && ns < AP_MAX_SEL)
                selc[ns++] = v->hand[ord[i]];
            put(&b, " %s%zu:", on ? "[" : "", i + 1);
            sbuf one = {ar_xmalloc(32), 0, 32};
            put_cards(&one, &v->hand[ord[i]], 1, colour);
            put(&b, "%s%s", one.p + 1, on ? "]" : "");
            free(one.p);
        }
        put(&b, "\n");
        for (size_t i = 1; i < ns; i++)
            for (size_t j = i; j > 0 && selc[j - 1] > selc[j]; j--) {
                uint32_t t = selc[j];
                selc[j] = selc[j - 1];
                selc[j - 1] = t;
            }
        /* gin: the hand's least deadwood and best melds, the knock limit, the target */
        json_t *g = gin_help(s, v);
        if (json_is_object(g)) {
            put(&b, "deadwood %lld in your %zu cards, best melds:",
                (long long)json_integer_value(json_object_get(g, "deadwood")), nh);
            json_t *ms = json_object_get(g, "melds");
            for (size_t i = 0; i < json_array_size(ms); i++) {
                json_t *m = json_array_get(ms, i);
                put(&b, "%s", i ? " |" : "");
                for (size_t k = 0; k < json_array_size(m); k++)
                    put(&b, " %s", json_string_value(json_array_get(m, k)));
            }
            if (!json_array_size(ms))
                put(&b, " none");
            long long lim = json_integer_value(json_object_get(g, "knock_limit"));
            put(&b, "; knock limit %lld%s; game to %lld\n", lim,
                lim ? " (the upcard's value, RULES G2)" : " (gin only)",
                (long long)json_integer_value(json_object_get(g, "target")));
            if (v->phase == OKRPB__PHASE__GIN_UPCARD && ap_seat_decision(s))
                put(&b, "upcard round (RULES G3): take puts the upcard in your hand, then you "
                        "discard; pass leaves it (if both pass, the non-dealer draws)\n");
        }
        json_decref(g);
    }
    size_t ne = json_array_size(s->events), from = ne > 8 ? ne - 8 : 0;
    if (ne)
        put(&b, "last moves:\n");
    for (size_t i = from; i < ne; i++) {
        json_t *e = json_array_get(s->events, i);
        json_int_t h = json_integer_value(json_object_get(e, "hand"));
        if (i > from &&
            h != json_integer_value(json_object_get(json_array_get(s->events, i - 1), "hand")))
            put(&b, "  ---- hand %lld ----\n", (long long)h);
        put(&b, "  %lld. %s\n", (long long)(s->told - (long long)ne + (long long)i + 1),
            json_string_value(json_object_get(e, "words")));
    }
    if (s->refused)
        put(&b, "refused (RULES %s): %s\n", json_string_value(json_object_get(s->refused, "rule")),
            json_string_value(json_object_get(s->refused, "reason")));
    if (s->game_end) {
        json_t *ft = json_object_get(s->game_end, "final_total");
        put(&b, "%sgame over:%s", bold, off);
        for (size_t i = 0; i < json_array_size(ft); i++)
            put(&b, "%s %s %lld", i ? "," : "", seat_name(s, (int)i, nm, sizeof nm),
                (long long)json_integer_value(json_array_get(ft, i)));
        put(&b, "\n");
    } else if (s->hand_end) {
        json_t *sc = json_object_get(s->hand_end, "score");
        put(&b, "hand %lld over:",
            (long long)json_integer_value(json_object_get(s->hand_end, "hand_no")));
        for (size_t i = 0; i < json_array_size(sc); i++)
            put(&b, "%s %s %+lld", i ? "," : "", seat_name(s, (int)i, nm, sizeof nm),
                (long long)json_integer_value(json_array_get(sc, i)));
        put(&b, "\n");
    }
    /* a gin hand's showdown in full (RULES G5-G7), under the hand's or the game's result */
    const Okrpb__View *cv = s->last_view ? s->last_view->decision->view : NULL;
    json_t *sd =
        s->hand_end && (!cv || json_integer_value(json_object_get(s->hand_end, "hand_no")) >=
                                   (json_int_t)cv->hand_no)
            ? json_object_get(s->hand_end, "showdown")
            : NULL;
    for (size_t i = 0; i < json_array_size(sd); i++)
        put(&b, "  %s\n", json_string_value(json_array_get(sd, i)));
    const Okrpb__Decision *d = ap_seat_decision(s);
    if (d) {
        const Okrpb__View *dv = s->last_view ? s->last_view->decision->view : NULL;
        int all = sel && sel->all;
        long long left = human_left_ms(s, d) / 1000;
        put(&b,
            "%syour move%s, %lld:%02lld left (sel 1 4 5 selects cards, then a number; or the "
            "move as text; all, sort, help, quit):\n",
            bold, off, left / 60, left % 60);
        /* grouped by kind, in the legal list's order within a kind: every move with 'all',
         * else those that use exactly the selected cards, AP_SHOWN at most */
        size_t shown = 0, more = 0, need[16] = {0};
        for (unsigned t = 1; t < sizeof TYPES / sizeof TYPES[0]; t++) {
            int first = 1, col = 0;
            for (size_t i = 0; i < d->n_legal; i++) {
                if (d->legal[i]->type != t)
                    continue;
                uint32_t uses[OKR_MAX_CARDS];
                char key[600];
                size_t nu = action_uses(d->legal[i], dv, uses, OKR_MAX_CARDS, key, sizeof key);
                int exact = nu == ns && sub_sorted(selc, ns, uses, nu);
                if (!all && !exact) {
                    if (nu > ns && sub_sorted(selc, ns, uses, nu))
                        need[t]++;
                    continue;
                }
                if (!all && shown >= AP_SHOWN) {
                    more++;
                    continue;
                }
                put_move(&b, d, i, &first, &col);
                shown++;
            }
            if (!first)
                put(&b, "\n");
        }
        if (more)
            put(&b, "  (%zu more: select cards to narrow them, or type 'all')\n", more);
        int any = 0;
        for (unsigned t = 1; t < 16 && !all; t++)
            if (need[t]) {
                put(&b, "%s%zu %s",
                    any ? ", "
                        : (ns ? "  select more cards for: " : "  select cards (sel N ...) for: "),
                    need[t], TYPES[t]);
                any = 1;
            }
        if (any)
            put(&b, "\n");
        char id[24];
        snprintf(id, sizeof id, "%llu", (unsigned long long)d->id);
        if (s->hint && strcmp(json_string_value(json_object_get(s->hint, "id")), id) == 0) {
            const char *err = json_string_value(json_object_get(s->hint, "error"));
            const char *note = json_string_value(json_object_get(s->hint, "note"));
            if (err)
                put(&b, "hint: %s\n", err);
            else
                put(&b, "hint: %s%s%s\n", json_string_value(json_object_get(s->hint, "text")),
                    note && note[0] ? " -- " : "", note ? note : "");
        } else if (s->hask == d->id)
            put(&b, "hint: (the hint bot is thinking)\n");
    } else if (!s->over)
        put(&b, "(waiting for the others)\n");
    return b.p;
}
