/* pingpong.c - the ceiling for `arena match`: two processes that do nothing but exchange
 * length-prefixed frames over a pair of pipes, one "decision" of TO bytes out and one "choice"
 * of FROM bytes back per round trip, with blocking reads and writes and no decoding.
 * bench/bench_match.sh runs it with the frame sizes a real match measured, next to the match.
 *
 *   pingpong [--to BYTES] [--from BYTES] [--rounds N] [--seconds S]
 *
 * Prints one line: "pingpong: N round trips, TO/FROM bytes, S s, R round trips/s; CPU per round
 * trip U us user, K us system" (the CPU of both processes). */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double tv_s(struct timeval tv)
{
    return (double)tv.tv_sec + (double)tv.tv_usec * 1e-6;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void put_all(int fd, const uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            exit(1);
        p += w;
        n -= (size_t)w;
    }
}

/* A frame: varint(len) then len bytes, like the protocol's. */
static size_t make_frame(uint8_t *out, size_t len)
{
    size_t n = 0;
    uint64_t v = len;
    while (v >= 0x80) {
        out[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    out[n++] = (uint8_t)v;
    memset(out + n, 0x2a, len);
    return n + len;
}

/* Buffered frame reader, as a careful bot or the arena reads: one read() brings what is there,
 * frames are cut from the buffer. */
typedef struct reader {
    int fd;
    uint8_t *buf;
    size_t cap, len, off;
} reader;

static void read_frame(reader *r)
{
    for (;;) {
        uint64_t len = 0;
        size_t i = r->off;
        int shift = 0, have = 0;
        while (i < r->len) {
            uint8_t b = r->buf[i++];
            len |= (uint64_t)(b & 0x7f) << shift;
            shift += 7;
            if (!(b & 0x80)) {
                have = 1;
                break;
            }
        }
        if (have && r->len - i >= len) {
            r->off = i + len; /* a whole frame: consumed */
            if (r->off == r->len)
                r->off = r->len = 0;
            return;
        }
        if (r->off > 0) {
            memmove(r->buf, r->buf + r->off, r->len - r->off);
            r->len -= r->off;
            r->off = 0;
        }
        ssize_t n = read(r->fd, r->buf + r->len, r->cap - r->len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            exit(0); /* the other side is done */
        r->len += (size_t)n;
    }
}

int main(int argc, char **argv)
{
    size_t to = 1500, from = 8;
    long rounds = 0;
    double seconds = 2.0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--to") == 0 && i + 1 < argc)
            to = strtoul(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--from") == 0 && i + 1 < argc)
            from = strtoul(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            rounds = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc)
            seconds = strtod(argv[++i], NULL);
        else {
            fprintf(stderr, "usage: pingpong [--to BYTES] [--from BYTES] [--rounds N] "
                            "[--seconds S]\n");
            return 2;
        }
    }
    if (to < 1 || from < 1 || to > (64u << 20) || from > (64u << 20)) {
        fprintf(stderr, "pingpong: sizes must be 1 byte to 64 MiB\n");
        return 2;
    }
    int down[2], up[2];
    if (pipe(down) < 0 || pipe(up) < 0) {
        perror("pipe");
        return 1;
    }
    uint8_t *out = malloc(to + 10), *back = malloc(from + 10);
    reader rd = {0};
    rd.cap = 2 * (to + from) + 64;
    rd.buf = malloc(rd.cap);
    if (!out || !back || !rd.buf)
        return 1;
    size_t out_n = make_frame(out, to), back_n = make_frame(back, from);

    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return 1;
    }
    if (pid == 0) { /* the bot: read a decision, answer it */
        close(down[1]);
        close(up[0]);
        rd.fd = down[0];
        for (;;) {
            read_frame(&rd);
            put_all(up[1], back, back_n);
        }
    }
    close(down[0]);
    close(up[1]);
    rd.fd = up[0];

    /* warm up, then measure a fixed count or a fixed time */
    for (int i = 0; i < 1000; i++) {
        put_all(down[1], out, out_n);
        read_frame(&rd);
    }
    long done = 0;
    double t0 = now(), t = t0;
    while (rounds ? done < rounds : t - t0 < seconds) {
        for (int i = 0; i < 256 && (!rounds || done < rounds); i++, done++) {
            put_all(down[1], out, out_n);
            read_frame(&rd);
        }
        t = now();
    }
    double secs = t - t0;
    close(down[1]);
    int st;
    waitpid(pid, &st, 0);
    /* CPU of both sides (warm-up included), to set against the match's arena + bot CPU */
    struct rusage self, child;
    getrusage(RUSAGE_SELF, &self);
    getrusage(RUSAGE_CHILDREN, &child);
    double user = tv_s(self.ru_utime) + tv_s(child.ru_utime);
    double sys = tv_s(self.ru_stime) + tv_s(child.ru_stime);
    long all = done + 1000;
    printf("pingpong: %ld round trips, %zu/%zu bytes, %.3f s, %.0f round trips/s; CPU per round "
           "trip %.2f us user, %.2f us system\n",
           done, to, from, secs, secs > 0 ? (double)done / secs : 0.0, 1e6 * user / (double)all,
           1e6 * sys / (double)all);
    free(out);
    free(back);
    free(rd.buf);
    return 0;
}
