/* collude_bot.c - two colluding bots at one table (issue 20), for tests/hostile/collude.sh.
 * They agree on one bit per turn of the sender: the bit of turn r is a hash of r, where r is
 * the id of the receiver's last Decision before the sender's turn (Decision ids count up
 * through a game across the seats, so the sender knows r as the id before its turn's first).
 *
 *   okcollude --role send --ms S      each Decision of a turn takes S ms: spinning for a 1,
 *                                     sleeping for a 0 (the same time: the CPU load carries
 *                                     the bit, the decision time does not)
 *   okcollude --role recv             a thread samples the host's counters every ~1 ms
 *                                     (/proc/loadavg's running tasks, /proc/stat's idle ticks);
 *                                     at each Decision after a sender's turn it logs what it
 *                                     saw in the gap since its last Choice
 *   okcollude --role time --ms S [--levels L]
 *                                     timing channel: each Decision of a sender's turn takes
 *                                     (1 + sym * S) ms, sleeping, where sym (0 .. L-1, default
 *                                     L = 2: a bit) is the turn's agreed symbol
 *   okcollude --role timerecv         logs the gap between its Choice and its next Decision
 *
 * Logs (stderr, the bot's log): "SENT r sym", "GAP r n mean_running idle_per_ms gap_idle
 * gap_ms covered_ms" and "TGAP r gap_ms", parsed by collude.sh and pace.sh, which judges the
 * decoding. The receiver's thread records a sample only if reading it took less than 1 ms, so a
 * sample begun before a freeze and ended after it is not counted in the gap. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "okbot.h"

enum { ROLE_SEND, ROLE_RECV, ROLE_TIME, ROLE_TIMERECV };
static int role = -1;
static int slot_ms = 15;

static int levels = 2;

/* The symbol of turn r, 0 .. levels-1 (a bit with the default 2 levels). */
static int agreed_bit(uint64_t r)
{
    uint64_t s = r ^ 0x5eedc011u;
    return (int)((okb_rand(&s) >> 17) % (uint64_t)levels);
}

/* ---- the receiver's sampler ---------------------------------------------------------------- */

typedef struct sample {
    int64_t t0, t1; /* before and after reading */
    int running;    /* /proc/loadavg 4th field's numerator */
    long long idle; /* /proc/stat cpu idle + iowait ticks */
} sample;
enum { RING = 1 << 16 };
static sample ring[RING];
static atomic_ullong nsamples;

static int read_file(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "re");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, cap - 1, f);
    fclose(f);
    buf[n] = '\0';
    return (int)n;
}

static void *sampler(void *arg)
{
    (void)arg;
    for (;;) {
        sample s;
        char buf[512];
        s.t0 = okb_now_ns();
        s.running = -1;
        s.idle = -1;
        if (read_file("/proc/loadavg", buf, sizeof buf) > 0) {
            double a, b, c;
            int run, tot;
            if (sscanf(buf, "%lf %lf %lf %d/%d", &a, &b, &c, &run, &tot) == 5)
                s.running = run;
        }
        if (read_file("/proc/stat", buf, sizeof buf) > 0) {
            long long u, n, sy, id, io;
            if (sscanf(buf, "cpu %lld %lld %lld %lld %lld", &u, &n, &sy, &id, &io) == 5)
                s.idle = id + io;
        }
        s.t1 = okb_now_ns();
        unsigned long long k = atomic_load(&nsamples);
        ring[k % RING] = s;
        atomic_store(&nsamples, k + 1);
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    return NULL;
}

/* ---- decisions ------------------------------------------------------------------------------ */

static uint64_t last_id; /* our previous Decision's id */
static int64_t last_end; /* okb_now_ns() when we answered it */
static uint64_t turn_r;  /* sender: r of the current turn */

static void spin_or_sleep(int spin, int ms)
{
    int64_t until = okb_now_ns() + (int64_t)ms * 1000000;
    if (spin) {
        volatile uint64_t x = 1;
        while (okb_now_ns() < until)
            for (int i = 0; i < 1000; i++)
                x = x * 6364136223846793005ULL + 1;
    } else {
        struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000};
        nanosleep(&ts, NULL);
    }
}

static long long last_idle = -1; /* /proc/stat idle when we answered our last Decision */
static long long end_idle = -1;  /* ... and when this one arrived */

static long long idle_now(void)
{
    char buf[512];
    long long u, n, sy, id, io;
    if (read_file("/proc/stat", buf, sizeof buf) > 0 &&
        sscanf(buf, "cpu %lld %lld %lld %lld %lld", &u, &n, &sy, &id, &io) == 5)
        return id + io;
    return -1;
}

/* GAP r n mean_running idle_per_ms gap_idle gap_ms covered_ms: n samples taken inside the
 * gap (mean running tasks, idle ticks per ms between the first and last of them, covering
 * covered_ms), and gap_idle, the idle ticks over the whole gap from our own reads at its two
 * ends (a cumulative counter, read while we decide: see collude.sh) */
static void log_gap(uint64_t r, int64_t from, int64_t to)
{
    /* the samples taken inside the gap, each read in less than 1 ms */
    const int64_t margin = 500000; /* 0.5 ms */
    unsigned long long k = atomic_load(&nsamples);
    unsigned long long lo = k > RING ? k - RING : 0;
    int n = 0;
    double run = 0;
    long long idle0 = -1, idle1 = -1;
    int64_t t_first = 0, t_last = 0;
    for (unsigned long long i = lo; i < k; i++) {
        const sample *s = &ring[i % RING];
        if (s->t0 < from + margin || s->t1 > to - margin || s->t1 - s->t0 > 1000000)
            continue;
        if (s->running >= 0) {
            run += s->running;
            n++;
        }
        if (s->idle >= 0) {
            if (idle0 < 0) {
                idle0 = s->idle;
                t_first = s->t1;
            }
            idle1 = s->idle;
            t_last = s->t1;
        }
    }
    double span = t_last > t_first ? (double)(t_last - t_first) / 1e6 : 0;
    fprintf(stderr, "GAP %llu %d %.3f %.4f %lld %.1f %.1f\n", (unsigned long long)r, n,
            n ? run / n : -1.0, span > 0 ? (double)(idle1 - idle0) / span : -1.0,
            end_idle >= 0 && last_idle >= 0 ? end_idle - last_idle : -1LL,
            (double)(to - from) / 1e6, span);
}

static int decide(const okb_decision *d, void *ud)
{
    (void)ud;
    uint64_t id = d->id;
    int fresh_turn = id != last_id + 1;
    if (role == ROLE_SEND || role == ROLE_TIME) {
        if (fresh_turn) {
            turn_r = id - 1;
            fprintf(stderr, "SENT %llu %d\n", (unsigned long long)turn_r, agreed_bit(turn_r));
        }
        int bit = agreed_bit(turn_r);
        if (role == ROLE_SEND)
            spin_or_sleep(bit, slot_ms);
        else
            spin_or_sleep(0, 1 + bit * slot_ms);
    } else if (fresh_turn && last_end) {
        if (role == ROLE_RECV) {
            end_idle = idle_now();
            log_gap(last_id, last_end, d->start_ns);
        } else
            fprintf(stderr, "TGAP %llu %.3f\n", (unsigned long long)last_id,
                    (double)(d->start_ns - last_end) / 1e6);
    }
    uint64_t s = id;
    int pick = (int)okb_rand_below(&s, (uint32_t)d->n);
    last_id = id;
    if (role == ROLE_RECV)
        last_idle = idle_now();
    last_end = okb_now_ns();
    return pick;
}

int main(int argc, char **argv)
{
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--role") == 0) {
            static const char *const names[] = {"send", "recv", "time", "timerecv"};
            for (int k = 0; k < 4; k++)
                if (strcmp(argv[i + 1], names[k]) == 0)
                    role = k;
        } else if (strcmp(argv[i], "--ms") == 0)
            slot_ms = atoi(argv[i + 1]);
    }
    if (role < 0 || slot_ms < 1 || levels < 2) {
        fprintf(stderr, "usage: okcollude --role send|recv|time|timerecv [--ms S] [--levels L]\n");
        return 2;
    }
    if (role == ROLE_RECV) {
        pthread_t t;
        if (pthread_create(&t, NULL, sampler, NULL) != 0) {
            perror("pthread_create");
            return 1;
        }
    }
    okb_bot bot = {.name = "collude", .version = "1", .decide = decide};
    return okb_run(&bot, NULL);
}
