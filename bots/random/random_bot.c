/* random_bot.c - the smallest useful bot: it picks one of the legal actions uniformly at
 * random. Copy it to start your own (docs/sdk-c.md).
 *
 *   random_bot [--seed N]   without --seed, each decision is seeded from its id
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "okbot.h"

static int have_seed;
static uint64_t seed; /* with --seed: one random stream for the whole run */

/* Called for every decision: return an index into d->legal (0 .. d->n - 1). */
static int decide(const okb_decision *d, void *ud)
{
    (void)ud;
    uint64_t state = have_seed ? seed : d->id; /* the generator's whole state */
    int pick = (int)okb_rand_below(&state, (uint32_t)d->n);
    if (have_seed)
        seed = state; /* the next decision continues the stream */
    return pick;
}

/* Optional hook: called when a game is over. printf is safe: the SDK sends it to stderr,
 * which is the bot's log, so it can never corrupt the channel to the arena. */
static void game_end(const okb_game_end *g, void *ud)
{
    (void)ud;
    printf("game %s: seat %d placed %d with %d\n", g->game_id, g->seat,
           g->result.placement[g->seat], g->result.final_total[g->seat]);
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--seed") == 0) {
        have_seed = 1;
        seed = strtoull(argv[2], NULL, 10);
    } else if (argc != 1) {
        fprintf(stderr, "usage: random_bot [--seed N]\n");
        return 2;
    }
    okb_bot bot = {.name = "random", .version = "1.0", .decide = decide, .on_game_end = game_end};
    return okb_run(&bot, NULL); /* 0 after the arena's Bye, 1 if the channel broke */
}
