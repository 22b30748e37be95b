/* spy_bot.c - a native bot that looks for what it should not see, for tests/jail/view.sh: it
 * walks the whole file system it is shown (but the system folders and /proc, /sys, /dev) and
 * writes to stderr (the arena keeps it in logs/) "spy SEE PATH" for every entry, "spy READ
 * PATH" for every regular file it could read, "spy CWD PATH" for its working folder, and "spy
 * READ PATH" / "spy MISS PATH" for each --probe=PATH argument (a path it is told about). It does
 * not speak the protocol: it exits 0 and the arena judges it RE before Ready.
 *   spy_bot [--probe=PATH]... */
#define _GNU_SOURCE
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *const skip[] = {"/usr",  "/lib",  "/lib32", "/lib64", "/libx32", "/bin",
                                   "/sbin", "/proc", "/sys",   "/dev",   "/etc",    NULL};

static void try_read(const char *p)
{
    char buf[64];
    int fd = open(p, O_RDONLY | O_CLOEXEC);
    if (fd >= 0 && read(fd, buf, sizeof buf) >= 0)
        fprintf(stderr, "spy READ %s\n", p);
    else
        fprintf(stderr, "spy MISS %s\n", p);
    if (fd >= 0)
        close(fd);
}

static int visit(const char *p, const struct stat *st, int flag, struct FTW *f)
{
    (void)st;
    (void)f;
    for (int i = 0; skip[i]; i++)
        if (strcmp(p, skip[i]) == 0)
            return FTW_SKIP_SUBTREE;
    fprintf(stderr, "spy SEE %s\n", p);
    if (flag == FTW_F)
        try_read(p);
    return FTW_CONTINUE;
}

int main(int argc, char **argv)
{
    char cwd[4096];
    fprintf(stderr, "spy CWD %s\n", getcwd(cwd, sizeof cwd) ? cwd : "?");
    nftw("/", visit, 32, FTW_PHYS | FTW_ACTIONRETVAL);
    for (int i = 1; i < argc; i++)
        if (strncmp(argv[i], "--probe=", 8) == 0)
            try_read(argv[i] + 8);
    fprintf(stderr, "spy DONE\n");
    return 0;
}
