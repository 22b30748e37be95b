/* position.c - a game from a described position (puzzles, lessons, tests) and the position a
 * game is in. The description is checked as strictly as a bot's action: a position no game
 * under the rules could reach in the phase it names is refused with the rule it breaks, so a
 * lesson never starts from a state the engine would mishandle.
 * Pure: no I/O, no allocation. */
#include "internal.h"

void okr_position_of(const okr_game *g, okr_position *p)
{
    memset(p, 0, sizeof *p);
    p->players = g->players;
    p->phase = g->phase;
    p->dealer = g->dealer;
    p->turn_seat = g->turn_seat;
    p->to_act = g->to_act;
    p->discarder = g->discarder;
    p->upcard = g->upcard;
    p->claim_meld = g->claim_meld;
    p->upcard_passes = g->upcard_passes;
    p->stock_locked = g->stock_locked;
    p->hand_no = g->hand_no;
    p->turns = g->turns;
    p->seq = g->seq;
    p->seed = g->seed;
    memcpy(p->hand, g->hand, sizeof p->hand);
    p->stock_n = g->stock_n;
    p->pile_n = g->pile_n;
    p->meld_n = g->meld_n;
    memcpy(p->stock, g->stock, g->stock_n);
    memcpy(p->pile, g->pile, g->pile_n);
    memcpy(p->meld, g->meld, sizeof(okr_meld) * g->meld_n);
    memcpy(p->score, g->score, sizeof p->score);
    memcpy(p->concealed, g->concealed, sizeof p->concealed);
    memcpy(p->drew, g->drew, sizeof p->drew);
    memcpy(p->melded_before, g->melded_before, sizeof p->melded_before);
    memcpy(p->stream_n, g->stream_n, sizeof p->stream_n);
}

/* Is *m a meld the rules allow (RULES 3)? Checked as the new meld of its first cards (at
 * most OKR_SPEC_CARDS) plus one-card additions for the rest, so every shape rule is the one
 * okr_apply enforces. Fills the derived header fields of *out. */
static int meld_ok(const okr_rules *r, int players, const okr_meld *m, okr_meld *out,
                   okr_refusal *why)
{
    if (m->owner >= players)
        return okr__invalid(why, "2.2", "a meld's owner is not a seat at this table");
    if (m->type != OKR_SET && m->type != OKR_RUN)
        return okr__invalid(why, "3.1", "a meld is a set or a run");
    if (m->n < 3 || m->n > OKR_MELD_CARDS)
        return okr__invalid(why, "3.1", "a meld has 3 or more cards (and fits the table)");
    *out = *m;
    memset(out->card + m->n, 0, (size_t)(OKR_MELD_CARDS - m->n));
    memset(out->as + m->n, 0, (size_t)(OKR_MELD_CARDS - m->n));
    if (m->type == OKR_SET) {
        out->lo = 0;
        out->suit = 0;
        for (int i = 0; i < m->n; i++)
            out->as[i] = (uint8_t)okr__normalize_decl(r, out->card[i], out->as[i]);
    }
    okr_spec s;
    memset(&s, 0, sizeof s);
    s.type = m->type;
    s.n = (uint8_t)OKR_MIN(m->n, OKR_SPEC_CARDS);
    s.lo = out->lo;
    memcpy(s.card, out->card, s.n);
    memcpy(s.as, out->as, s.n);
    if (okr__spec_valid(r, &s, why)) /* *why holds the rule; a position is EINVAL */
        return OKR_EINVAL;
    if (m->type == OKR_SET) {
        out->rank = (uint8_t)OKR_RANK(out->as[0]);
    } else {
        out->rank = 0;
        out->suit = (uint8_t)OKR_SUIT(out->as[0]);
    }
    okr_meld part = *out;
    part.n = s.n;
    for (int i = s.n; i < m->n; i++) { /* only sets get here: a run is at most 14 */
        if (okr__add_valid(r, &part, out->card[i], out->as[i], 255, why))
            return OKR_EINVAL;
        part.card[part.n] = out->card[i];
        part.as[part.n] = out->as[i];
        part.n++;
    }
    return OKR_OK;
}

/* Phase checks: which phases exist under r, who may act in them, and the sizes they imply. */
static int phase_ok(const okr_rules *r, const okr_position *p, const okr_game *g, okr_refusal *why)
{
    int gin = r->family == OKR_FAMILY_GIN, ph = p->phase, n = g->players;
    switch (ph) {
    case OKR_PH_UPCARD:
        if (gin || !r->upcard_round)
            return okr__invalid(why, "6.1", "these rules have no upcard round");
        break;
    case OKR_PH_GIN_UPCARD:
        if (!gin)
            return okr__invalid(why, "G3", "only gin has the gin upcard turn");
        break;
    case OKR_PH_CLAIM:
    case OKR_PH_CLAIM_MELD:
        if (!r->claims)
            return okr__invalid(why, "6.G", "these rules have no claims");
        break;
    case OKR_PH_DRAW:
    case OKR_PH_PLAY:
        break;
    default:
        return okr__invalid(why, "4.1",
                            "a position is a moment in a hand where a seat must act (upcard, "
                            "draw, claim or play)");
    }
    if (ph == OKR_PH_UPCARD || ph == OKR_PH_GIN_UPCARD) {
        int seats = ph == OKR_PH_GIN_UPCARD ? 2 : n;
        const char *rule = gin ? "G3" : "6.1";
        if (g->upcard_passes >= seats)
            return okr__invalid(why, rule, "every seat has passed: the upcard round is over");
        if (g->to_act != (g->dealer + 1 + g->upcard_passes) % n)
            return okr__invalid(why, rule, "the upcard is offered from the dealer's left, in turn");
        if (g->turn_seat != (g->dealer + 1) % n || g->turns)
            return okr__invalid(why, rule, "no turn has begun during the upcard round");
        if (g->meld_n || g->pile_n != 1)
            return okr__invalid(why, rule, "in the upcard round the pile is the upcard alone");
        for (int s = 0; s < n; s++)
            if (g->hand_n[s] != r->hand_size)
                return okr__invalid(why, "2.4", "in the upcard round every hand is as dealt");
    } else if (ph == OKR_PH_CLAIM || ph == OKR_PH_CLAIM_MELD) {
        if (g->to_act == g->turn_seat || g->to_act == g->discarder)
            return okr__invalid(why, "6.G",
                                "a claim is made by a seat other than the discarder and the "
                                "player in turn");
    } else if (g->to_act != g->turn_seat) {
        return okr__invalid(why, "4.8", "only german claims are out of turn");
    }
    if (ph == OKR_PH_PLAY && !g->turns)
        return okr__invalid(why, "4.1", "in the play phase a turn has begun (turns >= 1)");
    if (ph != OKR_PH_PLAY && g->turns >= r->max_turns)
        return okr__invalid(why, gin ? "G6" : "4.9", "the hand has reached max_turns");
    if (ph == OKR_PH_CLAIM_MELD &&
        (g->claim_meld >= g->meld_n || g->meld[g->claim_meld].owner != g->to_act))
        return okr__invalid(why, "6.G", "the claim meld is a meld of the claimant");
    if (ph == OKR_PH_CLAIM && !g->pile_n)
        return okr__invalid(why, "6.G", "a claim needs a top discard");
    if (ph == OKR_PH_DRAW && !g->stock_locked && !g->pile_n)
        return okr__invalid(why, "4.5", "the turn before ended with a discard: the pile is empty");
    /* Hand sizes (2.4, G4) and the stock (4.7, G6). */
    if (gin) {
        if (g->meld_n)
            return okr__invalid(why, "G5", "gin has no melds on the table during a hand");
        for (int s = 0; s < n; s++) {
            int want = r->hand_size + (ph == OKR_PH_PLAY && s == g->turn_seat);
            if (g->hand_n[s] != want)
                return okr__invalid(why, "G4",
                                    "gin hands hold 10 cards, 11 for the player who drew");
        }
        if (g->stock_n < (ph == OKR_PH_PLAY ? 2 : 3))
            return okr__invalid(why, "G6", "the stock is down to two cards: the hand is drawn");
    } else {
        for (int s = 0; s < n; s++)
            if (!g->hand_n[s] && !(ph == OKR_PH_CLAIM_MELD && s == g->to_act))
                return okr__invalid(why, s == g->turn_seat && ph == OKR_PH_PLAY ? "4.1" : "4.6",
                                    "an empty hand has gone out: the hand would be over");
        if (!g->stock_n && ph != OKR_PH_PLAY)
            return okr__invalid(why, "4.7", "the stock is empty: the hand would be over");
    }
    return OKR_OK;
}

int okr_game_from_position(okr_game *out, const okr_rules *r, const okr_position *p,
                           okr_refusal *why)
{
    int n = p->players, rc = okr_rules_check(r, n, why);
    if (rc)
        return rc;
    okr_game g;
    memset(&g, 0, sizeof g);
    g.rules = *r;
    g.seed = p->seed;
    g.players = (uint8_t)n;
    g.phase = p->phase;
    if (p->dealer >= n || p->turn_seat >= n)
        return okr__invalid(why, "2.2", "the dealer and the player in turn are seats 0..N-1");
    g.dealer = p->dealer;
    g.turn_seat = p->turn_seat;
    int upround = p->phase == OKR_PH_UPCARD || p->phase == OKR_PH_GIN_UPCARD;
    g.to_act = p->to_act == OKR_POS_AUTO ? p->turn_seat : p->to_act;
    int discarder = p->discarder != OKR_POS_AUTO ? p->discarder
                    : upround                    ? p->dealer
                                                 : (p->turn_seat + n - 1) % n;
    g.discarder = (uint8_t)discarder;
    if (g.to_act >= n || g.discarder >= n)
        return okr__invalid(why, "2.2", "the seat to act and the discarder are seats 0..N-1");
    if (p->hand_no < 1 || p->hand_no > r->max_hands)
        return okr__invalid(why, "7.7", "the hand number is 1..max_hands");
    g.hand_no = p->hand_no;
    g.turns = p->turns;
    g.seq = p->seq;
    if (p->stock_locked > 1 || p->upcard_passes >= OKR_MAX_PLAYERS)
        return okr__invalid(why, "6.1", "stock_locked is 0 or 1; upcard passes fewer than seats");
    g.stock_locked = p->stock_locked;
    g.upcard_passes = p->upcard_passes;
    for (int s = 0; s < n; s++) {
        if (p->drew[s] > 2 || p->melded_before[s] > 1)
            return okr__invalid(why, "6.3", "turns drawn count to 2; melded_before is 0 or 1");
        g.drew[s] = p->drew[s];
        g.melded_before[s] = p->melded_before[s];
        g.score[s] = p->score[s];
        g.concealed[s] = p->concealed[s];
        if (r->target && p->score[s] >= r->target)
            return okr__invalid(why, r->family == OKR_FAMILY_GIN ? "G8" : "7.4",
                                "a score has reached the target: the game would be over");
    }
    /* Cards: each kind exactly as often as the pack has it (RULES 1.2). */
    int left[OKR_KINDS];
    for (int k = 0; k < OKR_KINDS; k++)
        left[k] = k == OKR_JOKER ? r->jokers : r->decks;
    for (int s = 0; s < OKR_MAX_PLAYERS; s++)
        for (int k = 0; k < OKR_KINDS; k++) {
            if (s >= n && p->hand[s][k])
                return okr__invalid(why, "2.2", "a hand is given for a seat not at the table");
            left[k] -= p->hand[s][k];
            g.hand[s][k] = p->hand[s][k];
            g.hand_n[s] = (uint8_t)(g.hand_n[s] + p->hand[s][k]);
        }
    if (p->pile_n > OKR_MAX_CARDS || p->stock_n > OKR_MAX_CARDS || p->meld_n > OKR_MAX_MELDS)
        return okr__invalid(why, "1.2", "more cards or melds than the largest pack makes");
    for (int i = 0; i < p->pile_n; i++) {
        if (p->pile[i] >= OKR_KINDS)
            return okr__invalid(why, "1.1", "the pile holds an unknown card");
        left[p->pile[i]]--;
        g.pile[i] = p->pile[i];
    }
    g.pile_n = p->pile_n;
    for (int m = 0; m < p->meld_n; m++) {
        rc = meld_ok(r, n, &p->meld[m], &g.meld[m], why);
        if (rc)
            return rc;
        for (int i = 0; i < g.meld[m].n; i++)
            left[g.meld[m].card[i]]--;
    }
    g.meld_n = p->meld_n;
    if (!p->shuffle_stock) {
        for (int i = 0; i < p->stock_n; i++) {
            if (p->stock[i] >= OKR_KINDS)
                return okr__invalid(why, "1.1", "the stock holds an unknown card");
            left[p->stock[i]]--;
            g.stock[i] = p->stock[i];
        }
        g.stock_n = p->stock_n;
    }
    for (int k = 0; k < OKR_KINDS; k++) {
        if (left[k] < 0)
            return okr__invalid(why, "1.2", "a card appears more often than the pack holds it");
        if (left[k] > 0 && !p->shuffle_stock)
            return okr__invalid(why, "1.2", "a card of the pack is missing from the position");
        for (int c = 0; c < left[k]; c++) /* shuffle_stock: the rest, in kind order */
            g.stock[g.stock_n++] = (uint8_t)k;
    }
    if (p->shuffle_stock)
        okr__shuffle_cards(g.stock, g.stock_n, p->seed, p->hand_no);
    if (r->stock == OKR_STOCK_STREAMS) { /* the streams as given, or a fresh cut */
        int sum = 0;
        for (int s = 0; s < OKR_MAX_PLAYERS; s++)
            sum += s < n ? p->stream_n[s] : 0;
        for (int s = n; s < OKR_MAX_PLAYERS; s++)
            if (p->stream_n[s])
                return okr__invalid(why, "2.2", "a stream of a seat that is not at the table");
        if (!sum || p->shuffle_stock)
            okr__streams_cut(&g, (p->dealer + 1) % n);
        else if (sum != g.stock_n)
            return okr__invalid(why, "4.2", "the streams do not add up to the stock");
        else
            memcpy(g.stream_n, p->stream_n, sizeof g.stream_n);
    }
    g.upcard = p->upcard == OKR_POS_AUTO ? (g.pile_n ? g.pile[0] : OKR_NOCARD) : p->upcard;
    if (g.upcard >= OKR_KINDS)
        return okr__invalid(why, "2.4", "the upcard is a card (give it when the pile is empty)");
    g.claim_meld = p->phase == OKR_PH_CLAIM_MELD ? p->claim_meld : 255;
    rc = phase_ok(r, p, &g, why);
    if (rc)
        return rc;
    OKR_ASSERT(okr_check(&g) == OKR_OK);
    *out = g;
    return OKR_OK;
}
