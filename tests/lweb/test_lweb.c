/* test_lweb.c - the pieces of the league's web face that take a browser's words: SHA-256 of
 * the authors' secrets (FIPS 180-4 vectors), authors' names, game ids and log names (nothing
 * that could leave the league's folder), and an author's secret checked against league.db. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "league/league.h"
#include "lweb/lweb.h"

static void sha256_vectors(void **state)
{
    (void)state;
    char h[65];
    ar_sha256_hex("", 0, h);
    assert_string_equal(h, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    ar_sha256_hex("abc", 3, h);
    assert_string_equal(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    ar_sha256_hex(two, strlen(two), h);
    assert_string_equal(h, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    char *a = malloc(1000000);
    memset(a, 'a', 1000000);
    ar_sha256_hex(a, 1000000, h);
    free(a);
    assert_string_equal(h, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

static void names(void **state)
{
    (void)state;
    assert_true(ar_league_author_name_ok("alice"));
    assert_true(ar_league_author_name_ok("a-b_C9"));
    assert_false(ar_league_author_name_ok(""));
    assert_false(ar_league_author_name_ok(NULL));
    assert_false(ar_league_author_name_ok("@host"));
    assert_false(ar_league_author_name_ok("../x"));
    assert_false(ar_league_author_name_ok("a b"));
    assert_false(ar_league_author_name_ok("abcdefghijklmnopqrstuvwxyz0123456")); /* 33 */
    assert_true(lw_game_id_ok("L5-s1-r0"));
    assert_false(lw_game_id_ok("../league"));
    assert_false(lw_game_id_ok(".hidden"));
    assert_false(lw_game_id_ok("a/b"));
    assert_false(lw_game_id_ok("a..b"));
    assert_false(lw_game_id_ok(""));
}

static void log_labels(void **state)
{
    (void)state;
    char l[64];
    assert_true(lw_log_label("s12-slot0-alpy.log", l, sizeof l));
    assert_string_equal(l, "alpy");
    assert_true(lw_log_label("s3-slot11-bob-c.v2.log", l, sizeof l));
    assert_string_equal(l, "bob-c.v2");
    assert_false(lw_log_label("s12-slot0-.log", l, sizeof l));
    assert_false(lw_log_label("x12-slot0-a.log", l, sizeof l));
    assert_false(lw_log_label("s-slot0-a.log", l, sizeof l));
    assert_false(lw_log_label("s1-slot-a.log", l, sizeof l));
    assert_false(lw_log_label("s1-slot0-a.txt", l, sizeof l));
    assert_false(lw_log_label("s1-slot0-../../x.log", l, sizeof l));
    assert_false(lw_log_label("s1-slot0-a/b.log", l, sizeof l));
    char small[3];
    assert_false(lw_log_label("s1-slot0-abcd.log", small, sizeof small));
}

static void secrets(void **state)
{
    (void)state;
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    char h[65], sql[256];
    ar_sha256_hex("0123456789abcdef0123456789abcdef", 32, h);
    snprintf(sql, sizeof sql,
             "CREATE TABLE authors(name TEXT PRIMARY KEY, hash TEXT NOT NULL, added_at REAL);"
             "INSERT INTO authors VALUES('alice', '%s', 0);",
             h);
    assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    assert_true(ar_league_author_check(db, "alice", "0123456789abcdef0123456789abcdef"));
    assert_false(ar_league_author_check(db, "alice", "0123456789abcdef0123456789abcdee"));
    assert_false(ar_league_author_check(db, "alice", "0123456789abcdef"));
    assert_false(ar_league_author_check(db, "bob", "0123456789abcdef0123456789abcdef"));
    assert_false(
        ar_league_author_check(db, "alice' OR 1=1 --", "0123456789abcdef0123456789abcdef"));
    assert_false(ar_league_author_check(db, NULL, NULL));
    sqlite3_close(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sha256_vectors),
        cmocka_unit_test(names),
        cmocka_unit_test(log_labels),
        cmocka_unit_test(secrets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
