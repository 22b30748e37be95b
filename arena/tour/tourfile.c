/* tourfile.c - tournament files (tourfile.h), read with libinih and checked completely
 * before anything runs.
 *
 * Two stages. Parsing stores every value as written, with where it came from (a file line,
 * or the --set text that replaced it); only the shape is checked there: known sections and
 * keys, no key twice, valid entrant names. Resolving then turns the stored text into an
 * ar_tour, checking values and how they fit together, and reports the problem with the
 * smallest line (an override before any file line). ar_tour_set changes one stored value
 * and resolves again, so an override is checked by exactly the code that checks a file line.
 *
 * Line numbers: Debian's inih 55 is built without INI_HANDLER_LINENO, so the handler is not
 * told the line. We feed inih through ini_parse_stream with our own reader, which hands it
 * one line at a time and counts; inih calls the handler for a line before it asks for the
 * next, so the count is the handler's line. Multi-line values are turned off (an indented
 * line is a line of its own), so one handler call is one line. The reader also sees
 * section headers first, which lets us check empty sections that inih never reports. */
#include "tourfile.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jail/spawn.h"
#include "match/match.h"
#include "match/policy.h"
#include "match/refusal.h"
#include "schedule.h"
#include "util/util.h"

enum { MAX_FILE_BYTES = 1 << 20, MAX_LINE = 4096, NAME_MAX_LEN = 32, TOUR_NAME_MAX_LEN = 64 };

/* ---- Sections and keys ----------------------------------------------------------------- */

enum { SEC_TOURNAMENT, SEC_CLOCKS, SEC_ERRORS, SEC_SANDBOX, SEC_SPRT, SEC_ENTRANT, NSECS };
static const char *const sec_names[NSECS] = {"tournament", "clocks", "errors",
                                             "sandbox",    "sprt",   "entrant"};

enum {
    K_NAME,
    K_RULES,
    K_RULE,
    K_SEATS,
    K_FORMAT,
    K_CHALLENGER,
    K_BASELINE,
    K_DEALS,
    K_MAX_TABLES,
    K_SEED,
    K_OUT,
    K_JOBS,
    K_BOOTSTRAP,
    K_STARTUP_MS,
    K_DECISION_MS,
    K_BANK_MS,
    K_HARD_MS,
    K_ON_ERROR,
    K_SUBSTITUTE,
    K_MAX_ERROR_SHARE,
    K_MINIMUM,
    K_MEMORY_MB,
    K_S0,
    K_S1,
    K_ALPHA,
    K_BETA,
    K_HANDS,
    K_PONDER,
    K_PACE,
    K_LUCK,
    K_SPRT_SCORE,
    K_RUNNER,
    K_SBATCH,
    /* [league] only (league_only): keep these last, before NKEYS */
    K_TEST_SETS_PER_HOUR,
    K_UPLOAD_MAX_BYTES,
    K_UPLOAD_MAX_UNPACKED,
    K_UPLOAD_MAX_FILES,
    K_BUILD_SECONDS,
    K_BUILD_MB,
    NKEYS
};
/* Keys of [entrant NAME]. */
enum { E_COMMAND, E_PROFILE, E_MEMORY_MB, E_STARTUP_MS, E_FILES, NEKEYS };

typedef struct keydef {
    int sec;
    const char *name;
    int id;
} keydef;

static const keydef keys[] = {
    {SEC_TOURNAMENT, "name", K_NAME},
    {SEC_TOURNAMENT, "rules", K_RULES},
    {SEC_TOURNAMENT, "rule", K_RULE},
    {SEC_TOURNAMENT, "seats", K_SEATS},
    {SEC_TOURNAMENT, "format", K_FORMAT},
    {SEC_TOURNAMENT, "challenger", K_CHALLENGER},
    {SEC_TOURNAMENT, "baseline", K_BASELINE},
    {SEC_TOURNAMENT, "deals", K_DEALS},
    {SEC_TOURNAMENT, "max_tables", K_MAX_TABLES},
    {SEC_TOURNAMENT, "seed", K_SEED},
    {SEC_TOURNAMENT, "out", K_OUT},
    {SEC_TOURNAMENT, "jobs", K_JOBS},
    {SEC_TOURNAMENT, "bootstrap", K_BOOTSTRAP},
    {SEC_TOURNAMENT, "hands", K_HANDS},
    {SEC_TOURNAMENT, "luck", K_LUCK},
    {SEC_TOURNAMENT, "runner", K_RUNNER},
    {SEC_TOURNAMENT, "sbatch", K_SBATCH},
    {SEC_TOURNAMENT, "test_sets_per_hour", K_TEST_SETS_PER_HOUR},
    {SEC_TOURNAMENT, "upload_max_bytes", K_UPLOAD_MAX_BYTES},
    {SEC_TOURNAMENT, "upload_max_unpacked", K_UPLOAD_MAX_UNPACKED},
    {SEC_TOURNAMENT, "upload_max_files", K_UPLOAD_MAX_FILES},
    {SEC_TOURNAMENT, "build_seconds", K_BUILD_SECONDS},
    {SEC_TOURNAMENT, "build_mb", K_BUILD_MB},
    {SEC_CLOCKS, "startup_ms", K_STARTUP_MS},
    {SEC_CLOCKS, "decision_ms", K_DECISION_MS},
    {SEC_CLOCKS, "bank_ms", K_BANK_MS},
    {SEC_CLOCKS, "hard_ms", K_HARD_MS},
    {SEC_CLOCKS, "ponder", K_PONDER},
    {SEC_CLOCKS, "pace", K_PACE},
    {SEC_ERRORS, "on_error", K_ON_ERROR},
    {SEC_ERRORS, "substitute", K_SUBSTITUTE},
    {SEC_ERRORS, "max_error_share", K_MAX_ERROR_SHARE},
    {SEC_SANDBOX, "minimum", K_MINIMUM},
    {SEC_SANDBOX, "memory_mb", K_MEMORY_MB},
    {SEC_SPRT, "s0", K_S0},
    {SEC_SPRT, "s1", K_S1},
    {SEC_SPRT, "alpha", K_ALPHA},
    {SEC_SPRT, "beta", K_BETA},
    {SEC_SPRT, "score", K_SPRT_SCORE},
    {SEC_ENTRANT, "command", E_COMMAND},
    {SEC_ENTRANT, "profile", E_PROFILE},
    {SEC_ENTRANT, "memory_mb", E_MEMORY_MB},
    {SEC_ENTRANT, "startup_ms", E_STARTUP_MS},
    {SEC_ENTRANT, "files", E_FILES},
};
enum { NKEYDEFS = (int)(sizeof keys / sizeof keys[0]) };

static const char *const format_names[] = {"round-robin", "gauntlet", NULL};
static const char *const ponder_names[] = {"off", "on", NULL};
static const char *const on_error_names[] = {"forfeit", "substitute", NULL};
static const char *const luck_names[] = {"on", "off", "hand", "rollout", NULL};
static const char *const sprt_score_names[] = {"raw", "luck-adjusted", NULL};
static const char *const runner_names[] = {"local", "slurm", NULL};
static const char *const substitute_names[] = {"first", "random", "greedy", NULL};
static const char *const sandbox_names[] = {"full",         "no-cgroups", "rootless",
                                            "seccomp-only", "off",        NULL};
static const char *const profile_names[] = {"auto", "native", "interpreted", NULL};

/* ---- Stored text ------------------------------------------------------------------------- */

/* One value as written, and where: line > 0 in the file, or set != NULL for an override. */
typedef struct src_val {
    char *value; /* NULL: not given */
    int line;
    char *set; /* "--set tournament.seed=7" */
} src_val;

typedef struct src_ent {
    char *name;
    int line; /* of [entrant NAME] */
    src_val v[NEKEYS];
} src_ent;

struct ar_tour_src {
    char *file;          /* path for messages */
    int sec_line[NSECS]; /* first header of each section, 0 if none */
    src_val key[NKEYS];  /* K_RULE unused: see rule */
    src_val *rule;       /* every `rule =`, in order */
    int nrule;
    src_ent *ent;
    int nent;
    int league; /* a league file (ar_tour_load_league): [league] for [tournament] */
};

/* The keys a [league] section takes: a league has no format, schedule or output folder of a
 * tournament's kind (its folder is given to `arena league init`). */
static int league_key(int id)
{
    return id == K_NAME || id == K_RULES || id == K_RULE || id == K_SEATS || id == K_SEED ||
           id == K_HANDS || id == K_BOOTSTRAP || id == K_JOBS || id == K_RUNNER || id == K_SBATCH ||
           id >= K_TEST_SETS_PER_HOUR;
}

/* The keys only a league has (its web face's test games and uploads): unknown to a
 * tournament's [tournament]. */
static int league_only(int id)
{
    return id >= K_TEST_SETS_PER_HOUR && id < NKEYS;
}

/* The name the first section goes by in this file: [tournament] or [league]. */
static const char *main_sec(const struct ar_tour_src *s)
{
    return s->league ? "league" : "tournament";
}

static void val_free(src_val *v)
{
    free(v->value);
    free(v->set);
    memset(v, 0, sizeof *v);
}

static void src_free(struct ar_tour_src *s)
{
    if (!s)
        return;
    free(s->file);
    for (int i = 0; i < NKEYS; i++)
        val_free(&s->key[i]);
    for (int i = 0; i < s->nrule; i++)
        val_free(&s->rule[i]);
    free(s->rule);
    for (int i = 0; i < s->nent; i++) {
        free(s->ent[i].name);
        for (int j = 0; j < NEKEYS; j++)
            val_free(&s->ent[i].v[j]);
    }
    free(s->ent);
    free(s);
}

/* ---- Small helpers ----------------------------------------------------------------------- */

static int count_names(const char *const *names)
{
    int n = 0;
    while (names[n])
        n++;
    return n;
}

/* " (did you mean \"x\"?)" or "". */
static void did_you_mean(char *buf, size_t cap, const char *suggestion)
{
    if (suggestion)
        snprintf(buf, cap, " (did you mean \"%s\"?)", suggestion);
    else if (cap)
        buf[0] = '\0';
}

static int valid_name(const char *s, int maxlen)
{
    int n = 0;
    for (; s[n]; n++) {
        unsigned char c = (unsigned char)s[n];
        if (!(isalnum(c) || c == '_' || c == '.' || c == '-'))
            return 0;
        if (n >= maxlen)
            return 0;
    }
    return n > 0;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

static int find_key(int sec, const char *name)
{
    for (int i = 0; i < NKEYDEFS; i++)
        if (keys[i].sec == sec && strcmp(keys[i].name, name) == 0)
            return keys[i].id;
    return -1;
}

static const char *key_name(int sec, int id)
{
    for (int i = 0; i < NKEYDEFS; i++)
        if (keys[i].sec == sec && keys[i].id == id)
            return keys[i].name;
    return "?";
}

static const char *near_key(int sec, const char *name)
{
    const char *names[NKEYDEFS + 1];
    int n = 0;
    for (int i = 0; i < NKEYDEFS; i++)
        if (keys[i].sec == sec)
            names[n++] = keys[i].name;
    names[n] = NULL;
    return ar_near_miss(name, names, n);
}

static int find_entrant_src(const struct ar_tour_src *s, const char *name)
{
    for (int i = 0; i < s->nent; i++)
        if (strcmp(s->ent[i].name, name) == 0)
            return i;
    return -1;
}

/* ---- Parsing ----------------------------------------------------------------------------- */

typedef struct parser {
    struct ar_tour_src *src;
    const char *buf;
    size_t len, pos;
    int line;
    int sec; /* current section, -1 before the first */
    int ent; /* current entrant (SEC_ENTRANT) */
    int failed;
    char err[512];
} parser;

static void perr(parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void perr(parser *p, const char *fmt, ...)
{
    if (p->failed)
        return;
    p->failed = 1;
    int n = snprintf(p->err, sizeof p->err, "%s:%d: ", p->src->file, p->line);
    if (n < 0 || (size_t)n >= sizeof p->err)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err + n, sizeof p->err - (size_t)n, fmt, ap);
    va_end(ap);
}

/* "[name]" seen on line p->line. */
static void section_header(parser *p, char *s)
{
    char *close = strchr(s, ']');
    if (!close) {
        perr(p, "a section header needs a closing ']'");
        return;
    }
    *close = '\0';
    char *rest = trim(close + 1);
    if (*rest && *rest != ';' && *rest != '#') {
        perr(p, "unexpected text after the section header: \"%s\"", rest);
        return;
    }
    char *name = trim(s + 1);
    char *space = name + strcspn(name, " \t");
    char *arg = NULL;
    if (*space) {
        *space = '\0';
        arg = trim(space + 1);
    }
    int sec = -1;
    int league = p->src->league;
    for (int i = 0; i < NSECS; i++)
        if (strcmp(name, sec_names[i]) == 0)
            sec = i;
    if (league && (sec == SEC_TOURNAMENT || sec == SEC_SPRT))
        sec = -1; /* a league has neither */
    if (league && strcmp(name, "league") == 0)
        sec = SEC_TOURNAMENT;
    if (sec < 0) {
        char dym[96];
        static const char *const league_names[] = {"league", "clocks", "errors", "sandbox",
                                                   "entrant"};
        did_you_mean(dym, sizeof dym,
                     league ? ar_near_miss(name, league_names, 5)
                            : ar_near_miss(name, sec_names, NSECS));
        perr(p,
             "unknown section [%s%s%s]%s; known: [%s] [clocks] [errors] [sandbox] %s[entrant NAME]",
             name, arg ? " " : "", arg ? arg : "", dym, main_sec(p->src), league ? "" : "[sprt] ");
        return;
    }
    if (sec != SEC_ENTRANT && arg) {
        perr(p, "[%s] takes no name (only [entrant NAME] does)", name);
        return;
    }
    p->sec = sec;
    if (!p->src->sec_line[sec])
        p->src->sec_line[sec] = p->line;
    if (sec != SEC_ENTRANT)
        return;
    if (!arg || !*arg) {
        perr(p, "[entrant] needs a name: [entrant NAME]");
        return;
    }
    if (!valid_name(arg, NAME_MAX_LEN)) {
        perr(p,
             "entrant name \"%s\": use 1 to %d letters, digits, '_', '.' or '-' (the name goes "
             "into file names and tables)",
             arg, NAME_MAX_LEN);
        return;
    }
    int dup = find_entrant_src(p->src, arg);
    if (dup >= 0) {
        perr(p, "entrant \"%s\" is already defined on line %d", arg, p->src->ent[dup].line);
        return;
    }
    if (p->src->nent >= AR_SCHED_MAX_ENTRANTS) {
        perr(p, "more than %d entrants", AR_SCHED_MAX_ENTRANTS);
        return;
    }
    p->src->ent = ar_xrealloc(p->src->ent, (size_t)(p->src->nent + 1) * sizeof *p->src->ent);
    src_ent *e = &p->src->ent[p->src->nent];
    memset(e, 0, sizeof *e);
    e->name = ar_xstrdup(arg);
    e->line = p->line;
    p->ent = p->src->nent++;
}

/* inih's reader: the next line (with its newline) into str, counting lines. */
static char *read_line(char *str, int num, void *stream)
{
    parser *p = stream;
    if (p->failed || p->pos >= p->len)
        return NULL;
    const char *start = p->buf + p->pos;
    const char *nl = memchr(start, '\n', p->len - p->pos);
    size_t n = nl ? (size_t)(nl - start) + 1 : p->len - p->pos;
    p->line++;
    if (memchr(start, '\0', n)) {
        perr(p, "a NUL byte: this is not a text file");
        return NULL;
    }
    /* inih needs room for the line and its NUL; a longer line would be split silently. */
    if (num < 2 || n > (size_t)num - 1) {
        perr(p, "line longer than %d characters", num - 3);
        return NULL;
    }
    memcpy(str, start, n);
    str[n] = '\0';
    p->pos += n;

    /* A section header: handled here, because inih tells the handler nothing about a
     * section without keys. */
    char tmp[MAX_LINE + 8];
    memcpy(tmp, str, n + 1);
    char *s = tmp;
    if (p->line == 1 && (unsigned char)s[0] == 0xEF && (unsigned char)s[1] == 0xBB &&
        (unsigned char)s[2] == 0xBF)
        s += 3; /* UTF-8 byte order mark, which inih skips too */
    s = trim(s);
    if (*s == '[') {
        section_header(p, s);
        if (p->failed)
            return NULL;
    }
    return str;
}

/* Store value for key `id` of section sec (entrant ent), from a file line or an override. */
static void store(parser *p, int sec, int ent, int id, const char *value, const char *set)
{
    src_val *v;
    if (sec == SEC_ENTRANT)
        v = &p->src->ent[ent].v[id];
    else if (id == K_RULE) {
        p->src->rule =
            ar_xrealloc(p->src->rule, (size_t)(p->src->nrule + 1) * sizeof *p->src->rule);
        v = &p->src->rule[p->src->nrule++];
        memset(v, 0, sizeof *v);
    } else
        v = &p->src->key[id];
    if (!set && v->value && v->line) {
        perr(p, "%s is already set on line %d", key_name(sec, id), v->line);
        return;
    }
    val_free(v);
    v->value = ar_xstrdup(value);
    v->line = set ? 0 : p->line;
    v->set = set ? ar_xstrdup(set) : NULL;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
    parser *p = user;
    (void)section; /* the reader tracks sections, so that they are checked once */
    if (p->failed)
        return 0;
    if (p->sec < 0) {
        perr(p, "\"%s\" comes before any [section]; start with [%s]", name, main_sec(p->src));
        return 0;
    }
    int id = find_key(p->sec, name);
    if (id >= 0 && p->src->league && p->sec == SEC_TOURNAMENT && !league_key(id)) {
        perr(p,
             "unknown key \"%s\" in [league]; [league] takes: name rules rule seats seed hands "
             "bootstrap jobs runner sbatch test_sets_per_hour upload_max_bytes "
             "upload_max_unpacked upload_max_files build_seconds build_mb",
             name);
        return 0;
    }
    if (id >= 0 && !p->src->league && p->sec == SEC_TOURNAMENT && league_only(id)) {
        perr(p, "unknown key \"%s\" in [tournament]: only a league's file takes it", name);
        return 0;
    }
    if (id < 0) {
        char dym[192];
        did_you_mean(dym, sizeof dym, near_key(p->sec, name));
        if (!dym[0]) {
            /* Nothing close: list what the section takes. */
            size_t n = (size_t)snprintf(dym, sizeof dym, "; [%s] takes:", sec_names[p->sec]);
            for (int i = 0; i < NKEYDEFS && n < sizeof dym; i++)
                if (keys[i].sec == p->sec)
                    n += (size_t)snprintf(dym + n, sizeof dym - n, " %s", keys[i].name);
        }
        if (p->sec == SEC_ENTRANT)
            perr(p, "unknown key \"%s\" in [entrant %s]%s", name, p->src->ent[p->ent].name, dym);
        else
            perr(p, "unknown key \"%s\" in [%s]%s", name,
                 p->sec == SEC_TOURNAMENT ? main_sec(p->src) : sec_names[p->sec], dym);
        return 0;
    }
    store(p, p->sec, p->ent, id, value ? value : "", NULL);
    return !p->failed;
}

/* ---- Resolving --------------------------------------------------------------------------- */

typedef struct resolver {
    const struct ar_tour_src *src;
    ar_tour *t;
    int err_line; /* smallest line with an error so far, INT_MAX if none; 0 for an override */
    int rules_ok; /* t->rules holds the preset and every rule */
    char err[512];
} resolver;

/* Report "WHERE: message" for value v (or, when v is NULL or unset, for line `line`). The
 * problem with the smallest line wins, so a file with several errors reports its first. */
static void rerr(resolver *r, const src_val *v, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void rerr(resolver *r, const src_val *v, int line, const char *fmt, ...)
{
    if (v && v->value)
        line = v->set ? 0 : v->line;
    if (line >= r->err_line)
        return;
    r->err_line = line;
    int n;
    if (v && v->value && v->set)
        n = snprintf(r->err, sizeof r->err, "%s: ", v->set);
    else
        n = snprintf(r->err, sizeof r->err, "%s:%d: ", r->src->file, line > 0 ? line : 1);
    if (n < 0 || (size_t)n >= sizeof r->err)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err + n, sizeof r->err - (size_t)n, fmt, ap);
    va_end(ap);
}

/* Line to blame for something missing from a section: its header, else line 1. */
static int sec_line(const resolver *r, int sec)
{
    return r->src->sec_line[sec] > 0 ? r->src->sec_line[sec] : 1;
}

static int get_long(resolver *r, const src_val *v, const char *key, long long lo, long long hi,
                    long long *out)
{
    if (!v->value)
        return 0;
    const char *s = v->value, *p = s;
    if (*p == '-' || *p == '+')
        p++;
    int ok = isdigit((unsigned char)*p) != 0;
    for (; ok && *p; p++)
        ok = isdigit((unsigned char)*p) != 0;
    if (ok) {
        errno = 0;
        char *end;
        long long x = strtoll(s, &end, 10);
        if (!errno && !*end && x >= lo && x <= hi) {
            *out = x;
            return 1;
        }
    }
    rerr(r, v, 0, "%s: expected an integer from %lld to %lld, got '%s'", key, lo, hi, s);
    return -1;
}

static int get_double(resolver *r, const src_val *v, const char *key, double lo, double hi,
                      int open, double *out)
{
    if (!v->value)
        return 0;
    char *end;
    errno = 0;
    double x = strtod(v->value, &end);
    int in = open ? (x > lo && x < hi) : (x >= lo && x <= hi);
    if (v->value[0] && !errno && !*end && isfinite(x) && in) {
        *out = x;
        return 1;
    }
    if (isinf(lo) || isinf(hi))
        rerr(r, v, 0, "%s: expected a number, got '%s'", key, v->value);
    else
        rerr(r, v, 0, "%s: expected a number %s %g %s %g, got '%s'", key,
             open ? "strictly between" : "from", lo, open ? "and" : "to", hi, v->value);
    return -1;
}

/* Index of v's value in names, or -1 after reporting. 0 (and *out untouched) if not given. */
static int get_choice(resolver *r, const src_val *v, const char *key, const char *const *names,
                      int *out)
{
    if (!v->value)
        return 0;
    for (int i = 0; names[i]; i++)
        if (strcmp(v->value, names[i]) == 0) {
            *out = i;
            return 1;
        }
    char list[160] = "", dym[96];
    for (int i = 0; names[i]; i++) {
        size_t n = strlen(list);
        snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", names[i]);
    }
    did_you_mean(dym, sizeof dym, ar_near_miss(v->value, names, count_names(names)));
    rerr(r, v, 0, "%s: expected one of %s, got '%s'%s", key, list, v->value, dym);
    return -1;
}

static int get_seed(resolver *r, const src_val *v, uint64_t *out)
{
    if (!v->value)
        return 0;
    const char *s = v->value;
    int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    const char *d = hex ? s + 2 : s;
    int ok = *d != '\0';
    for (const char *p = d; ok && *p; p++)
        ok = hex ? isxdigit((unsigned char)*p) != 0 : isdigit((unsigned char)*p) != 0;
    if (ok) {
        errno = 0;
        char *end;
        unsigned long long x = strtoull(d, &end, hex ? 16 : 10);
        if (!errno && !*end) {
            *out = (uint64_t)x;
            return 1;
        }
    }
    rerr(r, v, 0, "seed: expected an integer from 0 to %llu (decimal, or hex with 0x), got '%s'",
         (unsigned long long)UINT64_MAX, s);
    return -1;
}

/* The engine's refusal as the arena prints it (ar_print_refusal): "what: reason (RULES x)",
 * without `what` when the reason already starts with it. */
static void refusal_text(char *buf, size_t cap, const char *what, const okr_refusal *why)
{
    size_t n = what ? strlen(what) : 0;
    const char *reason = why->reason[0] ? why->reason : "refused";
    int with_what = n && !(strncmp(reason, what, n) == 0 && reason[n] == ':');
    int len = snprintf(buf, cap, "%s%s%s", with_what ? what : "", with_what ? ": " : "", reason);
    if (len >= 0 && (size_t)len < cap && ar_is_rule_number(why->rule))
        snprintf(buf + len, cap - (size_t)len, " (RULES %s)", why->rule);
}

static void resolve_rules(resolver *r, ar_tour *t)
{
    const struct ar_tour_src *s = r->src;
    const src_val *pv = &s->key[K_RULES];
    okr_refusal why;
    memset(&why, 0, sizeof why);
    if (!pv->value) {
        rerr(r, NULL, sec_line(r, SEC_TOURNAMENT),
             "[%s] needs rules = PRESET (laws, parlett, arlington, german or gin)", main_sec(s));
        return;
    }
    if (okr_rules_preset(&t->rules, pv->value, &why) != OKR_OK) {
        rerr(r, pv, 0, "rules: '%s': %s", pv->value, why.reason);
        return;
    }
    for (int i = 0; i < s->nrule; i++) {
        const src_val *v = &s->rule[i];
        const char *eq = strchr(v->value, '=');
        if (!eq || eq == v->value) {
            rerr(r, v, 0, "rule: expected OPTION=VALUE, got '%s'", v->value);
            return;
        }
        char name[64], msg[256];
        size_t n = (size_t)(eq - v->value);
        if (n >= sizeof name)
            n = sizeof name - 1;
        memcpy(name, v->value, n);
        name[n] = '\0';
        char *opt = trim(name);
        char val[128];
        snprintf(val, sizeof val, "%s", eq + 1);
        memset(&why, 0, sizeof why);
        if (okr_rules_set(&t->rules, opt, trim(val), &why) != OKR_OK) {
            refusal_text(msg, sizeof msg, opt, &why);
            /* A misspelt option: suggest the engine's nearest option name. */
            const char *opts[64];
            int nopts = 0, known = 0;
            for (const char *o; nopts < 63 && (o = okr_rules_option_name(nopts)) != NULL;)
                opts[nopts++] = o;
            opts[nopts] = NULL;
            for (int j = 0; j < nopts; j++)
                known |= strcmp(opts[j], opt) == 0;
            char dym[96] = "";
            if (!known)
                did_you_mean(dym, sizeof dym, ar_near_miss(opt, opts, nopts));
            rerr(r, v, 0, "%s%s", msg, dym);
            return;
        }
    }
    r->rules_ok = 1;
}

/* files = PATH...: the entrant's own folders and files, split like a command, relative ones
 * against the tour file's folder; each must exist now. */
static void resolve_files(resolver *r, const ar_tour *t, const src_val *v, ar_tour_entrant *e)
{
    if (!v->value)
        return;
    e->files_line = v->set ? 0 : v->line;
    e->files_text = ar_xstrdup(v->value);
    char **w = NULL, err[256];
    int n;
    if (ar_spawn_split(v->value, &w, &n, err, sizeof err) < 0) {
        rerr(r, v, 0, "files: %s", err);
        return;
    }
    e->files = ar_xcalloc((size_t)n + 1, sizeof *e->files);
    for (int i = 0; i < n; i++) {
        char p[PATH_MAX];
        int k = w[i][0] == '/' || !t->dir ? snprintf(p, sizeof p, "%s", w[i])
                                          : snprintf(p, sizeof p, "%s/%s", t->dir, w[i]);
        struct stat st;
        if (k < 0 || (size_t)k >= sizeof p || stat(p, &st) < 0)
            rerr(r, v, 0, "files: %s: %s (relative paths are taken against %s)", w[i],
                 k < 0 || (size_t)k >= sizeof p ? strerror(ENAMETOOLONG) : strerror(errno),
                 t->dir ? t->dir : ".");
        e->files[i] = ar_xstrdup(p);
    }
    ar_spawn_argv_free(w);
}

/* Duplicate play (docs/rules.md, RULES 2.3): the dealer rotates unless a `rule` sets it, and
 * `hands = N` makes a game N hands scored as their sum. */
static void resolve_duplicate(resolver *r, ar_tour *t)
{
    const struct ar_tour_src *s = r->src;
    long long x;
    if (get_long(r, &s->key[K_HANDS], "hands", 1, AR_MATCH_MAX_HANDS, &x) > 0)
        t->hands = (int)x;
    if (!r->rules_ok)
        return;
    const char **set = ar_xcalloc((size_t)(s->nrule ? s->nrule : 1), sizeof *set);
    for (int i = 0; i < s->nrule; i++)
        set[i] = s->rule[i].value;
    okr_refusal why;
    char msg[256];
    if (ar_match_duplicate_rules(&t->rules, set, s->nrule, t->hands, &why) < 0) {
        refusal_text(msg, sizeof msg, NULL, &why);
        rerr(r, &s->key[K_HANDS], 0, "hands = %d: %s", t->hands, msg);
        r->rules_ok = 0;
    }
    free(set);
}

static void resolve_entrants(resolver *r, ar_tour *t)
{
    const struct ar_tour_src *s = r->src;
    t->nentrants = s->nent;
    t->entrant = ar_xcalloc((size_t)(s->nent ? s->nent : 1), sizeof *t->entrant);
    for (int i = 0; i < s->nent; i++) {
        const src_ent *se = &s->ent[i];
        ar_tour_entrant *e = &t->entrant[i];
        e->name = ar_xstrdup(se->name);
        e->line = se->line;
        e->profile = ar_xstrdup("auto");
        long long x;
        const src_val *cv = &se->v[E_COMMAND];
        if (!cv->value || !cv->value[0]) {
            if (!cv->value)
                rerr(r, NULL, se->line, "[entrant %s] needs command = PROGRAM ARGS...", se->name);
            else
                rerr(r, cv, 0, "command: empty");
        } else {
            e->command = ar_xstrdup(cv->value);
        }
        int pi;
        if (get_choice(r, &se->v[E_PROFILE], "profile", profile_names, &pi) > 0) {
            free(e->profile);
            e->profile = ar_xstrdup(profile_names[pi]);
        }
        if (get_long(r, &se->v[E_MEMORY_MB], "memory_mb", 0, 1048576, &x) > 0)
            e->memory_mb = (uint32_t)x;
        if (get_long(r, &se->v[E_STARTUP_MS], "startup_ms", 0, 86400000, &x) > 0)
            e->startup_ms = (uint32_t)x;
        e->command_line = cv->set ? 0 : cv->line;
        resolve_files(r, t, &se->v[E_FILES], e);
    }
    /* Commands: the program must exist now, not hours into the tournament. */
    for (int i = 0; i < t->nentrants; i++) {
        const ar_tour_entrant *e = &t->entrant[i];
        const src_val *cv = &s->ent[i].v[E_COMMAND];
        if (!e->command)
            continue;
        ar_policy pol;
        if (e->command[0] == '@') {
            if (ar_policy_from_name(e->command + 1, &pol) < 0)
                rerr(r, cv, 0, "command: unknown built-in '%s' (known: @random @greedy)",
                     e->command);
            continue;
        }
        char **argv = NULL, err[256];
        int argc;
        if (ar_tour_argv(t, i, &argv, &argc, err, sizeof err) < 0) {
            rerr(r, cv, 0, "command: %s", err);
            continue;
        }
        char path[PATH_MAX];
        int rc = ar_spawn_resolve(argv[0], path, sizeof path);
        if (rc < 0) {
            /* Name the program as written, and where we looked for it. */
            size_t wl = strcspn(e->command + strspn(e->command, " \t"), " \t");
            char word[256];
            snprintf(word, sizeof word, "%.*s", (int)(wl < 255 ? wl : 255),
                     e->command + strspn(e->command, " \t"));
            int moved = strcmp(word, argv[0]) != 0;
            rerr(r, cv, 0, "command: %s: %s%s%s%s", word,
                 rc == -ENOENT   ? (strchr(argv[0], '/') ? "no such file" : "not found in PATH")
                 : rc == -EACCES ? "not an executable file"
                                 : strerror(-rc),
                 moved ? " (looked for " : "", moved ? argv[0] : "", moved ? ")" : "");
        }
        ar_spawn_argv_free(argv);
    }
}

static char *default_name(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char *name = ar_xstrdup(base);
    size_t n = strlen(name);
    if (n > 5 && strcmp(name + n - 5, ".tour") == 0)
        name[n - 5] = '\0';
    else if (n > 7 && strcmp(name + n - 7, ".league") == 0)
        name[n - 7] = '\0';
    return name;
}

/* Fill t (zeroed) from r->src; t->path and t->dir are set by the caller. */
static void resolve(resolver *r, ar_tour *t)
{
    const struct ar_tour_src *s = r->src;
    const src_val *k = s->key;
    long long x;
    double f;
    int c;

    /* Defaults: those of `arena match` where it has the same setting. */
    t->format = AR_FORMAT_ROUND_ROBIN;
    t->deals = 1;
    t->max_tables = 2000;
    t->seed = 1;
    t->jobs = 0;
    t->bootstrap = 1000;
    t->clocks = (ar_clocks){10000, 1000, 10000, 5000};
    t->on_error = AR_ON_ERROR_FORFEIT;
    t->substitute = AR_POLICY_RANDOM;
    t->max_error_share = 0.5;
    t->sprt_alpha = 0.05;
    t->sprt_beta = 0.05;

    if (!s->sec_line[SEC_TOURNAMENT])
        rerr(r, NULL, 1, "no [%s] section (it needs at least rules = PRESET and seats = N)",
             main_sec(s));
    if (k[K_NAME].value) {
        if (!valid_name(k[K_NAME].value, TOUR_NAME_MAX_LEN) || k[K_NAME].value[0] == '.')
            rerr(r, &k[K_NAME], 0,
                 "name: use 1 to %d letters, digits, '_', '.' or '-', not starting with '.' "
                 "(it names the output folder), got '%s'",
                 TOUR_NAME_MAX_LEN, k[K_NAME].value);
        t->name = ar_xstrdup(k[K_NAME].value);
    } else {
        t->name = default_name(s->file);
        if (!valid_name(t->name, TOUR_NAME_MAX_LEN) || t->name[0] == '.')
            rerr(r, NULL, sec_line(r, SEC_TOURNAMENT),
                 "the file name does not make a tournament name: give name = NAME");
    }

    resolve_rules(r, t);
    resolve_duplicate(r, t);
    if (!k[K_SEATS].value)
        rerr(r, NULL, sec_line(r, SEC_TOURNAMENT), "[%s] needs seats = N (2 to 8)", main_sec(s));
    else if (get_long(r, &k[K_SEATS], "seats", 2, AR_SCHED_MAX_SEATS, &x) > 0)
        t->seats = (int)x;
    if (get_choice(r, &k[K_FORMAT], "format", format_names, &c) > 0)
        t->format = c;
    if (k[K_CHALLENGER].value)
        t->challenger = ar_xstrdup(k[K_CHALLENGER].value);
    if (k[K_BASELINE].value)
        t->baseline = ar_xstrdup(k[K_BASELINE].value);
    /* any count; the games it makes are checked against AR_SCHED_MAX_GAMES below */
    if (get_long(r, &k[K_DEALS], "deals", 1, LLONG_MAX, &x) > 0)
        t->deals = x;
    if (get_long(r, &k[K_MAX_TABLES], "max_tables", 1, AR_SCHED_MAX_TABLES, &x) > 0)
        t->max_tables = x;
    get_seed(r, &k[K_SEED], &t->seed);
    if (k[K_OUT].value && !k[K_OUT].value[0])
        rerr(r, &k[K_OUT], 0, "out: empty (leave it out for results/<name>)");
    if (k[K_OUT].value && k[K_OUT].value[0]) {
        /* relative to the .tour file, as commands and files are; joined to the folder as the
         * user typed it (not t->dir, which is absolute) so that messages stay short */
        const char *v = k[K_OUT].value, *slash = t->path ? strrchr(t->path, '/') : NULL;
        if (v[0] == '/' || !slash) {
            t->out = ar_xstrdup(v);
        } else {
            int dl = (int)(slash - t->path); /* 0: a file in "/" */
            size_t n = (size_t)dl + 1 + strlen(v) + 1;
            t->out = ar_xmalloc(n);
            snprintf(t->out, n, "%.*s/%s", dl, t->path, v);
        }
    } else {
        size_t n = strlen(t->name) + sizeof "results/";
        t->out = ar_xmalloc(n);
        snprintf(t->out, n, "results/%s", t->name);
    }
    if (get_long(r, &k[K_JOBS], "jobs", 0, 1024, &x) > 0)
        t->jobs = (int)x;
    if (get_long(r, &k[K_BOOTSTRAP], "bootstrap", 0, 1000000, &x) > 0)
        t->bootstrap = (int)x;
    /* a league's web face (docs/league.md): the defaults are ar_unpack_limits_default's and
     * the build's (jail/build.h) */
    t->test_sets_per_hour = 3;
    t->upload_max_bytes = 64ull << 20;
    t->upload_max_unpacked = 64ull << 20;
    t->upload_max_files = 4096;
    t->build_seconds = 120;
    t->build_mb = 1024;
    if (get_long(r, &k[K_TEST_SETS_PER_HOUR], "test_sets_per_hour", 0, 1000, &x) > 0)
        t->test_sets_per_hour = (int)x;
    if (get_long(r, &k[K_UPLOAD_MAX_BYTES], "upload_max_bytes", 1, 1ll << 32, &x) > 0)
        t->upload_max_bytes = (uint64_t)x;
    if (get_long(r, &k[K_UPLOAD_MAX_UNPACKED], "upload_max_unpacked", 1, 1ll << 36, &x) > 0)
        t->upload_max_unpacked = (uint64_t)x;
    if (get_long(r, &k[K_UPLOAD_MAX_FILES], "upload_max_files", 1, 1000000, &x) > 0)
        t->upload_max_files = (uint32_t)x;
    if (get_double(r, &k[K_BUILD_SECONDS], "build_seconds", 0, 86400, 0, &f) > 0) {
        if (f <= 0)
            rerr(r, &k[K_BUILD_SECONDS], 0, "build_seconds: expected a number above 0, got '%s'",
                 k[K_BUILD_SECONDS].value);
        else
            t->build_seconds = f;
    }
    if (get_long(r, &k[K_BUILD_MB], "build_mb", 16, 1048576, &x) > 0)
        t->build_mb = (uint32_t)x;
    /* a league's sets as Slurm jobs (docs/league.md); a tournament goes to Slurm as shards
     * (scripts/slurm/submit.sh), so the keys are a league's alone */
    if (!s->league && (k[K_RUNNER].value || k[K_SBATCH].value))
        rerr(r, k[K_RUNNER].value ? &k[K_RUNNER] : &k[K_SBATCH], 0,
             "%s: only a [league] takes it (a tournament goes to Slurm in shards: "
             "scripts/slurm/submit.sh, docs/tournaments.md)",
             k[K_RUNNER].value ? "runner" : "sbatch");
    else {
        if (get_choice(r, &k[K_RUNNER], "runner", runner_names, &c) > 0)
            t->runner_slurm = c == 1;
        if (k[K_SBATCH].value)
            t->sbatch = ar_xstrdup(k[K_SBATCH].value);
    }

    if (get_long(r, &k[K_STARTUP_MS], "startup_ms", 1, 86400000, &x) > 0)
        t->clocks.startup_ms = (uint32_t)x;
    if (get_long(r, &k[K_DECISION_MS], "decision_ms", 1, 86400000, &x) > 0)
        t->clocks.decision_ms = (uint32_t)x;
    if (get_long(r, &k[K_BANK_MS], "bank_ms", 0, 86400000, &x) > 0)
        t->clocks.bank_ms = (uint32_t)x;
    if (get_long(r, &k[K_HARD_MS], "hard_ms", 1, 86400000, &x) > 0)
        t->clocks.hard_ms = (uint32_t)x;
    if (get_choice(r, &k[K_PONDER], "ponder", ponder_names, &c) > 0)
        t->ponder = c;
    if (get_long(r, &k[K_PACE], "pace", 0, 86400000, &x) > 0)
        t->pace_ms = (uint32_t)x;

    if (get_choice(r, &k[K_LUCK], "luck", luck_names, &c) > 0) /* docs/luck.md */
        t->luck_off = c == 1, t->luck_rollout = c == 3;
    if (get_choice(r, &k[K_ON_ERROR], "on_error", on_error_names, &c) > 0)
        t->on_error = c == 0 ? AR_ON_ERROR_FORFEIT : AR_ON_ERROR_SUBSTITUTE;
    if (get_choice(r, &k[K_SUBSTITUTE], "substitute", substitute_names, &c) > 0) {
        ar_policy pol;
        if (c == 0)
            t->substitute = AR_SUB_FIRST;
        else if (ar_policy_from_name(substitute_names[c], &pol) == 0)
            t->substitute = (int)pol;
    }
    if (get_double(r, &k[K_MAX_ERROR_SHARE], "max_error_share", 0, 1, 0, &f) > 0)
        t->max_error_share = f;

    c = 2; /* "rootless", as for `arena match --sandbox` */
    get_choice(r, &k[K_MINIMUM], "minimum", sandbox_names, &c);
    t->sandbox_min = ar_xstrdup(sandbox_names[c]);
    if (get_long(r, &k[K_MEMORY_MB], "memory_mb", 0, 1048576, &x) > 0)
        t->memory_mb = (uint32_t)x;

    int has0 = get_double(r, &k[K_S0], "s0", -INFINITY, INFINITY, 0, &t->sprt_s0);
    int has1 = get_double(r, &k[K_S1], "s1", -INFINITY, INFINITY, 0, &t->sprt_s1);
    get_double(r, &k[K_ALPHA], "alpha", 0, 0.5, 1, &t->sprt_alpha);
    get_double(r, &k[K_BETA], "beta", 0, 0.5, 1, &t->sprt_beta);
    if (get_choice(r, &k[K_SPRT_SCORE], "score", sprt_score_names, &c) > 0) /* docs/luck.md */
        t->sprt_adjusted = c == 1;
    /* Blame [sprt]'s header, or the override that created the section. */
    const src_val *sprt_at = NULL;
    for (int i = K_S0; i <= K_BETA && s->sec_line[SEC_SPRT] <= 0; i++)
        if (k[i].value && !sprt_at)
            sprt_at = &k[i];
    if (!sprt_at && s->sec_line[SEC_SPRT] <= 0 && k[K_SPRT_SCORE].value)
        sprt_at = &k[K_SPRT_SCORE];
    if (s->sec_line[SEC_SPRT] || has0 || has1) {
        if (!k[K_S0].value || !k[K_S1].value)
            rerr(r, sprt_at, sec_line(r, SEC_SPRT), "[sprt] needs both s0 and s1");
        else if (has0 > 0 && has1 > 0 && !(t->sprt_s0 < t->sprt_s1))
            rerr(r, &k[K_S1], 0, "s1: must be larger than s0 (%g), got %g", t->sprt_s0, t->sprt_s1);
        else if (has0 > 0 && has1 > 0)
            t->sprt = 1;
    }
    if (t->sprt_adjusted && t->luck_off) /* nothing to test on */
        rerr(r, &k[K_SPRT_SCORE], 0, "score: luck-adjusted needs the luck adjustment (luck = on)");

    resolve_entrants(r, t);

    /* How the keys fit together. */
    if (t->seats >= 2 && r->rules_ok) {
        okr_refusal why;
        char msg[256];
        memset(&why, 0, sizeof why);
        if (okr_rules_check(&t->rules, t->seats, &why) != OKR_OK) {
            refusal_text(msg, sizeof msg, NULL, &why);
            rerr(r, &k[K_SEATS], 0, "seats = %d: %s", t->seats, msg);
        }
    }
    t->league = s->league;
    if (t->seats >= 2 && t->nentrants < t->seats && !s->league) /* a league's come later */
        rerr(r, &k[K_SEATS], 0,
             "seats = %d needs at least %d entrants, and the file has %d ([entrant NAME] "
             "sections)",
             t->seats, t->seats, t->nentrants);
    const char *names[AR_SCHED_MAX_ENTRANTS + 1];
    for (int i = 0; i < t->nentrants; i++)
        names[i] = t->entrant[i].name;
    names[t->nentrants] = NULL;
    const src_val *who[2] = {&k[K_CHALLENGER], &k[K_BASELINE]};
    for (int w = 0; w < 2; w++) {
        const src_val *v = who[w];
        const char *key = w ? "baseline" : "challenger";
        if (!v->value)
            continue;
        if (t->format != AR_FORMAT_GAUNTLET) {
            rerr(r, v, 0, "%s: only a gauntlet has one (format = gauntlet)", key);
            continue;
        }
        if (ar_tour_find(t, v->value) < 0) {
            char dym[96];
            did_you_mean(dym, sizeof dym, ar_near_miss(v->value, names, t->nentrants));
            rerr(r, v, 0, "%s: no entrant is called \"%s\"%s", key, v->value, dym);
        }
    }
    if (t->format == AR_FORMAT_GAUNTLET) {
        if (!k[K_CHALLENGER].value)
            rerr(r, &k[K_FORMAT], 0, "format = gauntlet needs challenger = ENTRANT");
        else if (t->baseline && strcmp(t->baseline, t->challenger) == 0)
            rerr(r, &k[K_BASELINE], 0, "baseline: the challenger cannot be its own baseline");
        else if (t->baseline && t->seats == 2 && t->nentrants > 2)
            rerr(r, &k[K_BASELINE], 0,
                 "baseline: with seats = 2 the challenger and the baseline fill every table and "
                 "the other entrants would never play (use 3 or more seats, or no baseline)");
    } else if (s->sec_line[SEC_SPRT]) {
        rerr(r, sprt_at, sec_line(r, SEC_SPRT), "[sprt] is only for format = gauntlet");
    }

    /* The games the schedule will hold, checked now rather than when the run allocates them:
     * the same count ar_schedule_make makes (an upper bound if the gauntlet names are wrong,
     * which is reported above). */
    if (t->seats >= 2 && t->nentrants >= t->seats) {
        int fixed = t->format == AR_FORMAT_GAUNTLET ? 1 + (t->baseline != NULL) : 0;
        long long tables =
            ar_schedule_ntables(t->nentrants, t->seats, fixed, t->format, t->max_tables);
        if (tables > 0 && t->deals > AR_SCHED_MAX_GAMES / tables / t->seats)
            rerr(r, &k[K_DEALS], sec_line(r, SEC_TOURNAMENT),
                 "deals = %lld: %lld deals x %lld table%s x %d seats is more than the limit of "
                 "%d games a tournament may hold (docs/tournaments.md)",
                 t->deals, t->deals, tables, tables == 1 ? "" : "s", t->seats, AR_SCHED_MAX_GAMES);
    }

    char opts[2048];
    if (r->rules_ok && okr_rules_format(&t->rules, opts, sizeof opts) >= 0)
        t->rules_text = ar_xstrdup(opts);
    else
        t->rules_text = ar_xstrdup("");
}

/* ---- Public ------------------------------------------------------------------------------ */

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir;
    if (!slash)
        dir = ar_xstrdup(".");
    else if (slash == path)
        dir = ar_xstrdup("/");
    else {
        dir = ar_xstrdup(path);
        dir[slash - path] = '\0';
    }
    /* Absolute, so that commands resolved against it do not depend on a later chdir. */
    char *abs = realpath(dir, NULL);
    if (abs) {
        free(dir);
        return abs;
    }
    return dir;
}

/* Resolve src into a fresh tour; on success replace *t's fields (keeping t->src = src). */
static int resolve_into(struct ar_tour_src *src, const char *path, ar_tour *t, char *err,
                        size_t errcap)
{
    ar_tour nt;
    memset(&nt, 0, sizeof nt);
    nt.path = ar_xstrdup(path);
    nt.dir = dir_of(path);
    resolver r;
    memset(&r, 0, sizeof r);
    r.src = src;
    r.t = &nt;
    r.err_line = INT_MAX;
    resolve(&r, &nt);
    if (r.err_line != INT_MAX) {
        if (errcap)
            snprintf(err, errcap, "%s", r.err);
        ar_tour_free(&nt);
        return -EINVAL;
    }
    nt.src = src;
    t->src = NULL;
    ar_tour_free(t);
    *t = nt;
    return 0;
}

static int load(const char *path, ar_tour *t, char *err, size_t errcap, int league)
{
    memset(t, 0, sizeof *t);
    if (errcap)
        err[0] = '\0';
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        int e = errno;
        snprintf(err, errcap, "%s: %s", path, strerror(e));
        return -e;
    }
    char *buf = ar_xmalloc(MAX_FILE_BYTES + 1);
    size_t len = fread(buf, 1, MAX_FILE_BYTES + 1, fp);
    int rerrno = ferror(fp) ? EIO : 0;
    fclose(fp);
    if (rerrno) {
        snprintf(err, errcap, "%s: %s", path, strerror(rerrno));
        free(buf);
        return -rerrno;
    }
    if (len > MAX_FILE_BYTES) {
        snprintf(err, errcap, "%s: larger than %d bytes: not a tournament file", path,
                 MAX_FILE_BYTES);
        free(buf);
        return -EFBIG;
    }

    struct ar_tour_src *src = ar_xcalloc(1, sizeof *src);
    src->file = ar_xstrdup(path);
    src->league = league;
    parser p;
    memset(&p, 0, sizeof p);
    p.src = src;
    p.buf = buf;
    p.len = len;
    p.sec = -1;

    /* inih's settings are globals in Debian's build: set ours for this parse only. */
    int old_max = ini_max_line;
    bool old_multi = ini_allow_multiline, old_stop = ini_stop_on_first_error;
    bool old_novalue = ini_allow_no_value;
    ini_max_line = MAX_LINE;
    ini_allow_multiline = false;
    ini_stop_on_first_error = true;
    ini_allow_no_value = false;
    int rc = ini_parse_stream(read_line, &p, handler, &p);
    ini_max_line = old_max;
    ini_allow_multiline = old_multi;
    ini_stop_on_first_error = old_stop;
    ini_allow_no_value = old_novalue;
    free(buf);

    if (!p.failed && rc == -2) {
        src_free(src);
        snprintf(err, errcap, "%s: out of memory", path);
        return -ENOMEM;
    }
    if (!p.failed && rc > 0) {
        p.line = rc;
        perr(&p, "expected KEY = VALUE, [section] or a comment");
    }
    if (p.failed) {
        snprintf(err, errcap, "%s", p.err);
        src_free(src);
        return -EINVAL;
    }
    rc = resolve_into(src, path, t, err, errcap);
    if (rc < 0)
        src_free(src);
    return rc;
}

int ar_tour_load(const char *path, ar_tour *t, char *err, size_t errcap)
{
    return load(path, t, err, errcap, 0);
}

int ar_tour_load_league(const char *path, ar_tour *t, char *err, size_t errcap)
{
    return load(path, t, err, errcap, 1);
}

static void val_copy(src_val *dst, const src_val *src)
{
    dst->value = src->value ? ar_xstrdup(src->value) : NULL;
    dst->line = src->line;
    dst->set = src->set ? ar_xstrdup(src->set) : NULL;
}

static struct ar_tour_src *src_clone(const struct ar_tour_src *s)
{
    struct ar_tour_src *c = ar_xcalloc(1, sizeof *c);
    c->file = ar_xstrdup(s->file);
    memcpy(c->sec_line, s->sec_line, sizeof c->sec_line);
    for (int i = 0; i < NKEYS; i++)
        val_copy(&c->key[i], &s->key[i]);
    c->nrule = s->nrule;
    c->rule = ar_xcalloc((size_t)(s->nrule ? s->nrule : 1), sizeof *c->rule);
    for (int i = 0; i < s->nrule; i++)
        val_copy(&c->rule[i], &s->rule[i]);
    c->nent = s->nent;
    c->league = s->league;
    c->ent = ar_xcalloc((size_t)(s->nent ? s->nent : 1), sizeof *c->ent);
    for (int i = 0; i < s->nent; i++) {
        c->ent[i].name = ar_xstrdup(s->ent[i].name);
        c->ent[i].line = s->ent[i].line;
        for (int j = 0; j < NEKEYS; j++)
            val_copy(&c->ent[i].v[j], &s->ent[i].v[j]);
    }
    return c;
}

/* Store one override into src. Returns 0 or -EINVAL with a message (its shape: section,
 * key, entrant); the value itself is checked when the whole tour is resolved. */
static int store_override(struct ar_tour_src *src, const char *assignment, char *err, size_t errcap)
{
    char set[MAX_LINE + 8];
    snprintf(set, sizeof set, "--set %s", assignment);
    char *a = ar_xstrdup(assignment);
    char *eq = strchr(a, '=');
    int sec = -1, ent = -1, id = -1, rc = -EINVAL;
    char dym[96];
    if (!eq) {
        snprintf(err, errcap, "%s: expected SECTION.KEY=VALUE (entrants: entrant.NAME.KEY=VALUE)",
                 set);
        goto out;
    }
    *eq = '\0';
    char *lhs = trim(a), *value = trim(eq + 1);
    char *dot = strchr(lhs, '.');
    if (!dot) {
        snprintf(err, errcap, "%s: expected SECTION.KEY=VALUE (entrants: entrant.NAME.KEY=VALUE)",
                 set);
        goto out;
    }
    *dot = '\0';
    const char *secname = lhs, *key = dot + 1;
    for (int i = 0; i < NSECS; i++)
        if (strcmp(secname, sec_names[i]) == 0)
            sec = i;
    if (sec < 0) {
        did_you_mean(dym, sizeof dym, ar_near_miss(secname, sec_names, NSECS));
        snprintf(err, errcap, "%s: unknown section \"%s\"%s", set, secname, dym);
        goto out;
    }
    if (sec == SEC_ENTRANT) {
        /* entrant.NAME.KEY: names may hold dots, keys do not. */
        char *last = strrchr(dot + 1, '.');
        if (!last) {
            snprintf(err, errcap, "%s: expected entrant.NAME.KEY=VALUE", set);
            goto out;
        }
        *last = '\0';
        const char *name = dot + 1;
        key = last + 1;
        ent = find_entrant_src(src, name);
        if (ent < 0) {
            const char *names[AR_SCHED_MAX_ENTRANTS + 1];
            for (int i = 0; i < src->nent; i++)
                names[i] = src->ent[i].name;
            names[src->nent] = NULL;
            did_you_mean(dym, sizeof dym, ar_near_miss(name, names, src->nent));
            snprintf(err, errcap, "%s: no entrant is called \"%s\"%s", set, name, dym);
            goto out;
        }
    }
    id = find_key(sec, key);
    if (id < 0) {
        did_you_mean(dym, sizeof dym, near_key(sec, key));
        if (sec == SEC_ENTRANT)
            snprintf(err, errcap, "%s: unknown key \"%s\" in [entrant %s]%s", set, key,
                     src->ent[ent].name, dym);
        else
            snprintf(err, errcap, "%s: unknown key \"%s\" in [%s]%s", set, key, sec_names[sec],
                     dym);
        goto out;
    }
    if (!src->sec_line[sec] && sec != SEC_ENTRANT)
        src->sec_line[sec] = -1; /* the section now exists, though on no line */
    parser p;
    memset(&p, 0, sizeof p);
    p.src = src;
    store(&p, sec, ent, id, value, set);
    rc = 0;
out:
    free(a);
    return rc;
}

int ar_tour_set_many(ar_tour *t, const char *const *assignments, int n, char *err, size_t errcap)
{
    if (errcap)
        err[0] = '\0';
    if (!t->src) {
        snprintf(err, errcap, "--set: no tournament loaded");
        return -EINVAL;
    }
    /* Work on a copy, so that a refused override leaves the tour as it was. */
    struct ar_tour_src *work = src_clone(t->src);
    for (int i = 0; i < n; i++)
        if (store_override(work, assignments[i], err, errcap) < 0) {
            src_free(work);
            return -EINVAL;
        }
    struct ar_tour_src *old = t->src;
    int rc = resolve_into(work, t->path, t, err, errcap);
    if (rc < 0) {
        src_free(work);
        return rc;
    }
    src_free(old); /* resolve_into detached it from t */
    return 0;
}

int ar_tour_set(ar_tour *t, const char *assignment, char *err, size_t errcap)
{
    return ar_tour_set_many(t, &assignment, 1, err, errcap);
}

void ar_tour_free(ar_tour *t)
{
    if (!t)
        return;
    free(t->path);
    free(t->dir);
    free(t->name);
    free(t->rules_text);
    free(t->challenger);
    free(t->baseline);
    free(t->out);
    free(t->sandbox_min);
    free(t->sbatch);
    for (int i = 0; i < t->nentrants; i++) {
        free(t->entrant[i].name);
        free(t->entrant[i].command);
        free(t->entrant[i].profile);
        ar_spawn_argv_free(t->entrant[i].files);
        free(t->entrant[i].files_text);
    }
    free(t->entrant);
    src_free(t->src);
    memset(t, 0, sizeof *t);
}

int ar_tour_find(const ar_tour *t, const char *name)
{
    for (int i = 0; i < t->nentrants; i++)
        if (t->entrant[i].name && strcmp(t->entrant[i].name, name) == 0)
            return i;
    return -1;
}

int ar_tour_builtin(const ar_tour *t, int i, ar_policy *policy)
{
    const char *cmd = t->entrant[i].command;
    if (!cmd || cmd[0] != '@')
        return 0;
    ar_policy p;
    if (ar_policy_from_name(cmd + 1, &p) < 0)
        return 0;
    if (policy)
        *policy = p;
    return 1;
}

int ar_tour_argv(const ar_tour *t, int i, char ***argv_out, int *argc_out, char *err, size_t errcap)
{
    *argv_out = NULL;
    *argc_out = 0;
    const char *cmd = t->entrant[i].command;
    if (!cmd || cmd[0] == '@') {
        snprintf(err, errcap, "%s", cmd ? "a built-in has no program" : "no command");
        return -EINVAL;
    }
    char **argv;
    int argc;
    int rc = ar_spawn_split(cmd, &argv, &argc, err, errcap);
    if (rc < 0)
        return rc;
    /* "./bot" and "bots/x.py" are relative to the .tour file; "python3" stays for PATH. */
    if (argv[0][0] != '/' && strchr(argv[0], '/') && t->dir) {
        size_t n = strlen(t->dir) + 1 + strlen(argv[0]) + 1;
        char *abs = ar_xmalloc(n);
        snprintf(abs, n, "%s/%s", t->dir, argv[0]);
        free(argv[0]);
        argv[0] = abs;
    }
    *argv_out = argv;
    *argc_out = argc;
    return 0;
}

const char *ar_tour_key_section(const char *key)
{
    for (int i = 0; i < NKEYDEFS; i++)
        if (strcmp(keys[i].name, key) == 0)
            return keys[i].sec == SEC_ENTRANT ? "entrant.NAME" : sec_names[keys[i].sec];
    return NULL;
}
