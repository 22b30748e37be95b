/* record_read.c - one reader of game records for every tool that opens them (record_read.h).
 * Every value comes from a file and is treated as hostile: seats are range-checked before they
 * index anything or become a shift count, and actions go through the engine's parser. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "json_out.h"
#include "record.h"
#include "record_read.h"

int ar_record_fail(ar_record_reader *rd, const char *fmt, ...)
{
    int k = snprintf(rd->err, sizeof rd->err, "%s:%ld: ", rd->path, rd->line);
    if (k < 0 || (size_t)k >= sizeof rd->err)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rd->err + k, sizeof rd->err - (size_t)k, fmt, ap);
    va_end(ap);
    return -1;
}

const char *ar_record_str(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

static int ints_equal(json_t *arr, const int32_t *v, int n)
{
    if (!json_is_array(arr) || (int)json_array_size(arr) != n)
        return 0;
    for (int i = 0; i < n; i++)
        if (json_integer_value(json_array_get(arr, (size_t)i)) != v[i])
            return 0;
    return 1;
}

static void digest_hex(const okr_game *g, char d[24])
{
    snprintf(d, 24, "%016llx", (unsigned long long)okr_digest(g));
}

static int header(ar_record_reader *rd, const ar_record_visitor *v, json_t *h)
{
    okr_refusal why;
    memset(&why, 0, sizeof why);
    if (strcmp(ar_record_str(h, "type"), "header") != 0)
        return ar_record_fail(rd, "the first line is not a record header");
    if (okr_rules_preset(&rd->rules, ar_record_str(h, "rules"), &why) != OKR_OK)
        return ar_record_fail(rd, "rules '%s': %s", ar_record_str(h, "rules"), why.reason);
    /* options: "name=value name=value ..." */
    size_t n = strlen(ar_record_str(h, "options"));
    char *opts = malloc(n + 1);
    if (!opts)
        return ar_record_fail(rd, "out of memory");
    memcpy(opts, ar_record_str(h, "options"), n + 1);
    char *save = NULL;
    for (char *tok = strtok_r(opts, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq)
            continue;
        *eq = '\0';
        memset(&why, 0, sizeof why);
        if (okr_rules_set(&rd->rules, tok, eq + 1, &why) != OKR_OK) {
            int rc = ar_record_fail(rd, "option %s: %s", tok, why.reason);
            free(opts);
            return rc;
        }
    }
    free(opts);
    snprintf(rd->game_id, sizeof rd->game_id, "%s", ar_record_str(h, "game_id"));
    json_int_t players = json_integer_value(json_object_get(h, "players"));
    if (players < 1 || players > OKR_MAX_PLAYERS)
        return ar_record_fail(rd, "players %lld", (long long)players);
    rd->players = (int)players;
    json_t *names = json_object_get(h, "names");
    for (int s = 0; s < rd->players; s++) {
        const char *nm = json_string_value(json_array_get(names, (size_t)s));
        snprintf(rd->names[s], sizeof rd->names[s], "%s", nm ? nm : "?");
    }
    /* the seed is written as a string (JSON numbers lose 64-bit integers in most readers);
     * older records have a number */
    json_t *sv = json_object_get(h, "seed");
    rd->seed = json_is_integer(sv)  ? (uint64_t)json_integer_value(sv)
               : json_is_string(sv) ? strtoull(json_string_value(sv), NULL, 10)
                                    : 0;
    memset(&why, 0, sizeof why);
    if (okr_game_init(&rd->g, &rd->rules, rd->players, rd->seed, NULL, 0, &why) != OKR_OK)
        return ar_record_fail(rd, "the engine cannot start the game: %s", why.reason);
    return v->header ? v->header(v->ctx, rd, h) : 0;
}

static int deal_next(ar_record_reader *rd, const ar_record_visitor *v)
{
    okr_refusal why;
    memset(&why, 0, sizeof why);
    if (okr_next_hand(&rd->g, NULL, 0, &why) != OKR_OK)
        return ar_record_fail(rd, "cannot deal the next hand: %s", why.reason);
    return v->dealt ? v->dealt(v->ctx, rd) : 0;
}

static int action(ar_record_reader *rd, const ar_record_visitor *v, json_t *j)
{
    int rc;
    if (rd->g.phase == OKR_PH_HAND_OVER && (rc = deal_next(rd, v)) != 0)
        return rc;
    if (rd->g.phase == OKR_PH_GAME_OVER)
        return ar_record_fail(rd, "an action after the end of the game");
    json_int_t seat = json_integer_value(json_object_get(j, "seat"));
    const char *text = ar_record_str(j, "action");
    if (seat != rd->g.to_act)
        return ar_record_fail(rd, "seat %lld acts, but seat %d must act", (long long)seat,
                              rd->g.to_act);
    if (v->before_action && (rc = v->before_action(v->ctx, rd, j, (int)seat)) != 0)
        return rc;
    okr_action a;
    okr_refusal why;
    memset(&a, 0, sizeof a);
    memset(&why, 0, sizeof why);
    if (okr_action_parse(&rd->g, text, &a, &why) != OKR_OK)
        return ar_record_fail(rd, "cannot read the action '%s': %s", text, why.reason);
    okr_event ev;
    memset(&why, 0, sizeof why);
    if (okr_apply(&rd->g, &a, &ev, &why) != OKR_OK)
        return ar_record_fail(rd, "the engine refuses '%s' (RULES %s): %s", text, why.rule,
                              why.reason);
    rd->actions++;
    return v->action ? v->action(v->ctx, rd, j, (int)seat, &a, &ev) : 0;
}

static int hand_end(ar_record_reader *rd, const ar_record_visitor *v, json_t *j)
{
    const okr_game *g = &rd->g;
    long long hand = (long long)json_integer_value(json_object_get(j, "hand"));
    if (g->phase != OKR_PH_HAND_OVER && g->phase != OKR_PH_GAME_OVER)
        return ar_record_fail(rd, "the record ends hand %lld, the engine's hand %d is still on",
                              hand, g->hand_no);
    if (hand != g->hand_no)
        return ar_record_fail(rd, "hand number %lld, the engine is at %d", hand, g->hand_no);
    if (!ints_equal(json_object_get(j, "scores"), g->last.score, rd->players) ||
        !ints_equal(json_object_get(j, "totals"), g->last.total, rd->players))
        return ar_record_fail(rd, "hand %d scores differ from the engine's", g->hand_no);
    /* a gin knock's showdown: records before protocol 1.1 have none; when there, it must be
     * the engine's */
    json_t *sd = json_object_get(j, "showdown");
    if (sd) {
        json_t *mine = ar_json_showdown(&g->last);
        int same = json_equal(sd, mine);
        json_decref(mine);
        if (!same)
            return ar_record_fail(rd, "hand %d: the knock's showdown differs from the engine's",
                                  g->hand_no);
    }
    digest_hex(g, rd->digest);
    if (strcmp(rd->digest, ar_record_str(j, "digest")) != 0)
        return ar_record_fail(rd, "hand %d digest %s, the engine's is %s", g->hand_no,
                              ar_record_str(j, "digest"), rd->digest);
    rd->hands_checked++;
    return v->hand_end ? v->hand_end(v->ctx, rd, j) : 0;
}

static int verdict(ar_record_reader *rd, const ar_record_visitor *v, json_t *j)
{
    json_t *sv = json_object_get(j, "seat");
    json_int_t seat = json_integer_value(sv);
    if (!json_is_integer(sv) || seat < 0 || seat >= rd->players)
        return ar_record_fail(rd, "a verdict for seat %lld", (long long)seat);
    return v->verdict ? v->verdict(v->ctx, rd, j, (int)seat) : 0;
}

static int result(ar_record_reader *rd, const ar_record_visitor *v, json_t *j)
{
    unsigned winners = 0;
    int rc;
    rd->completed = json_is_true(json_object_get(j, "completed"));
    /* a game that stopped right after a hand was dealt: deal it here too */
    json_int_t hand = json_integer_value(json_object_get(j, "hand"));
    if (rd->g.phase == OKR_PH_HAND_OVER && hand > rd->g.hand_no && (rc = deal_next(rd, v)) != 0)
        return rc;
    if (rd->completed) {
        if (rd->g.phase != OKR_PH_GAME_OVER)
            return ar_record_fail(rd, "the record says the game ended; the engine's is in phase %s",
                                  ar_phase_name(rd->g.phase));
        memcpy(rd->final_total, rd->g.result.final_total, sizeof rd->final_total);
        memcpy(rd->placement, rd->g.result.placement, sizeof rd->placement);
    } else {
        int32_t so_far[OKR_MAX_PLAYERS];
        unsigned forfeits = 0;
        json_t *ff = json_object_get(j, "forfeits");
        if (!json_is_array(ff))
            return ar_record_fail(rd, "forfeits: not a list of seats");
        /* seat numbers from the file: checked before they become a shift count */
        for (size_t i = 0; i < json_array_size(ff); i++) {
            json_t *s = json_array_get(ff, i);
            json_int_t k = json_integer_value(s);
            if (!json_is_integer(s) || k < 0 || k >= rd->players)
                return ar_record_fail(rd, "forfeits: item %zu is not a seat of this %d-seat game",
                                      i + 1, rd->players);
            if (forfeits & (1u << k))
                return ar_record_fail(rd, "forfeits: seat %lld is listed twice", (long long)k);
            forfeits |= 1u << k;
        }
        for (int s = 0; s < rd->players; s++)
            so_far[s] = rd->g.score[s] + rd->g.concealed[s];
        /* the margin the arena used (absent: an arena before 0.3, margin 0); any other
         * value than the rules' own would be a forged result */
        json_t *mj = json_object_get(j, "forfeit_margin");
        int32_t margin = 0;
        if (mj) {
            margin = ar_forfeit_margin(&rd->rules);
            if (!json_is_integer(mj) || json_integer_value(mj) != margin)
                return ar_record_fail(rd, "forfeit_margin: expected %ld for these rules",
                                      (long)margin);
        }
        ar_forfeit_result(rd->players, so_far, forfeits, margin, rd->final_total, rd->placement,
                          &winners);
    }
    if (!ints_equal(json_object_get(j, "final_total"), rd->final_total, rd->players))
        return ar_record_fail(rd, "final totals differ from the engine's");
    json_t *pl = json_object_get(j, "placements");
    for (int s = 0; s < rd->players; s++)
        if (json_integer_value(json_array_get(pl, (size_t)s)) != rd->placement[s])
            return ar_record_fail(rd, "placements differ from the engine's");
    digest_hex(&rd->g, rd->digest);
    if (strcmp(rd->digest, ar_record_str(j, "digest")) != 0)
        return ar_record_fail(rd, "final digest %s, the engine's is %s", ar_record_str(j, "digest"),
                              rd->digest);
    return v->result ? v->result(v->ctx, rd, j) : 0;
}

int ar_record_read(FILE *f, const char *path, const ar_record_visitor *v, ar_record_reader *rd)
{
    memset(rd, 0, sizeof *rd);
    rd->path = path;
    char *buf = NULL;
    size_t cap = 0;
    ssize_t n;
    int rc = 0, have_header = 0, have_result = 0;
    while (rc == 0 && (n = getline(&buf, &cap, f)) >= 0) {
        rd->line++;
        if (n == 0 || buf[0] == '\n')
            continue;
        json_error_t err;
        json_t *j = json_loads(buf, 0, &err);
        if (!json_is_object(j)) {
            rc = ar_record_fail(rd, "not a JSON object: %s", j ? "wrong type" : err.text);
            json_decref(j);
            break;
        }
        const char *type = ar_record_str(j, "type");
        if (!have_header) {
            rc = header(rd, v, j);
            have_header = 1;
        } else if (have_result) {
            rc = ar_record_fail(rd, "a line after the result");
        } else if (strcmp(type, "action") == 0) {
            rc = action(rd, v, j);
        } else if (strcmp(type, "hand_end") == 0) {
            rc = hand_end(rd, v, j);
        } else if (strcmp(type, "verdict") == 0) {
            rc = verdict(rd, v, j);
        } else if (strcmp(type, "result") == 0) {
            rc = result(rd, v, j);
            have_result = 1;
        } else if (strcmp(type, "aborted") == 0) {
            rc = v->aborted ? v->aborted(v->ctx, rd, j)
                            : ar_record_fail(rd, "the game was not finished (%s)",
                                             ar_record_str(j, "reason"));
            have_result = 1;
        } else {
            rc = ar_record_fail(rd, "unknown line type '%s'", type);
        }
        json_decref(j);
    }
    free(buf);
    if (rc == 0 && !have_header)
        rc = ar_record_fail(rd, "empty record");
    else if (rc == 0 && !have_result && !v->partial)
        rc = ar_record_fail(rd, "the record has no result line (cut short?)");
    return rc;
}
