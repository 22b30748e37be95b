/* probe_bot.c - a dead-simple C probe for tests/jail/jail.sh: it does not speak the protocol;
 * it writes what it sees of its world to stderr (the arena keeps that in DIR/logs), one fact a
 * line as "probe KEY VALUE", then exits 0 (so the arena judges it RE before Ready).
 *   probe_bot [TAG]      TAG only makes its command line unique for pgrep */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

static void fact(const char *key, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fact(const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "probe %s ", key);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static const char *err_name(int rc, int e)
{
    return rc >= 0 ? "ok" : strerrorname_np(e);
}

int main(void)
{
    fact("pid", "%d", (int)getpid());
    fact("ppid", "%d", (int)getppid());
    fact("uid", "%d", (int)getuid());
    char host[256] = "";
    gethostname(host, sizeof host);
    fact("hostname", "%s", host);
    char ns[64] = "";
    ssize_t nsn = readlink("/proc/self/ns/net", ns, sizeof ns - 1);
    fact("netns", "%s", nsn > 0 ? ns : "unknown");

    /* open fds */
    char fds[512] = "";
    DIR *d = opendir("/proc/self/fd");
    int dfd = d ? dirfd(d) : -1;
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.' && atoi(e->d_name) != dfd)
            snprintf(fds + strlen(fds), sizeof fds - strlen(fds), "%s%s", fds[0] ? "," : "",
                     e->d_name);
    if (d)
        closedir(d);
    fact("fds", "%s", fds);

    /* processes visible */
    int procs = 0;
    d = opendir("/proc");
    while (d && (e = readdir(d)))
        if (e->d_name[0] >= '1' && e->d_name[0] <= '9')
            procs++;
    if (d)
        closedir(d);
    fact("procs", "%d", procs);

    for (char **v = environ; *v; v++)
        fact("env", "%s", *v);

    /* /tmp: absent, or (when the bot itself lives under /tmp) only the path to its folder */
    struct stat st;
    int rc = stat("/tmp", &st);
    if (rc < 0) {
        fact("tmp", "%s", err_name(rc, errno));
    } else {
        char names[512] = "";
        size_t used = 0;
        DIR *t = opendir("/tmp");
        struct dirent *te;
        while (t && (te = readdir(t)))
            if (strcmp(te->d_name, ".") != 0 && strcmp(te->d_name, "..") != 0 &&
                used + strlen(te->d_name) + 2 < sizeof names)
                used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", used ? "," : "",
                                         te->d_name);
        if (t)
            closedir(t);
        fact("tmp", "[%s]", names);
    }
    rc = stat("/etc/shadow", &st);
    fact("shadow", "%s", err_name(rc, errno));
    rc = stat("/sys/kernel", &st);
    fact("sys", "%s", err_name(rc, errno));
    rc = stat("/dev/shm", &st);
    fact("devshm", "%s", err_name(rc, errno));
    rc = open("/probe-was-here", O_WRONLY | O_CREAT, 0644);
    fact("write_root", "%s", err_name(rc, errno));
    char self[4096] = "";
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = '\0';
        char *slash = strrchr(self, '/');
        if (slash)
            strcpy(slash + 1, "probe-was-here");
        rc = open(self, O_WRONLY | O_CREAT, 0644);
        fact("write_own_dir", "%s", err_name(rc, errno));
    }
    rc = open("/dev/null", O_WRONLY);
    fact("devnull", "%s", err_name(rc, errno));
    rc = socket(AF_INET, SOCK_STREAM, 0);
    fact("socket", "%s", err_name(rc, errno));
    fact("done", "1");
    return 0;
}
