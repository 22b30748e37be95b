/* run.c - `arena league run DIR` (league.h): the loop that takes in new versions (each checked
 * first in one set against the built-in policies), picks the next whole duplicate set by
 * matchmaking, plays up to `jobs` sets at once through the tournament's set workers
 * (tour/tournament.h ar_tour_set_start), commits each finished set's games in one transaction,
 * holds back entrants whose recent games fail, and refits the ratings over every counted game,
 * writing results.json, standings.csv and games.jsonl as a tournament does
 * (ar_tour_results_write) and a snapshot of the ratings per round. */
#include "league.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "db.h"
#include "jail/spawn.h"
#include "match/match.h"
#include "slurm.h"
#include "tour/journal.h"
#include "tour/rank.h"
#include "tour/tourfile.h"
#include "tour/tournament.h"
#include "util/util.h"

enum {
    MIN_SETS = 3,      /* sets every entrant plays before matchmaking looks at the ratings */
    HOLD_GAMES_MIN = 2 /* games judged before an entrant can be held back */
};

/* The first SIGINT/SIGTERM: start no set, finish those in flight. The second: stop them now
 * (they are abandoned, and played afresh by the next run). */
static volatile sig_atomic_t g_stop, g_hard;

static void on_stop(int sig)
{
    if (!g_stop)
        g_stop = sig;
    else
        g_hard = 1;
}

/* A slot: one set (or check) being played. */
typedef struct slot {
    ar_tour_set_proc p;
    int used;
    int check;          /* a new version's check */
    long long check_of; /* its entrant id */
    long long test;     /* > 0: an author's test set (testgames.c), its id in tests */
    long long ids[8];   /* entrant ids in circular order */
    ar_set_plan plan;
} slot;

/* A counted game, kept for the refits. */
typedef struct cgame {
    char *payload;
    ar_tour_game g; /* entrant[] holds entrant ids */
} cgame;

typedef struct league {
    const char *dir;
    const ar_league_run_opts *o;
    sqlite3 *db;
    ar_tour t;
    ar_tour_run_opts ro, co, to; /* play sets into dir, checks into dir/checks, test sets
                                    into dir/tests */
    int last_test;               /* the last set started was a test set */
    int k, jobs;
    lg_entrant *e;
    int ne;
    long long *sets_of; /* [ne]: counted + in flight, per entrant (index into e) */
    /* the outputs' copy of every counted game, entrants numbered as the results' table
     * (remap[q]), and that numbering by entrant id (remap_by_id[nremap_ids]): kept from round
     * to round, so a refit converts only the new games unless the table changed */
    char **remap;
    long long nremapped;
    int *remap_by_id;
    long long nremap_ids;
    double refit_ms, last_refit; /* the last refit's cost and end (ar_now_ms) */
    long long *counted_by_id;    /* [ncounted]: counted sets per entrant id */
    long long ncounted;
    double *rank_lo, *rank_hi; /* [ne]: last fit's rank interval (NAN: none) */
    int *rank;                 /* [ne]: last fit's rank (0: none) */
    slot *slots;
    cgame *games;
    long long ngames, capgames;
    long long counted_sets;
    long long round; /* refits done */
    long long since_refit;
    int fatal;
    int failed_in_row; /* sets whose worker ended without its games, one after another */
    uint64_t rng;
    int slurm;  /* runner = slurm: sets as Slurm jobs (slurm.h) */
    lg_slurm S; /* its folder, program and options */
} league;

static uint64_t next_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int idx_of(const league *L, long long id)
{
    for (int i = 0; i < L->ne; i++)
        if (L->e[i].id == id)
            return i;
    return -1;
}

/* ---- Entrants as the match wants them ---------------------------------------------------- */

static void to_entrant(const lg_entrant *x, ar_entrant *e, const ar_tour *t)
{
    memset(e, 0, sizeof *e);
    e->name = x->label;
    e->command = x->command;
    e->profile = x->profile;
    e->memory_mb = x->memory_mb ? x->memory_mb : t->memory_mb;
    e->startup_ms = x->startup_ms;
    e->own = x->files;
    e->cwd = x->cwd;
    if (x->builtin) {
        e->builtin = 1;
        e->policy = x->policy;
        return;
    }
    e->argv = x->argv;
    e->path = x->path;
}

static void game_id(char *buf, size_t cap, const ar_set_plan *p, int rotation, void *ud)
{
    const league *L = ud;
    lg_game_id(buf, cap, L->t.seed, 0, p->set, rotation);
}

static void check_id(char *buf, size_t cap, const ar_set_plan *p, int rotation, void *ud)
{
    const league *L = ud;
    lg_game_id(buf, cap, L->t.seed, 1, p->set, rotation);
}

/* a test set's games: p->set is the test's id */
static void test_id(char *buf, size_t cap, const ar_set_plan *p, int rotation, void *ud)
{
    const league *L = ud;
    snprintf(buf, cap, "L%" PRIu64 "-t%lld-r%d", L->t.seed, p->set, rotation);
}

/* A test set's deal: never a rated set's (those are the sets' ids, far below), so that an
 * author's test games show nothing of the deals the rated sets will play */
static long long test_deal(long long test)
{
    return (1LL << 40) + test;
}

/* ---- Starting a set ------------------------------------------------------------------------ */

/* Has it passed its check (and may play, or will again)? Only these entrants' files are hidden
 * from the others: a version being checked, or refused, must not stop a set. */
static int accepted(const lg_entrant *e)
{
    return strcmp(e->status, "active") == 0 || strcmp(e->status, "held") == 0;
}

/* Would the jail show a bot what it must not see once entrant i joins (its program inside
 * another's declared folder, or its folder holding another's program)? The tournament's
 * up-front check (ar_match_view for every bot), over the accepted entrants, those being
 * checked (checks start in the order entrants were added: the earlier one wins) and i. 0, or
 * -1 with the jail's message in msg. */
static int views_clash(league *L, int i, char *msg, size_t cap)
{
    ar_entrant *bots = ar_xcalloc((size_t)L->ne + 1, sizeof *bots);
    int nb = 0, me = -1;
    for (int q = 0; q < L->ne; q++)
        if (q == i || accepted(&L->e[q]) || strcmp(L->e[q].status, "checking") == 0) {
            if (q == i)
                me = nb;
            to_entrant(&L->e[q], &bots[nb++], &L->t);
        }
    ar_match_config cfg = {.bots = bots, .nbots = nb, .sandbox = L->ro.sandbox, .out_dir = L->dir};
    char ***own = ar_xcalloc((size_t)nb, sizeof *own);
    int cap_h = 1;
    for (int b = 0; b < nb; b++) {
        own[b] = ar_match_own(&cfg, b);
        for (int f = 0; own[b][f]; f++)
            cap_h++;
    }
    ar_hidden *hide = ar_xcalloc((size_t)cap_h + 1, sizeof *hide);
    int nh = 0;
    hide[nh++] = (ar_hidden){L->dir, "the league's folder (its database names the seed)", NULL};
    for (int b = 0; b < nb; b++)
        for (int f = 0; own[b][f]; f++)
            hide[nh++] = (ar_hidden){own[b][f], "another entrant's files", bots[b].name};
    cfg.hide = hide;
    cfg.nhide = nh;
    int rc = 0;
    for (int b = 0; b < nb && rc == 0; b++) {
        ar_jail_clash c;
        memset(&c, 0, sizeof c);
        char **v = ar_match_view(&cfg, b, msg, cap, &c);
        if (v)
            ar_spawn_argv_free(v);
        else
            rc = -1;
    }
    (void)me;
    for (int b = 0; b < nb; b++)
        ar_spawn_argv_free(own[b]);
    free(own);
    free(hide);
    free(bots);
    return rc;
}

static int launch(league *L, slot *s, long long set, long long deal, const long long *ids,
                  ar_entrant *bots, const ar_tour_run_opts *o,
                  void (*idf)(char *, size_t, const ar_set_plan *, int, void *));

/* Insert the set's row (state playing) and start its worker. ids[k]: entrants in circular
 * order (0 for a built-in of a check). */
static int start_set(league *L, slot *s, int check, long long check_of, const long long *ids,
                     ar_entrant *bots)
{
    int k = L->k;
    json_t *a = json_array();
    for (int j = 0; j < k; j++)
        json_array_append_new(a, ids[j] ? json_integer(ids[j]) : json_string(bots[j].name));
    char *seats = json_dumps(a, JSON_COMPACT);
    json_decref(a);
    sqlite3_stmt *st = lg_prep(L->db, "INSERT INTO sets(kind, deal, seats, state, round, "
                                      "started_at) VALUES (?1, 0, ?2, 'playing', ?3, ?4)");
    if (!st) {
        free(seats);
        return -1;
    }
    sqlite3_bind_text(st, 1, check ? "check" : "play", -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, seats, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, L->round + 1);
    sqlite3_bind_double(st, 4, lg_now());
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    free(seats);
    if (rc != SQLITE_DONE) {
        fprintf(stderr, "arena league: a new set: %s\n", lg_errmsg(L->db));
        return -1;
    }
    long long set = sqlite3_last_insert_rowid(L->db);
    /* deal = the set's number: every set a fresh deal of the league's seed */
    sqlite3_stmt *u = lg_prep(L->db, "UPDATE sets SET deal = ?1 WHERE id = ?1");
    if (u) {
        sqlite3_bind_int64(u, 1, set);
        sqlite3_step(u);
        sqlite3_finalize(u);
    }
    memset(s, 0, sizeof *s);
    s->check = check;
    s->check_of = check_of;
    return launch(L, s, set, set, ids, bots, check ? &L->co : &L->ro, check ? check_id : game_id);
}

/* Start the worker of set (its deal: deal) in slot s. */
static int launch(league *L, slot *s, long long set, long long deal, const long long *ids,
                  ar_entrant *bots, const ar_tour_run_opts *o,
                  void (*idf)(char *, size_t, const ar_set_plan *, int, void *))
{
    int k = L->k, rc;
    memcpy(s->ids, ids, (size_t)k * sizeof *ids);
    s->plan.set = set;
    s->plan.table = 0;
    s->plan.deal = deal;
    s->plan.deal_seed = ar_match_deal_seed(L->t.seed, deal);
    for (int j = 0; j < k; j++)
        s->plan.order[j] = j;
    int id32[8];
    for (int j = 0; j < k; j++)
        id32[j] = (int)ids[j];
    /* what no bot may see: every other entrant's own files (the match adds the folder) */
    ar_hidden *hide = ar_xcalloc((size_t)L->ne * 8 + 2, sizeof *hide);
    int nh = 0;
    /* the league's folder (its database, its seed): a check's output folder is only checks/;
     * absolute for a Slurm job, which runs in its own folder on another machine */
    hide[nh++] = (ar_hidden){L->slurm ? L->S.dir : L->dir,
                             "the league's folder (its database names the seed)", NULL};
    for (int i = 0; i < L->ne; i++)
        for (int f = 0; accepted(&L->e[i]) && L->e[i].files && L->e[i].files[f] && nh < L->ne * 8;
             f++)
            hide[nh++] = (ar_hidden){L->e[i].files[f], "another entrant's files", L->e[i].label};
    ar_tour_set_job job = {
        .t = &L->t,
        .o = o,
        .e = bots,
        .id = id32,
        .plan = &s->plan,
        .hide = hide,
        .nhide = nh,
        .game_id = idf,
        .ud = L,
    };
    /* on the cluster, the job plays the set as this worker would, and the proxy that waits for
     * it sends its games on the same pipe (slurm.h) */
    /* a test set (unrated, its ids apart from the sets') plays here whatever the runner */
    rc = L->slurm && !s->test ? lg_slurm_start(&L->S, &job, s->check, 0, &s->p)
                              : ar_tour_set_start(&job, &s->p);
    free(hide);
    if (rc < 0)
        return -1;
    s->used = 1;
    return 0;
}

/* Seats from..k-1 of a check's or a test's table: the built-ins, random and greedy by turns,
 * named PREFIX-POLICYj in names. */
static void builtin_seats(ar_entrant *bots, char names[][32], int from, int k, const char *prefix)
{
    for (int j = from; j < k; j++) {
        memset(&bots[j], 0, sizeof bots[j]);
        bots[j].builtin = 1;
        bots[j].policy = j % 2 ? AR_POLICY_RANDOM : AR_POLICY_GREEDY;
        snprintf(names[j], 32, "%s-%s%d", prefix, ar_policy_name(bots[j].policy), j);
        bots[j].name = names[j];
        bots[j].command = j % 2 ? "@random" : "@greedy";
    }
}

/* A new version's check: one set against the built-ins, every seat of the table. */
static int start_check(league *L, slot *s, int i)
{
    int k = L->k;
    ar_entrant bots[8];
    long long ids[8] = {0};
    static char names[8][32];
    to_entrant(&L->e[i], &bots[0], &L->t);
    ids[0] = L->e[i].id;
    builtin_seats(bots, names, 1, k, "check");
    char msg[2 * PATH_MAX + 600];
    if (views_clash(L, i, msg, sizeof msg) < 0) {
        char why[sizeof msg + 64];
        snprintf(why, sizeof why, "refused before its check: %s", msg);
        if (!L->o->quiet)
            fprintf(stderr, "arena league: %s %s\n", L->e[i].label, why);
        snprintf(L->e[i].status, sizeof L->e[i].status, "refused");
        return lg_set_status(L->db, L->e[i].id, "refused", why, 0) < 0 ? -1 : 0;
    }
    if (lg_set_status(L->db, L->e[i].id, "checking", NULL, 0) < 0)
        return -1;
    snprintf(L->e[i].status, sizeof L->e[i].status, "checking");
    if (!L->o->quiet)
        fprintf(stderr, "arena league: checking %s (%s)\n", L->e[i].label, L->e[i].command);
    return start_set(L, s, 1, L->e[i].id, ids, bots);
}

/* ---- Test sets (testgames.c) ------------------------------------------------------------- */

static int live(const lg_entrant *e);
static int seat_erred(const ar_tour_game *g, int s);

static void test_state(league *L, long long test, const char *state, const char *reason)
{
    sqlite3_stmt *u = lg_prep(L->db, "UPDATE tests SET state = ?2, reason = ?3, finished_at = "
                                     "?4 WHERE id = ?1");
    if (u) {
        sqlite3_bind_int64(u, 1, test);
        sqlite3_bind_text(u, 2, state, -1, SQLITE_STATIC);
        if (reason)
            sqlite3_bind_text(u, 3, reason, -1, SQLITE_STATIC);
        if (strcmp(state, "playing") != 0)
            sqlite3_bind_double(u, 4, lg_now());
        sqlite3_step(u);
        sqlite3_finalize(u);
    }
}

/* The live version of NAME, or -1 */
static int live_version(const league *L, const char *name)
{
    int best = -1;
    for (int i = 0; i < L->ne; i++)
        if (strcmp(L->e[i].name, name) == 0 && live(&L->e[i]) &&
            (best < 0 || L->e[i].version > L->e[best].version))
            best = i;
    return best;
}

/* The oldest test asked for, in slot s: the author's bot in seat 0 of the circular order, the
 * entrant chosen in seat 1, the built-ins in the others (a table of more than two). 1 started,
 * 0 none asked (or the one asked cannot be played: it fails, saying why), -1 fatal. */
static int start_test(league *L, slot *s)
{
    sqlite3_stmt *st = lg_prep(L->db, "SELECT id, entrant, opponent FROM tests WHERE state = "
                                      "'asked' ORDER BY id LIMIT 1");
    if (!st)
        return -1;
    long long test = 0;
    char mine[64] = "", opp[64] = "";
    if (sqlite3_step(st) == SQLITE_ROW) {
        test = sqlite3_column_int64(st, 0);
        snprintf(mine, sizeof mine, "%s", (const char *)sqlite3_column_text(st, 1));
        snprintf(opp, sizeof opp, "%s", (const char *)sqlite3_column_text(st, 2));
    }
    sqlite3_finalize(st);
    if (!test)
        return 0;
    int a = live_version(L, mine), b = live_version(L, opp);
    if (a < 0 || b < 0) {
        char why[200];
        snprintf(why, sizeof why, "not played: %s was not playing when its turn came",
                 a < 0 ? mine : opp);
        test_state(L, test, "failed", why);
        return 0;
    }
    int k = L->k;
    ar_entrant bots[8];
    long long ids[8] = {0};
    static char names[8][32];
    to_entrant(&L->e[a], &bots[0], &L->t);
    to_entrant(&L->e[b], &bots[1], &L->t);
    ids[0] = L->e[a].id;
    ids[1] = L->e[b].id;
    builtin_seats(bots, names, 2, k, "test");
    test_state(L, test, "playing", NULL);
    memset(s, 0, sizeof *s);
    s->test = test;
    if (launch(L, s, test, test_deal(test), ids, bots, &L->to, test_id) < 0) {
        test_state(L, test, "failed", "not played: the arena could not start it");
        return 0;
    }
    if (!L->o->quiet)
        fprintf(stderr, "arena league: test set %lld: %s against %s (unrated)\n", test,
                L->e[a].label, L->e[b].label);
    return 1;
}

/* A test set's games into test_games, with the author's bot's seat in each; never into the
 * rated games. */
static void finish_test(league *L, slot *s, int whole)
{
    if (!whole) {
        /* cut by a stop: left playing, asked again by the next run (recover) */
        if (!g_hard)
            test_state(L, s->test, "failed",
                       "not played: its set ended without its games (the run's messages say "
                       "why)");
        return;
    }
    int k = L->k, ok = lg_exec(L->db, "BEGIN IMMEDIATE", "a test set") == 0;
    sqlite3_stmt *gi = ok ? lg_prep(L->db, "INSERT INTO test_games(test, rotation, game_id, "
                                           "seat, total, place, error, payload) VALUES (?1, "
                                           "?2, ?3, ?4, ?5, ?6, ?7, ?8)")
                          : NULL;
    ok = gi != NULL;
    for (int r = 0; ok && r < k; r++) {
        ar_tour_game g;
        char why[256];
        if (ar_tour_game_parse(s->p.games[r], k, &g, why, sizeof why) < 0) {
            fprintf(stderr, "arena league: test set %lld: a bad game: %s\n", s->test, why);
            ok = 0;
            break;
        }
        int seat = 0;
        for (int q = 0; q < k; q++)
            if (g.entrant[q] == s->ids[0])
                seat = q;
        sqlite3_reset(gi);
        sqlite3_bind_int64(gi, 1, s->test);
        sqlite3_bind_int(gi, 2, g.rotation);
        sqlite3_bind_text(gi, 3, g.game_id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(gi, 4, seat);
        sqlite3_bind_int64(gi, 5, (sqlite3_int64)g.total[seat]);
        sqlite3_bind_int(gi, 6, g.place[seat]);
        sqlite3_bind_int(gi, 7, seat_erred(&g, seat));
        sqlite3_bind_text(gi, 8, s->p.games[r], -1, SQLITE_STATIC);
        ok = sqlite3_step(gi) == SQLITE_DONE;
    }
    sqlite3_finalize(gi);
    if (ok) {
        test_state(L, s->test, "played", NULL);
        ok = lg_exec(L->db, "COMMIT", "a test set") == 0;
    }
    if (!ok) {
        lg_exec(L->db, "ROLLBACK", "a test set");
        test_state(L, s->test, "failed", "not kept: league.db could not store its games");
    }
}

/* ---- Matchmaking --------------------------------------------------------------------------- */

static int live(const lg_entrant *e)
{
    return strcmp(e->status, "active") == 0;
}

static int overlap(const league *L, int a, int b)
{
    if (!(L->rank[a] && L->rank[b]))
        return 0;
    return !(L->rank_hi[a] < L->rank_lo[b] || L->rank_hi[b] < L->rank_lo[a]);
}

/* Pick the next table: k entrant indices in *pick (circular order shuffled). 0 if none. */
static int matchmake(league *L, int *pick)
{
    int k = L->k, n = 0;
    int *c = ar_xcalloc((size_t)L->ne + 1, sizeof *c);
    for (int i = 0; i < L->ne; i++)
        if (live(&L->e[i]))
            c[n++] = i;
    if (n < k) {
        free(c);
        return 0;
    }
    /* the first seat: the fewest sets, a newer version first */
    int first = -1;
    long long minsets = LLONG_MAX;
    for (int q = 0; q < n; q++) {
        int i = c[q];
        if (L->sets_of[i] < minsets || (L->sets_of[i] == minsets && L->e[i].id > L->e[first].id)) {
            minsets = L->sets_of[i];
            first = i;
        }
    }
    long long maxsets = 0;
    for (int q = 0; q < n; q++)
        if (L->sets_of[c[q]] > maxsets)
            maxsets = L->sets_of[c[q]];
    /* the settled phase, unless it has left somebody far behind (a clear leader whose
     * interval overlaps nobody's would never play again) */
    int settled_mode = minsets >= MIN_SETS && 3 * minsets >= maxsets;
    if (settled_mode) {
        /* everybody has its sets: the neighbours whose rank intervals overlap, the pair with
         * the fewest sets between them first */
        int best = -1;
        long long bestsets = LLONG_MAX;
        for (int q = 0; q < n; q++)
            for (int r = 0; r < n; r++) {
                int a = c[q], b = c[r];
                if (a == b || !overlap(L, a, b) || abs(L->rank[a] - L->rank[b]) != 1)
                    continue;
                long long s = L->sets_of[a] + L->sets_of[b];
                if (s < bestsets) {
                    bestsets = s;
                    best = L->sets_of[a] <= L->sets_of[b] ? a : b;
                }
            }
        if (best >= 0)
            first = best;
    }
    pick[0] = first;
    int np = 1;
    while (np < k) {
        int bi = -1;
        double bscore = 1e300;
        for (int q = 0; q < n; q++) {
            int i = c[q], taken = 0;
            for (int p = 0; p < np; p++)
                taken |= pick[p] == i;
            if (taken)
                continue;
            /* fewest sets; in the settled phase, an overlapping neighbour of the first
             * counts as many sets fewer; a seeded jitter breaks ties */
            double sc = (double)L->sets_of[i];
            if (settled_mode && overlap(L, first, i))
                sc -= 1000 - abs(L->rank[first] - L->rank[i]);
            sc += (double)(next_rand(&L->rng) % 1000) / 2000.0;
            if (sc < bscore) {
                bscore = sc;
                bi = i;
            }
        }
        pick[np++] = bi;
    }
    free(c);
    /* the circular order: shuffled */
    for (int j = k - 1; j > 0; j--) {
        int r = (int)(next_rand(&L->rng) % (uint64_t)(j + 1));
        int tmp = pick[j];
        pick[j] = pick[r];
        pick[r] = tmp;
    }
    return 1;
}

static int start_play(league *L, slot *s)
{
    int pick[8];
    if (!matchmake(L, pick))
        return 0;
    ar_entrant bots[8];
    long long ids[8];
    for (int j = 0; j < L->k; j++) {
        to_entrant(&L->e[pick[j]], &bots[j], &L->t);
        ids[j] = L->e[pick[j]].id;
        L->sets_of[pick[j]]++;
    }
    if (start_set(L, s, 0, 0, ids, bots) < 0)
        return -1;
    if (!L->o->quiet) {
        fprintf(stderr, "arena league: set %lld:", s->plan.set);
        for (int j = 0; j < L->k; j++)
            fprintf(stderr, " %s", L->e[pick[j]].label);
        fprintf(stderr, "\n");
    }
    return 1;
}

/* ---- Counting sets ------------------------------------------------------------------------- */

static void keep_game(league *L, const char *payload)
{
    if (L->ngames == L->capgames) {
        L->capgames = L->capgames ? 2 * L->capgames : 256;
        L->games = ar_xrealloc(L->games, (size_t)L->capgames * sizeof *L->games);
    }
    cgame *c = &L->games[L->ngames];
    char why[256];
    if (ar_tour_game_parse(payload, L->k, &c->g, why, sizeof why) < 0 ||
        ar_tour_game_hands(payload, c->g.index, L->k, &c->g, why, sizeof why) < 0) {
        fprintf(stderr, "arena league: a counted game: %s\n", why);
        return;
    }
    c->payload = ar_xstrdup(payload);
    L->ngames++;
}

static void count_set(league *L, long long id)
{
    if (id < 0 || id > 100000000)
        return;
    if (id >= L->ncounted) {
        long long n = 2 * id + 16;
        L->counted_by_id = ar_xrealloc(L->counted_by_id, (size_t)n * sizeof *L->counted_by_id);
        memset(L->counted_by_id + L->ncounted, 0,
               (size_t)(n - L->ncounted) * sizeof *L->counted_by_id);
        L->ncounted = n;
    }
    L->counted_by_id[id]++;
}

static int seat_erred(const ar_tour_game *g, int s)
{
    for (int v = 0; v < AR_TOUR_NVERDICTS; v++)
        if (g->verdicts[s][v])
            return 1;
    return g->other_verdicts[s] > 0 || g->forfeit[s];
}

/* All of a set's games in one transaction, then the set counts. */
static int commit_set(league *L, slot *s)
{
    int k = L->k;
    ar_tour_game g[8];
    char why[256];
    for (int r = 0; r < k; r++)
        if (ar_tour_game_parse(s->p.games[r], k, &g[r], why, sizeof why) < 0) {
            fprintf(stderr, "arena league: set %lld: a bad game: %s\n", s->plan.set, why);
            return -1;
        }
    if (lg_exec(L->db, "BEGIN IMMEDIATE", "counting a set") < 0)
        return -1;
    sqlite3_stmt *gi = lg_prep(L->db, "INSERT INTO games(id, set_id, rotation, game_id, payload) "
                                      "VALUES (?1, ?2, ?3, ?4, ?5)");
    sqlite3_stmt *si = lg_prep(L->db, "INSERT INTO game_seats(game, seat, entrant, total, place, "
                                      "error) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    sqlite3_stmt *su = lg_prep(L->db, "UPDATE sets SET state = 'counted', finished_at = ?2 WHERE "
                                      "id = ?1 AND state = 'playing'");
    int ok = gi && si && su;
    for (int r = 0; ok && r < k; r++) {
        sqlite3_reset(gi);
        sqlite3_bind_int64(gi, 1, g[r].index);
        sqlite3_bind_int64(gi, 2, s->plan.set);
        sqlite3_bind_int(gi, 3, g[r].rotation);
        sqlite3_bind_text(gi, 4, g[r].game_id, -1, SQLITE_STATIC);
        sqlite3_bind_text(gi, 5, s->p.games[r], -1, SQLITE_STATIC);
        ok = sqlite3_step(gi) == SQLITE_DONE;
        for (int q = 0; ok && q < k; q++) {
            sqlite3_reset(si);
            sqlite3_bind_int64(si, 1, g[r].index);
            sqlite3_bind_int(si, 2, q);
            sqlite3_bind_int64(si, 3, g[r].entrant[q]);
            sqlite3_bind_int64(si, 4, (sqlite3_int64)g[r].total[q]);
            sqlite3_bind_int(si, 5, g[r].place[q]);
            sqlite3_bind_int(si, 6, seat_erred(&g[r], q));
            ok = sqlite3_step(si) == SQLITE_DONE;
        }
    }
    if (ok) {
        sqlite3_bind_int64(su, 1, s->plan.set);
        sqlite3_bind_double(su, 2, lg_now());
        ok = sqlite3_step(su) == SQLITE_DONE && sqlite3_changes(L->db) == 1;
    }
    if (!ok)
        fprintf(stderr, "arena league: counting set %lld: %s\n", s->plan.set, lg_errmsg(L->db));
    sqlite3_finalize(gi);
    sqlite3_finalize(si);
    sqlite3_finalize(su);
    if (!ok || lg_exec(L->db, "COMMIT", "counting a set") < 0) {
        lg_exec(L->db, "ROLLBACK", "counting a set");
        return -1;
    }
    for (int r = 0; r < k; r++)
        keep_game(L, s->p.games[r]);
    for (int j = 0; j < k; j++)
        count_set(L, s->ids[j]);
    L->counted_sets++;
    L->since_refit++;
    return 0;
}

static void abandon_set(league *L, long long set)
{
    sqlite3_stmt *st = lg_prep(L->db, "UPDATE sets SET state = 'abandoned', finished_at = ?2 "
                                      "WHERE id = ?1 AND state = 'playing'");
    if (st) {
        sqlite3_bind_int64(st, 1, set);
        sqlite3_bind_double(st, 2, lg_now());
        sqlite3_step(st);
        sqlite3_finalize(st);
    }
}

/* An entrant whose recent games end in errors is held back for a while, and says why. */
static void maybe_hold(league *L, long long id)
{
    int i = idx_of(L, id);
    if (i < 0 || !live(&L->e[i]))
        return;
    sqlite3_stmt *st = lg_prep(L->db, "SELECT error FROM game_seats WHERE entrant = ?1 ORDER BY "
                                      "game DESC LIMIT ?2");
    if (!st)
        return;
    int want = 2 * L->k;
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_int(st, 2, want);
    int n = 0, bad = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        n++;
        bad += sqlite3_column_int(st, 0);
    }
    sqlite3_finalize(st);
    if (n < HOLD_GAMES_MIN || n < want || 2 * bad <= n)
        return;
    char why[200];
    double until = lg_now() + L->o->hold_s;
    snprintf(why, sizeof why,
             "held back for %.0f s: errors or time-outs in %d of its last %d games (read its "
             "verdicts in results.json)",
             L->o->hold_s, bad, n);
    if (lg_set_status(L->db, id, "held", why, until) == 0 && !L->o->quiet)
        fprintf(stderr, "arena league: %s %s\n", L->e[i].label, why);
}

/* A check's verdicts: any verdict of the new version's seats refuses it. */
static void judge_check(league *L, slot *s, int whole)
{
    int i = idx_of(L, s->check_of);
    if (i < 0)
        return;
    if (!whole && g_hard) {
        lg_set_status(L->db, s->check_of, "new", NULL, 0); /* we cut it: checked again */
        return;
    }
    if (!whole) {
        /* the arena could not play it (the jail refused to start it, most often): checking
         * it again would fail again, and forever */
        const char *why = "refused: its check ended without its games: the arena could not "
                          "play it (most often its files overlap another entrant's program or "
                          "files; the run's messages say which)";
        lg_set_status(L->db, s->check_of, "refused", why, 0);
        if (!L->o->quiet)
            fprintf(stderr, "arena league: %s %s\n", L->e[i].label, why);
        return;
    }
    char reason[1200] = "";
    for (int r = 0; r < L->k && !reason[0]; r++) {
        json_t *j = json_loads(s->p.games[r], 0, NULL);
        const json_t *vs = json_object_get(j, "verdicts"), *v;
        size_t vi;
        json_array_foreach(vs, vi, v)
        {
            if (json_integer_value(json_object_get(v, "entrant")) != s->check_of)
                continue;
            const char *log = json_string_value(json_object_get(v, "log"));
            snprintf(reason, sizeof reason, "refused by its check: %s: %s (game %s, seat %lld%s%s)",
                     json_string_value(json_object_get(v, "verdict")),
                     json_string_value(json_object_get(v, "detail")),
                     json_string_value(json_object_get(j, "game_id")),
                     (long long)json_integer_value(json_object_get(v, "seat")),
                     log ? "; log: checks/" : "", log ? log : "");
            break;
        }
        json_decref(j);
    }
    if (reason[0]) {
        lg_set_status(L->db, s->check_of, "refused", reason, 0);
        if (!L->o->quiet)
            fprintf(stderr, "arena league: %s %s\n", L->e[i].label, reason);
        return;
    }
    /* accepted: the version before it leaves the live table */
    if (lg_exec(L->db, "BEGIN IMMEDIATE", "accepting a version") < 0)
        return;
    char note[160];
    snprintf(note, sizeof note, "replaced by %s", L->e[i].label);
    int ok = lg_set_status(L->db, s->check_of, "active", NULL, 0) == 0;
    for (int q = 0; ok && q < L->ne; q++)
        if (strcmp(L->e[q].name, L->e[i].name) == 0 && L->e[q].version < L->e[i].version &&
            (live(&L->e[q]) || strcmp(L->e[q].status, "held") == 0))
            ok = lg_set_status(L->db, L->e[q].id, "retired", note, 0) == 0;
    if (!ok || lg_exec(L->db, "COMMIT", "accepting a version") < 0) {
        lg_exec(L->db, "ROLLBACK", "accepting a version");
        return;
    }
    if (!L->o->quiet)
        fprintf(stderr, "arena league: %s passed its check and plays\n", L->e[i].label);
}

/* ---- Refit and outputs --------------------------------------------------------------------- */

static int fill_text(FILE *f, void *ud)
{
    const char *t = ud;
    size_t n = strlen(t);
    return fwrite(t, 1, n, f) == n && fputc('\n', f) != EOF ? 0 : -EIO;
}

static int refit(league *L)
{
    double t0 = ar_now_ms();
    /* the table of the fit: every version that is live or has counted games */
    long long *has = ar_xcalloc((size_t)L->ne + 1, sizeof *has);
    for (int i = 0; i < L->ne; i++)
        has[i] = L->e[i].id < L->ncounted ? L->counted_by_id[L->e[i].id] : 0;
    int *dense = ar_xcalloc((size_t)L->ne + 1, sizeof *dense);
    const char **names = ar_xcalloc((size_t)L->ne + 1, sizeof *names);
    int *back = ar_xcalloc((size_t)L->ne + 1, sizeof *back);
    int n = 0;
    for (int i = 0; i < L->ne; i++) {
        dense[i] = -1;
        if (has[i] || live(&L->e[i]) || strcmp(L->e[i].status, "held") == 0) {
            dense[i] = n;
            back[n] = i;
            names[n++] = L->e[i].label;
        }
    }
    int rc = -1;
    if (n < 1 || n > AR_RANK_MAX_ENTRANTS)
        goto out;
    /* the configuration, as a tournament's results.json carries it */
    json_t *cfg = json_object();
    json_object_set_new(cfg, "name", json_string(L->t.name));
    json_object_set_new(cfg, "rules", json_string(L->t.rules.preset));
    json_object_set_new(cfg, "rules_text", json_string(L->t.rules_text ? L->t.rules_text : ""));
    json_object_set_new(cfg, "seats", json_integer(L->k));
    json_object_set_new(cfg, "format", json_string("league"));
    json_object_set_new(cfg, "seed", json_integer((json_int_t)L->t.seed));
    json_object_set_new(cfg, "bootstrap", json_integer(L->t.bootstrap));
    if (L->t.hands)
        json_object_set_new(cfg, "hands", json_integer(L->t.hands));
    json_t *es = json_array();
    for (int d = 0; d < n; d++) {
        const lg_entrant *x = &L->e[back[d]];
        json_t *j = json_object();
        json_object_set_new(j, "name", json_string(x->label));
        json_object_set_new(j, "command", json_string(x->command));
        json_object_set_new(j, "id", json_integer(x->id));
        json_object_set_new(j, "version", json_integer(x->version));
        json_object_set_new(j, "status", json_string(x->status));
        json_array_append_new(es, j);
    }
    json_object_set_new(cfg, "entrants", es);
    char *ctext = json_dumps(cfg, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENSURE_ASCII);
    char hash[17];
    snprintf(hash, sizeof hash, "%016" PRIx64, ar_fnv1a64(ctext, strlen(ctext)));
    free(ctext);

    /* the games with their entrants numbered as the table is: the numbering by id, and
     * whether it is the last refit's (then only the new games are converted) */
    long long maxid = 0;
    for (int i = 0; i < L->ne; i++)
        if (L->e[i].id > maxid)
            maxid = L->e[i].id;
    int *by_id = ar_xmalloc((size_t)(maxid + 1) * sizeof *by_id);
    for (long long x = 0; x <= maxid; x++)
        by_id[x] = -1;
    for (int i = 0; i < L->ne; i++)
        by_id[L->e[i].id] = dense[i];
    int same = L->remap_by_id != NULL;
    for (long long x = 0; same && x <= maxid; x++)
        same = by_id[x] == (x < L->nremap_ids ? L->remap_by_id[x] : -1);
    if (!same) {
        for (long long q = 0; q < L->nremapped; q++)
            free(L->remap[q]);
        L->nremapped = 0;
        free(L->remap_by_id);
        L->remap_by_id = by_id;
        L->nremap_ids = maxid + 1;
    } else
        free(by_id);
    by_id = L->remap_by_id;
    L->remap = ar_xrealloc(L->remap, (size_t)(L->ngames + 1) * sizeof *L->remap);
    ar_journal_entry *e = ar_xcalloc((size_t)L->ngames + 1, sizeof *e);
    ar_tour_game *g = ar_xcalloc((size_t)L->ngames + 1, sizeof *g);
    for (long long q = 0; q < L->ngames; q++) {
        g[q] = L->games[q].g;
        for (int s = 0; s < L->k; s++) {
            long long id = g[q].entrant[s];
            g[q].entrant[s] = id >= 0 && id <= maxid ? by_id[id] : -1;
        }
        e[q].index = g[q].index;
        if (q < L->nremapped) {
            e[q].payload = L->remap[q];
            continue;
        }
        json_t *j = json_loads(L->games[q].payload, 0, NULL), *v;
        json_t *seat = json_object_get(j, "seating");
        for (int s = 0; s < L->k; s++)
            json_array_set_new(seat, (size_t)s, json_integer(g[q].entrant[s]));
        size_t vi;
        json_array_foreach(json_object_get(j, "verdicts"), vi, v)
        {
            long long id = json_integer_value(json_object_get(v, "entrant"));
            json_object_set_new(v, "entrant",
                                json_integer(id >= 0 && id <= maxid ? by_id[id] : -1));
        }
        L->remap[q] = e[q].payload = json_dumps(j, JSON_COMPACT | JSON_ENSURE_ASCII);
        json_decref(j);
    }
    L->nremapped = L->ngames;
    ar_tour_results_in in = {
        .dir = L->dir,
        .print = 0,
        .kind = "league",
        .name = L->t.name,
        .rules = L->t.rules.preset,
        .format = "league",
        .k = L->k,
        .n = n,
        .names = names,
        .bootstrap = L->t.bootstrap,
        .seed = L->t.seed,
        .max_error_share = L->t.max_error_share,
        .config = cfg,
        .hash = hash,
        .complete = 1,
        .schedule_complete = 0,
        .tables = L->counted_sets,
        .sets_scheduled = L->counted_sets,
        .games_scheduled = L->ngames,
        .sets = L->counted_sets,
        .baseline = -1,
    };
    rc = ar_tour_results_write(&in, e, g, L->ngames);
    free(e);
    free(g);
    json_decref(cfg);
    if (rc < 0)
        goto out;

    /* the snapshot of this round, from what was just written */
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/results.json", L->dir);
    json_t *r = json_load_file(p, 0, NULL);
    {
        /* standings.json: results.json's standings and entrants alone, for `standings`, which
         * then reads kilobytes rather than a big field's cross table */
        json_t *o = json_object();
        json_object_set(o, "name", json_object_get(r, "name"));
        json_object_set(o, "sets", json_object_get(r, "sets"));
        json_object_set(o, "games", json_object_get(r, "games"));
        json_object_set(o, "entrants", json_object_get(json_object_get(r, "config"), "entrants"));
        json_object_set(o, "standings", json_object_get(r, "standings"));
        char *text = json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII);
        json_decref(o);
        char sp[PATH_MAX];
        snprintf(sp, sizeof sp, "%s/league-standings.json", L->dir);
        if (!text || ar_file_replace(sp, fill_text, text) < 0) {
            fprintf(stderr, "arena league: cannot write %s\n", sp);
            free(text);
            json_decref(r);
            rc = -1;
            goto out;
        }
        free(text);
    }
    L->round++;
    for (int i = 0; i < L->ne; i++) {
        L->rank[i] = 0;
        L->rank_lo[i] = L->rank_hi[i] = NAN;
    }
    if (lg_exec(L->db, "BEGIN IMMEDIATE", "a rating snapshot") < 0) {
        json_decref(r);
        rc = -1;
        goto out;
    }
    sqlite3_stmt *ri = lg_prep(L->db, "INSERT INTO rounds(round, at, sets, games) VALUES (?1, ?2, "
                                      "?3, ?4)");
    sqlite3_stmt *si = lg_prep(L->db, "INSERT INTO ratings(round, entrant, rank, rank_lo, "
                                      "rank_hi, score, score_lo, score_hi, elo, elo_lo, elo_hi, "
                                      "games, sets) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
                                      "?10, ?11, ?12, ?13)");
    int ok = ri && si;
    if (ok) {
        sqlite3_bind_int64(ri, 1, L->round);
        sqlite3_bind_double(ri, 2, lg_now());
        sqlite3_bind_int64(ri, 3, L->counted_sets);
        sqlite3_bind_int64(ri, 4, L->ngames);
        ok = sqlite3_step(ri) == SQLITE_DONE;
    }
    size_t ix;
    const json_t *s;
    json_array_foreach(json_object_get(r, "standings"), ix, s)
    {
        int d = (int)json_integer_value(json_object_get(s, "entrant"));
        if (!ok || d < 0 || d >= n)
            continue;
        int i = back[d];
        const json_t *rc2 = json_object_get(s, "rank_ci");
        L->rank[i] = (int)json_integer_value(json_object_get(s, "rank"));
        L->rank_lo[i] = (double)json_integer_value(json_array_get(rc2, 0));
        L->rank_hi[i] = (double)json_integer_value(json_array_get(rc2, 1));
        sqlite3_reset(si);
        sqlite3_clear_bindings(si);
        sqlite3_bind_int64(si, 1, L->round);
        sqlite3_bind_int64(si, 2, L->e[i].id);
        sqlite3_bind_int(si, 3, L->rank[i]);
        sqlite3_bind_int(si, 4, (int)L->rank_lo[i]);
        sqlite3_bind_int(si, 5, (int)L->rank_hi[i]);
        static const char *const keys[] = {"score", "score_ci", "score_ci",
                                           "elo",   "elo_ci",   "elo_ci"};
        for (int q = 0; q < 6; q++) {
            const json_t *v = json_object_get(s, keys[q]);
            if (q % 3)
                v = json_array_get(v, (size_t)(q % 3 - 1));
            if (json_is_number(v))
                sqlite3_bind_double(si, 6 + q, json_number_value(v));
        }
        sqlite3_bind_int64(si, 12, json_integer_value(json_object_get(s, "games")));
        sqlite3_bind_int64(si, 13, json_integer_value(json_object_get(s, "sets")));
        ok = sqlite3_step(si) == SQLITE_DONE;
    }
    sqlite3_finalize(ri);
    sqlite3_finalize(si);
    json_decref(r);
    if (!ok || lg_exec(L->db, "COMMIT", "a rating snapshot") < 0) {
        lg_exec(L->db, "ROLLBACK", "a rating snapshot");
        rc = -1;
        goto out;
    }
    L->since_refit = 0;
    L->last_refit = ar_now_ms();
    L->refit_ms = L->last_refit - t0;
    if (!L->o->quiet)
        fprintf(stderr, "arena league: round %lld: %lld sets, %lld games; %s/results.json\n",
                L->round, L->counted_sets, L->ngames, L->dir);
    rc = 0;
out:
    free(has);
    free(dense);
    free(names);
    free(back);
    return rc;
}

/* ---- Start-up -------------------------------------------------------------------------------- */

/* Take a set a killed run left on the cluster back into a slot: its job plays on (or is done),
 * and its games come in as any set's. 0, or -1 (then it is abandoned). */
static int reattach(league *L, slot *s, long long set, const char *seats)
{
    json_t *a = json_loads(seats, 0, NULL);
    int ok = json_is_array(a) && (int)json_array_size(a) == L->k;
    memset(s, 0, sizeof *s);
    for (int j = 0; ok && j < L->k; j++) {
        s->ids[j] = json_integer_value(json_array_get(a, (size_t)j));
        ok = s->ids[j] > 0;
    }
    json_decref(a);
    if (!ok)
        return -1;
    s->plan.set = s->plan.deal = set;
    ar_tour_set_job job = {.t = &L->t, .o = &L->ro, .plan = &s->plan};
    if (lg_slurm_start(&L->S, &job, 0, 1, &s->p) < 0)
        return -1;
    s->used = 1;
    return 0;
}

/* A set left playing by a killed run is abandoned (its games, if any reached the files, are
 * never counted: its records are removed) and a version left checking is checked again. With
 * runner = slurm a set whose job was submitted is taken back instead (up to `jobs` of them):
 * the job did not die with the run, and its games count once, when they come in. */
static int recover(league *L)
{
    sqlite3_stmt *st = lg_prep(L->db, "SELECT id, kind, seats FROM sets WHERE state = 'playing'");
    if (!st)
        return -1;
    int n = 0, back = 0;
    long long *cut = NULL;
    int ncut = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        long long set = sqlite3_column_int64(st, 0);
        int check = strcmp((const char *)sqlite3_column_text(st, 1), "check") == 0;
        const char *seats = (const char *)sqlite3_column_text(st, 2);
        if (L->slurm && !check && back < L->jobs && lg_slurm_submitted(&L->S, set) &&
            reattach(L, &L->slots[back], set, seats ? seats : "") == 0) {
            back++;
            continue;
        }
        if (L->slurm)
            lg_slurm_cancel(&L->S, set); /* before its records go: nothing of it comes later */
        for (int r = 0; r < L->k; r++) {
            char id[96], p[PATH_MAX];
            ar_set_plan pl = {.set = set};
            (check ? check_id : game_id)(id, sizeof id, &pl, r, L);
            snprintf(p, sizeof p, "%s%s/records/%s.jsonl", L->dir, check ? "/checks" : "", id);
            unlink(p);
        }
        cut = ar_xrealloc(cut, (size_t)(ncut + 1) * sizeof *cut);
        cut[ncut++] = set;
        n++;
    }
    sqlite3_finalize(st);
    int ok = lg_exec(L->db, "BEGIN IMMEDIATE", "recovering") == 0;
    sqlite3_stmt *u =
        ok ? lg_prep(L->db, "UPDATE sets SET state = 'abandoned' WHERE id = ?1") : NULL;
    for (int q = 0; u && ok && q < ncut; q++) {
        sqlite3_reset(u);
        sqlite3_bind_int64(u, 1, cut[q]);
        ok = sqlite3_step(u) == SQLITE_DONE;
    }
    sqlite3_finalize(u);
    free(cut);
    if (!ok || !u ||
        lg_exec(L->db, "UPDATE entrants SET status = 'new' WHERE status = 'checking'; COMMIT",
                "recovering") < 0) {
        lg_exec(L->db, "ROLLBACK", "recovering");
        return -1;
    }
    if (n && !L->o->quiet)
        fprintf(stderr,
                "arena league: %d set%s left unfinished by the last run: played again from "
                "scratch, never counted\n",
                n, n == 1 ? "" : "s");
    if (back && !L->o->quiet)
        fprintf(stderr,
                "arena league: %d set%s of the last run still with Slurm: taken back, counted "
                "when their games come in\n",
                back, back == 1 ? "" : "s");
    /* test sets left playing: asked again, their records gone */
    st = lg_prep(L->db, "SELECT id FROM tests WHERE state = 'playing'");
    while (st && sqlite3_step(st) == SQLITE_ROW) {
        for (int r = 0; r < L->k; r++) {
            char id[96], p[PATH_MAX];
            ar_set_plan pl = {.set = sqlite3_column_int64(st, 0)};
            test_id(id, sizeof id, &pl, r, L);
            snprintf(p, sizeof p, "%s/tests/records/%s.jsonl", L->dir, id);
            unlink(p);
        }
    }
    sqlite3_finalize(st);
    if (lg_exec(L->db, "UPDATE tests SET state = 'asked' WHERE state = 'playing'", "recovering") <
        0)
        return -1;
    /* the counted games, in order */
    st = lg_prep(L->db, "SELECT payload FROM games ORDER BY id");
    if (!st)
        return -1;
    while (sqlite3_step(st) == SQLITE_ROW)
        keep_game(L, (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    st = lg_prep(L->db, "SELECT entrant, count(DISTINCT x.set_id) FROM game_seats g JOIN games x "
                        "ON x.id = g.game GROUP BY entrant");
    while (st && sqlite3_step(st) == SQLITE_ROW) {
        long long id = sqlite3_column_int64(st, 0), c = sqlite3_column_int64(st, 1);
        count_set(L, id);
        L->counted_by_id[id] = c;
    }
    sqlite3_finalize(st);
    st = lg_prep(L->db, "SELECT (SELECT count(*) FROM sets WHERE state = 'counted' AND kind = "
                        "'play'), (SELECT coalesce(max(round), 0) FROM rounds)");
    if (st && sqlite3_step(st) == SQLITE_ROW) {
        L->counted_sets = sqlite3_column_int64(st, 0);
        L->round = sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
    return 0;
}

/* Entrants afresh from the database (add and retire reach a running league this way), with
 * their counted sets, the sets in flight and the last fit's ranks carried over. */
static int reload(league *L)
{
    lg_entrant *e;
    int n = lg_entrants_load(L->db, &e);
    if (n < 0)
        return -1;
    long long *sets = ar_xcalloc((size_t)n + 1, sizeof *sets);
    int *rank = ar_xcalloc((size_t)n + 1, sizeof *rank);
    double *lo = ar_xcalloc((size_t)n + 1, sizeof *lo), *hi = ar_xcalloc((size_t)n + 1, sizeof *hi);
    for (int i = 0; i < n; i++) {
        if (e[i].id >= 0 && e[i].id < L->ncounted)
            sets[i] = L->counted_by_id[e[i].id];
        lo[i] = hi[i] = NAN;
        int old = idx_of(L, e[i].id);
        if (old >= 0) {
            rank[i] = L->rank[old];
            lo[i] = L->rank_lo[old];
            hi[i] = L->rank_hi[old];
        }
        for (int s = 0; s < L->jobs; s++)
            if (L->slots[s].used && !L->slots[s].check && !L->slots[s].test)
                for (int j = 0; j < L->k; j++)
                    sets[i] += L->slots[s].ids[j] == e[i].id;
        /* a hold that is over */
        if (strcmp(e[i].status, "held") == 0 && e[i].held_until <= lg_now()) {
            if (lg_set_status(L->db, e[i].id, "active", "was held back; playing again", 0) == 0)
                snprintf(e[i].status, sizeof e[i].status, "active");
        }
    }
    lg_entrants_free(L->e, L->ne);
    free(L->sets_of);
    free(L->rank);
    free(L->rank_lo);
    free(L->rank_hi);
    L->e = e;
    L->ne = n;
    L->sets_of = sets;
    L->rank = rank;
    L->rank_lo = lo;
    L->rank_hi = hi;
    return 0;
}

/* ---- The loop ------------------------------------------------------------------------------- */

static void finished(league *L, slot *s)
{
    int st = ar_tour_set_reap(&s->p);
    int whole = ar_tour_set_whole(&s->p, st);
    close(s->p.fd);
    if (L->slurm && whole && !s->test) {
        /* its games are in hand: the job's folder has done its part (a failed job's stays,
         * with its log) */
        char d[PATH_MAX];
        lg_slurm_jobdir(&L->S, s->plan.set, d, sizeof d);
        ar_rm_tree(d);
    }
    if (s->test) {
        finish_test(L, s, whole);
    } else if (s->check) {
        /* the set's state first: a kill between the two leaves the version checking, and the
         * next run checks it again (the other order would leave an accepted version whose
         * check is marked cut) */
        sqlite3_stmt *u = lg_prep(L->db, "UPDATE sets SET state = ?2, finished_at = ?3 WHERE id "
                                         "= ?1");
        if (u) {
            sqlite3_bind_int64(u, 1, s->plan.set);
            sqlite3_bind_text(u, 2, whole ? "checked" : "abandoned", -1, SQLITE_STATIC);
            sqlite3_bind_double(u, 3, lg_now());
            sqlite3_step(u);
            sqlite3_finalize(u);
        }
        /* on the cluster, a job that never brought its games back (sbatch failed, the job was
         * cancelled or its node died) says nothing of the version: checked again later, and
         * counted among the failures in a row that stop the league */
        if (L->slurm && !(WIFEXITED(st) && WEXITSTATUS(st) == 0) && !g_hard) {
            lg_set_status(L->db, s->check_of, "new", NULL, 0);
            if (++L->failed_in_row >= 3 && !L->fatal) {
                fprintf(stderr,
                        "arena league: stopping: %d sets in a row ended without their games "
                        "(the lines above say why); nothing of them is counted; `arena league "
                        "run %s` goes on once that is fixed\n",
                        L->failed_in_row, L->dir);
                L->fatal = 1;
            }
        } else
            judge_check(L, s, whole);
    } else if (whole) {
        L->failed_in_row = 0;
        if (commit_set(L, s) < 0) {
            fprintf(stderr,
                    "arena league: stopping: set %lld could not be counted (nothing of it "
                    "is); `arena league run %s` goes on once that is fixed\n",
                    s->plan.set, L->dir);
            L->fatal = 1;
        } else
            for (int j = 0; j < L->k; j++)
                maybe_hold(L, s->ids[j]);
    } else {
        if (!g_hard)
            fprintf(stderr,
                    "arena league: set %lld ended after %d of %d games: not counted; the "
                    "entrants play another\n",
                    s->plan.set, s->p.ngames, L->k);
        abandon_set(L, s->plan.set);
        /* a bot's failure does not end a set (its games are forfeited): a worker that dies
         * is the arena's failure, a full disk most often; do not churn through sets */
        if (!g_hard && ++L->failed_in_row >= 3) {
            fprintf(stderr,
                    "arena league: stopping: %d sets in a row ended without their games (is "
                    "the disk full? the lines above say why); nothing of them is counted; "
                    "`arena league run %s` goes on once that is fixed\n",
                    L->failed_in_row, L->dir);
            L->fatal = 1;
        }
    }
    ar_tour_set_reset(&s->p);
    s->used = 0;
}

int ar_league_run(const char *dir, const ar_league_run_opts *o)
{
    league L;
    memset(&L, 0, sizeof L);
    L.dir = dir;
    L.o = o;
    int status = AR_EXIT_FAIL;
    int lock = -1, folder_lock = -1;
    char err[1024], ini[PATH_MAX], checks[PATH_MAX + 16], tests[PATH_MAX + 16];
    L.db = lg_db_open(dir, 0);
    if (!L.db)
        return AR_EXIT_FAIL;
    lock = ar_league_lock(dir, &folder_lock);
    if (lock < 0) {
        sqlite3_close(L.db);
        return AR_EXIT_FAIL;
    }
    if (lg_frozen(L.db)) {
        fprintf(stderr,
                "arena league run: %s is frozen for its final (`arena league final`): no "
                "more sets\n",
                dir);
        goto out;
    }
    snprintf(ini, sizeof ini, "%s/league.ini", dir);
    if (ar_tour_load_league(ini, &L.t, err, sizeof err) < 0) {
        fprintf(stderr, "arena league: %s\n", err);
        goto out;
    }
    L.k = L.t.seats;
    L.slurm = L.t.runner_slurm;
    if (L.slurm && lg_slurm_init(&L.S, dir, L.t.sbatch, o->sb_argv) < 0)
        goto out;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    L.jobs = o->jobs > 0 ? o->jobs : L.t.jobs > 0 ? L.t.jobs : cpus > 0 ? (int)cpus : 1;
    L.rng = L.t.seed ^ 0x6c65616775650000ULL ^ (uint64_t)getpid();
    L.ro = (ar_tour_run_opts){.out_dir = dir,
                              .jobs = L.jobs,
                              .quiet = 1,
                              .sandbox = o->sandbox,
                              .stdout_cap = o->stdout_cap};
    /* a Slurm job writes into the folder from its own: the path absolute */
    if (L.slurm)
        L.ro.out_dir = L.S.dir;
    snprintf(checks, sizeof checks, "%s/checks", L.slurm ? L.S.dir : dir);
    L.co = L.ro;
    L.co.out_dir = checks;
    if (ar_mkdir_p(checks) < 0) {
        fprintf(stderr, "arena league: cannot make %s\n", checks);
        goto out;
    }
    snprintf(tests, sizeof tests, "%s/tests", dir);
    L.to = L.ro;
    L.to.out_dir = tests;
    if (ar_mkdir_p(tests) < 0 || lg_tests_schema(L.db) < 0) {
        fprintf(stderr, "arena league: cannot make %s or the test games' tables\n", tests);
        goto out;
    }
    L.slots = ar_xcalloc((size_t)L.jobs, sizeof *L.slots);
    for (int s = 0; s < L.jobs; s++)
        L.slots[s].p.pid = -1;
    if (recover(&L) < 0 || reload(&L) < 0)
        goto out;

    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    signal(SIGPIPE, SIG_IGN);
    g_stop = g_hard = 0;
    if (!o->quiet)
        fprintf(stderr,
                "arena league: %s: %s, %d seats, %d %s; %lld sets and %lld games counted so "
                "far; pid %ld\n",
                dir, L.t.name, L.k, L.jobs, L.slurm ? "Slurm jobs at once" : "jobs", L.counted_sets,
                L.ngames, (long)getpid());
    struct pollfd *pf = ar_xcalloc((size_t)L.jobs, sizeof *pf);
    int *pslot = ar_xcalloc((size_t)L.jobs, sizeof *pslot);
    double last_reload = 0, stop_at = 0, last_meta = 0;
    int stopping = 0, frozen = 0, final_asked = 0, want_refit = 0;
    for (;;) {
        int running = 0;
        for (int s = 0; s < L.jobs; s++)
            running += L.slots[s].used;
        /* the host's freeze and final (the web face, ar_league_freeze): looked at each second */
        if (ar_now_ms() - last_meta > 1000) {
            last_meta = ar_now_ms();
            int was = frozen;
            frozen = lg_frozen(L.db);
            final_asked = lg_final_asked(L.db) > 0;
            if (frozen && !was && !o->quiet)
                fprintf(stderr, "arena league: frozen by the host: no more sets; %s\n",
                        final_asked ? "the final is played once the sets in flight are in"
                                    : "this run stays up (its pages too) until stopped");
        }
        int done = (o->max_sets > 0 && L.counted_sets >= o->max_sets) || final_asked;
        int may_start = !g_stop && !L.fatal && !done && !frozen;
        int free_slot = 0;
        for (int s = 0; s < L.jobs; s++)
            free_slot |= !L.slots[s].used;
        /* entrants afresh whenever a set can start (add and retire reach the league within
         * one set), else every few seconds (holds run out) */
        if (may_start && (free_slot || ar_now_ms() - last_reload > 3000)) {
            if (reload(&L) < 0) {
                L.fatal = 1;
                continue;
            }
            last_reload = ar_now_ms();
            long long inflight = 0;
            int testing = 0;
            for (int s = 0; s < L.jobs; s++) {
                inflight += L.slots[s].used && !L.slots[s].check && !L.slots[s].test;
                testing |= L.slots[s].used && L.slots[s].test;
            }
            for (int s = 0; s < L.jobs && !L.fatal; s++) {
                if (L.slots[s].used)
                    continue;
                int i = -1;
                for (int q = 0; q < L.ne && i < 0; q++)
                    if (strcmp(L.e[q].status, "new") == 0)
                        i = q;
                if (i >= 0 && L.e[i].builtin) {
                    /* a built-in policy never errs: nothing to check */
                    if (lg_set_status(L.db, L.e[i].id, "active", NULL, 0) < 0)
                        L.fatal = 1;
                    snprintf(L.e[i].status, sizeof L.e[i].status, "active");
                    s--;
                    continue;
                }
                if (i >= 0) {
                    if (start_check(&L, &L.slots[s], i) < 0)
                        L.fatal = 1;
                    continue;
                }
                /* an author's test set: one slot at most, and with a single slot never two
                 * in a row while rated sets wait, so the rated sets go on */
                if (!testing && (L.jobs > 1 || !L.last_test)) {
                    int r = start_test(&L, &L.slots[s]);
                    if (r < 0)
                        L.fatal = 1;
                    if (r > 0) {
                        testing = 1;
                        L.last_test = 1;
                        continue;
                    }
                }
                if (o->max_sets > 0 && L.counted_sets + inflight >= o->max_sets)
                    break;
                int r = start_play(&L, &L.slots[s]);
                if (r < 0)
                    L.fatal = 1;
                L.last_test = 0; /* a rated set, or none can start: a test may go next */
                if (r <= 0)
                    break;
                inflight++;
            }
            running = 0;
            for (int s = 0; s < L.jobs; s++)
                running += L.slots[s].used;
        }
        if (want_refit && !L.fatal && refit(&L) < 0)
            L.fatal = 1;
        want_refit = 0;
        if (running == 0 && (g_stop || L.fatal || done))
            break;
        if ((g_hard || L.fatal) && !stopping) {
            stopping = 1;
            stop_at = ar_now_ms();
            for (int s = 0; s < L.jobs; s++)
                if (L.slots[s].used)
                    kill(L.slots[s].p.pid, SIGTERM); /* each match says Bye and kills its bots */
        }
        if (stopping && ar_now_ms() - stop_at > 8000)
            for (int s = 0; s < L.jobs; s++)
                if (L.slots[s].used)
                    kill(L.slots[s].p.pid, SIGKILL);
        int np = 0;
        for (int s = 0; s < L.jobs; s++)
            if (L.slots[s].used) {
                pf[np] = (struct pollfd){.fd = L.slots[s].p.fd, .events = POLLIN};
                pslot[np++] = s;
            }
        int pr = poll(pf, (nfds_t)np, np ? 250 : 300);
        if (pr < 0 && errno != EINTR) {
            fprintf(stderr, "arena league: poll: %s\n", strerror(errno));
            L.fatal = 1;
        }
        for (int q = 0; q < np && pr > 0; q++) {
            if (!pf[q].revents)
                continue;
            slot *s = &L.slots[pslot[q]];
            if (ar_tour_set_read(&s->p) == 0) {
                int was_play = !s->check && !s->test;
                finished(&L, s);
                if (was_play) {
                    int others = 0;
                    for (int x = 0; x < L.jobs; x++)
                        others += L.slots[x].used && !L.slots[x].check && !L.slots[x].test;
                    /* a round: every set in flight is in, or `jobs` sets since the last */
                    /* and refits take at most a twentieth of the time: on a big league a round
                     * spans more sets. The refit waits for the free slots to be refilled
                     * (the top of the loop): the sets play on while it fits */
                    if (L.since_refit > 0 && (others == 0 || L.since_refit >= L.jobs) &&
                        ar_now_ms() - L.last_refit >= 19 * L.refit_ms && !L.fatal)
                        want_refit = 1;
                }
            }
        }
    }
    if (L.since_refit > 0 && !L.fatal)
        refit(&L);
    free(pf);
    free(pslot);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    if (g_stop && !o->quiet)
        fprintf(stderr,
                "arena league: stopped (%s): %lld sets and %lld games counted; `arena "
                "league run %s` goes on\n",
                strsignal(g_stop), L.counted_sets, L.ngames, dir);
    if (L.fatal)
        fprintf(stderr,
                "arena league: stopped on the error above: %lld sets and %lld games counted, "
                "nothing of the sets it cut; `arena league run %s` goes on once it is fixed\n",
                L.counted_sets, L.ngames, dir);
    status = L.fatal ? AR_EXIT_FAIL : AR_EXIT_OK;
out:
    for (long long q = 0; q < L.ngames; q++) {
        free(L.games[q].payload);
        free(L.games[q].g.hand);
    }
    free(L.games);
    free(L.slots);
    lg_entrants_free(L.e, L.ne);
    free(L.sets_of);
    free(L.counted_by_id);
    for (long long q = 0; q < L.nremapped; q++)
        free(L.remap[q]);
    free(L.remap);
    free(L.remap_by_id);
    free(L.rank);
    free(L.rank_lo);
    free(L.rank_hi);
    ar_tour_free(&L.t);
    sqlite3_close(L.db);
    if (lock >= 0)
        close(lock);
    if (folder_lock >= 0)
        close(folder_lock);
    return status;
}
