/* sandbox.h - what this host lets us do to confine a bot, found by a start-up probe that
 * runs real tests in throwaway children (never by reading config files), and the modes the
 * arena runs in. The best mode the probe finds is the default; the user can ask for a
 * minimum (--sandbox MIN) and the arena refuses to run below it. docs/sandbox.md says what
 * each mode guarantees. */
#ifndef AR_SANDBOX_H
#define AR_SANDBOX_H

#include <stdint.h>

/* Weakest to strongest: a mode's number orders them. */
typedef enum ar_sb_mode {
    AR_SB_OFF = 0,      /* plain child processes (explicit --no-sandbox only) */
    AR_SB_SECCOMP_ONLY, /* seccomp "no writes, no net, no fork" + rlimits, no namespaces */
    AR_SB_ROOTLESS,     /* unprivileged user namespace + all other namespaces + seccomp +
                           rlimits; no cgroups (memory layer = RLIMIT_DATA) */
    AR_SB_NO_CGROUPS,   /* root (or equivalent): namespaces + seccomp + rlimits, no cgroups */
    AR_SB_FULL          /* namespaces + seccomp + rlimits + cgroup memory/pids/cpu */
} ar_sb_mode;

/* The probe's findings: 1 = works (tested), 0 = does not. */
typedef struct ar_sb_caps {
    int root;   /* euid 0 */
    int userns; /* a child could be cloned into a new user namespace */
    int pidns, netns, mntns;
    int seccomp; /* a filter could be loaded (after no_new_privs) in a child */
    int nnp;     /* PR_SET_NO_NEW_PRIVS works */
    int cgroup;  /* 0, 1 (v1), 2 (v2) */
    int clone_into_cgroup, cgroup_kill, pidfd;
    int landlock_abi;  /* 0 = none */
    int mode;          /* the best mode these allow (ar_sb_mode) */
    char summary[512]; /* one line: "sandbox: full (user pid net mount ipc uts namespaces,
                          seccomp, rlimits, cgroup v1 memory+pids)" */
    char missing[512]; /* why a better mode is not possible, "" if full */
    /* Added after the contract: details for `arena sandbox`. */
    int userns_unpriv; /* as root: could an unprivileged user (nobody) create a user
                          namespace? (rootless mode for other users); -1 = not tested */
    int ipcns, utsns;
    char why[16][256]; /* per capability (AR_SBC_*): how it was tested, or why it failed */
} ar_sb_caps;

/* The capabilities, in the order `arena sandbox` prints them. */
enum {
    AR_SBC_ROOT,
    AR_SBC_USERNS,
    AR_SBC_USERNS_UNPRIV,
    AR_SBC_PIDNS,
    AR_SBC_NETNS,
    AR_SBC_MNTNS,
    AR_SBC_IPCNS,
    AR_SBC_UTSNS,
    AR_SBC_NNP,
    AR_SBC_SECCOMP,
    AR_SBC_CGROUP,
    AR_SBC_CLONE_INTO_CGROUP,
    AR_SBC_CGROUP_KILL,
    AR_SBC_PIDFD,
    AR_SBC_LANDLOCK,
    AR_SBC_N
};
/* Name ("userns") and value (0/1, cgroup version, Landlock ABI; -1 not tested) of one. */
const char *ar_sb_cap_name(int cap);
int ar_sb_cap_value(const ar_sb_caps *c, int cap);

/* Run the probe (once per process; later calls copy the cached result). Forks throwaway
 * children, so call it before starting threads or an event loop. Returns 0 (c filled) or
 * -errno if even the probe's own fork failed (c then says mode off). */
int ar_sandbox_probe(ar_sb_caps *c);

/* "full" "no-cgroups" "rootless" "seccomp-only" "off" -> *mode. Returns 0 or -EINVAL. */
int ar_sb_mode_parse(const char *name, int *mode);
const char *ar_sb_mode_name(int mode); /* "?" for a bad number */

/* How a run's bots are confined (here and spawn.h). All zero: plain processes. */
typedef struct ar_sandbox_cfg {
    int mode;           /* ar_sb_mode */
    int userns;         /* namespaced modes: with a user namespace */
    uint32_t memory_mb; /* per bot unless its entrant says otherwise; 0: none */
    int pids;           /* tasks per bot (cgroup); 0: by profile, native 8, interpreted 64 */
    uint32_t cpu_s;     /* CPU-time backstop per process (RLIMIT_CPU), 0: none */
    char *const *binds; /* more folders shown read-only to every bot (--bind) */
} ar_sandbox_cfg;

/* Decide a run's mode (out->mode, out->userns; the caller sets the limits): `off` gives
 * AR_SB_OFF with a warning; otherwise run the probe, print its summary line on stderr (unless
 * quiet), and refuse (-1, the message says what is missing) when the best mode is weaker than
 * `min` ("rootless" when NULL) unless `insecure` (a warning). In the namespaced modes the
 * arena then moves into the network namespace its jails share (ar_spawn_share_netns), before
 * any worker or bot exists so they all inherit it. Returns 0 or -1. */
int ar_sandbox_choose(const char *min, int insecure, int off, int quiet, ar_sandbox_cfg *out);

/* Before ar_sandbox_choose: 1 keeps the arena in the host's network namespace (no shared one
 * for its jails; each jail then gets a namespace of its own). A league whose sets run as Slurm
 * jobs needs it: it talks to slurmctld over the network, and plays no bot itself. */
void ar_sandbox_keep_network(int on);

#endif
