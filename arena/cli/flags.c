/* flags.c - helpers every arena subcommand uses: flag values, numbers, rule options, the
 * sandbox flags, the clock. Prints errors; never exits. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "jail/sandbox.h"
#include "jail/seccomp.h"
#include "jail/spawn.h"
#include "match/match.h"
#include "util/util.h"

int ar_flag(int argc, char **argv, int *i, const char *name, const char **value)
{
    const char *arg = argv[*i];
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0)
        return 0;
    if (arg[n] == '=') {
        *value = arg + n + 1;
        return 1;
    }
    if (arg[n] != '\0')
        return 0;
    if (*i + 1 >= argc) {
        fprintf(stderr, "arena: %s: missing value\n", name);
        return -1;
    }
    *value = argv[++*i];
    return 1;
}

int ar_table_flag(int argc, char **argv, int *i, ar_rules_args *rules, int *players,
                  int *players_given, uint64_t *seed)
{
    const char *v = NULL;
    long long n;
    int r;
    if ((r = ar_flag(argc, argv, i, "--rules", &v)) != 0) {
        if (r > 0)
            rules->preset = v;
    } else if ((r = ar_flag(argc, argv, i, "--rule", &v)) != 0) {
        if (r > 0)
            ar_rules_args_add(rules, v);
    } else if ((r = ar_flag(argc, argv, i, "--players", &v)) != 0) {
        if (r > 0 && ar_parse_long("--players", v, 1, OKR_MAX_PLAYERS, &n) < 0)
            return -1;
        if (r > 0) {
            *players = (int)n;
            *players_given = 1;
        }
    } else if ((r = ar_flag(argc, argv, i, "--seed", &v)) != 0) {
        if (r > 0 && ar_parse_u64("--seed", v, seed) < 0)
            return -1;
    }
    return r;
}

int ar_parse_long(const char *flag, const char *s, long long min, long long max, long long *out)
{
    const char *p = s;
    if (*p == '-' || *p == '+')
        p++;
    if (!isdigit((unsigned char)*p))
        goto bad;
    for (; *p; p++)
        if (!isdigit((unsigned char)*p))
            goto bad;
    errno = 0;
    char *end;
    long long v = strtoll(s, &end, 10);
    if (errno || *end || v < min || v > max)
        goto bad;
    *out = v;
    return 0;
bad:
    fprintf(stderr, "arena: %s: expected an integer from %lld to %lld, got '%s'\n", flag, min, max,
            s);
    return -1;
}

int ar_parse_u64(const char *flag, const char *s, uint64_t *out)
{
    const char *p = s;
    if (!isdigit((unsigned char)*p))
        goto bad;
    for (; *p; p++)
        if (!isdigit((unsigned char)*p))
            goto bad;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        goto bad;
    *out = (uint64_t)v;
    return 0;
bad:
    fprintf(stderr, "arena: %s: expected an integer from 0 to %llu, got '%s'\n", flag,
            (unsigned long long)UINT64_MAX, s);
    return -1;
}

int ar_rules_args_add(ar_rules_args *ra, const char *opt_eq_val)
{
    const char **grown = realloc(ra->options, (size_t)(ra->noptions + 1) * sizeof *grown);
    if (!grown) {
        fprintf(stderr, "arena: out of memory\n");
        abort();
    }
    ra->options = grown;
    ra->options[ra->noptions++] = opt_eq_val;
    return 0;
}

void ar_rules_args_free(ar_rules_args *ra)
{
    free(ra->options);
    ra->options = NULL;
    ra->noptions = 0;
}

int ar_rules_build(const ar_rules_args *ra, int players, okr_rules *out)
{
    okr_refusal why;
    memset(&why, 0, sizeof why);
    const char *preset = ra->preset ? ra->preset : "laws";
    if (okr_rules_preset(out, preset, &why) != OKR_OK) {
        fprintf(stderr, "arena: --rules: '%s': %s\n", preset, why.reason);
        return AR_EXIT_USAGE;
    }
    for (int i = 0; i < ra->noptions; i++) {
        const char *arg = ra->options[i];
        const char *eq = strchr(arg, '=');
        if (!eq || eq == arg) {
            fprintf(stderr, "arena: --rule: expected OPTION=VALUE, got '%s'\n", arg);
            return AR_EXIT_USAGE;
        }
        char name[64];
        size_t n = (size_t)(eq - arg);
        if (n >= sizeof name)
            n = sizeof name - 1;
        memcpy(name, arg, n);
        name[n] = '\0';
        memset(&why, 0, sizeof why);
        if (okr_rules_set(out, name, eq + 1, &why) != OKR_OK) {
            ar_print_refusal(name, &why);
            /* a misspelt option: the nearest of the engine's names, as tour files do */
            const char *opts[64];
            int nopts = 0, known = 0;
            for (const char *o; nopts < 63 && (o = okr_rules_option_name(nopts)) != NULL;)
                known |= strcmp(opts[nopts++] = o, name) == 0;
            const char *near = known ? NULL : ar_near_miss(name, opts, nopts);
            if (near)
                fprintf(stderr, "arena: --rule %s: did you mean \"%s\"?\n", name, near);
            return AR_EXIT_USAGE;
        }
    }
    memset(&why, 0, sizeof why);
    if (okr_rules_check(out, players, &why) != OKR_OK) {
        /* The engine's reasons start with the option they are about ("decks: ..."). */
        ar_print_refusal(NULL, &why);
        return AR_EXIT_USAGE;
    }
    return AR_EXIT_OK;
}

double ar_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- Sandbox ------------------------------------------------------------------------------ */

void ar_sb_args_init(ar_sb_args *a)
{
    memset(a, 0, sizeof *a);
    a->min = "rootless";
    a->memory_mb = 256;
    a->stdout_cap = 1 << 20;
}

void ar_sb_args_free(ar_sb_args *a)
{
    free(a->profiles);
    free(a->binds);
    a->profiles = NULL;
    a->binds = NULL;
    a->nprofiles = a->nbinds = 0;
}

void ar_sb_usage(FILE *out)
{
    fprintf(out,
            "  Sandbox (docs/sandbox.md; the probe's summary line is printed on stderr):\n"
            "  --sandbox MIN    refuse to run in a mode weaker than MIN: full no-cgroups\n"
            "                   rootless seccomp-only off (default rootless)\n"
            "  --insecure       run in the best mode available even below MIN (warning)\n"
            "  --no-sandbox     plain child processes, no confinement at all (warning)\n"
            "  --profile N=P    seccomp profile of the N-th --bot (%s; default: from\n"
            "                   the program, interpreted for python/node/java/...)\n"
            "  --memory-mb M    memory limit per bot (default 256; 0: none)\n"
            "  --pids N         tasks per bot (default: native 8, interpreted 64)\n"
            "  --stdout-cap B   OLE beyond B bytes on stdout in one decision (default 1048576)\n"
            "  --bind DIR       show DIR read-only to every bot as well (repeatable)\n",
            ar_seccomp_profiles());
}

int ar_sb_flag(int argc, char **argv, int *i, ar_sb_args *a)
{
    const char *v = NULL;
    int r;
    if (strcmp(argv[*i], "--insecure") == 0) {
        a->insecure = 1;
        return 1;
    }
    if (strcmp(argv[*i], "--no-sandbox") == 0) {
        a->off = 1;
        return 1;
    }
    if ((r = ar_flag(argc, argv, i, "--sandbox", &v)) != 0) {
        int mode;
        if (r > 0 && ar_sb_mode_parse(v, &mode) < 0) {
            fprintf(stderr,
                    "arena: --sandbox: expected full, no-cgroups, rootless, seccomp-only or "
                    "off, got '%s'\n",
                    v);
            return -1;
        }
        if (r > 0)
            a->min = v;
        return r;
    }
    if ((r = ar_flag(argc, argv, i, "--memory-mb", &v)) != 0)
        return r < 0 || ar_parse_long("--memory-mb", v, 0, 1 << 20, &a->memory_mb) < 0 ? -1 : 1;
    if ((r = ar_flag(argc, argv, i, "--pids", &v)) != 0)
        return r < 0 || ar_parse_long("--pids", v, 1, 1 << 20, &a->pids) < 0 ? -1 : 1;
    if ((r = ar_flag(argc, argv, i, "--stdout-cap", &v)) != 0)
        return r < 0 || ar_parse_long("--stdout-cap", v, 1, 1LL << 40, &a->stdout_cap) < 0 ? -1 : 1;
    if ((r = ar_flag(argc, argv, i, "--profile", &v)) != 0) {
        if (r < 0)
            return -1;
        const char *eq = strchr(v, '=');
        if (!eq || eq == v || !eq[1]) {
            fprintf(stderr, "arena: --profile: expected N=PROFILE, got '%s'\n", v);
            return -1;
        }
        a->profiles = ar_xrealloc(a->profiles, (size_t)(a->nprofiles + 1) * sizeof *a->profiles);
        a->profiles[a->nprofiles++] = v;
        return 1;
    }
    if ((r = ar_flag(argc, argv, i, "--bind", &v)) != 0) {
        if (r < 0)
            return -1;
        if (access(v, F_OK) < 0) {
            fprintf(stderr, "arena: --bind: '%s': %s\n", v, strerror(errno));
            return -1;
        }
        a->binds = ar_xrealloc(a->binds, (size_t)(a->nbinds + 2) * sizeof *a->binds);
        a->binds[a->nbinds++] = (char *)v;
        a->binds[a->nbinds] = NULL;
        return 1;
    }
    return 0;
}

/* Is name one of the space-separated words of list? */
static int is_word_of(const char *name, const char *list)
{
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        while (*p == ' ')
            p++;
        const char *e = p;
        while (*e && *e != ' ')
            e++;
        if ((size_t)(e - p) == n && n && strncmp(p, name, n) == 0)
            return 1;
        p = e;
    }
    return 0;
}

int ar_sb_setup(const ar_sb_args *a, int quiet, ar_entrant *e, int n, ar_sandbox_cfg *out)
{
    memset(out, 0, sizeof *out);
    for (int k = 0; k < a->nprofiles; k++) {
        const char *v = a->profiles[k], *eq = strchr(v, '=');
        char num[32];
        size_t len = (size_t)(eq - v);
        long long idx;
        snprintf(num, sizeof num, "%.*s", (int)(len < sizeof num ? len : sizeof num - 1), v);
        if (ar_parse_long("--profile", num, 1, n, &idx) < 0)
            return AR_EXIT_USAGE;
        if (!is_word_of(eq + 1, ar_seccomp_profiles())) {
            fprintf(stderr, "arena: --profile: unknown profile '%s' (known: %s)\n", eq + 1,
                    ar_seccomp_profiles());
            return AR_EXIT_USAGE;
        }
        if (e[idx - 1].builtin) {
            fprintf(stderr, "arena: --profile: --bot %lld is a built-in, not a program\n", idx);
            return AR_EXIT_USAGE;
        }
        e[idx - 1].profile = eq + 1;
    }
    out->memory_mb = (uint32_t)a->memory_mb;
    out->pids = (int)a->pids;
    out->cpu_s = 3600; /* a backstop: the clocks judge each decision */
    out->binds = a->binds;
    return ar_sandbox_choose(a->min, a->insecure, a->off, quiet, out) < 0 ? AR_EXIT_USAGE
                                                                          : AR_EXIT_OK;
}

int ar_parse_ms(const char *flag, const char *v, uint32_t *out)
{
    long long n;
    if (ar_parse_long(flag, v, 1, 86400000, &n) < 0)
        return -1;
    *out = (uint32_t)n;
    return 0;
}

/* Set once by main() before any subcommand runs; read-only afterwards. */
static const char *program = "arena";

void ar_cli_set_program(const char *argv0)
{
    if (argv0 && argv0[0])
        program = argv0;
}

const char *ar_cli_program(void)
{
    return program;
}

void ar_cli_shell_word(char *buf, size_t cap, size_t *len, const char *s)
{
    int plain = s[0] != '\0';
    for (const char *c = s; *c && plain; c++)
        plain = isalnum((unsigned char)*c) || strchr("/._-+=:,@%", *c);
    if (*len >= cap)
        return;
    if (plain) {
        *len += (size_t)snprintf(buf + *len, cap - *len, "%s", s);
    } else {
        *len += (size_t)snprintf(buf + *len, cap - *len, "'");
        for (const char *c = s; *c && *len < cap; c++)
            *len += (size_t)(*c == '\'' ? snprintf(buf + *len, cap - *len, "'\\''")
                                        : snprintf(buf + *len, cap - *len, "%c", *c));
        if (*len < cap)
            *len += (size_t)snprintf(buf + *len, cap - *len, "'");
    }
    if (*len > cap)
        *len = cap;
}
