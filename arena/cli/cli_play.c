/* cli_play.c - `arena play`: a human takes one seat against bots, in the browser or the
 * terminal. The human is one more entrant of an ordinary match (a seat with no process,
 * arena/play/seat.h): the same engine, clocks, verdicts and record as any bot, so the game
 * opens in `arena replay --html` like every other. */
#include "cli.h"
#include "cli_bots.h"
#include "jail/seccomp.h"
#include "play/play.h"
#include "web/web.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void ar_play_usage(FILE *out)
{
    fputs("usage: arena play [--rules R] [--rule opt=val]... [--players N] [--human SEAT]\n"
          "                  --bot CMD [--bot CMD]... [--browser | --tty] [--port P]\n"
          "                  [--games G] [--seed S] [--out DIR] [--human-ms MS]\n"
          "                  [--page-timeout S]\n"
          "                  [--practice [--hint-bot CMD]] [--decision-ms MS] [--hard-ms MS]\n"
          "                  [sandbox flags]\n"
          "\n"
          "Play a game yourself against bots. The bots run jailed as in `arena match`; you are\n"
          "seat SEAT (default 0); the seats you do not take are the --bot commands in order\n"
          "(one --bot fills them all). The game is recorded in DIR (default play-out): open\n"
          "it with `arena replay DIR --html`.\n"
          "\n"
          "  --browser     (default) serve your seat's page on 127.0.0.1 and print its URL\n"
          "                with a secret token; nothing is opened for you\n"
          "  --port P      the page's port (default: any free port)\n"
          "  --tty         play in this terminal: numbered moves, or type them (discard qs)\n"
          "  --games G     games to play (default 1; later games rotate the seats)\n"
          "  --human-ms MS your time per move (default 1800000 = 30 min; past it you lose the\n"
          "                game with a TLE, as a bot would)\n"
          "  --page-timeout S  a page that asks nothing for S seconds was closed: your TLE, as\n"
          "                is closing the terminal with --tty (default 90; 0: never)\n"
          "  --practice    a practice game: 'undo' takes back your last move (and the bots'\n"
          "                replies); the record says it is a practice game\n"
          "  --hint-bot CMD  with --practice: 'hint' asks this bot (jailed as the others, told\n"
          "                only what your seat is told) for its move in your position\n"
          "  --decision-ms, --hard-ms  the bots' clocks (as in `arena match`)\n",
          out);
    ar_sb_usage(out);
}

typedef struct {
    ar_rules_args rules;
    int players, human, tty, port, practice;
    long long games;
    uint64_t seed;
    const char *out_dir;
    ar_cli_bots bots;
    ar_cli_bots hint; /* --hint-bot: at most one */
    ar_clocks clocks;
    uint32_t human_ms;
    long long page_timeout_s;
    ar_sb_args sb;
} play_opts;

typedef struct {
    int tty, listen_fd, colour, failed, human;
    long long page_timeout_s; /* --page-timeout */
    ap_browser *web;
    ap_tty *term;
    struct event_base *base;
} faces;

/* The match's loop exists once the seat connects: put the page or the terminal on it. */
static void on_connect(ap_seat *s, struct event_base *base, void *ud)
{
    faces *f = ud;
    f->base = base;
    if (f->web || f->term)
        return;
    if (f->tty) {
        f->term = ap_tty_new(base, s, 0, stdout, f->colour);
        printf("arena play: you are seat %d ('you'). Type 'help' for the commands.\n", f->human);
        fflush(stdout);
        return;
    }
    char err[300], url[200];
    f->web = ap_browser_new_fd(base, s, f->listen_fd, err, sizeof err);
    if (!f->web) {
        fprintf(stderr, "arena play: %s\n", err);
        f->failed = 1;
        ap_seat_leave(s);
        return;
    }
    ap_browser_set_page_timeout(f->web, (double)f->page_timeout_s);
    ap_browser_url(f->web, url, sizeof url);
    printf("arena play: open %s\n", url);
    printf("(only on this machine; the token in the URL keeps other users out)\n");
    fflush(stdout);
}

/* ---- A human seat for any command that runs a match (cli_bots.h) ---- */

struct ar_cli_human {
    faces f;
    ap_seat *seat;
    ar_clocks clocks;
    int listen_taken;
};

ar_cli_human *ar_cli_human_new(int tty, int port, int seat_no, uint32_t human_ms,
                               uint32_t startup_ms, long long page_timeout_s)
{
    ar_cli_human *h = ar_xcalloc(1, sizeof *h);
    h->f.page_timeout_s = page_timeout_s;
    h->f.tty = tty;
    h->f.human = seat_no;
    h->f.colour = isatty(1);
    h->f.listen_fd = -1;
    if (!tty) {
        char err[300];
        if ((h->f.listen_fd = aw_listen(port, err, sizeof err)) < 0) {
            fprintf(stderr, "arena: --port: %s\n", err);
            free(h);
            return NULL;
        }
    }
    h->seat = ap_seat_new("you");
    h->clocks = (ar_clocks){startup_ms, human_ms, 0, human_ms};
    ap_seat_set_limit(h->seat, human_ms); /* the Decision carries the bots' clocks */
    ap_seat_on_connect(h->seat, on_connect, &h->f);
    return h;
}

ar_entrant ar_cli_human_entrant(ar_cli_human *h)
{
    return (ar_entrant){.name = "you",
                        .command = "(a human)",
                        .connect = ap_seat_connect,
                        .connect_ud = h->seat,
                        .gone = ap_seat_gone_verdict,
                        .clocks = &h->clocks};
}

int ar_cli_human_end(ar_cli_human *h)
{
    /* the last frames (HandEnd, GameEnd, Bye) are in the seat's pipe, but the match's loop
     * has stopped turning: read them, so the page and the terminal show how it ended */
    for (int i = 0; h->f.base && i < 4 && !ap_seat_over(h->seat); i++)
        event_base_loop(h->f.base, EVLOOP_NONBLOCK);
    h->listen_taken = h->f.web != NULL;
    ap_browser_free(h->f.web); /* a waiting page gets the final state */
    ap_tty_free(h->f.term);
    h->f.web = NULL;
    h->f.term = NULL;
    ap_seat_detach(h->seat);
    return h->f.failed ? -1 : 0;
}

void ar_cli_human_free(ar_cli_human *h)
{
    if (!h)
        return;
    if (h->f.listen_fd > 0 && !h->listen_taken)
        close(h->f.listen_fd);
    ap_seat_free(h->seat);
    free(h);
}

/* ---- Practice: takebacks ---- */

/* The game's actions so far, as recorded; a takeback replays the first undo_to of them. */
typedef struct {
    char **text;
    int *seat;
    long long n, cap, undo_to;
    int human;
    ar_match *m;
} practice;

static void on_action(long long n, int seat, const char *text, void *ud)
{
    practice *p = ud;
    (void)n;
    if (p->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 256;
        p->text = ar_xrealloc(p->text, (size_t)p->cap * sizeof *p->text);
        p->seat = ar_xrealloc(p->seat, (size_t)p->cap * sizeof *p->seat);
    }
    p->text[p->n] = ar_xstrdup(text);
    p->seat[p->n++] = seat;
}

/* Take back the human's last move: stop this game, to replay it up to that move. */
static int on_undo(ap_seat *s, void *ud)
{
    (void)s;
    practice *p = ud;
    long long k = p->n - 1;
    while (k >= 0 && p->seat[k] != p->human)
        k--;
    if (k < 0 || !p->m)
        return -1;
    p->undo_to = k;
    ar_match_stop(p->m);
    return 0;
}

/* The hint bot: entrant `bot` of a copy of the match's configuration whose entrants include it,
 * so that the jail shows it only its own files, as ar_match_view shows each bot. */
typedef struct {
    ar_loop *loop;
    ar_match_config cfg;
    int bot;
    ar_bpf filter;
    int have_filter;
    FILE *log; /* its stderr: DIR/logs/hint-bot.log */
} hinter;

static ar_bot *make_hint_bot(void *ud)
{
    hinter *h = ud;
    char msg[600];
    if (h->cfg.sandbox.mode != AR_SB_OFF && !h->have_filter) {
        if (ar_seccomp_build(ar_match_profile(&h->cfg.bots[h->bot]), &h->filter, msg, sizeof msg) <
            0) {
            fprintf(stderr, "arena play: --hint-bot: seccomp: %s\n", msg);
            return NULL;
        }
        h->have_filter = 1;
    }
    if (!h->log) { /* the match made DIR/logs before the first hint can be asked */
        char path[4096];
        snprintf(path, sizeof path, "%s/logs/hint-bot.log", h->cfg.out_dir);
        h->log = fopen(path, "a");
    }
    ar_bot *b = ar_match_spare_bot(h->loop, &h->cfg, h->bot, h->have_filter ? &h->filter : NULL,
                                   h->log, msg, sizeof msg);
    if (!b)
        fprintf(stderr, "arena play: --hint-bot: %s\n", msg);
    return b;
}

static void practice_clear(practice *p, long long keep)
{
    for (long long i = keep; i < p->n; i++)
        free(p->text[i]);
    p->n = keep;
}

static int parse_args(int argc, char **argv, play_opts *o)
{
    int players_given = 0;
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        long long n;
        int r;
        if ((r = ar_table_flag(argc, argv, &i, &o->rules, &o->players, &players_given, &o->seed)) !=
            0) {
            if (r < 0)
                return AR_EXIT_USAGE;
        } else if ((r = ar_flag(argc, argv, &i, "--bot", &v)) != 0) {
            if (r < 0 || ar_cli_bots_add(&o->bots, "--bot", v) < 0)
                return AR_EXIT_USAGE;
        } else if ((r = ar_flag(argc, argv, &i, "--hint-bot", &v)) != 0) {
            if (r < 0 || o->hint.n > 0 || ar_cli_bots_add(&o->hint, "--hint-bot", v) < 0) {
                if (r >= 0 && o->hint.n > 1)
                    fprintf(stderr, "arena play: one --hint-bot\n");
                return AR_EXIT_USAGE;
            }
        } else if ((r = ar_flag(argc, argv, &i, "--name", &v)) != 0) {
            if (r < 0 || ar_cli_bots_name(&o->bots, v) < 0)
                return AR_EXIT_USAGE;
        } else if ((r = ar_flag(argc, argv, &i, "--files", &v)) != 0) {
            if (r < 0 || ar_cli_bots_files(&o->bots, v) < 0)
                return AR_EXIT_USAGE;
        } else if ((r = ar_flag(argc, argv, &i, "--human", &v)) != 0) {
            if (r < 0 || ar_parse_long("--human", v, 0, OKR_MAX_PLAYERS - 1, &n) < 0)
                return AR_EXIT_USAGE;
            o->human = (int)n;
        } else if ((r = ar_flag(argc, argv, &i, "--port", &v)) != 0) {
            if (r < 0 || ar_parse_long("--port", v, 0, 65535, &n) < 0)
                return AR_EXIT_USAGE;
            o->port = (int)n;
        } else if ((r = ar_flag(argc, argv, &i, "--games", &v)) != 0) {
            if (r < 0 || ar_parse_long("--games", v, 1, 1000, &o->games) < 0)
                return AR_EXIT_USAGE;
        } else if ((r = ar_flag(argc, argv, &i, "--out", &v)) != 0 ||
                   (r = ar_flag(argc, argv, &i, "-o", &v)) != 0) {
            if (r < 0)
                return AR_EXIT_USAGE;
            o->out_dir = v;
        } else if ((r = ar_flag(argc, argv, &i, "--human-ms", &v)) != 0) {
            if (r < 0 || ar_parse_ms("--human-ms", v, &o->human_ms) < 0)
                return AR_EXIT_USAGE;
        } else if ((r = ar_flag(argc, argv, &i, "--page-timeout", &v)) != 0) {
            if (r < 0 || ar_parse_long("--page-timeout", v, 0, 86400, &o->page_timeout_s) < 0)
                return AR_EXIT_USAGE;
        } else if ((r = ar_flag(argc, argv, &i, "--decision-ms", &v)) != 0) {
            if (r < 0 || ar_parse_ms("--decision-ms", v, &o->clocks.decision_ms) < 0)
                return AR_EXIT_USAGE;
        } else if ((r = ar_flag(argc, argv, &i, "--hard-ms", &v)) != 0) {
            if (r < 0 || ar_parse_ms("--hard-ms", v, &o->clocks.hard_ms) < 0)
                return AR_EXIT_USAGE;
        } else if ((r = ar_sb_flag(argc, argv, &i, &o->sb)) != 0) {
            if (r < 0)
                return AR_EXIT_USAGE;
        } else if (strcmp(argv[i], "--tty") == 0) {
            o->tty = 1;
        } else if (strcmp(argv[i], "--browser") == 0) {
            o->tty = 0;
        } else if (strcmp(argv[i], "--practice") == 0) {
            o->practice = 1;
        } else {
            fprintf(stderr, "arena play: unknown argument '%s'\n", argv[i]);
            ar_play_usage(stderr);
            return AR_EXIT_USAGE;
        }
    }
    if (!players_given && o->rules.preset && strcmp(o->rules.preset, "gin") == 0)
        o->players = 2;
    if (o->bots.n == 0) {
        fprintf(stderr, "arena play: at least one --bot is needed (the seats you do not take)\n");
        return AR_EXIT_USAGE;
    }
    if (o->bots.n > o->players - 1) {
        fprintf(stderr, "arena play: %d bots for the %d seats you leave free\n", o->bots.n,
                o->players - 1);
        return AR_EXIT_USAGE;
    }
    if (o->practice && o->games > 1) {
        fprintf(stderr, "arena play: --practice plays one game (a takeback replays that game)\n");
        return AR_EXIT_USAGE;
    }
    if (o->hint.n && !o->practice) {
        fprintf(stderr, "arena play: --hint-bot is for practice games: add --practice (a rated "
                        "game takes no advice)\n");
        return AR_EXIT_USAGE;
    }
    if (o->hint.n && o->hint.b[0].builtin) {
        fprintf(stderr, "arena play: --hint-bot takes a program (build/bots/greedy_bot), not a "
                        "built-in policy\n");
        return AR_EXIT_USAGE;
    }
    if (o->human >= o->players) {
        fprintf(stderr, "arena play: --human %d: the seats are 0 to %d\n", o->human,
                o->players - 1);
        return AR_EXIT_USAGE;
    }
    return AR_EXIT_OK;
}

int ar_play_main(int argc, char **argv)
{
    play_opts o;
    memset(&o, 0, sizeof o);
    o.players = 2;
    o.games = 1;
    o.seed = (uint64_t)getpid() ^ (uint64_t)(ar_now() * 1e6); /* a new deal unless --seed */
    o.out_dir = "play-out";
    o.clocks = (ar_clocks){10000, 1000, 10000, 5000};
    o.human_ms = 1800000;
    o.page_timeout_s = AR_PAGE_TIMEOUT_S;
    ar_sb_args_init(&o.sb);
    okr_rules rules;
    ar_cli_human *human = NULL;
    ar_entrant *ents = NULL;
    int rc = parse_args(argc, argv, &o);
    if (rc == AR_EXIT_OK)
        rc = ar_rules_build(&o.rules, o.players, &rules);
    if (rc == AR_EXIT_OK) {
        okr_refusal why;
        if (ar_match_duplicate_rules(&rules, o.rules.options, o.rules.noptions, 0, &why)) {
            ar_print_refusal(NULL, &why);
            rc = AR_EXIT_USAGE;
        }
    }
    if (rc == AR_EXIT_OK)
        rc = ar_cli_bots_finish(&o.bots);
    if (rc == AR_EXIT_OK && o.hint.n)
        rc = ar_cli_bots_finish(&o.hint);
    /* the page's socket first: the sandbox may move the arena into an empty network namespace */
    if (rc == AR_EXIT_OK && !(human = ar_cli_human_new(o.tty, o.port, o.human, o.human_ms,
                                                       o.clocks.startup_ms, o.page_timeout_s)))
        rc = AR_EXIT_USAGE;
    ar_sandbox_cfg sandbox;
    if (rc == AR_EXIT_OK) {
        /* the hint bot is set up with the others (its --profile, the jail's check of it) */
        ar_entrant *all = ar_xcalloc((size_t)o.bots.n + 1, sizeof *all);
        memcpy(all, o.bots.e, (size_t)o.bots.n * sizeof *all);
        if (o.hint.n)
            all[o.bots.n] = o.hint.e[0];
        rc = ar_sb_setup(&o.sb, 1, all, o.bots.n + o.hint.n, &sandbox);
        memcpy(o.bots.e, all, (size_t)o.bots.n * sizeof *all);
        if (o.hint.n)
            o.hint.e[0] = all[o.bots.n];
        free(all);
    }
    if (rc != AR_EXIT_OK)
        goto out;

    /* entrants: the bots, then the human; slot k is seat k in the first game */
    int n = o.bots.n;
    ents = ar_xcalloc((size_t)n + 2, sizeof *ents);
    memcpy(ents, o.bots.e, (size_t)n * sizeof *ents);
    ents[n] = ar_cli_human_entrant(human);
    int slot_bot[OKR_MAX_PLAYERS];
    for (int k = 0, b = 0; k < o.players; k++)
        slot_bot[k] = k == o.human ? n : (b++) % n;

    ar_match_config cfg = {
        .rules = rules,
        .players = o.players,
        .deals = ar_match_deals(o.games, o.players),
        .games_requested = o.games,
        .max_games = o.games,
        .seed = o.seed,
        .bots = ents,
        .nbots = n + 1,
        .slot_bot = slot_bot,
        .clocks = o.clocks,
        .on_error = AR_ON_ERROR_FORFEIT,
        .substitute = AR_POLICY_RANDOM,
        .max_error_share = 1.0,
        .dq_min_games = 1000000,
        .out_dir = o.out_dir,
        .quiet = 0,
        .max_pending = (size_t)16 << 20,
        .log_cap = (size_t)1 << 20,
        .bye_ms = 1000,
        .eof_ms = 500,
        .stdout_cap = (uint64_t)o.sb.stdout_cap,
        .sandbox = sandbox,
    };
    if ((rc = ar_cli_bots_check_views(&cfg)) != AR_EXIT_OK)
        goto out;
    /* practice: a takeback stops the game and plays it again on the same loop (the page keeps
     * its address and token), the actions before the taken-back move replayed as recorded:
     * the engine is deterministic, so the position is the same, and the bots, started afresh,
     * see the same GameStart and Events as before and are asked only from there on */
    practice pr = {.human = o.human, .undo_to = -1};
    char **forced = NULL;
    ar_loop *loop = NULL;
    hinter hint;
    memset(&hint, 0, sizeof hint);
    if (o.practice) {
        if (!(loop = ar_loop_new())) {
            fprintf(stderr, "arena play: cannot create the event loop\n");
            rc = AR_EXIT_FAIL;
            goto out;
        }
        cfg.loop = loop;
        cfg.practice = 1;
        cfg.on_action = on_action;
        cfg.action_ud = &pr;
        ap_seat_set_practice(human->seat, on_undo, &pr);
        if (o.hint.n) {
            ents[n + 1] = o.hint.e[0];
            hint.loop = loop;
            hint.cfg = cfg;
            hint.cfg.nbots = n + 2;
            hint.bot = n + 1;
            ap_seat_set_hint(human->seat, loop, make_hint_bot, &hint);
        }
    }
    ar_match *m;
    int mrc;
    for (;;) {
        m = ar_match_new(&cfg);
        pr.m = m;
        practice_clear(&pr, 0);
        mrc = ar_match_run(m);
        pr.m = NULL;
        if (pr.undo_to < 0 || mrc < 0)
            break;
        /* forced: the actions before the taken-back one (copied: pr is refilled as they
         * are replayed) */
        for (long long i = 0; i < cfg.nforced; i++)
            free(forced[i]);
        free(forced);
        forced = ar_xcalloc((size_t)pr.undo_to + 1, sizeof *forced);
        for (long long i = 0; i < pr.undo_to; i++)
            forced[i] = ar_xstrdup(pr.text[i]);
        cfg.forced = (const char *const *)forced;
        cfg.nforced = pr.undo_to;
        cfg.takebacks++;
        cfg.id_base += 1u << 24; /* a stale page's answer matches no new Decision */
        pr.undo_to = -1;
        ap_seat_detach(human->seat); /* before the loop turns again: no hangup for the seat */
        ar_match_free(m);
    }
    int hrc = ar_cli_human_end(human);
    if (ar_match_results(m))
        ar_results_print(ar_match_results(m), ar_match_totals_of(m), stdout);
    printf("arena play: the game is in %s; see it with: arena replay %s --html\n", o.out_dir,
           o.out_dir);
    fflush(stdout);
    rc = mrc < 0 || hrc < 0 ? AR_EXIT_FAIL : AR_EXIT_OK;
    ar_match_free(m);
    for (long long i = 0; i < cfg.nforced; i++)
        free(forced[i]);
    free(forced);
    practice_clear(&pr, 0);
    free(pr.text);
    free(pr.seat);
    ap_seat_detach(human->seat); /* the hint bot, before its loop goes */
    if (hint.have_filter)
        ar_bpf_free(&hint.filter);
    if (hint.log)
        fclose(hint.log);
    ar_loop_free(loop);
out:
    free(ents);
    ar_cli_human_free(human);
    ar_sb_args_free(&o.sb);
    ar_cli_bots_free(&o.bots);
    ar_cli_bots_free(&o.hint);
    ar_rules_args_free(&o.rules);
    return rc;
}
