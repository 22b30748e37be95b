/* test_html.c - the helpers both pages are written with (arena/view/html.c): text escaped for
 * HTML, JSON that cannot close its script element, and templates filled by name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "view/view.h"

/* what f wrote, as a string (malloc'd) */
static char *written(FILE *f, char **buf)
{
    fclose(f);
    return *buf;
}

static void test_html_text_escapes_markup(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    av_html_text(f, "<b a=\"x\">Tom & 'Jerry'</b>");
    assert_string_equal(written(f, &buf),
                        "&lt;b a=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/b&gt;");
    free(buf);
}

static void test_json_script_cannot_close_the_element(void **state)
{
    (void)state;
    json_t *j =
        json_pack("{s:s,s:[s]}", "name", "</script><script>alert(1)</script>", "x", "<!-- & -->");
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    assert_int_equal(av_json_script(f, j), 0);
    char *s = written(f, &buf);
    assert_null(strchr(s, '<'));
    assert_null(strchr(s, '>'));
    assert_null(strchr(s, '&'));
    /* and it is still the same JSON */
    json_t *back = json_loads(s, 0, NULL);
    assert_non_null(back);
    assert_true(json_equal(j, back));
    json_decref(back);
    json_decref(j);
    free(buf);
}

static int fill(void *ctx, FILE *out, const char *name)
{
    int *calls = ctx;
    (*calls)++;
    if (strcmp(name, "STOP") == 0)
        return 7;
    fprintf(out, "[%s]", name);
    return 0;
}

static void test_template_fills_names_only(void **state)
{
    (void)state;
    static const unsigned char t[] = "a @ONE@ b @two@ c@@ d @THREE_X@@ e@ f@g@";
    char *buf = NULL;
    size_t n = 0;
    int calls = 0;
    FILE *f = open_memstream(&buf, &n);
    assert_int_equal(av_template(f, t, sizeof t - 1, fill, &calls), 0);
    assert_string_equal(written(f, &buf), "a [ONE] b @two@ c@@ d [THREE_X]@ e@ f@g@");
    assert_int_equal(calls, 2);
    free(buf);
}

static void test_template_stops_on_a_fill_error(void **state)
{
    (void)state;
    static const unsigned char t[] = "x @STOP@ y @MORE@";
    char *buf = NULL;
    size_t n = 0;
    int calls = 0;
    FILE *f = open_memstream(&buf, &n);
    assert_int_equal(av_template(f, t, sizeof t - 1, fill, &calls), 7);
    assert_int_equal(calls, 1);
    fclose(f);
    free(buf);
}

/* av_public_id: a game id without the run's seed (t<seed>- or m<seed>-), anything else as is */
static void test_public_id_drops_the_seed(void **state)
{
    (void)state;
    assert_string_equal(av_public_id("t8123456789012345-s1-d0-T0-r1"), "s1-d0-T0-r1");
    assert_string_equal(av_public_id("m1-d0-r0"), "d0-r0");
    assert_string_equal(av_public_id("m18446744073709551615-d12-r3"), "d12-r3");
    assert_string_equal(av_public_id("g5"), "g5");
    assert_string_equal(av_public_id("m1"), "m1");       /* nothing after the seed */
    assert_string_equal(av_public_id("m1-"), "m1-");     /* nor after the dash */
    assert_string_equal(av_public_id("mx-d0"), "mx-d0"); /* not a seed */
    assert_string_equal(av_public_id("t-1"), "t-1");
    assert_string_equal(av_public_id(""), "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_html_text_escapes_markup),
        cmocka_unit_test(test_json_script_cannot_close_the_element),
        cmocka_unit_test(test_template_fills_names_only),
        cmocka_unit_test(test_template_stops_on_a_fill_error),
        cmocka_unit_test(test_public_id_drops_the_seed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
