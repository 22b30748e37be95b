/* spawn.h - start a bot as a child process. spawn.c is the only file of the arena that starts
 * programs (execve), workers or bots, or changes the arena's own namespaces (aesthetics B6);
 * the one other fork is the sandbox probe's (sandbox.c): throwaway children that try a
 * capability and exit, running no program. Everything that can allocate or fail
 * slowly happens in the parent before fork(); the child makes async-signal-safe calls only
 * and reports a failure over a CLOEXEC pipe as {step, errno}. */
#ifndef AR_SPAWN_H
#define AR_SPAWN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* ---- Command strings -------------------------------------------------------------------- */

/* Split a command string into an argv, without a shell: words are separated by white space;
 * a double-quoted part may hold spaces ("a b"), and inside quotes \" and \\ stand for " and \.
 * Quotes may touch other text: x"a b"y is the one word "xa by". Nothing else is special (no
 * variables, globs, single quotes or redirections).
 * On success returns 0 and *argv_out is a NULL-terminated array (free it with
 * ar_spawn_argv_free), *argc_out the number of words (>= 1). Returns -EINVAL for an empty
 * command or an unterminated quote, with a message in err (if errcap > 0). */
int ar_spawn_split(const char *cmd, char ***argv_out, int *argc_out, char *err, size_t errcap);
void ar_spawn_argv_free(char **argv); /* accepts NULL */

/* Find the program `name` the way a shell would, but in the parent: a name with a '/' is
 * taken as a path (made absolute against the current directory); otherwise each directory of
 * $PATH is tried in order (an empty entry means "."; no $PATH means "/usr/bin:/bin"). The
 * result must be a regular file we may execute. Writes the absolute path to out.
 * Returns 0, -ENOENT (not found), -EACCES (found but not executable), or -ENAMETOOLONG. */
int ar_spawn_resolve(const char *name, char *out, size_t cap);
/* The same with an explicit search list (NULL: "/usr/bin:/bin"). */
int ar_spawn_resolve_in(const char *name, const char *path, char *out, size_t cap);

/* ---- Processes ------------------------------------------------------------------------- */

struct ar_bpf;
struct ar_cgroup;

/* How to confine the child (docs/sandbox.md). All of it is prepared by the caller in the parent;
 * spawn.c copies what the child needs before it clones. */
typedef struct ar_jail {
    int mode;                    /* ar_sb_mode (sandbox.h); AR_SB_OFF = a plain child */
    int userns;                  /* namespaced modes: create a user namespace (always when not
                                    root; as root where the kernel allows it) */
    const struct ar_bpf *filter; /* seccomp program, loaded last before execve; NULL: none */
    const char *profile;         /* "native" or "interpreted": rlimits and runtime variables */
    uint64_t mem_bytes;          /* memory limit (RLIMIT_DATA = this + grace; RLIMIT_AS for
                                    native code); 0 = none */
    uint32_t cpu_s;              /* RLIMIT_CPU backstop, seconds; 0 = none */
    struct ar_cgroup *cgroup;    /* put the whole tree into it before it runs; NULL = none */
    char *const *binds;          /* absolute paths shown read-only inside the jail, at the same
                                    place (the program's and script's folders, SDK folders) */
    char *const *env_extra;      /* "NAME=value" added to the fresh environment */
    /* Added for build steps (jail/build.h); zero for a bot: */
    const char *rw_bind;  /* an absolute folder shown read-WRITE at the same place (not
                             recursive: a mount point inside is not shown); NULL = none */
    uint64_t fsize_bytes; /* RLIMIT_FSIZE; 0 = no file may be written (a bot's rule) */
    uint32_t nofile;      /* RLIMIT_NOFILE; 0 = 64 (a bot's) */
    uint32_t nproc;       /* RLIMIT_NPROC, processes of the jail's uid; 0 = none (the cgroup's
                             pids limit is the other layer) */
} ar_jail;

typedef struct ar_spawn_opts {
    const char *path;    /* absolute path of the program (ar_spawn_resolve) */
    char *const *argv;   /* argv[0], ..., NULL */
    char *const *envp;   /* NULL: the arena's own environment (mode off only: a jailed child
                            gets a fresh environment, see ar_spawn_env) */
    const char *cwd;     /* NULL: the arena's working directory */
    const ar_jail *jail; /* NULL: mode off */
} ar_spawn_opts;

/* A running child. The arena owns the fds (all O_CLOEXEC and O_NONBLOCK); the child is
 * the leader of its own process group, pgid == pid. In the namespaced modes the child is our
 * small init (pid 1 of a new pid namespace) and the program runs as its child, pid 2. */
typedef struct ar_proc {
    pid_t pid;      /* > 0: our child (the init when jailed) */
    pid_t prog_pid; /* the program, as the arena sees it (== pid when not jailed; 0 unknown) */
    int in_fd;      /* write end of the child's stdin */
    int out_fd;     /* read end of the child's stdout */
    int err_fd;     /* read end of the child's stderr */
    int status_fd;  /* jailed: the init writes the program's raw wait status (an int) here
                       before it exits; -1 when not jailed */
    double exec_ms; /* spawn to the program's execve, ms */
} ar_proc;

/* The steps of the child, in order; a failure report names one of them. */
enum {
    AR_STEP_SIGNALS = 1, /* reset signal dispositions */
    AR_STEP_SETPGID,     /* own process group */
    AR_STEP_PDEATHSIG,   /* die with the arena */
    AR_STEP_PARENT,      /* the arena died before PDEATHSIG was armed */
    AR_STEP_FDS,         /* stdin/stdout/stderr onto the pipes */
    AR_STEP_CHDIR,
    AR_STEP_RLIMIT, /* core dumps off, memory, files, CPU */
    AR_STEP_SIGMASK,
    AR_STEP_EXEC,
    /* the jail */
    AR_STEP_CLONE,    /* creating the namespaces (reported by the parent) */
    AR_STEP_CGROUP,   /* moving the child into its cgroup (reported by the parent) */
    AR_STEP_IDMAP,    /* writing uid_map / gid_map (reported by the parent) */
    AR_STEP_SYNC,     /* waiting for the arena's go */
    AR_STEP_SETUID,   /* credentials inside the user namespace */
    AR_STEP_SETSID,   /* new session */
    AR_STEP_MOUNT,    /* making the mounts private, the tmpfs root */
    AR_STEP_BIND,     /* a read-only bind of a folder or file */
    AR_STEP_PROC,     /* a fresh /proc */
    AR_STEP_HOSTNAME, /* hostname "arena" */
    AR_STEP_PIVOT,    /* pivot_root into the new root */
    AR_STEP_FORK,     /* the init forking the program */
    AR_STEP_CAPS,     /* dropping capabilities */
    AR_STEP_NNP,      /* no_new_privs */
    AR_STEP_SECCOMP,  /* loading the filter */
    AR_STEP_DUMPABLE, /* the init made not dumpable (hidden from the bot) */
    AR_STEP_LANDLOCK  /* the Landlock scope (shared network namespace) */
};

/* Name of a step ("exec", "chdir", ...), "?" for an unknown one. */
const char *ar_spawn_step_name(int step);

/* Once per process, before the first ar_spawn_start: make the arena a child subreaper
 * (PR_SET_CHILD_SUBREAPER), so that a bot's descendants that leave their process group
 * become our children and can be found and killed (ar_spawn_kill_adopted). Returns 0 or
 * -errno (the arena works without it). */
int ar_spawn_init(void);

/* Once per process, before the first jailed start (and before any worker is forked, which
 * inherits it): move the arena itself into a new, empty network namespace that its jails then
 * share, instead of creating one per jail (0.35 ms of every start, the largest single cost).
 * Done only where it keeps two layers between bots: where Landlock can scope abstract unix
 * sockets and signals (ABI 6), which every jailed program then gets before its filter; the
 * first layer is the filter's refusal of socket(). As root: unshare(CLONE_NEWNET); otherwise
 * the arena first enters a user namespace of its own that maps its uid and gid to themselves
 * (tried in a throwaway child first). The namespace has no interface up, not even loopback, and
 * no jail may configure it (it belongs to the arena's user namespace). The arena needs no
 * network of its own. Returns 1 if shared (why: "one empty network namespace for the arena,
 * bots Landlock-scoped"), 0 if each jail keeps its own (why says why), never an error. */
int ar_spawn_share_netns(char *why, size_t cap);

/* A worker process: a fork of this program WITHOUT exec that runs fn(arg) (the tournament's
 * one-set players; it may allocate, run a libevent loop, spawn bots) and exits with _exit(0)
 * if fn returns. Before fn: it dies with us (PR_SET_PDEATHSIG SIGKILL, armed before checking
 * that we still exist), SIGINT, SIGTERM and SIGCHLD back to their defaults, no signal blocked,
 * and no fd of ours but 0, 1, 2 and keep_fd, which becomes fd 3 (close-on-exec, so the bots
 * it spawns do not hold it; -1: none). stdout and stderr are flushed first, so buffered text
 * is not written twice. Returns the pid, or -errno. */
pid_t ar_spawn_worker(void (*fn)(void *arg), void *arg, int keep_fd);

/* Fork and exec a child with its stdin, stdout and stderr on fresh pipes. The signal mask is
 * fully blocked across fork() and restored afterwards. Returns 0 with *p filled, or -errno:
 * for a failure in the parent (pipe2, fork) with err = "pipe2: ...", for a failure in the
 * child (which has then been reaped) with err = "spawn failed at exec: No such file or
 * directory" and the child's errno. err may be NULL. */
int ar_spawn_start(const ar_spawn_opts *o, ar_proc *p, char *err, size_t errcap);

/* Jailed children: the program's raw wait status, read from p->status_fd once the init has
 * been reaped (it writes before it exits). Returns 1 with *status set, 0 if the init died
 * without one (killed by us). Closes and clears p->status_fd. */
int ar_spawn_prog_status(ar_proc *p, int *status);

/* ---- The jail's view ------------------------------------------------------------------- */

/* PATH inside the jail; a bot command without a '/' is looked up there (not in the arena's
 * PATH) when the bot is sandboxed, because only the system's folders exist in the jail. */
#define AR_JAIL_PATH "/usr/local/bin:/usr/bin:/bin"

/* The host uid and gid of a jailed program when the arena runs as root (nobody). */
#define AR_JAIL_NOBODY 65534

/* What the jail shows one bot besides the system's folders (docs/sandbox.md, "What a bot
 * sees"). The rule does not depend on the arena's current folder: the program file and every
 * argument that names an existing regular file (its scripts, its jar) as files alone, never
 * their folders; the folders and files the entrant declares as its own (`files =`, --files);
 * for interpreted bots (`runtime`) the SDK folders of this checkout and of the OKBOT_* variables,
 * and the install prefix of a runtime kept outside the system folders (/opt/python for
 * /opt/python/bin/python3); every --bind. A folder named on the command line is never shown.
 * Nothing in `hide` is ever shown: a shown path that holds a hidden one or lies inside one
 * refuses the whole view (a runtime prefix is dropped instead), and so does a folder that is
 * "/" or holds a home folder. The caller knows what the hidden paths are
 * (the tournament file, the output folder, the other entrants' files); the jail only compares
 * real paths (symlinks and ".." resolved, a path that does not exist yet by its existing head). */
enum { AR_SHOW_PROGRAM, AR_SHOW_SCRIPT, AR_SHOW_OWN, AR_SHOW_BIND, AR_SHOW_SDK, AR_SHOW_RUNTIME };
typedef struct ar_jail_view {
    const char *path;   /* the program, absolute */
    char *const *argv;  /* its command line */
    const char *cwd;    /* the bot's working folder, for relative words; NULL: the arena's */
    char *const *own;   /* declared folders and files (relative ones against cwd) */
    char *const *extra; /* --bind, shown to every bot */
    int runtime;        /* an interpreted bot: the SDKs and a runtime's prefix */
    char *const *hide;  /* never shown (absolute or against the arena's folder) */
    int deep;           /* also compare what the paths are, not only their names (the check
                           at a run's start, not every bot's start): a shown path that is a
                           hidden one or a folder above it (device and inode: a bind mount, a
                           hard link), a shown folder that holds a mount point, or a file in it
                           that is the same file as a hidden one (or one in a hidden folder)
                           refuses the view; folders are listed (not stat'ed), each once until
                           ar_spawn_view_forget */
} ar_jail_view;
/* Why a view was refused, `why`:
 * - AR_CLASH_PATH: hide[hide] (-1: the folder is "/" or holds a home) would be shown through
 *   `shown`, the bot's AR_SHOW_* `kind`, as the paths go;
 * - AR_CLASH_SAME: `shown` is the same file or folder (device and inode: a hard link or a
 *   bind mount) as `same`, which is hide[hide] or a folder above it (deep only);
 * - AR_CLASH_MOUNT: the folder `shown` holds the mount point `inside` (deep only; hide -1);
 * - AR_CLASH_LINK: the folder `shown` holds `inside`, the same file as `same`, which is
 *   hide[hide] or inside it (deep only). */
enum { AR_CLASH_PATH, AR_CLASH_SAME, AR_CLASH_MOUNT, AR_CLASH_LINK };
typedef struct ar_jail_clash {
    int why;
    int hide;
    int kind;
    char shown[4096];
    char inside[4096];
    char same[4096];
} ar_jail_clash;
/* The binds: absolute, sorted, without duplicates or entries inside another one or inside the
 * system folders; a NULL-terminated malloc'ed array (ar_spawn_argv_free). NULL when refused
 * (*clash says why, if not NULL). Parent only. */
char **ar_spawn_jail_view(const ar_jail_view *v, ar_jail_clash *clash);
/* The paths an entrant owns (program outside the system folders, scripts, declared ones), for
 * the other entrants' hide lists. Never NULL. */
char **ar_spawn_jail_own(const ar_jail_view *v);
/* Forget the folders the deep checks listed (each is listed once until then, for the checks of
 * every entrant at a run's start); call it after them. */
void ar_spawn_view_forget(void);
/* "program" "script" "declared folder" "--bind folder" "SDK folder" "runtime folder" */
const char *ar_spawn_show_kind(int kind);

/* "NAME=value" strings for jailed bots (free with ar_spawn_argv_free): the SDK variables
 * (OKBOT_PB2_DIR, OKBOT_NODE_MODULES, OKBOT_PROTO) as set in the arena's environment or found
 * in this build, and PYTHONPATH and NODE_PATH naming this checkout's SDKs, so that `import
 * okbot` and `require('okbot')` work without a path of the bot's own. */
char **ar_spawn_jail_sdk_env(void);

/* Is path a Go program (its build id note in the first 64 KiB)? Go reserves far more address
 * space than it uses, so it gets no RLIMIT_AS. (Programs built with a sanitizer get neither
 * RLIMIT_AS nor RLIMIT_DATA, for the same reason.) */
int ar_spawn_is_go(const char *path);

/* Is path built with a sanitizer (AddressSanitizer, TSan, MSan, HWASan): does its first 256 KiB
 * name the runtime's init function (__asan_init, ...) as a whole string? */
int ar_spawn_is_sanitized(const char *path);

/* SIGKILL the child's whole process group (and the pid itself, in case it left the group).
 * Safe to call more than once; ESRCH is not an error. */
void ar_spawn_kill(pid_t pid);

/* Stop (frozen 1) or resume (0) the child's whole tree, so that a bot runs only while it
 * decides (docs/sandbox.md, "Bots run only while they decide"): SIGSTOP / SIGCONT to the
 * program prog_pid when it is not the child itself (jailed: the program cannot fork, so it and
 * its threads are all that may run; the init, its parent, sleeps through it); else, with cg
 * (the child's cgroup), the cgroup v2 freezer where it has a v2 directory (every task of the
 * tree); else to the child's process group and the child (a plain child). Both take effect
 * within microseconds, both let SIGKILL through. Returns AR_FREEZE_CGROUP or
 * AR_FREEZE_SIGNALS (how), or -ESRCH when there is no such process. In the arena's
 * environment, OKR_FREEZE_CGROUP=1 uses the freezer for a jailed program too, and
 * OKR_FREEZE_SIGNALS=1 never uses it (for the tests and benchmarks of each path). */
enum { AR_FREEZE_CGROUP = 1, AR_FREEZE_SIGNALS = 2 };
int ar_spawn_freeze(pid_t pid, pid_t prog_pid, struct ar_cgroup *cg, int frozen);

/* Kill every process that is our child but not one of keep[0..nkeep) nor the spared one
 * (ar_spawn_spare): descendants of bots that were re-parented to us as their subreaper. Reads
 * /proc; returns how many it killed (0 when /proc is unreadable). They are reaped by the
 * caller's usual waitpid loop. */
int ar_spawn_kill_adopted(const pid_t *keep, int nkeep);

/* One child of ours that is neither a bot nor a bot's orphan, and outlives the match run in
 * this process: the live server (arena/live, a worker started by the arena itself before the
 * run). ar_spawn_kill_adopted leaves it alone and ar_spawn_children does not count it. 0: none.
 * A worker forked later forgets it (it is not the worker's child). */
void ar_spawn_spare(pid_t pid);
/* The caller reaped pid (a waitpid(-1) loop may reap the spared child too): if it was the
 * spared one, forget it, so that a later process with the same pid is not spared. */
void ar_spawn_reaped(pid_t pid);
/* How many children we have, alive or not reaped yet, besides the spared one (a /proc scan; 1
 * when /proc is unreadable, as there may be some). */
int ar_spawn_children(void);

/* CPU time (user + system, all threads) of a live process, in milliseconds, from its CPU-time
 * clock (clock_getcpuclockid), else from /proc/PID/stat (which adds reaped children, at clock
 * tick resolution); -1 if neither can be read. */
double ar_spawn_cpu_ms(pid_t pid);

#endif
