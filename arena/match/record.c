/* record.c - game records, games.jsonl, results.json and the summary table; t-intervals and
 * forfeit placements. Output only: this file never talks to a bot. */
#include "record.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "json_out.h"
#include "util/util.h"

/* ---- Statistics ---------------------------------------------------------------------------- */

double ar_t975(int df)
{
    static const double table[31] = {NAN,   12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365,
                                     2.306, 2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
                                     2.120, 2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069,
                                     2.064, 2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
    if (df < 1)
        return NAN;
    if (df <= 30)
        return table[df];
    /* Cornish-Fisher expansion of t around the normal quantile (Abramowitz & Stegun 26.7.5) */
    const double z = 1.959963984540054;
    double n = df, z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z;
    return z + (z3 + z) / (4 * n) + (5 * z5 + 16 * z3 + 3 * z) / (96 * n * n) +
           (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * n * n * n);
}

void ar_mean_ci(const double *x, int n, double *mean, double *half)
{
    *mean = NAN;
    *half = NAN;
    if (n < 1)
        return;
    double s = 0;
    for (int i = 0; i < n; i++)
        s += x[i];
    double m = s / n;
    *mean = m;
    if (n < 2)
        return;
    double ss = 0;
    for (int i = 0; i < n; i++)
        ss += (x[i] - m) * (x[i] - m);
    double sd = sqrt(ss / (n - 1));
    *half = ar_t975(n - 1) * sd / sqrt((double)n);
}

int32_t ar_forfeit_margin(const okr_rules *r)
{
    int64_t m;
    if (r->target > 0) {
        m = 2 * ((int64_t)r->target + r->winner_bonus);
    } else {
        int64_t reach = r->family == OKR_FAMILY_GIN ? (r->spade_double ? 200 : 100) : 500;
        m = 2 * (int64_t)(r->max_hands ? r->max_hands : 1) * reach;
    }
    return m > 100000000 ? 100000000 : (int32_t)m;
}

void ar_forfeit_result(int players, const int32_t *so_far, unsigned forfeits, int32_t margin,
                       int32_t *final_total, uint8_t *placement, unsigned *winners)
{
    int nf = 0, have_other = 0;
    int32_t low = 0;
    for (int s = 0; s < players; s++) {
        if (forfeits & (1u << s)) {
            nf++;
        } else if (!have_other || so_far[s] < low) {
            low = so_far[s];
            have_other = 1;
        }
    }
    *winners = 0;
    for (int s = 0; s < players; s++) {
        if (forfeits & (1u << s)) {
            /* RULES-free Decision (docs/rules.md "Forfeits"): below everybody and below what
             * the seat had, by the margin, so crashing never improves a result */
            int32_t base = have_other && low < so_far[s] ? low : so_far[s];
            final_total[s] = base - margin;
            placement[s] = (uint8_t)(players - nf + 1);
            continue;
        }
        final_total[s] = so_far[s];
        int better = 0;
        for (int t = 0; t < players; t++)
            if (!(forfeits & (1u << t)) && so_far[t] > so_far[s])
                better++;
        placement[s] = (uint8_t)(better + 1);
        if (better == 0)
            *winners |= 1u << s;
    }
}

/* ---- JSON helpers ---------------------------------------------------------------------------- */

static json_t *json_u64(uint64_t v)
{
    if (v <= (uint64_t)INT64_MAX)
        return json_integer((json_int_t)v);
    char s[32];
    snprintf(s, sizeof s, "%llu", (unsigned long long)v);
    return json_string(s);
}

static json_t *json_num(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* A JSON number rounded to 3 decimals (milliseconds to the microsecond). */
static json_t *json_ms(double v)
{
    return isfinite(v) ? json_real(round(v * 1000.0) / 1000.0) : json_null();
}

static json_t *verdict_json(const ar_seat_verdict *v, const ar_game_outcome *o)
{
    json_t *j = json_object();
    json_object_set_new(j, "seat", json_integer(v->seat));
    if (o)
        json_object_set_new(j, "bot", json_integer(o->entrant[v->seat]));
    json_object_set_new(j, "verdict", json_string(ar_verdict_name(v->v.kind)));
    if (v->v.clock[0])
        json_object_set_new(j, "clock", json_string(v->v.clock));
    if (v->v.rule[0])
        json_object_set_new(j, "rule", json_string(v->v.rule));
    json_object_set_new(j, "detail", json_string(v->v.detail));
    json_object_set_new(j, "hand", json_integer(v->hand));
    json_object_set_new(j, "action", json_integer(v->action));
    if (o && v->seat >= 0 && v->seat < o->players && o->log[v->seat])
        json_object_set_new(j, "log", json_string(o->log[v->seat]));
    return j;
}

static int dump_line(json_t *doc, FILE *f)
{
    if (!doc || json_dumpf(doc, f, JSON_COMPACT) != 0 || fputc('\n', f) == EOF)
        return -EIO;
    return 0;
}

/* Write s as a JSON string (s is our own text: notation, names). */
static void put_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* ---- Game records ---------------------------------------------------------------------------- */

struct ar_record {
    FILE *f;
    char *path;
    int players;
    int live;
    int unsynced;       /* live: lines in the FILE buffer, not written yet */
    double synced_ms;   /* live: when the buffer was last written */
    char pending[2048]; /* the last action line, not written yet (notation, note) */
    size_t pending_len;
};

ar_record *ar_record_open(const char *path, const ar_record_header *h)
{
    if (!path)
        return NULL;
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "arena: cannot write the game record '%s': %s\n", path, strerror(errno));
        return NULL;
    }
    setvbuf(f, NULL, _IOFBF, 1 << 16); /* a write() per ~900 actions, not per ~60 */
    ar_record *r = ar_xcalloc(1, sizeof *r);
    r->f = f;
    r->path = ar_xstrdup(path);
    r->players = h->players;
    r->live = h->live;

    char options[1024];
    if (okr_rules_format(h->rules, options, sizeof options) < 0)
        options[0] = '\0';
    json_t *j = json_object();
    json_object_set_new(j, "type", json_string("header"));
    json_object_set_new(j, "format", json_string("okr-record 1"));
    json_object_set_new(j, "game_id", json_string(h->game_id));
    json_object_set_new(j, "rules", json_string(h->rules->preset));
    json_object_set_new(j, "options", json_string(options));
    json_object_set_new(j, "players", json_integer(h->players));
    json_object_set_new(j, "seed", json_u64(h->deal_seed));
    json_object_set_new(j, "match_seed", json_u64(h->match_seed));
    json_object_set_new(j, "deal", json_integer(h->deal));
    json_object_set_new(j, "rotation", json_integer(h->rotation));
    if (h->practice)
        json_object_set_new(
            j, "practice",
            json_pack("{s:b,s:i}", "takebacks_allowed", 1, "takebacks", h->takebacks));
    json_t *names = json_array(), *bots = json_array();
    for (int s = 0; s < h->players; s++) {
        json_array_append_new(names, json_string(h->names[s]));
        json_array_append_new(bots, json_integer(h->entrant[s]));
    }
    json_object_set_new(j, "seating", bots);
    json_object_set_new(j, "names", names);
    json_object_set_new(j, "on_error", json_string(h->on_error ? h->on_error : ""));
    json_object_set_new(j, "arena_version", json_string(AR_VERSION));
    dump_line(j, f);
    json_decref(j);
    return r;
}

/* Append s to the line as a JSON string (s is our own text: notation, names). */
static size_t json_str_into(char *out, size_t k, size_t cap, const char *s)
{
    if (k < cap)
        out[k++] = '"';
    for (; *s && k + 8 < cap; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            out[k++] = '\\';
            out[k++] = (char)c;
        } else if (c < 0x20) {
            k += (size_t)snprintf(out + k, cap - k, "\\u%04x", c);
        } else {
            out[k++] = (char)c;
        }
    }
    if (k < cap)
        out[k++] = '"';
    return k;
}

static size_t put_uint(char *out, size_t k, unsigned long long v)
{
    char tmp[24];
    int n = 0;
    do
        tmp[n++] = (char)('0' + v % 10);
    while ((v /= 10) > 0);
    while (n > 0)
        out[k++] = tmp[--n];
    return k;
}

static size_t put_str(char *out, size_t k, const char *s)
{
    size_t n = strlen(s);
    memcpy(out + k, s, n);
    return k + n;
}

int ar_record_flush(ar_record *r)
{
    if (!r)
        return 0;
    if (r->pending_len) {
        fwrite(r->pending, 1, r->pending_len, r->f);
        r->pending_len = 0;
        r->unsynced = 1;
    }
    if (!r->live || !r->unsynced)
        return 0;
    /* a time check per line, a write per AR_RECORD_LIVE_MS */
    if (ar_now_ms() - r->synced_ms >= AR_RECORD_LIVE_MS) {
        ar_record_sync(r);
        return 0;
    }
    return 1;
}

void ar_record_sync(ar_record *r)
{
    if (!r || !r->live)
        return;
    fflush(r->f);
    r->unsynced = 0;
    r->synced_ms = ar_now_ms();
}

int ar_note_clean(const char *in, size_t n, char out[AR_NOTE_MAX + 1])
{
    const unsigned char *s = (const unsigned char *)in;
    size_t i = 0, k = 0;
    int changed = 0;
    while (i < n) {
        unsigned char c = s[i];
        size_t len = c < 0x80             ? 1
                     : (c & 0xE0) == 0xC0 ? 2
                     : (c & 0xF0) == 0xE0 ? 3
                     : (c & 0xF8) == 0xF0 ? 4
                                          : 0;
        /* one whole, shortest-form character of at most U+10FFFF, not a surrogate */
        int ok = len > 0 && i + len <= n;
        for (size_t j = 1; ok && j < len; j++)
            ok = (s[i + j] & 0xC0) == 0x80;
        if (ok && len == 2)
            ok = c >= 0xC2;
        if (ok && len == 3)
            ok = !(c == 0xE0 && s[i + 1] < 0xA0) && !(c == 0xED && s[i + 1] >= 0xA0);
        if (ok && len == 4)
            ok = !(c == 0xF0 && s[i + 1] < 0x90) && !(c == 0xF4 && s[i + 1] >= 0x90) && c <= 0xF4;
        if (!ok || k + len > AR_NOTE_MAX) {
            changed = 1; /* invalid or too long: keep the prefix before it */
            break;
        }
        if (len == 1 && (c < 0x20 || c == 0x7F)) {
            out[k++] = ' '; /* a newline or an escape sequence would garble a log or a line */
            changed = 1;
        } else {
            memcpy(out + k, s + i, len);
            k += len;
        }
        i += len;
    }
    out[k] = '\0';
    return changed;
}

void ar_record_action(ar_record *r, long long n, int hand, int seat, const char *text, double ms,
                      const char *substituted, const char *note)
{
    if (!r)
        return;
    ar_record_flush(r);
    /* built by hand, without printf: one line per action is the hot path of a record, and the
     * line is only written out after the next Decision has gone (ar_record_flush) */
    char *o = r->pending;
    size_t k = put_str(o, 0, "{\"type\":\"action\",\"n\":");
    k = put_uint(o, k, (unsigned long long)(n < 0 ? 0 : n));
    k = put_str(o, k, ",\"hand\":");
    k = put_uint(o, k, (unsigned long long)(hand < 0 ? 0 : hand));
    k = put_str(o, k, ",\"seat\":");
    k = put_uint(o, k, (unsigned long long)(seat < 0 ? 0 : seat));
    k = put_str(o, k, ",\"action\":");
    k = json_str_into(o, k, sizeof r->pending - 64, text);
    if (ms >= 0) {
        unsigned long long us = (unsigned long long)llround(ms * 1000.0);
        k = put_str(o, k, ",\"ms\":");
        k = put_uint(o, k, us / 1000);
        o[k++] = '.';
        o[k++] = (char)('0' + us / 100 % 10);
        o[k++] = (char)('0' + us / 10 % 10);
        o[k++] = (char)('0' + us % 10);
    }
    if (substituted && substituted[0]) {
        k = put_str(o, k, ",\"substituted\":");
        k = json_str_into(o, k, sizeof r->pending - 4, substituted);
    }
    if (note && note[0]) {
        k = put_str(o, k, ",\"note\":");
        k = json_str_into(o, k, sizeof r->pending - 4, note);
    }
    o[k++] = '}';
    o[k++] = '\n';
    r->pending_len = k;
}

void ar_record_hand_end(ar_record *r, const okr_game *g)
{
    if (!r)
        return;
    ar_record_flush(r);
    json_t *j = json_object();
    json_object_set_new(j, "type", json_string("hand_end"));
    json_object_set_new(j, "hand", json_integer(g->hand_no));
    json_object_set_new(j, "ended", json_string(ar_end_name(g->last.ended)));
    json_object_set_new(j, "winner", json_integer(g->last.winner));
    json_object_set_new(j, "scores", ar_json_ints(g->last.score, g->players));
    json_object_set_new(j, "totals", ar_json_ints(g->last.total, g->players));
    json_t *sd = ar_json_showdown(&g->last); /* since protocol 1.1 */
    if (sd)
        json_object_set_new(j, "showdown", sd);
    char d[24];
    snprintf(d, sizeof d, "%016llx", (unsigned long long)okr_digest(g));
    json_object_set_new(j, "digest", json_string(d));
    dump_line(j, r->f);
    json_decref(j);
}

void ar_record_verdict(ar_record *r, const ar_seat_verdict *v)
{
    if (!r)
        return;
    ar_record_flush(r);
    json_t *j = verdict_json(v, NULL);
    json_object_set_new(j, "type", json_string("verdict"));
    dump_line(j, r->f);
    json_decref(j);
}

static json_t *outcome_core(const ar_game_outcome *o)
{
    json_t *j = json_object();
    json_object_set_new(j, "completed", json_boolean(o->completed));
    json_object_set_new(j, "final_total", ar_json_ints(o->final_total, o->players));
    json_t *pl = json_array(), *win = json_array(), *ff = json_array();
    for (int s = 0; s < o->players; s++) {
        json_array_append_new(pl, json_integer(o->placement[s]));
        if (o->winners & (1u << s))
            json_array_append_new(win, json_integer(s));
        if (o->forfeits & (1u << s))
            json_array_append_new(ff, json_integer(s));
    }
    json_object_set_new(j, "placements", pl);
    json_object_set_new(j, "winners", win);
    json_object_set_new(j, "forfeits", ff);
    if (!o->completed) /* the rule that made these totals: a reader recomputes them */
        json_object_set_new(j, "forfeit_margin", json_integer(o->forfeit_margin));
    return j;
}

void ar_record_abort(ar_record *r, const char *why)
{
    if (!r)
        return;
    ar_record_flush(r);
    fputs("{\"type\":\"aborted\",\"reason\":", r->f);
    put_json_string(r->f, why);
    fputs("}\n", r->f);
    fclose(r->f);
    free(r->path);
    free(r);
}

int ar_record_close(ar_record *r, const ar_game_outcome *o)
{
    if (!r)
        return 0;
    ar_record_flush(r);
    json_t *j = outcome_core(o);
    json_object_set_new(j, "type", json_string("result"));
    json_object_set_new(j, "actions", json_integer(o->actions));
    json_object_set_new(j, "hands", json_integer(o->nhands));
    json_object_set_new(j, "hand", json_integer(o->hand));
    char d[24];
    snprintf(d, sizeof d, "%016llx", (unsigned long long)o->digest);
    json_object_set_new(j, "digest", json_string(d));
    int rc = dump_line(j, r->f);
    json_decref(j);
    int err = ferror(r->f) ? errno : 0; /* a buffered write's cause (ENOSPC: a full disk) */
    if (fclose(r->f) != 0 && (rc == 0 || err == 0)) {
        err = errno;
        rc = -errno;
    }
    if (rc < 0)
        fprintf(stderr, "arena: cannot write the game record '%s': %s\n", r->path,
                strerror(err ? err : -rc));
    free(r->path);
    free(r);
    return rc;
}

/* ---- Results --------------------------------------------------------------------------------- */

typedef struct bot_acc {
    long long games;       /* games it took part in */
    long long appearances; /* seats it held, summed over games */
    long long wins;        /* appearances alone in 1st place of a completed game */
    long long draws;       /* appearances sharing 1st place of a completed game */
    long long places[OKR_MAX_PLAYERS];
    long long error_games;
    long long errors[AR_V_COUNT];
    long long left;     /* of errors[AR_V_RE]: a human seat that left the game (AR_LEFT_DETAIL) */
    long long forfeits; /* appearances that forfeited */
    long long substituted;
    long long notes_cut; /* notes cut to AR_NOTE_MAX bytes or cleaned (protocol 1.1) */
    long long decisions;
    double total_final, wall_ms, max_ms, game_cpu_ms;
    double *deal_sum; /* [deals]: summed score difference vs the field */
    int *deal_n;
} bot_acc;

/* A bot that erred in every game without making one decision (it never started, or died
 * before its first move): its zero score difference would read like an even match. */
static int never_played(const bot_acc *a)
{
    return a->games > 0 && a->decisions == 0 && a->error_games == a->games;
}

struct ar_results {
    ar_results_info info;
    okr_rules rules;
    char *out_dir, *records_dir;
    FILE *games; /* games.jsonl */
    long long ngames;
    bot_acc *acc;
    /* per process slot, for the table a person reads: one bot filling several seats (one
     * --bot in arena play) gets a row per seat, named as the play page names them */
    bot_acc *sacc;
    int slot_bot[OKR_MAX_PLAYERS]; /* the bot each slot ran, -1 before its first game */
    char **names, **commands, **profiles;
    int *slots;
};

ar_results *ar_results_new(const ar_results_info *info)
{
    ar_results *r = ar_xcalloc(1, sizeof *r);
    r->info = *info;
    r->rules = *info->rules;
    r->info.rules = &r->rules;
    r->acc = ar_xcalloc((size_t)info->nbots, sizeof *r->acc);
    r->sacc = ar_xcalloc(OKR_MAX_PLAYERS, sizeof *r->sacc);
    for (int k = 0; k < OKR_MAX_PLAYERS; k++) {
        r->slot_bot[k] = -1;
        r->sacc[k].deal_sum =
            ar_xcalloc((size_t)(info->deals > 0 ? info->deals : 1), sizeof(double));
        r->sacc[k].deal_n = ar_xcalloc((size_t)(info->deals > 0 ? info->deals : 1), sizeof(int));
    }
    r->names = ar_xcalloc((size_t)info->nbots, sizeof *r->names);
    r->commands = ar_xcalloc((size_t)info->nbots, sizeof *r->commands);
    r->slots = ar_xcalloc((size_t)info->nbots, sizeof *r->slots);
    r->profiles = ar_xcalloc((size_t)info->nbots, sizeof *r->profiles);
    long long deals = info->deals > 0 ? info->deals : 1;
    for (int b = 0; b < info->nbots; b++) {
        r->acc[b].deal_sum = ar_xcalloc((size_t)deals, sizeof(double));
        r->acc[b].deal_n = ar_xcalloc((size_t)deals, sizeof(int));
        r->names[b] = ar_xstrdup(info->names[b]);
        r->commands[b] = ar_xstrdup(info->commands[b]);
        r->slots[b] = info->slots[b];
        r->profiles[b] = ar_xstrdup(info->profiles && info->profiles[b] ? info->profiles[b] : "");
    }
    r->info.profiles = (const char *const *)r->profiles;
    r->info.names = (const char *const *)r->names;
    r->info.commands = (const char *const *)r->commands;
    r->info.slots = r->slots;
    r->info.out_dir = NULL;
    if (!info->out_dir)
        return r;

    r->out_dir = ar_xstrdup(info->out_dir);
    size_t n = strlen(info->out_dir) + 32;
    r->records_dir = ar_xmalloc(n);
    snprintf(r->records_dir, n, "%s/records", info->out_dir);
    int rc = ar_mkdir_p(r->records_dir);
    if (rc < 0) {
        fprintf(stderr, "arena: --out: cannot create '%s': %s\n", r->records_dir, strerror(-rc));
        goto err;
    }
    if (info->no_summary)
        return r;
    char *path = ar_xmalloc(n);
    snprintf(path, n, "%s/games.jsonl", info->out_dir);
    r->games = fopen(path, "w");
    if (!r->games) {
        fprintf(stderr, "arena: --out: cannot write '%s': %s\n", path, strerror(errno));
        free(path);
        goto err;
    }
    free(path);
    return r;
err:
    ar_results_free(r);
    return NULL;
}

void ar_results_free(ar_results *r)
{
    if (!r)
        return;
    if (r->games)
        fclose(r->games);
    for (int b = 0; b < r->info.nbots; b++) {
        free(r->acc[b].deal_sum);
        free(r->acc[b].deal_n);
        free(r->names[b]);
        free(r->profiles[b]);
        free(r->commands[b]);
    }
    for (int k = 0; k < OKR_MAX_PLAYERS; k++) {
        free(r->sacc[k].deal_sum);
        free(r->sacc[k].deal_n);
    }
    free(r->sacc);
    free(r->acc);
    free(r->names);
    free(r->profiles);
    free(r->commands);
    free(r->slots);
    free(r->out_dir);
    free(r->records_dir);
    free(r);
}

const char *ar_results_records_dir(const ar_results *r)
{
    return r->records_dir;
}

void ar_results_error_share(const ar_results *r, int b, long long *games, long long *error_games)
{
    *games = r->acc[b].games;
    *error_games = r->acc[b].error_games;
}

/* One seat of a game into a row's figures (a bot's, or a slot's). */
static void acc_seat(ar_results *r, bot_acc *a, const ar_game_outcome *o, int s)
{
    int n = o->players;
    a->appearances++;
    if (o->placement[s] == 1 && o->completed) {
        int firsts = 0;
        for (int t = 0; t < n; t++)
            firsts += o->placement[t] == 1;
        if (firsts == 1)
            a->wins++;
        else
            a->draws++;
    }
    if (o->placement[s] >= 1 && o->placement[s] <= n)
        a->places[o->placement[s] - 1]++;
    if (o->forfeits & (1u << s))
        a->forfeits++;
    a->total_final += o->final_total[s];
    a->decisions += o->decisions[s];
    a->wall_ms += o->wall_ms[s];
    if (o->max_ms[s] > a->max_ms)
        a->max_ms = o->max_ms[s];
    a->game_cpu_ms += o->cpu_ms[s];
    a->substituted += o->substituted[s];
    a->notes_cut += o->notes_cut[s];
    /* score difference vs the field: own total minus the mean of the other seats' */
    long long di = o->deal - r->info.first_deal;
    if (n > 1 && di >= 0 && di < (r->info.deals > 0 ? r->info.deals : 1)) {
        double others = 0;
        for (int t = 0; t < n; t++)
            if (t != s)
                others += o->final_total[t];
        a->deal_sum[di] += o->final_total[s] - others / (n - 1);
        a->deal_n[di]++;
    }
}

int ar_results_add(ar_results *r, const ar_game_outcome *o)
{
    int n = o->players;
    r->ngames++;
    /* bots: each counts a game once, every seat it held as an appearance */
    int seen[64] = {0};
    int erred[64] = {0};
    for (int i = 0; i < o->nverdicts; i++) {
        int b = o->entrant[o->verdicts[i].seat];
        if (b >= 0 && b < 64 && o->verdicts[i].v.kind != AR_V_DQ) {
            erred[b] = 1;
            if (o->verdicts[i].v.kind > 0 && o->verdicts[i].v.kind < AR_V_COUNT &&
                o->verdicts[i].v.kind != AR_V_DQ)
                r->acc[b].errors[o->verdicts[i].v.kind]++;
            if (ar_verdict_left(o->verdicts[i].v.kind, o->verdicts[i].v.detail))
                r->acc[b].left++;
        }
    }
    for (int s = 0; s < n; s++) {
        int b = o->entrant[s];
        if (b < 0 || b >= r->info.nbots)
            continue;
        bot_acc *a = &r->acc[b];
        if (b < 64 && !seen[b]) {
            seen[b] = 1;
            a->games++;
            if (erred[b])
                a->error_games++;
        }
        acc_seat(r, a, o, s);
        int k = o->slot[s];
        if (k >= 0 && k < OKR_MAX_PLAYERS) { /* a slot holds one seat a game */
            r->slot_bot[k] = b;
            bot_acc *sa = &r->sacc[k];
            sa->games++;
            int serr = 0;
            for (int i = 0; i < o->nverdicts; i++)
                if (o->verdicts[i].seat == s && o->verdicts[i].v.kind != AR_V_DQ) {
                    serr = 1;
                    int v = o->verdicts[i].v.kind;
                    if (v > 0 && v < AR_V_COUNT)
                        sa->errors[v]++;
                    sa->left += ar_verdict_left(v, o->verdicts[i].v.detail);
                }
            sa->error_games += serr;
            acc_seat(r, sa, o, s);
        }
    }

    if (!r->games)
        return 0;
    json_t *j = outcome_core(o);
    json_object_set_new(j, "game_id", json_string(o->game_id));
    json_object_set_new(j, "index", json_integer(o->index));
    json_object_set_new(j, "deal", json_integer(o->deal));
    json_object_set_new(j, "rotation", json_integer(o->rotation));
    json_object_set_new(j, "deal_seed", json_u64(o->deal_seed));
    json_t *seating = json_array(), *names = json_array();
    for (int s = 0; s < n; s++) {
        json_array_append_new(seating, json_integer(o->entrant[s]));
        json_array_append_new(names, json_string(r->names[o->entrant[s]]));
    }
    json_object_set_new(j, "seating", seating);
    json_object_set_new(j, "names", names);
    json_object_set_new(j, "rules", json_string(r->rules.preset));
    char options[1024];
    if (okr_rules_format(&r->rules, options, sizeof options) < 0)
        options[0] = '\0';
    json_object_set_new(j, "options", json_string(options));
    json_object_set_new(j, "played", json_boolean(o->played));
    json_t *hands = json_array();
    for (int h = 0; h < o->nhands; h++)
        json_array_append_new(hands, ar_json_ints(o->hand_scores[h], n));
    json_object_set_new(j, "hand_scores", hands);
    json_t *vs = json_array();
    for (int i = 0; i < o->nverdicts; i++)
        json_array_append_new(vs, verdict_json(&o->verdicts[i], o));
    json_object_set_new(j, "verdicts", vs);
    json_object_set_new(j, "actions", json_integer(o->actions));
    json_object_set_new(j, "seconds", json_ms(o->seconds));
    json_t *dec = json_array(), *cpu = json_array(), *sub = json_array();
    for (int s = 0; s < n; s++) {
        json_array_append_new(dec, json_integer(o->decisions[s]));
        json_array_append_new(cpu, json_ms(o->cpu_ms[s]));
        json_array_append_new(sub, json_integer(o->substituted[s]));
    }
    json_object_set_new(j, "decisions", dec);
    json_object_set_new(j, "cpu_ms", cpu);
    json_object_set_new(j, "substituted", sub);
    if (o->played) {
        char rec[300];
        snprintf(rec, sizeof rec, "records/%s.jsonl", o->game_id);
        json_object_set_new(j, "record", json_string(rec));
    }
    int rc = dump_line(j, r->games);
    json_decref(j);
    if (rc == 0 && fflush(r->games) != 0)
        rc = -errno;
    return rc;
}

/* Per-deal score differences of a row (a bot's or a slot's): out[k] for every deal it
 * played. Returns the count. */
static int acc_diffs(const ar_results *r, const bot_acc *a, double *out)
{
    int k = 0;
    long long deals = r->info.deals > 0 ? r->info.deals : 1;
    for (long long d = 0; d < deals; d++)
        if (a->deal_n[d] > 0)
            out[k++] = a->deal_sum[d] / a->deal_n[d];
    return k;
}

static int deal_diffs(const ar_results *r, int b, double *out)
{
    return acc_diffs(r, &r->acc[b], out);
}

int ar_results_finish(ar_results *r, const ar_match_totals *t)
{
    if (!r->out_dir || r->info.no_summary)
        return 0;
    json_t *doc = json_object();
    json_object_set_new(doc, "arena_version", json_string(AR_VERSION));
    json_t *rules = json_object();
    char options[1024];
    if (okr_rules_format(&r->rules, options, sizeof options) < 0)
        options[0] = '\0';
    json_object_set_new(rules, "preset", json_string(r->rules.preset));
    json_object_set_new(rules, "options", json_string(options));
    json_object_set_new(doc, "rules", rules);
    json_object_set_new(doc, "players", json_integer(r->info.players));
    json_object_set_new(doc, "seed", json_u64(r->info.seed));
    json_object_set_new(doc, "first_deal", json_integer(r->info.first_deal));
    json_object_set_new(doc, "deals", json_integer(r->info.deals));
    json_object_set_new(doc, "games_requested", json_integer(r->info.games_requested));
    json_object_set_new(doc, "hands", json_integer(r->info.hands));
    json_object_set_new(doc, "games_scheduled", json_integer(r->info.deals * r->info.players));
    json_object_set_new(doc, "games", json_integer(r->ngames));
    json_object_set_new(
        doc, "complete",
        json_boolean(!t->interrupted && r->ngames == r->info.deals * r->info.players));
    if (t->interrupted)
        json_object_set_new(doc, "interrupted_by", json_integer(t->interrupted));
    json_object_set_new(doc, "on_error", json_string(r->info.on_error));
    json_object_set_new(doc, "substitute", json_string(r->info.substitute));
    json_object_set_new(doc, "max_error_share", json_real(r->info.max_error_share));
    json_t *clocks = json_object();
    json_object_set_new(clocks, "startup_ms", json_integer(r->info.clocks.startup_ms));
    json_object_set_new(clocks, "decision_ms", json_integer(r->info.clocks.decision_ms));
    json_object_set_new(clocks, "bank_ms", json_integer(r->info.clocks.bank_ms));
    json_object_set_new(clocks, "hard_ms", json_integer(r->info.clocks.hard_ms));
    json_object_set_new(doc, "clocks", clocks);
    if (r->info.sandbox) {
        json_t *sb = json_object();
        json_object_set_new(sb, "mode", json_string(r->info.sandbox));
        json_object_set_new(sb, "memory_mb", json_integer(r->info.memory_mb));
        json_object_set_new(doc, "sandbox", sb);
    }
    json_object_set_new(doc, "seconds", json_ms(t->seconds));
    json_object_set_new(doc, "decisions", json_integer(t->decisions));
    json_object_set_new(doc, "actions", json_integer(t->actions));
    json_object_set_new(doc, "decisions_per_second",
                        json_num(t->seconds > 0 ? (double)t->decisions / t->seconds : NAN));
    json_object_set_new(doc, "bytes_to_bots", json_u64(t->bytes_to_bots));
    json_object_set_new(doc, "bytes_from_bots", json_u64(t->bytes_from_bots));
    json_object_set_new(doc, "arena_max_rss_kb", json_integer(t->arena_max_rss_kb));
    json_object_set_new(doc, "arena_user_ms", json_ms(t->arena_user_ms));
    json_object_set_new(doc, "arena_sys_ms", json_ms(t->arena_sys_ms));
    json_object_set_new(doc, "connection_bytes", json_u64(t->connection_bytes));

    json_t *bots = json_array();
    double *x = ar_xcalloc((size_t)(r->info.deals > 0 ? r->info.deals : 1), sizeof *x);
    for (int b = 0; b < r->info.nbots; b++) {
        const bot_acc *a = &r->acc[b];
        const ar_bot_summary *s = t->bots ? &t->bots[b] : NULL;
        json_t *j = json_object();
        json_object_set_new(j, "index", json_integer(b));
        json_object_set_new(j, "name", json_string(r->names[b]));
        json_object_set_new(j, "command", json_string(r->commands[b]));
        if (r->profiles[b][0])
            json_object_set_new(j, "profile", json_string(r->profiles[b]));
        json_object_set_new(j, "seats_per_game", json_integer(r->slots[b]));
        json_object_set_new(j, "games", json_integer(a->games));
        json_object_set_new(j, "appearances", json_integer(a->appearances));
        json_object_set_new(j, "wins", json_integer(a->wins));
        json_object_set_new(j, "draws", json_integer(a->draws));
        json_t *pl = json_array();
        for (int p = 0; p < r->info.players; p++)
            json_array_append_new(pl, json_integer(a->places[p]));
        json_object_set_new(j, "placements", pl);
        json_object_set_new(j, "total_final", json_integer((json_int_t)a->total_final));
        json_object_set_new(
            j, "mean_final",
            json_num(a->appearances ? a->total_final / (double)a->appearances : NAN));
        int k = deal_diffs(r, b, x);
        double mean, half;
        ar_mean_ci(x, k, &mean, &half);
        json_t *diff = json_object();
        json_object_set_new(diff, "mean", json_num(mean));
        json_object_set_new(diff, "half_width", json_num(half));
        json_t *ci = json_array();
        json_array_append_new(ci, json_num(mean - half));
        json_array_append_new(ci, json_num(mean + half));
        json_object_set_new(diff, "ci95", ci);
        json_object_set_new(diff, "deals", json_integer(k));
        json_object_set_new(j, "score_diff", diff);
        json_t *errs = json_object();
        for (int v = AR_V_FIRST_ERROR; v <= AR_V_LAST_ERROR; v++)
            json_object_set_new(errs, ar_verdict_name(v), json_integer(a->errors[v]));
        json_object_set_new(j, "errors", errs);
        json_object_set_new(j, "error_games", json_integer(a->error_games));
        json_object_set_new(j, "forfeits", json_integer(a->forfeits));
        json_object_set_new(j, "substituted_actions", json_integer(a->substituted));
        json_object_set_new(j, "notes_cut", json_integer(a->notes_cut));
        json_object_set_new(j, "disqualified", json_boolean(s && s->disqualified));
        if (s && s->disqualified)
            json_object_set_new(j, "disqualified_after_games", json_integer(s->dq_after));
        json_object_set_new(j, "cpu_ms", json_ms(s ? s->cpu_ms : a->game_cpu_ms));
        json_object_set_new(j, "game_cpu_ms", json_ms(a->game_cpu_ms));
        json_object_set_new(j, "wall_ms", json_ms(a->wall_ms));
        json_object_set_new(j, "decisions", json_integer(a->decisions));
        json_object_set_new(j, "never_played", json_boolean(never_played(a)));
        json_object_set_new(j, "mean_decision_ms",
                            json_ms(a->decisions ? a->wall_ms / (double)a->decisions : NAN));
        json_object_set_new(j, "max_decision_ms", json_ms(a->decisions ? a->max_ms : NAN));
        if (s) {
            json_object_set_new(j, "restarts", json_integer(s->restarts));
            json_object_set_new(j, "startup_ms", json_ms(s->startup_ms >= 0 ? s->startup_ms : NAN));
            json_object_set_new(j, "stderr_bytes", json_u64(s->log_bytes));
            json_t *id = json_object();
            json_object_set_new(id, "name", json_string(s->id_name));
            json_object_set_new(id, "version", json_string(s->id_version));
            char pv[32];
            snprintf(pv, sizeof pv, "%u.%u", s->major, s->minor);
            json_object_set_new(id, "protocol", json_string(pv));
            json_object_set_new(j, "identify", id);
        }
        json_array_append_new(bots, j);
    }
    free(x);
    json_object_set_new(doc, "bots", bots);

    size_t n = strlen(r->out_dir) + 32;
    char *path = ar_xmalloc(n), *tmp = ar_xmalloc(n + 8);
    snprintf(path, n, "%s/results.json", r->out_dir);
    snprintf(tmp, n + 8, "%s.tmp", path);
    int rc = 0;
    /* write then rename: a reader never sees half a file */
    if (json_dump_file(doc, tmp, JSON_INDENT(2) | JSON_ENSURE_ASCII) != 0 ||
        rename(tmp, path) != 0) {
        rc = -(errno ? errno : EIO);
        fprintf(stderr, "arena: cannot write '%s'\n", path);
    }
    json_decref(doc);
    free(path);
    free(tmp);
    return rc;
}

/* The one rounding rule of the figures people read (util's ar_fmt_num), as `arena report`
 * shows a match's figures: the same digits in the table and the report. */
static void fmt_signed(char *buf, size_t cap, double v)
{
    ar_fmt_num(buf, cap, v, 3, 1, 1);
}

/* One row of the table a person reads: a bot's (s: its summary) or one slot of it. */
static void print_row(FILE *out, const ar_results *r, const bot_acc *a, const char *name, int w,
                      const ar_bot_summary *s, double cpu, double *x)
{
    int n = r->info.players;
    char places[128] = "", *p = places;
    for (int i = 0; i < n; i++)
        p +=
            snprintf(p, sizeof places - (size_t)(p - places), "%s%lld", i ? " " : "", a->places[i]);
    int k = acc_diffs(r, a, x);
    double mean, half;
    ar_mean_ci(x, k, &mean, &half);
    char diff[128], m[32], lo[32], hi[32], mf[32];
    fmt_signed(m, sizeof m, mean);
    snprintf(mf, sizeof mf, "%.1f", a->appearances ? a->total_final / (double)a->appearances : 0.0);
    if (never_played(a)) {
        snprintf(diff, sizeof diff, "never played");
        snprintf(mf, sizeof mf, "-");
    } else if (isfinite(half)) {
        fmt_signed(lo, sizeof lo, mean - half);
        fmt_signed(hi, sizeof hi, mean + half);
        snprintf(diff, sizeof diff, "%s [%s, %s]", m, lo, hi);
    } else
        snprintf(diff, sizeof diff, "%s", m);
    char errs[256] = "", *e = errs;
    /* a person reads this table: leaving the game is said so, not as a crash (RE); the
     * JSON keeps counting it under RE */
    if (a->left)
        e += snprintf(e, sizeof errs, "left %lld", a->left);
    for (int v = AR_V_FIRST_ERROR; v <= AR_V_LAST_ERROR; v++) {
        long long c = a->errors[v] - (v == AR_V_RE ? a->left : 0);
        if (c > 0)
            e += snprintf(e, sizeof errs - (size_t)(e - errs), "%s%s %lld", e > errs ? " " : "",
                          ar_verdict_name(v), c);
    }
    if (s && s->disqualified)
        e += snprintf(e, sizeof errs - (size_t)(e - errs), "%sDQ", e > errs ? " " : "");
    if (!errs[0])
        snprintf(errs, sizeof errs, "-");
    fprintf(out, "%-*.*s %6lld %5lld  %-*s %10s  %-24s %-15s %9.0f %8.3f\n", w, w, name, a->games,
            a->wins, 4 * n, places, mf, diff, errs, cpu,
            a->decisions ? a->wall_ms / (double)a->decisions : 0.0);
}

void ar_results_print(const ar_results *r, const ar_match_totals *t, FILE *out)
{
    int n = r->info.players;
    long long scheduled = r->info.deals * n;
    if (r->info.max_games > 0 && r->info.max_games < scheduled) /* arena play: "1 of 1 games" */
        fprintf(out, "match: %s, %d players, %lld of %lld games, seed %llu, on-error %s\n",
                r->rules.preset, n, r->ngames, r->info.max_games, (unsigned long long)r->info.seed,
                r->info.on_error);
    else
        fprintf(out,
                "match: %s, %d players, %lld of %lld games (%lld deals x %d rotations), seed "
                "%llu, on-error %s\n",
                r->rules.preset, n, r->ngames, scheduled, r->info.deals, n,
                (unsigned long long)r->info.seed, r->info.on_error);
    /* one bot in several slots (one --bot filling the seats arena play leaves): a row per
     * slot, "greedy_bot", "greedy_bot#2", ... as the play page names the seats */
    int per_slot = 0;
    for (int b = 0; b < r->info.nbots; b++)
        per_slot |= r->slots[b] > 1;
    char sname[OKR_MAX_PLAYERS][96];
    for (int k = 0; per_slot && k < n && k < OKR_MAX_PLAYERS; k++) {
        int b = r->slot_bot[k], same = 1;
        for (int j = 0; j < k; j++)
            same += r->slot_bot[j] == b;
        if (b < 0)
            snprintf(sname[k], sizeof sname[k], "slot %d", k);
        else if (same > 1)
            snprintf(sname[k], sizeof sname[k], "%s#%d", r->names[b], same);
        else
            snprintf(sname[k], sizeof sname[k], "%s", r->names[b]);
    }
    int w = 4;
    for (int b = 0; b < r->info.nbots; b++) {
        int l = (int)strlen(r->names[b]) + (per_slot ? 3 : 0);
        if (l > w)
            w = l;
    }
    if (w > 24)
        w = 24;
    fprintf(out, "%-*s %6s %5s  %-*s %10s  %-24s %-15s %9s %8s\n", w, "bot", "games", "wins", 4 * n,
            "places 1st..", "mean_final", "diff vs field (95% CI)", "errors", "cpu_ms", "ms/dec");
    double *x = ar_xcalloc((size_t)(r->info.deals > 0 ? r->info.deals : 1), sizeof *x);
    if (per_slot)
        for (int k = 0; k < n && k < OKR_MAX_PLAYERS; k++) {
            int b = r->slot_bot[k];
            const ar_bot_summary *s = t && t->bots && b >= 0 ? &t->bots[b] : NULL;
            print_row(out, r, &r->sacc[k], sname[k], w, s, r->sacc[k].game_cpu_ms, x);
        }
    else
        for (int b = 0; b < r->info.nbots; b++) {
            const ar_bot_summary *s = t && t->bots ? &t->bots[b] : NULL;
            print_row(out, r, &r->acc[b], r->names[b], w, s, s ? s->cpu_ms : r->acc[b].game_cpu_ms,
                      x);
        }
    free(x);
    if (t)
        fprintf(out, "%lld decisions in %.2f s (%.0f decisions/s)%s\n", t->decisions, t->seconds,
                t->seconds > 0 ? (double)t->decisions / t->seconds : 0.0,
                t->interrupted ? ", interrupted" : "");
    if (r->out_dir && !r->info.no_summary)
        fprintf(out, "results: %s/results.json, games: %s/games.jsonl, records: %s/\n", r->out_dir,
                r->out_dir, r->records_dir);
}
