/* rules.c - the five presets and the named options a user may override (RULES 1-7, G).
 * Options are data: one table row per option with its range and the rule it comes from.
 * Pure: no I/O, no allocation. */
#include <stddef.h>

#include "internal.h"

enum { OPT_U8, OPT_U16, OPT_ENUM };
enum { FOR_RUMMY = 1, FOR_GIN = 2, FOR_ALL = 3 };

typedef struct option {
    const char *name;
    uint8_t type;
    uint8_t families; /* FOR_*: where the option means something */
    size_t offset;
    unsigned min, max;
    const char *rule;
    const char *const *names; /* OPT_ENUM: value names, index = value */
} option;

static const char *const qs_names[] = {"any", "out_or_pair", "last_card", "never", NULL};
static const char *const ace_names[] = {"none", "low", "high", "both", NULL};
static const char *const values_names[] = {"laws", "parlett", "arlington", "german", "gin", NULL};
static const char *const dealer_names[] = {"winner", "rotate", NULL};
static const char *const stock_names[] = {"deck", "streams", NULL};

#define U8(f, fam, lo, hi, rule)                                                                   \
    {                                                                                              \
#f, OPT_U8, fam, offsetof(okr_rules, f), lo, hi, rule, NULL                                \
    }
#define U16(f, fam, lo, hi, rule)                                                                  \
    {                                                                                              \
#f, OPT_U16, fam, offsetof(okr_rules, f), lo, hi, rule, NULL                               \
    }
#define ENUM(f, fam, lo, hi, rule, n)                                                              \
    {                                                                                              \
#f, OPT_ENUM, fam, offsetof(okr_rules, f), lo, hi, rule, n                                 \
    }

/* The order here is the order of okr_rules_format and of the docs. */
static const option options[] = {
    U8(decks, FOR_ALL, 1, 3, "1.5"),
    U8(jokers, FOR_RUMMY, 0, 1, "1.2"),
    ENUM(dealer, FOR_ALL, 0, 1, "2.3", dealer_names),
    U8(hand_size, FOR_ALL, 3, 20, "2.4"),
    U8(wild_twos, FOR_RUMMY, 0, 1, "1.4"),
    ENUM(ace, FOR_RUMMY, 1, 3, "3.3", ace_names),
    U8(set_max, FOR_RUMMY, 0, OKR_MELD_CARDS, "3.2"),
    U8(run_max, FOR_RUMMY, 0, 14, "3.4"),
    U8(all_twos, FOR_RUMMY, 0, 1, "3.6"),
    U8(deuce_as_qs, FOR_RUMMY, 0, 1, "3.7"),
    U8(take_add, FOR_RUMMY, 0, 1, "4.3"),
    U8(take_joker, FOR_RUMMY, 0, 1, "4.3"),
    ENUM(qs_discard, FOR_RUMMY, 0, 3, "4.5", qs_names),
    U8(upcard_round, FOR_RUMMY, 0, 1, "6.1"),
    U8(claims, FOR_RUMMY, 0, 1, "6.G"),
    ENUM(values, FOR_ALL, 0, 4, "7.1", values_names),
    U16(out_bonus, FOR_RUMMY, 0, 1000, "7.2"),
    U8(out_first_turn, FOR_RUMMY, 0, 1, "7.2"),
    U16(concealed_bonus, FOR_RUMMY, 0, 1000, "7.3"),
    U16(winner_bonus, FOR_RUMMY, 0, 1000, "7.4"),
    U8(settlement, FOR_RUMMY, 0, 1, "7.6"),
    U16(target, FOR_ALL, 0, 60000, "7.4"),
    U16(max_turns, FOR_ALL, 1, 65535, "4.9"),
    U16(max_hands, FOR_ALL, 1, 65535, "7.7"),
    U8(ace_gin_only, FOR_GIN, 0, 1, "G2"),
    U8(spade_double, FOR_GIN, 0, 1, "G2"),
    U16(gin_bonus, FOR_GIN, 0, 1000, "G7"),
    U16(undercut_bonus, FOR_GIN, 0, 1000, "G7"),
    ENUM(stock, FOR_ALL, 0, 1, "4.2", stock_names),
};
enum { N_OPTIONS = sizeof options / sizeof options[0] };

static const okr_rules laws = {
    .preset = "laws",
    .family = OKR_FAMILY_RUMMY,
    .values = OKR_VALUES_LAWS,
    .decks = 2,
    .jokers = 1,
    .hand_size = 13,
    .min_players = 2,
    .max_players = 4,
    .wild_twos = 1,
    .ace = OKR_ACE_BOTH,
    .set_max = 4,
    .run_max = 0,
    .all_twos = 0,
    .deuce_as_qs = 1,
    .take_add = 1,
    .take_joker = 1,
    .upcard_round = 1,
    .claims = 0,
    .qs_discard = OKR_QS_OUT_OR_PAIR,
    .out_bonus = 100,
    .out_first_turn = 1,
    .concealed_bonus = 250,
    .winner_bonus = 200,
    .settlement = 1,
    .target = 1000,
    .max_turns = 2000,
    .max_hands = 200,
    .gin_bonus = 25,
    .undercut_bonus = 10,
};

static const okr_rules parlett = {
    .preset = "parlett",
    .family = OKR_FAMILY_RUMMY,
    .values = OKR_VALUES_PARLETT,
    .decks = 2,
    .jokers = 1,
    .hand_size = 13,
    .min_players = 2,
    .max_players = 5,
    .wild_twos = 1,
    .ace = OKR_ACE_BOTH,
    .set_max = 4,
    .run_max = 0,
    .all_twos = 0,
    .deuce_as_qs = 1,
    .take_add = 1,
    .take_joker = 1,
    .upcard_round = 1,
    .claims = 0,
    .qs_discard = OKR_QS_LAST_CARD,
    .out_bonus = 100,
    .out_first_turn = 0,
    .concealed_bonus = 250,
    .winner_bonus = 200,
    .target = 1000,
    .max_turns = 2000,
    .max_hands = 200,
    .gin_bonus = 25,
    .undercut_bonus = 10,
};

static const okr_rules arlington = {
    .preset = "arlington",
    .family = OKR_FAMILY_RUMMY,
    .values = OKR_VALUES_ARLINGTON,
    .decks = 2,
    .jokers = 0,
    .hand_size = 13,
    .min_players = 2,
    .max_players = 8,
    .wild_twos = 1,
    .ace = OKR_ACE_BOTH,
    .set_max = 4,
    .run_max = 4,
    .all_twos = 1,
    .deuce_as_qs = 0,
    .take_add = 0,
    .take_joker = 0,
    .upcard_round = 0,
    .claims = 0,
    .qs_discard = OKR_QS_NEVER,
    .out_bonus = 100,
    .out_first_turn = 1,
    .concealed_bonus = 0,
    .winner_bonus = 0,
    .target = 1000,
    .max_turns = 2000,
    .max_hands = 200,
    .gin_bonus = 25,
    .undercut_bonus = 10,
};

static const okr_rules german = {
    .preset = "german",
    .family = OKR_FAMILY_RUMMY,
    .values = OKR_VALUES_GERMAN,
    .decks = 2,
    .jokers = 0,
    .hand_size = 13,
    .min_players = 2,
    .max_players = 6,
    .wild_twos = 1,
    .ace = OKR_ACE_HIGH,
    .set_max = 0,
    .run_max = 0,
    .all_twos = 0,
    .deuce_as_qs = 1,
    .take_add = 1,
    .take_joker = 0,
    .upcard_round = 0,
    .claims = 1,
    .qs_discard = OKR_QS_ANY,
    .out_bonus = 0,
    .out_first_turn = 1,
    .concealed_bonus = 0,
    .winner_bonus = 100,
    .target = 1000,
    .max_turns = 2000,
    .max_hands = 200,
    .gin_bonus = 25,
    .undercut_bonus = 10,
};

static const okr_rules gin = {
    .preset = "gin",
    .family = OKR_FAMILY_GIN,
    .values = OKR_VALUES_GIN,
    .decks = 1,
    .jokers = 0,
    .hand_size = 10,
    .min_players = 2,
    .max_players = 2,
    .wild_twos = 0,
    .ace = OKR_ACE_LOW,
    .set_max = 4,
    .run_max = 0,
    .all_twos = 0,
    .deuce_as_qs = 0,
    .take_add = 0,
    .take_joker = 0,
    .upcard_round = 0,
    .claims = 0,
    .qs_discard = OKR_QS_ANY,
    .out_bonus = 0,
    .out_first_turn = 0,
    .concealed_bonus = 0,
    .winner_bonus = 0,
    .target = 100,
    .max_turns = 2000,
    .max_hands = 200,
    .ace_gin_only = 0,
    .spade_double = 0,
    .gin_bonus = 25,
    .undercut_bonus = 10,
};

static const okr_rules *const presets[] = {&laws, &parlett, &arlington, &german, &gin};

int okr_rules_preset(okr_rules *r, const char *name, okr_refusal *why)
{
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
        if (name && strcmp(name, presets[i]->preset) == 0) {
            *r = *presets[i];
            return OKR_OK;
        }
    return okr__invalid(why, "rules",
                        "unknown rule set (known: laws parlett arlington german gin)");
}

const char *okr_rules_option_name(int i)
{
    return i >= 0 && i < N_OPTIONS ? options[i].name : NULL;
}

static unsigned get(const okr_rules *r, const option *o)
{
    const unsigned char *p = (const unsigned char *)r + o->offset;
    if (o->type == OPT_U16) {
        uint16_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    return *p;
}

static void put(okr_rules *r, const option *o, unsigned v)
{
    unsigned char *p = (unsigned char *)r + o->offset;
    if (o->type == OPT_U16) {
        uint16_t w = (uint16_t)v;
        memcpy(p, &w, sizeof w);
    } else {
        *p = (unsigned char)v;
    }
}

/* Append src to dst (capacity cap), keeping NUL termination. */
static void cat(char *dst, size_t cap, const char *src)
{
    size_t n = strlen(dst);
    if (n < cap)
        okr__strlcpy(dst + n, src, cap - n);
}

static int out_of_range(okr_refusal *why, const option *o)
{
    char msg[120] = "";
    char num[21];
    cat(msg, sizeof msg, o->name);
    if (o->type == OPT_ENUM) {
        cat(msg, sizeof msg, ": expected one of");
        for (unsigned v = o->min; v <= o->max; v++) {
            cat(msg, sizeof msg, " ");
            cat(msg, sizeof msg, o->names[v]);
        }
    } else {
        cat(msg, sizeof msg, ": expected an integer from ");
        cat(msg, sizeof msg, okr__utoa(o->min, num));
        cat(msg, sizeof msg, " to ");
        cat(msg, sizeof msg, okr__utoa(o->max, num));
    }
    return okr__invalid(why, o->rule, msg);
}

int okr_rules_set(okr_rules *r, const char *name, const char *value, okr_refusal *why)
{
    const option *o = NULL;
    for (int i = 0; i < N_OPTIONS; i++)
        if (name && strcmp(name, options[i].name) == 0)
            o = &options[i];
    if (!o) {
        char msg[120] = "unknown option '";
        cat(msg, sizeof msg, name ? name : "");
        cat(msg, sizeof msg, "' (see docs/rules.md for the list)");
        return okr__invalid(why, "option", msg);
    }
    if (!value || !*value)
        return out_of_range(why, o);
    unsigned v = 0;
    if (o->type == OPT_ENUM) {
        unsigned k = o->min;
        while (k <= o->max && strcmp(o->names[k], value) != 0)
            k++;
        if (k > o->max)
            return out_of_range(why, o);
        v = k;
    } else {
        for (const char *p = value; *p; p++) {
            if (*p < '0' || *p > '9' || v > 100000)
                return out_of_range(why, o);
            v = v * 10 + (unsigned)(*p - '0');
        }
        if (v < o->min || v > o->max)
            return out_of_range(why, o);
    }
    int family = r->family == OKR_FAMILY_GIN ? FOR_GIN : FOR_RUMMY;
    if (!(o->families & family) && v != get(r, o)) {
        char msg[120] = "";
        cat(msg, sizeof msg, o->name);
        cat(msg, sizeof msg, family == FOR_GIN ? " does not apply to gin" : " applies only to gin");
        return okr__invalid(why, family == FOR_GIN ? "G1" : o->rule, msg);
    }
    put(r, o, v);
    return OKR_OK;
}

int okr_pack_size(const okr_rules *r)
{
    return 52 * r->decks + r->jokers;
}

int okr_rules_check(const okr_rules *r, int players, okr_refusal *why)
{
    char msg[120] = "";
    char num[21];
    for (int i = 0; i < N_OPTIONS; i++) {
        unsigned v = get(r, &options[i]);
        if (v < options[i].min || v > options[i].max)
            return out_of_range(why, &options[i]);
    }
    if (players < r->min_players || players > r->max_players) {
        cat(msg, sizeof msg, "players: ");
        cat(msg, sizeof msg, r->preset);
        cat(msg, sizeof msg, " is for ");
        cat(msg, sizeof msg, okr__utoa(r->min_players, num));
        if (r->max_players != r->min_players) {
            cat(msg, sizeof msg, " to ");
            cat(msg, sizeof msg, okr__utoa(r->max_players, num));
        }
        cat(msg, sizeof msg, " players");
        return okr__invalid(why, "2.1", msg);
    }
    if (r->jokers && r->values != OKR_VALUES_LAWS && r->values != OKR_VALUES_PARLETT)
        return okr__invalid(why, "1.2", "jokers: these card values have no Joker (use 0)");
    if ((r->family == OKR_FAMILY_GIN) != (r->values == OKR_VALUES_GIN))
        return okr__invalid(why, "7.1", "values: gin values go with gin only");
    if (r->family == OKR_FAMILY_GIN && r->hand_size > 12)
        return okr__invalid(why, "G1", "hand_size: at most 12 in gin");
    if (r->set_max != 0 && r->set_max < 3)
        return okr__invalid(why, "3.2", "set_max: a set has at least 3 cards (0 = unlimited)");
    if (r->run_max != 0 && r->run_max < 3)
        return okr__invalid(why, "3.3", "run_max: a run has at least 3 cards (0 = no limit)");
    /* RULES 1.5: an upcard and at least one stock card */
    int need = players * r->hand_size + 2;
    if (need > okr_pack_size(r)) {
        cat(msg, sizeof msg, "decks: ");
        cat(msg, sizeof msg, okr__utoa((unsigned long)players, num));
        cat(msg, sizeof msg, " players x ");
        cat(msg, sizeof msg, okr__utoa(r->hand_size, num));
        cat(msg, sizeof msg, " cards + 2 needs ");
        cat(msg, sizeof msg, okr__utoa((unsigned long)need, num));
        cat(msg, sizeof msg, " cards, the pack has ");
        cat(msg, sizeof msg, okr__utoa((unsigned long)okr_pack_size(r), num));
        return okr__invalid(why, "1.5", msg);
    }
    return OKR_OK;
}

int okr_rules_format(const okr_rules *r, char *buf, size_t cap)
{
    size_t n = 0;
    char num[21];
    for (int i = 0; i < N_OPTIONS; i++) {
        const option *o = &options[i];
        unsigned v = get(r, o);
        const char *val = o->type == OPT_ENUM && v <= o->max ? o->names[v] : okr__utoa(v, num);
        size_t need = (i ? 1 : 0) + strlen(o->name) + 1 + strlen(val);
        if (n + need + 1 > cap)
            return OKR_EOVERFLOW;
        if (i)
            buf[n++] = ' ';
        memcpy(buf + n, o->name, strlen(o->name));
        n += strlen(o->name);
        buf[n++] = '=';
        memcpy(buf + n, val, strlen(val));
        n += strlen(val);
    }
    if (cap)
        buf[n < cap ? n : cap - 1] = '\0';
    return (int)n;
}

int okr__ladder_lo(const okr_rules *r)
{
    return (r->ace & OKR_ACE_LOW) ? 0 : 1;
}

int okr__ladder_hi(const okr_rules *r)
{
    return (r->ace & OKR_ACE_HIGH) ? 13 : 12;
}

int okr__run_cap(const okr_rules *r)
{
    int ladder = okr__ladder_hi(r) - okr__ladder_lo(r) + 1;
    return r->run_max ? OKR_MIN(r->run_max, ladder) : ladder;
}

int okr__set_cap(const okr_rules *r)
{
    return r->set_max ? r->set_max : OKR_MELD_CARDS;
}

int okr__rules_values(const okr_rules *r, uint32_t *out, int cap)
{
    int n = 0;
    /* dealer only when it is not the default and last, so that every game under the rule
     * book's dealer keeps the digest it had before the option existed (recorded digests and
     * bench_engine's signature stay valid) */
    for (int i = 0; i < N_OPTIONS && n < cap; i++)
        if (options[i].offset != offsetof(okr_rules, dealer) &&
            options[i].offset != offsetof(okr_rules, stock))
            out[n++] = get(r, &options[i]);
    if (n + 2 <= cap) { /* what no option sets */
        out[n++] = r->family;
        out[n++] = (uint32_t)(r->min_players | r->max_players << 8);
    }
    if (r->dealer != OKR_DEALER_WINNER && n < cap)
        out[n++] = 0x100u | r->dealer;
    if (r->stock != OKR_STOCK_DECK && n < cap) /* the same for stock=deck */
        out[n++] = 0x200u | r->stock;
    return n;
}
