/* db.h - the league's database (league.db), shared by the commands (league.c) and the run
 * (run.c). Private to the league room. */
#ifndef AR_LEAGUE_DB_H
#define AR_LEAGUE_DB_H

#include <sqlite3.h>
#include <stdint.h>

#include "match/policy.h"

/* Open DIR/league.db (create: only `init`). WAL, synchronous=FULL, foreign keys, a busy
 * timeout so that `add` and `status` work while `run` writes. NULL after printing why. */
sqlite3 *lg_db_open(const char *dir, int create);
/* sqlite's message for db's last error, with the system's (errno) when there is one:
 * "disk I/O error (No space left on device)". A static buffer. */
const char *lg_errmsg(sqlite3 *db);
/* Run sql (no rows wanted); 0, or -1 after printing sqlite's message with what. */
int lg_exec(sqlite3 *db, const char *sql, const char *what);
/* A prepared statement, or NULL after printing why. */
sqlite3_stmt *lg_prep(sqlite3 *db, const char *sql);

/* One entrant version, as the database holds it. */
typedef struct lg_entrant {
    long long id;
    char *name;  /* NAME */
    char *label; /* NAME for version 1, NAME.vN after: unique, names it in results */
    int version;
    long long prev; /* 0: none */
    char *command;  /* as typed */
    char **argv;    /* resolved (NULL for a built-in) */
    char *path;     /* the program, absolute */
    char **files;   /* own files, absolute (NULL: none) */
    char *cwd;      /* where it was added */
    char *profile;  /* NULL: auto */
    uint32_t memory_mb, startup_ms;
    int builtin;
    ar_policy policy;
    char status[16]; /* new checking active refused retired held */
    char *reason;
    double held_until; /* epoch seconds */
} lg_entrant;

/* Every entrant, by id. Returns the count (>= 0) or -1. */
int lg_entrants_load(sqlite3 *db, lg_entrant **out);
void lg_entrants_free(lg_entrant *e, int n);

/* Set an entrant's status and reason (NULL: none). 0 or -1. */
int lg_set_status(sqlite3 *db, long long id, const char *status, const char *reason,
                  double held_until);

/* Is the league frozen by `final`? */
int lg_frozen(sqlite3 *db);
/* The final's deals the host asked for from the web face (ar_league_freeze), or 0. */
long long lg_final_asked(sqlite3 *db);

/* Make the test games' tables if missing (testgames.c): tests, test_games. 0 or -1 printed. */
int lg_tests_schema(sqlite3 *db);

/* Seconds since the epoch. */
double lg_now(void);

#endif
