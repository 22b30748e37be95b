/* test_journal.c - arena/tour/journal.c: lines written by ar_journal_append read back in index
 * order; what a crash or a bad disk can leave behind (a torn last line, a flipped byte, a line
 * that is not the format) is reported with its line and dropped, and the repaired file reads
 * clean; a game written twice counts once when both copies agree and is an error when they do
 * not; a missing or empty file is an empty journal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tour/journal.h"

typedef struct fx {
    char dir[64];
    char path[128];
} fx;

static int setup(void **state)
{
    fx *f = calloc(1, sizeof *f);
    snprintf(f->dir, sizeof f->dir, "/tmp/okr-journal-XXXXXX");
    if (!mkdtemp(f->dir))
        return -1;
    snprintf(f->path, sizeof f->path, "%s/journal.jsonl", f->dir);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->dir);
    if (system(cmd) != 0)
        return -1;
    free(f);
    return 0;
}

static char *slurp(const char *path, long *len)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    fseek(fp, 0, SEEK_END);
    *len = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *b = malloc((size_t)*len + 1);
    assert_int_equal(fread(b, 1, (size_t)*len, fp), (size_t)*len);
    b[*len] = '\0';
    fclose(fp);
    return b;
}

static void spit(const char *path, const char *b, long len)
{
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(b, 1, (size_t)len, fp), (size_t)len);
    fclose(fp);
}

/* Games 0..n-1, appended in the order given, payload {"g":i,"x":"..."}. */
static void write_games(const char *path, const int *order, int n)
{
    char err[256] = "";
    ar_journal *j = ar_journal_open(path, err, sizeof err);
    assert_non_null(j);
    for (int i = 0; i < n; i++) {
        char payload[128];
        snprintf(payload, sizeof payload, "{\"g\":%d,\"x\":\"game %d, some text\"}", order[i],
                 order[i]);
        assert_int_equal(ar_journal_append(j, order[i], payload), 0);
    }
    assert_int_equal(ar_journal_close(j), 0);
}

static FILE *report_file(void)
{
    FILE *r = tmpfile();
    assert_non_null(r);
    return r;
}

static char *report_text(FILE *r)
{
    long n = ftell(r);
    rewind(r);
    char *b = calloc(1, (size_t)n + 1);
    if (n > 0)
        assert_int_equal(fread(b, 1, (size_t)n, r), (size_t)n);
    fclose(r);
    return b;
}

static void test_fnv(void **state)
{
    (void)state;
    /* the published FNV-1a 64 test vectors */
    assert_true(ar_fnv1a64("", 0) == 0xcbf29ce484222325ULL);
    assert_true(ar_fnv1a64("a", 1) == 0xaf63dc4c8601ec8cULL);
    assert_true(ar_fnv1a64("foobar", 6) == 0x85944171f73967e8ULL);
}

static void test_roundtrip_sorted(void **state)
{
    fx *f = *state;
    int order[] = {3, 0, 2, 1, 5, 4};
    write_games(f->path, order, 6);
    ar_journal_data d;
    char err[256] = "";
    assert_int_equal(ar_journal_read(f->path, &d, NULL, NULL, err, sizeof err), 0);
    assert_true(d.exists);
    assert_int_equal(d.n, 6);
    assert_int_equal(d.bad, 0);
    assert_false(d.needs_repair);
    for (int i = 0; i < 6; i++) {
        char want[128];
        snprintf(want, sizeof want, "{\"g\":%d,\"x\":\"game %d, some text\"}", i, i);
        assert_int_equal(d.e[i].index, i);
        assert_string_equal(d.e[i].payload, want);
    }
    assert_int_equal(d.e[0].line, 2); /* game 0 was the second line written */
    ar_journal_data_free(&d);
}

static void test_missing_and_empty(void **state)
{
    fx *f = *state;
    ar_journal_data d;
    char err[256] = "";
    assert_int_equal(ar_journal_read(f->path, &d, NULL, NULL, err, sizeof err), 0);
    assert_false(d.exists);
    assert_int_equal(d.n, 0);
    ar_journal_data_free(&d);
    spit(f->path, "", 0);
    assert_int_equal(ar_journal_read(f->path, &d, NULL, NULL, err, sizeof err), 0);
    assert_true(d.exists);
    assert_int_equal(d.n, 0);
    assert_false(d.needs_repair);
    ar_journal_data_free(&d);
}

/* Reading, repairing, then reading again gives the good lines and a clean file. */
static void expect_repaired(const char *path, int want_n, int want_bad, const char *want_report)
{
    ar_journal_data d;
    char err[256] = "";
    FILE *r = report_file();
    assert_int_equal(ar_journal_read(path, &d, NULL, NULL, err, sizeof err), 0);
    ar_journal_report(&d, path, r, NULL, NULL);
    char *rep = report_text(r);
    assert_int_equal(d.n, want_n);
    assert_int_equal(d.bad, want_bad);
    assert_true(d.needs_repair);
    if (!strstr(rep, want_report))
        fail_msg("report '%s' lacks '%s'", rep, want_report);
    free(rep);
    assert_int_equal(ar_journal_rewrite(path, d.e, d.n), 0);
    ar_journal_data d2;
    assert_int_equal(ar_journal_read(path, &d2, NULL, NULL, err, sizeof err), 0);
    assert_int_equal(d2.n, want_n);
    assert_false(d2.needs_repair);
    for (long long i = 0; i < d2.n; i++) {
        assert_int_equal(d2.e[i].index, d.e[i].index);
        assert_string_equal(d2.e[i].payload, d.e[i].payload);
    }
    ar_journal_data_free(&d);
    ar_journal_data_free(&d2);
    char tmp[256];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    assert_int_not_equal(access(tmp, F_OK), 0); /* renamed away */
}

static void test_truncated_last_line(void **state)
{
    fx *f = *state;
    int order[] = {0, 1, 2, 3};
    write_games(f->path, order, 4);
    long len;
    char *b = slurp(f->path, &len);
    for (long cut = 1; cut < 40; cut += 7) { /* a kill -9 in the middle of the last write */
        spit(f->path, b, len - cut);
        char want[64];
        snprintf(want, sizeof want, "journal.jsonl:4: ");
        expect_repaired(f->path, 3, 1, want);
        /* and the repaired journal takes new lines after it */
        write_games(f->path, (int[]){3}, 1);
        ar_journal_data d;
        char err[256];
        assert_int_equal(ar_journal_read(f->path, &d, NULL, NULL, err, sizeof err), 0);
        assert_int_equal(d.n, 4);
        assert_false(d.needs_repair);
        ar_journal_data_free(&d);
    }
    /* only the newline missing: still torn (the write may not have finished) */
    spit(f->path, b, len - 1);
    expect_repaired(f->path, 3, 1, "journal.jsonl:4: torn");
    free(b);
}

static void test_flipped_byte(void **state)
{
    fx *f = *state;
    int order[] = {0, 1, 2, 3, 4};
    write_games(f->path, order, 5);
    long len;
    char *b = slurp(f->path, &len);
    /* flip a byte inside game 2's payload: line 3 */
    char *line3 = b;
    for (int i = 0; i < 2; i++)
        line3 = strchr(line3, '\n') + 1;
    char *x = strstr(line3, "game 2");
    assert_non_null(x);
    x[5] ^= 0x01; /* '2' -> '3' */
    spit(f->path, b, len);
    expect_repaired(f->path, 4, 1, "journal.jsonl:3: bad checksum; dropped");
    /* a flipped byte in the checksum field itself */
    write_games(f->path, (int[]){2}, 1);
    free(b);
    b = slurp(f->path, &len);
    char *sum = strstr(b, "\"sum\":\"") + 7;
    *sum = *sum == 'a' ? 'b' : 'a';
    spit(f->path, b, len);
    expect_repaired(f->path, 4, 1, "journal.jsonl:1: ");
    free(b);
}

static void test_garbage_line(void **state)
{
    fx *f = *state;
    int order[] = {0, 1};
    write_games(f->path, order, 2);
    FILE *fp = fopen(f->path, "a");
    fputs("hello\n{\"game\":-1,\"sum\":\"0\",\"data\":{}}\n", fp);
    fclose(fp);
    write_games(f->path, (int[]){2}, 1);
    expect_repaired(f->path, 3, 2, "journal.jsonl:3: not a journal line");
}

static void test_duplicate_same(void **state)
{
    fx *f = *state;
    int order[] = {0, 1, 2, 1, 3};
    write_games(f->path, order, 5);
    ar_journal_data d;
    char err[256] = "";
    FILE *r = report_file();
    assert_int_equal(ar_journal_read(f->path, &d, NULL, NULL, err, sizeof err), 0);
    ar_journal_report(&d, f->path, r, NULL, NULL);
    char *rep = report_text(r);
    assert_non_null(strstr(rep, "journal.jsonl:4: game 1 recorded twice (also line 2)"));
    free(rep);
    assert_int_equal(d.n, 4);
    assert_int_equal(d.duplicates, 1);
    assert_int_equal(d.bad, 0);
    assert_true(d.needs_repair);
    for (int i = 0; i < 4; i++)
        assert_int_equal(d.e[i].index, i);
    ar_journal_data_free(&d);
}

static void test_duplicate_different(void **state)
{
    fx *f = *state;
    write_games(f->path, (int[]){0, 1, 2}, 3);
    char err[256] = "";
    ar_journal *j = ar_journal_open(f->path, err, sizeof err);
    assert_int_equal(ar_journal_append(j, 1, "{\"g\":1,\"x\":\"another result\"}"), 0);
    ar_journal_close(j);
    ar_journal_data d;
    assert_int_equal(ar_journal_read(f->path, &d, NULL, NULL, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "journal.jsonl:4: game 1 is recorded twice with different "
                                "results (first at line 2)"));
    assert_int_equal(d.n, 0);
    assert_null(d.e);
}

/* CRLF line ends read as LF ones; a blank line is named and dropped. */
static void test_crlf_and_blank(void **state)
{
    fx *f = *state;
    write_games(f->path, (int[]){0, 1, 2}, 3);
    long len;
    char *b = slurp(f->path, &len);
    char *crlf = malloc((size_t)len * 2 + 8);
    assert_non_null(crlf);
    long n = 0;
    for (long i = 0; i < len; i++) {
        if (b[i] == '\n')
            crlf[n++] = '\r';
        crlf[n++] = b[i];
    }
    spit(f->path, crlf, n);
    ar_journal_data d;
    char err[256] = "";
    assert_int_equal(ar_journal_read(f->path, &d, NULL, NULL, err, sizeof err), 0);
    assert_int_equal(d.n, 3);
    assert_int_equal(d.bad, 0);
    assert_false(d.needs_repair);
    assert_string_equal(d.e[2].payload, "{\"g\":2,\"x\":\"game 2, some text\"}");
    ar_journal_data_free(&d);
    /* a blank line (LF or CRLF) between games */
    memcpy(crlf + n, "\r\n\n", 3);
    spit(f->path, crlf, n + 3);
    write_games(f->path, (int[]){3}, 1);
    expect_repaired(f->path, 4, 2, "journal.jsonl:4: blank line; dropped");
    free(crlf);
    free(b);
}

/* The caller's check runs before duplicates are looked for: a foreign copy of a game is
 * dropped for the caller's reason, not reported as a conflict; the index of a dropped line is
 * known when it could be read. */
static int only_g_below_2(void *ud, long long index, const char *payload, char *why, size_t cap)
{
    (void)ud;
    if (strstr(payload, "another") || index >= 2) {
        snprintf(why, cap, "game %lld is not ours", index);
        return -1;
    }
    return 0;
}

static const char *fate_of(void *ud, const ar_journal_drop *x)
{
    snprintf(ud, 64, "fate of %lld", x->index);
    return ud;
}

static void test_fits_and_fate(void **state)
{
    fx *f = *state;
    write_games(f->path, (int[]){0, 1, 2}, 3);
    char err[256] = "";
    ar_journal *j = ar_journal_open(f->path, err, sizeof err);
    assert_int_equal(ar_journal_append(j, 1, "{\"g\":1,\"x\":\"another result\"}"), 0);
    ar_journal_close(j);
    ar_journal_data d;
    assert_int_equal(ar_journal_read(f->path, &d, only_g_below_2, NULL, err, sizeof err), 0);
    assert_int_equal(d.n, 2);
    assert_int_equal(d.ndrop, 2);
    assert_int_equal(d.drop[0].line, 3);
    assert_int_equal(d.drop[0].index, 2);
    assert_int_equal(d.drop[1].line, 4);
    assert_int_equal(d.drop[1].index, 1);
    char buf[64];
    FILE *r = report_file();
    ar_journal_report(&d, "J", r, fate_of, buf);
    char *rep = report_text(r);
    assert_non_null(strstr(rep, "J:3: game 2 is not ours; fate of 2\n"));
    assert_non_null(strstr(rep, "J:4: game 1 is not ours; fate of 1\n"));
    free(rep);
    ar_journal_data_free(&d);
    /* a torn line still names its game */
    spit(f->path, "{\"game\":7,\"sum\":\"00", 19);
    assert_int_equal(ar_journal_read(f->path, &d, NULL, NULL, err, sizeof err), 0);
    assert_int_equal(d.ndrop, 1);
    assert_int_equal(d.drop[0].index, 7);
    ar_journal_data_free(&d);
}

/* ar_journal_keep: the file as it was, under the first free PATH.orig-N. */
static void test_keep(void **state)
{
    fx *f = *state;
    write_games(f->path, (int[]){0, 1}, 2);
    long len, len1, len2;
    char *b = slurp(f->path, &len);
    char kept[512];
    assert_int_equal(ar_journal_keep(f->path, kept, sizeof kept), 0);
    assert_non_null(strstr(kept, "journal.jsonl.orig-1"));
    assert_int_equal(ar_journal_rewrite(f->path, NULL, 0), 0); /* the repair */
    char *k1 = slurp(kept, &len1);
    assert_int_equal(len1, len);
    assert_memory_equal(k1, b, (size_t)len);
    assert_int_equal(ar_journal_keep(f->path, kept, sizeof kept), 0);
    assert_non_null(strstr(kept, "journal.jsonl.orig-2"));
    char *k2 = slurp(kept, &len2);
    assert_int_equal(len2, 0);
    free(b);
    free(k1);
    free(k2);
}

static void test_append_refuses_newline(void **state)
{
    fx *f = *state;
    char err[256] = "";
    ar_journal *j = ar_journal_open(f->path, err, sizeof err);
    assert_non_null(j);
    assert_int_equal(ar_journal_append(j, 0, "{\"a\":\n1}"), -EINVAL);
    ar_journal_close(j);
    /* an unreadable place is an error with the path */
    assert_null(ar_journal_open("/nonexistent-dir/x/journal.jsonl", err, sizeof err));
    assert_non_null(strstr(err, "/nonexistent-dir/x/journal.jsonl"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fnv),
        cmocka_unit_test_setup_teardown(test_roundtrip_sorted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_missing_and_empty, setup, teardown),
        cmocka_unit_test_setup_teardown(test_truncated_last_line, setup, teardown),
        cmocka_unit_test_setup_teardown(test_flipped_byte, setup, teardown),
        cmocka_unit_test_setup_teardown(test_garbage_line, setup, teardown),
        cmocka_unit_test_setup_teardown(test_duplicate_same, setup, teardown),
        cmocka_unit_test_setup_teardown(test_duplicate_different, setup, teardown),
        cmocka_unit_test_setup_teardown(test_crlf_and_blank, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fits_and_fate, setup, teardown),
        cmocka_unit_test_setup_teardown(test_keep, setup, teardown),
        cmocka_unit_test_setup_teardown(test_append_refuses_newline, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
