/* replay_html.c - one game's replay page. The record is replayed with the engine, and every
 * step (the deal, each action, each verdict, each hand end, the result) becomes one frame of
 * JSON holding the whole table as the page shows it; the page's script only draws frames.
 *
 * A seat's page is built from what that seat was shown, never by hiding parts of a full dump:
 * its frames come from okr_view_of (own hand, the pile, the melds, hand sizes, scores) and
 * okr_event_redact (the card another seat drew is not there), every hand appears only in the
 * frame of the hand's end (HandEnd shows them to every seat), and the game id, the seeds and
 * the digests (from which a seat could work out the deal) are left out (RULES 8.3). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "match/json_out.h"
#include "match/record.h"
#include "match/record_read.h"
#include "util/util.h"
#include "view.h"

extern const unsigned char av_asset_replay_html[], av_asset_replay_css[], av_asset_replay_js[];
extern const unsigned long av_asset_replay_html_len, av_asset_replay_css_len,
    av_asset_replay_js_len;

typedef struct rp {
    const av_replay_opts *o;
    ar_record_reader *rd; /* the record as read so far, and the engine's game */
    int players;
    char names[OKR_MAX_PLAYERS][64]; /* sanitized: they go into the page */
    double used_ms[OKR_MAX_PLAYERS], bank_ms[OKR_MAX_PLAYERS];
    int choices; /* the actor's legal actions before its action, -1: not for this page */
    int hold_sc; /* the scores stay as they were: an action that ended the hand (its scores
                    change with the hand's end, the next step) */
    json_t *frames;
    json_t *prev;      /* the parts of the last frame, all of them */
    okr_action *legal; /* room for okr_legal, allocated at the first use */
    json_t *meta;
} rp;

/* ---- Cards as text ------------------------------------------------------------------------ */

typedef struct sbuf {
    char s[OKR_MAX_CARDS * 6 + 64];
    size_t n;
} sbuf;

static void sb_put(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_put(sbuf *b, const char *fmt, ...)
{
    if (b->n >= sizeof b->s)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(b->s + b->n, sizeof b->s - b->n, fmt, ap);
    va_end(ap);
    if (k > 0)
        b->n += (size_t)k < sizeof b->s - b->n ? (size_t)k : sizeof b->s - b->n - 1;
}

static void sb_card(sbuf *b, int kind)
{
    char c[3];
    sb_put(b, "%s%s", b->n ? " " : "", okr_card_str(kind, c));
}

static json_t *hand_str(const uint8_t count[OKR_KINDS])
{
    sbuf b = {.n = 0};
    for (int k = 0; k < OKR_KINDS; k++)
        for (int i = 0; i < count[k]; i++)
            sb_card(&b, k);
    b.s[b.n] = '\0';
    return json_string(b.s);
}

static json_t *cards_str(const uint8_t *cards, int n)
{
    sbuf b = {.n = 0};
    for (int i = 0; i < n; i++)
        sb_card(&b, cards[i]);
    b.s[b.n] = '\0';
    return json_string(b.s);
}

/* A card in words for the page's sentences: rank and suit symbol (10 for a ten), the Joker
 * written out, a wild card with what it stands for ("2♥ as Q♣"). The page's tests
 * read both this and the notation as cards (tests/view/pages.py). */
static void sb_word(sbuf *b, int kind)
{
    static const char *const sym[4] = {"\xe2\x99\xa3", "\xe2\x99\xa6", "\xe2\x99\xa5",
                                       "\xe2\x99\xa0"}; /* the suits in UTF-8 */
    char c[3];
    okr_card_str(kind, c);
    if (strcmp(c, "JK") == 0) {
        sb_put(b, "Joker");
        return;
    }
    const char *suit = c[1] == 'C' ? sym[0] : c[1] == 'D' ? sym[1] : c[1] == 'H' ? sym[2] : sym[3];
    if (c[0] == 'T')
        sb_put(b, "10%s", suit);
    else
        sb_put(b, "%c%s", c[0], suit);
}

static void sb_word_as(sbuf *b, int card, int as)
{
    sb_word(b, card);
    if (as != card) {
        sb_put(b, " as ");
        sb_word(b, as);
    }
}

/* a meld's cards in words, comma separated */
static void meld_words(sbuf *b, const okr_meld *m)
{
    for (int j = 0; j < m->n; j++) {
        if (j)
            sb_put(b, ", ");
        sb_word_as(b, m->card[j], m->as[j]);
    }
}

static void meld_text(sbuf *b, const okr_meld *m)
{
    char c[3];
    for (int j = 0; j < m->n; j++) {
        sb_put(b, "%s%s", j ? " " : "", okr_card_str(m->card[j], c));
        if (m->as[j] != m->card[j])
            sb_put(b, "=%s", okr_card_str(m->as[j], c));
    }
}

static json_t *melds_json(const okr_meld *melds, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++) {
        sbuf b = {.n = 0};
        meld_text(&b, &melds[i]);
        b.s[b.n] = '\0';
        json_array_append_new(
            a, json_pack("[iss]", melds[i].owner, ar_meld_type_name(melds[i].type), b.s));
    }
    return a;
}

/* ---- Frames ------------------------------------------------------------------------------- */

/* The table as the page's viewer may know it now. reveal: every hand is shown (a hand end). */
static json_t *table_frame(rp *r, const char *kind, int reveal)
{
    const okr_game *g = &r->rd->g;
    okr_view v;
    int seat = r->o->seat;
    okr_view_of(g, seat >= 0 ? seat : 0, &v);
    json_t *f = json_object();
    json_object_set_new(f, "k", json_string(kind));
    json_object_set_new(f, "h", json_integer(v.hand_no));
    json_object_set_new(f, "n", json_integer(r->rd->actions));
    int over = v.phase == OKR_PH_HAND_OVER || v.phase == OKR_PH_GAME_OVER;
    json_object_set_new(f, "to", json_integer(over ? -1 : v.to_act));
    json_object_set_new(f, "ph", json_string(ar_phase_name(v.phase)));
    json_object_set_new(f, "st", json_integer(v.stock_n));
    json_object_set_new(f, "pile", cards_str(v.pile, v.pile_n));
    json_object_set_new(f, "ml", melds_json(v.meld, v.meld_n));
    json_t *hs = json_array(), *hn = json_array(), *sc = json_array(), *clk = json_array();
    for (int s = 0; s < r->players; s++) {
        if (reveal || seat == AV_SPECTATOR)
            json_array_append_new(hs, hand_str(g->hand[s]));
        else if (s == seat)
            json_array_append_new(hs, hand_str(v.hand)); /* the seat's own view, RULES 8.3 */
        else
            json_array_append_new(hs, json_null());
        json_array_append_new(hn, json_integer(v.hand_n[s]));
        json_t *was = json_array_get(json_object_get(r->prev, "sc"), (size_t)s);
        json_array_append_new(sc, r->hold_sc && was ? json_incref(was) : json_integer(v.score[s]));
        json_t *c = json_pack("{s:f}", "used", r->used_ms[s]);
        if (r->o->clocks.bank_ms > 0)
            json_object_set_new(c, "bank", json_real(r->bank_ms[s]));
        json_array_append_new(clk, c);
    }
    json_object_set_new(f, "hs", hs);
    json_object_set_new(f, "hn", hn);
    json_object_set_new(f, "sc", sc);
    json_object_set_new(f, "clk", clk);
    /* a part equal to the previous step's is left out (the page carries it forward): most
     * steps change one hand and the pile, and this keeps a page a few times smaller */
    static const char *const carried[] = {"pile", "ml", "hs", "hn", "sc", "clk"};
    for (size_t i = 0; i < sizeof carried / sizeof carried[0]; i++) {
        json_t *now = json_object_get(f, carried[i]);
        /* held: setting prev's key below drops prev's reference to it */
        json_t *before = json_incref(json_object_get(r->prev, carried[i]));
        json_object_set(r->prev, carried[i], now);
        if (before && json_equal(now, before)) {
            json_object_del(f, carried[i]);
        } else if (before && json_is_array(now) && json_is_array(before) &&
                   json_array_size(now) >= json_array_size(before)) {
            /* an array (per seat, or the melds, which only grow within a hand) where some
             * items changed or were added: {"index": value} of those only */
            json_t *changed = json_object();
            for (size_t k = 0; k < json_array_size(now); k++)
                if (!json_equal(json_array_get(now, k), json_array_get(before, k))) {
                    char key[24];
                    snprintf(key, sizeof key, "%zu", k);
                    json_object_set(changed, key, json_array_get(now, k));
                }
            json_object_set_new(f, carried[i], changed);
        }
        json_decref(before);
    }
    json_array_append_new(r->frames, f);
    return f;
}

static const char *meld_word(const okr_meld *m)
{
    return m->type == OKR_SET ? "set" : "run";
}

/* The action in words, as the page's viewer may know it: what the seat did with which cards
 * ("melds 2♥ as Q♣, K♣, A♣ as meld 0 (a run)"); the page puts the seat's name and number
 * before it. Only public cards: a meld's, a discard, a card taken from the pile, and a card
 * drawn from the stock only where the event still holds it (okr_event_redact). */
static void action_words(rp *r, const okr_action *a, const okr_event *ev, sbuf *b)
{
    const okr_game *g = &r->rd->g;
    const okr_meld *m = ev->meld < g->meld_n ? &g->meld[ev->meld] : NULL;
    switch (a->type) {
    case OKR_A_DRAW:
        sb_put(b, "draws ");
        if (ev->card != OKR_NOCARD) {
            sb_word(b, ev->card);
            sb_put(b, " from the stock");
        } else {
            sb_put(b, "a card from the stock (face down)");
        }
        break;
    case OKR_A_TAKE:
    case OKR_A_CLAIM:
        sb_put(b, "%s ", a->type == OKR_A_CLAIM ? "claims" : "takes");
        sb_word(b, ev->card);
        /* the top card to a meld and the rest of the pile (taken) to the hand; gin's take is
         * the one card, to the hand */
        int meld_top = a->how == OKR_HOW_NEW || a->how == OKR_HOW_ADD || a->how == OKR_HOW_JOKER;
        if (meld_top && ev->taken > 0)
            sb_put(b, " and %d more card%s from the pile", ev->taken, ev->taken == 1 ? "" : "s");
        else
            sb_put(b, " from the pile");
        if (a->how == OKR_HOW_NEW && m) {
            sb_put(b, ", melding ");
            meld_words(b, m);
            sb_put(b, " as meld %d (a %s)", ev->meld, meld_word(m));
        } else if (a->how == OKR_HOW_ADD && m) {
            sb_put(b, ", adding it");
            if (a->as != ev->card) {
                sb_put(b, " as ");
                sb_word(b, a->as);
            }
            sb_put(b, " to meld %d", ev->meld);
        } else if (a->how == OKR_HOW_JOKER) {
            sb_put(b, ", putting it in place of the Joker of meld %d, which stood for ", ev->meld);
            sb_word(b, ev->card);
            sb_put(b, ", and taking the Joker into hand (RULES 5.2)");
        }
        break;
    case OKR_A_MELD:
        if (m) {
            sb_put(b, "melds ");
            meld_words(b, m);
            sb_put(b, " as meld %d (a %s)", ev->meld, meld_word(m));
        }
        break;
    case OKR_A_ADD:
        sb_put(b, "adds ");
        sb_word_as(b, a->card, a->as);
        sb_put(b, " to meld %d", ev->meld);
        break;
    case OKR_A_REPLACE:
        /* the natural card is the one the Joker was declared to be (RULES 5.2) */
        sb_put(b, "puts the natural ");
        sb_word(b, a->card);
        sb_put(b, " in place of the Joker of meld %d, which stood for ", ev->meld);
        sb_word(b, a->card);
        sb_put(b, ", and takes the Joker into hand (RULES 5.2)");
        break;
    case OKR_A_DISCARD:
        sb_put(b, "discards ");
        sb_word(b, a->card);
        break;
    case OKR_A_KNOCK:
        sb_put(b, "knocks, discarding ");
        sb_word(b, a->card);
        break;
    case OKR_A_PASS: /* gin: the upcard round (RULES G3); else the upcard round or a claim */
        sb_put(b, "%s",
               r->rd->rules.family == OKR_FAMILY_GIN ? "passes: does not take the upcard"
                                                     : "passes");
        break;
    default:
        sb_put(b, "acts");
    }
    if (ev->ended == OKR_END_OUT)
        sb_put(b, ", and goes out");
}

static void add_mark(json_t *f, const char *mark)
{
    json_object_set_new(f, "mark", json_string(mark));
}

static int on_dealt(void *ctx, ar_record_reader *rd)
{
    rp *r = ctx;
    json_t *f = table_frame(r, "deal", 0);
    char t[64];
    snprintf(t, sizeof t, "hand %d is dealt", rd->g.hand_no);
    json_object_set_new(f, "txt", json_string(t));
    return 0;
}

static int before_action(void *ctx, ar_record_reader *rd, json_t *j, int seat)
{
    (void)j;
    rp *r = ctx;
    /* how many choices the actor had: another seat's count depends on its hidden hand, so a
     * seat's page has only its own */
    r->choices = -1;
    if (r->o->seat == AV_SPECTATOR || r->o->seat == seat) {
        if (!r->legal)
            r->legal = ar_xmalloc(OKR_MAX_ACTIONS * sizeof *r->legal);
        r->choices = okr_legal(&rd->g, r->legal, OKR_MAX_ACTIONS);
    }
    return 0;
}

static int on_action(void *ctx, ar_record_reader *rd, json_t *j, int seat, const okr_action *ap,
                     const okr_event *evp)
{
    rp *r = ctx;
    const okr_action a = *ap;
    const okr_event ev = *evp;
    const char *text = ar_record_str(j, "action");
    okr_event shown;
    if (r->o->seat >= 0)
        okr_event_redact(&ev, r->o->seat, &shown);
    else
        shown = ev;
    json_t *ms = json_object_get(j, "ms");
    if (json_is_number(ms) && json_number_value(ms) >= 0) {
        double t = json_number_value(ms);
        r->used_ms[seat] += t;
        if (r->o->clocks.bank_ms > 0 && t > r->o->clocks.decision_ms)
            r->bank_ms[seat] -= t - r->o->clocks.decision_ms;
    }
    sbuf b = {.n = 0};
    action_words(r, &a, &shown, &b);
    b.s[b.n] = '\0';
    /* a knock or going out ends the hand with the action, and the engine's scores already
     * count it: the page shows them change at the hand's end, the step after */
    r->hold_sc = rd->g.phase == OKR_PH_HAND_OVER || rd->g.phase == OKR_PH_GAME_OVER;
    json_t *f = table_frame(r, "act", 0);
    r->hold_sc = 0;
    json_object_set_new(f, "a", json_integer(seat));
    json_object_set_new(f, "txt", json_string(b.s));
    if (r->o->seat >= 0 && seat != r->o->seat && a.type == OKR_A_KNOCK && strchr(text, '|')) {
        /* the other seats learn a knock's melds only with the hand's end (the protocol's
         * event says "knock QS"): keep the notation up to the arrangement */
        char pub[64];
        snprintf(pub, sizeof pub, "%.*s", (int)(strchr(text, '|') - text), text);
        for (size_t k = strlen(pub); k > 0 && pub[k - 1] == ' '; k--)
            pub[k - 1] = '\0';
        json_object_set_new(f, "note", json_string(pub));
    } else {
        json_object_set_new(f, "note", json_string(text));
    }
    if (json_is_number(ms) && json_number_value(ms) >= 0)
        json_object_set_new(f, "ms", json_real(json_number_value(ms)));
    if (r->choices >= 0)
        json_object_set_new(f, "nl", json_integer(r->choices));
    /* the bot's note (protocol 1.1): it may speak of its own hand, so a seat's page has only
     * its own seat's notes. Hostile text: the page sets it with textContent only. */
    const char *why = ar_record_str(j, "note");
    if (why[0] && (r->o->seat == AV_SPECTATOR || r->o->seat == seat)) {
        char clean[AR_NOTE_MAX + 1];
        ar_note_clean(why, strlen(why), clean); /* a record may be hand-made */
        json_object_set_new(f, "why", json_string(clean));
    }
    const char *sub = ar_record_str(j, "substituted");
    if (sub[0]) {
        json_object_set_new(f, "sub", json_string(sub));
        add_mark(f, "v");
    } else if (ev.ended == OKR_END_OUT || a.type == OKR_A_KNOCK || ev.taken >= 5) {
        add_mark(f, "b"); /* going out, a knock, a big pile taken: the moves people look for */
    }
    return 0;
}

static int on_hand_end(void *ctx, ar_record_reader *rd, json_t *j)
{
    (void)j;
    rp *r = ctx;
    const okr_game *g = &rd->g;
    json_t *f = table_frame(r, "end", 1);
    const okr_hand_result *h = &g->last;
    char t[160];
    if (h->winner >= 0)
        snprintf(t, sizeof t, "hand %d ends (%s); %s scores best", g->hand_no,
                 ar_end_name(h->ended), r->names[h->winner]);
    else
        snprintf(t, sizeof t, "hand %d ends (%s)", g->hand_no, ar_end_name(h->ended));
    json_object_set_new(f, "txt", json_string(t));
    /* the Q of spades, scored apart in the rummy family (RULES 7.1): +50 for each in the
     * seat's melds, -100 for each left in its hand; a 2 standing for it counts as a 2. Part of
     * melded and debit, which the page shows without it. Gin values it as any queen (G1). */
    int qs = OKR_KIND(3, 12), rummy = rd->rules.family == OKR_FAMILY_RUMMY;
    int32_t qsm[OKR_MAX_PLAYERS] = {0}, qsh[OKR_MAX_PLAYERS] = {0};
    for (int m = 0; rummy && m < g->meld_n; m++)
        for (int i = 0; i < g->meld[m].n; i++)
            if (g->meld[m].card[i] == qs && g->meld[m].owner < OKR_MAX_PLAYERS)
                qsm[g->meld[m].owner] += 50;
    json_t *rows = json_array();
    for (int s = 0; s < r->players; s++) {
        if (rummy)
            qsh[s] = -(int32_t)g->hand[s][qs] * okr_card_debit(&rd->rules, qs);
        json_array_append_new(rows, json_pack("{s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i}", "melded",
                                              h->melded[s], "debit", h->debit[s], "qsm", qsm[s],
                                              "qsh", qsh[s], "out", h->out_bonus[s], "concealed",
                                              h->concealed[s], "deadwood", h->deadwood[s], "score",
                                              h->score[s], "total", h->total[s]));
    }
    json_object_set_new(f, "end",
                        json_pack("{s:s,s:i,s:i,s:o,s:b}", "ended", ar_end_name(h->ended), "winner",
                                  h->winner, "knocker", h->knocker, "rows", rows, "gin",
                                  rd->rules.family == OKR_FAMILY_GIN));
    /* the lines of a hand's scoring this rule set has (german has no going-out bonus, only
     * laws and parlett a concealed one): the page leaves the others out */
    json_object_set_new(json_object_get(f, "end"), "has",
                        json_pack("{s:b,s:b}", "out", rd->rules.out_bonus > 0, "concealed",
                                  rd->rules.concealed_bonus > 0));
    /* a gin knock's melds, deadwood and lay-offs are laid face up (RULES G5): every page has
     * them, a seat's too; computed by the engine, so records from before 1.1 show them too */
    json_t *sd = ar_json_showdown(h);
    if (sd)
        json_object_set_new(json_object_get(f, "end"), "sd", sd);
    add_mark(f, "h");
    return 0;
}

static int on_verdict(void *ctx, ar_record_reader *rd, json_t *j, int seat)
{
    (void)rd;
    rp *r = ctx;
    json_t *f = table_frame(r, "verdict", 0);
    char t[400];
    const char *clock = ar_record_str(j, "clock");
    /* another seat's detail may quote its illegal move, that is its cards: a seat's page
     * shows only its own */
    int detail = r->o->seat == AV_SPECTATOR || r->o->seat == seat;
    if (ar_verdict_left(strcmp(ar_record_str(j, "verdict"), "RE") ? AR_V_NONE : AR_V_RE,
                        ar_record_str(j, "detail"))) {
        /* a person left: said in words (the code alone reads as a crash) */
        snprintf(t, sizeof t, "%s (seat %d) left the game (verdict RE)", r->names[seat], seat);
        json_object_set_new(f, "a", json_integer(seat));
        json_object_set_new(f, "txt", json_string(t));
        json_object_set_new(f, "verdict", json_string(ar_record_str(j, "verdict")));
        add_mark(f, "v");
        return 0;
    }
    snprintf(t, sizeof t, "verdict %s against %s%s%s%s%s", ar_record_str(j, "verdict"),
             r->names[seat], clock[0] ? " (" : "", clock, clock[0] ? " clock)" : "",
             detail ? ": " : "");
    if (detail) {
        size_t n = strlen(t);
        if (r->o->publish) /* a page that leaves the machine: no absolute path */
            av_scrub_paths(ar_record_str(j, "detail"), t + n, sizeof t - n);
        else
            snprintf(t + n, sizeof t - n, "%s", ar_record_str(j, "detail"));
    }
    json_object_set_new(f, "a", json_integer(seat));
    json_object_set_new(f, "txt", json_string(t));
    json_object_set_new(f, "verdict", json_string(ar_record_str(j, "verdict")));
    add_mark(f, "v");
    return 0;
}

static int on_result(void *ctx, ar_record_reader *rd, json_t *j)
{
    rp *r = ctx;
    const okr_game *g = &rd->g;
    int completed = rd->completed;
    json_t *fin = json_object_get(j, "final_total");
    json_t *f =
        table_frame(r, "over", g->phase == OKR_PH_HAND_OVER || g->phase == OKR_PH_GAME_OVER);
    json_t *res = json_object();
    json_object_set_new(res, "completed", json_boolean(completed));
    json_object_set(res, "final", fin ? fin : json_null());
    json_object_set(res, "place", json_object_get(j, "placements"));
    json_object_set(res, "forfeits", json_object_get(j, "forfeits"));
    if (completed) {
        json_object_set_new(res, "game", ar_json_ints(g->result.score, r->players));
        /* only the lines this rule set has (gin has no bonus, no settlement): the page shows
         * a line for each key given */
        const okr_rules *ru = &rd->rules;
        if (ru->concealed_bonus > 0)
            json_object_set_new(res, "concealed", ar_json_ints(g->result.concealed, r->players));
        if (ru->winner_bonus > 0)
            json_object_set_new(res, "bonus", ar_json_ints(g->result.winner_bonus, r->players));
        if (ru->settlement)
            json_object_set_new(res, "settle", ar_json_ints(g->result.settlement, r->players));
    }
    json_object_set_new(f, "res", res);
    json_object_set_new(
        f, "txt", json_string(completed ? "the game is over" : "the game stopped: forfeited"));
    add_mark(f, "h");
    return 0;
}

static int on_header(void *ctx, ar_record_reader *rd, json_t *h)
{
    rp *r = ctx;
    r->players = rd->players;
    if (r->o->seat >= r->players)
        return ar_record_fail(rd, "seat %d: the game has %d seats", r->o->seat, r->players);
    json_t *jn = json_array();
    for (int s = 0; s < r->players; s++) {
        ar_sanitize(rd->names[s], strlen(rd->names[s]), r->names[s], sizeof r->names[s]);
        json_array_append_new(jn, json_string(r->names[s]));
        r->bank_ms[s] = r->o->clocks.bank_ms;
    }
    json_t *m = r->meta;
    json_object_set_new(m, "names", jn);
    json_object_set_new(m, "players", json_integer(r->players));
    json_object_set_new(m, "rules", json_string(rd->rules.preset));
    json_object_set_new(m, "seat", json_integer(r->o->seat));
    json_object_set_new(m, "deal", json_integer(json_integer_value(json_object_get(h, "deal"))));
    json_object_set_new(m, "rotation",
                        json_integer(json_integer_value(json_object_get(h, "rotation"))));
    if (r->o->seat == AV_SPECTATOR) {
        /* the host's page: the ids that find the game again */
        const char *id = ar_record_str(h, "game_id");
        json_object_set_new(m, "game", json_string(r->o->no_seed ? av_public_id(id) : id));
        char sd[32];
        snprintf(sd, sizeof sd, "%llu", (unsigned long long)rd->seed);
        if (!r->o->no_seed)
            json_object_set_new(m, "seed", json_string(sd));
        json_object_set_new(m, "options", json_string(ar_record_str(h, "options")));
    }
    /* the clock each decision is measured against (the page says "took 12 ms of 1000 ms
     * free", and when the bank was used) */
    if (r->o->clocks.decision_ms > 0 || r->o->clocks.bank_ms > 0)
        json_object_set_new(m, "clocks",
                            json_pack("{s:f,s:f}", "decision", r->o->clocks.decision_ms, "bank",
                                      r->o->clocks.bank_ms));
    json_t *f = table_frame(r, "deal", 0);
    json_object_set_new(f, "txt", json_string("hand 1 is dealt"));
    return 0;
}

static int walk(rp *r, FILE *in, const char *path)
{
    const ar_record_visitor v = {
        .ctx = r,
        .header = on_header,
        .dealt = on_dealt,
        .before_action = before_action,
        .action = on_action,
        .hand_end = on_hand_end,
        .verdict = on_verdict,
        .result = on_result,
        .partial = r->o->partial,
    };
    return ar_record_read(in, path, &v, r->rd) == 0 ? 0 : -1;
}

/* ---- The page ----------------------------------------------------------------------------- */

typedef struct page {
    rp *r;
    json_t *data;
} page;

static int fill(void *ctx, FILE *out, const char *name)
{
    page *p = ctx;
    if (strcmp(name, "CSS") == 0) {
        av_write_table_css(out); /* the table as the play page draws it too */
        fwrite(av_asset_replay_css, 1, av_asset_replay_css_len, out);
    } else if (strcmp(name, "JS") == 0) {
        av_write_table_js(out);
        fwrite(av_asset_replay_js, 1, av_asset_replay_js_len, out);
    } else if (strcmp(name, "DATA") == 0)
        return av_json_script(out, p->data);
    else if (strcmp(name, "TITLE") == 0) {
        const rp *r = p->r;
        fputs("okarena replay: ", out);
        for (int s = 0; s < r->players; s++) {
            if (s)
                fputs(" v ", out);
            av_html_text(out, r->names[s]);
        }
        if (r->o->seat >= 0) {
            fputs(" (as seen by ", out);
            av_html_text(out, r->names[r->o->seat]);
            fputs(")", out);
        }
    } else
        fprintf(out, "@%s@", name);
    return 0;
}

static json_t *views(const rp *r)
{
    json_t *v = json_array();
    const char *base = r->o->base;
    char href[512], label[128];
    snprintf(href, sizeof href, "%s.html", base);
    json_array_append_new(v, json_pack("{s:s,s:s,s:b}", "label", "Referee (every hand)", "href",
                                       href, "on", r->o->seat == AV_SPECTATOR));
    for (int s = 0; s < r->players; s++) {
        snprintf(href, sizeof href, "%s.seat%d.html", av_public_id(base), s);
        snprintf(label, sizeof label, "Seat %d: %s", s, r->names[s]);
        json_array_append_new(
            v, json_pack("{s:s,s:s,s:b}", "label", label, "href", href, "on", r->o->seat == s));
    }
    return v;
}

int av_replay_html(const char *path, const av_replay_opts *o, FILE *out, char *err, size_t cap)
{
    rp *r = ar_xcalloc(1, sizeof *r);
    r->o = o;
    r->rd = ar_xcalloc(1, sizeof *r->rd);
    r->frames = json_array();
    r->meta = json_object();
    r->prev = json_object();
    int rc = -1;
    FILE *in = fopen(path, "r");
    if (!in) {
        snprintf(err, cap, "%s: %s", path, strerror(errno));
    } else {
        rc = walk(r, in, path);
        fclose(in);
        if (rc != 0)
            snprintf(err, cap, "%s", r->rd->err);
    }
    if (rc == 0) {
        /* the referee's page is named after the game id, which names the seed: only the
         * referee's page links its siblings (a seat's page is named without the seed) */
        if (o->base && o->seat == AV_SPECTATOR)
            json_object_set_new(r->meta, "views", views(r));
        if (o->back)
            json_object_set_new(r->meta, "back", json_string(o->back));
        if (o->back && o->back_label)
            json_object_set_new(r->meta, "back_label", json_string(o->back_label));
        json_object_set_new(r->meta, "v", json_integer(1));
        json_object_set(r->meta, "frames", r->frames);
        page p = {r, r->meta};
        rc = av_template(out, av_asset_replay_html, av_asset_replay_html_len, fill, &p);
        if (rc == 0 && (fflush(out) != 0 || ferror(out))) {
            snprintf(err, cap, "cannot write the page: %s", strerror(errno));
            rc = -1;
        }
    }
    json_decref(r->frames);
    json_decref(r->meta);
    json_decref(r->prev);
    free(r->legal);
    free(r->rd);
    free(r);
    return rc;
}

av_clocks av_folder_clocks(const char *dir)
{
    av_clocks c = {0, 0};
    char path[4096];
    snprintf(path, sizeof path, "%s/results.json", dir);
    json_t *j = json_load_file(path, 0, NULL);
    if (!j)
        return c;
    json_t *cl = json_object_get(j, "clocks"); /* a match */
    if (!cl)
        cl = json_object_get(json_object_get(j, "config"), "clocks"); /* a tournament */
    c.decision_ms = json_number_value(json_object_get(cl, "decision_ms"));
    c.bank_ms = json_number_value(json_object_get(cl, "bank_ms"));
    json_decref(j);
    return c;
}
