/* codec.c - engine values <-> protobuf-c messages (codec.h).
 *
 * Encoders build messages with the generated *__INIT macros inside a bump arena, so a whole
 * ToBot message (a Decision with thousands of legal actions) is freed by one reset and
 * packed by protobuf-c. Decoders read messages that came off a pipe: every count, index,
 * card and enum value is checked against the engine's bounds before anything is written to
 * the engine struct, and the first violation is reported as OKR_EINVAL, rule "protocol".
 */
#include "codec.h"

#include <stdalign.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The proto enums mirror the engine's numbering, so values are copied, not translated. */
#define SAME(x, y) ((int)(x) == (int)(y))
_Static_assert(SAME(OKRPB__MELD_TYPE__SET, OKR_SET) && SAME(OKRPB__MELD_TYPE__RUN, OKR_RUN),
               "meld type");
_Static_assert(SAME(OKRPB__ACTION_TYPE__DRAW, OKR_A_DRAW) &&
                   SAME(OKRPB__ACTION_TYPE__TAKE, OKR_A_TAKE) &&
                   SAME(OKRPB__ACTION_TYPE__MELD, OKR_A_MELD) &&
                   SAME(OKRPB__ACTION_TYPE__ADD, OKR_A_ADD) &&
                   SAME(OKRPB__ACTION_TYPE__REPLACE, OKR_A_REPLACE) &&
                   SAME(OKRPB__ACTION_TYPE__DISCARD, OKR_A_DISCARD) &&
                   SAME(OKRPB__ACTION_TYPE__CLAIM, OKR_A_CLAIM) &&
                   SAME(OKRPB__ACTION_TYPE__KNOCK, OKR_A_KNOCK) &&
                   SAME(OKRPB__ACTION_TYPE__PASS, OKR_A_PASS),
               "action type");
_Static_assert(SAME(OKRPB__HOW__PLAIN, OKR_HOW_PLAIN) && SAME(OKRPB__HOW__NEW, OKR_HOW_NEW) &&
                   SAME(OKRPB__HOW__ONTO, OKR_HOW_ADD) && SAME(OKRPB__HOW__JOKER, OKR_HOW_JOKER),
               "how");
_Static_assert(SAME(OKRPB__PHASE__UPCARD, OKR_PH_UPCARD) &&
                   SAME(OKRPB__PHASE__GIN_UPCARD, OKR_PH_GIN_UPCARD) &&
                   SAME(OKRPB__PHASE__DRAW_PHASE, OKR_PH_DRAW) &&
                   SAME(OKRPB__PHASE__CLAIM_PHASE, OKR_PH_CLAIM) &&
                   SAME(OKRPB__PHASE__CLAIM_MELD, OKR_PH_CLAIM_MELD) &&
                   SAME(OKRPB__PHASE__PLAY, OKR_PH_PLAY) &&
                   SAME(OKRPB__PHASE__HAND_OVER, OKR_PH_HAND_OVER) &&
                   SAME(OKRPB__PHASE__GAME_OVER, OKR_PH_GAME_OVER),
               "phase");

/* ---- Arena ----------------------------------------------------------------------------- */

enum { BLOCK_MIN = 64 << 10 };

typedef struct block {
    struct block *next;
    size_t cap, used;
    alignas(max_align_t) unsigned char data[];
} block;

struct okrpb_arena {
    block *head; /* every block, in allocation order */
    block *cur;  /* the block being filled; blocks before it are full until the reset */
};

okrpb_arena *okrpb_arena_new(void)
{
    return calloc(1, sizeof(okrpb_arena));
}

void okrpb_arena_reset(okrpb_arena *a)
{
    if (!a)
        return;
    for (block *b = a->head; b; b = b->next)
        b->used = 0;
    a->cur = a->head;
}

void okrpb_arena_free(okrpb_arena *a)
{
    if (!a)
        return;
    for (block *b = a->head, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    free(a);
}

static void *arena_alloc_slow(okrpb_arena *a, size_t n);

/* n bytes aligned for any type, or NULL when out of memory. Never NULL for n == 0. The
 * common case (room in the current block) is inline: encoders call this for every field. */
static inline void *arena_alloc(okrpb_arena *a, size_t n)
{
    const size_t align = alignof(max_align_t);
    if (n > SIZE_MAX / 2)
        return NULL;
    n = (n + align - 1) / align * align;
    block *b = a->cur;
    if (b && b->cap - b->used >= n) {
        void *p = b->data + b->used;
        b->used += n;
        return p;
    }
    return arena_alloc_slow(a, n);
}

/* n is rounded already: the next block with room, or a new one. */
static void *arena_alloc_slow(okrpb_arena *a, size_t n)
{
    for (block *b = a->cur; b; b = b->next) {
        if (b->cap - b->used >= n) {
            a->cur = b;
            void *p = b->data + b->used;
            b->used += n;
            return p;
        }
    }
    size_t cap = n > BLOCK_MIN ? n : BLOCK_MIN;
    block *b = malloc(sizeof(block) + cap);
    if (!b)
        return NULL;
    b->next = NULL;
    b->cap = cap;
    b->used = n;
    /* Append at the end of the chain, so a reset reuses every block in order. */
    block **tail = &a->head;
    while (*tail)
        tail = &(*tail)->next;
    *tail = b;
    a->cur = b;
    return b->data;
}

/* A copy of *init in the arena (init is a message's *__INIT value). */
static void *arena_copy(okrpb_arena *a, const void *init, size_t size)
{
    void *p = arena_alloc(a, size);
    if (p)
        memcpy(p, init, size);
    return p;
}

#define NEW(a, type, init) ((type *)arena_copy((a), &(type)init, sizeof(type)))

/* An array of n elements of `size` bytes; NULL for n == 0 (protobuf-c never reads it then).
 * Sets *fail when memory runs out. */
static void *arena_array(okrpb_arena *a, size_t n, size_t size, int *fail)
{
    if (n == 0)
        return NULL;
    void *p = size && n > SIZE_MAX / size ? NULL : arena_alloc(a, n * size);
    if (!p)
        *fail = 1;
    return p;
}

static char *arena_strndup(okrpb_arena *a, const char *s, size_t max, int *fail)
{
    size_t n = s ? strnlen(s, max) : 0;
    char *p = arena_alloc(a, n + 1);
    if (!p) {
        *fail = 1;
        return (char *)protobuf_c_empty_string;
    }
    if (n)
        memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

static uint32_t *u8_to_u32(okrpb_arena *a, const uint8_t *v, size_t n, int *fail)
{
    uint32_t *p = arena_array(a, n, sizeof *p, fail);
    if (p)
        for (size_t i = 0; i < n; i++)
            p[i] = v[i];
    return p;
}

static int32_t *i32_copy(okrpb_arena *a, const int32_t *v, size_t n, int *fail)
{
    int32_t *p = arena_array(a, n, sizeof *p, fail);
    if (p)
        memcpy(p, v, n * sizeof *p);
    return p;
}

/* A multiset of kinds as a list in ascending order with repeats. */
static uint32_t *hand_list(okrpb_arena *a, const uint8_t count[OKR_KINDS], size_t *n, int *fail)
{
    size_t total = 0;
    for (int k = 0; k < OKR_KINDS; k++)
        total += count[k];
    uint32_t *p = arena_array(a, total, sizeof *p, fail);
    *n = p ? total : 0;
    if (p) {
        size_t i = 0;
        for (int k = 0; k < OKR_KINDS; k++)
            for (int c = 0; c < count[k]; c++)
                p[i++] = (uint32_t)k;
    }
    return p;
}

static size_t clamp(size_t n, size_t max)
{
    return n < max ? n : max;
}

/* ---- Encoders -------------------------------------------------------------------------- */

Okrpb__Rules *okrpb_rules_from(okrpb_arena *a, const okr_rules *r)
{
    int fail = 0;
    char text[2048];
    if (!a || !r || okr_rules_format(r, text, sizeof text) < 0)
        return NULL;
    Okrpb__Rules *m = NEW(a, Okrpb__Rules, OKRPB__RULES__INIT);
    if (!m)
        return NULL;
    m->preset = arena_strndup(a, r->preset, sizeof r->preset, &fail);
    m->text = arena_strndup(a, text, sizeof text, &fail);
    /* The options are the name=value words of the text, in its (documented) order. */
    size_t n = 0;
    for (const char *p = text; *p; p++)
        n += *p == '=';
    m->options = arena_array(a, n, sizeof *m->options, &fail);
    if (fail)
        return NULL;
    const char *p = text;
    while (*p && m->n_options < n) {
        while (*p == ' ')
            p++;
        size_t word = strcspn(p, " ");
        const char *eq = memchr(p, '=', word);
        if (!eq)
            break;
        Okrpb__Option *o = NEW(a, Okrpb__Option, OKRPB__OPTION__INIT);
        if (!o)
            return NULL;
        o->name = arena_strndup(a, p, (size_t)(eq - p), &fail);
        o->value = arena_strndup(a, eq + 1, word - (size_t)(eq - p) - 1, &fail);
        m->options[m->n_options++] = o;
        p += word;
    }
    return fail ? NULL : m;
}

static Okrpb__Meld *meld_from(okrpb_arena *a, const okr_meld *x, int *fail)
{
    Okrpb__Meld *m = NEW(a, Okrpb__Meld, OKRPB__MELD__INIT);
    if (!m) {
        *fail = 1;
        return NULL;
    }
    size_t n = clamp(x->n, OKR_MELD_CARDS);
    m->owner = x->owner;
    m->type = (Okrpb__MeldType)x->type;
    m->lo = x->lo;
    m->rank = x->rank;
    m->suit = x->suit;
    m->cards = u8_to_u32(a, x->card, n, fail);
    m->as = u8_to_u32(a, x->as, n, fail);
    m->n_cards = m->n_as = *fail ? 0 : n;
    return m;
}

Okrpb__View *okrpb_view_from(okrpb_arena *a, const okr_view *v)
{
    int fail = 0;
    if (!a || !v)
        return NULL;
    Okrpb__View *m = NEW(a, Okrpb__View, OKRPB__VIEW__INIT);
    if (!m)
        return NULL;
    size_t players = clamp(v->players, OKR_MAX_PLAYERS);
    m->seat = v->seat;
    m->players = v->players;
    m->phase = (Okrpb__Phase)v->phase;
    m->dealer = v->dealer;
    m->turn_seat = v->turn_seat;
    m->to_act = v->to_act;
    m->stock_size = v->stock_n;
    m->upcard = v->upcard;
    m->stock_locked = v->stock_locked != 0;
    m->hand_no = v->hand_no;
    m->turns = v->turns;
    m->hand = hand_list(a, v->hand, &m->n_hand, &fail);
    m->hand_sizes = u8_to_u32(a, v->hand_n, players, &fail);
    m->n_hand_sizes = players;
    size_t pile_n = clamp(v->pile_n, OKR_MAX_CARDS);
    m->pile = u8_to_u32(a, v->pile, pile_n, &fail);
    m->n_pile = pile_n;
    size_t meld_n = clamp(v->meld_n, OKR_MAX_MELDS);
    m->melds = arena_array(a, meld_n, sizeof *m->melds, &fail);
    for (size_t i = 0; m->melds && i < meld_n; i++)
        m->melds[i] = meld_from(a, &v->meld[i], &fail);
    m->n_melds = meld_n;
    m->scores = i32_copy(a, v->score, players, &fail);
    m->n_scores = players;
    m->concealed = i32_copy(a, v->concealed, players, &fail);
    m->n_concealed = players;
    m->discarder = v->discarder;
    m->turns_drawn = u8_to_u32(a, v->drew, players, &fail);
    m->n_turns_drawn = players;
    m->melded_before = arena_array(a, players, sizeof *m->melded_before, &fail);
    for (size_t s = 0; m->melded_before && s < players; s++)
        m->melded_before[s] = v->melded_before[s] != 0;
    m->n_melded_before = players;
    m->claim_meld = v->claim_meld;
    m->upcard_passes = v->upcard_passes;
    return fail ? NULL : m;
}

static Okrpb__MeldSpec *spec_from(okrpb_arena *a, const okr_spec *s, int *fail)
{
    Okrpb__MeldSpec *m = NEW(a, Okrpb__MeldSpec, OKRPB__MELD_SPEC__INIT);
    if (!m) {
        *fail = 1;
        return NULL;
    }
    size_t n = clamp(s->n, OKR_SPEC_CARDS);
    m->type = (Okrpb__MeldType)s->type;
    m->lo = s->lo;
    m->cards = u8_to_u32(a, s->card, n, fail);
    m->as = u8_to_u32(a, s->as, n, fail);
    m->n_cards = m->n_as = *fail ? 0 : n;
    return m;
}

static int uses_spec(const okr_action *x)
{
    return x->type == OKR_A_MELD ||
           ((x->type == OKR_A_TAKE || x->type == OKR_A_CLAIM) && x->how == OKR_HOW_NEW);
}

Okrpb__Action *okrpb_action_from(okrpb_arena *a, const okr_action *x)
{
    int fail = 0;
    if (!a || !x)
        return NULL;
    Okrpb__Action *m = NEW(a, Okrpb__Action, OKRPB__ACTION__INIT);
    if (!m)
        return NULL;
    m->type = (Okrpb__ActionType)x->type;
    m->seat = x->seat;
    m->how = (Okrpb__How)x->how;
    m->card = x->card;
    m->as = x->as;
    m->meld = x->meld;
    m->pos = x->pos;
    if (uses_spec(x))
        m->spec = spec_from(a, &x->u.spec, &fail);
    if (x->type == OKR_A_KNOCK) {
        size_t n = clamp(x->nmelds, OKR_GIN_MELDS);
        m->knock = arena_array(a, n, sizeof *m->knock, &fail);
        for (size_t i = 0; m->knock && i < n; i++) {
            Okrpb__GinMeld *g = NEW(a, Okrpb__GinMeld, OKRPB__GIN_MELD__INIT);
            if (!g)
                return NULL;
            size_t k = clamp(x->u.knock[i].n, 13);
            g->cards = u8_to_u32(a, x->u.knock[i].card, k, &fail);
            g->n_cards = fail ? 0 : k;
            m->knock[i] = g;
        }
        m->n_knock = fail ? 0 : n;
    }
    char text[512];
    if (okr_action_format(x, text, sizeof text) < 0)
        text[0] = '\0'; /* no notation (not a legal action's shape): the fields still say it */
    m->text = arena_strndup(a, text, sizeof text, &fail);
    return fail ? NULL : m;
}

static const char *type_word(int type)
{
    static const char *const words[] = {"",        "draw",    "take",  "meld",  "add",
                                        "replace", "discard", "claim", "knock", "pass"};
    return type >= 0 && type < (int)(sizeof words / sizeof words[0]) ? words[type] : "";
}

/* Append s at *at (the caller's buffer has room: event texts are at most 18 bytes). */
static char *put_str(char *at, const char *s)
{
    while (*s)
        *at++ = *s++;
    return at;
}

/* The event's public summary, in notation words: "draw" or "draw 7H" (the card only for the
 * drawer), "take 7H" (gin), "take new 9H", "take add 2 9H", "take joker 2 9H", the same with
 * "claim", "meld", "add 2 9H", "replace 2 9H", "discard QS", "knock QS", "pass". The cards of
 * a new meld and a knock's melds are not in the event; read them from the next view.
 * Written by hand, not with snprintf: it runs for every event sent to every seat. */
static void event_text(const okr_event *e, char buf[64])
{
    char card[3] = "";
    if (e->card < OKR_KINDS)
        okr_card_str(e->card, card);
    char *at = put_str(buf, type_word(e->type));
    int meld = 0; /* the meld number goes in */
    switch (e->type) {
    case OKR_A_TAKE:
    case OKR_A_CLAIM:
        if (e->how == OKR_HOW_NEW) {
            at = put_str(at, " new");
        } else if (e->how == OKR_HOW_ADD || e->how == OKR_HOW_JOKER) {
            at = put_str(at, e->how == OKR_HOW_ADD ? " add" : " joker");
            meld = 1;
        }
        break;
    case OKR_A_ADD:
    case OKR_A_REPLACE:
        meld = 1;
        break;
    case OKR_A_MELD:
    case OKR_A_PASS:
        card[0] = '\0'; /* no card in these words */
        break;
    default: /* DRAW, DISCARD, KNOCK */
        break;
    }
    if (meld) {
        char digits[3];
        int n = 0;
        unsigned v = e->meld;
        do {
            digits[n++] = (char)('0' + v % 10);
            v /= 10;
        } while (v);
        *at++ = ' ';
        while (n)
            *at++ = digits[--n];
    }
    if (card[0]) {
        *at++ = ' ';
        at = put_str(at, card);
    }
    *at = '\0';
}

Okrpb__Event *okrpb_event_from(okrpb_arena *a, const okr_event *e)
{
    int fail = 0;
    if (!a || !e)
        return NULL;
    Okrpb__Event *m = NEW(a, Okrpb__Event, OKRPB__EVENT__INIT);
    if (!m)
        return NULL;
    m->seq = e->seq;
    m->seat = e->seat;
    m->type = (Okrpb__ActionType)e->type;
    m->how = (Okrpb__How)e->how;
    m->card = e->card;
    m->meld = e->meld;
    m->taken = e->taken;
    m->hand_size = e->hand_n;
    m->ended = e->ended;
    char text[64];
    event_text(e, text);
    m->text = arena_strndup(a, text, sizeof text, &fail);
    return fail ? NULL : m;
}

Okrpb__HandEnd *okrpb_hand_end_from(okrpb_arena *a, const okr_game *g)
{
    int fail = 0;
    if (!a || !g)
        return NULL;
    Okrpb__HandEnd *m = NEW(a, Okrpb__HandEnd, OKRPB__HAND_END__INIT);
    if (!m)
        return NULL;
    const okr_hand_result *h = &g->last;
    size_t p = clamp(g->players, OKR_MAX_PLAYERS);
    m->hand_no = g->hand_no;
    m->ended = h->ended;
    m->winner = h->winner;
    m->knocker = h->knocker;
    m->melded = i32_copy(a, h->melded, p, &fail);
    m->debit = i32_copy(a, h->debit, p, &fail);
    m->out_bonus = i32_copy(a, h->out_bonus, p, &fail);
    m->concealed = i32_copy(a, h->concealed, p, &fail);
    m->deadwood = i32_copy(a, h->deadwood, p, &fail);
    m->score = i32_copy(a, h->score, p, &fail);
    m->total = i32_copy(a, h->total, p, &fail);
    m->n_melded = m->n_debit = m->n_out_bonus = m->n_concealed = p;
    m->n_deadwood = m->n_score = m->n_total = p;
    size_t total = 0;
    for (size_t s = 0; s < p; s++)
        for (int k = 0; k < OKR_KINDS; k++)
            total += g->hand[s][k];
    m->hands = arena_array(a, total, sizeof *m->hands, &fail);
    m->hand_sizes = arena_array(a, p, sizeof *m->hand_sizes, &fail);
    if (fail)
        return NULL;
    for (size_t s = 0; s < p; s++) {
        uint32_t n = 0;
        for (int k = 0; k < OKR_KINDS; k++)
            for (int c = 0; c < g->hand[s][k]; c++, n++)
                m->hands[m->n_hands++] = (uint32_t)k;
        m->hand_sizes[s] = n;
    }
    m->n_hand_sizes = p;
    /* 1.1: a gin knock's showdown (RULES G5), public once the hand ends */
    if (h->knocker >= 0 && h->knock_nmelds > 0) {
        size_t nm = clamp(h->knock_nmelds, OKR_GIN_MELDS);
        size_t nd = clamp(h->knock_dead_n, OKR_GIN_HAND_MAX);
        size_t nl = clamp(h->layoff_n, OKR_GIN_HAND_MAX);
        m->knock_melds = arena_array(a, nm, sizeof *m->knock_melds, &fail);
        for (size_t i = 0; m->knock_melds && i < nm; i++) {
            Okrpb__GinMeld *gm = NEW(a, Okrpb__GinMeld, OKRPB__GIN_MELD__INIT);
            if (!gm)
                return NULL;
            size_t k = clamp(h->knock_meld[i].n, 13);
            gm->cards = u8_to_u32(a, h->knock_meld[i].card, k, &fail);
            gm->n_cards = fail ? 0 : k;
            m->knock_melds[i] = gm;
        }
        m->knock_deadwood = u8_to_u32(a, h->knock_dead, nd, &fail);
        m->layoffs = arena_array(a, nl, sizeof *m->layoffs, &fail);
        for (size_t i = 0; m->layoffs && i < nl; i++) {
            Okrpb__LayOff *lo = NEW(a, Okrpb__LayOff, OKRPB__LAY_OFF__INIT);
            if (!lo)
                return NULL;
            lo->card = h->layoff_card[i];
            lo->meld = h->layoff_meld[i];
            m->layoffs[i] = lo;
        }
        if (fail)
            return NULL;
        m->n_knock_melds = nm;
        m->n_knock_deadwood = nd;
        m->n_layoffs = nl;
    }
    return m;
}

Okrpb__GameEnd *okrpb_game_end_from(okrpb_arena *a, const okr_game *g, int seat,
                                    const char *game_id, const char *verdict)
{
    int fail = 0;
    if (!a || !g)
        return NULL;
    Okrpb__GameEnd *m = NEW(a, Okrpb__GameEnd, OKRPB__GAME_END__INIT);
    if (!m)
        return NULL;
    const okr_game_result *r = &g->result;
    size_t p = clamp(g->players, OKR_MAX_PLAYERS);
    m->game_id = arena_strndup(a, game_id, 4096, &fail);
    m->verdict = arena_strndup(a, verdict, 4096, &fail);
    m->seat = seat < 0 ? 0 : (uint32_t)seat;
    m->winners = arena_array(a, p, sizeof *m->winners, &fail);
    for (size_t s = 0; m->winners && s < p; s++)
        m->winners[s] = (r->winners >> s) & 1;
    m->score = i32_copy(a, r->score, p, &fail);
    m->concealed = i32_copy(a, r->concealed, p, &fail);
    m->winner_bonus = i32_copy(a, r->winner_bonus, p, &fail);
    m->final_total = i32_copy(a, r->final_total, p, &fail);
    m->placement = u8_to_u32(a, r->placement, p, &fail);
    m->settlement = i32_copy(a, r->settlement, p, &fail);
    m->n_winners = m->n_score = m->n_concealed = m->n_winner_bonus = p;
    m->n_final_total = m->n_placement = m->n_settlement = p;
    return fail ? NULL : m;
}

/* ---- Decoders -------------------------------------------------------------------------- */

__attribute__((format(printf, 2, 3))) static int bad(okr_refusal *why, const char *fmt, ...)
{
    if (why) {
        snprintf(why->rule, sizeof why->rule, "%s", "protocol");
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why->reason, sizeof why->reason, fmt, ap);
        va_end(ap);
    }
    return OKR_EINVAL;
}

/* A card kind 0..52, or also 255 when `none` allows it. */
static int card_ok(uint32_t c, int none)
{
    return c < OKR_KINDS || (none && c == OKR_NOCARD);
}

/* Check a repeated card field of at most max entries; NULL data with entries is refused. */
static int cards_ok(const uint32_t *v, size_t n, size_t max, okr_refusal *why, const char *what)
{
    if (n > max)
        return bad(why, "%s: %zu cards, at most %zu", what, n, max);
    if (n && !v)
        return bad(why, "%s: missing cards", what);
    for (size_t i = 0; i < n; i++)
        if (!card_ok(v[i], 0))
            return bad(why, "%s: card %u is not a card kind 0..52", what, (unsigned)v[i]);
    return OKR_OK;
}

static int spec_to(const Okrpb__MeldSpec *m, okr_spec *s, okr_refusal *why)
{
    int type = (int)m->type;
    if (type != OKR_SET && type != OKR_RUN)
        return bad(why, "spec.type %d is not SET or RUN", type);
    if (m->lo > 13)
        return bad(why, "spec.lo %u is not a ladder position 0..13", (unsigned)m->lo);
    if (cards_ok(m->cards, m->n_cards, OKR_SPEC_CARDS, why, "spec.cards"))
        return OKR_EINVAL;
    /* `as` may be left empty for a meld of naturals: every card counts as itself. */
    if (m->n_as != 0 && m->n_as != m->n_cards)
        return bad(why, "spec.as has %zu entries for %zu cards", m->n_as, m->n_cards);
    if (cards_ok(m->as, m->n_as, OKR_SPEC_CARDS, why, "spec.as"))
        return OKR_EINVAL;
    memset(s, 0, sizeof *s);
    s->type = (uint8_t)type;
    s->lo = (uint8_t)m->lo;
    s->n = (uint8_t)m->n_cards;
    for (size_t i = 0; i < m->n_cards; i++) {
        s->card[i] = (uint8_t)m->cards[i];
        s->as[i] = (uint8_t)(m->n_as ? m->as[i] : m->cards[i]);
    }
    return OKR_OK;
}

int okrpb_action_to(const Okrpb__Action *m, okr_action *out, okr_refusal *why)
{
    memset(out, 0, sizeof *out);
    if (!m)
        return bad(why, "no action");
    int type = (int)m->type, how = (int)m->how;
    if (type < OKR_A_DRAW || type > OKR_A_PASS)
        return bad(why, "action type %d is not one of DRAW..PASS (1..9)", type);
    if (m->seat >= OKR_MAX_PLAYERS)
        return bad(why, "seat %u out of range 0..7", (unsigned)m->seat);
    if (how < OKR_HOW_PLAIN || how > OKR_HOW_JOKER)
        return bad(why, "how %d is not one of PLAIN NEW ONTO JOKER (0..3)", how);
    if (!card_ok(m->card, 1))
        return bad(why, "card %u is not 0..52 or 255", (unsigned)m->card);
    if (!card_ok(m->as, 1))
        return bad(why, "as %u is not 0..52 or 255", (unsigned)m->as);
    if (m->meld >= OKR_MAX_MELDS)
        return bad(why, "meld index %u out of range 0..63", (unsigned)m->meld);
    if (m->pos > 13 && m->pos != 255)
        return bad(why, "pos %u is not a ladder position 0..13 or 255", (unsigned)m->pos);
    if (m->n_knock > OKR_GIN_MELDS)
        return bad(why, "knock declares %zu melds, at most %d", m->n_knock, OKR_GIN_MELDS);
    if (m->n_knock && !m->knock)
        return bad(why, "knock: missing melds");
    for (size_t i = 0; i < m->n_knock; i++) {
        if (!m->knock[i])
            return bad(why, "knock[%zu]: missing meld", i);
        if (cards_ok(m->knock[i]->cards, m->knock[i]->n_cards, 13, why, "knock meld"))
            return OKR_EINVAL;
    }
    okr_spec spec;
    memset(&spec, 0, sizeof spec);
    if (m->spec && spec_to(m->spec, &spec, why))
        return OKR_EINVAL;

    out->type = (uint8_t)type;
    out->seat = (uint8_t)m->seat;
    out->how = (uint8_t)how;
    out->card = (uint8_t)m->card;
    out->as = (uint8_t)m->as;
    out->meld = (uint8_t)m->meld;
    out->pos = (uint8_t)m->pos;
    /* The union holds the knock for KNOCK and the spec otherwise; the other is ignored. */
    if (type == OKR_A_KNOCK) {
        out->nmelds = (uint8_t)m->n_knock;
        for (size_t i = 0; i < m->n_knock; i++) {
            okr_ginmeld *g = &out->u.knock[i];
            g->n = (uint8_t)m->knock[i]->n_cards;
            for (size_t j = 0; j < g->n; j++)
                g->card[j] = (uint8_t)m->knock[i]->cards[j];
        }
    } else {
        out->u.spec = spec;
    }
    return OKR_OK;
}

int okrpb_rules_to(const Okrpb__Rules *m, okr_rules *out, okr_refusal *why)
{
    okr_refusal r;
    memset(out, 0, sizeof *out);
    if (!m)
        return bad(why, "no rules");
    if (okr_rules_preset(out, m->preset, &r))
        return bad(why, "rules: %.100s", r.reason);
    if (m->n_options > 256)
        return bad(why, "rules: %zu options, at most 256", m->n_options);
    if (m->n_options && !m->options)
        return bad(why, "rules: missing options");
    for (size_t i = 0; i < m->n_options; i++) {
        const Okrpb__Option *o = m->options[i];
        if (!o || !o->name || !o->value)
            return bad(why, "rules: option %zu is empty", i);
        if (okr_rules_set(out, o->name, o->value, &r))
            return bad(why, "rules: %.100s (RULES %.8s)", r.reason, r.rule);
    }
    return OKR_OK;
}

static int seat_list_ok(size_t n, const void *v, uint32_t players, const char *what,
                        okr_refusal *why)
{
    if (n != players)
        return bad(why, "view.%s has %zu entries for %u players", what, n, (unsigned)players);
    if (n && !v)
        return bad(why, "view.%s: missing entries", what);
    return OKR_OK;
}

static int meld_to(const Okrpb__Meld *m, uint32_t players, size_t i, okr_meld *x, okr_refusal *why)
{
    if (!m)
        return bad(why, "view.melds[%zu] is missing", i);
    int type = (int)m->type;
    if (m->owner >= players)
        return bad(why, "view.melds[%zu].owner %u is not a seat", i, (unsigned)m->owner);
    if (type != OKR_SET && type != OKR_RUN)
        return bad(why, "view.melds[%zu].type %d is not SET or RUN", i, type);
    if (m->lo > 13 || m->rank > 13 || m->suit > 3)
        return bad(why, "view.melds[%zu]: lo %u, rank %u or suit %u out of range", i,
                   (unsigned)m->lo, (unsigned)m->rank, (unsigned)m->suit);
    if (m->n_as != m->n_cards)
        return bad(why, "view.melds[%zu] has %zu cards but %zu declarations", i, m->n_cards,
                   m->n_as);
    if (cards_ok(m->cards, m->n_cards, OKR_MELD_CARDS, why, "view.melds.cards") ||
        cards_ok(m->as, m->n_as, OKR_MELD_CARDS, why, "view.melds.as"))
        return OKR_EINVAL;
    x->owner = (uint8_t)m->owner;
    x->type = (uint8_t)type;
    x->n = (uint8_t)m->n_cards;
    x->lo = (uint8_t)m->lo;
    x->rank = (uint8_t)m->rank;
    x->suit = (uint8_t)m->suit;
    for (size_t j = 0; j < m->n_cards; j++) {
        x->card[j] = (uint8_t)m->cards[j];
        x->as[j] = (uint8_t)m->as[j];
    }
    return OKR_OK;
}

int okrpb_view_to(const Okrpb__View *m, okr_view *out, okr_refusal *why)
{
    memset(out, 0, sizeof *out);
    if (!m)
        return bad(why, "no view");
    uint32_t p = m->players;
    int phase = (int)m->phase;
    if (p < 2 || p > OKR_MAX_PLAYERS)
        return bad(why, "view.players %u out of range 2..8", (unsigned)p);
    if (m->seat >= p || m->dealer >= p || m->turn_seat >= p || m->to_act >= p || m->discarder >= p)
        return bad(why,
                   "view: a seat (seat %u dealer %u turn_seat %u to_act %u discarder %u) "
                   "is not below players %u",
                   (unsigned)m->seat, (unsigned)m->dealer, (unsigned)m->turn_seat,
                   (unsigned)m->to_act, (unsigned)m->discarder, (unsigned)p);
    if (phase < OKR_PH_UPCARD || phase > OKR_PH_GAME_OVER)
        return bad(why, "view.phase %d out of range 1..8", phase);
    if (m->stock_size > OKR_MAX_CARDS)
        return bad(why, "view.stock_size %u over %d", (unsigned)m->stock_size, OKR_MAX_CARDS);
    if (!card_ok(m->upcard, 1))
        return bad(why, "view.upcard %u is not 0..52 or 255", (unsigned)m->upcard);
    if (m->hand_no > UINT16_MAX || m->turns > UINT16_MAX)
        return bad(why, "view.hand_no %u or turns %u over 65535", (unsigned)m->hand_no,
                   (unsigned)m->turns);
    if (m->claim_meld >= OKR_MAX_MELDS && m->claim_meld != 255)
        return bad(why, "view.claim_meld %u is not 0..63 or 255", (unsigned)m->claim_meld);
    if (m->upcard_passes > p)
        return bad(why, "view.upcard_passes %u over players", (unsigned)m->upcard_passes);
    if (cards_ok(m->hand, m->n_hand, OKR_MAX_CARDS, why, "view.hand") ||
        cards_ok(m->pile, m->n_pile, OKR_MAX_CARDS, why, "view.pile"))
        return OKR_EINVAL;
    if (seat_list_ok(m->n_hand_sizes, m->hand_sizes, p, "hand_sizes", why) ||
        seat_list_ok(m->n_scores, m->scores, p, "scores", why) ||
        seat_list_ok(m->n_concealed, m->concealed, p, "concealed", why) ||
        seat_list_ok(m->n_turns_drawn, m->turns_drawn, p, "turns_drawn", why) ||
        seat_list_ok(m->n_melded_before, m->melded_before, p, "melded_before", why))
        return OKR_EINVAL;
    if (m->n_melds > OKR_MAX_MELDS)
        return bad(why, "view.melds: %zu melds, at most %d", m->n_melds, OKR_MAX_MELDS);
    if (m->n_melds && !m->melds)
        return bad(why, "view.melds: missing melds");
    for (size_t i = 0; i < m->n_melds; i++)
        if (meld_to(m->melds[i], p, i, &out->meld[i], why))
            return OKR_EINVAL;
    for (uint32_t s = 0; s < p; s++) {
        if (m->hand_sizes[s] > OKR_MAX_CARDS)
            return bad(why, "view.hand_sizes[%u] = %u over %d", (unsigned)s,
                       (unsigned)m->hand_sizes[s], OKR_MAX_CARDS);
        if (m->turns_drawn[s] > 2)
            return bad(why, "view.turns_drawn[%u] = %u over 2", (unsigned)s,
                       (unsigned)m->turns_drawn[s]);
        out->hand_n[s] = (uint8_t)m->hand_sizes[s];
        out->score[s] = m->scores[s];
        out->concealed[s] = m->concealed[s];
        out->drew[s] = (uint8_t)m->turns_drawn[s];
        out->melded_before[s] = m->melded_before[s] != 0;
    }
    out->seat = (uint8_t)m->seat;
    out->players = (uint8_t)p;
    out->phase = (uint8_t)phase;
    out->dealer = (uint8_t)m->dealer;
    out->turn_seat = (uint8_t)m->turn_seat;
    out->to_act = (uint8_t)m->to_act;
    out->stock_n = (uint8_t)m->stock_size;
    out->pile_n = (uint8_t)m->n_pile;
    out->meld_n = (uint8_t)m->n_melds;
    out->stock_locked = m->stock_locked != 0;
    out->upcard = (uint8_t)m->upcard;
    out->hand_no = (uint16_t)m->hand_no;
    out->turns = (uint16_t)m->turns;
    /* At most OKR_MAX_CARDS (157) cards in all, so no count can pass 255. */
    for (size_t i = 0; i < m->n_hand; i++)
        out->hand[m->hand[i]]++;
    for (size_t i = 0; i < m->n_pile; i++)
        out->pile[i] = (uint8_t)m->pile[i];
    out->discarder = (uint8_t)m->discarder;
    out->claim_meld = (uint8_t)m->claim_meld;
    out->upcard_passes = (uint8_t)m->upcard_passes;
    return OKR_OK;
}

int okrpb_event_to(const Okrpb__Event *m, okr_event *out, okr_refusal *why)
{
    memset(out, 0, sizeof *out);
    if (!m)
        return bad(why, "no event");
    int type = (int)m->type, how = (int)m->how;
    if (m->seat >= OKR_MAX_PLAYERS)
        return bad(why, "event.seat %u out of range 0..7", (unsigned)m->seat);
    if (type < OKR_A_DRAW || type > OKR_A_PASS)
        return bad(why, "event.type %d is not one of DRAW..PASS (1..9)", type);
    if (how < OKR_HOW_PLAIN || how > OKR_HOW_JOKER)
        return bad(why, "event.how %d out of range 0..3", how);
    if (!card_ok(m->card, 1))
        return bad(why, "event.card %u is not 0..52 or 255", (unsigned)m->card);
    if (m->meld >= OKR_MAX_MELDS && m->meld != 255)
        return bad(why, "event.meld %u is not 0..63 or 255", (unsigned)m->meld);
    if (m->taken > OKR_MAX_CARDS || m->hand_size > OKR_MAX_CARDS)
        return bad(why, "event.taken %u or hand_size %u over %d", (unsigned)m->taken,
                   (unsigned)m->hand_size, OKR_MAX_CARDS);
    if (m->ended > OKR_END_DRAWN)
        return bad(why, "event.ended %u out of range 0..7", (unsigned)m->ended);
    out->seq = m->seq;
    out->seat = (uint8_t)m->seat;
    out->type = (uint8_t)type;
    out->how = (uint8_t)how;
    out->card = (uint8_t)m->card;
    out->meld = (uint8_t)m->meld;
    out->taken = (uint8_t)m->taken;
    out->hand_n = (uint8_t)m->hand_size;
    out->ended = (uint8_t)m->ended;
    return OKR_OK;
}
