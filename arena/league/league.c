/* league.c - the league's database and its short commands: init, add, retire, status,
 * standings (league.h), and the run's lock. Every write is one short transaction, so that
 * these commands work while `run` is playing (the busy timeout waits out its commits). */
#include "league.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "db.h"
#include "jail/build.h"
#include "jail/spawn.h"
#include "tour/tourfile.h"
#include "unpack.h"
#include "util/outlock.h"
#include "util/util.h"

/* ---- The database ---------------------------------------------------------------------------
 * WAL: readers (status, standings, the web face to come) never block the run's commits, nor
 * they them. synchronous=FULL: a set the run has reported as counted stays counted after a
 * power cut, as the tournament's fsync'd journal does; it costs one fsync per set (k games),
 * nothing next to playing them. NORMAL would be safe against a killed process too, but could
 * forget the last sets on a power cut. */
static const char *const SCHEMA =
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE entrants(id INTEGER PRIMARY KEY, name TEXT NOT NULL, version INTEGER NOT NULL,"
    " prev INTEGER REFERENCES entrants(id), command TEXT NOT NULL, argv TEXT, path TEXT,"
    " files TEXT, cwd TEXT, profile TEXT, memory_mb INTEGER NOT NULL DEFAULT 0,"
    " startup_ms INTEGER NOT NULL DEFAULT 0,"
    " status TEXT NOT NULL CHECK (status IN"
    "  ('new','checking','active','refused','retired','held')),"
    " reason TEXT, held_until REAL, added_at REAL NOT NULL, changed_at REAL NOT NULL,"
    " UNIQUE(name, version));"
    /* seats: a JSON array of entrant ids in circular seat order; round: the refit the set
     * started after; state playing -> counted | abandoned (killed or failed: never counted),
     * check sets playing -> checked | abandoned */
    "CREATE TABLE sets(id INTEGER PRIMARY KEY, kind TEXT NOT NULL CHECK (kind IN"
    " ('play','check')), deal INTEGER NOT NULL, seats TEXT NOT NULL, state TEXT NOT NULL"
    " CHECK (state IN ('playing','counted','abandoned','checked')), round INTEGER NOT NULL,"
    " started_at REAL, finished_at REAL);"
    "CREATE INDEX sets_by_state ON sets(state);"
    /* id = set * seats + rotation, as a tournament's game index; payload: the journal's */
    "CREATE TABLE games(id INTEGER PRIMARY KEY, set_id INTEGER NOT NULL REFERENCES sets(id),"
    " rotation INTEGER NOT NULL, game_id TEXT NOT NULL UNIQUE, payload TEXT NOT NULL);"
    "CREATE INDEX games_by_set ON games(set_id);"
    "CREATE TABLE game_seats(game INTEGER NOT NULL REFERENCES games(id), seat INTEGER NOT"
    " NULL, entrant INTEGER NOT NULL REFERENCES entrants(id), total INTEGER, place INTEGER,"
    " error INTEGER NOT NULL, PRIMARY KEY(game, seat));"
    "CREATE INDEX seats_by_entrant ON game_seats(entrant, game);"
    "CREATE TABLE rounds(round INTEGER PRIMARY KEY, at REAL NOT NULL, sets INTEGER NOT NULL,"
    " games INTEGER NOT NULL);"
    "CREATE TABLE ratings(round INTEGER NOT NULL REFERENCES rounds(round), entrant INTEGER NOT"
    " NULL REFERENCES entrants(id), rank INTEGER, rank_lo INTEGER, rank_hi INTEGER, score REAL,"
    " score_lo REAL, score_hi REAL, elo REAL, elo_lo REAL, elo_hi REAL, games INTEGER,"
    " sets INTEGER, PRIMARY KEY(round, entrant));";

double lg_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

const char *lg_errmsg(sqlite3 *db)
{
    static char buf[512];
    int e = db ? sqlite3_system_errno(db) : 0;
    snprintf(buf, sizeof buf, "%s%s%s%s", db ? sqlite3_errmsg(db) : "cannot open", e ? " (" : "",
             e ? strerror(e) : "", e ? ")" : "");
    return buf;
}

int lg_exec(sqlite3 *db, const char *sql, const char *what)
{
    if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK) {
        fprintf(stderr, "arena league: %s: %s\n", what, lg_errmsg(db));
        return -1;
    }
    return 0;
}

sqlite3_stmt *lg_prep(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
        fprintf(stderr, "arena league: %s\n", lg_errmsg(db));
        return NULL;
    }
    return st;
}

sqlite3 *lg_db_open(const char *dir, int create)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/league.db", dir);
    if (!create && access(path, F_OK) != 0) {
        fprintf(stderr,
                "arena league: %s is not a league's folder (no league.db): make one with "
                "`arena league init DIR FILE`\n",
                dir);
        return NULL;
    }
    sqlite3 *db = NULL;
    int fl = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
    if (sqlite3_open_v2(path, &db, fl, NULL) != SQLITE_OK) {
        fprintf(stderr, "arena league: %s: %s\n", path, lg_errmsg(db));
        sqlite3_close(db);
        return NULL;
    }
    sqlite3_busy_timeout(db, 15000);
    if (lg_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;",
                path) < 0) {
        sqlite3_close(db);
        return NULL;
    }
    return db;
}

static char **json_strv(const char *text)
{
    if (!text)
        return NULL;
    json_t *a = json_loads(text, 0, NULL);
    if (!json_is_array(a)) {
        json_decref(a);
        return NULL;
    }
    size_t n = json_array_size(a);
    char **v = ar_xcalloc(n + 1, sizeof *v);
    for (size_t i = 0; i < n; i++) {
        const char *s = json_string_value(json_array_get(a, i));
        v[i] = ar_xstrdup(s ? s : "");
    }
    json_decref(a);
    return v;
}

static char *json_of_strv(char *const *v)
{
    json_t *a = json_array();
    for (int i = 0; v && v[i]; i++)
        json_array_append_new(a, json_string(v[i]));
    char *s = json_dumps(a, JSON_COMPACT);
    json_decref(a);
    return s;
}

static char *col_dup(sqlite3_stmt *st, int c)
{
    const unsigned char *t = sqlite3_column_text(st, c);
    return t ? ar_xstrdup((const char *)t) : NULL;
}

int lg_entrants_load(sqlite3 *db, lg_entrant **out)
{
    *out = NULL;
    sqlite3_stmt *st = lg_prep(db, "SELECT id, name, version, prev, command, argv, path, files, "
                                   "cwd, profile, memory_mb, startup_ms, status, reason, "
                                   "held_until FROM entrants ORDER BY id");
    if (!st)
        return -1;
    int n = 0, cap = 0, rc;
    lg_entrant *e = NULL;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            e = ar_xrealloc(e, (size_t)cap * sizeof *e);
        }
        lg_entrant *x = &e[n++];
        memset(x, 0, sizeof *x);
        x->id = sqlite3_column_int64(st, 0);
        x->name = col_dup(st, 1);
        x->version = sqlite3_column_int(st, 2);
        x->prev = sqlite3_column_int64(st, 3);
        x->command = col_dup(st, 4);
        char *argv = col_dup(st, 5), *files = col_dup(st, 7);
        x->argv = json_strv(argv);
        x->files = json_strv(files);
        free(argv);
        free(files);
        x->path = col_dup(st, 6);
        x->cwd = col_dup(st, 8);
        x->profile = col_dup(st, 9);
        x->memory_mb = (uint32_t)sqlite3_column_int64(st, 10);
        x->startup_ms = (uint32_t)sqlite3_column_int64(st, 11);
        snprintf(x->status, sizeof x->status, "%s", (const char *)sqlite3_column_text(st, 12));
        x->reason = col_dup(st, 13);
        x->held_until = sqlite3_column_double(st, 14);
        char label[96];
        if (x->version <= 1)
            snprintf(label, sizeof label, "%s", x->name);
        else
            snprintf(label, sizeof label, "%s.v%d", x->name, x->version);
        x->label = ar_xstrdup(label);
        x->builtin = x->command[0] == '@' && ar_policy_from_name(x->command + 1, &x->policy) == 0;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        fprintf(stderr, "arena league: reading the entrants: %s\n", lg_errmsg(db));
        lg_entrants_free(e, n);
        return -1;
    }
    *out = e;
    return n;
}

void lg_entrants_free(lg_entrant *e, int n)
{
    for (int i = 0; i < n; i++) {
        free(e[i].name);
        free(e[i].label);
        free(e[i].command);
        ar_spawn_argv_free(e[i].argv);
        free(e[i].path);
        ar_spawn_argv_free(e[i].files);
        free(e[i].cwd);
        free(e[i].profile);
        free(e[i].reason);
    }
    free(e);
}

int lg_set_status(sqlite3 *db, long long id, const char *status, const char *reason,
                  double held_until)
{
    sqlite3_stmt *st = lg_prep(
        db, "UPDATE entrants SET status = ?1, reason = ?2, held_until = ?3, changed_at = ?4 "
            "WHERE id = ?5");
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, status, -1, SQLITE_STATIC);
    if (reason)
        sqlite3_bind_text(st, 2, reason, -1, SQLITE_TRANSIENT);
    if (held_until > 0)
        sqlite3_bind_double(st, 3, held_until);
    sqlite3_bind_double(st, 4, lg_now());
    sqlite3_bind_int64(st, 5, id);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        fprintf(stderr, "arena league: entrant %lld: %s\n", id, lg_errmsg(db));
        return -1;
    }
    return 0;
}

/* ---- Entrants ------------------------------------------------------------------------------ */

static int valid_name(const char *s)
{
    int n = 0;
    for (; s[n]; n++) {
        unsigned char c = (unsigned char)s[n];
        if (!(isalnum(c) || c == '_' || c == '-') || n >= 32)
            return 0;
    }
    return n > 0;
}

/* argv resolved as a tournament does (tournament.c entrants_make), against dir: a relative
 * program path and relative words naming existing files made absolute; the program found.
 * Fills *path. 0, or -1 after printing why. */
static int resolve_argv(char **argv, int argc, const char *dir, char *path, size_t cap,
                        const char *who)
{
    for (int a = 0; a < argc; a++) {
        char *w = argv[a];
        char cand[PATH_MAX], real[PATH_MAX];
        if (w[0] == '/' || !strchr(w, '/') ||
            snprintf(cand, sizeof cand, "%s/%s", dir, w) >= (int)sizeof cand)
            continue;
        if (realpath(cand, real)) {
            free(argv[a]);
            argv[a] = ar_xstrdup(real);
        }
    }
    int rc = ar_spawn_resolve(argv[0], path, cap);
    if (rc < 0) {
        fprintf(stderr, "arena league: %s: %s: %s\n", who, argv[0],
                rc == -ENOENT   ? (strchr(argv[0], '/') ? "no such file (build it first?)"
                                                        : "not found in PATH")
                : rc == -EACCES ? "not an executable file"
                                : strerror(-rc));
        return -1;
    }
    return 0;
}

/* Insert a version of name: 1 + the last one, linked to it; refused (not NULL): a version
 * refused before its check, with that reason (an upload whose archive or build failed).
 * Returns the new id, or -1. */
static long long insert_entrant_as(sqlite3 *db, const char *name, const char *command,
                                   char *const *argv, const char *path, char *const *files,
                                   const char *cwd, const char *profile, uint32_t memory_mb,
                                   uint32_t startup_ms, const char *refused)
{
    sqlite3_stmt *q = lg_prep(db, "SELECT id, version FROM entrants WHERE name = ?1 ORDER BY "
                                  "version DESC LIMIT 1");
    if (!q)
        return -1;
    sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
    long long prev = 0;
    int version = 1;
    if (sqlite3_step(q) == SQLITE_ROW) {
        prev = sqlite3_column_int64(q, 0);
        version = sqlite3_column_int(q, 1) + 1;
    }
    sqlite3_finalize(q);
    sqlite3_stmt *st = lg_prep(
        db, "INSERT INTO entrants(name, version, prev, command, argv, path, files, cwd, profile, "
            "memory_mb, startup_ms, status, reason, added_at, changed_at) VALUES (?1, ?2, ?3, "
            "?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?13, ?14, ?12, ?12)");
    if (!st)
        return -1;
    char *av = argv ? json_of_strv(argv) : NULL, *fv = files ? json_of_strv(files) : NULL;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, version);
    if (prev)
        sqlite3_bind_int64(st, 3, prev);
    sqlite3_bind_text(st, 4, command, -1, SQLITE_STATIC);
    if (av)
        sqlite3_bind_text(st, 5, av, -1, SQLITE_STATIC);
    if (path)
        sqlite3_bind_text(st, 6, path, -1, SQLITE_STATIC);
    if (fv)
        sqlite3_bind_text(st, 7, fv, -1, SQLITE_STATIC);
    if (cwd)
        sqlite3_bind_text(st, 8, cwd, -1, SQLITE_STATIC);
    if (profile && strcmp(profile, "auto") != 0)
        sqlite3_bind_text(st, 9, profile, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 10, memory_mb);
    sqlite3_bind_int64(st, 11, startup_ms);
    sqlite3_bind_double(st, 12, lg_now());
    sqlite3_bind_text(st, 13, refused ? "refused" : "new", -1, SQLITE_STATIC);
    if (refused)
        sqlite3_bind_text(st, 14, refused, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    free(av);
    free(fv);
    if (rc != SQLITE_DONE) {
        fprintf(stderr, "arena league: adding %s: %s\n", name, lg_errmsg(db));
        return -1;
    }
    if (refused)
        printf("arena league: %s version %d refused (entrant %lld), the reason stored for "
               "`arena league status`\n",
               name, version, (long long)sqlite3_last_insert_rowid(db));
    else
        printf("arena league: %s version %d added (entrant %lld%s); `run` checks it before it "
               "plays\n",
               name, version, (long long)sqlite3_last_insert_rowid(db),
               prev ? ", after the version before" : "");
    return sqlite3_last_insert_rowid(db);
}

static long long insert_entrant(sqlite3 *db, const char *name, const char *command,
                                char *const *argv, const char *path, char *const *files,
                                const char *cwd, const char *profile, uint32_t memory_mb,
                                uint32_t startup_ms)
{
    return insert_entrant_as(db, name, command, argv, path, files, cwd, profile, memory_mb,
                             startup_ms, NULL);
}

/* ---- init ---------------------------------------------------------------------------------- */

enum { INIT_MAX = 64 }; /* entrants in a league file; more come with `add` */

/* from into to without its [entrant NAME] sections: the entrants live in league.db (their
 * commands resolved when they were added), and `run` reads league.ini from the league's
 * folder, where the file's relative commands would not resolve. */
static int copy_settings(const char *from, const char *to)
{
    FILE *a = fopen(from, "rb");
    if (!a)
        return -errno;
    FILE *b = fopen(to, "wb");
    if (!b) {
        int e = errno;
        fclose(a);
        return -e;
    }
    fprintf(b, "# %s without its [entrant] sections (they are in league.db)\n", from);
    char line[4200];
    int skip = 0, rc = 0;
    while (fgets(line, sizeof line, a)) {
        const char *p = line + strspn(line, " \t");
        if (*p == '[')
            skip = strncmp(p + 1 + strspn(p + 1, " \t"), "entrant", 7) == 0;
        if (!skip && fputs(line, b) == EOF)
            rc = -EIO;
    }
    fclose(a);
    if (fflush(b) != 0 || fsync(fileno(b)) != 0)
        rc = rc ? rc : -errno;
    if (fclose(b) != 0 && rc == 0)
        rc = -errno;
    return rc;
}

int ar_league_init(const char *dir, const char *file)
{
    ar_tour t;
    char err[1024];
    if (ar_tour_load_league(file, &t, err, sizeof err) < 0) {
        fprintf(stderr, "arena league: %s\n", err);
        return AR_EXIT_USAGE;
    }
    int status = AR_EXIT_FAIL;
    sqlite3 *db = NULL;
    char p[PATH_MAX];
    int rc = ar_mkdir_p(dir);
    if (rc < 0) {
        fprintf(stderr, "arena league: %s: %s\n", dir, strerror(-rc));
        goto out;
    }
    snprintf(p, sizeof p, "%s/league.db", dir);
    if (access(p, F_OK) == 0) {
        fprintf(stderr, "arena league: %s holds a league already (league.db)\n", dir);
        status = AR_EXIT_USAGE;
        goto out;
    }
    /* the entrants resolve before anything is written */
    char **argv[INIT_MAX];
    static char paths[INIT_MAX][PATH_MAX];
    if (t.nentrants > INIT_MAX) {
        fprintf(stderr,
                "arena league: %s: at most %d entrants in the file; add more with "
                "`arena league add`\n",
                file, INIT_MAX);
        status = AR_EXIT_USAGE;
        goto out;
    }
    memset(argv, 0, sizeof argv);
    for (int i = 0; i < t.nentrants; i++) {
        if (ar_tour_builtin(&t, i, NULL))
            continue;
        int argc;
        if (ar_tour_argv(&t, i, &argv[i], &argc, err, sizeof err) < 0) {
            fprintf(stderr, "%s:%d: entrant %s: command: %s\n", t.path, t.entrant[i].line,
                    t.entrant[i].name, err);
            status = AR_EXIT_USAGE;
            goto free_argv;
        }
        char who[PATH_MAX + 200];
        snprintf(who, sizeof who, "%s:%d: entrant %s", t.path, t.entrant[i].line,
                 t.entrant[i].name);
        if (resolve_argv(argv[i], argc, t.dir, paths[i], sizeof paths[i], who) < 0) {
            status = AR_EXIT_USAGE;
            goto free_argv;
        }
    }
    snprintf(p, sizeof p, "%s/league.ini", dir);
    rc = copy_settings(file, p);
    if (rc < 0) {
        fprintf(stderr, "arena league: %s: %s\n", p, strerror(-rc));
        goto free_argv;
    }
    db = lg_db_open(dir, 1);
    if (!db || lg_exec(db, "BEGIN IMMEDIATE", "init") < 0)
        goto free_argv;
    if (lg_exec(db, SCHEMA, "creating league.db") < 0)
        goto free_argv;
    sqlite3_stmt *st = lg_prep(db, "INSERT INTO meta(key, value) VALUES ('format', 'okarena-league "
                                   "1'), ('name', ?1), ('created_at', ?2)");
    if (!st)
        goto free_argv;
    sqlite3_bind_text(st, 1, t.name, -1, SQLITE_STATIC);
    char now[32];
    snprintf(now, sizeof now, "%.3f", lg_now());
    sqlite3_bind_text(st, 2, now, -1, SQLITE_STATIC);
    rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        goto free_argv;
    for (int i = 0; i < t.nentrants; i++) {
        const ar_tour_entrant *en = &t.entrant[i];
        if (insert_entrant(db, en->name, en->command, argv[i], argv[i] ? paths[i] : NULL, en->files,
                           t.dir, en->profile, en->memory_mb, en->startup_ms) < 0)
            goto free_argv;
    }
    if (lg_exec(db, "COMMIT", "init") < 0)
        goto free_argv;
    printf("arena league: %s: league %s (%s, %d seats), %d entrants; start it with `arena "
           "league run %s`\n",
           dir, t.name, t.rules.preset, t.seats, t.nentrants, dir);
    status = AR_EXIT_OK;
free_argv:
    for (int i = 0; i < t.nentrants && i < INIT_MAX; i++)
        ar_spawn_argv_free(argv[i]);
out:
    sqlite3_close(db);
    ar_tour_free(&t);
    return status;
}

/* ---- add, retire --------------------------------------------------------------------------- */

int ar_league_add(const char *dir, const char *name, char *const *files, int nfiles,
                  char *const *cmd, int ncmd)
{
    if (!valid_name(name)) {
        fprintf(stderr,
                "arena league add: NAME: use 1 to 32 letters, digits, '_' or '-', got "
                "'%s'\n",
                name);
        return AR_EXIT_USAGE;
    }
    if (ncmd < 1) {
        fprintf(stderr, "arena league add: no COMMAND after --\n");
        return AR_EXIT_USAGE;
    }
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd)) {
        fprintf(stderr, "arena league add: getcwd: %s\n", strerror(errno));
        return AR_EXIT_FAIL;
    }
    /* the command as typed, for people; resolved, for the jail */
    size_t cl = 0;
    for (int i = 0; i < ncmd; i++)
        cl += strlen(cmd[i]) + 3;
    char *command = ar_xmalloc(cl + 1);
    command[0] = '\0';
    for (int i = 0; i < ncmd; i++) {
        if (i)
            strcat(command, " ");
        strcat(command, cmd[i]);
    }
    char **argv = NULL, **own = NULL, path[PATH_MAX];
    int status = AR_EXIT_USAGE;
    sqlite3 *db = NULL;
    ar_policy pol;
    int builtin = cmd[0][0] == '@';
    if (builtin && (ncmd != 1 || ar_policy_from_name(cmd[0] + 1, &pol) < 0)) {
        fprintf(stderr, "arena league add: %s: the built-ins are @random and @greedy, alone\n",
                cmd[0]);
        goto out;
    }
    if (!builtin) {
        argv = ar_xcalloc((size_t)ncmd + 1, sizeof *argv);
        for (int i = 0; i < ncmd; i++)
            argv[i] = ar_xstrdup(cmd[i]);
        if (resolve_argv(argv, ncmd, cwd, path, sizeof path, name) < 0)
            goto out;
    }
    own = ar_xcalloc((size_t)nfiles + 1, sizeof *own);
    for (int i = 0; i < nfiles; i++) {
        char real[PATH_MAX];
        if (!realpath(files[i], real)) {
            fprintf(stderr, "arena league add: --files %s: %s\n", files[i], strerror(errno));
            goto out;
        }
        own[i] = ar_xstrdup(real);
    }
    status = AR_EXIT_FAIL;
    db = lg_db_open(dir, 0);
    if (!db || lg_exec(db, "BEGIN IMMEDIATE", "add") < 0)
        goto out;
    if (lg_frozen(db)) {
        fprintf(stderr, "arena league add: %s is frozen for its final: no entrant joins\n", dir);
        lg_exec(db, "ROLLBACK", "add");
        status = AR_EXIT_USAGE;
        goto out;
    }
    if (insert_entrant(db, name, command, argv, builtin ? NULL : path, nfiles ? own : NULL, cwd,
                       NULL, 0, 0) < 0) {
        lg_exec(db, "ROLLBACK", "add");
        goto out;
    }
    if (lg_exec(db, "COMMIT", "add") == 0)
        status = AR_EXIT_OK;
out:
    sqlite3_close(db);
    ar_spawn_argv_free(argv);
    ar_spawn_argv_free(own);
    free(command);
    return status;
}

/* ---- add from an archive (an upload) ------------------------------------------------------- */

int ar_league_bots_dir(const char *dir, char *out, size_t cap)
{
    char real[PATH_MAX];
    if (!realpath(dir, real))
        return -errno;
    if (snprintf(out, cap, "%s.bots", real) >= (int)cap)
        return -ENAMETOOLONG;
    return 0;
}

/* The last lines of a log, at most cap - 1 bytes, lines joined with " | ", non-printable bytes
 * as '?'. */
static void log_tail(const char *path, char *out, size_t cap)
{
    out[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    char buf[1024];
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : 0;
    long from = size > (long)sizeof buf - 1 ? size - (long)sizeof buf + 1 : 0;
    size_t n = 0;
    if (fseek(f, from, SEEK_SET) == 0)
        n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *s = buf;
    if (from > 0 && strchr(s, '\n'))
        s = strchr(s, '\n') + 1; /* a whole first line */
    size_t k = 0;
    for (; *s && k + 4 < cap; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\n') {
            if (s[1] && k > 0) {
                memcpy(out + k, " | ", 3);
                k += 3;
            }
        } else
            out[k++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
    }
    out[k] = '\0';
}

int ar_league_add_archive(const char *dir, const char *name, const ar_league_upload *up, char *why,
                          size_t cap)
{
    char none[1];
    if (!why || !cap) {
        why = none;
        cap = sizeof none;
    }
    why[0] = '\0';
    if (!valid_name(name)) {
        snprintf(why, cap, "NAME: use 1 to 32 letters, digits, '_' or '-'");
        return AR_EXIT_USAGE;
    }
    if (!up->cmd || !up->cmd[strspn(up->cmd, " \t")]) {
        snprintf(why, cap, "no command");
        return AR_EXIT_USAGE;
    }
    /* the limits: the caller's, else the league file's (upload_max_*, build_*: docs/league.md),
     * whose defaults are ar_unpack_limits_default's */
    ar_unpack_limits lim = up->lim;
    uint64_t max_bytes = lim.max_total;
    double build_secs = up->build_secs > 0 ? up->build_secs : 120;
    uint32_t build_mb = up->build_mb;
    if (!lim.max_total || !lim.max_file || !lim.max_entries) {
        ar_unpack_limits_default(&lim);
        max_bytes = lim.max_total;
        char ini[PATH_MAX], err[1024];
        ar_tour t;
        memset(&t, 0, sizeof t);
        snprintf(ini, sizeof ini, "%s/league.ini", dir);
        if (ar_tour_load_league(ini, &t, err, sizeof err) < 0) {
            snprintf(why, cap, "%s", err);
            return AR_EXIT_FAIL;
        }
        max_bytes = t.upload_max_bytes;
        lim.max_total = t.upload_max_unpacked;
        if (lim.max_file > lim.max_total)
            lim.max_file = lim.max_total;
        lim.max_entries = t.upload_max_files;
        if (!(up->build_secs > 0))
            build_secs = t.build_seconds;
        if (!build_mb)
            build_mb = t.build_mb;
        ar_tour_free(&t);
    }
    if (up->len > max_bytes) {
        snprintf(why, cap, "the archive is over %llu bytes (upload_max_bytes)",
                 (unsigned long long)max_bytes);
        return AR_EXIT_USAGE;
    }
    int status = AR_EXIT_FAIL, lock = -1;
    sqlite3 *db = lg_db_open(dir, 0);
    char root[PATH_MAX], vdir[PATH_MAX + 64], logp[PATH_MAX + 64], p[PATH_MAX];
    char **argv = NULL, path[PATH_MAX], reason[8192], err[1024];
    char *own[2] = {vdir, NULL};
    int argc = 0, made = 0;
    reason[0] = '\0';
    vdir[0] = '\0';
    if (!db) {
        snprintf(why, cap, "%s is not a league's folder", dir);
        goto out;
    }
    if (lg_frozen(db)) {
        snprintf(why, cap, "%s is frozen for its final: no entrant joins", dir);
        status = AR_EXIT_USAGE;
        goto out;
    }
    /* DIR.bots/NAME/vN: beside the league's folder, never in it (every bot is kept from the
     * league's folder, which holds the seed and every record) */
    int rc = ar_league_bots_dir(dir, root, sizeof root);
    if (rc == 0 && snprintf(p, sizeof p, "%s/%s", root, name) < (int)sizeof p)
        rc = ar_mkdir_p(p);
    if (rc < 0) {
        snprintf(why, cap, "%s: %s", root, strerror(-rc));
        goto out;
    }
    /* one upload of NAME at a time */
    snprintf(logp, sizeof logp, "%s/.lock", p);
    lock = open(logp, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (lock < 0 || flock(lock, LOCK_EX) < 0) {
        snprintf(why, cap, "%s: %s", logp, strerror(errno));
        goto out;
    }
    int version = 1;
    sqlite3_stmt *q = lg_prep(db, "SELECT max(version) FROM entrants WHERE name = ?1");
    if (!q)
        goto out;
    sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
    if (sqlite3_step(q) == SQLITE_ROW)
        version = sqlite3_column_int(q, 0) + 1;
    sqlite3_finalize(q);
    snprintf(vdir, sizeof vdir, "%s/v%d", p, version);
    snprintf(logp, sizeof logp, "%s/v%d.build.log", p, version);
    if (mkdir(vdir, 0755) < 0) {
        snprintf(why, cap, "%s: %s%s", vdir, strerror(errno),
                 errno == EEXIST ? " (left by an upload that was stopped? remove it)" : "");
        vdir[0] = '\0';
        goto out;
    }
    made = 1;
    if (ar_unpack(up->data, up->len, vdir, &lim, err, sizeof err) < 0) {
        snprintf(reason, sizeof reason, "refused before its check: its archive: %s", err);
        goto refuse;
    }
    if (up->build && up->build[strspn(up->build, " \t")]) {
        ar_build b = {.dir = vdir,
                      .command = up->build,
                      .secs = build_secs,
                      .memory_mb = build_mb,
                      .mode = up->sandbox.mode,
                      .userns = up->sandbox.userns,
                      .log_path = logp};
        if (ar_build_run(&b, err, sizeof err) < 0) {
            char tail[700];
            log_tail(logp, tail, sizeof tail);
            snprintf(reason, sizeof reason,
                     "refused before its check: its build failed: %s (log: %s; its end: %s)", err,
                     logp, tail[0] ? tail : "empty");
            goto refuse;
        }
    }
    if (ar_spawn_split(up->cmd, &argv, &argc, err, sizeof err) < 0) {
        snprintf(reason, sizeof reason, "refused before its check: its command: %s", err);
        goto refuse;
    }
    /* the program: a path in its folder (./bot) or a name in PATH (python3) */
    if (resolve_argv(argv, argc, vdir, path, sizeof path, name) < 0) {
        snprintf(reason, sizeof reason,
                 "refused before its check: its command: %s not found (a program of its own is "
                 "named ./PROGRAM, relative to its folder)",
                 argv[0]);
        goto refuse;
    }
    if (lg_exec(db, "BEGIN IMMEDIATE", "add") < 0)
        goto out;
    if (insert_entrant(db, name, up->cmd, argv, path, own, vdir, NULL, 0, 0) < 0) {
        lg_exec(db, "ROLLBACK", "add");
        goto out;
    }
    if (lg_exec(db, "COMMIT", "add") == 0) {
        status = AR_EXIT_OK;
        made = 0; /* the version's folder stays */
    }
    goto out;
refuse:
    /* stored, so that its author sees why (status, the web face) */
    snprintf(why, cap, "%s", reason);
    if (lg_exec(db, "BEGIN IMMEDIATE", "add") == 0) {
        if (insert_entrant_as(db, name, up->cmd, NULL, NULL, NULL, NULL, NULL, 0, 0, reason) < 0 ||
            lg_exec(db, "COMMIT", "add") < 0)
            lg_exec(db, "ROLLBACK", "add");
    }
out:
    if (made && vdir[0])
        ar_rm_tree(vdir);
    if (lock >= 0)
        close(lock);
    ar_spawn_argv_free(argv);
    sqlite3_close(db);
    return status;
}

int ar_league_retire(const char *dir, const char *name)
{
    sqlite3 *db = lg_db_open(dir, 0);
    if (!db)
        return AR_EXIT_FAIL;
    int status = AR_EXIT_FAIL;
    sqlite3_stmt *st = lg_prep(
        db, "UPDATE entrants SET status = 'retired', reason = 'retired by its owner', "
            "changed_at = ?2 WHERE name = ?1 AND status IN ('new','checking','active','held')");
    if (st) {
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
        sqlite3_bind_double(st, 2, lg_now());
        if (sqlite3_step(st) == SQLITE_DONE) {
            int n = sqlite3_changes(db);
            if (n == 0) {
                fprintf(stderr, "arena league retire: no live version of %s\n", name);
                status = AR_EXIT_USAGE;
            } else {
                printf("arena league: %s retired (%d version%s); its games stay counted\n", name, n,
                       n == 1 ? "" : "s");
                status = AR_EXIT_OK;
            }
        } else
            fprintf(stderr, "arena league retire: %s\n", lg_errmsg(db));
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return status;
}

/* ---- status, standings --------------------------------------------------------------------- */

/* The pid in DIR/league.lock if a run holds it now, else 0. */
static long running_pid(const char *dir)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/league.lock", dir);
    int fd = open(p, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    long pid = 0;
    if (flock(fd, LOCK_SH | LOCK_NB) < 0 && errno == EWOULDBLOCK) {
        char buf[32] = "";
        ssize_t n = read(fd, buf, sizeof buf - 1);
        if (n > 0)
            buf[n] = '\0';
        pid = strtol(buf, NULL, 10);
        if (pid <= 0)
            pid = -1;
    }
    close(fd);
    return pid;
}

int ar_league_status(const char *dir)
{
    sqlite3 *db = lg_db_open(dir, 0);
    if (!db)
        return AR_EXIT_FAIL;
    lg_entrant *e;
    int n = lg_entrants_load(db, &e);
    if (n < 0) {
        sqlite3_close(db);
        return AR_EXIT_FAIL;
    }
    long long sets = 0, games = 0, rounds = 0;
    sqlite3_stmt *st = lg_prep(db, "SELECT (SELECT count(*) FROM sets WHERE state = 'counted'), "
                                   "(SELECT count(*) FROM games), (SELECT count(*) FROM rounds)");
    if (st && sqlite3_step(st) == SQLITE_ROW) {
        sets = sqlite3_column_int64(st, 0);
        games = sqlite3_column_int64(st, 1);
        rounds = sqlite3_column_int64(st, 2);
    }
    sqlite3_finalize(st);
    long pid = running_pid(dir);
    printf("league %s: %lld sets, %lld games counted, %lld rating rounds; ", dir, sets, games,
           rounds);
    if (pid > 0)
        printf("running (pid %ld)\n", pid);
    else
        printf("not running\n");
    st = lg_prep(db, "SELECT count(*) FROM game_seats WHERE entrant = ?1");
    printf("%5s  %-20s  %-8s  %7s  %s\n", "id", "entrant", "status", "games", "command / reason");
    for (int i = 0; i < n; i++) {
        long long g = 0;
        if (st) {
            sqlite3_reset(st);
            sqlite3_bind_int64(st, 1, e[i].id);
            if (sqlite3_step(st) == SQLITE_ROW)
                g = sqlite3_column_int64(st, 0);
        }
        printf("%5lld  %-20s  %-8s  %7lld  %s\n", e[i].id, e[i].label, e[i].status, g,
               e[i].command);
        if (e[i].reason)
            printf("%5s  %-20s  %-8s  %7s  %s\n", "", "", "", "", e[i].reason);
    }
    sqlite3_finalize(st);
    lg_entrants_free(e, n);
    sqlite3_close(db);
    return AR_EXIT_OK;
}

static void fmt_ci(char *b, size_t cap, const json_t *v, const json_t *ci, int dec)
{
    if (!json_is_number(v)) {
        snprintf(b, cap, "-");
        return;
    }
    const json_t *lo = json_array_get(ci, 0), *hi = json_array_get(ci, 1);
    if (json_is_number(lo) && json_is_number(hi))
        snprintf(b, cap, "%+.*f [%+.*f, %+.*f]", dec, json_number_value(v), dec,
                 json_number_value(lo), dec, json_number_value(hi));
    else
        snprintf(b, cap, "%+.*f", dec, json_number_value(v));
}

int ar_league_standings(const char *dir, int as_json, int all)
{
    char p[PATH_MAX];
    /* league-standings.json: results.json's standings and entrants alone, written with it */
    snprintf(p, sizeof p, "%s/league-standings.json", dir);
    int small = access(p, F_OK) == 0;
    if (!small)
        snprintf(p, sizeof p, "%s/results.json", dir);
    json_error_t je;
    json_t *r = json_load_file(p, 0, &je);
    if (!r) {
        fprintf(stderr,
                "arena league standings: %s: %s (no set has been counted yet, or not a league)\n",
                p, access(p, F_OK) == 0 ? je.text : "missing");
        return AR_EXIT_FAIL;
    }
    const json_t *st = json_object_get(r, "standings");
    const json_t *ents = small ? json_object_get(r, "entrants")
                               : json_object_get(json_object_get(r, "config"), "entrants");
    if (as_json) {
        json_t *o = json_object();
        json_object_set(o, "name", json_object_get(r, "name"));
        json_object_set(o, "sets", json_object_get(r, "sets"));
        json_object_set(o, "games", json_object_get(r, "games"));
        json_object_set(o, "standings", (json_t *)st);
        char *s = json_dumps(o, JSON_INDENT(2) | JSON_ENSURE_ASCII);
        printf("%s\n", s);
        free(s);
        json_decref(o);
        json_decref(r);
        return AR_EXIT_OK;
    }
    printf("league %s: %lld sets, %lld games\n", json_string_value(json_object_get(r, "name")),
           (long long)json_integer_value(json_object_get(r, "sets")),
           (long long)json_integer_value(json_object_get(r, "games")));
    /* the score's label names its scale, as the report's and the tournament's do */
    printf("%4s  %-20s  %-36s  %-22s  %-7s  %6s  %s\n", "rank", "entrant",
           "score (pts/game vs average) [95% CI]", "win-Elo [95% CI]", "rank CI", "games",
           "status");
    size_t i;
    const json_t *s;
    int hidden = 0;
    json_array_foreach(st, i, s)
    {
        json_int_t en = json_integer_value(json_object_get(s, "entrant"));
        const char *stat =
            json_string_value(json_object_get(json_array_get(ents, (size_t)en), "status"));
        if (!all && stat && strcmp(stat, "retired") == 0) {
            hidden++;
            continue;
        }
        char sc[80], el[80], rk[32];
        fmt_ci(sc, sizeof sc, json_object_get(s, "score"), json_object_get(s, "score_ci"), 1);
        fmt_ci(el, sizeof el, json_object_get(s, "elo"), json_object_get(s, "elo_ci"), 0);
        const json_t *rc = json_object_get(s, "rank_ci");
        snprintf(rk, sizeof rk, "%lld-%lld", (long long)json_integer_value(json_array_get(rc, 0)),
                 (long long)json_integer_value(json_array_get(rc, 1)));
        printf("%4lld  %-20s  %-36s  %-22s  %-7s  %6lld  %s\n",
               (long long)json_integer_value(json_object_get(s, "rank")),
               json_string_value(json_object_get(s, "name")), sc, el, rk,
               (long long)json_integer_value(json_object_get(s, "games")), stat ? stat : "?");
    }
    if (hidden)
        printf("(%d retired version%s not shown: --all shows them; their games count)\n", hidden,
               hidden == 1 ? "" : "s");
    /* the same score rating on luck-adjusted totals, as results.json has it (docs/luck.md) */
    const char *sep = "luck-adjusted score [95%]:";
    json_array_foreach(st, i, s)
    {
        const json_t *e =
            json_array_get(ents, (size_t)json_integer_value(json_object_get(s, "entrant")));
        const char *stat = json_string_value(json_object_get(e, "status"));
        char sc[80];
        if (!json_is_number(json_object_get(s, "luck_adjusted_score")) ||
            (!all && stat && strcmp(stat, "retired") == 0))
            continue;
        fmt_ci(sc, sizeof sc, json_object_get(s, "luck_adjusted_score"),
               json_object_get(s, "luck_adjusted_score_ci"), 1);
        printf("%s %s %s", sep, json_string_value(json_object_get(s, "name")), sc);
        sep = ",";
    }
    if (sep[0] == ',')
        printf("\n");
    json_decref(r);
    return AR_EXIT_OK;
}

/* ---- The lock -------------------------------------------------------------------------------
 * One small function, so that the arena's shared output-folder lock can replace it. */
int ar_league_lock(const char *dir, int *folder_fd)
{
    char p[PATH_MAX], who[256] = "";
    *folder_fd = -1;
    int ofd = ar_outlock_take(dir, who, sizeof who);
    if (ofd == -EWOULDBLOCK) {
        fprintf(stderr,
                "arena league run: %s is in use by %s: one arena per folder; stop it first\n", dir,
                who);
        return -1;
    }
    if (ofd < 0) /* a file system without locks (NFS): league.lock below still guards runs */
        fprintf(stderr, "arena league: warning: cannot lock the folder %s: %s\n", dir,
                strerror(-ofd));
    snprintf(p, sizeof p, "%s/league.lock", dir);
    int fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        fprintf(stderr, "arena league run: %s: %s\n", p, strerror(errno));
        if (ofd >= 0)
            close(ofd);
        return -1;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
        int e = errno;
        char buf[32] = "";
        ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
        if (n > 0)
            buf[n] = '\0';
        buf[strcspn(buf, "\n")] = '\0';
        if (e == EWOULDBLOCK)
            fprintf(stderr,
                    "arena league run: %s is already run by process %s (it holds %s); stop it "
                    "first (kill -TERM %s)\n",
                    dir, buf[0] ? buf : "?", p, buf[0] ? buf : "PID");
        else
            fprintf(stderr, "arena league run: flock %s: %s\n", p, strerror(e));
        close(fd);
        if (ofd >= 0)
            close(ofd);
        return -1;
    }
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) < 0 || pwrite(fd, buf, (size_t)n, 0) != n) {
        fprintf(stderr, "arena league run: %s: %s\n", p, strerror(errno));
        close(fd);
        if (ofd >= 0)
            close(ofd);
        return -1;
    }
    *folder_fd = ofd;
    return fd;
}

/* ---- final ----------------------------------------------------------------------------------
 * CodinGame's way at a contest's end: the entrants are frozen (no add, no run) and the latest
 * live version of every bot plays a balanced rerun, a round-robin tournament of the
 * tournament driver in DIR/final (resumable: `final` again goes on). */

int lg_frozen(sqlite3 *db)
{
    sqlite3_stmt *st = lg_prep(db, "SELECT count(*) FROM meta WHERE key = 'frozen'");
    int f = st && sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) > 0;
    sqlite3_finalize(st);
    return f;
}

int ar_league_frozen(const char *dir)
{
    sqlite3 *db = lg_db_open(dir, 0);
    if (!db)
        return -1;
    int f = lg_frozen(db);
    sqlite3_close(db);
    return f;
}

int ar_league_freeze(const char *dir, long long final_deals)
{
    sqlite3 *db = lg_db_open(dir, 0);
    if (!db)
        return AR_EXIT_FAIL;
    char now[32], deals[32];
    snprintf(now, sizeof now, "%.3f", lg_now());
    snprintf(deals, sizeof deals, "%lld", final_deals);
    sqlite3_stmt *st = lg_prep(db, "INSERT OR IGNORE INTO meta(key, value) VALUES ('frozen', ?1)");
    int ok = st != NULL;
    if (ok) {
        sqlite3_bind_text(st, 1, now, -1, SQLITE_STATIC);
        ok = sqlite3_step(st) == SQLITE_DONE;
        sqlite3_finalize(st);
    }
    if (ok && final_deals > 0) {
        st = lg_prep(db, "INSERT OR REPLACE INTO meta(key, value) VALUES ('final_asked', ?1)");
        ok = st != NULL;
        if (ok) {
            sqlite3_bind_text(st, 1, deals, -1, SQLITE_STATIC);
            ok = sqlite3_step(st) == SQLITE_DONE;
            sqlite3_finalize(st);
        }
    }
    if (!ok)
        fprintf(stderr, "arena league: freezing %s: %s\n", dir, lg_errmsg(db));
    sqlite3_close(db);
    return ok ? AR_EXIT_OK : AR_EXIT_FAIL;
}

long long lg_final_asked(sqlite3 *db)
{
    sqlite3_stmt *st = lg_prep(db, "SELECT value FROM meta WHERE key = 'final_asked'");
    long long d = 0;
    if (st && sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
        d = atoll((const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return d > 0 ? d : 0;
}

long long ar_league_final_asked(const char *dir)
{
    sqlite3 *db = lg_db_open(dir, 0);
    if (!db)
        return -1;
    long long d = lg_final_asked(db);
    sqlite3_close(db);
    return d;
}

/* argv as one command string ar_spawn_split gives back. */
static char *join_argv(char *const *argv)
{
    size_t n = 1;
    for (int i = 0; argv[i]; i++)
        n += 2 * strlen(argv[i]) + 3;
    char *s = ar_xmalloc(n), *w = s;
    for (int i = 0; argv[i]; i++) {
        if (i)
            *w++ = ' ';
        int q = argv[i][0] == '\0' || strpbrk(argv[i], " \t\"\\") != NULL;
        if (q)
            *w++ = '"';
        for (const char *c = argv[i]; *c; c++) {
            if (q && (*c == '"' || *c == '\\'))
                *w++ = '\\';
            *w++ = *c;
        }
        if (q)
            *w++ = '"';
    }
    *w = '\0';
    return s;
}

int ar_league_final(const char *dir, long long deals, const ar_tour_run_opts *base)
{
    char ini[PATH_MAX], out[PATH_MAX], err[1024];
    sqlite3 *db = lg_db_open(dir, 0);
    if (!db)
        return AR_EXIT_FAIL;
    int folder_lock;
    int lock = ar_league_lock(dir, &folder_lock);
    if (lock < 0) {
        sqlite3_close(db);
        return AR_EXIT_FAIL;
    }
    int status = AR_EXIT_FAIL;
    ar_tour t;
    memset(&t, 0, sizeof t);
    lg_entrant *e = NULL;
    int n = lg_entrants_load(db, &e);
    if (n < 0)
        goto out;
    snprintf(ini, sizeof ini, "%s/league.ini", dir);
    if (ar_tour_load_league(ini, &t, err, sizeof err) < 0) {
        fprintf(stderr, "arena league: %s\n", err);
        goto out;
    }
    for (int i = 0; i < t.nentrants; i++) {
        free(t.entrant[i].name);
        free(t.entrant[i].command);
        free(t.entrant[i].profile);
        ar_spawn_argv_free(t.entrant[i].files);
        free(t.entrant[i].files_text);
    }
    t.entrant = ar_xrealloc(t.entrant, (size_t)(n ? n : 1) * sizeof *t.entrant);
    t.nentrants = 0;
    for (int i = 0; i < n; i++) {
        if (strcmp(e[i].status, "active") != 0 && strcmp(e[i].status, "held") != 0)
            continue;
        ar_tour_entrant *en = &t.entrant[t.nentrants++];
        memset(en, 0, sizeof *en);
        en->name = ar_xstrdup(e[i].label);
        en->command = e[i].builtin ? ar_xstrdup(e[i].command) : join_argv(e[i].argv);
        en->profile = ar_xstrdup(e[i].profile ? e[i].profile : "auto");
        en->memory_mb = e[i].memory_mb;
        en->startup_ms = e[i].startup_ms;
        if (e[i].files) {
            int nf = 0;
            while (e[i].files[nf])
                nf++;
            en->files = ar_xcalloc((size_t)nf + 1, sizeof *en->files);
            for (int f = 0; f < nf; f++)
                en->files[f] = ar_xstrdup(e[i].files[f]);
            en->files_text = join_argv(e[i].files);
        }
        en->line = 1;
    }
    if (t.nentrants < t.seats) {
        fprintf(stderr, "arena league final: %d live entrants, and a table has %d seats\n",
                t.nentrants, t.seats);
        status = AR_EXIT_USAGE;
        goto out;
    }
    if (!lg_frozen(db)) {
        sqlite3_stmt *st = lg_prep(db, "INSERT INTO meta(key, value) VALUES ('frozen', ?1)");
        char now[32];
        snprintf(now, sizeof now, "%.3f", lg_now());
        if (!st)
            goto out;
        sqlite3_bind_text(st, 1, now, -1, SQLITE_STATIC);
        int rc = sqlite3_step(st);
        sqlite3_finalize(st);
        if (rc != SQLITE_DONE)
            goto out;
        printf("arena league: %s is frozen: no entrant joins, `run` plays no more sets\n", dir);
    }
    char fname[128];
    snprintf(fname, sizeof fname, "%s-final", t.name);
    free(t.name);
    t.name = ar_xstrdup(fname);
    t.league = 0;
    t.format = 0; /* round robin */
    t.deals = deals;
    if (t.max_tables <= 0)
        t.max_tables = 2000;
    snprintf(out, sizeof out, "%s/final", dir);
    ar_tour_run_opts o = *base;
    o.out_dir = out;
    o.jobs = o.jobs > 0 ? o.jobs : t.jobs > 0 ? t.jobs : 1;
    struct stat sb;
    o.resume = stat(out, &sb) == 0;
    status = ar_tournament_run(&t, &o);
out:
    ar_tour_free(&t);
    lg_entrants_free(e, n > 0 ? n : 0);
    sqlite3_close(db);
    close(lock);
    if (folder_lock >= 0)
        close(folder_lock);
    return status;
}

/* ---- export ---------------------------------------------------------------------------------
 * The league's history for other tools: entrants.json (every version, its links, status and
 * reason), ratings.csv (every round's snapshot), sets.csv, and the latest results. */

static int copy_into(const char *dir, const char *out, const char *name)
{
    char a[PATH_MAX], b[PATH_MAX];
    snprintf(a, sizeof a, "%s/%s", dir, name);
    snprintf(b, sizeof b, "%s/%s", out, name);
    if (access(a, F_OK) != 0)
        return 0;
    int rc = ar_copy_file(a, b, 1);
    if (rc < 0)
        fprintf(stderr, "arena league export: %s: %s\n", b, strerror(-rc));
    return rc;
}

static int export_csv(sqlite3 *db, const char *path, const char *sql)
{
    sqlite3_stmt *st = lg_prep(db, sql);
    FILE *f = st ? fopen(path, "w") : NULL;
    if (!f) {
        if (st)
            fprintf(stderr, "arena league export: %s: %s\n", path, strerror(errno));
        sqlite3_finalize(st);
        return -1;
    }
    int nc = sqlite3_column_count(st);
    for (int c = 0; c < nc; c++)
        fprintf(f, "%s%s", c ? "," : "", sqlite3_column_name(st, c));
    fputc('\n', f);
    while (sqlite3_step(st) == SQLITE_ROW) {
        for (int c = 0; c < nc; c++) {
            const unsigned char *v = sqlite3_column_text(st, c);
            if (c)
                fputc(',', f);
            if (!v)
                continue;
            if (sqlite3_column_type(st, c) == SQLITE_TEXT) {
                fputc('"', f);
                for (const unsigned char *p = v; *p; p++) {
                    if (*p == '"')
                        fputc('"', f);
                    fputc(*p, f);
                }
                fputc('"', f);
            } else
                fputs((const char *)v, f);
        }
        fputc('\n', f);
    }
    sqlite3_finalize(st);
    return fclose(f) == 0 ? 0 : -1;
}

int ar_league_export(const char *dir, const char *out)
{
    sqlite3 *db = lg_db_open(dir, 0);
    if (!db)
        return AR_EXIT_FAIL;
    int rc = ar_mkdir_p(out);
    if (rc < 0) {
        fprintf(stderr, "arena league export: %s: %s\n", out, strerror(-rc));
        sqlite3_close(db);
        return AR_EXIT_FAIL;
    }
    /* one read transaction: every file of the same moment, while `run` writes on */
    int bad = lg_exec(db, "BEGIN", "export") < 0;
    lg_entrant *e = NULL;
    int n = bad ? -1 : lg_entrants_load(db, &e);
    if (n >= 0) {
        json_t *a = json_array();
        for (int i = 0; i < n; i++) {
            json_t *j = json_object();
            json_object_set_new(j, "id", json_integer(e[i].id));
            json_object_set_new(j, "name", json_string(e[i].name));
            json_object_set_new(j, "label", json_string(e[i].label));
            json_object_set_new(j, "version", json_integer(e[i].version));
            json_object_set_new(j, "prev", e[i].prev ? json_integer(e[i].prev) : json_null());
            json_object_set_new(j, "command", json_string(e[i].command));
            json_object_set_new(j, "status", json_string(e[i].status));
            json_object_set_new(j, "reason", e[i].reason ? json_string(e[i].reason) : json_null());
            json_array_append_new(a, j);
        }
        char p[PATH_MAX];
        snprintf(p, sizeof p, "%s/entrants.json", out);
        bad |= json_dump_file(a, p, JSON_INDENT(2) | JSON_ENSURE_ASCII) < 0;
        json_decref(a);
        lg_entrants_free(e, n);
        snprintf(p, sizeof p, "%s/ratings.csv", out);
        bad |= export_csv(db, p,
                          "SELECT r.round, x.at, x.sets AS league_sets, x.games AS league_games, "
                          "r.entrant, e.name, e.version, r.rank, r.rank_lo, r.rank_hi, r.score, "
                          "r.score_lo, r.score_hi, r.elo, r.elo_lo, r.elo_hi, r.games, r.sets "
                          "FROM ratings r JOIN rounds x ON x.round = r.round JOIN entrants e ON "
                          "e.id = r.entrant ORDER BY r.round, r.rank") < 0;
        snprintf(p, sizeof p, "%s/sets.csv", out);
        bad |= export_csv(db, p,
                          "SELECT id, kind, deal, seats, state, round, started_at, finished_at "
                          "FROM sets ORDER BY id") < 0;
    } else
        bad = 1;
    lg_exec(db, "COMMIT", "export");
    sqlite3_close(db);
    for (int i = 0; i < 3; i++)
        bad |= copy_into(dir, out,
                         (const char *[]){"results.json", "standings.csv", "games.jsonl"}[i]) < 0;
    if (!bad)
        printf("arena league: %s: entrants.json, ratings.csv, sets.csv, results.json, "
               "standings.csv, games.jsonl\n",
               out);
    return bad ? AR_EXIT_FAIL : AR_EXIT_OK;
}
