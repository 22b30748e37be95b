/* main.c - the `arena` program: a table of subcommands. The only file that exits; each
 * subcommand returns its status (cli.h: 0 ok, 1 failure, 2 bad command line). */
#include <stdio.h>
#include <string.h>

#include "cli.h"

typedef struct ar_command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv); /* argv[0] is the subcommand's name */
    void (*usage)(FILE *out);
} ar_command;

static const ar_command commands[] = {
    {"selfplay", "play seeded games in-process between built-in policies", ar_selfplay_main,
     ar_selfplay_usage},
    {"script", "apply the actions of a text file to one game, then print its state", ar_script_main,
     ar_script_usage},
    {"play", "play a game yourself against bots, in the browser or the terminal", ar_play_main,
     ar_play_usage},
    {"match", "play whole games between bot programs (duplicate deals, rotated seats)",
     ar_match_main, ar_match_usage},
    {"replay", "replay a recorded game with the engine and verify it", ar_replay_main,
     ar_replay_usage},
    {"check-bot", "check that a bot program speaks the protocol", ar_checkbot_main,
     ar_checkbot_usage},
    {"tournament", "play a .tour file's tournament (resumable, shardable), rank with error bars",
     ar_tournament_main, ar_tournament_usage},
    {"report", "a match's or tournament's results as a page (html) or a pasteable block",
     ar_report_main, ar_report_usage},
    {"league", "a league that runs for weeks: bots join and improve while it plays", ar_league_main,
     ar_league_usage},
    {"merge", "join the shards of a tournament into its results", ar_merge_main, ar_merge_usage},
    {"luck", "luck-adjusted scores of a tournament's games, from its records", ar_luck_main,
     ar_luck_usage},
    {"sandbox", "show what this host allows for confining bots, and the sandbox mode",
     ar_sandbox_main, ar_sandbox_usage},
};
enum { N_COMMANDS = sizeof commands / sizeof commands[0] };

static void usage(FILE *out)
{
    fputs("usage: arena COMMAND [ARGS]\n"
          "       arena help [COMMAND]\n"
          "commands:\n",
          out);
    for (int i = 0; i < N_COMMANDS; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fputs("Cards are written AS TH (or 10H) 2C QS JK; a wild with what it stands for, 2C=5H.\n"
          "Rule sets: laws parlett arlington german gin; options: --rule OPTION=VALUE.\n"
          "More: `arena help COMMAND` (or COMMAND --help) for its flags; docs/cli.md for all\n"
          "of them, docs/protocol.md to write a bot, docs/tournaments.md to run a tournament.\n",
          out);
}

static const ar_command *find(const char *name)
{
    for (int i = 0; i < N_COMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

static int is_help(const char *arg)
{
    return strcmp(arg, "help") == 0 || strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

int main(int argc, char **argv)
{
    ar_cli_set_program(argv[0]);
    if (argc < 2) {
        usage(stderr);
        return AR_EXIT_USAGE;
    }
    if (is_help(argv[1])) {
        const ar_command *c = argc > 2 ? find(argv[2]) : NULL;
        if (argc > 2 && !c) {
            fprintf(stderr, "arena: unknown command '%s'\n", argv[2]);
            usage(stderr);
            return AR_EXIT_USAGE;
        }
        if (c)
            c->usage(stdout);
        else
            usage(stdout);
        return AR_EXIT_OK;
    }
    const ar_command *c = find(argv[1]);
    if (!c) {
        fprintf(stderr, "arena: unknown command '%s'\n", argv[1]);
        usage(stderr);
        return AR_EXIT_USAGE;
    }
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            c->usage(stdout);
            return AR_EXIT_OK;
        }
    return c->run(argc - 1, argv + 1);
}
