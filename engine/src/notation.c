/* notation.c - the text notation of cards and actions (docs/notation.md): "QS", "2C=5H",
 * "meld 7H 8H 9H", "take add 3 2C=5H", "knock 9S | 3H 4H 5H". The parser checks syntax and
 * shape only; whether an action is legal is okr_apply's business.
 * Pure: no I/O, no allocation, no globals; never crashes on any input. */
#include <assert.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"

/* The `rule` of every notation error (okr__invalid copies at most 7 characters of it). */
#define NOTATION_RULE "notation"

/* How many characters of an offending token an error message quotes. */
enum { TOKEN_SHOW = 24 };

/* An explicit `lo` / `hi` after an ace added to a run: the low (0) or high (13) ace. */
enum { END_ANY = 0, END_LO = 1, END_HI = 2 };

/* ---- A tiny bounded string builder (no snprintf in the engine) ------------------------- */

/* Invariant: buf[len] == '\0' whenever cap > 0; `over` is set once anything did not fit. */
typedef struct sbuf {
    char *buf;
    size_t cap;
    size_t len;
    bool over;
} sbuf;

static void sb_init(sbuf *sb, char *buf, size_t cap)
{
    sb->buf = buf;
    sb->cap = cap;
    sb->len = 0;
    sb->over = cap == 0;
    if (cap)
        buf[0] = '\0';
}

static void sb_char(sbuf *sb, char c)
{
    if (sb->len + 1 < sb->cap) {
        sb->buf[sb->len++] = c;
        sb->buf[sb->len] = '\0';
    } else {
        sb->over = true;
    }
}

static void sb_str(sbuf *sb, const char *s)
{
    while (*s)
        sb_char(sb, *s++);
}

static void sb_uint(sbuf *sb, unsigned v)
{
    char tmp[24];
    sb_str(sb, okr__utoa(v, tmp));
}

static void sb_card(sbuf *sb, int kind)
{
    char c[3];
    sb_str(sb, okr_card_str(kind, c));
}

/* A token quoted for an error message: at most TOKEN_SHOW characters, and every byte that
 * is not printable ASCII shown as '?', so that a message is always one clean line. */
static void sb_token(sbuf *sb, const char *t, size_t n)
{
    sb_char(sb, '\'');
    for (size_t i = 0; i < n && i < TOKEN_SHOW; i++) {
        unsigned char c = (unsigned char)t[i];
        sb_char(sb, c >= 0x20 && c < 0x7f ? (char)c : '?');
    }
    if (n > TOKEN_SHOW)
        sb_str(sb, "...");
    sb_char(sb, '\'');
}

/* ---- Errors --------------------------------------------------------------------------- */

static int fail(okr_refusal *why, const char *reason)
{
    return okr__invalid(why, NOTATION_RULE, reason);
}

/* "<pre>'<token>'<post>" */
static int fail_tok(okr_refusal *why, const char *pre, const char *t, size_t n, const char *post)
{
    char reason[sizeof((okr_refusal *)0)->reason];
    sbuf sb;
    sb_init(&sb, reason, sizeof reason);
    sb_str(&sb, pre);
    sb_token(&sb, t, n);
    sb_str(&sb, post);
    return fail(why, reason);
}

/* "<pre><number><post>" */
static int fail_num(okr_refusal *why, const char *pre, unsigned v, const char *post)
{
    char reason[sizeof((okr_refusal *)0)->reason];
    sbuf sb;
    sb_init(&sb, reason, sizeof reason);
    sb_str(&sb, pre);
    sb_uint(&sb, v);
    sb_str(&sb, post);
    return fail(why, reason);
}

/* ---- Cards ---------------------------------------------------------------------------- */

static const char rank_chars[] = "A23456789TJQK";
static const char suit_chars[] = "CDHS";

static char upper(char c)
{
    return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}

static int suit_of_char(char c)
{
    switch (upper(c)) {
    case 'C':
        return 0;
    case 'D':
        return 1;
    case 'H':
        return 2;
    case 'S':
        return 3;
    default:
        return -1;
    }
}

int okr_card_parse(const char *s, const char **end)
{
    if (end)
        *end = s;
    if (!s)
        return -1;
    char c0 = upper(s[0]);
    if (c0 == 'J' && upper(s[1]) == 'K') { /* the Joker; "JK" is no jack: K is no suit */
        if (end)
            *end = s + 2;
        return OKR_JOKER;
    }
    int rank = 0;
    const char *p = s + 1;
    if (c0 == '1' && s[1] == '0') { /* "10" for ten */
        rank = 10;
        p = s + 2;
    } else {
        for (int i = 0; i < 13; i++)
            if (rank_chars[i] == c0 && c0 != '\0')
                rank = i + 1;
    }
    if (rank == 0)
        return -1;
    int suit = suit_of_char(*p);
    if (suit < 0)
        return -1;
    if (end)
        *end = p + 1;
    return OKR_KIND(suit, rank);
}

char *okr_card_str(int kind, char buf[3])
{
    if (kind == OKR_JOKER) {
        buf[0] = 'J';
        buf[1] = 'K';
    } else if (kind >= 0 && kind < OKR_JOKER) {
        buf[0] = rank_chars[OKR_RANK(kind) - 1];
        buf[1] = suit_chars[OKR_SUIT(kind)];
    } else {
        buf[0] = '?';
        buf[1] = '?';
    }
    buf[2] = '\0';
    return buf;
}

/* ---- Tokens --------------------------------------------------------------------------- */

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/* A scanner over a NUL-terminated line. Tokens are runs of characters other than white
 * space, '#' and '|'; a '|' is a token by itself; '#' starts a comment to the end of the
 * line. */
typedef struct scan {
    const char *p;
} scan;

typedef struct token {
    const char *s;
    size_t n; /* 0: no more tokens */
} token;

static token next_token(scan *sc)
{
    token t = {sc->p, 0};
    for (;;) {
        while (is_space(*sc->p))
            sc->p++;
        if (*sc->p != '#')
            break;
        while (*sc->p && *sc->p != '\n')
            sc->p++;
    }
    t.s = sc->p;
    if (*sc->p == '\0')
        return t;
    if (*sc->p == '|') {
        sc->p++;
        t.n = 1;
        return t;
    }
    while (*sc->p && !is_space(*sc->p) && *sc->p != '#' && *sc->p != '|')
        sc->p++;
    t.n = (size_t)(sc->p - t.s);
    return t;
}

static token peek_token(const scan *sc)
{
    scan copy = *sc;
    return next_token(&copy);
}

/* Case-insensitive: is the token exactly the lower-case keyword kw? */
static bool tok_is(token t, const char *kw)
{
    size_t n = strlen(kw);
    if (t.n != n)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = t.s[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != kw[i])
            return false;
    }
    return true;
}

/* A card token: "QS", or, when decl_ok, "2C=5H". *as receives the declared kind, or the
 * card itself when no declaration is written. *declared tells which. */
static int tok_card(token t, bool decl_ok, int *card, int *as, bool *declared, okr_refusal *why)
{
    const char *end;
    const char *stop = t.s + t.n;
    *declared = false;
    int k = okr_card_parse(t.s, &end);
    if (k < 0 || end > stop)
        return fail_tok(why, "unknown card ", t.s, t.n, "");
    *card = k;
    *as = k;
    if (end == stop)
        return OKR_OK;
    if (*end != '=')
        return fail_tok(why, "unknown card ", t.s, t.n, "");
    if (!decl_ok)
        return fail_tok(why, "no declaration allowed here: ", t.s, t.n, "");
    const char *d = end + 1;
    int a = okr_card_parse(d, &end);
    if (a < 0 || end != stop)
        return fail_tok(why, "unknown declared card in ", t.s, t.n, "");
    if (a == OKR_JOKER)
        return fail_tok(why, "a card cannot stand for a Joker: ", t.s, t.n, ""); /* RULES 3.5 */
    *as = a;
    *declared = true;
    return OKR_OK;
}

/* A meld number: decimal digits, 0..255 (whether the meld exists is okr_apply's business). */
static int tok_meld(token t, uint8_t *m, okr_refusal *why)
{
    if (t.n == 0)
        return fail(why, "expected a meld number");
    unsigned v = 0;
    for (size_t i = 0; i < t.n; i++) {
        if (t.s[i] < '0' || t.s[i] > '9' || i >= 3)
            return fail_tok(why, "bad meld number ", t.s, t.n, "");
        v = v * 10 + (unsigned)(t.s[i] - '0');
    }
    if (v > 255)
        return fail_tok(why, "bad meld number ", t.s, t.n, "");
    *m = (uint8_t)v;
    return OKR_OK;
}

/* ---- Card lists ----------------------------------------------------------------------- */

int okr_cards_parse(const char *s, uint8_t *out, int cap, okr_refusal *why)
{
    if (!s)
        return fail(why, "no cards");
    scan sc = {s};
    int n = 0;
    for (;;) {
        token t = next_token(&sc);
        if (t.n == 0)
            return n;
        int card = 0, as = 0;
        bool declared = false;
        int rc = tok_card(t, false, &card, &as, &declared, why);
        if (rc != OKR_OK)
            return rc;
        if (n >= cap)
            return fail_num(why, "too many cards (at most ", cap < 0 ? 0u : (unsigned)cap, ")");
        out[n++] = (uint8_t)card;
    }
}

/* ---- Game lookups (g may be NULL: an empty table) ------------------------------------- */

static int top_card(const okr_game *g)
{
    if (!g || g->pile_n == 0 || g->pile_n > OKR_MAX_CARDS)
        return OKR_NOCARD;
    return g->pile[g->pile_n - 1];
}

static const okr_meld *meld_at(const okr_game *g, unsigned m)
{
    if (!g || m >= g->meld_n || m >= OKR_MAX_MELDS)
        return NULL;
    return &g->meld[m];
}

/* Ladder position a declared rank takes in a run: the first card's rank alone, so an ace is
 * low here; see classify() for the rest (RULES 3.3). */
static int first_pos(int rank)
{
    return rank == 1 ? 0 : rank - 1;
}

/* Position of a card added to meld m counting as `as` (RULES 3.3): 255 for a set (or a meld
 * that does not exist, for okr_apply to refuse); for a run the end where the declared rank
 * fits. `lo` / `hi` are only for an ace and name the low (0) or high (13) ace position. A
 * card that fits neither end gets its rank's own position, for okr_apply to refuse with the
 * rule. Every position this returns for an ace is 0 or 13, so that okr_action_format's
 * lo/hi gives it back. */
static int add_pos(const okr_game *g, uint8_t m, int as, int end, uint8_t *pos, okr_refusal *why)
{
    const okr_meld *md = meld_at(g, m);
    int rank = OKR_RANK(as);
    *pos = 255;
    if (end != END_ANY && rank != 1)
        return fail(why, "'lo' and 'hi' are only for an ace added to a run");
    if (!md)
        return OKR_OK;
    if (md->type != OKR_RUN) {
        if (end != END_ANY)
            return fail_num(why, "'lo' and 'hi' are only for a run; meld ", m, " is a set");
        return OKR_OK;
    }
    if (end != END_ANY) {
        *pos = end == END_LO ? 0 : 13;
        return OKR_OK;
    }
    int lo = md->lo, hi = md->lo + md->n; /* hi: the position just above the run */
    bool at_lo = lo >= 1 && OKR_POS_RANK(lo - 1) == rank;
    bool at_hi = hi <= 13 && OKR_POS_RANK(hi) == rank;
    if (at_lo && at_hi && g) { /* an ace onto a 2..K run: does the ladder allow both? */
        if (lo - 1 < okr__ladder_lo(&g->rules))
            at_lo = false;
        else if (hi > okr__ladder_hi(&g->rules))
            at_hi = false;
    }
    if (at_lo && at_hi)
        return fail_num(why, "the ace fits both ends of meld ", m, ": add 'lo' or 'hi'");
    if (at_lo)
        *pos = (uint8_t)(lo - 1);
    else if (at_hi)
        *pos = (uint8_t)hi;
    else
        *pos = (uint8_t)(rank == 1 ? 13 : rank - 1);
    return OKR_OK;
}

/* The natural the Joker in meld m stands for (RULES 5.2), or OKR_NOCARD. */
static int joker_decl(const okr_game *g, uint8_t m)
{
    const okr_meld *md = meld_at(g, m);
    if (!md)
        return OKR_NOCARD;
    for (int i = 0; i < md->n && i < OKR_MELD_CARDS; i++)
        if (md->card[i] == OKR_JOKER)
            return md->as[i];
    return OKR_NOCARD;
}

/* ---- Action parts --------------------------------------------------------------------- */

/* A card a stand-in (a wild 2 or the Joker) in the new meld sp could stand for, to show in
 * the hint of a refusal: the natural cards (those at index != skip that are not undeclared
 * 2s or Jokers) of one rank give that rank in a suit none of them has; of one suit, the first
 * missing ladder position between them, else the next one above (below at the top). A card
 * of the player's own line, not a fixed "5H". OKR_NOCARD when the naturals say nothing. */
static int stand_in_example(const okr_spec *sp)
{
    int n = 0, rank0 = 0, suit0 = 0, suits = 0;
    bool one_rank = true, one_suit = true;
    bool pos[14] = {false};
    for (int i = 0; i < sp->n; i++) {
        int c = sp->card[i], as = sp->as[i];
        if (c == OKR_JOKER && as == OKR_JOKER)
            continue;
        if (c != OKR_JOKER && OKR_RANK(c) == 2 && as == c)
            continue; /* an undeclared 2 */
        if (as >= 52)
            continue;
        int r = OKR_RANK(as), su = OKR_SUIT(as);
        if (n == 0) {
            rank0 = r;
            suit0 = su;
        }
        one_rank = one_rank && r == rank0;
        one_suit = one_suit && su == suit0;
        suits |= 1 << su;
        pos[r == 1 ? 0 : r - 1] = true;
        n++;
    }
    if (n == 0)
        return OKR_NOCARD;
    if (one_rank) {
        for (int su = 0; su < 4; su++)
            if (!(suits & (1 << su)))
                return su * 13 + rank0 - 1;
        return rank0 - 1;
    }
    if (!one_suit)
        return OKR_NOCARD;
    if (pos[0] && pos[12]) { /* an ace with a king: the high ace */
        pos[0] = false;
        pos[13] = true;
    }
    int lo = 0, hi = 13;
    while (!pos[lo])
        lo++;
    while (!pos[hi])
        hi--;
    int at = -1;
    for (int p = lo + 1; p < hi && at < 0; p++)
        if (!pos[p])
            at = p;
    if (at < 0)
        at = hi < 13 ? hi + 1 : lo - 1;
    int rank = at == 0 || at == 13 ? 1 : at + 1;
    return suit0 * 13 + rank - 1;
}

/* A card that would fit meld m on the table (as stand_in_example does for a new meld). */
static int meld_example(const okr_game *g, uint8_t m)
{
    const okr_meld *md = meld_at(g, m);
    if (!md)
        return OKR_NOCARD;
    okr_spec sp;
    memset(&sp, 0, sizeof sp);
    for (int i = 0; i < md->n && i < OKR_MELD_CARDS && i < OKR_SPEC_CARDS; i++) {
        sp.card[sp.n] = md->card[i];
        sp.as[sp.n] = md->as[i] < 52 ? md->as[i] : md->card[i];
        sp.n++;
    }
    return stand_in_example(&sp);
}

/* The hint for a stand-in card written without what it stands for: "TOK=CARD" with the
 * player's own token and a card that would fit, into sb. */
static void sb_declare_hint(sbuf *sb, const char *t, size_t n, int example)
{
    for (size_t i = 0; i < n && i < TOKEN_SHOW; i++) {
        unsigned char c = (unsigned char)t[i];
        sb_char(sb, c >= 0x20 && c < 0x7f ? (char)c : '?');
    }
    sb_char(sb, '=');
    if (example != OKR_NOCARD)
        sb_card(sb, example);
    else
        sb_str(sb, "CARD");
}

/* Set or run, from the declared cards (RULES 3.2, 3.3): all ranks equal is a set; otherwise
 * one suit on consecutive ladder positions, an ace first being low and an ace after a king
 * high. */
static int classify(okr_spec *sp, bool wild_plain, okr_refusal *why)
{
    bool same_rank = true;
    for (int i = 1; i < sp->n; i++)
        if (OKR_RANK(sp->as[i]) != OKR_RANK(sp->as[0]))
            same_rank = false;
    if (same_rank) {
        sp->type = OKR_SET;
        sp->lo = 0;
        return OKR_OK;
    }
    int prev = first_pos(OKR_RANK(sp->as[0]));
    bool run = true;
    for (int i = 1; i < sp->n && run; i++) {
        int rank = OKR_RANK(sp->as[i]);
        int pos = rank == 1 ? 13 : rank - 1;
        if (OKR_SUIT(sp->as[i]) != OKR_SUIT(sp->as[0]) || pos != prev + 1)
            run = false;
        prev = pos;
    }
    if (!run && wild_plain) {
        /* the player's own wild card, and a card it could stand for in this meld */
        char reason[sizeof((okr_refusal *)0)->reason], tok[3];
        sbuf sb;
        sb_init(&sb, reason, sizeof reason);
        int wild = OKR_NOCARD;
        for (int i = 0; i < sp->n && wild == OKR_NOCARD; i++)
            if (sp->card[i] != OKR_JOKER && OKR_RANK(sp->card[i]) == 2 && sp->as[i] == sp->card[i])
                wild = sp->card[i];
        okr_card_str(wild, tok);
        sb_str(&sb, "not a set or a run (say what the wild ");
        sb_str(&sb, tok);
        sb_str(&sb, " stands for, e.g. ");
        sb_declare_hint(&sb, tok, strlen(tok), stand_in_example(sp));
        sb_char(&sb, ')');
        return fail(why, reason);
    }
    if (!run)
        return fail(why, "not a set or a run");
    sp->type = OKR_RUN;
    sp->lo = (uint8_t)first_pos(OKR_RANK(sp->as[0]));
    return OKR_OK;
}

/* A Joker written without what it stands for: the player's token, and `example` (a card it
 * could stand for here, or OKR_NOCARD) as the hint. */
static int fail_joker(okr_refusal *why, token t, int example)
{
    char reason[sizeof((okr_refusal *)0)->reason];
    sbuf sb;
    sb_init(&sb, reason, sizeof reason);
    sb_str(&sb, "say what the Joker stands for: ");
    sb_token(&sb, t.s, t.n);
    sb_str(&sb, " (e.g. ");
    sb_declare_hint(&sb, t.s, t.n, example);
    sb_char(&sb, ')');
    return fail(why, reason);
}

/* The cards of a new meld, to the end of the line. */
static int parse_spec(scan *sc, okr_spec *sp, okr_refusal *why)
{
    bool wild_plain = false;
    token joker = {0}; /* the first Joker written without what it stands for */
    for (;;) {
        token t = next_token(sc);
        if (t.n == 0)
            break;
        int card = 0, as = 0;
        bool declared = false;
        int rc = tok_card(t, true, &card, &as, &declared, why);
        if (rc != OKR_OK)
            return rc;
        if (card == OKR_JOKER && !declared && joker.n == 0)
            joker = t;
        if (OKR_RANK(card) == 2 && !declared)
            wild_plain = true;
        if (sp->n >= OKR_SPEC_CARDS)
            return fail_num(why, "too many cards in one meld (at most ", OKR_SPEC_CARDS, ")");
        sp->card[sp->n] = (uint8_t)card;
        sp->as[sp->n] = (uint8_t)as;
        sp->n++;
    }
    if (sp->n == 0)
        return fail(why, "expected the cards of the meld");
    if (joker.n)
        return fail_joker(why, joker, stand_in_example(sp));
    return classify(sp, wild_plain, why);
}

/* Optional trailing `lo` / `hi`: END_LO, END_HI or END_ANY. */
static int parse_end(scan *sc)
{
    token t = peek_token(sc);
    int end = tok_is(t, "lo") ? END_LO : tok_is(t, "hi") ? END_HI : END_ANY;
    if (end != END_ANY)
        next_token(sc);
    return end;
}

/* `M CARD[=DECL] [lo|hi]`, with the card optional when card_optional (take/claim add: it is
 * the top card of the pile). */
static int parse_add(const okr_game *g, scan *sc, okr_action *a, bool card_optional,
                     okr_refusal *why)
{
    int rc = tok_meld(next_token(sc), &a->meld, why);
    if (rc != OKR_OK)
        return rc;
    token t = peek_token(sc);
    int card = 0, as = 0;
    if (t.n == 0 || tok_is(t, "lo") || tok_is(t, "hi")) {
        if (!card_optional)
            return fail(why, "expected the card to add");
        card = top_card(g);
        if (card == OKR_NOCARD)
            return fail(why, "the pile is empty: name the card");
        if (g && okr__is_wild(&g->rules, card)) {
            char reason[sizeof((okr_refusal *)0)->reason];
            sbuf sb;
            sb_init(&sb, reason, sizeof reason);
            char tok[3];
            okr_card_str(card, tok);
            sb_str(&sb, "the top card is wild: write what it stands for, e.g. ");
            sb_declare_hint(&sb, tok, strlen(tok), meld_example(g, a->meld));
            return fail(why, reason);
        }
        as = card;
    } else {
        bool declared = false;
        next_token(sc);
        rc = tok_card(t, true, &card, &as, &declared, why);
        if (rc != OKR_OK)
            return rc;
        if (card == OKR_JOKER && !declared) /* the hint: a card that fits meld m */
            return fail_joker(why, t, meld_example(g, a->meld));
    }
    a->card = (uint8_t)card;
    a->as = (uint8_t)as;
    return add_pos(g, a->meld, as, parse_end(sc), &a->pos, why);
}

/* take / claim: `` | new CARDS | add M [CARD[=DECL]] [lo|hi] | joker M */
static int parse_take(const okr_game *g, scan *sc, okr_action *a, okr_refusal *why)
{
    token t = next_token(sc);
    if (t.n == 0) {
        a->how = OKR_HOW_PLAIN;
        a->card = (uint8_t)top_card(g);
        return OKR_OK;
    }
    if (tok_is(t, "new")) {
        a->how = OKR_HOW_NEW;
        return parse_spec(sc, &a->u.spec, why);
    }
    if (tok_is(t, "add")) {
        a->how = OKR_HOW_ADD;
        return parse_add(g, sc, a, true, why);
    }
    if (tok_is(t, "joker")) {
        a->how = OKR_HOW_JOKER; /* RULES 4.3(b): the top card takes the Joker's place */
        a->card = (uint8_t)top_card(g);
        a->as = OKR_JOKER;
        return tok_meld(next_token(sc), &a->meld, why);
    }
    return fail_tok(why, "expected new, add or joker, got ", t.s, t.n, "");
}

/* knock CARD [| CARDS]... (G5) */
static int parse_knock(scan *sc, okr_action *a, okr_refusal *why)
{
    int card = 0, as = 0;
    bool declared = false;
    token t = next_token(sc);
    if (t.n == 0)
        return fail(why, "expected the card to discard");
    if (t.n == 1 && t.s[0] == '|')
        return fail(why, "expected the card to discard before '|'");
    int rc = tok_card(t, false, &card, &as, &declared, why);
    if (rc != OKR_OK)
        return rc;
    a->card = (uint8_t)card;
    t = next_token(sc);
    while (t.n != 0) {
        if (!(t.n == 1 && t.s[0] == '|'))
            return fail_tok(why, "expected '|' before the meld starting at ", t.s, t.n, "");
        if (a->nmelds >= OKR_GIN_MELDS)
            return fail_num(why, "too many melds in a knock (at most ", OKR_GIN_MELDS, ")");
        okr_ginmeld *gm = &a->u.knock[a->nmelds++];
        for (t = next_token(sc); t.n != 0 && !(t.n == 1 && t.s[0] == '|'); t = next_token(sc)) {
            rc = tok_card(t, false, &card, &as, &declared, why);
            if (rc != OKR_OK)
                return rc;
            if (gm->n >= 13)
                return fail(why, "too many cards in one knock meld (at most 13)");
            gm->card[gm->n++] = (uint8_t)card;
        }
        if (gm->n == 0)
            return fail(why, "empty meld after '|'");
    }
    return OKR_OK;
}

static int parse_body(const okr_game *g, scan *sc, token kw, okr_action *a, okr_refusal *why)
{
    int card = 0, as = 0, rc;
    bool declared = false;
    if (tok_is(kw, "draw")) {
        a->type = OKR_A_DRAW;
        return OKR_OK;
    }
    if (tok_is(kw, "pass")) {
        a->type = OKR_A_PASS;
        return OKR_OK;
    }
    if (tok_is(kw, "take")) {
        a->type = OKR_A_TAKE;
        return parse_take(g, sc, a, why);
    }
    if (tok_is(kw, "claim")) {
        a->type = OKR_A_CLAIM;
        return parse_take(g, sc, a, why);
    }
    if (tok_is(kw, "meld")) {
        a->type = OKR_A_MELD;
        return parse_spec(sc, &a->u.spec, why);
    }
    if (tok_is(kw, "add")) {
        a->type = OKR_A_ADD;
        return parse_add(g, sc, a, false, why);
    }
    if (tok_is(kw, "replace")) {
        a->type = OKR_A_REPLACE;
        rc = tok_meld(next_token(sc), &a->meld, why);
        if (rc != OKR_OK)
            return rc;
        a->card = (uint8_t)joker_decl(g, a->meld); /* RULES 5.2 */
        a->as = OKR_JOKER;
        return OKR_OK;
    }
    if (tok_is(kw, "discard")) {
        a->type = OKR_A_DISCARD;
        token t = next_token(sc);
        if (t.n == 0)
            return fail(why, "expected the card to discard");
        rc = tok_card(t, false, &card, &as, &declared, why);
        a->card = (uint8_t)(rc == OKR_OK ? card : 0);
        return rc;
    }
    if (tok_is(kw, "knock")) {
        a->type = OKR_A_KNOCK;
        return parse_knock(sc, a, why);
    }
    return fail_tok(why, "unknown action ", kw.s, kw.n, "");
}

int okr_action_parse(const okr_game *g, const char *s, okr_action *a, okr_refusal *why)
{
    if (!a)
        return fail(why, "no action");
    memset(a, 0, sizeof *a);
    if (!s)
        return fail(why, "empty");
    scan sc = {s};
    token kw = next_token(&sc);
    if (kw.n == 0)
        return fail(why, "empty");
    a->seat = g ? g->to_act : 0;
    int rc = parse_body(g, &sc, kw, a, why);
    if (rc == OKR_OK) {
        token extra = next_token(&sc);
        if (extra.n != 0)
            rc = fail_tok(why, "unexpected ", extra.s, extra.n, " at the end of the action");
    }
    if (rc != OKR_OK) {
        uint8_t seat = a->seat;
        memset(a, 0, sizeof *a);
        a->seat = seat;
    }
    return rc;
}

/* ---- Formatting ----------------------------------------------------------------------- */

static void sb_decl(sbuf *sb, int card, int as)
{
    sb_card(sb, card);
    if (as != card) {
        sb_char(sb, '=');
        sb_card(sb, as);
    }
}

static int fmt_spec(sbuf *sb, const okr_spec *sp)
{
    if (sp->n == 0 || sp->n > OKR_SPEC_CARDS)
        return OKR_EINVAL;
    for (int i = 0; i < sp->n; i++) {
        sb_char(sb, ' ');
        sb_decl(sb, sp->card[i], sp->as[i]);
    }
    return OKR_OK;
}

/* " M CARD[=DECL] [lo|hi]": lo/hi for an ace added to a run (pos 0 or 13, RULES 3.3). */
static void fmt_add(sbuf *sb, const okr_action *a)
{
    sb_char(sb, ' ');
    sb_uint(sb, a->meld);
    sb_char(sb, ' ');
    sb_decl(sb, a->card, a->as);
    if (a->pos != 255 && a->as < OKR_JOKER && OKR_RANK(a->as) == 1) {
        if (a->pos == 0)
            sb_str(sb, " lo");
        else if (a->pos == 13)
            sb_str(sb, " hi");
    }
}

static int fmt_take(sbuf *sb, const okr_action *a)
{
    switch (a->how) {
    case OKR_HOW_PLAIN:
        return OKR_OK;
    case OKR_HOW_NEW:
        sb_str(sb, " new");
        return fmt_spec(sb, &a->u.spec);
    case OKR_HOW_ADD:
        sb_str(sb, " add");
        fmt_add(sb, a);
        return OKR_OK;
    case OKR_HOW_JOKER:
        sb_str(sb, " joker ");
        sb_uint(sb, a->meld);
        return OKR_OK;
    default:
        return OKR_EINVAL;
    }
}

static int fmt_knock(sbuf *sb, const okr_action *a)
{
    if (a->nmelds > OKR_GIN_MELDS)
        return OKR_EINVAL;
    sb_char(sb, ' ');
    sb_card(sb, a->card);
    for (int m = 0; m < a->nmelds; m++) {
        const okr_ginmeld *gm = &a->u.knock[m];
        if (gm->n == 0 || gm->n > 13)
            return OKR_EINVAL;
        sb_str(sb, " |");
        for (int i = 0; i < gm->n; i++) {
            sb_char(sb, ' ');
            sb_card(sb, gm->card[i]);
        }
    }
    return OKR_OK;
}

/* Returns the length, OKR_EOVERFLOW when buf is too small (buf then holds a truncated,
 * NUL-terminated prefix), or OKR_EINVAL for an action that has no notation (unknown type or
 * how, impossible counts); buf is then "". */
int okr_action_format(const okr_action *a, char *buf, size_t cap)
{
    sbuf sb;
    sb_init(&sb, buf, cap);
    if (!a)
        return OKR_EINVAL;
    int rc = OKR_OK;
    switch (a->type) {
    case OKR_A_DRAW:
        sb_str(&sb, "draw");
        break;
    case OKR_A_PASS:
        sb_str(&sb, "pass");
        break;
    case OKR_A_TAKE:
        sb_str(&sb, "take");
        rc = fmt_take(&sb, a);
        break;
    case OKR_A_CLAIM:
        sb_str(&sb, "claim");
        rc = fmt_take(&sb, a);
        break;
    case OKR_A_MELD:
        sb_str(&sb, "meld");
        rc = fmt_spec(&sb, &a->u.spec);
        break;
    case OKR_A_ADD:
        sb_str(&sb, "add");
        fmt_add(&sb, a);
        break;
    case OKR_A_REPLACE:
        sb_str(&sb, "replace ");
        sb_uint(&sb, a->meld);
        break;
    case OKR_A_DISCARD:
        sb_str(&sb, "discard ");
        sb_card(&sb, a->card);
        break;
    case OKR_A_KNOCK:
        sb_str(&sb, "knock");
        rc = fmt_knock(&sb, a);
        break;
    default:
        rc = OKR_EINVAL;
        break;
    }
    if (rc != OKR_OK) {
        if (cap)
            buf[0] = '\0';
        return rc;
    }
    if (sb.over)
        return OKR_EOVERFLOW;
    return sb.len > INT_MAX ? OKR_EOVERFLOW : (int)sb.len;
}
