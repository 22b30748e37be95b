/* feed.c - follow a run's files and keep the spectators' snapshot (feed.h).
 *
 * Every complete line read is stamped with the time it was first seen, and only lines older
 * than the delay are released: the delay is the server's, a viewer's page cannot undo it.
 * Files are read incrementally (an offset per file); a file that shrinks was rewritten (a
 * repaired journal, a set played again) and is read again from its start. */
#include "feed.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "util/util.h"
#include "view/view.h"

enum {
    MAX_TABLES = 64,   /* games followed at once (a tournament plays `jobs` at a time) */
    MAX_LINES = 50000, /* lines kept per game: beyond, the table is no longer followed */
    MAX_LINE = 65536,  /* a longer line is not ours: the file is not followed further */
    RECENT = 30,       /* finished games listed */
    MOVES = 16,        /* moves shown per table */
    MAX_NAMES = 256,   /* entrants in the standings */
};

typedef struct tline {
    char *text;
    double seen;
} tline;

/* A file read line by line from an offset. */
typedef struct follow {
    char *path;
    off_t off;
    char *part; /* an incomplete last line */
    size_t plen;
    int broken; /* a line too long: stop following */
} follow;

typedef struct table {
    char id[128];
    follow fl;
    tline *l;
    int n, cap;
    int released; /* lines released */
    int ended;    /* a result or aborted line was read */
    double ended_at;
    /* what the released lines say. Releasing a line only notes where the moves and totals
     * are (a look at its type); the last MOVES actions and the last totals are parsed when the
     * snapshot is built (table_json), a few times a second, not once per line (parsing every
     * line was most of the server's work) */
    json_t *names, *totals, *moves;
    long long hand, actions;
    int act[MOVES]; /* line index of the last MOVES actions released: act[k % MOVES] */
    int tot_line;   /* line index of the last hand_end or result released, -1: none */
    int stale;      /* moves or totals to parse again */
} table;

typedef struct ent {
    char *name;
    long long games, wins, verdicts;
    long long error_games, forfeits, substituted, decisions; /* the marks (view's av_marks) */
    double points, places;
} ent;

/* A finished game. Only the last RECENT released ones keep their JSON (for the list and the
 * standings); older ones keep their id, so a 2-million-game tournament costs ids, not JSON. */
typedef struct fin {
    json_t *game; /* the journal's data / the games.jsonl line; NULL once old */
    char *id;
    double seen;
} fin;

struct al_feed {
    char *dir, *kind, *title, *records;
    double delay_ms;
    follow games; /* journal.jsonl or games.jsonl */
    fin *f;
    long long nf, capf, frel; /* finished games read, released */
    ent e[MAX_NAMES];
    int ne;
    table *t[MAX_TABLES];
    json_t *results; /* results.json once written */
    double results_seen;
    int results_released;
    char *snap;
    size_t snaplen;
    long long version;
    int dirty;
};

static char *path_join(const char *a, const char *b)
{
    size_t n = strlen(a) + strlen(b) + 2;
    char *p = ar_xmalloc(n);
    snprintf(p, n, "%s/%s", a, b);
    return p;
}

/* Read the new complete lines of fl, calling each(ud, line). Returns 1 if the file was
 * rewritten (shrank) since last time: the caller starts again. */
static int follow_read(follow *fl, void (*each)(void *ud, const char *line), void *ud)
{
    if (fl->broken)
        return 0;
    int fd = open(fl->path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return 0;
    struct stat st;
    int rewritten = 0;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return 0;
    }
    if (st.st_size < fl->off) {
        close(fd);
        fl->off = 0;
        fl->plen = 0;
        return 1;
    }
    char buf[65536];
    while (fl->off < st.st_size) {
        ssize_t n = pread(fd, buf, sizeof buf, fl->off);
        if (n <= 0)
            break;
        fl->off += n;
        for (ssize_t i = 0; i < n; i++) {
            if (buf[i] != '\n') {
                if (fl->plen + 1 >= MAX_LINE) {
                    fl->broken = 1;
                    break;
                }
                if (!fl->part)
                    fl->part = ar_xmalloc(MAX_LINE);
                fl->part[fl->plen++] = buf[i];
                continue;
            }
            if (fl->plen) {
                if (fl->part[fl->plen - 1] == '\r')
                    fl->plen--;
                fl->part[fl->plen] = '\0';
                each(ud, fl->part);
            }
            fl->plen = 0;
        }
        if (fl->broken)
            break;
    }
    close(fd);
    return rewritten;
}

/* ---- Finished games ----------------------------------------------------------------------- */

typedef struct rd {
    al_feed *f;
    double now;
} rd;

static void on_game_line(void *ud, const char *line)
{
    rd *r = ud;
    al_feed *f = r->f;
    json_t *j = json_loads(line, 0, NULL);
    if (!json_is_object(j)) {
        json_decref(j);
        return;
    }
    json_t *g = strcmp(f->kind, "tournament") == 0 ? json_object_get(j, "data") : j;
    if (!json_is_object(g) || !json_is_string(json_object_get(g, "game_id"))) {
        json_decref(j);
        return;
    }
    if (f->nf == f->capf) {
        f->capf = f->capf ? 2 * f->capf : 256;
        f->f = ar_xrealloc(f->f, (size_t)f->capf * sizeof *f->f);
    }
    f->f[f->nf].game = json_incref(g);
    f->f[f->nf].id = ar_xstrdup(json_string_value(json_object_get(g, "game_id")));
    f->f[f->nf].seen = r->now;
    f->nf++;
    json_decref(j);
}

static ent *ent_of(al_feed *f, const char *name)
{
    for (int i = 0; i < f->ne; i++)
        if (strcmp(f->e[i].name, name) == 0)
            return &f->e[i];
    if (f->ne == MAX_NAMES)
        return NULL;
    ent *e = &f->e[f->ne++];
    memset(e, 0, sizeof *e);
    e->name = ar_xstrdup(name);
    return e;
}

/* A released game counts in the running standings: points per game, wins, mean place. */
static void count_game(al_feed *f, const json_t *g)
{
    const json_t *names = json_object_get(g, "names");
    const json_t *tot = json_object_get(g, "final_total");
    const json_t *pl = json_object_get(g, "placements");
    const json_t *vs = json_object_get(g, "verdicts");
    const json_t *ff = json_object_get(g, "forfeits"), *sub = json_object_get(g, "substituted");
    const json_t *dec = json_object_get(g, "decisions");
    size_t k = json_array_size(names);
    /* a win is 1st place alone in a game played to its end, as in results.json */
    int firsts = 0, completed = json_is_true(json_object_get(g, "completed"));
    for (size_t s = 0; s < k && s < 8; s++)
        firsts += json_integer_value(json_array_get(pl, s)) == 1;
    for (size_t s = 0; s < k && s < 8; s++) {
        const char *nm = json_string_value(json_array_get(names, s));
        ent *e = nm ? ent_of(f, nm) : NULL;
        if (!e)
            continue;
        e->games++;
        e->points += (double)json_integer_value(json_array_get(tot, s));
        json_int_t p = json_integer_value(json_array_get(pl, s));
        e->places += (double)p;
        e->wins += p == 1 && firsts == 1 && completed;
        size_t vi;
        const json_t *v;
        int erred = 0;
        json_array_foreach(vs, vi, v)
        {
            if (json_integer_value(json_object_get(v, "seat")) == (json_int_t)s) {
                e->verdicts++;
                erred = 1;
            }
        }
        e->error_games += erred;
        json_array_foreach(ff, vi, v)
        {
            e->forfeits += json_integer_value(v) == (json_int_t)s;
        }
        e->substituted += json_integer_value(json_array_get(sub, s));
        e->decisions += json_integer_value(json_array_get(dec, s));
    }
}

static void games_reset(al_feed *f)
{
    for (long long i = 0; i < f->nf; i++) {
        json_decref(f->f[i].game);
        free(f->f[i].id);
    }
    f->nf = f->frel = 0;
    for (int i = 0; i < f->ne; i++)
        free(f->e[i].name);
    f->ne = 0;
    f->dirty = 1;
}

/* ---- Tables being played ------------------------------------------------------------------ */

static void on_table_line(void *ud, const char *line)
{
    table *t = ((void **)ud)[0];
    const rd *r = ((void **)ud)[1];
    if (t->n >= MAX_LINES) {
        t->fl.broken = 1;
        return;
    }
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 256;
        t->l = ar_xrealloc(t->l, (size_t)t->cap * sizeof *t->l);
    }
    t->l[t->n].text = ar_xstrdup(line);
    t->l[t->n].seen = r->now;
    t->n++;
    if (strstr(line, "\"type\":\"result\"") || strstr(line, "\"type\":\"aborted\"")) {
        t->ended = 1;
        t->ended_at = r->now;
    }
}

/* The released summary back to nothing (the file was rewritten). */
static void table_clear(table *t)
{
    for (int q = 0; q < t->n; q++)
        free(t->l[q].text);
    t->n = t->released = t->ended = 0;
    json_decref(t->names);
    json_decref(t->totals);
    json_decref(t->moves);
    t->names = t->totals = t->moves = NULL;
    t->hand = t->actions = 0;
    t->tot_line = -1;
    t->stale = 0;
}

/* The type of a record line: the arena writes "type" first ({"type":"action",...), so a look at
 * its start is enough; another line is parsed. Copies it into out ("" when it has none). */
static void line_type(const char *line, char *out, size_t cap)
{
    static const char pre[] = "{\"type\":\"";
    out[0] = '\0';
    if (strncmp(line, pre, sizeof pre - 1) == 0) {
        const char *p = line + sizeof pre - 1;
        size_t n = strcspn(p, "\"\\");
        if (p[n] == '"' && n < cap) {
            memcpy(out, p, n);
            out[n] = '\0';
        }
        return;
    }
    json_t *j = json_loads(line, 0, NULL);
    const char *type = json_string_value(json_object_get(j, "type"));
    if (type)
        snprintf(out, cap, "%s", type);
    json_decref(j);
}

/* One more line released (line index k): what a spectator sees changes by it. */
static void table_release(table *t, int k)
{
    char type[32];
    line_type(t->l[k].text, type, sizeof type);
    if (strcmp(type, "header") == 0) {
        json_t *j = json_loads(t->l[k].text, 0, NULL);
        json_decref(t->names);
        t->names = json_incref(json_object_get(j, "names"));
        json_decref(j);
    } else if (strcmp(type, "action") == 0) {
        t->act[t->actions % MOVES] = k;
        t->actions++;
        t->stale = 1;
    } else if (strcmp(type, "hand_end") == 0 || strcmp(type, "result") == 0) {
        t->tot_line = k;
        t->stale = 1;
    }
}

/* The moves and totals as the released lines say, parsed from the few lines that hold them. */
static void table_parse(table *t)
{
    if (!t->stale)
        return;
    t->stale = 0;
    json_decref(t->moves);
    t->moves = json_array();
    long long from = t->actions > MOVES ? t->actions - MOVES : 0;
    for (long long q = from; q < t->actions; q++) {
        json_t *j = json_loads(t->l[t->act[q % MOVES]].text, 0, NULL);
        t->hand = json_integer_value(json_object_get(j, "hand"));
        json_t *m = json_object();
        json_object_set(m, "seat", json_object_get(j, "seat"));
        json_object_set(m, "action", json_object_get(j, "action"));
        json_object_set(m, "hand", json_object_get(j, "hand"));
        json_array_append_new(t->moves, m);
        json_decref(j);
    }
    if (t->tot_line >= 0) {
        json_t *j = json_loads(t->l[t->tot_line].text, 0, NULL);
        const char *type = json_string_value(json_object_get(j, "type"));
        json_decref(t->totals);
        t->totals = json_incref(
            json_object_get(j, type && strcmp(type, "result") == 0 ? "final_total" : "totals"));
        json_decref(j);
    }
}

static void table_free(table *t)
{
    if (!t)
        return;
    table_clear(t);
    for (int i = 0; i < t->n; i++)
        free(t->l[i].text);
    free(t->l);
    free(t->fl.path);
    free(t->fl.part);
    free(t);
}

static int id_ok(const char *id)
{
    size_t n = strlen(id);
    if (n == 0 || n >= 128 || strstr(id, ".."))
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = id[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '-' || c == '_' || c == '.'))
            return 0;
    }
    return 1;
}

/* By its id (the record's name), or with pub by the id viewers know (av_public_id): only the
 * latter comes from a request, so a viewer cannot test a guess of the seed. */
static table *table_find(const al_feed *f, const char *id, int pub)
{
    for (int i = 0; i < MAX_TABLES; i++)
        if (f->t[i] && strcmp(pub ? av_public_id(f->t[i]->id) : f->t[i]->id, id) == 0)
            return f->t[i];
    return NULL;
}

void al_feed_touch(al_feed *f, const char *name)
{
    if (!name)
        return;
    size_t n = strlen(name);
    if (n < 7 || strcmp(name + n - 6, ".jsonl") != 0 || n - 6 >= 128)
        return;
    char id[128];
    memcpy(id, name, n - 6);
    id[n - 6] = '\0';
    if (!id_ok(id))
        return;
    table *t = table_find(f, id, 0);
    if (t) {
        if (t->ended) { /* the same game started again (a set played again): follow anew */
            for (int i = 0; i < MAX_TABLES; i++)
                if (f->t[i] == t)
                    f->t[i] = NULL;
            table_free(t);
            t = NULL;
        } else
            return;
    }
    int slot = -1;
    for (int i = 0; i < MAX_TABLES && slot < 0; i++)
        if (!f->t[i])
            slot = i;
    if (slot < 0)
        return; /* more games at once than we show */
    t = ar_xcalloc(1, sizeof *t);
    t->tot_line = -1;
    snprintf(t->id, sizeof t->id, "%s", id);
    t->fl.path = path_join(f->records, name);
    f->t[slot] = t;
}

/* ---- The snapshot ------------------------------------------------------------------------- */

static int cmp_rows(const void *a, const void *b)
{
    const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
    double u = json_number_value(json_object_get(x, "score"));
    double v = json_number_value(json_object_get(y, "score"));
    if (u != v)
        return u > v ? -1 : 1;
    return strcmp(json_string_value(json_object_get(x, "name")),
                  json_string_value(json_object_get(y, "name")));
}

static json_t *round3(double v)
{
    return json_real((double)(long long)(v * 1000 + (v < 0 ? -0.5 : 0.5)) / 1000);
}

/* An entrant's marks (never played, DQ, forfeits, substituted moves) as every page writes
 * them (view's av_marks_text), from its results.json row; a tournament's standings do not
 * count substituted moves: the games released (all of them, once the results are) do. */
static void set_marks(const al_feed *f, json_t *row, const json_t *r)
{
    av_marks m;
    av_marks_read(r, &m);
    if (m.substituted < 0) {
        m.substituted = 0;
        const char *nm = json_string_value(json_object_get(r, "name"));
        for (int q = 0; nm && q < f->ne; q++)
            if (strcmp(f->e[q].name, nm) == 0)
                m.substituted = f->e[q].substituted;
    }
    char mk[200];
    av_marks_text(&m, 0, mk, sizeof mk);
    json_object_set_new(row, "marks", json_string(mk));
    json_object_set_new(row, "never_played", json_boolean(m.never_played));
    /* the figures as the report and the terminal write them (one rounding rule) */
    const json_t *ci = json_object_get(row, "ci");
    char a[32], lo[32], hi[32], b[100];
    ar_fmt_num(a, sizeof a, json_number_value(json_object_get(row, "score")), 3, 1, 1);
    json_object_set_new(row, "score_text", json_string(a));
    if (json_is_number(json_array_get(ci, 0)) && json_is_number(json_array_get(ci, 1))) {
        ar_fmt_num(lo, sizeof lo, json_number_value(json_array_get(ci, 0)), 3, 1, 1);
        ar_fmt_num(hi, sizeof hi, json_number_value(json_array_get(ci, 1)), 3, 1, 1);
        snprintf(b, sizeof b, "[%s, %s]", lo, hi);
        json_object_set_new(row, "ci_text", json_string(b));
    }
}

/* The standings: the results' own once written (so the page ends on the same table as
 * results.json), until then running means from the games released so far. */
static json_t *standings(const al_feed *f, int *final)
{
    json_t *rows = json_array();
    const json_t *res = f->results_released ? f->results : NULL;
    const json_t *st = json_object_get(res, "standings");
    const json_t *bots = json_object_get(res, "bots");
    size_t i;
    const json_t *r;
    *final = 0;
    if (json_is_array(st)) {
        *final = 1;
        json_array_foreach(st, i, r)
        {
            json_t *row = json_object();
            json_object_set(row, "rank", json_object_get(r, "rank"));
            json_object_set(row, "name", json_object_get(r, "name"));
            json_object_set(row, "score", json_object_get(r, "score"));
            json_object_set(row, "ci", json_object_get(r, "score_ci"));
            json_object_set(row, "games", json_object_get(r, "games"));
            json_object_set(row, "wins", json_object_get(r, "wins"));
            json_object_set(row, "mean_place", json_object_get(r, "mean_place"));
            json_object_set(row, "disqualified", json_object_get(r, "disqualified"));
            set_marks(f, row, r);
            json_array_append_new(rows, row);
        }
        return rows;
    }
    if (json_is_array(bots)) {
        *final = 1;
        json_t **v = ar_xcalloc(json_array_size(bots) + 1, sizeof *v);
        size_t nv = 0;
        json_array_foreach(bots, i, r)
        {
            json_t *row = json_object();
            json_object_set(row, "name", json_object_get(r, "name"));
            json_object_set_new(row, "score",
                                json_real(json_number_value(json_object_get(r, "mean_final"))));
            json_object_set(row, "ci", json_object_get(json_object_get(r, "score_diff"), "ci95"));
            json_object_set(row, "games", json_object_get(r, "games"));
            json_object_set(row, "wins", json_object_get(r, "wins"));
            json_object_set(row, "disqualified", json_object_get(r, "disqualified"));
            set_marks(f, row, r);
            v[nv++] = row;
        }
        qsort(v, nv, sizeof *v, cmp_rows);
        for (size_t q = 0; q < nv; q++) {
            json_object_set_new(v[q], "rank", json_integer((json_int_t)q + 1));
            json_array_append_new(rows, v[q]);
        }
        free(v);
        return rows;
    }
    json_t *v[MAX_NAMES];
    int nv = 0;
    for (int q = 0; q < f->ne; q++) {
        const ent *e = &f->e[q];
        if (!e->games)
            continue;
        json_t *row = json_object();
        json_object_set_new(row, "name", json_string(e->name));
        json_object_set_new(row, "score", round3(e->points / (double)e->games));
        json_object_set_new(row, "ci", json_null());
        json_object_set_new(row, "games", json_integer(e->games));
        json_object_set_new(row, "wins", json_integer(e->wins));
        json_object_set_new(row, "mean_place", round3(e->places / (double)e->games));
        json_object_set_new(row, "verdicts", json_integer(e->verdicts));
        /* the marks so far: no DQ before the results (it is judged over the whole run) */
        av_marks m = {.never_played = e->decisions == 0 && e->error_games == e->games,
                      .error_games = e->error_games,
                      .games = e->games,
                      .forfeits = e->forfeits,
                      .substituted = e->substituted};
        char mk[200];
        av_marks_text(&m, 0, mk, sizeof mk);
        json_object_set_new(row, "marks", json_string(mk));
        v[nv++] = row;
    }
    qsort(v, (size_t)nv, sizeof *v, cmp_rows);
    for (int q = 0; q < nv; q++) {
        json_object_set_new(v[q], "rank", json_integer(q + 1));
        json_array_append_new(rows, v[q]);
    }
    return rows;
}

/* A table as released: who plays, which hand, the totals after the last hand, the last moves. */
static json_t *table_json(table *t)
{
    table_parse(t);
    return json_pack("{s:s,s:o,s:o,s:I,s:I,s:o}", "id", av_public_id(t->id), "names",
                     t->names ? json_incref(t->names) : json_array(), "totals",
                     t->totals ? json_incref(t->totals) : json_null(), "hand", (json_int_t)t->hand,
                     "actions", (json_int_t)t->actions, "moves",
                     t->moves ? json_incref(t->moves) : json_array());
}

static void build(al_feed *f)
{
    int final = 0;
    json_t *st = standings(f, &final);
    json_t *tables = json_array();
    for (int i = 0; i < MAX_TABLES; i++) {
        table *t = f->t[i];
        if (t && t->released > 0 && !(t->ended && t->released == t->n))
            json_array_append_new(tables, table_json(t));
    }
    json_t *recent = json_array();
    for (long long i = f->frel - 1; i >= 0 && i >= f->frel - RECENT; i--) {
        const json_t *g = f->f[i].game;
        json_array_append_new(
            recent,
            json_pack("{s:s,s:O,s:O,s:O}", "id",
                      av_public_id(json_string_value(json_object_get(g, "game_id"))), "names",
                      json_object_get(g, "names"), "totals", json_object_get(g, "final_total"),
                      "placements", json_object_get(g, "placements")));
    }
    /* packed with the current version first: a rebuild that shows nothing new (a hidden, ended
     * table freed) keeps the version, so it does not answer every held long poll */
    json_t *doc = json_pack("{s:I,s:s,s:s,s:s,s:f,s:I,s:b,s:o,s:o,s:o}", "version",
                            (json_int_t)f->version, "kind", f->kind, "title", f->title, "state",
                            f->results_released ? "finished"
                            : f->nf || f->t[0]  ? "running"
                                                : "waiting",
                            "delay", f->delay_ms / 1000, "games", (json_int_t)f->frel, "final",
                            final, "standings", st, "tables", tables, "recent", recent);
    char *snap = json_dumps(doc, JSON_COMPACT | JSON_REAL_PRECISION(10));
    f->dirty = 0;
    if (snap && f->snap && strcmp(snap, f->snap) == 0) {
        free(snap);
        json_decref(doc);
        return;
    }
    free(snap);
    json_object_set_new(doc, "version", json_integer(++f->version));
    free(f->snap);
    f->snap = json_dumps(doc, JSON_COMPACT | JSON_REAL_PRECISION(10));
    f->snaplen = f->snap ? strlen(f->snap) : 0;
    json_decref(doc);
}

/* ---- The feed ------------------------------------------------------------------------------ */

al_feed *al_feed_new(const char *dir, const char *kind, const char *title, double delay_s)
{
    al_feed *f = ar_xcalloc(1, sizeof *f);
    f->dir = ar_xstrdup(dir);
    f->kind = ar_xstrdup(kind);
    f->title = ar_xstrdup(title ? title : "");
    f->records = path_join(dir, "records");
    f->delay_ms = delay_s * 1000;
    f->games.path =
        path_join(dir, strcmp(kind, "tournament") == 0 ? "journal.jsonl" : "games.jsonl");
    build(f);
    return f;
}

void al_feed_free(al_feed *f)
{
    if (!f)
        return;
    games_reset(f);
    free(f->f);
    for (int i = 0; i < MAX_TABLES; i++)
        table_free(f->t[i]);
    json_decref(f->results);
    free(f->games.path);
    free(f->games.part);
    free(f->dir);
    free(f->kind);
    free(f->title);
    free(f->records);
    free(f->snap);
    free(f);
}

int al_feed_poll(al_feed *f, double now)
{
    rd r = {f, now};
    if (follow_read(&f->games, on_game_line, &r)) {
        games_reset(f);
        follow_read(&f->games, on_game_line, &r);
    }
    while (f->frel < f->nf && f->f[f->frel].seen + f->delay_ms <= now) {
        count_game(f, f->f[f->frel].game);
        if (f->frel >= RECENT) {
            json_decref(f->f[f->frel - RECENT].game);
            f->f[f->frel - RECENT].game = NULL;
        }
        f->frel++;
        f->dirty = 1;
    }
    for (int i = 0; i < MAX_TABLES; i++) {
        table *t = f->t[i];
        if (!t)
            continue;
        void *ud[2] = {t, &r};
        if (follow_read(&t->fl, on_table_line, ud)) {
            table_clear(t);
            f->dirty = 1;
            follow_read(&t->fl, on_table_line, ud);
        }
        while (t->released < t->n && t->l[t->released].seen + f->delay_ms <= now) {
            table_release(t, t->released);
            t->released++;
            f->dirty = 1;
        }
        /* a game shown to its end leaves the tables a little later (it is in "recent" once
         * its set is journaled) */
        if (t->ended && t->released == t->n && now - t->ended_at > f->delay_ms + 2000) {
            table_free(t);
            f->t[i] = NULL;
            f->dirty = 1;
        }
    }
    if (!f->results) {
        char *p = path_join(f->dir, "results.json");
        struct stat st;
        if (stat(p, &st) == 0 && S_ISREG(st.st_mode) && st.st_size < (64 << 20)) {
            f->results = json_load_file(p, 0, NULL);
            f->results_seen = now;
        }
        free(p);
    }
    if (f->results && !f->results_released && f->results_seen + f->delay_ms <= now &&
        f->frel == f->nf) {
        f->results_released = 1;
        f->dirty = 1;
    }
    if (f->dirty)
        build(f);
    return 0;
}

const char *al_feed_snapshot(const al_feed *f, size_t *len, long long *version)
{
    if (len)
        *len = f->snaplen;
    if (version)
        *version = f->version;
    return f->snap ? f->snap : "{}";
}

const char *al_feed_records_dir(const al_feed *f)
{
    return f->records;
}

const char *al_feed_game_released(const al_feed *f, const char *id)
{
    if (!id_ok(id))
        return NULL;
    for (long long i = 0; i < f->frel; i++)
        if (strcmp(av_public_id(f->f[i].id), id) == 0)
            return f->f[i].id;
    return NULL;
}

char *al_feed_table_record(const al_feed *f, const char *id, size_t *len)
{
    const table *t = id_ok(id) ? table_find(f, id, 1) : NULL;
    if (!t || t->released == 0)
        return NULL;
    size_t n = 1;
    for (int i = 0; i < t->released; i++)
        n += strlen(t->l[i].text) + 1;
    char *s = ar_xmalloc(n);
    size_t k = 0;
    for (int i = 0; i < t->released; i++) {
        /* the result line stays out: the page of a game in progress ends at its last move */
        if (strstr(t->l[i].text, "\"type\":\"result\"") ||
            strstr(t->l[i].text, "\"type\":\"aborted\""))
            break;
        size_t m = strlen(t->l[i].text);
        memcpy(s + k, t->l[i].text, m);
        s[k + m] = '\n';
        k += m + 1;
    }
    s[k] = '\0';
    *len = k;
    return s;
}

int al_feed_finished(const al_feed *f)
{
    return f->results_released;
}
