/* lweb.c - the league's web face (lweb.h). Pages are drawn in C from league.db on every
 * request (the leaderboard, and an entrant's page as a visitor sees it, are kept for 2 s: many
 * viewers cost one query; the process runs at nice 10, so pages yield to games); the charts
 * are SVG drawn here; there is no script at all, and the leaderboard refreshes itself with a
 * meta refresh. Writes (an upload, the host's actions) go through the league room's own short
 * transactions, as the commands do, so they work while the run plays. */
#include "lweb.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <netinet/in.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <jansson.h>
#include <sys/queue.h>

#include "jail/spawn.h"
#include "league/league.h"
#include "league/unpack.h"
#include "tour/tourfile.h"
#include "util/util.h"
#include "view/view.h"
#include "web/multipart.h"
#include "web/web.h"

enum { MAX_PARTS = 8, LOG_MAX = 1 << 20, BOARD_TTL_MS = 2000, MAX_WORKERS = 4, PAGE_CACHE = 32 };

/* An entrant's page as a visitor (nobody signed in) sees it, kept BOARD_TTL_MS: viewers who
 * refresh the pages of a few entrants cost a few renders a second, not one a request */
typedef struct cached_page {
    char name[64];
    char *body;
    size_t len;
    double ms;
} cached_page;

struct lw_server {
    lw_opts o;
    char *dir, *addr, *host;
    char *uploads; /* absolute: where uploads are kept (DIR-uploads beside DIR) */
    int listen_fd, port;
    char host_secret[33];
    char url[160], host_link[256], cookie[32];
    pid_t pid;
    /* the server process */
    struct event_base *base;
    struct event *term;
    aw_server *web;
    sqlite3 *db;
    ar_sandbox_cfg sandbox;     /* for the builds of uploads (lw_set_sandbox) */
    pid_t workers[MAX_WORKERS]; /* builds of uploads running (0: free) */
    struct event *reap;
    int test_sets_per_hour; /* the league file's (testgames.c) */
    cached_page pages[PAGE_CACHE];
    int next_page; /* the entry to reuse next */
    char *board;   /* the leaderboard's body, and when it was made */
    size_t board_len;
    double board_ms;
};

typedef struct who {
    char name[40]; /* "" nobody, "@host", or an author */
} who;

/* ---- Checks of names ----------------------------------------------------------------------- */

static int id_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_' || c == '.';
}

int lw_game_id_ok(const char *id)
{
    if (!id || !id[0] || id[0] == '.' || strlen(id) >= 128 || strstr(id, ".."))
        return 0;
    for (const char *p = id; *p; p++)
        if (!id_char(*p))
            return 0;
    return 1;
}

int lw_log_label(const char *f, char *label, size_t cap)
{
    if (!lw_game_id_ok(f) || f[0] != 's')
        return 0;
    const char *p = f + 1;
    if (!isdigit((unsigned char)*p))
        return 0;
    while (isdigit((unsigned char)*p))
        p++;
    if (strncmp(p, "-slot", 5) != 0 || !isdigit((unsigned char)p[5]))
        return 0;
    p += 5;
    while (isdigit((unsigned char)*p))
        p++;
    if (*p++ != '-')
        return 0;
    size_t n = strlen(p);
    if (n <= 4 || strcmp(p + n - 4, ".log") != 0 || n - 4 >= cap)
        return 0;
    memcpy(label, p, n - 4);
    label[n - 4] = 0;
    return 1;
}

/* The entrant's name of a label: NAME or NAME.vN */
static void label_name(const char *label, char *name, size_t cap)
{
    snprintf(name, cap, "%s", label);
    char *v = strstr(name, ".v");
    if (v && v[2] && strspn(v + 2, "0123456789") == strlen(v + 2))
        *v = 0;
}

/* ---- Who is asking ------------------------------------------------------------------------- */

static void whoami(lw_server *s, struct evhttp_request *req, who *w)
{
    w->name[0] = 0;
    const char *c = evhttp_find_header(evhttp_request_get_input_headers(req), "Cookie");
    size_t cn = strlen(s->cookie);
    for (const char *p = c; p && *p;) {
        while (*p == ' ' || *p == ';')
            p++;
        size_t len = strcspn(p, ";");
        if (len > cn && strncmp(p, s->cookie, cn) == 0 && p[cn] == '=') {
            char v[128], *dot;
            size_t vn = len - cn - 1;
            if (vn < sizeof v) {
                memcpy(v, p + cn + 1, vn);
                v[vn] = 0;
                dot = strrchr(v, '.');
                if (dot) {
                    *dot = 0;
                    if (ar_league_author_check(s->db, v, dot + 1)) {
                        if (strlen(v) < sizeof w->name)
                            memcpy(w->name, v, strlen(v) + 1);
                        return;
                    }
                }
            }
        }
        p += len;
    }
}

static int is_host(const who *w)
{
    return strcmp(w->name, "@host") == 0;
}

/* ---- Page pieces --------------------------------------------------------------------------- */

typedef struct page {
    char *buf;
    size_t len;
    FILE *f;
} page;

static const char STYLE[] =
    "body{font:15px/1.4 system-ui,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}"
    "header{background:#1d2330;color:#fff;padding:.6em 1em;display:flex;flex-wrap:wrap;gap:1em;"
    "align-items:center}header a{color:#cfe0ff}header .me{margin-left:auto}"
    "main{padding:1em;max-width:1100px;margin:auto}"
    "table{border-collapse:collapse;width:100%;background:#fff}"
    "th,td{padding:.35em .5em;border-bottom:1px solid #e3e6ea;text-align:left;vertical-align:top}"
    "th{background:#eef1f5;font-weight:600}td.n{text-align:right;font-variant-numeric:tabular-nums}"
    ".why{color:#8a4b00;font-size:.9em}.bad{color:#a40000}.ok{color:#0a6b2a}"
    ".scroll{overflow-x:auto}form.inline{display:inline}"
    "fieldset{background:#fff;border:1px solid #d5d9de;margin:0 0 1em}label{display:block;"
    "margin:.4em 0}svg{background:#fff;max-width:100%;height:auto}"
    "@media (max-width:600px){.wide{display:none}main{padding:.5em}th,td{padding:.3em}}";

static void esc(page *p, const char *t)
{
    av_html_text(p->f, t ? t : "");
}

/* text with every "game ID" shown as its public id (av_public_id): a game id names the league's
 * seed, which would give away the deals of the sets to come */
static void esc_scrubbed(page *p, const char *t)
{
    char *copy = ar_xstrdup(t ? t : ""), *q = copy;
    for (;;) {
        char *at = strstr(q, "game ");
        if (!at)
            break;
        at += 5;
        size_t n = strspn(at, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-");
        char save = at[n], id[128];
        at[n] = 0;
        snprintf(id, sizeof id, "%s", av_public_id(at));
        at[n] = save;
        char keep = at[0];
        at[0] = 0;
        esc(p, q);
        at[0] = keep;
        esc(p, id);
        q = at + n;
    }
    esc(p, q);
    free(copy);
}

static void begin(page *p, const char *title, const who *w, int refresh, int stat)
{
    p->buf = NULL;
    p->len = 0;
    p->f = open_memstream(&p->buf, &p->len);
    fprintf(p->f, "<!doctype html><html lang=\"en\"><meta charset=\"utf-8\">"
                  "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">");
    if (refresh)
        fprintf(p->f, "<meta http-equiv=\"refresh\" content=\"%d\">", refresh);
    fprintf(p->f, "<title>");
    esc(p, title);
    fprintf(p->f, "</title><style>%s</style><body><header><strong>", STYLE);
    esc(p, title);
    fprintf(p->f, "</strong><a href=\"%s\">Leaderboard</a>", stat ? "index.html" : "/");
    if (!stat) {
        if (w && w->name[0] && !is_host(w))
            fprintf(p->f, "<a href=\"/submit\">Submit a version</a>");
        if (w && is_host(w))
            fprintf(p->f, "<a href=\"/host\">Host</a>");
        fprintf(p->f, "<span class=\"me\">");
        if (w && w->name[0]) {
            fprintf(p->f, "signed in as <b>");
            esc(p, is_host(w) ? "the host" : w->name);
            fprintf(p->f, "</b> <form class=\"inline\" method=\"post\" action=\"/signout\">"
                          "<button>Sign out</button></form>");
        } else
            fprintf(p->f, "not signed in (authors: use your sign-in link)");
        fprintf(p->f, "</span>");
    }
    fprintf(p->f, "</header><main>");
}

static void finish(page *p)
{
    fprintf(p->f, "</main></body></html>\n");
    fclose(p->f);
    p->f = NULL;
}

/* okr_web says no-referrer (its URLs carry a token; ours never do): with it, a browser sends
 * "Origin: null" on a form's POST, which post_ok would refuse. same-origin: our own pages
 * learn where a request came from, no other site does. */
static void referrer_same_origin(struct evhttp_request *req)
{
    struct evkeyvalq *h = evhttp_request_get_output_headers(req);
    evhttp_remove_header(h, "Referrer-Policy");
    evhttp_add_header(h, "Referrer-Policy", "same-origin");
}

static void send_page(struct evhttp_request *req, int status, page *p)
{
    finish(p);
    referrer_same_origin(req);
    aw_reply(req, status, "text/html; charset=utf-8", p->buf, p->len);
    free(p->buf);
}

static void message(lw_server *s, struct evhttp_request *req, int status, const who *w,
                    const char *title, const char *text)
{
    (void)s;
    page p;
    begin(&p, title, w, 0, 0);
    fprintf(p.f, "<h1>");
    esc(&p, title);
    fprintf(p.f, "</h1><p>");
    esc(&p, text);
    fprintf(p.f, "</p>");
    send_page(req, status, &p);
}

static const char *col(sqlite3_stmt *st, int c)
{
    const unsigned char *t = sqlite3_column_text(st, c);
    return t ? (const char *)t : "";
}

static void fmt_time(double epoch, char *out, size_t cap)
{
    time_t t = (time_t)epoch;
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, cap, "%Y-%m-%d %H:%M UTC", &tm);
}

/* ---- The leaderboard ----------------------------------------------------------------------- */

/* One row per live entrant (and the last version of a retired one that was rated), with the
 * latest snapshot (?1: its round) and the count of its erred seats. Games and sets are the
 * snapshot's (as of the last refit): counting a million games' seats on every view would cost
 * seconds; the erred seats are few and read through the partial index seats_erred
 * (ar_league_web_prepare). */
static const char BOARD_SQL[] =
    "WITH err AS (SELECT entrant, count(*) AS n FROM game_seats WHERE error != 0 GROUP BY"
    " entrant)"
    " SELECT e.name, e.version, e.status, e.reason, o.author, r.rank, r.rank_lo, r.rank_hi,"
    " r.score, r.score_lo, r.score_hi, r.sets, coalesce(r.games, 0), coalesce(err.n, 0),"
    " e.held_until"
    " FROM entrants e LEFT JOIN ratings r ON r.entrant = e.id AND r.round = ?1"
    " LEFT JOIN owners o ON o.entrant = e.name LEFT JOIN err ON err.entrant = e.id"
    " WHERE e.status IN ('new','checking','active','held')"
    "  OR (e.status = 'retired' AND r.rank IS NOT NULL AND e.id = (SELECT max(id) FROM entrants"
    "   x WHERE x.name = e.name))"
    " ORDER BY r.rank IS NULL, r.rank, e.name";

static void board_body(sqlite3 *db, FILE *f, int stat)
{
    page pp = {.f = f};
    page *p = &pp;
    sqlite3_stmt *st = NULL;
    long long round = 0;
    if (sqlite3_prepare_v2(db, "SELECT max(round) FROM rounds", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        round = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    st = NULL;
    if (sqlite3_prepare_v2(db, BOARD_SQL, -1, &st, NULL) != SQLITE_OK) {
        fprintf(f, "<p class=\"bad\">The league's database cannot be read: ");
        esc(p, sqlite3_errmsg(db));
        fprintf(f, "</p>");
        return;
    }
    fprintf(f, "<h1>Leaderboard</h1><p>Ratings are the tournament's score rating refitted over "
               "every counted game, with 95%% bootstrap intervals; the rank interval is where "
               "the entrant may really stand; sets and games as of the last refit.</p><div "
               "class=\"scroll\"><table><tr><th>rank</th>"
               "<th>entrant</th><th>author</th><th class=\"wide\">version</th><th>rating (95%%)"
               "</th><th class=\"wide\">rank interval</th><th class=\"n\">sets</th>"
               "<th class=\"n wide\">games</th><th class=\"n\">verdicts</th></tr>");
    int rows = 0;
    sqlite3_bind_int64(st, 1, round);
    while (sqlite3_step(st) == SQLITE_ROW) {
        rows++;
        const char *name = col(st, 0), *status = col(st, 2);
        int ranked = sqlite3_column_type(st, 5) != SQLITE_NULL;
        fprintf(f, "<tr><td class=\"n\">");
        if (ranked)
            fprintf(f, "%d", sqlite3_column_int(st, 5));
        fprintf(f, "</td><td><a href=\"");
        if (stat) {
            fprintf(f, "entrant-");
            esc(p, name);
            fprintf(f, ".html");
        } else {
            fprintf(f, "/entrant?name=");
            esc(p, name);
        }
        fprintf(f, "\">");
        esc(p, name);
        fprintf(f, "</a>");
        if (strcmp(status, "active") != 0) {
            fprintf(f, "<div class=\"why\">%s", status);
            if (*col(st, 3)) {
                fprintf(f, ": ");
                esc(p, col(st, 3));
            }
            fprintf(f, "</div>");
        }
        fprintf(f, "</td><td>");
        esc(p, *col(st, 4) ? col(st, 4) : "(host)");
        fprintf(f, "</td><td class=\"wide\">v%d</td>", sqlite3_column_int(st, 1));
        if (ranked)
            fprintf(f,
                    "<td class=\"n\">%.2f <small>[%.2f, %.2f]</small></td><td class=\"n wide\">"
                    "%d&ndash;%d</td><td class=\"n\">%d</td>",
                    sqlite3_column_double(st, 8), sqlite3_column_double(st, 9),
                    sqlite3_column_double(st, 10), sqlite3_column_int(st, 6),
                    sqlite3_column_int(st, 7), sqlite3_column_int(st, 11));
        else
            fprintf(f, "<td>not rated yet</td><td class=\"wide\"></td><td class=\"n\">0</td>");
        long long g = sqlite3_column_int64(st, 12), err = sqlite3_column_int64(st, 13);
        fprintf(f, "<td class=\"n wide\">%lld</td><td class=\"n\">%lld ok", g,
                g > err ? g - err : 0);
        if (err)
            fprintf(f, ", <span class=\"bad\">%lld erred</span>", err);
        fprintf(f, "</td></tr>");
    }
    sqlite3_finalize(st);
    fprintf(f, "</table></div>");
    if (!rows)
        fprintf(f, "<p>No entrant yet.</p>");
}

static void on_board(struct evhttp_request *req, void *arg)
{
    lw_server *s = arg;
    who w;
    whoami(s, req, &w);
    double now = ar_now_ms();
    if (!s->board || now - s->board_ms > BOARD_TTL_MS) {
        free(s->board);
        s->board = NULL;
        FILE *m = open_memstream(&s->board, &s->board_len);
        board_body(s->db, m, 0);
        fclose(m);
        s->board_ms = now;
    }
    page p;
    begin(&p, "League", &w, 10, 0);
    fwrite(s->board, 1, s->board_len, p.f);
    send_page(req, 200, &p);
}

/* ---- An entrant's page --------------------------------------------------------------------- */

/* The rating over time: the score with its 95% band, one point per round. */
static void chart(sqlite3 *db, const char *name, FILE *f)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db,
                           "SELECT r.round, r.score, r.score_lo, r.score_hi FROM ratings r JOIN "
                           "entrants e ON e.id = r.entrant WHERE e.name = ?1 AND r.score IS NOT "
                           "NULL ORDER BY r.round, e.version",
                           -1, &st, NULL) != SQLITE_OK)
        return;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int n = 0, cap = 0;
    double(*pt)[4] = NULL;
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            pt = ar_xrealloc(pt, (size_t)cap * sizeof *pt);
        }
        for (int i = 0; i < 4; i++)
            pt[n][i] = sqlite3_column_double(st, i);
        n++;
    }
    sqlite3_finalize(st);
    fprintf(f, "<h2>Rating over time</h2>");
    if (n < 1) {
        fprintf(f, "<p>No rating yet: it comes after the first round with its games.</p>");
        free(pt);
        return;
    }
    double lo = pt[0][2], hi = pt[0][3], r0 = pt[0][0], r1 = pt[n - 1][0];
    for (int i = 0; i < n; i++) {
        lo = fmin(lo, pt[i][2]);
        hi = fmax(hi, pt[i][3]);
    }
    if (hi - lo < 1e-9)
        hi = lo + 1;
    if (r1 <= r0)
        r1 = r0 + 1;
    const double W = 640, H = 220, L = 48, R = 10, T = 10, B = 28;
#define X(r) (L + ((r)-r0) / (r1 - r0) * (W - L - R))
#define Y(v) (T + (hi - (v)) / (hi - lo) * (H - T - B))
    fprintf(f,
            "<svg viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" role=\"img\" aria-label=\"rating per "
            "round with its 95%% interval\"><polygon fill=\"#bcd3f5\" points=\"",
            W, H, W);
    for (int i = 0; i < n; i++)
        fprintf(f, "%.1f,%.1f ", X(pt[i][0]), Y(pt[i][3]));
    for (int i = n - 1; i >= 0; i--)
        fprintf(f, "%.1f,%.1f ", X(pt[i][0]), Y(pt[i][2]));
    fprintf(f, "\"/><polyline fill=\"none\" stroke=\"#1f4fa0\" stroke-width=\"2\" points=\"");
    for (int i = 0; i < n; i++)
        fprintf(f, "%.1f,%.1f ", X(pt[i][0]), Y(pt[i][1]));
    fprintf(f, "\"/>");
    if (n == 1)
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#1f4fa0\"/>", X(pt[0][0]),
                Y(pt[0][1]));
    fprintf(f,
            "<g font-size=\"11\" fill=\"#444\"><text x=\"2\" y=\"%.1f\">%.2f</text><text x=\"2\" "
            "y=\"%.1f\">%.2f</text><text x=\"%.1f\" y=\"%.1f\">round %.0f</text><text x=\"%.1f\" "
            "y=\"%.1f\" text-anchor=\"end\">round %.0f</text></g>"
            "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#999\"/></svg>",
            Y(hi) + 10, hi, Y(lo), lo, L, H - 8, r0, W - R, H - 8, r1, L, H - B, W - R, H - B);
#undef X
#undef Y
    free(pt);
}

/* Mean score difference against the neighbours in the latest ranking, with a 95% interval
 * (normal, per game). */
static void matchups(sqlite3 *db, long long me, int rank, FILE *f, int stat)
{
    page pp = {.f = f};
    sqlite3_stmt *st = NULL;
    if (rank <= 0 ||
        sqlite3_prepare_v2(
            db,
            "WITH last AS (SELECT max(round) AS r FROM rounds) SELECT e.id, e.name, r.rank FROM "
            "ratings r JOIN entrants e ON e.id = r.entrant WHERE r.round = (SELECT r FROM last) "
            "AND e.id != ?2 AND (r.rank BETWEEN ?1 - 2 AND ?1 + 2 OR e.id IN (SELECT b.entrant "
            "FROM game_seats a JOIN game_seats b ON b.game = a.game WHERE a.entrant = ?2)) "
            "ORDER BY r.rank LIMIT 12",
            -1, &st, NULL) != SQLITE_OK)
        return;
    sqlite3_bind_int(st, 1, rank);
    sqlite3_bind_int64(st, 2, me);
    fprintf(f, "<h2>Against its neighbours</h2><p>Its neighbours in the ranking and the bots it "
               "met: mean points per game more than the other at the same table, with a 95%% "
               "interval.</p><div class=\"scroll\"><table><tr>"
               "<th>rank</th><th>neighbour</th><th class=\"n\">games together</th><th "
               "class=\"n\">difference (95%%)</th></tr>");
    sqlite3_stmt *q = NULL;
    sqlite3_prepare_v2(db,
                       "SELECT count(*), avg(a.total - b.total), avg((a.total - b.total) * "
                       "(a.total - b.total)) FROM game_seats a JOIN game_seats b ON b.game = "
                       "a.game WHERE a.entrant = ?1 AND b.entrant = ?2",
                       -1, &q, NULL);
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *name = col(st, 1);
        fprintf(f, "<tr><td class=\"n\">%d</td><td><a href=\"", sqlite3_column_int(st, 2));
        fprintf(f, stat ? "entrant-" : "/entrant?name=");
        esc(&pp, name);
        fprintf(f, "%s\">", stat ? ".html" : "");
        esc(&pp, name);
        fprintf(f, "</a></td>");
        long long n = 0;
        double m = 0, m2 = 0;
        if (q) {
            sqlite3_reset(q);
            sqlite3_bind_int64(q, 1, me);
            sqlite3_bind_int64(q, 2, sqlite3_column_int64(st, 0));
            if (sqlite3_step(q) == SQLITE_ROW) {
                n = sqlite3_column_int64(q, 0);
                m = sqlite3_column_double(q, 1);
                m2 = sqlite3_column_double(q, 2);
            }
        }
        double sd = n > 1 ? sqrt(fmax(0, (m2 - m * m) * (double)n / (double)(n - 1))) : 0;
        double h = n > 1 ? 1.96 * sd / sqrt((double)n) : 0;
        if (n)
            fprintf(f, "<td class=\"n\">%lld</td><td class=\"n\">%+.1f [%+.1f, %+.1f]</td></tr>", n,
                    m, m - h, m + h);
        else
            fprintf(f, "<td class=\"n\">0</td><td class=\"n\">never met</td></tr>");
    }
    sqlite3_finalize(q);
    sqlite3_finalize(st);
    fprintf(f, "</table></div>");
}

/* The author's test games of their bot NAME (testgames.c): the form that asks for more, and
 * what became of each request, its games linked to /test. Only its author is shown this. */
static void test_section(lw_server *s, sqlite3 *db, const char *name, const who *w, FILE *f)
{
    page pp = {.f = f};
    fprintf(f,
            "<h2 id=\"tests\">Test games (only you see these)</h2><p>Unrated games of this "
            "bot against an entrant you choose: one duplicate set, played between the rated "
            "sets; never counted in the ranking. At most %d an hour.</p>"
            "<form method=\"post\" action=\"/test\"><fieldset><input type=\"hidden\" "
            "name=\"name\" value=\"",
            s ? s->test_sets_per_hour : 0);
    esc(&pp, name);
    fprintf(f, "\"><label>Against <select name=\"opponent\">");
    sqlite3_stmt *st = NULL;
    int n = 0;
    if (sqlite3_prepare_v2(db,
                           "SELECT DISTINCT name FROM entrants WHERE status = 'active' AND name "
                           "!= ?1 ORDER BY name",
                           -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
        while (sqlite3_step(st) == SQLITE_ROW) {
            fprintf(f, "<option>");
            esc(&pp, col(st, 0));
            fprintf(f, "</option>");
            n++;
        }
        sqlite3_finalize(st);
    }
    fprintf(f, "</select></label><button%s>Ask for test games</button></fieldset></form>",
            n ? "" : " disabled");
    if (sqlite3_prepare_v2(db,
                           "SELECT t.id, t.opponent, t.state, t.reason, t.asked_at, g.id, "
                           "g.rotation, g.seat, g.total, g.place, g.error FROM tests t LEFT JOIN "
                           "test_games g ON g.test = t.id WHERE t.author = ?1 AND t.entrant = ?2 "
                           "ORDER BY t.id DESC, g.rotation LIMIT 80",
                           -1, &st, NULL) != SQLITE_OK)
        return;
    sqlite3_bind_text(st, 1, w->name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
    long long last = -1;
    int rows = 0;
    fprintf(f, "<div class=\"scroll\"><table id=\"testgames\"><tr><th>asked</th><th>against</th>"
               "<th>what became of it</th><th>games</th></tr>");
    while (sqlite3_step(st) == SQLITE_ROW) {
        long long t = sqlite3_column_int64(st, 0);
        if (t != last) {
            if (last >= 0)
                fprintf(f, "</td></tr>");
            last = t;
            rows++;
            char when[40];
            fmt_time(sqlite3_column_double(st, 4), when, sizeof when);
            const char *state = col(st, 2);
            fprintf(f, "<tr><td>%s</td><td>", when);
            esc(&pp, col(st, 1));
            fprintf(f, "</td><td class=\"%s\">%s",
                    strcmp(state, "failed") == 0   ? "bad"
                    : strcmp(state, "played") == 0 ? "ok"
                                                   : "",
                    strcmp(state, "asked") == 0     ? "waiting for a slot"
                    : strcmp(state, "playing") == 0 ? "being played"
                    : strcmp(state, "played") == 0  ? "played"
                                                    : "failed");
            if (*col(st, 3)) {
                fprintf(f, "<div class=\"why\">");
                esc_scrubbed(&pp, col(st, 3));
                fprintf(f, "</div>");
            }
            fprintf(f, "</td><td>");
        }
        if (sqlite3_column_type(st, 5) != SQLITE_NULL)
            fprintf(f,
                    "<a class=\"testgame\" href=\"/test?g=%lld\">game %d</a> <small>(seat %d, "
                    "%d points, place %d%s)</small><br>",
                    sqlite3_column_int64(st, 5), sqlite3_column_int(st, 6) + 1,
                    sqlite3_column_int(st, 7), sqlite3_column_int(st, 8), sqlite3_column_int(st, 9),
                    sqlite3_column_int(st, 10) ? ", erred" : "");
    }
    sqlite3_finalize(st);
    if (last >= 0)
        fprintf(f, "</td></tr>");
    fprintf(f, "</table></div>");
    if (!rows)
        fprintf(f, "<p>None asked yet.</p>");
}

static void entrant_body(lw_server *s, sqlite3 *db, const char *dir, const char *name, const who *w,
                         FILE *f, int stat)
{
    page pp = {.f = f};
    char owner[64] = "";
    ar_league_owner(db, name, owner, sizeof owner);
    int mine = w && w->name[0] && (is_host(w) || strcmp(owner, w->name) == 0);
    fprintf(f, "<h1>");
    esc(&pp, name);
    fprintf(f, "</h1><p>author: ");
    esc(&pp, owner[0] ? owner : "(added by the host)");
    fprintf(f, "</p><h2>Versions</h2><div class=\"scroll\"><table><tr><th>version</th>"
               "<th>added</th><th>what became of it</th><th class=\"wide\">command</th></tr>");
    sqlite3_stmt *st = NULL;
    long long latest = 0;
    if (sqlite3_prepare_v2(db,
                           "SELECT id, version, status, reason, command, added_at FROM entrants "
                           "WHERE name = ?1 ORDER BY version DESC",
                           -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
        while (sqlite3_step(st) == SQLITE_ROW) {
            if (!latest)
                latest = sqlite3_column_int64(st, 0);
            const char *status = col(st, 2);
            static const struct {
                const char *status, *says;
            } says[] = {{"new", "waiting for its check"},
                        {"checking", "being checked now (one duplicate set against @random and "
                                     "@greedy)"},
                        {"active", "checked, playing"},
                        {"refused", "refused by its check"},
                        {"retired", "retired"},
                        {"held", "held back"}};
            const char *t = status;
            for (size_t i = 0; i < sizeof says / sizeof says[0]; i++)
                if (strcmp(says[i].status, status) == 0)
                    t = says[i].says;
            char when[40];
            fmt_time(sqlite3_column_double(st, 5), when, sizeof when);
            fprintf(f, "<tr><td>v%d</td><td>%s</td><td class=\"%s\">", sqlite3_column_int(st, 1),
                    when,
                    strcmp(status, "refused") == 0  ? "bad"
                    : strcmp(status, "active") == 0 ? "ok"
                                                    : "");
            esc(&pp, t);
            if (*col(st, 3)) {
                fprintf(f, "<div class=\"why\">");
                /* a refusal's detail names files of the host's machine: only the author and
                 * the host read it whole */
                if (mine || strcmp(status, "refused") != 0)
                    esc_scrubbed(&pp, col(st, 3));
                else
                    esc(&pp, "(its author sees why)");
                fprintf(f, "</div>");
            }
            fprintf(f, "</td><td class=\"wide\"><code>");
            esc(&pp, mine ? col(st, 4) : "(its author's)");
            fprintf(f, "</code></td></tr>");
        }
        sqlite3_finalize(st);
    }
    fprintf(f, "</table></div>");
    if (!latest) {
        fprintf(f, "<p>No such entrant.</p>");
        return;
    }
    chart(db, name, f);
    /* the latest ranked version's neighbours */
    long long me = 0;
    int rank = 0;
    if (sqlite3_prepare_v2(db,
                           "SELECT e.id, r.rank FROM ratings r JOIN entrants e ON e.id = "
                           "r.entrant WHERE e.name = ?1 AND r.round = (SELECT max(round) FROM "
                           "rounds) AND r.rank IS NOT NULL ORDER BY e.version DESC LIMIT 1",
                           -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
        if (sqlite3_step(st) == SQLITE_ROW) {
            me = sqlite3_column_int64(st, 0);
            rank = sqlite3_column_int(st, 1);
        }
        sqlite3_finalize(st);
    }
    matchups(db, me, rank, f, stat);
    /* its latest games */
    fprintf(f, "<h2>Latest games</h2>");
    if (!stat)
        fprintf(f, "<p>%s</p>",
                mine ? "Each game opens as this bot's seat saw it."
                     : "A game's cards stay hidden until the host reveals the replays; its "
                       "author sees it as the bot's seat saw it.");
    fprintf(f, "<div class=\"scroll\"><table><tr><th>game</th><th>version</th><th "
               "class=\"n\">seat</th><th class=\"n\">points</th><th class=\"n\">place</th>"
               "<th>verdict</th></tr>");
    if (sqlite3_prepare_v2(
            db,
            "SELECT g.game_id, e.version, s.seat, s.total, s.place, s.error, g.id FROM "
            "game_seats s JOIN games g ON g.id = s.game JOIN entrants e ON e.id = "
            "s.entrant WHERE e.name = ?1 ORDER BY s.game DESC LIMIT 20",
            -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
        while (sqlite3_step(st) == SQLITE_ROW) {
            fprintf(f, "<tr><td>");
            if (!stat)
                fprintf(f, "<a href=\"/game?g=%lld\">", sqlite3_column_int64(st, 6));
            /* a game id names the league's seed: only what follows it is shown */
            esc(&pp, av_public_id(col(st, 0)));
            fprintf(f,
                    "%s</td><td>v%d</td><td class=\"n\">%d</td><td class=\"n\">%d</td><td "
                    "class=\"n\">%d</td><td>%s</td></tr>",
                    stat ? "" : "</a>", sqlite3_column_int(st, 1), sqlite3_column_int(st, 2),
                    sqlite3_column_int(st, 3), sqlite3_column_int(st, 4),
                    sqlite3_column_int(st, 5) ? "<span class=\"bad\">erred</span>" : "ok");
        }
        sqlite3_finalize(st);
    }
    fprintf(f, "</table></div>");
    if (!mine || stat)
        return;
    if (w && strcmp(owner, w->name) == 0)
        test_section(s, db, name, w, f);
    /* its logs: the author's and the host's eyes only */
    fprintf(f, "<h2>Logs (only you see these)</h2><ul>");
    int shown = 0;
    static const char *const sub[] = {"logs", "checks/logs"};
    for (int k = 0; k < 2 && shown < 30; k++) {
        char p[PATH_MAX];
        snprintf(p, sizeof p, "%s/%s", dir, sub[k]);
        DIR *d = opendir(p);
        struct dirent *de;
        while (d && shown < 30 && (de = readdir(d)) != NULL) {
            char label[128], n[128];
            if (!lw_log_label(de->d_name, label, sizeof label))
                continue;
            label_name(label, n, sizeof n);
            if (strcmp(n, name) != 0)
                continue;
            fprintf(f, "<li><a href=\"/log?f=");
            esc(&pp, de->d_name);
            fprintf(f, "%s\">", k ? "&amp;check=1" : "");
            esc(&pp, sub[k]);
            fprintf(f, "/");
            esc(&pp, de->d_name);
            fprintf(f, "</a></li>");
            shown++;
        }
        if (d)
            closedir(d);
    }
    if (!shown)
        fprintf(f, "<li>none yet</li>");
    fprintf(f, "</ul>");
    (void)s;
}

static void on_entrant(struct evhttp_request *req, void *arg)
{
    lw_server *s = arg;
    who w;
    whoami(s, req, &w);
    char name[64];
    if (aw_request_query(req, "name", name, sizeof name) < 0 || !ar_league_author_name_ok(name)) {
        message(s, req, 400, &w, "No such entrant", "name: an entrant's name was expected");
        return;
    }
    page p;
    begin(&p, name, &w, 15, 0);
    if (w.name[0]) {
        entrant_body(s, s->db, s->dir, name, &w, p.f, 0);
        send_page(req, 200, &p);
        return;
    }
    double now = ar_now_ms();
    cached_page *c = NULL;
    for (int i = 0; i < PAGE_CACHE && !c; i++)
        if (s->pages[i].body && strcmp(s->pages[i].name, name) == 0)
            c = &s->pages[i];
    if (!c || now - c->ms > BOARD_TTL_MS) {
        if (!c) {
            c = &s->pages[s->next_page];
            s->next_page = (s->next_page + 1) % PAGE_CACHE;
        }
        free(c->body);
        c->body = NULL;
        snprintf(c->name, sizeof c->name, "%s", name);
        FILE *m = open_memstream(&c->body, &c->len);
        entrant_body(s, s->db, s->dir, name, &w, m, 0);
        fclose(m);
        c->ms = now;
    }
    fwrite(c->body, 1, c->len, p.f);
    send_page(req, 200, &p);
}

/* ---- Games and logs ------------------------------------------------------------------------ */

/* reveal: "never", "end" (the league is frozen for its final), or hours after the game */
static int revealed(sqlite3 *db, double finished_at)
{
    sqlite3_stmt *st = NULL;
    char v[32] = "never";
    int frozen = 0;
    if (sqlite3_prepare_v2(db, "SELECT key, value FROM meta WHERE key IN ('web_reveal','frozen')",
                           -1, &st, NULL) == SQLITE_OK) {
        while (sqlite3_step(st) == SQLITE_ROW) {
            if (strcmp(col(st, 0), "frozen") == 0)
                frozen = 1;
            else
                snprintf(v, sizeof v, "%s", col(st, 1));
        }
        sqlite3_finalize(st);
    }
    if (strcmp(v, "end") == 0)
        return frozen;
    char *end;
    double h = strtod(v, &end);
    if (end != v && *end == 0 && h >= 0)
        return finished_at > 0 && finished_at + h * 3600 <= (double)time(NULL);
    return 0;
}

/* The replay page of the record at path as ro says (seat, way back, no seed), with the league
 * folder's clocks; a 404 saying `why` when the record cannot be replayed. */
static void send_replay(lw_server *s, struct evhttp_request *req, const who *w, const char *path,
                        av_replay_opts *ro, const char *why)
{
    char err[512], *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    ro->clocks = av_folder_clocks(s->dir);
    int rc = av_replay_html(path, ro, m, err, sizeof err);
    fclose(m);
    if (rc == 0)
        aw_reply(req, 200, "text/html; charset=utf-8", buf, len);
    else
        message(s, req, 404, w, "No replay", why);
    free(buf);
}

/* The request's ?g=: a game's number (digits only), or -1. */
static long long query_game(struct evhttp_request *req)
{
    char gv[24], *end;
    if (aw_request_query(req, "g", gv, sizeof gv) < 0 || !gv[0])
        return -1;
    errno = 0;
    long long g = strtoll(gv, &end, 10);
    return *end || errno || g < 0 ? -1 : g;
}

static void on_game(struct evhttp_request *req, void *arg)
{
    lw_server *s = arg;
    who w;
    whoami(s, req, &w);
    char id[128] = "";
    long long g = query_game(req);
    if (g < 0) {
        message(s, req, 400, &w, "No such game", "g: a game's number was expected");
        return;
    }
    sqlite3_stmt *st = NULL;
    int seat = -1, found = 0;
    double finished = 0;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT s.seat, e.name, t.finished_at, g.game_id FROM games g JOIN "
                           "game_seats s ON s.game = g.id JOIN entrants e ON e.id = s.entrant "
                           "JOIN sets t ON t.id = g.set_id WHERE g.id = ?1 ORDER BY s.seat",
                           -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, g);
        while (sqlite3_step(st) == SQLITE_ROW) {
            found = lw_game_id_ok(col(st, 3));
            if (found)
                snprintf(id, sizeof id, "%s", col(st, 3));
            finished = sqlite3_column_double(st, 2);
        }
        sqlite3_finalize(st);
    }
    if (!found) {
        message(s, req, 404, &w, "No such game", "the league has counted no game of that number");
        return;
    }
    /* the author's seats: the record's own names, seat by seat (what the seat page draws) */
    char path[PATH_MAX], sv[8];
    snprintf(path, sizeof path, "%s/records/%s.jsonl", s->dir, id);
    int want = -1;
    if (aw_request_query(req, "seat", sv, sizeof sv) == 0 && strlen(sv) == 1 && isdigit(sv[0]))
        want = sv[0] - '0';
    if (w.name[0] && !is_host(&w)) {
        FILE *rf = fopen(path, "r");
        char *line = NULL;
        size_t cap = 0;
        ssize_t n = rf ? getline(&line, &cap, rf) : -1;
        json_t *h = n > 0 && n < 1 << 20 ? json_loadb(line, (size_t)n, 0, NULL) : NULL;
        json_t *names = json_object_get(h, "names");
        for (size_t i = 0; i < json_array_size(names) && i < 10; i++) {
            const char *label = json_string_value(json_array_get(names, i));
            char nm[128], owner[64];
            if (!label)
                continue;
            label_name(label, nm, sizeof nm);
            if (ar_league_owner(s->db, nm, owner, sizeof owner) && strcmp(owner, w.name) == 0 &&
                (seat < 0 || (int)i == want))
                seat = (int)i;
        }
        json_decref(h);
        free(line);
        if (rf)
            fclose(rf);
    }
    int full = is_host(&w) || revealed(s->db, finished);
    if (!full && seat < 0) {
        message(s, req, 403, &w, "Hidden",
                "This game's cards stay hidden until the host reveals the replays; the authors "
                "of its bots see it as their seat saw it.");
        return;
    }
    av_replay_opts ro = {.seat = full ? AV_SPECTATOR : seat,
                         .back = "/",
                         .back_label = "leaderboard",
                         .no_seed = !is_host(&w)};
    send_replay(s, req, &w, path, &ro, "this game's record could not be replayed");
}

static void on_log(struct evhttp_request *req, void *arg)
{
    lw_server *s = arg;
    who w;
    whoami(s, req, &w);
    char f[160], label[128], name[128], owner[64], chk[4];
    if (aw_request_query(req, "f", f, sizeof f) < 0 || !lw_log_label(f, label, sizeof label)) {
        message(s, req, 400, &w, "No such log", "f: a log's name was expected");
        return;
    }
    label_name(label, name, sizeof name);
    int mine = is_host(&w) || (w.name[0] && ar_league_owner(s->db, name, owner, sizeof owner) &&
                               strcmp(owner, w.name) == 0);
    if (!mine) {
        message(s, req, 403, &w, "Not yours", "a bot's logs are for its author and the host");
        return;
    }
    int check = aw_request_query(req, "check", chk, sizeof chk) == 0;
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s/%s", s->dir, check ? "checks/logs" : "logs", f);
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
        if (fd >= 0)
            close(fd);
        message(s, req, 404, &w, "No such log", "no such log");
        return;
    }
    off_t from = sb.st_size > LOG_MAX ? sb.st_size - LOG_MAX : 0;
    size_t n = (size_t)(sb.st_size - from);
    char *buf = ar_xmalloc(n + 1);
    ssize_t got = pread(fd, buf, n, from);
    close(fd);
    buf[got > 0 ? got : 0] = 0;
    /* the arena's lines name the games ("[arena: game ID, seat K]"), and a game id names the
     * league's seed: each is shown as its public id */
    char *out = NULL;
    size_t on = 0;
    FILE *m = open_memstream(&out, &on);
    const char *q = buf, *end = buf + (got > 0 ? got : 0);
    while (q < end) {
        const char *at = memmem(q, (size_t)(end - q), "game ", 5);
        if (!at) {
            fwrite(q, 1, (size_t)(end - q), m);
            break;
        }
        at += 5;
        fwrite(q, 1, (size_t)(at - q), m);
        size_t k = 0;
        while (at + k < end && k < 127 && id_char(at[k]))
            k++;
        char id[128];
        memcpy(id, at, k);
        id[k] = 0;
        fputs(av_public_id(id), m);
        q = at + k;
    }
    fclose(m);
    aw_reply(req, 200, "text/plain; charset=utf-8", out, on);
    free(out);
    free(buf);
}

/* ---- Test games ---------------------------------------------------------------------------- */

static int form_field(struct evhttp_request *req, const char *key, char *out, size_t cap);
static int post_ok(lw_server *s, struct evhttp_request *req, const who *w);

/* GET /test?g=N: one test game, as its author's bot's seat saw it (the host: whole). Never
 * anyone else's, whatever the reveal setting: a test is its author's alone. POST /test
 * (name, opponent): ask for a test set (ar_league_test_ask), refused past the league's
 * test_sets_per_hour with 429. */
static void on_test(struct evhttp_request *req, void *arg)
{
    lw_server *s = arg;
    who w;
    whoami(s, req, &w);
    if (!w.name[0]) {
        message(s, req, 403, &w, "Sign in first", "test games are their author's alone");
        return;
    }
    int r = post_ok(s, req, &w);
    if (r < 0)
        return;
    if (r == 1) {
        char name[40] = "", opp[40] = "", why[512] = "";
        int st = AR_EXIT_USAGE;
        if (is_host(&w))
            snprintf(why, sizeof why, "an author asks for test games of their own bots");
        else if (form_field(req, "name", name, sizeof name) < 0 ||
                 form_field(req, "opponent", opp, sizeof opp) < 0)
            snprintf(why, sizeof why, "a bot of yours and an entrant to play were expected");
        else
            st = ar_league_test_ask(s->dir, w.name, name, opp, why, sizeof why);
        page p;
        begin(&p, "Test games", &w, 0, 0);
        fprintf(p.f, "<h1>Test games</h1><p class=\"%s\" id=\"outcome\">",
                st == AR_EXIT_OK ? "ok" : "bad");
        esc(&p, why);
        fprintf(p.f, "</p>");
        if (ar_league_author_name_ok(name)) {
            fprintf(p.f, "<p><a href=\"/entrant?name=");
            esc(&p, name);
            fprintf(p.f, "#tests\">Back to ");
            esc(&p, name);
            fprintf(p.f, "'s test games</a></p>");
        }
        send_page(req,
                  st == AR_EXIT_OK               ? 200
                  : st == AR_LEAGUE_TEST_LIMITED ? 429
                  : st == AR_EXIT_USAGE          ? 400
                                                 : 500,
                  &p);
        return;
    }
    long long g = query_game(req);
    if (g < 0) {
        message(s, req, 400, &w, "No such game", "g: a test game's number was expected");
        return;
    }
    sqlite3_stmt *st = NULL;
    char id[128] = "", author[64] = "", name[64] = "";
    int seat = -1;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT g.game_id, g.seat, t.author, t.entrant FROM test_games g "
                           "JOIN tests t ON t.id = g.test WHERE g.id = ?1",
                           -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, g);
        if (sqlite3_step(st) == SQLITE_ROW && lw_game_id_ok(col(st, 0))) {
            snprintf(id, sizeof id, "%s", col(st, 0));
            seat = sqlite3_column_int(st, 1);
            snprintf(author, sizeof author, "%s", col(st, 2));
            snprintf(name, sizeof name, "%s", col(st, 3));
        }
        sqlite3_finalize(st);
    }
    /* the same answer for a test of another author's as for none: nothing is told of them */
    if (!id[0] || (!is_host(&w) && strcmp(author, w.name) != 0)) {
        message(s, req, 404, &w, "No such test game", "you asked for no test game of that number");
        return;
    }
    char path[PATH_MAX], back[128];
    snprintf(path, sizeof path, "%s/tests/records/%s.jsonl", s->dir, id);
    snprintf(back, sizeof back, "/entrant?name=%s#tests", name);
    av_replay_opts ro = {.seat = is_host(&w) ? AV_SPECTATOR : seat,
                         .back = ar_league_author_name_ok(name) ? back : "/",
                         .back_label = "the bot's test games",
                         .no_seed = !is_host(&w)};
    send_replay(s, req, &w, path, &ro, "this test game's record could not be replayed");
}

/* ---- Signing in and out -------------------------------------------------------------------- */

static void on_signin(struct evhttp_request *req, void *arg)
{
    lw_server *s = arg;
    who w = {""};
    char a[40], k[40];
    if (aw_request_query(req, "a", a, sizeof a) < 0 ||
        aw_request_query(req, "k", k, sizeof k) < 0 || !ar_league_author_check(s->db, a, k)) {
        message(s, req, 403, &w, "Not signed in",
                "This sign-in link is wrong or has been revoked: ask the host for a new one.");
        return;
    }
    char set[200];
    snprintf(set, sizeof set, "%s=%s.%s; Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000",
             s->cookie, a, k);
    evhttp_add_header(evhttp_request_get_output_headers(req), "Set-Cookie", set);
    snprintf(w.name, sizeof w.name, "%s", a);
    page p;
    begin(&p, "Signed in", &w, 0, 0);
    fprintf(p.f, "<h1>Signed in</h1><p>Welcome, ");
    esc(&p, strcmp(a, "@host") == 0 ? "host" : a);
    fprintf(p.f,
            ". This browser stays signed in; keep the link secret.</p><p><a href=\"%s\">"
            "Continue</a></p>",
            strcmp(a, "@host") == 0 ? "/host" : "/submit");
    send_page(req, 200, &p);
}

/* A POST must come from one of our pages: the Origin is this server's */
static int post_ok(lw_server *s, struct evhttp_request *req, const who *w)
{
    if (evhttp_request_get_command(req) != EVHTTP_REQ_POST)
        return 0;
    const char *o = evhttp_find_header(evhttp_request_get_input_headers(req), "Origin");
    if (!aw_server_origin_ok(s->web, o)) {
        message(s, req, 403, w, "Refused", "a change must come from this league's own pages");
        return -1;
    }
    return 1;
}

static void on_signout(struct evhttp_request *req, void *arg)
{
    lw_server *s = arg;
    who w;
    whoami(s, req, &w);
    int r = post_ok(s, req, &w);
    if (r < 0)
        return;
    if (r == 0) {
        message(s, req, 405, &w, "Sign out", "sign out with the button");
        return;
    }
    char set[120];
    snprintf(set, sizeof set, "%s=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0", s->cookie);
    evhttp_add_header(evhttp_request_get_output_headers(req), "Set-Cookie", set);
    who nobody = {""};
    message(s, req, 200, &nobody, "Signed out", "This browser is signed out.");
}

/* ---- Submissions --------------------------------------------------------------------------- */

static const char *const RUNTIMES[][2] = {
    {"python3", "python3 FILE (a Python 3 script)"},
    {"node", "node FILE (a JavaScript file)"},
    {"exec", "FILE itself (a program built for this machine)"},
};

/* The author's bots: each one's latest version and what became of it (the page refreshes
 * itself while one is being checked) */
static int my_bots(sqlite3 *db, const char *author, page *p)
{
    sqlite3_stmt *st = NULL;
    int checking = 0, n = 0;
    if (sqlite3_prepare_v2(db,
                           "SELECT e.name, e.version, e.status, e.reason FROM entrants e JOIN "
                           "owners o ON o.entrant = e.name WHERE o.author = ?1 AND e.version = "
                           "(SELECT max(version) FROM entrants x WHERE x.name = e.name) ORDER BY "
                           "e.name",
                           -1, &st, NULL) != SQLITE_OK)
        return 0;
    sqlite3_bind_text(st, 1, author, -1, SQLITE_STATIC);
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (!n++)
            fprintf(p->f, "<h2>Your bots</h2><div class=\"scroll\"><table><tr><th>bot</th>"
                          "<th>latest</th><th>what became of it</th></tr>");
        const char *status = col(st, 2);
        checking |= strcmp(status, "new") == 0 || strcmp(status, "checking") == 0;
        fprintf(p->f, "<tr><td><a href=\"/entrant?name=");
        esc(p, col(st, 0));
        fprintf(p->f, "\">");
        esc(p, col(st, 0));
        fprintf(p->f, "</a></td><td>v%d</td><td class=\"%s\">%s", sqlite3_column_int(st, 1),
                strcmp(status, "refused") == 0  ? "bad"
                : strcmp(status, "active") == 0 ? "ok"
                                                : "",
                strcmp(status, "new") == 0        ? "waiting for its check"
                : strcmp(status, "checking") == 0 ? "being checked now"
                : strcmp(status, "active") == 0   ? "checked, playing"
                                                  : status);
        if (*col(st, 3)) {
            fprintf(p->f, "<div class=\"why\">");
            esc_scrubbed(p, col(st, 3));
            fprintf(p->f, "</div>");
        }
        fprintf(p->f, "</td></tr>");
    }
    sqlite3_finalize(st);
    if (n)
        fprintf(p->f, "</table></div>");
    return checking;
}

static void submit_form(page *p, const char *note, int bad)
{
    if (note) {
        fprintf(p->f, "<p class=\"%s\" id=\"outcome\">", bad ? "bad" : "ok");
        esc(p, note);
        fprintf(p->f, "</p>");
    }
    fprintf(p->f, "<h1>Submit a version</h1><form method=\"post\" action=\"/submit\" "
                  "enctype=\"multipart/form-data\"><fieldset><label>Bot's name (a new name makes a "
                  "new entrant; your bot's name again makes its next version) <input name=\"name\" "
                  "required pattern=\"[A-Za-z0-9_\\-]{1,32}\" maxlength=\"32\"></label><label>The "
                  "bot: one file, or a .tar.gz, .tgz, .tar or .zip of its folder <input "
                  "type=\"file\" name=\"file\" required></label><label>How it "
                  "runs <select name=\"runtime\">");
    for (size_t i = 0; i < sizeof RUNTIMES / sizeof RUNTIMES[0]; i++)
        fprintf(p->f, "<option value=\"%s\">%s</option>", RUNTIMES[i][0], RUNTIMES[i][1]);
    fprintf(p->f, "</select></label><label>For an archive (.tar.gz, .tgz, .tar, .zip of the "
                  "bot's folder): the file to run, inside it <input name=\"entry\" "
                  "maxlength=\"200\" placeholder=\"bot.py\"></label><label>For an archive: a "
                  "build step run in the jail in its folder first (optional) <input "
                  "name=\"build\" maxlength=\"200\" placeholder=\"cc -O2 -o bot bot.c\">"
                  "</label><button>Upload</button>"
                  "</fieldset></form><p>A new version plays one check set against @random and "
                  "@greedy first; any verdict (crash, time-out, illegal action) refuses it and "
                  "its page says why.</p>");
}

/* Run fn with stderr into a buffer: the league's commands say why on stderr */
static int captured(int (*fn)(void *), void *arg, char *out, size_t cap)
{
    fflush(stderr);
    int saved = dup(2), mfd = memfd_create("lweb-err", MFD_CLOEXEC);
    if (saved < 0 || mfd < 0) {
        if (saved >= 0)
            close(saved);
        if (mfd >= 0)
            close(mfd);
        out[0] = 0;
        return fn(arg);
    }
    dup2(mfd, 2);
    int rc = fn(arg);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    ssize_t n = pread(mfd, out, cap - 1, 0);
    out[n > 0 ? n : 0] = 0;
    close(mfd);
    out[strcspn(out, "\n")] = 0;
    return rc;
}

typedef struct addargs {
    const char *dir, *name;
    char *argv[3];
    int argc;
    char *files[1];
    int nfiles;
} addargs;

static int do_add(void *arg)
{
    addargs *a = arg;
    return ar_league_add(a->dir, a->name, a->files, a->nfiles, a->argv, a->argc);
}

static int ends_with(const char *s, const char *t)
{
    size_t n = strlen(s), m = strlen(t);
    return n > m && strcmp(s + n - m, t) == 0;
}

static int is_archive(const char *f)
{
    return ends_with(f, ".tar.gz") || ends_with(f, ".tgz") || ends_with(f, ".tar") ||
           ends_with(f, ".zip");
}

/* The file to run inside an archive: relative, [A-Za-z0-9_.-/], no "..", no empty component */
static int entry_ok(const char *e)
{
    if (!e[0] || e[0] == '/' || strstr(e, "..") || strstr(e, "//") || ends_with(e, "/") ||
        strlen(e) > 200)
        return 0;
    return strspn(e, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-/") ==
           strlen(e);
}

static int build_ok(const char *b)
{
    for (const char *c = b; *c; c++)
        if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
            return 0;
    return 1;
}

/* An archive goes through the league's own upload path (ar_league_add_archive: unpacked into
 * DIR.bots/NAME/vN, built in the jail, added; a refusal is stored as a refused version with
 * its reason). Without a build step it is quick and answered at once; a build may take
 * minutes, so it runs in a worker process of its own and the author's page follows it. */
typedef struct archive_job {
    const char *dir, *name;
    ar_league_upload up;
    sqlite3 *inherited; /* the server's connection, as the fork copied it */
} archive_job;

static void archive_worker(void *arg)
{
    archive_job *j = arg;
    char why[1024];
    prctl(PR_SET_NAME, "arena:upload", 0, 0, 0);
    /* The fork copied the server's connection, whose file the worker no longer has open.
     * SQLite shares one open file per inode among a process's connections, so a new one here
     * would use that closed descriptor ("disk I/O error (Bad file descriptor)"): close the
     * copy first (its close and unlock of the missing descriptor fail harmlessly: no file
     * of the worker's has a number above 2 yet). */
    sqlite3_close(j->inherited);
    ar_league_add_archive(j->dir, j->name, &j->up, why, sizeof why);
}

static void reap_workers(lw_server *s)
{
    for (int i = 0; i < MAX_WORKERS; i++)
        if (s->workers[i] > 0 && waitpid(s->workers[i], NULL, WNOHANG) == s->workers[i]) {
            ar_spawn_reaped(s->workers[i]);
            s->workers[i] = 0;
        }
}

static void on_reap(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    reap_workers(arg);
}

static void upload_archive(lw_server *s, struct evhttp_request *req, const char *name,
                           const char *runtime, const char *entry, const char *build,
                           const aw_part *pf, char *why, size_t cap, int *status)
{
    (void)req;
    char cmd[256];
    if (strcmp(runtime, "exec") == 0)
        snprintf(cmd, sizeof cmd, "./%s", entry);
    else
        snprintf(cmd, sizeof cmd, "%s %s", runtime, entry);
    archive_job j = {.dir = s->dir, .name = name, .inherited = s->db};
    j.up.data = pf->data;
    j.up.len = pf->len;
    j.up.cmd = cmd;
    j.up.build = build[0] ? build : NULL;
    j.up.sandbox = s->sandbox;
    if (!build[0]) {
        char said[768];
        if (ar_league_add_archive(s->dir, name, &j.up, said, sizeof said) == AR_EXIT_OK) {
            *status = 200;
            snprintf(why, cap, "Taken: %s waits for its check; its page follows the check.", name);
        } else
            snprintf(why, cap, "refused: %s", said[0] ? said : "the league did not take it");
        return;
    }
    reap_workers(s);
    int slot = -1;
    for (int i = 0; i < MAX_WORKERS && slot < 0; i++)
        if (s->workers[i] == 0)
            slot = i;
    if (slot < 0) {
        *status = 503;
        snprintf(why, cap, "%d builds are running: try again in a minute", MAX_WORKERS);
        return;
    }
    pid_t pid = ar_spawn_worker(archive_worker, &j, -1); /* the child has its own copy of j */
    if (pid < 0) {
        *status = 500;
        snprintf(why, cap, "the build could not be started: %s", strerror((int)-pid));
        return;
    }
    s->workers[slot] = pid;
    *status = 200;
    snprintf(why, cap,
             "Taken: %s is being unpacked and built (at most a few minutes); its page and "
             "this one show what became of it.",
             name);
}

static int safe_filename(const char *f)
{
    return f[0] && f[0] != '.' && strlen(f) < 100 &&
           strspn(f, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijkl"
                     "mnopqrstuvwxyz0123456789_.-") == strlen(f);
}

/* The host uploads too (its host page links here): its own entrants, never a version of an
 * author's. 0, or -1 with why. */
static int host_may_add(lw_server *s, const char *name, char *why, size_t cap)
{
    char owner[64];
    if (ar_league_owner(s->db, name, owner, sizeof owner)) {
        snprintf(why, cap, "the entrant %s belongs to the author %s, who submits its versions",
                 name, owner);
        return -1;
    }
    return 0;
}

static void on_submit(struct evhttp_request *req, void *arg)
{
    lw_server *s = arg;
    who w;
    whoami(s, req, &w);
    if (!w.name[0]) {
        message(s, req, 403, &w, "Sign in first",
                "Only a signed-in author submits bots: use the sign-in link the host gave you.");
        return;
    }
    int r = post_ok(s, req, &w);
    if (r < 0)
        return;
    page p;
    if (r == 0) {
        /* a dry run of the page tells whether a bot is being checked: then it refreshes */
        page probe;
        begin(&probe, "", &w, 0, 0);
        int checking = my_bots(s->db, w.name, &probe);
        finish(&probe);
        free(probe.buf);
        begin(&p, "Submit a version", &w, checking ? 3 : 0, 0);
        submit_form(&p, NULL, 0);
        my_bots(s->db, w.name, &p);
        send_page(req, 200, &p);
        return;
    }
    char why[1024] = "";
    int status = 400;
    struct evbuffer *in = evhttp_request_get_input_buffer(req);
    size_t n = in ? evbuffer_get_length(in) : 0;
    const char *body = n ? (const char *)evbuffer_pullup(in, (ev_ssize_t)n) : "";
    const char *ct = evhttp_find_header(evhttp_request_get_input_headers(req), "Content-Type");
    aw_part parts[MAX_PARTS];
    int np = aw_multipart_parse(ct, body, n, parts, MAX_PARTS, why, sizeof why);
    const aw_part *pn = np > 0 ? aw_multipart_find(parts, np, "name") : NULL;
    const aw_part *pf = np > 0 ? aw_multipart_find(parts, np, "file") : NULL;
    const aw_part *pr = np > 0 ? aw_multipart_find(parts, np, "runtime") : NULL;
    const aw_part *pe = np > 0 ? aw_multipart_find(parts, np, "entry") : NULL;
    const aw_part *pb = np > 0 ? aw_multipart_find(parts, np, "build") : NULL;
    char build[208] = "";
    if (pb && pb->len < sizeof build)
        memcpy(build, pb->data, pb->len), build[pb->len] = 0;
    char name[40] = "", runtime[16] = "", path[PATH_MAX] = "", entry[208] = "";
    int archive = pf && is_archive(pf->filename);
    if (pe && pe->len < sizeof entry)
        memcpy(entry, pe->data, pe->len), entry[pe->len] = 0;
    if (np >= 0) {
        if (pn && pn->len < sizeof name)
            memcpy(name, pn->data, pn->len), name[pn->len] = 0;
        if (pr && pr->len < sizeof runtime)
            memcpy(runtime, pr->data, pr->len), runtime[pr->len] = 0;
        int rt = -1;
        for (size_t i = 0; i < sizeof RUNTIMES / sizeof RUNTIMES[0]; i++)
            if (strcmp(runtime, RUNTIMES[i][0]) == 0)
                rt = (int)i;
        if (!ar_league_author_name_ok(name))
            snprintf(why, sizeof why, "the bot's name must be 1 to 32 of A-Z a-z 0-9 _ -");
        else if (rt < 0)
            snprintf(why, sizeof why, "choose how the bot runs from the list");
        else if (!pf || !pf->has_filename || !pf->filename[0] || pf->len == 0)
            snprintf(why, sizeof why, "choose the bot's file (an empty file is not a bot)");
        else if (!safe_filename(pf->filename))
            snprintf(why, sizeof why,
                     "the file's name may hold only A-Z a-z 0-9 _ . - and not start with a dot");
        else if (pb && (pb->len >= sizeof build || !build_ok(build)))
            snprintf(why, sizeof why,
                     "the build step is one line of printable characters, at most 200");
        else if (!archive && build[0])
            snprintf(why, sizeof why, "a build step needs an archive of the bot's folder");
        else if (archive && !entry_ok(entry))
            snprintf(why, sizeof why,
                     "an archive needs the file to run inside it: a relative path of A-Z a-z "
                     "0-9 _ . - / without \"..\"");
        else if (is_host(&w) ? host_may_add(s, name, why, sizeof why) == 0
                             : ar_league_claim(s->dir, name, w.name, why, sizeof why) == 0) {
            if (archive) {
                upload_archive(s, req, name, runtime, entry, build, pf, why, sizeof why, &status);
                goto answer;
            }
            /* UPLOADS/NAME/TIME/FILE: a folder of its own per upload, outside the league's
             * folder (a bot's files must not show it the records) */
            char up[PATH_MAX], stamp[40];
            struct timespec ts;
            struct tm tm;
            clock_gettime(CLOCK_REALTIME, &ts);
            gmtime_r(&ts.tv_sec, &tm);
            strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
            snprintf(up, sizeof up, "%s/%s/%s-%06ld", s->uploads, name, stamp, ts.tv_nsec / 1000);
            int rc = ar_mkdir_p(up);
            int fd = -1;
            if (rc == 0) {
                size_t un = strlen(up), fn = strlen(pf->filename);
                if (un + fn + 2 < sizeof path) {
                    memcpy(path, up, un);
                    path[un] = '/';
                    memcpy(path + un + 1, pf->filename, fn + 1);
                }
                fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
                          strcmp(runtime, "exec") == 0 ? 0755 : 0644);
            }
            if (fd < 0 || write(fd, pf->data, pf->len) != (ssize_t)pf->len || fsync(fd) < 0) {
                snprintf(why, sizeof why, "the upload could not be stored: %s",
                         strerror(rc < 0 ? -rc : errno));
                status = 500;
            } else {
                addargs a = {.dir = s->dir, .name = name};
                if (strcmp(runtime, "exec") != 0)
                    a.argv[a.argc++] = (char *)runtime;
                a.argv[a.argc++] = path;
                char said[768];
                if (captured(do_add, &a, said, sizeof said) == AR_EXIT_OK) {
                    status = 200;
                    snprintf(why, sizeof why,
                             "Taken: %s waits for its check; its page follows the check.", name);
                } else
                    snprintf(why, sizeof why, "refused: %s",
                             said[0] ? said : "the league did not take it");
            }
            if (fd >= 0)
                close(fd);
        }
    }
answer:
    begin(&p, "Submit a version", &w, 0, 0);
    if (status == 200) {
        fprintf(p.f, "<p class=\"ok\" id=\"outcome\">");
        esc(&p, why);
        fprintf(p.f, " <a href=\"/entrant?name=");
        esc(&p, name);
        fprintf(p.f, "\">Follow ");
        esc(&p, name);
        fprintf(p.f, "</a></p>");
        submit_form(&p, NULL, 0);
    } else
        submit_form(&p, why, 1);
    my_bots(s->db, w.name, &p);
    send_page(req, status, &p);
}

/* ---- The host's page ----------------------------------------------------------------------- */

static int do_author(void *arg)
{
    addargs *a = arg;
    return ar_league_author_revoke(a->dir, a->name);
}

typedef struct addcmd {
    const char *dir, *name;
    char **argv;
    int argc;
} addcmd;

static int do_add_cmd(void *arg)
{
    addcmd *a = arg;
    return ar_league_add(a->dir, a->name, NULL, 0, a->argv, a->argc);
}

/* The host's "add": an entrant (or its next version) from a command line, as `arena league
 * add DIR NAME -- COMMAND` (its paths against the folder `run` was started in). An author's
 * entrant is refused: its versions are its author's to submit. */
static int host_add(lw_server *s, struct evhttp_request *req, const char *name, char *note,
                    size_t cap)
{
    char command[1024], owner[64], err[512];
    if (form_field(req, "command", command, sizeof command) < 0 ||
        !command[strspn(command, " \t")]) {
        snprintf(note, cap, "add: a command was expected (@greedy, or python3 /path/bot.py)");
        return -1;
    }
    if (ar_league_owner(s->db, name, owner, sizeof owner)) {
        snprintf(note, cap, "add %s: it belongs to the author %s, who submits its versions", name,
                 owner);
        return -1;
    }
    addcmd a = {.dir = s->dir, .name = name};
    if (ar_spawn_split(command, &a.argv, &a.argc, err, sizeof err) < 0) {
        snprintf(note, cap, "add %s: the command: %s", name, err);
        return -1;
    }
    char said[512];
    int st = captured(do_add_cmd, &a, said, sizeof said);
    ar_spawn_argv_free(a.argv);
    if (st != AR_EXIT_OK) {
        snprintf(note, cap, "add %s: %s", name, said[0] ? said : "the league did not take it");
        return -1;
    }
    snprintf(note, cap, "add: %s waits for its check", name);
    return 0;
}

static int form_field(struct evhttp_request *req, const char *key, char *out, size_t cap);

static void host_form(lw_server *s, page *p)
{
    char reveal[32] = "never";
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db, "SELECT value FROM meta WHERE key = 'web_reveal'", -1, &st,
                           NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW)
            snprintf(reveal, sizeof reveal, "%s", col(st, 0));
        sqlite3_finalize(st);
    }
    fprintf(p->f, "<h1>Host</h1>");
    static const char *const forms[][3] = {
        {"author", "Add an author (or give one a new sign-in link)", "author's name"},
        {"revoke", "Revoke an author's sign-in", "author's name"},
        {"retire", "Retire an entrant (its games stay counted)", "entrant"},
        {"hold", "Hold an entrant back for an hour", "entrant"},
    };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
        fprintf(p->f,
                "<form method=\"post\" action=\"/host\"><fieldset><legend>%s</legend><input "
                "type=\"hidden\" name=\"action\" value=\"%s\"><input name=\"name\" required "
                "placeholder=\"%s\" maxlength=\"32\"> <button>%s</button></fieldset></form>",
                forms[i][1], forms[i][0], forms[i][2], forms[i][0]);
    fprintf(p->f,
            "<form method=\"post\" action=\"/host\"><fieldset><legend>Reveal the full replays "
            "(now: ");
    esc(p, reveal);
    fprintf(p->f, ")</legend><input type=\"hidden\" name=\"action\" value=\"reveal\"><input "
                  "name=\"name\" required placeholder=\"never, end, or hours after a game\" "
                  "maxlength=\"10\"> <button>set</button></fieldset></form>"
                  "<form method=\"post\" action=\"/host\"><fieldset><legend>Export the public "
                  "pages to DIR/site</legend><input type=\"hidden\" name=\"action\" "
                  "value=\"export\"><input type=\"hidden\" name=\"name\" value=\"site\">"
                  "<button>export</button></fieldset></form>"
                  "<form method=\"post\" action=\"/host\"><fieldset><legend>Add an entrant (or "
                  "its next version) from a command on this machine</legend><input "
                  "type=\"hidden\" name=\"action\" value=\"add\"><input name=\"name\" required "
                  "placeholder=\"entrant\" maxlength=\"32\"> <input name=\"command\" required "
                  "placeholder=\"@greedy, or python3 /path/to/bot.py\" maxlength=\"1000\"> "
                  "<button>add</button></fieldset></form><p>Add one from an upload (a file or an "
                  "archive, with a build step): <a href=\"/submit\">the submission "
                  "page</a>.</p>");
    int frozen = 0;
    long long final = 0;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT key, value FROM meta WHERE key IN ('frozen', "
                           "'final_asked')",
                           -1, &st, NULL) == SQLITE_OK) {
        while (sqlite3_step(st) == SQLITE_ROW) {
            if (strcmp(col(st, 0), "frozen") == 0)
                frozen = 1;
            else
                final = atoll(col(st, 1));
        }
        sqlite3_finalize(st);
    }
    char res[PATH_MAX];
    snprintf(res, sizeof res, "%s/final/results.json", s->dir);
    if (final > 0)
        fprintf(p->f, "<p id=\"final\">The final was started (%lld deal%s a table): %s</p>", final,
                final == 1 ? "" : "s",
                access(res, F_OK) == 0 ? "its results are in DIR/final/results.json and "
                                         "DIR/final/standings.csv"
                                       : "it plays once the sets in flight are in (DIR/final)");
    else
        fprintf(p->f,
                "<form method=\"post\" action=\"/host\"><fieldset><legend>%s</legend><input "
                "type=\"hidden\" name=\"action\" value=\"freeze\"><input type=\"hidden\" "
                "name=\"name\" value=\"league\"> <button%s>freeze</button></fieldset></form>"
                "<form method=\"post\" action=\"/host\"><fieldset><legend>Start the final: the "
                "league freezes, the sets in flight finish, and the latest version of every "
                "live entrant plays a round robin of this many deals a table (in DIR/final)"
                "</legend><input type=\"hidden\" name=\"action\" value=\"final\"><input "
                "name=\"name\" required value=\"4\" inputmode=\"numeric\" maxlength=\"6\"> "
                "<button>start the final</button></fieldset></form>",
                frozen ? "The league is frozen: no entrant joins, no set starts"
                       : "Freeze the league: no entrant joins, no set starts (the sets in flight "
                         "finish and count; the pages stay up)",
                frozen ? " disabled" : "");
}

/* application/x-www-form-urlencoded fields of a small body */
static int form_field(struct evhttp_request *req, const char *key, char *out, size_t cap)
{
    struct evbuffer *in = evhttp_request_get_input_buffer(req);
    size_t n = in ? evbuffer_get_length(in) : 0;
    if (n == 0 || n > 4096)
        return -1;
    char *q = ar_xmalloc(n + 1);
    evbuffer_copyout(in, q, n);
    q[n] = 0;
    struct evkeyvalq kv;
    TAILQ_INIT(&kv);
    int rc = -1;
    if (evhttp_parse_query_str(q, &kv) == 0) {
        const char *v = evhttp_find_header(&kv, key);
        if (v && strlen(v) < cap) {
            snprintf(out, cap, "%s", v);
            rc = 0;
        }
    }
    evhttp_clear_headers(&kv);
    free(q);
    return rc;
}

static void on_host(struct evhttp_request *req, void *arg)
{
    lw_server *s = arg;
    who w;
    whoami(s, req, &w);
    if (!is_host(&w)) {
        message(s, req, 403, &w, "Host only", "this page is the host's: sign in with its link");
        return;
    }
    int r = post_ok(s, req, &w);
    if (r < 0)
        return;
    page p;
    char note[1024] = "";
    int bad = 0;
    if (r == 1) {
        char action[16], name[40];
        bad = 1;
        if (form_field(req, "action", action, sizeof action) < 0 ||
            form_field(req, "name", name, sizeof name) < 0)
            snprintf(note, sizeof note, "an action and a name were expected");
        else if (strcmp(action, "freeze") == 0) {
            if (ar_league_freeze(s->dir, 0) == AR_EXIT_OK)
                bad = 0, snprintf(note, sizeof note,
                                  "the league is frozen: no entrant joins, no set starts");
            else
                snprintf(note, sizeof note, "the league could not be frozen");
        } else if (strcmp(action, "final") == 0) {
            char *end;
            long long deals = strtoll(name, &end, 10);
            if (end == name || *end || deals < 1 || deals > 100000)
                snprintf(note, sizeof note, "final: a number of deals a table, 1 to 100000");
            else if (ar_league_freeze(s->dir, deals) == AR_EXIT_OK)
                bad = 0, snprintf(note, sizeof note,
                                  "the final is started: %lld deal%s a table, once the sets in "
                                  "flight are in; its results go to DIR/final",
                                  deals, deals == 1 ? "" : "s");
            else
                snprintf(note, sizeof note, "the final could not be started");
        } else if (strcmp(action, "reveal") == 0) {
            char *end;
            double h = strtod(name, &end);
            if (strcmp(name, "never") != 0 && strcmp(name, "end") != 0 &&
                (end == name || *end || h < 0 || h > 1e6))
                snprintf(note, sizeof note, "reveal: never, end, or a number of hours");
            else if (ar_league_meta_set(s->dir, "web_reveal", name) == 0)
                bad = 0, snprintf(note, sizeof note, "replays are revealed: %s", name);
        } else if (strcmp(action, "export") == 0) {
            char site[PATH_MAX];
            snprintf(site, sizeof site, "%s/site", s->dir);
            if (lw_export(s->dir, site) == AR_EXIT_OK)
                bad = 0, snprintf(note, sizeof note, "the public pages are in %.900s", site);
            else
                snprintf(note, sizeof note, "the export failed");
        } else if (!ar_league_author_name_ok(name))
            snprintf(note, sizeof note, "a name is 1 to 32 of A-Z a-z 0-9 _ -");
        else if (strcmp(action, "author") == 0) {
            char secret[33];
            if (ar_league_author_new(s->dir, name, secret) == 0) {
                bad = 0;
                snprintf(note, sizeof note, "%s signs in with %s/signin?a=%s&k=%s", name, s->url,
                         name, secret);
            }
        } else if (strcmp(action, "add") == 0) {
            bad = host_add(s, req, name, note, sizeof note) < 0;
        } else {
            addargs a = {.dir = s->dir, .name = name};
            char said[512];
            int st = strcmp(action, "revoke") == 0   ? captured(do_author, &a, said, sizeof said)
                     : strcmp(action, "retire") == 0 ? ar_league_retire(s->dir, name)
                     : strcmp(action, "hold") == 0   ? ar_league_hold(s->dir, name, 3600)
                                                     : -1;
            if (st == AR_EXIT_OK)
                bad = 0, snprintf(note, sizeof note, "%s: done for %s", action, name);
            else
                snprintf(note, sizeof note, "%s %s: %s", action, name,
                         st == -1 ? "no such action" : "no such author or live entrant");
        }
        s->board_ms = 0;
        for (int i = 0; i < PAGE_CACHE; i++)
            s->pages[i].ms = 0; /* a change shows at once */
    }
    begin(&p, "Host", &w, 0, 0);
    if (note[0]) {
        fprintf(p.f, "<p class=\"%s\" id=\"outcome\">", bad ? "bad" : "ok");
        esc(&p, note);
        fprintf(p.f, "</p>");
    }
    host_form(s, &p);
    send_page(req, bad && note[0] ? 400 : 200, &p);
}

/* ---- Static export ------------------------------------------------------------------------- */

static int write_file(const char *path, const char *buf, size_t n)
{
    char tmp[PATH_MAX];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return -1;
    int ok = fwrite(buf, 1, n, f) == n;
    ok = fclose(f) == 0 && ok;
    return ok && rename(tmp, path) == 0 ? 0 : -1;
}

int lw_export(const char *dir, const char *site)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/league.db", dir);
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(p, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        fprintf(stderr, "arena league export: %s: %s\n", p, db ? sqlite3_errmsg(db) : "no");
        sqlite3_close(db);
        return AR_EXIT_FAIL;
    }
    sqlite3_busy_timeout(db, 15000);
    int rc = ar_mkdir_p(site);
    if (rc < 0) {
        fprintf(stderr, "arena league export: %s: %s\n", site, strerror(-rc));
        sqlite3_close(db);
        return AR_EXIT_FAIL;
    }
    /* one read transaction: every page of the same moment */
    sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
    int status = AR_EXIT_OK, pages = 0;
    page pg;
    begin(&pg, "League", NULL, 0, 1);
    board_body(db, pg.f, 1);
    finish(&pg);
    snprintf(p, sizeof p, "%s/index.html", site);
    if (write_file(p, pg.buf, pg.len) < 0)
        status = AR_EXIT_FAIL;
    pages++;
    free(pg.buf);
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, "SELECT DISTINCT name FROM entrants ORDER BY name", -1, &st, NULL) ==
        SQLITE_OK) {
        while (sqlite3_step(st) == SQLITE_ROW) {
            const char *name = col(st, 0);
            if (!ar_league_author_name_ok(name))
                continue; /* built-ins (@random) have no page */
            begin(&pg, name, NULL, 0, 1);
            entrant_body(NULL, db, dir, name, NULL, pg.f, 1);
            finish(&pg);
            snprintf(p, sizeof p, "%s/entrant-%s.html", site, name);
            if (write_file(p, pg.buf, pg.len) < 0)
                status = AR_EXIT_FAIL;
            pages++;
            free(pg.buf);
        }
        sqlite3_finalize(st);
    }
    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    sqlite3_close(db);
    if (status != AR_EXIT_OK)
        fprintf(stderr, "arena league export: cannot write into %s: %s\n", site, strerror(errno));
    else
        printf("arena league export: %d public pages in %s\n", pages, site);
    return status;
}

/* ---- The server process -------------------------------------------------------------------- */

static void on_term(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    event_base_loopbreak(((lw_server *)arg)->base);
}

static void server_main(void *arg)
{
    lw_server *s = arg;
    prctl(PR_SET_NAME, "arena:lweb", 0, 0, 0);
    /* the pages yield the CPU to the games: on a busy machine viewers wait a little, the
     * league does not (bench/bench_lweb_viewers.sh) */
    setpriority(PRIO_PROCESS, 0, 10);
    signal(SIGINT, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
    char why[256], p[PATH_MAX];
    snprintf(p, sizeof p, "%s/league.db", s->dir);
    if (sqlite3_open_v2(p, &s->db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        fprintf(stderr, "arena league: --serve: %s: %s\n", p, sqlite3_errmsg(s->db));
        _exit(1);
    }
    sqlite3_busy_timeout(s->db, 5000);
    s->base = event_base_new();
    aw_options wo = {.listen_fd = 3,
                     .open = 1,
                     .host = s->host,
                     .max_header_size = 8192,
                     .max_body_size = s->o.max_upload ? s->o.max_upload : 8u << 20,
                     .timeout_s = 40};
    s->web = s->base ? aw_server_new(s->base, &wo, why, sizeof why) : NULL;
    if (!s->web) {
        fprintf(stderr, "arena league: --serve: %s\n", s->base ? why : "no event base");
        _exit(1);
    }
    aw_server_route(s->web, "/", on_board, s);
    aw_server_route(s->web, "/entrant", on_entrant, s);
    aw_server_route(s->web, "/game", on_game, s);
    aw_server_route(s->web, "/log", on_log, s);
    aw_server_route(s->web, "/signin", on_signin, s);
    aw_server_route(s->web, "/signout", on_signout, s);
    aw_server_route(s->web, "/submit", on_submit, s);
    aw_server_route(s->web, "/host", on_host, s);
    aw_server_route(s->web, "/test", on_test, s);
    s->term = evsignal_new(s->base, SIGTERM, on_term, s);
    event_add(s->term, NULL);
    struct timeval every = {1, 0};
    s->reap = event_new(s->base, -1, EV_PERSIST, on_reap, s);
    event_add(s->reap, &every);
    event_base_dispatch(s->base);
    event_free(s->reap);
    event_free(s->term);
    /* builds still running end with the server (they die with it: PR_SET_PDEATHSIG) */
    aw_server_free(s->web);
    event_base_free(s->base);
    sqlite3_close(s->db);
    free(s->board);
    for (int i = 0; i < PAGE_CACHE; i++)
        free(s->pages[i].body);
}

lw_server *lw_bind(const lw_opts *o, char *err, size_t cap)
{
    char why[256];
    int fd = aw_listen_addr(o->addr, o->port, why, sizeof why);
    if (fd < 0) {
        snprintf(err, cap, "--serve: %s", why);
        return NULL;
    }
    lw_server *s = ar_xcalloc(1, sizeof *s);
    s->listen_fd = fd;
    s->o = *o;
    char real[PATH_MAX];
    s->dir = ar_xstrdup(realpath(o->dir, real) ? real : o->dir);
    if (o->uploads)
        s->uploads = ar_xstrdup(o->uploads);
    else {
        size_t n = strlen(s->dir) + 16;
        s->uploads = ar_xmalloc(n);
        snprintf(s->uploads, n, "%s-uploads", s->dir);
    }
    s->addr = o->addr ? ar_xstrdup(o->addr) : NULL;
    s->host = o->host ? ar_xstrdup(o->host) : NULL;
    struct sockaddr_in sa;
    socklen_t len = sizeof sa;
    s->port = getsockname(fd, (struct sockaddr *)&sa, &len) == 0 ? ntohs(sa.sin_port) : o->port;
    snprintf(s->cookie, sizeof s->cookie, "okr_lg_%d", s->port);
    {
        char ini[PATH_MAX], why2[1024];
        ar_tour t;
        memset(&t, 0, sizeof t);
        snprintf(ini, sizeof ini, "%s/league.ini", s->dir);
        if (ar_tour_load_league(ini, &t, why2, sizeof why2) == 0) {
            s->test_sets_per_hour = t.test_sets_per_hour;
            ar_tour_free(&t);
        }
    }
    if (ar_league_web_prepare(o->dir, s->host_secret) < 0) {
        snprintf(err, cap, "--serve: the authors' tables or the host's secret could not be made");
        lw_stop(s);
        return NULL;
    }
    if (s->host)
        snprintf(s->url, sizeof s->url, "https://%s", s->host);
    else
        snprintf(s->url, sizeof s->url, "http://%s:%d",
                 s->addr && strcmp(s->addr, "0.0.0.0") != 0 ? s->addr : "127.0.0.1", s->port);
    snprintf(s->host_link, sizeof s->host_link, "%s/signin?a=@host&k=%s", s->url, s->host_secret);
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/web.url", o->dir);
    char line[200];
    int n = snprintf(line, sizeof line, "%s\n", s->url);
    if (write_file(p, line, (size_t)n) < 0) {
        snprintf(err, cap, "--serve: cannot write %s: %s", p, strerror(errno));
        lw_stop(s);
        return NULL;
    }
    return s;
}

int lw_start(lw_server *s, char *err, size_t cap)
{
    pid_t pid = ar_spawn_worker(server_main, s, s->listen_fd);
    if (pid < 0) {
        snprintf(err, cap, "--serve: cannot start the server: %s", strerror((int)-pid));
        return -1;
    }
    s->pid = pid;
    ar_spawn_spare(pid);
    close(s->listen_fd);
    s->listen_fd = -1;
    return 0;
}

void lw_set_sandbox(lw_server *s, const ar_sandbox_cfg *sb)
{
    s->sandbox = *sb;
}

const char *lw_url(const lw_server *s)
{
    return s->url;
}

const char *lw_host_link(const lw_server *s)
{
    return s->host_link;
}

void lw_stop(lw_server *s)
{
    if (!s)
        return;
    if (s->pid > 0) {
        kill(s->pid, SIGTERM);
        double deadline = ar_now_ms() + 2000;
        int st;
        for (;;) {
            pid_t r = waitpid(s->pid, &st, WNOHANG);
            if (r == s->pid || (r < 0 && errno != EINTR))
                break;
            if (ar_now_ms() > deadline) {
                kill(s->pid, SIGKILL);
                while (waitpid(s->pid, NULL, 0) < 0 && errno == EINTR)
                    ;
                break;
            }
            struct timespec ts = {0, 5 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
        ar_spawn_reaped(s->pid);
    }
    if (s->listen_fd >= 0)
        close(s->listen_fd);
    free(s->dir);
    free(s->uploads);
    free(s->addr);
    free(s->host);
    free(s);
}
