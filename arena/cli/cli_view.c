/* cli_view.c - the command lines of the pages: `arena replay ... --html` and `arena report`.
 * The pages themselves are the view room's (arena/view); this file picks files and names. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "cli.h"
#include "view/view.h"

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
        "  Pages: docs/report.md. Exit: 0 written, 1 unreadable folder, 2 bad command line.\n");
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

int ar_report_main(int argc, char **argv)
{
    const char *dir = NULL, *out = NULL, *fmt = NULL;
    long long replays = 300;
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
