/* report.c - `arena report`: the results of a match's, tournament's or merge's folder, read
 * from its files (results.json, games.jsonl, timings.jsonl) and written as a pasteable block
 * (text, md), one self-contained page (html) or the numbers of the page's tables (json).
 *
 * Everything is first gathered into one model (struct rep) so that the four formats show the
 * same numbers: the html's tables and the json are two writings of the same rows, which is
 * what tests/view/report.sh checks against results.json. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "match/match.h"
#include "okr/okr.h"
#include "util/util.h"
#include "view.h"

extern const unsigned char av_asset_report_html[], av_asset_report_css[];
extern const unsigned long av_asset_report_html_len, av_asset_report_css_len;

static const char *const VERDICTS[] = {"RE", "TLE", "MLE", "OLE", "PE", "IA", "SV", "DQ"};
enum { NV = 8 };
/* rank probabilities are read for fields up to the rank fit's own cap (an n x n table) and
 * drawn as a table up to RANK_P_COLS ranks (wider than a page beyond that; results.json and
 * the json report still have them all) */
enum { RANK_P_MAX = 2048, RANK_P_COLS = 40 };
/* the duplicate sets shown in full (those whose same cards scored furthest apart), and the
 * hands shown of each: every hand up to a cap that keeps the page bounded whatever `hands` is */
enum { DUP_SHOWN = 6, DUP_HANDS_MAX = 250 };

/* A duplicate set: the games of one deal by rotation, and how far apart the same cards scored:
 * the largest difference, over hands and seats, between two rotations' points (far_hand: the
 * hand, 0-based, where it is). The games are references owned by the set. */
typedef struct dset {
    long long key; /* the set (tournament) or deal (match) */
    json_t *g[OKR_MAX_PLAYERS];
    int n; /* highest rotation seen + 1 */
    long long spread;
    int far_hand;
} dset;

typedef struct entrant {
    const char *name;
    int index; /* entrant index in the folder's numbering */
    int rank;
    double score, score_lo, score_hi; /* NAN: none */
    double adj, adj_lo, adj_hi;       /* the score fitted on luck-adjusted totals (docs/luck.md) */
    double elo, elo_lo, elo_hi;
    int rank_lo, rank_hi; /* 0: none */
    double p_next;        /* NAN: none */
    double *rank_p;       /* [rep.n]: share of the bootstrap in which it ranked 1..n (rep's
                             array; NULL: none), and results.json's object as it is */
    json_t *rank_p_json;
    long long games, sets, wins, forfeits;
    double mean_place;
    long long verdicts[NV];
    /* timing, from timings.jsonl (tournament) or results.json (match) */
    long long decisions;
    double wall_ms, max_ms;
    long long timed_games;
    av_marks marks; /* never played, DQ, forfeits, substituted moves (marks.c) */
} entrant;

typedef struct rep {
    const char *dir;
    json_t *results;
    int tournament; /* 0: a match folder */
    const char *name, *rules, *format;
    int seats;
    int has_adj; /* results.json has luck-adjusted ratings (docs/luck.md) */
    long long sets, sets_scheduled, games, games_scheduled;
    int complete, connected;
    double rho; /* NAN: none */
    int n;
    entrant *e;          /* in rank order */
    double *rank_p;      /* [n * n] behind each entrant's rank_p, or NULL */
    json_t *cross;       /* cross_table or NULL */
    json_t *sprt;        /* or NULL */
    json_t *games_list;  /* the games.jsonl objects listed (the first max_games) */
    long long max_games; /* how many to keep; -1: all */
    long long ngames;    /* lines of games.jsonl */
    /* every game, small: by game index, the entrant and decisions of each seat (timings) */
    struct gmin {
        int8_t entrant[OKR_MAX_PLAYERS];
        int32_t decisions[OKR_MAX_PLAYERS];
        int8_t timed; /* its timings line was counted (a resumed run may write two) */
    } * gm;
    long long gm_n;
    int *pos; /* [npos]: an entrant index's place in e, or -1 (substituted moves by seat) */
    int npos;
    /* duplicate sets, gathered in the one pass over games.jsonl (html only): the set being
     * read, the DUP_SHOWN furthest apart so far (by spread, then set order), and the count */
    int dup_on, by_hand; /* by_hand: dealer=rotate, so hand h of every rotation is one deal */
    int winner_bonus, concealed_bonus; /* the rule set's (RULES 7.3, 7.4): a set's bonus row */
    dset dup_cur, dup_top[DUP_SHOWN];
    int dup_ntop;
    long long dup_sets;
    char *err;
    size_t cap;
} rep;

static int fail(rep *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(rep *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err, r->cap, fmt, ap);
    va_end(ap);
    return -1;
}

static double num(json_t *v)
{
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *str(json_t *o, const char *key, const char *dflt)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : dflt;
}

/* ---- Reading ------------------------------------------------------------------------------ */

static json_t *hand_scores(json_t *g)
{
    return json_object_get(g, "hand_scores");
}

/* hand h's points of seat s in game g, or 0 with *has = 0 when the game had no hand h */
static long long hand_score(json_t *g, size_t hnd, size_t seat, int *has)
{
    json_t *row = json_array_get(hand_scores(g), hnd);
    *has = json_is_array(row) && json_is_integer(json_array_get(row, seat));
    return json_integer_value(json_array_get(row, seat));
}

/* the hands a set's table compares: all of them when every rotation deals hand h alike
 * (dealer=rotate, RULES 2.3), only the first otherwise; at most DUP_HANDS_MAX */
static size_t dup_hands(const rep *r, const dset *d)
{
    size_t n = 0;
    for (int a = 0; a < d->n; a++)
        if (d->g[a] && json_array_size(hand_scores(d->g[a])) > n)
            n = json_array_size(hand_scores(d->g[a]));
    if (!r->by_hand && n > 1)
        n = 1;
    return n < DUP_HANDS_MAX ? n : DUP_HANDS_MAX;
}

static void dup_free(dset *d)
{
    for (int a = 0; a < OKR_MAX_PLAYERS; a++)
        json_decref(d->g[a]);
    memset(d, 0, sizeof *d);
}

/* the set just read is complete: its spread, then kept if among the DUP_SHOWN furthest apart */
static void dup_close(rep *r)
{
    dset *d = &r->dup_cur;
    if (!d->n)
        return;
    r->dup_sets++;
    d->spread = 0;
    d->far_hand = 0;
    size_t nh = dup_hands(r, d);
    for (size_t hnd = 0; hnd < nh; hnd++)
        for (int s = 0; s < r->seats; s++) {
            long long lo = 0, hi = 0;
            int any = 0;
            for (int a = 0; a < d->n; a++) {
                int has;
                long long x = d->g[a] ? hand_score(d->g[a], hnd, (size_t)s, &has) : 0;
                if (!d->g[a] || !has)
                    continue;
                lo = any && lo < x ? lo : x;
                hi = any && hi > x ? hi : x;
                any = 1;
            }
            if (hi - lo > d->spread) {
                d->spread = hi - lo;
                d->far_hand = (int)hnd;
            }
        }
    int at = r->dup_ntop; /* insertion place: after every set at least as far apart */
    while (at > 0 && r->dup_top[at - 1].spread < d->spread)
        at--;
    if (at >= DUP_SHOWN) {
        dup_free(d);
        return;
    }
    if (r->dup_ntop == DUP_SHOWN)
        dup_free(&r->dup_top[DUP_SHOWN - 1]);
    else
        r->dup_ntop++;
    memmove(&r->dup_top[at + 1], &r->dup_top[at], (size_t)(r->dup_ntop - 1 - at) * sizeof *d);
    r->dup_top[at] = *d;
    memset(d, 0, sizeof *d);
}

/* one line of games.jsonl into the set being read (games.jsonl is in game order, so the games
 * of a set are next to each other: a new set number closes the one before) */
static void dup_add(rep *r, json_t *g)
{
    json_int_t k = json_integer_value(json_object_get(g, r->tournament ? "set" : "deal"));
    json_int_t rot = json_integer_value(json_object_get(g, "rotation"));
    if (rot < 0 || rot >= OKR_MAX_PLAYERS || rot >= r->seats)
        return;
    if (r->dup_cur.n && (r->dup_cur.key != k || r->dup_cur.g[rot]))
        dup_close(r);
    dset *d = &r->dup_cur;
    d->key = k;
    d->g[rot] = json_incref(g);
    if (rot + 1 > d->n)
        d->n = (int)rot + 1;
}

/* A tournament game's substituted moves, per seat, to its entrants' marks (results.json's
 * standings do not count them; games.jsonl does, per game and seat). */
static void count_substituted(rep *r, json_t *g)
{
    if (!r->tournament)
        return; /* a match's results.json has substituted_actions */
    if (!r->pos) {
        int hi = 0;
        for (int i = 0; i < r->n; i++)
            if (r->e[i].index >= hi && r->e[i].index < 1 << 20)
                hi = r->e[i].index + 1;
        r->npos = hi;
        r->pos = ar_xcalloc((size_t)hi + 1, sizeof *r->pos);
        for (int i = 0; i < hi; i++)
            r->pos[i] = -1;
        for (int i = 0; i < r->n; i++)
            if (r->e[i].index >= 0 && r->e[i].index < hi)
                r->pos[r->e[i].index] = i;
    }
    json_t *sub = json_object_get(g, "substituted"), *seating = json_object_get(g, "seating");
    for (size_t s = 0; s < json_array_size(sub) && s < OKR_MAX_PLAYERS; s++) {
        json_int_t x = json_integer_value(json_array_get(sub, s));
        json_int_t en = json_integer_value(json_array_get(seating, s));
        if (x > 0 && en >= 0 && en < r->npos && r->pos[en] >= 0)
            r->e[r->pos[en]].marks.substituted += x;
    }
}

/* The text and md blocks read nothing else of games.jsonl: a line is parsed only when its
 * "substituted" array has a non-zero count (a 10^5-game run is scanned, not parsed). */
static void scan_substituted(rep *r)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/games.jsonl", r->dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char *buf = NULL;
    size_t cap = 0;
    while (getline(&buf, &cap, f) >= 0) {
        const char *a = strstr(buf, "\"substituted\":[");
        int any = 0;
        for (const char *p = a ? a + 15 : ""; *p && *p != ']'; p++)
            any |= *p >= '1' && *p <= '9';
        if (!any)
            continue;
        json_t *j = json_loads(buf, 0, NULL);
        if (json_is_object(j))
            count_substituted(r, j);
        json_decref(j);
    }
    free(buf);
    fclose(f);
}

static int read_games(rep *r)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/games.jsonl", r->dir);
    r->games_list = json_array();
    FILE *f = fopen(path, "r");
    if (!f)
        return errno == ENOENT ? 0 : fail(r, "%s: %s", path, strerror(errno));
    char *buf = NULL;
    size_t cap = 0;
    long line = 0;
    int rc = 0;
    while (getline(&buf, &cap, f) >= 0) {
        line++;
        if (buf[0] == '\n')
            continue;
        json_error_t je;
        json_t *j = json_loads(buf, 0, &je);
        if (!json_is_object(j)) {
            json_decref(j);
            rc = fail(r, "%s:%ld: not a JSON object", path, line);
            break;
        }
        r->ngames++;
        count_substituted(r, j);
        if (r->dup_on)
            dup_add(r, j);
        /* a tournament of 10^5 games is read in one pass, keeping only what is shown */
        json_int_t gi = json_integer_value(json_object_get(j, "game"));
        /* indices are 0.. in order: one far past the lines read is refused, so a hostile
         * file cannot make this table huge */
        if (gi >= 0 && gi < 2 * r->ngames + 4096) {
            if (gi >= r->gm_n) {
                long long n = r->gm_n ? r->gm_n : 1024;
                while (n <= gi)
                    n *= 2;
                r->gm = ar_xrealloc(r->gm, (size_t)n * sizeof *r->gm);
                memset(r->gm + r->gm_n, -1, (size_t)(n - r->gm_n) * sizeof *r->gm);
                r->gm_n = n;
            }
            json_t *seating = json_object_get(j, "seating"), *dec = json_object_get(j, "decisions");
            for (size_t s = 0; s < OKR_MAX_PLAYERS; s++) {
                r->gm[gi].entrant[s] = s < json_array_size(seating)
                                           ? (int8_t)json_integer_value(json_array_get(seating, s))
                                           : -1;
                r->gm[gi].decisions[s] = (int32_t)json_integer_value(json_array_get(dec, s));
            }
        }
        if (r->max_games < 0 || (long long)json_array_size(r->games_list) < r->max_games)
            json_array_append_new(r->games_list, j);
        else
            json_decref(j);
    }
    free(buf);
    fclose(f);
    if (r->dup_on)
        dup_close(r);
    return rc;
}

/* timings.jsonl: per game and seat, wall_ms (summed decisions) and max_ms, to the entrants */
static void read_timings(rep *r)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/timings.jsonl", r->dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char *buf = NULL;
    size_t cap = 0;
    while (getline(&buf, &cap, f) >= 0) {
        json_t *t = json_loads(buf, 0, NULL);
        json_int_t gi = json_integer_value(json_object_get(t, "game"));
        struct gmin *g = gi >= 0 && gi < r->gm_n && r->gm[gi].timed < 0 ? &r->gm[gi] : NULL;
        if (g)
            g->timed = 1;
        for (int s = 0; g && s < OKR_MAX_PLAYERS && g->entrant[s] >= 0; s++) {
            int ent = g->entrant[s];
            for (int i = 0; i < r->n; i++) {
                if (r->e[i].index != ent)
                    continue;
                double w = num(json_array_get(json_object_get(t, "wall_ms"), s));
                double m = num(json_array_get(json_object_get(t, "max_ms"), s));
                if (!isnan(w))
                    r->e[i].wall_ms += w;
                if (!isnan(m) && m > r->e[i].max_ms)
                    r->e[i].max_ms = m;
                r->e[i].decisions += g->decisions[s];
                r->e[i].timed_games++;
            }
        }
        json_decref(t);
    }
    free(buf);
    fclose(f);
}

static void ci(json_t *a, double *lo, double *hi)
{
    *lo = num(json_array_get(a, 0));
    *hi = num(json_array_get(a, 1));
}

/* A standing's rank probabilities, {"1": 0.62, "2": 0.38} (ranks never reached left out).
 * Anything but a rank of the field with a share in [0, 1] is ignored: a hostile file gets a
 * page, not a crash or a huge table. */
static void read_rank_p(rep *r, entrant *e, int i, json_t *o)
{
    e->rank_p_json = json_is_object(o) ? o : NULL;
    if (!e->rank_p_json || r->n > RANK_P_MAX)
        return;
    if (!r->rank_p)
        r->rank_p = ar_xcalloc((size_t)r->n * (size_t)r->n, sizeof *r->rank_p);
    e->rank_p = r->rank_p + (size_t)i * (size_t)r->n;
    const char *key;
    json_t *v;
    json_object_foreach(o, key, v)
    {
        char *end;
        long k = strtol(key, &end, 10);
        double p = num(v);
        if (*end == '\0' && end != key && k >= 1 && k <= r->n && p >= 0 && p <= 1)
            e->rank_p[k - 1] = p;
    }
}

static int read_tournament(rep *r)
{
    json_t *j = r->results, *cfg = json_object_get(j, "config");
    r->tournament = 1;
    r->name = str(j, "name", "tournament");
    r->rules = str(cfg, "rules", "?");
    r->format = str(cfg, "format", "round-robin");
    r->seats = (int)json_integer_value(json_object_get(cfg, "seats"));
    r->sets = json_integer_value(json_object_get(j, "sets"));
    r->sets_scheduled = json_integer_value(json_object_get(j, "sets_scheduled"));
    r->games = json_integer_value(json_object_get(j, "games"));
    r->games_scheduled = json_integer_value(json_object_get(j, "games_scheduled"));
    r->complete = json_is_true(json_object_get(j, "complete"));
    r->connected = !json_is_false(json_object_get(j, "connected"));
    r->rho = num(json_object_get(j, "rho"));
    r->cross = json_object_get(j, "cross_table");
    r->sprt = json_object_get(j, "sprt");
    r->has_adj = json_is_string(json_object_get(j, "luck_adjusted"));
    json_t *st = json_object_get(j, "standings");
    if (!json_is_array(st))
        return fail(r, "%s/results.json: no standings", r->dir);
    r->n = (int)json_array_size(st);
    r->e = ar_xcalloc((size_t)r->n + 1, sizeof *r->e);
    for (int i = 0; i < r->n; i++) {
        json_t *s = json_array_get(st, (size_t)i);
        entrant *e = &r->e[i];
        e->name = str(s, "name", "?");
        e->index = (int)json_integer_value(json_object_get(s, "entrant"));
        e->rank = (int)json_integer_value(json_object_get(s, "rank"));
        e->score = num(json_object_get(s, "score"));
        ci(json_object_get(s, "score_ci"), &e->score_lo, &e->score_hi);
        e->adj = num(json_object_get(s, "luck_adjusted_score"));
        ci(json_object_get(s, "luck_adjusted_score_ci"), &e->adj_lo, &e->adj_hi);
        e->elo = num(json_object_get(s, "elo"));
        ci(json_object_get(s, "elo_ci"), &e->elo_lo, &e->elo_hi);
        e->rank_lo = (int)json_integer_value(json_array_get(json_object_get(s, "rank_ci"), 0));
        e->rank_hi = (int)json_integer_value(json_array_get(json_object_get(s, "rank_ci"), 1));
        e->p_next = num(json_object_get(s, "p_beats_next"));
        read_rank_p(r, e, i, json_object_get(s, "rank_p"));
        e->games = json_integer_value(json_object_get(s, "games"));
        e->sets = json_integer_value(json_object_get(s, "sets"));
        e->wins = json_integer_value(json_object_get(s, "wins"));
        e->mean_place = num(json_object_get(s, "mean_place"));
        e->forfeits = json_integer_value(json_object_get(s, "forfeits"));
        for (int v = 0; v < NV; v++)
            e->verdicts[v] =
                json_integer_value(json_object_get(json_object_get(s, "verdicts"), VERDICTS[v]));
        av_marks_read(s, &e->marks);
        e->marks.substituted = 0; /* counted from games.jsonl (count_substituted) */
    }
    return 0;
}

static int by_score(const void *a, const void *b)
{
    const entrant *x = a, *y = b;
    double d = (isnan(y->score) ? -1e300 : y->score) - (isnan(x->score) ? -1e300 : x->score);
    return d > 0 ? 1 : d < 0 ? -1 : x->index - y->index;
}

/* A match's results.json: per bot, the mean score against the field with its t-interval. */
static int read_match(rep *r)
{
    json_t *j = r->results, *bots = json_object_get(j, "bots");
    r->name = "match";
    r->rules = str(json_object_get(j, "rules"), "preset", "?");
    r->format = "match";
    r->seats = (int)json_integer_value(json_object_get(j, "players"));
    r->games = json_integer_value(json_object_get(j, "games"));
    r->games_scheduled = json_integer_value(json_object_get(j, "games_scheduled"));
    r->sets = json_integer_value(json_object_get(j, "deals"));
    r->sets_scheduled = r->sets;
    r->complete = json_is_true(json_object_get(j, "complete"));
    r->connected = 1;
    r->rho = NAN;
    r->n = (int)json_array_size(bots);
    r->e = ar_xcalloc((size_t)r->n + 1, sizeof *r->e);
    for (int i = 0; i < r->n; i++) {
        json_t *b = json_array_get(bots, (size_t)i);
        entrant *e = &r->e[i];
        json_t *sd = json_object_get(b, "score_diff");
        e->name = str(b, "name", "?");
        e->index = (int)json_integer_value(json_object_get(b, "index"));
        e->score = num(json_object_get(sd, "mean"));
        ci(json_object_get(sd, "ci95"), &e->score_lo, &e->score_hi);
        e->elo = e->elo_lo = e->elo_hi = e->p_next = NAN;
        e->games = json_integer_value(json_object_get(b, "games"));
        e->sets = json_integer_value(json_object_get(sd, "deals"));
        e->wins = json_integer_value(json_object_get(b, "wins"));
        json_t *pl = json_object_get(b, "placements");
        double sum = 0, cnt = 0;
        for (size_t p = 0; p < json_array_size(pl); p++) {
            double k = num(json_array_get(pl, p));
            sum += k * (double)(p + 1);
            cnt += k;
        }
        e->mean_place = cnt > 0 ? sum / cnt : NAN;
        e->forfeits = json_integer_value(json_object_get(b, "forfeits"));
        json_t *errs = json_object_get(b, "errors");
        for (int v = 0; v < NV; v++)
            e->verdicts[v] = json_integer_value(json_object_get(errs, VERDICTS[v]));
        e->decisions = json_integer_value(json_object_get(b, "decisions"));
        e->wall_ms = num(json_object_get(b, "wall_ms"));
        e->max_ms = num(json_object_get(b, "max_decision_ms"));
        if (isnan(e->max_ms))
            e->max_ms = 0;
        if (isnan(e->wall_ms))
            e->wall_ms = 0;
        e->timed_games = e->games;
        av_marks_read(b, &e->marks);
    }
    qsort(r->e, (size_t)r->n, sizeof *r->e, by_score);
    for (int i = 0; i < r->n; i++)
        r->e[i].rank = i + 1;
    return 0;
}

static int load(rep *r)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/results.json", r->dir);
    json_error_t je;
    r->results = json_load_file(path, 0, &je);
    if (!r->results) {
        struct stat st;
        if (stat(path, &st) != 0)
            return fail(r, "%s: %s (a shard's folder has no results: run arena merge)", path,
                        strerror(errno));
        return fail(r, "%s:%d: %s", path, je.line, je.text);
    }
    if (!json_is_object(r->results))
        return fail(r, "%s:1: not a JSON object", path);
    int rc = json_object_get(r->results, "standings") ? read_tournament(r) : read_match(r);
    if (rc == 0 && (r->seats < 1 || r->seats > OKR_MAX_PLAYERS))
        rc = fail(r, "%s: seats %d: expected 1 to %d (not a results file of the arena?)", path,
                  r->seats, OKR_MAX_PLAYERS);
    /* hand h of every rotation of a set is dealt alike unless the dealer follows the winner
     * (RULES 2.3): the arena's runs rotate it unless told dealer=winner */
    const char *opts = r->tournament ? str(json_object_get(r->results, "config"), "rules_text", "")
                                     : str(json_object_get(r->results, "rules"), "options", "");
    r->by_hand = strstr(opts, "dealer=winner") == NULL;
    const char *wb = strstr(opts, "winner_bonus="), *cb = strstr(opts, "concealed_bonus=");
    r->winner_bonus = wb ? atoi(wb + strlen("winner_bonus=")) : 0;
    r->concealed_bonus = cb ? atoi(cb + strlen("concealed_bonus=")) : 0;
    /* the text and md blocks show no game and no timing: results.json is all they need */
    if (rc == 0 && r->max_games != 0)
        rc = read_games(r);
    else if (rc == 0 && r->tournament)
        scan_substituted(r);
    if (rc == 0 && r->tournament && r->max_games != 0)
        read_timings(r);
    return rc;
}

/* ---- Numbers as text ---------------------------------------------------------------------- */

/* Every number by one rule (ar_fmt_num): rounded as results.json stores it (`stored`
 * decimals: 3 for scores and differences, 1 for win-Elo, 4 for shares), then to what is shown,
 * half away from zero, never "-0.0": the terminal table's figures, not the binary value's. */
enum { ST_SCORE = 3, ST_ELO = 1, ST_SHARE = 4 };

static void fnum(char *b, size_t n, double v, int stored, int decimals, int sign)
{
    ar_fmt_num(b, n, v, stored, decimals, sign);
}

static void fci(char *b, size_t n, double v, double lo, double hi, int stored, int decimals)
{
    char x[32], l[32], h[32];
    fnum(x, sizeof x, v, stored, decimals, 1);
    if (isnan(lo) || isnan(hi)) {
        snprintf(b, n, "%s", x);
        return;
    }
    fnum(l, sizeof l, lo, stored, decimals, 1);
    fnum(h, sizeof h, hi, stored, decimals, 1);
    snprintf(b, n, "%s [%s, %s]", x, l, h);
}

/* the verdict counts, then the marks but "never played" (the score column says it) */
static void verdict_text(const entrant *e, char *b, size_t n)
{
    size_t k = 0;
    b[0] = '\0';
    for (int v = 0; v < NV; v++)
        if (e->verdicts[v] && k < n)
            k += (size_t)snprintf(b + k, n - k, "%s%lld %s", k ? ", " : "", e->verdicts[v],
                                  VERDICTS[v]);
    char m[160];
    if (av_marks_text(&e->marks, 1, m, sizeof m) && k < n)
        snprintf(b + k, n - k, "%s%s", k ? ", " : "", m);
    if (!b[0])
        snprintf(b, n, "-");
}

static long long verdict_total(const rep *r, int v)
{
    long long t = 0;
    for (int i = 0; i < r->n; i++)
        t += r->e[i].verdicts[v];
    return t;
}

static void rank_text(const entrant *e, char *b, size_t n)
{
    if (e->rank_lo <= 0)
        snprintf(b, n, "-");
    else if (e->rank_lo == e->rank_hi)
        snprintf(b, n, "%d", e->rank_lo);
    else
        snprintf(b, n, "%d-%d", e->rank_lo, e->rank_hi);
}

/* P(first) as a percentage: "<1%" for a share too small to show, "0%" only for none */
static void p_first_text(const entrant *e, char *b, size_t n)
{
    if (!e->rank_p)
        snprintf(b, n, "-");
    else if (e->rank_p[0] > 0 && e->rank_p[0] < 0.005)
        snprintf(b, n, "<1%%");
    else
        snprintf(b, n, "%.0f%%", e->rank_p[0] * 100);
}

static void sprt_text(const rep *r, char *b, size_t n)
{
    json_t *s = r->sprt;
    snprintf(b, n, "LLR %.2f (%.2f, %.2f) [%g, %g] after %lld sets -> %s%s",
             num(json_object_get(s, "llr")), num(json_object_get(s, "lower")),
             num(json_object_get(s, "upper")), num(json_object_get(s, "s0")),
             num(json_object_get(s, "s1")),
             (long long)json_integer_value(json_object_get(s, "sets")), str(s, "decision", "none"),
             json_is_true(json_object_get(s, "stopped_early")) ? " (stopped early)" : "");
}

/* ---- text and md -------------------------------------------------------------------------- */

static void block(const rep *r, FILE *out, int md)
{
    char rho[32], vt[200] = "", b[256];
    fnum(rho, sizeof rho, r->rho, ST_SHARE, 2, 0);
    size_t k = 0;
    for (int v = 0; v < NV; v++) {
        long long t = verdict_total(r, v);
        if (t)
            k +=
                (size_t)snprintf(vt + k, sizeof vt - k, "%s%lld %s", k ? ", " : "", t, VERDICTS[v]);
    }
    const char *unit = r->tournament ? "Sets" : "Deals";
    if (md)
        fprintf(out, "**okarena %s%s**: %s, %d seats%s%s\n\n| | |\n|---|---|\n",
                r->tournament ? "tournament " : "match", r->tournament ? r->name : "", r->rules,
                r->seats, r->tournament ? ", " : "", r->tournament ? r->format : "");
    else
        fprintf(out, "okarena %s%s: %s, %d seats%s%s\n", r->tournament ? "tournament " : "match",
                r->tournament ? r->name : "", r->rules, r->seats, r->tournament ? ", " : "",
                r->tournament ? r->format : "");
    /* one line per fact, "Name | value" in both formats (md adds the table's outer bars) */
    const char *pre = md ? "| " : "", *post = md ? " |" : "";
    fprintf(out, "%s%-8s | N: %lld of %lld  Games: %lld  rho: %s  %s%s\n", pre, unit, r->sets,
            r->sets_scheduled, r->games, rho, r->complete ? "complete" : "INCOMPLETE", post);
    fprintf(out, "%s%-8s | %s%s\n", pre, "Verdicts", vt[0] ? vt : "none", post);
    if (r->sprt) {
        sprt_text(r, b, sizeof b);
        fprintf(out, "%s%-8s | %s%s\n", pre, "SPRT", b, post);
    }
    if (r->has_adj) { /* the score rating fitted on luck-adjusted totals (docs/luck.md) */
        fprintf(out, "%s%-8s | luck-adjusted score (pts/game, 95%%):", pre, "Luck");
        for (int i = 0; i < r->n; i++) {
            char a[128];
            fci(a, sizeof a, r->e[i].adj, r->e[i].adj_lo, r->e[i].adj_hi, ST_SCORE, 1);
            fprintf(out, "%s %s %s", i ? "," : "", r->e[i].name, a);
        }
        fprintf(out, "%s\n", post);
    }
    if (!r->connected)
        fprintf(out, "%s%-8s | not connected: some ratings are not on one scale%s\n", pre,
                "Warning", post);
    fputc('\n', out);
    /* the score's label names its scale as the html's does (docs/report.md's list of labels,
     * tests/view/labels.sh): a rating against an average entrant, with its interval */
    if (md)
        fprintf(out,
                "| rank | entrant | score (pts/game vs average) [95%% CI] | win-Elo [95%% CI] | "
                "rank CI | p>next | P(1st) | games | wins | verdicts |\n"
                "|---:|---|---|---|---|---:|---:|---:|---:|---|\n");
    else
        fprintf(out, "%-4s  %-16s  %-36s  %-20s  %-7s  %6s  %6s  %6s  %5s  %s\n", "rank", "entrant",
                "score (pts/game vs average) [95% CI]", "win-Elo [95% CI]", "rank CI", "p>next",
                "P(1st)", "games", "wins", "verdicts");
    for (int i = 0; i < r->n; i++) {
        const entrant *e = &r->e[i];
        char sc[128], el[128], rk[24], pn[24], p1[24], vd[400];
        fci(sc, sizeof sc, e->score, e->score_lo, e->score_hi, ST_SCORE, 1);
        if (e->marks.never_played) /* as the terminal: its score comes of forfeits, not of play */
            snprintf(sc, sizeof sc, "never played");
        fci(el, sizeof el, e->elo, e->elo_lo, e->elo_hi, ST_ELO, 0);
        rank_text(e, rk, sizeof rk);
        fnum(pn, sizeof pn, e->p_next, ST_SHARE, 2, 0);
        p_first_text(e, p1, sizeof p1);
        verdict_text(e, vd, sizeof vd);
        if (md) {
            fprintf(out, "| %d | ", e->rank);
            for (const char *p = e->name; *p; p++) /* a | or a ` in a name would break the table */
                fputc(*p == '|' || *p == '`' ? '?' : *p, out);
            fprintf(out, " | %s | %s | %s | %s | %s | %lld | %lld | %s |\n", sc, el, rk, pn, p1,
                    e->games, e->wins, vd);
        } else {
            fprintf(out, "%4d  %-16s  %-36s  %-20s  %-7s  %6s  %6s  %6lld  %5lld  %s\n", e->rank,
                    e->name, sc, el, rk, pn, p1, e->games, e->wins, vd);
        }
    }
    int marked = 0;
    for (int i = 0; i < r->n; i++) {
        char m[8];
        marked |= av_marks_text(&r->e[i].marks, 0, m, sizeof m) > 0;
    }
    if (marked)
        fprintf(out,
                "%sMarks: never played = a verdict in every game before its first move; DQ = "
                "disqualified (errors in N of its M games); forfeits = games a verdict "
                "against it forfeited; moves substituted = moves the arena played for it.\n",
                md ? "\n" : "\n");
    /* both formats say what the score is: text is pasted into issues as often as md */
    fprintf(out,
            "\nScore: a rating, points per game against an average entrant at the same table "
            "(0: average; not a game's total); intervals resample whole duplicate sets. Compare "
            "two entrants with the rank CI and p>next, not by overlapping intervals. P(1st): "
            "share of the bootstrap replicates in which the entrant ranked first.\n");
}

/* ---- json ---------------------------------------------------------------------------------- */

static json_t *jnum(double v)
{
    return isnan(v) ? json_null() : json_real(v);
}

static json_t *model_json(const rep *r)
{
    json_t *j = json_object();
    json_object_set_new(j, "format", json_string("okarena-report 1"));
    json_object_set_new(j, "source", json_string(r->tournament ? "tournament" : "match"));
    json_object_set_new(j, "name", json_string(r->name));
    json_object_set_new(j, "rules", json_string(r->rules));
    json_object_set_new(j, "seats", json_integer(r->seats));
    json_object_set_new(j, "sets", json_integer(r->sets));
    json_object_set_new(j, "games", json_integer(r->games));
    json_object_set_new(j, "complete", json_boolean(r->complete));
    json_object_set_new(j, "rho", jnum(r->rho));
    json_t *st = json_array(), *vt = json_array();
    for (int i = 0; i < r->n; i++) {
        const entrant *e = &r->e[i];
        json_array_append_new(
            st, json_pack("{s:i,s:s,s:o,s:[oo],s:o,s:[oo],s:[ii],s:o,s:I,s:I,s:I}", "rank", e->rank,
                          "name", e->name, "score", jnum(e->score), "score_ci", jnum(e->score_lo),
                          jnum(e->score_hi), "elo", jnum(e->elo), "elo_ci", jnum(e->elo_lo),
                          jnum(e->elo_hi), "rank_ci", e->rank_lo, e->rank_hi, "p_beats_next",
                          jnum(e->p_next), "games", e->games, "sets", e->sets, "wins", e->wins));
        json_object_set(json_array_get(st, json_array_size(st) - 1), "rank_p",
                        e->rank_p_json ? e->rank_p_json : json_null());
        if (r->has_adj) /* docs/luck.md */
            json_object_set_new(json_array_get(st, json_array_size(st) - 1), "luck_adjusted_score",
                                json_pack("{s:o,s:[oo]}", "score", jnum(e->adj), "ci",
                                          jnum(e->adj_lo), jnum(e->adj_hi)));
        char mk[200];
        av_marks_text(&e->marks, 0, mk, sizeof mk);
        json_object_set_new(json_array_get(st, json_array_size(st) - 1), "marks",
                            json_pack("{s:b,s:b,s:I,s:I,s:I,s:I,s:s}", "never_played",
                                      e->marks.never_played, "disqualified", e->marks.disqualified,
                                      "error_games", (json_int_t)e->marks.error_games, "games",
                                      (json_int_t)e->marks.games, "forfeits",
                                      (json_int_t)e->marks.forfeits, "substituted",
                                      (json_int_t)e->marks.substituted, "text", mk));
        json_t *v = json_object();
        json_object_set_new(v, "name", json_string(e->name));
        for (int k = 0; k < NV; k++)
            json_object_set_new(v, VERDICTS[k], json_integer(e->verdicts[k]));
        json_object_set_new(v, "forfeits", json_integer(e->forfeits));
        json_object_set_new(v, "decisions", json_integer(e->decisions));
        json_object_set_new(v, "mean_ms",
                            e->decisions ? json_real(e->wall_ms / (double)e->decisions)
                                         : json_null());
        json_object_set_new(v, "max_ms", json_real(e->max_ms));
        json_array_append_new(vt, v);
    }
    json_object_set_new(j, "standings", st);
    json_object_set_new(j, "verdicts_timing", vt);
    if (r->cross)
        json_object_set(j, "cross_table", r->cross);
    if (r->sprt)
        json_object_set(j, "sprt", r->sprt);
    json_object_set_new(j, "games_listed",
                        json_integer((json_int_t)json_array_size(r->games_list)));
    json_object_set_new(j, "games_in_folder", json_integer(r->ngames));
    return j;
}

/* ---- html ---------------------------------------------------------------------------------- */

typedef struct page {
    rep *r;
    const av_report_opts *o;
} page;

static void h(FILE *out, const char *s)
{
    av_html_text(out, s);
}

/* Open a link to game g's replay page if it was written (the page is there); returns 1 if
 * a link was opened (the caller closes it). */
static int replay_link(FILE *out, const av_report_opts *o, json_t *g)
{
    const char *id = str(g, "game_id", "");
    if (!o->replays || !o->replays_fs || !json_object_get(g, "record") || !id[0] || strchr(id, '/'))
        return 0;
    char p[4096];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s.html", o->replays_fs, id);
    if (stat(p, &st) != 0)
        return 0;
    fprintf(out, "<a href=\"%s/", o->replays);
    av_html_text(out, id);
    fputs(".html\">", out);
    return 1;
}

/* a + b without undefined behaviour: games.jsonl is read as hostile, and its numbers may be
 * any 64-bit integers (a crafted file gets wrapped sums, never a crash) */
static long long wrap_add(long long a, unsigned long long b)
{
    return (long long)((unsigned long long)a + b);
}

/* the bytes of s's first n characters (UTF-8: a character never split) */
static size_t utf8_prefix(const char *s, int n)
{
    size_t i = 0;
    for (int c = 0; s[i] && c < n; c++)
        for (i++; ((unsigned char)s[i] & 0xC0) == 0x80; i++)
            ;
    return i;
}

/* the forest plot: each entrant's rating with its 95% interval, one row each, as SVG */
static void forest(FILE *out, const rep *r, int elo)
{
    double lo = 0, hi = 0;
    for (int i = 0; i < r->n; i++) {
        const entrant *e = &r->e[i];
        double a = elo ? e->elo_lo : e->score_lo, b = elo ? e->elo_hi : e->score_hi;
        double v = elo ? e->elo : e->score;
        if (isnan(a))
            a = v;
        if (isnan(b))
            b = v;
        if (!isnan(a) && a < lo)
            lo = a;
        if (!isnan(b) && b > hi)
            hi = b;
    }
    if (hi - lo < 1e-9)
        hi = lo + 1;
    double pad = (hi - lo) * 0.05;
    lo -= pad;
    hi += pad;
    int W = 720, L = 170, R = 20, row = 24, H = r->n * row + 40;
    double sx = (W - L - R) / (hi - lo);
#define X(v) (L + ((v)-lo) * sx)
    fprintf(out,
            "<svg class=\"forest\" id=\"forest-%s\" role=\"img\" width=\"100%%\" "
            "viewBox=\"0 0 %d %d\"><title>%s with 95%% intervals</title>\n",
            elo ? "elo" : "score", W, H,
            elo ? "win-Elo" : "score rating (points per game against an average entrant)");
    fprintf(out, "<line class=\"zero\" x1=\"%.1f\" x2=\"%.1f\" y1=\"8\" y2=\"%d\"/>\n", X(0), X(0),
            H - 24);
    fprintf(out, "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>\n", L, W - R,
            H - 24, H - 24);
    for (int t = 0; t <= 4; t++) {
        double v = lo + (hi - lo) * t / 4;
        fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%+.0f</text>\n", X(v), H - 8,
                v);
    }
    for (int i = 0; i < r->n; i++) {
        const entrant *e = &r->e[i];
        double v = elo ? e->elo : e->score, a = elo ? e->elo_lo : e->score_lo,
               b = elo ? e->elo_hi : e->score_hi;
        int y = 16 + i * row;
        fprintf(out, "<g class=\"row\"><text x=\"%d\" y=\"%d\" text-anchor=\"end\">", L - 8, y + 4);
        fputs("<title>", out);
        h(out, e->name);
        fprintf(out, "</title>%d. ", e->rank);
        /* a long name is cut to fit left of the plot (whole in its title) */
        char nm[128];
        size_t cut = utf8_prefix(e->name, 20);
        snprintf(nm, sizeof nm, "%.*s%s", (int)cut, e->name, e->name[cut] ? "\xe2\x80\xa6" : "");
        h(out, nm);
        if (e->marks.never_played || e->marks.disqualified)
            fputs(e->marks.never_played ? " (never played)" : " (DQ)", out);
        fputs("</text>", out);
        if (!isnan(a) && !isnan(b))
            fprintf(out, "<line class=\"ci\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\"/>", X(a),
                    X(b), y, y);
        if (!isnan(v)) {
            char t[32];
            fnum(t, sizeof t, v, elo ? ST_ELO : ST_SCORE, 1, 1);
            fprintf(out,
                    "<circle class=\"pt\" cx=\"%.1f\" cy=\"%d\" "
                    "r=\"4.5\"><title>%s</title></circle>",
                    X(v), y, t);
        }
        fputs("</g>\n", out);
    }
#undef X
    fputs("</svg>\n", out);
}

static void td_num(FILE *out, double v, int stored, int decimals, int sign)
{
    char b[32];
    fnum(b, sizeof b, v, stored, decimals, sign);
    fprintf(out, "<td%s>%s</td>", isnan(v) ? " class=\"na\"" : "", b);
}

/* The scores' labels, each naming its scale, its meaning a hover away (the list of the
 * pages' labels is in docs/report.md; tests/view/labels.sh checks the report against it) */
#define TH_SCORE                                                                                   \
    "<th class=\"help\" title=\"points per game an entrant gains against an average entrant at "   \
    "the same table (a rating, the main ranking; can be negative)\">score (pts/game vs "           \
    "average)</th>"
#define TH_SCORE_CI                                                                                \
    "<th class=\"help\" title=\"the score's 95% interval against the field (whole duplicate sets " \
    "resampled)\">score 95% CI</th>"
#define TH_ADJ                                                                                     \
    "<th class=\"help\" title=\"the score rating fitted the same way on luck-adjusted totals: "    \
    "each game's final total minus what its chance events were worth by the arena's fixed value "  \
    "estimate (docs/luck.md); the same quantity, usually a narrower interval\">luck-adjusted "     \
    "(pts/game vs average)</th>"
#define TH_ADJ_CI                                                                                  \
    "<th class=\"help\" title=\"the luck-adjusted score's 95% interval against the field "         \
    "(whole duplicate sets resampled)\">luck-adjusted 95% CI</th>"
#define TH_ELO                                                                                     \
    "<th class=\"help\" title=\"how often it finishes ahead of the others, on the Elo scale (0: "  \
    "an average entrant)\">win-Elo</th>"
#define TH_ELO_CI                                                                                  \
    "<th class=\"help\" title=\"the win-Elo's 95% interval against the field\">win-Elo 95% "       \
    "CI</th>"

static void standings_html(FILE *out, const rep *r)
{
    /* the labels' meanings, a tap away on a phone too (where a title does not show) */
    fputs("<h2 id=\"standings\">Standings</h2>\n<details class=\"scale\"><summary>What the "
          "numbers mean</summary><p><b>score (pts/game vs average)</b> is a rating: the points per "
          "game an entrant gains against an average entrant at the same table (0 is average; it "
          "can be negative). <b>win-Elo</b> says how often it finishes ahead, on the Elo scale. "
          "Each comes with its 95% interval against the field (<b>CI</b>). The games and the "
          "duplicate sets below show points of single games instead: a <b>final total</b> is the "
          "game's hand scores plus its bonuses (RULES 7.5). A dotted label explains itself on "
          "hover; <a href=\"#howto\">how to read this</a> says more.</p></details>\n",
          out);
    fputs("<table id=\"t-standings\"><thead><tr><th>rank</th>"
          "<th class=\"l\">entrant</th>" TH_SCORE TH_SCORE_CI,
          out);
    if (r->has_adj)
        fputs(TH_ADJ TH_ADJ_CI, out);
    fputs(TH_ELO TH_ELO_CI
          "<th>rank CI</th><th>p&gt;next</th><th>games</th><th>sets</th>"
          "<th>wins</th><th>mean place</th><th class=\"l\">marks</th></tr></thead><tbody>\n",
          out);
    for (int i = 0; i < r->n; i++) {
        const entrant *e = &r->e[i];
        const av_marks *m = &e->marks;
        char b[96], x[32], y[32], rk[24], mk[200];
        fprintf(out, "<tr><td>%d</td><td class=\"l\">", e->rank);
        h(out, e->name);
        fputs("</td>", out);
        if (m->never_played) /* as the terminal: its score comes of forfeits, not of play */
            fputs("<td class=\"mark\">never played</td>", out);
        else
            td_num(out, e->score, ST_SCORE, 1, 1);
        fnum(x, sizeof x, e->score_lo, ST_SCORE, 1, 1);
        fnum(y, sizeof y, e->score_hi, ST_SCORE, 1, 1);
        snprintf(b, sizeof b, isnan(e->score_lo) ? "-" : "[%s, %s]", x, y);
        fprintf(out, "<td>%s</td>", b);
        if (r->has_adj) {
            td_num(out, e->adj, ST_SCORE, 1, 1);
            fnum(x, sizeof x, e->adj_lo, ST_SCORE, 1, 1);
            fnum(y, sizeof y, e->adj_hi, ST_SCORE, 1, 1);
            snprintf(b, sizeof b, isnan(e->adj_lo) ? "-" : "[%s, %s]", x, y);
            fprintf(out, "<td class=\"adj\">%s</td>", b);
        }
        td_num(out, e->elo, ST_ELO, 0, 1);
        fnum(x, sizeof x, e->elo_lo, ST_ELO, 0, 1);
        fnum(y, sizeof y, e->elo_hi, ST_ELO, 0, 1);
        snprintf(b, sizeof b, isnan(e->elo_lo) ? "-" : "[%s, %s]", x, y);
        fprintf(out, "<td>%s</td>", b);
        rank_text(e, rk, sizeof rk);
        fprintf(out, "<td>%s</td>", rk);
        td_num(out, e->p_next, ST_SHARE, 2, 0);
        fprintf(out, "<td>%lld</td><td>%lld</td><td>%lld</td>", e->games, e->sets, e->wins);
        td_num(out, e->mean_place, ST_SHARE, 2, 0);
        /* the marks, also as attributes for scripts and tests */
        av_marks_text(m, 0, mk, sizeof mk);
        fprintf(out,
                "<td class=\"l%s\" data-never-played=\"%d\" data-dq=\"%d\" "
                "data-forfeits=\"%lld\" data-substituted=\"%lld\">",
                mk[0] ? " mark" : "", m->never_played, m->disqualified, m->forfeits,
                m->substituted);
        h(out, mk[0] ? mk : "-");
        fputs("</td></tr>\n", out);
    }
    fputs("</tbody></table>\n<h3>Score rating (points per game against an average entrant)</h3>\n",
          out);
    forest(out, r, 0);
    if (r->tournament) {
        fputs("<h3>win-Elo (who finishes ahead)</h3>\n", out);
        forest(out, r, 1);
    }
}

/* Whole percentages that add up to exactly 100 in each row (largest remainders get the
 * leftover points), so that a row reads as the distribution it is; pct[k] = -1 where the
 * share is 0 (a rank the entrant never reached: an empty cell, not "0"). */
static void row_percent(const double *p, int n, int *pct)
{
    double sum = 0;
    int given = 0;
    for (int k = 0; k < n; k++) {
        sum += p[k];
        pct[k] = (int)floor(p[k] * 100);
        given += pct[k];
    }
    int want = (int)lround(sum * 100); /* 100, unless results.json's 4 decimals say 99.99 */
    while (given < want) {
        int best = -1;
        double frac = -1;
        for (int k = 0; k < n; k++) {
            double f = p[k] * 100 - pct[k];
            if (p[k] > 0 && f > frac) {
                frac = f;
                best = k;
            }
        }
        if (best < 0)
            break;
        pct[best]++; /* its remainder is now negative: it gets no second point */
        given++;
    }
    for (int k = 0; k < n; k++)
        if (p[k] <= 0)
            pct[k] = -1;
}

static void rank_p_html(FILE *out, const rep *r)
{
    if (!r->rank_p)
        return;
    fputs(
        "<h2 id=\"rankp\">Rank probabilities</h2>\n<p class=\"meta\">The share of the "
        "bootstrap replicates (the same ones as the rank CI) in which the row's entrant "
        "finished at each rank, in percent; each row adds up to 100. Underlined: the ranks of its "
        "95% rank CI. An empty cell: a rank it never reached in any replicate; 0: one it "
        "reached too rarely to show.</p>\n",
        out);
    if (r->n > RANK_P_COLS) {
        fprintf(out,
                "<p class=\"meta\">%d entrants are too many ranks for a table; results.json "
                "(<code>rank_p</code>) and <code>arena report --format json</code> have them "
                "all.</p>\n",
                r->n);
        return;
    }
    fputs("<table id=\"t-rankp\"><thead><tr><th class=\"l\">entrant \\ rank</th>", out);
    for (int k = 1; k <= r->n; k++)
        fprintf(out, "<th>%d</th>", k);
    fputs("</tr></thead><tbody>\n", out);
    int *pct = ar_xcalloc((size_t)r->n, sizeof *pct);
    for (int i = 0; i < r->n; i++) {
        const entrant *e = &r->e[i];
        fputs("<tr><th class=\"l\">", out);
        h(out, e->name);
        fputs("</th>", out);
        if (!e->rank_p) {
            for (int k = 0; k < r->n; k++)
                fputs("<td class=\"na\">-</td>", out);
            fputs("</tr>\n", out);
            continue;
        }
        row_percent(e->rank_p, r->n, pct);
        for (int k = 0; k < r->n; k++) {
            double p = e->rank_p[k];
            if (pct[k] < 0) {
                fputs("<td></td>", out);
                continue;
            }
            /* darker with the share; the rank CI's cells framed */
            int a = (int)(sqrt(p) * 200);
            int in = k + 1 >= e->rank_lo && k + 1 <= e->rank_hi;
            fprintf(out,
                    "<td class=\"hm%s\" data-p=\"%.4f\" title=\"%.2f%%\" "
                    "style=\"background:rgb(%d,%d,255)%s\">%d</td>",
                    in ? " ci" : "", p, p * 100, 255 - a, 255 - a / 2, p > 0.6 ? ";color:#fff" : "",
                    pct[k]);
        }
        fputs("</tr>\n", out);
    }
    free(pct);
    fputs("</tbody></table>\n", out);
}

/* cell colour for a share in [0, 1]: white at 0.5, blue above, red below */
static void shade(FILE *out, double p)
{
    if (isnan(p)) {
        fputs("<td class=\"na\">-</td>", out);
        return;
    }
    int a = (int)(fabs(p - 0.5) * 2 * 180);
    if (p >= 0.5)
        fprintf(out, "<td class=\"hm\" style=\"background:rgb(%d,%d,255)\">%.2f</td>", 255 - a,
                255 - a / 2, p);
    else
        fprintf(out, "<td class=\"hm\" style=\"background:rgb(255,%d,%d)\">%.2f</td>", 255 - a,
                255 - a, p);
}

static void matrix_head(FILE *out, json_t *order, const char *id)
{
    /* the corner names what a cell holds, on which scale */
    int ahead = strcmp(id, "t-ahead") == 0;
    fprintf(out, "<table id=\"%s\"><thead><tr><th class=\"l help\" title=\"%s\">%s</th>", id,
            ahead ? "the share of the games both played in which the row placed better than the "
                    "column (ties count half)"
                  : "the row's final total minus the column's, per game both played (points), "
                    "with its 95% interval and the games shared",
            ahead ? "row ahead of column (share)" : "row minus column (pts/game)");
    for (size_t c = 0; c < json_array_size(order); c++) {
        fputs("<th>", out);
        h(out, json_string_value(json_array_get(order, c)));
        fputs("</th>", out);
    }
    fputs("</tr></thead><tbody>\n", out);
}

static void cross_html(FILE *out, const rep *r)
{
    json_t *x = r->cross, *order = json_object_get(x, "order");
    size_t n = json_array_size(order);
    fputs("<h2 id=\"pairs\">Pairwise: how often the row finished ahead of the column</h2>\n"
          "<p class=\"meta\">Share of the games they shared in which the row placed better (ties "
          "count half). Blue: the row is usually ahead.</p>\n",
          out);
    matrix_head(out, order, "t-ahead");
    for (size_t i = 0; i < n; i++) {
        fputs("<tr><th class=\"l\">", out);
        h(out, json_string_value(json_array_get(order, i)));
        fputs("</th>", out);
        for (size_t c = 0; c < n; c++)
            shade(out, num(json_array_get(json_array_get(json_object_get(x, "ahead"), i), c)));
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table>\n<h2 id=\"crosstable\">Crosstable</h2>\n<p class=\"meta\">Mean of the "
          "row's total minus the column's per shared game (points), its 95% interval over the "
          "sets they shared, the same on luck-adjusted totals when the run has them (the cards' "
          "luck taken out, docs/luck.md), and the games shared.</p>\n",
          out);
    matrix_head(out, order, "t-cross");
    for (size_t i = 0; i < n; i++) {
        fputs("<tr><th class=\"l\">", out);
        h(out, json_string_value(json_array_get(order, i)));
        fputs("</th>", out);
        for (size_t c = 0; c < n; c++) {
            double d = num(json_array_get(json_array_get(json_object_get(x, "diff"), i), c));
            double lo = num(json_array_get(json_array_get(json_object_get(x, "diff_lo"), i), c));
            double hi = num(json_array_get(json_array_get(json_object_get(x, "diff_hi"), i), c));
            long long g = json_integer_value(
                json_array_get(json_array_get(json_object_get(x, "games"), i), c));
            if (isnan(d)) {
                fputs("<td class=\"na\">-</td>", out);
                continue;
            }
            int sure = !isnan(lo) && (lo > 0 || hi < 0);
            char dt[32], lt[32], ht[32];
            fnum(dt, sizeof dt, d, ST_SCORE, 1, 1);
            fnum(lt, sizeof lt, lo, ST_SCORE, 0, 1);
            fnum(ht, sizeof ht, hi, ST_SCORE, 0, 1);
            fprintf(out, "<td%s>%s", sure ? " class=\"verdict\"" : "", dt);
            if (!isnan(lo))
                fprintf(out, "<br><small>[%s, %s]</small>", lt, ht);
            /* the same difference on luck-adjusted totals (docs/luck.md), when there are any */
            json_t *ad = json_object_get(x, "luck_adjusted_diff");
            double a = num(json_array_get(json_array_get(ad, i), c));
            if (!isnan(a)) {
                double alo = num(json_array_get(
                    json_array_get(json_object_get(x, "luck_adjusted_diff_lo"), i), c));
                double ahi = num(json_array_get(
                    json_array_get(json_object_get(x, "luck_adjusted_diff_hi"), i), c));
                fnum(dt, sizeof dt, a, ST_SCORE, 1, 1);
                fnum(lt, sizeof lt, alo, ST_SCORE, 0, 1);
                fnum(ht, sizeof ht, ahi, ST_SCORE, 0, 1);
                fprintf(out, "<br><small class=\"adj\">luck-adjusted %s", dt);
                if (!isnan(alo))
                    fprintf(out, " [%s, %s]", lt, ht);
                fputs("</small>", out);
            }
            fprintf(out, "<br><small>%lld games</small></td>", g);
        }
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table>\n", out);
}

/* An entrant's logs: the match writes a bot's stderr to LOGS/slot<k>-<name>.log, a tournament
 * to LOGS/s<set>-slot<k>-<name>.log (one file per set and slot; built-in players write none),
 * <name> the entrant's name as ar_match_log_name writes it. How many files an entrant has, and the
 * first LOGS_SHOWN by set and slot. */
enum { LOGS_SHOWN = 3 };
typedef struct elogs {
    long long n;
    int nf;
    long long key[LOGS_SHOWN]; /* set * OKR_MAX_PLAYERS + slot */
    char file[LOGS_SHOWN][300];
} elogs;

/* the number at *p (digits only) and what follows it, or -1 */
static long long digits(const char **p)
{
    long long v = 0;
    const char *q = *p;
    for (; *q >= '0' && *q <= '9' && v < (1LL << 50); q++)
        v = v * 10 + (*q - '0');
    if (q == *p)
        return -1;
    *p = q;
    return v;
}

static elogs *read_logs(const rep *r, const char *logs)
{
    elogs *L = ar_xcalloc((size_t)r->n + 1, sizeof *L);
    char path[4096], (*safe)[128] = ar_xcalloc((size_t)r->n + 1, sizeof *safe);
    for (int i = 0; i < r->n; i++)
        ar_match_log_name(r->e[i].name, safe[i], sizeof safe[i]);
    snprintf(path, sizeof path, "%s/%s", r->dir, logs);
    DIR *d = opendir(path);
    struct dirent *de;
    while (d && (de = readdir(d))) {
        const char *p = de->d_name;
        size_t len = strlen(p);
        long long set = 0, slot;
        if (len < 5 || len >= sizeof L->file[0] || strcmp(p + len - 4, ".log") != 0)
            continue;
        if (*p == 's' && p[1] != 'l') { /* s<set>- */
            p++;
            if ((set = digits(&p)) < 0 || *p++ != '-')
                continue;
        }
        if (strncmp(p, "slot", 4) != 0)
            continue;
        p += 4;
        if ((slot = digits(&p)) < 0 || slot >= OKR_MAX_PLAYERS || *p++ != '-')
            continue;
        size_t nl = strlen(p) - 4; /* the name, without .log */
        for (int i = 0; i < r->n; i++) {
            if (strlen(safe[i]) != nl || strncmp(p, safe[i], nl) != 0)
                continue;
            elogs *e = &L[i];
            long long key = set * OKR_MAX_PLAYERS + slot;
            e->n++;
            int at = e->nf; /* keep the first LOGS_SHOWN in (set, slot) order */
            while (at > 0 && e->key[at - 1] > key)
                at--;
            if (at < LOGS_SHOWN) {
                int last = e->nf < LOGS_SHOWN ? e->nf++ : LOGS_SHOWN - 1;
                for (int k = last; k > at; k--) {
                    e->key[k] = e->key[k - 1];
                    memcpy(e->file[k], e->file[k - 1], sizeof e->file[k]);
                }
                e->key[at] = key;
                snprintf(e->file[at], sizeof e->file[at], "%s", de->d_name);
            }
            break;
        }
    }
    if (d)
        closedir(d);
    free(safe);
    return L;
}

static void verdicts_html(FILE *out, const rep *r, const av_report_opts *o)
{
    elogs *L = o->log_dir ? read_logs(r, o->log_dir) : NULL;
    fputs("<h2 id=\"verdicts\">Verdicts and timing</h2>\n<p class=\"meta\">Verdicts against each "
          "entrant in the counted games (RE crash, TLE time, MLE memory, OLE output, PE protocol, "
          "IA illegal action, SV sandbox, DQ disqualified), the games it forfeited, the moves the "
          "arena played for it (substituted), its decision "
          "times, and its logs (its stderr: one file per set and seat; built-in players write "
          "none).</p>\n<table id=\"t-verdicts\"><thead><tr><th class=\"l\">entrant</th>",
          out);
    for (int v = 0; v < NV; v++)
        fprintf(out, "<th>%s</th>", VERDICTS[v]);
    fputs("<th>forfeits</th><th>substituted</th><th>decisions</th><th>mean ms</th><th>max "
          "ms</th><th class=\"l\">logs"
          "</th></tr></thead><tbody>\n",
          out);
    for (int i = 0; i < r->n; i++) {
        const entrant *e = &r->e[i];
        fputs("<tr><td class=\"l\">", out);
        h(out, e->name);
        fputs("</td>", out);
        for (int v = 0; v < NV; v++)
            fprintf(out, "<td%s>%lld</td>", e->verdicts[v] ? " class=\"bad\"" : "", e->verdicts[v]);
        fprintf(out, "<td%s>%lld</td><td%s>%lld</td><td>%lld</td>",
                e->forfeits ? " class=\"bad\"" : "", e->forfeits,
                e->marks.substituted > 0 ? " class=\"bad\"" : "", e->marks.substituted,
                e->decisions);
        /* timings are measured here, not stored: as they are */
        fprintf(out, e->decisions ? "<td>%.2f</td>" : "<td class=\"na\">-</td>",
                e->decisions ? e->wall_ms / (double)e->decisions : 0.0);
        fprintf(out, "<td>%.1f</td>", e->max_ms);
        if (L && L[i].n) {
            fprintf(out, "<td class=\"l\" data-logs=\"%lld\">", L[i].n);
            for (int k = 0; k < L[i].nf; k++) /* file names of [A-Za-z0-9._-] only */
                fprintf(out, "%s<a href=\"%s/%s\">%s</a>", k ? ", " : "", o->log_dir, L[i].file[k],
                        L[i].file[k]);
            if (L[i].n > L[i].nf)
                fprintf(out, " and %lld more in <a href=\"%s/\">%s/</a>", L[i].n - L[i].nf,
                        o->log_dir, o->log_dir);
            fputs("</td>", out);
        } else {
            fputs("<td class=\"l\" data-logs=\"0\">-</td>", out);
        }
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table>\n", out);
    free(L);
    if (r->sprt) {
        char b[256];
        sprt_text(r, b, sizeof b);
        fputs("<h2 id=\"sprt\">Sequential test (gauntlet)</h2>\n<p id=\"sprt-state\">", out);
        h(out, b);
        fprintf(out, "</p>\n<p class=\"meta\">challenger ");
        h(out, str(r->sprt, "challenger", "?"));
        fputs(" against ", out);
        h(out, str(r->sprt, "baseline", "the field"));
        fputs(": H1 means the challenger is at least s1 points per game better, H0 that it is "
              "not better than s0.</p>\n",
              out);
    }
}

/* the log of seat s of a tournament game: logs/s<set>-slot<k>-<name>.log; slot k is the seat's
 * place in the set's first game, which rotation r moved: k = (s + r) mod seats */
static void games_html(FILE *out, const rep *r, const av_report_opts *o)
{
    size_t n = json_array_size(r->games_list);
    long long shown =
        o->max_games >= 0 && (long long)n > o->max_games ? o->max_games : (long long)n;
    fprintf(out, "<h2 id=\"games\">Games</h2>\n<p class=\"meta\">%zu games", n);
    if (shown < (long long)n)
        fprintf(out, "; the first %lld are listed (games.jsonl has them all)", shown);
    if (o->replays)
        fputs(". A game id opens its replay (the referee's page; each seat's page is linked from "
              "it)",
              out);
    fputs(".</p>\n<div class=\"scroll\"><table id=\"t-games\"><thead><tr><th>#</th>"
          "<th class=\"l\">game</th><th class=\"l help\" title=\"each seat's final total (hand "
          "scores "
          "and bonuses, RULES 7.5) and its place in the game\">seats (final total, place)</th>"
          "<th>hands</th>"
          "<th class=\"l\">verdicts</th></tr></thead><tbody>\n",
          out);
    for (long long i = 0; i < shown; i++) {
        json_t *g = json_array_get(r->games_list, (size_t)i);
        const char *id = str(g, "game_id", "?");
        json_t *gi = json_object_get(g, "game"); /* a match's games.jsonl says "index" */
        fprintf(out, "<tr><td>%lld</td><td class=\"l\">",
                (long long)json_integer_value(gi ? gi : json_object_get(g, "index")));
        int linked = replay_link(out, o, g);
        h(out, o->no_seed ? av_public_id(id) : id);
        fputs(linked ? "</a>" : "", out);
        fputs("</td><td class=\"l\">", out);
        json_t *names = json_object_get(g, "names"), *fin = json_object_get(g, "final_total"),
               *pl = json_object_get(g, "placements");
        for (size_t s = 0; s < json_array_size(names); s++) {
            fputs(s ? "; " : "", out);
            h(out, json_string_value(json_array_get(names, s)));
            fprintf(out, " %lld (%lld)", (long long)json_integer_value(json_array_get(fin, s)),
                    (long long)json_integer_value(json_array_get(pl, s)));
        }
        fprintf(out, "</td><td>%lld</td><td class=\"l\">",
                (long long)json_integer_value(json_object_get(g, "hands")));
        json_t *vs = json_object_get(g, "verdicts");
        for (size_t k = 0; k < json_array_size(vs); k++) {
            json_t *v = json_array_get(vs, k);
            int seat = (int)json_integer_value(json_object_get(v, "seat"));
            fputs(k ? "; " : "", out);
            if (ar_verdict_left(strcmp(str(v, "verdict", ""), "RE") ? AR_V_NONE : AR_V_RE,
                                str(v, "detail", ""))) { /* a person left: words, not a crash */
                h(out, json_string_value(json_array_get(names, (size_t)seat)));
                fputs(" <span class=\"bad\">left the game</span> (verdict RE)", out);
                continue;
            }
            fputs("<span class=\"bad\">", out);
            h(out, str(v, "verdict", "?"));
            fputs("</span> ", out);
            h(out, json_string_value(json_array_get(names, (size_t)seat)));
            fputs(": ", out);
            if (o->publish) { /* no absolute path of this machine on a published page */
                char clean[1200];
                av_scrub_paths(str(v, "detail", ""), clean, sizeof clean);
                h(out, clean);
            } else {
                h(out, str(v, "detail", ""));
            }
            if (o->log_dir && r->tournament && r->seats > 0) {
                long long set = json_integer_value(json_object_get(g, "set"));
                int rot = (int)json_integer_value(json_object_get(g, "rotation"));
                const char *who = json_string_value(json_array_get(names, (size_t)seat));
                char safe[128];
                ar_match_log_name(who ? who : "", safe, sizeof safe);
                fprintf(out, " <a href=\"%s/s%lld-slot%d-", o->log_dir, set,
                        (seat + rot) % r->seats);
                h(out, safe);
                fputs(".log\">log</a>", out);
            }
        }
        fputs("</td></tr>\n", out);
    }
    fputs("</tbody></table></div>\n", out);
}

/* The duplicate sets: the rotations of one deal side by side, hand by hand. In every rotation
 * of a set, seat s gets the same cards in hand h (dealt from the set's seed, the dealer
 * rotating: RULES 2.3); only who sits there changes. One column per rotation under each seat,
 * headed by the entrant that sat there (linked to that game's replay), one row per hand with
 * the points each made of those cards, and the final totals. From games.jsonl alone. */
static void dupsets_html(FILE *out, const rep *r, const av_report_opts *o)
{
    fprintf(out,
            "<h2 id=\"dupsets\">Duplicate sets: the same cards in other hands</h2>\n<p "
            "class=\"meta\">In every rotation of a deal, seat <i>s</i> gets the same cards in "
            "%s; only who sits there changes. Under each seat, one column per rotation: the "
            "entrant that held those cards (a link to that game's replay), the points it scored "
            "with them in each hand, and its final total. The best score of a seat's cards in a "
            "hand is bold; the hand where they went furthest apart is marked. %lld duplicate "
            "set%s in games.jsonl; the %d where the same cards scored furthest apart:</p>\n",
            r->by_hand ? "every hand (the dealer rotates, RULES 2.3)"
                       : "the first hand (only the first: the dealer follows the winner, RULES "
                         "2.3)",
            r->dup_sets, r->dup_sets == 1 ? "" : "s", r->dup_ntop);
    for (int i = 0; i < r->dup_ntop; i++) {
        const dset *d = &r->dup_top[i];
        size_t nh = dup_hands(r, d), most = 0;
        for (int a = 0; a < d->n; a++)
            if (d->g[a] && json_array_size(hand_scores(d->g[a])) > most)
                most = json_array_size(hand_scores(d->g[a]));
        fprintf(out, "<h3>%s %lld: the same cards up to %lld points apart (hand %d)</h3>\n",
                r->tournament ? "Set" : "Deal", d->key, d->spread, d->far_hand + 1);
        if (nh < most)
            fprintf(out, "<p class=\"meta\">The first %zu of %zu hands.</p>\n", nh, most);
        fprintf(out,
                "<div class=\"scroll\"><table class=\"dupset\" id=\"t-dupset-%d\" "
                "data-set=\"%lld\" data-rotations=\"%d\"><thead><tr><th rowspan=\"2\">hand</th>",
                i, d->key, d->n);
        for (int seat = 0; seat < r->seats; seat++)
            fprintf(out, "<th class=\"seat\" colspan=\"%d\">seat %d's cards</th>", d->n, seat);
        fputs("</tr>\n<tr>", out);
        for (int seat = 0; seat < r->seats; seat++)
            for (int a = 0; a < d->n; a++) {
                json_t *g = d->g[a];
                fprintf(out, "<th class=\"who%s\" data-rotation=\"%d\">", a ? "" : " seat", a);
                if (g) {
                    int link = replay_link(out, o, g);
                    av_html_text(out, json_string_value(json_array_get(json_object_get(g, "names"),
                                                                       (size_t)seat)));
                    fputs(link ? "</a>" : "", out);
                } else {
                    fputs("-", out); /* a rotation not played (an incomplete run) */
                }
                fputs("</th>", out);
            }
        fputs("</tr></thead><tbody>\n", out);
        for (size_t hnd = 0; hnd < nh; hnd++) {
            fprintf(out, "<tr%s><td>%zu</td>", (int)hnd == d->far_hand ? " class=\"far\"" : "",
                    hnd + 1);
            for (int seat = 0; seat < r->seats; seat++) {
                long long lo = 0, hi = 0, x[OKR_MAX_PLAYERS];
                int has[OKR_MAX_PLAYERS], any = 0;
                for (int a = 0; a < d->n; a++) {
                    x[a] = d->g[a] ? hand_score(d->g[a], hnd, (size_t)seat, &has[a]) : 0;
                    has[a] = d->g[a] && has[a];
                    if (has[a]) {
                        lo = any && lo < x[a] ? lo : x[a];
                        hi = any && hi > x[a] ? hi : x[a];
                        any = 1;
                    }
                }
                for (int a = 0; a < d->n; a++) {
                    /* a seat's first column is framed; bold: the best, when not all agree */
                    int best = has[a] && x[a] == hi && hi > lo;
                    fputs(!a && best ? "<td class=\"seat best\">"
                          : !a       ? "<td class=\"seat\">"
                          : best     ? "<td class=\"best\">"
                                     : "<td>",
                          out);
                    if (has[a])
                        fprintf(out, "%+lld</td>", x[a]);
                    else
                        fputs("-</td>", out); /* that game ended before hand h */
                }
            }
            fputs("</tr>\n", out);
        }
        /* the rows add up to the final total: the hands not shown (a run with dealer=winner
         * compares hand 1 only; at most DUP_HANDS_MAX), then the bonuses (final total minus
         * every hand: the winner's bonus, concealed bonuses) */
        if (nh < most) {
            fprintf(out,
                    "<tr class=\"later\"><td class=\"help\" title=\"the sum of the hands after "
                    "hand %zu, which are not compared above\">later hands</td>",
                    nh);
            for (int seat = 0; seat < r->seats; seat++)
                for (int a = 0; a < d->n; a++) {
                    long long sum = 0;
                    size_t nn = d->g[a] ? json_array_size(hand_scores(d->g[a])) : 0;
                    int has = 0, any = 0;
                    for (size_t q = nh; q < nn; q++) {
                        sum = wrap_add(sum, hand_score(d->g[a], q, (size_t)seat, &has));
                        any |= has;
                    }
                    fputs(a ? "<td>" : "<td class=\"seat\">", out);
                    if (any)
                        fprintf(out, "%+lld</td>", sum);
                    else
                        fputs("-</td>", out);
                }
            fputs("</tr>\n", out);
        }
        long long bonus[OKR_MAX_PLAYERS][OKR_MAX_PLAYERS]; /* [seat][rotation] */
        int any_bonus = r->winner_bonus > 0 || r->concealed_bonus > 0;
        for (int seat = 0; seat < r->seats; seat++)
            for (int a = 0; a < d->n; a++) {
                long long sum = 0;
                size_t nn = d->g[a] ? json_array_size(hand_scores(d->g[a])) : 0;
                int has;
                for (size_t q = 0; q < nn; q++)
                    sum = wrap_add(sum, hand_score(d->g[a], q, (size_t)seat, &has));
                long long fin = d->g[a]
                                    ? json_integer_value(json_array_get(
                                          json_object_get(d->g[a], "final_total"), (size_t)seat))
                                    : 0;
                bonus[seat][a] = wrap_add(fin, -(unsigned long long)sum);
                any_bonus |= bonus[seat][a] != 0;
            }
        if (any_bonus) {
            fprintf(out,
                    "<tr class=\"bonus\"><td class=\"help\" title=\"the final total minus the "
                    "hands' points: %s\">%s</td>",
                    r->concealed_bonus > 0
                        ? "the winner's bonus (RULES 7.4) and any concealed bonus (RULES 7.3)"
                        : "the winner's bonus (RULES 7.4)",
                    r->concealed_bonus > 0 ? "winner's and concealed bonuses" : "winner's bonus");
            for (int seat = 0; seat < r->seats; seat++)
                for (int a = 0; a < d->n; a++) {
                    fputs(a ? "<td>" : "<td class=\"seat\">", out);
                    if (d->g[a])
                        fprintf(out, "%+lld</td>", bonus[seat][a]);
                    else
                        fputs("-</td>", out);
                }
            fputs("</tr>\n", out);
        }
        fputs("<tr class=\"final\"><td class=\"help\" title=\"the game's final total: the rows "
              "above added up (RULES 7.5)\">final total</td>",
              out);
        for (int seat = 0; seat < r->seats; seat++)
            for (int a = 0; a < d->n; a++) {
                fputs(a ? "<td>" : "<td class=\"seat\">", out);
                if (d->g[a])
                    fprintf(out, "%lld</td>",
                            (long long)json_integer_value(json_array_get(
                                json_object_get(d->g[a], "final_total"), (size_t)seat)));
                else
                    fputs("-</td>", out);
            }
        fputs("</tr>\n</tbody></table></div>\n", out);
    }
}

static void howto_html(FILE *out)
{
    fputs("<h2 id=\"howto\">How to read this</h2>\n<div class=\"howto\">\n"
          "<p><b>Score rating</b>: points per game an entrant gains against an average entrant at "
          "the same table. It is the main ranking, because rummy is a points game. <b>win-Elo</b> "
          "answers a different question, how often it finishes ahead.</p>\n"
          "<p><b>Each interval is against the field</b>, and resamples whole duplicate sets (the "
          "games of one deal are played together, so they are not independent). Two entrants' "
          "ratings share most of their noise: <b>do not compare two entrants by whether their "
          "intervals overlap</b>. Use the <b>rank CI</b> (is the order settled?), <b>p&gt;next</b> "
          "(the share of bootstrap replicates in which the entrant beats the one ranked just "
          "below: 0.95 or more is a clear order, near 0.5 a coin toss) and the crosstable's pair "
          "intervals (bold where the interval excludes 0).</p>\n"
          "<p><b>Rank probabilities</b> spread each entrant over the ranks it reached in the "
          "same bootstrap replicates: a row with one dark cell is a settled place, a row spread "
          "over several ranks a place the games have not decided. P(1st) in the pasted block "
          "is the first column.</p>\n"
          "<p><b>rho</b> is how much of the score's variance the deal explains, removed by "
          "playing each deal in every seat order: the games needed for a given precision shrink "
          "by about (1 - rho). Near 0 or negative, the deal mattered little.</p>\n"
          "<p>A gauntlet's <b>SPRT decision</b> is its answer; ratings after an early stop are "
          "biased, so run a fixed-length tournament to measure the size of a difference. More: "
          "docs/tournaments.md, \"Reading the results\".</p>\n</div>\n",
          out);
}

static void kb(char *b, size_t n, long long bytes)
{
    if (bytes < 10 * 1024)
        snprintf(b, n, "%.1f KB", (double)bytes / 1024);
    else if (bytes < 10 * 1024 * 1024)
        snprintf(b, n, "%lld KB", (bytes + 512) / 1024);
    else
        snprintf(b, n, "%.1f MB", (double)bytes / (1024 * 1024));
}

/* A published report: each entrant's folder of its games as its seat saw them, with sizes */
static void handouts_html(FILE *out, const av_report_opts *o)
{
    char b[32];
    kb(b, sizeof b, o->total_bytes);
    fprintf(out,
            "<h2 id=\"handouts\">Each entrant's games</h2>\n<p class=\"meta\">This folder is "
            "<span id=\"total-size\">%s</span> (%lld bytes, this page included). Each entrant's "
            "folder holds its games as its seat saw them (RULES 8.3: no other seat's hidden "
            "card, no seed): hand it to the entrant's author.</p>\n<table id=\"t-handouts\">"
            "<thead><tr><th class=\"l\">entrant</th><th class=\"l\">folder</th><th>pages</th>"
            "<th>size</th></tr></thead><tbody>\n",
            b, o->total_bytes);
    for (int i = 0; i < o->nhandouts; i++) {
        const av_handout *x = &o->handouts[i];
        kb(b, sizeof b, x->bytes);
        fputs("<tr><td class=\"l\">", out);
        h(out, x->name);
        fputs("</td><td class=\"l\"><a href=\"", out);
        h(out, x->folder);
        fputs("/index.html\">", out);
        h(out, x->folder);
        fprintf(out, "/</a></td><td>%lld</td><td data-bytes=\"%lld\">%s</td></tr>\n", x->pages,
                x->bytes, b);
    }
    fputs("</tbody></table>\n", out);
}

static int fill(void *ctx, FILE *out, const char *name)
{
    page *p = ctx;
    rep *r = p->r;
    if (strcmp(name, "CSS") == 0) {
        fwrite(av_asset_report_css, 1, av_asset_report_css_len, out);
    } else if (strcmp(name, "TITLE") == 0) {
        fputs("okarena report: ", out);
        h(out, r->name);
    } else if (strcmp(name, "BODY") == 0) {
        fputs("<h1>", out);
        h(out, r->name);
        fprintf(out, "</h1>\n<p class=\"meta\">%s: ", r->tournament ? "tournament" : "match");
        h(out, r->rules);
        fprintf(out, ", %d seats, %s; %lld of %lld sets, %lld of %lld games%s; arena ", r->seats,
                r->format, r->sets, r->sets_scheduled, r->games, r->games_scheduled,
                r->complete ? ", complete" : ", <span class=\"bad\">incomplete</span>");
        h(out, str(r->results, "arena_version", "?"));
        if (json_object_get(r->results, "config_hash")) {
            fputs(", configuration ", out);
            h(out, str(r->results, "config_hash", ""));
        }
        fputs("</p>\n<nav>", out);
        if (p->o->handouts)
            fputs("<a href=\"#handouts\">each entrant's games</a>", out);
        fputs("<a href=\"#standings\">standings</a>", out);
        if (r->rank_p)
            fputs("<a href=\"#rankp\">rank probabilities</a>", out);
        if (r->cross)
            fputs("<a href=\"#pairs\">pairs</a><a href=\"#crosstable\">crosstable</a>", out);
        fputs("<a href=\"#verdicts\">verdicts and timing</a>", out);
        if (r->sprt)
            fputs("<a href=\"#sprt\">sequential test</a>", out);
        fputs("<a href=\"#dupsets\">duplicate sets</a>"
              "<a href=\"#games\">games</a>"
              "<a href=\"#howto\">how to read this</a></nav>\n",
              out);
        if (!r->connected)
            fputs("<p class=\"bad\">Not connected: some entrants never met, directly or through "
                  "others; their ratings are not on one scale.</p>\n",
                  out);
        if (p->o->handouts)
            handouts_html(out, p->o);
        fputs("<h2 id=\"block\">To paste</h2>\n<pre class=\"block\" id=\"paste\">", out);
        char *buf = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&buf, &len);
        if (m) {
            block(r, m, 0);
            fclose(m);
            h(out, buf);
        }
        free(buf);
        fputs("</pre>\n", out);
        standings_html(out, r);
        rank_p_html(out, r);
        if (r->cross && json_array_size(json_object_get(r->cross, "order")))
            cross_html(out, r);
        verdicts_html(out, r, p->o);
        dupsets_html(out, r, p->o);
        games_html(out, r, p->o);
        howto_html(out);
    } else {
        fprintf(out, "@%s@", name);
    }
    return 0;
}

int av_report(const char *dir, const av_report_opts *o, FILE *out, char *err, size_t cap)
{
    rep r;
    memset(&r, 0, sizeof r);
    r.dir = dir;
    r.err = err;
    r.cap = cap;
    r.max_games = o->format == AV_FMT_HTML || o->format == AV_FMT_JSON ? o->max_games : 0;
    r.dup_on = o->format == AV_FMT_HTML;
    int rc = load(&r);
    if (rc == 0) {
        if (o->format == AV_FMT_TEXT || o->format == AV_FMT_MD) {
            block(&r, out, o->format == AV_FMT_MD);
        } else if (o->format == AV_FMT_JSON) {
            json_t *j = model_json(&r);
            rc = json_dumpf(j, out, JSON_INDENT(1) | JSON_REAL_PRECISION(12)) == 0 &&
                         fputc('\n', out) != EOF
                     ? 0
                     : -1;
            json_decref(j);
        } else {
            page p = {&r, o};
            rc = av_template(out, av_asset_report_html, av_asset_report_html_len, fill, &p);
        }
        if (rc != 0 || fflush(out) != 0 || ferror(out))
            rc = fail(&r, "cannot write the report: %s", strerror(errno));
    }
    json_decref(r.results);
    json_decref(r.games_list);
    dup_free(&r.dup_cur);
    for (int i = 0; i < r.dup_ntop; i++)
        dup_free(&r.dup_top[i]);
    free(r.gm);
    free(r.pos);
    free(r.rank_p);
    free(r.e);
    return rc;
}
