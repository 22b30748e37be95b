/* seccomp.c - placeholder (being written): see seccomp.h. */
#include "seccomp.h"

#include <errno.h>
#include <stdlib.h>

int ar_seccomp_build(const char *profile, ar_bpf *out, char *err, size_t errcap)
{
    (void)profile, (void)err, (void)errcap;
    out->filter = NULL;
    out->len = 0;
    return -ENOSYS;
}
void ar_bpf_free(ar_bpf *p)
{
    if (p) {
        free(p->filter);
        p->filter = NULL;
        p->len = 0;
    }
}
int ar_seccomp_install(const ar_bpf *p)
{
    (void)p;
    return -ENOSYS;
}
const char *ar_seccomp_profiles(void)
{
    return "native interpreted";
}
const char *ar_seccomp_auto(const char *path)
{
    (void)path;
    return "native";
}
const char *ar_syscall_name(long nr)
{
    (void)nr;
    return NULL;
}
long ar_seccomp_killer(pid_t pid)
{
    (void)pid;
    return -1;
}
