/* cli_script.c - `arena script`: play the actions of a text file (docs/notation.md) against
 * one game, reporting each line as accepted or refused with its rule, then the final state
 * as JSON. For scenario tests and for trying the rules by hand. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "match/json_out.h"

enum { AR_SCRIPT_MAX_LINE = 4096 }; /* bytes in one line, without its newline */

void ar_script_usage(FILE *out)
{
    fputs("usage: arena script [--rules R] [--players N] [--pack \"CARDS...\"] [--seed S]\n"
          "                    [--rule OPTION=VALUE]... FILE\n"
          "  Start a game and apply the actions in FILE, one per line (docs/notation.md):\n"
          "  draw, pass, take [new CARDS | add M [CARD] [lo|hi] | joker M], meld CARDS,\n"
          "  add M CARD[=DECL] [lo|hi], replace M, discard CARD, claim new|add ...,\n"
          "  knock CARD [| CARDS]...; '#' starts a comment; blank lines are skipped.\n"
          "  A line `next` deals the next hand; an action after a hand ended does so too.\n"
          "  --rules R        preset: laws parlett arlington german gin (default laws)\n"
          "  --players N      seats (default 3; 2 for gin)\n"
          "  --pack CARDS     the first hand's pack in dealing order, e.g. \"AS 2C ... JK\": a\n"
          "                   permutation of the configured pack (pack[0] goes left of the\n"
          "                   dealer; after the deal the next card is the upcard)\n"
          "  --seed S         seed for the deal(s) not given by --pack (default 1)\n"
          "  --rule OPT=VAL   override one rule option after the preset (repeatable)\n"
          "  Output (stdout), one line per action line:\n"
          "    FILE:LINE: ok <action>\n"
          "    FILE:LINE: refused (RULES x.y): <reason>\n"
          "  plus lines for hand ends and new deals, then the final state as ONE JSON line:\n"
          "  {\"state\": {phase, to_act, hand_no, stock_n, pile, melds, hands, scores, ...},\n"
          "   \"last_hand\": {...} (if a hand ended), \"game\": {...} (if the game is over)}.\n"
          "  Errors (stderr): FILE:LINE: error: <reason> for a malformed line, a line over\n"
          "  4096 bytes or a NUL byte; FILE: error: ... for an unreadable file.\n"
          "  Exit: 0 done (refusals included), 1 script error, 2 bad command line.\n",
          out);
}

typedef struct script_opts {
    ar_rules_args rules;
    int players;
    int players_given;
    const char *pack;
    uint64_t seed;
    const char *file;
} script_opts;

static int parse_args(int argc, char **argv, script_opts *o)
{
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        int r;
        if ((r = ar_table_flag(argc, argv, &i, &o->rules, &o->players, &o->players_given,
                               &o->seed)) != 0) {
            if (r < 0)
                return AR_EXIT_USAGE;
        } else if ((r = ar_flag(argc, argv, &i, "--pack", &v)) != 0) {
            if (r < 0)
                return AR_EXIT_USAGE;
            o->pack = v;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "arena script: unknown argument '%s'\n", argv[i]);
            ar_script_usage(stderr);
            return AR_EXIT_USAGE;
        } else if (o->file) {
            fprintf(stderr, "arena script: more than one FILE ('%s', '%s')\n", o->file, argv[i]);
            ar_script_usage(stderr);
            return AR_EXIT_USAGE;
        } else {
            o->file = argv[i];
        }
    }
    if (!o->file) {
        fprintf(stderr, "arena script: missing FILE\n");
        ar_script_usage(stderr);
        return AR_EXIT_USAGE;
    }
    if (!o->players_given && o->rules.preset && strcmp(o->rules.preset, "gin") == 0)
        o->players = 2;
    return AR_EXIT_OK;
}

/* Read one line into buf (at most AR_SCRIPT_MAX_LINE bytes plus NUL), without its newline and
 * a trailing '\r'. Returns 1 for a line, 0 at end of file, -1 on a read error, -2 for a line
 * too long, -3 for a NUL byte. On -2/-3 the rest of the line is not read. */
static int read_line(FILE *f, char *buf)
{
    size_t n = 0;
    int c;
    while ((c = getc(f)) != EOF && c != '\n') {
        if (c == '\0')
            return -3;
        if (n >= AR_SCRIPT_MAX_LINE)
            return -2;
        buf[n++] = (char)c;
    }
    if (c == EOF) {
        if (ferror(f))
            return -1;
        if (n == 0)
            return 0;
    }
    if (n && buf[n - 1] == '\r')
        n--;
    buf[n] = '\0';
    return 1;
}

/* Blank or comment-only: not an action. */
static int is_blank(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\v' || *s == '\f')
        s++;
    return *s == '\0' || *s == '#';
}

/* Is the line the word `next` (any case, spaces and a comment allowed)? */
static int is_next(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    if (strncasecmp(s, "next", 4) != 0)
        return 0;
    s += 4;
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\v' || *s == '\f')
        s++;
    return *s == '\0' || *s == '#';
}

/* An error line on stderr, after whatever stdout holds, so that a log of both reads in
 * order. */
__attribute__((format(printf, 1, 2))) static void script_error(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

static void print_refused(const char *file, long line, const okr_refusal *why)
{
    if (ar_is_rule_number(why->rule))
        printf("%s:%ld: refused (RULES %s): %s\n", file, line, why->rule, why->reason);
    else
        printf("%s:%ld: refused: %s\n", file, line, why->reason[0] ? why->reason : "refused");
}

typedef struct script_run {
    const char *file;
    okr_game *g;
    int hand_ended;            /* a hand ended at some point: last_hand is valid */
    okr_hand_result last_hand; /* copied when it ended */
} script_run;

/* After an accepted action or a deal: note a hand that just ended. */
static void note_end(script_run *run, long line, int was_over)
{
    okr_game *g = run->g;
    int over = g->phase == OKR_PH_HAND_OVER || g->phase == OKR_PH_GAME_OVER;
    if (!over || was_over)
        return;
    run->hand_ended = 1;
    run->last_hand = g->last;
    printf("%s:%ld: hand %d over: %s", run->file, line, g->hand_no, ar_end_name(g->last.ended));
    if (g->last.winner >= 0)
        printf(", winner seat %d", g->last.winner);
    printf(", scores");
    for (int s = 0; s < g->players; s++)
        printf(" %ld", (long)g->last.score[s]);
    printf("\n");
    if (g->phase == OKR_PH_GAME_OVER) {
        printf("%s:%ld: game over: winners", run->file, line);
        for (int s = 0; s < g->players; s++)
            if (g->result.winners & (1u << s))
                printf(" %d", s);
        printf("\n");
    }
}

/* Deal the next hand from the seed. Returns 1 if dealt, 0 if refused (printed). */
static int deal_next(script_run *run, long line)
{
    okr_refusal why;
    memset(&why, 0, sizeof why);
    if (okr_next_hand(run->g, NULL, 0, &why) != OKR_OK) {
        print_refused(run->file, line, &why);
        return 0;
    }
    printf("%s:%ld: dealt hand %d\n", run->file, line, run->g->hand_no);
    return 1;
}

/* One non-blank line. Returns AR_EXIT_OK or AR_EXIT_FAIL (a parse error, printed). */
static int run_line(script_run *run, long line, const char *text)
{
    okr_game *g = run->g;
    if (is_next(text)) {
        if (g->phase != OKR_PH_HAND_OVER) {
            okr_refusal why;
            memset(&why, 0, sizeof why);
            strcpy(why.reason,
                   g->phase == OKR_PH_GAME_OVER ? "the game is over" : "the hand is not over");
            print_refused(run->file, line, &why);
            return AR_EXIT_OK;
        }
        deal_next(run, line);
        return AR_EXIT_OK;
    }
    if (g->phase == OKR_PH_HAND_OVER && !deal_next(run, line))
        return AR_EXIT_OK;

    okr_action a;
    okr_refusal why;
    memset(&why, 0, sizeof why);
    if (okr_action_parse(g, text, &a, &why) != OKR_OK) {
        script_error("%s:%ld: error: %s\n", run->file, line, why.reason);
        return AR_EXIT_FAIL;
    }
    int was_over = g->phase == OKR_PH_HAND_OVER || g->phase == OKR_PH_GAME_OVER;
    memset(&why, 0, sizeof why);
    if (okr_apply(g, &a, NULL, &why) != OKR_OK) {
        print_refused(run->file, line, &why);
        return AR_EXIT_OK;
    }
    char buf[512];
    if (okr_action_format(&a, buf, sizeof buf) < 0)
        strcpy(buf, "?");
    printf("%s:%ld: ok %s\n", run->file, line, buf);
    note_end(run, line, was_over);
    return AR_EXIT_OK;
}

static int print_final(const script_run *run)
{
    const okr_game *g = run->g;
    json_t *doc = json_object();
    if (!doc)
        return -1;
    json_object_set_new(doc, "state", ar_json_state(g));
    if (run->hand_ended)
        json_object_set_new(doc, "last_hand", ar_json_hand_result(&run->last_hand, g->players));
    if (g->phase == OKR_PH_GAME_OVER)
        json_object_set_new(doc, "game", ar_json_game_result(&g->result, g->players));
    int rc = ar_json_print_line(doc, stdout);
    json_decref(doc);
    return rc;
}

static int run_file(script_run *run)
{
    FILE *f = fopen(run->file, "r");
    if (!f) {
        script_error("%s: error: cannot open: %s\n", run->file, strerror(errno));
        return AR_EXIT_FAIL;
    }
    char *buf = malloc(AR_SCRIPT_MAX_LINE + 1);
    if (!buf) {
        fclose(f);
        script_error("arena: out of memory\n");
        return AR_EXIT_FAIL;
    }
    int rc = AR_EXIT_OK;
    for (long line = 1; rc == AR_EXIT_OK; line++) {
        int r = read_line(f, buf);
        if (r == 0)
            break;
        if (r == -1) {
            script_error("%s:%ld: error: read failed: %s\n", run->file, line, strerror(errno));
            rc = AR_EXIT_FAIL;
        } else if (r == -2) {
            script_error("%s:%ld: error: line longer than %d bytes\n", run->file, line,
                         AR_SCRIPT_MAX_LINE);
            rc = AR_EXIT_FAIL;
        } else if (r == -3) {
            script_error("%s:%ld: error: NUL byte in the line\n", run->file, line);
            rc = AR_EXIT_FAIL;
        } else if (!is_blank(buf)) {
            rc = run_line(run, line, buf);
        }
    }
    free(buf);
    fclose(f);
    return rc;
}

int ar_script_main(int argc, char **argv)
{
    script_opts o;
    memset(&o, 0, sizeof o);
    o.players = 3;
    o.seed = 1;
    okr_rules rules;
    uint8_t pack[OKR_MAX_CARDS];
    int npack = 0;
    okr_game *g = NULL;

    int rc = parse_args(argc, argv, &o);
    if (rc == AR_EXIT_OK)
        rc = ar_rules_build(&o.rules, o.players, &rules);
    if (rc != AR_EXIT_OK)
        goto out;

    okr_refusal why;
    memset(&why, 0, sizeof why);
    if (o.pack) {
        npack = okr_cards_parse(o.pack, pack, OKR_MAX_CARDS, &why);
        if (npack < 0) {
            fprintf(stderr, "arena: --pack: %s\n", why.reason);
            rc = AR_EXIT_USAGE;
            goto out;
        }
    }
    g = malloc(sizeof *g);
    if (!g) {
        fprintf(stderr, "arena: out of memory\n");
        rc = AR_EXIT_FAIL;
        goto out;
    }
    memset(&why, 0, sizeof why);
    if (okr_game_init(g, &rules, o.players, o.seed, o.pack ? pack : NULL, npack, &why) != OKR_OK) {
        ar_print_refusal(o.pack ? "--pack" : NULL, &why);
        rc = AR_EXIT_USAGE;
        goto out;
    }

    script_run run;
    memset(&run, 0, sizeof run);
    run.file = o.file;
    run.g = g;
    rc = run_file(&run);
    if (rc == AR_EXIT_OK && print_final(&run) < 0) {
        fprintf(stderr, "arena: cannot write the final state\n");
        rc = AR_EXIT_FAIL;
    }
out:
    free(g);
    ar_rules_args_free(&o.rules);
    return rc;
}
