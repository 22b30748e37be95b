/* score.c - the end of a hand and of a game: RULES 7 (rummy family) and G7-G8 (gin).
 * Integer arithmetic only, so totals are the same on every machine. Pure. */
#include "internal.h"

/* Round to the nearest hundred, fifty rounding up (RULES 7.6): floor((x + 50) / 100) * 100. */
static int32_t round100(int32_t x)
{
    int32_t q = x + 50;
    int32_t f = q >= 0 ? q / 100 : -((-q + 99) / 100);
    return f * 100;
}

static void finish_game(okr_game *g)
{
    okr_game_result *res = &g->result;
    int p = g->players;
    memset(res, 0, sizeof *res);
    int32_t best = INT32_MIN;
    for (int s = 0; s < p; s++)
        best = OKR_MAX(best, g->score[s]);
    int winners = 0;
    for (int s = 0; s < p; s++)
        if (g->score[s] == best) {
            res->winners |= (uint8_t)(1u << s);
            winners++;
        }
    for (int s = 0; s < p; s++) {
        res->score[s] = g->score[s];
        res->concealed[s] = g->concealed[s]; /* RULES 7.3: added after the winner is known */
        /* RULES 7.4: a tie shares the bonus; integer points, so each gets the floor */
        if (res->winners & (1u << s))
            res->winner_bonus[s] = g->rules.winner_bonus / winners;
        res->final_total[s] = res->score[s] + res->concealed[s] + res->winner_bonus[s];
    }
    for (int s = 0; s < p; s++) {
        int better = 0;
        for (int t = 0; t < p; t++)
            better += res->final_total[t] > res->final_total[s];
        res->placement[s] = (uint8_t)(better + 1);
    }
    if (g->rules.settlement) /* RULES 7.6 settlement, zero-sum */
        for (int s = 0; s < p; s++)
            for (int t = 0; t < p; t++)
                res->settlement[s] += round100(res->final_total[s]) - round100(res->final_total[t]);
    g->phase = OKR_PH_GAME_OVER;
}

/* After a hand's scores are in g->last: running totals, then game end (7.4, 7.7, G8). */
static void close_hand(okr_game *g)
{
    okr_hand_result *res = &g->last;
    int over = 0;
    for (int s = 0; s < g->players; s++) {
        g->score[s] += res->score[s];
        g->concealed[s] += res->concealed[s];
        res->total[s] = g->score[s];
        if (g->rules.target && g->score[s] >= g->rules.target)
            over = 1; /* concealed bonuses do not count toward the target (7.3); 0: none */
    }
    g->phase = OKR_PH_HAND_OVER;
    g->to_act = g->turn_seat;
    if (over || g->hand_no >= g->rules.max_hands)
        finish_game(g);
}

void okr__end_rummy_hand(okr_game *g, int ended, int winner)
{
    okr_hand_result *res = &g->last;
    const okr_rules *r = &g->rules;
    memset(res, 0, sizeof *res);
    res->ended = (uint8_t)ended;
    res->winner = (int8_t)winner;
    res->knocker = -1;
    for (int m = 0; m < g->meld_n; m++) { /* RULES 7.1 credit */
        const okr_meld *x = &g->meld[m];
        int twos = x->type == OKR_SET && x->rank == 2 && r->all_twos && r->wild_twos;
        for (int i = 0; i < x->n; i++)
            res->melded[x->owner] += okr__meld_credit(r, x->card[i], x->as[i], twos);
    }
    for (int s = 0; s < g->players; s++) {
        for (int k = 0; k < OKR_KINDS; k++)
            res->debit[s] -= g->hand[s][k] * okr_card_debit(r, k);
        res->score[s] = res->melded[s] + res->debit[s];
    }
    if (ended == OKR_END_OUT) {
        int first = g->drew[winner] <= 1; /* RULES 6.3 */
        if (!first || r->out_first_turn)
            res->out_bonus[winner] = r->out_bonus; /* RULES 7.2 */
        if (!first && !g->melded_before[winner])
            res->concealed[winner] = r->concealed_bonus; /* RULES 7.3 */
        res->score[winner] += res->out_bonus[winner];
    }
    close_hand(g);
}

void okr__end_gin_hand(okr_game *g, int ended, int knocker, const okr_action *knock)
{
    okr_hand_result *res = &g->last;
    memset(res, 0, sizeof *res);
    res->ended = (uint8_t)ended;
    res->winner = -1;
    res->knocker = -1;
    if (knock) /* G5-G7 */
        okr__gin_settle(g, knocker, knock, res);
    close_hand(g);
}
