/* okbot.h - the C SDK for arena bots: write one `decide` function, hand it to okb_run, and
 * the SDK speaks the protocol (docs/protocol.md) on stdin/stdout for you.
 *
 * Everything a bot receives is decoded into engine types (okr/okr.h), so a bot can call the
 * engine directly: okr_determinize, okr_legal, okr_apply, okr_find_melds, okr_gin_best...
 * See docs/sdk-c.md for a walk-through and bots/random/random_bot.c for a complete bot. */
#ifndef OKBOT_H
#define OKBOT_H

#include <stdint.h>

#include "okr/okr.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Protocol version this SDK speaks (sent in Identify). */
enum { OKB_MAJOR = 1, OKB_MINOR = 1 };

/* Return value of decide() meaning "send the action I wrote to d->action" instead of an
 * index into d->legal. The action's seat may be left 0: the SDK sends it with d->seat, the
 * seat the decision is for (an action built as (okr_action){.type = OKR_A_PASS} works at every
 * seat); any other seat is sent as written, and the arena refuses it unless it is d->seat. */
enum { OKB_ACTION = -1 };

/* Sent once, before any game. Valid during the on_hello call only (copy what you keep). */
typedef struct okb_hello {
    uint32_t major, minor;  /* the arena's protocol version */
    const char *match_id;   /* never NULL */
    const char *bot_name;   /* the name the arena knows this entrant by, never NULL */
    int players;            /* seats at every table of the match */
    const okr_rules *rules; /* decoded rules; also in every okb_decision */
    const char *rules_text; /* "name=value ..." as the arena wrote it */
    uint32_t startup_ms;    /* time from spawn to Ready */
    uint32_t decision_ms;   /* free time per decision */
    uint32_t bank_ms;       /* per-game bank, spent when a decision takes longer */
    uint32_t hard_ms;       /* absolute ceiling for one decision */
    uint32_t max_frame;     /* largest frame the arena accepts from us, in bytes */
} okb_hello;

/* A game begins. Valid during the on_game_start call only. */
typedef struct okb_game_start {
    const char *game_id;
    int seat; /* our seat, 0..players-1 */
    int players;
    const char *const *names; /* entrant name per seat, `players` entries, never NULL */
    uint32_t bank_ms;         /* this game's time bank */
} okb_game_start;

/* One decision. Valid during the decide call only. */
typedef struct okb_decision {
    uint64_t id; /* the arena's id; the SDK echoes it */
    int seat;    /* our seat (== view->seat) */
    int players;
    const okr_rules *rules;  /* the match's rules, from Hello */
    const okr_view *view;    /* what our seat may know (RULES 8.3), see okb_run */
    const okr_action *legal; /* the legal actions, in the engine's canonical order */
    int n;                   /* number of legal actions, >= 1 */
    uint32_t time_ms;        /* free time for this decision */
    uint32_t bank_ms;        /* bank left, usable after time_ms */
    uint32_t hard_ms;        /* the absolute ceiling */
    int64_t start_ns;        /* okb_now_ns() when the Decision arrived */
    const char *game_id;     /* "" before a GameStart */
    okr_action *action;      /* decide may fill *action and return OKB_ACTION (seat 0: ours) */
    char *note;      /* decide may write why it chose (protocol 1.1), see okb_note; "" for none */
    int knock_limit; /* gin: the most deadwood a knock may leave (G2; 0: only gin), 1.1 */
} okb_decision;

/* The longest note the arena keeps, in bytes of UTF-8. */
enum { OKB_NOTE_MAX = 280 };

/* From decide: a short note on this choice, printf-style ("kept the 7s for the run"), sent
 * with the Choice, stored in the game's record and shown beside the decision in the replay
 * page (to the referee and to this seat only). Cut at OKB_NOTE_MAX bytes, on a character
 * boundary; the arena counts a note it had to cut or clean (invalid UTF-8, control
 * characters). Calling it again replaces the note. */
void okb_note(const okb_decision *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A hand is over: the engine's report, plus every seat's remaining cards. Valid during the
 * on_hand_end call only. */
typedef struct okb_hand_end {
    int hand_no;
    int players;
    okr_hand_result result;                    /* ended, winner, knocker, scores... (RULES 8.2) */
    uint8_t hands[OKR_MAX_PLAYERS][OKR_KINDS]; /* remaining cards per seat, as counts */
    uint8_t hand_n[OKR_MAX_PLAYERS];           /* their sizes */
} okb_hand_end;

/* A game is over. Valid during the on_game_end call only. */
typedef struct okb_game_end {
    const char *game_id;
    int seat;
    int players;
    okr_game_result result; /* winners (bit per seat), totals, placement, settlement */
    const char *verdict;    /* our verdict, "" if none (e.g. "TLE") */
} okb_game_end;

/* The arena refused an action of ours. Valid during the on_refused call only. */
typedef struct okb_refused {
    uint64_t id;      /* the decision */
    const char *rule; /* RULES number, or "protocol" */
    const char *reason;
    int substituted; /* 1 if the arena played `action` for us */
    okr_action action;
} okb_refused;

/* The bot. Only `decide` is required; every hook may be NULL. `ud` is okb_run's argument.
 *
 * decide returns an index into d->legal, or fills *d->action and returns OKB_ACTION. Any
 * other value is logged to stderr and index 0 is sent instead. */
typedef struct okb_bot {
    const char *name;    /* sent in Identify; NULL = "okbot" */
    const char *version; /* sent in Identify; NULL = "0" */
    int (*decide)(const okb_decision *d, void *ud);
    /* After Identify, before Ready: initialise here. Non-zero = give up (okb_run returns 1). */
    int (*on_hello)(const okb_hello *h, void *ud);
    void (*on_game_start)(const okb_game_start *g, void *ud);
    /* What happened since our last message, oldest first (redacted, RULES 8.3). */
    void (*on_events)(const okr_event *events, int n, void *ud);
    void (*on_refused)(const okb_refused *r, void *ud);
    void (*on_hand_end)(const okb_hand_end *h, void *ud);
    void (*on_game_end)(const okb_game_end *g, void *ud);
} okb_bot;

/* Run the bot: read ToBot frames on stdin, call the hooks, write FromBot frames until Bye or
 * end of input. Call it once, from main: `return okb_run(&bot, NULL);` (a second call
 * returns 1 at once).
 *
 * - Before anything else it moves the channel off fd 1: frames go to a private close-on-exec
 *   duplicate of stdout, and fd 1 becomes a copy of stderr, so printf() in a bot lands in
 *   the log instead of corrupting the protocol. stdout is made line-buffered. SIGPIPE is
 *   ignored (a vanished arena is reported as a write error).
 * - Every frame is checked. A malformed frame, a message out of order (anything before
 *   Hello, a Decision outside a game) or a value out of range is logged to stderr and ends
 *   the run with 1. Messages of an unknown kind (a newer minor version) are skipped.
 * - d->view is the whole okr_view the arena's engine made for our seat, so okr_determinize
 *   on it gives a game whose view of our seat is the real one.
 *
 * Returns 0 after Bye or a clean end of input, 1 on a protocol error, a failed on_hello, an
 * unusable stdin/stdout or out of memory. */
int okb_run(const okb_bot *bot, void *ud);

/* ---- Helpers --------------------------------------------------------------------------- */

/* Nanoseconds on CLOCK_MONOTONIC. */
int64_t okb_now_ns(void);

/* Milliseconds since the decision arrived. */
double okb_elapsed_ms(const okb_decision *d);

/* A small seeded generator (splitmix64) for bots: *state is the whole state; any value is
 * a valid seed. okb_rand_below returns a uniform integer in [0, n) (n >= 1), without
 * modulo bias. */
uint64_t okb_rand(uint64_t *state);
uint32_t okb_rand_below(uint64_t *state, uint32_t n);

#ifdef __cplusplus
}
#endif
#endif
