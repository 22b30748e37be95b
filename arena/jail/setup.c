/* setup.c - deciding a run's sandbox mode (sandbox.h: ar_sandbox_choose): the probe's best
 * mode against the user's minimum, and the one network namespace the jails share. Kept apart
 * from the probe (sandbox.c) because it needs spawn.c, which needs the probe's modes. */
#include "sandbox.h"

#include <stdio.h>

#include "spawn.h"

/* ar_sandbox_keep_network: the arena stays in the host's network namespace. */
static int keep_net;

void ar_sandbox_keep_network(int on)
{
    keep_net = on;
}

int ar_sandbox_choose(const char *min_name, int insecure, int off, int quiet, ar_sandbox_cfg *out)
{
    if (off) {
        out->mode = AR_SB_OFF;
        fprintf(stderr, "arena: warning: --no-sandbox: the bots run as plain processes, with "
                        "everything the arena may do\n");
        return 0;
    }
    int min = AR_SB_ROOTLESS;
    ar_sb_mode_parse(min_name ? min_name : "rootless", &min);
    ar_sb_caps caps;
    ar_sandbox_probe(&caps);
    if (!quiet)
        fprintf(stderr, "arena: %s\n", caps.summary);
    if (caps.mode < min) {
        if (!insecure) {
            fprintf(stderr,
                    "arena: the best sandbox here is %s, weaker than --sandbox %s: %s\n"
                    "arena: refusing to run bots; --insecure runs them in %s anyway, "
                    "--no-sandbox without any\n",
                    ar_sb_mode_name(caps.mode), ar_sb_mode_name(min),
                    caps.missing[0] ? caps.missing : "(no reason given)",
                    ar_sb_mode_name(caps.mode));
            return -1;
        }
        fprintf(stderr, "arena: warning: --insecure: running in %s mode, weaker than %s (%s)\n",
                ar_sb_mode_name(caps.mode), ar_sb_mode_name(min), caps.missing);
    }
    out->mode = caps.mode;
    out->userns = caps.userns;
    if (out->mode >= AR_SB_ROOTLESS && !keep_net) {
        /* here, before any worker or bot exists: they all inherit the arena's namespace */
        char why[256];
        ar_spawn_share_netns(why, sizeof why);
        if (!quiet)
            fprintf(stderr, "arena: network: %s\n", why);
    }
    return 0;
}
