/* cli_view.c - the command lines of the pages: `arena replay ... --html` and `arena report`.
 * The pages themselves are the view room's (arena/view); this file picks files and names. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "cli.h"
#include "match/match.h"
#include "view/view.h"

/* DIR + --game: the record's path (malloc'd), or NULL after printing why. Here rather than in
 * cli_replay.c, which hands `--html` to this file: the calls run one way. */
char *ar_replay_find_record(const char *dir, const char *game)
{
    size_t n = strlen(dir) + strlen(game) + 64;
    char *path = ar_xmalloc(n);
    int numeric = game[0] != '\0';
    for (const char *p = game; *p; p++)
        if (!isdigit((unsigned char)*p))
            numeric = 0;
    if (!numeric) {
        snprintf(path, n, "%s/records/%s.jsonl", dir, game);
        return path;
    }
    long long k = strtoll(game, NULL, 10);
    snprintf(path, n, "%s/games.jsonl", dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "arena replay: %s: %s\n", path, strerror(errno));
        free(path);
        return NULL;
    }
    char *buf = NULL, *found = NULL;
    size_t cap = 0;
    for (long long i = 0; getline(&buf, &cap, f) >= 0; i++) {
        if (i != k)
            continue;
        json_t *j = json_loads(buf, 0, NULL);
        const char *rec = j ? json_string_value(json_object_get(j, "record")) : NULL;
        if (rec) {
            size_t m = strlen(dir) + strlen(rec) + 2;
            found = ar_xmalloc(m);
            snprintf(found, m, "%s/%s", dir, rec);
        } else {
            fprintf(stderr, "arena replay: game %lld was not played (no record)\n", k);
        }
        json_decref(j);
        break;
    }
    fclose(f);
    free(buf);
    if (!found)
        fprintf(stderr, "arena replay: no game %lld in %s\n", k, path);
    free(path);
    return found;
}

void ar_replay_html_usage(FILE *out)
{
    fprintf(out,
            "usage: arena replay FILE --html [--seat K | --all | --each-seat] [-o PAGE]\n"
            "       arena replay DIR --html [--game ID|K] [--seat K | --all | --each-seat]\n"
            "                    [-o PAGE|FOLDER]\n"
            "  Write the game as one self-contained HTML page (no network, opens from file://):\n"
            "  the table at every step, every event in words, each hand's scoring, the\n"
            "  result; step, jump by hand, scrub, autoplay; keys are listed on the page.\n"
            "  --all        the referee's page, every hand shown (default): ID.html\n"
            "  --seat K     only what seat K knew at each step (RULES 8.3): ID.seatK.html;\n"
            "               it holds no other card, no game id and no seed\n"
            "  --each-seat  the referee's page, linking one page per seat (a seat's page links\n"
            "               none: their names are game ids, which name the seed)\n"
            "  --quiet      print no page names (a folder: one line with the count)\n"
            "  -o PAGE      the page to write (default: ID.html in the current folder);\n"
            "               for DIR without --game, the folder for every game's pages\n"
            "               (default DIR/replays)\n"
            "  The replay is checked against the record as without --html (exit 1 on a\n"
            "  mismatch). Pages: docs/report.md.\n");
}

enum { ALL = -1, EACH = -2 };

/* Write the page(s) of one record into folder dir as stem.html / stem.seatK.html. Returns
 * AR_EXIT_OK or AR_EXIT_FAIL (printed). */
static int write_pages(const char *record, const char *dir, const char *stem, int mode,
                       av_clocks clocks, const char *back, int quiet)
{
    int players = OKR_MAX_PLAYERS;
    for (int v = -1; v < players; v++) {
        if (mode >= 0 && v != mode)
            continue;
        if (mode == ALL && v >= 0)
            break;
        char path[4096], err[4800];
        /* a seat's page is named without the run's seed (RULES 8.3): its name is handed
         * out with it, and the seed deals every card */
        if (v < 0)
            snprintf(path, sizeof path, "%s/%s.html", dir, stem);
        else
            snprintf(path, sizeof path, "%s/%s.seat%d.html", dir, av_public_id(stem), v);
        av_replay_opts o = {.seat = v < 0 ? AV_SPECTATOR : v,
                            .base = mode == EACH ? stem : NULL,
                            .back = back,
                            .clocks = clocks};
        char tmp[4200];
        snprintf(tmp, sizeof tmp, "%s.tmp", path);
        FILE *f = fopen(tmp, "w");
        if (!f) {
            fprintf(stderr, "arena replay: %s: %s\n", tmp, strerror(errno));
            return AR_EXIT_FAIL;
        }
        int rc = av_replay_html(record, &o, f, err, sizeof err);
        if (fclose(f) != 0 && rc == 0) {
            snprintf(err, sizeof err, "%s: %s", tmp, strerror(errno));
            rc = -1;
        }
        if (rc != 0) {
            /* a seat the game does not have ends the list of an --each-seat */
            remove(tmp);
            if (v > 0 && mode == EACH && strstr(err, "the game has"))
                break;
            fprintf(stderr, "arena replay: %s\n", err);
            return AR_EXIT_FAIL;
        }
        if (rename(tmp, path) != 0) {
            fprintf(stderr, "arena replay: %s: %s\n", path, strerror(errno));
            return AR_EXIT_FAIL;
        }
        if (!quiet)
            printf("%s\n", path);
    }
    return AR_EXIT_OK;
}

/* "x/y/m1-d0-r0.jsonl" -> "m1-d0-r0" (malloc'd) */
static char *stem_of(const char *path, const char *suffix)
{
    const char *b = strrchr(path, '/');
    char *s = ar_xstrdup(b ? b + 1 : path);
    size_t n = strlen(s), k = strlen(suffix);
    if (n > k && strcmp(s + n - k, suffix) == 0)
        s[n - k] = '\0';
    return s;
}

/* "out/page.html" -> dir "out", stem "page" (both malloc'd) */
static void split_page(const char *page, char **dir, char **stem)
{
    const char *b = strrchr(page, '/');
    *dir = b ? strndup(page, (size_t)(b - page)) : ar_xstrdup(".");
    if (b && b == page) {
        free(*dir);
        *dir = ar_xstrdup("/");
    }
    *stem = stem_of(page, ".html");
}

/* The pages of the first limit (-1: every) played games of a match's or tournament's folder
 * into folder out, linking back to `back` (or not, NULL). With keep_going a game whose record
 * does not replay is reported and skipped (the report's replays); else it stops there. */
static int folder_pages(const char *dir, const char *out, int mode, long long limit,
                        const char *back, int quiet, int keep_going)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/games.jsonl", dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "arena replay: %s: %s\n", path, strerror(errno));
        return AR_EXIT_FAIL;
    }
    int rc = ar_mkdir_p(out);
    if (rc != 0) {
        fprintf(stderr, "arena replay: %s: %s\n", out, strerror(-rc));
        fclose(f);
        return AR_EXIT_FAIL;
    }
    av_clocks clocks = av_folder_clocks(dir);
    char *buf = NULL;
    size_t cap = 0;
    long long n = 0;
    rc = AR_EXIT_OK;
    while ((rc == AR_EXIT_OK || keep_going) && (limit < 0 || n < limit) &&
           getline(&buf, &cap, f) >= 0) {
        json_t *j = json_loads(buf, 0, NULL);
        const char *rec = json_string_value(json_object_get(j, "record"));
        const char *id = json_string_value(json_object_get(j, "game_id"));
        if (rec && id && !strchr(id, '/')) {
            char record[4096];
            snprintf(record, sizeof record, "%s/%s", dir, rec);
            rc = write_pages(record, out, id, mode, clocks, back, quiet);
            n++;
        }
        json_decref(j);
    }
    free(buf);
    fclose(f);
    if (rc == AR_EXIT_OK && quiet && !keep_going)
        printf("arena replay: %lld games written to %s\n", n, out);
    return rc;
}

int ar_replay_html_main(int argc, char **argv)
{
    const char *file = NULL, *game = NULL, *out = NULL;
    int mode = ALL, quiet = 0;
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        long long n;
        int f;
        if ((f = ar_flag(argc, argv, &i, "--game", &v)) != 0) {
            if (f < 0)
                return AR_EXIT_USAGE;
            game = v;
        } else if ((f = ar_flag(argc, argv, &i, "--seat", &v)) != 0) {
            if (f < 0 || ar_parse_long("--seat", v, 0, OKR_MAX_PLAYERS - 1, &n) < 0)
                return AR_EXIT_USAGE;
            mode = (int)n;
        } else if ((f = ar_flag(argc, argv, &i, "-o", &v)) != 0) {
            if (f < 0)
                return AR_EXIT_USAGE;
            out = v;
        } else if (strcmp(argv[i], "--all") == 0) {
            mode = ALL;
        } else if (strcmp(argv[i], "--each-seat") == 0) {
            mode = EACH;
        } else if (strcmp(argv[i], "--html") == 0) {
        } else if (strcmp(argv[i], "--quiet") == 0 || strcmp(argv[i], "-q") == 0) {
            quiet = 1;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "arena replay: unknown argument '%s'\n", argv[i]);
            ar_replay_html_usage(stderr);
            return AR_EXIT_USAGE;
        } else if (file) {
            fprintf(stderr, "arena replay: more than one FILE ('%s', '%s')\n", file, argv[i]);
            return AR_EXIT_USAGE;
        } else {
            file = argv[i];
        }
    }
    if (!file) {
        fprintf(stderr, "arena replay: missing FILE\n");
        ar_replay_html_usage(stderr);
        return AR_EXIT_USAGE;
    }
    struct stat st;
    int is_dir = stat(file, &st) == 0 && S_ISDIR(st.st_mode);
    if (game && !is_dir) {
        fprintf(stderr, "arena replay: --game needs a match directory, not a record file\n");
        return AR_EXIT_USAGE;
    }
    if (is_dir && !game) {
        char def[4096];
        snprintf(def, sizeof def, "%s/replays", file);
        return folder_pages(file, out ? out : def, mode, -1, NULL, quiet, 0);
    }
    char *record = is_dir ? ar_replay_find_record(file, game) : ar_xstrdup(file);
    if (!record)
        return AR_EXIT_FAIL;
    char *dir, *stem;
    if (out) {
        split_page(out, &dir, &stem);
    } else {
        dir = ar_xstrdup(".");
        stem = stem_of(record, ".jsonl");
    }
    /* -o names the page itself; a single seat's page keeps that name too */
    int rc;
    if (out && mode >= 0) {
        char *base = stem;
        stem = NULL;
        av_replay_opts o = {.seat = mode,
                            .clocks = is_dir ? av_folder_clocks(file) : (av_clocks){0, 0}};
        char err[600];
        FILE *f = fopen(out, "w");
        rc = AR_EXIT_FAIL;
        if (!f) {
            fprintf(stderr, "arena replay: %s: %s\n", out, strerror(errno));
        } else {
            int r = av_replay_html(record, &o, f, err, sizeof err);
            if (fclose(f) != 0 || r != 0) {
                fprintf(stderr, "arena replay: %s\n", r ? err : strerror(errno));
                remove(out);
            } else {
                rc = AR_EXIT_OK;
                if (!quiet)
                    printf("%s\n", out);
            }
        }
        free(base);
    } else {
        rc = write_pages(record, dir, stem, mode,
                         is_dir ? av_folder_clocks(file) : (av_clocks){0, 0}, NULL, quiet);
    }
    free(dir);
    free(stem);
    free(record);
    return rc;
}

/* ---- arena report ------------------------------------------------------------------------- */

void ar_report_usage(FILE *out)
{
    fprintf(
        out,
        "usage: arena report DIR [--format text|md|html|json] [-o FILE] [--replays N|all|none]\n"
        "       arena report DIR --publish PUB [--with-logs] [--replays N|all]\n"
        "  The results of a match's, tournament's or merge's folder DIR, from the files\n"
        "  in it (results.json, games.jsonl, timings.jsonl):\n"
        "  text, md     a block to paste into a pull request or an issue: score and\n"
        "               win-Elo with intervals, rank interval, p>next, games and sets, rho,\n"
        "               SPRT state, verdicts (default: text on stdout)\n"
        "  html         one self-contained page: standings, forest plot, pairwise matrix,\n"
        "               crosstable, verdicts and timing, the games with links to their\n"
        "               replays, how to read it (default -o DIR/report.html)\n"
        "  json         the numbers of every table, as the html shows them\n"
        "  -o FILE      where to write (the format follows a .html .md .json name)\n"
        "  --replays N  html: write the replay pages of the first N games into\n"
        "               DIR/replays (referee's and every seat's; default 300; all, none)\n"
        "  --publish PUB  a folder to hand out: PUB/index.html (the html report with no\n"
        "               seed, no replay holding every hand, no absolute path, no log) and\n"
        "               one folder per entrant with its games as its seat saw them\n"
        "               (every game, or the first N of --replays); sizes printed\n"
        "  --with-logs  with --publish: copy the logs too (game ids without the seed)\n"
        "  Pages: docs/report.md. Exit: 0 written, 1 unreadable folder, 2 bad command line.\n");
}

/* ---- arena report --publish -------------------------------------------------------------- */

typedef struct pub_ent {
    char *name, folder[160];
    long long pages, bytes;
} pub_ent;

static long long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long long)st.st_size : 0;
}

static pub_ent *pub_entrant(pub_ent **es, int *n, const char *name)
{
    for (int i = 0; i < *n; i++)
        if (strcmp((*es)[i].name, name) == 0)
            return &(*es)[i];
    *es = ar_xrealloc(*es, (size_t)(*n + 1) * sizeof **es);
    pub_ent *e = &(*es)[(*n)++];
    memset(e, 0, sizeof *e);
    e->name = ar_xstrdup(name);
    char safe[128];
    ar_match_log_name(name, safe, sizeof safe);
    snprintf(e->folder, sizeof e->folder, "%s", safe[0] && safe[0] != '.' ? safe : "entrant");
    for (int i = 0; i < *n - 1; i++) /* two names made file-safe alike: the later numbered */
        if (strcmp((*es)[i].folder, e->folder) == 0) {
            snprintf(e->folder, sizeof e->folder, "%.120s-%d", safe, *n);
            break;
        }
    return e;
}

/* An entrant's index page: its games, its seat, the names and totals, its place, and its own
 * verdicts (another seat's detail may quote that seat's move, its cards: left out). */
static void handout_index(FILE *out, const pub_ent *e, json_t *rows)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<meta "
          "http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src "
          "'unsafe-inline'\">\n<title>",
          out);
    av_html_text(out, e->name);
    fputs("'s games</title>\n<style>body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:"
          "#1d1d1f}table{border-collapse:collapse}td,th{border-bottom:1px solid #ddd;padding:"
          "3px 8px;text-align:left}.bad{color:#c0262d;font-weight:600}</style></head><body>\n<h1>",
          out);
    av_html_text(out, e->name);
    fprintf(out,
            "'s games</h1>\n<p>%lld games, each as your seat saw it: your hand, the table, what "
            "the others did as you were told it, and the hands shown at each hand's end. "
            "<a href=\"../index.html\">The results</a>.</p>\n<table id=\"t-games\"><thead><tr>"
            "<th>game</th><th>seat</th><th>seats (final total, place)</th><th>your verdicts</th>"
            "</tr></thead><tbody>\n",
            e->pages);
    size_t i;
    json_t *r;
    json_array_foreach(rows, i, r)
    {
        const char *page = json_string_value(json_object_get(r, "page"));
        const char *id = json_string_value(json_object_get(r, "id"));
        json_t *g = json_object_get(r, "game");
        int seat = (int)json_integer_value(json_object_get(r, "seat"));
        fputs("<tr><td><a href=\"", out);
        av_html_text(out, page);
        fputs("\">", out);
        av_html_text(out, id);
        fprintf(out, "</a></td><td>%d</td><td>", seat);
        json_t *names = json_object_get(g, "names"), *fin = json_object_get(g, "final_total"),
               *pl = json_object_get(g, "placements");
        for (size_t s = 0; s < json_array_size(names); s++) {
            fputs(s ? "; " : "", out);
            fputs((int)s == seat ? "<b>" : "", out);
            av_html_text(out, json_string_value(json_array_get(names, s)));
            fprintf(out, " %lld (%lld)%s", (long long)json_integer_value(json_array_get(fin, s)),
                    (long long)json_integer_value(json_array_get(pl, s)),
                    (int)s == seat ? "</b>" : "");
        }
        fputs("</td><td>", out);
        json_t *vs = json_object_get(g, "verdicts"), *v;
        size_t k, shown = 0;
        json_array_foreach(vs, k, v)
        {
            if (json_integer_value(json_object_get(v, "seat")) != seat)
                continue;
            char clean[1200];
            av_scrub_paths(json_string_value(json_object_get(v, "detail")), clean, sizeof clean);
            fputs(shown++ ? "; <span class=\"bad\">" : "<span class=\"bad\">", out);
            av_html_text(out, json_string_value(json_object_get(v, "verdict")));
            fputs("</span> ", out);
            av_html_text(out, clean);
        }
        fputs(shown ? "</td></tr>\n" : "-</td></tr>\n", out);
    }
    fputs("</tbody></table>\n</body></html>\n", out);
}

/* Copy the logs into pub/logs: the arena's line before each game names the game id, which
 * names the seed (written as the public id), and a bot's stderr may name absolute paths
 * (shortened). Returns the bytes written, or -1. */
static long long publish_logs(const char *dir, const char *pub)
{
    char src[4096], dst[4096];
    snprintf(src, sizeof src, "%s/logs", dir);
    snprintf(dst, sizeof dst, "%s/logs", pub);
    DIR *d = opendir(src);
    if (!d)
        return 0;
    if (ar_mkdir_p(dst) != 0) {
        closedir(d);
        return -1;
    }
    long long total = 0;
    struct dirent *de;
    char *line = NULL, *clean = NULL;
    size_t cap = 0, ccap = 0;
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (de->d_name[0] == '.' || len < 5 || strcmp(de->d_name + len - 4, ".log") != 0)
            continue;
        char a[4400], b[4400];
        snprintf(a, sizeof a, "%s/%s", src, de->d_name);
        snprintf(b, sizeof b, "%s/%s", dst, de->d_name);
        FILE *in = fopen(a, "r"), *out = in ? fopen(b, "w") : NULL;
        if (!out) {
            if (in)
                fclose(in);
            total = -1;
            break;
        }
        ssize_t n;
        while ((n = getline(&line, &cap, in)) >= 0) {
            const char *tag = "[arena: game ";
            if (strncmp(line, tag, strlen(tag)) == 0) {
                char *id = line + strlen(tag), *end = strchr(id, ',');
                if (end) {
                    *end = '\0';
                    fprintf(out, "%s%s,%s", tag, av_public_id(id), end + 1);
                    continue;
                }
            }
            if (ccap < (size_t)n + 1) {
                ccap = (size_t)n + 1;
                clean = ar_xrealloc(clean, ccap);
            }
            av_scrub_paths(line, clean, ccap);
            fputs(clean, out);
        }
        fclose(in);
        if (fclose(out) != 0) {
            total = -1;
            break;
        }
        total += file_size(b);
    }
    free(line);
    free(clean);
    closedir(d);
    return total;
}

/* arena report DIR --publish PUB: PUB/index.html (the report without seeds, replays or
 * absolute paths; logs only with --with-logs) and PUB/<entrant>/ with its games as its seat
 * saw them and an index.html, the sizes printed and shown on the index. */
static int publish(const char *dir, const char *pub, int with_logs, long long limit)
{
    if (ar_mkdir_p(pub) != 0) {
        fprintf(stderr, "arena report: %s: %s\n", pub, strerror(errno));
        return AR_EXIT_FAIL;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/games.jsonl", dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "arena report: %s: %s\n", path, strerror(errno));
        return AR_EXIT_FAIL;
    }
    av_clocks clocks = av_folder_clocks(dir);
    pub_ent *es = NULL;
    int ne = 0, rc = AR_EXIT_OK;
    json_t *rows = json_object(); /* entrant name -> [{page, id, seat, game}] */
    char *buf = NULL;
    size_t cap = 0;
    long long games = 0, files = 0;
    while (rc == AR_EXIT_OK && (limit < 0 || games < limit) && getline(&buf, &cap, f) >= 0) {
        json_t *g = json_loads(buf, 0, NULL);
        const char *rec = json_string_value(json_object_get(g, "record"));
        const char *id = json_string_value(json_object_get(g, "game_id"));
        json_t *names = json_object_get(g, "names");
        if (!rec || !id || strchr(id, '/') || strchr(rec, '/') != rec + 7) {
            json_decref(g);
            continue;
        }
        games++;
        char record[4096];
        snprintf(record, sizeof record, "%s/%s", dir, rec);
        for (size_t s = 0; s < json_array_size(names) && rc == AR_EXIT_OK; s++) {
            const char *nm = json_string_value(json_array_get(names, s));
            pub_ent *e = pub_entrant(&es, &ne, nm ? nm : "?");
            char folder[4400], page[256], file[4700], tmp[4800], err[5000];
            snprintf(folder, sizeof folder, "%s/%s", pub, e->folder);
            snprintf(page, sizeof page, "%s.seat%zu.html", av_public_id(id), s);
            snprintf(file, sizeof file, "%s/%s", folder, page);
            snprintf(tmp, sizeof tmp, "%s.tmp", file);
            av_replay_opts o = {.seat = (int)s,
                                .back = "index.html",
                                .back_label = "your games",
                                .clocks = clocks,
                                .no_seed = 1,
                                .publish = 1};
            FILE *out = ar_mkdir_p(folder) == 0 ? fopen(tmp, "w") : NULL;
            int r = out ? av_replay_html(record, &o, out, err, sizeof err) : -1;
            if (!out)
                snprintf(err, sizeof err, "%s: %s", tmp, strerror(errno));
            if (out && fclose(out) != 0 && r == 0) {
                snprintf(err, sizeof err, "%s: %s", tmp, strerror(errno));
                r = -1;
            }
            if (r == 0 && rename(tmp, file) != 0) {
                snprintf(err, sizeof err, "%s: %s", file, strerror(errno));
                r = -1;
            }
            if (r != 0) { /* a record that does not replay: said, and its page left out */
                remove(tmp);
                fprintf(stderr, "arena report: %s\n", err);
                continue;
            }
            e->pages++;
            e->bytes += file_size(file);
            files++;
            json_t *list = json_object_get(rows, e->name);
            if (!list)
                json_object_set_new(rows, e->name, list = json_array());
            json_array_append_new(list, json_pack("{s:s,s:s,s:i,s:O}", "page", page, "id",
                                                  av_public_id(id), "seat", (int)s, "game", g));
        }
        json_decref(g);
    }
    free(buf);
    fclose(f);
    long long total = 0;
    for (int i = 0; i < ne; i++) {
        char file[4400];
        snprintf(file, sizeof file, "%s/%s/index.html", pub, es[i].folder);
        FILE *out = fopen(file, "w");
        if (!out) {
            fprintf(stderr, "arena report: %s: %s\n", file, strerror(errno));
            rc = AR_EXIT_FAIL;
            break;
        }
        handout_index(out, &es[i], json_object_get(rows, es[i].name));
        if (fclose(out) != 0)
            rc = AR_EXIT_FAIL;
        es[i].bytes += file_size(file);
        files++;
        total += es[i].bytes;
    }
    json_decref(rows);
    long long logs = 0;
    if (rc == AR_EXIT_OK && with_logs && (logs = publish_logs(dir, pub)) < 0) {
        fprintf(stderr, "arena report: %s/logs: cannot copy the logs\n", pub);
        rc = AR_EXIT_FAIL;
    }
    total += logs;
    /* the index states the folder's size, itself included: written until the figure holds */
    av_handout *hs = ar_xcalloc((size_t)ne + 1, sizeof *hs);
    for (int i = 0; i < ne; i++)
        hs[i] = (av_handout){es[i].name, es[i].folder, es[i].pages, es[i].bytes};
    av_report_opts o = {.format = AV_FMT_HTML,
                        .max_games = 2000,
                        .log_dir = with_logs && logs > 0 ? "logs" : NULL,
                        .no_seed = 1,
                        .publish = 1,
                        .handouts = hs,
                        .nhandouts = ne};
    char *page = NULL;
    size_t len = 0;
    char err[4800];
    for (int pass = 0; rc == AR_EXIT_OK && pass < 4; pass++) {
        o.total_bytes = total + (long long)len;
        free(page);
        page = NULL;
        size_t was = len;
        FILE *m = open_memstream(&page, &len);
        if (!m || av_report(dir, &o, m, err, sizeof err) != 0) {
            if (m)
                fclose(m);
            fprintf(stderr, "arena report: %s\n", err);
            rc = AR_EXIT_FAIL;
            break;
        }
        fclose(m);
        if (len == was)
            break;
    }
    if (rc == AR_EXIT_OK) {
        char file[4200];
        snprintf(file, sizeof file, "%s/index.html", pub);
        FILE *out = fopen(file, "w");
        if (!out || fwrite(page, 1, len, out) != len || fclose(out) != 0) {
            fprintf(stderr, "arena report: %s: %s\n", file, strerror(errno));
            rc = AR_EXIT_FAIL;
        } else {
            total += (long long)len;
            files++;
            printf("published: %s/index.html: %lld files, %lld bytes (%.1f MB)%s\n", pub,
                   files + (logs > 0), total, (double)total / (1024 * 1024),
                   with_logs ? ", logs included" : "");
            printf("  index.html %zu bytes\n", len);
            for (int i = 0; i < ne; i++)
                printf("  %s/ %lld pages, %lld bytes (%s)\n", es[i].folder, es[i].pages,
                       es[i].bytes, es[i].name);
            if (logs > 0)
                printf("  logs/ %lld bytes\n", logs);
        }
    }
    free(page);
    free(hs);
    for (int i = 0; i < ne; i++)
        free(es[i].name);
    free(es);
    return rc;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

int ar_report_main(int argc, char **argv)
{
    const char *dir = NULL, *out = NULL, *fmt = NULL, *pub = NULL;
    long long replays = 300;
    int with_logs = 0, replays_set = 0;
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        int f;
        if ((f = ar_flag(argc, argv, &i, "--format", &v)) != 0) {
            if (f < 0)
                return AR_EXIT_USAGE;
            fmt = v;
        } else if ((f = ar_flag(argc, argv, &i, "-o", &v)) != 0) {
            if (f < 0)
                return AR_EXIT_USAGE;
            out = v;
        } else if ((f = ar_flag(argc, argv, &i, "--replays", &v)) != 0) {
            if (f < 0)
                return AR_EXIT_USAGE;
            if (strcmp(v, "all") == 0)
                replays = -1;
            else if (strcmp(v, "none") == 0)
                replays = 0;
            else if (ar_parse_long("--replays", v, 0, 1LL << 40, &replays) < 0)
                return AR_EXIT_USAGE;
            replays_set = 1;
        } else if ((f = ar_flag(argc, argv, &i, "--publish", &v)) != 0) {
            if (f < 0)
                return AR_EXIT_USAGE;
            pub = v;
        } else if (strcmp(argv[i], "--with-logs") == 0) {
            with_logs = 1;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "arena report: unknown argument '%s'\n", argv[i]);
            ar_report_usage(stderr);
            return AR_EXIT_USAGE;
        } else if (dir) {
            fprintf(stderr, "arena report: more than one DIR ('%s', '%s')\n", dir, argv[i]);
            return AR_EXIT_USAGE;
        } else {
            dir = argv[i];
        }
    }
    if (!dir) {
        fprintf(stderr, "arena report: missing DIR\n");
        ar_report_usage(stderr);
        return AR_EXIT_USAGE;
    }
    if (pub && (out || fmt)) {
        fprintf(stderr, "arena report: --publish writes its own folder: no -o or --format\n");
        return AR_EXIT_USAGE;
    }
    if (with_logs && !pub) {
        fprintf(stderr, "arena report: --with-logs goes with --publish DIR\n");
        return AR_EXIT_USAGE;
    }
    if (pub)
        return publish(dir, pub, with_logs, replays_set ? replays : -1);
    av_report_opts o = {.format = AV_FMT_TEXT, .max_games = 2000, .log_dir = "logs"};
    char rdir[4096];
    if (!fmt && out)
        fmt = ends_with(out, ".html")   ? "html"
              : ends_with(out, ".md")   ? "md"
              : ends_with(out, ".json") ? "json"
                                        : "text";
    if (!fmt || strcmp(fmt, "text") == 0)
        o.format = AV_FMT_TEXT;
    else if (strcmp(fmt, "md") == 0)
        o.format = AV_FMT_MD;
    else if (strcmp(fmt, "html") == 0)
        o.format = AV_FMT_HTML;
    else if (strcmp(fmt, "json") == 0)
        o.format = AV_FMT_JSON;
    else {
        fprintf(stderr, "arena report: --format: expected text, md, html or json, got '%s'\n", fmt);
        return AR_EXIT_USAGE;
    }
    char def[4096];
    if (o.format == AV_FMT_HTML && !out) {
        snprintf(def, sizeof def, "%s/report.html", dir);
        out = def;
    }
    if (o.format == AV_FMT_HTML && replays != 0) {
        /* the replay pages the report links, next to the report */
        char *pdir, *pstem;
        split_page(out, &pdir, &pstem);
        snprintf(rdir, sizeof rdir, "%s/replays", pdir);
        free(pdir);
        char back[4200];
        snprintf(back, sizeof back, "../%s.html", pstem);
        free(pstem);
        folder_pages(dir, rdir, EACH, replays, back, 1, 1);
        o.replays = "replays";
        o.replays_fs = rdir;
    }
    FILE *f = stdout;
    char tmp[4200];
    if (out) {
        snprintf(tmp, sizeof tmp, "%s.tmp", out);
        f = fopen(tmp, "w");
        if (!f) {
            fprintf(stderr, "arena report: %s: %s\n", tmp, strerror(errno));
            return AR_EXIT_FAIL;
        }
    }
    char err[4800];
    int rc = av_report(dir, &o, f, err, sizeof err);
    if (out) {
        if (fclose(f) != 0 && rc == 0) {
            snprintf(err, sizeof err, "%s: %s", tmp, strerror(errno));
            rc = -1;
        }
        if (rc == 0 && rename(tmp, out) != 0) {
            snprintf(err, sizeof err, "%s: %s", out, strerror(errno));
            rc = -1;
        }
        if (rc != 0)
            remove(tmp);
    }
    if (rc != 0) {
        fprintf(stderr, "arena report: %s\n", err);
        return AR_EXIT_FAIL;
    }
    if (out)
        printf("report: %s\n", out);
    return AR_EXIT_OK;
}
