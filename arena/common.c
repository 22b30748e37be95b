/* common.c - helpers every arena subcommand uses: flag values, numbers, rule options,
 * refusal messages, the clock. Prints errors; never exits. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

int ar_is_rule_number(const char *rule)
{
    if (!rule || !rule[0])
        return 0;
    if (isdigit((unsigned char)rule[0]))
        return 1;
    return rule[0] == 'G' && isdigit((unsigned char)rule[1]);
}

void ar_print_refusal(const char *what, const okr_refusal *why)
{
    size_t n = what ? strlen(what) : 0;
    fputs("arena: ", stderr);
    if (n && !(strncmp(why->reason, what, n) == 0 && why->reason[n] == ':'))
        fprintf(stderr, "%s: ", what);
    fputs(why->reason[0] ? why->reason : "refused", stderr);
    if (ar_is_rule_number(why->rule))
        fprintf(stderr, " (RULES %s)", why->rule);
    fputc('\n', stderr);
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
