/* test_feed.c - the spectator server's pieces without a socket: which game ids are taken
 * (and which are refused), and the feed: lines released only after the
 * delay, torn last lines kept back, a rewritten (shorter) journal read again, a game in
 * progress followed from its record, record names that are not game ids ignored, and the
 * final standings taken from results.json. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "live/feed.h"
#include "live/live.h"

static void test_game_ids(void **state)
{
    (void)state;
    /* the paths themselves are okr_web's exact routes (tests/web); the id comes in ?game= */
    assert_true(al_game_id_ok("t1-s0-d0-T0-r1"));
    assert_true(al_game_id_ok("m1-d0-r0"));
    assert_true(al_game_id_ok("a.b_c"));
    static const char *const refused[] = {NULL,   "",        ".",     "..",
                                          "../x", ".hidden", "a/b",   "a%2fb",
                                          "a b",  "a..b",    "x;rm",  "../../etc/passwd",
                                          "a\\b", "a\nb",    "%2e%2e"};
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++)
        assert_false(al_game_id_ok(refused[i]));
    char longid[300];
    memset(longid, 'a', sizeof longid - 1);
    longid[sizeof longid - 1] = 0;
    assert_false(al_game_id_ok(longid));
    longid[AL_MAX_ID - 1] = 0;
    assert_true(al_game_id_ok(longid));
    longid[AL_MAX_ID - 1] = 'a';
    longid[AL_MAX_ID] = 0;
    assert_false(al_game_id_ok(longid));
}

static char dir[64];

static void put(const char *name, const char *text, const char *mode)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, mode);
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static json_t *snap(al_feed *f)
{
    json_t *j = json_loads(al_feed_snapshot(f, NULL, NULL), 0, NULL);
    assert_non_null(j);
    return j;
}

static long long num(json_t *j, const char *key)
{
    return json_integer_value(json_object_get(j, key));
}

#define GAME(i, id, a, b)                                                                          \
    "{\"game\":" #i ",\"sum\":\"0\",\"data\":{\"game_id\":\"" id "\",\"names\":[\"x\",\"y\"],"     \
    "\"final_total\":[" #a "," #b "],\"placements\":[1,2],\"verdicts\":[]}}\n"

static void test_feed(void **state)
{
    (void)state;
    strcpy(dir, "/tmp/okr-test-feed-XXXXXX");
    assert_non_null(mkdtemp(dir));
    al_feed *f = al_feed_new(dir, "tournament", "t", 1.0); /* one second of delay */
    json_t *j = snap(f);
    assert_string_equal(json_string_value(json_object_get(j, "state")), "waiting");
    json_decref(j);

    /* two games and a torn third line */
    put("journal.jsonl", GAME(0, "t42-g0", 10, 0) GAME(1, "t42-g1", 0, 30) "{\"game\":2,\"su", "w");
    al_feed_poll(f, 1000);
    j = snap(f);
    assert_int_equal(num(j, "games"), 0); /* read, not yet released */
    json_decref(j);
    al_feed_poll(f, 1999);
    j = snap(f);
    assert_int_equal(num(j, "games"), 0);
    json_decref(j);
    al_feed_poll(f, 2000);
    j = snap(f);
    assert_int_equal(num(j, "games"), 2);
    json_t *st = json_object_get(j, "standings");
    assert_int_equal(json_array_size(st), 2);
    /* y: 30 points in 2 games, x: 10 */
    assert_string_equal(json_string_value(json_object_get(json_array_get(st, 0), "name")), "y");
    assert_true(json_number_value(json_object_get(json_array_get(st, 0), "score")) == 15.0);
    assert_false(json_is_true(json_object_get(j, "final")));
    /* viewers know a game by its id without the run's seed (t42-): the full id is refused, so
     * that a viewer cannot test a guess of the seed */
    assert_string_equal(al_feed_game_released(f, "g1"), "t42-g1");
    assert_null(al_feed_game_released(f, "t42-g1"));
    assert_null(al_feed_game_released(f, "g2"));
    assert_null(al_feed_game_released(f, "../g1"));
    assert_string_equal(
        json_string_value(json_object_get(json_array_get(json_object_get(j, "recent"), 0), "id")),
        "g1");
    assert_null(strstr(al_feed_snapshot(f, NULL, NULL), "t42"));
    json_decref(j);

    /* the journal rewritten shorter (a repair): read again from the start */
    put("journal.jsonl", GAME(0, "t42-g0", 10, 0), "w");
    al_feed_poll(f, 3000);
    al_feed_poll(f, 4000);
    j = snap(f);
    assert_int_equal(num(j, "games"), 1);
    json_decref(j);

    /* a game in progress: its record, followed once told of it */
    mkdir(al_feed_records_dir(f), 0755);
    put("records/t42-g5.jsonl",
        "{\"type\":\"header\",\"game_id\":\"t42-g5\",\"names\":[\"x\",\"y\"]}\n"
        "{\"type\":\"action\",\"n\":0,\"hand\":1,\"seat\":0,\"action\":\"draw\"}\n"
        "{\"type\":\"action\",\"n\":1,\"hand\":1,\"seat\":0,\"action\":\"disc",
        "w");
    al_feed_touch(f, "t42-g5.jsonl");
    al_feed_touch(f, "..jsonl");    /* not a game id */
    al_feed_touch(f, ".g.jsonl");   /* hidden */
    al_feed_touch(f, "g6.txt");     /* not a record */
    al_feed_touch(f, "../x.jsonl"); /* a path */
    al_feed_poll(f, 5000);
    size_t len = 0;
    assert_null(al_feed_table_record(f, "g5", &len)); /* nothing released yet */
    al_feed_poll(f, 6000);
    j = snap(f);
    json_t *tables = json_object_get(j, "tables");
    assert_int_equal(json_array_size(tables), 1);
    json_t *t = json_array_get(tables, 0);
    assert_string_equal(json_string_value(json_object_get(t, "id")), "g5");
    assert_int_equal(num(t, "actions"), 1); /* the torn second action is kept back */
    json_decref(j);
    assert_null(al_feed_table_record(f, "t42-g5", &len)); /* the full id is refused */
    char *rec = al_feed_table_record(f, "g5", &len);
    assert_non_null(rec);
    assert_int_equal(strchr(rec, '\0') - rec, (long)len);
    assert_non_null(strstr(rec, "\"draw\""));
    assert_null(strstr(rec, "disc"));
    free(rec);
    put("records/t42-g5.jsonl", "ard 5C\"}\n", "a");
    al_feed_poll(f, 6500);
    al_feed_poll(f, 7500);
    j = snap(f);
    t = json_array_get(json_object_get(j, "tables"), 0);
    assert_int_equal(num(t, "actions"), 2);
    assert_string_equal(json_string_value(json_object_get(
                            json_array_get(json_object_get(t, "moves"), 1), "action")),
                        "discard 5C");
    json_decref(j);

    /* a hand ends and 20 more moves follow: the totals after the hand, the hand of the last
     * move, and its last 16 moves in order */
    char more[4096] = "{\"type\":\"hand_end\",\"hand\":1,\"totals\":[3,4]}\n";
    for (int q = 0; q < 20; q++)
        snprintf(more + strlen(more), sizeof more - strlen(more),
                 "{\"type\":\"action\",\"n\":%d,\"hand\":2,\"seat\":%d,\"action\":\"m%d\"}\n",
                 q + 2, q % 2, q);
    put("records/t42-g5.jsonl", more, "a");
    al_feed_poll(f, 7550);
    al_feed_poll(f, 8550);
    j = snap(f);
    t = json_array_get(json_object_get(j, "tables"), 0);
    assert_int_equal(num(t, "actions"), 22);
    assert_int_equal(num(t, "hand"), 2);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(t, "totals"), 1)), 4);
    json_t *mv = json_object_get(t, "moves");
    assert_int_equal(json_array_size(mv), 16);
    assert_string_equal(json_string_value(json_object_get(json_array_get(mv, 0), "action")), "m4");
    assert_string_equal(json_string_value(json_object_get(json_array_get(mv, 15), "action")),
                        "m19");
    json_decref(j);

    /* the game ends: once released it is hidden from the tables; freeing it delay + 2 s later
     * changes nothing shown, so the version stays (a new version answers every long poll) */
    put("records/t42-g5.jsonl", "{\"type\":\"result\",\"totals\":[1,2]}\n", "a");
    al_feed_poll(f, 7600);
    al_feed_poll(f, 8600);
    j = snap(f);
    assert_int_equal(json_array_size(json_object_get(j, "tables")), 0);
    long long v0 = num(j, "version"), v1 = -1;
    json_decref(j);
    al_feed_poll(f, 7600 + 1000 + 2001); /* the ended table is freed now */
    al_feed_snapshot(f, NULL, &v1);
    assert_int_equal(v1, v0);

    /* the end: results.json's standings, released after the delay */
    put("results.json",
        "{\"standings\":[{\"rank\":1,\"name\":\"x\",\"score\":5.5,\"score_ci\":[1,9],\"games\":1,"
        "\"wins\":1,\"mean_place\":1.0},{\"rank\":2,\"name\":\"dead\",\"score\":-0.04,"
        "\"score_ci\":[-0.25,52.75],\"games\":18,\"wins\":0,\"mean_place\":2.0,"
        "\"never_played\":true,\"disqualified\":true,\"error_games\":18,\"forfeits\":18}]}",
        "w");
    al_feed_poll(f, 11000);
    assert_int_equal(al_feed_finished(f), 0);
    al_feed_poll(f, 12000);
    assert_int_equal(al_feed_finished(f), 1);
    j = snap(f);
    assert_string_equal(json_string_value(json_object_get(j, "state")), "finished");
    assert_true(json_is_true(json_object_get(j, "final")));
    st = json_object_get(j, "standings");
    assert_int_equal(json_array_size(st), 2);
    assert_true(json_number_value(json_object_get(json_array_get(st, 0), "score")) == 5.5);
    /* the marks as the report writes them (issue 25), none for an entrant without */
    assert_string_equal(json_string_value(json_object_get(json_array_get(st, 0), "marks")), "");
    json_t *dead = json_array_get(st, 1);
    assert_string_equal(json_string_value(json_object_get(dead, "marks")),
                        "never played, DQ (errors in 18 of 18), 18 forfeits");
    assert_true(json_is_true(json_object_get(dead, "never_played")));
    /* and its figures by the report's rounding: never "-0.0", 52.750 is +52.8 */
    assert_string_equal(json_string_value(json_object_get(dead, "score_text")), "+0.0");
    assert_string_equal(json_string_value(json_object_get(dead, "ci_text")), "[-0.3, +52.8]");
    json_decref(j);
    al_feed_free(f);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_game_ids),
        cmocka_unit_test(test_feed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
