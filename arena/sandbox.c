/* sandbox.c - placeholder (being written): see sandbox.h. */
#include "sandbox.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *const mode_names[] = {"off", "seccomp-only", "rootless", "no-cgroups", "full"};

int ar_sandbox_probe(ar_sb_caps *c)
{
    memset(c, 0, sizeof *c);
    snprintf(c->summary, sizeof c->summary, "sandbox: off (probe not implemented yet)");
    snprintf(c->missing, sizeof c->missing, "probe not implemented yet");
    return 0;
}
int ar_sb_mode_parse(const char *name, int *mode)
{
    for (int i = 0; i < (int)(sizeof mode_names / sizeof mode_names[0]); i++)
        if (strcmp(name, mode_names[i]) == 0) {
            *mode = i;
            return 0;
        }
    return -EINVAL;
}
const char *ar_sb_mode_name(int mode)
{
    if (mode < 0 || mode >= (int)(sizeof mode_names / sizeof mode_names[0]))
        return "?";
    return mode_names[mode];
}
