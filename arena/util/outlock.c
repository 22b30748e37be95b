/* outlock.c - one arena per output folder (outlock.h). */
#include "outlock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "util.h"

/* The pid that holds an flock on (dev, ino), from /proc/locks ("1: FLOCK ADVISORY WRITE 1234
 * fd:01:5678 0 EOF"; a waiter's line has "->"); 0 if none is found. */
static long lock_holder(dev_t dev, ino_t ino)
{
    FILE *f = fopen("/proc/locks", "re");
    if (!f)
        return 0;
    char line[512];
    long found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        char kind[16], mode[16];
        long pid;
        unsigned maj, min;
        unsigned long long in;
        if (strstr(line, "->") || sscanf(line, "%*s %15s %*s %15s %ld %x:%x:%llu", kind, mode, &pid,
                                         &maj, &min, &in) != 6)
            continue;
        if (strcmp(kind, "FLOCK") == 0 && maj == major(dev) && min == minor(dev) &&
            in == (unsigned long long)ino && pid > 0)
            found = pid;
    }
    fclose(f);
    return found;
}

/* "pid N (its command line)", the words joined by spaces, cut to fit. */
static void name_process(long pid, char *who, size_t cap)
{
    char path[64], cmd[512];
    snprintf(path, sizeof path, "/proc/%ld/cmdline", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n = fd >= 0 ? read(fd, cmd, sizeof cmd - 1) : -1;
    if (fd >= 0)
        close(fd);
    if (n <= 0) {
        snprintf(who, cap, "pid %ld", pid);
        return;
    }
    while (n > 0 && cmd[n - 1] == '\0')
        n--;
    for (ssize_t i = 0; i < n; i++)
        if (cmd[i] == '\0')
            cmd[i] = ' ';
    cmd[n] = '\0';
    char clean[512];
    ar_sanitize(cmd, (size_t)n, clean, sizeof clean);
    snprintf(who, cap, "pid %ld (%s)", pid, clean);
}

int ar_outlock_take(const char *dir, char *who, size_t cap)
{
    if (cap)
        who[0] = '\0';
    int rc = ar_mkdir_p(dir);
    if (rc < 0)
        return rc;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    if (flock(fd, LOCK_EX | LOCK_NB) == 0)
        return fd;
    int e = errno;
    if (e == EWOULDBLOCK && cap) {
        struct stat st;
        long pid = fstat(fd, &st) == 0 ? lock_holder(st.st_dev, st.st_ino) : 0;
        if (pid > 0)
            name_process(pid, who, cap);
        else
            snprintf(who, cap, "another process");
    }
    close(fd);
    return -e;
}

int ar_outlock(const char *dir, const char *flag)
{
    char who[600];
    int fd = ar_outlock_take(dir, who, sizeof who);
    if (fd >= 0)
        return fd;
    if (fd == -EWOULDBLOCK) {
        fprintf(stderr,
                "arena: %s %s is in use by %s: one arena per output folder; wait for it to end "
                "(or stop it), or give another %s\n",
                flag, dir, who, flag);
        return -1;
    }
    fprintf(stderr,
            "arena: warning: %s %s: cannot lock it (%s): nothing stops another arena from "
            "writing into it at the same time\n",
            flag, dir, strerror(-fd));
    return -2;
}
