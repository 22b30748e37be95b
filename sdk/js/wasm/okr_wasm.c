/* okr_wasm.c - the engine's helpers for the JavaScript SDK (sdk/js/rules.js), compiled with
 * the engine's own sources to WebAssembly (sdk/js/wasm/CMakeLists.txt: clang --target=wasm32,
 * freestanding, no libc).
 *
 * The calls pass through two fixed buffers in the module's memory, so the JavaScript side never
 * allocates in it: okw_in() (what JS writes: text, a hand's 53 counts, an action) and okw_out()
 * (what the call writes back: kinds, specs, gin melds, text, or a refusal "rule\0reason\0").
 * Every input is checked here before the engine sees it: a hand holds no kind more often than
 * the pack does, text is NUL-terminated inside the buffer, an action has its counts in range.
 * Status: >= 0 is a result; OKW_REFUSED means the refusal is in okw_out().
 *
 * Unlike engine/, this file keeps state: the rules of the last okw_rules() call, which every
 * helper uses (one JS process, one thread).
 */
#include "okr/okr.h"

#define OKW_IN_CAP 65536
#define OKW_OUT_CAP (1 << 20)
#define OKW_REFUSED (-1000)
#define EXPORT(name) __attribute__((export_name(#name)))

static unsigned char in_buf[OKW_IN_CAP];
static unsigned char out_buf[OKW_OUT_CAP];
static okr_rules cur;
static okr_game scratch_game; /* parseAction's table: the rules and the pile's top card */

/* ---- the libc the engine uses (include/string.h) ----------------------------------------
 * Byte loops: this file is built with -fno-builtin, so clang does not turn them back into
 * calls to themselves. */

void *memcpy(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    while (n--)
        *d++ = *s++;
    return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (d < s) {
        while (n--)
            *d++ = *s++;
    } else {
        while (n--)
            d[n] = s[n];
    }
    return dst;
}

void *memset(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    while (n--)
        *d++ = (unsigned char)c;
    return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *x = a, *y = b;
    for (size_t i = 0; i < n; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

int strncmp(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
        if (x != y)
            return x < y ? -1 : 1;
        if (!x)
            return 0;
    }
    return 0;
}

int strcmp(const char *a, const char *b)
{
    return strncmp(a, b, (size_t)-1);
}

size_t strlen(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

/* ---- buffers and refusals ----------------------------------------------------------------- */

EXPORT(okw_in) unsigned char *okw_in(void)
{
    return in_buf;
}

EXPORT(okw_out) unsigned char *okw_out(void)
{
    return out_buf;
}

EXPORT(okw_in_cap) int okw_in_cap(void)
{
    return OKW_IN_CAP;
}

/* sizes the JS side checks against its own reading of the structs */
EXPORT(okw_sizeof_spec) int okw_sizeof_spec(void)
{
    return (int)sizeof(okr_spec);
}

EXPORT(okw_sizeof_action) int okw_sizeof_action(void)
{
    return (int)sizeof(okr_action);
}

static int refuse(const char *rule, const char *reason)
{
    size_t i = 0;
    for (const char *p = rule; *p && i < 32; p++)
        out_buf[i++] = (unsigned char)*p;
    out_buf[i++] = 0;
    for (const char *p = reason; *p && i < 400; p++)
        out_buf[i++] = (unsigned char)*p;
    out_buf[i] = 0;
    return OKW_REFUSED;
}

static int refuse_why(const okr_refusal *why)
{
    return refuse(why->rule, why->reason);
}

/* The input as a C string of length len: refused if it holds a NUL or does not fit. */
static const char *in_text(int len)
{
    if (len < 0 || len >= OKW_IN_CAP)
        return 0;
    for (int i = 0; i < len; i++)
        if (in_buf[i] == 0)
            return 0;
    in_buf[len] = 0;
    return (const char *)in_buf;
}

/* ---- rules -------------------------------------------------------------------------------- */

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* okw_rules(len): in = "preset name=value name=value ...". Sets the rules every helper uses
 * from now on. 0, or OKW_REFUSED with the rule number of the bad option. */
EXPORT(okw_rules) int okw_rules(int len)
{
    const char *s = in_text(len);
    if (!s)
        return refuse("", "rules: the text is too long or holds a NUL");
    char word[256], value[256];
    okr_rules r;
    okr_refusal why;
    int first = 1;
    while (*s) {
        while (is_space(*s))
            s++;
        if (!*s)
            break;
        size_t n = 0, m = 0;
        while (*s && !is_space(*s) && *s != '=' && n + 1 < sizeof word)
            word[n++] = *s++;
        word[n] = 0;
        if (*s == '=') {
            s++;
            while (*s && !is_space(*s) && m + 1 < sizeof value)
                value[m++] = *s++;
        }
        value[m] = 0;
        if (*s && !is_space(*s))
            return refuse("", "rules: a word is too long");
        if (first) {
            if (okr_rules_preset(&r, word, &why) != OKR_OK)
                return refuse_why(&why);
            first = 0;
        } else if (okr_rules_set(&r, word, value, &why) != OKR_OK) {
            return refuse_why(&why);
        }
    }
    if (first)
        return refuse("", "rules: no preset named");
    cur = r;
    return 0;
}

EXPORT(okw_hand_size) int okw_hand_size(void)
{
    return cur.hand_size;
}

/* ---- cards -------------------------------------------------------------------------------- */

EXPORT(okw_card_value) int okw_card_value(int kind)
{
    if (kind < 0 || kind >= OKR_KINDS)
        return refuse("", "not a card kind");
    return okr_card_debit(&cur, kind);
}

/* okw_card_parse(len): the kind of the one card in, or OKW_REFUSED. */
EXPORT(okw_card_parse) int okw_card_parse(int len)
{
    const char *s = in_text(len);
    const char *end = 0;
    int k = s ? okr_card_parse(s, &end) : -1;
    if (k < 0 || !end || *end)
        return refuse("", "not a card (AS, TH or 10H, 2C, QS, JK)");
    return k;
}

/* okw_cards_parse(len): the cards of the text into out (one byte each); the count. */
EXPORT(okw_cards_parse) int okw_cards_parse(int len)
{
    const char *s = in_text(len);
    if (!s)
        return refuse("", "cards: the text is too long or holds a NUL");
    okr_refusal why;
    int n = okr_cards_parse(s, out_buf, OKW_IN_CAP, &why);
    return n < 0 ? refuse_why(&why) : n;
}

/* okw_card_str(kind): two characters and a NUL into out. */
EXPORT(okw_card_str) int okw_card_str(int kind)
{
    if (kind < 0 || kind >= OKR_KINDS)
        return refuse("", "not a card kind");
    okr_card_str(kind, (char *)out_buf);
    return 2;
}

/* ---- hands -------------------------------------------------------------------------------- */

/* in[0..52] holds a hand's counts: refused if a kind is held more often than the pack has it
 * (RULES 1.1) or, for the gin helpers (max_total >= 0), the hand is larger than that. */
static int hand_check(int max_total)
{
    int total = 0;
    for (int k = 0; k < OKR_KINDS; k++) {
        int have = k == OKR_JOKER ? cur.jokers : cur.decks;
        if (in_buf[k] > have)
            return refuse("1.1", "the hand holds a card more often than the pack has it");
        total += in_buf[k];
    }
    if (max_total >= 0 && total > max_total)
        return refuse("G1", "a gin hand holds at most hand_size + 1 cards");
    return total;
}

/* okw_find_melds(): every three-card meld of the hand in in[0..52] (okr_find_melds): the
 * okr_spec structs into out, their count returned. */
EXPORT(okw_find_melds) int okw_find_melds(void)
{
    int rc = hand_check(-1);
    if (rc < 0)
        return rc;
    int n =
        okr_find_melds(&cur, in_buf, (okr_spec *)out_buf, (int)(OKW_OUT_CAP / sizeof(okr_spec)));
    return n < 0 ? refuse("", "find_melds: too many melds") : n;
}

static unsigned char *put_melds(unsigned char *o, const okr_ginmeld *m, int nm)
{
    *o++ = (unsigned char)nm;
    for (int i = 0; i < nm; i++) {
        *o++ = m[i].n;
        for (int j = 0; j < m[i].n && j < 13; j++)
            *o++ = m[i].card[j];
    }
    return o;
}

/* okw_gin_best(): the least deadwood of the hand in in[0..52] (okr_gin_best), returned; out =
 * nmelds, then per meld n and its n cards. */
EXPORT(okw_gin_best) int okw_gin_best(void)
{
    int rc = hand_check(cur.hand_size + 1);
    if (rc < 0)
        return rc;
    okr_ginmeld m[OKR_GIN_MELDS];
    int nm = 0;
    int dw = okr_gin_best(&cur, in_buf, m, &nm);
    put_melds(out_buf, m, nm);
    return dw;
}

/* okw_gin_best_discard(): with the hand in in[0..52], the discard that leaves the least
 * deadwood (ties: the lowest kind); out = the card, then the melds as okw_gin_best writes
 * them; returns the deadwood left. */
EXPORT(okw_gin_best_discard) int okw_gin_best_discard(void)
{
    int rc = hand_check(cur.hand_size + 1);
    if (rc < 0)
        return rc;
    if (rc == 0)
        return refuse("", "gin_best_discard: the hand is empty");
    int best = -1, best_dw = 0, best_n = 0;
    okr_ginmeld best_m[OKR_GIN_MELDS];
    for (int k = 0; k < OKR_KINDS; k++) {
        if (!in_buf[k])
            continue;
        okr_ginmeld m[OKR_GIN_MELDS];
        int nm = 0;
        in_buf[k]--;
        int dw = okr_gin_best(&cur, in_buf, m, &nm);
        in_buf[k]++;
        if (best < 0 || dw < best_dw) {
            best = k;
            best_dw = dw;
            best_n = nm;
            memcpy(best_m, m, sizeof m);
        }
    }
    out_buf[0] = (unsigned char)best;
    put_melds(out_buf + 1, best_m, best_n);
    return best_dw;
}

/* ---- actions ------------------------------------------------------------------------------ */

/* okw_action_parse(len, top, nmelds): the action in the text, as an okr_action into out (0),
 * for a table under the current rules whose pile's top card is `top` (-1: empty pile; "take"
 * without cards then cannot name the top card) and whose melds are the nmelds okr_meld structs
 * in `in` after the text's NUL (they tell where an added ace goes, "lo" or "hi"). The seat is
 * always 0: who acts is not known here. */
EXPORT(okw_action_parse) int okw_action_parse(int len, int top, int nmelds)
{
    const char *s = in_text(len);
    if (!s)
        return refuse("", "action: the text is too long or holds a NUL");
    if (top >= OKR_KINDS)
        return refuse("", "not a card kind");
    if (nmelds < 0 || nmelds > OKR_MAX_MELDS ||
        (size_t)len + 1 + (size_t)nmelds * sizeof(okr_meld) > OKW_IN_CAP)
        return refuse("", "action: too many melds on the table");
    memset(&scratch_game, 0, sizeof scratch_game);
    scratch_game.rules = cur;
    const unsigned char *m = in_buf + len + 1;
    for (int i = 0; i < nmelds; i++, m += sizeof(okr_meld)) {
        okr_meld *d = &scratch_game.meld[i];
        memcpy(d, m, sizeof *d);
        if (d->n > OKR_MELD_CARDS || d->lo > 13 || d->rank > 13 || d->suit > 3)
            return refuse("", "action: a meld on the table is malformed");
        for (int j = 0; j < d->n; j++)
            if (d->card[j] >= OKR_KINDS || d->as[j] >= OKR_KINDS)
                return refuse("", "action: a meld on the table holds a bad card");
    }
    scratch_game.meld_n = (uint8_t)nmelds;
    if (top >= 0) {
        scratch_game.pile[0] = (uint8_t)top;
        scratch_game.pile_n = 1;
    }
    okr_refusal why;
    if (okr_action_parse(&scratch_game, s, (okr_action *)out_buf, &why) != OKR_OK)
        return refuse_why(&why);
    return 0;
}

/* okw_action_format(): the okr_action in in (as okw_action_parse writes it) in notation into
 * out; its length. */
EXPORT(okw_action_format) int okw_action_format(void)
{
    okr_action a;
    memcpy(&a, in_buf, sizeof a);
    int n = okr_action_format(&a, (char *)out_buf, 4096);
    return n < 0 ? refuse("", "this action has no notation") : n;
}
