/* test_binds.c - what the jail shows a bot besides the system folders (ar_spawn_jail_view,
 * docs/sandbox.md "What a bot sees"): its program and scripts as files alone, never a folder
 * named on the command line, its declared folders, the SDKs for interpreted bots, --bind; and
 * never a hidden path: a shown path that holds one or lies in one refuses the view, whatever
 * symlinks or ".." lead there, and so does a declared "/" or home. The same answer from any
 * working folder. Built in a fresh folder tree under /tmp:
 * top/{cwd/{bot,out/},bots/{b,script.py,data/,link->..,x.tour}}. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jail/spawn.h"

static char top[256], old_cwd[PATH_MAX];

static void touch(const char *rel, int mode)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/%s", top, rel);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs("#!/bin/sh\n", f);
    fclose(f);
    assert_int_equal(chmod(p, (mode_t)mode), 0);
}

static void dir(const char *rel)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/%s", top, rel);
    assert_int_equal(mkdir(p, 0755), 0);
}

static int setup(void **state)
{
    (void)state;
    char tmpl[] = "/tmp/okr-binds.XXXXXX";
    char real[PATH_MAX];
    if (!mkdtemp(tmpl) || !realpath(tmpl, real) || strlen(real) >= sizeof top ||
        !getcwd(old_cwd, sizeof old_cwd))
        return -1;
    memcpy(top, real, strlen(real) + 1); /* fits: checked above */
    dir("cwd");
    dir("cwd/out");
    dir("bots");
    dir("bots/data");
    touch("cwd/bot", 0755);
    touch("bots/b", 0755);
    touch("bots/script.py", 0644);
    touch("bots/x.tour", 0644);
    char link[PATH_MAX];
    snprintf(link, sizeof link, "%s/bots/link", top);
    if (symlink("..", link) < 0)
        return -1;
    char cwd[PATH_MAX];
    snprintf(cwd, sizeof cwd, "%s/cwd", top);
    return chdir(cwd);
}

static int teardown(void **state)
{
    (void)state;
    if (chdir(old_cwd) != 0)
        return -1;
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
    return system(cmd) == 0 ? 0 : -1;
}

/* Is `want` (relative to top, or absolute when it starts with '/') in the list? */
static int has(char **l, const char *want)
{
    char p[PATH_MAX];
    if (want[0] == '/')
        snprintf(p, sizeof p, "%s", want);
    else
        snprintf(p, sizeof p, "%s/%s", top, want);
    for (int i = 0; l[i]; i++)
        if (strcmp(l[i], p) == 0)
            return 1;
    return 0;
}

static char *at(const char *rel)
{
    static char buf[32][PATH_MAX]; /* enough for one test's paths */
    static int k;
    k = (k + 1) % 32;
    snprintf(buf[k], sizeof buf[k], "%s/%s", top, rel);
    return buf[k];
}

static void test_program_and_script_files_only(void **state)
{
    (void)state;
    char *argv[] = {at("bots/b"), at("bots/script.py"), NULL};
    ar_jail_view v = {.path = argv[0], .argv = argv, .runtime = 0};
    char **l = ar_spawn_jail_view(&v, NULL);
    assert_non_null(l);
    assert_true(has(l, "bots/b"));
    assert_true(has(l, "bots/script.py"));
    assert_false(has(l, "bots"));
    assert_false(has(l, "bots/x.tour"));
    ar_spawn_argv_free(l);
}

static void test_folder_arguments_never_shown(void **state)
{
    (void)state;
    /* ".", the output folder, a parent of everything, "/" and the top folder */
    char *argv[] = {at("bots/b"), ".", "out", "..", "/", top, "/usr/share", NULL};
    ar_jail_view v = {.path = argv[0], .argv = argv};
    char **l = ar_spawn_jail_view(&v, NULL);
    assert_non_null(l);
    for (int i = 0; l[i]; i++)
        if (strcmp(l[i], at("bots/b")) != 0)
            fail_msg("the jail shows %s", l[i]);
    ar_spawn_argv_free(l);
}

/* Relative words are taken against the view's cwd (a tour file's folder), not the arena's. */
static void test_relative_words_against_the_bots_folder(void **state)
{
    (void)state;
    char *argv[] = {"/bin/sh", "script.py", NULL};
    char *own[] = {"data", NULL};
    ar_jail_view v = {.path = "/bin/sh", .argv = argv, .cwd = at("bots"), .own = own};
    char **l = ar_spawn_jail_view(&v, NULL);
    assert_non_null(l);
    assert_true(has(l, "bots/script.py"));
    assert_true(has(l, "bots/data"));
    assert_false(has(l, "/bin/sh")); /* inside a system folder, shown anyway */
    ar_spawn_argv_free(l);
}

/* The same view from any working folder: the arena's own folder plays no part. */
static void test_same_view_from_any_folder(void **state)
{
    (void)state;
    char *argv[] = {at("cwd/bot"), NULL};
    char *own[] = {at("bots/data"), NULL};
    char *hide[] = {at("cwd/out"), NULL};
    ar_jail_view v = {.path = argv[0], .argv = argv, .own = own, .hide = hide};
    const char *where[] = {at("cwd"), at("bots"), top, "/"};
    char **first = NULL;
    for (int w = 0; w < 4; w++) {
        assert_int_equal(chdir(where[w]), 0);
        char **l = ar_spawn_jail_view(&v, NULL);
        assert_non_null(l);
        if (!first) {
            first = l;
            continue;
        }
        int i = 0;
        for (; l[i] && first[i]; i++)
            assert_string_equal(l[i], first[i]);
        assert_null(l[i]);
        assert_null(first[i]);
        ar_spawn_argv_free(l);
    }
    assert_true(has(first, "cwd/bot"));
    assert_true(has(first, "bots/data"));
    ar_spawn_argv_free(first);
    assert_int_equal(chdir(at("cwd")), 0);
}

/* A declared folder that holds a hidden path, by any road, refuses the view and says which. */
static void test_declared_folder_holding_a_hidden_path_is_refused(void **state)
{
    (void)state;
    char *argv[] = {at("bots/b"), NULL};
    char *hide[] = {at("bots/x.tour"), at("bots/out-later/records"), NULL};
    const char *roads[] = {at("bots"),         /* plainly */
                           at("bots/data/.."), /* by ".." */
                           at("bots/link"),    /* through a symlink: top, above both */
                           at("cwd/../bots"), NULL};
    for (int r = 0; roads[r]; r++) {
        char *own[] = {(char *)roads[r], NULL};
        ar_jail_view v = {.path = argv[0], .argv = argv, .own = own, .hide = hide};
        ar_jail_clash c;
        memset(&c, 0, sizeof c);
        char **l = ar_spawn_jail_view(&v, &c);
        if (l)
            fail_msg("declared %s was shown", roads[r]);
        assert_int_equal(c.hide, 0);
        assert_int_equal(c.kind, AR_SHOW_OWN);
    }
    /* an output folder that does not exist yet, under the declared folder */
    char *hide2[] = {at("bots/data/out/records"), NULL};
    char *own2[] = {at("bots/data"), NULL};
    ar_jail_view v = {.path = argv[0], .argv = argv, .own = own2, .hide = hide2};
    ar_jail_clash c;
    assert_null(ar_spawn_jail_view(&v, &c));
    assert_int_equal(c.hide, 0);
    /* an output folder given relative to the arena's folder, none of whose parts exist yet */
    char *hide2b[] = {"new/sub/../results", NULL};
    char *own2b[] = {at("cwd"), NULL};
    assert_int_equal(chdir(at("cwd")), 0);
    ar_jail_view v2b = {.path = argv[0], .argv = argv, .own = own2b, .hide = hide2b};
    assert_null(ar_spawn_jail_view(&v2b, &c));
    assert_int_equal(c.hide, 0);
    /* a program or script inside a hidden folder */
    char *hide3[] = {at("bots"), NULL};
    ar_jail_view v3 = {.path = argv[0], .argv = argv, .hide = hide3};
    assert_null(ar_spawn_jail_view(&v3, &c));
    assert_int_equal(c.kind, AR_SHOW_PROGRAM);
    /* the hidden file named as a script */
    char *argv4[] = {"/bin/sh", at("bots/x.tour"), NULL};
    ar_jail_view v4 = {.path = "/bin/sh", .argv = argv4, .hide = hide};
    assert_null(ar_spawn_jail_view(&v4, &c));
    assert_int_equal(c.kind, AR_SHOW_SCRIPT);
    /* a folder beside the hidden ones is fine */
    char *own5[] = {at("bots/data"), NULL};
    ar_jail_view v5 = {.path = argv[0], .argv = argv, .own = own5, .hide = hide};
    char **l = ar_spawn_jail_view(&v5, &c);
    assert_non_null(l);
    assert_true(has(l, "bots/data"));
    ar_spawn_argv_free(l);
}

/* The deep check (a run's start): a file of a shown folder that is the same file as a hidden
 * one (a hard link), or a shown path that is a hidden one under another name, is refused and
 * named; a hard link between two files of the bot's own folder is not. The check at every
 * bot's start does not look (it compares names only). */
static void test_hard_links_refused_by_the_deep_check(void **state)
{
    (void)state;
    char *argv[] = {at("bots/b"), NULL};
    char *hide[] = {at("bots/x.tour"), at("cwd/out"), NULL};
    char *own[] = {at("bots/data"), NULL};
    ar_jail_view v = {.path = argv[0], .argv = argv, .own = own, .hide = hide, .deep = 1};
    ar_jail_clash c;
    char **l = ar_spawn_jail_view(&v, &c);
    assert_non_null(l);
    ar_spawn_argv_free(l);
    /* a hard link to the .tour, two folders down */
    dir("bots/data/d");
    dir("bots/data/d/e");
    char ln[PATH_MAX], to[PATH_MAX];
    snprintf(ln, sizeof ln, "%s/bots/data/d/e/notes", top);
    snprintf(to, sizeof to, "%s/bots/x.tour", top);
    assert_int_equal(link(to, ln), 0);
    ar_spawn_view_forget();
    memset(&c, 0, sizeof c);
    assert_null(ar_spawn_jail_view(&v, &c));
    assert_int_equal(c.why, AR_CLASH_LINK);
    assert_int_equal(c.hide, 0);
    assert_int_equal(c.kind, AR_SHOW_OWN);
    assert_string_equal(c.inside, ln);
    assert_string_equal(c.same, to);
    /* not looked for at every bot's start */
    v.deep = 0;
    l = ar_spawn_jail_view(&v, &c);
    assert_non_null(l);
    ar_spawn_argv_free(l);
    v.deep = 1;
    assert_int_equal(unlink(ln), 0);
    /* a hard link to a file inside a hidden folder (the output folder) */
    touch("cwd/out/journal", 0644);
    snprintf(to, sizeof to, "%s/cwd/out/journal", top);
    assert_int_equal(link(to, ln), 0);
    ar_spawn_view_forget();
    memset(&c, 0, sizeof c);
    assert_null(ar_spawn_jail_view(&v, &c));
    assert_int_equal(c.why, AR_CLASH_LINK);
    assert_int_equal(c.hide, 1);
    assert_string_equal(c.same, to);
    assert_int_equal(unlink(ln), 0);
    /* the .tour itself as a script, under another name */
    char *argv2[] = {"/bin/sh", ln, NULL};
    snprintf(to, sizeof to, "%s/bots/x.tour", top);
    assert_int_equal(link(to, ln), 0);
    ar_jail_view v2 = {.path = "/bin/sh", .argv = argv2, .hide = hide, .deep = 1};
    ar_spawn_view_forget();
    memset(&c, 0, sizeof c);
    assert_null(ar_spawn_jail_view(&v2, &c));
    assert_int_equal(c.why, AR_CLASH_SAME);
    assert_int_equal(c.kind, AR_SHOW_SCRIPT);
    assert_string_equal(c.same, to);
    assert_int_equal(unlink(ln), 0);
    /* two names of one of its own files */
    char mine[PATH_MAX];
    snprintf(mine, sizeof mine, "%s/bots/data/d/w", top);
    touch("bots/data/d/w", 0644);
    assert_int_equal(link(mine, ln), 0);
    ar_spawn_view_forget();
    l = ar_spawn_jail_view(&v, &c);
    assert_non_null(l);
    ar_spawn_argv_free(l);
}

static void test_root_and_home_are_never_a_bots_folder(void **state)
{
    (void)state;
    char *argv[] = {at("bots/b"), NULL};
    char *home = getenv("HOME");
    char *old = home ? strdup(home) : NULL;
    setenv("HOME", at("bots/data"), 1);
    const char *bad[] = {"/", at("bots/data"), at("bots"), NULL};
    for (int i = 0; bad[i]; i++) {
        char *own[] = {(char *)bad[i], NULL};
        ar_jail_view v = {.path = argv[0], .argv = argv, .own = own};
        ar_jail_clash c;
        if (ar_spawn_jail_view(&v, &c))
            fail_msg("declared %s was shown", bad[i]);
        assert_int_equal(c.hide, -1);
        /* and as --bind */
        char *extra[] = {(char *)bad[i], NULL};
        ar_jail_view vb = {.path = argv[0], .argv = argv, .extra = extra};
        assert_null(ar_spawn_jail_view(&vb, &c));
        assert_int_equal(c.kind, AR_SHOW_BIND);
        /* and as an SDK folder named by the arena's environment */
        setenv("OKBOT_PROTO", bad[i], 1);
        ar_jail_view vs = {.path = argv[0], .argv = argv, .runtime = 1};
        assert_null(ar_spawn_jail_view(&vs, &c));
        assert_int_equal(c.kind, AR_SHOW_SDK);
        unsetenv("OKBOT_PROTO");
    }
    if (old)
        setenv("HOME", old, 1);
    else
        unsetenv("HOME");
    free(old);
}

static void test_bind_option_as_given(void **state)
{
    (void)state;
    char *argv[] = {at("bots/b"), NULL};
    char *extra[] = {at("cwd/out"), NULL};
    ar_jail_view v = {.path = argv[0], .argv = argv, .extra = extra};
    char **l = ar_spawn_jail_view(&v, NULL);
    assert_true(has(l, "cwd/out")); /* the user asked for it */
    ar_spawn_argv_free(l);
    /* but never a hidden one */
    char *hide[] = {at("cwd/out/records"), NULL};
    v.hide = hide;
    assert_null(ar_spawn_jail_view(&v, NULL));
}

/* Another entrant's files, for the hide lists: program, scripts and declared paths, but not
 * what lives in the system folders (the runtime). */
static void test_own_paths(void **state)
{
    (void)state;
    char *argv[] = {"/bin/sh", "script.py", "-v", NULL};
    char *own[] = {"data", NULL};
    ar_jail_view v = {.path = "/bin/sh", .argv = argv, .cwd = at("bots"), .own = own};
    char **l = ar_spawn_jail_own(&v);
    assert_true(has(l, "bots/script.py"));
    assert_true(has(l, "bots/data"));
    assert_false(has(l, "/bin/sh"));
    ar_spawn_argv_free(l);
}

/* The SDK folders of this checkout: shown to interpreted bots (runtime = 1), not to compiled
 * ones, whose SDK is linked in. */
static void test_sdk_folders_for_interpreted_bots_only(void **state)
{
    (void)state;
    char sdk[PATH_MAX + 16];
    const char *src = getenv("OKR_SOURCE_DIR"); /* ctest's environment */
    assert_non_null(src);
    char real[PATH_MAX];
    assert_non_null(realpath(src, real));
    snprintf(sdk, sizeof sdk, "%s/sdk/python", real);
    char *argv[] = {at("bots/b"), NULL};
    ar_jail_view v = {.path = argv[0], .argv = argv, .runtime = 1};
    char **with = ar_spawn_jail_view(&v, NULL);
    v.runtime = 0;
    char **without = ar_spawn_jail_view(&v, NULL);
    assert_true(has(with, sdk));
    assert_false(has(without, sdk));
    assert_true(has(without, "bots/b"));
    for (int i = 0; without[i]; i++)
        if (strstr(without[i], "/sdk/") || strstr(without[i], "/proto"))
            fail_msg("a compiled bot is shown %s", without[i]);
    ar_spawn_argv_free(with);
    ar_spawn_argv_free(without);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_program_and_script_files_only),
        cmocka_unit_test(test_folder_arguments_never_shown),
        cmocka_unit_test(test_relative_words_against_the_bots_folder),
        cmocka_unit_test(test_same_view_from_any_folder),
        cmocka_unit_test(test_declared_folder_holding_a_hidden_path_is_refused),
        cmocka_unit_test(test_hard_links_refused_by_the_deep_check),
        cmocka_unit_test(test_root_and_home_are_never_a_bots_folder),
        cmocka_unit_test(test_bind_option_as_given),
        cmocka_unit_test(test_own_paths),
        cmocka_unit_test(test_sdk_folders_for_interpreted_bots_only),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
