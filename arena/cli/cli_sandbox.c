/* cli_sandbox.c - `arena sandbox [--json]`: run the sandbox probe and print, for each
 * capability, whether it works and why (what was tried, or the error it gave), then the best
 * mode and what stands between it and "full". The "how do I check my host" command of
 * docs/sandbox.md. Always exits 0 when the probe ran: a weak host is a finding, not an error. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "jail/cgroup.h"
#include "jail/sandbox.h"
#include "jail/seccomp.h"
#include "jail/spawn.h"

void ar_sandbox_usage(FILE *out)
{
    fprintf(out, "usage: arena sandbox [--json]\n"
                 "  Probe what this host allows for confining bots (user, pid, net, mount, ipc,\n"
                 "  uts namespaces; no_new_privs; a seccomp filter; cgroups; clone3 into a\n"
                 "  cgroup; cgroup.kill; pidfd; Landlock), each by a real attempt in a throwaway\n"
                 "  child, and print each capability with why, then the best sandbox mode\n"
                 "  (full > no-cgroups > rootless > seccomp-only > off) and what is missing.\n"
                 "  Also removes cgroups left behind by arenas that died.\n"
                 "  --json   one JSON object instead of text\n"
                 "  Exit: 0 (whatever the mode), 2 bad command line.\n");
}

static const char *yes_no(int cap, int v)
{
    if (v < 0)
        return "n/a";
    if (cap == AR_SBC_CGROUP)
        return v == 2 ? "v2" : v == 1 ? "v1" : "no";
    if (cap == AR_SBC_LANDLOCK)
        return v > 0 ? "yes" : "no";
    return v ? "yes" : "no";
}

int ar_sandbox_main(int argc, char **argv)
{
    int json = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else {
            fprintf(stderr, "arena: sandbox: unknown argument '%s'\n", argv[i]);
            ar_sandbox_usage(stderr);
            return AR_EXIT_USAGE;
        }
    }
    int swept = ar_cgroup_sweep();
    ar_sb_caps c;
    int rc = ar_sandbox_probe(&c);
    /* the bots' network namespace, as a match would set it up (this process exits next) */
    char net[256] = "no namespaces";
    int shared = c.mode >= AR_SB_ROOTLESS ? ar_spawn_share_netns(net, sizeof net) : 0;
    if (json) {
        json_t *caps = json_object();
        for (int i = 0; i < AR_SBC_N; i++) {
            json_t *one = json_object();
            json_object_set_new(one, "value", json_integer(ar_sb_cap_value(&c, i)));
            json_object_set_new(one, "why", json_string(c.why[i]));
            json_object_set_new(caps, ar_sb_cap_name(i), one);
        }
        json_t *doc = json_object();
        json_object_set_new(doc, "mode", json_string(ar_sb_mode_name(c.mode)));
        json_object_set_new(doc, "summary", json_string(c.summary));
        json_object_set_new(doc, "missing", json_string(c.missing));
        json_object_set_new(doc, "capabilities", caps);
        json_object_set_new(doc, "profiles", json_string(ar_seccomp_profiles()));
        json_t *nt = json_object();
        json_object_set_new(nt, "shared", json_boolean(shared));
        json_object_set_new(nt, "why", json_string(net));
        json_object_set_new(doc, "network", nt);
        json_object_set_new(doc, "swept_cgroups", json_integer(swept));
        char *s = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        json_decref(doc);
        if (!s) {
            fprintf(stderr, "arena: sandbox: out of memory\n");
            return AR_EXIT_FAIL;
        }
        puts(s);
        free(s);
    } else {
        for (int i = 0; i < AR_SBC_N; i++) {
            int v = ar_sb_cap_value(&c, i);
            printf("%-20s %-4s %s\n", ar_sb_cap_name(i), yes_no(i, v), c.why[i]);
        }
        printf("profiles             %s\n", ar_seccomp_profiles());
        printf("%-20s %-4s %s\n", "netns_shared", shared ? "yes" : "no", net);
        if (swept > 0)
            printf("swept                %d cgroup(s) of dead arenas\n", swept);
        printf("mode                 %s\n", ar_sb_mode_name(c.mode));
        printf("%s\n", c.summary);
        if (c.missing[0])
            printf("missing for full: %s\n", c.missing);
    }
    if (rc < 0)
        fprintf(stderr, "arena: sandbox: the probe could not run: %s\n", strerror(-rc));
    return AR_EXIT_OK;
}
