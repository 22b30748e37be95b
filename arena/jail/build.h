/* build.h - a bot's build step (docs/league.md, "Archive submissions"): one command run to its
 * end in the jail, with the folder it builds in as the only place it may write. Namespaces as
 * a bot's (an empty network namespace: no network; a read-only root of the system's folders;
 * its own pid namespace, whose end kills every process it left), the cgroup's memory and task
 * limits where there are cgroups, rlimits (memory, file size, open files, processes, CPU) and
 * no_new_privs. No seccomp filter: a compiler forks, execs and writes files, which a bot's
 * filter forbids; the namespaces and limits are what hold it. Needs a namespaced mode with a
 * user namespace (rootless, or full/no-cgroups as root where the kernel allows one). */
#ifndef AR_BUILD_H
#define AR_BUILD_H

#include <stddef.h>
#include <stdint.h>

typedef struct ar_build {
    const char *dir;      /* absolute: where it runs, the only folder it may write */
    const char *command;  /* a command string (ar_spawn_split); a program name is looked up in
                             the jail's PATH, a relative path against dir */
    double secs;          /* wall-clock limit, seconds (> 0) */
    uint32_t memory_mb;   /* the whole tree (cgroup) and each process (rlimits); 0: 1024 */
    int pids;             /* tasks at once; 0: 64 */
    uint64_t fsize;       /* the largest file it may write; 0: 64 MiB */
    uint64_t log_cap;     /* bytes of output kept in the log; more stops it; 0: 1 MiB */
    uint64_t max_disk;    /* disk the folder may take (blocks in use, looked at twice a
                             second while it runs); more stops it; 0: 512 MiB */
    uint32_t max_files;   /* files and folders in it, looked at likewise; 0: 20000 */
    int mode, userns;     /* the sandbox's (sandbox.h ar_sandbox_cfg) */
    const char *log_path; /* its stdout and stderr, interleaved, created or truncated */
} ar_build;

/* Run it. Returns 0 when it exited with status 0; -1 with why (one line): "exit status 2",
 * "killed by signal 9 (Killed)", "out of memory (the limit is 1024 MiB)", "stopped after 30 s,
 * its time limit", "stopped: its output passed 1048576 bytes", "stopped: its folder passed
 * 536870912 bytes" (or 20000 files: the disk is shared), "cannot start: ...", or a
 * sandbox too weak to build in. The log has what it printed up to the cap, then a last line
 * "[arena: ...]" saying how it ended. */
int ar_build_run(const ar_build *b, char *why, size_t cap);

#endif
