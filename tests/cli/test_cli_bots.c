/* test_cli_bots.c - the entrant list of `arena match` and `arena check-bot` (cli_bots.c):
 * names derived from the commands, made unique, and the commands refused before anything
 * runs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "cli/cli.h"
#include "cli/cli_bots.h"

/* ---- Entrant names --------------------------------------------------------------------------- */

static void test_entrant_names(void **state)
{
    (void)state;
    ar_cli_bots l;
    memset(&l, 0, sizeof l);
    assert_int_equal(ar_cli_bots_add(&l, "--bot", "sh -c true"), 0);
    assert_int_equal(ar_cli_bots_add(&l, "--bot", "sh /x/y/random_bot.py"), 0);
    assert_int_equal(ar_cli_bots_add(&l, "--bot", "sh /x/y/random_bot.py"), 0);
    assert_int_equal(ar_cli_bots_add(&l, "--bot", "@greedy"), 0);
    assert_int_equal(ar_cli_bots_add(&l, "--bot", "sh"), 0);
    assert_int_equal(ar_cli_bots_name(&l, "mine"), 0);
    assert_int_equal(ar_cli_bots_add(&l, "--bot", "@nope"), -1);
    assert_int_equal(ar_cli_bots_add(&l, "--bot", "no-such-program-okr"), -1);
    assert_int_equal(ar_cli_bots_add(&l, "--bot", "\"open"), -1);
    assert_int_equal(l.n, 5);
    assert_int_equal(ar_cli_bots_finish(&l), AR_EXIT_OK);
    /* "sh -c true": the interpreter's first non-flag argument names it */
    assert_string_equal(l.e[0].name, "true");
    assert_string_equal(l.e[1].name, "random_bot");
    assert_string_equal(l.e[2].name, "random_bot#2");
    assert_string_equal(l.e[3].name, "@greedy");
    assert_int_equal(l.e[3].builtin, 1);
    assert_int_equal(l.e[3].policy, AR_POLICY_GREEDY);
    assert_string_equal(l.e[4].name, "mine");
    assert_true(l.e[0].path[0] == '/');
    ar_cli_bots_free(&l);

    memset(&l, 0, sizeof l);
    assert_int_equal(ar_cli_bots_name(&l, "first"), -1); /* --name before any --bot */
    assert_int_equal(ar_cli_bots_add(&l, "--bot", "sh"), 0);
    assert_int_equal(ar_cli_bots_name(&l, "x"), 0);
    assert_int_equal(ar_cli_bots_add(&l, "--bot", "sh"), 0);
    assert_int_equal(ar_cli_bots_name(&l, "x"), 0);
    assert_int_equal(ar_cli_bots_finish(&l), AR_EXIT_USAGE); /* the same name twice */
    ar_cli_bots_free(&l);
}

/* --files PATH belongs to the --bot before it (a program, not a built-in) and must exist. */
static void test_files(void **state)
{
    (void)state;
    ar_cli_bots l;
    memset(&l, 0, sizeof l);
    assert_int_equal(ar_cli_bots_files(&l, "/usr"), -1); /* before any --bot */
    assert_int_equal(ar_cli_bots_add(&l, "--bot", "sh"), 0);
    assert_int_equal(ar_cli_bots_files(&l, "/usr/share"), 0);
    assert_int_equal(ar_cli_bots_files(&l, "/bin/sh"), 0);
    assert_int_equal(ar_cli_bots_files(&l, "/no/such/okr-folder"), -1);
    assert_int_equal(ar_cli_bots_files(&l, ""), -1);
    assert_int_equal(ar_cli_bots_add(&l, "--bot", "@random"), 0);
    assert_int_equal(ar_cli_bots_files(&l, "/usr"), -1); /* a built-in has no files */
    assert_int_equal(ar_cli_bots_add(&l, "--bot", "sh"), 0);
    assert_int_equal(ar_cli_bots_finish(&l), AR_EXIT_OK);
    assert_non_null(l.e[0].own);
    assert_string_equal(l.e[0].own[0], "/usr/share");
    assert_string_equal(l.e[0].own[1], "/bin/sh");
    assert_null(l.e[0].own[2]);
    assert_null(l.e[1].own);
    assert_null(l.e[2].own);
    ar_cli_bots_free(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_entrant_names),
        cmocka_unit_test(test_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
