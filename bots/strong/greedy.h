/* greedy.h - the greedy policy of bots/greedy/greedy_bot.c, shared with the strong bot, which
 * ranks its candidates with it and plays simulated hands out with it.
 *
 * The policy reads only what the acting seat may know: its own hand and the public table.
 * A greedy_table points at those fields of an okr_view (the bot's real decisions) or of an
 * okr_game (simulations, where it is filled for the seat to act). Deterministic. */
#ifndef OKR_BOTS_GREEDY_H
#define OKR_BOTS_GREEDY_H

#include "okr/okr.h"

typedef struct greedy_table {
    const okr_rules *rules;
    int seat; /* the acting seat */
    int players, phase, dealer, stock_n, pile_n, meld_n, upcard;
    const uint8_t *hand;   /* the acting seat's cards, as counts [OKR_KINDS] */
    const uint8_t *hand_n; /* every seat's hand size [players] */
    const uint8_t *pile;   /* the discard pile, bottom first [pile_n] */
    const okr_meld *meld;  /* the melds on the table [meld_n] */
    int avoid_qs;          /* 1: never discard the Q of spades by choice (set after a
                              refusal, see greedy_bot.c) */
} greedy_table;

/* The table as v->seat sees it. */
void greedy_table_of_view(greedy_table *t, const okr_rules *r, const okr_view *v);
/* The table as g->to_act sees it. */
void greedy_table_of_game(greedy_table *t, const okr_game *g);

/* Score every action of legal[0..n) (n >= 1) into score[i]: higher is better. The greedy
 * choice is the first action with the highest score. Scores of different decisions are not
 * comparable. */
void greedy_scores(const greedy_table *t, const okr_action *legal, int n, int *score);

/* The greedy choice: an index into legal[0..n). */
int greedy_choose(const greedy_table *t, const okr_action *legal, int n);

#endif
