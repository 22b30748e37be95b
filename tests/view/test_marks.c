/* test_marks.c - what every page shows alike (arena/view/marks.c): the marks of an entrant,
 * the one rounding rule of the figures, and text with its absolute paths shortened. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/util.h"
#include "view/view.h"

static const char *fmt(double v, int stored, int shown, int sign)
{
    static char b[64];
    ar_fmt_num(b, sizeof b, v, stored, shown, sign);
    return b;
}

/* Values the report wrote differently from the terminal table before: printf of results.json's
 * 3-decimal value rounds its binary approximation half to even and keeps "-0.0"; the terminal
 * rounds the value itself and never writes "-0.0". */
static void test_fmt_rounds_the_decimal_value(void **state)
{
    (void)state;
    assert_string_equal(fmt(-0.04, 3, 1, 1), "+0.0");  /* printf: "-0.0" */
    assert_string_equal(fmt(-0.001, 3, 1, 1), "+0.0"); /* printf: "-0.0" */
    assert_string_equal(fmt(52.65, 3, 1, 1), "+52.7"); /* printf: "+52.6" (52.6499999...) */
    assert_string_equal(fmt(52.75, 3, 1, 1), "+52.8");
    assert_string_equal(fmt(251.25, 3, 1, 1), "+251.3"); /* printf: "+251.2" (half to even) */
    assert_string_equal(fmt(-52.65, 3, 1, 1), "-52.7");
    assert_string_equal(fmt(0.0, 3, 1, 1), "+0.0");
    assert_string_equal(fmt(-0.0, 3, 1, 0), "0.0");
    assert_string_equal(fmt(1234.5, 1, 0, 1), "+1235");
    assert_string_equal(fmt(-1234.5, 1, 0, 1), "-1235");
    assert_string_equal(fmt(0.495, 4, 2, 0), "0.50");
    assert_string_equal(fmt(0.9449, 4, 2, 0), "0.94");
    assert_string_equal(fmt(NAN, 3, 1, 1), "-");
    assert_string_equal(fmt(INFINITY, 3, 1, 1), "-");
    assert_string_equal(fmt(7, 3, 3, 0), "7.000");
}

/* The rule shared: the raw value (the terminal's) and the value results.json stores (rounded
 * to 3 decimals as the tournament's jnum does, written and read back as JSON) give the same
 * text, so a table printed from either agrees. */
static void test_fmt_raw_and_stored_agree(void **state)
{
    (void)state;
    uint64_t x = 88172645463325252ULL;
    int n = 0;
    for (int i = 0; i < 200000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        double raw = ((double)(x % 2000000001ULL) - 1e9) / 1e6; /* -1000 .. 1000 */
        if (i % 3 == 0)
            raw = round(raw * 1000) / 1000 + ((double)(x % 1001) - 500) / 1e6; /* near ties */
        for (int stored = 1; stored <= 4; stored += 2) {
            double p = pow(10, stored), r = round(raw * p) / p;
            json_t *j = json_real(r == 0 ? 0.0 : r);
            char *s = json_dumps(j, JSON_ENCODE_ANY);
            json_t *back = json_loads(s, JSON_DECODE_ANY, NULL);
            char a[64], b[64];
            for (int shown = 0; shown <= (stored < 2 ? stored : 2); shown++) {
                ar_fmt_num(a, sizeof a, raw, stored, shown, 1);
                ar_fmt_num(b, sizeof b, json_number_value(back), stored, shown, 1);
                if (strcmp(a, b) != 0)
                    fail_msg("raw %.9f stored %s: %s and %s", raw, s, a, b);
                n++;
            }
            free(s);
            json_decref(j);
            json_decref(back);
        }
    }
    assert_true(n > 600000);
}

static void test_marks_text(void **state)
{
    (void)state;
    json_t *t = json_loads("{\"never_played\":true,\"disqualified\":true,\"error_games\":18,"
                           "\"games\":18,\"forfeits\":18}",
                           0, NULL);
    av_marks m;
    char b[200];
    av_marks_read(t, &m);
    assert_int_equal(m.substituted, -1); /* a tournament standing: not known */
    av_marks_text(&m, 0, b, sizeof b);
    assert_string_equal(b, "never played, DQ (errors in 18 of 18), 18 forfeits");
    av_marks_text(&m, 1, b, sizeof b);
    assert_string_equal(b, "DQ (errors in 18 of 18), 18 forfeits");
    json_decref(t);
    json_t *bot = json_loads("{\"games\":6,\"error_games\":1,\"forfeits\":1,"
                             "\"substituted_actions\":1,\"disqualified\":false}",
                             0, NULL);
    av_marks_read(bot, &m);
    av_marks_text(&m, 0, b, sizeof b);
    assert_string_equal(b, "1 forfeit, 1 move substituted");
    json_decref(bot);
    memset(&m, 0, sizeof m);
    assert_int_equal(av_marks_text(&m, 0, b, sizeof b), 0);
    assert_string_equal(b, "");
    m.substituted = 40;
    av_marks_text(&m, 0, b, 10); /* cut, never past the buffer */
    assert_int_equal(strlen(b), 9);
}

static void test_scrub_paths(void **state)
{
    (void)state;
    char b[256];
    av_scrub_paths("exited 1; stderr ends: \"File \"/home/ann/bots/bot.py\", line 3\"", b,
                   sizeof b);
    assert_string_equal(b, "exited 1; stderr ends: \"File \".../bot.py\", line 3\"");
    av_scrub_paths("/usr/bin/python3: not found; 1/2 done, a / b, log=/tmp/x/y.log", b, sizeof b);
    assert_string_equal(b, ".../python3: not found; 1/2 done, a / b, log=.../y.log");
    av_scrub_paths("(/a/b/) and /", b, sizeof b);
    assert_string_equal(b, "(.../) and /");
    av_scrub_paths("/very/long/path/name", b, 8);
    assert_true(strlen(b) < 8);
    av_scrub_paths(NULL, b, sizeof b);
    assert_string_equal(b, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fmt_rounds_the_decimal_value),
        cmocka_unit_test(test_fmt_raw_and_stored_agree),
        cmocka_unit_test(test_marks_text),
        cmocka_unit_test(test_scrub_paths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
