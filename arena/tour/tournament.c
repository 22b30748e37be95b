/* tournament.c - the tournament driver (tournament.h).
 *
 * One parent, up to J workers. The parent computes the schedule, forks one worker per set
 * (ar_spawn_worker, a fork without exec: the worker runs ar_match_run for that set, its bots are
 * its children), reads the finished games from the worker's pipe and is the only writer of the
 * journal. A set's games are journaled together when its last game has arrived: a set is always
 * played again whole (its games must come from one run of its bots), so a part of a set in the
 * journal would be thrown away anyway. Results are computed from the journal alone, in game
 * order, from nothing that depends on timing. */
#include "tournament.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "jail/spawn.h"
#include "journal.h"
#include "luck.h"
#include "match/match.h"
#include "rank.h"
#include "schedule.h"
#include "util/outlock.h"
#include "util/util.h"

/* ---- Small helpers ---------------------------------------------------------------------------
 */

static json_t *ju64(uint64_t v)
{
    if (v <= (uint64_t)INT64_MAX)
        return json_integer((json_int_t)v);
    char s[32];
    snprintf(s, sizeof s, "%" PRIu64, v);
    return json_string(s);
}

static int get_u64(const json_t *j, uint64_t *out)
{
    if (json_is_integer(j) && json_integer_value(j) >= 0) {
        *out = (uint64_t)json_integer_value(j);
        return 0;
    }
    if (json_is_string(j)) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(json_string_value(j), &end, 10);
        if (!errno && *end == '\0') {
            *out = v;
            return 0;
        }
    }
    return -1;
}

/* A number rounded to `dec` decimals; NaN and infinities as null. */
static json_t *jnum(double v, int dec)
{
    if (!isfinite(v))
        return json_null();
    double p = pow(10, dec);
    double r = round(v * p) / p;
    return json_real(r == 0 ? 0.0 : r); /* no "-0.0" */
}

static const char *format_name(int f)
{
    return f == AR_FORMAT_GAUNTLET ? "gauntlet" : "round-robin";
}

static char *path_in(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = ar_xmalloc(n);
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

typedef struct text_buf {
    const char *p;
    size_t len;
} text_buf;

static int fill_text(FILE *f, void *ud)
{
    const text_buf *t = ud;
    return fwrite(t->p, 1, t->len, f) == t->len ? 0 : -EIO;
}

/* Write text to dir/name atomically (temp file, fsync, rename, fsync of the directory). */
static int write_file_atomic(const char *dir, const char *name, const char *p, size_t len)
{
    char *path = path_in(dir, name);
    text_buf t = {p, len};
    int rc = ar_file_replace(path, fill_text, &t);
    if (rc < 0)
        fprintf(stderr, "arena: cannot write '%s': %s\n", path, strerror(-rc));
    free(path);
    return rc;
}

static int write_json_atomic(const char *dir, const char *name, json_t *doc)
{
    char *text = json_dumps(doc, JSON_INDENT(2) | JSON_ENSURE_ASCII);
    if (!text)
        return -ENOMEM;
    size_t len = strlen(text);
    char *t2 = ar_xmalloc(len + 2);
    memcpy(t2, text, len);
    t2[len] = '\n';
    t2[len + 1] = '\0';
    free(text);
    int rc = write_file_atomic(dir, name, t2, len + 1);
    free(t2);
    return rc;
}

/* 1 if dir exists and holds anything, 0 if it is empty or missing, -errno otherwise. */
static int dir_nonempty(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return errno == ENOENT ? 0 : -errno;
    struct dirent *e;
    int any = 0;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            any = 1;
            break;
        }
    closedir(d);
    return any;
}

/* ---- The resolved configuration ------------------------------------------------------------
 * Everything that decides the games and the results, and nothing else (not the output folder,
 * not the number of jobs): its hash names the tournament, for --resume and `arena merge`. */

static json_t *config_json(const ar_tour *t, const ar_tour_run_opts *o)
{
    json_t *c = json_object();
    json_object_set_new(c, "name", json_string(t->name ? t->name : ""));
    json_object_set_new(c, "rules", json_string(t->rules.preset));
    if (t->luck_rollout) /* only then: the configuration hash of other tournaments stays */
        json_object_set_new(c, "luck", json_string("rollout"));
    json_object_set_new(c, "rules_text", json_string(t->rules_text ? t->rules_text : ""));
    json_object_set_new(c, "seats", json_integer(t->seats));
    json_object_set_new(c, "format", json_string(format_name(t->format)));
    json_object_set_new(c, "challenger", t->challenger ? json_string(t->challenger) : json_null());
    json_object_set_new(c, "baseline", t->baseline ? json_string(t->baseline) : json_null());
    json_object_set_new(c, "deals", json_integer(t->deals));
    if (t->hands) /* only when set: older tournaments keep their hash */
        json_object_set_new(c, "hands", json_integer(t->hands));
    json_object_set_new(c, "max_tables", json_integer(t->max_tables));
    json_object_set_new(c, "seed", ju64(t->seed));
    json_object_set_new(c, "bootstrap", json_integer(t->bootstrap));
    json_t *cl = json_object();
    json_object_set_new(cl, "startup_ms", json_integer(t->clocks.startup_ms));
    json_object_set_new(cl, "decision_ms", json_integer(t->clocks.decision_ms));
    json_object_set_new(cl, "bank_ms", json_integer(t->clocks.bank_ms));
    json_object_set_new(cl, "hard_ms", json_integer(t->clocks.hard_ms));
    if (t->ponder) /* only when set: older tournaments keep their hash */
        json_object_set_new(cl, "ponder", json_true());
    if (t->pace_ms)
        json_object_set_new(cl, "pace_ms", json_integer(t->pace_ms));
    json_object_set_new(c, "clocks", cl);
    json_t *er = json_object();
    json_object_set_new(
        er, "on_error",
        json_string(t->on_error == AR_ON_ERROR_SUBSTITUTE ? "substitute" : "forfeit"));
    json_object_set_new(er, "substitute",
                        json_string(t->substitute == AR_SUB_FIRST
                                        ? "first"
                                        : ar_policy_name((ar_policy)t->substitute)));
    json_object_set_new(er, "max_error_share", json_real(t->max_error_share));
    json_object_set_new(c, "errors", er);
    json_t *sb = json_object();
    json_object_set_new(sb, "minimum", json_string(t->sandbox_min ? t->sandbox_min : ""));
    /* the limits as the bots get them: the file's, else the command line's (--memory-mb is
     * turned into --set sandbox.memory_mb by the command line), so an override changes the
     * hash */
    json_object_set_new(sb, "memory_mb",
                        json_integer(t->memory_mb ? t->memory_mb : o->sandbox.memory_mb));
    json_object_set_new(sb, "pids", json_integer(o->sandbox.pids));
    json_object_set_new(sb, "stdout_cap", ju64(o->stdout_cap));
    json_object_set_new(c, "sandbox", sb);
    if (t->format == AR_FORMAT_GAUNTLET && t->sprt) {
        json_t *sp = json_object();
        json_object_set_new(sp, "s0", json_real(t->sprt_s0));
        json_object_set_new(sp, "s1", json_real(t->sprt_s1));
        json_object_set_new(sp, "alpha", json_real(t->sprt_alpha));
        json_object_set_new(sp, "beta", json_real(t->sprt_beta));
        json_object_set_new(sp, "min_sets", json_integer(AR_TOUR_SPRT_MIN_SETS));
        if (t->sprt_adjusted) /* only then: the configuration hash of every other gauntlet stays */
            json_object_set_new(sp, "score", json_string("luck-adjusted"));
        json_object_set_new(c, "sprt", sp);
    }
    json_t *es = json_array();
    for (int i = 0; i < t->nentrants; i++) {
        const ar_tour_entrant *e = &t->entrant[i];
        json_t *j = json_object();
        json_object_set_new(j, "name", json_string(e->name));
        json_object_set_new(j, "command", json_string(e->command));
        json_object_set_new(j, "profile", json_string(e->profile ? e->profile : "auto"));
        json_object_set_new(j, "memory_mb", json_integer(e->memory_mb));
        json_object_set_new(j, "startup_ms", json_integer(e->startup_ms));
        if (e->files_text) /* only when given: older tournaments keep their hash */
            json_object_set_new(j, "files", json_string(e->files_text));
        json_array_append_new(es, j);
    }
    json_object_set_new(c, "entrants", es);
    return c;
}

static void config_hash(const json_t *config, char out[17])
{
    char *s = json_dumps(config, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENSURE_ASCII);
    snprintf(out, 17, "%016" PRIx64, ar_fnv1a64(s, strlen(s)));
    free(s);
}

/* What the results need, read back from a configuration object (the run and `arena merge`
 * take the same path, so they cannot disagree). */
typedef struct tinfo {
    int n, k, format, challenger, baseline, bootstrap;
    int sprt;     /* a gauntlet with a sequential test */
    int sprt_adj; /* ... on the luck-adjusted totals (docs/luck.md) */
    long long deals, max_tables;
    uint64_t seed;
    double s0, s1, alpha, beta;
    int min_sets;
    double max_error_share; /* errors.max_error_share: also judged over the whole tournament */
    char **names;
    const char *name, *rules;
} tinfo;

static void tinfo_free(tinfo *ti)
{
    for (int i = 0; ti->names && i < ti->n; i++)
        free(ti->names[i]);
    free(ti->names);
    memset(ti, 0, sizeof *ti);
}

static int index_of(const tinfo *ti, const char *name)
{
    for (int i = 0; name && i < ti->n; i++)
        if (strcmp(ti->names[i], name) == 0)
            return i;
    return -1;
}

static int tinfo_from(const json_t *c, tinfo *ti, char *err, size_t errcap)
{
    memset(ti, 0, sizeof *ti);
    const json_t *es = json_object_get(c, "entrants");
    if (!json_is_array(es) || json_array_size(es) < 1 || json_array_size(es) > 100000) {
        snprintf(err, errcap, "no entrants");
        return -EINVAL;
    }
    ti->n = (int)json_array_size(es);
    ti->names = ar_xcalloc((size_t)ti->n, sizeof *ti->names);
    for (int i = 0; i < ti->n; i++) {
        const char *nm = json_string_value(json_object_get(json_array_get(es, (size_t)i), "name"));
        ti->names[i] = ar_xstrdup(nm ? nm : "?");
    }
    ti->name = json_string_value(json_object_get(c, "name"));
    ti->rules = json_string_value(json_object_get(c, "rules"));
    ti->k = (int)json_integer_value(json_object_get(c, "seats"));
    const char *f = json_string_value(json_object_get(c, "format"));
    ti->format = f && strcmp(f, "gauntlet") == 0 ? AR_FORMAT_GAUNTLET : AR_FORMAT_ROUND_ROBIN;
    ti->challenger = index_of(ti, json_string_value(json_object_get(c, "challenger")));
    ti->baseline = index_of(ti, json_string_value(json_object_get(c, "baseline")));
    ti->deals = json_integer_value(json_object_get(c, "deals"));
    ti->max_tables = json_integer_value(json_object_get(c, "max_tables"));
    ti->bootstrap = (int)json_integer_value(json_object_get(c, "bootstrap"));
    if (get_u64(json_object_get(c, "seed"), &ti->seed) < 0) {
        snprintf(err, errcap, "no seed");
        tinfo_free(ti);
        return -EINVAL;
    }
    const json_t *mes = json_object_get(json_object_get(c, "errors"), "max_error_share");
    ti->max_error_share = json_is_number(mes) ? json_number_value(mes) : 0.5;
    const json_t *sp = json_object_get(c, "sprt");
    ti->sprt = ti->format == AR_FORMAT_GAUNTLET && json_is_object(sp);
    const char *sc = json_string_value(json_object_get(sp, "score"));
    ti->sprt_adj = ti->sprt && sc && strcmp(sc, "luck-adjusted") == 0;
    ti->s0 = json_number_value(json_object_get(sp, "s0"));
    ti->s1 = json_number_value(json_object_get(sp, "s1"));
    ti->alpha = json_number_value(json_object_get(sp, "alpha"));
    ti->beta = json_number_value(json_object_get(sp, "beta"));
    ti->min_sets = (int)json_integer_value(json_object_get(sp, "min_sets"));
    if (ti->k < 2 || ti->k > AR_SCHED_MAX_SEATS || ti->k > OKR_MAX_PLAYERS) {
        snprintf(err, errcap, "bad seats %d", ti->k);
        tinfo_free(ti);
        return -EINVAL;
    }
    return 0;
}

static int make_schedule(const tinfo *ti, ar_schedule *s, char *err, size_t errcap)
{
    ar_schedule_opts so = {
        .n = ti->n,
        .k = ti->k,
        .format = ti->format,
        .challenger = ti->challenger < 0 ? 0 : ti->challenger,
        .baseline = ti->baseline,
        .deals = ti->deals,
        .max_tables = ti->max_tables,
        .seed = ti->seed,
    };
    return ar_schedule_make(&so, s, err, errcap);
}

/* ---- A game, as the journal holds it ------------------------------------------------------- */

static const char *const VERDICTS[] = {"RE", "TLE", "MLE", "OLE", "PE", "IA", "SV", "DQ"};
enum { NVERDICTS = sizeof VERDICTS / sizeof VERDICTS[0] };
_Static_assert((int)NVERDICTS == (int)AR_TOUR_NVERDICTS, "the verdict list");

typedef ar_tour_game tgame;

int ar_tour_game_parse(const char *payload, int k, ar_tour_game *g, char *why, size_t cap)
{
    memset(g, 0, sizeof *g);
    json_error_t je;
    json_t *j = json_loads(payload, 0, &je);
    int rc = -EINVAL;
    if (!j) {
        snprintf(why, cap, "not JSON: %s", je.text);
        return rc;
    }
    const json_t *seat = json_object_get(j, "seating");
    const json_t *tot = json_object_get(j, "final_total");
    const json_t *pl = json_object_get(j, "placements");
    const json_t *vs = json_object_get(j, "verdicts");
    const json_t *ff = json_object_get(j, "forfeits");
    g->index = json_integer_value(json_object_get(j, "game"));
    g->set = json_integer_value(json_object_get(j, "set"));
    g->completed = json_is_true(json_object_get(j, "completed"));
    g->rotation = (int)json_integer_value(json_object_get(j, "rotation"));
    g->k = k;
    const char *id = json_string_value(json_object_get(j, "game_id"));
    snprintf(g->game_id, sizeof g->game_id, "%s", id ? id : "");
    if (g->set < 0 || g->rotation < 0 || g->rotation >= k) {
        snprintf(why, cap, "game %lld: bad set or rotation", g->index);
        goto out;
    }
    if (!json_is_array(seat) || json_array_size(seat) != (size_t)k || !json_is_array(tot) ||
        json_array_size(tot) != (size_t)k || !json_is_array(pl) ||
        json_array_size(pl) != (size_t)k || !json_is_array(vs)) {
        snprintf(why, cap, "game %lld: seating, totals or placements missing", g->index);
        goto out;
    }
    for (int i = 0; i < k; i++) {
        g->entrant[i] = (int)json_integer_value(json_array_get(seat, (size_t)i));
        g->total[i] = (double)json_integer_value(json_array_get(tot, (size_t)i));
        json_int_t pv = json_integer_value(json_array_get(pl, (size_t)i));
        if (pv < 1 || pv > k) {
            snprintf(why, cap, "game %lld: bad placement", g->index);
            goto out;
        }
        g->place[i] = (uint8_t)pv;
    }
    const json_t *la = json_object_get(j, "luck_adjusted"); /* docs/luck.md */
    if (json_is_array(la) && json_array_size(la) == (size_t)k) {
        g->has_adj = 1;
        for (int i = 0; i < k; i++)
            g->adj[i] = json_number_value(json_array_get(la, (size_t)i));
    }
    size_t vi;
    const json_t *v;
    json_array_foreach(vs, vi, v)
    {
        json_int_t st = json_integer_value(json_object_get(v, "seat"));
        const char *name = json_string_value(json_object_get(v, "verdict"));
        if (st < 0 || st >= k || !name)
            continue;
        int found = 0;
        for (int q = 0; q < NVERDICTS; q++)
            if (strcmp(name, VERDICTS[q]) == 0) {
                g->verdicts[st][q]++;
                found = 1;
            }
        if (!found)
            g->other_verdicts[st]++;
    }
    json_array_foreach(ff, vi, v)
    {
        json_int_t st = json_integer_value(v);
        if (st >= 0 && st < k)
            g->forfeit[st] = 1;
    }
    const json_t *dec = json_object_get(j, "decisions");
    for (int i = 0; i < k; i++)
        g->decisions[i] = json_integer_value(json_array_get(dec, (size_t)i));
    rc = 0;
out:
    json_decref(j);
    return rc;
}

/* Parse and check a journal payload against the schedule. */
static int parse_game(const char *payload, long long index, const ar_schedule *s, int k, tgame *g,
                      char *why, size_t cap)
{
    if (ar_tour_game_parse(payload, k, g, why, cap) < 0)
        return -EINVAL;
    if (g->index != index || g->set >= s->nsets || g->index != g->set * k + g->rotation) {
        snprintf(why, cap, "game %lld: its index, set or rotation does not fit the schedule",
                 index);
        return -EINVAL;
    }
    ar_set_plan p;
    ar_schedule_set(s, g->set, &p);
    /* the id names the tournament's seed, deal and table: a line of another tournament (a
     * journal copied into the wrong folder) can have our seating and still not be ours */
    char want[96];
    ar_schedule_game_id(want, sizeof want, s->o.seed, &p, g->rotation);
    if (strcmp(g->game_id, want) != 0) {
        snprintf(why, cap, "game %lld is from another tournament (its id is %.40s, ours is %s)",
                 index, g->game_id[0] ? g->game_id : "missing", want);
        return -EINVAL;
    }
    for (int i = 0; i < k; i++)
        if (g->entrant[i] != ar_schedule_seat(&p, k, i, g->rotation)) {
            snprintf(why, cap, "game %lld: seat %d is not the schedule's entrant", index, i);
            return -EINVAL;
        }
    return 0;
}

/* A journal payload's hand scores into g->hand (for rho per hand). Older journals and
 * forfeits before the first hand end have none, which only leaves the game out of rho per
 * hand; a malformed row is an error, as in parse_game. */
int ar_tour_game_hands(const char *payload, long long index, int k, ar_tour_game *g, char *why,
                       size_t cap)
{
    json_t *j = json_loads(payload, 0, NULL);
    const json_t *hs = json_object_get(j, "hand_scores");
    size_t nh = json_is_array(hs) ? json_array_size(hs) : 0, h;
    const json_t *row;
    int rc = 0;
    if (nh > 0 && nh <= 65535) {
        g->hand = ar_xcalloc(nh, sizeof *g->hand);
        g->nhands = (int)nh;
        json_array_foreach(hs, h, row)
        {
            if (!json_is_array(row) || json_array_size(row) != (size_t)k) {
                snprintf(why, cap, "game %lld: hand %zu: bad hand scores", index, h + 1);
                rc = -EINVAL;
                break;
            }
            for (int q = 0; q < k; q++)
                g->hand[h][q] = (int32_t)json_integer_value(json_array_get(row, (size_t)q));
        }
    }
    json_decref(j);
    return rc;
}

/* What ar_journal_read asks of every well-formed line on --resume: a game of this schedule
 * (and shard), with the schedule's seating and id; and, once the sets to play are known,
 * what becomes of a dropped line's game. */
typedef struct jfits {
    const ar_schedule *s;
    int k, shard_k, shard_n;
    const int *done; /* [nsets], set after the sets are counted */
    char fate[160];
} jfits;

static int journal_fits(void *ud, long long index, const char *payload, char *why, size_t cap)
{
    const jfits *f = ud;
    tgame g;
    if (index >= f->s->ngames) {
        snprintf(why, cap, "game %lld is not in this tournament's schedule (%lld games)", index,
                 f->s->ngames);
        return -1;
    }
    if (f->shard_n && !ar_schedule_in_shard(index / f->k, f->shard_k, f->shard_n)) {
        snprintf(why, cap, "game %lld is not of shard %d/%d", index, f->shard_k, f->shard_n);
        return -1;
    }
    return parse_game(payload, index, f->s, f->k, &g, why, cap) < 0 ? -1 : 0;
}

static const char *journal_fate(void *ud, const ar_journal_drop *x)
{
    jfits *f = ud;
    long long set = x->index >= 0 ? x->index / f->k : -1;
    if (x->index < 0 || x->index >= f->s->ngames ||
        (f->shard_n && !ar_schedule_in_shard(set, f->shard_k, f->shard_n)))
        return "dropped";
    if (f->done[set])
        snprintf(f->fate, sizeof f->fate, "dropped (game %lld is in the journal)", x->index);
    else
        snprintf(f->fate, sizeof f->fate, "game %lld will be played again (set %lld)", x->index,
                 set);
    return f->fate;
}

/* The gauntlet's per-set paired difference: challenger minus baseline (or minus the mean of
 * the others without a baseline), points per game, over the set's games. With [sprt] score =
 * luck-adjusted, on the luck-adjusted totals (docs/luck.md); a game without them (its record
 * could not be read back) counts its raw totals, which estimate the same mean. */
static double set_diff(const tinfo *ti, const tgame *games, int k)
{
    double sum = 0;
    for (int r = 0; r < k; r++) {
        const tgame *g = &games[r];
        const double *t = ti->sprt_adj && g->has_adj ? g->adj : g->total;
        int cs = -1, bs = -1;
        double all = 0;
        for (int s = 0; s < k; s++) {
            all += t[s];
            if (g->entrant[s] == ti->challenger)
                cs = s;
            if (g->entrant[s] == ti->baseline)
                bs = s;
        }
        if (cs < 0)
            continue;
        if (bs >= 0)
            sum += t[cs] - t[bs];
        else
            sum += t[cs] - (all - t[cs]) / (k - 1);
    }
    return sum / k;
}

/* SPRT over the contiguous prefix x[0..nprefix): the first prefix length at which it decides.
 * Returns the decision (+1 H1, -1 H0, 0 none) and sets *used (sets counted) and *llr. */
static int sprt_scan(const tinfo *ti, const double *x, long long nprefix, long long *used,
                     double *llr)
{
    double lo, hi;
    ar_sprt_bounds(ti->alpha, ti->beta, &lo, &hi);
    *used = nprefix;
    *llr = nprefix > 0 ? ar_sprt_llr(x, nprefix, ti->s0, ti->s1) : 0;
    for (long long p = ti->min_sets > 1 ? ti->min_sets : 1; p <= nprefix; p++) {
        double l = ar_sprt_llr(x, p, ti->s0, ti->s1);
        int d = ar_sprt_decide(l, lo, hi);
        if (d != 0) {
            *used = p;
            *llr = l;
            return d;
        }
    }
    return 0;
}

/* ---- Results ----------------------------------------------------------------------------------
 * From journal entries (sorted by index, unique) to results.json, standings.csv, games.jsonl,
 * and the table on stdout. `whole`: every set must be there (a finished round robin, a merge);
 * a gauntlet needs only the prefix up to its decision. */

typedef struct outputs {
    const tinfo *ti;
    const ar_schedule *s;
    const json_t *config;
    const char *hash;
    const char *dir;
    int print;
} outputs;

/* "v [lo, hi]" by the one rounding rule of the figures people read (util's ar_fmt_num: as
 * results.json stores the value, `stored` decimals, then `dec` shown), so the table and
 * `arena report` print the same digits. */
static void fmt_interval(char *buf, size_t cap, int stored, int dec, double v, double lo, double hi)
{
    char a[20], b[20], c[20]; /* "-" for no value: never nan */
    ar_fmt_num(a, sizeof a, v, stored, dec, 1);
    if (!isfinite(v) || !isfinite(lo) || !isfinite(hi)) {
        snprintf(buf, cap, "%s", a);
        return;
    }
    ar_fmt_num(b, sizeof b, lo, stored, dec, 1);
    ar_fmt_num(c, sizeof c, hi, stored, dec, 1);
    char whole[64];
    snprintf(whole, sizeof whole, "%s [%s, %s]", a, b, c);
    snprintf(buf, cap, "%s", whole);
}

/* A CSV field: the number with `dec` decimals, empty when there is none (NaN). */
static void csv_num(char buf[32], double v, int dec)
{
    if (isfinite(v))
        snprintf(buf, 32, "%.*f", dec, v);
    else
        buf[0] = '\0';
}

enum { VERDICT_LIST_MAX = 1000 };

/* Every verdict of the counted games (the first VERDICT_LIST_MAX), each with the evidence:
 * its game, the entrant, the detail, and where to read more (the bot's log, the game's
 * record). */
static void add_verdict_list(json_t *doc, const ar_journal_entry *e, long long ngames,
                             const ar_tour_results_in *ti)
{
    json_t *list = json_array();
    long long omitted = 0;
    for (long long i = 0; i < ngames; i++) {
        json_t *j = json_loads(e[i].payload, 0, NULL);
        const json_t *vs = json_object_get(j, "verdicts"), *v;
        size_t vi;
        json_array_foreach(vs, vi, v)
        {
            if (json_array_size(list) >= VERDICT_LIST_MAX) {
                omitted++;
                continue;
            }
            json_t *o = json_object();
            json_object_set_new(o, "game", json_integer(e[i].index));
            json_object_set(o, "game_id", json_object_get(j, "game_id"));
            json_int_t en = json_integer_value(json_object_get(v, "entrant"));
            json_object_set_new(o, "entrant", json_integer(en));
            if (en >= 0 && en < ti->n)
                json_object_set_new(o, "name", json_string(ti->names[en]));
            static const char *const keys[] = {"seat",   "verdict", "clock", "rule",
                                               "detail", "log",     NULL};
            for (int q = 0; keys[q]; q++)
                if (json_object_get(v, keys[q]))
                    json_object_set(o, keys[q], json_object_get(v, keys[q]));
            if (json_object_get(j, "record"))
                json_object_set(o, "record", json_object_get(j, "record"));
            json_array_append_new(list, o);
        }
        json_decref(j);
    }
    json_object_set_new(doc, "verdicts", list);
    if (omitted)
        json_object_set_new(doc, "verdicts_omitted", json_integer(omitted));
}

static int write_results(const outputs *out, const ar_journal_entry *e, long long ne)
{
    const tinfo *ti = out->ti;
    const ar_schedule *s = out->s;
    int k = ti->k, n = ti->n;
    char why[256];
    int rc = 0;

    /* games by set; every set complete? */
    tgame *g = ar_xcalloc((size_t)(ne ? ne : 1), sizeof *g);
    long long *first = ar_xmalloc((size_t)s->nsets * sizeof *first); /* first game of set */
    int *have = ar_xcalloc((size_t)s->nsets, sizeof *have);
    for (long long i = 0; i < s->nsets; i++)
        first[i] = -1;
    for (long long i = 0; i < ne; i++) {
        if (parse_game(e[i].payload, e[i].index, s, k, &g[i], why, sizeof why) < 0 ||
            ar_tour_game_hands(e[i].payload, e[i].index, k, &g[i], why, sizeof why) < 0) {
            fprintf(stderr, "arena: journal.jsonl: %s\n", why);
            rc = -EINVAL;
            goto done;
        }
        if (first[g[i].set] < 0)
            first[g[i].set] = i;
        have[g[i].set]++;
    }
    long long prefix = 0;
    while (prefix < s->nsets && have[prefix] == k)
        prefix++;

    /* which sets count */
    long long counted = prefix;
    int decision = 0;
    double llr = 0;
    if (ti->sprt) {
        double *x = ar_xcalloc((size_t)(prefix ? prefix : 1), sizeof *x);
        for (long long q = 0; q < prefix; q++)
            x[q] = set_diff(ti, &g[first[q]], k);
        decision = sprt_scan(ti, x, prefix, &counted, &llr);
        free(x);
    }
    if (decision == 0 && prefix < s->nsets) {
        fprintf(stderr,
                "arena: the journal lacks games of set %lld: the tournament is not finished\n",
                prefix);
        rc = -EINVAL;
        goto done;
    }
    long long ngames = counted * k;
    ar_tour_results_in in = {
        .dir = out->dir,
        .print = out->print,
        .kind = "tournament",
        .name = ti->name,
        .rules = ti->rules,
        .format = format_name(ti->format),
        .k = k,
        .n = n,
        .names = (const char *const *)ti->names,
        .bootstrap = ti->bootstrap,
        .seed = ti->seed,
        .max_error_share = ti->max_error_share,
        .config = out->config,
        .hash = out->hash,
        .complete = counted == s->nsets || decision != 0,
        .schedule_complete = s->complete,
        .tables = s->ntables,
        .sets_scheduled = s->nsets,
        .games_scheduled = s->ngames,
        .sets = counted,
        .sprt = ti->sprt,
        .sprt_adj = ti->sprt_adj,
        .challenger = ti->challenger,
        .baseline = ti->baseline,
        .decision = decision,
        .s0 = ti->s0,
        .s1 = ti->s1,
        .alpha = ti->alpha,
        .beta = ti->beta,
        .llr = llr,
    };
    rc = ar_tour_results_write(&in, e, g, ngames);
done:
    for (long long i = 0; i < ne; i++)
        free(g[i].hand);
    free(g);
    free(first);
    free(have);
    return rc;
}

int ar_tour_results_write(const ar_tour_results_in *ti, const ar_journal_entry *e,
                          const ar_tour_game *g, long long ngames)
{
    int k = ti->k, n = ti->n, rc = 0;
    long long counted = ti->sets;
    int decision = ti->decision;
    double llr = ti->llr;
    const ar_tour_results_in *out = ti;

    /* ratings */
    ar_rank_game *rg = ar_xcalloc((size_t)(ngames ? ngames : 1), sizeof *rg);
    for (long long i = 0; i < ngames; i++) {
        rg[i].set = g[i].set;
        rg[i].k = k;
        for (int q = 0; q < k; q++) {
            rg[i].entrant[q] = g[i].entrant[q];
            rg[i].score[q] = g[i].total[q];
            rg[i].placement[q] = g[i].place[q];
        }
        rg[i].forfeited = !g[i].completed;
        rg[i].nhands = g[i].nhands;
        rg[i].hand = (const int32_t(*)[AR_RANK_MAX_SEATS])g[i].hand;
    }
    ar_rank_opts ro = {.bootstrap = ti->bootstrap, .seed = ti->seed, .prior_games = 1.0};
    ar_rank_result rr;
    memset(&rr, 0, sizeof rr);
    char err[256] = "";
    if (ar_rank_fit(rg, ngames, n, &ro, &rr, err, sizeof err) < 0) {
        fprintf(stderr, "arena: ratings: %s\n", err);
        free(rg);
        return -EINVAL;
    }
    /* the same fit on luck-adjusted scores (docs/luck.md), when every counted game has them */
    ar_rank_result radj;
    memset(&radj, 0, sizeof radj);
    int have_adj = ngames > 0;
    for (long long i = 0; i < ngames; i++)
        have_adj &= g[i].has_adj;
    if (have_adj) {
        for (long long i = 0; i < ngames; i++)
            for (int q = 0; q < k; q++)
                rg[i].score[q] = g[i].adj[q];
        if (ar_rank_fit(rg, ngames, n, &ro, &radj, err, sizeof err) < 0) {
            fprintf(stderr, "arena: luck-adjusted ratings: %s\n", err);
            have_adj = 0;
        }
    }
    free(rg);

    /* verdict counts per entrant */
    long long(*vc)[NVERDICTS + 1] = ar_xcalloc((size_t)n, sizeof *vc);
    long long *ff = ar_xcalloc((size_t)n, sizeof *ff);
    long long *eg = ar_xcalloc((size_t)n, sizeof *eg), *ng = ar_xcalloc((size_t)n, sizeof *ng);
    long long *nd = ar_xcalloc((size_t)n, sizeof *nd); /* decisions answered */
    for (long long i = 0; i < ngames; i++)
        for (int q = 0; q < k; q++) {
            int en = g[i].entrant[q], any = 0;
            for (int v = 0; v < NVERDICTS; v++) {
                vc[en][v] += g[i].verdicts[q][v];
                any |= g[i].verdicts[q][v] > 0;
            }
            vc[en][NVERDICTS] += g[i].other_verdicts[q];
            ff[en] += g[i].forfeit[q];
            eg[en] += any;
            ng[en]++;
            nd[en] += g[i].decisions[q];
        }
    /* The error budget over the whole tournament: a set of 3 games never reaches the in-set
     * disqualification (judged from a set's 4th game), so a bot that fails every game would
     * otherwise only show a poor score. */
    int *dq = ar_xcalloc((size_t)n, sizeof *dq);
    for (int i = 0; i < n; i++)
        dq[i] = vc[i][NVERDICTS - 1] > 0 || (ng[i] >= AR_TOUR_DQ_MIN_GAMES &&
                                             (double)eg[i] > ti->max_error_share * (double)ng[i]);

    /* results.json */
    json_t *doc = json_object();
    json_object_set_new(doc, "format", json_string("okarena-tournament-results 1"));
    json_object_set_new(doc, "arena_version", json_string(AR_VERSION));
    json_object_set_new(doc, "name", json_string(ti->name ? ti->name : ""));
    json_object_set_new(doc, "config_hash", json_string(out->hash));
    json_object_set_new(doc, "config", json_deep_copy((const json_t *)out->config));
    json_object_set_new(doc, "complete", json_boolean(ti->complete));
    json_object_set_new(doc, "schedule_complete", json_boolean(ti->schedule_complete));
    json_object_set_new(doc, "tables", json_integer(ti->tables));
    json_object_set_new(doc, "sets_scheduled", json_integer(ti->sets_scheduled));
    json_object_set_new(doc, "games_scheduled", json_integer(ti->games_scheduled));
    json_object_set_new(doc, "sets", json_integer(counted));
    json_object_set_new(doc, "games", json_integer(ngames));
    json_object_set_new(doc, "connected", json_boolean(rr.connected));
    json_object_set_new(doc, "rho", jnum(rr.rho, 4));
    json_object_set_new(doc, "var_relative", jnum(rr.var_relative, 3));
    json_object_set_new(doc, "var_set_centred", jnum(rr.var_set_centred, 3));
    json_object_set_new(doc, "effective_games", jnum(rr.effective_games, 1));
    json_object_set_new(doc, "rho_hand", jnum(rr.rho_hand, 4));
    json_object_set_new(doc, "var_hand_relative", jnum(rr.var_hand_relative, 3));
    json_object_set_new(doc, "var_hand_set_centred", jnum(rr.var_hand_set_centred, 3));
    json_object_set_new(doc, "hands_scored", json_integer(rr.hand_obs / (k ? k : 1)));
    json_t *se = json_array();
    for (int q = 0; q < k; q++)
        json_array_append_new(se, jnum(rr.seat_effect[q], 3));
    json_object_set_new(doc, "seat_effects", se);
    if (have_adj) /* docs/luck.md: every entrant's luck_adjusted_score is this fit */
        json_object_set_new(doc, "luck_adjusted",
                            json_string(json_is_string(json_object_get(ti->config, "luck"))
                                            ? json_string_value(json_object_get(ti->config, "luck"))
                                            : "hand"));
    json_t *st = json_array();
    for (int r = 0; r < n; r++) {
        int i = rr.order[r];
        const ar_rank_entry *en = &rr.entry[i];
        json_t *j = json_object();
        json_object_set_new(j, "rank", json_integer(en->rank));
        json_object_set_new(j, "entrant", json_integer(i));
        json_object_set_new(j, "name", json_string(ti->names[i]));
        json_object_set_new(j, "score", jnum(en->score, 3));
        json_t *a = json_array();
        json_array_append_new(a, jnum(en->score_lo, 3));
        json_array_append_new(a, jnum(en->score_hi, 3));
        json_object_set_new(j, "score_ci", a);
        if (have_adj) { /* the same fit on luck-adjusted scores (docs/luck.md) */
            json_object_set_new(j, "luck_adjusted_score", jnum(radj.entry[i].score, 3));
            a = json_array();
            json_array_append_new(a, jnum(radj.entry[i].score_lo, 3));
            json_array_append_new(a, jnum(radj.entry[i].score_hi, 3));
            json_object_set_new(j, "luck_adjusted_score_ci", a);
        }
        json_object_set_new(j, "elo", jnum(en->elo, 1));
        a = json_array();
        json_array_append_new(a, jnum(en->elo_lo, 1));
        json_array_append_new(a, jnum(en->elo_hi, 1));
        json_object_set_new(j, "elo_ci", a);
        a = json_array();
        json_array_append_new(a, json_integer(en->rank_lo));
        json_array_append_new(a, json_integer(en->rank_hi));
        json_object_set_new(j, "rank_ci", a);
        json_object_set_new(j, "p_beats_next", jnum(en->p_next, 4));
        /* sparse: a big field's entrant only ever reaches a few ranks */
        json_t *rp = json_null();
        if (rr.rank_p) {
            rp = json_object();
            for (int q = 0; q < n; q++) {
                double pq = rr.rank_p[(size_t)i * (size_t)n + (size_t)q];
                char key[16];
                snprintf(key, sizeof key, "%d", q + 1);
                if (pq > 0)
                    json_object_set_new(rp, key, jnum(pq, 4));
            }
        }
        json_object_set_new(j, "rank_p", rp);
        json_object_set_new(j, "games", json_integer(en->games));
        json_object_set_new(j, "sets", json_integer(en->sets));
        json_object_set_new(j, "wins", json_integer(en->wins));
        json_object_set_new(j, "draws", json_integer(en->draws));
        json_object_set_new(j, "mean_place", jnum(en->mean_place, 4));
        json_object_set_new(j, "mean_relative", jnum(en->mean_rel, 3));
        json_t *v = json_object();
        for (int q = 0; q < NVERDICTS; q++)
            json_object_set_new(v, VERDICTS[q], json_integer(vc[i][q]));
        if (vc[i][NVERDICTS])
            json_object_set_new(v, "other", json_integer(vc[i][NVERDICTS]));
        json_object_set_new(j, "verdicts", v);
        json_object_set_new(j, "forfeits", json_integer(ff[i]));
        json_object_set_new(j, "error_games", json_integer(eg[i]));
        json_object_set_new(j, "disqualified", json_boolean(dq[i]));
        /* erred in every game without one decision: its rating is not a result of play */
        json_object_set_new(j, "never_played",
                            json_boolean(ng[i] > 0 && nd[i] == 0 && eg[i] == ng[i]));
        json_array_append_new(st, j);
    }
    json_object_set_new(doc, "standings", st);
    add_verdict_list(doc, e, ngames, ti);
    json_t *ct = json_object(), *names = json_array(), *mg = json_array(), *md = json_array(),
           *mlo = json_array(), *mhi = json_array(), *ma = json_array();
    for (int r = 0; r < n; r++) {
        int i = rr.order[r];
        json_array_append_new(names, json_string(ti->names[i]));
        json_t *rg2 = json_array(), *rd = json_array(), *rl = json_array(), *rh = json_array(),
               *ra = json_array();
        for (int c = 0; c < n; c++) {
            const ar_rank_pair *p = &rr.pair[i * n + rr.order[c]];
            json_array_append_new(rg2, json_integer(p->games));
            json_array_append_new(rd, jnum(p->diff, 3));
            json_array_append_new(rl, jnum(p->diff_lo, 3));
            json_array_append_new(rh, jnum(p->diff_hi, 3));
            json_array_append_new(ra, p->games ? jnum(p->ahead, 4) : json_null());
        }
        json_array_append_new(mg, rg2);
        json_array_append_new(md, rd);
        json_array_append_new(mlo, rl);
        json_array_append_new(mhi, rh);
        json_array_append_new(ma, ra);
    }
    json_object_set_new(ct, "order", names);
    json_object_set_new(ct, "games", mg);
    json_object_set_new(ct, "diff", md);
    json_object_set_new(ct, "diff_lo", mlo);
    json_object_set_new(ct, "diff_hi", mhi);
    json_object_set_new(ct, "ahead", ma);
    if (have_adj) { /* the same head-to-head differences on luck-adjusted totals (docs/luck.md) */
        json_t *ad = json_array(), *al = json_array(), *ah = json_array();
        for (int r = 0; r < n; r++) {
            int i = rr.order[r];
            json_t *rd = json_array(), *rl = json_array(), *rh = json_array();
            for (int c = 0; c < n; c++) {
                const ar_rank_pair *p = &radj.pair[i * n + rr.order[c]];
                json_array_append_new(rd, jnum(p->diff, 3));
                json_array_append_new(rl, jnum(p->diff_lo, 3));
                json_array_append_new(rh, jnum(p->diff_hi, 3));
            }
            json_array_append_new(ad, rd);
            json_array_append_new(al, rl);
            json_array_append_new(ah, rh);
        }
        json_object_set_new(ct, "luck_adjusted_diff", ad);
        json_object_set_new(ct, "luck_adjusted_diff_lo", al);
        json_object_set_new(ct, "luck_adjusted_diff_hi", ah);
    }
    json_object_set_new(doc, "cross_table", ct);
    double lo = 0, hi = 0;
    if (ti->sprt) {
        ar_sprt_bounds(ti->alpha, ti->beta, &lo, &hi);
        json_t *sp = json_object();
        json_object_set_new(sp, "challenger", json_string(ti->names[ti->challenger]));
        json_object_set_new(sp, "baseline",
                            ti->baseline >= 0 ? json_string(ti->names[ti->baseline]) : json_null());
        json_object_set_new(sp, "s0", json_real(ti->s0));
        json_object_set_new(sp, "s1", json_real(ti->s1));
        json_object_set_new(sp, "alpha", json_real(ti->alpha));
        json_object_set_new(sp, "beta", json_real(ti->beta));
        json_object_set_new(sp, "lower", jnum(lo, 4));
        json_object_set_new(sp, "upper", jnum(hi, 4));
        json_object_set_new(sp, "llr", jnum(llr, 4));
        json_object_set_new(sp, "score", json_string(ti->sprt_adj ? "luck-adjusted" : "raw"));
        json_object_set_new(sp, "sets", json_integer(counted));
        json_object_set_new(sp, "decision",
                            json_string(decision > 0   ? "H1"
                                        : decision < 0 ? "H0"
                                                       : "none"));
        json_object_set_new(sp, "stopped_early",
                            json_boolean(decision != 0 && counted < ti->sets_scheduled));
        json_object_set_new(doc, "sprt", sp);
    }
    rc = write_json_atomic(out->dir, "results.json", doc);
    json_decref(doc);

    /* standings.csv */
    size_t cap = 4096 + (size_t)n * 512, len = 0;
    char *csv = ar_xmalloc(cap);
    len += (size_t)snprintf(csv + len, cap - len,
                            "rank,entrant,name,score,score_lo,score_hi,elo,elo_lo,elo_hi,rank_lo,"
                            "rank_hi,p_beats_next,games,sets,wins,draws,mean_place");
    for (int q = 0; q < NVERDICTS; q++)
        len += (size_t)snprintf(csv + len, cap - len, ",%s", VERDICTS[q]);
    len += (size_t)snprintf(csv + len, cap - len, "\n");
    for (int r = 0; r < n; r++) {
        int i = rr.order[r];
        const ar_rank_entry *en = &rr.entry[i];
        char name[256];
        size_t w = 0;
        name[w++] = '"';
        for (const char *c = ti->names[i]; *c && w < sizeof name - 3; c++) {
            if (*c == '"')
                name[w++] = '"';
            name[w++] = *c;
        }
        name[w++] = '"';
        name[w] = '\0';
        char f[8][32];
        csv_num(f[0], en->score, 3);
        csv_num(f[1], en->score_lo, 3);
        csv_num(f[2], en->score_hi, 3);
        csv_num(f[3], en->elo, 1);
        csv_num(f[4], en->elo_lo, 1);
        csv_num(f[5], en->elo_hi, 1);
        csv_num(f[6], en->p_next, 4);
        csv_num(f[7], en->mean_place, 4);
        len += (size_t)snprintf(csv + len, cap - len,
                                "%d,%d,%s,%s,%s,%s,%s,%s,%s,%d,%d,%s,%lld,%lld,%lld,%lld,%s",
                                en->rank, i, name, f[0], f[1], f[2], f[3], f[4], f[5], en->rank_lo,
                                en->rank_hi, f[6], en->games, en->sets, en->wins, en->draws, f[7]);
        for (int q = 0; q < NVERDICTS; q++)
            len += (size_t)snprintf(csv + len, cap - len, ",%lld", vc[i][q]);
        len += (size_t)snprintf(csv + len, cap - len, "\n");
    }
    if (rc == 0)
        rc = write_file_atomic(out->dir, "standings.csv", csv, len);
    free(csv);

    /* games.jsonl: the counted games, by index */
    size_t gl = 0;
    for (long long i = 0; i < ngames; i++)
        gl += strlen(e[i].payload) + 1;
    char *gj = ar_xmalloc(gl + 1);
    size_t w = 0;
    for (long long i = 0; i < ngames; i++) {
        size_t l = strlen(e[i].payload);
        memcpy(gj + w, e[i].payload, l);
        gj[w + l] = '\n';
        w += l + 1;
    }
    if (rc == 0)
        rc = write_file_atomic(out->dir, "games.jsonl", gj, w);
    free(gj);

    /* the table */
    if (out->print) {
        printf("%s %s: %s, %d seats, %s, %lld of %lld sets (%lld games), seed %" PRIu64 "\n",
               ti->kind ? ti->kind : "tournament", ti->name ? ti->name : "",
               ti->rules ? ti->rules : "", k, ti->format ? ti->format : "", counted,
               ti->sets_scheduled, ngames, ti->seed);
        int nw = 7;
        for (int i = 0; i < n; i++)
            if ((int)strlen(ti->names[i]) > nw)
                nw = (int)strlen(ti->names[i]);
        if (nw > 24)
            nw = 24;
        /* the score's label names its scale, as the report's do (docs/report.md's labels) */
        printf("%4s  %-*s  %-36s  ", "rank", nw, "entrant", "score (pts/game vs average) [95% CI]");
        if (have_adj) /* docs/luck.md */
            printf("%-28s  ", "luck-adjusted [95% CI]");
        printf("%-24s  %-7s  %7s  %6s  %s\n", "win-Elo [95% CI]", "rank CI", "p>next", "games",
               "verdicts");
        for (int r = 0; r < n; r++) {
            int i = rr.order[r];
            const ar_rank_entry *en = &rr.entry[i];
            char sc[96], el[96], rk[32], pn[16], vd[128] = "";
            fmt_interval(sc, sizeof sc, 3, 1, en->score, en->score_lo, en->score_hi);
            if (ng[i] > 0 && nd[i] == 0 && eg[i] == ng[i])
                snprintf(sc, sizeof sc, "never played");
            fmt_interval(el, sizeof el, 1, 0, en->elo, en->elo_lo, en->elo_hi);
            if (en->rank_lo > 0)
                snprintf(rk, sizeof rk, "%d-%d", en->rank_lo, en->rank_hi);
            else
                snprintf(rk, sizeof rk, "-");
            if (isfinite(en->p_next))
                snprintf(pn, sizeof pn, "%.2f", en->p_next);
            else
                snprintf(pn, sizeof pn, "-");
            size_t vw = 0;
            for (int q = 0; q < NVERDICTS; q++)
                if (vc[i][q])
                    vw += (size_t)snprintf(vd + vw, sizeof vd - vw, "%s%s %lld", vw ? " " : "",
                                           VERDICTS[q], vc[i][q]);
            if (dq[i])
                vw += (size_t)snprintf(vd + vw, sizeof vd - vw, "%sDQ (errors in %lld of %lld)",
                                       vw ? ", " : "", eg[i], ng[i]);
            if (!vw)
                snprintf(vd, sizeof vd, "-");
            printf("%4d  %-*.*s  %-36s  ", en->rank, nw, nw, ti->names[i], sc);
            if (have_adj) {
                char la[96];
                fmt_interval(la, sizeof la, 3, 1, radj.entry[i].score, radj.entry[i].score_lo,
                             radj.entry[i].score_hi);
                printf("%-28s  ", la);
            }
            printf("%-24s  %-7s  %7s  %6lld  %s\n", el, rk, pn, en->games, vd);
        }
        if (n <= 8 && n > 1) {
            /* cells "d [lo, hi]": whole points once they run to hundreds, as wide as the
             * widest */
            char(*cells)[64] = ar_xcalloc((size_t)n * (size_t)n, sizeof *cells);
            int cw = 10, dec = 1;
            for (int q = 0; q < n * n; q++) {
                const ar_rank_pair *p = &rr.pair[q];
                if (p->games && isfinite(p->diff_lo) && isfinite(p->diff_hi) &&
                    (fabs(p->diff_lo) >= 100 || fabs(p->diff_hi) >= 100))
                    dec = 0;
            }
            for (int r = 0; r < n; r++)
                for (int c = 0; c < n; c++) {
                    const ar_rank_pair *p = &rr.pair[rr.order[r] * n + rr.order[c]];
                    char *cell = cells[r * n + c];
                    if (r == c || !p->games || !isfinite(p->diff))
                        snprintf(cell, 64, "-");
                    else
                        fmt_interval(cell, 64, 3, dec, p->diff, p->diff_lo, p->diff_hi);
                    if ((int)strlen(cell) > cw)
                        cw = (int)strlen(cell);
                }
            printf("head to head (row minus column, points per game at the same table, "
                   "[95%% interval]):\n%*s",
                   nw + 2, "");
            for (int c = 0; c < n; c++)
                printf("  %*.*s", cw, cw, ti->names[rr.order[c]]);
            printf("\n");
            for (int r = 0; r < n; r++) {
                printf("%-*.*s  ", nw, nw, ti->names[rr.order[r]]);
                for (int c = 0; c < n; c++)
                    printf("  %*s", cw, cells[r * n + c]);
                printf("\n");
            }
            free(cells);
        }
        /* rho means something only with score spread over several sets; never print nan */
        if (isfinite(rr.rho) && counted > 1) {
            printf("duplicate efficiency rho %.2f per game", rr.rho);
            if (isfinite(rr.rho_hand)) /* NaN when no game finished a hand */
                printf(", %.2f per hand", rr.rho_hand);
            if (isfinite(rr.effective_games))
                printf(": these %lld games are worth %.0f independent ones", ngames,
                       rr.effective_games);
            printf(" (rho: the share of score variance the shared deals remove)");
        } else
            printf("duplicate efficiency rho: - (needs score differences in more than one set)");
        if (!rr.connected)
            printf("; WARNING: the entrants do not all meet (not connected)");
        if (ti->sprt)
            printf("; SPRT%s %s vs %s: LLR %.2f in (%.2f, %.2f) after %lld sets: %s",
                   ti->sprt_adj ? " (luck-adjusted)" : "", ti->names[ti->challenger],
                   ti->baseline >= 0 ? ti->names[ti->baseline] : "field", llr, lo, hi, counted,
                   decision > 0   ? "H1 accepted (challenger better)"
                   : decision < 0 ? "H0 accepted (not better)"
                                  : "no decision");
        printf("\nresults: %s/results.json, standings: %s/standings.csv, games: %s/games.jsonl\n",
               out->dir, out->dir, out->dir);
        long long nv = 0;
        for (int i = 0; i < n; i++)
            for (int q = 0; q < NVERDICTS; q++)
                nv += vc[i][q];
        char *logs = path_in(out->dir, "logs");
        struct stat lst;
        if (stat(logs, &lst) == 0 && S_ISDIR(lst.st_mode))
            printf("logs: %s/ (each bot's stderr, a file per set and slot, a line \"[arena: game "
                   "ID, seat S]\" before each game)%s\n",
                   logs, nv ? "; every verdict in results.json names its log" : "");
        free(logs);
        for (int i = 0; i < n; i++)
            if (dq[i])
                printf("DQ %s: errors in %lld of its %lld games (more than errors.max_error_share "
                       "= %.2f of them, or disqualified within a set): its place says little; "
                       "read its verdicts\n",
                       ti->names[i], eg[i], ng[i], ti->max_error_share);
        fflush(stdout);
    }
    free(vc);
    free(ff);
    free(eg);
    free(ng);
    free(nd);
    free(dq);
    ar_rank_free(&rr);
    ar_rank_free(&radj);
    return rc;
}

/* ---- tournament.json ----------------------------------------------------------------------- */

static json_t *manifest(const json_t *config, const char *hash, int shard_k, int shard_n,
                        const char *tour_path)
{
    json_t *m = json_object();
    json_object_set_new(m, "format", json_string("okarena-tournament 1"));
    json_object_set_new(m, "arena_version", json_string(AR_VERSION));
    json_object_set_new(m, "config_hash", json_string(hash));
    if (shard_n > 0) {
        json_t *s = json_object();
        json_object_set_new(s, "k", json_integer(shard_k));
        json_object_set_new(s, "n", json_integer(shard_n));
        json_object_set_new(m, "shard", s);
    } else {
        json_object_set_new(m, "shard", json_null());
    }
    json_object_set_new(m, "tour_file", tour_path ? json_string(tour_path) : json_null());
    json_object_set_new(m, "config", json_deep_copy(config));
    return m;
}

static json_t *read_manifest(const char *dir, char *err, size_t errcap)
{
    char *p = path_in(dir, "tournament.json");
    json_error_t je;
    json_t *m = json_load_file(p, 0, &je);
    if (!m)
        snprintf(err, errcap, "%s: %s", p, access(p, F_OK) == 0 ? je.text : "missing");
    else if (!json_is_string(json_object_get(m, "config_hash")) ||
             !json_is_object(json_object_get(m, "config"))) {
        snprintf(err, errcap, "%s: not a tournament manifest", p);
        json_decref(m);
        m = NULL;
    }
    free(p);
    return m;
}

/* ---- Entrants ------------------------------------------------------------------------------- */

typedef struct tentrants {
    ar_entrant *e;
    char ***argv;
    char **path;
    int n;
    ar_hidden *hide; /* the tour file, then every entrant's own paths (owned) */
    int nhide;
    char ***own;   /* [n]: what hide[] points into */
    char **labels; /* [n]: "the files of entrant NAME" */
} tentrants;

static void entrants_free(tentrants *te)
{
    for (int i = 0; i < te->n; i++) {
        ar_spawn_argv_free(te->argv[i]);
        free(te->path[i]);
    }
    for (int i = 0; te->own && i < te->n; i++)
        ar_spawn_argv_free(te->own[i]);
    free(te->own);
    ar_spawn_argv_free(te->labels);
    free(te->hide);
    free(te->e);
    free(te->argv);
    free(te->path);
    memset(te, 0, sizeof *te);
}

/* What no bot may see (ar_match_config.hide): the tour file (it names the seed, and with the
 * documented PRNG every deal), and every entrant's own paths, its own bot excepted; each match
 * adds its output folder. Then check every entrant's view now, with the file's lines, rather
 * than in a worker: a refusal names the line and how to lay the folders out. */
static int entrants_hide(const ar_tour *t, tentrants *te, const ar_sandbox_cfg *sb,
                         const char *out_dir)
{
    ar_match_config cfg = {.bots = te->e, .nbots = te->n, .sandbox = *sb, .out_dir = out_dir};
    te->own = ar_xcalloc((size_t)te->n, sizeof *te->own);
    te->labels = ar_xcalloc((size_t)te->n + 1, sizeof *te->labels);
    int cap = 1;
    for (int i = 0; i < te->n; i++) {
        char l[300];
        snprintf(l, sizeof l, "the files of entrant %s", te->e[i].name);
        te->labels[i] = ar_xstrdup(l);
        te->own[i] = ar_match_own(&cfg, i);
        for (int k = 0; te->own[i][k]; k++)
            cap++;
    }
    te->hide = ar_xcalloc((size_t)cap, sizeof *te->hide);
    te->hide[te->nhide++] = (ar_hidden){t->path, "the tournament file, which names the seed", NULL};
    for (int i = 0; i < te->n; i++)
        for (int k = 0; te->own[i][k]; k++)
            te->hide[te->nhide++] = (ar_hidden){te->own[i][k], te->labels[i], te->e[i].name};
    cfg.hide = te->hide;
    cfg.nhide = te->nhide;
    for (int i = 0; i < te->n; i++) {
        char msg[2 * PATH_MAX + 600];
        ar_jail_clash c;
        memset(&c, 0, sizeof c);
        char **v = ar_match_view_check(&cfg, i, msg, sizeof msg, &c);
        if (v) {
            ar_spawn_argv_free(v);
            continue;
        }
        const ar_tour_entrant *en = &t->entrant[i];
        int line = c.kind == AR_SHOW_OWN && en->files_line ? en->files_line
                   : (c.kind == AR_SHOW_PROGRAM || c.kind == AR_SHOW_SCRIPT) && en->command_line
                       ? en->command_line
                       : en->line;
        fprintf(stderr, "%s:%d: entrant %s: %s\n", t->path, line, en->name, msg);
        ar_spawn_view_forget();
        return -EPERM;
    }
    ar_spawn_view_forget();
    return 0;
}

/* Split and resolve every command (ar_tour_argv: a relative program is taken against the
 * .tour file's folder); an argument that is a relative path to an existing file there (the
 * script of `python3 bots/x.py`) is made absolute too, so the bot finds it from any folder. */
static int entrants_make(const ar_tour *t, tentrants *te)
{
    te->n = t->nentrants;
    te->e = ar_xcalloc((size_t)te->n, sizeof *te->e);
    te->argv = ar_xcalloc((size_t)te->n, sizeof *te->argv);
    te->path = ar_xcalloc((size_t)te->n, sizeof *te->path);
    for (int i = 0; i < te->n; i++) {
        const ar_tour_entrant *en = &t->entrant[i];
        ar_entrant *e = &te->e[i];
        e->name = en->name;
        e->command = en->command;
        e->profile = en->profile && strcmp(en->profile, "auto") != 0 ? en->profile : NULL;
        e->memory_mb = en->memory_mb ? en->memory_mb : t->memory_mb;
        e->startup_ms = en->startup_ms;
        e->own = en->files;
        e->cwd = t->dir; /* `python3 bot.py` finds bot.py beside the tour file */
        if (ar_tour_builtin(t, i, &e->policy)) {
            e->builtin = 1;
            continue;
        }
        char err[256];
        int argc;
        if (ar_tour_argv(t, i, &te->argv[i], &argc, err, sizeof err) < 0) {
            fprintf(stderr, "%s:%d: entrant %s: command: %s\n", t->path, en->line, en->name, err);
            return -EINVAL;
        }
        for (int a = 1; a < argc && t->dir; a++) {
            char *w = te->argv[i][a];
            char cand[PATH_MAX];
            if (w[0] == '/' || !strchr(w, '/') ||
                snprintf(cand, sizeof cand, "%s/%s", t->dir, w) >= (int)sizeof cand)
                continue;
            char real[PATH_MAX]; /* canonical: the jail shows only real folders */
            if (realpath(cand, real)) {
                free(te->argv[i][a]);
                te->argv[i][a] = ar_xstrdup(real);
            }
        }
        char path[PATH_MAX];
        int rc = ar_spawn_resolve(te->argv[i][0], path, sizeof path);
        if (rc < 0) {
            fprintf(stderr, "%s:%d: entrant %s: %s: %s\n", t->path, en->line, en->name,
                    te->argv[i][0],
                    rc == -ENOENT ? (strchr(te->argv[i][0], '/') ? "no such file (build it first?)"
                                                                 : "not found in PATH")
                    : rc == -EACCES ? "not an executable file"
                                    : strerror(-rc));
            return -ENOENT;
        }
        te->path[i] = ar_xstrdup(path);
        e->argv = te->argv[i];
        e->path = te->path[i];
    }
    return 0;
}

/* ---- Workers -------------------------------------------------------------------------------- */

typedef struct wctx {
    const ar_tour_set_job *job;
    const ar_set_plan *plan;
    int k, fd;
    int failed;          /* a write to the parent failed */
    const char *out_dir; /* where the records are (the luck adjustment reads them back) */
} wctx;

static void w_game_id(char *buf, size_t cap, long long deal, int rotation, void *ud)
{
    const wctx *w = ud;
    (void)deal;
    if (w->job->game_id)
        w->job->game_id(buf, cap, w->plan, rotation, w->job->ud);
    else
        ar_schedule_game_id(buf, cap, w->job->t->seed, w->plan, rotation);
}

static int send_line(wctx *w, char tag, const char *text)
{
    size_t n = strlen(text);
    char *buf = ar_xmalloc(n + 3);
    buf[0] = tag;
    buf[1] = ' ';
    memcpy(buf + 2, text, n);
    buf[n + 2] = '\n';
    int rc = ar_write_all(w->fd, buf, n + 3);
    free(buf);
    if (rc < 0)
        w->failed = 1;
    return rc;
}

/* luck_adjusted (docs/luck.md): each seat's counted total minus its luck, summed from the
 * game's record with the arena's value estimate. Off the bots' clocks: the game is over and
 * its record closed. Left out (and so the adjusted ratings too) if the record cannot be read. */
static void add_luck(json_t *j, const char *out_dir, const char *rec, const ar_game_outcome *o,
                     int v)
{
    char *path = path_in(out_dir ? out_dir : ".", rec);
    FILE *f = fopen(path, "r");
    ar_luck L;
    int32_t tot[OKR_MAX_PLAYERS];
    int completed = 0;
    char err[256];
    if (f && ar_luck_record(f, path, v, &L, tot, &completed, err, sizeof err) == 0 &&
        L.players == o->players) {
        json_t *a = json_array();
        for (int s = 0; s < o->players; s++)
            json_array_append_new(a, jnum(o->final_total[s] - L.luck[s], 2));
        json_object_set_new(j, "luck_adjusted", a);
    }
    if (f)
        fclose(f);
    free(path);
}

static void w_on_game(const ar_game_outcome *o, void *ud)
{
    wctx *w = ud;
    const ar_set_plan *p = w->plan;
    int k = w->k;
    long long index = p->set * k + o->rotation;
    json_t *j = json_object();
    json_object_set_new(j, "game", json_integer(index));
    json_object_set_new(j, "set", json_integer(p->set));
    json_object_set_new(j, "table", json_integer(p->table));
    json_object_set_new(j, "deal", json_integer(p->deal));
    json_object_set_new(j, "rotation", json_integer(o->rotation));
    json_object_set_new(j, "game_id", json_string(o->game_id));
    json_object_set_new(j, "deal_seed", ju64(o->deal_seed));
    json_t *seat = json_array(), *names = json_array(), *tot = json_array(), *pl = json_array(),
           *win = json_array(), *ff = json_array(), *dec = json_array(), *sub = json_array();
    for (int s = 0; s < o->players; s++) {
        int en = p->order[o->entrant[s]]; /* match bot j is the set's order[j] */
        json_array_append_new(seat, json_integer(w->job->id ? w->job->id[en] : en));
        json_array_append_new(names, json_string(w->job->e[en].name));
        json_array_append_new(tot, json_integer(o->final_total[s]));
        json_array_append_new(pl, json_integer(o->placement[s]));
        if (o->winners & (1u << s))
            json_array_append_new(win, json_integer(s));
        if (o->forfeits & (1u << s))
            json_array_append_new(ff, json_integer(s));
        json_array_append_new(dec, json_integer(o->decisions[s]));
        json_array_append_new(sub, json_integer(o->substituted[s]));
    }
    json_object_set_new(j, "seating", seat);
    json_object_set_new(j, "names", names);
    json_object_set_new(j, "played", json_boolean(o->played));
    json_object_set_new(j, "completed", json_boolean(o->completed));
    json_object_set_new(j, "final_total", tot);
    json_object_set_new(j, "placements", pl);
    json_object_set_new(j, "winners", win);
    json_object_set_new(j, "forfeits", ff);
    if (!o->completed) /* docs/rules.md "Forfeits": the margin behind the forfeit totals */
        json_object_set_new(j, "forfeit_margin", json_integer(o->forfeit_margin));
    json_object_set_new(j, "hands", json_integer(o->nhands));
    json_t *hs = json_array();
    for (int h = 0; h < o->nhands; h++) {
        json_t *row = json_array();
        for (int s = 0; s < o->players; s++)
            json_array_append_new(row, json_integer(o->hand_scores[h][s]));
        json_array_append_new(hs, row);
    }
    json_object_set_new(j, "hand_scores", hs);
    json_t *vs = json_array();
    for (int i = 0; i < o->nverdicts; i++) {
        const ar_seat_verdict *v = &o->verdicts[i];
        json_t *vj = json_object();
        json_object_set_new(vj, "seat", json_integer(v->seat));
        int en = p->order[o->entrant[v->seat]];
        json_object_set_new(vj, "entrant", json_integer(w->job->id ? w->job->id[en] : en));
        json_object_set_new(vj, "verdict", json_string(ar_verdict_name(v->v.kind)));
        if (v->v.clock[0])
            json_object_set_new(vj, "clock", json_string(v->v.clock));
        if (v->v.rule[0])
            json_object_set_new(vj, "rule", json_string(v->v.rule));
        char detail[sizeof v->v.detail];
        ar_sanitize(v->v.detail, strlen(v->v.detail), detail, sizeof detail);
        json_object_set_new(vj, "detail", json_string(detail));
        json_object_set_new(vj, "hand", json_integer(v->hand));
        json_object_set_new(vj, "action", json_integer(v->action));
        if (o->log[v->seat])
            json_object_set_new(vj, "log", json_string(o->log[v->seat]));
        json_array_append_new(vs, vj);
    }
    json_object_set_new(j, "verdicts", vs);
    json_object_set_new(j, "actions", json_integer(o->actions));
    json_object_set_new(j, "decisions", dec);
    json_object_set_new(j, "substituted", sub);
    char d[24];
    snprintf(d, sizeof d, "%016" PRIx64, o->digest);
    json_object_set_new(j, "digest", json_string(d));
    if (o->played) {
        char rec[300];
        snprintf(rec, sizeof rec, "records/%s.jsonl", o->game_id);
        json_object_set_new(j, "record", json_string(rec));
        if (!w->job->t->luck_off) /* docs/luck.md: from the closed record, after the game */
            add_luck(j, w->out_dir, rec, o,
                     w->job->t->luck_rollout ? AR_LUCK_V_ROLLOUT : AR_LUCK_V_HAND);
    }
    char *text = json_dumps(j, JSON_COMPACT | JSON_ENSURE_ASCII);
    json_decref(j);
    send_line(w, 'G', text);
    free(text);

    /* timings: a separate file, never part of the results */
    json_t *tj = json_object();
    json_object_set_new(tj, "game", json_integer(index));
    json_object_set_new(tj, "game_id", json_string(o->game_id));
    json_object_set_new(tj, "seconds", jnum(o->seconds, 3));
    json_t *wm = json_array(), *mm = json_array(), *cm = json_array();
    for (int s = 0; s < o->players; s++) {
        json_array_append_new(wm, jnum(o->wall_ms[s], 3));
        json_array_append_new(mm, jnum(o->max_ms[s], 3));
        json_array_append_new(cm, jnum(o->cpu_ms[s], 3));
    }
    json_object_set_new(tj, "wall_ms", wm);
    json_object_set_new(tj, "max_ms", mm);
    json_object_set_new(tj, "cpu_ms", cm);
    text = json_dumps(tj, JSON_COMPACT | JSON_ENSURE_ASCII);
    json_decref(tj);
    send_line(w, 'T', text);
    free(text);
}

/* The worker (ar_spawn_worker: dies with the parent, only stdio and its pipe, fd 3, open):
 * play one set as one match, stream its games, exit. Never returns. */
static void worker_main(void *arg)
{
    const ar_tour_set_job *job = arg;
    const ar_tour *t = job->t;
    const ar_set_plan *plan = job->plan;
    const ar_tour_run_opts *o = job->o;
    const char *out_dir = o->out_dir;
    int fd = 3;
    char title[16]; /* "arena:s<set>" in ps and /proc/PID/comm */
    snprintf(title, sizeof title, "arena:s%lld", plan->set);
    prctl(PR_SET_NAME, title, 0, 0, 0);

    int k = t->seats;
    ar_entrant bots[AR_SCHED_MAX_SEATS];
    for (int j = 0; j < k; j++)
        bots[j] = job->e[plan->order[j]];
    wctx w = {.job = job, .plan = plan, .k = k, .fd = fd, .out_dir = out_dir};
    char prefix[48];
    snprintf(prefix, sizeof prefix, "s%lld-", plan->set);
    ar_match_config cfg = {
        .rules = t->rules,
        .players = k,
        .deals = 1,
        .first_deal = plan->deal,
        .games_requested = k,
        .seed = t->seed,
        .bots = bots,
        .nbots = k,
        .clocks = t->clocks,
        .ponder = t->ponder,
        .pace_ms = t->pace_ms,
        .on_error = t->on_error,
        .substitute = t->substitute,
        .max_error_share = t->max_error_share,
        .dq_min_games = AR_TOUR_DQ_MIN_GAMES,
        .out_dir = out_dir,
        .quiet = 1,
        .max_pending = (size_t)16 << 20,
        .log_cap = (size_t)1 << 20,
        .bye_ms = 1000,
        .eof_ms = 500,
        .game_id = w_game_id,
        .on_game = w_on_game,
        .ud = &w,
        .no_summary = 1,
        .log_prefix = prefix,
        .stdout_cap = o->stdout_cap,
        .live_records = o->live,
        .sandbox = o->sandbox,
        /* the tour file; the match hides its own bots' files and the output folder. The
         * other entrants' files were checked against every view before the first set
         * (entrants_hide): 200 more paths would cost each bot's start milliseconds */
        .hide = job->hide,
        .nhide = job->nhide,
    };
    FILE *trace = NULL;
    int traced = 0;
    for (int j = 0; j < k && o->trace; j++)
        traced |= ar_match_traced(o->trace, -1, bots[j].name);
    if (traced) {
        char *dir = path_in(out_dir, "traces"), name[64];
        snprintf(name, sizeof name, "s%lld.trace", plan->set);
        char *path = path_in(dir, name);
        if (ar_mkdir_p(dir) == 0)
            trace = fopen(path, "w");
        if (!trace)
            fprintf(stderr, "arena: --trace: cannot write '%s': %s\n", path, strerror(errno));
        free(dir);
        free(path);
        cfg.trace = trace;
        cfg.trace_sel = o->trace;
    }
    ar_match *m = ar_match_new(&cfg);
    int rc = ar_match_run(m);
    ar_match_free(m);
    if (trace)
        fclose(trace);
    _exit(rc == 0 && !w.failed ? 0 : rc == -EINTR ? 3 : 1);
}

/* ---- The parent ------------------------------------------------------------------------------
 */

static volatile sig_atomic_t g_stop;

static void on_stop_signal(int sig)
{
    if (!g_stop)
        g_stop = sig;
}

typedef ar_tour_set_proc worker;

typedef struct run {
    const ar_tour *t;
    const ar_tour_run_opts *o;
    tinfo ti;
    ar_schedule s;
    tentrants te;
    ar_journal *jn;
    FILE *timings;
    int *done;        /* [nsets]: journaled */
    int *attempts;    /* [nsets]: workers that died on it */
    double *x;        /* [nsets]: gauntlet set differences */
    long long *queue; /* sets to play, in order */
    long long nqueue, qhead;
    long long prefix; /* sets 0..prefix-1 journaled */
    int decided;      /* gauntlet: the SPRT decided on the prefix */
    long long games_done, games_total, games_at_start;
    double rel_sum[AR_SCHED_MAX_ENTRANTS];
    long long rel_n[AR_SCHED_MAX_ENTRANTS];
    long long vlines[AR_SCHED_MAX_ENTRANTS]; /* verdict lines printed per entrant */
    double t0, last_plain, last_bar;
    int fatal;
} run;

void ar_tour_set_reset(ar_tour_set_proc *w)
{
    for (int r = 0; w->games && r < w->k; r++)
        free(w->games[r]);
    for (int i = 0; i < w->ntimings; i++)
        free(w->timings[i]);
    free(w->games);
    free(w->timings);
    free(w->buf);
    memset(w, 0, sizeof *w);
    w->pid = -1;
    w->fd = -1;
}

static void account_game(run *R, const tgame *g)
{
    int k = R->ti.k;
    double mean = 0;
    for (int q = 0; q < k; q++)
        mean += g->total[q];
    mean /= k;
    for (int q = 0; q < k; q++) {
        R->rel_sum[g->entrant[q]] += g->total[q] - mean;
        R->rel_n[g->entrant[q]]++;
    }
}

/* The SPRT after new sets joined the contiguous prefix. */
static void advance_prefix(run *R)
{
    long long old = R->prefix;
    while (R->prefix < R->s.nsets && R->done[R->prefix])
        R->prefix++;
    if (!R->ti.sprt || R->o->shard_n > 0 || R->decided || R->prefix == old)
        return;
    long long used;
    double llr;
    if (sprt_scan(&R->ti, R->x, R->prefix, &used, &llr) != 0)
        R->decided = 1;
}

static void progress(run *R, int final)
{
    if (R->o->quiet)
        return;
    double now = ar_now_ms();
    if (R->o->progress && !final && now - R->last_bar < 200)
        return; /* a terminal line 5 times a second is plenty */
    R->last_bar = now;
    double secs = (now - R->t0) / 1000.0;
    long long played = R->games_done - R->games_at_start;
    double rate = secs > 0 ? played / secs : 0;
    long long left = R->games_total - R->games_done;
    int best = -1;
    for (int i = 0; i < R->ti.n; i++)
        if (R->rel_n[i] &&
            (best < 0 || R->rel_sum[i] / R->rel_n[i] > R->rel_sum[best] / R->rel_n[best]))
            best = i;
    char leader[192] = "";
    if (best >= 0)
        /* the scale named: a mean over the games so far, of a seat's total minus its table's
         * mean, not the rating the results give (docs/report.md lists the labels) */
        snprintf(leader, sizeof leader, "  leader %s (%+.1f pts/game vs table mean, so far)",
                 R->ti.names[best], R->rel_sum[best] / R->rel_n[best]);
    char eta[32] = "?";
    if (rate > 0) {
        long long e = (long long)(left / rate);
        snprintf(eta, sizeof eta, "%lld:%02lld", e / 60, e % 60);
    }
    if (R->o->progress) {
        int width = 24;
        int fill = R->games_total ? (int)(width * R->games_done / R->games_total) : width;
        char bar[32];
        for (int i = 0; i < width; i++)
            bar[i] = i < fill ? '#' : '.';
        bar[width] = '\0';
        fprintf(stderr, "\r[%s] %lld/%lld games  %.1f games/s  left %s%s\033[K%s", bar,
                R->games_done, R->games_total, rate, eta, leader, final ? "\n" : "");
    } else if (final || now - R->last_plain >= 10000) {
        fprintf(stderr, "arena: %lld/%lld games, %.1f games/s, about %s left%s\n", R->games_done,
                R->games_total, rate, eta, leader);
        R->last_plain = now;
    }
}

enum { VERDICT_LINES_MAX = 5 }; /* per entrant; results.json lists them all */

static const char *str_of(const json_t *o, const char *key)
{
    const char *v = json_string_value(json_object_get(o, key));
    return v ? v : "?";
}

/* A line on stderr for each verdict of a journaled game: who, which game, what, and where the
 * evidence is. At most VERDICT_LINES_MAX per entrant, then one line saying where the rest is. */
static void say_verdicts(run *R, const char *payload)
{
    if (R->o->quiet)
        return;
    json_t *j = json_loads(payload, 0, NULL);
    const json_t *vs = json_object_get(j, "verdicts"), *v;
    const char *gid = json_string_value(json_object_get(j, "game_id"));
    size_t vi;
    json_array_foreach(vs, vi, v)
    {
        json_int_t en = json_integer_value(json_object_get(v, "entrant"));
        if (en < 0 || en >= R->ti.n)
            continue;
        const char *name = R->ti.names[en];
        long long shown = R->vlines[en]++;
        if (shown > VERDICT_LINES_MAX)
            continue;
        if (R->o->progress)
            fprintf(stderr, "\r\033[K");
        if (shown == VERDICT_LINES_MAX) {
            fprintf(stderr,
                    "arena: %s: more verdicts are not shown here; results.json lists them "
                    "with their logs\n",
                    name);
            continue;
        }
        const char *clock = json_string_value(json_object_get(v, "clock"));
        const char *rule = json_string_value(json_object_get(v, "rule"));
        const char *log = json_string_value(json_object_get(v, "log"));
        fprintf(stderr, "arena: %s, game %s seat %lld: %s%s%s%s%s: %s%s%s%s%s\n", name,
                gid ? gid : "?", (long long)json_integer_value(json_object_get(v, "seat")),
                str_of(v, "verdict"), clock ? " " : "", clock ? clock : "", rule ? " RULES " : "",
                rule ? rule : "", str_of(v, "detail"), log ? "; log: " : "",
                log ? R->o->out_dir : "", log ? "/" : "", log ? log : "");
    }
    json_decref(j);
}

/* A worker's set is complete: journal its games in rotation order. */
static int journal_set(run *R, worker *w)
{
    int k = R->ti.k;
    tgame tg[AR_SCHED_MAX_SEATS];
    char why[256];
    for (int r = 0; r < k; r++) {
        long long index = w->set * k + r;
        if (!w->games[r] || parse_game(w->games[r], index, &R->s, k, &tg[r], why, sizeof why) < 0) {
            fprintf(stderr, "arena: set %lld: the worker sent a bad game: %s\n", w->set,
                    w->games[r] ? why : "missing");
            return -EINVAL;
        }
    }
    for (int r = 0; r < k; r++) {
        int rc = ar_journal_append(R->jn, w->set * k + r, w->games[r]);
        if (rc < 0) {
            fprintf(stderr, "arena: cannot write the journal: %s\n", strerror(-rc));
            return rc;
        }
    }
    for (int i = 0; i < w->ntimings; i++)
        if (R->timings)
            fprintf(R->timings, "%s\n", w->timings[i]);
    if (R->timings)
        fflush(R->timings);
    for (int r = 0; r < k; r++) {
        account_game(R, &tg[r]);
        say_verdicts(R, w->games[r]);
    }
    R->x[w->set] = set_diff(&R->ti, tg, k);
    R->done[w->set] = 1;
    R->games_done += k;
    advance_prefix(R);
    return 0;
}

/* Lines from a worker: "G payload" and "T timing". */
static void worker_lines(worker *w)
{
    int k = w->k;
    size_t start = 0;
    for (size_t i = 0; i < w->len; i++) {
        if (w->buf[i] != '\n')
            continue;
        w->buf[i] = '\0';
        const char *line = w->buf + start;
        start = i + 1;
        if (line[0] == 'G' && line[1] == ' ') {
            json_t *j = json_loads(line + 2, 0, NULL);
            json_int_t r = j ? json_integer_value(json_object_get(j, "rotation")) : -1;
            json_decref(j);
            if (r < 0 || r >= k || w->games[r]) {
                w->bad = 1;
                continue;
            }
            w->games[r] = ar_xstrdup(line + 2);
            w->ngames++;
        } else if (line[0] == 'T' && line[1] == ' ') {
            w->timings = ar_xrealloc(w->timings, (size_t)(w->ntimings + 1) * sizeof *w->timings);
            w->timings[w->ntimings++] = ar_xstrdup(line + 2);
        } else {
            w->bad = 1;
        }
    }
    memmove(w->buf, w->buf + start, w->len - start);
    w->len -= start;
}

int ar_tour_set_read(ar_tour_set_proc *w)
{
    if (w->cap - w->len < 65536) {
        w->cap = w->cap ? 2 * w->cap : 131072;
        w->buf = ar_xrealloc(w->buf, w->cap);
    }
    ssize_t n = read(w->fd, w->buf + w->len, w->cap - w->len);
    if (n > 0) {
        w->len += (size_t)n;
        worker_lines(w);
        return 1;
    }
    return n == 0 || (errno != EINTR && errno != EAGAIN) ? 0 : 1;
}

int ar_tour_set_reap(ar_tour_set_proc *w)
{
    int st = 0;
    while (waitpid(w->pid, &st, 0) < 0 && errno == EINTR)
        ;
    return st;
}

int ar_tour_set_whole(const ar_tour_set_proc *w, int st)
{
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 && w->ngames == w->k && !w->bad;
}

int ar_tour_set_start(const ar_tour_set_job *job, ar_tour_set_proc *w)
{
    int k = job->t->seats;
    int p[2];
    if (pipe2(p, O_CLOEXEC) < 0) {
        fprintf(stderr, "arena: pipe2: %s\n", strerror(errno));
        return -errno;
    }
    /* fork without exec: the worker is this program playing one set (tournament.h) */
    pid_t pid = ar_spawn_worker(worker_main, (void *)job, p[1]);
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        fprintf(stderr, "arena: fork: %s\n", strerror((int)-pid));
        return (int)pid;
    }
    close(p[1]);
    memset(w, 0, sizeof *w);
    w->pid = pid;
    w->fd = p[0];
    w->set = job->plan->set;
    w->k = k;
    w->games = ar_xcalloc((size_t)k, sizeof *w->games);
    return 0;
}

static int start_worker(run *R, worker *w, long long set)
{
    ar_set_plan plan;
    ar_schedule_set(&R->s, set, &plan);
    if (R->timings)
        fflush(R->timings);
    ar_tour_set_job job = {
        .t = R->t, .o = R->o, .e = R->te.e, .plan = &plan, .hide = R->te.hide, .nhide = 1};
    return ar_tour_set_start(&job, w);
}

static const char *status_text(int st, char *buf, size_t cap)
{
    if (WIFEXITED(st))
        snprintf(buf, cap, "exited with status %d", WEXITSTATUS(st));
    else if (WIFSIGNALED(st))
        snprintf(buf, cap, "killed by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
    else
        snprintf(buf, cap, "status %d", st);
    return buf;
}

/* A worker's pipe is closed: reap it and take its set (or plan to play it again). */
static void worker_finished(run *R, worker *w)
{
    int st = ar_tour_set_reap(w);
    int k = R->ti.k;
    char sbuf[96];
    if (ar_tour_set_whole(w, st)) {
        if (journal_set(R, w) < 0)
            R->fatal = 1;
    } else if (g_stop || R->decided) {
        /* we stopped it: its set stays unplayed */
    } else if (R->attempts[w->set]++ == 0) {
        fprintf(stderr,
                "%sarena: the worker of set %lld (pid %d) %s after %d of %d games: an arena "
                "failure, not a bot's; playing the set again\n",
                R->o->progress && !R->o->quiet ? "\n" : "", w->set, (int)w->pid,
                status_text(st, sbuf, sizeof sbuf), w->ngames, k);
        R->queue[--R->qhead] = w->set; /* first in line */
    } else {
        fprintf(stderr,
                "%sarena: the worker of set %lld (pid %d) %s again, after %d of %d games; the "
                "tournament stops. Its finished games are in the journal; `--resume` tries "
                "again.\n",
                R->o->progress && !R->o->quiet ? "\n" : "", w->set, (int)w->pid,
                status_text(st, sbuf, sizeof sbuf), w->ngames, k);
        R->fatal = 1;
    }
    close(w->fd);
    ar_tour_set_reset(w);
}

static void stop_workers(worker *ws, int j, int sig)
{
    for (int i = 0; i < j; i++)
        if (ws[i].pid > 0)
            kill(ws[i].pid, sig);
}

/* Play the queue. Returns 0, or -EINTR (signal), or -EIO (fatal). */
static int play(run *R)
{
    int J = R->o->jobs;
    worker *ws = ar_xcalloc((size_t)J, sizeof *ws);
    for (int i = 0; i < J; i++) {
        ws[i].pid = -1;
        ws[i].fd = -1;
    }
    struct pollfd *pf = ar_xcalloc((size_t)J, sizeof *pf);
    int stopping = 0;
    double stop_at = 0;
    for (;;) {
        int running = 0;
        for (int i = 0; i < J; i++)
            running += ws[i].pid > 0;
        int may_start = !g_stop && !R->fatal && !R->decided;
        for (int i = 0; i < J && may_start && R->qhead < R->nqueue; i++)
            if (ws[i].pid <= 0) {
                long long set = R->queue[R->qhead];
                if (R->done[set]) {
                    R->qhead++;
                    i--;
                    continue;
                }
                if (start_worker(R, &ws[i], set) < 0) {
                    R->fatal = 1;
                    break;
                }
                R->qhead++;
                running++;
            }
        if (running == 0)
            break;
        if ((g_stop || R->fatal || R->decided) && !stopping) {
            stopping = 1;
            stop_at = ar_now_ms();
            stop_workers(ws, J, SIGTERM); /* each match says Bye and kills its bots */
        }
        if (stopping && ar_now_ms() - stop_at > 8000)
            stop_workers(ws, J, SIGKILL);
        int np = 0;
        for (int i = 0; i < J; i++)
            if (ws[i].pid > 0) {
                pf[np].fd = ws[i].fd;
                pf[np].events = POLLIN;
                pf[np].revents = 0;
                np++;
            }
        int pr = poll(pf, (nfds_t)np, 250);
        if (pr < 0 && errno != EINTR) {
            fprintf(stderr, "arena: poll: %s\n", strerror(errno));
            R->fatal = 1;
        }
        for (int i = 0, q = 0; i < J; i++) {
            if (ws[i].pid <= 0)
                continue;
            short re = pf[q++].revents;
            if (!re)
                continue;
            worker *w = &ws[i];
            if (ar_tour_set_read(w) == 0)
                worker_finished(R, w);
        }
        progress(R, 0);
    }
    free(ws);
    free(pf);
    if (R->fatal)
        return -EIO;
    return g_stop ? -EINTR : 0;
}

static void resume_hint(const run *R)
{
    const ar_tour_run_opts *o = R->o;
    fprintf(stderr, "arena: resume with: %s --out %s --resume",
            o->command ? o->command : "arena tournament FILE", o->out_dir);
    if (o->shard_n > 0)
        fprintf(stderr, " --shard %d/%d", o->shard_k, o->shard_n);
    fprintf(stderr, "\n");
}

static int print_plan(const ar_tour *t, const tinfo *ti, const ar_schedule *s, const char *hash)
{
    printf("tournament %s (%s): %s, %d seats, %s, %d entrants, configuration %s\n",
           t->name ? t->name : "", t->path, t->rules.preset, ti->k, format_name(ti->format), ti->n,
           hash);
    printf("%d tables (%s), %lld deals each: %lld sets, %lld games\n", s->ntables,
           s->complete ? "every table" : "a balanced design", ti->deals, s->nsets, s->ngames);
    for (int i = 0; i < ti->n; i++) {
        int tables = 0, meets = 0;
        for (int q = 0; q < s->ntables; q++)
            for (int j = 0; j < ti->k; j++)
                tables += s->table[q].entrant[j] == i;
        for (int j = 0; j < ti->n; j++)
            meets += j != i && s->pair_meets[i * ti->n + j] > 0;
        printf("  %-24s %s: %d tables, meets %d of %d others\n", ti->names[i],
               t->entrant[i].command, tables, meets, ti->n - 1);
    }
    for (int q = 0; q < s->ntables && q < 50; q++) {
        printf("  table %d:", q);
        for (int j = 0; j < ti->k; j++)
            printf(" %s", ti->names[s->table[q].entrant[j]]);
        printf("\n");
    }
    if (s->ntables > 50)
        printf("  ... %d more tables\n", s->ntables - 50);
    return AR_EXIT_OK;
}

int ar_tournament_run(const ar_tour *t, const ar_tour_run_opts *o)
{
    run R;
    memset(&R, 0, sizeof R);
    R.t = t;
    R.o = o;
    int status = AR_EXIT_FAIL;
    char err[512] = "", hash[17];
    json_t *config = config_json(t, o), *man = NULL;
    int lockfd = -1; /* one arena per output folder, for the whole run */
    config_hash(config, hash);
    if (tinfo_from(config, &R.ti, err, sizeof err) < 0) {
        fprintf(stderr, "arena: %s: %s\n", t->path, err);
        json_decref(config);
        return AR_EXIT_USAGE;
    }
    if (make_schedule(&R.ti, &R.s, err, sizeof err) < 0) {
        fprintf(stderr, "arena: %s: %s\n", t->path, err);
        status = AR_EXIT_USAGE;
        goto out;
    }
    if (o->plan) {
        status = print_plan(t, &R.ti, &R.s, hash);
        goto out;
    }
    if (entrants_make(t, &R.te) < 0 || entrants_hide(t, &R.te, &o->sandbox, o->out_dir) < 0) {
        status = AR_EXIT_USAGE;
        goto out;
    }

    /* the output folder: ours alone while we run (a second arena, a second --resume, would
     * play the same games and write them twice); new, or this very tournament with --resume */
    if ((lockfd = ar_outlock(o->out_dir, "--out")) == -1) {
        status = AR_EXIT_USAGE;
        goto out;
    }
    int ne = dir_nonempty(o->out_dir);
    if (ne < 0) {
        fprintf(stderr, "arena: --out %s: %s\n", o->out_dir, strerror(-ne));
        goto out;
    }
    if (ne && !o->resume) {
        fprintf(stderr,
                "arena: %s is not empty: give --resume to continue the tournament in it, or "
                "another --out\n",
                o->out_dir);
        status = AR_EXIT_USAGE;
        goto out;
    }
    if (ne) {
        man = read_manifest(o->out_dir, err, sizeof err);
        if (!man) {
            fprintf(stderr, "arena: --resume: %s: %s is not a tournament's folder\n", err,
                    o->out_dir);
            status = AR_EXIT_USAGE;
            goto out;
        }
        const char *h = json_string_value(json_object_get(man, "config_hash"));
        if (strcmp(h, hash) != 0) {
            fprintf(stderr,
                    "arena: --resume: %s holds another tournament (configuration %s; %s with "
                    "these options is %s)\n",
                    o->out_dir, h, t->path, hash);
            status = AR_EXIT_USAGE;
            goto out;
        }
        const json_t *sh = json_object_get(man, "shard");
        int mk = json_is_object(sh) ? (int)json_integer_value(json_object_get(sh, "k")) : 0;
        int mn = json_is_object(sh) ? (int)json_integer_value(json_object_get(sh, "n")) : 0;
        if (mk != o->shard_k || mn != o->shard_n) {
            fprintf(stderr, "arena: --resume: %s holds %s%d/%d, not %s%d/%d\n", o->out_dir,
                    mn ? "shard " : "the whole tournament", mk, mn, o->shard_n ? "shard " : "",
                    o->shard_k, o->shard_n);
            status = AR_EXIT_USAGE;
            goto out;
        }
    }
    int rc = ar_mkdir_p(o->out_dir);
    if (rc < 0) {
        fprintf(stderr, "arena: --out %s: %s\n", o->out_dir, strerror(-rc));
        goto out;
    }
    if (!man) {
        man = manifest(config, hash, o->shard_k, o->shard_n, t->path);
        if (write_json_atomic(o->out_dir, "tournament.json", man) < 0)
            goto out;
    }

    /* the journal: read, check, repair */
    char *jpath = path_in(o->out_dir, "journal.jsonl");
    ar_journal_data jd;
    jfits jf = {.s = &R.s, .k = R.ti.k, .shard_k = o->shard_k, .shard_n = o->shard_n};
    if (ar_journal_read(jpath, &jd, journal_fits, &jf, err, sizeof err) < 0) {
        fprintf(stderr, "arena: %s\n", err);
        free(jpath);
        goto out;
    }
    int k = R.ti.k;
    long long nsets = R.s.nsets;
    R.done = ar_xcalloc((size_t)nsets, sizeof *R.done);
    R.attempts = ar_xcalloc((size_t)nsets, sizeof *R.attempts);
    R.x = ar_xcalloc((size_t)nsets, sizeof *R.x);
    {
        /* keep only whole sets; every entry fits the schedule (journal_fits) */
        int *cnt = ar_xcalloc((size_t)nsets, sizeof *cnt);
        tgame *tg = ar_xcalloc((size_t)(jd.n ? jd.n : 1), sizeof *tg);
        char why[256];
        for (long long i = 0; i < jd.n; i++) {
            if (parse_game(jd.e[i].payload, jd.e[i].index, &R.s, k, &tg[i], why, sizeof why) < 0)
                abort(); /* journal_fits accepted it */
            cnt[tg[i].set]++;
        }
        long long w = 0;
        for (long long i = 0; i < jd.n; i++) {
            if (cnt[tg[i].set] != k) {
                if (i == 0 || tg[i - 1].set != tg[i].set)
                    fprintf(stderr,
                            "%s: set %lld has %d of %d games; it will be played again whole\n",
                            jpath, tg[i].set, cnt[tg[i].set], k);
                jd.needs_repair = 1;
                free(jd.e[i].payload);
                continue;
            }
            R.done[tg[i].set] = 1;
            account_game(&R, &tg[i]);
            if (tg[i].rotation == k - 1)
                R.x[tg[i].set] = set_diff(&R.ti, &tg[i - (k - 1)], k);
            jd.e[w++] = jd.e[i];
        }
        jd.n = w;
        free(cnt);
        free(tg);
    }
    /* now that the sets to play are known, say what becomes of every dropped line */
    jf.done = R.done;
    ar_journal_report(&jd, jpath, stderr, journal_fate, &jf);
    if (jd.needs_repair) {
        char kept[PATH_MAX];
        rc = ar_journal_keep(jpath, kept, sizeof kept);
        if (rc == 0)
            rc = ar_journal_rewrite(jpath, jd.e, jd.n);
        if (rc < 0) {
            fprintf(stderr, "arena: cannot repair %s: %s\n", jpath, strerror(-rc));
            ar_journal_data_free(&jd);
            free(jpath);
            goto out;
        }
        fprintf(stderr, "arena: %s repaired: %lld good games kept; the journal as it was is %s\n",
                jpath, jd.n, kept);
    }
    R.games_done = jd.n;
    ar_journal_data_free(&jd);
    R.jn = ar_journal_open(jpath, err, sizeof err);
    free(jpath);
    if (!R.jn) {
        fprintf(stderr, "arena: %s\n", err);
        goto out;
    }
    char *tpath = path_in(o->out_dir, "timings.jsonl");
    R.timings = fopen(tpath, "a");
    free(tpath);
    advance_prefix(&R);

    /* the sets to play */
    R.queue = ar_xmalloc((size_t)(nsets + 1) * sizeof *R.queue);
    R.qhead = 1; /* one slot in front, for a set played again */
    R.nqueue = 1;
    R.games_total = 0;
    for (long long s = 0; s < nsets; s++) {
        if (o->shard_n && !ar_schedule_in_shard(s, o->shard_k, o->shard_n))
            continue;
        R.games_total += k;
        if (!R.done[s])
            R.queue[R.nqueue++] = s;
    }
    if (!o->quiet)
        fprintf(stderr,
                "arena: tournament %s: %d entrants, %d seats, %lld tables, %lld sets, %lld "
                "games%s; %lld games already done; %d jobs; output %s\n",
                t->name ? t->name : "", R.ti.n, k, (long long)R.s.ntables, nsets, R.s.ngames,
                o->shard_n ? " in all (this shard: fewer)" : "", R.games_done, o->jobs, o->out_dir);

    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    signal(SIGPIPE, SIG_IGN);
    g_stop = 0;
    R.t0 = ar_now_ms();
    R.last_plain = R.t0;
    R.games_at_start = R.games_done;
    int prc = play(&R);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    progress(&R, 1);
    if (ar_journal_close(R.jn) < 0 && prc == 0)
        prc = -EIO;
    R.jn = NULL;
    if (prc == -EINTR) {
        fprintf(stderr, "arena: interrupted (%s): %lld of %lld games are in %s/journal.jsonl\n",
                strsignal(g_stop), R.games_done, R.games_total, o->out_dir);
        resume_hint(&R);
        goto out;
    }
    if (prc < 0) {
        resume_hint(&R);
        goto out;
    }
    if (o->shard_n > 0) {
        if (!o->quiet)
            fprintf(stderr,
                    "arena: shard %d/%d done: %lld games in %s; `arena merge` the shards' folders "
                    "for the results\n",
                    o->shard_k, o->shard_n, R.games_done, o->out_dir);
        status = AR_EXIT_OK;
        goto out;
    }

    /* the results, from the journal alone */
    jpath = path_in(o->out_dir, "journal.jsonl");
    rc = ar_journal_read(jpath, &jd, NULL, NULL, err, sizeof err);
    ar_journal_report(&jd, jpath, stderr, NULL, NULL);
    free(jpath);
    if (rc < 0) {
        fprintf(stderr, "arena: %s\n", err);
        goto out;
    }
    outputs op = {.ti = &R.ti,
                  .s = &R.s,
                  .config = config,
                  .hash = hash,
                  .dir = o->out_dir,
                  .print = !o->quiet};
    rc = write_results(&op, jd.e, jd.n);
    ar_journal_data_free(&jd);
    status = rc < 0 ? AR_EXIT_FAIL : AR_EXIT_OK;
out:
    if (R.jn)
        ar_journal_close(R.jn);
    if (R.timings)
        fclose(R.timings);
    json_decref(config);
    json_decref(man);
    entrants_free(&R.te);
    ar_schedule_free(&R.s);
    tinfo_free(&R.ti);
    free(R.done);
    free(R.attempts);
    free(R.x);
    free(R.queue);
    if (lockfd >= 0)
        close(lockfd);
    return status;
}

/* ---- Merge ---------------------------------------------------------------------------------- */

static int cmp_entry_index(const void *a, const void *b)
{
    const ar_journal_entry *x = a, *y = b;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Hard link, else copy. */
static int link_or_copy(const char *from, const char *to)
{
    unlink(to);
    if (link(from, to) == 0)
        return 0;
    return ar_copy_file(from, to, 0);
}

int ar_tournament_merge(const char *const *dirs, int ndirs, const char *out_dir, int quiet)
{
    char err[512] = "";
    int status = AR_EXIT_USAGE, lockfd = -1;
    json_t **man = ar_xcalloc((size_t)ndirs, sizeof *man);
    ar_journal_data *jd = ar_xcalloc((size_t)ndirs, sizeof *jd);
    const char *hash = NULL;
    int N = 0;
    int *which = NULL; /* [N]: dir index of shard k, -1 */
    tinfo ti;
    memset(&ti, 0, sizeof ti);
    ar_schedule s;
    memset(&s, 0, sizeof s);
    ar_journal_entry *all = NULL;
    long long nall = 0;

    for (int i = 0; i < ndirs; i++) {
        man[i] = read_manifest(dirs[i], err, sizeof err);
        if (!man[i]) {
            fprintf(stderr, "arena merge: %s\n", err);
            goto out;
        }
        const char *h = json_string_value(json_object_get(man[i], "config_hash"));
        const json_t *sh = json_object_get(man[i], "shard");
        if (!json_is_object(sh)) {
            fprintf(stderr, "arena merge: %s is a whole tournament, not a shard\n", dirs[i]);
            goto out;
        }
        int k = (int)json_integer_value(json_object_get(sh, "k"));
        int n = (int)json_integer_value(json_object_get(sh, "n"));
        if (i == 0) {
            hash = h;
            N = n;
            if (N < 1 || N > 1000000) {
                fprintf(stderr, "arena merge: %s: bad shard count %d\n", dirs[i], N);
                goto out;
            }
            which = ar_xmalloc((size_t)N * sizeof *which);
            for (int q = 0; q < N; q++)
                which[q] = -1;
        } else if (strcmp(h, hash) != 0) {
            fprintf(stderr,
                    "arena merge: %s is a shard of another tournament (configuration %s, %s has "
                    "%s)\n",
                    dirs[i], h, dirs[0], hash);
            goto out;
        } else if (n != N) {
            fprintf(stderr, "arena merge: %s is shard %d/%d, %s is of %d shards\n", dirs[i], k, n,
                    dirs[0], N);
            goto out;
        }
        if (k < 0 || k >= N) {
            fprintf(stderr, "arena merge: %s: bad shard %d/%d\n", dirs[i], k, N);
            goto out;
        }
        if (which[k] >= 0) {
            fprintf(stderr, "arena merge: shard %d/%d is given twice: %s and %s\n", k, N,
                    dirs[which[k]], dirs[i]);
            goto out;
        }
        which[k] = i;
    }
    for (int q = 0; q < N; q++)
        if (which[q] < 0) {
            fprintf(stderr, "arena merge: shard %d/%d is missing (%d of %d shards given)\n", q, N,
                    ndirs, N);
            goto out;
        }
    const json_t *config = json_object_get(man[0], "config");
    if (tinfo_from(config, &ti, err, sizeof err) < 0 ||
        make_schedule(&ti, &s, err, sizeof err) < 0) {
        fprintf(stderr, "arena merge: %s: %s\n", dirs[0], err);
        status = AR_EXIT_FAIL;
        goto out;
    }
    char check[17];
    config_hash(config, check);
    if (strcmp(check, hash) != 0) {
        fprintf(stderr,
                "arena merge: %s/tournament.json: the configuration does not match its hash\n",
                dirs[0]);
        goto out;
    }

    /* every shard's journal: clean, its own sets only, complete */
    status = AR_EXIT_FAIL;
    for (int i = 0; i < ndirs; i++) {
        char *jp = path_in(dirs[i], "journal.jsonl");
        int rc = ar_journal_read(jp, &jd[i], NULL, NULL, err, sizeof err);
        ar_journal_report(&jd[i], jp, stderr, NULL, NULL);
        int sk = (int)json_integer_value(json_object_get(json_object_get(man[i], "shard"), "k"));
        if (rc < 0) {
            fprintf(stderr, "arena merge: %s\n", err);
            free(jp);
            goto out;
        }
        if (jd[i].needs_repair) {
            fprintf(stderr,
                    "arena merge: %s needs repair: run that shard again with --resume first\n", jp);
            free(jp);
            goto out;
        }
        long long want = 0;
        for (long long q = 0; q < s.nsets; q++)
            want += ar_schedule_in_shard(q, sk, N);
        want *= ti.k;
        for (long long q = 0; q < jd[i].n; q++) {
            long long set = jd[i].e[q].index / ti.k;
            if (!ar_schedule_in_shard(set, sk, N) || set >= s.nsets) {
                fprintf(stderr, "%s:%d: game %lld is not of shard %d/%d\n", jp, jd[i].e[q].line,
                        jd[i].e[q].index, sk, N);
                free(jp);
                goto out;
            }
        }
        if (jd[i].n != want) {
            fprintf(stderr,
                    "arena merge: %s has %lld of the shard's %lld games: finish it with "
                    "`arena tournament FILE --shard %d/%d --out %s --resume`\n",
                    jp, jd[i].n, want, sk, N, dirs[i]);
            free(jp);
            goto out;
        }
        free(jp);
        all = ar_xrealloc(all, (size_t)(nall + jd[i].n + 1) * sizeof *all);
        if (jd[i].n) /* a shard of no games has no entries (e is NULL) */
            memcpy(all + nall, jd[i].e, (size_t)jd[i].n * sizeof *all);
        nall += jd[i].n;
    }
    qsort(all, (size_t)nall, sizeof *all, cmp_entry_index);

    /* the output folder: ours alone while we write it */
    if ((lockfd = ar_outlock(out_dir, "--out")) == -1) {
        status = AR_EXIT_USAGE;
        goto out;
    }
    int ne = dir_nonempty(out_dir);
    if (ne != 0) {
        fprintf(stderr, "arena merge: --out %s %s\n", out_dir,
                ne > 0 ? "is not empty" : "cannot be read");
        status = AR_EXIT_USAGE;
        goto out;
    }
    char *rdir = path_in(out_dir, "records");
    int rc = ar_mkdir_p(rdir);
    if (rc < 0) {
        fprintf(stderr, "arena merge: --out %s: %s\n", rdir, strerror(-rc));
        free(rdir);
        goto out;
    }
    json_t *m = manifest(config, hash, 0, 0, NULL);
    rc = write_json_atomic(out_dir, "tournament.json", m);
    json_decref(m);
    char *jp = path_in(out_dir, "journal.jsonl");
    if (rc == 0)
        rc = ar_journal_rewrite(jp, all, nall);
    free(jp);
    /* the records, linked (or copied) from the shards */
    for (int i = 0; i < ndirs && rc == 0; i++)
        for (long long q = 0; q < jd[i].n; q++) {
            json_t *g = json_loads(jd[i].e[q].payload, 0, NULL);
            const char *rec = json_string_value(json_object_get(g, "record"));
            if (rec && strncmp(rec, "records/", 8) == 0 && !strstr(rec, "..")) {
                char *from = path_in(dirs[i], rec), *to = path_in(out_dir, rec);
                if (access(from, F_OK) == 0 && link_or_copy(from, to) < 0)
                    fprintf(stderr, "arena merge: cannot copy %s\n", from);
                free(from);
                free(to);
            }
            json_decref(g);
        }
    free(rdir);
    if (rc < 0) {
        fprintf(stderr, "arena merge: cannot write into %s: %s\n", out_dir, strerror(-rc));
        goto out;
    }
    outputs op = {
        .ti = &ti, .s = &s, .config = config, .hash = hash, .dir = out_dir, .print = !quiet};
    status = write_results(&op, all, nall) < 0 ? AR_EXIT_FAIL : AR_EXIT_OK;
out:
    for (int i = 0; i < ndirs; i++) {
        json_decref(man[i]);
        ar_journal_data_free(&jd[i]);
    }
    free(man);
    free(jd);
    free(all);
    free(which);
    tinfo_free(&ti);
    ar_schedule_free(&s);
    if (lockfd >= 0)
        close(lockfd);
    return status;
}
