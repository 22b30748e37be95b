/* seccomp.h - the system-call policy of a bot: allow-list profiles kept as data tables,
 * compiled to classic BPF in the PARENT (libseccomp allocates, so it must never run in the
 * child after fork) and installed in the child with one raw seccomp(2) call just before
 * execve. Default action and bad-architecture action are both KILL_PROCESS (a forbidden call
 * kills the whole bot, never one thread); threads are allowed, new processes are not; a few
 * calls get an errno instead (socket/connect EACCES, file writes EACCES, clone3 ENOSYS, ...)
 * so runtimes degrade cleanly. docs/sandbox.md lists the profiles and how to add one. */
#ifndef AR_SECCOMP_H
#define AR_SECCOMP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* A compiled filter: struct sock_filter[len] in filter (malloc'ed). */
typedef struct ar_bpf {
    void *filter;
    unsigned short len;
} ar_bpf;

/* Compile the profile `profile` ("native", "interpreted", see ar_seccomp_profiles) for the
 * native architecture. Parent only (allocates). Returns 0 with *out filled (free it with
 * ar_bpf_free), -EINVAL for an unknown profile, or -errno when libseccomp refuses a rule;
 * err says which (if errcap > 0). */
int ar_seccomp_build(const char *profile, ar_bpf *out, char *err, size_t errcap);
void ar_bpf_free(ar_bpf *p); /* accepts NULL and an already freed filter */

/* In the child, after PR_SET_NO_NEW_PRIVS (or as root) and after everything else, right
 * before execve: load the filter with the raw seccomp(2) system call. Async-signal-safe (no
 * allocation, no locks). Adds SECCOMP_FILTER_FLAG_LOG when the kernel accepts it, so kills
 * are written to the kernel log that ar_seccomp_killer reads. Returns 0 or -errno. */
int ar_seccomp_install(const ar_bpf *p);

/* The profile names, space separated ("native interpreted"), for usage messages. */
const char *ar_seccomp_profiles(void);

/* The profile for a program: "interpreted" for python*, node*, java*, ruby*, perl*, ...
 * (by basename, after resolving symlinks, so /usr/bin/python3 -> python3.11 works);
 * "native" otherwise. Parent only. Never NULL. */
const char *ar_seccomp_auto(const char *path);

/* Name of a system call of the native architecture ("ptrace"), or NULL if unknown. Parent
 * only: libseccomp allocates the answer (this function caches it in a static table). */
const char *ar_syscall_name(long nr);

/* Find the system call that got pid killed (SIGSYS): reads the kernel's audit line
 * "type=1326 ... pid=P ... syscall=N" from /dev/kmsg when readable (root); the newest such
 * line for pid wins. Only lines stamped at or after since_ms (CLOCK_MONOTONIC milliseconds,
 * e.g. when the process was started; 0: any) count: pids are reused, and when the kernel's
 * rate limit drops this kill's line, an old line of another process that had the same pid
 * must not name it. Non-blocking and bounded (reads at most the kernel's ring buffer and
 * stops after ~100 ms). Returns the number, or -1 (unreadable, or no such line). */
long ar_seccomp_killer(pid_t pid, double since_ms);

/* As ar_seccomp_killer, and the audit line's architecture (AUDIT_ARCH_*, the same values as
 * libseccomp's SCMP_ARCH_*: 0xc000003e x86_64, 0x40000003 i386) in *arch (0 if none). A
 * number only means a call of that architecture: i386's 20 (getpid) is x86_64's writev. */
long ar_seccomp_killer_arch(pid_t pid, double since_ms, uint32_t *arch);

/* Describe the killing call for a verdict: "syscall ptrace" (native), "32-bit (i386) syscall
 * 20 (getpid)", "x32 syscall 39", "syscall 77 of architecture c00000b7". Parent only. Returns
 * snprintf's count. */
int ar_seccomp_describe(long nr, uint32_t arch, char *out, size_t cap);

#endif
