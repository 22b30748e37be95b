/* spawn.h - start a bot as a child process. spawn.c is the ONLY file of the arena that forks,
 * execs or calls prctl/setrlimit (docs: aesthetics B6). Everything that can allocate or fail
 * slowly happens in the parent before fork(); the child makes async-signal-safe calls only
 * and reports a failure over a CLOEXEC pipe as {step, errno}. */
#ifndef AR_SPAWN_H
#define AR_SPAWN_H

#include <stddef.h>
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

/* ---- Processes ------------------------------------------------------------------------- */

typedef struct ar_spawn_opts {
    const char *path;  /* absolute path of the program (ar_spawn_resolve) */
    char *const *argv; /* argv[0], ..., NULL */
    char *const *envp; /* NULL: the arena's own environment */
    const char *cwd;   /* NULL: the arena's working directory */
} ar_spawn_opts;

/* A running child. The arena owns the three fds (all O_CLOEXEC and O_NONBLOCK); the child is
 * the leader of its own process group, pgid == pid. */
typedef struct ar_proc {
    pid_t pid;  /* > 0 */
    int in_fd;  /* write end of the child's stdin */
    int out_fd; /* read end of the child's stdout */
    int err_fd; /* read end of the child's stderr */
} ar_proc;

/* The steps of the child, in order; a failure report names one of them. */
enum {
    AR_STEP_SIGNALS = 1, /* reset signal dispositions */
    AR_STEP_SETPGID,     /* own process group */
    AR_STEP_PDEATHSIG,   /* die with the arena */
    AR_STEP_PARENT,      /* the arena died before PDEATHSIG was armed */
    AR_STEP_FDS,         /* stdin/stdout/stderr onto the pipes */
    AR_STEP_CHDIR,
    AR_STEP_RLIMIT, /* core dumps off */
    AR_STEP_SIGMASK,
    AR_STEP_EXEC
};

/* Name of a step ("exec", "chdir", ...), "?" for an unknown one. */
const char *ar_spawn_step_name(int step);

/* Once per process, before the first ar_spawn_start: make the arena a child subreaper
 * (PR_SET_CHILD_SUBREAPER), so that a bot's descendants that leave their process group
 * become our children and can be found and killed (ar_spawn_kill_adopted). Returns 0 or
 * -errno (the arena works without it). */
int ar_spawn_init(void);

/* Fork and exec a child with its stdin, stdout and stderr on fresh pipes. The signal mask is
 * fully blocked across fork() and restored afterwards. Returns 0 with *p filled, or -errno:
 * for a failure in the parent (pipe2, fork) with err = "pipe2: ...", for a failure in the
 * child (which has then been reaped) with err = "spawn failed at exec: No such file or
 * directory" and the child's errno. err may be NULL. */
int ar_spawn_start(const ar_spawn_opts *o, ar_proc *p, char *err, size_t errcap);

/* SIGKILL the child's whole process group (and the pid itself, in case it left the group).
 * Safe to call more than once; ESRCH is not an error. */
void ar_spawn_kill(pid_t pid);

/* Kill every process that is our child but not one of keep[0..nkeep): descendants of bots
 * that were re-parented to us as their subreaper. Reads /proc; returns how many it killed
 * (0 when /proc is unreadable). They are reaped by the caller's usual waitpid loop. */
int ar_spawn_kill_adopted(const pid_t *keep, int nkeep);

/* CPU time (user + system, all threads) of a live process, in milliseconds, from its CPU-time
 * clock (clock_getcpuclockid), else from /proc/PID/stat (which adds reaped children, at clock
 * tick resolution); -1 if neither can be read. */
double ar_spawn_cpu_ms(pid_t pid);

#endif
