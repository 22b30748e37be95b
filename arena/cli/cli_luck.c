/* cli_luck.c - `arena luck OUT`: the luck-adjusted scores of an existing tournament (or match)
 * folder, computed after the fact from its records (docs/luck.md). Writes OUT/luck.jsonl (one
 * line per game: the raw totals, the adjusted ones, the luck by event type) and prints the
 * ratings on raw and on adjusted scores, each with its 95% interval, fitted the same way
 * (tour/rank.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "cli.h"
#include "tour/luck.h"
#include "tour/rank.h"
#include "util/util.h"

void ar_luck_usage(FILE *out)
{
    fputs("usage: arena luck OUT [--v hand|rollout|const|noise] [--bootstrap N] [--quiet]\n"
          "  The luck-adjusted score of every game of the tournament or match folder OUT,\n"
          "  from its records (games.jsonl and records/): at every deal and every card drawn\n"
          "  from the stock, v(after) - E[v(after)] is taken off, with the arena's fixed\n"
          "  value estimate v (docs/luck.md). Writes OUT/luck.jsonl and prints the score\n"
          "  ratings on raw and on adjusted scores with their 95% intervals.\n"
          "  --v NAME       the value estimate: hand (default), rollout (gin: 32 playouts of\n"
          "                 the hand per card; rollout:N for N), const (no adjustment),\n"
          "                 noise (a useless one: the means must not move)\n"
          "  --bootstrap N  replicates of the intervals (default 1000)\n"
          "  --quiet        write luck.jsonl, print nothing\n",
          out);
}

typedef struct lgame {
    ar_rank_game raw, adj;
    double luck_type[AR_LUCK_TYPES][AR_RANK_MAX_SEATS];
} lgame;

static int fit(const ar_rank_game *g, long long n, int ne, int boot, ar_rank_result *r)
{
    char err[256];
    ar_rank_opts o = {.bootstrap = boot, .seed = 24, .prior_games = 1.0};
    if (ar_rank_fit(g, n, ne, &o, r, err, sizeof err) < 0) {
        fprintf(stderr, "arena luck: %s\n", err);
        return -1;
    }
    return 0;
}

int ar_luck_main(int argc, char **argv)
{
    const char *dir = NULL, *vname = "hand";
    int boot = 1000, quiet = 0;
    for (int i = 1; i < argc; i++) {
        const char *val = NULL;
        int r;
        if ((r = ar_flag(argc, argv, &i, "--v", &val)) != 0) {
            if (r < 0)
                return AR_EXIT_USAGE;
            vname = val;
        } else if ((r = ar_flag(argc, argv, &i, "--bootstrap", &val)) != 0) {
            if (r < 0)
                return AR_EXIT_USAGE;
            char *end;
            long x = strtol(val, &end, 10);
            if (*end || x < 0 || x > 100000) {
                fprintf(stderr, "arena luck: --bootstrap: expected 0 to 100000\n");
                return AR_EXIT_USAGE;
            }
            boot = (int)x;
        } else if (!strcmp(argv[i], "--quiet") || !strcmp(argv[i], "-q")) {
            quiet = 1;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "arena luck: unknown argument '%s'\n", argv[i]);
            ar_luck_usage(stderr);
            return AR_EXIT_USAGE;
        } else if (!dir) {
            dir = argv[i];
        } else {
            fprintf(stderr, "arena luck: one folder only\n");
            return AR_EXIT_USAGE;
        }
    }
    int v = ar_luck_v_parse(vname);
    if (!dir || v < 0) {
        fprintf(
            stderr,
            !dir ? "arena luck: give the tournament's folder\n"
                 : "arena luck: --v: expected hand, rollout, rollout:N (1-4096), const or noise\n");
        ar_luck_usage(stderr);
        return AR_EXIT_USAGE;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/games.jsonl", dir);
    FILE *gf = fopen(path, "r");
    if (!gf) {
        fprintf(stderr, "arena luck: %s: %s (a finished tournament or match folder has it)\n", path,
                strerror(errno));
        return AR_EXIT_FAIL;
    }
    long long n = 0, cap = 256;
    lgame *gs = ar_xcalloc((size_t)cap, sizeof *gs);
    char names[AR_RANK_MAX_ENTRANTS][64];
    int ne = 0, status = AR_EXIT_OK;
    char *line = NULL;
    size_t lcap = 0;
    snprintf(path, sizeof path, "%s/luck.jsonl", dir);
    FILE *out = fopen(path, "w");
    if (!out) {
        fprintf(stderr, "arena luck: %s: %s\n", path, strerror(errno));
        fclose(gf);
        free(gs);
        return AR_EXIT_FAIL;
    }
    double sec = 0;
    while (getline(&line, &lcap, gf) > 0) {
        json_error_t je;
        json_t *j = json_loads(line, 0, &je);
        const char *rec = j ? json_string_value(json_object_get(j, "record")) : NULL;
        json_t *seat = j ? json_object_get(j, "seating") : NULL;
        json_t *nm = j ? json_object_get(j, "names") : NULL;
        json_t *pl = j ? json_object_get(j, "placements") : NULL;
        if (!rec || !json_is_array(seat) || !json_is_array(pl)) {
            fprintf(stderr,
                    "arena luck: %s/games.jsonl line %lld: no record, seating or "
                    "placements\n",
                    dir, n + 1);
            json_decref(j);
            status = AR_EXIT_FAIL;
            break;
        }
        if (n == cap) {
            gs = realloc(gs, (size_t)(cap *= 2) * sizeof *gs);
            if (!gs)
                abort();
        }
        lgame *g = &gs[n];
        memset(g, 0, sizeof *g);
        char rp[4096];
        snprintf(rp, sizeof rp, "%s/%s", dir, rec);
        FILE *rf = fopen(rp, "r");
        ar_luck L;
        int32_t tot[OKR_MAX_PLAYERS];
        int completed = 0;
        char err[4400];
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        int rc = rf ? ar_luck_record(rf, rp, v, &L, tot, &completed, err, sizeof err) : -1;
        clock_gettime(CLOCK_MONOTONIC, &t1);
        sec += (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        if (!rf)
            snprintf(err, sizeof err, "%s: %s", rp, strerror(errno));
        if (rf)
            fclose(rf);
        int k = (int)json_array_size(seat);
        if (rc < 0 || k != L.players || k > AR_RANK_MAX_SEATS) {
            fprintf(stderr, "arena luck: %s\n", rc < 0 ? err : "seats do not match the record");
            json_decref(j);
            status = AR_EXIT_FAIL;
            break;
        }
        g->raw.set = json_integer_value(json_object_get(j, "set"));
        g->raw.k = k;
        g->raw.forfeited = !json_is_true(json_object_get(j, "completed"));
        json_t *fin = json_object_get(j, "final_total");
        json_t *adj = json_array(), *ld = json_array(), *lw = json_array();
        for (int s = 0; s < k; s++) {
            int en = (int)json_integer_value(json_array_get(seat, (size_t)s));
            if (en < 0 || en >= AR_RANK_MAX_ENTRANTS) {
                en = 0;
                status = AR_EXIT_FAIL;
            }
            g->raw.entrant[s] = en;
            if (en >= ne) {
                for (int q = ne; q <= en; q++)
                    snprintf(names[q], sizeof names[q], "entrant %d", q);
                ne = en + 1;
            }
            if (json_is_string(json_array_get(nm, (size_t)s)))
                snprintf(names[en], sizeof names[en], "%s",
                         json_string_value(json_array_get(nm, (size_t)s)));
            /* the totals the tournament counted (forfeits scored with their margin) */
            g->raw.score[s] = json_is_array(fin)
                                  ? (double)json_integer_value(json_array_get(fin, (size_t)s))
                                  : tot[s];
            g->raw.placement[s] = (uint8_t)json_integer_value(json_array_get(pl, (size_t)s));
            for (int t = 0; t < AR_LUCK_TYPES; t++)
                g->luck_type[t][s] = L.by_type[t][s];
            json_array_append_new(adj, json_real(g->raw.score[s] - L.luck[s]));
            json_array_append_new(ld, json_real(L.by_type[AR_LUCK_DEAL][s]));
            json_array_append_new(lw, json_real(L.by_type[AR_LUCK_DRAW][s]));
        }
        g->adj = g->raw;
        for (int s = 0; s < k; s++)
            g->adj.score[s] = g->raw.score[s] - L.luck[s];
        json_t *o = json_object();
        json_object_set(o, "game", json_object_get(j, "game"));
        json_object_set(o, "set", json_object_get(j, "set"));
        json_object_set(o, "seating", seat);
        json_object_set(o, "final_total", fin);
        json_object_set_new(o, "luck_adjusted", adj);
        json_object_set_new(o, "luck_deal", ld);
        json_object_set_new(o, "luck_draw", lw);
        json_object_set_new(o, "deals", json_integer(L.events[AR_LUCK_DEAL]));
        json_object_set_new(o, "draws", json_integer(L.events[AR_LUCK_DRAW]));
        json_object_set_new(o, "v", json_string(vname));
        char *txt = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(10));
        fprintf(out, "%s\n", txt);
        free(txt);
        json_decref(o);
        json_decref(j);
        n++;
    }
    free(line);
    fclose(gf);
    if (fclose(out) != 0)
        status = AR_EXIT_FAIL;
    if (status != AR_EXIT_OK || n == 0) {
        if (n == 0 && status == AR_EXIT_OK)
            fprintf(stderr, "arena luck: %s/games.jsonl holds no game\n", dir);
        free(gs);
        return AR_EXIT_FAIL;
    }
    if (!quiet) {
        ar_rank_game *raw = ar_xcalloc((size_t)n, sizeof *raw);
        ar_rank_game *adj = ar_xcalloc((size_t)n, sizeof *adj);
        for (long long i = 0; i < n; i++)
            raw[i] = gs[i].raw, adj[i] = gs[i].adj;
        ar_rank_result rr, ra;
        memset(&rr, 0, sizeof rr);
        memset(&ra, 0, sizeof ra);
        if (fit(raw, n, ne, boot, &rr) == 0 && fit(adj, n, ne, boot, &ra) == 0) {
            printf("luck (v = %s): %lld games, %.1f ms per game to compute\n", vname, n,
                   1e3 * sec / (double)n);
            printf("%-4s %-20s %26s %26s %7s\n", "rank", "entrant", "score (raw)", "luck-adjusted",
                   "width");
            for (int q = 0; q < ne; q++) {
                int i = rr.order[q];
                const ar_rank_entry *a = &rr.entry[i], *b = &ra.entry[i];
                char x[64], y[64], w[16] = "-";
                snprintf(x, sizeof x, "%+.1f [%+.1f, %+.1f]", a->score, a->score_lo, a->score_hi);
                snprintf(y, sizeof y, "%+.1f [%+.1f, %+.1f]", b->score, b->score_lo, b->score_hi);
                if (isfinite(a->score_hi - a->score_lo) && a->score_hi > a->score_lo)
                    snprintf(w, sizeof w, "%.2f",
                             (b->score_hi - b->score_lo) / (a->score_hi - a->score_lo));
                printf("%-4d %-20.20s %26s %26s %7s\n", q + 1, names[i], x, y, w);
            }
            printf("width: the adjusted interval's width over the raw one's (its square is the "
                   "share of the games that gives the raw width)\n");
        } else {
            status = AR_EXIT_FAIL;
        }
        ar_rank_free(&rr);
        ar_rank_free(&ra);
        free(raw);
        free(adj);
    }
    printf("%s%s/luck.jsonl\n", quiet ? "" : "per game: ", dir);
    free(gs);
    return status;
}
