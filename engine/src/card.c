/* card.c - card kinds, wildness and values (RULES 1, 7.1, G1), and the engine's tiny string
 * helpers. Pure: no I/O, no allocation. */
#include "internal.h"

int okr__refuse(okr_refusal *why, const char *rule, const char *reason)
{
    if (why) {
        okr__strlcpy(why->rule, rule, sizeof why->rule);
        okr__strlcpy(why->reason, reason, sizeof why->reason);
    }
    return OKR_EILLEGAL;
}

int okr__invalid(okr_refusal *why, const char *rule, const char *reason)
{
    okr__refuse(why, rule, reason);
    return OKR_EINVAL;
}

size_t okr__strlcpy(char *dst, const char *src, size_t cap)
{
    size_t n = strlen(src);
    if (cap) {
        size_t k = n < cap - 1 ? n : cap - 1;
        memcpy(dst, src, k);
        dst[k] = '\0';
    }
    return n;
}

char *okr__utoa(unsigned long v, char *buf)
{
    char tmp[21];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (int i = 0; i < n; i++)
        buf[i] = tmp[n - 1 - i];
    buf[n] = '\0';
    return buf;
}

/* Value of a natural card counting as `as` under the rummy tables of RULES 7.1, melded. */
static int rummy_meld_value(const okr_rules *r, int as)
{
    int rank = OKR_RANK(as);
    if (as == OKR_KIND(3, 12))
        return 50; /* Q of spades */
    if (rank == 1)
        return r->values == OKR_VALUES_GERMAN ? 15 : 20;
    if (rank >= 8)
        return 10;
    return 5; /* 3..7, and a 2 standing for a two */
}

int okr__meld_credit(const okr_rules *r, int card, int as, int all_twos)
{
    if (r->family == OKR_FAMILY_GIN)
        return 0;
    if (card == OKR_JOKER)
        return 100; /* RULES 7.1: the Joker melded, whatever it stands for */
    if (okr__is_wild(r, card)) {
        if (all_twos)
            return 25; /* RULES 7.1 arlington all-twos set */
        if (as == OKR_KIND(3, 12) &&
            (r->values == OKR_VALUES_LAWS || r->values == OKR_VALUES_PARLETT))
            return 10; /* RULES 7.1: laws/parlett count a 2 as the Q of spades 10 */
        return rummy_meld_value(r, as); /* as the card it stands for */
    }
    return rummy_meld_value(r, card);
}

int okr__gin_value(int kind)
{
    int rank = OKR_RANK(kind);
    return rank >= 10 ? 10 : rank; /* G1 */
}

int okr_card_debit(const okr_rules *r, int kind)
{
    if (kind < 0 || kind >= OKR_KINDS)
        return 0;
    if (r->family == OKR_FAMILY_GIN)
        return kind == OKR_JOKER ? 0 : okr__gin_value(kind);
    if (kind == OKR_JOKER)
        return 200;
    if (okr__is_wild(r, kind))
        return r->values == OKR_VALUES_GERMAN ? 15 : 20;
    if (kind == OKR_KIND(3, 12))
        return 100;
    int rank = OKR_RANK(kind);
    if (rank == 1)
        return r->values == OKR_VALUES_GERMAN ? 15 : 20;
    if (rank >= 8)
        return r->values == OKR_VALUES_PARLETT ? 20 : 10; /* RULES 7.1, as printed */
    return 5;
}
