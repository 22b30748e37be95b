/* internal.h - helpers shared by the engine's files; never installed.
 * Pure: the engine includes only <stdint.h> <stddef.h> <string.h> <limits.h> <assert.h>. */
#ifndef OKR_INTERNAL_H
#define OKR_INTERNAL_H

#include <assert.h>
#include <limits.h>
#include <string.h>

#include "okr/okr.h"

/* Invariants of the engine itself; never used on caller input (bots are adversaries). */
#define OKR_ASSERT(x) assert(x)

#define OKR_MIN(a, b) ((a) < (b) ? (a) : (b))
#define OKR_MAX(a, b) ((a) > (b) ? (a) : (b))

/* Fill *why (may be NULL) and return OKR_EILLEGAL. */
int okr__refuse(okr_refusal *why, const char *rule, const char *reason);
/* Same, returning OKR_EINVAL (configuration and parse errors). */
int okr__invalid(okr_refusal *why, const char *rule, const char *reason);

/* Is the card wild (RULES 1.4)? Inline: it sits in every enumeration loop. */
static inline int okr__is_wild(const okr_rules *r, int kind)
{
    return kind == OKR_JOKER || (r->wild_twos && kind < OKR_JOKER && kind % 13 == 1);
}

/* card.c */
/* Credit of a melded card counting as `as` (RULES 7.1); all_twos: in an all-twos set. */
int okr__meld_credit(const okr_rules *r, int card, int as, int all_twos);
/* Gin value of a card (G1): ace 1, 2-10 face, J Q K 10. */
int okr__gin_value(int kind);
/* Small string helpers (no stdio in the engine). */
size_t okr__strlcpy(char *dst, const char *src, size_t cap);
char *okr__utoa(unsigned long v, char *buf); /* buf >= 21 bytes; returns buf */

/* game.c: shuffle cards[0..n) in place with the pinned generator seeded from (seed, salt),
 * the salt playing the part of the hand number (okr_determinize uses 0). */
void okr__shuffle_cards(uint8_t *cards, int n, uint64_t seed, int salt);
/* stock=streams (docs/rules.md, Decision on per-seat streams): cut g->stock, read from its
 * top as a deck would be drawn, into one stream per seat, card j to seat (first + j) mod
 * players; and the index in g->stock of the card `seat` draws next (its stream's next card;
 * an empty stream: the last card of the longest other stream, the nearest to the seat's left
 * on a tie), or -1 with an empty stock. */
void okr__streams_cut(okr_game *g, int first);
int okr__streams_next(const okr_game *g, int seat);

/* rules.c */
/* Every option's value in table order, then the family and seat range; for the digest. */
int okr__rules_values(const okr_rules *r, uint32_t *out, int cap);
int okr__ladder_lo(const okr_rules *r); /* lowest ladder position a run may use */
int okr__ladder_hi(const okr_rules *r); /* highest */
int okr__run_cap(const okr_rules *r);   /* longest run */
int okr__set_cap(const okr_rules *r);   /* largest set (OKR_MELD_CARDS when unlimited) */

/* meld.c: shapes of melds (RULES 3) and the enumeration of minimal new melds. */
int okr__spec_valid(const okr_rules *r, const okr_spec *s, okr_refusal *why);
int okr__spec_minimal(const okr_rules *r, const okr_spec *s, int top);
void okr__spec_canonical(okr_spec *s);
/* The declaration a wild `card` joining a set as `as` is recorded with (see meld.c). */
int okr__normalize_decl(const okr_rules *r, int card, int as);
/* Canonical form of a new meld: set declarations and order, 2s in kind order in runs. */
void okr__spec_normalize(const okr_rules *r, okr_spec *s);
int okr__add_valid(const okr_rules *r, const okr_meld *m, int card, int as, int pos,
                   okr_refusal *why);
/* Append to out[n..cap) a copy of *tmpl per minimal new meld that `hand` (plus `top`, the
 * pile card the meld must hold, or OKR_NOCARD) can lay, in canonical order. Returns the new
 * count or OKR_EOVERFLOW. */
int okr__enum_new(const okr_rules *r, const uint8_t hand[OKR_KINDS], int top,
                  const okr_action *tmpl, okr_action *out, int n, int cap);
/* Append every way a card of `hand` can join meld m (index mi), in canonical order. */
int okr__enum_adds(const okr_rules *r, const okr_meld *m, int mi, const uint8_t *hand,
                   const okr_action *tmpl, okr_action *out, int n, int cap);
/* Append every way `card` can join meld m (index mi): declarations and ends. */
int okr__enum_add_card(const okr_rules *r, const okr_meld *m, int mi, int card,
                       const okr_action *tmpl, okr_action *out, int n, int cap);

/* score.c: end the hand in g->last, update totals, end the game if it is over. */
void okr__end_rummy_hand(okr_game *g, int ended, int winner);
/* knock NULL: a drawn hand (G6). */
void okr__end_gin_hand(okr_game *g, int ended, int knocker, const okr_action *knock);

/* gin.c: everything specific to G5-G7.
 * okr__gin_knocks appends to out[n..cap) every legal KNOCK of g->to_act (phase PLAY, hand
 * of 11 cards) in canonical order: by discard kind, then by arrangement (melds each in
 * canonical card order, melds sorted by their card lists). Returns the new count or
 * OKR_EOVERFLOW. */
int okr__gin_knocks(const okr_game *g, okr_action *out, int n, int cap);
/* OKR_OK if a (type OKR_A_KNOCK) is legal for g->to_act, else OKR_EILLEGAL with the rule. */
int okr__gin_knock_check(const okr_game *g, const okr_action *a, okr_refusal *why);
/* Knock limit of the hand (G2): the upcard's value; 0 when ace_gin_only and an ace. */
int okr__gin_limit(const okr_game *g);
/* Score a knock (G5, G7). Called after the knocker's discard: knocker holds 10 cards in
 * g->hand[knocker] and the arrangement in *knock covers exactly the cards it melds. Fills
 * res->ended (OKR_END_KNOCK/UNDERCUT/GIN), res->winner, res->knocker, res->deadwood[0..1]
 * (defender's after his best melds and lay-offs) and res->score[0..1] (hand scores,
 * spade_double applied). */
void okr__gin_settle(const okr_game *g, int knocker, const okr_action *knock, okr_hand_result *res);

#endif
