/* json_out.c - engine values as JSON documents (jansson). Card strings use the notation
 * (docs/notation.md): "QS", "JK", a wild as "2C=5H". */
#include "json_out.h"

#include <string.h>

const char *ar_phase_name(int phase)
{
    switch (phase) {
    case OKR_PH_UPCARD:
        return "upcard";
    case OKR_PH_GIN_UPCARD:
        return "gin_upcard";
    case OKR_PH_DRAW:
        return "draw";
    case OKR_PH_CLAIM:
        return "claim";
    case OKR_PH_CLAIM_MELD:
        return "claim_meld";
    case OKR_PH_PLAY:
        return "play";
    case OKR_PH_HAND_OVER:
        return "hand_over";
    case OKR_PH_GAME_OVER:
        return "game_over";
    default:
        return "unknown";
    }
}

const char *ar_end_name(int ended)
{
    switch (ended) {
    case OKR_END_NONE:
        return "none";
    case OKR_END_OUT:
        return "out";
    case OKR_END_STOCK:
        return "stock";
    case OKR_END_CAP:
        return "cap";
    case OKR_END_KNOCK:
        return "knock";
    case OKR_END_UNDERCUT:
        return "undercut";
    case OKR_END_GIN:
        return "gin";
    case OKR_END_DRAWN:
        return "drawn";
    default:
        return "unknown";
    }
}

const char *ar_meld_type_name(int type)
{
    return type == OKR_SET ? "set" : type == OKR_RUN ? "run" : "unknown";
}

/* Append to arr, dropping the new reference. */
static void push(json_t *arr, json_t *v)
{
    json_array_append_new(arr, v);
}

json_t *ar_json_ints(const int32_t *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; a && i < n; i++)
        push(a, json_integer(v[i]));
    return a;
}

json_t *ar_json_hand(const uint8_t count[OKR_KINDS])
{
    json_t *a = json_array();
    char c[3];
    for (int k = 0; a && k < OKR_KINDS; k++)
        for (int i = 0; i < count[k]; i++)
            push(a, json_string(okr_card_str(k, c)));
    return a;
}

json_t *ar_json_cards(const uint8_t *cards, int n)
{
    json_t *a = json_array();
    char c[3];
    for (int i = 0; a && i < n; i++)
        push(a, json_string(okr_card_str(cards[i], c)));
    return a;
}

json_t *ar_json_meld(const okr_meld *m)
{
    json_t *cards = json_array();
    for (int i = 0; cards && i < m->n && i < OKR_MELD_CARDS; i++) {
        char s[8], c[3];
        okr_card_str(m->card[i], s);
        if (m->as[i] != m->card[i]) {
            strcat(s, "=");
            strcat(s, okr_card_str(m->as[i], c));
        }
        push(cards, json_string(s));
    }
    json_t *o = json_object();
    if (o) {
        json_object_set_new(o, "owner", json_integer(m->owner));
        json_object_set_new(o, "type", json_string(ar_meld_type_name(m->type)));
        if (m->type == OKR_RUN)
            json_object_set_new(o, "lo", json_integer(m->lo));
        json_object_set_new(o, "cards", cards);
    } else {
        json_decref(cards);
    }
    return o;
}

json_t *ar_json_state(const okr_game *g)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    int players = g->players <= OKR_MAX_PLAYERS ? g->players : OKR_MAX_PLAYERS;
    json_object_set_new(o, "phase", json_string(ar_phase_name(g->phase)));
    json_object_set_new(o, "to_act", json_integer(g->to_act));
    json_object_set_new(o, "turn_seat", json_integer(g->turn_seat));
    json_object_set_new(o, "dealer", json_integer(g->dealer));
    json_object_set_new(o, "hand_no", json_integer(g->hand_no));
    json_object_set_new(o, "turns", json_integer(g->turns));
    json_object_set_new(o, "stock_n", json_integer(g->stock_n));
    json_object_set_new(o, "pile", ar_json_cards(g->pile, g->pile_n));
    json_t *melds = json_array();
    for (int i = 0; melds && i < g->meld_n && i < OKR_MAX_MELDS; i++)
        push(melds, ar_json_meld(&g->meld[i]));
    json_object_set_new(o, "melds", melds);
    json_t *hands = json_array();
    for (int s = 0; hands && s < players; s++)
        push(hands, ar_json_hand(g->hand[s]));
    json_object_set_new(o, "hands", hands);
    json_object_set_new(o, "scores", ar_json_ints(g->score, players));
    json_object_set_new(o, "concealed", ar_json_ints(g->concealed, players));
    return o;
}

json_t *ar_json_hand_result(const okr_hand_result *r, int players)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    json_object_set_new(o, "ended", json_string(ar_end_name(r->ended)));
    json_object_set_new(o, "winner", json_integer(r->winner));
    json_object_set_new(o, "knocker", json_integer(r->knocker));
    json_t *seats = json_array();
    for (int s = 0; seats && s < players && s < OKR_MAX_PLAYERS; s++) {
        json_t *p = json_object();
        if (!p)
            break;
        json_object_set_new(p, "seat", json_integer(s));
        json_object_set_new(p, "melded", json_integer(r->melded[s]));
        json_object_set_new(p, "debit", json_integer(r->debit[s]));
        json_object_set_new(p, "out_bonus", json_integer(r->out_bonus[s]));
        json_object_set_new(p, "concealed", json_integer(r->concealed[s]));
        json_object_set_new(p, "deadwood", json_integer(r->deadwood[s]));
        json_object_set_new(p, "score", json_integer(r->score[s]));
        json_object_set_new(p, "total", json_integer(r->total[s]));
        push(seats, p);
    }
    json_object_set_new(o, "seats", seats);
    json_t *sd = ar_json_showdown(r);
    if (sd)
        json_object_set_new(o, "showdown", sd);
    return o;
}

/* "4H 5H 6H": cards in the given order, space-separated. */
static json_t *cards_text(const uint8_t *cards, int n)
{
    char buf[OKR_GIN_HAND_MAX * 3 + 1], c[3];
    size_t k = 0;
    for (int i = 0; i < n && i < OKR_GIN_HAND_MAX; i++) {
        okr_card_str(cards[i], c);
        if (k)
            buf[k++] = ' ';
        buf[k++] = c[0];
        buf[k++] = c[1];
    }
    buf[k] = '\0';
    return json_string(buf);
}

json_t *ar_json_showdown(const okr_hand_result *r)
{
    if (r->knocker < 0 || r->knock_nmelds == 0)
        return NULL;
    json_t *melds = json_array(), *offs = json_array();
    for (int i = 0; i < r->knock_nmelds && i < OKR_GIN_MELDS; i++)
        push(melds, cards_text(r->knock_meld[i].card, r->knock_meld[i].n));
    char c[3];
    for (int i = 0; i < r->layoff_n && i < OKR_GIN_HAND_MAX; i++)
        push(offs, json_pack("{s:s,s:i}", "card", okr_card_str(r->layoff_card[i], c), "onto",
                             r->layoff_meld[i]));
    return json_pack("{s:o,s:o,s:o}", "melds", melds, "deadwood",
                     cards_text(r->knock_dead, r->knock_dead_n), "layoffs", offs);
}

json_t *ar_json_game_result(const okr_game_result *r, int players)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    json_t *winners = json_array();
    for (int s = 0; winners && s < players && s < OKR_MAX_PLAYERS; s++)
        if (r->winners & (1u << s))
            push(winners, json_integer(s));
    json_object_set_new(o, "winners", winners);
    json_t *seats = json_array();
    for (int s = 0; seats && s < players && s < OKR_MAX_PLAYERS; s++) {
        json_t *p = json_object();
        if (!p)
            break;
        json_object_set_new(p, "seat", json_integer(s));
        json_object_set_new(p, "score", json_integer(r->score[s]));
        json_object_set_new(p, "concealed", json_integer(r->concealed[s]));
        json_object_set_new(p, "winner_bonus", json_integer(r->winner_bonus[s]));
        json_object_set_new(p, "final_total", json_integer(r->final_total[s]));
        json_object_set_new(p, "placement", json_integer(r->placement[s]));
        json_object_set_new(p, "settlement", json_integer(r->settlement[s]));
        push(seats, p);
    }
    json_object_set_new(o, "seats", seats);
    return o;
}

int ar_json_print_line(json_t *doc, FILE *out)
{
    if (!doc || json_dumpf(doc, out, JSON_COMPACT) != 0)
        return -1;
    if (fputc('\n', out) == EOF)
        return -1;
    return fflush(out) == 0 ? 0 : -1;
}
