/* test_spawn_argv.c - the pure pieces of starting a bot (spawn.c): splitting a command into
 * argv without a shell, and finding its program through PATH. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jail/spawn.h"

/* ---- argv splitting ------------------------------------------------------------------------ */

static void expect_split(const char *cmd, int n, const char *const *words)
{
    char **argv = NULL;
    int argc = -1;
    char err[64];
    assert_int_equal(ar_spawn_split(cmd, &argv, &argc, err, sizeof err), 0);
    assert_int_equal(argc, n);
    for (int i = 0; i < n; i++)
        assert_string_equal(argv[i], words[i]);
    assert_null(argv[n]);
    ar_spawn_argv_free(argv);
}

static void test_split_words(void **state)
{
    (void)state;
    expect_split("python3 bots/random/random_bot.py", 2,
                 (const char *const[]){"python3", "bots/random/random_bot.py"});
    expect_split("  a \t b\n c  ", 3, (const char *const[]){"a", "b", "c"});
    expect_split("one", 1, (const char *const[]){"one"});
}

static void test_split_quotes(void **state)
{
    (void)state;
    expect_split("python3 \"my bot.py\" --level 3", 4,
                 (const char *const[]){"python3", "my bot.py", "--level", "3"});
    expect_split("x\"a b\"y", 1, (const char *const[]){"xa by"});
    expect_split("\"a\\\"b\" \"c\\\\d\"", 2, (const char *const[]){"a\"b", "c\\d"});
    expect_split("\"\"", 1, (const char *const[]){""});
    /* outside quotes a backslash is an ordinary character; single quotes are not special */
    expect_split("a\\b 'c d'", 3, (const char *const[]){"a\\b", "'c", "d'"});
}

static void test_split_errors(void **state)
{
    (void)state;
    char **argv = NULL;
    int argc = 0;
    char err[64] = "";
    assert_int_equal(ar_spawn_split("", &argv, &argc, err, sizeof err), -EINVAL);
    assert_string_equal(err, "empty command");
    assert_int_equal(ar_spawn_split("   ", &argv, &argc, err, sizeof err), -EINVAL);
    assert_int_equal(ar_spawn_split("bot \"unterminated", &argv, &argc, err, sizeof err), -EINVAL);
    assert_string_equal(err, "unterminated double quote");
    assert_null(argv);
    ar_spawn_argv_free(NULL);
}

/* ---- PATH lookup ----------------------------------------------------------------------------- */

static void test_resolve(void **state)
{
    (void)state;
    char path[PATH_MAX];
    assert_int_equal(ar_spawn_resolve("sh", path, sizeof path), 0);
    assert_true(path[0] == '/');
    assert_int_equal(access(path, X_OK), 0);
    assert_int_equal(ar_spawn_resolve("no-such-program-okr", path, sizeof path), -ENOENT);
    assert_int_equal(ar_spawn_resolve("/no/such/dir/prog", path, sizeof path), -ENOENT);
    assert_int_equal(ar_spawn_resolve("", path, sizeof path), -ENOENT);

    /* a file that is there but not executable, found through a PATH of our own */
    char dir[] = "/tmp/okr-resolve-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char file[PATH_MAX];
    snprintf(file, sizeof file, "%s/plain", dir);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fclose(f);
    chmod(file, 0644);
    char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
    setenv("PATH", dir, 1);
    int rc = ar_spawn_resolve("plain", path, sizeof path);
    if (getuid() != 0) /* root may execute anything with an x bit; here there is none */
        assert_int_equal(rc, -EACCES);
    else
        assert_true(rc == -EACCES || rc == -ENOENT);
    chmod(file, 0755);
    assert_int_equal(ar_spawn_resolve("plain", path, sizeof path), 0);
    assert_string_equal(path, file);
    if (old) {
        setenv("PATH", old, 1);
        free(old);
    }
    /* relative paths come back absolute */
    char cwd[PATH_MAX];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(dir), 0);
    assert_int_equal(ar_spawn_resolve("./plain", path, sizeof path), 0);
    assert_string_equal(path, file);
    assert_int_equal(chdir(cwd), 0);
    unlink(file);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split_words),
        cmocka_unit_test(test_split_quotes),
        cmocka_unit_test(test_split_errors),
        cmocka_unit_test(test_resolve),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
