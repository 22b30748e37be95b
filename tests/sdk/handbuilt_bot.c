/* handbuilt_bot.c - a C bot that builds its actions by hand, never naming a seat, for
 * tests/sdk/handbuilt.sh: (okr_action){.type = OKR_A_PASS} when a pass is legal, else a copy of
 * a random legal action with its seat set to 0, always returned as OKB_ACTION. The SDK sends a
 * seat left 0 as the decision's seat (docs/sdk-c.md).
 *
 *   okrt_handbuilt_bot [SEAT]   with SEAT, that seat is written into every action instead */
#include <stdlib.h>

#include "okbot.h"

static int seat = -1; /* -1: none written */
static uint64_t rng = 1;

static int decide(const okb_decision *d, void *ud)
{
    (void)ud;
    for (int i = 0; i < d->n && seat < 0; i++)
        if (d->legal[i].type == OKR_A_PASS) {
            *d->action = (okr_action){.type = OKR_A_PASS};
            return OKB_ACTION;
        }
    *d->action = d->legal[okb_rand_below(&rng, (uint32_t)d->n)];
    d->action->seat = (uint8_t)(seat < 0 ? 0 : seat);
    return OKB_ACTION;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        seat = atoi(argv[1]);
    okb_bot bot = {.name = "handbuilt", .version = "1.0", .decide = decide};
    return okb_run(&bot, NULL);
}
