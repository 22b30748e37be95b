/* test_multipart.c - the multipart/form-data reader (arena/web/multipart.h): what browsers
 * send (Chromium's and Firefox's boundaries, a file and text fields, an empty file input),
 * binary data holding CR, LF and near-boundaries, and refusals: no or a bad boundary, a cut
 * body, too many parts, headers over the cap, a part without a name, names with strange
 * characters, path components and control characters in file names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "web/multipart.h"

#define CT "multipart/form-data; boundary=----WebKitFormBoundaryAbC123"
#define B "------WebKitFormBoundaryAbC123"

static int parse(const char *ct, const char *body, size_t n, aw_part *parts, int max, char *err)
{
    return aw_multipart_parse(ct, body, n, parts, max, err, 200);
}

static void browser_form(void **state)
{
    (void)state;
    static const char body[] =
        B "\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nalice\r\n" B
          "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"bot.py\"\r\n"
          "Content-Type: text/x-python\r\n\r\nprint('hi')\r\n--x\r\n" B
          "\r\nContent-Disposition: form-data; name=\"empty\"; filename=\"\"\r\n"
          "Content-Type: application/octet-stream\r\n\r\n\r\n" B "--\r\n";
    aw_part p[8];
    char err[200] = "";
    int n = parse(CT, body, sizeof body - 1, p, 8, err);
    assert_int_equal(n, 3);
    assert_string_equal(p[0].name, "name");
    assert_int_equal(p[0].has_filename, 0);
    assert_int_equal(p[0].len, 5);
    assert_memory_equal(p[0].data, "alice", 5);
    const aw_part *f = aw_multipart_find(p, n, "file");
    assert_non_null(f);
    assert_string_equal(f->filename, "bot.py");
    assert_string_equal(f->content_type, "text/x-python");
    assert_int_equal(f->len, strlen("print('hi')\r\n--x"));
    assert_int_equal(p[2].has_filename, 1);
    assert_string_equal(p[2].filename, "");
    assert_int_equal(p[2].len, 0);
    assert_null(aw_multipart_find(p, n, "nope"));
}

static void quoted_boundary_and_binary(void **state)
{
    (void)state;
    char body[512];
    unsigned char bin[] = {0, '\r', '\n', '-', '-', 'x', '\r', '\n', 0xff, '\r'};
    size_t n = (size_t)snprintf(body, sizeof body,
                                "--xyz\r\ncontent-disposition: FORM-DATA; name=a; "
                                "filename=\"C:\\\\Users\\\\me\\\\w.bin\"\r\n\r\n");
    memcpy(body + n, bin, sizeof bin);
    n += sizeof bin;
    n += (size_t)snprintf(body + n, sizeof body - n, "\r\n--xyz--");
    aw_part p[2];
    char err[200] = "";
    assert_int_equal(parse("Multipart/Form-Data; charset=x; boundary=\"xyz\"", body, n, p, 2, err),
                     1);
    assert_string_equal(p[0].filename, "w.bin");
    assert_int_equal(p[0].len, sizeof bin);
    assert_memory_equal(p[0].data, bin, sizeof bin);
}

static void boundary_refusals(void **state)
{
    (void)state;
    char b[80], err[200];
    assert_int_equal(aw_multipart_boundary("text/plain", b, sizeof b, err, sizeof err), -1);
    assert_int_equal(aw_multipart_boundary(NULL, b, sizeof b, err, sizeof err), -1);
    assert_int_equal(aw_multipart_boundary("multipart/form-data", b, sizeof b, err, sizeof err),
                     -1);
    assert_int_equal(
        aw_multipart_boundary("multipart/form-data; boundary=", b, sizeof b, err, sizeof err), -1);
    assert_int_equal(
        aw_multipart_boundary("multipart/form-data; boundary=a\001b", b, sizeof b, err, sizeof err),
        -1);
    assert_int_equal(aw_multipart_boundary("multipart/form-data; boundary=a; boundary=b", b,
                                           sizeof b, err, sizeof err),
                     -1);
    char lng[200];
    snprintf(lng, sizeof lng, "multipart/form-data; boundary=%071d", 0);
    assert_int_equal(aw_multipart_boundary(lng, b, sizeof b, err, sizeof err), -1);
    assert_int_equal(aw_multipart_boundary("multipart/form-data; boundary=\"unclosed", b, sizeof b,
                                           err, sizeof err),
                     -1);
    assert_int_equal(
        aw_multipart_boundary("multipart/form-data;boundary=ok", b, sizeof b, err, sizeof err), 0);
    assert_string_equal(b, "ok");
}

static void body_refusals(void **state)
{
    (void)state;
    aw_part p[2];
    char err[200];
    const char *ct = "multipart/form-data; boundary=q";
    struct {
        const char *body, *why;
    } bad[] = {
        {"", "empty"},
        {"preamble\r\n--q\r\nContent-Disposition: form-data; name=a\r\n\r\nx\r\n--q--", "pre"},
        {"--q\r\nContent-Disposition: form-data; name=a\r\n\r\nx", "cut"},
        {"--q\r\nContent-Disposition: form-data; name=a\r\n\r\nx\r\n--q", "no end"},
        {"--q\r\n\r\nx\r\n--q--", "no headers"},
        {"--q\r\nContent-Type: text/plain\r\n\r\nx\r\n--q--", "no disposition"},
        {"--q\r\nContent-Disposition: attachment; name=a\r\n\r\nx\r\n--q--", "not form-data"},
        {"--q\r\nContent-Disposition: form-data; filename=a\r\n\r\nx\r\n--q--", "no name"},
        {"--q\r\nContent-Disposition: form-data; name=\"a/b\"\r\n\r\nx\r\n--q--", "name chars"},
        {"--q\r\nContent-Disposition: form-data; name=a; name=b\r\n\r\nx\r\n--q--", "two names"},
        {"--q\r\nContent-Disposition: form-data; name=a; filename=\"..\"\r\n\r\nx\r\n--q--", ".."},
        {"--q\r\nContent-Disposition: form-data; name=a; filename=\"x/..\"\r\n\r\nx\r\n--q--",
         "x/.."},
        {"--q\r\nContent-Disposition: form-data; name=a; filename=\"a\tb\"\r\n\r\nx\r\n--q--",
         "tab in file name"},
        {"--q\r\nContent-Disposition: form-data; name=\"a\r\n\r\nx\r\n--q--", "open quote"},
        {"--q\r\nno colon\r\n\r\nx\r\n--q--", "no colon"},
        {"--qContent-Disposition: form-data; name=a\r\n\r\nx\r\n--q--", "no crlf"},
        {"--q\r\nContent-Disposition: form-data; name=a\r\n\r\nx\r\n--q\r\n"
         "Content-Disposition: form-data; name=b\r\n\r\ny\r\n--q\r\n"
         "Content-Disposition: form-data; name=c\r\n\r\nz\r\n--q--",
         "three parts, two allowed"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        int n = parse(ct, bad[i].body, strlen(bad[i].body), p, 2, err);
        if (n != -1)
            fail_msg("%s: parsed as %d parts", bad[i].why, n);
        assert_true(err[0] != 0);
    }
    /* headers over the cap */
    static char big[AW_PART_HEADER_MAX + 200];
    size_t n =
        (size_t)snprintf(big, sizeof big, "--q\r\nContent-Disposition: form-data; name=a\r\nX: ");
    memset(big + n, 'h', AW_PART_HEADER_MAX);
    n += AW_PART_HEADER_MAX;
    n += (size_t)snprintf(big + n, sizeof big - n, "\r\n\r\nx\r\n--q--");
    assert_int_equal(parse(ct, big, n, p, 2, err), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(browser_form),
        cmocka_unit_test(quoted_boundary_and_binary),
        cmocka_unit_test(boundary_refusals),
        cmocka_unit_test(body_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
