/* testgames.c - an author's test games (league.h ar_league_test_ask, docs/league.md "Test
 * games"): a request stored in league.db's tests table, played by the running league in one of
 * its slots (run.c) and kept in test_games, apart from the rated games: no refit, no standing,
 * no leaderboard ever reads them. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "db.h"
#include "league.h"
#include "tour/tourfile.h"
#include "util/util.h"

/* tests: one request (a duplicate set of the author's bot against an entrant they chose);
 * state asked -> playing -> played | failed (a run killed in the middle asks it again).
 * test_games: its games; seat is the author's bot's seat in each. */
static const char TESTS_SCHEMA[] =
    "CREATE TABLE IF NOT EXISTS tests(id INTEGER PRIMARY KEY, author TEXT NOT NULL,"
    " entrant TEXT NOT NULL, opponent TEXT NOT NULL, state TEXT NOT NULL CHECK (state IN"
    " ('asked','playing','played','failed')), reason TEXT, asked_at REAL NOT NULL,"
    " finished_at REAL);"
    "CREATE INDEX IF NOT EXISTS tests_by_author ON tests(author, asked_at);"
    "CREATE TABLE IF NOT EXISTS test_games(id INTEGER PRIMARY KEY, test INTEGER NOT NULL"
    " REFERENCES tests(id), rotation INTEGER NOT NULL, game_id TEXT NOT NULL UNIQUE,"
    " seat INTEGER NOT NULL, total INTEGER, place INTEGER, error INTEGER NOT NULL,"
    " payload TEXT NOT NULL);"
    "CREATE INDEX IF NOT EXISTS test_games_by_test ON test_games(test);";

int lg_tests_schema(sqlite3 *db)
{
    return lg_exec(db, TESTS_SCHEMA, "the test games' tables");
}

/* The live version's status of NAME ("" when none) */
static void status_of(sqlite3 *db, const char *name, char *out, size_t cap)
{
    out[0] = 0;
    sqlite3_stmt *st = lg_prep(db, "SELECT status FROM entrants WHERE name = ?1 ORDER BY "
                                   "version DESC LIMIT 1");
    if (!st)
        return;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
        snprintf(out, cap, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
}

int ar_league_test_ask(const char *dir, const char *author, const char *mine, const char *opponent,
                       char *why, size_t cap)
{
    why[0] = 0;
    if (!ar_league_author_name_ok(author) || !ar_league_author_name_ok(mine) || !opponent[0] ||
        strlen(opponent) > 32) {
        snprintf(why, cap, "a bot of yours and an entrant to play were expected");
        return AR_EXIT_USAGE;
    }
    if (strcmp(mine, opponent) == 0) {
        snprintf(why, cap, "choose an entrant other than %s itself", mine);
        return AR_EXIT_USAGE;
    }
    char ini[PATH_MAX], err[1024];
    snprintf(ini, sizeof ini, "%s/league.ini", dir);
    ar_tour t;
    memset(&t, 0, sizeof t);
    if (ar_tour_load_league(ini, &t, err, sizeof err) < 0) {
        snprintf(why, cap, "%s", err);
        return AR_EXIT_FAIL;
    }
    int per_hour = t.test_sets_per_hour, k = t.seats;
    ar_tour_free(&t);
    sqlite3 *db = lg_db_open(dir, 0);
    if (!db) {
        snprintf(why, cap, "the league's database cannot be opened");
        return AR_EXIT_FAIL;
    }
    int status = AR_EXIT_USAGE;
    char owner[64] = "", st_mine[16], st_opp[16];
    if (lg_tests_schema(db) < 0 || lg_exec(db, "BEGIN IMMEDIATE", "a test request") < 0) {
        snprintf(why, cap, "the league's database is busy: try again");
        status = AR_EXIT_FAIL;
        goto out;
    }
    status_of(db, mine, st_mine, sizeof st_mine);
    status_of(db, opponent, st_opp, sizeof st_opp);
    if (!ar_league_owner(db, mine, owner, sizeof owner) || strcmp(owner, author) != 0)
        snprintf(why, cap, "%s is not your bot", mine);
    else if (lg_frozen(db))
        snprintf(why, cap, "the league is frozen for its final: no more games");
    else if (strcmp(st_mine, "active") != 0)
        snprintf(why, cap, "%s is not playing now (%s): test games wait for its check", mine,
                 st_mine[0] ? st_mine : "no version");
    else if (strcmp(st_opp, "active") != 0)
        snprintf(why, cap, "%s is not playing now%s%s%s", opponent, st_opp[0] ? " (" : "", st_opp,
                 st_opp[0] ? ")" : ": no such entrant");
    else {
        /* the limit: requests of the last hour, whatever became of them */
        sqlite3_stmt *st = lg_prep(db, "SELECT count(*), min(asked_at) FROM tests WHERE author "
                                       "= ?1 AND asked_at > ?2");
        int n = 0;
        double first = 0, now = lg_now();
        if (st) {
            sqlite3_bind_text(st, 1, author, -1, SQLITE_STATIC);
            sqlite3_bind_double(st, 2, now - 3600);
            if (sqlite3_step(st) == SQLITE_ROW) {
                n = sqlite3_column_int(st, 0);
                first = sqlite3_column_double(st, 1);
            }
            sqlite3_finalize(st);
        }
        if (n >= per_hour) {
            char when[40] = "";
            time_t at = (time_t)(first + 3600) + 1;
            struct tm tm;
            gmtime_r(&at, &tm);
            strftime(when, sizeof when, "%H:%M UTC", &tm);
            snprintf(why, cap,
                     "refused: at most %d test set%s an hour per author (the league's "
                     "test_sets_per_hour)%s%s",
                     per_hour, per_hour == 1 ? "" : "s", per_hour ? "; the next one from " : "",
                     per_hour ? when : "");
            status = AR_LEAGUE_TEST_LIMITED;
        } else if ((st = lg_prep(db, "INSERT INTO tests(author, entrant, opponent, state, "
                                     "asked_at) VALUES (?1, ?2, ?3, 'asked', ?4)")) != NULL) {
            sqlite3_bind_text(st, 1, author, -1, SQLITE_STATIC);
            sqlite3_bind_text(st, 2, mine, -1, SQLITE_STATIC);
            sqlite3_bind_text(st, 3, opponent, -1, SQLITE_STATIC);
            sqlite3_bind_double(st, 4, now);
            if (sqlite3_step(st) == SQLITE_DONE) {
                status = AR_EXIT_OK;
                snprintf(why, cap,
                         "Asked: %d unrated games of %s against %s (one duplicate set), played "
                         "between the rated sets; %d of %d this hour",
                         k, mine, opponent, n + 1, per_hour);
            } else {
                snprintf(why, cap, "%s", lg_errmsg(db));
                status = AR_EXIT_FAIL;
            }
            sqlite3_finalize(st);
        }
    }
    lg_exec(db, status == AR_EXIT_OK ? "COMMIT" : "ROLLBACK", "a test request");
out:
    sqlite3_close(db);
    return status;
}
