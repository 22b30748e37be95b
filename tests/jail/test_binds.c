/* test_binds.c - what the jail shows a bot besides the system folders
 * (ar_spawn_jail_binds): the program's folder and a script's folder, never a folder named on
 * the command line, never "/" and never a folder that holds the arena's working directory (the
 * match's output and the other bots live there): a bot kept in such a folder sees its own file
 * only. --bind folders are shown as given (but "/"). Built in a fresh folder tree under
 * /tmp: top/{cwd/{bot,out/},bots/{b,script.py,data/}}. */
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

/* No entry is "/", the working folder, or a folder above it. */
static void assert_no_cwd_ancestor(char **l)
{
    char cwd[PATH_MAX];
    assert_non_null(getcwd(cwd, sizeof cwd));
    for (int i = 0; l[i]; i++) {
        size_t n = strlen(l[i]);
        int above = strcmp(l[i], "/") == 0 ||
                    (strncmp(cwd, l[i], n) == 0 && (cwd[n] == '\0' || cwd[n] == '/'));
        if (above)
            fail_msg("the jail shows %s, which holds the working folder %s", l[i], cwd);
    }
}

static void test_program_and_script_folders(void **state)
{
    (void)state;
    char prog[PATH_MAX], script[PATH_MAX];
    snprintf(prog, sizeof prog, "%s/bots/b", top);
    snprintf(script, sizeof script, "%s/bots/script.py", top);
    char *argv[] = {prog, script, NULL};
    char **l = ar_spawn_jail_binds(prog, argv, NULL, 1);
    assert_true(has(l, "bots"));
    assert_no_cwd_ancestor(l);
    ar_spawn_argv_free(l);
}

static void test_folder_arguments_never_shown(void **state)
{
    (void)state;
    char prog[PATH_MAX], data[PATH_MAX];
    snprintf(prog, sizeof prog, "%s/bots/b", top);
    snprintf(data, sizeof data, "%s/bots/data", top);
    /* ".", the output folder, a parent of everything, "/" and the top folder */
    char *argv[] = {prog, ".", "out", "..", "/", top, "/usr/share", NULL};
    char **l = ar_spawn_jail_binds(prog, argv, NULL, 1);
    assert_true(has(l, "bots"));
    assert_false(has(l, "cwd"));
    assert_false(has(l, "cwd/out"));
    assert_false(has(l, top));
    assert_false(has(l, "/"));
    assert_no_cwd_ancestor(l);
    ar_spawn_argv_free(l);
}

static void test_bot_in_working_folder_sees_its_file_only(void **state)
{
    (void)state;
    char prog[PATH_MAX];
    snprintf(prog, sizeof prog, "%s/cwd/bot", top);
    char *argv[] = {"./bot", NULL};
    char **l = ar_spawn_jail_binds(prog, argv, NULL, 1);
    assert_true(has(l, "cwd/bot"));
    assert_false(has(l, "cwd"));
    assert_no_cwd_ancestor(l);
    ar_spawn_argv_free(l);

    /* the same for a script given relative to the working folder */
    char *argv2[] = {"/bin/sh", "bot", NULL};
    l = ar_spawn_jail_binds("/bin/sh", argv2, NULL, 1);
    assert_true(has(l, "cwd/bot"));
    assert_no_cwd_ancestor(l);
    ar_spawn_argv_free(l);
}

static void test_bind_option_as_given(void **state)
{
    (void)state;
    char prog[PATH_MAX], data[PATH_MAX];
    snprintf(prog, sizeof prog, "%s/bots/b", top);
    snprintf(data, sizeof data, "%s/cwd/out", top);
    char *argv[] = {prog, NULL};
    char *extra[] = {data, "/", NULL};
    char **l = ar_spawn_jail_binds(prog, argv, extra, 1);
    assert_true(has(l, "cwd/out")); /* the user asked for it */
    assert_false(has(l, "/"));
    ar_spawn_argv_free(l);
}

/* The SDK folders of this checkout: shown to interpreted bots (sdks = 1), not to compiled ones,
 * whose SDK is linked in. */
static void test_sdk_folders_for_interpreted_bots_only(void **state)
{
    (void)state;
    char prog[PATH_MAX], sdk[PATH_MAX + 16];
    snprintf(prog, sizeof prog, "%s/bots/b", top);
    const char *src = getenv("OKR_SOURCE_DIR"); /* ctest's environment */
    assert_non_null(src);
    char real[PATH_MAX];
    assert_non_null(realpath(src, real));
    snprintf(sdk, sizeof sdk, "%s/sdk/python", real);
    char *argv[] = {prog, NULL};
    char **with = ar_spawn_jail_binds(prog, argv, NULL, 1);
    char **without = ar_spawn_jail_binds(prog, argv, NULL, 0);
    assert_true(has(with, sdk));
    assert_false(has(without, sdk));
    assert_true(has(without, "bots"));
    for (int i = 0; without[i]; i++)
        if (strstr(without[i], "/sdk/") || strstr(without[i], "/proto"))
            fail_msg("a compiled bot is shown %s", without[i]);
    ar_spawn_argv_free(with);
    ar_spawn_argv_free(without);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_program_and_script_folders),
        cmocka_unit_test(test_folder_arguments_never_shown),
        cmocka_unit_test(test_bot_in_working_folder_sees_its_file_only),
        cmocka_unit_test(test_bind_option_as_given),
        cmocka_unit_test(test_sdk_folders_for_interpreted_bots_only),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
