/* cli_replay.c - `arena replay`: replay a game record (DIR/records/<id>.jsonl) with the engine,
 * print it, optionally as one seat saw it, and verify that every hand's scores, the final
 * totals and the final digest match the record. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "cli.h"
#include "match/json_out.h"
#include "match/record.h"
#include "util/util.h"

void ar_replay_usage(FILE *out)
{
    fprintf(out,
            "usage: arena replay FILE [--seat S] [--quiet]\n"
            "       arena replay DIR --game ID|K [--seat S] [--quiet]\n"
            "  Replay one game of `arena match` from its record with the engine, print every\n"
            "  action and hand end, and verify each hand's scores, the final totals and the\n"
            "  final digest against the record.\n"
            "  FILE             a record, DIR/records/<game id>.jsonl\n"
            "  DIR --game ID|K  a match's output directory and a game id (m1-d0-r2) or its\n"
            "                   0-based number in DIR/games.jsonl\n"
            "  --seat S         show the game as seat S saw it: before each of its decisions its\n"
            "                   hand, the pile, the melds, the scores and what happened since;\n"
            "                   the other hands stay hidden until a hand ends\n"
            "  --quiet          print only the verdict line\n"
            "  Exit: 0 the replay matches the record, 1 mismatch or unreadable record,\n"
            "  2 bad command line.\n");
    ar_replay_html_usage(out);
}

typedef struct replay {
    const char *path;
    int seat; /* -1: referee's view */
    int quiet;
    okr_rules rules;
    okr_game g;
    int players;
    char names[OKR_MAX_PLAYERS][64];
    char game_id[128];
    long long actions;
    int hands_checked;
    /* --seat: what the seat has not been shown yet */
    char *since;
    size_t since_len, since_cap;
} replay;

static void since_add(replay *r, const char *text)
{
    size_t n = strlen(text);
    if (r->since_len + n + 3 > r->since_cap) {
        r->since_cap = (r->since_len + n + 3) * 2;
        r->since = ar_xrealloc(r->since, r->since_cap);
    }
    if (r->since_len) {
        memcpy(r->since + r->since_len, "; ", 2);
        r->since_len += 2;
    }
    memcpy(r->since + r->since_len, text, n);
    r->since_len += n;
    r->since[r->since_len] = '\0';
}

static void print_cards(const uint8_t *cards, int n)
{
    char c[3];
    for (int i = 0; i < n; i++)
        printf(" %s", okr_card_str(cards[i], c));
}

static void print_view(const replay *r, int seat)
{
    okr_view v;
    okr_view_of(&r->g, seat, &v);
    char c[3];
    printf("-- seat %d (%s) to act: hand %d, turn %d, phase %s%s --\n", seat, r->names[seat],
           v.hand_no, v.turns, ar_phase_name(v.phase), v.stock_locked ? " (stock only)" : "");
    printf("   hand  :");
    for (int k = 0; k < OKR_KINDS; k++)
        for (int i = 0; i < v.hand[k]; i++)
            printf(" %s", okr_card_str(k, c));
    printf("\n   pile  : ");
    if (v.pile_n)
        printf("top %s, %d cards;", okr_card_str(v.pile[v.pile_n - 1], c), v.pile_n);
    else
        printf("empty;");
    printf(" stock %d; hand sizes", v.stock_n);
    for (int s = 0; s < v.players; s++)
        printf(" %d", v.hand_n[s]);
    printf("\n");
    for (int i = 0; i < v.meld_n; i++) {
        const okr_meld *m = &v.meld[i];
        printf("   meld %d: seat %d %s", i, m->owner, ar_meld_type_name(m->type));
        for (int j = 0; j < m->n; j++) {
            printf(" %s", okr_card_str(m->card[j], c));
            if (m->as[j] != m->card[j])
                printf("=%s", okr_card_str(m->as[j], c));
        }
        printf("\n");
    }
    printf("   scores:");
    for (int s = 0; s < v.players; s++)
        printf(" %d", v.score[s]);
    printf("\n");
    if (r->since_len)
        printf("   since your last turn: %s\n", r->since);
}

static int fail(const replay *r, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(const replay *r, long line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("replay: MISMATCH: %s:%ld: ", r->path, line);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    return AR_EXIT_FAIL;
}

static int ints_equal(json_t *arr, const int32_t *v, int n)
{
    if (!json_is_array(arr) || (int)json_array_size(arr) != n)
        return 0;
    for (int i = 0; i < n; i++)
        if (json_integer_value(json_array_get(arr, (size_t)i)) != v[i])
            return 0;
    return 1;
}

static const char *jstr(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

static uint64_t ju64(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    if (json_is_integer(v))
        return (uint64_t)json_integer_value(v);
    if (json_is_string(v))
        return strtoull(json_string_value(v), NULL, 10);
    return 0;
}

static int header(replay *r, json_t *h, long line)
{
    okr_refusal why;
    memset(&why, 0, sizeof why);
    if (strcmp(jstr(h, "type"), "header") != 0)
        return fail(r, line, "the first line is not a record header");
    snprintf(r->game_id, sizeof r->game_id, "%s", jstr(h, "game_id"));
    if (okr_rules_preset(&r->rules, jstr(h, "rules"), &why) != OKR_OK)
        return fail(r, line, "rules '%s': %s", jstr(h, "rules"), why.reason);
    /* options: "name=value name=value ..." */
    char *opts = ar_xstrdup(jstr(h, "options"));
    for (char *tok = strtok(opts, " "); tok; tok = strtok(NULL, " ")) {
        char *eq = strchr(tok, '=');
        if (!eq)
            continue;
        *eq = '\0';
        memset(&why, 0, sizeof why);
        if (okr_rules_set(&r->rules, tok, eq + 1, &why) != OKR_OK) {
            int rc = fail(r, line, "option %s: %s", tok, why.reason);
            free(opts);
            return rc;
        }
    }
    free(opts);
    r->players = (int)json_integer_value(json_object_get(h, "players"));
    if (r->players < 1 || r->players > OKR_MAX_PLAYERS)
        return fail(r, line, "players %d", r->players);
    if (r->seat >= r->players) {
        /* the command line asks for what the game does not have: a usage error, not a
         * mismatch of the record */
        fprintf(stderr, "arena replay: --seat %d: %s has %d seats (0 to %d)\n", r->seat, r->path,
                r->players, r->players - 1);
        return AR_EXIT_USAGE;
    }
    json_t *names = json_object_get(h, "names");
    for (int s = 0; s < r->players; s++) {
        const char *nm = json_string_value(json_array_get(names, (size_t)s));
        snprintf(r->names[s], sizeof r->names[s], "%s", nm ? nm : "?");
    }
    uint64_t seed = ju64(h, "seed");
    memset(&why, 0, sizeof why);
    if (okr_game_init(&r->g, &r->rules, r->players, seed, NULL, 0, &why) != OKR_OK)
        return fail(r, line, "the engine cannot start the game: %s", why.reason);
    if (!r->quiet) {
        printf("game %s: %s, %d players, seed %llu, on-error %s\n", r->game_id, r->rules.preset,
               r->players, (unsigned long long)seed, jstr(h, "on_error"));
        printf("seating:");
        for (int s = 0; s < r->players; s++)
            printf(" %d=%s", s, r->names[s]);
        printf("\n");
    }
    return AR_EXIT_OK;
}

static int action(replay *r, json_t *j, long line)
{
    okr_refusal why;
    if (r->g.phase == OKR_PH_HAND_OVER) {
        memset(&why, 0, sizeof why);
        if (okr_next_hand(&r->g, NULL, 0, &why) != OKR_OK)
            return fail(r, line, "cannot deal the next hand: %s", why.reason);
        if (!r->quiet)
            printf("dealt hand %d\n", r->g.hand_no);
    }
    if (r->g.phase == OKR_PH_GAME_OVER)
        return fail(r, line, "an action after the end of the game");
    int seat = (int)json_integer_value(json_object_get(j, "seat"));
    const char *text = jstr(j, "action");
    if (seat != r->g.to_act)
        return fail(r, line, "seat %d acts, but seat %d must act", seat, r->g.to_act);
    if (r->seat == seat && !r->quiet) {
        print_view(r, seat);
        r->since_len = 0;
    }
    okr_action a;
    memset(&a, 0, sizeof a);
    memset(&why, 0, sizeof why);
    if (okr_action_parse(&r->g, text, &a, &why) != OKR_OK)
        return fail(r, line, "cannot read the action '%s': %s", text, why.reason);
    okr_event ev;
    memset(&why, 0, sizeof why);
    if (okr_apply(&r->g, &a, &ev, &why) != OKR_OK)
        return fail(r, line, "the engine refuses '%s' (RULES %s): %s", text, why.rule, why.reason);
    r->actions++;
    const char *sub = jstr(j, "substituted");
    json_t *ms = json_object_get(j, "ms");
    char shown[600];
    char c[3];
    if (r->seat >= 0) {
        okr_event red;
        okr_event_redact(&ev, r->seat, &red);
        /* the notation never shows a card drawn from the stock; the drawer learns it */
        if (red.type == OKR_A_DRAW && red.card != OKR_NOCARD && red.seat == r->seat)
            snprintf(shown, sizeof shown, "seat %d: %s (%s)", seat, text,
                     okr_card_str(red.card, c));
        else
            snprintf(shown, sizeof shown, "seat %d: %s", seat, text);
        if (seat != r->seat)
            since_add(r, shown);
    }
    if (!r->quiet) {
        printf("%5lld  hand %d  seat %d %-12s %s", r->actions, r->g.hand_no, seat, r->names[seat],
               text);
        if (r->seat == seat && ev.type == OKR_A_DRAW && ev.card != OKR_NOCARD)
            printf(" (%s)", okr_card_str(ev.card, c));
        if (json_is_number(ms))
            printf("  [%.3f ms]", json_number_value(ms));
        if (sub[0])
            printf("  [substituted after %s]", sub);
        printf("\n");
    }
    return AR_EXIT_OK;
}

static int hand_end(replay *r, json_t *j, long line)
{
    if (r->g.phase != OKR_PH_HAND_OVER && r->g.phase != OKR_PH_GAME_OVER)
        return fail(r, line, "the record ends hand %lld, the engine's hand %d is still on",
                    (long long)json_integer_value(json_object_get(j, "hand")), r->g.hand_no);
    if (json_integer_value(json_object_get(j, "hand")) != r->g.hand_no)
        return fail(r, line, "hand number %lld, the engine is at %d",
                    (long long)json_integer_value(json_object_get(j, "hand")), r->g.hand_no);
    if (!ints_equal(json_object_get(j, "scores"), r->g.last.score, r->players) ||
        !ints_equal(json_object_get(j, "totals"), r->g.last.total, r->players))
        return fail(r, line, "hand %d scores differ from the engine's", r->g.hand_no);
    char d[24];
    snprintf(d, sizeof d, "%016llx", (unsigned long long)okr_digest(&r->g));
    if (strcmp(d, jstr(j, "digest")) != 0)
        return fail(r, line, "hand %d digest %s, the engine's is %s", r->g.hand_no,
                    jstr(j, "digest"), d);
    r->hands_checked++;
    if (!r->quiet) {
        printf("hand %d over: %s", r->g.hand_no, ar_end_name(r->g.last.ended));
        if (r->g.last.winner >= 0)
            printf(", winner seat %d", r->g.last.winner);
        printf("; scores");
        for (int s = 0; s < r->players; s++)
            printf(" %d", r->g.last.score[s]);
        printf("; totals");
        for (int s = 0; s < r->players; s++)
            printf(" %d", r->g.last.total[s]);
        printf("\n");
        if (r->seat >= 0) {
            /* every hand is shown when a hand ends (HandEnd) */
            for (int s = 0; s < r->players; s++) {
                uint8_t cards[OKR_MAX_CARDS];
                int n = 0;
                for (int k = 0; k < OKR_KINDS; k++)
                    for (int i = 0; i < r->g.hand[s][k] && n < OKR_MAX_CARDS; i++)
                        cards[n++] = (uint8_t)k;
                printf("   seat %d kept:", s);
                print_cards(cards, n);
                printf("\n");
            }
            r->since_len = 0;
        }
    }
    return AR_EXIT_OK;
}

static int result(replay *r, json_t *j, long line)
{
    int32_t fin[OKR_MAX_PLAYERS];
    uint8_t place[OKR_MAX_PLAYERS];
    unsigned winners = 0;
    int completed = json_is_true(json_object_get(j, "completed"));
    /* a game that stopped right after a hand was dealt: deal it here too */
    json_int_t hand = json_integer_value(json_object_get(j, "hand"));
    if (r->g.phase == OKR_PH_HAND_OVER && hand > r->g.hand_no) {
        okr_refusal why;
        memset(&why, 0, sizeof why);
        if (okr_next_hand(&r->g, NULL, 0, &why) != OKR_OK)
            return fail(r, line, "cannot deal hand %lld: %s", (long long)hand, why.reason);
    }
    if (completed) {
        if (r->g.phase != OKR_PH_GAME_OVER)
            return fail(r, line, "the record says the game ended; the engine's is in phase %s",
                        ar_phase_name(r->g.phase));
        memcpy(fin, r->g.result.final_total, sizeof fin);
        memcpy(place, r->g.result.placement, sizeof place);
    } else {
        int32_t so_far[OKR_MAX_PLAYERS];
        unsigned forfeits = 0;
        json_t *ff = json_object_get(j, "forfeits");
        if (!json_is_array(ff))
            return fail(r, line, "forfeits: not a list of seats");
        /* seat numbers from the file: checked before they become a shift count */
        for (size_t i = 0; i < json_array_size(ff); i++) {
            json_t *v = json_array_get(ff, i);
            json_int_t s = json_integer_value(v);
            if (!json_is_integer(v) || s < 0 || s >= r->players)
                return fail(r, line, "forfeits: item %zu is not a seat of this %d-seat game", i + 1,
                            r->players);
            if (forfeits & (1u << s))
                return fail(r, line, "forfeits: seat %lld is listed twice", (long long)s);
            forfeits |= 1u << s;
        }
        for (int s = 0; s < r->players; s++)
            so_far[s] = r->g.score[s] + r->g.concealed[s];
        ar_forfeit_result(r->players, so_far, forfeits, fin, place, &winners);
    }
    if (!ints_equal(json_object_get(j, "final_total"), fin, r->players))
        return fail(r, line, "final totals differ from the engine's");
    json_t *pl = json_object_get(j, "placements");
    for (int s = 0; s < r->players; s++)
        if (json_integer_value(json_array_get(pl, (size_t)s)) != place[s])
            return fail(r, line, "placements differ from the engine's");
    char d[24];
    snprintf(d, sizeof d, "%016llx", (unsigned long long)okr_digest(&r->g));
    if (strcmp(d, jstr(j, "digest")) != 0)
        return fail(r, line, "final digest %s, the engine's is %s", jstr(j, "digest"), d);
    printf("replay: %s verified: %lld actions, %d hands, %s, final totals", r->game_id, r->actions,
           r->hands_checked, completed ? "completed" : "forfeited");
    for (int s = 0; s < r->players; s++)
        printf(" %d", fin[s]);
    printf(", digest %s\n", d);
    return AR_EXIT_OK;
}

static int run(replay *r, FILE *f)
{
    char *buf = NULL;
    size_t cap = 0;
    ssize_t n;
    long line = 0;
    int rc = AR_EXIT_OK, have_header = 0, have_result = 0;
    while (rc == AR_EXIT_OK && (n = getline(&buf, &cap, f)) >= 0) {
        line++;
        if (n == 0 || buf[0] == '\n')
            continue;
        json_error_t err;
        json_t *j = json_loads(buf, 0, &err);
        if (!j || !json_is_object(j)) {
            rc = fail(r, line, "not a JSON object: %s", j ? "wrong type" : err.text);
            json_decref(j);
            break;
        }
        const char *type = jstr(j, "type");
        if (!have_header) {
            rc = header(r, j, line);
            have_header = 1;
        } else if (have_result) {
            rc = fail(r, line, "a line after the result");
        } else if (strcmp(type, "action") == 0) {
            rc = action(r, j, line);
        } else if (strcmp(type, "hand_end") == 0) {
            rc = hand_end(r, j, line);
        } else if (strcmp(type, "verdict") == 0) {
            if (!r->quiet)
                printf("verdict: seat %lld (%s): %s%s%s: %s\n",
                       (long long)json_integer_value(json_object_get(j, "seat")),
                       r->names[json_integer_value(json_object_get(j, "seat")) & 7],
                       jstr(j, "verdict"), json_object_get(j, "clock") ? " " : "", jstr(j, "clock"),
                       jstr(j, "detail"));
        } else if (strcmp(type, "result") == 0) {
            rc = result(r, j, line);
            have_result = 1;
        } else if (strcmp(type, "aborted") == 0) {
            printf("replay: %s: the game was not finished (%s); %lld actions replayed\n", r->path,
                   jstr(j, "reason"), r->actions);
            rc = AR_EXIT_FAIL;
            have_result = 1;
        } else {
            rc = fail(r, line, "unknown line type '%s'", type);
        }
        json_decref(j);
    }
    free(buf);
    if (rc == AR_EXIT_OK && !have_header)
        rc = fail(r, line, "empty record");
    else if (rc == AR_EXIT_OK && !have_result)
        rc = fail(r, line, "the record has no result line (cut short?)");
    return rc;
}

/* DIR + --game: the record's path (malloc'd), or NULL after printing why. */
char *ar_replay_find_record(const char *dir, const char *game)
{
    size_t n = strlen(dir) + strlen(game) + 64;
    char *path = ar_xmalloc(n);
    int numeric = game[0] != '\0';
    for (const char *p = game; *p; p++)
        if (!isdigit((unsigned char)*p))
            numeric = 0;
    if (!numeric) {
        snprintf(path, n, "%s/records/%s.jsonl", dir, game);
        return path;
    }
    long long k = strtoll(game, NULL, 10);
    snprintf(path, n, "%s/games.jsonl", dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "arena replay: %s: %s\n", path, strerror(errno));
        free(path);
        return NULL;
    }
    char *buf = NULL, *found = NULL;
    size_t cap = 0;
    for (long long i = 0; getline(&buf, &cap, f) >= 0; i++) {
        if (i != k)
            continue;
        json_t *j = json_loads(buf, 0, NULL);
        const char *rec = j ? json_string_value(json_object_get(j, "record")) : NULL;
        if (rec) {
            size_t m = strlen(dir) + strlen(rec) + 2;
            found = ar_xmalloc(m);
            snprintf(found, m, "%s/%s", dir, rec);
        } else {
            fprintf(stderr, "arena replay: game %lld was not played (no record)\n", k);
        }
        json_decref(j);
        break;
    }
    fclose(f);
    free(buf);
    if (!found)
        fprintf(stderr, "arena replay: no game %lld in %s\n", k, path);
    free(path);
    return found;
}

int ar_replay_main(int argc, char **argv)
{
    const char *file = NULL, *game = NULL;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--html") == 0)
            return ar_replay_html_main(argc, argv); /* the page: cli_view.c */
    replay r;
    memset(&r, 0, sizeof r);
    r.seat = -1;
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        long long n;
        int f;
        if ((f = ar_flag(argc, argv, &i, "--game", &v)) != 0) {
            if (f < 0)
                return AR_EXIT_USAGE;
            game = v;
        } else if ((f = ar_flag(argc, argv, &i, "--seat", &v)) != 0) {
            if (f < 0 || ar_parse_long("--seat", v, 0, OKR_MAX_PLAYERS - 1, &n) < 0)
                return AR_EXIT_USAGE;
            r.seat = (int)n;
        } else if (strcmp(argv[i], "--quiet") == 0 || strcmp(argv[i], "-q") == 0) {
            r.quiet = 1;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "arena replay: unknown argument '%s'\n", argv[i]);
            ar_replay_usage(stderr);
            return AR_EXIT_USAGE;
        } else if (file) {
            fprintf(stderr, "arena replay: more than one FILE ('%s', '%s')\n", file, argv[i]);
            return AR_EXIT_USAGE;
        } else {
            file = argv[i];
        }
    }
    if (!file) {
        fprintf(stderr, "arena replay: missing FILE\n");
        ar_replay_usage(stderr);
        return AR_EXIT_USAGE;
    }
    struct stat st;
    char *path = NULL;
    if (stat(file, &st) == 0 && S_ISDIR(st.st_mode)) {
        if (!game) {
            fprintf(stderr, "arena replay: %s is a directory: give --game ID or --game K\n", file);
            return AR_EXIT_USAGE;
        }
        path = ar_replay_find_record(file, game);
        if (!path)
            return AR_EXIT_FAIL;
    } else {
        if (game) {
            fprintf(stderr, "arena replay: --game needs a match directory, not a record file\n");
            return AR_EXIT_USAGE;
        }
        path = ar_xstrdup(file);
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "arena replay: %s: %s\n", path, strerror(errno));
        free(path);
        return AR_EXIT_FAIL;
    }
    r.path = path;
    int rc = run(&r, f);
    fclose(f);
    free(r.since);
    free(path);
    return rc;
}
