/* test_tourfile.c - tournament files (arena/tour/tourfile.c): a complete good file, every bad
 * file in tests/tour/data (each names its expected "LINE: message" on its first line,
 * so a new case is a new file), overrides with --set, relative commands, near misses, and
 * the files that are not text at all. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jail/spawn.h"
#include "match/match.h"
#include "match/policy.h"
#include "tour/schedule.h"
#include "tour/tourfile.h"

static char tmpdir[128];

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/okr_tourfile_XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Write text to tmpdir/rel (making its folder) and return the full path in out. */
static void write_file(const char *rel, const char *text, size_t len, char *out, size_t cap)
{
    int n = snprintf(out, cap, "%s/%s", tmpdir, rel);
    assert_true(n > 0 && (size_t)n < cap);
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", out);
    char *slash = strrchr(dir, '/');
    *slash = '\0';
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
    assert_int_equal(system(cmd), 0);
    FILE *f = fopen(out, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

static void write_text(const char *rel, const char *text, char *out, size_t cap)
{
    write_file(rel, text, strlen(text), out, cap);
}

static const char good[] = "; a tournament with every key\n"
                           "[tournament]\n"
                           "name = spring-cup\n"
                           "rules = laws\n"
                           "rule = decks=2\n"
                           "rule = target = 500\n"
                           "seats = 3\n"
                           "format = gauntlet\n"
                           "challenger = strong\n"
                           "baseline = greedy\n"
                           "deals = 25\n"
                           "max_tables = 40\n"
                           "seed = 0xfedcba9876543210\n"
                           "out = runs/spring\n"
                           "jobs = 6\n"
                           "bootstrap = 200\n"
                           "\n"
                           "[clocks]\n"
                           "startup_ms = 20000\n"
                           "decision_ms = 50\n"
                           "bank_ms = 0\n"
                           "hard_ms = 900\n"
                           "ponder = on\n"
                           "pace = 25\n"
                           "[errors]\n"
                           "on_error = substitute\n"
                           "substitute = first\n"
                           "max_error_share = 0.25\n"
                           "[sandbox]\n"
                           "minimum = rootless\n"
                           "memory_mb = 512\n"
                           "[sprt]\n"
                           "s0 = -0.5\n"
                           "s1 = 2.5\n"
                           "alpha = 0.01\n"
                           "beta = 0.1\n"
                           "# entrants\n"
                           "[entrant strong]\n"
                           "command = ./bots/strong.sh --level 3\n"
                           "profile = native\n"
                           "memory_mb = 256\n"
                           "startup_ms = 30000\n"
                           "[entrant greedy]\n"
                           "command = @greedy\n"
                           "[ entrant   py.bot-2 ]   ; spaces are fine\n"
                           "command = sh \"my script.sh\"\n"
                           "profile = interpreted\n"
                           "[entrant rnd]\n"
                           "command = @random\n";

static void write_bot(void)
{
    char path[PATH_MAX];
    write_text("cup/bots/strong.sh", "#!/bin/sh\nexit 0\n", path, sizeof path);
    assert_int_equal(chmod(path, 0755), 0);
}

static void test_good_file(void **state)
{
    (void)state;
    write_bot();
    char path[PATH_MAX], err[512];
    write_text("cup/spring.tour", good, path, sizeof path);
    ar_tour t;
    int rc = ar_tour_load(path, &t, err, sizeof err);
    if (rc != 0)
        fail_msg("%s", err);
    assert_string_equal(t.path, path);
    assert_string_equal(t.name, "spring-cup");
    assert_int_equal(t.rules.decks, 2);
    assert_int_equal(t.rules.target, 500);
    assert_non_null(strstr(t.rules_text, "decks=2"));
    assert_non_null(strstr(t.rules_text, "target=500"));
    assert_int_equal(t.seats, 3);
    assert_int_equal(t.format, AR_FORMAT_GAUNTLET);
    assert_string_equal(t.challenger, "strong");
    assert_string_equal(t.baseline, "greedy");
    assert_int_equal(t.deals, 25);
    assert_int_equal(t.max_tables, 40);
    assert_true(t.seed == 0xfedcba9876543210ULL);
    /* out = is relative to the .tour file's folder, as typed ("<tmp>/cup/runs/spring") */
    char want_out[PATH_MAX + 16];
    snprintf(want_out, sizeof want_out, "%.*s/runs/spring", (int)(strrchr(path, '/') - path), path);
    assert_string_equal(t.out, want_out);
    assert_int_equal(t.jobs, 6);
    assert_int_equal(t.bootstrap, 200);
    assert_int_equal(t.clocks.startup_ms, 20000);
    assert_int_equal(t.clocks.decision_ms, 50);
    assert_int_equal(t.clocks.bank_ms, 0);
    assert_int_equal(t.clocks.hard_ms, 900);
    assert_int_equal(t.ponder, 1);
    assert_int_equal(t.pace_ms, 25);
    assert_int_equal(t.on_error, AR_ON_ERROR_SUBSTITUTE);
    assert_int_equal(t.substitute, AR_SUB_FIRST);
    assert_true(t.max_error_share == 0.25);
    assert_string_equal(t.sandbox_min, "rootless");
    assert_int_equal(t.memory_mb, 512);
    assert_int_equal(t.sprt, 1);
    assert_true(t.sprt_s0 == -0.5 && t.sprt_s1 == 2.5);
    assert_true(t.sprt_alpha == 0.01 && t.sprt_beta == 0.1);
    assert_int_equal(t.nentrants, 4);
    assert_string_equal(t.entrant[0].name, "strong");
    assert_string_equal(t.entrant[0].command, "./bots/strong.sh --level 3");
    assert_string_equal(t.entrant[0].profile, "native");
    assert_int_equal(t.entrant[0].memory_mb, 256);
    assert_int_equal(t.entrant[0].startup_ms, 30000);
    assert_int_equal(t.entrant[0].line, 38);
    assert_string_equal(t.entrant[1].profile, "auto");
    assert_int_equal(t.entrant[1].memory_mb, 0);
    assert_string_equal(t.entrant[2].name, "py.bot-2");
    assert_string_equal(t.entrant[2].profile, "interpreted");
    assert_int_equal(ar_tour_find(&t, "py.bot-2"), 2);
    assert_int_equal(ar_tour_find(&t, "rnd"), 3);
    assert_int_equal(ar_tour_find(&t, "nobody"), -1);
    ar_policy pol;
    assert_int_equal(ar_tour_builtin(&t, 1, &pol), 1);
    assert_int_equal(pol, AR_POLICY_GREEDY);
    assert_int_equal(ar_tour_builtin(&t, 3, &pol), 1);
    assert_int_equal(pol, AR_POLICY_RANDOM);
    assert_int_equal(ar_tour_builtin(&t, 0, &pol), 0);
    ar_tour_free(&t);
    ar_tour_free(&t); /* freeing twice is allowed */
}

/* The smallest file: everything else takes its documented default. */
static void test_defaults(void **state)
{
    (void)state;
    char path[PATH_MAX], err[512];
    write_text("mini.tour",
               "[tournament]\nrules = gin\nseats = 2\n"
               "[entrant a]\ncommand = @random\n[entrant b]\ncommand = @greedy\n",
               path, sizeof path);
    ar_tour t;
    int rc = ar_tour_load(path, &t, err, sizeof err);
    if (rc != 0)
        fail_msg("%s", err);
    assert_string_equal(t.name, "mini");
    assert_string_equal(t.out, "results/mini");
    assert_int_equal(t.format, AR_FORMAT_ROUND_ROBIN);
    assert_null(t.challenger);
    assert_null(t.baseline);
    assert_int_equal(t.deals, 1);
    assert_int_equal(t.max_tables, 2000);
    assert_true(t.seed == 1);
    assert_int_equal(t.jobs, 0);
    assert_int_equal(t.bootstrap, 1000);
    /* `arena match`'s defaults (cli_match.c) */
    assert_int_equal(t.clocks.startup_ms, 10000);
    assert_int_equal(t.clocks.decision_ms, 1000);
    assert_int_equal(t.clocks.bank_ms, 10000);
    assert_int_equal(t.clocks.hard_ms, 5000);
    assert_int_equal(t.ponder, 0); /* bots frozen between their decisions */
    assert_int_equal(t.pace_ms, 0);
    assert_int_equal(t.on_error, AR_ON_ERROR_FORFEIT);
    assert_int_equal(t.substitute, AR_POLICY_RANDOM);
    assert_true(t.max_error_share == 0.5);
    assert_string_equal(t.sandbox_min, "rootless");
    assert_int_equal(t.memory_mb, 0);
    assert_int_equal(t.sprt, 0);
    assert_true(t.sprt_alpha == 0.05 && t.sprt_beta == 0.05);
    assert_int_equal(t.rules.family, OKR_FAMILY_GIN);
    /* duplicate play: the dealer rotates (RULES 2.3 Decision), games go to the target */
    assert_int_equal(t.rules.dealer, OKR_DEALER_ROTATE);
    assert_non_null(strstr(t.rules_text, " dealer=rotate "));
    assert_int_equal(t.hands, 0);
    assert_int_equal(t.rules.target, 100);
    ar_tour_free(&t);
}

/* `hands = N`: N hands per game, summed (target 0, max_hands N, no winner's bonus or
 * settlement); `rule = dealer=winner` keeps the rule book's dealer where hands are not set. */
static void test_hands(void **state)
{
    (void)state;
    char path[PATH_MAX], err[512];
    write_text("hands.tour",
               "[tournament]\nrules = laws\nseats = 3\nhands = 6\n"
               "[entrant a]\ncommand = @random\n[entrant b]\ncommand = @greedy\n"
               "[entrant c]\ncommand = @greedy\n",
               path, sizeof path);
    ar_tour t;
    if (ar_tour_load(path, &t, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(t.hands, 6);
    assert_int_equal(t.rules.dealer, OKR_DEALER_ROTATE);
    assert_int_equal(t.rules.target, 0);
    assert_int_equal(t.rules.max_hands, 6);
    assert_int_equal(t.rules.winner_bonus, 0);
    assert_int_equal(t.rules.settlement, 0);
    assert_non_null(strstr(t.rules_text, "target=0"));
    ar_tour_free(&t);

    write_text("winner.tour",
               "[tournament]\nrules = gin\nseats = 2\nrule = dealer = winner\n"
               "[entrant a]\ncommand = @random\n[entrant b]\ncommand = @greedy\n",
               path, sizeof path);
    if (ar_tour_load(path, &t, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(t.rules.dealer, OKR_DEALER_WINNER);
    ar_tour_free(&t);
}

/* Every tests/tour/data/NAME.tour is a bad file whose first line reads
 * "; expect: LINE: FRAGMENT": loading must fail with "PATH:LINE: ..." containing FRAGMENT. */
static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_bad_files(void **state)
{
    (void)state;
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", __FILE__);
    *strrchr(dir, '/') = '\0';
    strncat(dir, "/data", sizeof dir - strlen(dir) - 1);
    DIR *d = opendir(dir);
    assert_non_null(d);
    char *names[512];
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        size_t len = strlen(de->d_name);
        if (len > 5 && strcmp(de->d_name + len - 5, ".tour") == 0 && n < 512)
            names[n++] = strdup(de->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, cmp_names);
    assert_true(n >= 50);
    int failures = 0;
    for (int i = 0; i < n; i++) {
        char path[PATH_MAX], first[512], err[512];
        int pl = snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        assert_true(pl > 0 && (size_t)pl < sizeof path);
        FILE *f = fopen(path, "r");
        assert_non_null(f);
        assert_non_null(fgets(first, sizeof first, f));
        fclose(f);
        first[strcspn(first, "\n")] = '\0';
        int line = 0, off = 0;
        if (sscanf(first, "; expect: %d: %n", &line, &off) != 1 || off == 0)
            fail_msg("%s: first line must be \"; expect: LINE: FRAGMENT\"", names[i]);
        const char *fragment = first + off;
        char prefix[PATH_MAX + 32];
        snprintf(prefix, sizeof prefix, "%s:%d: ", path, line);
        ar_tour t;
        int rc = ar_tour_load(path, &t, err, sizeof err);
        if (rc != -EINVAL || strncmp(err, prefix, strlen(prefix)) != 0 || !strstr(err, fragment)) {
            print_error("%s: rc %d, got \"%s\"\n    expected line %d and \"%s\"\n", names[i], rc,
                        err, line, fragment);
            failures++;
        }
        if (rc == 0)
            ar_tour_free(&t);
        else
            assert_null(t.src); /* "on failure *t is left freed" */
        free(names[i]);
    }
    assert_int_equal(failures, 0);
}

static void load_ok(const char *rel, const char *text, ar_tour *t)
{
    char path[PATH_MAX], err[512];
    write_text(rel, text, path, sizeof path);
    int rc = ar_tour_load(path, t, err, sizeof err);
    if (rc != 0)
        fail_msg("%s", err);
}

static void expect_set_error(ar_tour *t, const char *assignment, const char *fragment)
{
    char err[512];
    assert_int_equal(ar_tour_set(t, assignment, err, sizeof err), -EINVAL);
    char prefix[600];
    snprintf(prefix, sizeof prefix, "--set %s: ", assignment);
    if (strncmp(err, prefix, strlen(prefix)) != 0 || !strstr(err, fragment))
        fail_msg("--set %s: got \"%s\", expected \"%s\"", assignment, err, fragment);
}

static void set_ok(ar_tour *t, const char *assignment)
{
    char err[512];
    if (ar_tour_set(t, assignment, err, sizeof err) != 0)
        fail_msg("--set %s: %s", assignment, err);
}

static const char three[] = "[tournament]\nrules = laws\nseats = 3\n"
                            "[entrant alpha]\ncommand = @random\n"
                            "[entrant beta]\ncommand = @greedy\n"
                            "[entrant gamma]\ncommand = @random\n";

static void test_overrides(void **state)
{
    (void)state;
    ar_tour t;
    load_ok("over.tour", three, &t);
    set_ok(&t, "tournament.seed=7");
    assert_true(t.seed == 7);
    set_ok(&t, "tournament.seed = 0x10");
    assert_true(t.seed == 16);
    set_ok(&t, "tournament.seats=3"); /* an override may replace a file line */
    set_ok(&t, "entrant.beta.memory_mb=512");
    assert_int_equal(t.entrant[1].memory_mb, 512);
    set_ok(&t, "clocks.decision_ms=20");
    assert_int_equal(t.clocks.decision_ms, 20);
    set_ok(&t, "tournament.rule=decks=2");
    assert_int_equal(t.rules.decks, 2);
    /* One at a time, a gauntlet without its challenger is refused; together they pass. */
    expect_set_error(&t, "tournament.format=gauntlet", "format = gauntlet needs challenger");
    assert_int_equal(t.format, AR_FORMAT_ROUND_ROBIN);
    const char *pair[] = {"tournament.format=gauntlet", "tournament.challenger=gamma"};
    char err[512];
    if (ar_tour_set_many(&t, pair, 2, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(t.format, AR_FORMAT_GAUNTLET);
    /* All or nothing: a bad second override undoes the first. */
    const char *bad[] = {"tournament.deals=9", "tournament.dealz=3"};
    assert_int_equal(ar_tour_set_many(&t, bad, 2, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "--set tournament.dealz=3: unknown key \"dealz\""));
    assert_int_equal(t.deals, 1);
    const char *sprt[] = {"sprt.s0=0", "sprt.s1=1.5"};
    if (ar_tour_set_many(&t, sprt, 2, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(t.sprt, 1);
    assert_true(t.sprt_s1 == 1.5);

    /* The same checks as a file line, and the message names the override. */
    expect_set_error(&t, "tournament.sed=7",
                     "unknown key \"sed\" in [tournament] (did you mean "
                     "\"seed\"?)");
    expect_set_error(&t, "tournement.seed=7",
                     "unknown section \"tournement\" (did you mean "
                     "\"tournament\"?)");
    expect_set_error(&t, "entrant.betta.memory_mb=1",
                     "no entrant is called \"betta\" (did you "
                     "mean \"beta\"?)");
    expect_set_error(&t, "entrant.beta.memroy_mb=1", "(did you mean \"memory_mb\"?)");
    expect_set_error(&t, "tournament.seats=9", "seats: expected an integer from 2 to 8");
    expect_set_error(&t, "tournament.seats=4", "seats = 4 needs at least 4 entrants");
    expect_set_error(&t, "tournament.challenger=delta", "no entrant is called \"delta\"");
    expect_set_error(&t, "tournament.rule=decks=9", "decks");
    expect_set_error(&t, "sprt.s1=-1", "s1: must be larger than s0");
    expect_set_error(&t, "tournament.seed", "expected SECTION.KEY=VALUE");
    expect_set_error(&t, "seed=3", "expected SECTION.KEY=VALUE");
    expect_set_error(&t, "entrant.beta=3", "expected entrant.NAME.KEY=VALUE");
    expect_set_error(&t, "entrant.beta.command=./missing-bot", "no such file");

    /* A refused override leaves the tour as it was. */
    assert_true(t.seed == 16);
    assert_int_equal(t.seats, 3);
    assert_string_equal(t.challenger, "gamma");
    assert_int_equal(t.rules.decks, 2);
    assert_true(t.sprt_s1 == 1.5);
    assert_string_equal(t.entrant[1].command, "@greedy");
    ar_tour_free(&t);

    /* An override that creates a section: its errors name the override. */
    load_ok("over2.tour", three, &t);
    /* The games a tournament may schedule (AR_SCHED_MAX_GAMES; one table of 3 seats here):
     * the last deal that fits is taken, the next is refused with the numbers. */
    char deals[64];
    snprintf(deals, sizeof deals, "tournament.deals=%d", AR_SCHED_MAX_GAMES / 3);
    set_ok(&t, deals);
    snprintf(deals, sizeof deals, "tournament.deals=%d", AR_SCHED_MAX_GAMES / 3 + 1);
    expect_set_error(&t, deals, "deals x 1 table x 3 seats");
    expect_set_error(&t, "tournament.deals=1000000000", "1000000000 deals x 1 table x 3 seats");
    assert_int_equal(t.deals, AR_SCHED_MAX_GAMES / 3);
    expect_set_error(&t, "sprt.s0=1", "[sprt] needs both s0 and s1");
    assert_int_equal(t.sprt, 0);
    set_ok(&t, "errors.on_error=substitute");
    assert_int_equal(t.on_error, AR_ON_ERROR_SUBSTITUTE);
    ar_tour_free(&t);
}

static void test_relative_commands(void **state)
{
    (void)state;
    char path[PATH_MAX], err[512];
    write_text("rel/sub/bots/b.sh", "#!/bin/sh\n", path, sizeof path);
    assert_int_equal(chmod(path, 0755), 0);
    write_text("rel/sub/t.tour",
               "[tournament]\nrules = laws\nseats = 2\n"
               "[entrant dot]\ncommand = ./bots/b.sh -x\n"
               "[entrant bare]\ncommand = bots/b.sh\n"
               "[entrant path]\ncommand = sh -c \"exit 0\"\n"
               "[entrant abs]\ncommand = /bin/sh\n",
               path, sizeof path);
    /* Load it through a relative path from another directory: the commands still resolve
     * against the file's folder. */
    char cwd[PATH_MAX];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(tmpdir), 0);
    ar_tour t;
    int rc = ar_tour_load("rel/sub/t.tour", &t, err, sizeof err);
    assert_int_equal(chdir("/"), 0);
    if (rc != 0)
        fail_msg("%s", err);
    char want[PATH_MAX + 32], real[PATH_MAX];
    assert_non_null(realpath(tmpdir, real));
    snprintf(want, sizeof want, "%s/rel/sub", real);
    assert_string_equal(t.dir, want);
    assert_string_equal(t.entrant[0].command, "./bots/b.sh -x"); /* stored as written */

    char **argv;
    int argc;
    assert_int_equal(ar_tour_argv(&t, 0, &argv, &argc, err, sizeof err), 0);
    assert_int_equal(argc, 2);
    snprintf(want, sizeof want, "%s/rel/sub/./bots/b.sh", real);
    assert_string_equal(argv[0], want);
    assert_string_equal(argv[1], "-x");
    assert_int_equal(access(argv[0], X_OK), 0);
    ar_spawn_argv_free(argv);

    assert_int_equal(ar_tour_argv(&t, 1, &argv, &argc, err, sizeof err), 0);
    snprintf(want, sizeof want, "%s/rel/sub/bots/b.sh", real);
    assert_string_equal(argv[0], want);
    ar_spawn_argv_free(argv);

    assert_int_equal(ar_tour_argv(&t, 2, &argv, &argc, err, sizeof err), 0);
    assert_int_equal(argc, 3);
    assert_string_equal(argv[0], "sh"); /* a bare word stays for the PATH lookup */
    assert_string_equal(argv[2], "exit 0");
    ar_spawn_argv_free(argv);

    assert_int_equal(ar_tour_argv(&t, 3, &argv, &argc, err, sizeof err), 0);
    assert_string_equal(argv[0], "/bin/sh");
    ar_spawn_argv_free(argv);
    ar_tour_free(&t);
    assert_int_equal(chdir(cwd), 0);

    /* A built-in has no argv. */
    load_ok("builtin.tour", three, &t);
    assert_int_equal(ar_tour_argv(&t, 0, &argv, &argc, err, sizeof err), -EINVAL);
    assert_null(argv);
    ar_tour_free(&t);
}

/* files = PATH...: split like a command, relative paths against the tour file's folder,
 * remembered with their line and as written; --set entrant.NAME.files overrides. */
static void test_files_key(void **state)
{
    (void)state;
    char path[PATH_MAX], err[512];
    write_text("fk/bots/a/bot.py", "print()\n", path, sizeof path);
    write_text("fk/data dir/x", "x\n", path, sizeof path);
    write_text("fk/t.tour",
               "[tournament]\nrules = laws\nseats = 2\n"
               "[entrant a]\ncommand = /bin/sh bots/a/bot.py\n"
               "files = bots/a \"data dir\" /usr/share\n"
               "[entrant b]\ncommand = @random\n",
               path, sizeof path);
    char cwd[PATH_MAX];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir("/"), 0); /* the current folder plays no part */
    ar_tour t;
    int rc = ar_tour_load(path, &t, err, sizeof err);
    assert_int_equal(chdir(cwd), 0);
    if (rc != 0)
        fail_msg("%s", err);
    char real[PATH_MAX], want[PATH_MAX + 32];
    assert_non_null(realpath(tmpdir, real));
    const ar_tour_entrant *a = &t.entrant[0];
    assert_non_null(a->files);
    snprintf(want, sizeof want, "%s/fk/bots/a", real);
    assert_string_equal(a->files[0], want);
    snprintf(want, sizeof want, "%s/fk/data dir", real);
    assert_string_equal(a->files[1], want);
    assert_string_equal(a->files[2], "/usr/share");
    assert_null(a->files[3]);
    assert_int_equal(a->files_line, 6);
    assert_int_equal(a->command_line, 5);
    assert_string_equal(a->files_text, "bots/a \"data dir\" /usr/share");
    assert_null(t.entrant[1].files);

    assert_int_equal(ar_tour_set(&t, "entrant.a.files=bots", err, sizeof err), 0);
    snprintf(want, sizeof want, "%s/fk/bots", real);
    assert_string_equal(t.entrant[0].files[0], want);
    assert_null(t.entrant[0].files[1]);
    assert_int_equal(t.entrant[0].files_line, 0); /* from --set: no line */
    expect_set_error(&t, "entrant.a.files=nowhere", "files: nowhere: No such file");
    ar_tour_free(&t);
}

static void test_near_misses(void **state)
{
    (void)state;
    static const struct {
        const char *line, *hint;
    } cases[] = {
        {"sed = 1", "did you mean \"seed\"?"},
        {"Seats = 3", "did you mean \"seats\"?"},
        {"max_table = 3", "did you mean \"max_tables\"?"},
        {"chalenger = a", "did you mean \"challenger\"?"},
        {"bootstraps = 3", "did you mean \"bootstrap\"?"},
        {"xyzzy = 3", ""}, /* nothing near: no hint */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512], path[PATH_MAX], err[512];
        snprintf(text, sizeof text, "[tournament]\n%s\n", cases[i].line);
        write_text("near.tour", text, path, sizeof path);
        ar_tour t;
        assert_int_equal(ar_tour_load(path, &t, err, sizeof err), -EINVAL);
        char prefix[PATH_MAX + 32];
        int pn = snprintf(prefix, sizeof prefix, "%s:2: unknown key", path);
        assert_true(pn > 0 && (size_t)pn < sizeof prefix);
        assert_int_equal(strncmp(err, prefix, strlen(prefix)), 0);
        if (cases[i].hint[0])
            assert_non_null(strstr(err, cases[i].hint));
        else
            assert_null(strstr(err, "did you mean"));
    }
}

static void test_not_text(void **state)
{
    (void)state;
    char path[PATH_MAX], err[512];
    ar_tour t;
    /* Missing file: "FILE: strerror" and -errno. */
    snprintf(path, sizeof path, "%s/absent.tour", tmpdir);
    assert_int_equal(ar_tour_load(path, &t, err, sizeof err), -ENOENT);
    assert_non_null(strstr(err, "absent.tour: No such file"));
    /* A directory. */
    assert_true(ar_tour_load(tmpdir, &t, err, sizeof err) < 0);
    /* A NUL byte. */
    static const char nul[] = "[tournament]\nrules = laws\x00\nseats = 3\n";
    write_file("nul.tour", nul, sizeof nul - 1, path, sizeof path);
    assert_int_equal(ar_tour_load(path, &t, err, sizeof err), -EINVAL);
    char want[PATH_MAX + 64];
    snprintf(want, sizeof want, "%s:2: a NUL byte", path);
    assert_int_equal(strncmp(err, want, strlen(want)), 0);
    /* A line longer than inih's buffer is refused, not split. */
    size_t big = 6000;
    char *text = malloc(big + 64);
    assert_non_null(text);
    int n = snprintf(text, 64, "[tournament]\nrules = laws\nname = ");
    memset(text + n, 'x', big);
    memcpy(text + n + big, "\n", 2);
    write_text("long.tour", text, path, sizeof path);
    free(text);
    assert_int_equal(ar_tour_load(path, &t, err, sizeof err), -EINVAL);
    snprintf(want, sizeof want, "%s:3: line longer than", path);
    assert_int_equal(strncmp(err, want, strlen(want)), 0);
    /* A byte-order mark and CRLF line ends are fine. */
    static const char bom[] = "\xef\xbb\xbf[tournament]\r\nrules = laws\r\nseats = 2\r\n"
                              "[entrant a]\r\ncommand = @random\r\n[entrant b]\r\ncommand = "
                              "@random\r\nsed = 1\r\n";
    write_text("bom.tour", bom, path, sizeof path);
    assert_int_equal(ar_tour_load(path, &t, err, sizeof err), -EINVAL);
    snprintf(want, sizeof want, "%s:8: unknown key \"sed\" in [entrant b]", path);
    assert_int_equal(strncmp(err, want, strlen(want)), 0);
    /* An empty file. */
    write_text("empty.tour", "", path, sizeof path);
    assert_int_equal(ar_tour_load(path, &t, err, sizeof err), -EINVAL);
    snprintf(want, sizeof want, "%s:1: no [tournament] section", path);
    assert_int_equal(strncmp(err, want, strlen(want)), 0);
}

/* The loaded tour feeds the schedule as is. */
static void test_feeds_schedule(void **state)
{
    (void)state;
    ar_tour t;
    load_ok("sched.tour",
            "[tournament]\nrules = laws\nseats = 3\nformat = gauntlet\nchallenger = gamma\n"
            "deals = 4\n[entrant alpha]\ncommand = @random\n[entrant beta]\ncommand = @greedy\n"
            "[entrant gamma]\ncommand = @random\n[entrant delta]\ncommand = @random\n",
            &t);
    ar_schedule_opts o = {.n = t.nentrants,
                          .k = t.seats,
                          .format = t.format,
                          .challenger = ar_tour_find(&t, t.challenger),
                          .baseline = -1,
                          .deals = t.deals,
                          .max_tables = t.max_tables,
                          .seed = t.seed};
    ar_schedule s;
    char err[256];
    assert_int_equal(ar_schedule_make(&o, &s, err, sizeof err), 0);
    assert_int_equal(s.ntables, 3);
    assert_int_equal(s.nsets, 12);
    for (int i = 0; i < s.ntables; i++) {
        int has = 0;
        for (int j = 0; j < 3; j++)
            has |= s.table[i].entrant[j] == 2;
        assert_true(has);
    }
    ar_schedule_free(&s);
    ar_tour_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_file),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_hands),
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_overrides),
        cmocka_unit_test(test_files_key),
        cmocka_unit_test(test_relative_commands),
        cmocka_unit_test(test_near_misses),
        cmocka_unit_test(test_not_text),
        cmocka_unit_test(test_feeds_schedule),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
