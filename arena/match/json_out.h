/* json_out.h - engine values as JSON (jansson). Every function returns a new reference
 * (json_decref it), or NULL only when jansson runs out of memory. */
#ifndef AR_JSON_OUT_H
#define AR_JSON_OUT_H

#include <jansson.h>
#include <stdio.h>

#include "okr/okr.h"

/* Names used in the JSON and the human-readable output. */
const char *ar_phase_name(int phase);    /* "upcard", "draw", "play", "hand_over", ... */
const char *ar_end_name(int ended);      /* "none", "out", "stock", "knock", ... */
const char *ar_meld_type_name(int type); /* "set", "run" */

/* ["AS", "AS", "2C"]: a multiset of card kinds, in kind order. */
json_t *ar_json_hand(const uint8_t count[OKR_KINDS]);
/* ["5H", "KD"]: cards in the given order. */
json_t *ar_json_cards(const uint8_t *cards, int n);
/* {"owner": 0, "type": "run", "cards": ["4H", "2C=5H", "6H"]} */
json_t *ar_json_meld(const okr_meld *m);
/* The referee's full state: phase, seats, hand_no, stock_n, pile, melds, every hand, scores.
 * (Not a seat's view: it shows every hand.) */
json_t *ar_json_state(const okr_game *g);
/* The hand report (RULES 8.2): ended, winner, knocker, one object per seat, and after a gin
 * knock the showdown (ar_json_showdown). */
json_t *ar_json_hand_result(const okr_hand_result *r, int players);
/* A gin knock's showdown (RULES G5), what the table sees face up: {"melds": ["4H 5H 6H",
 * ...], "deadwood": "2D", "layoffs": [{"card": "7H", "onto": 0}, ...]} (onto: an index into
 * melds). NULL when nobody knocked. */
json_t *ar_json_showdown(const okr_hand_result *r);
/* The game report (RULES 7.4-7.7): winners and one object per seat. */
json_t *ar_json_game_result(const okr_game_result *r, int players);
/* An int array of the first n values. */
json_t *ar_json_ints(const int32_t *v, int n);

/* Write one compact JSON line and a newline to out; returns 0 or -1. */
int ar_json_print_line(json_t *doc, FILE *out);

#endif
