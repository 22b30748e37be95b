/* seat.h - the human's end of a human seat. The match room referees the seat like any bot
 * (match/bot.h, ar_seat_connect): it writes ToBot frames into one pipe and reads FromBot
 * frames from another. This module sits on the other ends, in the same event loop: it
 * answers the handshake itself, keeps what the seat has been told (and nothing else: RULES
 * 8.3 holds because the arena already redacts what it sends a seat), and turns the human's
 * pick into a Choice. The browser page and the terminal are two faces of it. */
#ifndef AP_SEAT_H
#define AP_SEAT_H

#include <event2/event.h>
#include <jansson.h>
#include <stdint.h>

#include "okr.pb-c.h"
#include "okr/okr.h"

typedef struct ap_seat ap_seat;

/* Called after every message the seat receives (and when the arena hangs up). */
typedef void (*ap_seat_cb)(ap_seat *s, void *ud);

ap_seat *ap_seat_new(const char *name);
void ap_seat_free(ap_seat *s);
void ap_seat_on_change(ap_seat *s, ap_seat_cb cb, void *ud);

/* An ar_seat_connect (ud = the ap_seat): a fresh pair of pipes for one start of the seat,
 * watched on base (the match's loop). */
int ap_seat_connect(void *ud, struct event_base *base, int fds[2], char *err, size_t cap);
/* Called at every connect, once the seat is on the match's loop: where the faces (page,
 * terminal) are set up on that loop. */
typedef void (*ap_seat_base_cb)(ap_seat *s, struct event_base *base, void *ud);
void ap_seat_on_connect(ap_seat *s, ap_seat_base_cb cb, void *ud);

/* The Decision waiting for the human, or NULL. Owned by the seat. */
const Okrpb__Decision *ap_seat_decision(const ap_seat *s);
/* The seat number in the current game, -1 before GameStart. */
int ap_seat_number(const ap_seat *s);
/* Bumped on every change: a long poll waits for it to move. */
uint64_t ap_seat_version(const ap_seat *s);
/* 1 once the arena said Bye or hung up. */
int ap_seat_over(const ap_seat *s);

/* The human leaves the game: the seat's end closes and the match judges it RE ("left the
 * game"), as a bot that exits. */
void ap_seat_leave(ap_seat *s);
/* The human went away without leaving (the page closed, the terminal gone): the same, but
 * judged as the human's timeout, TLE with why as its detail (issue: "a closed tab or terminal
 * is the human's timeout"). */
void ap_seat_gone(ap_seat *s, const char *why);
/* An ar_seat_gone (match/bot.h) for ar_entrant.gone, ud = the seat. */
int ap_seat_gone_verdict(void *ud, char *detail, size_t cap);

enum { AP_OK = 0, AP_STALE = -1, AP_RANGE = -2, AP_GONE = -3 };
/* Answer decision id with legal[index]. AP_STALE: id is not the Decision waiting now (old,
 * replayed or not yet sent); AP_RANGE: no such legal action; AP_GONE: the seat has left. */
int ap_seat_choose(ap_seat *s, uint64_t id, long long index);
/* Practice (arena play --practice): undo asks the match to take back the human's last move;
 * it returns 0 if the game will restart at the human's previous decision, -1 if there is no
 * move of the human to take back. NULL (the default): no takebacks. */
typedef int (*ap_seat_undo_cb)(ap_seat *s, void *ud);
void ap_seat_set_practice(ap_seat *s, ap_seat_undo_cb undo, void *ud);
int ap_seat_practice(const ap_seat *s);
enum { AP_NOTHING = -4, AP_NOT_PRACTICE = -5 };
/* Take back the human's last move while Decision id waits: AP_OK (the game restarts at the
 * human's previous decision), AP_STALE, AP_GONE, AP_NOTHING (no move to take back),
 * AP_NOT_PRACTICE. */
int ap_seat_undo(ap_seat *s, uint64_t id);
/* Practice hints (arena play --hint-bot): make returns a fresh, unstarted connection to the
 * hint bot on loop (jailed as the match's bots, match.h ar_match_spare_bot), or NULL. The seat
 * starts it with the Hello it received and feeds it what the seat is told (GameStart, Events,
 * HandEnd, GameEnd: nothing else, RULES 8.3); a bot that failed is started again at the next
 * hint and told the game so far. */
struct ar_bot;
struct ar_loop;
typedef struct ar_bot *(*ap_hint_make_cb)(void *ud);
void ap_seat_set_hint(ap_seat *s, struct ar_loop *loop, ap_hint_make_cb make, void *ud);
enum { AP_NO_HINT = -6 };
/* Ask the hint bot for its move in Decision id (the human's own View and legal list, a fresh
 * decision id): AP_OK (the answer, or why there is none, appears in the state as "hint"),
 * AP_STALE, AP_GONE, AP_NOT_PRACTICE, AP_NO_HINT (no --hint-bot). */
int ap_seat_hint(ap_seat *s, uint64_t id);

/* Index of the legal action whose notation is text (case and spaces ignored), or -1. */
int ap_seat_find(const ap_seat *s, const char *text);
enum { AP_REFUSED = -7 };
/* A move typed in the notation ("discard qs", "meld 4h 2c=5h 6h"): AP_OK with *index the legal
 * action it means (written as the list writes it, or in any form the engine reads as the same
 * action); AP_STALE when no Decision waits (not the human's turn); AP_REFUSED with *why when it
 * is not one: rule "notation" for a line that is not a move, else the engine's own refusal
 * (its RULES number and reason) of that action on a copy of the table as this seat sees it.
 * Nothing is changed either way. */
int ap_seat_move(const ap_seat *s, const char *text, long *index, okr_refusal *why);
/* A refusal for a person: "refused (RULES 4.5): <reason>", or "not a move in the notation
 * (docs/notation.md): <reason>". */
void ap_refusal_text(const okr_refusal *why, char *out, size_t cap);

/* Take the seat's ends off the loop and close them, telling nobody: before the match's loop
 * is freed (ar_match_free), which the seat outlives. */
void ap_seat_detach(ap_seat *s);
/* Everything the seat knows, as JSON for the page: the last View, the legal actions of the
 * waiting Decision, the names, the events so far (their notation as the seat received it),
 * hand and game ends, the last refusal. Built only from what the seat received. */
json_t *ap_seat_json(const ap_seat *s);

/* What a terminal's human selected: cards of the hand by their position in the hand as shown
 * (sorted by suit, or by rank), and whether every legal move is listed or only those the
 * selection makes legal (at most AP_SHOWN). */
enum { AP_SHOWN = 12, AP_MAX_SEL = 32 };
typedef struct ap_select {
    int by_rank, all;
    size_t n;
    int pos[AP_MAX_SEL]; /* 0-based positions in the hand as shown */
} ap_select;
/* The human's time per move (--human-ms), which the page and the terminal count down; the
 * Decision's own clock fields are the match's bot clocks. 0 (the default): those are shown. */
void ap_seat_set_limit(ap_seat *s, uint32_t ms);
/* Cards in the seat's hand now (0 before the first view). */
int ap_seat_hand_size(const ap_seat *s);
/* Hand and game ends received so far: a terminal draws the table at each. */
int ap_seat_ends(const ap_seat *s);

/* The text table for a terminal (colour: ANSI colours), into a malloc'd string: the hand with
 * each card's position, the selection, the moves it makes legal (sel NULL: nothing selected),
 * a gin hand's deadwood and a gin showdown in full. */
char *ap_seat_text(const ap_seat *s, int colour, const ap_select *sel);

#endif
