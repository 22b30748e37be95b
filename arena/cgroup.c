/* cgroup.c - placeholder (being written): see cgroup.h. */
#include "cgroup.h"

#include <errno.h>
#include <stdio.h>

int ar_cgroup_available(char *why, size_t cap)
{
    if (cap)
        snprintf(why, cap, "not implemented yet");
    return 0;
}
ar_cgroup *ar_cgroup_new(const char *name, uint64_t mem_bytes, int pids_max, char *err,
                         size_t errcap)
{
    (void)name, (void)mem_bytes, (void)pids_max;
    if (errcap)
        snprintf(err, errcap, "not implemented yet");
    return NULL;
}
int ar_cgroup_dirfd(const ar_cgroup *c)
{
    (void)c;
    return -1;
}
int ar_cgroup_attach(ar_cgroup *c, pid_t pid)
{
    (void)c, (void)pid;
    return -ENOSYS;
}
double ar_cgroup_cpu_ms(const ar_cgroup *c)
{
    (void)c;
    return -1;
}
int ar_cgroup_oom_kills(const ar_cgroup *c)
{
    (void)c;
    return -1;
}
uint64_t ar_cgroup_mem_peak(const ar_cgroup *c)
{
    (void)c;
    return 0;
}
int ar_cgroup_pids(const ar_cgroup *c)
{
    (void)c;
    return -1;
}
int ar_cgroup_kill(ar_cgroup *c)
{
    (void)c;
    return -ENOSYS;
}
void ar_cgroup_free(ar_cgroup *c)
{
    (void)c;
}
int ar_cgroup_sweep(void)
{
    return 0;
}
