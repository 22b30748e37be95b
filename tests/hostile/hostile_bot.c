/* hostile_bot.c - a bot that speaks the protocol and does one bad thing, for the sandbox's
 * hostile suite (the scripts in tests/hostile; cases from the sandbox research, table (b)).
 *
 * Built once as build/tests/hostile/okhb (tests/hostile/CMakeLists.txt); the case is --mode,
 * and --tag puts a word unique to the test run on the command line, so that pgrep -f finds
 * this run's processes (and their children: the tag is in their command line too).
 *
 *   okhb --mode M [--tag TAG] [--arg X]...     (--arg @X: X, hidden from the arena)
 *
 * The bad thing happens at start (before Identify) or at the first Decision of the process's
 * life, as the case table below says. A case whose call can fail with an errno reports what it
 * saw on stderr, one line each, "HB <what>: <ERRNO or OK ...>", and then plays legally (a
 * random legal index), so that a test can check both "refused" and "the match went on".
 * Nothing here uses libc calls that a strict allow-list could kill by accident before the
 * bad thing: stderr lines are written with write(2), the parent pid is read from
 * /proc/self/stat (getppid is not in the native profile).
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/msg.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../helpers/frame_in.h"
#include "frame.h"
#include "okr.pb-c.h"

#ifndef HB_MODE
#define HB_MODE "good"
#endif

#ifndef AF_VSOCK
#define AF_VSOCK 40
#endif
#ifndef AF_ALG
#define AF_ALG 38
#endif
#ifndef O_TMPFILE
#define O_TMPFILE (020000000 | O_DIRECTORY)
#endif
#ifndef TIOCSTI
#define TIOCSTI 0x5412
#endif

static const char *mode = HB_MODE;
static const char *tag = "okhb";
static const char *args[16];
static int nargs;
static uint64_t rng_state;

/* ---- logging: one line per observation, straight to fd 2 ---------------------------------- */

static void say(const char *fmt, ...)
{
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line + 3, sizeof line - 4, fmt, ap);
    va_end(ap);
    memcpy(line, "HB ", 3);
    if (n < 0)
        n = 0;
    if (n > (int)sizeof line - 5)
        n = (int)sizeof line - 5;
    line[3 + n] = '\n';
    ssize_t w = write(2, line, (size_t)n + 4);
    (void)w;
}

/* "OK" or the errno's name ("EACCES") */
static const char *en(int e)
{
    if (e == 0)
        return "OK";
    const char *n = strerrorname_np(e);
    return n ? n : "E?";
}

/* say "<what>: OK" when r >= 0, else "<what>: <errno>"; returns r */
static long res(const char *what, long r)
{
    say("%s: %s", what, r < 0 ? en(errno) : "OK");
    return r;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
        ;
}

_Noreturn static void sleep_forever(void)
{
    for (;;)
        sleep_ms(1000000);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* the whole of a (small) file, NUL-terminated, or NULL with errno */
static char *slurp(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap + 1);
    for (;;) {
        if (n == cap) {
            char *nb = realloc(b, 2 * cap + 1);
            if (!nb)
                break;
            b = nb;
            cap *= 2;
        }
        ssize_t r = read(fd, b + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            int e = errno;
            if (r < 0 && n == 0) {
                close(fd);
                free(b);
                errno = e;
                return NULL;
            }
            break;
        }
        n += (size_t)r;
    }
    close(fd);
    b[n] = 0;
    if (len)
        *len = n;
    return b;
}

/* ---- the protocol ------------------------------------------------------------------------ */

static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n > 0) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            _exit(0); /* the arena is gone */
        c += w;
        n -= (size_t)w;
    }
}

static void send_msg(const Okrpb__FromBot *m)
{
    okrpb_buf b = {0};
    if (okrpb_frame_append(&b, &m->base) < 0)
        abort();
    write_all(1, b.data, b.len);
    okrpb_buf_free(&b);
}

static const char *identify_name(void);

static void send_identify(void)
{
    Okrpb__Identify id = OKRPB__IDENTIFY__INIT;
    id.major = 1;
    id.name = (char *)identify_name();
    id.version = "1.0";
    Okrpb__FromBot fb = OKRPB__FROM_BOT__INIT;
    fb.msg_case = OKRPB__FROM_BOT__MSG_IDENTIFY;
    fb.identify = &id;
    send_msg(&fb);
}

static void send_ready(void)
{
    Okrpb__Ready r = OKRPB__READY__INIT;
    Okrpb__FromBot fb = OKRPB__FROM_BOT__INIT;
    fb.msg_case = OKRPB__FROM_BOT__MSG_READY;
    fb.ready = &r;
    send_msg(&fb);
}

static void send_index(uint64_t id, uint32_t index)
{
    Okrpb__Choice c = OKRPB__CHOICE__INIT;
    c.id = id;
    c.pick_case = OKRPB__CHOICE__PICK_INDEX;
    c.index = index;
    Okrpb__FromBot fb = OKRPB__FROM_BOT__INIT;
    fb.msg_case = OKRPB__FROM_BOT__MSG_CHOICE;
    fb.choice = &c;
    send_msg(&fb);
}

/* ---- network (table (b) 1-4) --------------------------------------------------------------- */

static void try_connect(const char *what, int fd, const char *ip, int port)
{
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, ip, &a.sin_addr);
    char w[128];
    snprintf(w, sizeof w, "%s connect %s:%d", what, ip, port);
    res(w, connect(fd, (struct sockaddr *)&a, sizeof a));
}

static int arg_port(void)
{
    return nargs > 0 ? atoi(args[0]) : 9;
}

static void c_net_tcp(void)
{
    int fd = (int)res("socket(AF_INET,SOCK_STREAM)", socket(AF_INET, SOCK_STREAM, 0));
    if (fd >= 0) {
        try_connect("tcp", fd, "1.1.1.1", 80);
        close(fd);
    }
    fd = (int)res("socket(AF_INET,SOCK_STREAM) loopback", socket(AF_INET, SOCK_STREAM, 0));
    if (fd >= 0) {
        try_connect("tcp", fd, "127.0.0.1", arg_port());
        close(fd);
    }
    fd = (int)res("socket(AF_INET6,SOCK_STREAM)", socket(AF_INET6, SOCK_STREAM, 0));
    if (fd >= 0)
        close(fd);
}

static void c_net_udp(void)
{
    int fd = (int)res("socket(AF_INET,SOCK_DGRAM)", socket(AF_INET, SOCK_DGRAM, 0));
    if (fd >= 0) {
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(53)};
        inet_pton(AF_INET, "8.8.8.8", &a.sin_addr);
        res("udp sendto 8.8.8.8:53", sendto(fd, "x", 1, 0, (struct sockaddr *)&a, sizeof a));
        close(fd);
    }
    double t0 = now_ms();
    struct addrinfo *ai = NULL;
    int r = getaddrinfo("example.com", "80", NULL, &ai);
    say("getaddrinfo example.com: %s in %.0f ms", r == 0 ? "OK" : "FAILED", now_ms() - t0);
    if (ai)
        freeaddrinfo(ai);
}

static void c_net_unix(void)
{
    int fd = (int)res("socket(AF_UNIX,SOCK_STREAM)", socket(AF_UNIX, SOCK_STREAM, 0));
    if (fd >= 0) {
        struct sockaddr_un a = {.sun_family = AF_UNIX};
        const char *name = nargs > 0 ? args[0] : "okarena";
        size_t n = strlen(name);
        if (n > sizeof a.sun_path - 2)
            n = sizeof a.sun_path - 2;
        memcpy(a.sun_path + 1, name, n); /* abstract: leading NUL */
        res("unix connect @abstract",
            connect(fd, (struct sockaddr *)&a,
                    (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n)));
        close(fd);
    }
}

static void c_net_raw(void)
{
    /* the upper-32-bit trick: the kernel truncates the int, a 64-bit compare does not */
    long fd = res("socket((1<<32)|AF_VSOCK)",
                  syscall(SYS_socket, (1UL << 32) | AF_VSOCK, SOCK_STREAM, 0));
    if (fd >= 0)
        close((int)fd);
    fd = res("socket(AF_VSOCK)", syscall(SYS_socket, AF_VSOCK, SOCK_STREAM, 0));
    if (fd >= 0)
        close((int)fd);
    fd = res("socket(AF_NETLINK)", socket(AF_NETLINK, SOCK_RAW, 0));
    if (fd >= 0)
        close((int)fd);
    fd = res("socket(AF_ALG)", socket(AF_ALG, SOCK_SEQPACKET, 0));
    if (fd >= 0)
        close((int)fd);
    fd = res("socket(AF_PACKET)", socket(AF_PACKET, SOCK_RAW, 0));
    if (fd >= 0)
        close((int)fd);
}

/* ---- files (5-11) -------------------------------------------------------------------------- */

/* every --arg is a host path the bot must not be able to read */
static void c_fs_read(void)
{
    static const char *fixed[] = {
        "/etc/shadow", "/root",           "/home", "/var/log", "/proc/1/root/etc/shadow",
        "/proc/1/cwd", "/proc/1/root/tmp"};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed + (size_t)nargs; i++) {
        const char *p =
            i < sizeof fixed / sizeof *fixed ? fixed[i] : args[i - sizeof fixed / sizeof *fixed];
        char w[PATH_MAX + 16];
        int fd = open(p, O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            say("read %s: %s", p, en(errno));
            continue;
        }
        char b[64] = {0};
        ssize_t r = read(fd, b, sizeof b - 1);
        if (r < 0 && errno == EISDIR) {
            DIR *d = fdopendir(fd);
            int n = 0;
            while (d && readdir(d))
                n++;
            say("read %s: OK directory with %d entries", p, n);
            if (d)
                closedir(d);
            continue;
        }
        for (ssize_t k = 0; k < r; k++)
            if (b[k] < 32 || b[k] > 126)
                b[k] = '.';
        snprintf(w, sizeof w, "read %s", p);
        say("%s: %s %s", w, r < 0 ? en(errno) : "OK", r < 0 ? "" : b);
        close(fd);
    }
}

/* the folder of this program, from /proc/self/exe */
static void exe_dir(char *out, size_t cap)
{
    ssize_t n = readlink("/proc/self/exe", out, cap - 1);
    if (n < 0)
        n = 0;
    out[n] = 0;
    char *slash = strrchr(out, '/');
    if (slash)
        *slash = 0;
    if (!*out)
        snprintf(out, cap, ".");
}

static void c_fs_write(void)
{
    char dir[PATH_MAX];
    exe_dir(dir, sizeof dir);
    const char *dirs[] = {dir, ".", "/", "/tmp", "/dev/shm", "/var/tmp", "/dev", "/proc/self"};
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs + (size_t)nargs; i++) {
        const char *d =
            i < sizeof dirs / sizeof *dirs ? dirs[i] : args[i - sizeof dirs / sizeof *dirs];
        char p[PATH_MAX + 64], w[PATH_MAX + 96];
        snprintf(p, sizeof p, "%s/%s-w", d, tag);
        int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        snprintf(w, sizeof w, "create %s", i == 0 ? "<exe dir>" : d);
        say("%s: %s", w, fd < 0 ? en(errno) : "OK");
        if (fd >= 0) {
            ssize_t r = write(fd, "x", 1);
            (void)r;
            close(fd);
        }
        fd = open(d, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
        snprintf(w, sizeof w, "O_TMPFILE %s", i == 0 ? "<exe dir>" : d);
        say("%s: %s", w, fd < 0 ? en(errno) : "OK");
        if (fd >= 0)
            close(fd);
        snprintf(p, sizeof p, "%s/%s-d", d, tag);
        snprintf(w, sizeof w, "mkdir %s", i == 0 ? "<exe dir>" : d);
        res(w, mkdir(p, 0755));
    }
}

static void c_fs_bigfile(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_FSIZE, &rl) == 0)
        say("RLIMIT_FSIZE: %s", rl.rlim_cur == RLIM_INFINITY ? "unlimited"
                                : rl.rlim_cur == 0           ? "0"
                                                             : "limited");
    char dir[PATH_MAX];
    exe_dir(dir, sizeof dir);
    const char *dirs[] = {dir, ".", "/"};
    for (size_t i = 0; i < 3; i++) {
        char p[PATH_MAX + 64];
        snprintf(p, sizeof p, "%s/%s-big", dirs[i], tag);
        int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        say("big file in %s: %s", i == 0 ? "<exe dir>" : dirs[i], fd < 0 ? en(errno) : "OK");
        if (fd < 0)
            continue;
        static char chunk[1 << 20];
        long mb = 0;
        signal(SIGXFSZ, SIG_IGN);
        while (mb < 64 && write(fd, chunk, sizeof chunk) == (ssize_t)sizeof chunk)
            mb++;
        say("big file: wrote %ld MiB, then %s", mb, en(errno));
        close(fd);
    }
}

static void c_memfd(void)
{
    long fd = res("memfd_create", syscall(SYS_memfd_create, "hb", 0));
    if (fd < 0)
        return;
    static char chunk[1 << 20];
    memset(chunk, 'm', sizeof chunk);
    long mb = 0;
    while (mb < 1024 && write((int)fd, chunk, sizeof chunk) == (ssize_t)sizeof chunk)
        mb++;
    say("memfd: wrote %ld MiB, then %s", mb, en(errno));
}

static void c_paths(void)
{
    res("open \"\"", open("", O_RDONLY));
    res("open NULL", syscall(SYS_openat, AT_FDCWD, NULL, O_RDONLY));
    res("open bad utf-8", open("/\xff\xfe\xc0\x80%n%s", O_RDONLY));
    res("open %n%s%x", open("%n%s%x%n", O_RDONLY));
    static char longp[5200];
    memset(longp, 'a', sizeof longp - 1);
    longp[0] = '/';
    res("open 5 KiB path", open(longp, O_RDONLY));
    char comp[300];
    memset(comp, 'b', sizeof comp - 1);
    comp[0] = '/';
    comp[sizeof comp - 1] = 0;
    res("open 300-byte name", open(comp, O_RDONLY));
    char loop[1024] = "";
    for (int i = 0; i < 45; i++)
        strcat(loop, "/proc/self/root");
    strcat(loop, "/etc/hostname");
    res("open 45 magic links", open(loop, O_RDONLY));
    /* the log itself: control bytes, bad UTF-8, a format string, ANSI escapes */
    static const char junk[] = "junk: \x1b[2J\x1b]0;pwn\x07 %n%s%s \xff\xfe \"\\ \x00 end\n";
    write_all(2, junk, sizeof junk - 1);
}

static void c_procinfo(void)
{
    size_t n = 0;
    char *mi = slurp("/proc/self/mountinfo", &n);
    if (!mi) {
        say("mountinfo: %s", en(errno));
    } else {
        int lines = 0;
        for (size_t i = 0; i < n; i++)
            lines += mi[i] == '\n';
        say("mountinfo: OK %d lines", lines);
        for (int i = 0; i < nargs; i++)
            say("mountinfo mentions marker %d: %s", i, strstr(mi, args[i]) ? "yes" : "no");
        free(mi);
    }
    char *c = slurp("/proc/cpuinfo", &n);
    say("cpuinfo: %s", c ? "OK" : en(errno));
    free(c);
    c = slurp("/proc/uptime", &n);
    say("uptime: %s", c ? "OK" : en(errno));
    free(c);
    struct sysinfo si;
    res("sysinfo", sysinfo(&si));
    char *st = slurp("/proc/self/stat", NULL);
    if (st) {
        char *rp = strrchr(st, ')');
        int pid = atoi(st), ppid = -1;
        if (rp)
            sscanf(rp + 2, "%*c %d", &ppid);
        say("pid %d ppid %d", pid, ppid);
        free(st);
    }
    DIR *d = opendir("/proc");
    if (d) {
        char list[512] = "";
        struct dirent *e;
        int pids[64], np = 0;
        while ((e = readdir(d)) && np < 64)
            if (e->d_name[0] >= '0' && e->d_name[0] <= '9')
                pids[np++] = atoi(e->d_name);
        closedir(d);
        for (int i = 0; i < np; i++) /* sort, small */
            for (int j = i + 1; j < np; j++)
                if (pids[j] < pids[i]) {
                    int t = pids[i];
                    pids[i] = pids[j];
                    pids[j] = t;
                }
        for (int i = 0; i < np; i++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%d", i ? " " : "",
                     pids[i]);
        say("proc pids: %s", list);
    }
    /* pid 1: must not tell the arena's command line (seed, other bots, paths) */
    c = slurp("/proc/1/cmdline", &n);
    if (!c) {
        say("init cmdline: %s", en(errno));
    } else {
        for (size_t i = 0; i < n; i++)
            if (c[i] == 0)
                c[i] = ' ';
        if (n > 600)
            c[600] = 0;
        say("init cmdline: OK %s", c);
        free(c);
    }
    c = slurp("/proc/1/environ", &n);
    say("init environ: %s", c ? "OK" : en(errno));
    free(c);
}

static void c_tty(void)
{
    int fd = open("/dev/tty", O_RDWR | O_CLOEXEC);
    say("open /dev/tty: %s", fd < 0 ? en(errno) : "OK");
    char ch = 'x';
    res("ioctl(0,TIOCSTI)", ioctl(0, TIOCSTI, &ch));
    res("ioctl(2,TIOCSTI)", ioctl(2, TIOCSTI, &ch));
    res("ioctl(0,(1<<32)|TIOCSTI)", syscall(SYS_ioctl, 0, (1UL << 32) | TIOCSTI, &ch));
    if (fd >= 0)
        res("ioctl(tty,TIOCSTI)", ioctl(fd, TIOCSTI, &ch));
}

/* ---- processes (12-25) --------------------------------------------------------------------- */

static void c_fork_bomb(void)
{
    for (int i = 0; i < 100000; i++)
        if (fork() == 0)
            sleep_forever();
    say("fork bomb: survived");
}

static void *sleeper(void *p)
{
    (void)p;
    sleep_forever();
}

static void *sleeper_once(void *p)
{
    (void)p;
    sleep_ms(1);
    return NULL;
}

static void c_thread_bomb(void)
{
    int n = 0, e = 0;
    for (; n < 2000; n++) {
        pthread_t t;
        pthread_attr_t a;
        pthread_attr_init(&a);
        pthread_attr_setstacksize(&a, 64 * 1024);
        e = pthread_create(&t, &a, sleeper, NULL);
        pthread_attr_destroy(&a);
        if (e)
            break;
    }
    say("threads: %d created, then %s", n, e ? en(e) : "stopped at 2000");
}

static void c_daemonize(void)
{
    pid_t p = fork();
    if (p == 0) {
        setsid();
        if (fork() == 0) {
            close(0);
            close(1);
            sleep_forever();
        }
        _exit(0);
    }
    say("daemonize: fork %s", p < 0 ? en(errno) : "OK");
}

static void c_zombies(void)
{
    int n = 0;
    for (; n < 5; n++) {
        pid_t p = fork();
        if (p == 0)
            _exit(0);
        if (p < 0)
            break;
    }
    say("zombies: %d made", n);
}

static int read_ppid(void)
{
    char *st = slurp("/proc/self/stat", NULL);
    int ppid = -1;
    if (st) {
        char *rp = strrchr(st, ')');
        if (rp)
            sscanf(rp + 2, "%*c %d", &ppid);
        free(st);
    }
    return ppid;
}

static void c_kill_ppid(void)
{
    int ppid = read_ppid();
    say("ppid %d", ppid);
    res("kill(ppid,SIGKILL)", kill(ppid, SIGKILL));
}

static void c_kill_all(void)
{
    res("kill(-1,SIGKILL)", kill(-1, SIGKILL));
}

static void c_kill_pg(void)
{
    res("kill(0,SIGTERM)", kill(0, SIGTERM));
}

/* tgkill is allowed (raise needs it): aim it at pid 1 and at a host pid */
static void c_tgkill(void)
{
    res("tgkill(1,SIGTERM)", syscall(SYS_tgkill, 1, 1, SIGTERM));
    res("tgkill(1,SIGINT)", syscall(SYS_tgkill, 1, 1, SIGINT));
    res("tgkill(1,SIGHUP)", syscall(SYS_tgkill, 1, 1, SIGHUP));
    res("tgkill(1,SIGCHLD)", syscall(SYS_tgkill, 1, 1, SIGCHLD));
    res("tgkill(1,SIGKILL)", syscall(SYS_tgkill, 1, 1, SIGKILL));
    for (int i = 0; i < nargs; i++) {
        int pid = atoi(args[i]);
        char w[64];
        snprintf(w, sizeof w, "tgkill(host pid,SIGKILL)");
        res(w, syscall(SYS_tgkill, pid, pid, SIGKILL));
    }
    sleep_ms(50);
    say("tgkill: still alive");
}

static void c_ptrace(void)
{
    res("ptrace(ATTACH,1)", ptrace(PTRACE_ATTACH, 1, NULL, NULL));
}

static void c_pvm(void)
{
    char buf[16];
    struct iovec l = {buf, sizeof buf}, r = {(void *)0x400000, sizeof buf};
    res("process_vm_readv(1)", syscall(SYS_process_vm_readv, 1, &l, 1, &r, 1, 0));
}

static void c_procmem(void)
{
    int fd = open("/proc/1/mem", O_RDONLY);
    say("open /proc/1/mem: %s", fd < 0 ? en(errno) : "OK");
    DIR *d = opendir("/proc/1/fd");
    say("opendir /proc/1/fd: %s", d ? "OK" : en(errno));
    if (d) {
        /* the init's pipes to the arena: one written by a bot would forge its own status */
        struct dirent *e;
        while ((e = readdir(d)))
            if (e->d_name[0] >= '0' && e->d_name[0] <= '9') {
                char p[300], w[320];
                snprintf(p, sizeof p, "/proc/1/fd/%s", e->d_name);
                snprintf(w, sizeof w, "open init fd %s for writing", e->d_name);
                int wfd = open(p, O_WRONLY | O_CLOEXEC);
                res(w, wfd);
                if (wfd >= 0)
                    close(wfd);
            }
        closedir(d);
    }
    char *c = slurp("/proc/1/maps", NULL);
    say("read /proc/1/maps: %s", c ? "OK" : en(errno));
    free(c);
}

static void c_unshare(void)
{
    res("unshare(CLONE_NEWUSER)", unshare(CLONE_NEWUSER));
}

static void c_mount(void)
{
    res("mount tmpfs", mount("none", "/", "tmpfs", 0, NULL));
}

static void c_chroot(void)
{
    res("chroot", chroot("/"));
}

static void c_setns(void)
{
    int fd = open("/proc/1/ns/net", O_RDONLY);
    say("open /proc/1/ns/net: %s", fd < 0 ? en(errno) : "OK");
    res("setns", syscall(SYS_setns, fd < 0 ? 0 : fd, 0));
}

static void c_pivot_root(void)
{
    res("pivot_root", syscall(SYS_pivot_root, "/", "/"));
}

static void c_exec_sh(void)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "cat /etc/shadow >&2; echo %s-sh-ran >&2", tag);
    execl("/bin/sh", "sh", "-c", cmd, tag, (char *)NULL);
    say("execve /bin/sh: %s", en(errno));
}

static void c_creds(void)
{
    char *s = slurp("/proc/self/status", NULL);
    if (!s) {
        say("status: %s", en(errno));
        return;
    }
    static const char *keys[] = {"Uid:", "Gid:", "CapEff:", "CapBnd:", "NoNewPrivs:", "Seccomp:"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        char *p = strstr(s, keys[i]);
        if (!p)
            continue;
        char *e = strchr(p, '\n');
        say("%.*s", (int)(e ? e - p : (long)strlen(p)), p);
    }
    free(s);
    struct statvfs v;
    if (statvfs("/usr/bin", &v) == 0)
        say("/usr/bin: %s %s", v.f_flag & ST_RDONLY ? "ro" : "rw",
            v.f_flag & ST_NOSUID ? "nosuid" : "suid");
    if (statvfs(".", &v) == 0)
        say("cwd: %s", v.f_flag & ST_RDONLY ? "ro" : "rw");
}

static void c_add_key(void)
{
    res("add_key", syscall(SYS_add_key, "user", tag, "secret", 6, -3 /* session keyring */));
}

static void c_keyctl(void)
{
    res("keyctl(GET_KEYRING_ID)", syscall(SYS_keyctl, 0, -3, 0));
}

static void c_flock(void)
{
    int fd = open("/usr/bin/env", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        fd = open("/bin/sh", O_RDONLY | O_CLOEXEC);
    say("open shared file: %s", fd < 0 ? en(errno) : "OK");
    res("flock(LOCK_EX)", flock(fd, LOCK_EX | LOCK_NB));
}

static void c_fcntl_lock(void)
{
    int fd = open("/usr/bin/env", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        fd = open("/bin/sh", O_RDONLY | O_CLOEXEC);
    struct flock fl = {.l_type = F_RDLCK, .l_whence = SEEK_SET};
    res("fcntl(F_SETLK)", fcntl(fd, F_SETLK, &fl));
}

static void c_sysv_shm(void)
{
    res("shmget", shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600));
}

static void c_sysv_msg(void)
{
    res("msgget", msgget(IPC_PRIVATE, IPC_CREAT | 0600));
}

static void c_sysv_sem(void)
{
    res("semget", semget(IPC_PRIVATE, 1, IPC_CREAT | 0600));
}

static void c_devshm(void)
{
    char p[256];
    snprintf(p, sizeof p, "/dev/shm/%s", tag);
    int fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    say("create /dev/shm file: %s", fd < 0 ? en(errno) : "OK");
    DIR *d = opendir("/dev/shm");
    say("opendir /dev/shm: %s", d ? "OK" : en(errno));
    if (d)
        closedir(d);
}

static void c_int80(void)
{
#if defined(__x86_64__)
    long r;
    __asm__ volatile("int $0x80" : "=a"(r) : "a"(20L) : "memory"); /* i386 getpid */
    say("int 0x80 getpid: returned %ld", r);
#else
    say("int 0x80: not x86_64");
#endif
}

static void c_x32(void)
{
    res("x32 getpid", syscall(0x40000000L | SYS_getpid));
}

static void c_io_uring(void)
{
    char params[120] = {0};
    res("io_uring_setup", syscall(SYS_io_uring_setup, 4, params));
}

static void c_bpf(void)
{
    char attr[128] = {0};
    res("bpf", syscall(SYS_bpf, 0 /* MAP_CREATE */, attr, sizeof attr));
}

static void c_perf(void)
{
    char attr[128] = {0};
    res("perf_event_open", syscall(SYS_perf_event_open, attr, 0, -1, -1, 0));
}

static void c_userfaultfd(void)
{
    res("userfaultfd", syscall(SYS_userfaultfd, 0));
}

/* ---- time (26-28, 35) ---------------------------------------------------------------------- */

static void c_busy(void)
{
    for (volatile unsigned long i = 0;; i++)
        ;
}

static void c_sleep(void)
{
    sleep_forever();
}

static void c_block_read(void)
{
    char b;
    while (read(0, &b, 1) > 0) /* the arena sends nothing until we answer: blocks */
        ;
    sleep_forever();
}

static void c_stopself(void)
{
    raise(SIGSTOP);
    say("stopself: woke up");
    sleep_forever();
}

static void *spinner(void *p)
{
    (void)p;
    for (volatile unsigned long i = 0;; i++)
        ;
    return NULL;
}

static void c_threads8(void)
{
    int n = 0;
    for (int i = 0; i < 7; i++) {
        pthread_t t;
        if (pthread_create(&t, NULL, spinner, NULL) == 0)
            n++;
    }
    say("spinners: %d threads + main", n);
    spinner(NULL);
}

static int ignoring;
static void c_ignore_term(void)
{
    struct sigaction sa = {.sa_handler = SIG_IGN};
    int sigs[] = {SIGTERM, SIGINT, SIGHUP, SIGXCPU, SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM, SIGQUIT};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
        sigaction(sigs[i], &sa, NULL);
    ignoring = 1;
    say("ignoring SIGTERM and friends");
}

/* ---- memory (29-30) ------------------------------------------------------------------------ */

static void c_mem(void)
{
    long mb = 0;
    for (; mb < 400; mb++) {
        char *p = malloc(1 << 20);
        if (!p)
            break;
        memset(p, (int)mb | 1, 1 << 20);
    }
    say("allocated %ld MiB", mb);
    if (mb < 400)
        _exit(1);
}

static void c_prot_none(void)
{
    size_t sz = (size_t)8 << 30;
    void *p = mmap(NULL, sz, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    say("mmap 8 GiB PROT_NONE: %s", p == MAP_FAILED ? en(errno) : "OK");
    if (p == MAP_FAILED)
        return;
    res("mprotect 1 MiB", mprotect(p, 1 << 20, PROT_READ | PROT_WRITE));
    memset(p, 1, 1 << 20);
    say("touched 1 MiB");
}

/* ---- output (31-34) ------------------------------------------------------------------------ */

static void c_stdout_flood(void)
{
    /* one frame of the largest allowed size, never finished: every byte is stdout in this
     * decision, none of it a complete (so judgeable) frame */
    uint8_t hdr[20];
    size_t n = okrpb_varint_put(65536, hdr);
    hdr[n++] = 0x1a; /* a Choice field filling the frame: a head the arena accepts */
    n += okrpb_varint_put(65536 - 1 - 3, hdr + n);
    write_all(1, hdr, n);
    static uint8_t body[65000];
    memset(body, 0x08, sizeof body);
    write_all(1, body, sizeof body);
    sleep_forever();
}

static void c_stderr_flood(void)
{
    static char noise[1 << 16];
    memset(noise, 'e', sizeof noise);
    noise[sizeof noise - 1] = '\n';
    for (int i = 0; i < 256; i++) /* 16 MiB */
        write_all(2, noise, sizeof noise);
    say("stderr flood: 16 MiB written");
}

static void c_garbage(void)
{
    uint8_t junk[17];
    junk[0] = 16;
    memset(junk + 1, 0xff, 16);
    write_all(1, junk, sizeof junk);
    sleep_forever();
}

static void c_bigline(void)
{
    uint8_t hdr[10];
    size_t n = okrpb_varint_put((uint64_t)1 << 30, hdr);
    write_all(1, hdr, n);
    static uint8_t zero[1 << 16];
    signal(SIGPIPE, SIG_DFL);
    for (long i = 0; i < (1L << 14); i++) /* 1 GiB */
        write_all(1, zero, sizeof zero);
    sleep_forever();
}

static void c_closeout(void)
{
    close(1);
    sleep_forever();
}

/* ---- crashes (36) -------------------------------------------------------------------------- */

static void c_abort(void)
{
    abort();
}

static void c_segv(void)
{
    static int *volatile bad; /* NULL, and the compiler cannot know it */
    *bad = 1;
}

static void c_exit3(void)
{
    exit(3);
}

/* ---- what a bot sees (37, 41, 42) ------------------------------------------------------------ */

static void c_fds_env(void)
{
    DIR *d = opendir("/proc/self/fd");
    char list[1024] = "";
    if (d) {
        struct dirent *e;
        int fds[256], n = 0;
        while ((e = readdir(d)) && n < 256)
            if (e->d_name[0] >= '0' && e->d_name[0] <= '9' && atoi(e->d_name) != dirfd(d))
                fds[n++] = atoi(e->d_name);
        closedir(d);
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++)
                if (fds[j] < fds[i]) {
                    int t = fds[i];
                    fds[i] = fds[j];
                    fds[j] = t;
                }
        for (int i = 0; i < n; i++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%d", i ? " " : "", fds[i]);
        say("fds: %s", list);
    } else {
        say("fds: %s", en(errno));
    }
    /* and by probing, in case /proc lies */
    int open_hi = 0;
    for (int fd = 3; fd < 1024; fd++)
        if (fcntl(fd, F_GETFD) >= 0)
            open_hi++;
    say("fds above 2 by fcntl: %d", open_hi);
    extern char **environ;
    for (char **e = environ; *e; e++)
        say("env %s", *e);
    say("env end");
    char cwd[PATH_MAX];
    say("cwd %s", getcwd(cwd, sizeof cwd) ? cwd : en(errno));
}

/* run twice: look for whatever a previous run could have left, then try to leave some */
static void c_persist(void)
{
    char dir[PATH_MAX];
    exe_dir(dir, sizeof dir);
    const char *dirs[] = {dir, ".", "/tmp", "/dev/shm", "/var/tmp", "/"};
    int found = 0;
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        char p[PATH_MAX + 64];
        snprintf(p, sizeof p, "%s/%s-persist", dirs[i], tag);
        struct stat st;
        if (stat(p, &st) == 0) {
            say("persist: found %s", p);
            found++;
        }
        int fd = open(p, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
        if (fd >= 0) {
            say("persist: left a file in %s", i == 0 ? "<exe dir>" : dirs[i]);
            close(fd);
        }
    }
    say("persist: found %d", found);
}

static void c_timing(void)
{
#if defined(__x86_64__)
    unsigned long long t0 = __builtin_ia32_rdtsc();
    unsigned long long t1 = __builtin_ia32_rdtsc();
    say("rdtsc: %s", t1 >= t0 ? "OK" : "backwards");
#endif
    struct timespec ts;
    res("clock_gettime(MONOTONIC)", clock_gettime(CLOCK_MONOTONIC, &ts));
    res("clock_gettime(PROCESS_CPUTIME)", clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts));
    char *s = slurp("/proc/stat", NULL);
    say("/proc/stat: %s", s ? "OK" : en(errno));
    free(s);
}

static void c_good(void)
{
}

/* what ordinary bots do and must keep doing: isatty, FIONREAD, non-blocking stdin, poll,
 * getrusage, sched_yield, a nanosleep, a thread */
static void c_benign(void)
{
    struct termios_like {
        char b[64];
    } t;
    res("isatty(0) TCGETS", ioctl(0, TCGETS, &t) < 0 && errno == ENOTTY ? 0 : -1);
    int avail = -1;
    res("ioctl(0,FIONREAD)", ioctl(0, FIONREAD, &avail));
    int fl = fcntl(0, F_GETFL);
    res("fcntl(0,F_GETFL)", fl);
    res("fcntl(0,F_SETFL,O_NONBLOCK)", fcntl(0, F_SETFL, fl | O_NONBLOCK));
    res("fcntl(0,F_SETFL) back", fcntl(0, F_SETFL, fl));
    struct pollfd pfd = {.fd = 0, .events = POLLIN};
    res("poll(0)", poll(&pfd, 1, 0));
    struct rusage ru;
    res("getrusage", getrusage(RUSAGE_SELF, &ru));
    res("sched_yield", sched_yield());
    sleep_ms(1);
    pthread_t th;
    int e = pthread_create(&th, NULL, sleeper_once, NULL);
    say("pthread_create: %s", en(e));
    if (!e)
        pthread_join(th, NULL);
    say("benign: done");
}

/* ---- the case table ------------------------------------------------------------------------ */

enum { AT_START, AT_DECIDE };
static const struct hcase {
    const char *name;
    int when;
    void (*fn)(void);
} cases[] = {
    {"good", AT_DECIDE, c_good},
    {"benign", AT_DECIDE, c_benign},
    {"net_tcp", AT_DECIDE, c_net_tcp},
    {"net_udp", AT_DECIDE, c_net_udp},
    {"net_unix", AT_DECIDE, c_net_unix},
    {"net_raw", AT_DECIDE, c_net_raw},
    {"fs_read", AT_START, c_fs_read},
    {"fs_write", AT_DECIDE, c_fs_write},
    {"fs_bigfile", AT_DECIDE, c_fs_bigfile},
    {"memfd", AT_DECIDE, c_memfd},
    {"paths", AT_DECIDE, c_paths},
    {"procinfo", AT_DECIDE, c_procinfo},
    {"tty", AT_START, c_tty},
    {"fork_bomb", AT_DECIDE, c_fork_bomb},
    {"thread_bomb", AT_DECIDE, c_thread_bomb},
    {"daemonize", AT_START, c_daemonize},
    {"zombies", AT_DECIDE, c_zombies},
    {"kill_ppid", AT_DECIDE, c_kill_ppid},
    {"kill_all", AT_DECIDE, c_kill_all},
    {"kill_pg", AT_DECIDE, c_kill_pg},
    {"tgkill", AT_DECIDE, c_tgkill},
    {"ptrace", AT_DECIDE, c_ptrace},
    {"pvm", AT_DECIDE, c_pvm},
    {"procmem", AT_DECIDE, c_procmem},
    {"unshare", AT_DECIDE, c_unshare},
    {"mount", AT_DECIDE, c_mount},
    {"chroot", AT_DECIDE, c_chroot},
    {"setns", AT_DECIDE, c_setns},
    {"pivot_root", AT_DECIDE, c_pivot_root},
    {"exec_sh", AT_DECIDE, c_exec_sh},
    {"creds", AT_START, c_creds},
    {"add_key", AT_DECIDE, c_add_key},
    {"keyctl", AT_DECIDE, c_keyctl},
    {"flock", AT_DECIDE, c_flock},
    {"fcntl_lock", AT_DECIDE, c_fcntl_lock},
    {"sysv_shm", AT_DECIDE, c_sysv_shm},
    {"sysv_msg", AT_DECIDE, c_sysv_msg},
    {"sysv_sem", AT_DECIDE, c_sysv_sem},
    {"devshm", AT_DECIDE, c_devshm},
    {"int80", AT_DECIDE, c_int80},
    {"x32", AT_DECIDE, c_x32},
    {"io_uring", AT_DECIDE, c_io_uring},
    {"bpf", AT_DECIDE, c_bpf},
    {"perf", AT_DECIDE, c_perf},
    {"userfaultfd", AT_DECIDE, c_userfaultfd},
    {"busy", AT_DECIDE, c_busy},
    {"sleep", AT_DECIDE, c_sleep},
    {"block_read", AT_DECIDE, c_block_read},
    {"stopself", AT_DECIDE, c_stopself},
    {"threads8", AT_DECIDE, c_threads8},
    {"ignore_term", AT_START, c_ignore_term},
    {"mem", AT_DECIDE, c_mem},
    {"prot_none", AT_DECIDE, c_prot_none},
    {"stdout_flood", AT_DECIDE, c_stdout_flood},
    {"stderr_flood", AT_DECIDE, c_stderr_flood},
    {"garbage", AT_DECIDE, c_garbage},
    {"bigline", AT_DECIDE, c_bigline},
    {"closeout", AT_DECIDE, c_closeout},
    {"abort", AT_DECIDE, c_abort},
    {"segv", AT_DECIDE, c_segv},
    {"exit3", AT_DECIDE, c_exit3},
    {"fds_env", AT_START, c_fds_env},
    {"persist", AT_DECIDE, c_persist},
    {"timing", AT_DECIDE, c_timing},
    {"noread", AT_START, NULL},  /* handled in main: Identify + Ready, never reads */
    {"slow", AT_DECIDE, c_good}, /* handled in the loop: 150 ms per decision */
};

static const char *identify_name(void)
{
    /* the paths case also tries its junk on the arena's records */
    return strcmp(mode, "paths") == 0 ? "hb\xff\xfe%n%s\"\\\n\x1b[31m</script>" : "hostile";
}

int main(int argc, char **argv)
{
    rng_state = (uint64_t)getpid() * 0x2545f4914f6cdd1dULL ^ (uint64_t)time(NULL);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--mode") == 0 && i + 1 < argc)
            mode = argv[++i];
        else if (strcmp(argv[i], "--tag") == 0 && i + 1 < argc)
            tag = argv[++i];
        else if (strcmp(argv[i], "--arg") == 0 && i + 1 < argc && nargs < 16) {
            /* "@/some/path": the test hides a path from the arena, which shows the bot the
             * folder of every path on its command line */
            const char *a = argv[++i];
            args[nargs++] = a[0] == '@' ? a + 1 : a;
        } else {
            fprintf(stderr, "hostile_bot: unknown argument '%s'\n", argv[i]);
            return 2;
        }
    }
    const struct hcase *hc = NULL;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        if (strcmp(cases[i].name, mode) == 0)
            hc = &cases[i];
    if (!hc) {
        fprintf(stderr, "hostile_bot: unknown mode '%s'\n", mode);
        return 2;
    }
    say("mode %s", mode);
    if (strcmp(mode, "noread") == 0) {
        send_identify();
        send_ready();
        sleep_forever();
    }
    if (hc->when == AT_START)
        hc->fn();

    uint8_t *buf = NULL;
    size_t cap = 0;
    int acted = hc->when == AT_START;
    for (;;) {
        long len = read_frame(&buf, &cap);
        if (len < 0)
            break;
        Okrpb__ToBot *m = okrpb__to_bot__unpack(NULL, (size_t)len, buf);
        if (!m) {
            say("bad frame from the arena");
            return 1;
        }
        if (m->msg_case == OKRPB__TO_BOT__MSG_HELLO) {
            send_identify();
            send_ready();
        } else if (m->msg_case == OKRPB__TO_BOT__MSG_DECISION) {
            const Okrpb__Decision *d = m->decision;
            if (!acted) {
                acted = 1;
                hc->fn();
            }
            if (strcmp(mode, "slow") == 0)
                sleep_ms(150);
            uint32_t n = (uint32_t)d->n_legal;
            send_index(d->id, n ? (uint32_t)(rnd() % n) : 0);
        } else if (m->msg_case == OKRPB__TO_BOT__MSG_BYE) {
            okrpb__to_bot__free_unpacked(m, NULL);
            break;
        }
        okrpb__to_bot__free_unpacked(m, NULL);
    }
    free(buf);
    if (ignoring) /* ignores Bye and SIGTERM: only SIGKILL ends it */
        c_busy();
    return 0;
}
