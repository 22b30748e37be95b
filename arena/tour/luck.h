/* luck.h - the luck-adjusted score of a game (docs/luck.md, issue 24): at every chance event
 * the referee sees (the deal of each hand with its upcard; each card drawn from the stock) the
 * term v(after) - E[v(after) | before] is added to the seat's luck, where v is the arena's
 * fixed value estimate of every seat computed with the engine from the full state, and the
 * expectation is exact over the event's distribution. The adjusted score is the final total
 * minus the luck. Every term has mean zero whatever v is, so the adjusted score has the raw
 * score's mean; a v that explains the outcome makes its variance smaller.
 *
 * Pure arithmetic on engine states, plus ar_luck_record, which reads a game record (the only
 * I/O, through match/record_read). Deterministic: the same record gives the same numbers. */
#ifndef AR_LUCK_H
#define AR_LUCK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "okr/okr.h"

/* The value estimate. HAND: the arena's (docs/luck.md "The value estimate"); CONST: every
 * state is worth 0 (every term is 0: the adjusted score is the raw one); NOISE: a fixed
 * pseudo-random function of each seat's hand and the upcard (useless by design: for the tests
 * that a poor v leaves the mean where it was); ROLLOUT: in gin, playouts of the rest of the hand
 * by the arena's reference policy (docs/luck.md), elsewhere HAND. A v argument may carry the
 * rollout's playouts per card in its bits 8 and up (ar_luck_v_parse's "rollout:N"); 0 there
 * means the default, 32. */
enum { AR_LUCK_V_HAND = 0, AR_LUCK_V_CONST, AR_LUCK_V_NOISE, AR_LUCK_V_ROLLOUT };
/* Chance events. */
enum { AR_LUCK_DEAL = 0, AR_LUCK_DRAW, AR_LUCK_TYPES };

typedef struct ar_luck {
    int v;                                          /* AR_LUCK_V_* */
    int rollouts;                                   /* AR_LUCK_V_ROLLOUT: playouts per card */
    int players;                                    /* seats */
    double luck[OKR_MAX_PLAYERS];                   /* sum of every term, per seat, points */
    double by_type[AR_LUCK_TYPES][OKR_MAX_PLAYERS]; /* the same by event type */
    long long events[AR_LUCK_TYPES];                /* events seen, by type */
} ar_luck;

void ar_luck_init(ar_luck *L, int v, int players);

/* The value estimate of every seat at *g (out[0..players)): the seat's hand strength minus
 * the table's mean hand strength, in points (docs/luck.md). */
void ar_luck_value(int v, const okr_game *g, double *out);

/* *g has just been dealt (a new hand, with its upcard). The expectation over deals of a
 * seat-relative value is 0 exactly: the hands of a uniformly shuffled pack are exchangeable
 * given the upcard, and v treats every seat alike. */
void ar_luck_deal(ar_luck *L, const okr_game *g);

/* `seat` draws `card` from the stock of *before (the state before the draw). The next card is
 * uniform over the cards in before->stock (docs/rules.md, both stock options), so the
 * expectation is the average over them. */
void ar_luck_draw(ar_luck *L, const okr_game *before, int seat, int card);

/* Read the record in f and sum its luck with value estimate v. On success returns 0 and fills
 * *L, players, final_total[] (the record's result) and completed; -1 with err "FILE:LINE:
 * why" on a record that does not replay. */
int ar_luck_record(FILE *f, const char *path, int v, ar_luck *L, int32_t *final_total,
                   int *completed, char *err, size_t cap);

/* Gin, the rollout estimate's showdown (G5, G7): the defender's deadwood after lay-offs onto
 * the melds of the knocker's 10-card hand kn (none when gin), as its playouts count it. */
int ar_luck_gin_defender(const okr_rules *r, const uint8_t kn[OKR_KINDS],
                         const uint8_t def[OKR_KINDS], int gin);

/* The v names for flags: "hand", "const", "noise", "rollout", "rollout:N" (N playouts per
 * card, 1-4096); -1 for another name. */
int ar_luck_v_parse(const char *name);

#endif
