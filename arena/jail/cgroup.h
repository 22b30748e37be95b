/* cgroup.h - one control group per bot process tree, for the limits and the evidence that
 * rlimits cannot give: memory of the whole tree (with the kernel's oom_kill count as proof of
 * MLE), a task limit (fork and thread bombs), CPU time of every task, and a kill that reaches
 * setsid'ed daemons. Uses cgroup v2 where the memory and pids controllers are delegated to
 * us, else the v1 memory, pids and cpuacct hierarchies, else nothing (the caller falls back
 * to rlimits). Directories are named okarena-<arena pid>-<n>, below the cgroup the arena
 * itself is in (or the hierarchy's root), so a crashed arena's leftovers can be swept. */
#ifndef AR_CGROUP_H
#define AR_CGROUP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct ar_cgroup ar_cgroup;

/* Can we create limited cgroups here? Returns 2 (v2), 1 (v1) or 0 (none; why says what is
 * missing, e.g. "v2 has no memory controller delegated; v1 memory not writable"). Decided
 * once per process by creating and removing a test directory. */
int ar_cgroup_available(char *why, size_t cap);

/* Create the cgroup `name` ("bot-3"; made unique as okarena-<pid>-<n>-<name>) with a memory
 * limit (bytes, 0 = none; swap is limited to 0 too) and a task limit (0 = none). Returns NULL
 * (err says why) if cgroups are unavailable or a write failed. */
ar_cgroup *ar_cgroup_new(const char *name, uint64_t mem_bytes, int pids_max, char *err,
                         size_t errcap);

/* v2: an O_DIRECTORY fd of the cgroup for clone3(CLONE_INTO_CGROUP); else -1. Owned by c. */
int ar_cgroup_dirfd(const ar_cgroup *c);

/* Move pid into the cgroup (every v1 hierarchy's cgroup.procs, or v2's): for v1, or for v2
 * without clone3. Call it BEFORE the child is released to exec, so nothing escapes.
 * Returns 0 or -errno. */
int ar_cgroup_attach(ar_cgroup *c, pid_t pid);

/* CPU time of the whole tree (user + system, every task ever in it), in milliseconds; -1 if
 * unknown. */
double ar_cgroup_cpu_ms(const ar_cgroup *c);

/* How many tasks the kernel's OOM killer killed in this cgroup (v2 memory.events oom_kill,
 * v1 memory.oom_control oom_kill); -1 if unknown. > 0 is the evidence of an MLE. */
int ar_cgroup_oom_kills(const ar_cgroup *c);

/* Peak memory use in bytes (v2 memory.peak, v1 memory.max_usage_in_bytes); 0 if unknown. */
uint64_t ar_cgroup_mem_peak(const ar_cgroup *c);

/* Tasks inside now (pids.current); -1 if unknown. */
int ar_cgroup_pids(const ar_cgroup *c);

/* The cgroup v2 freezer (Linux 5.2+) on the whole tree: frozen 1 stops every task of it (and
 * every task that joins later) where it is, 0 lets them run again. Works in v2 mode and, on
 * hybrid hosts, through the controller-less v2 directory. Asynchronous: the write returns
 * once every task is told; a running task stops at its next return to user space (within
 * microseconds), and ar_cgroup_frozen says when all have. A frozen task still dies of
 * SIGKILL and of cgroup.kill. Returns 0, or -ENOTSUP when c has no v2 directory or the kernel
 * no freezer (the caller then stops the process group with signals), or -errno. */
int ar_cgroup_freeze(ar_cgroup *c, int frozen);
/* cgroup.events "frozen": 1 once every task is frozen, 0 if not, -ENOTSUP as above. */
int ar_cgroup_frozen(const ar_cgroup *c);

/* Kill every task: cgroup.kill (v2, kernel 5.14+), else SIGKILL every pid of cgroup.procs,
 * repeated until it is empty (bounded, ~1 s). Returns 0, or -EBUSY if tasks remain. */
int ar_cgroup_kill(ar_cgroup *c);

/* Kill, wait (bounded) until empty, remove every directory, free. Accepts NULL. */
void ar_cgroup_free(ar_cgroup *c);

/* The i-th directory of c (v2: the one; v1: memory, pids, cpuacct, then the controller-less
 * v2 one of hybrid hosts), or NULL past the last. For diagnostics and tests. */
const char *ar_cgroup_path(const ar_cgroup *c, int i);

/* Remove the leftovers of arenas that died: directories okarena-<pid>-* whose pid is not
 * running (their tasks are killed first). Returns how many directories were removed. */
int ar_cgroup_sweep(void);

#endif
