/* cli_replay.c - `arena replay`: replay a game record (DIR/records/<id>.jsonl) with the engine,
 * print it, optionally as one seat saw it, and verify that every hand's scores, the final
 * totals and the final digest match the record. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "cli.h"
#include "match/json_out.h"
#include "match/record.h"
#include "match/record_read.h"
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
    int seat; /* -1: referee's view */
    int quiet;
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

static void print_view(const replay *r, const ar_record_reader *rd, int seat)
{
    okr_view v;
    okr_view_of(&rd->g, seat, &v);
    char c[3];
    printf("-- seat %d (%s) to act: hand %d, turn %d, phase %s%s --\n", seat, rd->names[seat],
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

static int on_header(void *ctx, ar_record_reader *rd, json_t *h)
{
    replay *r = ctx;
    if (r->seat >= rd->players) {
        /* the command line asks for what the game does not have: a usage error, not a
         * mismatch of the record */
        fprintf(stderr, "arena replay: --seat %d: %s has %d seats (0 to %d)\n", r->seat, rd->path,
                rd->players, rd->players - 1);
        return AR_EXIT_USAGE;
    }
    if (!r->quiet) {
        printf("game %s: %s, %d players, seed %llu, on-error %s\n", ar_record_str(h, "game_id"),
               rd->rules.preset, rd->players, (unsigned long long)rd->seed,
               ar_record_str(h, "on_error"));
        printf("seating:");
        for (int s = 0; s < rd->players; s++)
            printf(" %d=%s", s, rd->names[s]);
        printf("\n");
    }
    return 0;
}

static int on_dealt(void *ctx, ar_record_reader *rd)
{
    const replay *r = ctx;
    if (!r->quiet)
        printf("dealt hand %d\n", rd->g.hand_no);
    return 0;
}

static int before_action(void *ctx, ar_record_reader *rd, json_t *j, int seat)
{
    (void)j;
    replay *r = ctx;
    if (r->seat == seat && !r->quiet) {
        print_view(r, rd, seat);
        r->since_len = 0;
    }
    return 0;
}

static int on_action(void *ctx, ar_record_reader *rd, json_t *j, int seat, const okr_action *a,
                     const okr_event *ev)
{
    (void)a;
    replay *r = ctx;
    const char *text = ar_record_str(j, "action");
    const char *sub = ar_record_str(j, "substituted");
    json_t *ms = json_object_get(j, "ms");
    char shown[600];
    char c[3];
    if (r->seat >= 0) {
        okr_event red;
        okr_event_redact(ev, r->seat, &red);
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
        printf("%5lld  hand %d  seat %d %-12s %s", rd->actions, rd->g.hand_no, seat,
               rd->names[seat], text);
        if (r->seat == seat && ev->type == OKR_A_DRAW && ev->card != OKR_NOCARD)
            printf(" (%s)", okr_card_str(ev->card, c));
        if (json_is_number(ms))
            printf("  [%.3f ms]", json_number_value(ms));
        if (sub[0])
            printf("  [substituted after %s]", sub);
        /* the bot's note (1.1): another seat's may speak of its hand, so --seat shows only
         * its own; cleaned again, a record may be hand-made and this is a terminal */
        const char *note = ar_record_str(j, "note");
        if (note[0] && (r->seat < 0 || r->seat == seat)) {
            char clean[AR_NOTE_MAX + 1];
            ar_note_clean(note, strlen(note), clean);
            printf("  note: %s", clean);
        }
        printf("\n");
    }
    return 0;
}

static int on_hand_end(void *ctx, ar_record_reader *rd, json_t *j)
{
    (void)j;
    replay *r = ctx;
    const okr_game *g = &rd->g;
    if (r->quiet)
        return 0;
    printf("hand %d over: %s", g->hand_no, ar_end_name(g->last.ended));
    if (g->last.winner >= 0)
        printf(", winner seat %d", g->last.winner);
    printf("; scores");
    for (int s = 0; s < rd->players; s++)
        printf(" %d", g->last.score[s]);
    printf("; totals");
    for (int s = 0; s < rd->players; s++)
        printf(" %d", g->last.total[s]);
    printf("\n");
    const okr_hand_result *h = &g->last;
    if (h->knocker >= 0 && h->knock_nmelds > 0) {
        /* a gin knock is laid face up (RULES G5): every seat sees this */
        char c[3];
        printf("   seat %d knocks with", h->knocker);
        for (int i = 0; i < h->knock_nmelds && i < OKR_GIN_MELDS; i++) {
            printf("%s", i ? " |" : "");
            print_cards(h->knock_meld[i].card, h->knock_meld[i].n);
        }
        printf("; deadwood");
        print_cards(h->knock_dead, h->knock_dead_n);
        printf("; laid off:");
        for (int i = 0; i < h->layoff_n && i < OKR_GIN_HAND_MAX; i++)
            printf("%s %s onto meld %d", i ? "," : "", okr_card_str(h->layoff_card[i], c),
                   h->layoff_meld[i] + 1);
        printf("%s\n", h->layoff_n ? "" : " none");
    }
    if (r->seat >= 0) {
        /* every hand is shown when a hand ends (HandEnd) */
        for (int s = 0; s < rd->players; s++) {
            uint8_t cards[OKR_MAX_CARDS];
            int n = 0;
            for (int k = 0; k < OKR_KINDS; k++)
                for (int i = 0; i < g->hand[s][k] && n < OKR_MAX_CARDS; i++)
                    cards[n++] = (uint8_t)k;
            printf("   seat %d kept:", s);
            print_cards(cards, n);
            printf("\n");
        }
        r->since_len = 0;
    }
    return 0;
}

static int on_verdict(void *ctx, ar_record_reader *rd, json_t *j, int seat)
{
    const replay *r = ctx;
    if (r->quiet)
        return 0;
    if (ar_verdict_left(strcmp(ar_record_str(j, "verdict"), "RE") ? AR_V_NONE : AR_V_RE,
                        ar_record_str(j, "detail"))) /* a person left: words, not a crash */
        printf("verdict: seat %d (%s) left the game (RE)\n", seat, rd->names[seat]);
    else
        printf("verdict: seat %d (%s): %s%s%s: %s\n", seat, rd->names[seat],
               ar_record_str(j, "verdict"), json_object_get(j, "clock") ? " " : "",
               ar_record_str(j, "clock"), ar_record_str(j, "detail"));
    return 0;
}

static int on_result(void *ctx, ar_record_reader *rd, json_t *j)
{
    (void)ctx;
    (void)j;
    printf("replay: %s verified: %lld actions, %d hands, %s, final totals", rd->game_id,
           rd->actions, rd->hands_checked, rd->completed ? "completed" : "forfeited");
    for (int s = 0; s < rd->players; s++)
        printf(" %d", rd->final_total[s]);
    printf(", digest %s\n", rd->digest);
    return 0;
}

static int on_aborted(void *ctx, ar_record_reader *rd, json_t *j)
{
    (void)ctx;
    printf("replay: %s: the game was not finished (%s); %lld actions replayed\n", rd->path,
           ar_record_str(j, "reason"), rd->actions);
    return AR_EXIT_FAIL;
}

static int run(replay *r, FILE *f, const char *path)
{
    const ar_record_visitor v = {
        .ctx = r,
        .header = on_header,
        .dealt = on_dealt,
        .before_action = before_action,
        .action = on_action,
        .hand_end = on_hand_end,
        .verdict = on_verdict,
        .result = on_result,
        .aborted = on_aborted,
    };
    ar_record_reader *rd = ar_xmalloc(sizeof *rd);
    int rc = ar_record_read(f, path, &v, rd);
    if (rc < 0) {
        printf("replay: MISMATCH: %s\n", rd->err);
        rc = AR_EXIT_FAIL;
    }
    free(rd);
    return rc;
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
    int rc = run(&r, f, path);
    fclose(f);
    free(r.since);
    free(path);
    return rc;
}
